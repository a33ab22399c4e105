//! Menagerie's Split-Brain player.

use super::belief::View;
use super::{Action, Mode, Phase, SplitBrain};
use crate::kit::chess;
use crate::moves::Move;
use crate::search::Searcher;
use crate::square::Square;
use crate::table::Seen;
use crate::table::seats::{Player, PlayerError, number_options};
use crate::table::{Settings, Table};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Menagerie's player of a Split-Brain seat. Chooser and mover never talk: both derive the same
/// focal move from the same position (the best move, preferring one whose fallback under
/// either mode is still good) and mark its two squares. The opponents' chooser picks the snap
/// and the mode that leave the team the worst move. Options: `depth=N` (search plies after each
/// move, default 2), `noise=CP` (seeded noise on move values, default 10: two partners agree on
/// clear moves and differ on close ones, as people do), `robust=PERCENT`
/// (weight of the fallback, default 25).
pub struct Engine {
    view: SplitBrain,
    depth: u32,
    noise: i32,
    robust: i32,
    rng: StdRng,
    searcher: Searcher,
}

impl Engine {
    pub(super) fn new(view: SplitBrain, options: &Settings, seed: u64) -> Result<Engine, String> {
        let known = [("depth", 1, 6, 2), ("noise", 0, 1000, 10), ("robust", 0, 100, 25)];
        let (v, own_seed) = number_options(options, &known)?;
        Ok(Engine {
            view,
            depth: v[0] as u32,
            noise: v[1] as i32,
            robust: v[2] as i32,
            rng: StdRng::seed_from_u64(own_seed.unwrap_or(seed)),
            searcher: chess::searcher(),
        })
    }

    /// Values of the team's moves (the side to move of the view), with this seat's noise.
    fn values(&mut self) -> Vec<(Move, i32)> {
        let mut pos = self.view.pos.clone();
        let mut v = chess::move_values(&mut self.searcher, &mut pos, self.depth);
        if self.noise > 0 {
            for x in &mut v {
                x.1 += self.rng.random_range(-self.noise..=self.noise);
            }
        }
        v
    }

    /// The focal move: best value plus the weighted worst fallback.
    fn focal(&mut self) -> Option<Move> {
        let vals = self.values();
        let best =
            |f: &dyn Fn(&Move) -> bool, not: Move| vals.iter().filter(|(m, _)| *m != not && f(m)).map(|x| x.1).max();
        let mut top: Option<(Move, i64)> = None;
        for &(m, v) in &vals {
            let by_piece = best(&|x: &Move| x.from() == m.from(), m).unwrap_or(v);
            let by_target = best(&|x: &Move| x.to() == m.to(), m).unwrap_or(v);
            let score = i64::from(v) * 100 + i64::from(by_piece.min(by_target)) * i64::from(self.robust);
            if top.is_none_or(|t| score > t.1) {
                top = Some((m, score));
            }
        }
        top.map(|t| t.0)
    }

    /// The team's value of a state the opponents' chooser is considering (the team then plays
    /// its best move among those allowed).
    fn team_value(&mut self, state: &SplitBrain, vals: &[(Move, i32)]) -> i32 {
        let value_of = |a: Square, b: Square| {
            vals.iter()
                .filter(|(m, _)| m.from() == a && m.to() == b)
                .map(|x| x.1)
                .max()
        };
        match state.phase {
            Phase::Mode => [Mode::Piece, Mode::Target]
                .iter()
                .map(|&md| {
                    state
                        .mode_moves(md)
                        .iter()
                        .filter_map(|&(a, b)| value_of(a, b))
                        .max()
                        .unwrap_or(0)
                })
                .min()
                .unwrap_or(0),
            Phase::Piece | Phase::Over => {
                // The move was played: its value from the previous state's point of view.
                let last = state.turns.last().map(|t| t.2);
                last.and_then(|m| value_of(m.from(), m.to())).unwrap_or(0)
            }
            Phase::Tie(md) => state
                .mode_moves(md)
                .iter()
                .filter_map(|&(a, b)| value_of(a, b))
                .max()
                .unwrap_or(0),
            Phase::Promote(..) => vals.iter().map(|x| x.1).max().unwrap_or(0),
            _ => 0,
        }
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, String> {
        let pick = match self.view.phase {
            Phase::Piece | Phase::Target => {
                let m = self.focal().ok_or("no legal move")?;
                if self.view.phase == Phase::Piece {
                    Action::Mark(m.from()).to_string()
                } else if self.view.vectors {
                    let (df, dr) = self.view.vector_of(m);
                    Action::Vector(df, dr).to_string()
                } else {
                    Action::Mark(m.to()).to_string()
                }
            }
            Phase::SnapPiece | Phase::SnapTarget | Phase::Mode => {
                let vals = self.values();
                let mut worst: Option<(String, i32)> = None;
                for a in legal {
                    let mut s = self.view.clone();
                    if s.act(a).is_err() {
                        continue;
                    }
                    let v = self.team_value(&s, &vals);
                    if worst.as_ref().is_none_or(|w| v < w.1) {
                        worst = Some((a.clone(), v));
                    }
                }
                worst.map(|w| w.0).ok_or("no choice")?
            }
            Phase::Tie(md) => {
                let vals = self.values();
                let pairs = self.view.mode_moves(md);
                let value_of = |a: Square, b: Square| {
                    vals.iter()
                        .filter(|(m, _)| m.from() == a && m.to() == b)
                        .map(|x| x.1)
                        .max()
                        .unwrap_or(i32::MIN)
                };
                let (a, b) = *pairs
                    .iter()
                    .max_by_key(|&&(a, b)| value_of(a, b))
                    .ok_or("no tie move")?;
                Action::Move(a, b).to_string()
            }
            Phase::Promote(..) => {
                if legal.iter().any(|l| l == "promote q") {
                    "promote q".into()
                } else {
                    legal.first().cloned().ok_or("no promotion")?
                }
            }
            Phase::Over => return Err("the game is over".into()),
        };
        Ok(pick)
    }
}

impl Player for Engine {
    fn see(&mut self, seen: &Seen) -> Result<(), PlayerError> {
        let observation = seen.text();
        // A mark this seat may not see is never used by its decisions: the view stands in the
        // first piece that can move.
        self.view = View::read(&self.view, observation)
            .map_err(PlayerError::Unreadable)?
            .into_state();
        Ok(())
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, PlayerError> {
        Engine::decide(self, legal).map_err(PlayerError::Failed)
    }
}
