//! Tensor Chess (Spurgeon, 2008), per `../shared/rules/tensor.md` and its (R) resolutions.
//!
//! Board, array, promotion and castling squares are plain data in `engine.ini`; the pieces'
//! roles come from their Betza there (`K` royal, `Q`, `R`, `B`, `N`, the pawn) and
//! `rules.beast` names the Tensor beast. Everything else is here, because no piece moves by
//! its Betza alone:
//! - beasts step to empty squares, hop in diagonal or orthogonal chains, and capture only
//!   enemy beasts (by jumping them, which ends the chain); nothing else captures a beast;
//! - bishops, rooks and queens slide through own beasts; B, R, Q and N bounce once off an own
//!   beast (perpendicular for B and R, in its arrival mode for Q) or propel it;
//! - pawns pass through or propel an own beast on their first move;
//! - castling crosses own beasts, and a crossed own beast makes its square safe;
//! - attacks (check) include slides through the attacker's beasts and bounce legs; beasts
//!   and propels never attack.
//!
//! Move identities (rules §3): bounces and pass-throughs are ordinary from-to moves; a propel is
//! (piece, beast square, beast destination), written `a1d4>g7`; a beast capture is (beast,
//! victim, landing square), written `c2xd4c4`.
//!
//! Settings: `rules.beast = T`; `rules.queen_propel = all | mode` (rules §5.6: a queen-propelled
//! beast moves in any of 8 directions, or only in the queen's arrival mode);
//! `rules.en_passant = true | false` (rules §4.6).

use crate::bitboard::Bitboard;
use crate::castling::CastlingRights;
use crate::color::Color;
use crate::geometry::Geometry;
use crate::moves::{Move, MoveForm, MoveKind, MoveList};
use crate::position::{Piece, Position};
use crate::rules::{Capabilities, MAX_RULE_FEATURES, Rules};
use crate::square::{MAX_SQUARES, Square};
use crate::variant::{MAX_KINDS, Variant};
use arrayvec::ArrayVec;

/// What a piece kind does in this game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
    Beast,
}

/// Directions: 0..4 orthogonal (N E S W), 4..8 diagonal (NE SE SW NW).
const DIRS: [(i32, i32); 8] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)];
const ORTHO: std::ops::Range<usize> = 0..4;
const DIAG: std::ops::Range<usize> = 4..8;
const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const NONE: u8 = u8::MAX;

/// Special-move tags.
const TAG_PROPEL: usize = 1;
const TAG_HOP_CAPTURE: usize = 2;

/// A propel: the piece on `from` stops on its own beast on `beast`, which moves on to `to`.
#[inline]
fn propel(from: Square, beast: Square, to: Square) -> Move {
    Move::new(from, to, MoveKind::Special, beast.index() as u32, TAG_PROPEL as u32)
}

/// A beast's hop chain from `from` to `to` that captures the enemy beast on `victim`.
#[inline]
fn hop_capture(from: Square, victim: Square, to: Square) -> Move {
    Move::new(
        from,
        to,
        MoveKind::Special,
        victim.index() as u32,
        TAG_HOP_CAPTURE as u32,
    )
}

/// The two directions perpendicular to `d` (same mode).
#[inline]
fn perpendicular(d: usize) -> [usize; 2] {
    let base = d & 4;
    let i = d & 3;
    [base | (i + 1) & 3, base | (i + 3) & 3]
}

/// Directions of a slider role.
fn slide_dirs(role: Role) -> std::ops::Range<usize> {
    match role {
        Role::Rook => ORTHO,
        Role::Bishop => DIAG,
        _ => 0..8,
    }
}

/// Tensor Chess rules.
#[derive(Clone, Debug)]
pub struct Tensor {
    role: [Option<Role>; MAX_KINDS],
    beast: usize,
    /// A queen-propelled beast may move in all 8 directions (else only in the queen's mode).
    queen_propel_all: bool,
    en_passant: bool,
    /// `step[sq][d]`: the neighbour in direction `d`, or [`NONE`].
    step: Targets,
    /// `knight[sq]`: knight-leap targets, [`NONE`] padded.
    knight: Targets,
    /// Most pieces a side can have: its count in the start position (pieces never multiply).
    max_pieces: u32,
}

/// Up to eight target squares of each square, [`NONE`] where there is none.
type Targets = Box<[[u8; 8]; MAX_SQUARES]>;

/// Pivots found on a slide: own beasts with the direction the slider arrived in (a queen sees
/// at most 30 squares on this board).
type Pivots = ArrayVec<(Square, usize), 32>;

/// The pieces on the board as the generators see them.
struct View<'a> {
    board: &'a [Piece; MAX_SQUARES],
    us: Color,
    beast: usize,
}

impl View<'_> {
    #[inline]
    fn at(&self, s: u8) -> Piece {
        self.board[s as usize]
    }
    #[inline]
    fn own_beast(&self, p: Piece) -> bool {
        p.is_some() && p.color() == self.us && p.kind() == self.beast
    }
    /// An enemy piece that a non-beast may capture.
    #[inline]
    fn capturable(&self, p: Piece) -> bool {
        p.is_some() && p.color() != self.us && p.kind() != self.beast
    }
}

impl Tensor {
    #[inline]
    fn role_of(&self, p: Piece) -> Option<Role> {
        self.role[p.kind()]
    }

    #[inline]
    fn sq(s: u8) -> Square {
        Square::new(s as usize)
    }

    /// A piece of `v.us` with `role` on `s`.
    #[inline]
    fn holds(&self, v: &View, s: u8, role: Role) -> bool {
        let p = v.at(s);
        p.is_some() && p.color() == v.us && self.role_of(p) == Some(role)
    }

    /// Whether `v.us`'s pawns, king or knights attack `sq` (knights directly or bouncing off
    /// one of `v.us`'s beasts).
    #[inline]
    fn attacked_by_leapers(&self, v: &View, sq: Square) -> bool {
        let pawn_from = if v.us == Color::White { [5, 6] } else { [4, 7] };
        for d in pawn_from {
            let s = self.step[sq.index()][d];
            if s != NONE && self.holds(v, s, Role::Pawn) {
                return true;
            }
        }
        for &s in &self.step[sq.index()] {
            if s != NONE && self.holds(v, s, Role::King) {
                return true;
            }
        }
        for &t in &self.knight[sq.index()] {
            if t == NONE {
                break;
            }
            if self.holds(v, t, Role::Knight) {
                return true;
            }
            if v.own_beast(v.at(t))
                && self.knight[t as usize]
                    .iter()
                    .any(|&u| u != NONE && self.holds(v, u, Role::Knight))
            {
                return true;
            }
        }
        false
    }

    /// Whether `v.us`'s sliders attack `sq` through its beasts, directly or by a bounce off
    /// one of them.
    #[inline]
    fn attacked_by_sliders(&self, v: &View, sq: Square) -> bool {
        let slider_on = |s: u8, d: usize| {
            let p = v.at(s);
            p.is_some()
                && p.color() == v.us
                && match self.role_of(p) {
                    Some(Role::Queen) => true,
                    Some(Role::Rook) => d < 4,
                    Some(Role::Bishop) => d >= 4,
                    _ => false,
                }
        };
        // The first piece beyond `v.us`'s beasts from `from` in `d`, if any.
        let first = |from: u8, d: usize, pivots: &mut ArrayVec<u8, 16>| -> u8 {
            let mut s = self.step[from as usize][d];
            while s != NONE {
                let p = v.at(s);
                if p.is_some() {
                    if v.own_beast(p) {
                        pivots.push(s);
                    } else {
                        return s;
                    }
                }
                s = self.step[s as usize][d];
            }
            NONE
        };
        for d in 0..8 {
            let mut pivots = ArrayVec::new();
            let s = first(sq.index() as u8, d, &mut pivots);
            if s != NONE && slider_on(s, d) {
                return true;
            }
            for &b in &pivots {
                for q in perpendicular(d) {
                    let mut ignore = ArrayVec::new();
                    let s = first(b, q, &mut ignore);
                    if s != NONE && slider_on(s, q) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Slides from `from` in `d`: empty squares and a final capturable piece are targets;
    /// own beasts are passed (and reported as pivots when `pivots` is given).
    #[inline]
    fn slide(&self, v: &View, from: u8, d: usize, mut pivots: Option<&mut Pivots>, mut target: impl FnMut(u8)) {
        let mut s = self.step[from as usize][d];
        while s != NONE {
            let p = v.at(s);
            if p.is_none() {
                target(s);
            } else if v.own_beast(p) {
                if let Some(pv) = pivots.as_deref_mut() {
                    pv.push((Self::sq(s), d));
                }
            } else {
                if v.capturable(p) {
                    target(s);
                }
                return;
            }
            s = self.step[s as usize][d];
        }
    }

    /// Pseudo-legal moves of a B, R or Q on `from`: slides, bounces, propels.
    fn slider_moves(&self, pos: &Position<Self>, v: &View, from: Square, role: Role, list: &mut MoveList) {
        let f = from.index() as u8;
        let mut seen = Bitboard::<u128>::EMPTY;
        let mut pivots = Pivots::new();
        let mut add = |s: u8, list: &mut MoveList| {
            let sq = Self::sq(s);
            if !seen.contains(sq) {
                seen.set(sq);
                list.push(Move::normal(from, sq));
            }
        };
        for d in slide_dirs(role) {
            self.slide(v, f, d, Some(&mut pivots), |s| add(s, list));
        }
        for &(b, d) in &pivots {
            for p in perpendicular(d) {
                self.slide(v, b.index() as u8, p, None, |s| add(s, list));
            }
        }
        if pos.special_moves_on() {
            for &(b, d) in &pivots {
                let dirs = match role {
                    Role::Queen if !self.queen_propel_all => {
                        if d < 4 {
                            ORTHO
                        } else {
                            DIAG
                        }
                    }
                    r => slide_dirs(r),
                };
                for q in dirs {
                    let mut s = self.step[b.index()][q];
                    while s != NONE && (v.at(s).is_none() || s == f) {
                        list.push(propel(from, b, Self::sq(s)));
                        s = self.step[s as usize][q];
                    }
                }
            }
        }
    }

    /// Pseudo-legal moves of a knight on `from`: leaps, bounces, propels.
    fn knight_moves(&self, pos: &Position<Self>, v: &View, from: Square, list: &mut MoveList) {
        let f = from.index() as u8;
        let mut seen = Bitboard::<u128>::EMPTY;
        let mut pivots: ArrayVec<u8, 8> = ArrayVec::new();
        for &t in &self.knight[from.index()] {
            if t == NONE {
                break;
            }
            let p = v.at(t);
            if p.is_none() || v.capturable(p) {
                seen.set(Self::sq(t));
                list.push(Move::normal(from, Self::sq(t)));
            } else if v.own_beast(p) {
                pivots.push(t);
            }
        }
        for &b in &pivots {
            for &t in &self.knight[b as usize] {
                if t == NONE {
                    break;
                }
                let p = v.at(t);
                if t != f && (p.is_none() || v.capturable(p)) && !seen.contains(Self::sq(t)) {
                    seen.set(Self::sq(t));
                    list.push(Move::normal(from, Self::sq(t)));
                }
            }
        }
        if pos.special_moves_on() {
            for &b in &pivots {
                for &t in &self.knight[b as usize] {
                    if t == NONE {
                        break;
                    }
                    if v.at(t).is_none() || t == f {
                        list.push(propel(from, Self::sq(b), Self::sq(t)));
                    }
                }
            }
        }
    }

    /// Pushes a pawn move to `to`, expanded into promotions on the last rank.
    fn pawn_push(&self, pos: &Position<Self>, from: Square, to: Square, kind: usize, list: &mut MoveList) {
        let g = &pos.variant().geometry;
        if g.relative_rank(pos.side_to_move(), to) == g.ranks() - 1 {
            for &pk in &pos.variant().promotion_kinds {
                list.push(Move::new(from, to, MoveKind::Promotion, kind as u32, pk as u32));
            }
        } else {
            list.push(Move::normal(from, to));
        }
    }

    /// Pseudo-legal moves of a pawn on `from` (en passant is added separately).
    fn pawn_moves(&self, pos: &Position<Self>, v: &View, from: Square, kind: usize, list: &mut MoveList) {
        let us = v.us;
        let g = &pos.variant().geometry;
        let (fwd, caps) = if us == Color::White { (0, [4, 7]) } else { (2, [5, 6]) };
        let first = pos.variant().pawn_initial_ranks.contains(&g.relative_rank(us, from));
        let s1 = self.step[from.index()][fwd];
        if s1 != NONE {
            let p1 = v.at(s1);
            let s2 = self.step[s1 as usize][fwd];
            if p1.is_none() {
                self.pawn_push(pos, from, Self::sq(s1), kind, list);
                if first && s2 != NONE && v.at(s2).is_none() {
                    if self.en_passant {
                        list.push(Move::new(from, Self::sq(s2), MoveKind::DoubleStep, s1 as u32, 0));
                    } else {
                        list.push(Move::normal(from, Self::sq(s2)));
                    }
                }
            } else if first && v.own_beast(p1) && s2 != NONE && v.at(s2).is_none() {
                // Pass-through (no en passant: the skipped square is occupied) and propel.
                list.push(Move::normal(from, Self::sq(s2)));
                if pos.special_moves_on() {
                    list.push(propel(from, Self::sq(s1), Self::sq(s2)));
                }
            }
        }
        for d in caps {
            let t = self.step[from.index()][d];
            if t != NONE && v.capturable(v.at(t)) {
                self.pawn_push(pos, from, Self::sq(t), kind, list);
            }
        }
    }

    /// Squares a beast on `from` reaches by hop chains of one mode (`from` itself included,
    /// as the chain's start), with `from` counted as empty.
    fn hop_reach(&self, occ: Bitboard, from: Square, dirs: std::ops::Range<usize>) -> Bitboard {
        let occ = occ & !Bitboard::from(from);
        let mut reach = Bitboard::from(from);
        let mut queue: ArrayVec<u8, MAX_SQUARES> = ArrayVec::new();
        queue.push(from.index() as u8);
        let mut i = 0;
        while i < queue.len() {
            let s = queue[i];
            i += 1;
            for d in dirs.clone() {
                let over = self.step[s as usize][d];
                if over == NONE || !occ.contains(Self::sq(over)) {
                    continue;
                }
                let land = self.step[over as usize][d];
                if land != NONE && !occ.contains(Self::sq(land)) && !reach.contains(Self::sq(land)) {
                    reach.set(Self::sq(land));
                    queue.push(land);
                }
            }
        }
        reach
    }

    /// Pseudo-legal moves of a beast on `from`: steps, hop chains, and captures of enemy
    /// beasts at the end of a chain.
    fn beast_moves(&self, pos: &Position<Self>, v: &View, from: Square, list: &mut MoveList) {
        let occ = pos.occupied();
        let mut dests = Bitboard::EMPTY;
        for &s in &self.step[from.index()] {
            if s != NONE && v.at(s).is_none() {
                dests.set(Self::sq(s));
            }
        }
        let occ_chain = occ & !Bitboard::from(from);
        for dirs in [ORTHO, DIAG] {
            let reach = self.hop_reach(occ, from, dirs.clone());
            dests |= reach & !Bitboard::from(from);
            for s in reach {
                for d in dirs.clone() {
                    let over = self.step[s.index()][d];
                    if over == NONE {
                        continue;
                    }
                    let p = v.at(over);
                    if p.is_none() || p.color() == v.us || p.kind() != self.beast {
                        continue;
                    }
                    let land = self.step[over as usize][d];
                    if land != NONE && !occ_chain.contains(Self::sq(land)) {
                        list.push(hop_capture(from, Self::sq(over), Self::sq(land)));
                    }
                }
            }
        }
        for to in dests {
            list.push(Move::normal(from, to));
        }
    }

    /// Castling (rules §4.3): crossed squares empty or own beasts, destinations empty, the
    /// king not in check and crossing no attacked square unless an own beast stands on it.
    /// The destination's safety is checked with the other moves, by making the move.
    fn castle_moves(&self, pos: &Position<Self>, v: &View, list: &mut MoveList) {
        let us = v.us;
        let st = pos.state();
        if !st.castling.intersects(CastlingRights::side(us)) {
            return;
        }
        let game = pos.game();
        let g = &game.variant.geometry;
        let mut checked = None;
        for right in 0..2 {
            if !st.castling.has(us, right) {
                continue;
            }
            for (i, info) in game.castles[us.index()][right].iter().enumerate() {
                let o = info.sq;
                let k = pos.piece_at(o.king_from);
                let r = pos.piece_at(o.rook_from);
                if k.is_none() || k.color() != us || self.role_of(k) != Some(Role::King) {
                    continue;
                }
                if r.is_none() || r.color() != us || self.role_of(r) != Some(Role::Rook) {
                    continue;
                }
                let ends_free = [o.king_to, o.rook_to]
                    .iter()
                    .all(|&s| s == o.king_from || s == o.rook_from || pos.piece_at(s).is_none());
                if !ends_free {
                    continue;
                }
                let rank = g.rank_of(o.king_from);
                let crossed = |a: Square, b: Square| {
                    let (fa, fb) = (g.file_of(a), g.file_of(b));
                    let (lo, hi) = if fa < fb { (fa + 1, fb) } else { (fb + 1, fa) };
                    (lo..hi).filter_map(move |f| g.square(f, rank))
                };
                let path_ok = crossed(o.king_from, o.king_to)
                    .chain(crossed(o.rook_from, o.rook_to))
                    .all(|s| {
                        s == o.king_from || s == o.rook_from || s == o.king_to || s == o.rook_to || {
                            let p = pos.piece_at(s);
                            p.is_none() || v.own_beast(p)
                        }
                    });
                if !path_ok {
                    continue;
                }
                let in_check = *checked.get_or_insert_with(|| self.attacked(pos, o.king_from, !us));
                if in_check {
                    continue;
                }
                let safe = crossed(o.king_from, o.king_to)
                    .all(|s| v.own_beast(pos.piece_at(s)) || !self.attacked(pos, s, !us));
                if safe {
                    list.push(Move::castle(o.king_from, o.king_to, right, i));
                }
            }
        }
    }

    /// True when the slider or knight on `from` can reach `to` by bouncing off the own beast on
    /// `via`, or (sliders) by sliding through it; or when the beast on `from` can reach `to` by
    /// a hop chain that lands on `via` on the way.
    fn waypoint_ok(&self, pos: &Position<Self>, from: Square, via: Square, to: Square) -> bool {
        let p = pos.piece_at(from);
        if p.is_none() {
            return false;
        }
        if self.role_of(p) == Some(Role::Beast) {
            // Hops can be taken back, so a chain through `via` exists when both lie in the set
            // of squares one chain of that mode reaches.
            return [ORTHO, DIAG].into_iter().any(|dirs| {
                let reach = self.hop_reach(pos.occupied(), from, dirs);
                reach.contains(via) && reach.contains(to) && via != from
            });
        }
        let v = View {
            board: &pos.board,
            us: p.color(),
            beast: self.beast,
        };
        if !v.own_beast(pos.piece_at(via)) {
            return false;
        }
        let (f, b, t) = (from.index() as u8, via.index() as u8, to.index() as u8);
        match self.role_of(p) {
            Some(Role::Knight) => {
                self.knight[from.index()].contains(&b)
                    && t != f
                    && self.knight[via.index()].contains(&t)
                    && (pos.piece_at(to).is_none() || v.capturable(pos.piece_at(to)))
            }
            Some(role @ (Role::Queen | Role::Rook | Role::Bishop)) => {
                let mut found = false;
                for d in slide_dirs(role) {
                    let mut pivots = Pivots::new();
                    self.slide(&v, f, d, Some(&mut pivots), |_| {});
                    if pivots.iter().any(|&(s, _)| s == via) {
                        // Straight on through `via`, or bouncing off it.
                        self.slide(&v, b, d, None, |s| found |= s == t);
                        for q in perpendicular(d) {
                            self.slide(&v, b, q, None, |s| found |= s == t);
                        }
                    }
                }
                found
            }
            _ => false,
        }
    }

    /// Number of own pieces that can use the beast on `sq` as a pivot (a knight a leap away, a
    /// slider of the right mode on a line to it through own beasts): its support.
    fn beast_support(&self, pos: &Position<Self>, sq: Square, c: Color) -> i32 {
        let v = View {
            board: &pos.board,
            us: c,
            beast: self.beast,
        };
        let mut n = 0;
        for &t in &self.knight[sq.index()] {
            if t != NONE && v.at(t).is_some() && v.at(t).color() == c && self.role_of(v.at(t)) == Some(Role::Knight) {
                n += 1;
            }
        }
        for d in 0..8 {
            let mut s = self.step[sq.index()][d];
            while s != NONE {
                let p = v.at(s);
                if p.is_some() && !v.own_beast(p) {
                    if p.color() == c
                        && match self.role_of(p) {
                            Some(Role::Queen) => true,
                            Some(Role::Rook) => d < 4,
                            Some(Role::Bishop) => d >= 4,
                            _ => false,
                        }
                    {
                        n += 1;
                    }
                    break;
                }
                s = self.step[s as usize][d];
            }
        }
        n
    }

    /// Number of squares a beast on `from` can move to (steps and chains).
    fn beast_reach(&self, pos: &Position<Self>, from: Square) -> u32 {
        let occ = pos.occupied();
        let mut dests = Bitboard::EMPTY;
        for &s in &self.step[from.index()] {
            if s != NONE && !occ.contains(Self::sq(s)) {
                dests.set(Self::sq(s));
            }
        }
        dests |= self.hop_reach(occ, from, ORTHO) | self.hop_reach(occ, from, DIAG);
        dests.clear(from);
        dests.count()
    }
}

/// Each piece kind's role: the beast, pawns, and a royal K, Q, R, B and N by their Betza.
fn roles(variant: &Variant, beast: usize) -> Result<[Option<Role>; MAX_KINDS], String> {
    let mut role = [None; MAX_KINDS];
    for (k, p) in variant.pieces.iter().enumerate() {
        role[k] = Some(if k == beast {
            Role::Beast
        } else if p.is_pawn() {
            Role::Pawn
        } else {
            match (p.betza.as_str(), p.is_royal()) {
                ("K", true) => Role::King,
                ("Q", false) => Role::Queen,
                ("R", false) => Role::Rook,
                ("B", false) => Role::Bishop,
                ("N", false) => Role::Knight,
                _ => {
                    return Err(format!(
                        "piece {}: Tensor rules know a royal K, Q, R, B, N, pawns and the beast",
                        p.letter
                    ));
                }
            }
        });
    }
    Ok(role)
}

/// The neighbour of each square in each of [`DIRS`], and its knight-leap targets
/// ([`NONE`] where the board ends or has a hole).
fn neighbour_tables(g: &Geometry) -> (Targets, Targets) {
    let mut step = Box::new([[NONE; 8]; MAX_SQUARES]);
    let mut knight = Box::new([[NONE; 8]; MAX_SQUARES]);
    for sq in g.board {
        for (d, &(df, dr)) in DIRS.iter().enumerate() {
            if let Some(t) = g.offset(sq, df, dr).filter(|t| g.exists(*t)) {
                step[sq.index()][d] = t.index() as u8;
            }
        }
        let mut n = 0;
        for &(df, dr) in &KNIGHT {
            if let Some(t) = g.offset(sq, df, dr).filter(|t| g.exists(*t)) {
                knight[sq.index()][n] = t.index() as u8;
                n += 1;
            }
        }
    }
    (step, knight)
}

/// The most pieces either side has in `start_fen` (pieces never multiply).
fn most_pieces(start_fen: &str) -> u32 {
    let board_part = start_fen.split_whitespace().next().unwrap_or("");
    ["w", "b"]
        .iter()
        .map(|c| {
            board_part
                .chars()
                .filter(|ch| ch.is_ascii_alphabetic() && (ch.is_ascii_uppercase() == (*c == "w")))
                .count() as u32
        })
        .max()
        .unwrap_or(0)
}

fn setting<'a>(v: &'a Variant, key: &str) -> Option<&'a str> {
    v.rule_settings.get(key).map(|s| s.as_str())
}

impl Rules for Tensor {
    type State = ();
    type Word = u128;
    const SETTINGS: &'static [&'static str] = &["beast", "queen_propel", "en_passant"];
    const CAPABILITIES: Capabilities = Capabilities::SLOW_LEGALITY
        .union(Capabilities::OWN_MOVEGEN)
        .union(Capabilities::CUSTOM_ATTACKS)
        .union(Capabilities::SPECIAL_MOVES)
        .union(Capabilities::CASTLING_AS_LEGS);

    fn new(variant: &Variant) -> Result<Self, String> {
        let g = &variant.geometry;
        let beast_letter = setting(variant, "beast").ok_or("rules.beast (the beast's letter) is missing")?;
        let beast = variant
            .pieces
            .iter()
            .position(|p| beast_letter.len() == 1 && beast_letter.starts_with(p.letter))
            .ok_or_else(|| format!("rules.beast = {beast_letter} names no piece"))?;
        let role = roles(variant, beast)?;
        if !variant.check {
            return Err("Tensor rules need 'check = true'".into());
        }
        let queen_propel_all = match setting(variant, "queen_propel").unwrap_or("all") {
            "all" => true,
            "mode" => false,
            other => return Err(format!("rules.queen_propel must be 'all' or 'mode', not '{other}'")),
        };
        let en_passant = match setting(variant, "en_passant").unwrap_or("true") {
            "true" => true,
            "false" => false,
            other => return Err(format!("rules.en_passant must be 'true' or 'false', not '{other}'")),
        };
        let max_pieces = most_pieces(&variant.start_fen);
        let (step, knight) = neighbour_tables(g);
        Ok(Tensor {
            role,
            beast,
            queen_propel_all,
            en_passant,
            step,
            knight,
            max_pieces,
        })
    }

    fn generate(&self, pos: &Position<Self>, list: &mut MoveList) {
        let us = pos.side_to_move();
        let v = View {
            board: &pos.board,
            us,
            beast: self.beast,
        };
        for from in pos.color_bb(us) {
            let p = pos.piece_at(from);
            match self.role_of(p) {
                Some(Role::King) => {
                    for &s in &self.step[from.index()] {
                        if s != NONE && (v.at(s).is_none() || v.capturable(v.at(s))) {
                            list.push(Move::normal(from, Self::sq(s)));
                        }
                    }
                }
                Some(r @ (Role::Queen | Role::Rook | Role::Bishop)) => self.slider_moves(pos, &v, from, r, list),
                Some(Role::Knight) => self.knight_moves(pos, &v, from, list),
                Some(Role::Pawn) => self.pawn_moves(pos, &v, from, p.kind(), list),
                Some(Role::Beast) => self.beast_moves(pos, &v, from, list),
                None => {}
            }
        }
        self.castle_moves(pos, &v, list);
        if let Some(ep) = pos.state().ep.filter(|_| self.en_passant) {
            let victim = pos.state().ep_victim;
            let caps = if us == Color::White { [5, 6] } else { [4, 7] };
            for d in caps {
                let s = self.step[ep.index()][d];
                if s != NONE && v.at(s).is_some() && v.at(s).color() == us && self.role_of(v.at(s)) == Some(Role::Pawn)
                {
                    list.push(Move::new(
                        Self::sq(s),
                        ep,
                        MoveKind::EnPassant,
                        victim.index() as u32,
                        0,
                    ));
                }
            }
        }
    }

    fn attacked(&self, pos: &Position<Self>, sq: Square, by: Color) -> bool {
        let v = View {
            board: &pos.board,
            us: by,
            beast: self.beast,
        };
        self.attacked_by_leapers(&v, sq) || self.attacked_by_sliders(&v, sq)
    }

    fn make_special(&self, pos: &mut Position<Self>, m: Move) {
        let via = m.aux_square();
        match m.extra() {
            TAG_PROPEL => {
                let piece = pos.remove_piece(m.from());
                let beast = pos.remove_piece(via);
                pos.put_piece(piece, via);
                pos.put_piece(beast, m.to());
            }
            _ => {
                pos.st.captured = pos.remove_piece(via);
                pos.st.halfmove = 0;
                let beast = pos.remove_piece(m.from());
                pos.put_piece(beast, m.to());
            }
        }
    }

    fn unmake_special(&self, pos: &mut Position<Self>, m: Move) {
        let via = m.aux_square();
        match m.extra() {
            TAG_PROPEL => {
                let beast = pos.remove_piece(m.to());
                let piece = pos.remove_piece(via);
                pos.put_piece(piece, m.from());
                pos.put_piece(beast, via);
            }
            _ => {
                let beast = pos.remove_piece(m.to());
                pos.put_piece(beast, m.from());
                let victim = pos.st.captured;
                pos.put_piece(victim, via);
            }
        }
    }

    fn special_form(&self, m: Move) -> MoveForm {
        match m.extra() {
            TAG_PROPEL => MoveForm::Handoff(m.aux_square()),
            _ => MoveForm::Capture(m.aux_square()),
        }
    }

    fn valid_waypoint(&self, pos: &Position<Self>, m: Move, via: Square) -> bool {
        if via == m.to() || via == m.from() {
            return false;
        }
        match m.kind() {
            MoveKind::Normal => self.waypoint_ok(pos, m.from(), via, m.to()),
            // Castling: a square the king crosses.
            MoveKind::Castle => {
                let g = &pos.variant().geometry;
                let (a, b, v) = (g.file_of(m.from()), g.file_of(m.to()), g.file_of(via));
                g.rank_of(via) == g.rank_of(m.from()) && a.min(b) < v && v < a.max(b)
            }
            _ => false,
        }
    }

    fn validate(&self, pos: &Position<Self>) -> Result<(), String> {
        for c in Color::ALL {
            let n = pos.color_bb(c).count();
            if n > self.max_pieces {
                return Err(format!(
                    "{} has {n} pieces; no game of this variant has more than {}",
                    c.name(),
                    self.max_pieces
                ));
            }
        }
        Ok(())
    }

    /// Per side, the beasts' destinations and their support (own pieces that can bounce off or
    /// propel them); a beast is worth its `value=` plus these, weighted in `engine.ini`.
    const EVAL_FEATURES: &'static [&'static str] = &["beast_reach", "beast_support"];

    fn eval_features(&self, pos: &Position<Self>, c: Color, out: &mut [i32; MAX_RULE_FEATURES]) {
        for b in pos.pieces(c, self.beast) {
            out[0] += self.beast_reach(pos, b) as i32;
            out[1] += self.beast_support(pos, b, c);
        }
    }
}
