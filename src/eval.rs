//! Evaluation that works for any variant without tuning: material with values derived from
//! each piece's mobility on the variant's board (or `value=` in `engine.ini`), piece-square
//! terms built from the geometry (centralisation, pawn advance towards promotion, a king that
//! stays home while there is material), mobility, a pawn shield, and the rules module's terms.
//! Scores are centipawns from the side to move's point of view.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::position::Position;
use crate::rules::Rules;
use crate::square::Square;
use crate::tables::{SqTable, Tables};
use crate::variant::{MAX_KINDS, Variant};

/// Value of a pawn-flagged piece.
pub const PAWN_VALUE: i32 = 100;
/// Material value given to a royal piece in games without check (where it can be captured).
pub const ROYAL_VALUE_NO_CHECK: i32 = 2000;

/// Per-variant evaluation tables, built once when the variant is loaded.
#[derive(Clone, Debug)]
pub struct EvalTables {
    /// Material value per kind.
    pub value: [i32; MAX_KINDS],
    /// Piece-square bonus per kind and colour, opening and endgame.
    pst: [[[SqTable<i16>; 2]; 2]; MAX_KINDS],
    /// Mobility weight per kind (centipawns per target square).
    mobility: [i32; MAX_KINDS],
    /// Sum of non-pawn, non-royal material of both sides in the start position.
    phase_total: i32,
    /// Per colour, the squares in front of each square (pawn shield), for royal pieces.
    shield: [SqTable<Bitboard>; 2],
    royal_kinds: u32,
    pawn_kinds: u32,
    check: bool,
}

/// Average number of squares a kind reaches from the squares of an empty board, with ride steps
/// beyond the first weighted down (a crowded board blocks long rides).
fn effective_mobility(v: &Variant, kind: usize) -> f64 {
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
                    s += 0.8f64.powi(k);
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

/// True when every move of the kind keeps the square colour (bishop-like, colour-bound).
fn colour_bound(v: &Variant, kind: usize) -> bool {
    v.pieces[kind].motions.iter().all(|m| (m.dx + m.dy) % 2 == 0)
}

impl EvalTables {
    /// Builds the tables for a variant.
    pub fn new(v: &Variant) -> EvalTables {
        let g = &v.geometry;
        let royal_kinds = v.royal_kinds();
        let pawn_kinds = v.pawn_kinds();
        let mut value = [0i32; MAX_KINDS];
        let mut mobility = [0i32; MAX_KINDS];
        let mut avg_mob = [0f64; MAX_KINDS];
        for (k, p) in v.pieces.iter().enumerate() {
            avg_mob[k] = effective_mobility(v, k);
            value[k] = if let Some(val) = p.value {
                val
            } else if p.pawn {
                PAWN_VALUE
            } else if p.royal {
                if v.check { 0 } else { ROYAL_VALUE_NO_CHECK }
            } else {
                let mut val = 58.0 * avg_mob[k];
                if colour_bound(v, k) {
                    val *= 0.85;
                }
                val.round() as i32
            };
            mobility[k] = if p.pawn || p.royal {
                0
            } else if p.motions.iter().any(|m| m.range != 1) {
                3
            } else {
                2
            };
        }
        // Geometry-driven piece-square terms.
        let fc = (g.files() as f64 - 1.0) / 2.0;
        let rc = (g.ranks() as f64 - 1.0) / 2.0;
        let max_d = fc.max(rc);
        let mut pst: [[[SqTable<i16>; 2]; 2]; MAX_KINDS] =
            std::array::from_fn(|_| std::array::from_fn(|_| std::array::from_fn(|_| SqTable::filled(0i16))));
        for (k, p) in v.pieces.iter().enumerate() {
            for c in Color::ALL {
                for sq in g.landable() {
                    let df = (g.file_of(sq) as f64 - fc).abs();
                    let dr = (g.rank_of(sq) as f64 - rc).abs();
                    let central = max_d - df.max(dr); // 0 on the edge .. max_d in the centre
                    let rr = g.relative_rank(c, sq) as f64;
                    let (mg, eg) = if p.pawn {
                        let promo = v.promotion_rank.unwrap_or(g.ranks() - 1) as f64;
                        let start = v.pawn_initial_ranks.first().map_or(1.0, |&r| r as f64);
                        let progress = ((rr - start) / (promo - start).max(1.0)).clamp(0.0, 1.0);
                        let file_bonus = (fc - df) * 3.0;
                        (progress * progress * 60.0 + file_bonus, progress * progress * 160.0)
                    } else if p.royal && v.check {
                        // Stay home (and off the centre) while there is material; centralise late.
                        let home = if rr == 0.0 { 15.0 } else { -10.0 * rr };
                        (home - central * 4.0, central * 12.0)
                    } else {
                        let w = if avg_mob[k] < 7.0 { 8.0 } else { 3.0 };
                        (central * w, central * w * 0.5)
                    };
                    pst[k][c.index()][0][sq] = mg.round() as i16;
                    pst[k][c.index()][1][sq] = eg.round() as i16;
                }
            }
        }
        let mut shield = [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)];
        for c in Color::ALL {
            let dir = if c == Color::White { 1 } else { -1 };
            for sq in g.board {
                let mut bb = Bitboard::EMPTY;
                for df in -1..=1 {
                    for dr in 1..=2 {
                        if let Some(s) = g.offset(sq, df, dr * dir) {
                            bb.set(s);
                        }
                    }
                }
                shield[c.index()][sq] = bb & g.board;
            }
        }
        // Phase from the start position's material.
        let mut phase_total = 0;
        let board_part = v.start_fen.split_whitespace().next().unwrap_or("");
        for ch in board_part.chars().filter(|c| c.is_ascii_alphabetic()) {
            if let Some(k) = v.kind_of_letter(ch)
                && !v.pieces[k].pawn
                && !v.pieces[k].royal
            {
                phase_total += value[k];
            }
        }
        EvalTables {
            value,
            pst,
            mobility,
            phase_total: phase_total.max(1),
            shield,
            royal_kinds,
            pawn_kinds,
            check: v.check,
        }
    }
}

impl<R: Rules> Position<R> {
    /// Static evaluation from the side to move's point of view.
    pub fn evaluate(&self) -> i32 {
        let game = &*self.game;
        let e = &game.eval;
        let t: &Tables = &game.tables;
        let occ = self.occupied();
        let mut mat = [0i32; 2];
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
        let mut mob = [0i32; 2];
        let mut phase = 0;
        for c in Color::ALL {
            let ci = c.index();
            let not_own = !self.by_color[ci];
            for sq in self.by_color[ci] {
                let k = self.board[sq.index()].kind();
                mat[ci] += e.value[k];
                mg[ci] += e.pst[k][ci][0][sq] as i32;
                eg[ci] += e.pst[k][ci][1][sq] as i32;
                if e.pawn_kinds >> k & 1 == 0 && e.royal_kinds >> k & 1 == 0 {
                    phase += e.value[k];
                    if e.mobility[k] != 0 {
                        mob[ci] += e.mobility[k] * self.reach(t, sq, k, c, occ, not_own) as i32;
                    }
                }
            }
        }
        let phase = phase.min(e.phase_total);
        let mut score = [0i32; 2];
        for c in Color::ALL {
            let ci = c.index();
            let pst = (mg[ci] * phase + eg[ci] * (e.phase_total - phase)) / e.phase_total;
            score[ci] = mat[ci] + pst + mob[ci];
            if e.check && e.royal_kinds != 0 {
                let royals = self.royals(c);
                if let Some(k) = royals.first().filter(|_| !royals.more_than_one()) {
                    let mut pawns = Bitboard::EMPTY;
                    let mut m = e.pawn_kinds;
                    while m != 0 {
                        pawns |= self.by_kind[m.trailing_zeros() as usize];
                        m &= m - 1;
                    }
                    let shield = (e.shield[ci][k] & pawns & self.by_color[ci]).count() as i32;
                    score[ci] += shield * 12 * phase / e.phase_total;
                }
            }
        }
        let us = self.side;
        let s = score[us.index()] - score[(!us).index()];
        s + game.rules.eval_terms(self) + 10
    }

    /// Number of squares the piece on `sq` could move to (pseudo-legal, ignoring pins).
    #[inline]
    fn reach(&self, t: &Tables, sq: Square, k: usize, c: Color, occ: Bitboard, not_own: Bitboard) -> u32 {
        let kt = &t.kinds[k];
        let ci = c.index();
        let mut bb = (kt.leap_quiet[ci][sq] | kt.leap_capt[ci][sq]) & not_own;
        for ride in &kt.rides[ci] {
            bb |= t.ray_attacks(ride.ray, sq, occ) & not_own;
        }
        bb.count()
    }
}
