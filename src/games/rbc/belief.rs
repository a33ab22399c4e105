//! The belief state of an RBC player: every true board consistent with what it has observed
//! (its own moves and their results, capture notices, sense results), kept as compact boards
//! and updated by expand-then-filter. Bounded: the opponent's possible moves are expanded from
//! at most [`MAX_BOARDS`] boards and filtered by the capture notice and the sense result before
//! a sample of [`MAX_BOARDS`] is kept, drawn by weight (the set is then marked as sampled).
//! The true set is never lost: the belief keeps the last exact set and every observation
//! since, which together define it, and when an observation empties the sample (or leaves it
//! thin) it draws the boards again from that definition by a depth-first walk within a budget
//! of nodes (exact again when the walk ends and the set fits). Boards are weighted by a model
//! of the opponent: how often it passes, as a few hypotheses weighed side by side
//! ([`PASS_RATES`]), and how much it prefers moves that attack our king ([`CHECK_PRIOR`]) or
//! that are good for it ([`QUALITY_CP`]). Only when even the walk finds no board (its budget
//! spent) does a guess remain: the boards before the observation, made to agree with a sense
//! result and with our own side as it really is (so the moves we request stay within the
//! referee's `move_actions`).

use super::{Rbc, Request};
use crate::castling::CastlingRights;
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::position::{Game, Piece, Position};
use crate::square::Square;
use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, DefaultHasher};

/// Hashing with fixed keys: the order in which boards leave a set is the same in every run,
/// so a seeded belief samples and decides alike (std's default keys differ per map).
pub(crate) type Fixed = BuildHasherDefault<DefaultHasher>;

/// The seed of a belief made with [`Belief::new`].
pub const DEFAULT_SEED: u64 = 0x0042_454c;
use std::sync::Arc;

/// Most boards kept; beyond, a random sample of this size.
pub const MAX_BOARDS: usize = 20_000;

/// Most boards a redraw from the exact definition may make (moves expanded, results applied)
/// before it stops with what it found: about a second on this machine (2.5 µs a board).
pub const REDRAW_BUDGET: usize = 400_000;

/// A sampled set below this share of [`MAX_BOARDS`] is drawn again from the definition.
pub const THIN: usize = 16;

/// How often the opponent passes (or requests a move that fails), as hypotheses weighed side
/// by side: a mover (TroutBot), an occasional passer (RandomBot) and a bot that has stopped
/// (AttackerBot after its rush).
const PASS_RATES: [f64; H] = [0.01, 0.1, 0.95];

/// Prior chance of each pass-rate hypothesis.
const PASS_PRIOR: [f64; H] = [0.6, 0.3, 0.1];

/// Chance per turn that the opponent changes its ways (back to the prior): lets the belief
/// follow a bot that moves for five turns and then stops.
const PASS_SWITCH: f64 = 0.05;

/// How much likelier than another move the opponent plays one that attacks our king: strong
/// opponents (TroutBot's Stockfish) go for checks, and a uniform model gives the boards on
/// which our king is hunted too little weight to look for them or guard against them.
pub const CHECK_PRIOR: f64 = 4.0;

/// The opponent model's scale: among the moves a capture notice allows, one whose value for
/// the opponent (static, less what it loses in the exchange on its square) is this much lower
/// is e times less likely (plus the floor).
const QUALITY_CP: f64 = 50.0;

/// Every allowed move keeps at least this share of the best one's likelihood: the opponent
/// does not see our pieces, and our evaluation is not its.
const QUALITY_FLOOR: f64 = 0.02;

/// Number of pass-rate hypotheses.
const H: usize = 3;

/// A board's probability under each pass-rate hypothesis (jointly with the hypothesis).
type Weight = [f64; H];

/// One observation, as the log since the last exact set keeps it.
#[derive(Clone, Debug)]
enum Event {
    /// The opponent's turn, with its capture square.
    Opponent(Option<Square>),
    /// A sense result.
    Seen(Vec<(Square, Piece)>),
    /// Our move's result: the request, the move taken (UCI text) and the capture square.
    Own(Option<Request>, Option<String>, Option<Square>),
}

/// A true board as the belief keeps it: pieces, castling rights and en-passant square (the
/// side to move is implied by the moment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Piece; 64],
    castling: CastlingRights,
    ep: Option<Square>,
}

impl Board {
    /// The board of a position.
    pub fn of(pos: &Position<Rbc>) -> Board {
        let mut squares = [Piece::NONE; 64];
        for sq in pos.occupied() {
            squares[sq.index()] = pos.piece_at(sq);
        }
        Board {
            squares,
            castling: pos.st.castling,
            ep: pos.st.ep,
        }
    }

    /// The same pieces and castling rights (the en-passant square left out: clients write it
    /// only when a capture is possible).
    fn same_but_ep(&self, other: &Board) -> bool {
        self.squares == other.squares && self.castling == other.castling
    }

    /// The piece on a square.
    #[inline]
    pub fn at(&self, sq: Square) -> Piece {
        self.squares[sq.index()]
    }

    /// True when the board shows what a sense saw: `(square, piece or NONE)` for each square.
    fn agrees(&self, seen: &[(Square, Piece)]) -> bool {
        seen.iter().all(|&(s, p)| self.at(s) == p)
    }

    /// Loads the board into `pos` (a scratch position of the game) with `side` to move.
    pub fn load(&self, pos: &mut Position<Rbc>, side: Color) {
        for sq in pos.occupied() {
            pos.remove_piece(sq);
        }
        for (i, &p) in self.squares.iter().enumerate() {
            if p.is_some() {
                pos.put_piece(p, Square::new(i));
            }
        }
        pos.side = side;
        pos.st.castling = self.castling;
        pos.st.ep = self.ep;
        if let Some(ep) = self.ep {
            let g = &pos.game.variant.geometry;
            let dr = if side == Color::White { -1 } else { 1 };
            pos.st.ep_victim = g.offset(ep, 0, dr).unwrap_or(ep);
        }
        pos.st.halfmove = 0;
        pos.history.clear();
        pos.st.key = pos.compute_key();
    }
}

/// The set of boards consistent with the observations of one player.
pub struct Belief {
    game: Arc<Game<Rbc>>,
    me: Color,
    boards: Vec<Board>,
    /// Probability of each board jointly with each pass-rate hypothesis (all sum to 1): under
    /// pass rate p a board the opponent reached by passing carries its parent's weight times
    /// p, one reached by a move shares the rest with the parent's other moves, a move that
    /// attacks our king counting [`CHECK_PRIOR`] times.
    weights: Vec<Weight>,
    scratch: Position<Rbc>,
    start: Board,
    /// True while a sample stands for the full set (the true board may be missing from
    /// `boards`, never from the definition: `anchor` and `log`).
    pub sampled: bool,
    /// The last exact set (with its weights) and every observation since: the definition of
    /// the true set while `boards` is a sample.
    anchor: Vec<Board>,
    anchor_weights: Vec<Weight>,
    log: Vec<Event>,
    /// Most boards kept ([`MAX_BOARDS`]; tests make it small).
    pub max_boards: usize,
    /// Most boards a redraw makes ([`REDRAW_BUDGET`]).
    pub redraw_budget: usize,
    /// A sample below `max_boards / thin` boards is drawn again ([`THIN`]).
    pub thin: usize,
    /// How many times the boards were drawn again from the definition.
    pub redraws: u32,
    /// How many redraws found the exact set.
    pub exact_redraws: u32,
    /// How many observations contradicted every board, even after a redraw (each left a guess).
    pub rebuilds: u32,
    /// Draws the sample when the set grows too large.
    rng: StdRng,
    /// Weigh the opponent's moves by their static value for it ([`QUALITY_CP`]); off: every
    /// move alike (but for [`CHECK_PRIOR`]).
    pub quality: bool,
}

impl Belief {
    /// The belief at the start of a game from `pos` (known to both sides), playing `me`.
    pub fn new(pos: &Position<Rbc>, me: Color) -> Belief {
        Belief::with_seed(pos, me, DEFAULT_SEED)
    }

    /// [`Belief::new`] whose sampling draws from a generator seeded with `seed`.
    pub fn with_seed(pos: &Position<Rbc>, me: Color, seed: u64) -> Belief {
        let start = Board::of(pos);
        Belief {
            game: Arc::clone(pos.game()),
            me,
            boards: vec![start],
            weights: vec![PASS_PRIOR],
            scratch: pos.clone(),
            start,
            sampled: false,
            anchor: vec![start],
            anchor_weights: vec![PASS_PRIOR],
            log: Vec::new(),
            max_boards: MAX_BOARDS,
            redraw_budget: REDRAW_BUDGET,
            thin: THIN,
            redraws: 0,
            exact_redraws: 0,
            rebuilds: 0,
            rng: StdRng::seed_from_u64(seed),
            quality: true,
        }
    }

    /// The boards.
    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// The probability of each board (same order as [`Belief::boards`]; sums to 1).
    pub fn probabilities(&self) -> Vec<f64> {
        self.weights.iter().map(|w| w.iter().sum()).collect()
    }

    /// The opponent's expected pass rate given what we saw: the hypotheses' rates weighed by
    /// their posterior. Bots that stop moving are recognised this way, and the belief stops
    /// spreading over moves they never make.
    pub fn pass_rate(&self) -> f64 {
        let mut post = [0.0; H];
        for w in &self.weights {
            for h in 0..H {
                post[h] += w[h];
            }
        }
        let total: f64 = post.iter().sum();
        (0..H).map(|h| PASS_RATES[h] * post[h]).sum::<f64>() / total.max(f64::MIN_POSITIVE)
    }

    /// Prior weights (after a fallback that rebuilt the set).
    fn reset_weights(&mut self) {
        let n = self.boards.len().max(1) as f64;
        self.weights = vec![PASS_PRIOR.map(|p| p / n); self.boards.len()];
    }

    /// Scales the weights to sum 1 (prior weights if they all vanished).
    fn normalize(&mut self) {
        let total: f64 = self.weights.iter().flatten().sum();
        if total > 0.0 && total.is_finite() {
            self.weights.iter_mut().flatten().for_each(|w| *w /= total);
        } else {
            self.reset_weights();
        }
    }

    /// Keeps the boards for which `keep` holds, with their weights.
    fn retain_where(&mut self, keep: impl Fn(&Board) -> bool) {
        let mut i = 0;
        while i < self.boards.len() {
            if keep(&self.boards[i]) {
                i += 1;
            } else {
                self.boards.swap_remove(i);
                self.weights.swap_remove(i);
            }
        }
    }

    /// Our colour.
    pub fn me(&self) -> Color {
        self.me
    }

    /// The game.
    pub fn game(&self) -> &Arc<Game<Rbc>> {
        &self.game
    }

    /// A scratch position holding `b` with `side` to move.
    pub fn position_of(&mut self, b: &Board, side: Color) -> &mut Position<Rbc> {
        b.load(&mut self.scratch, side);
        &mut self.scratch
    }

    /// Beyond `max_boards`: a sample of that many, drawn without replacement with chances
    /// growing with the weights (each board keeps its weight).
    fn cap(&mut self) {
        let max = self.max_boards.max(1);
        if self.boards.len() > max {
            // Weighted sampling by keys u^(1/w), largest first (as ln(u) / w).
            let mut keyed: Vec<(f64, usize)> = (0..self.boards.len())
                .map(|i| {
                    let u: f64 = self.rng.random_range(f64::MIN_POSITIVE..1.0);
                    (u.ln() / self.weights[i].iter().sum::<f64>().max(1e-300), i)
                })
                .collect();
            keyed.select_nth_unstable_by(max - 1, |a, b| b.0.total_cmp(&a.0));
            keyed.truncate(max);
            keyed.sort_by_key(|&(_, i)| i);
            self.boards = keyed.iter().map(|&(_, i)| self.boards[i]).collect();
            self.weights = keyed.iter().map(|&(_, i)| self.weights[i]).collect();
            self.normalize();
            self.sampled = true;
        }
    }

    /// Turn start: the opponent has had a turn (any pseudo-legal move, or a pass or failed
    /// request) and captured on `capture` (or nowhere). The set is sampled down only after the
    /// sense result (or before our move when there is none).
    pub fn opponent_moved(&mut self, capture: Option<Square>) -> Result<(), String> {
        self.begin(Event::Opponent(capture));
        let before = self.boards.clone();
        // Our side afterwards, known exactly: the piece on the capture square is gone.
        let mut own = before[0];
        if let Some(cs) = capture {
            if own.at(cs).is_some() && own.at(cs).color() == self.me {
                own.squares[cs.index()] = Piece::NONE;
            }
            own.castling &= self.game.castle_mask[cs.index()];
        }
        self.expand(capture);
        let r = self.recover(before, None, "the capture notice");
        if r.is_err() {
            self.align_own(&own);
            self.reanchor();
        }
        r
    }

    /// Logs an observation; while the set is exact (and fits), it becomes the anchor first.
    fn begin(&mut self, e: Event) {
        if !self.sampled && self.boards.len() <= self.max_boards {
            self.reanchor();
        }
        self.log.push(e);
    }

    /// The current set becomes the definition's anchor, with an empty log.
    fn reanchor(&mut self) {
        self.anchor.clone_from(&self.boards);
        self.anchor_weights.clone_from(&self.weights);
        self.log.clear();
    }

    /// Makes every board agree with `own` on our side (pieces and castling rights, which we
    /// always know exactly): after a contradiction the guess must not keep a piece we lost or
    /// miss one we moved, or we would request moves outside `move_actions`.
    fn align_own(&mut self, own: &Board) {
        let me = self.me;
        let ours = |p: Piece| p.is_some() && p.color() == me;
        let mine = CastlingRights::side(me);
        let mut out: HashSet<Board, Fixed> = HashSet::default();
        for mut b in std::mem::take(&mut self.boards) {
            for (p, &o) in b.squares.iter_mut().zip(&own.squares) {
                if ours(o) {
                    *p = o;
                } else if ours(*p) {
                    *p = Piece::NONE;
                }
            }
            b.castling = (b.castling & !mine) | (own.castling & mine);
            out.insert(b);
        }
        self.boards = out.into_iter().collect();
        self.boards.sort_by_key(|b| b.squares.map(|p| p.code() as u8));
        self.reset_weights();
    }

    /// The opponent's turn on every board: each board's children ([`Belief::children`]),
    /// the same board reached twice adding its weights.
    fn expand(&mut self, capture: Option<Square>) {
        let mut out: HashMap<Board, Weight, Fixed> = HashMap::default();
        let boards = std::mem::take(&mut self.boards);
        let weights = std::mem::take(&mut self.weights);
        let mut kids = Vec::new();
        for (b, &w) in boards.iter().zip(&weights) {
            kids.clear();
            self.children(b, w, capture, &mut kids);
            for &(c, cw) in &kids {
                let e = out.entry(c).or_default();
                (0..H).for_each(|h| e[h] += cw[h]);
            }
        }
        self.set_from(out);
    }

    /// The boards (sorted, for the same order in every run) and weights of `out`, normalized.
    fn set_from(&mut self, out: HashMap<Board, Weight, Fixed>) {
        let mut all: Vec<(Board, Weight)> = out.into_iter().collect();
        all.sort_by_key(|(b, _)| b.squares.map(|p| p.code() as u8));
        self.boards = all.iter().map(|(b, _)| *b).collect();
        self.weights = all.iter().map(|(_, w)| *w).collect();
        self.normalize();
    }

    /// The boards the opponent's turn can make of `b` (weight `w`) with its capture on
    /// `capture` (or nowhere), each with its weight: a pass or failed request (no capture),
    /// or any pseudo-legal move the notice allows, weighed by the opponent model. A board
    /// whose game is over has none.
    fn children(&mut self, b: &Board, w: Weight, capture: Option<Square>, out: &mut Vec<(Board, Weight)>) {
        let them = !self.me;
        let rules = self.game.rules.clone();
        b.load(&mut self.scratch, them);
        if self.scratch.royals_gone(them) || self.scratch.royals_gone(self.me) {
            return;
        }
        let mut list = MoveList::new();
        self.scratch.pseudo_legal_moves(&mut list);
        // The opponent may have changed its ways since last turn.
        let mass: f64 = w.iter().sum();
        let w: Weight = std::array::from_fn(|h| (1.0 - PASS_SWITCH) * w[h] + PASS_SWITCH * PASS_PRIOR[h] * mass);
        // Each move's share: CHECK_PRIOR for one that attacks our king, else 1.
        let mut children: Vec<(Board, f64, i32)> = Vec::new();
        let (mut shares, mut matching) = (0.0, 0.0);
        let mut best = i32::MIN;
        for &m in &list {
            let matches = rules.capture_square(&self.scratch, m) == capture;
            // What the move loses in the exchange on its square (a piece left en prise).
            let loss = if matches && self.quality {
                crate::search::see::see(&self.scratch, m).map_or(0, |g| g.min(0))
            } else {
                0
            };
            self.scratch.make_move(m);
            let share = if self.scratch.royal_in_danger(self.me) {
                CHECK_PRIOR
            } else {
                1.0
            };
            shares += share;
            if matches {
                matching += share;
                // The opponent's view of the position it made (we are to move).
                let v = if self.quality {
                    loss - self.scratch.evaluate()
                } else {
                    0
                };
                best = best.max(v);
                children.push((Board::of(&self.scratch), share, v));
            }
            self.scratch.unmake_move();
        }
        // Among the moves the notice allows, a better one for the opponent is likelier (by its
        // static value less what it loses in the exchange on its square, QUALITY_CP a step of
        // e); their total stays that of the uniform model, so the notice weighs the parent
        // boards as before.
        let mut quality = 0.0;
        for c in children.iter_mut() {
            c.1 *= QUALITY_FLOOR + ((c.2 - best) as f64 / QUALITY_CP).exp();
            quality += c.1;
        }
        if capture.is_none() {
            // A pass or failed request: only the en-passant square goes.
            let w_pass: Weight = std::array::from_fn(|h| if list.is_empty() { w[h] } else { w[h] * PASS_RATES[h] });
            out.push((Board { ep: None, ..*b }, w_pass));
        }
        for &(child, share, _) in &children {
            let share = matching / shares * share / quality;
            out.push((child, std::array::from_fn(|h| w[h] * (1.0 - PASS_RATES[h]) * share)));
        }
    }

    /// A sense result: `(square, piece or NONE)` for every square of the window.
    pub fn seen(&mut self, result: &[(Square, Piece)]) -> Result<(), String> {
        self.begin(Event::Seen(result.to_vec()));
        let before = self.boards.clone();
        self.retain_where(|b| b.agrees(result));
        self.normalize();
        let r = self.recover(before, Some(result), "the sense result");
        if r.is_err() {
            self.reanchor();
        }
        self.cap();
        r
    }

    /// Our own move's result: the request (`None`: pass), the move taken (UCI text, `None`:
    /// none) and the capture square.
    pub fn own_result(
        &mut self,
        req: Option<Request>,
        taken: Option<&str>,
        capture: Option<Square>,
    ) -> Result<(), String> {
        self.begin(Event::Own(req, taken.map(str::to_string), capture));
        self.cap();
        let before = self.boards.clone();
        self.apply_result(req, taken, capture);
        self.redraw_if_needed();
        if self.boards.is_empty() {
            self.rebuilds += 1;
            // Keep the boards, moved by what really happened where that can be played, with
            // our side as the move left it.
            let own = self.own_after(&before[0], taken, capture);
            self.boards = before;
            self.apply_forced(taken);
            self.align_own(&own);
            self.reset_weights();
            self.reanchor();
            return Err("the move result contradicts every board this player thought possible; kept a guess".into());
        }
        Ok(())
    }

    /// The pseudo-legal move of the scratch position written `text` (UCI), if there is one.
    fn scratch_move(&self, text: &str) -> Option<Move> {
        let mut list = MoveList::new();
        self.scratch.pseudo_legal_moves(&mut list);
        list.iter()
            .copied()
            .find(|&m| crate::notation::move_text(&self.scratch, m) == text)
    }

    /// Board `b` after our move `taken` (UCI text; `None`: none), for our side only: played
    /// where it is a move on `b`, else among our own pieces alone (with an enemy piece on the
    /// capture square, for a pawn's capture), else not at all.
    fn own_after(&mut self, b: &Board, taken: Option<&str>, capture: Option<Square>) -> Board {
        let Some(t) = taken else { return *b };
        let queen = self.game.rules.queen;
        let them = !self.me;
        for attempt in 0..2 {
            b.load(&mut self.scratch, self.me);
            if attempt == 1 {
                for sq in self.scratch.color_bb(them) {
                    self.scratch.remove_piece(sq);
                }
                if let Some(cs) = capture.filter(|&cs| self.scratch.piece_at(cs).is_none()) {
                    self.scratch.put_piece(Piece::new(queen, them), cs);
                }
            }
            if let Some(m) = self.scratch_move(t) {
                self.scratch.make_move(m);
                return Board::of(&self.scratch);
            }
        }
        *b
    }

    /// Plays the move `taken` (UCI text) on every board where it is a move, a null move where
    /// not (the fallback after a contradiction).
    fn apply_forced(&mut self, taken: Option<&str>) {
        let boards = std::mem::take(&mut self.boards);
        let mut out: HashSet<Board, Fixed> = HashSet::default();
        for b in boards {
            b.load(&mut self.scratch, self.me);
            match taken.and_then(|t| self.scratch_move(t)) {
                Some(m) => self.scratch.make_move(m),
                None => self.scratch.make_null(),
            }
            out.insert(Board::of(&self.scratch));
        }
        self.boards = out.into_iter().collect();
    }

    /// Our move's result on every board: the boards where the request makes that move with
    /// that capture, moved.
    fn apply_result(&mut self, req: Option<Request>, taken: Option<&str>, capture: Option<Square>) {
        let boards = std::mem::take(&mut self.boards);
        let weights = std::mem::take(&mut self.weights);
        let mut out = Vec::with_capacity(boards.len());
        let mut out_w = Vec::with_capacity(boards.len());
        for (b, w) in boards.into_iter().zip(weights) {
            if let Some(after) = self.own_step(&b, req, taken, capture) {
                out.push(after);
                out_w.push(w);
            }
        }
        self.boards = out;
        self.weights = out_w;
        self.normalize();
    }

    /// Board `b` after our request `req`, if on `b` it makes the move `taken` (UCI text;
    /// `None`: none) with its capture on `capture`; `None` when `b` disagrees.
    fn own_step(
        &mut self,
        b: &Board,
        req: Option<Request>,
        taken: Option<&str>,
        capture: Option<Square>,
    ) -> Option<Board> {
        let rules = self.game.rules.clone();
        b.load(&mut self.scratch, self.me);
        let t: Option<Move> = req.and_then(|r| {
            let r = rules.with_default_promotion(&self.scratch, r);
            rules.revise(&self.scratch, r)
        });
        let text = t.map(|m| crate::notation::move_text(&self.scratch, m));
        if text.as_deref() != taken || t.and_then(|m| rules.capture_square(&self.scratch, m)) != capture {
            return None;
        }
        match t {
            Some(m) => self.scratch.make_move(m),
            None => self.scratch.make_null(),
        }
        Some(Board::of(&self.scratch))
    }

    /// While the boards are a sample: draws them again from the definition when the last
    /// observation emptied them (with four times the budget: the alternative is a guess) or
    /// left fewer than `max_boards / thin`.
    fn redraw_if_needed(&mut self) {
        if self.sampled && self.boards.len() < (self.max_boards / self.thin.max(1)).max(1) {
            let scale = if self.boards.is_empty() { 4 } else { 1 };
            self.redraw(self.redraw_budget.saturating_mul(scale));
        }
    }

    /// Draws the boards again from the definition (the anchor and the log): depth first from
    /// the anchor's boards in a random order, until the walk ends or has made `budget` boards.
    /// A walk that ends with at most `max_boards` boards found the exact set; one cut short
    /// found a sample (every board of it possible; it replaces the sample even when smaller:
    /// measured along a recorded game, the truth's mean ln p -3.29 against -3.34 when the
    /// larger set is kept). Keeps the boards when it finds none.
    fn redraw(&mut self, budget: usize) {
        self.redraws += 1;
        let mut order: Vec<usize> = (0..self.anchor.len()).collect();
        order.shuffle(&mut self.rng);
        let (leaves, complete) = self.walk(&order, budget);
        if leaves.is_empty() {
            return;
        }
        self.set_from(leaves);
        if complete && self.boards.len() <= self.max_boards {
            self.sampled = false;
            self.exact_redraws += 1;
        } else {
            self.cap();
            self.sampled = true;
        }
    }

    /// The boards the definition gives, following the anchor's boards in `order` through the
    /// log until `budget` boards are made; true when the walk ended.
    fn walk(&mut self, order: &[usize], budget: usize) -> (HashMap<Board, Weight, Fixed>, bool) {
        let log = std::mem::take(&mut self.log);
        let mut leaves: HashMap<Board, Weight, Fixed> = HashMap::default();
        let mut left = budget;
        let complete = order.iter().all(|&i| {
            let (b, w) = (self.anchor[i], self.anchor_weights[i]);
            self.descend(b, w, &log, &mut leaves, &mut left)
        });
        self.log = log;
        (leaves, complete)
    }

    /// Whether `b` is in the true set as the definition gives it (tests: the true board must
    /// always be, sampled or not); `None` when a walk of `budget` boards cannot tell.
    pub fn defines(&mut self, b: &Board, budget: usize) -> Option<bool> {
        let order: Vec<usize> = (0..self.anchor.len()).collect();
        let (leaves, complete) = self.walk(&order, budget);
        if leaves.contains_key(b) {
            Some(true)
        } else {
            complete.then_some(false)
        }
    }

    /// Follows board `b` (weight `w`) through the observations `log`, adding every board it
    /// can have become to `leaves`; false when the budget ran out on the way.
    fn descend(
        &mut self,
        b: Board,
        w: Weight,
        log: &[Event],
        leaves: &mut HashMap<Board, Weight, Fixed>,
        budget: &mut usize,
    ) -> bool {
        let Some((event, rest)) = log.split_first() else {
            let e = leaves.entry(b).or_default();
            (0..H).for_each(|h| e[h] += w[h]);
            return true;
        };
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        match event {
            Event::Opponent(capture) => {
                let mut kids = Vec::new();
                self.children(&b, w, *capture, &mut kids);
                kids.into_iter()
                    .all(|(c, cw)| self.descend(c, cw, rest, leaves, budget))
            }
            Event::Seen(result) => !b.agrees(result) || self.descend(b, w, rest, leaves, budget),
            Event::Own(req, taken, capture) => match self.own_step(&b, *req, taken.as_deref(), *capture) {
                Some(after) => self.descend(after, w, rest, leaves, budget),
                None => true,
            },
        }
    }

    /// After an observation emptied the set (even after a redraw): back to the boards before it (made to agree with
    /// the sense result, if it was one), and an error saying so.
    fn recover(&mut self, before: Vec<Board>, seen: Option<&[(Square, Piece)]>, what: &str) -> Result<(), String> {
        self.redraw_if_needed();
        if !self.boards.is_empty() {
            return Ok(());
        }
        self.rebuilds += 1;
        let mut out: HashSet<Board, Fixed> = HashSet::default();
        for mut b in before {
            for &(s, p) in seen.unwrap_or(&[]) {
                b.squares[s.index()] = p;
            }
            out.insert(b);
        }
        self.boards = out.into_iter().collect();
        if self.boards.is_empty() {
            self.boards = vec![self.start];
        }
        self.reset_weights();
        Err(format!(
            "{what} contradicts every board this player thought possible; kept a guess"
        ))
    }

    /// True when `b` is in the set (tests: the true board must always be).
    pub fn contains(&self, b: &Board) -> bool {
        self.boards.contains(b)
    }

    /// True when a board with the pieces and castling rights of `b` is in the set (the
    /// en-passant square is left out: clients write it only when a capture is possible).
    pub fn holds(&self, b: &Board) -> bool {
        self.boards.iter().any(|x| x.same_but_ep(b))
    }

    /// The probability of the boards with the pieces and castling rights of `b` (as
    /// [`Belief::holds`]; 0 when none is in the set).
    pub fn probability_of(&self, b: &Board) -> f64 {
        self.boards
            .iter()
            .zip(&self.weights)
            .filter(|(x, _)| x.same_but_ep(b))
            .map(|(_, w)| w.iter().sum::<f64>())
            .fold(0.0, |a, b| a + b) // not sum(): an empty one is -0.0
    }

    /// Our own pieces are the same on every board; the moves we may request, from any board.
    pub fn move_actions(&mut self) -> Vec<Request> {
        let b = self.boards[0];
        b.load(&mut self.scratch, self.me);
        let rules = self.game.rules.clone();
        rules.move_actions(&self.scratch)
    }
}
