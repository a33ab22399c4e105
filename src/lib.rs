//! Menagerie: a chess-variant engine whose variants are data (`engine.ini`) and whose special
//! games plug in as rule modules (`games/`).
//!
//! ```
//! use menagerie::{default_variants, perft_fen};
//! let set = default_variants();
//! let chess = set.get("chess").unwrap();
//! assert_eq!(perft_fen(chess, None, 2).unwrap(), 400);
//! ```
#![warn(missing_docs)]

mod args;
mod betza;
mod bitboard;
mod castling;
pub mod cli;
mod color;
pub mod datagen;
pub mod engine;
mod eval;
mod fen;
pub mod games;
mod geometry;
pub mod kit;
pub mod lines;
mod movecount;
mod movegen;
mod moves;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod position;
mod protocol;
mod rules;
pub mod search;
pub mod serve;
mod square;
pub mod table;
mod table_cli;
mod tables;
pub mod tune;
pub mod variant;
mod zobrist;

pub use bitboard::{Bitboard, Word};
pub use castling::CastlingRights;
pub use color::Color;
pub use eval::{TermCounts, Weights, term};
pub use fen::{FenError, Setup};
pub use games::{AnyGame, Catalog, default_variants, wide_variants};
pub use geometry::Geometry;
pub use moves::{Move, MoveKind, MoveList};
pub use position::{Game, Piece, Position};
/// The CECP highlight board of a session (`lift`), for tests of the games that draw it.
pub use protocol::cecp::highlight as cecp_highlight;
pub use rules::{Bb, Capabilities, HiddenGame, Holding, Plain, PlainRules, PlainWide, Rules};
pub use square::Square;
pub use variant::{IniError, Variant, VariantSet, load_ini_file, parse_ini};

use games::GameVisitor;
use std::sync::Arc;

struct PerftVisitor<'a> {
    fen: Option<&'a str>,
    depth: u32,
}

impl GameVisitor for PerftVisitor<'_> {
    type Output = Result<u64, String>;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Result<u64, String> {
        let mut pos = Position::from_fen_or_start(game, self.fen.unwrap_or("")).map_err(|e| e.to_string())?;
        Ok(perft::perft(&mut pos, self.depth))
    }
}

/// Perft of a variant from a FEN (or its start position).
pub fn perft_fen(game: &AnyGame, fen: Option<&str>, depth: u32) -> Result<u64, String> {
    games::dispatch(game, PerftVisitor { fen, depth })
}

struct CountCheckVisitor<'a> {
    fen: Option<&'a str>,
    depth: u32,
}

impl GameVisitor for CountCheckVisitor<'_> {
    type Output = Result<Option<String>, String>;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Self::Output {
        let mut pos = Position::from_fen_or_start(game, self.fen.unwrap_or("")).map_err(|e| e.to_string())?;
        Ok(perft::count_mismatch(&mut pos, self.depth))
    }
}

/// The first position within `depth` plies of a FEN where perft's move count disagrees with
/// the move list ([`perft::count_mismatch`]), or `None`.
pub fn count_mismatch_fen(game: &AnyGame, fen: Option<&str>, depth: u32) -> Result<Option<String>, String> {
    games::dispatch(game, CountCheckVisitor { fen, depth })
}
