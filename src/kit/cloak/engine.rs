//! Menagerie's Cloak and Dagger player: an exact belief over the opponent's 960 assignments,
//! filtered by every observation (each enemy checker's moves, castling, guesses answered,
//! captures and uncloakings announced); guesses by expected value; moves valued by the chess
//! search on positions whose hidden types are sampled from the belief.

use super::{Cloak, Fact, Phase, Piece, arrays, attacks, parse_sq, state};
use crate::Color;
use crate::kit::chess::{self, move_values};
use crate::position::{Game, Position};
use crate::rules::Plain;
use crate::search::Searcher;
use crate::table::Seen;
use crate::table::Settings;
use crate::table::seats::{Player, PlayerError, number_options};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

/// What a won or lost king is worth in a move's value (centipawns).
const KING_VALUE: f64 = 50_000.0;

/// The player. Options: `samples=N` (assignments sampled per decision, default 4), `depth=N`
/// (search plies after each move, default 1), `noise=CP` (default 10), `bonus=CP` (what a
/// bonus is worth, both ways, for the guess; default 100), `seed=N`.
pub struct Engine {
    me: Color,
    view: Option<Cloak>,
    /// The opponent's assignments still possible.
    belief: Vec<[char; 8]>,
    samples: usize,
    depth: u32,
    noise: f64,
    bonus: f64,
    rng: StdRng,
    searcher: Searcher,
    game: Arc<Game<Plain>>,
    base: Cloak,
}

impl Engine {
    /// A player for `seat` (0 White, 1 Black).
    pub fn new(seat: usize, options: &Settings, seed: u64) -> Result<Engine, String> {
        let known = [
            ("samples", 1, 64, 4),
            ("depth", 1, 4, 1),
            ("noise", 0, 1000, 10),
            ("bonus", 0, 10_000, 100),
        ];
        let (v, own_seed) = number_options(options, &known)?;
        Ok(Engine {
            me: if seat == 0 { Color::White } else { Color::Black },
            view: None,
            belief: arrays().to_vec(),
            samples: v[0] as usize,
            depth: v[1] as u32,
            noise: v[2] as f64,
            bonus: v[3] as f64,
            rng: StdRng::seed_from_u64(own_seed.unwrap_or(seed)),
            searcher: chess::searcher(),
            game: chess::plain_game("chess960")?,
            base: Cloak::new(&Vec::new())?,
        })
    }

    /// The opponent's assignments still possible.
    pub fn belief(&self) -> &[[char; 8]] {
        &self.belief
    }

    fn filter(&mut self, checker: u8, ok: impl Fn(char) -> bool) {
        let i = (checker - 1) as usize;
        let kept: Vec<[char; 8]> = self.belief.iter().copied().filter(|a| ok(a[i])).collect();
        // An empty belief means the opponent did what no assignment allows (a bug, or a view
        // that started late): keep the old one rather than nothing.
        if !kept.is_empty() {
            self.belief = kept;
        }
    }

    /// Narrows the belief by what changed from `prev` to `now`.
    fn learn(&mut self, prev: Option<&Cloak>, now: &Cloak) {
        let them = !self.me;
        let facts: Vec<Fact> = now.facts().iter().copied().filter(|f| f.color == them).collect();
        for f in facts {
            self.filter(f.checker, |k| (k == f.kind) == f.is);
        }
        let Some(prev) = prev else { return };
        // A refused attempt of ours: it would have left our uncloaked king attacked, so only
        // the arrays under which it does so remain.
        if now.refused.len() > prev.refused.len()
            && let Some(a) = now.refused.last()
        {
            let mover = match now.phase {
                Phase::Bonus(c) => c,
                _ => now.side,
            };
            if mover == self.me {
                let kept: Vec<[char; 8]> = self
                    .belief
                    .iter()
                    .copied()
                    .filter(|arr| !with_types(now, them, arr).truly_legal(self.me, a))
                    .collect();
                if !kept.is_empty() {
                    self.belief = kept;
                }
            }
        }
        if now.last == prev.last {
            return;
        }
        let tag = if them == Color::White { "w:" } else { "b:" };
        let Some(mv) = now.last.strip_prefix(tag) else { return };
        if mv.len() < 4 || !mv.is_char_boundary(2) || !mv.is_char_boundary(4) {
            return;
        }
        let (Some(from), Some(to)) = (parse_sq(&mv[..2]), parse_sq(&mv[2..4])) else {
            return;
        };
        let b = prev.board();
        let Some(p) = b[from] else { return };
        if p.color != them || p.cloak == 0 {
            return;
        }
        if let Some(q) = b[to].filter(|q| q.color == them) {
            // Castling: the king takes its own rook.
            self.filter(p.cloak, |k| k == 'K');
            if q.cloak != 0 {
                self.filter(q.cloak, |k| k == 'R');
            }
            return;
        }
        let board = *b;
        self.filter(p.cloak, |k| attacks(&board, Piece { kind: k, ..p }, from, to));
    }

    /// Probability that enemy checker `n` is of type `k` under the belief.
    fn chance(&self, n: u8, k: char) -> f64 {
        let hits = self.belief.iter().filter(|a| a[(n - 1) as usize] == k).count();
        hits as f64 / self.belief.len().max(1) as f64
    }

    /// A position of the chess960 variant with the hidden types from `arr`, side `me` to move.
    fn sample_position(&self, view: &Cloak, arr: &[char; 8]) -> Option<Position<Plain>> {
        let kind = |p: Piece| {
            if p.kind == '?' && p.cloak != 0 {
                arr[(p.cloak - 1) as usize]
            } else {
                p.kind
            }
        };
        position(&self.game, view, kind, self.me)
    }

    /// The average value of each offered move over sampled assignments.
    fn values(&mut self, view: &Cloak, offered: &[String]) -> HashMap<String, f64> {
        let mut sum: HashMap<String, f64> = offered.iter().map(|a| (a.clone(), 0.0)).collect();
        let mut n = 0.0;
        for _ in 0..self.samples {
            let arr = self.belief[self.rng.random_range(0..self.belief.len())];
            let Some(mut pos) = self.sample_position(view, &arr) else {
                continue;
            };
            let vals: HashMap<String, f64> = move_values(&mut self.searcher, &mut pos, self.depth)
                .into_iter()
                .map(|(m, v)| (chess::text(&pos, m), v as f64))
                .collect();
            for (a, total) in sum.iter_mut() {
                let takes_king = a.len() >= 4
                    && parse_sq(&a[2..4]).is_some_and(|t| {
                        view.board()[t].is_some_and(|p| {
                            p.color != self.me
                                && (p.kind == 'K' || (p.kind == '?' && arr[(p.cloak.max(1) - 1) as usize] == 'K'))
                        })
                    });
                *total += if takes_king {
                    KING_VALUE
                } else {
                    // A move the chess rules refuse here (a cloaked king walking into check,
                    // or a move this sample says the referee would refuse) is worth the king:
                    // below every mate, so it is tried only when nothing else is left.
                    vals.get(a).copied().unwrap_or(-KING_VALUE)
                };
            }
            n += 1.0;
        }
        if n > 0.0 {
            for v in sum.values_mut() {
                *v /= n;
            }
        }
        sum
    }

    fn best(&mut self, candidates: &[String], values: &HashMap<String, f64>) -> Option<String> {
        let mut best: Option<(f64, String)> = None;
        for a in candidates {
            let noise = if self.noise > 0.0 {
                self.rng.random_range(-self.noise..self.noise)
            } else {
                0.0
            };
            let v = values.get(a).copied().unwrap_or(f64::NEG_INFINITY) + noise;
            if best.as_ref().is_none_or(|b| v > b.0) {
                best = Some((v, a.clone()));
            }
        }
        best.map(|b| b.1)
    }

    fn decide_now(&mut self, legal: &[String]) -> Result<String, String> {
        let view = self.view.clone().ok_or("no observation yet")?;
        let first = || legal.first().cloned().ok_or_else(|| "no legal action".to_string());
        match view.phase {
            Phase::Assign(_) => {
                let all = arrays();
                let a = all[self.rng.random_range(0..all.len())];
                Ok(format!("assign {}", a.iter().collect::<String>()))
            }
            Phase::Guess => {
                // The guess worth most: chance right x bonus, less chance wrong x the
                // opponent's bonus; none unless positive.
                let mut best: Option<(f64, String)> = None;
                for a in legal.iter().filter(|a| a.starts_with("guess ")) {
                    let w: Vec<&str> = a.split_whitespace().collect();
                    let (Some(n), Some(k)) = (
                        w.get(1).and_then(|n| n.parse::<u8>().ok()),
                        w.get(2).and_then(|k| k.chars().next()),
                    ) else {
                        continue;
                    };
                    let p = self.chance(n, k);
                    let ev = p * self.bonus - (1.0 - p) * self.bonus;
                    if best.as_ref().is_none_or(|b| ev > b.0) {
                        best = Some((ev, a.clone()));
                    }
                }
                match best {
                    Some((ev, a)) if ev > 0.0 => Ok(a),
                    _ => Ok("pass".into()),
                }
            }
            Phase::Move => {
                let values = self.values(&view, legal);
                self.best(legal, &values).map_or_else(first, Ok)
            }
            Phase::Bonus(_) => {
                let pawn_moves: Vec<String> = legal
                    .iter()
                    .filter(|a| a.len() >= 4 && !a.contains(' ') && *a != "pass")
                    .cloned()
                    .collect();
                if !pawn_moves.is_empty() {
                    let values = self.values(&view, &pawn_moves);
                    if let Some(a) = self.best(&pawn_moves, &values) {
                        return Ok(a);
                    }
                }
                // A drop nearest the centre files, else nothing.
                let drop = legal
                    .iter()
                    .filter(|a| a.starts_with("drop "))
                    .min_by_key(|a| (a.as_bytes()[5] as i32 - b'd' as i32).abs());
                Ok(drop.cloned().unwrap_or_else(|| "pass".into()))
            }
            Phase::Uncloak => {
                // Uncloak the king once the opponent knows what it is: nothing is lost, and an
                // uncloaked king cannot be walked into a capture.
                let king = view
                    .board()
                    .iter()
                    .flatten()
                    .find(|p| p.color == self.me && p.kind == 'K' && p.cloak != 0)
                    .map(|p| p.cloak);
                let known = king.is_some_and(|n| {
                    view.facts()
                        .iter()
                        .any(|f| f.color == self.me && f.checker == n && f.is)
                });
                let a = king.filter(|_| known).map(|n| format!("uncloak {n}"));
                Ok(a.filter(|a| legal.contains(a)).unwrap_or_else(|| "done".into()))
            }
            Phase::Over => first(),
        }
    }
}

/// The position of the chess960 variant on `state`'s board, each piece of the type `kind`
/// gives, `side` to move (the other side may stand in check); `None` when the board is no
/// position of the variant (a type unknown).
fn position(
    game: &Arc<Game<Plain>>,
    state: &Cloak,
    kind: impl Fn(Piece) -> char,
    side: Color,
) -> Option<Position<Plain>> {
    let b = state.board();
    let letter = |p: Piece| -> char {
        let k = kind(p);
        if p.color == Color::White {
            k
        } else {
            k.to_ascii_lowercase()
        }
    };
    let mut castling = String::new();
    for (c, rank) in [(Color::White, 0usize), (Color::Black, 7)] {
        let is = |s: usize, k: char| b[s].is_some_and(|p| p.color == c && letter(p).eq_ignore_ascii_case(&k));
        let king = (rank * 8..rank * 8 + 8).find(|&s| is(s, 'K') && state.unmoved >> s & 1 != 0);
        if king.is_none() {
            continue;
        }
        for s in rank * 8..rank * 8 + 8 {
            if is(s, 'R') && state.unmoved >> s & 1 != 0 {
                let f = (b'A' + (s % 8) as u8) as char;
                castling.push(if c == Color::White { f } else { f.to_ascii_lowercase() });
            }
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    chess::grid_position(game, |s| b[s].map(letter), side, &castling, state.ep)
}

/// The chess value of a true state (every type known), in centipawns for White: the
/// quiescence search's, with the side that moves next on the board to move; `None` when the
/// board is no chess960 position.
pub fn evaluation(state: &Cloak) -> Option<f64> {
    static GAME: LazyLock<Option<Arc<Game<Plain>>>> = LazyLock::new(|| chess::plain_game("chess960").ok());
    let game = GAME.as_ref()?;
    let side = match state.phase {
        Phase::Bonus(c) => c,
        Phase::Uncloak => !state.side,
        _ => state.side,
    };
    let mut pos = position(game, state, |p| p.kind, side)?;
    let e = f64::from(chess::leaf_value(&mut pos));
    Some(if side == Color::White { e } else { -e })
}

/// `view` with side `c`'s unknown cloaked types filled in from `arr`.
fn with_types(view: &Cloak, c: Color, arr: &[char; 8]) -> Cloak {
    let mut v = view.clone();
    for p in v.board.iter_mut().flatten() {
        if p.color == c && p.kind == '?' && p.cloak != 0 {
            p.kind = arr[(p.cloak - 1) as usize];
        }
    }
    v
}

impl Player for Engine {
    fn see(&mut self, seen: &Seen) -> Result<(), PlayerError> {
        let observation = seen.text();
        let now = state::parse(&self.base, observation, true, None).map_err(PlayerError::Unreadable)?;
        let prev = self.view.take();
        self.learn(prev.as_ref(), &now);
        self.view = Some(now);
        Ok(())
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, PlayerError> {
        let a = self.decide_now(legal).map_err(PlayerError::Failed)?;
        if legal.contains(&a) {
            Ok(a)
        } else {
            legal.first().cloned().ok_or(PlayerError::NoLegalAction)
        }
    }
}

/// IS-MCTS's belief of a Cloak seat ([`crate::table::mcts`]): the player's exact set of the
/// opponent's assignments, filtered by every observation; each draw writes one of them into
/// the seat's view.
pub struct Belief {
    engine: Result<Engine, String>,
}

impl Belief {
    /// The belief of `seat` (0 White, 1 Black) before any observation.
    pub fn new(seat: usize) -> Belief {
        Belief {
            engine: Engine::new(seat, &Vec::new(), 0),
        }
    }
}

impl crate::table::mcts::Belief<Cloak> for Belief {
    fn see(&mut self, observation: &String) -> Result<(), String> {
        let engine = self.engine.as_mut().map_err(|e| e.clone())?;
        Player::see(engine, &Seen::from_text(observation)).map_err(|e| e.to_string())
    }

    fn sample(&mut self, rng: &mut StdRng) -> Result<Cloak, String> {
        let e = self.engine.as_ref().map_err(|e| e.clone())?;
        let view = e.view.as_ref().ok_or("no observation yet")?;
        let them = !e.me;
        // Before the opponent's assignment its types are unknown in the true state too.
        if view.phase == Phase::Assign(them) || e.belief.is_empty() {
            return Ok(view.clone());
        }
        Ok(with_types(view, them, &e.belief[rng.random_range(0..e.belief.len())]))
    }
}
