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

/// The files a castling needs, on one rank: what must be empty and where the king walks.
/// Shared by the move generator's Chess960 options and Cloak and Dagger's referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastleSpan {
    /// Files that must be empty apart from the castling king and rook (bit per file).
    pub empty: u32,
    /// Files the king stands on or crosses before its destination, its start included.
    pub king_path: u32,
}

/// Files from `a` to `b` inclusive, as bits.
fn file_range(a: usize, b: usize) -> u32 {
    let (lo, hi) = (a.min(b), a.max(b));
    ((1u64 << (hi + 1)) - (1u64 << lo)) as u32
}

/// The span of a castling given the four files (king from and to, rook from and to): every
/// square between each piece's start and end, the ends included, is empty but for the two
/// castling pieces (Chess960's rule, which is also the standard rule for the standard array).
pub fn castle_span(king_from: usize, king_to: usize, rook_from: usize, rook_to: usize) -> CastleSpan {
    let both = (1u32 << king_from) | (1u32 << rook_from);
    let empty = (file_range(king_from, king_to) | file_range(rook_from, rook_to)) & !both;
    let king_path = (file_range(king_from, king_to) & !(1u32 << king_to)) | (1u32 << king_from);
    CastleSpan { empty, king_path }
}

/// Where king and rook end in Chess960 castling on a board `files` wide: for right 0 (`K`,
/// towards the h-file) on the g- and f-files, for right 1 (`Q`) on the c- and d-files.
pub fn chess960_targets(files: usize, right: usize) -> (usize, usize) {
    if right == 0 { (files - 2, files - 3) } else { (2, 3) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_and_chess960_spans() {
        // Standard O-O: f and g empty, the king crosses e and f.
        let s = castle_span(4, 6, 7, 5);
        assert_eq!(s.empty, 0b0110_0000);
        assert_eq!(s.king_path, 0b0011_0000);
        // Standard O-O-O: b, c, d empty, the king crosses e and d.
        let s = castle_span(4, 2, 0, 3);
        assert_eq!(s.empty, 0b0000_1110);
        assert_eq!(s.king_path, 0b0001_1000);
        // Chess960, king b1 and rook a1 castling long: king to c1, rook to d1.
        let s = castle_span(1, 2, 0, 3);
        assert_eq!(s.empty, 0b0000_1100);
        assert_eq!(s.king_path, 0b0000_0010);
        // King g1 with rook h1 castling short: the king stays, the rook goes to f1.
        let s = castle_span(6, 6, 7, 5);
        assert_eq!(s.empty, 0b0010_0000);
        assert_eq!(s.king_path, 0b0100_0000);
        assert_eq!(chess960_targets(8, 0), (6, 5));
        assert_eq!(chess960_targets(8, 1), (2, 3));
    }
}
