//! An RBC player: the belief set plus the choice of sense window and move, driven by the
//! `rbc-*` lines of `../shared/protocol.md` §4.
//!
//! Both decisions start from one table: every distinct requestable move (and the pass) scored
//! on each of a sample of boards, by playing the referee's revision of it and searching the
//! opponent's reply. Sensing: a window splits the sample into groups by what it would show;
//! it scores the expected value of the best move of each group, so it is worth most when it
//! tells apart boards that need different moves; its sample always holds the boards on which
//! our king stands attacked, however rare, weighted to their true share. Moving: a move's
//! value mixes the mean and the worst case over the sample, less a penalty for the share of a
//! wider sample on which the opponent could then take our king, plus a bonus for castling
//! (the king leaves the square where the opponent last saw it); when the table searched one
//! ply of reply, the best few moves are valued again at two (a reply that threatens our king
//! shows only there). A move that captures the king on every board of the belief is played at
//! once.

use super::belief::{Belief, Board, Fixed, MAX_BOARDS, REDRAW_BUDGET};
use super::{Rbc, Request};
use crate::color::Color;
use crate::moves::{Move, MoveKind};
use crate::position::{Piece, Position};
use crate::search::{Limits, MATE, MATE_BOUND, Searcher, Silent};
use crate::square::Square;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Weight of the mean in a move's value (the rest is the worst case).
const MEAN_WEIGHT: i32 = 70;

/// The worst case of a move over weighted boards is its mean over the lowest 1/WORST_SHARE of
/// the weight (the lowest board of an evenly weighted sample of up to this many).
const WORST_SHARE: i64 = 256;

/// Bonus for castling (on most boards): the king leaves the square where the opponent last
/// saw it, and a king that the opponent cannot find is hard to capture.
const CASTLE_BONUS: i32 = 60;

/// Penalty for leaving our king capturable on every board (scaled by the share of boards).
const DANGER: i64 = 20_000;

/// Half-moves without a capture or pawn move after which pawn moves earn a bonus (the
/// referee draws at 100).
const DRAW_WATCH: u32 = 60;

/// Most nodes for one search of a reply (the last finished depth counts): a deep search in a
/// wild position must not hold up a decision (a row of the table is not cut short).
const SEARCH_NODES: u64 = 50_000;

/// Boards sampled to choose the sense window.
const SENSE_BOARDS: usize = 128;

/// Boards sampled to value the moves.
const MOVE_BOARDS: usize = 160;

/// Moves valued again one ply deeper when the first pass searched one ply: a reply that
/// threatens our king next turn shows only at two.
const REFINE_MOVES: usize = 6;

/// Boards (of the move sample) for the deeper pass.
const REFINE_BOARDS: usize = 96;

/// Most seconds for a turn (sense and move) by default, when the clock allows: a game at
/// 900 s has time for far more than the fixed samples, and deeper replies find more.
pub const TURN_SECONDS: f64 = 10.0;

/// A turn's share of the clock left (its 20th): the plan never runs the clock down, however
/// long the game.
const TURN_SHARE: f64 = 20.0;

/// Share of a turn for the sense; the move takes the rest (from the clock it finds).
const SENSE_SHARE: f64 = 0.4;

/// With time to spend: boards sampled to choose the sense window, to value the moves, and
/// the deepest reply search of the move's refinement.
const TIMED_SENSE_BOARDS: usize = 384;
const TIMED_MOVE_BOARDS: usize = 320;
const TIMED_MAX_DEPTH: u32 = 8;
const TIMED_SEARCH_NODES: u64 = 200_000;

/// One game of RBC as one side sees it.
pub struct RbcPlayer {
    belief: Belief,
    searcher: Searcher,
    rng: StdRng,
    /// The opponent has had a turn since our last move (false only for White's first turn).
    opponent_due: bool,
    /// Time per decision when the client gives none.
    pub budget: Duration,
    /// Most time for a turn (sense and move) when the clock allows ([`TURN_SECONDS`]); zero:
    /// decisions bounded by fixed samples, as with [`RbcPlayer::fixed_work`] (fast tests).
    pub turn_limit: Duration,
    /// Decisions ignore the clock and value every sampled board, so that the same seed and the
    /// same observations give the same decisions (tests, reproducible matches).
    pub fixed_work: bool,
    /// With fixed work, its share in per cent (1..=100): the samples, the reply searches'
    /// nodes and the belief's boards shrink with it ([`RbcPlayer::set_work`]).
    work: u32,
    /// Half-moves since the last capture or pawn move we know of: an upper bound on the
    /// referee's half-move clock (the opponent's pawn moves are not seen).
    quiet_plies: u32,
    /// Explain each decision on stderr (environment variable `MENAGERIE_RBC_DEBUG` set).
    debug: bool,
}

impl RbcPlayer {
    /// A player of `pos` (the start position) for `me`.
    pub fn new(pos: &Position<Rbc>, me: Color) -> RbcPlayer {
        RbcPlayer::with_seed(pos, me, 0x0052_4243)
    }

    /// [`RbcPlayer::new`] whose every random choice (belief samples, decision samples) comes
    /// from generators seeded with `seed`.
    pub fn with_seed(pos: &Position<Rbc>, me: Color, seed: u64) -> RbcPlayer {
        RbcPlayer {
            belief: Belief::with_seed(pos, me, seed ^ 0x5eed),
            searcher: Searcher::new(16, Arc::new(AtomicBool::new(false))),
            rng: StdRng::seed_from_u64(seed),
            fixed_work: false,
            work: 100,
            opponent_due: me == Color::Black,
            budget: Duration::from_millis(500),
            turn_limit: Duration::from_secs_f64(TURN_SECONDS),
            quiet_plies: 0,
            debug: std::env::var_os("MENAGERIE_RBC_DEBUG").is_some(),
        }
    }

    /// The belief.
    pub fn belief(&self) -> &Belief {
        &self.belief
    }

    /// The belief, to change its bounds (tests).
    pub fn belief_mut(&mut self) -> &mut Belief {
        &mut self.belief
    }

    /// Weigh the opponent's moves by their value for it (the default), or all alike.
    pub fn set_opponent_model(&mut self, on: bool) {
        self.belief.quality = on;
    }

    /// Turn start: where the opponent captured one of ours (or nowhere).
    pub fn opponent(&mut self, capture: Option<Square>) -> Result<(), String> {
        if !self.opponent_due {
            self.opponent_due = true;
            return if capture.is_none() {
                Ok(())
            } else {
                Err("a capture before the opponent has moved".into())
            };
        }
        self.quiet_plies = if capture.is_some() { 0 } else { self.quiet_plies + 1 };
        self.belief.opponent_moved(capture)
    }

    /// A sense result.
    pub fn seen(&mut self, result: &[(Square, Piece)]) -> Result<(), String> {
        self.belief.seen(result)
    }

    /// Our move's result.
    pub fn result(&mut self, req: Option<Request>, taken: Option<&str>, capture: Option<Square>) -> Result<(), String> {
        let pawn = req.is_some_and(|r| taken.is_some() && self.is_pawn(r));
        self.quiet_plies = if pawn || capture.is_some() {
            0
        } else {
            self.quiet_plies + 1
        };
        self.belief.own_result(req, taken, capture)
    }

    /// True when the request moves one of our pawns (our pieces are the same on every board).
    fn is_pawn(&self, r: Request) -> bool {
        let p = self.belief.boards().first().map_or(Piece::NONE, |b| b.at(r.from));
        p.is_some() && self.belief.game().pawn_kinds >> p.kind() & 1 != 0
    }

    /// Fixed work at `percent` (1..=100) of the default: the samples to sense and to value
    /// moves, the reply searches' nodes, and the most boards the belief keeps and redraws.
    pub fn set_work(&mut self, percent: u32) {
        self.work = percent.clamp(1, 100);
        self.belief.max_boards = self.share(MAX_BOARDS);
        self.belief.redraw_budget = self.share(REDRAW_BUDGET);
    }

    /// `n` (a fixed sample or budget) at the player's share of work, at least 1.
    fn share(&self, n: usize) -> usize {
        (n * self.work as usize / 100).max(1)
    }

    /// True when decisions fill the time the plan gives them (larger samples, deeper
    /// refinement), not only fixed samples.
    fn timed(&self) -> bool {
        !self.fixed_work && !self.turn_limit.is_zero()
    }

    /// Time for one decision out of `seconds_left` on our clock. Timed: the sense takes
    /// [`SENSE_SHARE`] of a turn, the move the rest, a turn being a [`TURN_SHARE`]th of the
    /// clock and at most the turn limit. Else a 40th of the clock, at most four budgets.
    fn time_for(&self, seconds_left: Option<f64>, sense: bool) -> Duration {
        let Some(s) = seconds_left.filter(|s| s.is_finite() && *s > 0.0) else {
            return self.budget;
        };
        if !self.timed() {
            let t = Duration::from_secs_f64((s / 40.0).min(self.budget.as_secs_f64() * 4.0).max(0.05));
            return if sense { t / 2 } else { t };
        }
        let turn = (s / TURN_SHARE).min(self.turn_limit.as_secs_f64());
        let share = if sense { SENSE_SHARE } else { 1.0 - SENSE_SHARE };
        Duration::from_secs_f64((turn * share).max(0.05))
    }

    /// At most `n` boards standing for `pool` (boards with their probabilities), each with a
    /// weight, the weights summing to the pool's probability: the whole pool when it is small,
    /// else `n` draws with replacement by probability (a board drawn twice weighs twice).
    fn draw(&mut self, pool: &[(Board, f64)], n: usize) -> Vec<(Board, f64)> {
        if pool.len() <= n {
            return pool.to_vec();
        }
        let mass: f64 = pool.iter().map(|p| p.1).sum();
        let mut cumulative = Vec::with_capacity(pool.len());
        let mut acc = 0.0;
        for p in pool {
            acc += p.1;
            cumulative.push(acc);
        }
        let mut counts: HashMap<usize, u32, Fixed> = HashMap::default();
        for _ in 0..n {
            let x = self.rng.random_range(0.0..acc.max(f64::MIN_POSITIVE));
            let i = cumulative.partition_point(|&c| c <= x).min(pool.len() - 1);
            *counts.entry(i).or_default() += 1;
        }
        let mut out: Vec<(usize, u32)> = counts.into_iter().collect();
        out.sort_unstable();
        out.into_iter()
            .map(|(i, c)| (pool[i].0, mass * c as f64 / n as f64))
            .collect()
    }

    /// The belief's boards with their probabilities.
    fn pool(&self) -> Vec<(Board, f64)> {
        let b = self.belief.boards();
        b.iter().copied().zip(self.belief.probabilities()).collect()
    }

    /// A sample of at most `n` boards by probability, with integer weights for averages.
    fn sample(&mut self, n: usize) -> (Vec<Board>, Vec<i64>) {
        let pool = self.pool();
        let mut out = self.draw(&pool, n);
        out.shuffle(&mut self.rng); // a sample cut short by the clock stays a fair one
        split(out)
    }

    /// Like [`RbcPlayer::sample`], but the boards on which our king stands attacked are always
    /// in it (up to a quarter of the sample), however unlikely, with weights that keep the
    /// averages right: an opponent who knows where our king is goes for it, so such a board is
    /// the one a sample must not miss.
    fn sample_weighted(&mut self, n: usize) -> (Vec<Board>, Vec<i64>) {
        let mut pool = self.pool();
        if pool.len() <= n {
            pool.shuffle(&mut self.rng);
            return split(pool);
        }
        let mut threats = Vec::new();
        let mut others = Vec::new();
        for p in pool {
            if self.threatened(&p.0) {
                threats.push(p);
            } else {
                others.push(p);
            }
        }
        let mut out = self.draw(&threats, n / 4);
        let rest = n - out.len();
        out.extend(self.draw(&others, rest));
        out.shuffle(&mut self.rng);
        split(out)
    }

    /// Our score on board `b` after request `r` (revised by the referee), from a shallow search
    /// of the opponent's reply (depth 0: the static evaluation).
    fn score_after(&mut self, b: &Board, r: Option<Request>, depth: u32) -> i32 {
        let nodes = if self.timed() {
            TIMED_SEARCH_NODES
        } else {
            self.share(SEARCH_NODES as usize) as u64
        };
        let Some(pos) = play_request(&mut self.belief, b, r) else {
            return 30_000; // the king is taken: the game is won
        };
        if depth == 0 {
            return -pos.evaluate();
        }
        let limits = Limits {
            depth: Some(depth),
            nodes: Some(nodes),
            ..Limits::default()
        };
        let res = self.searcher.go(pos, limits, &mut Silent);
        // Mate scores keep their distance (a faster win ranks higher) below a capture now.
        let s = -res.score;
        if s.abs() >= MATE_BOUND {
            s.signum() * (29_000 - (MATE - s.abs()))
        } else {
            s
        }
    }

    /// The distinct requests worth trying, plus the pass (`None`).
    fn candidates(&mut self) -> Vec<Option<Request>> {
        let mut reqs = self.belief.move_actions();
        reqs.sort_by_key(|r| (r.from.index(), r.to.index(), r.promo));
        reqs.dedup();
        // Under-promotions are never better here than the queen.
        let queen = self.belief.game().rules.queen;
        reqs.retain(|r| r.promo.is_none_or(|k| k == queen));
        let mut out: Vec<Option<Request>> = reqs.into_iter().map(Some).collect();
        out.push(None);
        out
    }

    /// Scores of every candidate on each board, one row per board (our view after the
    /// request and `depth` plies of reply). Stops at the deadline once a row is done.
    fn matrix(&mut self, cands: &[Option<Request>], boards: &[Board], depth: u32, deadline: Instant) -> Vec<Vec<i32>> {
        let mut rows = Vec::with_capacity(boards.len());
        for b in boards {
            if !self.fixed_work && !rows.is_empty() && Instant::now() > deadline {
                break;
            }
            rows.push(cands.iter().map(|&c| self.score_after(b, c, depth)).collect());
        }
        rows
    }

    /// The move to request (`None`: pass), within the time for one decision.
    pub fn choose_move(&mut self, seconds_left: Option<f64>) -> Option<Request> {
        let start = Instant::now();
        let budget = self.time_for(seconds_left, false);
        let cands = self.candidates();
        // A move that takes the king on every board of the belief: play it.
        let (all, _) = self.sample(2_000);
        for &c in &cands {
            if c.is_some() && all.iter().all(|b| self.takes_king(b, c)) {
                return c;
            }
        }
        // A plain sample by weight: holding the rare threats to our king in every move sample
        // made the player guard against them turn after turn and never make progress (tried:
        // 74a4f31, dc9813b). Sensing looks for them instead.
        let timed = self.timed();
        let n = if timed {
            TIMED_MOVE_BOARDS
        } else {
            self.share(MOVE_BOARDS)
        };
        let (boards, board_weights) = self.sample(n);
        let depth = self.move_depth(boards.len(), n, cands.len());
        // Timed, the first table leaves half the time at least for the deeper passes.
        let table_end = start + if timed { budget / 2 } else { budget };
        let rows = self.matrix(&cands, &boards, depth, table_end);
        let all_rows: Vec<usize> = (0..rows.len()).collect();
        let weights = &board_weights[..rows.len()];
        let mut vals: Vec<i32> = (0..cands.len()).map(|c| mixed(&rows, weights, &all_rows, c)).collect();
        let searched = vals.clone();
        self.threat_penalties(&cands, &mut vals);
        self.keep_going_bonuses(&cands, &boards, &mut vals);
        // The best few again, a ply deeper each pass while the time lasts (untimed: once, at
        // two plies, after a one-ply table), on as many boards as the clock allows; their
        // penalties and bonuses stay.
        let adjust: Vec<i32> = vals.iter().zip(&searched).map(|(v, s)| v - s).collect();
        let (max_depth, refine_boards) = match (timed, depth) {
            (true, _) => (TIMED_MAX_DEPTH, boards.len()),
            (false, 1) => (2, self.share(REFINE_BOARDS)),
            (false, _) => (depth, 0),
        };
        let (mut deeper, mut reached) = (0, depth);
        while reached < max_depth && !(timed && Instant::now() >= start + budget) {
            let mut order: Vec<usize> = (0..cands.len()).collect();
            order.sort_by_key(|&i| (-vals[i], cands[i].is_none()));
            order.truncate(REFINE_MOVES);
            let sub: Vec<Option<Request>> = order.iter().map(|&i| cands[i]).collect();
            let probe = &boards[..boards.len().min(refine_boards)];
            let deep = self.matrix(&sub, probe, reached + 1, start + budget);
            if deep.len() < probe.len().min(16) {
                break; // too few boards to trust
            }
            deeper = deep.len();
            reached += 1;
            let idx: Vec<usize> = (0..deep.len()).collect();
            let w = &board_weights[..deep.len()];
            let mut refined = vec![i32::MIN / 2; cands.len()];
            for (j, &i) in order.iter().enumerate() {
                refined[i] = mixed(&deep, w, &idx, j) + adjust[i];
            }
            vals = refined;
        }
        // Ties go to a move rather than the pass.
        let best = (0..cands.len())
            .max_by_key(|&i| (vals[i], cands[i].is_some()))
            .unwrap_or(cands.len() - 1);
        if self.debug {
            let (valued, elapsed) = (rows.len(), start.elapsed());
            self.debug_move(
                &cands,
                &vals,
                format!("{valued} valued at depth {depth}, {deeper} at {reached}, {elapsed:?}"),
            );
        }
        cands[best]
    }

    /// The depth of the first table for `cands` candidates on `sampled` boards of the `wanted`
    /// asked: deeper when there is little to value (a small belief: mates come into view).
    /// With a share of the work, as deep as the whole sample would be: the belief's boards when
    /// they all fit, else the sample scaled up (never past the belief).
    fn move_depth(&self, sampled: usize, wanted: usize, cands: usize) -> u32 {
        let whole = if sampled < wanted {
            sampled
        } else {
            (sampled * 100 / self.work as usize).min(self.belief.boards().len())
        };
        match whole * cands {
            n if n > 4_000 => 1,
            n if n > 600 => 2,
            n if n > 150 => 3,
            _ => 4,
        }
    }

    /// Known threats: on a wider sample, how often the opponent could take our king after
    /// each candidate; the more boards, the larger the penalty, and one for any board at all.
    fn threat_penalties(&mut self, cands: &[Option<Request>], vals: &mut [i32]) {
        let (wide, wide_weights) = self.sample(256);
        let wide_total: i64 = wide_weights.iter().sum();
        for (i, &c) in cands.iter().enumerate() {
            let mut exposed = 0i64;
            for (b, w) in wide.iter().zip(&wide_weights) {
                if self.king_exposed(b, c) {
                    exposed += w;
                }
            }
            vals[i] -= (DANGER * exposed / wide_total.max(1)) as i32;
            if exposed > 0 {
                vals[i] -= (DANGER / 8) as i32; // any board at all: the opponent may know it
            }
        }
    }

    /// Bonuses for moves that keep the game going: a pawn move near the 100-half-move draw,
    /// castling (which hides the king).
    fn keep_going_bonuses(&mut self, cands: &[Option<Request>], boards: &[Board], vals: &mut [i32]) {
        // Near the 100-half-move draw, while not behind: a pawn move that goes through on
        // most boards keeps the game going.
        let top = vals.iter().copied().max().unwrap_or(0);
        if self.quiet_plies >= DRAW_WATCH && top > -100 {
            let bonus = 10 * (self.quiet_plies - DRAW_WATCH + 1) as i32;
            let probe = &boards[..boards.len().min(32)];
            for (i, &c) in cands.iter().enumerate() {
                if let Some(r) = c.filter(|&r| self.is_pawn(r)) {
                    let through = probe.iter().filter(|b| self.plays_as_requested(b, r)).count();
                    if 2 * through > probe.len() {
                        vals[i] += bonus;
                    }
                }
            }
        }
        // Castling hides the king: the opponent (TroutBot's board) expects it on its square
        // until it looks again.
        let probe = &boards[..boards.len().min(32)];
        for (i, &c) in cands.iter().enumerate() {
            if let Some(r) = c.filter(|&r| self.is_king(r)) {
                let through = probe.iter().filter(|b| self.castles(b, r)).count();
                if 2 * through > probe.len() {
                    vals[i] += CASTLE_BONUS;
                }
            }
        }
    }

    /// The debug line of a chosen move: the belief, `searched` (how deep), the best five.
    fn debug_move(&mut self, cands: &[Option<Request>], vals: &[i32], searched: String) {
        let mut order: Vec<usize> = (0..cands.len()).collect();
        order.sort_by_key(|&i| -vals[i]);
        let top: Vec<String> = order
            .iter()
            .take(5)
            .map(|&i| format!("{} {}", self.text(cands[i]), vals[i]))
            .collect();
        let threats = self.threatened_boards();
        eprintln!(
            "# rbc move: {} boards ({threats} with our king attacked), pass rate {:.2}, {searched}; best {}",
            self.belief.boards().len(),
            self.belief.pass_rate(),
            top.join(", ")
        );
    }

    /// How many boards of the belief have our king attacked (for the debug lines).
    fn threatened_boards(&mut self) -> usize {
        let all = self.belief.boards().to_vec();
        all.iter().filter(|b| self.threatened(b)).count()
    }

    /// True when our king stands attacked on board `b` (the opponent could take it now).
    fn threatened(&mut self, b: &Board) -> bool {
        let me = self.belief.me();
        self.belief.position_of(b, me).royal_in_danger(me)
    }

    /// True when, after request `c` on board `b`, the opponent could take our king.
    fn king_exposed(&mut self, b: &Board, c: Option<Request>) -> bool {
        let me = self.belief.me();
        match play_request(&mut self.belief, b, c) {
            Some(pos) => pos.royal_in_danger(me),
            None => false, // the game is over
        }
    }

    /// The move the referee makes of request `r` on board `b` (`None`: the request fails).
    fn revised(&mut self, b: &Board, r: Request) -> Option<Move> {
        let me = self.belief.me();
        let game = Arc::clone(self.belief.game());
        let pos = self.belief.position_of(b, me);
        let rules = &game.rules;
        rules.revise(pos, rules.with_default_promotion(pos, r))
    }

    /// True when request `r` is played as asked on board `b` (not cut short, not failed).
    fn plays_as_requested(&mut self, b: &Board, r: Request) -> bool {
        self.revised(b, r).is_some_and(|m| m.from() == r.from && m.to() == r.to)
    }

    /// True when request `r` castles on board `b`.
    fn castles(&mut self, b: &Board, r: Request) -> bool {
        self.revised(b, r).is_some_and(|m| m.kind() == MoveKind::Castle)
    }

    /// True when the request moves our king (our pieces are the same on every board).
    fn is_king(&self, r: Request) -> bool {
        let p = self.belief.boards().first().map_or(Piece::NONE, |b| b.at(r.from));
        p.is_some() && self.belief.game().royal_kinds >> p.kind() & 1 != 0
    }

    /// True when request `c` takes the opponent's king on board `b`.
    fn takes_king(&mut self, b: &Board, c: Option<Request>) -> bool {
        c.is_some() && play_request(&mut self.belief, b, c).is_none()
    }

    /// The square to sense around (`None`: no sense): the window whose outcome is worth most
    /// to the move that follows. Every candidate move is scored on a sample of boards; a
    /// window splits the sample into groups by what it would show, the best move of each group
    /// is taken, and the window scores the expected value of those moves (ties: the window
    /// that leaves fewer boards).
    pub fn choose_sense(&mut self, seconds_left: Option<f64>) -> Option<Square> {
        let start = Instant::now();
        let budget = self.time_for(seconds_left, true);
        let n = if self.timed() {
            TIMED_SENSE_BOARDS
        } else {
            self.share(SENSE_BOARDS)
        };
        let (boards, board_weights) = self.sample_weighted(n);
        if boards.len() <= 1 {
            return self.default_sense(&boards);
        }
        let cands = self.candidates();
        let rows = self.matrix(&cands, &boards, 1, start + budget);
        let weights = &board_weights[..rows.len()];
        let total: i64 = weights.iter().sum::<i64>().max(1);
        let g = self.belief.game().variant.geometry.clone();
        let mut scored: Vec<(i64, i64, Square)> = Vec::new();
        let mut groups: HashMap<u64, Vec<usize>, Fixed> = HashMap::default();
        for center in g.board {
            let (f, r) = (g.file_of(center), g.rank_of(center));
            if f == 0 || r == 0 || f == 7 || r == 7 {
                continue; // an edge window shows less than the interior one beside it
            }
            groups.clear();
            for (i, b) in boards.iter().take(rows.len()).enumerate() {
                groups.entry(window_key(b, center, &g)).or_default().push(i);
            }
            let mut value = 0i64;
            let mut size = 0i64;
            for idx in groups.values() {
                let top = (0..cands.len())
                    .map(|c| mixed(&rows, weights, idx, c))
                    .max()
                    .unwrap_or(0);
                value += top as i64 * idx.iter().map(|&i| weights[i]).sum::<i64>();
                size += (idx.len() * idx.len()) as i64;
            }
            // Expected value per board, in steps of 5 cp so that near-ties go to the size.
            let value = value / total / 5;
            scored.push((value, size, center));
        }
        scored.sort_by_key(|&(v, s, c)| (-v, s, c.index()));
        if self.debug {
            let top: Vec<String> = scored
                .iter()
                .take(5)
                .map(|&(v, s, c)| format!("{} {} ({})", g.name(c), v * 5, s / rows.len() as i64))
                .collect();
            let threats = self.threatened_boards();
            eprintln!(
                "# rbc sense: {} boards ({threats} with our king attacked), {} valued, {:?}; best {}",
                self.belief.boards().len(),
                rows.len(),
                start.elapsed(),
                top.join(", ")
            );
        }
        scored.first().map(|b| b.2)
    }

    /// Where to look when the belief is one board: around the enemy king.
    fn default_sense(&mut self, boards: &[Board]) -> Option<Square> {
        let me = self.belief.me();
        let b = boards.first()?;
        let game = Arc::clone(self.belief.game());
        let g = &game.variant.geometry;
        let king = (0..64).map(Square::new).find(|&s| {
            let p = b.at(s);
            p.is_some() && p.color() != me && game.royal_kinds >> p.kind() & 1 != 0
        })?;
        let f = g.file_of(king).clamp(1, 6);
        let r = g.rank_of(king).clamp(1, 6);
        g.square(f, r)
    }

    /// Move text of a request.
    pub fn text(&self, r: Option<Request>) -> String {
        r.map_or("pass".into(), |r| r.text(&self.belief.game().variant))
    }
}

/// Boards and integer weights (parts per 10^9) from boards with probabilities.
fn split(v: Vec<(Board, f64)>) -> (Vec<Board>, Vec<i64>) {
    let total: f64 = v.iter().map(|p| p.1).sum::<f64>().max(f64::MIN_POSITIVE);
    v.into_iter()
        .map(|(b, w)| (b, ((w / total) * 1e9).round().max(1.0) as i64))
        .unzip()
}

/// Value of candidate `c` over the rows `idx`: the weighted mean and the worst case, mixed.
/// The worst case is the mean of the lowest 1/[`WORST_SHARE`] of the weight: the lowest row when
/// the rows weigh alike, while a rare board that was put into the sample to be sure it is
/// seen counts only as much as it weighs.
fn mixed(rows: &[Vec<i32>], weights: &[i64], idx: &[usize], c: usize) -> i32 {
    if idx.is_empty() {
        return 0;
    }
    let (mut sum, mut total) = (0i64, 0i64);
    let mut by_value: Vec<(i32, i64)> = Vec::with_capacity(idx.len());
    for &i in idx {
        sum += rows[i][c] as i64 * weights[i];
        total += weights[i];
        by_value.push((rows[i][c], weights[i]));
    }
    let mean = (sum / total.max(1)) as i32;
    by_value.sort_unstable();
    let tail = (total / WORST_SHARE).max(1);
    let (mut left, mut tail_sum) = (tail, 0i64);
    for (v, w) in by_value {
        let take = w.min(left);
        tail_sum += v as i64 * take;
        left -= take;
        if left == 0 {
            break;
        }
    }
    let worst = (tail_sum / (tail - left).max(1)) as i32;
    (MEAN_WEIGHT * mean + (100 - MEAN_WEIGHT) * worst) / 100
}

/// Plays request `c` (`None`: pass) on board `b` as the referee would (revised, a null move
/// when it fails) in the belief's scratch position, our side to move. `None` when the move
/// takes the opponent's king (the game is won), else the position after it.
fn play_request<'a>(belief: &'a mut Belief, b: &Board, c: Option<Request>) -> Option<&'a mut Position<Rbc>> {
    let me = belief.me();
    let game = Arc::clone(belief.game());
    let pos = belief.position_of(b, me);
    let rules = &game.rules;
    match c.and_then(|r| rules.revise(pos, rules.with_default_promotion(pos, r))) {
        Some(m) => {
            let t = pos.piece_at(m.to());
            if m.kind() != MoveKind::Castle && t.is_some() && t.color() != me && game.royal_kinds >> t.kind() & 1 != 0 {
                return None;
            }
            pos.make_move(m);
        }
        None => pos.make_null(),
    }
    Some(pos)
}

/// A hash of what the window around `center` shows on `b`.
fn window_key(b: &Board, center: Square, g: &crate::Geometry) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for dr in [1, 0, -1] {
        for df in [-1, 0, 1] {
            if let Some(s) = g.offset(center, df, dr) {
                h = (h ^ b.at(s).code() as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    h
}

/// The `rbc-*` lines of `../shared/protocol.md` §4 for one game: `rbc-color` starts a player;
/// `rbc-opp`, `rbc-seen` and `rbc-result` feed its belief; `rbc-sense` and `rbc-go` ask for a
/// decision (`sense SQ|pass`, `move UCI|pass`); our extensions: `rbc-stats` answers
/// `stats boards N sampled 0|1 rebuilds N redraws N exact N`, `rbc-turn SECONDS` sets the most time a turn
/// may take (sense and move; 0: fixed samples, fast), and `rbc-truth FEN` (for referees that test the
/// belief) answers `truth in|out sampled 0|1 p P`: whether that true board is in the set, and
/// its probability there.
pub struct RbcGame {
    start: Position<Rbc>,
    player: Option<RbcPlayer>,
    /// Most time for a turn, from `rbc-turn` (`None`: the player's default).
    turn_limit: Option<Duration>,
}

impl RbcGame {
    /// A game of `variant` from `fen` (empty: its start position).
    pub fn new(game: Arc<crate::position::Game<Rbc>>, fen: &str) -> Result<RbcGame, String> {
        let start = Position::from_fen_or_start(game, fen).map_err(|e| e.to_string())?;
        Ok(RbcGame {
            start,
            player: None,
            turn_limit: None,
        })
    }

    /// A game from `start` already told its colour, whose player decides by a fixed amount of
    /// work (`work` per cent of the default, [`RbcPlayer::set_work`]) from generators seeded
    /// with `seed`: the same observations give the same decisions.
    pub fn seeded(start: Position<Rbc>, me: Color, seed: u64, work: u32) -> RbcGame {
        let mut player = RbcPlayer::with_seed(&start, me, seed);
        player.fixed_work = true;
        player.set_work(work);
        RbcGame {
            start,
            player: Some(player),
            turn_limit: None,
        }
    }

    /// The player's belief, once it knows its colour.
    pub fn belief(&self) -> Option<&super::belief::Belief> {
        self.player.as_ref().map(|p| p.belief())
    }

    fn square(&self, s: &str) -> Result<Square, String> {
        self.start
            .variant()
            .geometry
            .parse(s)
            .ok_or_else(|| format!("'{s}' is not a square"))
    }

    fn opt_square(&self, s: &str) -> Result<Option<Square>, String> {
        if s == "none" || s == "-" {
            Ok(None)
        } else {
            self.square(s).map(Some)
        }
    }

    fn request(&self, s: &str) -> Result<Option<Request>, String> {
        if s == "pass" || s == "none" {
            return Ok(None);
        }
        Request::parse(self.start.variant(), s)
            .map(Some)
            .ok_or_else(|| format!("'{s}' is not a move"))
    }

    /// `rbc-color white|black`: a new game, played by our player for that colour.
    fn set_color(&mut self, args: &[&str]) -> Result<(), String> {
        let me = match args.first().copied() {
            Some("white") => Color::White,
            Some("black") => Color::Black,
            _ => return Err("expected 'rbc-color white|black'".into()),
        };
        let mut player = RbcPlayer::new(&self.start, me);
        if let Some(t) = self.turn_limit {
            player.turn_limit = t;
        }
        self.player = Some(player);
        Ok(())
    }

    /// `rbc-turn SECONDS`: the time a turn may take (0 to 3600).
    fn set_turn(&mut self, args: &[&str]) -> Result<(), String> {
        let t = args
            .first()
            .and_then(|s| Self::seconds(s))
            .filter(|&t| t <= 3600.0)
            .ok_or("expected 'rbc-turn SECONDS' (0 to 3600)")?;
        let t = Duration::from_secs_f64(t);
        self.turn_limit = Some(t);
        if let Some(p) = self.player.as_mut() {
            p.turn_limit = t;
        }
        Ok(())
    }

    /// `rbc-seen SQ:L ...`: the squares a sense showed, `.` for empty.
    fn read_seen(&self, args: &[&str]) -> Result<Vec<(Square, Piece)>, String> {
        let v = self.start.variant().clone();
        let mut seen = Vec::with_capacity(args.len());
        for a in args {
            let (sq, l) = a.split_once(':').ok_or_else(|| format!("'{a}' is not SQ:L"))?;
            let sq = self.square(sq)?;
            let piece = match l {
                "." => Piece::NONE,
                l if l.len() == 1 => {
                    let c = l.chars().next().expect("one char");
                    let kind = v
                        .kind_of_letter(c.to_ascii_uppercase())
                        .ok_or_else(|| format!("'{l}' is not a piece letter"))?;
                    Piece::new(
                        kind,
                        if c.is_ascii_uppercase() {
                            Color::White
                        } else {
                            Color::Black
                        },
                    )
                }
                _ => return Err(format!("'{l}' is not a piece letter")),
            };
            seen.push((sq, piece));
        }
        Ok(seen)
    }

    /// `rbc-stats`: the belief's size and how it was kept.
    fn stats(&self) -> String {
        let b = self.player.as_ref().expect("checked").belief();
        format!(
            "stats boards {} sampled {} rebuilds {} redraws {} exact {}",
            b.boards().len(),
            b.sampled as u8,
            b.rebuilds,
            b.redraws,
            b.exact_redraws
        )
    }

    /// `rbc-truth FEN`: whether the belief holds that board, and its probability.
    fn truth(&self, args: &[&str]) -> Result<String, String> {
        let fen = args.join(" ");
        let game = std::sync::Arc::clone(self.start.game());
        let pos = Position::from_fen(game, &fen).map_err(|e| e.to_string())?;
        let b = self.player.as_ref().expect("checked").belief();
        let board = super::belief::Board::of(&pos);
        Ok(format!(
            "truth {} sampled {} p {:.6e}",
            if b.holds(&board) { "in" } else { "out" },
            b.sampled as u8,
            b.probability_of(&board)
        ))
    }

    fn seconds(s: &str) -> Option<f64> {
        s.parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0)
    }
}

impl crate::rules::HiddenGame for RbcGame {
    fn command(&mut self, line: &str) -> Result<Option<String>, String> {
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("");
        let args: Vec<&str> = words.collect();
        match cmd {
            "rbc-color" => return self.set_color(&args).map(|_| None),
            "rbc-turn" => return self.set_turn(&args).map(|_| None),
            _ => {}
        }
        let player_missing = self.player.is_none();
        if player_missing {
            return Err("no RBC game: send 'rbc-color white|black' first".into());
        }
        match cmd {
            "rbc-opp" => {
                let sq = self.opt_square(args.first().copied().unwrap_or("none"))?;
                self.player.as_mut().expect("checked").opponent(sq).map(|_| None)
            }
            "rbc-sense" => {
                let t = args.first().and_then(|s| Self::seconds(s));
                let p = self.player.as_mut().expect("checked");
                let g = &self.start.variant().geometry;
                Ok(Some(match p.choose_sense(t) {
                    Some(sq) => format!("sense {}", g.name(sq)),
                    None => "sense pass".into(),
                }))
            }
            "rbc-seen" => {
                let seen = self.read_seen(&args)?;
                self.player.as_mut().expect("checked").seen(&seen).map(|_| None)
            }
            "rbc-go" => {
                let t = args.first().and_then(|s| Self::seconds(s));
                let p = self.player.as_mut().expect("checked");
                let m = p.choose_move(t);
                Ok(Some(format!("move {}", p.text(m))))
            }
            "rbc-result" => {
                let [req, taken, cap] = args[..] else {
                    return Err("expected 'rbc-result REQUESTED TAKEN none|SQ'".into());
                };
                let req = self.request(req)?;
                let taken = self.request(taken)?.map(|r| r.text(self.start.variant()));
                let cap = self.opt_square(cap)?;
                self.player
                    .as_mut()
                    .expect("checked")
                    .result(req, taken.as_deref(), cap)
                    .map(|_| None)
            }
            "rbc-stats" => Ok(Some(self.stats())),
            "rbc-truth" => self.truth(&args).map(Some),
            _ => Err(format!("unknown RBC command '{cmd}'")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The time plan: a turn is a 20th of the clock, at most the turn limit, 40 % of it for
    /// the sense; a game of 200 turns at 900 s with reconchess's 5 s a turn never runs out,
    /// and a turn limit of zero (or fixed work) gives the old fixed-sample decisions.
    #[test]
    fn the_time_plan_spends_the_clock_without_running_out() {
        let g = crate::position::Game::<Rbc>::new(crate::games::default_variants().get("rbc").unwrap()).unwrap();
        let mut p = RbcPlayer::new(&Position::startpos(g), Color::White);
        let secs = |p: &RbcPlayer, left: f64, sense: bool| p.time_for(Some(left), sense).as_secs_f64();
        assert!((secs(&p, 900.0, true) - 4.0).abs() < 1e-9);
        assert!((secs(&p, 900.0, false) - 6.0).abs() < 1e-9);
        assert!((secs(&p, 60.0, true) - 1.2).abs() < 1e-9);
        let mut left = 900.0;
        for _ in 0..200 {
            left -= secs(&p, left, true);
            left -= secs(&p, left, false);
            assert!(left > 30.0, "{left}");
            left += 5.0;
        }
        p.turn_limit = Duration::ZERO;
        assert!((secs(&p, 900.0, false) - 2.0).abs() < 1e-9);
        assert!((secs(&p, 900.0, true) - 1.0).abs() < 1e-9);
    }

    /// The worst case is the lowest row of an evenly weighted set, and a rare low row counts
    /// only by its weight.
    #[test]
    fn the_worst_case_is_the_lowest_share_of_the_weight() {
        let rows = vec![vec![100], vec![-900], vec![50]];
        let even = mixed(&rows, &[1_000, 1_000, 1_000], &[0, 1, 2], 0);
        // Mean -250, worst -900.
        assert_eq!(even, (70 * -250 + 30 * -900) / 100);
        // The -900 board weighs 100 of 1,000,000: the lowest 1/256 (3,906) is 100 at -900 and
        // 3,806 at 50, a worst case of 25; the mean is 74.
        let rare = mixed(&rows, &[500_000, 100, 499_900], &[0, 1, 2], 0);
        assert_eq!(rare, (70 * 74 + 30 * 25) / 100);
        // A subset: only its rows count.
        assert_eq!(mixed(&rows, &[1, 1, 1], &[0, 2], 0), (70 * 75 + 30 * 50) / 100);
    }
}
