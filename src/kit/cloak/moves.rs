//! Cloak and Dagger's board rules: moves by true type, attacks, Chess960 castling (through
//! `castling.rs`, as the engine's own castling) and the referee's legality test.

use super::{Action, Board, Cloak, Piece, Sq};
use crate::Color;
use crate::castling::{castle_span, chess960_targets};
use crate::kit::board::{occupancy, offset, reach, squares};

/// True when `by` attacks `sq` on `board` by the true types.
pub fn attacked(board: &Board, sq: Sq, by: Color) -> bool {
    let occ = occupancy(board);
    (0..64).any(|s| board[s].is_some_and(|p| p.color == by && reach(p.kind, p.color, s, occ) >> sq & 1 != 0))
}

/// Whether a piece of type `p.kind` on `from` attacks `to` (blocking included).
pub fn attacks(board: &Board, p: Piece, from: Sq, to: Sq) -> bool {
    reach(p.kind, p.color, from, occupancy(board)) >> to & 1 != 0
}

impl Cloak {
    /// Moves of side `c` by the true types of its pieces, ignoring check (what its player can
    /// work out alone); `pawns_only` for a bonus.
    pub fn pseudo_moves(&self, c: Color, pawns_only: bool) -> Vec<Action> {
        let mut out = Vec::new();
        let fwd = if c == Color::White { 1 } else { -1 };
        let occ = occupancy(&self.board);
        let own = (0..64)
            .filter(|&s| self.board[s].is_some_and(|p| p.color == c))
            .fold(0u64, |m, s| m | 1 << s);
        for (s, cell) in self.board.iter().enumerate() {
            let Some(p) = *cell else { continue };
            if p.color != c || (pawns_only && p.kind != 'P') {
                continue;
            }
            let to = |t: Sq, out: &mut Vec<Action>| {
                let last_rank = if c == Color::White { 7 } else { 0 };
                if p.kind == 'P' && t / 8 == last_rank {
                    for k in ['Q', 'R', 'B', 'N'] {
                        out.push(Action::Move(s, t, Some(k)));
                    }
                } else {
                    out.push(Action::Move(s, t, None));
                }
            };
            let free = |t: Sq| self.board[t].is_none();
            let enemy = |t: Sq| self.board[t].is_some_and(|q| q.color != c);
            match p.kind {
                'P' => {
                    if let Some(t) = offset(s, 0, fwd)
                        && free(t)
                    {
                        to(t, &mut out);
                        let start = if c == Color::White { 1 } else { 6 };
                        if s / 8 == start
                            && let Some(t2) = offset(s, 0, 2 * fwd)
                            && free(t2)
                        {
                            to(t2, &mut out);
                        }
                    }
                    for t in squares(reach('P', c, s, occ)).filter(|&t| enemy(t) || self.ep_capture(c, t)) {
                        to(t, &mut out);
                    }
                }
                _ => {
                    for t in squares(reach(p.kind, c, s, occ) & !own) {
                        to(t, &mut out);
                    }
                }
            }
        }
        if !pawns_only {
            out.extend(self.castlings(c));
        }
        out
    }

    /// Chess960 castlings of side `c` whose squares allow them (king and rook unmoved, every
    /// square between their starts and ends empty but for them). The attack conditions apply
    /// only to an uncloaked king and are the referee's (see [`Cloak::truly_legal`]).
    pub(super) fn castlings(&self, c: Color) -> Vec<Action> {
        let mut out = Vec::new();
        let Some(k) = self.king(c) else { return out };
        let rank = if c == Color::White { 0 } else { 7 };
        if k / 8 != rank || self.unmoved >> k & 1 == 0 {
            return out;
        }
        for rf in 0..8 {
            let r = rank * 8 + rf;
            let is_rook = self.board[r].is_some_and(|p| p.color == c && p.kind == 'R');
            if !is_rook || self.unmoved >> r & 1 == 0 {
                continue;
            }
            let right = usize::from(rf < k % 8);
            let (kt, rt) = chess960_targets(8, right);
            let span = castle_span(k % 8, kt, rf, rt);
            if (0..8).all(|f| span.empty >> f & 1 == 0 || self.board[rank * 8 + f].is_none()) {
                out.push(Action::Move(k, r, None));
            }
        }
        out
    }

    /// True when a pawn of side `c` may take en passant on `t`: the square the last double
    /// step passed, with that enemy pawn behind it.
    fn ep_capture(&self, c: Color, t: Sq) -> bool {
        let behind = if c == Color::White {
            t.checked_sub(8)
        } else {
            Some(t + 8).filter(|b| *b < 64)
        };
        self.ep == Some(t)
            && behind
                .and_then(|b| self.board[b])
                .is_some_and(|q| q.color != c && q.kind == 'P')
    }

    pub(super) fn is_castling(&self, from: Sq, to: Sq) -> bool {
        let (a, b) = (self.board[from], self.board[to]);
        a.is_some_and(|p| p.kind == 'K') && b.is_some_and(|q| q.color == a.map_or(q.color, |p| p.color))
    }

    /// The board after a move or drop of side `c` (no legality test): king, rook and cloaks
    /// travel with their pieces.
    pub(super) fn board_after(&self, c: Color, a: &Action) -> Board {
        let mut b = self.board;
        match *a {
            Action::Move(from, to, _) if self.is_castling(from, to) => {
                let right = usize::from(to % 8 < from % 8);
                let (kt, rt) = chess960_targets(8, right);
                let rank = from / 8 * 8;
                let (king, rook) = (b[from].take(), b[to].take());
                b[rank + kt] = king;
                b[rank + rt] = rook;
            }
            Action::Move(from, to, promo) => {
                let p = b[from].take();
                if p.is_some_and(|p| p.kind == 'P') && Some(to) == self.ep && b[to].is_none() {
                    let behind = if c == Color::White { to - 8 } else { to + 8 };
                    b[behind] = None;
                }
                b[to] = match promo {
                    Some(k) => Some(Piece {
                        color: c,
                        kind: k,
                        cloak: 0,
                    }),
                    None => p,
                };
            }
            Action::Drop(s) => {
                b[s] = Some(Piece {
                    color: c,
                    kind: 'P',
                    cloak: 0,
                })
            }
            _ => {}
        }
        b
    }

    /// The referee's test: a move of side `c` that takes the enemy king is always legal;
    /// otherwise an uncloaked king may not be left attacked, nor castle out of, through or
    /// into an attack. A cloaked king has none of these limits.
    pub fn truly_legal(&self, c: Color, a: &Action) -> bool {
        if let Action::Move(_, to, _) = *a
            && self.board[to].is_some_and(|p| p.color != c && p.kind == 'K')
        {
            return true;
        }
        let Some(k) = self.king(c) else { return true };
        let cloaked = self.board[k].is_some_and(|p| p.cloak != 0);
        if cloaked {
            return true;
        }
        if let Action::Move(from, to, _) = *a
            && self.is_castling(from, to)
        {
            let right = usize::from(to % 8 < from % 8);
            let (kt, _) = chess960_targets(8, right);
            let span = castle_span(from % 8, kt, to % 8, 0);
            let rank = from / 8 * 8;
            if (0..8).any(|f| span.king_path >> f & 1 != 0 && attacked(&self.board, rank + f, !c)) {
                return false;
            }
        }
        let b = self.board_after(c, a);
        let Some(k) = (0..64).find(|&s| b[s].is_some_and(|p| p.color == c && p.kind == 'K')) else {
            return true;
        };
        !attacked(&b, k, !c)
    }

    pub(super) fn drops(&self, c: Color) -> Vec<Action> {
        if self.pawns_taken[c.index()] == 0 {
            return Vec::new();
        }
        let rank = if c == Color::White { 1 } else { 6 };
        (rank * 8..rank * 8 + 8)
            .filter(|&s| self.board[s].is_none())
            .map(Action::Drop)
            .collect()
    }
}
