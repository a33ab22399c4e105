//! Counting legal moves without listing them: perft's last ply.
//!
//! The count follows the same legality rules as [`Position::legal_moves`] (a test compares
//! the two on every node of the perft suites); pieces whose kind leaps by a few fixed index
//! offsets (pawns, knights) are counted a whole set at a time by shifting bitboards.

use crate::bitboard::{Bitboard, Word};
use crate::movegen::{Half, MoveSink};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{Bb, Rules};
use crate::square::Square;

/// A [`MoveSink`] that only counts.
#[derive(Default)]
pub(crate) struct Counter(pub u64);

impl MoveSink for Counter {
    const BULK: bool = true;
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn push_normal<W: Word>(&mut self, _: Square, to: Bitboard<W>) {
        self.0 += u64::from(to.count());
    }
    #[inline(always)]
    fn as_list(&mut self) -> Option<&mut MoveList> {
        None
    }
    #[inline(always)]
    fn add_count(&mut self, n: u64) {
        self.0 += n;
    }
}

impl<R: Rules> Position<R> {
    /// The number of legal moves, equal to the length of [`Position::legal_moves`].
    pub fn count_legal_moves(&mut self) -> u64 {
        if self.halves_are_cheap() {
            let mut n = Counter::default();
            let ksq = self.royals(self.side).first().expect("one royal");
            self.legal_fast(&mut n, ksq, Half::All);
            return n.0;
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.len() as u64
    }

    /// Counts the moves of the side's unpinned non-royal pieces whose kind has a shift plan,
    /// destinations limited to `allowed`; returns the squares of the pieces counted and the count.
    pub(crate) fn count_shifted(&self, allowed: Bb<R>, pinned: Bb<R>) -> (Bb<R>, u64) {
        let mut n = 0;
        let g = &*self.game;
        let us = self.side;
        let c = us.index();
        let occ = self.occupied();
        let them = self.by_color[(!us).index()];
        let mut done = Bitboard::EMPTY;
        let mut kinds = g.shift_kinds[c];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let pieces = self.pieces(us, k) & !pinned;
            if pieces.is_empty() {
                continue;
            }
            let Some(plan) = &g.tables.kinds[k].shifts[c] else {
                continue;
            };
            done |= pieces;
            let zone = if g.pawn_kinds >> k & 1 != 0 {
                g.promo_zone[c]
            } else {
                Bitboard::EMPTY
            };
            let promo = g.variant.promotion_kinds.len() as u64 + u64::from(!g.variant.promotion_compulsory);
            let mut add = |to: Bb<R>| {
                n += u64::from((to & !zone).count()) + u64::from((to & zone).count()) * promo;
            };
            let landing = allowed & g.landable;
            // The targets a leap may end on: empty squares if it moves, enemy ones if it captures.
            let ends = |to: Bb<R>, quiet: bool, capture: bool| {
                (if quiet { to & !occ } else { Bitboard::EMPTY }) | (if capture { to & them } else { Bitboard::EMPTY })
            };
            for l in &plan.leaps {
                add(ends((pieces & l.origin).shifted(l.delta) & landing, l.quiet, l.capture));
            }
            for sp in &plan.specials {
                let mut from = pieces & sp.origin;
                for &p in &sp.path {
                    from &= !occ.shifted(-p);
                }
                add(ends(from.shifted(sp.delta) & allowed, sp.quiet, sp.capture));
            }
        }
        (done, n)
    }
}
