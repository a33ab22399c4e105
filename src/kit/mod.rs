//! The Chess Kit games (`../shared/rules/chess-kit.md`), one file per game, on the turn layer
//! of [`crate::table`]. The registry below lists each game once.

mod chess;
pub mod splitbrain;
pub mod telepathy;

use crate::table::{Settings, Table};

/// A table game's constructor from its settings.
type Make = fn(&Settings) -> Result<Box<dyn Table>, String>;

/// Every table game: name, what it is, constructor.
const GAMES: &[(&str, &str, Make)] = &[
    (
        "splitbrain",
        "Split-Brain Chess (4 seats, Los Alamos board)",
        splitbrain::SplitBrain::boxed,
    ),
    (
        "telepathy",
        "Telepathy Chess (4 seats, chess board)",
        telepathy::Telepathy::boxed,
    ),
];

/// The names of the table games.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.0).collect()
}

/// A new game of `name` with `settings`.
pub fn new_table(name: &str, settings: &Settings) -> Result<Box<dyn Table>, String> {
    let (_, _, make) = GAMES
        .iter()
        .find(|g| g.0 == name)
        .ok_or_else(|| format!("unknown game '{name}' (table games: {})", names().join(", ")))?;
    make(settings)
}
