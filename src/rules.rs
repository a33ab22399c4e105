//! The hook interface through which a game with special rules plugs into the generic
//! machinery. Every hook has a do-nothing default; [`Plain`] uses only those, so plain
//! variants pay nothing for the interface.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::square::Square;
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

    /// Bitmask of the piece kinds whose moves this module generates (pieces written `dynamic`
    /// in `engine.ini`).
    fn dynamic_kinds(&self) -> u32 {
        0
    }

    /// Adds the pseudo-legal moves of the dynamic piece of `kind` on `from` (side to move's).
    fn dynamic_moves(&self, _pos: &Position<Self>, _from: Square, _kind: usize, _list: &mut MoveList) {}

    /// Called after every move has been played on the board (capture in
    /// `pos.state().captured`), before [`Rules::after_move`]. May change the board through the
    /// position's piece primitives and the state through `rule_state_mut`; it must leave in
    /// the state whatever [`Rules::before_unmake`] needs to take its changes back.
    fn after_make(&self, _pos: &mut Position<Self>, _m: Move) {}

    /// Takes back what [`Rules::after_make`] did; called first thing in unmake, with the side
    /// to move already switched back to the mover.
    fn before_unmake(&self, _pos: &mut Position<Self>, _m: Move) {}

    /// Reads the holdings written in brackets after the FEN board (the text between them).
    fn parse_holdings(&self, _text: &str, _state: &mut Self::State) -> Result<(), String> {
        Err("this variant has no holdings".into())
    }

    /// Writes the holdings with their brackets, right after the FEN board (nothing when the
    /// game has none).
    fn write_holdings(&self, _state: &Self::State, _out: &mut String) {}

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
