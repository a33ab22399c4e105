//! Special-rule modules, one file per game, and the table that maps `rules = NAME` in
//! `engine.ini` to a module. Generic code never names a game; it is handed a
//! `Position<R>` for the right `R` through [`dispatch`].

pub mod chess911;
pub mod rbc;
pub mod remotesensing;
pub mod tensor;

use crate::position::{Game, Position};
use crate::rules::{Plain, Rules};
use crate::variant::Variant;
use std::sync::Arc;

/// Every module name accepted by `rules = NAME`.
pub const NAMES: &[&str] = &["plain", "chess911", "remotesensing", "tensor", "rbc"];

/// True when `rules = name` names a module.
pub fn is_known(name: &str) -> bool {
    NAMES.contains(&name)
}

/// Code that works for any game: `visit` is called with the variant's game data, typed by its
/// rules module, so the work inside is monomorphised per module.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work for one rules module.
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Self::Output;
}

/// Builds the game data for `variant` with its rules module and runs the visitor on it.
pub fn dispatch<V: GameVisitor>(variant: &Variant, visitor: V) -> Result<V::Output, String> {
    match variant.rules.as_str() {
        "plain" => Ok(visitor.visit(Game::<Plain>::new(variant)?)),
        "chess911" => Ok(visitor.visit(Game::<chess911::Chess911>::new(variant)?)),
        "remotesensing" => Ok(visitor.visit(Game::<remotesensing::RemoteSensing>::new(variant)?)),
        "tensor" => Ok(visitor.visit(Game::<tensor::Tensor>::new(variant)?)),
        "rbc" => Ok(visitor.visit(Game::<rbc::Rbc>::new(variant)?)),
        other => Err(format!("unknown rules module '{other}'")),
    }
}

/// The hidden-information side of a variant, for games that have one (`None` otherwise):
/// a player of the game starting from `fen` (empty: the start position).
pub fn hidden_game(variant: &Variant, fen: &str) -> Option<Result<Box<dyn crate::engine::HiddenGame>, String>> {
    match variant.rules.as_str() {
        "rbc" => {
            Some(rbc::player::RbcGame::new(variant, fen).map(|g| Box::new(g) as Box<dyn crate::engine::HiddenGame>))
        }
        _ => None,
    }
}

struct ValidateStart;

impl GameVisitor for ValidateStart {
    type Output = Result<(), String>;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Result<(), String> {
        let fen = game.variant.start_fen.clone();
        let pos = Position::from_fen(game, &fen).map_err(|e| e.to_string())?;
        for c in crate::Color::ALL {
            if pos.royals_gone(c) {
                return Err(format!("{} has no royal piece in the start position", c.name()));
            }
        }
        Ok(())
    }
}

/// What is wrong with a variant that the data alone cannot show.
#[derive(Debug)]
pub enum StartError {
    /// The rules module refuses the variant (for example a missing `rules.KEY`).
    Rules(String),
    /// The start FEN is not a position of the variant.
    Fen(String),
}

/// Checks that the variant's rules module accepts it and that its start FEN is a position.
pub fn validate_start(variant: &Variant) -> Result<(), StartError> {
    dispatch(variant, ValidateStart)
        .map_err(StartError::Rules)?
        .map_err(StartError::Fen)
}
