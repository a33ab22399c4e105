//! Menagerie's Booster player: each move with its booster tail (steps chosen greedily) is
//! valued by material, boosts and hobbles, less the opponent's best reply capture (booster
//! moves included) and, by sampling its hidden hand, the hobble its card could add; a move that
//! mates is played at once.

use super::{Action, Booster, CHESS_CARDS, Phase, in_check, normal_moves};
use crate::Color;
use crate::table::Seen;
use crate::table::Settings;
use crate::table::seats::{Player, PlayerError, number_options};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const MATE: f64 = 100_000.0;

fn value(kind: char) -> f64 {
    match kind {
        'P' => 100.0,
        'N' | 'B' => 300.0,
        'R' => 500.0,
        'Q' => 900.0,
        _ => 0.0,
    }
}

/// The player. Options: `samples=N` (opponent hands sampled, default 3), `noise=CP` (default
/// 10), `seed=N`.
pub struct Engine {
    me: Color,
    view: Booster,
    samples: usize,
    noise: f64,
    rng: StdRng,
}

impl Engine {
    pub(super) fn new(seat: usize, view: Booster, options: &Settings, seed: u64) -> Result<Engine, String> {
        let (v, own_seed) = number_options(options, &[("samples", 0, 64, 3), ("noise", 0, 1000, 10)])?;
        Ok(Engine {
            me: if seat == 0 { Color::White } else { Color::Black },
            view,
            samples: v[0] as usize,
            noise: v[1] as f64,
            rng: StdRng::seed_from_u64(own_seed.unwrap_or(seed)),
        })
    }

    /// Material with boosts and hobbles, from `me`'s side.
    fn static_eval(g: &Booster, me: Color) -> f64 {
        let mut v = 0.0;
        for p in g.board.iter().flatten() {
            let base = value(p.kind);
            let worth = if p.hobble() > 0 {
                if p.kind == 'P' { base * 0.8 } else { base * 0.4 }
            } else {
                base + 30.0 * p.boost() as f64
            };
            v += if p.color == me { worth } else { -worth };
        }
        v + 10.0 * (g.reserve[me.index()] as f64 - g.reserve[(!me).index()] as f64)
    }

    /// The opponent's best capture from `g` (its side to move), booster steps counted: what
    /// it would take.
    fn best_capture(g: &Booster) -> f64 {
        let them = g.side;
        let mut best = 0.0f64;
        for s in 0..64 {
            let Some(p) = g.board[s].filter(|p| p.color == them) else {
                continue;
            };
            for (t, cap) in normal_moves(&g.board, s) {
                if cap && let Some(v) = g.board[t] {
                    best = best.max(if v.kind == 'K' { MATE } else { value(v.kind) });
                }
            }
            // A boosted piece reaches further: its attack map counts the steps.
            if p.boost() > 0 {
                let att = super::attacks_from(&g.board, s);
                for t in (0..64).filter(|t| att >> t & 1 != 0) {
                    if let Some(v) = g.board[t].filter(|v| v.color != them) {
                        best = best.max(if v.kind == 'K' { MATE } else { value(v.kind) * 0.8 });
                    }
                }
            }
        }
        best
    }

    /// What the opponent's card may cost us: its best hobble with a hand sampled from the
    /// cards we have not seen, averaged.
    fn hand_threat(&mut self, g: &Booster) -> f64 {
        let them = (!self.me).index();
        let n = self.view.hands[them].len();
        if n == 0 || self.samples == 0 || g.reserve[them] == 0 {
            return 0.0;
        }
        // The checker cards in the game (the `checker_cards` setting): all cards less the 32.
        let v = &self.view;
        let all = v.deck.len() + v.hands[0].len() + v.hands[1].len() + v.discard.len();
        let half = all.saturating_sub(CHESS_CARDS.len()) / 2;
        let mut unseen: Vec<char> = CHESS_CARDS.chars().collect();
        unseen.extend(std::iter::repeat_n('C', half).chain(std::iter::repeat_n('c', half)));
        for c in self.view.discard.iter().chain(&self.view.hands[self.me.index()]) {
            if let Some(i) = unseen.iter().position(|u| u == c) {
                unseen.remove(i);
            }
        }
        let mut total = 0.0;
        for _ in 0..self.samples {
            let mut best = 0.0f64;
            for _ in 0..n.min(unseen.len()) {
                let card = unseen[self.rng.random_range(0..unseen.len())];
                if card_is(card, self.me) {
                    let kind = card.to_ascii_uppercase();
                    let hit = g
                        .board
                        .iter()
                        .flatten()
                        .filter(|p| p.color == self.me && (kind == 'C' || p.kind == kind) && p.hobble() == 0)
                        .map(|p| value(p.kind) * 0.6)
                        .fold(0.0, f64::max);
                    best = best.max(hit);
                }
            }
            total += best;
        }
        total / self.samples as f64
    }

    /// Plays greedy booster steps for the piece on `s` while they gain; returns the state.
    fn tail(g: &Booster, s: usize, me: Color) -> Booster {
        let mut cur = g.clone();
        let mut at = s;
        loop {
            let here = Engine::static_eval(&cur, me);
            let mut best: Option<(f64, Booster, usize)> = None;
            for a in cur.steps(at) {
                let Action::Step(t, _) = a else { continue };
                let mut n = cur.clone();
                n.apply_step(at, &a);
                let v = Engine::static_eval(&n, me);
                if best.as_ref().is_none_or(|b| v > b.0) {
                    best = Some((v, n, t));
                }
            }
            match best {
                Some((v, n, t)) if v > here => {
                    cur = n;
                    at = t;
                }
                _ => return cur,
            }
        }
    }

    fn score_move(&mut self, a: &Action) -> f64 {
        let me = self.me;
        let mut n = self.view.clone();
        n.apply_move(a);
        let Action::Move(_, to, _) = *a else {
            return f64::NEG_INFINITY;
        };
        let mut n = Engine::tail(&n, to, me);
        n.side = !me;
        if in_check(&n.board, !me) && n.moves().is_empty() {
            return MATE;
        }
        let threat = self.hand_threat(&n);
        Engine::static_eval(&n, me) - Engine::best_capture(&n) - 0.5 * threat
    }

    fn decide_now(&mut self, legal: &[String]) -> Option<String> {
        let me = self.me;
        let noise = |rng: &mut StdRng, n: f64| if n > 0.0 { rng.random_range(-n..n) } else { 0.0 };
        match self.view.phase {
            Phase::Move => {
                let mut best: Option<(f64, String)> = None;
                for a in self.view.moves() {
                    let v = self.score_move(&a) + noise(&mut self.rng, self.noise);
                    if best.as_ref().is_none_or(|b| v > b.0) {
                        best = Some((v, a.to_string()));
                    }
                }
                best.map(|b| b.1)
            }
            Phase::Boost(s) => {
                // The greedy tail's first step, or stop when no step gains.
                let here = Engine::static_eval(&self.view, me);
                let mut best: Option<(f64, String)> = None;
                for a in self.view.steps(s) {
                    let mut n = self.view.clone();
                    n.apply_step(s, &a);
                    let v = Engine::static_eval(&n, me);
                    if v > here && best.as_ref().is_none_or(|b| v > b.0) {
                        best = Some((v, a.to_string()));
                    }
                }
                Some(best.map_or("stop".to_string(), |b| b.1))
            }
            Phase::Add => {
                let mut best = (Engine::static_eval(&self.view, me), "skip".to_string());
                for a in self.view.adds() {
                    let Action::Add(_, sq) = a else { continue };
                    let mut n = self.view.clone();
                    let i = me.index();
                    if let Some(p) = n.board[sq].as_mut() {
                        p.checkers[i] += 1;
                    }
                    n.reserve[i] -= 1;
                    n.cancel(sq);
                    let v = Engine::static_eval(&n, me) + noise(&mut self.rng, self.noise);
                    if v > best.0 {
                        best = (v, a.to_string());
                    }
                }
                Some(best.1)
            }
            _ => legal.first().cloned(),
        }
    }
}

fn card_is(card: char, c: Color) -> bool {
    card.is_ascii_uppercase() == (c == Color::White)
}

impl Player for Engine {
    fn see(&mut self, seen: &Seen) -> Result<(), PlayerError> {
        let observation = seen.text();
        self.view = super::state::parse(&self.view, observation, true, None).map_err(PlayerError::Unreadable)?;
        Ok(())
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, PlayerError> {
        match self.decide_now(legal) {
            Some(a) if legal.contains(&a) => Ok(a),
            _ => legal.first().cloned().ok_or(PlayerError::NoLegalAction),
        }
    }
}
