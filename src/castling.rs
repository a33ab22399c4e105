//! Castling rights as named flags: White's and Black's `K` and `Q` rights of the FEN field.

use crate::color::Color;

bitflags::bitflags! {
    /// The castling rights still held. Right 0 of a side is its FEN `K` right, right 1 its `Q`.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct CastlingRights: u8 {
        /// White's `K` right.
        const WHITE_K = 1;
        /// White's `Q` right.
        const WHITE_Q = 1 << 1;
        /// Black's `k` right.
        const BLACK_K = 1 << 2;
        /// Black's `q` right.
        const BLACK_Q = 1 << 3;
    }
}

impl CastlingRights {
    /// Right `right` (0 = `K`, 1 = `Q`) of side `c`.
    #[inline]
    pub fn of(c: Color, right: usize) -> CastlingRights {
        CastlingRights::from_bits_truncate(1 << (c.index() * 2 + right))
    }

    /// Both rights of side `c`.
    #[inline]
    pub fn side(c: Color) -> CastlingRights {
        CastlingRights::from_bits_truncate(3 << (c.index() * 2))
    }

    /// True when side `c` still holds right `right`.
    #[inline]
    pub fn has(self, c: Color, right: usize) -> bool {
        self.contains(CastlingRights::of(c, right))
    }

    /// Index 0..16, for hash keys.
    #[inline]
    pub fn index(self) -> usize {
        self.bits() as usize
    }
}
