//! The hook interface through which a game with special rules plugs into the generic
//! machinery. Every hook has a do-nothing default; [`Plain`] uses only those, so plain
//! variants pay nothing for the interface.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::variant::Variant;
use crate::zobrist::Zobrist;
use std::fmt::Debug;

/// A game's special rules. Implementors live in `games/`, one file per game.
pub trait Rules: Sized + Clone + Debug + Send + Sync + 'static {
    /// State beyond the board that the game needs (flags, holdings), kept in the undo record.
    type State: Copy + Default + PartialEq + Eq + Debug + Send + Sync;

    /// Reads the variant (and its `rules.KEY` settings) once at load.
    fn new(variant: &Variant) -> Result<Self, String>;

    /// Squares where a royal piece may never stand; a royal piece there counts as attacked.
    fn royal_forbidden(&self) -> Bitboard {
        Bitboard::EMPTY
    }

    /// False when the fast pin/check legality test is not valid for this game; every move is
    /// then checked by making it.
    fn fast_legality(&self) -> bool {
        true
    }

    /// Adds moves beyond the variant's pieces (swaps, propels, ...). They are pseudo-legal:
    /// the generic code keeps only those that leave no royal piece attacked.
    fn extra_moves(&self, _pos: &Position<Self>, _list: &mut MoveList) {}

    /// Plays a [`crate::MoveKind::Special`] move on the board through the position's
    /// piece primitives. Called after the undo record is pushed.
    fn make_special(&self, _pos: &mut Position<Self>, _m: Move) {}

    /// Takes back what [`Rules::make_special`] did. Called before the undo record is popped.
    fn unmake_special(&self, _pos: &mut Position<Self>, _m: Move) {}

    /// Updates the game state after any move, before the side to move changes.
    fn after_move(&self, _pos: &Position<Self>, _m: Move, _state: &mut Self::State) {}

    /// Hash contribution of the state (XOR of keys from [`Zobrist::extra`]).
    fn state_key(&self, _state: &Self::State, _z: &Zobrist) -> u64 {
        0
    }

    /// Consumes one character of the FEN castling field that is the game's own token.
    fn parse_castling_char(&self, _c: char, _state: &mut Self::State) -> bool {
        false
    }

    /// Writes the game's own castling-field tokens (after the castling letters).
    fn write_castling_chars(&self, _state: &Self::State, _out: &mut String) {}

    /// Evaluation terms of the game, in centipawns for the side to move.
    fn eval_terms(&self, _pos: &Position<Self>) -> i32 {
        0
    }

    /// True when null-move pruning is sound in this game (no zugzwang-prone special rules).
    fn null_move_safe(&self) -> bool {
        true
    }

    /// True when the module adds moves of its own ([`Rules::extra_moves`]).
    fn has_special_moves(&self) -> bool {
        false
    }

    /// Short description of a special move for notation (`None`: from-to is enough).
    fn special_name(&self, _m: Move) -> Option<&'static str> {
        None
    }
}

/// The rules of plain variants: everything comes from `engine.ini`.
#[derive(Clone, Debug, Default)]
pub struct Plain;

impl Rules for Plain {
    type State = ();
    fn new(_variant: &Variant) -> Result<Self, String> {
        Ok(Plain)
    }
}
