//! Evaluation terms beyond material, piece squares and mobility: passed, doubled, isolated,
//! backward and connected pawns; attacks on the royal piece's zone, its pawn shield and the enemy
//! pawns storming it; pieces attacked by pawns, by lesser pieces or left hanging; straight riders
//! on open files; leapers on outposts; pairs of colour-bound pieces. The masks come from each variant's
//! geometry once, when it loads; a term that does not apply (no pawns, no single royal piece, no
//! colour-bound kind) weighs nothing.

use crate::bitboard::{Bitboard, Word};
use crate::color::Color;
use crate::rules::MAX_RULE_FEATURES;
use crate::tables::SqTable;
use crate::variant::{MAX_KINDS, Variant};

use super::weights::{PASSED_BUCKETS, Pair, TERM_WEIGHTS, Weights, term};

/// Where the evaluation puts the terms it finds: counted ([`TermCounts`], for a trace and
/// tests) or weighted at once ([`Weighted`], for the search).
pub trait TermSink {
    /// `n` occurrences of term `t` (an index of [`term`]) for side `c`.
    fn add(&mut self, c: usize, t: usize, n: i32);
    /// An enemy piece attacks side `c`'s royal zone: `hits` squares, `danger` their weight.
    fn zone_attack(&mut self, c: usize, hits: i32, danger: i32);
    /// `n` occurrences of the rules module's feature `i` for side `c`.
    fn add_rule(&mut self, c: usize, i: usize, n: i32);
}

/// How often each term occurs for each side (index: colour), before weighting: what the
/// evaluation multiplies by [`Weights`], tests check on hand-worked positions and a tuner fits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TermCounts {
    /// Per side, the count of each term, indexed by [`term`].
    pub terms: [[i32; TERM_WEIGHTS]; 2],
    /// Enemy pieces attacking the side's royal zone.
    pub zone_attackers: [i32; 2],
    /// Their attacks on zone squares (a square attacked by two pieces counts twice).
    pub zone_attacks: [i32; 2],
    /// The same attacks weighted by attacker ([`TermTables::attack_unit`]).
    pub danger: [i32; 2],
    /// Per side, the count of each of the rules module's features.
    pub rules: [[i32; MAX_RULE_FEATURES]; 2],
}

impl TermSink for TermCounts {
    #[inline]
    fn add(&mut self, c: usize, t: usize, n: i32) {
        self.terms[c][t] += n;
    }

    #[inline]
    fn zone_attack(&mut self, c: usize, hits: i32, danger: i32) {
        self.zone_attackers[c] += 1;
        self.zone_attacks[c] += hits;
        self.danger[c] += danger;
    }

    #[inline]
    fn add_rule(&mut self, c: usize, i: usize, n: i32) {
        self.rules[c][i] += n;
    }
}

impl TermCounts {
    /// Both sides' counts of term `t`.
    pub fn of(&self, t: usize) -> [i32; 2] {
        [self.terms[0][t], self.terms[1][t]]
    }

    /// A side's passed pawns by bucket.
    pub fn passed(&self, c: usize) -> [i32; PASSED_BUCKETS] {
        std::array::from_fn(|b| self.terms[c][term::PASSED + b])
    }

    /// White's count minus Black's for each linear weight that is not per kind, in the order
    /// of [`Weights::linear`].
    pub fn features(&self) -> [i32; TERM_WEIGHTS] {
        std::array::from_fn(|t| self.terms[0][t] - self.terms[1][t])
    }
}

/// The terms weighted as they are found: per side [middle game, end game], and the royal
/// zone's attackers for the king danger, which is not linear.
pub struct Weighted<'a> {
    pairs: &'a [Pair; TERM_WEIGHTS],
    rule_pairs: &'a [Pair; MAX_RULE_FEATURES],
    king_danger: i32,
    score: [Pair; 2],
    zone_attackers: [i32; 2],
    danger: [i32; 2],
}

impl<'a> Weighted<'a> {
    /// A sink weighting by `pairs` (indexed by [`term`]), `rule_pairs` (the rules module's
    /// features) and `king_danger`.
    pub fn new(
        pairs: &'a [Pair; TERM_WEIGHTS],
        rule_pairs: &'a [Pair; MAX_RULE_FEATURES],
        king_danger: i32,
    ) -> Weighted<'a> {
        Weighted {
            pairs,
            rule_pairs,
            king_danger,
            score: [[0; 2]; 2],
            zone_attackers: [0; 2],
            danger: [0; 2],
        }
    }

    /// Side `c`'s score: [middle game, end game]. The king danger, with two or more attackers,
    /// costs `king_danger * min(danger, 30)^2 / 64` in the middle game.
    pub fn score(&self, c: usize) -> Pair {
        let mut p = self.score[c];
        if self.zone_attackers[c] >= 2 {
            let d = self.danger[c].min(30);
            p[0] -= self.king_danger * d * d / 64;
        }
        p
    }
}

impl TermSink for Weighted<'_> {
    #[inline]
    fn add(&mut self, c: usize, t: usize, n: i32) {
        let w = self.pairs[t];
        self.score[c][0] += w[0] * n;
        self.score[c][1] += w[1] * n;
    }

    #[inline]
    fn zone_attack(&mut self, c: usize, _hits: i32, danger: i32) {
        self.zone_attackers[c] += 1;
        self.danger[c] += danger;
    }

    #[inline]
    fn add_rule(&mut self, c: usize, i: usize, n: i32) {
        let w = self.rule_pairs[i];
        self.score[c][0] += w[0] * n;
        self.score[c][1] += w[1] * n;
    }
}

/// Which of the costlier terms an evaluation counts: those whose weight is not zero (a trace
/// counts them all), and the rules module's features when any of their weights is not zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    pub backward: bool,
    pub connected: bool,
    pub outpost: bool,
    pub lesser_threat: bool,
    pub storm: bool,
    pub rules: bool,
}

impl Counted {
    /// Every term (for a trace).
    pub const ALL: Counted = Counted {
        backward: true,
        connected: true,
        outpost: true,
        lesser_threat: true,
        storm: true,
        rules: true,
    };

    /// The terms the weights use.
    pub fn from_weights(w: &Weights) -> Counted {
        let used = |t: usize| w.terms[t] != [0, 0];
        Counted {
            backward: used(term::BACKWARD),
            connected: used(term::CONNECTED),
            outpost: used(term::OUTPOST),
            lesser_threat: used(term::LESSER_THREAT),
            storm: used(term::STORM),
            rules: w.rules.iter().any(|p| *p != [0, 0]),
        }
    }
}

/// Masks of one variant's board for the terms.
#[derive(Clone, Debug)]
pub struct TermTables<W: Word> {
    /// Per colour: squares ahead on the same file.
    pub front: [SqTable<Bitboard<W>>; 2],
    /// Per colour: squares ahead on the same and the adjacent files (a pawn with no enemy pawn
    /// there is passed).
    pub passed_span: [SqTable<Bitboard<W>>; 2],
    /// Squares of the adjacent files.
    pub adjacent_files: SqTable<Bitboard<W>>,
    /// Squares next to the square on its rank.
    pub beside: SqTable<Bitboard<W>>,
    /// Per colour: the squares of the adjacent files on the square's rank and behind it (where
    /// a supporting pawn would stand).
    pub support: [SqTable<Bitboard<W>>; 2],
    /// Per colour: the next square ahead on the file.
    pub stop: [SqTable<Bitboard<W>>; 2],
    /// Per colour: the three files around the square, one to three ranks ahead (the storm
    /// zone of a royal piece there).
    pub storm: [SqTable<Bitboard<W>>; 2],
    /// Per colour: the enemy half of the board (outposts).
    pub enemy_half: [Bitboard<W>; 2],
    /// Non-pawn, non-royal kinds that only leap (knights): the kinds outposts count.
    pub leapers: u32,
    /// Per kind, the non-pawn, non-royal kinds of lower value (its lesser attackers).
    pub lesser: [u32; MAX_KINDS],
    /// Squares of the same file.
    pub file: SqTable<Bitboard<W>>,
    /// The royal piece's zone: its square and the squares next to it.
    pub zone: SqTable<Bitboard<W>>,
    /// Per colour: the passed-pawn bucket of a pawn on the square.
    pub passed_bucket: [SqTable<u8>; 2],
    /// Dark squares.
    pub dark: Bitboard<W>,
    /// Non-royal kinds that ride the files without limit (rooks and their compounds).
    pub file_riders: u32,
    /// Non-pawn kinds that never change square colour (bishops).
    pub bound_kinds: u32,
    /// Weight of a zone square attacked by a piece of the kind (by its value).
    pub attack_unit: [i32; MAX_KINDS],
}

impl<W: Word> TermTables<W> {
    /// The masks for a variant, with `value` the material value of each kind.
    pub fn new(v: &Variant, value: &[i32; MAX_KINDS]) -> TermTables<W> {
        let g = &v.geometry;
        let empty = || SqTable::filled(Bitboard::<W>::EMPTY);
        let mut t = TermTables {
            front: [empty(), empty()],
            passed_span: [empty(), empty()],
            adjacent_files: empty(),
            beside: empty(),
            support: [empty(), empty()],
            stop: [empty(), empty()],
            storm: [empty(), empty()],
            enemy_half: [Bitboard::EMPTY; 2],
            leapers: 0,
            lesser: [0; MAX_KINDS],
            file: empty(),
            zone: empty(),
            passed_bucket: [SqTable::filled(0), SqTable::filled(0)],
            dark: g.dark.convert(),
            file_riders: 0,
            bound_kinds: 0,
            attack_unit: [0; MAX_KINDS],
        };
        t.add_square_masks(v);
        t.add_kinds(v, value);
        t
    }

    /// The square masks: files, neighbours, the royal zone, and per side the squares ahead,
    /// the passed-pawn span, support, stop and storm squares, the enemy half and the
    /// passed-pawn bucket.
    fn add_square_masks(&mut self, v: &Variant) {
        let g = &v.geometry;
        let t = self;
        let promo = v.promotion_rank.unwrap_or(g.ranks() - 1) as f64;
        let start = v.pawn_initial_ranks.first().map_or(1.0, |&r| r as f64);
        for sq in g.board {
            let (f, r) = (g.file_of(sq) as i32, g.rank_of(sq) as i32);
            for s in g.board {
                let (sf, sr) = (g.file_of(s) as i32, g.rank_of(s) as i32);
                let (df, dr) = (sf - f, sr - r);
                if df == 0 {
                    t.file[sq].set(s);
                }
                if df.abs() == 1 {
                    t.adjacent_files[sq].set(s);
                    if dr == 0 {
                        t.beside[sq].set(s);
                    }
                }
                if df.abs() <= 1 && dr.abs() <= 1 {
                    t.zone[sq].set(s);
                }
                for c in Color::ALL {
                    let ahead = if c == Color::White { dr > 0 } else { dr < 0 };
                    if ahead && df == 0 {
                        t.front[c.index()][sq].set(s);
                    }
                    if ahead && df.abs() <= 1 {
                        t.passed_span[c.index()][sq].set(s);
                    }
                    let forward = if c == Color::White { dr } else { -dr };
                    if df.abs() == 1 && forward <= 0 {
                        t.support[c.index()][sq].set(s);
                    }
                    if df == 0 && forward == 1 {
                        t.stop[c.index()][sq].set(s);
                    }
                    if df.abs() <= 1 && (1..=3).contains(&forward) {
                        t.storm[c.index()][sq].set(s);
                    }
                }
            }
            for c in Color::ALL {
                let rr = g.relative_rank(c, sq) as f64;
                let progress = ((rr - start) / (promo - start).max(1.0)).clamp(0.0, 1.0);
                t.passed_bucket[c.index()][sq] = (progress * (PASSED_BUCKETS - 1) as f64).round() as u8;
                if 2 * g.relative_rank(c, sq) >= g.ranks() {
                    t.enemy_half[c.index()].set(sq);
                }
            }
        }
    }

    /// The kinds' classes: file riders, colour-bound kinds, leapers, each kind's attack unit
    /// and the kinds worth less.
    fn add_kinds(&mut self, v: &Variant, value: &[i32; MAX_KINDS]) {
        let t = self;
        for (k, p) in v.pieces.iter().enumerate() {
            if p.is_pawn() {
                continue;
            }
            let moves = p.motions.iter().filter(|m| !m.initial);
            if !p.is_royal() && moves.clone().any(|m| m.dx == 0 && m.range != 1) {
                t.file_riders |= 1 << k;
            }
            if !p.is_royal() && moves.clone().count() > 0 && moves.clone().all(|m| (m.dx + m.dy) % 2 == 0) {
                t.bound_kinds |= 1 << k;
            }
            if !p.is_royal() && moves.clone().count() > 0 && moves.clone().all(|m| m.range == 1) {
                t.leapers |= 1 << k;
            }
            t.attack_unit[k] = (value[k] / 150).clamp(1, 6);
            if !p.is_royal() {
                for (j, q) in v.pieces.iter().enumerate() {
                    if !q.is_pawn() && !q.is_royal() && value[j] < value[k] {
                        t.lesser[k] |= 1 << j;
                    }
                }
            }
        }
    }
}
