//! Menagerie's hand-made Telepathy player (`engine:player=model`).

use super::{Action, CARDS, Phase, Telepathy};
use crate::kit::chess;
use crate::search::Searcher;
use crate::table::Seen;
use crate::table::seats::{Player, PlayerError, number_options};
use crate::table::{Settings, TableGame};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A move's value when it wins on the spot (above any search score).
const WIN_CP: i32 = 100_000;

/// Menagerie's player of a Telepathy seat. The predictor models its partner as a distribution
/// over the piece types of the engine's best moves (a softmax over the top moves' values) and
/// plays the card with the best expected marker step. The mover models its predictor the same
/// way and weighs each move's value against the chance that the face-down card names its piece
/// type. Each seat has its own seeded noise, so two engine partners do not read each other
/// perfectly. Options: `depth=N` (default 1), `noise=CP` (default 20), `temp=CP` (softmax
/// temperature, default 60), `step=CP` (what one marker step is worth, default 60), `seed=N`.
pub struct Engine {
    view: Telepathy,
    depth: u32,
    noise: i32,
    temp: f64,
    step: f64,
    rng: StdRng,
    searcher: Searcher,
}

impl Engine {
    pub(super) fn new(view: Telepathy, options: &Settings, seed: u64) -> Result<Engine, String> {
        let known = [
            ("depth", 1, 6, 1),
            ("noise", 0, 1000, 20),
            ("temp", 1, 10_000, 60),
            ("step", 0, 10_000, 60),
        ];
        let (v, own_seed) = number_options(options, &known)?;
        Ok(Engine {
            view,
            depth: v[0] as u32,
            noise: v[1] as i32,
            temp: v[2] as f64,
            step: v[3] as f64,
            rng: StdRng::seed_from_u64(own_seed.unwrap_or(seed)),
            searcher: chess::searcher(),
        })
    }

    /// Values of the side to move's moves with this seat's noise, and each move's piece type.
    fn values(&mut self) -> Vec<(String, char, f64)> {
        let mut pos = self.view.pos.clone();
        let moves = self.view.moves().to_vec();
        let vals = chess::move_values(&mut self.searcher, &mut pos, self.depth);
        // Taking an exposed king wins at once (the chess search would score the board after
        // it, where the side without a king has no move, as a stalemate).
        let kings = pos.royals(!pos.side_to_move());
        moves
            .into_iter()
            .map(|m| {
                let v = if kings.contains(m.to()) {
                    WIN_CP
                } else {
                    vals.iter().find(|x| x.0 == m).map_or(WIN_CP, |x| x.1)
                };
                let noise = if self.noise > 0 {
                    self.rng.random_range(-self.noise..=self.noise)
                } else {
                    0
                };
                (
                    chess::text(&self.view.pos, m),
                    self.view.type_on(m.from()),
                    f64::from(v + noise),
                )
            })
            .collect()
    }

    /// The partner's piece type as a distribution: softmax over the move values.
    fn type_odds(&self, vals: &[(String, char, f64)]) -> Vec<(char, f64)> {
        let top = vals.iter().map(|v| v.2).fold(f64::MIN, f64::max);
        let mut odds: Vec<(char, f64)> = Vec::new();
        for (_, t, v) in vals {
            let w = ((v - top) / self.temp).exp();
            match odds.iter_mut().find(|o| o.0 == *t) {
                Some(o) => o.1 += w,
                None => odds.push((*t, w)),
            }
        }
        let sum: f64 = odds.iter().map(|o| o.1).sum::<f64>().max(f64::MIN_POSITIVE);
        odds.iter_mut().for_each(|o| o.1 /= sum);
        odds
    }

    /// The expected marker steps (+1 towards the opponents) of each card of `hand`.
    fn card_gains(odds: &[(char, f64)], hand: &[char], face: char) -> Vec<(char, f64)> {
        let p = |t: char| odds.iter().find(|o| o.0 == t).map_or(0.0, |o| o.1);
        hand.iter()
            .map(|&c| {
                let hit = if c == 'C' { p(face) } else { p(c) };
                let same = if c == 'C' { 0.0 } else { p(face) };
                (c, hit - (1.0 - hit - same))
            })
            .collect()
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, String> {
        let t = self.view.team().index();
        match self.view.phase {
            Phase::Predict => {
                let vals = self.values();
                let odds = self.type_odds(&vals);
                let gains = Engine::card_gains(&odds, &self.view.hands[t], self.view.face_up[t]);
                let best = gains.iter().max_by(|a, b| a.1.total_cmp(&b.1)).ok_or("no card")?;
                Ok(format!("card {}", best.0))
            }
            Phase::Move => {
                let vals = self.values();
                let face = self.view.face_up[t];
                // The predictor held every card but the face-up one; it plays the card its own
                // model favours: here the same model, our noise standing in for its.
                let hand: Vec<char> = CARDS.iter().copied().filter(|&c| c != face).collect();
                let odds = self.type_odds(&vals);
                let gains = Engine::card_gains(&odds, &hand, face);
                let top = gains.iter().map(|g| g.1).fold(f64::MIN, f64::max);
                let mut card_odds: Vec<(char, f64)> = gains.iter().map(|g| (g.0, ((g.1 - top) * 4.0).exp())).collect();
                let sum: f64 = card_odds.iter().map(|c| c.1).sum();
                card_odds.iter_mut().for_each(|c| c.1 /= sum);
                let best = vals
                    .iter()
                    .map(|(text, ty, v)| {
                        let expected: f64 = card_odds
                            .iter()
                            .map(|(c, p)| {
                                let wanted = if *c == 'C' { face } else { *c };
                                p * if *ty == wanted {
                                    1.0
                                } else if *ty == face {
                                    0.0
                                } else {
                                    -1.0
                                }
                            })
                            .sum();
                        (text, v + self.step * expected)
                    })
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .ok_or("no move")?;
                Ok(best.0.clone())
            }
            Phase::Remove(c) => {
                // The piece whose loss hurts least, never one that leaves our king en prise.
                let mut best: Option<(String, i32)> = None;
                for a in legal {
                    let Ok(Action::Remove(sq)) = self.view.parse_action(a) else {
                        continue;
                    };
                    let mut pos = self.view.pos.clone();
                    pos.take_off(sq);
                    let mut v = pos.evaluate();
                    if pos.side_to_move() != c {
                        v = -v;
                    }
                    if pos.royal_in_danger(c) {
                        v -= WIN_CP;
                    }
                    if best.as_ref().is_none_or(|b| v > b.1) {
                        best = Some((a.clone(), v));
                    }
                }
                best.map(|b| b.0).ok_or_else(|| "nothing to remove".into())
            }
            Phase::Over => Err("the game is over".into()),
        }
    }
}

impl Player for Engine {
    fn see(&mut self, seen: &Seen) -> Result<(), PlayerError> {
        let observation = seen.text();
        // Hidden parts (the face-down card and the hand it left) are never used by a decision:
        // the view leaves them undealt.
        self.view = self.view.read_view(observation).map_err(PlayerError::Unreadable)?;
        Ok(())
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, PlayerError> {
        Engine::decide(self, legal).map_err(PlayerError::Failed)
    }
}
