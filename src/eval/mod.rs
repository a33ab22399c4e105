//! Evaluation that works for any variant without tuning: material with values derived from
//! each piece's mobility on the variant's board (or `value=` in `engine.ini`), piece-square
//! terms built from the geometry (centralisation, pawn advance towards promotion, a king that
//! stays home while there is material), mobility, a pawn shield, and the rules module's terms.
//! Scores are centipawns from the side to move's point of view.

use crate::bitboard::{Bitboard, Word};
use crate::color::Color;
use crate::position::Position;
use crate::rules::{Bb, MAX_RULE_FEATURES, Rules};
use crate::square::MAX_SQUARES;
use crate::square::Square;
use crate::tables::{SqTable, Tables};
use crate::variant::{MAX_KINDS, Variant};

mod terms;
mod weights;
pub use terms::TermCounts;
use terms::{Counted, TermSink, TermTables, Weighted};
pub use weights::{KIND_TERMS, Weights, square_features, term};
use weights::{MOBILITY, Pair, REACH, REACH_BUCKETS, TERM_WEIGHTS};

/// Value of a pawn-flagged piece.
pub const PAWN_VALUE: i32 = 100;
/// Material value given to a royal piece in games without check (where it can be captured).
pub const ROYAL_VALUE_NO_CHECK: i32 = 2000;
/// The least value of a piece that mates a lone royal piece ([`Position::mop_up`]): a rook,
/// not a minor piece (nor two, which may not force it).
const MOP_UP_FORCE: i32 = 4 * PAWN_VALUE;
/// Per square the lone royal piece is nearer the edge than the board's middle.
const MOP_UP_EDGE: i32 = 24;
/// Per square the royal pieces are nearer than the board is wide.
const MOP_UP_NEAR: i32 = 20;

/// Per-variant evaluation tables, built once when the variant is loaded.
#[derive(Clone, Debug)]
pub struct EvalTables<W: Word> {
    /// Material value per kind.
    pub value: [i32; MAX_KINDS],
    /// Material plus piece-square bonus per piece code (`kind * 2 + colour`) and square:
    /// [opening, endgame].
    psq: Vec<[i32; 2]>,
    /// Phase weight per kind (non-pawn, non-royal material).
    pub phase_value: [i32; MAX_KINDS],
    /// Kinds whose mobility is counted (a non-pawn, non-royal kind with a mobility weight).
    mobility_kinds: u32,
    /// Non-pawn, non-royal kinds (whose mobility a trace counts).
    piece_kinds: u32,
    /// Mobility score per kind and number of squares reached (`kind * mob_stride + reach`):
    /// the per-square weight (rounded) times the squares, plus the mobility table's entry.
    mob_score: Vec<Pair>,
    /// Entries per kind in `mob_score`: one more than the squares on the board (a piece reaches
    /// at most all of them).
    mob_stride: usize,
    /// The shield's weight per pawn.
    shield_weight: Pair,
    /// The terms' weights as the search's evaluation adds them, indexed by [`term`]: the
    /// shield's is zero there (it is tapered with the material, `shield_weight`).
    term_pairs: [Pair; TERM_WEIGHTS],
    /// The costlier terms the weights use.
    counted: Counted,
    /// Sum of non-pawn, non-royal material of both sides in the start position.
    phase_total: i32,
    /// Per colour, the squares in front of each square (pawn shield), for royal pieces.
    shield: [SqTable<Bitboard<W>>; 2],
    royal_kinds: u32,
    pawn_kinds: u32,
    /// Masks of the pawn, king-zone, threat and file terms.
    terms: TermTables<W>,
    /// The weights the tables were built from: the variant's defaults with its `eval.*`
    /// settings.
    pub weights: Weights,
}

/// What a trace collects beside the term counts: per side and kind, the squares reached and
/// how many pieces fall in each entry of the mobility table.
#[derive(Default)]
struct MobilityTrace {
    reach: [[i32; MAX_KINDS]; 2],
    buckets: [[[i32; REACH_BUCKETS]; MAX_KINDS]; 2],
}

/// Average number of squares a kind reaches from the squares of an empty board, with ride steps
/// beyond the first weighted down (a crowded board blocks long rides).
pub fn effective_mobility(v: &Variant, kind: usize) -> f64 {
    let g = &v.geometry;
    let landable = g.landable();
    let mut total = 0.0;
    let mut count = 0;
    for from in landable {
        let mut s = 0.0;
        for m in &v.pieces[kind].motions {
            if m.initial {
                continue;
            }
            let mut cur = from;
            let mut k = 0;
            while let Some(next) = g.offset(cur, m.dx as i32, m.dy as i32) {
                if !g.exists(next) {
                    break;
                }
                if landable.contains(next) {
                    s += 0.7f64.powi(k);
                }
                k += 1;
                cur = next;
                if m.range == 1 || (m.range != 0 && k >= m.range as i32) {
                    break;
                }
            }
        }
        total += s;
        count += 1;
    }
    if count == 0 { 0.0 } else { total / count as f64 }
}

/// True when the kind combines two or more different atoms (queen, archbishop): such pieces
/// are worth more than their mobility alone suggests.
fn compound(v: &Variant, kind: usize) -> bool {
    let mut shapes: Vec<(i8, i8)> = Vec::new();
    for m in v.pieces[kind].motions.iter().filter(|m| !m.initial) {
        let (a, b) = (m.dx.abs().max(m.dy.abs()), m.dx.abs().min(m.dy.abs()));
        if !shapes.contains(&(a, b)) {
            shapes.push((a, b));
        }
    }
    shapes.len() >= 2
}

/// True when every move of the kind keeps the square colour (bishop-like, colour-bound).
fn colour_bound(v: &Variant, kind: usize) -> bool {
    v.pieces[kind].motions.iter().all(|m| (m.dx + m.dy) % 2 == 0)
}

/// Material value per kind (from `value=` in `engine.ini`, or from the kind's mobility on the
/// board) and the kinds' average reach on an empty board.
fn material(v: &Variant) -> ([i32; MAX_KINDS], [f64; MAX_KINDS]) {
    let mut value = [0i32; MAX_KINDS];
    let mut avg_mob = [0f64; MAX_KINDS];
    for (k, p) in v.pieces.iter().enumerate() {
        avg_mob[k] = effective_mobility(v, k);
        value[k] = if let Some(val) = p.value {
            val
        } else if p.is_pawn() {
            PAWN_VALUE
        } else if p.is_royal() {
            if v.check { 0 } else { ROYAL_VALUE_NO_CHECK }
        } else {
            let mut val = 62.0 * avg_mob[k];
            if colour_bound(v, k) {
                val *= 0.85;
            }
            if compound(v, k) {
                val *= 1.1;
            }
            val.round() as i32
        };
    }
    (value, avg_mob)
}

/// The variant's evaluation weights: the defaults for its pieces and board with its `eval.*`
/// settings, or the setting at fault.
/// `rule_names` are its rules module's own features ([`Rules::EVAL_FEATURES`]).
pub fn variant_weights(v: &Variant, rule_names: &'static [&'static str]) -> Result<Weights, (String, String)> {
    let (value, avg_mob) = material(v);
    weights_from(v, &value, &avg_mob, rule_names)
}

/// The variant's weights from its material values and reach (see [`variant_weights`]).
fn weights_from(
    v: &Variant,
    value: &[i32],
    avg_mob: &[f64],
    rule_names: &'static [&'static str],
) -> Result<Weights, (String, String)> {
    Weights::for_variant(v, value, avg_mob, rule_names).with_settings(&v.eval_settings)
}

/// Each side's pawn-shield squares in front of each square: the three files around it, one
/// and two ranks ahead.
fn shield_squares<W: Word>(g: &crate::geometry::Geometry) -> [SqTable<Bitboard<W>>; 2] {
    let mut shield = [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)];
    for c in Color::ALL {
        let dir = if c == Color::White { 1 } else { -1 };
        for sq in g.board {
            let mut bb = Bitboard::<u128>::EMPTY;
            for df in -1..=1 {
                for dr in 1..=2 {
                    if let Some(s) = g.offset(sq, df, dr * dir) {
                        bb.set(s);
                    }
                }
            }
            shield[c.index()][sq] = (bb & g.board).convert();
        }
    }
    shield
}

/// The game phase of the start position: the value of its pieces that are neither pawns nor
/// royal.
fn start_phase(v: &Variant, value: &[i32; MAX_KINDS]) -> i32 {
    let first = v.start_fen.split_whitespace().next().unwrap_or("");
    let board_part = first.split('[').next().unwrap_or("");
    board_part
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .filter_map(|ch| v.kind_of_letter(ch))
        .filter(|&k| !v.pieces[k].is_pawn() && !v.pieces[k].is_royal())
        .map(|k| value[k])
        .sum()
}

impl<W: Word> EvalTables<W> {
    /// Builds the tables for a variant whose rules module names `rule_names` as its own
    /// features.
    pub fn new(v: &Variant, rule_names: &'static [&'static str]) -> EvalTables<W> {
        let g = &v.geometry;
        let royal_kinds = v.royal_kinds();
        let pawn_kinds = v.pawn_kinds();
        let (value, avg_mob) = material(v);
        // Catalog::prepare refuses bad settings before any game is built.
        let weights = weights_from(v, &value, &avg_mob, rule_names).unwrap_or_else(|(_, m)| panic!("{m}"));
        let mut psq = vec![[0i32; 2]; MAX_KINDS * 2 * MAX_SQUARES];
        let mut phase_value = [0i32; MAX_KINDS];
        let mob_stride = g.board.count() as usize + 1;
        let mut mob_score = vec![[0i32; 2]; MAX_KINDS * mob_stride];
        let (mut mobility_kinds, mut piece_kinds) = (0u32, 0u32);
        for (k, p) in v.pieces.iter().enumerate() {
            let w = &weights.kinds[k];
            if !p.is_pawn() && !p.is_royal() {
                phase_value[k] = value[k];
                piece_kinds |= 1 << k;
                let per_square = w[MOBILITY].map(|x| x.round() as i32);
                for (n, m) in mob_score[k * mob_stride..(k + 1) * mob_stride].iter_mut().enumerate() {
                    let table = w[REACH + n.min(REACH_BUCKETS - 1)].map(|x| x.round() as i32);
                    *m = [0, 1].map(|h| per_square[h] * n as i32 + table[h]);
                    if *m != [0, 0] {
                        mobility_kinds |= 1 << k;
                    }
                }
            }
            for c in Color::ALL {
                for sq in g.landable() {
                    let f = square_features(v, c, sq, p.is_pawn());
                    let code = k * 2 + c.index();
                    psq[code * MAX_SQUARES + sq.index()] = [0, 1].map(|h| {
                        let shape: f64 = f.iter().enumerate().map(|(i, x)| x * w[1 + i][h]).sum();
                        (w[0][h] + shape.round()).round() as i32
                    });
                }
            }
        }
        let shield = shield_squares(g);
        let phase_total = start_phase(v, &value);
        EvalTables {
            terms: TermTables::new(v, &value),
            counted: Counted::from_weights(&weights),
            shield_weight: weights.terms[term::SHIELD],
            term_pairs: {
                let mut pairs = weights.terms;
                pairs[term::SHIELD] = [0, 0];
                pairs
            },
            weights,
            mob_score,
            mob_stride,
            value,
            psq,
            phase_value,
            mobility_kinds,
            piece_kinds,
            phase_total: phase_total.max(1),
            shield,
            royal_kinds,
            pawn_kinds,
        }
    }
}

impl<W: Word> EvalTables<W> {
    /// Material plus piece-square terms of a piece code on a square: [opening, endgame].
    #[inline]
    pub fn psq(&self, code: usize, sq: Square) -> [i32; 2] {
        self.psq[code * MAX_SQUARES + (sq.index() & (MAX_SQUARES - 1))]
    }
}

/// What one evaluation's parts share: the phase, the pawns of both sides, each side's royal
/// zone and which costlier terms are counted.
struct EvalContext<W: Word> {
    phase: i32,
    pawns: Bitboard<W>,
    zone: [Bitboard<W>; 2],
    counted: Counted,
}

/// Each side's attacks, as the evaluation's first pass finds them: all, by pawns, by kind
/// (only where lesser threats count).
struct Attacks<W: Word> {
    all: [Bitboard<W>; 2],
    pawn: [Bitboard<W>; 2],
    by_kind: [[Bitboard<W>; MAX_KINDS]; 2],
}

impl<R: Rules> Position<R> {
    /// Static evaluation from the side to move's point of view.
    pub fn evaluate(&self) -> i32 {
        self.mop_up().unwrap_or_else(|| self.term_value())
    }

    /// The evaluation by the weighted terms (what [`Position::tuning_trace`] models).
    fn term_value(&self) -> i32 {
        let e = &self.game.eval;
        let mut terms = Weighted::new(&e.term_pairs, &e.weights.rules, e.weights.king_danger);
        let base = self.eval_parts(&mut terms, None);
        let phase = self.phase.clamp(0, e.phase_total);
        let side = |c: usize| {
            let [mg, eg] = terms.score(c);
            base[c] + (mg * phase + eg * (e.phase_total - phase)) / e.phase_total
        };
        let us = self.side.index();
        side(us) - side(1 - us) + self.game.rules.eval_terms(self) + 10
    }

    /// A lone royal piece against a piece worth a rook or more: the other side's material, and
    /// the lone piece nearer the edge and the other royal piece (the way to a mate beyond the
    /// horizon). From the side to move's view; `None` in every other position.
    fn mop_up(&self) -> Option<i32> {
        let e = &self.game.eval;
        let weak = Color::ALL.into_iter().find(|&c| self.color_bb(c).count() == 1)?;
        let strong = !weak;
        let royals = self.royals(strong);
        let (bare, king) = (self.royals(weak).first()?, royals.first()?);
        if royals.more_than_one() {
            return None;
        }
        let (mut material, mut strongest) = (0, 0);
        for sq in self.color_bb(strong) & !royals {
            let k = self.board[sq.index()].kind();
            material += e.value[k];
            if !self.game.variant.pieces[k].is_pawn() {
                strongest = strongest.max(e.value[k]);
            }
        }
        if strongest < MOP_UP_FORCE {
            return None;
        }
        let g = &self.game.variant.geometry;
        let (f, r) = (g.file_of(bare) as i32, g.rank_of(bare) as i32);
        let (files, ranks) = (g.files() as i32, g.ranks() as i32);
        let inside = f.min(files - 1 - f).min(r).min(ranks - 1 - r);
        let edge = (files.min(ranks) - 1) / 2 - inside;
        let apart = (f - g.file_of(king) as i32)
            .abs()
            .max((r - g.rank_of(king) as i32).abs());
        let v = material + MOP_UP_EDGE * edge + MOP_UP_NEAR * (files.max(ranks) - apart);
        Some(if strong == self.side { v } else { -v })
    }

    /// For fitting the weights: the terms' evaluation from White's side, the middle-game share of
    /// the phase (1 at the start, 0 with no pieces left), and White's minus Black's count of
    /// each linear weight's feature in the order of [`Weights::linear`].
    pub fn tuning_trace(&self) -> (i32, f64, Vec<f64>) {
        let e = &self.game.eval;
        let v = &self.game.variant;
        let white = if self.side == Color::White { 1 } else { -1 };
        let phase = self.phase.clamp(0, e.phase_total) as f64 / e.phase_total as f64;
        let mut mobility = MobilityTrace::default();
        let mut n = TermCounts::default();
        self.eval_parts(&mut n, Some(&mut mobility));
        let mut kinds = vec![[0.0f64; KIND_TERMS.len()]; v.pieces.len()];
        for sq in self.occupied() {
            let p = self.board[sq.index()];
            let sign = if p.color() == Color::White { 1.0 } else { -1.0 };
            let f = &mut kinds[p.kind()];
            f[0] += sign;
            let shape = square_features(v, p.color(), sq, v.pieces[p.kind()].is_pawn());
            for (i, x) in shape.iter().enumerate() {
                f[1 + i] += sign * x;
            }
        }
        for (k, f) in kinds.iter_mut().enumerate() {
            f[MOBILITY] = (mobility.reach[0][k] - mobility.reach[1][k]) as f64;
            for b in 0..REACH_BUCKETS {
                f[REACH + b] = (mobility.buckets[0][k][b] - mobility.buckets[1][k][b]) as f64;
            }
        }
        let mut features: Vec<f64> = n.features().iter().map(|&x| x as f64).collect();
        let own = R::EVAL_FEATURES.len();
        features.extend((0..own).map(|i| (n.rules[0][i] - n.rules[1][i]) as f64));
        features.extend(kinds.iter().flatten());
        (white * self.term_value(), phase, features)
    }

    /// How often each evaluation term occurs in the position, per side (every term, whatever
    /// its weight).
    pub fn term_counts(&self) -> TermCounts {
        let mut n = TermCounts::default();
        self.eval_parts(&mut n, Some(&mut MobilityTrace::default()));
        n
    }

    /// Per side, the tapered material, piece-square, mobility and shield score; the other terms
    /// go to `n`. With `trace`, the squares reached by every non-pawn, non-royal kind are
    /// counted there too, per side and kind (the tuner's mobility features), and every term is
    /// counted whatever its weight.
    fn eval_parts<S: TermSink>(&self, n: &mut S, mut trace: Option<&mut MobilityTrace>) -> [i32; 2] {
        let e = &self.game.eval;
        let mut pawns = Bitboard::EMPTY;
        let mut m = e.pawn_kinds;
        while m != 0 {
            pawns |= self.by_kind[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        // The zone of each side's royal piece, when it has exactly one.
        let zone = Color::ALL.map(|c| {
            let royals = self.royals(c);
            match royals.first() {
                Some(k) if e.royal_kinds != 0 && !royals.more_than_one() => e.terms.zone[k],
                _ => Bitboard::EMPTY,
            }
        });
        let ctx = EvalContext {
            phase: self.phase.clamp(0, e.phase_total),
            pawns,
            zone,
            counted: if trace.is_some() { Counted::ALL } else { e.counted },
        };
        let mut at = Attacks {
            all: [Bitboard::EMPTY; 2],
            pawn: [Bitboard::EMPTY; 2],
            by_kind: [[Bitboard::EMPTY; MAX_KINDS]; 2],
        };
        let mut score = [0i32; 2];
        for c in Color::ALL {
            score[c.index()] = self.activity(c, &ctx, &mut at, n, trace.as_deref_mut());
        }
        for c in Color::ALL {
            self.pawn_terms(c, &ctx, &at, n);
            self.piece_terms(c, &ctx, &at, n);
        }
        score
    }

    /// One side's tapered piece-square, mobility and shield score; its attacks go to `at`
    /// (pawns', every piece's and, where lesser threats count, each kind's), its attacks on
    /// the other royal zone and its storm to `n`, its squares reached to `trace`.
    #[inline(always)]
    fn activity<S: TermSink>(
        &self,
        c: Color,
        ctx: &EvalContext<R::Word>,
        at: &mut Attacks<R::Word>,
        n: &mut S,
        mut trace: Option<&mut MobilityTrace>,
    ) -> i32 {
        let game = &*self.game;
        let (e, t) = (&game.eval, &game.tables);
        let tt = &e.terms;
        let (phase, pawns) = (ctx.phase, ctx.pawns);
        let occ = self.occupied();
        let ci = c.index();
        let them = (!c).index();
        let own = self.by_color[ci];
        let not_own = !own;
        let mut mk = e.pawn_kinds;
        while mk != 0 {
            let k = mk.trailing_zeros() as usize;
            mk &= mk - 1;
            for sq in self.by_kind[k] & own {
                at.pawn[ci] |= t.kinds[k].leap_capt[ci][sq];
            }
        }
        at.all[ci] = at.pawn[ci];
        let [mg, eg] = self.psq[ci];
        let mut s = (mg * phase + eg * (e.phase_total - phase)) / e.phase_total;
        let reached = e.mobility_kinds | if trace.is_some() { e.piece_kinds } else { 0 };
        let mut mobility = [0i32; 2];
        for sq in own & !pawns {
            let k = self.board[sq.index()].kind();
            let a = self.attack_set(t, sq, k, c, occ);
            at.all[ci] |= a;
            if ctx.counted.lesser_threat {
                at.by_kind[ci][k] |= a;
            }
            if reached >> k & 1 != 0 {
                let reach = ((a | t.kinds[k].leap_quiet[ci][sq]) & not_own).count() as usize;
                let [mg, eg] = e.mob_score[k * e.mob_stride + reach];
                mobility[0] += mg;
                mobility[1] += eg;
                if let Some(tr) = trace.as_deref_mut() {
                    tr.reach[ci][k] += reach as i32;
                    tr.buckets[ci][k][reach.min(REACH_BUCKETS - 1)] += 1;
                }
            }
            let hit = a & ctx.zone[them];
            if hit.is_nonempty() && e.royal_kinds >> k & 1 == 0 {
                let hits = hit.count() as i32;
                n.zone_attack(them, hits, hits * tt.attack_unit[k]);
            }
        }
        s += (mobility[0] * phase + mobility[1] * (e.phase_total - phase)) / e.phase_total;
        if e.royal_kinds != 0 {
            let royals = self.royals(c);
            if let Some(k) = royals.first().filter(|_| !royals.more_than_one()) {
                let shield = (e.shield[ci][k] & pawns & own).count() as i32;
                let [wm, we] = e.shield_weight;
                s += (shield * wm * phase + shield * we * (e.phase_total - phase)) / e.phase_total;
                n.add(ci, term::SHIELD, shield);
                if ctx.counted.storm {
                    n.add(ci, term::STORM, (tt.storm[ci][k] & pawns & !own).count() as i32);
                }
            }
        }
        s
    }

    /// One side's pawn structure to `n`: passed (by bucket), doubled, isolated and, where they
    /// count, backward and connected pawns.
    #[inline(always)]
    fn pawn_terms<S: TermSink>(&self, c: Color, ctx: &EvalContext<R::Word>, at: &Attacks<R::Word>, n: &mut S) {
        let tt = &self.game.eval.terms;
        let ci = c.index();
        let them = (!c).index();
        let own = self.by_color[ci];
        let own_pawns = ctx.pawns & own;
        let their_pawns = ctx.pawns & !own;
        for sq in own_pawns {
            if (tt.passed_span[ci][sq] & their_pawns).is_empty() {
                n.add(ci, term::PASSED + tt.passed_bucket[ci][sq] as usize, 1);
            }
            if (tt.front[ci][sq] & own_pawns).is_nonempty() {
                n.add(ci, term::DOUBLED, 1);
            }
            if (tt.adjacent_files[sq] & own_pawns).is_empty() {
                n.add(ci, term::ISOLATED, 1);
            }
        }
        if ctx.counted.backward {
            for sq in own_pawns {
                if (tt.adjacent_files[sq] & own_pawns).is_nonempty()
                    && (tt.support[ci][sq] & own_pawns).is_empty()
                    && (tt.stop[ci][sq] & at.pawn[them]).is_nonempty()
                {
                    n.add(ci, term::BACKWARD, 1);
                }
            }
        }
        if ctx.counted.connected {
            for sq in own_pawns {
                if at.pawn[ci].contains(sq) || (tt.beside[sq] & own_pawns).is_nonempty() {
                    n.add(ci, term::CONNECTED, 1);
                }
            }
        }
    }

    /// One side's piece terms to `n`: outposts and lesser threats where they count, file
    /// riders on open and half-open files, colour-bound pairs, pieces attacked by pawns or
    /// hanging, and the rules module's features.
    #[inline(always)]
    fn piece_terms<S: TermSink>(&self, c: Color, ctx: &EvalContext<R::Word>, at: &Attacks<R::Word>, n: &mut S) {
        let game = &*self.game;
        let e = &game.eval;
        let tt = &e.terms;
        let ci = c.index();
        let them = (!c).index();
        let own = self.by_color[ci];
        let own_pawns = ctx.pawns & own;
        let their_pawns = ctx.pawns & !own;
        if ctx.counted.outpost {
            let safe = tt.enemy_half[ci] & at.pawn[ci];
            let mut mk = tt.leapers;
            while mk != 0 {
                let k = mk.trailing_zeros() as usize;
                mk &= mk - 1;
                for sq in self.by_kind[k] & own & safe {
                    if (tt.passed_span[ci][sq] & tt.adjacent_files[sq] & their_pawns).is_empty() {
                        n.add(ci, term::OUTPOST, 1);
                    }
                }
            }
        }
        if ctx.counted.lesser_threat {
            let mut mk = e.piece_kinds;
            while mk != 0 {
                let k = mk.trailing_zeros() as usize;
                mk &= mk - 1;
                let targets = self.by_kind[k] & own;
                if targets.is_empty() {
                    continue;
                }
                let mut by_lesser = Bitboard::EMPTY;
                let mut lk = tt.lesser[k];
                while lk != 0 {
                    by_lesser |= at.by_kind[them][lk.trailing_zeros() as usize];
                    lk &= lk - 1;
                }
                n.add(ci, term::LESSER_THREAT, (targets & by_lesser).count() as i32);
            }
        }
        let mut mk = tt.file_riders;
        while mk != 0 {
            let k = mk.trailing_zeros() as usize;
            mk &= mk - 1;
            for sq in self.by_kind[k] & own {
                if (tt.file[sq] & own_pawns).is_empty() {
                    if (tt.file[sq] & their_pawns).is_empty() {
                        n.add(ci, term::OPEN_FILE, 1);
                    } else {
                        n.add(ci, term::HALF_OPEN_FILE, 1);
                    }
                }
            }
        }
        let mut mk = tt.bound_kinds;
        while mk != 0 {
            let k = mk.trailing_zeros() as usize;
            mk &= mk - 1;
            let b = self.by_kind[k] & own;
            if (b & tt.dark).is_nonempty() && (b & !tt.dark).is_nonempty() {
                n.add(ci, term::BOUND_PAIR, 1);
            }
        }
        let pieces = own & !ctx.pawns & !self.royals(c);
        n.add(ci, term::PAWN_THREAT, (pieces & at.pawn[them]).count() as i32);
        n.add(ci, term::HANGING, (pieces & at.all[them] & !at.all[ci]).count() as i32);
        if !R::EVAL_FEATURES.is_empty() && ctx.counted.rules {
            let mut own = [0; MAX_RULE_FEATURES];
            game.rules.eval_features(self, c, &mut own);
            for (i, &x) in own.iter().enumerate().take(R::EVAL_FEATURES.len()) {
                n.add_rule(ci, i, x);
            }
        }
    }

    /// Material and piece-square sums recomputed from the board: ([opening, endgame] per
    /// colour, phase). Tests compare them with the incrementally kept ones.
    pub fn psq_from_scratch(&self) -> ([[i32; 2]; 2], i32) {
        let e = &self.game.eval;
        let mut psq = [[0i32; 2]; 2];
        let mut phase = 0;
        for sq in self.occupied() {
            let p = self.board[sq.index()];
            let v = e.psq(p.code(), sq);
            psq[p.color().index()][0] += v[0];
            psq[p.color().index()][1] += v[1];
            phase += e.phase_value[p.kind()];
        }
        (psq, phase)
    }

    /// The incrementally kept sums, for comparison with [`Position::psq_from_scratch`].
    pub fn psq_incremental(&self) -> ([[i32; 2]; 2], i32) {
        (self.psq, self.phase)
    }

    /// Squares the piece on `sq` (kind `k`, colour `c`) attacks: its capturing leaps and the
    /// squares its rides reach, up to and including the first piece met.
    #[inline]
    fn attack_set(&self, t: &Tables<R::Word>, sq: Square, k: usize, c: Color, occ: Bb<R>) -> Bb<R> {
        let kt = &t.kinds[k];
        let ci = c.index();
        let mut bb = kt.leap_capt[ci][sq];
        for slide in kt.slides[ci].iter().filter(|_| <R::Word as Word>::BITS == 64) {
            bb |= t.set_attacks(slide.set, sq, occ);
        }
        for ride in &kt.loose_rides[ci] {
            bb |= t.ray_attacks(ride.ray, sq, occ);
        }
        bb
    }
}

#[cfg(test)]
mod tests {
    use crate::games::{GameVisitor, default_variants, dispatch};
    use crate::position::{Game, Position};
    use crate::rules::Rules;
    use std::sync::Arc;

    /// The mop-up value of each position (`None`: valued by the terms).
    struct MopUp(&'static [&'static str]);

    impl GameVisitor for MopUp {
        type Output = Vec<Option<i32>>;
        fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Self::Output {
            self.0
                .iter()
                .map(|f| Position::from_fen(game.clone(), f).unwrap().mop_up())
                .collect()
        }
    }

    fn mop_up(variant: &str, fens: &'static [&'static str]) -> Vec<Option<i32>> {
        dispatch(default_variants().get(variant).unwrap(), MopUp(fens))
    }

    /// Only a piece worth a rook or more against a lone king counts: not two knights, not a
    /// knight and a bishop, not a rook against a king with a pawn.
    #[test]
    fn a_lone_king_is_mopped_up_by_a_rook_or_more() {
        let v = mop_up(
            "chess",
            &[
                "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
                "8/8/8/4k3/8/8/P7/2Q1K3 b - - 0 1",
                "8/8/8/4k3/8/8/8/1NN1K3 w - - 0 1",
                "8/8/8/4k3/8/8/8/1BN1K3 w - - 0 1",
                "8/8/4p3/4k3/8/8/8/R3K3 w - - 0 1",
            ],
        );
        assert!(v[0].is_some_and(|x| x > 0) && v[1].is_some_and(|x| x < 0), "{v:?}");
        assert_eq!(v[2..], [None, None, None]);
    }

    /// On 10x8 a lone king on the first rank is nearer the edge than one on b4, the kings
    /// being as far apart.
    #[test]
    fn the_edge_is_the_nearest_edge_on_a_long_board() {
        let v = mop_up(
            "capablanca",
            &[
                "9R/10/10/10/10/10/2K7/4k5 w - - 0 1",
                "9R/10/10/10/1k8/10/2K7/10 w - - 0 1",
            ],
        );
        assert!(v[0].unwrap() > v[1].unwrap(), "{v:?}");
    }
}
