//! Moves as text: coordinate notation (`e2e4`, `e7e8q`, `k10k11`), castling as the king's move,
//! a Rendezvous as the Princess's from-to. Parsing first checks the syntax, then finds the
//! legal move with that text.

use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::rules::Rules;

/// The coordinate text of a move in this position's variant.
pub fn move_text<R: Rules>(pos: &Position<R>, m: Move) -> String {
    let g = &pos.variant().geometry;
    let mut s = g.name(m.from());
    s.push_str(&g.name(m.to()));
    if m.kind() == MoveKind::Promotion {
        s.push(pos.variant().pieces[m.extra()].letter.to_ascii_lowercase());
    }
    s
}

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in coordinate notation.
    Syntax(String),
    /// Well formed but not legal here.
    Illegal(String),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Syntax(t) => write!(f, "not a move: {t}"),
            MoveError::Illegal(t) => write!(f, "illegal move: {t}"),
        }
    }
}

/// Checks the syntax of a coordinate move: two squares of the board and an optional lower-case
/// promotion letter.
fn check_syntax<R: Rules>(pos: &Position<R>, text: &str) -> Result<(), MoveError> {
    let g = &pos.variant().geometry;
    let err = || MoveError::Syntax(text.to_string());
    if !text.is_ascii() || text.len() < 4 || text.len() > 7 {
        return Err(err());
    }
    let b = text.as_bytes();
    let second = (1..b.len()).find(|&i| b[i].is_ascii_lowercase()).ok_or_else(err)?;
    g.parse(&text[..second]).ok_or_else(err)?;
    let rest = &text[second..];
    let end = (1..rest.len())
        .find(|&i| !rest.as_bytes()[i].is_ascii_digit())
        .unwrap_or(rest.len());
    g.parse(&rest[..end]).ok_or_else(err)?;
    let promo = &rest[end..];
    if promo.len() > 1 || promo.chars().any(|c| !c.is_ascii_lowercase()) {
        return Err(err());
    }
    Ok(())
}

/// Finds the legal move written as `text`. The position is left as it was.
pub fn parse_move<R: Rules>(pos: &mut Position<R>, text: &str) -> Result<Move, MoveError> {
    check_syntax(pos, text)?;
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .copied()
        .find(|&m| move_text(pos, m) == text)
        .ok_or_else(|| MoveError::Illegal(text.to_string()))
}
