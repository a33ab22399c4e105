//! Evaluation terms beyond material, piece squares and mobility: passed, doubled and isolated
//! pawns; attacks on the royal piece's zone; pieces attacked by pawns or left hanging; straight
//! riders on open files; pairs of colour-bound pieces. The masks come from each variant's
//! geometry once, when it loads; a term that does not apply (no pawns, no single royal piece, no
//! colour-bound kind) weighs nothing.

use crate::bitboard::{Bitboard, Word};
use crate::color::Color;
use crate::tables::SqTable;
use crate::variant::{MAX_KINDS, Variant};

use super::weights::{PASSED_BUCKETS, Pair, TERM_WEIGHTS, Weights};

/// How often each term occurs for each side (index: colour), before weighting: what the
/// evaluation multiplies by [`Weights`], tests check on hand-worked positions and a tuner fits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TermCounts {
    /// Passed pawns per bucket.
    pub passed: [[i32; PASSED_BUCKETS]; 2],
    /// Pawns with a pawn of their side ahead on their file.
    pub doubled: [i32; 2],
    /// Pawns with no pawn of their side on an adjacent file.
    pub isolated: [i32; 2],
    /// File riders on files without pawns.
    pub open_file: [i32; 2],
    /// File riders on files with enemy pawns only.
    pub half_open_file: [i32; 2],
    /// Colour-bound kinds with pieces on both square colours.
    pub bound_pair: [i32; 2],
    /// Non-pawn, non-royal pieces attacked by enemy pawns.
    pub pawn_threat: [i32; 2],
    /// Non-pawn, non-royal pieces attacked and not defended.
    pub hanging: [i32; 2],
    /// Enemy pieces attacking the side's royal zone.
    pub zone_attackers: [i32; 2],
    /// Their attacks on zone squares (a square attacked by two pieces counts twice).
    pub zone_attacks: [i32; 2],
    /// The same attacks weighted by attacker ([`TermTables::attack_unit`]).
    pub danger: [i32; 2],
}

impl TermCounts {
    /// White's count minus Black's for each linear weight that is not per kind, in the order
    /// of [`Weights::linear`].
    pub fn features(&self) -> [i32; TERM_WEIGHTS] {
        let d = |a: [i32; 2]| a[0] - a[1];
        let mut f = [0; TERM_WEIGHTS];
        for (b, x) in f.iter_mut().take(PASSED_BUCKETS).enumerate() {
            *x = self.passed[0][b] - self.passed[1][b];
        }
        let rest = [
            d(self.doubled),
            d(self.isolated),
            d(self.open_file),
            d(self.half_open_file),
            d(self.bound_pair),
            d(self.pawn_threat),
            d(self.hanging),
        ];
        f[PASSED_BUCKETS..].copy_from_slice(&rest);
        f
    }

    /// The side's score from the counts: [middle game, end game].
    pub fn score(&self, c: usize, w: &Weights) -> Pair {
        let mut p: Pair = [0, 0];
        let mut add = |pair: Pair, n: i32| {
            p[0] += pair[0] * n;
            p[1] += pair[1] * n;
        };
        for (b, &n) in self.passed[c].iter().enumerate() {
            add(w.passed[b], n);
        }
        add(w.doubled, self.doubled[c]);
        add(w.isolated, self.isolated[c]);
        add(w.open_file, self.open_file[c]);
        add(w.half_open_file, self.half_open_file[c]);
        add(w.bound_pair, self.bound_pair[c]);
        add(w.pawn_threat, self.pawn_threat[c]);
        add(w.hanging, self.hanging[c]);
        if self.zone_attackers[c] >= 2 {
            let d = self.danger[c].min(30);
            p[0] -= w.king_danger * d * d / 64;
        }
        p
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
            file: empty(),
            zone: empty(),
            passed_bucket: [SqTable::filled(0), SqTable::filled(0)],
            dark: g.dark.convert(),
            file_riders: 0,
            bound_kinds: 0,
            attack_unit: [0; MAX_KINDS],
        };
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
                }
            }
            for c in Color::ALL {
                let rr = g.relative_rank(c, sq) as f64;
                let progress = ((rr - start) / (promo - start).max(1.0)).clamp(0.0, 1.0);
                t.passed_bucket[c.index()][sq] = (progress * (PASSED_BUCKETS - 1) as f64).round() as u8;
            }
        }
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
            t.attack_unit[k] = (value[k] / 150).clamp(1, 6);
        }
        t
    }
}
