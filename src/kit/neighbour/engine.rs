//! Menagerie's Neighbour player. With the decks open it plays the open-deal solver's plan.
//! With the order hidden: moves come from the fewest-moves search (the order no longer
//! matters once adding stops); a carried piece lands where the fewest moves remain; and it
//! adds another piece while the expectation over the next two cards (every unseen piece and
//! position card alike) of the score after that add beats the score of stopping now.

use super::solver::{fewest_moves, solve_open, some_moves};
use super::{Action, Neighbour, Phase, carry, landing};
use crate::kit::draw_odds;
use crate::kit::solitaire::Board;
use crate::table::Seen;
use crate::table::Settings;
use crate::table::seats::{Player, PlayerError, number_options};
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
    /// The moves still to play of the plan being followed, each with the board it starts from.
    plan: Vec<(Board, Action)>,
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
            plan: Vec::new(),
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

    /// The next move of the moving phase: the plan being followed while the board is the one
    /// it expects, else a new plan: the fewest moves, or a beam search's when the budget runs
    /// out, or the move that leaves the smallest bound.
    fn next_move(&mut self, v: &Neighbour) -> Option<Action> {
        let board = *v.board();
        if let Some((b, a)) = self.plan.first().copied()
            && b == board
        {
            self.plan.remove(0);
            return Some(a);
        }
        let captures = v.rules().captures;
        let cards = v.cards_left();
        let sol = fewest_moves(&board, captures, cards, self.budget);
        let moves = sol.actions.or_else(|| some_moves(&board, captures, cards, 200));
        self.plan.clear();
        if let Some(m) = moves {
            let mut b = board;
            for a in m {
                self.plan.push((b, a));
                if let Action::Move(from, to) = a {
                    b[to] = b[from];
                    b[from] = 0;
                }
            }
        }
        if let Some((_, a)) = self.plan.first().copied() {
            self.plan.remove(0);
            return Some(a);
        }
        greedy(&board, captures, &self.history)
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
        for s in landing(board, target) {
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
        let mut now = self.stop_score(v.board(), cards, 0);
        if now <= 0.0 {
            // No connection found within the budget: a beam search may still find one.
            if let Some(m) = some_moves(v.board(), v.rules().captures, cards, 200) {
                now = f64::from(cards - m.len() as u32);
            }
        }
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
        let odds_q = draw_odds(&positions, |q| q);
        for (p, pp) in draw_odds(&pieces, |p| p) {
            for &(q, pq) in &odds_q {
                let target = carry(v.anchor().unwrap_or(0), q);
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
    fn see(&mut self, seen: &Seen) -> Result<(), PlayerError> {
        let observation = seen.text();
        self.view = Neighbour::parse(&self.view, observation, true).map_err(PlayerError::Unreadable)?;
        self.history.insert(*self.view.board());
        Ok(())
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, PlayerError> {
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
                Phase::Move => self.next_move(&v),
                Phase::Deal | Phase::Over => None,
            }
        };
        match choice.map(|a| a.to_string()) {
            Some(t) if legal.contains(&t) => Ok(t),
            _ => legal.first().cloned().ok_or(PlayerError::NoLegalAction),
        }
    }
}
