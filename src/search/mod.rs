//! Single-threaded alpha-beta search, generic over the game's rules: iterative deepening,
//! principal variation search with aspiration windows, a transposition table, quiescence
//! search (captures that lose the exchange skipped), move ordering (TT move, MVV-LVA, killers,
//! countermoves, quiet, capture and continuation histories; captures that lose the exchange
//! after the quiet moves), reverse futility, razoring,
//! null-move pruning where the variant allows it, internal iterative reduction, late-move,
//! futility, history and exchange (SEE) pruning, late-move reductions (re-searched deeper or
//! shallower by how far the reduced search beat the best), check extensions,
//! repetition and move-rule draws, mate scores, and static evaluations corrected by what
//! searches under the same pawns and the same other pieces found (correction history).
//! Everything is allocated when the `Searcher` is built; `go` allocates nothing.

mod correction;
mod negamax;
mod picker;
mod quiescence;
pub(crate) mod see;
mod strength;
mod time;
mod tt;

use crate::moves::{Move, MoveKind};
use crate::position::{Piece, Position};
use crate::rules::{Capabilities, Rules};
use crate::variant::{MAX_KINDS, StalemateResult};
use arrayvec::ArrayVec;
use picker::{Frame, Picked};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
pub use strength::{DEFAULT_ELO, MAX_ELO, MIN_ELO, Strength};
pub use time::{Clock, Limits};
use tt::{BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, TransTable};

/// Largest transposition table accepted from `Hash`/`memory`, in megabytes.
pub const MAX_HASH_MB: usize = 8192;

/// Deepest ply the search reaches (main search plus quiescence).
pub const MAX_PLY: usize = 96;
/// Most principal variations one search reports (UCI `MultiPV`).
pub const MAX_MULTIPV: usize = 256;
/// Score of a mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
const INF: i32 = 31000;
/// Bound of a history score (the gravity formula keeps it inside).
const HISTORY_MAX: i32 = 16384;
/// Number of (piece kind, target square) pairs: the index of a move in the history tables.
const PIECE_TO: usize = MAX_KINDS * 128;
/// `moved` entry of a ply where no piece moved (a null move or a pass).
const NO_PIECE_TO: usize = PIECE_TO;

/// History tables index of a move of a `kind` piece to square index `to`.
#[inline]
fn piece_to(kind: usize, to: usize) -> usize {
    kind * 128 + (to & 127)
}

/// A history score moved toward `bonus` (negative: a malus), staying inside `HISTORY_MAX`.
#[inline]
fn gravity(h: i32, bonus: i32) -> i32 {
    gravity_within(h, bonus, HISTORY_MAX)
}

/// A score moved toward `bonus` (at most `max` in size), staying inside `max`.
#[inline]
fn gravity_within(h: i32, bonus: i32, max: i32) -> i32 {
    h + bonus - h * bonus.abs() / max
}

/// What the search reports after each iteration.
#[derive(Clone, Copy, Debug)]
pub struct Iteration {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score in centipawns (or mate) for the side to move.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub millis: u64,
    /// Table usage in permille.
    pub hashfull: u32,
    /// Which principal variation this is, from 1 (best) to the number asked for.
    pub multipv: u32,
}

/// Receives progress; protocols format it. Called only between iterations.
pub trait Report<R: Rules> {
    /// One finished iteration and its principal variation (moves from the root position).
    fn iteration(&mut self, root: &Position<R>, info: &Iteration, pv: &[Move]);
}

/// A report that drops everything (tests, benchmarks).
pub struct Silent;

impl<R: Rules> Report<R> for Silent {
    fn iteration(&mut self, _root: &Position<R>, _info: &Iteration, _pv: &[Move]) {}
}

/// Result of a search.
#[derive(Clone, Copy, Debug)]
pub struct SearchResult {
    /// Best move (`Move::NONE` when there is no legal move).
    pub best: Move,
    /// Expected reply, if known.
    pub ponder: Move,
    /// Score of the best move.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// One principal variation of a MultiPV search: its moves and score.
#[derive(Clone, Copy)]
struct Line {
    moves: [Move; MAX_PLY + 1],
    len: usize,
    score: i32,
}

/// Searcher with all its memory: TT, histories, per-ply move lists and PV table.
pub struct Searcher {
    tt: TransTable,
    /// Quiet-move history by side and move.
    history: Box<[[i32; PIECE_TO]; 2]>,
    /// Capture history by side, move and captured kind.
    capture_history: Box<[[[i32; MAX_KINDS]; PIECE_TO]; 2]>,
    /// Continuation history: by side, plies back (1 or 2), that ply's move and this move.
    continuation: Box<[i16]>,
    /// Correction history by side, then by pawn structure and each side's other pieces
    /// ([`correction`]).
    correction: Box<[[[i16; correction::CORRECTION_SIZE]; correction::CORRECTION_TABLES]; 2]>,
    /// True in the main search (`go`): static evaluations are corrected and the corrections
    /// learnt. The table games' quiescence values stay the positions' own.
    correcting: bool,
    /// The quiet move that last refuted each move of the opponent, by side.
    countermoves: Box<[[Move; PIECE_TO]; 2]>,
    /// The move made at each ply of the current line (`NO_PIECE_TO` for a null move).
    moved: [usize; MAX_PLY + 2],
    frames: Vec<Frame>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: Box<[[u8; 64]; 64]>,
    stop: Arc<AtomicBool>,
    nodes: u64,
    seldepth: usize,
    clock: Option<Clock>,
    limits: Limits,
    aborted: bool,
    null_ok: bool,
    noise: u64,
    /// Where a quiescence search's first level stops ([`Searcher::quiescence_cut`]; `INF`
    /// otherwise).
    root_cut: i32,
    /// The static value of that search's position, when its caller knew it.
    root_stand: Option<i32>,
    /// Static evaluation at each ply of the current line (`-INF` in check), for `improving`.
    evals: [i32; MAX_PLY + 2],
    /// The root moves the next search may play (empty: all); see [`Searcher::search_only`].
    root_only: Box<crate::moves::MoveList>,
    /// The principal variations of a MultiPV search, best first.
    lines: Box<[Line; MAX_MULTIPV]>,
    /// The line being searched: the root skips the first moves of the lines before it.
    pv_index: usize,
    /// Some root moves are skipped (`root_only` or `pv_index`): the root result is not stored.
    restricted: bool,
    /// Set while a ponder search must not end or watch the clock (cleared by `ponderhit`).
    pondering: Arc<AtomicBool>,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes. `stop` set to true ends a search.
    pub fn new(hash_mb: usize, stop: Arc<AtomicBool>) -> Searcher {
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        Searcher {
            tt: TransTable::new(hash_mb),
            history: Box::new([[0; PIECE_TO]; 2]),
            capture_history: vec![[[0; MAX_KINDS]; PIECE_TO]; 2]
                .into_boxed_slice()
                .try_into()
                .expect("two sides"),
            continuation: vec![0; 4 * PIECE_TO * PIECE_TO].into_boxed_slice(),
            correction: Box::new([[[0; correction::CORRECTION_SIZE]; correction::CORRECTION_TABLES]; 2]),
            correcting: false,
            countermoves: Box::new([[Move::NONE; PIECE_TO]; 2]),
            moved: [NO_PIECE_TO; MAX_PLY + 2],
            frames: (0..=MAX_PLY).map(|_| Frame::new()).collect(),
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            lmr,
            stop,
            nodes: 0,
            seldepth: 0,
            clock: None,
            limits: Limits::default(),
            aborted: false,
            null_ok: true,
            noise: 0,
            root_cut: INF,
            root_stand: None,
            evals: [-INF; MAX_PLY + 2],
            root_only: Box::new(crate::moves::MoveList::new()),
            lines: vec![
                Line {
                    moves: [Move::NONE; MAX_PLY + 1],
                    len: 0,
                    score: 0,
                };
                MAX_MULTIPV
            ]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("MAX_MULTIPV lines")),
            pv_index: 0,
            restricted: false,
            pondering: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The flag a ponder search ([`Limits::ponder`]) watches: while it is set, the search
    /// neither reads the clock nor ends on its own. The protocol clears it on `ponderhit`.
    pub fn set_ponder_flag(&mut self, flag: Arc<AtomicBool>) {
        self.pondering = flag;
    }

    /// Restricts the next search (only) to these root moves (UCI `searchmoves`, XBoard
    /// `include`/`exclude`); moves that are not legal there are ignored, and if none is, the
    /// search considers every move.
    pub fn search_only(&mut self, moves: &[Move]) {
        self.root_only.clear();
        for &m in moves.iter().take(self.root_only.capacity()) {
            self.root_only.push(m);
        }
    }

    #[inline]
    fn pondering(&self) -> bool {
        self.limits.ponder && self.pondering.load(Ordering::Relaxed)
    }

    /// True when the root skips `m`: outside the allowed moves, or the first move of an
    /// earlier principal variation of this iteration.
    fn root_skips(&self, m: Move) -> bool {
        (!self.root_only.is_empty() && !self.root_only.contains(&m))
            || self.lines[..self.pv_index].iter().any(|l| l.moves[0] == m)
    }

    /// Replaces the transposition table (allocates). On failure the old table stays.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.tt = TransTable::try_new(mb)?;
        Ok(())
    }

    /// Whether the last search run stopped at its limits (nodes, time or the stop flag) before
    /// its end (a `quiescence_below` answered by the static value runs none).
    #[cfg(test)]
    pub(crate) fn ran_out(&self) -> bool {
        self.aborted
    }

    /// Size of the table in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.megabytes()
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|side| side.fill(0));
        self.capture_history
            .iter_mut()
            .for_each(|side| side.fill([0; MAX_KINDS]));
        self.continuation.fill(0);
        self.correction.iter_mut().flatten().for_each(|table| table.fill(0));
        self.countermoves.iter_mut().for_each(|side| side.fill(Move::NONE));
        for f in self.frames.iter_mut() {
            f.killers = [Move::NONE; 2];
        }
    }

    /// Random mode: a seed (not 0) adds a small fixed noise (at most 8 centipawns) to every
    /// static evaluation, different for every seed, so that games differ (CECP `random`).
    /// 0 turns it off.
    pub fn set_noise(&mut self, seed: u64) {
        self.noise = seed;
    }

    #[inline]
    fn static_eval<R: Rules>(&self, pos: &Position<R>) -> i32 {
        let e = pos.evaluate();
        if self.noise == 0 {
            return e;
        }
        let mut z = pos.key() ^ self.noise;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        e + ((z ^ (z >> 31)) % 17) as i32 - 8
    }

    /// What every search starts with: its limits and clock, counters at zero, room in the
    /// position's history for the deepest line.
    fn begin<R: Rules>(&mut self, pos: &mut Position<R>, limits: Limits) {
        self.limits = limits;
        self.clock = Some(Clock::new(&limits));
        self.nodes = 0;
        self.aborted = false;
        self.seldepth = 0;
        pos.reserve_history(MAX_PLY + 8);
    }

    /// Searches `pos` within `limits` and returns the best move. The position is restored.
    /// With `limits.multipv` above 1, each iteration finds that many lines, each without the
    /// first moves of the lines before it, and reports them best first.
    pub fn go<R: Rules>(&mut self, pos: &mut Position<R>, limits: Limits, report: &mut dyn Report<R>) -> SearchResult {
        self.begin(pos, limits);
        self.correcting = true;
        self.null_ok = pos.variant().check && !pos.game().caps.contains(Capabilities::NO_NULL_MOVE);
        self.tt.new_search();
        self.history.iter_mut().flatten().for_each(|h| *h /= 2);
        let mut frames = std::mem::take(&mut self.frames);
        let mut result = SearchResult {
            best: Move::NONE,
            ponder: Move::NONE,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if let Some(&m) = self.root_moves(pos, &mut frames[0]).first() {
            result.best = m;
        }
        let root_moves = frames[0].moves.len();
        if root_moves == 0 {
            self.frames = frames;
            return result;
        }
        let shown = limits.multipv.clamp(1, MAX_MULTIPV).min(root_moves);
        let strength = limits.strength.filter(|_| !limits.infinite);
        let lines = match strength {
            Some(s) => {
                let cap = s.nodes();
                self.limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
                shown.max(s.lines()).min(root_moves)
            }
            None => shown,
        };
        for l in &mut self.lines[..lines] {
            l.len = 0;
            l.score = 0;
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 4).clamp(1, MAX_PLY as u32 - 4);
        for depth in 1..=max_depth {
            for pv_index in 0..lines {
                self.search_line(pos, &mut frames, depth, pv_index);
                if self.aborted {
                    break;
                }
            }
            self.sort_lines(lines);
            let best = &self.lines[0];
            if best.len > 0 {
                result.best = best.moves[0];
                result.ponder = if best.len > 1 { best.moves[1] } else { Move::NONE };
                result.score = best.score;
            }
            if self.aborted {
                break;
            }
            let score = best.score;
            result.depth = depth;
            self.report_lines(pos, depth, shown, report);
            if self.iteration_ends(depth, score, root_moves, &limits) {
                break;
            }
        }
        if let Some(s) = strength {
            self.weaken(pos.key() ^ self.noise ^ u64::from(s.elo()), s, lines, &mut result);
        }
        self.root_only.clear();
        self.pv_index = 0;
        self.restricted = false;
        result.nodes = self.nodes;
        self.frames = frames;
        result
    }

    /// The root's legal moves in `root`: only those of `root_only` when it names any (else
    /// `root_only` is cleared).
    fn root_moves<'f, R: Rules>(&mut self, pos: &mut Position<R>, root: &'f mut Frame) -> &'f [Move] {
        root.moves.clear();
        pos.legal_moves(&mut root.moves);
        if !self.root_only.is_empty() && root.moves.iter().any(|m| self.root_only.contains(m)) {
            let only = &self.root_only;
            root.moves.retain(|m| only.contains(m));
        } else {
            self.root_only.clear();
        }
        &root.moves
    }

    /// One line of an iteration (the `pv_index`-th of a MultiPV search): searched in an
    /// aspiration window around its last score, widened on each fail; its moves and score are
    /// kept. A stopped search keeps its first line's moves: its first move was searched to
    /// the end.
    fn search_line<R: Rules>(&mut self, pos: &mut Position<R>, frames: &mut [Frame], depth: u32, pv_index: usize) {
        self.pv_index = pv_index;
        self.restricted = pv_index > 0 || !self.root_only.is_empty();
        let prev = self.lines[pv_index].score;
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 5 {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        let score = loop {
            let s = self.negamax(pos, frames, depth as i32, 0, alpha, beta, true);
            if self.aborted {
                break s;
            }
            if s <= alpha {
                alpha = (alpha - delta).max(-INF);
                beta = (alpha + beta) / 2;
            } else if s >= beta {
                beta = (beta + delta).min(INF);
            } else {
                break s;
            }
            delta += delta;
        };
        if self.pv_len[0] > 0 && !(self.aborted && pv_index > 0) {
            let line = &mut self.lines[pv_index];
            line.len = self.pv_len[0];
            line.moves[..line.len].copy_from_slice(&self.pv[0][..line.len]);
            if !self.aborted {
                line.score = score;
            }
        }
    }

    /// Reports the first `shown` lines of the iteration of `depth`.
    fn report_lines<R: Rules>(&self, pos: &Position<R>, depth: u32, shown: usize, report: &mut dyn Report<R>) {
        let clock = self.clock.expect("set by go");
        for (i, line) in self.lines[..shown].iter().enumerate() {
            let info = Iteration {
                depth,
                seldepth: self.seldepth as u32,
                score: line.score,
                nodes: self.nodes,
                millis: clock.wall().as_millis() as u64,
                hashfull: self.tt.hashfull(),
                multipv: i as u32 + 1,
            };
            report.iteration(pos, &info, &line.moves[..line.len]);
        }
    }

    /// The first `lines` lines best first (the later lines were searched without the earlier
    /// lines' moves).
    fn sort_lines(&mut self, lines: usize) {
        for i in 1..lines {
            let mut j = i;
            while j > 0 && self.lines[j].score > self.lines[j - 1].score {
                self.lines.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    /// True when the iteration of `depth`, whose best score is `score`, is the last: the mate
    /// asked for is found, a mate ends a search on the clock, the soft time limit is spent,
    /// or a single legal move has been searched deep enough. A ponder search goes on until
    /// `ponderhit` (or its depth or node limit).
    fn iteration_ends(&self, depth: u32, score: i32, root_moves: usize, limits: &Limits) -> bool {
        if let Some(n) = limits.mate
            && score >= MATE - (2 * n as i32 - 1)
        {
            return true;
        }
        if self.pondering() {
            return false;
        }
        let clock = self.clock.expect("set by go");
        // A mate found ends a search on the clock early; a search for nodes or depth spends
        // what it was given (a shorter mate may still turn up).
        if score.abs() > MATE_BOUND && clock.soft.is_some() && limits.depth.is_none() {
            let mate_plies = (MATE - score.abs()) as u32;
            if depth > mate_plies + 2 {
                return true;
            }
        }
        if let Some(soft) = clock.soft
            && clock.elapsed(self.nodes) >= soft
        {
            return true;
        }
        root_moves == 1 && !limits.infinite && limits.depth.is_none() && depth >= 4
    }

    /// A strength level's choice: one of the searched lines, by [`Strength::pick`] over those
    /// that have a move.
    fn weaken(&self, seed: u64, strength: Strength, lines: usize, result: &mut SearchResult) {
        let mut scores: ArrayVec<i32, MAX_MULTIPV> = ArrayVec::new();
        let mut index: ArrayVec<usize, MAX_MULTIPV> = ArrayVec::new();
        for (i, l) in self.lines[..lines].iter().enumerate().filter(|(_, l)| l.len > 0) {
            scores.push(l.score);
            index.push(i);
        }
        if scores.len() < 2 {
            return;
        }
        let line = &self.lines[index[strength.pick(&scores, seed)]];
        result.best = line.moves[0];
        result.ponder = if line.len > 1 { line.moves[1] } else { Move::NONE };
        result.score = line.score;
    }

    #[inline]
    fn check_time(&mut self) {
        // A node limit holds exactly (datagen plays at a few hundred nodes a move); the clock
        // and the stop flag are read every 1024 nodes.
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            self.aborted = true;
            return;
        }
        if self.nodes & 1023 != 0 {
            return;
        }
        if self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        if let Some(clock) = self.clock
            && let Some(hard) = clock.hard
            && clock.elapsed(self.nodes) >= hard
            && !self.pondering()
        {
            self.aborted = true;
        }
    }
}

fn has_pieces<R: Rules>(pos: &Position<R>) -> bool {
    let g = pos.game();
    let us = pos.side_to_move();
    let mut own = pos.color_bb(us);
    for k in 0..pos.variant().pieces.len() {
        if (g.pawn_kinds | g.royal_kinds) >> k & 1 != 0 {
            own &= !pos.kind_bb(k);
        }
    }
    own.is_nonempty()
}

/// The table's bound for a node's best score: a lower bound at or above beta, exact above
/// the node's first alpha when `exact_ok` (a move made it), else an upper bound.
#[inline]
fn bound_of(best: i32, orig_alpha: i32, beta: i32, exact_ok: bool) -> u8 {
    if best >= beta {
        BOUND_LOWER
    } else if best > orig_alpha && exact_ok {
        BOUND_EXACT
    } else {
        BOUND_UPPER
    }
}

/// A cutoff, for [`Searcher::reward_cutoff`]: who moved, where in the tree, the move, its
/// piece and square, and what it took.
#[derive(Clone, Copy)]
struct Cutoff {
    us: usize,
    ply: usize,
    depth: i32,
    m: Move,
    pt: usize,
    victim: Piece,
}

/// The quiet moves and captures a node searched (piece and square; and the victim's kind),
/// whose histories a later cutoff lowers.
#[derive(Default)]
struct Tried {
    quiets: ArrayVec<usize, 64>,
    captures: ArrayVec<(usize, usize), 32>,
}

impl Tried {
    /// Notes a searched move (while there is room).
    #[inline]
    fn note(&mut self, quiet: bool, victim: Piece, pt: usize) {
        if quiet && !self.quiets.is_full() {
            self.quiets.push(pt);
        } else if victim.is_some() && !self.captures.is_full() {
            self.captures.push((pt, victim.kind()));
        }
    }
}

/// Where a node stands, for the helpers of [`Searcher::negamax`].
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    pv_node: bool,
    improving: bool,
}

/// A move of a node's loop: its index among the legal moves met, whether it may be reduced,
/// its quiet history and its piece and square.
#[derive(Clone, Copy)]
struct Late {
    i: usize,
    reducible: bool,
    hist: i32,
    pt: usize,
    /// A quiet move where the table's move is a capture.
    tt_capture: bool,
    /// The best score of the node so far.
    best: i32,
}

/// What a late move's reduction depends on besides depth and order ([`Searcher::reduction`]).
#[derive(Clone, Copy)]
struct Reduce {
    pv_node: bool,
    /// A quiet move or a capture that loses the exchange.
    reducible: bool,
    improving: bool,
    gives_check: bool,
    hist: i32,
    tt_capture: bool,
}

/// True when a stored score with `bound` decides a node searched with window (alpha, beta).
#[inline]
fn settles(bound: u8, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        BOUND_EXACT => true,
        BOUND_LOWER => s >= beta,
        BOUND_UPPER => s <= alpha,
        _ => false,
    }
}

fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}
