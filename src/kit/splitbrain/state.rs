//! Split-Brain's state text: reading it (with the checks that the phase fits the marks) and
//! writing it.

use super::{Action, Aim, Mode, Phase, Side, SplitBrain, parse_vector};
use crate::kit::chess::{board_end, legal};
use crate::kit::team_outcome;
use crate::position::Position;
use crate::square::Square;
use crate::table::{Outcome, TableGame};

impl SplitBrain {
    /// The game set to the state `text`; `end` is the outcome a finished game's text carries
    /// (its phase must be over then, whatever the board shows: a repetition, a ply limit).
    pub(super) fn read_state(&self, text: &str, end: Option<&Outcome>) -> Result<SplitBrain, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() != 9 {
            return Err("expected 'FEN(6 fields) k|q PHASE S,T'".into());
        }
        let fen = words[..6].join(" ");
        let pos = Position::from_fen(std::sync::Arc::clone(self.pos.game()), &fen).map_err(|e| e.to_string())?;
        // Split-Brain ends by mate, never by taking a king: one king a side, always.
        crate::kit::chess::check_kings(&pos, [1, 1], false)?;
        let mut next = self.clone();
        next.pos = pos;
        next.legal = legal(&mut next.pos).into();
        next.turns.clear();
        next.end = None;
        next.marker = match words[6] {
            "k" => Side::King,
            "q" => Side::Queen,
            m => return Err(format!("marker '{m}': expected k or q")),
        };
        next.marks = next.read_marks(words[8])?;
        let need = |n: usize| -> Result<(), String> {
            let have = usize::from(next.marks.0.is_some()) + usize::from(next.marks.1.is_some());
            if have == n {
                Ok(())
            } else {
                Err(format!("phase {} needs {n} marks", words[7]))
            }
        };
        next.phase = next.read_phase(words[7])?;
        match next.phase {
            Phase::Piece | Phase::Over => need(0)?,
            Phase::Target => {
                if next.marks.0.is_none() || next.marks.1.is_some() {
                    return Err("phase target needs the piece mark only".into());
                }
            }
            _ => need(2)?,
        }
        let has_move = !next.legal.is_empty();
        if let Some((winner, reason)) = board_end(&next.pos, has_move, next.draws) {
            next.end = Some(team_outcome(2, winner, reason));
            next.phase = Phase::Over;
        } else if next.phase == Phase::Over && end.is_none() {
            return Err(
                "phase over, but the game on the board goes on (a finished game's state ends with its result)".into(),
            );
        }
        if !next.legal_actions_consistent() {
            return Err(format!("phase {} does not fit the marks", words[7]));
        }
        if let Some(end) = end {
            if next.phase != Phase::Over || end.scores.len() != 4 {
                return Err("a finished game's state has phase over and four scores".into());
            }
            next.end = Some(end.clone());
        }
        Ok(next)
    }

    /// The marks field `S,T`: the piece's square and the target (a square, or a vector with
    /// `marks=vector`), `-` for none.
    fn read_marks(&self, field: &str) -> Result<(Option<Square>, Option<Aim>), String> {
        let mark =
            |w: &str| -> Result<Option<Square>, String> { if w == "-" { Ok(None) } else { self.sq(w).map(Some) } };
        let (a, b) = field.split_once(',').ok_or("marks: expected S,T")?;
        let aim = match b {
            "-" => None,
            v if self.vectors => {
                let (df, dr) = parse_vector(v)?;
                Some(Aim::Vector(df, dr))
            }
            t => Some(Aim::Square(self.sq(t)?)),
        };
        Ok((mark(a)?, aim))
    }

    /// The phase field (a promotion phase names its mode and move).
    fn read_phase(&self, field: &str) -> Result<Phase, String> {
        Ok(match field {
            "piece" => Phase::Piece,
            "target" => Phase::Target,
            "snap-piece" => Phase::SnapPiece,
            "snap-target" => Phase::SnapTarget,
            "mode" => Phase::Mode,
            "tie-piece" => Phase::Tie(Mode::Piece),
            "tie-target" => Phase::Tie(Mode::Target),
            "over" => Phase::Over,
            p if p.starts_with("promote-") => {
                let rest = &p[8..];
                let (mode, squares) = rest
                    .split_once('-')
                    .ok_or("promote phase: expected promote-MODE-FROMTO")?;
                let mode = match mode {
                    "direct" => None,
                    "piece" => Some(Mode::Piece),
                    "target" => Some(Mode::Target),
                    _ => return Err(format!("promote phase: mode '{mode}'")),
                };
                let Ok(Action::Move(a, b)) = self.parse_action(&format!("move {squares}")) else {
                    return Err(format!("promote phase: squares '{squares}'"));
                };
                Phase::Promote(mode, a, b)
            }
            p => {
                return Err(format!(
                    "phase '{p}': expected piece, target, snap-piece, snap-target, mode, tie-piece, tie-target or over"
                ));
            }
        })
    }

    fn phase_text(&self) -> String {
        match self.phase {
            Phase::Piece => "piece".into(),
            Phase::Target => "target".into(),
            Phase::SnapPiece => "snap-piece".into(),
            Phase::SnapTarget => "snap-target".into(),
            Phase::Mode => "mode".into(),
            Phase::Tie(Mode::Piece) => "tie-piece".into(),
            Phase::Tie(Mode::Target) => "tie-target".into(),
            Phase::Promote(m, s, t) => format!(
                "promote-{}-{}{}",
                match m {
                    None => "direct",
                    Some(Mode::Piece) => "piece",
                    Some(Mode::Target) => "target",
                },
                self.name(s),
                self.name(t)
            ),
            Phase::Over => "over".into(),
        }
    }

    pub(super) fn text(&self, show_piece_mark: bool) -> String {
        let mark = |m: Option<Square>, shown: bool| match m {
            None => "-".to_string(),
            Some(_) if !shown => "?".to_string(),
            Some(s) => self.name(s),
        };
        let aim = self.marks.1.map_or("-".to_string(), |a| self.aim_text(a));
        format!(
            "{} {} {} {},{}",
            self.pos.fen(),
            if self.marker == Side::King { "k" } else { "q" },
            self.phase_text(),
            mark(self.marks.0, show_piece_mark),
            aim
        )
    }

    fn legal_actions_consistent(&self) -> bool {
        match self.phase {
            Phase::SnapPiece => self
                .marks
                .0
                .is_some_and(|m| self.nearest(m, &self.valid_pieces()).len() > 1),
            Phase::SnapTarget => {
                self.marks.0.is_some_and(|m| self.valid_pieces().contains(&m))
                    && self.marks.1.is_some_and(|m| self.nearest_aims(m).len() > 1)
            }
            Phase::Mode => {
                let (s, t) = (self.marks.0.unwrap(), self.marks.1.unwrap());
                self.valid_pieces().contains(&s)
                    && self.nearest_aims(t) == [t]
                    && !self.moves().iter().any(|&m| self.hits(m, s, t))
            }
            Phase::Tie(mode) => self.mode_moves(mode).len() > 1,
            Phase::Promote(_, a, b) => self.moves().iter().filter(|m| m.from() == a && m.to() == b).count() > 1,
            _ => true,
        }
    }
}
