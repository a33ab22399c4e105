//! Menagerie's Cooperative Chess 2 partner: whole-turn plans valued by points made and, by
//! expectation over the unseen cards, the captures they prepare for the next player.

use super::{Action, Coop2, DECK, Phase, TYPES, card_of};
use crate::table::Seen;
use crate::table::seats::{Player, PlayerError, number_options};
use crate::table::{Settings, TableGame};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Menagerie's partner (either seat, or the solitaire player). When its turn starts it plans
/// the whole turn: the card it plays, the quiet move and the captures that follow, each
/// distinct line and board once; a plan is valued by the points it makes and, by expectation
/// over the card the next player may add (the unseen cards with their chances), the captures
/// it prepares. A king is captured when that ends the game at 32 points or more, or when the
/// cards are about to run out. Options `plans=N` (default 600), `noise=N` (hundredths of a
/// point, default 10), `seed=N`.
pub struct Engine {
    view: Coop2,
    plans: usize,
    noise: f64,
    rng: StdRng,
    plan: Vec<(String, String)>,
}

impl Engine {
    pub(super) fn new(view: Coop2, options: &Settings, seed: u64) -> Result<Engine, String> {
        let (v, own_seed) = number_options(options, &[("plans", 10, 1_000_000, 600), ("noise", 0, 10_000, 10)])?;
        Ok(Engine {
            view,
            plans: v[0] as usize,
            noise: v[1] as f64 / 100.0,
            rng: StdRng::seed_from_u64(own_seed.unwrap_or(seed)),
            plan: Vec::new(),
        })
    }

    /// The unseen cards: the draw pile and the other hand (as this seat knows them).
    fn unseen(g: &Coop2) -> Vec<char> {
        let mut all: Vec<char> = DECK.to_vec();
        let seen = g
            .line
            .iter()
            .chain(&g.discard)
            .chain(g.hands.iter().flatten().filter(|c| **c != '?'));
        for c in seen {
            if let Some(i) = all.iter().position(|a| a == c) {
                all.remove(i);
            }
        }
        // Captured pieces' cards are in the discard; pieces on the board have theirs unseen.
        all
    }

    fn value(&self, g: &Coop2) -> f64 {
        if g.phase == Phase::Over {
            let s = g.score() as f64;
            // A win first; a lost game still scores, and a king taken beats cards run out.
            return match (g.ending == "king captured", s >= 32.0) {
                (true, true) => 100.0 + s,
                (true, false) => s - 60.0,
                _ => s - 100.0,
            };
        }
        let mut v = g.score() as f64;
        // Types close to gone: each is worth ten once its last piece falls.
        for t in TYPES {
            let left = g
                .pos
                .occupied()
                .into_iter()
                .filter(|&q| card_of(&g.pos, g.pos.piece_at(q)).to_ascii_uppercase() == t)
                .count();
            v += match left {
                1 => 4.0,
                2 => 1.5,
                _ => 0.0,
            };
        }
        // The next player's chances: captures the line allows now, and those the card it adds
        // (next to the last card) may allow, by expectation over the unseen cards.
        let mut next = g.clone();
        next.set_side(!g.turn(), g.pos.fullmove());
        let pairs = next.capture_pairs();
        let usable = |m: char, x: char| next.usable(m, x).next().is_some();
        let now = pairs.iter().filter(|(m, x, _)| usable(*m, *x)).count() as f64;
        v += 0.3 * now.min(5.0);
        let pool = Engine::unseen(g);
        let last = g.line.last().copied();
        if let (false, Some(last)) = (pool.is_empty(), last) {
            let mut gain = 0.0;
            for &k in &pool {
                let more = pairs
                    .iter()
                    .filter(|(m, x, _)| !usable(*m, *x) && ((*m == k && *x == last) || (*m == last && *x == k)))
                    .count() as f64;
                gain += more.min(3.0);
            }
            v += 0.5 * gain / pool.len() as f64;
        }
        // With few cards left the king must fall: reward a line that allows it.
        let cards_left = g.deck.len() + g.hands.iter().map(|h| h.len()).sum::<usize>();
        if cards_left <= 8 {
            // A king the next player can take now, or a king attack waiting for the right
            // card next to the king's card.
            let now = pairs.iter().any(|(m, x, k)| *k && usable(*m, *x));
            let attack = pairs.iter().any(|(_, _, k)| *k);
            v += if now {
                20.0
            } else if attack {
                6.0
            } else {
                -4.0
            };
        }
        v
    }

    /// Every distinct way to finish this turn from `g` (up to the cap), with its actions.
    fn turn_plans(&self, g: &Coop2) -> Vec<(Vec<Action>, Coop2)> {
        let me = g.turn();
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![(Vec::new(), g.clone())];
        while let Some((acts, s)) = stack.pop() {
            let done = s.phase == Phase::Over
                || s.turn() != me
                || !matches!(s.phase, Phase::Play | Phase::Quiet | Phase::Capture);
            let done = done || matches!(acts.last(), Some(Action::End));
            if done {
                out.push((acts, s));
                if out.len() >= self.plans {
                    break;
                }
                continue;
            }
            for a in TableGame::legal_actions(&s) {
                let mut n = s.clone();
                if TableGame::apply_unseen(&mut n, &a).is_err() {
                    continue;
                }
                if !seen.insert((n.text(None), matches!(a, Action::End))) {
                    continue;
                }
                let mut acts2 = acts.clone();
                acts2.push(a);
                stack.push((acts2, n));
            }
        }
        out
    }

    fn choose(&mut self) -> Vec<(String, String)> {
        let plans = self.turn_plans(&self.view);
        let mut best: Option<(f64, Vec<Action>)> = None;
        for (acts, s) in plans {
            let noise = if self.noise > 0.0 {
                self.rng.random_range(-self.noise..self.noise)
            } else {
                0.0
            };
            let v = self.value(&s) + noise;
            if best.as_ref().is_none_or(|b| v > b.0) {
                best = Some((v, acts));
            }
        }
        let Some((_, acts)) = best else { return Vec::new() };
        let mut s = self.view.clone();
        let mut out = Vec::new();
        for a in acts {
            out.push((s.text(None), a.to_string()));
            if TableGame::apply_unseen(&mut s, &a).is_err() {
                break;
            }
        }
        out
    }
}

impl Player for Engine {
    fn see(&mut self, seen: &Seen) -> Result<(), PlayerError> {
        let observation = seen.text();
        self.view = super::state::parse(&self.view, observation, true, None).map_err(PlayerError::Unreadable)?;
        Ok(())
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, PlayerError> {
        let now = self.view.text(None);
        if self.plan.first().is_none_or(|(state, _)| *state != now) {
            self.plan = self.choose();
        }
        if let Some((state, a)) = self.plan.first().cloned()
            && state == now
            && legal.contains(&a)
        {
            self.plan.remove(0);
            return Ok(a);
        }
        self.plan.clear();
        legal.first().cloned().ok_or(PlayerError::NoLegalAction)
    }
}
