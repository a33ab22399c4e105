//! Menagerie's own Gravity player (`engine:player=turns`): a search over whole turns.

use super::{Action, Board, Gravity, Phase, piece_moves, points_in, squares};
use crate::Color;
use crate::table::seats::{Player, PlayerError, number_options};
use crate::table::{Seen, Settings, TableGame};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashSet;

/// Menagerie's Gravity player. When its move phase starts it searches whole turns: the order
/// of its pieces, their moves and where to add the new piece, together (depth-first, each
/// distinct resulting board once, up to `nodes`). Each plan is valued by a static estimate of
/// the final score; with `depth=2` the best few plans are re-valued by the expectation over the
/// opponent's next card (the chance of each piece in its pile) of the opponent's best reply
/// plan. Options: `depth=1|2` (default 2), `nodes=N` (plans per search, default 4000),
/// `noise=N` (hundredths of a point of seeded noise, default 10), `seed=N`.
pub struct Engine {
    view: Gravity,
    depth: i64,
    nodes: usize,
    noise: f64,
    rng: StdRng,
    /// The plan being played: the actions left and the state each should start from.
    plan: Vec<(String, Action)>,
}

impl Engine {
    /// An engine whose view plays by `rules`' settings (the order of moves).
    pub(super) fn new(rules: &Gravity, options: &Settings, seed: u64) -> Result<Engine, String> {
        let known = [
            ("depth", 1, 2, 2),
            ("nodes", 10, 1_000_000, 4000),
            ("noise", 0, 10_000, 10),
        ];
        let (v, own_seed) = number_options(options, &known)?;
        Ok(Engine {
            view: rules.clone(),
            depth: v[0],
            nodes: v[1] as usize,
            noise: v[2] as f64 / 100.0,
            rng: StdRng::seed_from_u64(own_seed.unwrap_or(seed)),
            plan: Vec::new(),
        })
    }

    /// Every distinct end of the mover's turn from `g` (up to `cap` of them), with its actions.
    fn plans(g: &Gravity, cap: usize) -> Vec<(Vec<Action>, Gravity)> {
        let me = g.mover();
        let mut out = Vec::new();
        let mut seen: HashSet<(Board, u64, u32, u32)> = HashSet::new();
        let mut stack: Vec<(Vec<Action>, Gravity)> = vec![(Vec::new(), g.clone())];
        while let Some((acts, s)) = stack.pop() {
            let done = s.phase == Phase::Over || s.mover() != me || s.phase == Phase::Flip;
            if done {
                out.push((acts, s));
                if out.len() >= cap {
                    break;
                }
                continue;
            }
            for a in s.legal_actions() {
                let mut n = s.clone();
                if n.apply(&a).is_err() {
                    continue;
                }
                if !seen.insert((n.board, n.remaining, n.turn, n.captures[me.index()])) {
                    continue;
                }
                let mut acts2 = acts.clone();
                acts2.push(a);
                stack.push((acts2, n));
            }
            if seen.len() > cap * 20 {
                // Keep the search bounded; what is on the stack still finishes greedily.
                while let Some((acts, mut s)) = stack.pop() {
                    let mut acts = acts;
                    while s.phase != Phase::Over && s.mover() == me && s.phase != Phase::Flip {
                        let Some(a) = s.legal_actions().into_iter().next() else {
                            break;
                        };
                        if s.apply(&a).is_err() {
                            break;
                        }
                        acts.push(a);
                    }
                    out.push((acts, s));
                    if out.len() >= cap {
                        break;
                    }
                }
                break;
            }
        }
        out
    }

    /// Estimated final margin for `me`: points now, plus for active pieces a share of the rank
    /// they would land on falling straight down, less a share of what an enemy piece could take.
    pub(super) fn estimate(g: &Gravity, me: Color) -> f64 {
        if g.phase == Phase::Over {
            let w = g.score(Color::White) as f64;
            let b = g.score(Color::Black) as f64;
            let tb = match g.tie() {
                Some(c) if w == b => {
                    if c == me {
                        0.5
                    } else {
                        -0.5
                    }
                }
                _ => 0.0,
            };
            return if me == Color::White { w - b } else { b - w } + tb;
        }
        let (st, occ) = (g.st, g.occ);
        // The squares each side's active (unstacked) pieces can move to.
        let mut hits = [0u64; 2];
        for e in squares(occ & !st) {
            if let Some(q) = g.board[e] {
                hits[q.color.index()] |= piece_moves(&g.board, occ, st, e);
            }
        }
        let mut v = [0.0f64; 2];
        for c in [Color::White, Color::Black] {
            v[c.index()] = points_in(&g.board, st, g.captures, c) as f64;
        }
        // Turns each side still moves in (a turn of its own after this state).
        let moves_left = |c: Color| -> u32 {
            (g.turn..=g.turns)
                .filter(|t| {
                    let mover = if t % 2 == 1 { Color::White } else { Color::Black };
                    mover == c && !(*t == g.turn && g.phase != Phase::Flip)
                })
                .count() as u32
        };
        let left = [moves_left(Color::White), moves_left(Color::Black)];
        for s in squares(occ & !st) {
            let Some(p) = g.board[s] else { continue };
            let left = left[p.color.index()];
            if left == 0 {
                continue;
            }
            // Landing rank if it fell straight down onto the column's stack.
            let mut land = s / 8;
            while land > 0 && g.board[(land - 1) * 8 + s % 8].is_none() {
                land -= 1;
            }
            // With `end=fall` it will land there at the latest, and score.
            v[p.color.index()] += if g.fall { 1.0 } else { 0.6 } * (land + 1) as f64;
            // Enemy active pieces that could take it.
            let threatened = hits[(!p.color).index()] >> s & 1 != 0;
            if threatened {
                v[p.color.index()] -= 0.4 * (land + 1) as f64;
                v[(!p.color).index()] += 0.5;
            }
        }
        v[me.index()] - v[(!me).index()]
    }

    /// The opponent's expected best reply value (for `me`), over its next card.
    fn reply_value(&self, g: &Gravity, me: Color) -> f64 {
        if g.phase != Phase::Flip {
            return Engine::estimate(g, me);
        }
        let mut total = 0.0;
        for (a, p) in g.chance_outcomes() {
            let mut n = g.clone();
            if n.apply(&a).is_err() {
                continue;
            }
            let worst = Engine::plans(&n, self.nodes / 8)
                .iter()
                .map(|(_, s)| Engine::estimate(s, me))
                .fold(f64::INFINITY, f64::min);
            total += p * if worst.is_finite() {
                worst
            } else {
                Engine::estimate(&n, me)
            };
        }
        total
    }

    fn choose(&mut self) -> Vec<(String, Action)> {
        let me = self.view.mover();
        let mut plans: Vec<(f64, Vec<Action>, Gravity)> = Engine::plans(&self.view, self.nodes)
            .into_iter()
            .map(|(a, s)| {
                let noise = if self.noise > 0.0 {
                    self.rng.random_range(-self.noise..self.noise)
                } else {
                    0.0
                };
                (Engine::estimate(&s, me) + noise, a, s)
            })
            .collect();
        plans.sort_by(|a, b| b.0.total_cmp(&a.0));
        if self.depth >= 2 {
            plans.truncate(6);
            for p in plans.iter_mut() {
                p.0 = self.reply_value(&p.2, me) + 0.01 * p.0;
            }
            plans.sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        let Some((_, acts, _)) = plans.into_iter().next() else {
            return Vec::new();
        };
        // Each step with the state it must be played from, so a changed view drops the plan.
        let mut s = self.view.clone();
        let mut out = Vec::new();
        for a in acts {
            out.push((s.text(), a));
            if s.apply(&a).is_err() {
                break;
            }
        }
        out
    }
}

impl Player for Engine {
    fn see(&mut self, seen: &Seen) -> Result<(), PlayerError> {
        // A seat sees the whole state: the observation is the view.
        self.view = seen.read(&self.view).map_err(PlayerError::Unreadable)?;
        Ok(())
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, PlayerError> {
        let now = self.view.text();
        if self.plan.first().is_none_or(|(state, _)| *state != now) {
            self.plan = self.choose();
        }
        if let Some((state, a)) = self.plan.first().cloned()
            && state == now
            && legal.contains(&a.to_string())
        {
            self.plan.remove(0);
            return Ok(a.to_string());
        }
        self.plan.clear();
        legal.first().cloned().ok_or(PlayerError::NoLegalAction)
    }
}
