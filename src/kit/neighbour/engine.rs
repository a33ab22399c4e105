//! Menagerie's Neighbour player. With the decks open it plays the open-deal solver's plan.
//! With the order hidden: moves come from the fewest-moves search (the order no longer
//! matters once adding stops); a carried piece lands where the fewest moves remain; and it
//! adds another piece while the expectation over the next two cards (every unseen piece and
//! position card alike) of the score after that add beats the score of stopping now.

use super::solver::{fewest_moves, landings, next_target, solve_open, some_moves};
use super::{Action, Neighbour, Phase};
use crate::kit::solitaire::Board;
use crate::table::Settings;
use crate::table::seats::{Player, number_options};
use std::collections::{HashMap, HashSet};

/// The player: its view and search limits.
pub struct Engine {
    view: Neighbour,
    /// States one search may expand.
    budget: u64,
    /// Fewest moves already found, by board and the most moves searched.
    memo: HashMap<(Board, u32), (Option<u32>, Option<Action>)>,
    /// Boards this game has shown, so that a fallback move does not go round in circles.
    history: HashSet<Board>,
}

impl Engine {
    /// Options: `budget=N` (states per search, default 3000), `seed=N` (accepted; the player
    /// is deterministic).
    pub fn new(base: &Neighbour, options: &Settings, _seed: u64) -> Result<Engine, String> {
        let (v, _) = number_options(options, &[("budget", 100, 100_000_000, 3_000)])?;
        Ok(Engine {
            view: base.clone(),
            budget: v[0] as u64,
            memo: HashMap::new(),
            history: HashSet::new(),
        })
    }

    /// The fewest moves, at most `max`, that connect `board` (`None`: none found within
    /// `max` or the budget) and the first of them.
    fn fewest(&mut self, board: &Board, max: u32) -> (Option<u32>, Option<Action>) {
        if let Some(v) = self.memo.get(&(*board, max)) {
            return *v;
        }
        let sol = fewest_moves(board, self.view.rules().captures, max, self.budget);
        let v = match sol.actions {
            Some(a) => (Some(a.len() as u32), a.first().copied()),
            None => (None, None),
        };
        self.memo.insert((*board, max), v);
        v
    }

    /// The score of stopping on `board` with `cards` left (connecting by the fewest moves),
    /// when it is above `floor`; `floor` otherwise.
    fn stop_score(&mut self, board: &Board, cards: u32, floor: u32) -> f64 {
        if cards <= floor {
            return f64::from(floor);
        }
        match self.fewest(board, cards - floor).0 {
            Some(m) => f64::from(cards - m),
            _ => f64::from(floor),
        }
    }

    /// The best landing for a piece carried to a taken square, and the score of stopping
    /// there (at least `floor`).
    fn best_landing(&mut self, board: &Board, piece: u8, target: usize, cards: u32, floor: u32) -> (usize, f64) {
        let mut best = (target, f64::MIN);
        for s in landings(board, target) {
            let mut b = *board;
            b[s] = piece;
            let v = self.stop_score(&b, cards, floor);
            if v > best.1 {
                best = (s, v);
            }
        }
        best
    }

    /// Whether adding one more piece is worth more, in expectation, than stopping now.
    fn add_more(&mut self) -> bool {
        let v = self.view.clone();
        let cards = v.cards_left();
        let now = self.stop_score(v.board(), cards, 0);
        let pieces = v.unseen_pieces();
        let positions = v.unseen_positions();
        if pieces.is_empty() || positions.is_empty() || cards < 2 {
            return false;
        }
        if now <= 0.0 {
            // Stopping now loses: another piece can only help.
            return true;
        }
        let mut expect = 0.0;
        let np = pieces.len() as f64;
        let nq = positions.len() as f64;
        let mut kinds_p = pieces.clone();
        kinds_p.sort();
        kinds_p.dedup();
        let mut kinds_q = positions.clone();
        kinds_q.sort();
        kinds_q.dedup();
        for &p in &kinds_p {
            let pp = pieces.iter().filter(|&&x| x == p).count() as f64 / np;
            for &q in &kinds_q {
                let pq = positions.iter().filter(|&&x| x == q).count() as f64 / nq;
                let target = next_target(v.anchor(), q);
                // Only a score above stopping now matters; anything less counts as zero.
                let (_, score) = self.best_landing(v.board(), p, target, cards - 2, now as u32);
                let score = if score > now { score } else { 0.0 };
                expect += pp * pq * score;
            }
        }
        expect > now
    }
}

/// The move that leaves the smallest bound, to a board not seen before if there is one.
fn greedy(board: &Board, captures: bool, history: &HashSet<Board>) -> Option<Action> {
    super::moves(board, captures)
        .into_iter()
        .min_by_key(|&(a, t)| {
            let mut b = *board;
            b[t] = b[a];
            b[a] = 0;
            (history.contains(&b), super::solver::bound(&b))
        })
        .map(|(a, t)| Action::Move(a, t))
}

impl Player for Engine {
    fn see(&mut self, observation: &str) -> Result<(), String> {
        self.view = Neighbour::parse(&self.view, observation, true)?;
        self.history.insert(*self.view.board());
        Ok(())
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, String> {
        let v = self.view.clone();
        let choice = if v.rules().open {
            solve_open(&v, self.budget.saturating_mul(10))
                .plan
                .and_then(|p| p.first().copied())
        } else {
            match v.phase() {
                Phase::Add => Some(if legal.iter().any(|a| a == "stop") && !self.add_more() {
                    Action::Stop
                } else {
                    Action::Add
                }),
                Phase::Place => v
                    .held()
                    .map(|(p, t)| Action::Place(self.best_landing(v.board(), p, t, v.cards_left(), 0).0)),
                Phase::Move => self
                    .fewest(v.board(), v.cards_left())
                    .1
                    .or_else(|| {
                        some_moves(v.board(), v.rules().captures, v.cards_left(), 200).and_then(|m| m.first().copied())
                    })
                    .or_else(|| greedy(v.board(), v.rules().captures, &self.history)),
                Phase::Deal | Phase::Over => None,
            }
        };
        match choice.map(|a| a.to_string()) {
            Some(t) if legal.contains(&t) => Ok(t),
            _ => legal.first().cloned().ok_or_else(|| "no legal action".to_string()),
        }
    }
}
