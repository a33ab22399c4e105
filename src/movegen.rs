//! Legal move generation from the variant's tables.
//!
//! With check rules and exactly one royal piece, legality comes from checkers and pins (the
//! fast path). Otherwise (several royal pieces, lame capturing leaps, or a rules module that
//! asks for it) every pseudo-legal move is made and tested. Without check every pseudo-legal
//! move is legal, and a side that has lost all its royal pieces has no moves.

use crate::bitboard::{Bitboard, Word};
use crate::castling::CastlingRights;
use crate::color::Color;
use crate::moves::{Move, MoveForm, MoveKind, MoveList};
use crate::position::{Piece, Position};
use crate::rules::{Bb, Capabilities, Rules};
use crate::square::Square;
use arrayvec::ArrayVec;

/// Most inverse ride groups for which the fast legality test keeps pin masks.
pub const MAX_PIN_GROUPS: usize = 32;

/// Where generated moves go: a list, or a counter that needs no moves (perft's last ply).
pub(crate) trait MoveSink {
    /// True for a counter: generation may then count whole sets of moves at once.
    const BULK: bool;
    fn push(&mut self, m: Move);
    /// Plain moves from `from` to each square of `to`.
    fn push_normal<W: Word>(&mut self, from: Square, to: Bitboard<W>);
    /// The sink as a move list, if it is one.
    fn as_list(&mut self) -> Option<&mut MoveList>;
    /// Adds `n` counted moves (counters only: [`MoveSink::BULK`] is false for lists).
    fn add_count(&mut self, n: u64);
}

impl MoveSink for MoveList {
    const BULK: bool = false;
    #[inline(always)]
    fn push(&mut self, m: Move) {
        ArrayVec::push(self, m);
    }
    #[inline(always)]
    fn push_normal<W: Word>(&mut self, from: Square, to: Bitboard<W>) {
        for to in to {
            ArrayVec::push(self, Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn as_list(&mut self) -> Option<&mut MoveList> {
        Some(self)
    }
    fn add_count(&mut self, _: u64) {
        unreachable!("a move list is never given counts (BULK is false)");
    }
}

/// Which legal moves a generation call produces: the two halves partition the legal moves.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Half {
    All,
    /// Captures, en passant and pawn moves into the promotion zone.
    Captures,
    /// Everything else: quiet moves, castling and the rules module's extra moves.
    Quiets,
}

/// Pinned pieces and the squares each may still move to.
struct Pins<W: Word> {
    pinned: Bitboard<W>,
    masks: ArrayVec<(Square, Bitboard<W>), MAX_PIN_GROUPS>,
}

impl<W: Word> Pins<W> {
    #[inline]
    fn mask(&self, sq: Square) -> Bitboard<W> {
        let mut m = !Bitboard::EMPTY;
        for &(s, b) in &self.masks {
            if s == sq {
                m &= b;
            }
        }
        m
    }
}

impl<R: Rules> Position<R> {
    /// Pieces of colour `by` that could capture onto `sq` with occupancy `occ`.
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bb<R>) -> Bb<R> {
        let t = &self.game.tables;
        let mine = self.by_color[by.index()] & occ;
        let mut a = Bitboard::EMPTY;
        for &k in &t.leap_attackers[by.index()] {
            a |= t.kinds[k].leap_capt_inv[by.index()][sq] & self.by_kind[k];
        }
        for &(set, kinds) in t.attack_sets[by.index()]
            .iter()
            .filter(|_| <R::Word as Word>::BITS == 64)
        {
            let reached = t.set_attacks(set, sq, occ);
            let mut m = kinds;
            while m != 0 {
                a |= reached & self.by_kind[m.trailing_zeros() as usize];
                m &= m - 1;
            }
        }
        a &= mine;
        for inv in &t.attack_rides[by.index()] {
            let hit = t.ray(inv.ray, sq) & occ;
            if let Some(b) = t.first_on_ray(inv.ray, hit) {
                let p = self.board[b.index()];
                if mine.contains(b) && p.is_some() && inv.kinds >> p.kind() & 1 != 0 {
                    a.set(b);
                }
            }
        }
        for &k in &t.lame_attackers {
            for from in self.by_kind[k] & mine {
                for sp in &t.kinds[k].specials[by.index()][from] {
                    if sp.capture && sp.to == sq && (sp.path & occ).is_empty() {
                        a.set(from);
                    }
                }
            }
        }
        a
    }

    /// True when `by` attacks `sq` with the current occupancy.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        if self.game.caps.contains(Capabilities::CUSTOM_ATTACKS) {
            return self.game.rules.attacked(self, sq, by);
        }
        self.attackers_to(sq, by, self.occupied()).is_nonempty()
    }

    /// True when a royal piece of `c` is attacked (or stands where royals may not stand).
    pub fn royal_in_danger(&self, c: Color) -> bool {
        let occ = self.occupied();
        if self.game.caps.contains(Capabilities::CUSTOM_ATTACKS) {
            return self
                .royals(c)
                .any(|k| self.game.royal_forbidden.contains(k) || self.game.rules.attacked(self, k, !c));
        }
        self.royals(c)
            .any(|k| self.game.royal_forbidden.contains(k) || self.attackers_to(k, !c, occ).is_nonempty())
    }

    /// The piece that move `m` captures (en passant and special captures included), or
    /// [`Piece::NONE`].
    #[inline]
    pub fn victim(&self, m: Move) -> Piece {
        match m.kind() {
            MoveKind::EnPassant => self.board[m.aux() as usize],
            MoveKind::Castle => Piece::NONE,
            MoveKind::Special => match self.game.rules.special_form(m) {
                MoveForm::Capture(sq) => self.board[sq.index()],
                _ => Piece::NONE,
            },
            _ => {
                let p = self.board[m.to().index()];
                if p.is_some() && p.color() != self.side {
                    p
                } else {
                    Piece::NONE
                }
            }
        }
    }

    /// True when the side to move is in check (only in variants with check).
    pub fn in_check(&self) -> bool {
        self.game.variant.check && self.royal_in_danger(self.side)
    }

    /// True when a side that needs royal pieces has none left (it has lost).
    pub fn royals_gone(&self, c: Color) -> bool {
        self.game.royal_kinds != 0 && self.royals(c).is_empty()
    }

    /// Pushes a move, expanding promotions when a pawn enters the promotion zone.
    #[inline]
    fn push_move<S: MoveSink>(&self, out: &mut S, from: Square, to: Square, kind: usize, promo: bool) {
        if promo {
            let v = &self.game.variant;
            for &pk in &v.promotion_kinds {
                out.push(Move::new(from, to, MoveKind::Promotion, kind as u32, pk as u32));
            }
            if v.promotion_compulsory {
                return;
            }
        }
        out.push(Move::normal(from, to));
    }

    /// Squares a piece of `kind` on `from` reaches by its unconditional leaps and rides, moving
    /// in `dir`'s direction and capturing pieces in `them` (conditional leaps not included).
    #[inline(always)]
    pub fn kind_targets(&self, from: Square, kind: usize, dir: Color, them: Bb<R>) -> Bb<R> {
        let t = &self.game.tables;
        let kt = &t.kinds[kind];
        let occ = self.occupied();
        let c = dir.index();
        let mut quiet = kt.leap_quiet[c][from] & !occ;
        let mut capt = kt.leap_capt[c][from] & them;
        // The slider sets exist on 64-bit boards only (a constant test: no branch at run time).
        for slide in kt.slides[c].iter().filter(|_| <R::Word as Word>::BITS == 64) {
            let att = t.set_attacks(slide.set, from, occ);
            if slide.quiet {
                quiet |= att & !occ;
            }
            if slide.capture {
                capt |= att & them;
            }
        }
        for ride in &kt.loose_rides[c] {
            let att = t.ray_attacks(ride.ray, from, occ);
            if ride.quiet {
                quiet |= att & !occ;
            }
            if ride.capture {
                capt |= att & them;
            }
        }
        quiet | capt
    }

    /// Moves of the piece on `from` (kind `kind`, colour = side to move) whose destination is
    /// in `allowed`. Castling and en passant are not included.
    pub(crate) fn piece_moves<S: MoveSink>(&self, from: Square, kind: usize, allowed: Bb<R>, list: &mut S) {
        let g = &*self.game;
        let t = &g.tables;
        let us = self.side;
        let kt = &t.kinds[kind];
        let occ = self.occupied();
        let them = self.by_color[(!us).index()];
        let c = us.index();
        let reach = self.kind_targets(from, kind, us, them);
        let mut allowed = allowed;
        if g.royal_kinds >> kind & 1 != 0 {
            allowed &= !g.royal_forbidden;
        }
        let targets = reach & allowed & g.landable;
        let is_pawn = g.pawn_kinds >> kind & 1 != 0;
        let zone = if is_pawn { g.promo_zone[c] } else { Bitboard::EMPTY };
        list.push_normal(from, targets & !zone);
        for to in targets & zone {
            self.push_move(list, from, to, kind, true);
        }
        for sp in &kt.specials[c][from] {
            if !allowed.contains(sp.to) || targets.contains(sp.to) || (sp.path & occ).is_nonempty() {
                continue;
            }
            let target = self.board[sp.to.index()];
            if target.is_none() && sp.quiet {
                if is_pawn && sp.path.count() == 1 && !zone.contains(sp.to) {
                    let ep = sp.path.first().expect("path has one square");
                    list.push(Move::new(from, sp.to, MoveKind::DoubleStep, ep.index() as u32, 0));
                } else {
                    self.push_move(list, from, sp.to, kind, zone.contains(sp.to));
                }
            } else if target.is_some() && sp.capture && target.color() != us {
                self.push_move(list, from, sp.to, kind, zone.contains(sp.to));
            }
        }
    }

    /// En-passant captures (pseudo-legal).
    fn ep_moves(&self, list: &mut MoveList) {
        let Some(ep) = self.st.ep else { return };
        let g = &*self.game;
        let us = self.side;
        let victim = self.st.ep_victim;
        let vp = self.board[victim.index()];
        if vp.is_none() || vp.color() == us || g.pawn_kinds >> vp.kind() & 1 == 0 {
            return;
        }
        let mut m = g.pawn_kinds;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            for from in g.tables.kinds[k].ep_capt_inv[us.index()][ep] & self.pieces(us, k) {
                list.push(Move::new(from, ep, MoveKind::EnPassant, victim.index() as u32, 0));
            }
        }
    }

    /// Castling moves whose emptiness conditions hold; with `safe`, also the attack conditions.
    fn castle_moves<S: MoveSink>(&self, list: &mut S, safe: bool) {
        let us = self.side;
        if !self.st.castling.intersects(CastlingRights::side(us)) {
            return;
        }
        let g = &*self.game;
        let occ = self.occupied();
        for right in 0..2 {
            if !self.st.castling.has(us, right) {
                continue;
            }
            let (first, options) = self.castle_options(us, right);
            for (i, info) in options.iter().enumerate() {
                let o = info.sq;
                let (k, r) = (self.board[o.king_from.index()], self.board[o.rook_from.index()]);
                if k.is_none() || k.color() != us || g.royal_kinds >> k.kind() & 1 == 0 {
                    continue;
                }
                if r.is_none() || r.color() != us {
                    continue;
                }
                if (info.empty & occ).is_nonempty() {
                    continue;
                }
                if safe {
                    let them = !us;
                    let occ_nk = occ & !Bitboard::from(o.king_from);
                    if (info.king_path & g.royal_forbidden).is_nonempty() || g.royal_forbidden.contains(o.king_to) {
                        continue;
                    }
                    if { info.king_path }.any(|s| self.attackers_to(s, them, occ_nk).is_nonempty()) {
                        continue;
                    }
                    let after = (occ & !Bitboard::from(o.king_from) & !Bitboard::from(o.rook_from))
                        | Bitboard::from(o.king_to)
                        | Bitboard::from(o.rook_to);
                    if self.attackers_to(o.king_to, them, after).is_nonempty() {
                        continue;
                    }
                }
                list.push(Move::castle(o.king_from, o.king_to, right, first + i));
            }
        }
    }

    /// Every pseudo-legal move: piece moves, castling (emptiness only, plus safety in games
    /// with check), en passant and the rules module's extra moves.
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        if self.game.caps.contains(Capabilities::OWN_MOVEGEN) {
            self.game.rules.generate(self, list);
            return;
        }
        let us = self.side;
        let dynamic = self.game.dynamic_kinds;
        for from in self.by_color[us.index()] {
            let kind = self.board[from.index()].kind();
            if dynamic >> kind & 1 != 0 {
                self.game.rules.dynamic_moves(self, from, kind, list);
            } else {
                self.piece_moves(from, kind, !Bitboard::EMPTY, list);
            }
        }
        self.castle_moves(list, self.game.variant.check);
        self.ep_moves(list);
        if self.specials {
            self.game.rules.extra_moves(self, list);
        }
    }

    /// Legal moves of the side to move.
    pub fn legal_moves(&mut self, list: &mut MoveList) {
        let g = &*self.game;
        let us = self.side;
        if g.royal_kinds != 0 && self.royals(us).is_empty() {
            return; // this side has lost
        }
        if !g.variant.check {
            self.pseudo_legal_moves(list);
            return;
        }
        let royals = self.royals(us);
        if !g.fast_legal || royals.more_than_one() {
            self.legal_by_making(list);
            return;
        }
        if royals.is_empty() {
            self.pseudo_legal_moves(list);
            return;
        }
        self.legal_fast(list, royals.first().expect("one royal"), Half::All);
    }

    /// Legal captures, en-passant captures and promotions of the side to move (for quiescence
    /// search; when in check, use [`Position::legal_moves`] for the evasions).
    pub fn legal_captures(&mut self, list: &mut MoveList) {
        self.legal_half(list, Half::Captures);
    }

    /// The legal moves that [`Position::legal_captures`] leaves out: together the two lists are
    /// the legal moves, each once (a staged search generates the quiet half only when needed).
    pub fn legal_quiets(&mut self, list: &mut MoveList) {
        self.legal_half(list, Half::Quiets);
    }

    /// True when [`Position::legal_captures`] and [`Position::legal_quiets`] each cost only
    /// their own half (legality from pins and checks); otherwise each generates every legal
    /// move, and a caller that wants both should generate once and split.
    pub fn halves_are_cheap(&self) -> bool {
        let g = &*self.game;
        let royals = self.royals(self.side);
        g.variant.check && g.fast_legal && royals.first().is_some() && !royals.more_than_one()
    }

    fn legal_half(&mut self, list: &mut MoveList, half: Half) {
        if self.halves_are_cheap() {
            let ksq = self.royals(self.side).first().expect("one royal");
            self.legal_fast(list, ksq, half);
            return;
        }
        let start = list.len();
        self.legal_moves(list);
        let want = half == Half::Captures;
        let mut kept = start;
        for i in start..list.len() {
            let m = list[i];
            if (self.victim(m).is_some() || m.kind() == MoveKind::Promotion) == want {
                list[kept] = m;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// True when `m` is a pseudo-legal plain move (normal, double step or promotion) of a piece
    /// of the side to move, found without generating every move (a staged search tries a stored
    /// move so). False where that cannot be told cheaply (castling, en passant, special moves,
    /// pieces whose moves a rules module makes) and for a side that has lost: such moves are
    /// only found by generating.
    pub fn is_plain_pseudo_legal(&self, m: Move) -> bool {
        if m == Move::NONE
            || !matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Promotion)
            || self.game.caps.contains(Capabilities::OWN_MOVEGEN)
            || self.royals_gone(self.side)
        {
            return false;
        }
        let p = self.board[m.from().index()];
        if p.is_none() || p.color() != self.side || self.game.dynamic_kinds >> p.kind() & 1 != 0 {
            return false;
        }
        let mut list = MoveList::new();
        self.piece_moves(m.from(), p.kind(), Bitboard::from(m.to()), &mut list);
        list.contains(&m)
    }

    fn legal_by_making(&mut self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.pseudo_legal_moves(&mut pseudo);
        self.push_legal(&pseudo, list);
    }

    fn compute_pins(&self, ksq: Square, pins: &mut Pins<R::Word>) {
        let t = &self.game.tables;
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let mine = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let mut snipers = Bitboard::EMPTY;
        let mut kinds = t.rider_kinds[them.index()];
        while kinds != 0 {
            snipers |= self.by_kind[kinds.trailing_zeros() as usize];
            kinds &= kinds - 1;
        }
        snipers &= theirs;
        if snipers.is_empty() {
            return;
        }
        for inv in &t.inverse_rides[them.index()] {
            let ray = t.ray(inv.ray, ksq);
            if (ray & snipers).is_empty() {
                continue;
            }
            let blockers = ray & occ;
            let Some(b1) = t.first_on_ray(inv.ray, blockers) else {
                continue;
            };
            if !mine.contains(b1) {
                continue;
            }
            let rest = blockers & !Bitboard::from(b1);
            let Some(b2) = t.first_on_ray(inv.ray, rest) else {
                continue;
            };
            if theirs.contains(b2) && inv.kinds >> self.board[b2.index()].kind() & 1 != 0 {
                let mask = ray & !t.full_ray(inv.ray, b2);
                if let Some(e) = pins.masks.iter_mut().find(|e| e.0 == b1) {
                    e.1 &= mask;
                } else {
                    // At most one entry per inverse ride group, and `fast_legal` is off when a
                    // variant has more groups than slots.
                    pins.masks.push((b1, mask));
                }
                pins.pinned.set(b1);
            }
        }
    }

    /// The royal piece's moves of `half` (on `ksq`), each to a square no enemy attacks once
    /// the royal piece has left its own: in place in a list, counted for a counter.
    #[inline(always)]
    fn royal_moves<S: MoveSink>(&self, out: &mut S, ksq: Square, half: Half) {
        let g = &*self.game;
        let them = !self.side;
        let kkind = self.board[ksq.index()].kind();
        let theirs = self.by_color[them.index()];
        let king_allowed = match half {
            Half::All => !Bitboard::EMPTY,
            Half::Captures => theirs,
            Half::Quiets => !theirs,
        };
        let mut scratch = MoveList::new();
        let counting = out.as_list().is_none();
        let list = match out.as_list() {
            Some(l) => l,
            None => &mut scratch,
        };
        let start = list.len();
        self.piece_moves(ksq, kkind, !g.royal_forbidden & king_allowed, list);
        let occ_nk = self.occupied() & !Bitboard::from(ksq);
        let mut i = start;
        while i < list.len() {
            let to = list[i].to();
            if self.attackers_to(to, them, occ_nk).is_nonempty() {
                list.swap_remove(i);
            } else {
                i += 1;
            }
        }
        if counting {
            out.add_count(scratch.len() as u64);
        }
    }

    /// Where the other pieces may move with the royal piece on `ksq` attacked by `checkers`
    /// (at most one): anywhere when none; else the checker's square and, for a rider, the
    /// squares between.
    #[inline(always)]
    fn check_block(&self, ksq: Square, checkers: Bitboard<R::Word>) -> Bitboard<R::Word> {
        let Some(c) = checkers.first() else {
            return !Bitboard::EMPTY;
        };
        let t = &self.game.tables;
        let them = !self.side;
        let mut allowed = Bitboard::from(c);
        let ck = self.board[c.index()].kind();
        let leaps = t.kinds[ck].leap_capt_inv[them.index()][ksq].contains(c);
        if !leaps {
            for inv in &t.inverse_rides[them.index()] {
                let ray = t.ray(inv.ray, ksq);
                if inv.kinds >> ck & 1 != 0 && ray.contains(c) {
                    allowed |= ray & !t.full_ray(inv.ray, c);
                }
            }
        }
        allowed
    }

    pub(crate) fn legal_fast<S: MoveSink>(&mut self, out: &mut S, ksq: Square, half: Half) {
        let g = &*self.game;
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let checkers = self.attackers_to(ksq, them, occ);
        let forbidden_here = g.royal_forbidden.contains(ksq);

        let theirs = self.by_color[them.index()];
        self.royal_moves(out, ksq, half);
        if checkers.more_than_one() || forbidden_here {
            return;
        }

        let allowed = self.check_block(ksq, checkers);
        let mut pins = Pins {
            pinned: Bitboard::EMPTY,
            masks: ArrayVec::new(),
        };
        self.compute_pins(ksq, &mut pins);
        let zone = g.promo_zone[us.index()];
        let mut movers = self.by_color[us.index()] & !Bitboard::from(ksq);
        if S::BULK {
            debug_assert!(half == Half::All, "bulk counts cover all moves");
            let (done, n) = self.count_shifted(allowed, pins.pinned);
            movers &= !done;
            out.add_count(n);
        }
        for from in movers {
            let kind = self.board[from.index()].kind();
            let mut a = if pins.pinned.contains(from) {
                allowed & pins.mask(from)
            } else {
                allowed
            };
            let pawn_zone = if g.pawn_kinds >> kind & 1 != 0 {
                zone
            } else {
                Bitboard::EMPTY
            };
            match half {
                Half::All => {}
                Half::Captures => a &= theirs | pawn_zone,
                Half::Quiets => a &= !theirs & !pawn_zone,
            }
            if a.is_nonempty() {
                self.piece_moves(from, kind, a, out);
            }
        }
        if checkers.is_empty() && half != Half::Captures {
            self.castle_moves(out, true);
        }
        // En passant and special moves are rare: check them by making them.
        let mut extra = MoveList::new();
        if half != Half::Quiets {
            self.ep_moves(&mut extra);
        }
        if self.specials && half != Half::Captures {
            g.rules.extra_moves(self, &mut extra);
        }
        self.push_legal(&extra, out);
    }

    /// Appends the moves of `candidates` that leave no royal piece of the mover attacked,
    /// testing each by making it.
    fn push_legal<S: MoveSink>(&mut self, candidates: &MoveList, list: &mut S) {
        let us = self.side;
        for &m in candidates {
            self.make_move(m);
            let ok = !self.royal_in_danger(us);
            self.unmake_move();
            if ok {
                list.push(m);
            }
        }
    }
}
