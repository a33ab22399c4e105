//! `Move`: a 32-bit move with an auxiliary square, enough for castling, promotions, en passant
//! and the two-piece or multi-leg moves of special games (swaps, propels, hop captures).

use crate::square::Square;
use arrayvec::ArrayVec;

/// What a move does beyond "the piece on `from` goes to `to`".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// Plain move or capture.
    Normal = 0,
    /// Pawn initial move over `aux`, which becomes the en-passant square.
    DoubleStep = 1,
    /// En-passant capture; `aux` holds the captured pawn's square.
    EnPassant = 2,
    /// Castling; `aux` is the castling right (0 = `K`, 1 = `Q`) times 64 plus the option index
    /// (see [`Move::castle`]).
    Castle = 3,
    /// Pawn move with promotion to [`Move::promotion`].
    Promotion = 4,
    /// A move that only the variant's rules module understands (tag 0..=10).
    Special = 5,
}

/// How a special move is written in Menagerie move notation (MMN, `../shared/protocol.md` §3)
/// and what it captures, as the rules module describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveForm {
    /// `FROMTO`: nothing beyond the two squares.
    FromTo,
    /// `FROM VIA > TO`: the mover stops on `VIA` and the piece standing there moves on to `TO`.
    Handoff(Square),
    /// `FROM x VIA TO`: the piece on `VIA` is captured on the way to `TO`.
    Capture(Square),
}

/// A move: bits 0-6 from, 7-13 to, 14-20 aux square, 21-23 kind, 24-28 promotion kind or
/// special tag. `Move::NONE` (all zero) is never a real move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Move(u32);

const _: () = assert!(std::mem::size_of::<Move>() == 4);

impl Move {
    /// The null value ("no move").
    pub const NONE: Move = Move(0);

    /// Builds a move.
    #[inline]
    pub fn new(from: Square, to: Square, kind: MoveKind, aux: u32, extra: u32) -> Move {
        debug_assert!(aux < 128 && extra < 32);
        Move(from.index() as u32 | (to.index() as u32) << 7 | aux << 14 | (kind as u32) << 21 | extra << 24)
    }

    /// A plain move or capture.
    #[inline]
    pub fn normal(from: Square, to: Square) -> Move {
        Move::new(from, to, MoveKind::Normal, 0, 0)
    }

    /// A castling of the king from `from` to `to` by option `index` of right `right`.
    #[inline]
    pub fn castle(from: Square, to: Square, right: usize, index: usize) -> Move {
        debug_assert!(right < 2 && index < 64);
        Move::new(from, to, MoveKind::Castle, (right * 64 + index) as u32, 0)
    }

    /// The castling right and option index of a castling move.
    #[inline]
    pub fn castle_option(self) -> (usize, usize) {
        ((self.aux() / 64) as usize, (self.aux() % 64) as usize)
    }

    /// Origin square (for castling: the king's).
    #[inline]
    pub fn from(self) -> Square {
        Square::new_unchecked(self.0 & 127)
    }

    /// Destination square (for castling: the king's).
    #[inline]
    pub fn to(self) -> Square {
        Square::new_unchecked(self.0 >> 7 & 127)
    }

    /// Auxiliary value (square or castling option).
    #[inline]
    pub fn aux(self) -> u32 {
        self.0 >> 14 & 127
    }

    /// The auxiliary value as a square.
    #[inline]
    pub fn aux_square(self) -> Square {
        Square::new_unchecked(self.aux())
    }

    /// The move kind.
    #[inline]
    pub fn kind(self) -> MoveKind {
        match self.0 >> 21 & 7 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoubleStep,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            4 => MoveKind::Promotion,
            _ => MoveKind::Special,
        }
    }

    /// Promotion piece kind (meaningful for [`MoveKind::Promotion`]) or special tag.
    #[inline]
    pub fn extra(self) -> usize {
        (self.0 >> 24 & 31) as usize
    }

    /// The raw bits (for hashing tables).
    #[inline]
    pub fn bits(self) -> u32 {
        self.0
    }

    /// Rebuilds a move from [`Move::bits`].
    #[inline]
    pub fn from_bits(b: u32) -> Move {
        Move(b)
    }
}

/// Capacity of a move list. The worst cases we allow for are an 11x11 board with every
/// non-pawn piece promoted to a queen-like rider (about 20 pieces x 40 targets = 800) and Tensor
/// Chess, where bounces and propels multiply a slider's moves (a rules module that can exceed
/// the capacity refuses such positions when they are set up, see [`crate::Rules::validate`]).
pub const MAX_MOVES: usize = 2048;

/// A fixed-capacity move list: generating moves never allocates.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
