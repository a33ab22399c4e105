//! Self-play data for fitting the evaluation: seeded games at a fixed node count from random
//! openings; the quiet positions of each game (side to move not in check, best move neither a
//! capture nor a promotion) are written with the game's result.
//!
//! Each game is a function of (seed, game number) alone: every game has a new searcher, so the
//! games of shard `I/N` (numbers `I-1`, `I-1+N`, ...) are the same lines a single run would
//! write, and shards never overlap.

use crate::color::Color;
use crate::games::GameVisitor;
use crate::moves::{MoveKind, MoveList};
use crate::position::{Game, Position};
use crate::rules::Rules;
use crate::search::{Limits, Searcher, Silent};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Random plies before the engine plays (one more in half the games, so both sides start).
const RANDOM_PLIES: u32 = 8;
/// A score (centipawns, side to move) held this long ends the game as a win.
const ADJUDICATE_SCORE: i32 = 1500;
const ADJUDICATE_PLIES: u32 = 6;
/// Transposition table per game (a few thousand nodes a move need little).
const HASH_MB: usize = 2;
/// A game this long is a draw.
const MAX_PLIES: u32 = 400;
/// Positions this decided are not written (their result says nothing about the terms).
const MAX_SAMPLE_SCORE: i32 = 1000;

/// What `menagerie datagen` was asked for.
#[derive(Clone, Debug)]
pub struct DatagenArgs {
    /// Games of the whole data set (all shards).
    pub games: u64,
    /// Search nodes per move.
    pub nodes: u64,
    /// Seed of the random openings.
    pub seed: u64,
    /// (I, N): this run plays the games whose number is I-1 modulo N.
    pub shard: (u64, u64),
}

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct DatagenStats {
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games Black won.
    pub black_wins: u64,
}

/// Plays the games of `args` and writes `FEN | RESULT` lines (RESULT 1.0, 0.5 or 0.0 for White)
/// to `out`; `progress` gets a line after each game.
pub struct Datagen<'a> {
    /// What to play.
    pub args: DatagenArgs,
    /// Where the lines go.
    pub out: &'a mut dyn Write,
    /// Called with a progress line after each game.
    pub progress: &'a mut dyn FnMut(&str),
}

impl GameVisitor for Datagen<'_> {
    type Output = Result<DatagenStats, String>;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Self::Output {
        let Datagen { args, out, progress } = self;
        let (index, count) = args.shard;
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {index}/{count}: want I/N with 1 <= I <= N"));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let mut stats = DatagenStats::default();
        let mut samples: Vec<String> = Vec::new();
        let start = Instant::now();
        for number in (index - 1..args.games).step_by(count as usize) {
            // A new searcher per game: cheaper than clearing one (its tables are zeroed pages
            // the OS hands out lazily), and the game depends on nothing before it.
            let mut searcher = Searcher::new(HASH_MB, stop.clone());
            samples.clear();
            let result = play_game(&game, &args, number, &mut searcher, &mut samples);
            let tag = match result {
                Some(Color::White) => {
                    stats.white_wins += 1;
                    "1.0"
                }
                Some(Color::Black) => {
                    stats.black_wins += 1;
                    "0.0"
                }
                None => "0.5",
            };
            for fen in &samples {
                writeln!(out, "{fen} | {tag}").map_err(|e| format!("writing the data: {e}"))?;
            }
            stats.games += 1;
            stats.positions += samples.len() as u64;
            let secs = start.elapsed().as_secs_f64().max(1e-9);
            progress(&format!(
                "datagen: game {} of {} (number {number}), {} positions, {:.0} positions/s",
                stats.games,
                args.games.saturating_sub(index - 1).div_ceil(count),
                stats.positions,
                stats.positions as f64 / secs
            ));
        }
        out.flush().map_err(|e| format!("writing the data: {e}"))?;
        Ok(stats)
    }
}

/// Plays game `number`; pushes its quiet positions; returns the winner (`None`: a draw).
fn play_game<R: Rules>(
    game: &Arc<Game<R>>,
    args: &DatagenArgs,
    number: u64,
    searcher: &mut Searcher,
    samples: &mut Vec<String>,
) -> Option<Color> {
    let mut rng = StdRng::seed_from_u64(args.seed ^ number.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut pos = Position::startpos(game.clone());
    let random = RANDOM_PLIES + (number & 1) as u32;
    let mut list = MoveList::new();
    for _ in 0..random {
        list.clear();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        pos.make_move(list[rng.random_range(0..list.len())]);
    }
    let mut decided = 0;
    let mut last_sign = 0;
    for _ in 0..MAX_PLIES {
        if let Some(end) = pos.outcome() {
            return end.winner;
        }
        let limits = Limits {
            nodes: Some(args.nodes),
            ..Limits::default()
        };
        let r = searcher.go(&mut pos, limits, &mut Silent);
        if r.best == crate::moves::Move::NONE {
            return None;
        }
        let sign = if r.score >= ADJUDICATE_SCORE {
            1
        } else if r.score <= -ADJUDICATE_SCORE {
            -1
        } else {
            0
        };
        // Scores alternate sides: the same winner shows as alternating signs.
        decided = if sign != 0 && sign == -last_sign {
            decided + 1
        } else {
            u32::from(sign != 0)
        };
        last_sign = sign;
        if decided >= ADJUDICATE_PLIES {
            let mover_wins = sign > 0;
            return Some(if mover_wins {
                pos.side_to_move()
            } else {
                !pos.side_to_move()
            });
        }
        let noisy = pos.victim(r.best).is_some() || r.best.kind() == MoveKind::Promotion || pos.in_check();
        if !noisy && r.score.abs() < MAX_SAMPLE_SCORE {
            samples.push(pos.fen());
        }
        pos.make_move(r.best);
    }
    None
}
