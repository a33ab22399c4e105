//! The protocol-command boundary's error: why a command was refused, as a value. Each
//! protocol writes it out in its own form in one place: CECP as `Error (WHY): TEXT` (or
//! `Illegal move (WHY): MOVE`), UCI as an `info string` line.

use std::fmt;

/// Why a command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// A command this protocol does not have.
    UnknownCommand,
    /// An option the engine does not offer.
    UnknownOption,
    /// A variant the engine does not know.
    UnknownVariant,
    /// A line that is not text (not UTF-8, too long): the reader's words.
    BadLine(String),
    /// A clock value that is not a number of centiseconds or seconds.
    BadTime,
    /// A depth out of range.
    BadDepth,
    /// A nodes-per-second figure that is not a number.
    BadNps,
    /// A hash size out of range.
    BadMemory,
    /// A `level` that is not `MPS BASE INC`.
    BadTimeControl,
    /// `lift` on a square with no piece of the side to move.
    NoPieceToMove,
    /// `undo` at the start of the game.
    NoMoveToUndo,
    /// `remove` with fewer than two moves played.
    NoMovesToRemove,
    /// A hidden-information command in a game that has none.
    NotHidden,
    /// A move that is not legal here (CECP's own `Illegal move` line), with the reason.
    IllegalMove(String),
    /// An option's value outside what it takes, in CECP's words: `NAME is RANGE`.
    OptionIs { name: &'static str, range: String },
    /// An option's value outside what it takes, in UCI's words: `'VALUE' is not RANGE`.
    ValueIsNot { value: String, range: String },
    /// A parameter left out, the command done without it.
    Ignored(String),
    /// A command's shape is wrong: what was expected.
    Expected(&'static str),
    /// The engine could not play its own move (a bug, said rather than hidden).
    Internal,
    /// An error from the layer below (FEN, ini file, move text, PGN, hash table) in its words.
    Failed(String),
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::UnknownCommand => f.write_str("unknown command"),
            Why::UnknownOption => f.write_str("unknown option"),
            Why::UnknownVariant => f.write_str("unknown variant"),
            Why::BadTime => f.write_str("bad time"),
            Why::BadDepth => f.write_str("bad depth"),
            Why::BadNps => f.write_str("bad nps"),
            Why::BadMemory => f.write_str("bad memory size"),
            Why::BadTimeControl => f.write_str("bad time control"),
            Why::NoPieceToMove => f.write_str("no piece to move"),
            Why::NoMoveToUndo => f.write_str("no move to undo"),
            Why::NoMovesToRemove => f.write_str("no moves to remove"),
            Why::NotHidden => f.write_str("not a hidden-information game"),
            Why::Internal => f.write_str("internal"),
            Why::OptionIs { name, range } => write!(f, "{name} is {range}"),
            Why::ValueIsNot { value, range } => write!(f, "'{value}' is not {range}"),
            Why::Expected(what) => write!(f, "expected {what}"),
            Why::Ignored(key) => write!(f, "ignored bad or unknown parameter '{key}'"),
            Why::BadLine(s) | Why::IllegalMove(s) | Why::Failed(s) => f.write_str(s),
        }
    }
}

/// A refused command: why, what it concerns (the command, its argument or an option's name)
/// and, for UCI, what was left as it was (`position unchanged`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Why.
    pub why: Why,
    /// The text the refusal names; empty for none.
    pub subject: String,
    /// UCI only: what the refusal left alone, after a `; `.
    pub kept: Option<&'static str>,
}

impl Refusal {
    /// A refusal of `subject` for `why`.
    pub fn new(why: Why, subject: impl Into<String>) -> Refusal {
        Refusal {
            why,
            subject: subject.into(),
            kept: None,
        }
    }

    /// A refusal that names nothing but its reason.
    pub fn bare(why: Why) -> Refusal {
        Refusal::new(why, "")
    }

    /// The same refusal, saying what it left unchanged (UCI).
    pub fn keeping(mut self, kept: &'static str) -> Refusal {
        self.kept = Some(kept);
        self
    }

    /// The CECP line: `Error (WHY): SUBJECT`, or `Illegal move (WHY): MOVE`.
    pub fn cecp(&self) -> String {
        match &self.why {
            Why::IllegalMove(reason) => format!("Illegal move ({reason}): {}", self.subject),
            why => format!("Error ({why}): {}", self.subject),
        }
    }

    /// The UCI line, an `info string`: `WHY: SUBJECT` when the reason is that the subject is
    /// unknown or unreadable, else `SUBJECT: WHY` (or `WHY` alone), then `; KEPT`.
    pub fn uci(&self) -> String {
        let leads = matches!(self.why, Why::UnknownCommand | Why::UnknownOption | Why::BadLine(_));
        let mut out = match (leads, self.subject.is_empty()) {
            (true, _) => format!("info string {}: {}", self.why, self.subject),
            (false, true) => format!("info string {}", self.why),
            (false, false) => format!("info string {}: {}", self.subject, self.why),
        };
        if let Some(kept) = self.kept {
            out.push_str("; ");
            out.push_str(kept);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_protocol_writes_a_refusal_in_its_own_form() {
        let r = Refusal::new(Why::BadDepth, "sd x");
        assert_eq!(r.cecp(), "Error (bad depth): sd x");
        let r = Refusal::new(Why::IllegalMove("no such move".into()), "e2e5");
        assert_eq!(r.cecp(), "Illegal move (no such move): e2e5");
        let r = Refusal::new(Why::UnknownCommand, "foo bar");
        assert_eq!(r.uci(), "info string unknown command: foo bar");
        let r = Refusal::new(
            Why::ValueIsNot {
                value: "x".into(),
                range: "true or false".into(),
            },
            "Ponder",
        );
        assert_eq!(r.uci(), "info string Ponder: 'x' is not true or false");
        let r = Refusal::bare(Why::Failed("bad FEN".into())).keeping("position unchanged");
        assert_eq!(r.uci(), "info string bad FEN; position unchanged");
        let r = Refusal::new(
            Why::OptionIs {
                name: "UCI_Elo",
                range: "1..2".into(),
            },
            "option UCI_Elo=0",
        );
        assert_eq!(r.cecp(), "Error (UCI_Elo is 1..2): option UCI_Elo=0");
    }
}
