//! Board shape: files x ranks (at most 128 squares), holes, no-landing squares, square colours.
//!
//! Squares are indexed `rank * files + file`. Holes do not exist: nothing stands on them and
//! rays stop before them. No-landing squares (Chess 911's Eye) exist for sliders, which pass
//! over them, but no move may end there.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::square::{MAX_SIDE, MAX_SQUARES, Square, parse_square_name, square_name};

/// The shape of a board, shared by every position of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    files: usize,
    ranks: usize,
    /// Squares that exist (not holes), including no-landing squares.
    pub board: Bitboard,
    /// Squares that exist for sliders to pass but where no move may end.
    pub no_landing: Bitboard,
    /// Dark squares (a1 is dark: file + rank, counted from 1, even).
    pub dark: Bitboard,
}

impl Geometry {
    /// A full rectangle. Fails when the board is smaller than 2x2 or does not fit 128 squares
    /// with at most 16 files and 16 ranks.
    pub fn new(files: usize, ranks: usize) -> Result<Geometry, String> {
        if !(2..=MAX_SIDE).contains(&files) || !(2..=MAX_SIDE).contains(&ranks) {
            return Err(format!("board {files}x{ranks}: files and ranks must be 2..{MAX_SIDE}"));
        }
        if files * ranks > MAX_SQUARES {
            return Err(format!("board {files}x{ranks} has more than {MAX_SQUARES} squares"));
        }
        let mut g = Geometry {
            files,
            ranks,
            board: Bitboard::EMPTY,
            no_landing: Bitboard::EMPTY,
            dark: Bitboard::EMPTY,
        };
        for r in 0..ranks {
            for f in 0..files {
                let sq = Square::new(r * files + f);
                g.board.set(sq);
                if (f + r) % 2 == 0 {
                    g.dark.set(sq);
                }
            }
        }
        Ok(g)
    }

    /// Removes squares from the board (holes).
    pub fn add_holes(&mut self, holes: Bitboard) {
        self.board &= !holes;
        self.no_landing &= !holes;
        self.dark &= !holes;
    }

    /// Marks squares where no move may end.
    pub fn add_no_landing(&mut self, squares: Bitboard) {
        self.no_landing |= squares & self.board;
    }

    /// Number of files.
    #[inline]
    pub fn files(&self) -> usize {
        self.files
    }

    /// Number of ranks.
    #[inline]
    pub fn ranks(&self) -> usize {
        self.ranks
    }

    /// Number of square indices (holes included).
    #[inline]
    pub fn size(&self) -> usize {
        self.files * self.ranks
    }

    /// Squares a piece may stand on: existing and not no-landing.
    #[inline]
    pub fn landable(&self) -> Bitboard {
        self.board & !self.no_landing
    }

    /// The square at 0-based (file, rank), whether or not it is a hole.
    #[inline]
    pub fn square(&self, file: usize, rank: usize) -> Option<Square> {
        (file < self.files && rank < self.ranks).then(|| Square::new(rank * self.files + file))
    }

    /// 0-based file of a square.
    #[inline]
    pub fn file_of(&self, sq: Square) -> usize {
        sq.index() % self.files
    }

    /// 0-based rank of a square.
    #[inline]
    pub fn rank_of(&self, sq: Square) -> usize {
        sq.index() / self.files
    }

    /// Rank counted from the given side's first rank (0-based).
    #[inline]
    pub fn relative_rank(&self, c: Color, sq: Square) -> usize {
        match c {
            Color::White => self.rank_of(sq),
            Color::Black => self.ranks - 1 - self.rank_of(sq),
        }
    }

    /// The same square seen from the other side (rank mirrored).
    #[inline]
    pub fn flip(&self, sq: Square) -> Square {
        let (f, r) = (self.file_of(sq), self.rank_of(sq));
        Square::new((self.ranks - 1 - r) * self.files + f)
    }

    /// The square `df` files and `dr` ranks away, if it lies inside the rectangle.
    #[inline]
    pub fn offset(&self, sq: Square, df: i32, dr: i32) -> Option<Square> {
        let f = self.file_of(sq) as i32 + df;
        let r = self.rank_of(sq) as i32 + dr;
        if f < 0 || r < 0 || f >= self.files as i32 || r >= self.ranks as i32 {
            None
        } else {
            Some(Square::new(r as usize * self.files + f as usize))
        }
    }

    /// True when the square exists (is on the board and not a hole).
    #[inline]
    pub fn exists(&self, sq: Square) -> bool {
        self.board.contains(sq)
    }

    /// Square name such as `a1` or `k11`.
    pub fn name(&self, sq: Square) -> String {
        square_name(self.file_of(sq), self.rank_of(sq))
    }

    /// Parses a square name inside this rectangle (holes included).
    pub fn parse(&self, s: &str) -> Option<Square> {
        let (f, r) = parse_square_name(s)?;
        self.square(f, r)
    }

    /// Square colour as the rules use it: true for dark.
    #[inline]
    pub fn is_dark(&self, sq: Square) -> bool {
        (self.file_of(sq) + self.rank_of(sq)).is_multiple_of(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_colours() {
        let g = Geometry::new(11, 11).unwrap();
        let k11 = g.parse("k11").unwrap();
        assert_eq!(k11.index(), 120);
        assert_eq!(g.name(k11), "k11");
        assert!(g.is_dark(g.parse("a1").unwrap()));
        assert!(!g.is_dark(g.parse("c2").unwrap()));
        assert!(g.parse("l1").is_none());
        assert!(g.parse("a12").is_none());
        assert!(g.parse("a0").is_none());
        assert_eq!(g.flip(g.parse("b2").unwrap()), g.parse("b10").unwrap());
        assert!(Geometry::new(12, 11).is_err());
    }
}
