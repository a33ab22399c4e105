//! Squares, files and ranks: plain indices whose meaning comes from a [`crate::Geometry`].

use std::fmt;

/// Largest number of squares any board may have (the width of [`crate::Bitboard`]).
pub const MAX_SQUARES: usize = 128;
/// Largest number of files or ranks (letters `a`..`p`, ranks `1`..`16`).
pub const MAX_SIDE: usize = 16;

/// A square index, `rank * files + file`, always below [`MAX_SQUARES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// Builds a square from an index.
    #[inline]
    #[track_caller]
    pub const fn new(index: usize) -> Square {
        assert!(index < MAX_SQUARES);
        Square(index as u8)
    }

    /// Builds a square without a range check (checked in debug builds).
    #[inline]
    pub const fn new_unchecked(index: u32) -> Square {
        debug_assert!((index as usize) < MAX_SQUARES);
        Square(index as u8)
    }

    /// The index into boards and tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Without a geometry only the index is known.
        write!(f, "#{}", self.0)
    }
}

/// Writes a square name (`a1`, `k11`) for the given file and rank indices, 0-based.
pub fn square_name(file: usize, rank: usize) -> String {
    let mut s = String::with_capacity(3);
    s.push((b'a' + file as u8) as char);
    s.push_str(&(rank + 1).to_string());
    s
}

/// Parses a square name into 0-based (file, rank); `None` when it is not `letter digits`.
/// The caller checks the bounds of its board.
pub fn parse_square_name(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    if b.len() < 2 || b.len() > 3 || !b[0].is_ascii_lowercase() {
        return None;
    }
    let file = (b[0] - b'a') as usize;
    let digits = &s[1..];
    if !digits.bytes().all(|c| c.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    let rank: usize = digits.parse().ok()?;
    if file >= MAX_SIDE || rank == 0 || rank > MAX_SIDE {
        return None;
    }
    Some((file, rank - 1))
}
