//! The hook interface through which a game with special rules plugs into the generic
//! machinery. Every hook has a do-nothing default; [`Plain`] uses only those, so plain
//! variants pay nothing for the interface.

use crate::bitboard::{Bitboard, Word};
use crate::color::Color;
use crate::moves::{Move, MoveForm, MoveList};
use crate::position::{Game, Position};
use crate::square::Square;
use crate::variant::Variant;
use crate::zobrist::Zobrist;
use std::fmt::Debug;
use std::sync::Arc;

bitflags::bitflags! {
    /// What a rules module does beyond the generic machinery ([`Rules::CAPABILITIES`]).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct Capabilities: u8 {
        /// The fast pin/check legality test is not valid: every move is checked by making it.
        const SLOW_LEGALITY = 1;
        /// Null-move pruning is unsound (zugzwang-prone special rules).
        const NO_NULL_MOVE = 1 << 1;
        /// The module adds moves of its own ([`Rules::extra_moves`] or [`Rules::generate`]).
        const SPECIAL_MOVES = 1 << 2;
        /// The module generates every move ([`Rules::generate`]), for pieces Betza cannot
        /// describe; legality is then tested by making each move.
        const OWN_MOVEGEN = 1 << 3;
        /// The module decides which squares are attacked ([`Rules::attacked`]).
        const CUSTOM_ATTACKS = 1 << 4;
        /// XBoard receives castling as a king leg plus a rook leg (`f1i1,j1h1`), because it
        /// cannot infer the rook's move itself.
        const CASTLING_AS_LEGS = 1 << 5;
        /// A player sees only part of the board ([`Rules::hidden_player`] plays it): no board
        /// is shown whole to both sides.
        const HIDDEN_INFORMATION = 1 << 6;
    }
}

/// A game of hidden information as one player sees it (Reconnaissance Blind Chess), driven by
/// the protocol's own lines (`../shared/protocol.md` §4).
pub trait HiddenGame: Send {
    /// Handles one line; `Ok(Some(reply))` for requests that get one, `Err(message)` for a
    /// line that could not be taken (the game stays usable).
    fn command(&mut self, line: &str) -> Result<Option<String>, String>;
}

/// One holding of pieces off the board (Remote Sensing's bins).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holding {
    /// What it is (`White, light`).
    pub label: &'static str,
    /// Whose pieces it holds.
    pub owner: crate::Color,
    /// Upper-case letters of the pieces in it.
    pub letters: String,
}

/// Most evaluation features a rules module may name ([`Rules::EVAL_FEATURES`]).
pub const MAX_RULE_FEATURES: usize = 4;

/// A game's special rules. Implementors live in `games/`, one file per game.
pub trait Rules: Sized + Clone + Debug + Send + Sync + 'static {
    /// State beyond the board that the game needs (flags, holdings), kept in the undo record.
    type State: Copy + Default + PartialEq + Eq + Debug + Send + Sync;

    /// The machine word of the game's bitboards: `u64` when every board it plays has at most
    /// 64 squares, else `u128`.
    type Word: Word;

    /// What the module does beyond the generic machinery.
    const CAPABILITIES: Capabilities = Capabilities::empty();

    /// The `rules.KEY` settings the module reads; any other key is refused at load.
    const SETTINGS: &'static [&'static str] = &[];

    /// Reads the variant (and its `rules.KEY` settings) once at load.
    fn new(variant: &Variant) -> Result<Self, String>;

    /// A player of the game's hidden information starting from `fen` (empty: the start
    /// position); `None` for games of full information.
    fn hidden_player(_game: Arc<Game<Self>>, _fen: &str) -> Option<Result<Box<dyn HiddenGame>, String>> {
        None
    }

    /// Squares where a royal piece may never stand; a royal piece there counts as attacked.
    fn royal_forbidden(&self) -> Bb<Self> {
        Bitboard::EMPTY
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

    /// The holdings as a board shows them beside the board: each named, with its owner and
    /// its pieces' letters (none when the game has no holdings).
    fn holdings(&self, _state: &Self::State) -> Vec<Holding> {
        Vec::new()
    }

    /// Refuses a set-up position that the game cannot reach and the module cannot handle (called
    /// when a FEN is read, after the generic checks).
    fn validate(&self, _pos: &Position<Self>) -> Result<(), String> {
        Ok(())
    }

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

    /// Names of the game's own evaluation features (at most [`MAX_RULE_FEATURES`]): linear
    /// terms weighted like the generic ones, `eval.NAME = MG EG` in `engine.ini`, zero until
    /// `menagerie tune` fits them.
    const EVAL_FEATURES: &'static [&'static str] = &[];

    /// How often each of [`Rules::EVAL_FEATURES`] occurs for side `c`, in their order.
    fn eval_features(&self, _pos: &Position<Self>, _c: Color, _out: &mut [i32; MAX_RULE_FEATURES]) {}

    /// Evaluation terms of the game, in centipawns for the side to move.
    fn eval_terms(&self, _pos: &Position<Self>) -> i32 {
        0
    }

    /// How a special move is written in MMN, and which square it captures on.
    fn special_form(&self, _m: Move) -> MoveForm {
        MoveForm::FromTo
    }

    /// Every pseudo-legal move of the side to move (called only when
    /// [`Capabilities::OWN_MOVEGEN`]). Moves the GUI cannot show are left out while
    /// `pos.special_moves_on()` is false.
    fn generate(&self, _pos: &Position<Self>, _list: &mut MoveList) {}

    /// True when side `by` attacks `sq` (called only when [`Capabilities::CUSTOM_ATTACKS`]).
    fn attacked(&self, _pos: &Position<Self>, _sq: Square, _by: crate::Color) -> bool {
        false
    }

    /// True when the legal move `m` may also be written with `via` as a waypoint (a bounce
    /// square), which the move text then drops.
    fn valid_waypoint(&self, _pos: &Position<Self>, _m: Move, _via: Square) -> bool {
        false
    }
}

/// The bitboard of a game's rules module.
pub type Bb<R> = Bitboard<<R as Rules>::Word>;

/// The rules of plain variants: everything comes from `engine.ini`. `W` is the bitboard word:
/// [`Plain`] for boards of up to 64 squares, [`PlainWide`] for the rest.
#[derive(Clone, Debug, Default)]
pub struct PlainRules<W>(std::marker::PhantomData<W>);

/// Plain variants on boards of at most 64 squares (64-bit bitboards).
pub type Plain = PlainRules<u64>;

/// Plain variants on larger boards (128-bit bitboards).
pub type PlainWide = PlainRules<u128>;

impl<W: Word> Rules for PlainRules<W> {
    type State = ();
    type Word = W;
    fn new(variant: &Variant) -> Result<Self, String> {
        let squares = variant.geometry.files() * variant.geometry.ranks();
        if squares > W::BITS as usize {
            return Err(format!(
                "a board of {squares} squares needs bitboards wider than {} bits",
                W::BITS
            ));
        }
        Ok(PlainRules(std::marker::PhantomData))
    }
}
