//! Menagerie's Parade player. With pile B open it plays the solver's plan. With the order
//! hidden it compares, at every action, the best plan of moves alone (solved exactly on the
//! board as it is) with adding now: one card plus the expectation, over the cards that may be
//! on top of pile B (each unseen card alike, spent cards unseen included), of the best
//! continuation, looking `adds` cards ahead. Moves never depend on the order; only adds do.

use super::solver::{OpenDeal, bound};
use super::{Action, Parade, gap_square, moves};
use crate::kit::draw_odds;
use crate::kit::solitaire::{Board, beam, gap};
use crate::table::Seen;
use crate::table::Settings;
use crate::table::seats::{Player, PlayerError, number_options};
use std::collections::{HashMap, HashSet};

/// The player: its view of the game and its search limits.
pub struct Engine {
    view: Parade,
    /// States one solve may expand.
    budget: u64,
    /// Cards looked ahead when weighing an add.
    adds: u32,
    /// Values of move-only plans already solved, by board and the most moves searched.
    memo: HashMap<(Board, u32), (f64, Option<Action>)>,
    /// Boards this game has shown, so that a fallback move does not go round in circles.
    history: HashSet<Board>,
}

impl Engine {
    /// Options: `budget=N` (states per solve, default 100000), `adds=0..3` (cards looked ahead,
    /// default 1), `seed=N` (accepted; the player is deterministic).
    pub fn new(base: &Parade, options: &Settings, _seed: u64) -> Result<Engine, String> {
        let (v, _) = number_options(options, &[("budget", 100, 100_000_000, 100_000), ("adds", 0, 3, 1)])?;
        Ok(Engine {
            view: base.clone(),
            budget: v[0] as u64,
            adds: v[1] as u32,
            memo: HashMap::new(),
            history: HashSet::new(),
        })
    }

    /// Actions to connect `board` by moves alone, searching up to `max` moves, and the first
    /// move: none within `max` counts `max + 1`, an unfinished search `max`.
    fn moves_only(&mut self, board: &Board, max: u32) -> (f64, Option<Action>) {
        if let Some(v) = self.memo.get(&(*board, max)) {
            return *v;
        }
        let deal = OpenDeal::from_parts(&[], super::MAX_ACTIONS - max);
        let sol = deal.solve(board, self.budget);
        let v = match (&sol.actions, sol.proved) {
            (Some(a), _) => (a.len() as f64, a.first().copied()),
            (None, true) => (f64::from(max) + 1.0, None),
            // Not shown within the budget: no better than the most searched for.
            (None, false) => (f64::from(max.max(sol.lower)), None),
        };
        self.memo.insert((*board, max), v);
        v
    }

    /// Expected actions to connect from `board` with the unseen cards `pool`, `pile` of them
    /// still in pile B, `left` actions allowed, looking `depth` adds ahead; and the first
    /// action of the choice.
    fn value(&mut self, board: &Board, pool: &[u8], pile: usize, left: u32, depth: u32) -> (f64, Option<Action>) {
        let (mv, first) = self.moves_only(board, left);
        if depth == 0 || pile == 0 || left == 0 || pool.is_empty() {
            return (mv, first);
        }
        // After an add, plans longer than the best without it cannot make adding better.
        let cap = (mv.ceil() as u32).min(left - 1);
        let mut expect = 0.0;
        for (c, p) in draw_odds(pool, |c| c) {
            let mut b = *board;
            b[gap_square(&b, gap(c))] = c;
            let rest: Vec<u8> = {
                let mut r = pool.to_vec();
                if let Some(i) = r.iter().position(|&x| x == c) {
                    r.swap_remove(i);
                }
                r
            };
            let v = if super::connected(&b) {
                0.0
            } else {
                self.value(&b, &rest, pile - 1, cap, depth - 1).0
            };
            expect += p * v;
        }
        let add = 1.0 + expect;
        if add < mv {
            (add, Some(Action::Add))
        } else {
            (mv, first)
        }
    }
}

/// The move that leaves the smallest bound, to a board not seen before if there is one
/// (first in square order on ties).
fn greedy(board: &Board, history: &HashSet<Board>) -> Option<Action> {
    moves(board)
        .into_iter()
        .min_by_key(|&(a, t)| {
            let mut b = *board;
            b[t] = b[a];
            b[a] = 0;
            (history.contains(&b), bound(&b))
        })
        .map(|(a, t)| Action::Move(a, t))
}

impl Player for Engine {
    fn see(&mut self, seen: &Seen) -> Result<(), PlayerError> {
        let observation = seen.text();
        self.view = Parade::parse(&self.view, observation, true).map_err(PlayerError::Unreadable)?;
        self.history.insert(*self.view.board());
        Ok(())
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, PlayerError> {
        let v = &self.view;
        let left = super::MAX_ACTIONS - v.spent();
        let board = *v.board();
        let choice = if v.open() {
            let sol = OpenDeal::new(v).solve(&board, self.budget.saturating_mul(10));
            sol.actions.and_then(|a| a.first().copied()).or_else(|| {
                if v.pile().is_empty() {
                    greedy(&board, &self.history)
                } else {
                    Some(Action::Add)
                }
            })
        } else {
            let pool = v.undealt();
            let pile = v.pile().len();
            let adds = self.adds;
            // A search of moves alone that ran out of budget is followed, here at the root, by
            // a beam search: its plan is an upper bound and gives a first move.
            if self.moves_only(&board, left).1.is_none() {
                let base = super::MAX_ACTIONS - left;
                let deal = OpenDeal::from_parts(&[], base);
                if let Some(plan) = beam(&deal, &(board, base as u8), left, 300) {
                    self.memo
                        .insert((board, left), (plan.len() as f64, plan.first().copied()));
                }
            }
            // No plan found: add while cards last (a new piece may bridge), else the greedy move.
            self.value(&board, &pool, pile, left, adds).1.or_else(|| {
                if pile > 0 {
                    Some(Action::Add)
                } else {
                    greedy(&board, &self.history)
                }
            })
        };
        let text = choice.map(|a| a.to_string());
        match text {
            Some(t) if legal.contains(&t) => Ok(t),
            _ => legal.first().cloned().ok_or(PlayerError::NoLegalAction),
        }
    }
}
