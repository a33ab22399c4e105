//! The belief state of an RBC player: every true board consistent with what it has observed
//! (its own moves and their results, capture notices, sense results), kept as compact boards
//! and updated by expand-then-filter. Bounded: the opponent's possible moves are expanded from
//! at most [`MAX_BOARDS`] boards and filtered by the capture notice and the sense result before
//! a random sample of [`MAX_BOARDS`] is kept (the set is then marked as sampled: the true board
//! may have been dropped). An observation that contradicts every board leaves a usable belief:
//! the boards before it, made to agree with a sense result and with our own side as it really
//! is (so the moves we request stay within the referee's `move_actions`).

use super::{Rbc, Request};
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::position::{Game, Piece, Position};
use crate::square::Square;
use rand::RngExt;
use std::collections::HashSet;
use std::sync::Arc;

/// Most boards kept; beyond, a random sample of this size.
pub const MAX_BOARDS: usize = 20_000;

/// A true board as the belief keeps it: pieces, castling rights and en-passant square (the
/// side to move is implied by the moment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Piece; 64],
    castling: u8,
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

    /// The piece on a square.
    #[inline]
    pub fn at(&self, sq: Square) -> Piece {
        self.squares[sq.index()]
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
    scratch: Position<Rbc>,
    start: Board,
    /// True once a sample replaced the full set (the true board may be missing).
    pub sampled: bool,
    /// How many observations contradicted every board (each left a guess).
    pub rebuilds: u32,
}

impl Belief {
    /// The belief at the start of a game from `pos` (known to both sides), playing `me`.
    pub fn new(pos: &Position<Rbc>, me: Color) -> Belief {
        let start = Board::of(pos);
        Belief {
            game: Arc::clone(pos.game()),
            me,
            boards: vec![start],
            scratch: pos.clone(),
            start,
            sampled: false,
            rebuilds: 0,
        }
    }

    /// The boards.
    pub fn boards(&self) -> &[Board] {
        &self.boards
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

    fn cap(&mut self) {
        if self.boards.len() > MAX_BOARDS {
            let mut rng = rand::rng();
            for i in 0..MAX_BOARDS {
                let j = rng.random_range(i..self.boards.len());
                self.boards.swap(i, j);
            }
            self.boards.truncate(MAX_BOARDS);
            self.sampled = true;
        }
    }

    /// Turn start: the opponent has had a turn (any pseudo-legal move, or a pass or failed
    /// request) and captured on `capture` (or nowhere). The set is sampled down only after the
    /// sense result (or before our move when there is none).
    pub fn opponent_moved(&mut self, capture: Option<Square>) -> Result<(), String> {
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
        }
        r
    }

    /// Makes every board agree with `own` on our side (pieces and castling rights, which we
    /// always know exactly): after a contradiction the guess must not keep a piece we lost or
    /// miss one we moved, or we would request moves outside `move_actions`.
    fn align_own(&mut self, own: &Board) {
        let me = self.me;
        let ours = |p: Piece| p.is_some() && p.color() == me;
        let mine = 3u8 << (me.index() * 2);
        let mut out: HashSet<Board> = HashSet::new();
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
    }

    fn expand(&mut self, capture: Option<Square>) {
        let them = !self.me;
        let mut out: HashSet<Board> = HashSet::new();
        let boards = std::mem::take(&mut self.boards);
        let rules = self.game.rules.clone();
        let mut list = MoveList::new();
        for b in &boards {
            b.load(&mut self.scratch, them);
            if self.scratch.royals_gone(them) || self.scratch.royals_gone(self.me) {
                continue;
            }
            if capture.is_none() {
                // A pass or failed request: only the en-passant square goes.
                out.insert(Board { ep: None, ..*b });
            }
            list.clear();
            self.scratch.pseudo_legal_moves(&mut list);
            for &m in &list {
                if rules.capture_square(&self.scratch, m) != capture {
                    continue;
                }
                self.scratch.make_move(m);
                out.insert(Board::of(&self.scratch));
                self.scratch.unmake_move();
            }
        }
        self.boards = out.into_iter().collect();
        self.boards.sort_by_key(|b| b.squares.map(|p| p.code() as u8));
    }

    /// A sense result: `(square, piece or NONE)` for every square of the window.
    pub fn seen(&mut self, result: &[(Square, Piece)]) -> Result<(), String> {
        let before = self.boards.clone();
        self.boards.retain(|b| result.iter().all(|&(s, p)| b.at(s) == p));
        let r = self.recover(before, Some(result), "the sense result");
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
        self.cap();
        let before = self.boards.clone();
        self.apply_result(req, taken, capture);
        if self.boards.is_empty() {
            // Keep the boards, moved by what really happened where that can be played, with
            // our side as the move left it.
            let own = self.own_after(&before[0], taken, capture);
            self.boards = before;
            self.apply_forced(taken);
            self.align_own(&own);
            return Err("the move result contradicts every board this player thought possible; kept a guess".into());
        }
        Ok(())
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
            let mut list = MoveList::new();
            self.scratch.pseudo_legal_moves(&mut list);
            let found = list
                .iter()
                .copied()
                .find(|&m| crate::notation::move_text(&self.scratch, m) == t);
            if let Some(m) = found {
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
        let mut out = HashSet::new();
        for b in boards {
            b.load(&mut self.scratch, self.me);
            let mut list = MoveList::new();
            self.scratch.pseudo_legal_moves(&mut list);
            let m = taken.and_then(|t| {
                list.iter()
                    .copied()
                    .find(|&m| crate::notation::move_text(&self.scratch, m) == t)
            });
            match m {
                Some(m) => self.scratch.make_move(m),
                None => self.scratch.make_null(),
            }
            out.insert(Board::of(&self.scratch));
        }
        self.boards = out.into_iter().collect();
    }

    fn apply_result(&mut self, req: Option<Request>, taken: Option<&str>, capture: Option<Square>) {
        let rules = self.game.rules.clone();
        let boards = std::mem::take(&mut self.boards);
        let mut out = Vec::with_capacity(boards.len());
        for b in boards {
            b.load(&mut self.scratch, self.me);
            let t: Option<Move> = req.and_then(|r| {
                let r = rules.with_default_promotion(&self.scratch, r);
                rules.revise(&self.scratch, r)
            });
            let text = t.map(|m| crate::notation::move_text(&self.scratch, m));
            if text.as_deref() != taken {
                continue;
            }
            if t.and_then(|m| rules.capture_square(&self.scratch, m)) != capture {
                continue;
            }
            match t {
                Some(m) => self.scratch.make_move(m),
                None => self.scratch.make_null(),
            }
            out.push(Board::of(&self.scratch));
        }
        self.boards = out;
    }

    /// After an observation emptied the set: back to the boards before it (made to agree with
    /// the sense result, if it was one), and an error saying so.
    fn recover(&mut self, before: Vec<Board>, seen: Option<&[(Square, Piece)]>, what: &str) -> Result<(), String> {
        if !self.boards.is_empty() {
            return Ok(());
        }
        self.rebuilds += 1;
        let mut out: HashSet<Board> = HashSet::new();
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
        self.boards
            .iter()
            .any(|x| x.squares == b.squares && x.castling == b.castling)
    }

    /// Our own pieces are the same on every board; the moves we may request, from any board.
    pub fn move_actions(&mut self) -> Vec<Request> {
        let b = self.boards[0];
        b.load(&mut self.scratch, self.me);
        let rules = self.game.rules.clone();
        rules.move_actions(&self.scratch)
    }
}
