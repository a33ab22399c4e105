//! `Bitboard`: a set of squares, one bit per square index, in a machine word of 64 or 128 bits.
//!
//! The width is chosen per variant when it loads (a rules module's [`crate::Rules::Word`]): 64
//! bits for boards of at most 64 squares, 128 for the rest; code is monomorphised per width.

use crate::square::Square;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// An unsigned machine word that holds a bitboard: `u64` or `u128`.
pub trait Word:
    Copy
    + Default
    + Debug
    + Eq
    + Hash
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// Number of bits (squares) the word holds.
    const BITS: u32;
    /// All bits clear.
    const ZERO: Self;
    /// Only bit `i` set (`i` below [`Word::BITS`]).
    fn bit(i: usize) -> Self;
    /// Index of the lowest set bit ([`Word::BITS`] when none).
    fn lowest(self) -> u32;
    /// Index of the highest set bit (the word must not be zero).
    fn highest(self) -> u32;
    /// Number of set bits.
    fn ones(self) -> u32;
    /// The word with its lowest set bit cleared.
    fn without_lowest(self) -> Self;
    /// The low bits of a 128-bit set (the caller checks that nothing higher is set).
    fn from_u128(v: u128) -> Self;
    /// The set widened to 128 bits.
    fn to_u128(self) -> u128;
    /// Every bit moved `n` places up (`n` below [`Word::BITS`]); bits past the top are lost.
    fn up(self, n: u32) -> Self;
    /// Every bit moved `n` places down (`n` below [`Word::BITS`]).
    fn down(self, n: u32) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            #[inline(always)]
            fn bit(i: usize) -> Self {
                1 << i
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                <$t>::BITS - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn from_u128(v: u128) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn up(self, n: u32) -> Self {
                self << n
            }
            #[inline(always)]
            fn down(self, n: u32) -> Self {
                self >> n
            }
        }
    };
}
word!(u64);
word!(u128);

/// A set of squares. Bit `i` is square index `i` of the board's [`crate::Geometry`]. The
/// default width (128) is the one load-time data (geometry, variant) uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Bitboard<W: Word = u128>(pub W);

impl<W: Word> Bitboard<W> {
    /// The empty set.
    pub const EMPTY: Bitboard<W> = Bitboard(W::ZERO);

    /// The set holding one square.
    #[inline]
    pub fn from_square(sq: Square) -> Bitboard<W> {
        Bitboard(W::bit(sq.index()))
    }

    /// True when no square is in the set.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }

    /// True when the set has at least one square.
    #[inline]
    pub fn is_nonempty(self) -> bool {
        self.0 != W::ZERO
    }

    /// True when the square is in the set.
    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        self.0 & W::bit(sq.index()) != W::ZERO
    }

    /// Number of squares in the set.
    #[inline]
    pub fn count(self) -> u32 {
        self.0.ones()
    }

    /// True when the set has two or more squares.
    #[inline]
    pub fn more_than_one(self) -> bool {
        self.0.without_lowest() != W::ZERO
    }

    /// The square with the lowest index, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            Some(Square::new_unchecked(self.0.lowest()))
        }
    }

    /// The square with the highest index, if any.
    #[inline]
    pub fn last(self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            Some(Square::new_unchecked(self.0.highest()))
        }
    }

    /// Adds a square.
    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 = self.0 | W::bit(sq.index());
    }

    /// Removes a square.
    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 = self.0 & !W::bit(sq.index());
    }

    /// Every square moved by `delta` indices (up when positive); squares pushed past either
    /// end are lost, so callers shift only sets whose targets exist.
    #[inline]
    pub fn shifted(self, delta: i32) -> Bitboard<W> {
        if delta >= 0 {
            Bitboard(self.0.up(delta as u32))
        } else {
            Bitboard(self.0.down(delta.unsigned_abs()))
        }
    }

    /// The same squares in a word of another width (the squares must fit).
    #[inline]
    pub fn convert<V: Word>(self) -> Bitboard<V> {
        let wide = self.0.to_u128();
        debug_assert!(V::BITS == 128 || wide >> V::BITS == 0, "squares beyond the narrow word");
        Bitboard(V::from_u128(wide))
    }
}

impl<W: Word> Iterator for Bitboard<W> {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == W::ZERO {
            return None;
        }
        let sq = Square::new_unchecked(self.0.lowest());
        self.0 = self.0.without_lowest();
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.ones() as usize;
        (n, Some(n))
    }
}

impl<W: Word> ExactSizeIterator for Bitboard<W> {}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<W: Word> $tr for Bitboard<W> {
            type Output = Bitboard<W>;
            #[inline]
            fn $f(self, o: Bitboard<W>) -> Bitboard<W> {
                Bitboard(self.0 $op o.0)
            }
        }
        impl<W: Word> $tra for Bitboard<W> {
            #[inline]
            fn $fa(&mut self, o: Bitboard<W>) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<W: Word> Not for Bitboard<W> {
    type Output = Bitboard<W>;
    #[inline]
    fn not(self) -> Bitboard<W> {
        Bitboard(!self.0)
    }
}

impl<W: Word> From<Square> for Bitboard<W> {
    #[inline]
    fn from(sq: Square) -> Bitboard<W> {
        Bitboard::from_square(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_index_order_and_finds_ends() {
        let b = Bitboard::<u128>((1 << 3) | (1 << 70) | (1 << 127));
        let v: Vec<usize> = b.map(|s| s.index()).collect();
        assert_eq!(v, vec![3, 70, 127]);
        assert_eq!(b.first().unwrap().index(), 3);
        assert_eq!(b.last().unwrap().index(), 127);
        assert!(b.more_than_one());
        assert!(!Bitboard::<u128>(1 << 90).more_than_one());
        assert_eq!(Bitboard::<u128>::EMPTY.first(), None);
    }

    #[test]
    fn both_widths_agree() {
        let wide: Bitboard = Bitboard((1 << 0) | (1 << 9) | (1 << 63));
        let narrow: Bitboard<u64> = wide.convert();
        assert_eq!(narrow.0, (1 << 0) | (1 << 9) | (1 << 63));
        assert_eq!(narrow.map(|s| s.index()).collect::<Vec<_>>(), vec![0, 9, 63]);
        assert_eq!(narrow.last().unwrap().index(), 63);
        assert_eq!(narrow.count(), 3);
        assert_eq!(narrow.convert::<u128>(), wide);
        assert!(!Bitboard::<u64>(1 << 63).more_than_one());
    }
}
