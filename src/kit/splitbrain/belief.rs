//! What a Split-Brain seat believes: the true states its newest observation allows. Only the
//! piece mark is ever hidden (from the target chooser, until both marks are down).

use super::SplitBrain;
use crate::square::Square;
use crate::table::TableGame;
use crate::table::mcts::Belief;
use rand::RngExt;
use rand::rngs::StdRng;
use std::sync::Arc;

/// An observation read as a state, with the squares its hidden piece mark may be on: the
/// team's pieces that can move (none when nothing is hidden).
pub(super) struct View {
    state: SplitBrain,
    pieces: Vec<Square>,
}

impl View {
    /// The view of `observation`, read with the settings of `game`.
    pub(super) fn read(game: &SplitBrain, observation: &str) -> Result<View, String> {
        let mut w: Vec<String> = observation.split_whitespace().map(String::from).collect();
        let mut g = game.clone();
        let Some(rest) = w.last().and_then(|m| m.strip_prefix("?,")).map(String::from) else {
            TableGame::set_state(&mut g, observation)?;
            return Ok(View {
                state: g,
                pieces: Vec::new(),
            });
        };
        // The team's pieces that can move, read from the same board before any mark.
        let n = w.len();
        let mut before = w.clone();
        before[n - 2] = "piece".into();
        before[n - 1] = "-,-".into();
        TableGame::set_state(&mut g, &before.join(" "))?;
        let pieces = g.valid_pieces();
        let Some(&first) = pieces.first() else {
            return Err("a mark is hidden, but the team has no piece to move".into());
        };
        // Read with one of them; a draw puts the mark on its own.
        w[n - 1] = format!("{},{rest}", g.name(first));
        TableGame::set_state(&mut g, &w.join(" "))?;
        Ok(View { state: g, pieces })
    }

    /// The state read, the hidden piece mark (if any) on the first piece that can move.
    pub(super) fn into_state(self) -> SplitBrain {
        self.state
    }

    /// A true state: the hidden piece mark on one of the pieces, drawn evenly.
    pub(super) fn draw(&self, rng: &mut StdRng) -> SplitBrain {
        let mut g = self.state.clone();
        if !self.pieces.is_empty() {
            g.marks.0 = Some(self.pieces[rng.random_range(0..self.pieces.len())]);
        }
        g
    }
}

/// The generic player's belief: each observation read once, each draw a [`View::draw`] that
/// remembers the boards seen since the last pawn move or capture (`SplitBrain::seen`).
pub(super) struct MarkBelief {
    game: SplitBrain,
    view: Result<View, String>,
    /// The keys of the boards seen since the last pawn move or capture, the newest last.
    boards: Vec<u64>,
    /// `boards` without the view's own board (a leaf still on it is not a repetition: one
    /// back on it is, by the search's own moves), shared by the draws.
    before: Arc<[u64]>,
}

impl MarkBelief {
    /// The belief of a seat of `game`, remembering what `game` remembers (a partner model's
    /// search of a drawn state goes on from the boards its seat saw).
    pub(super) fn new(game: &SplitBrain) -> MarkBelief {
        MarkBelief {
            game: game.clone(),
            view: Err("no observation yet".into()),
            boards: game.seen.to_vec(),
            before: Arc::clone(&game.seen),
        }
    }
}

impl Belief<SplitBrain> for MarkBelief {
    fn see(&mut self, observation: &String) -> Result<(), String> {
        // A view that cannot be read (a finished game's) is an error only when drawn from.
        self.view = View::read(&self.game, observation);
        if let Ok(v) = &self.view
            && v.state.remembers()
        {
            let (key, clock) = (v.state.pos.key(), v.state.pos.halfmove());
            if clock == 0 {
                self.boards.clear();
            }
            // Each step of a team turn shows the same board again.
            if self.boards.last() != Some(&key) {
                self.boards.push(key);
                self.before = self.boards.iter().copied().filter(|&k| k != key).collect();
            }
        }
        Ok(())
    }
    fn sample(&mut self, rng: &mut StdRng) -> Result<SplitBrain, String> {
        let mut g = self.view.as_ref().map_err(Clone::clone)?.draw(rng);
        g.seen = Arc::clone(&self.before);
        Ok(g)
    }
}
