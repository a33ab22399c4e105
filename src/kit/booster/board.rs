//! Booster Chess's board rules: pieces with checkers under them (boosted by their own colour's,
//! hobbled by the other's), their moves, the booster-aware attack map and the king's safety.

use crate::Color;
use crate::kit::board::{Sq, king_steps, occupancy, offset, reach, squares};

/// A piece with the checkers under it (after cancelling, at most one colour's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// Type `KQRBNP`.
    pub kind: char,
    /// White's and Black's checkers under it.
    pub checkers: [u8; 2],
}

impl Piece {
    /// A piece without checkers.
    pub fn new(color: Color, kind: char) -> Piece {
        Piece {
            color,
            kind,
            checkers: [0, 0],
        }
    }

    /// Own-colour checkers under it (booster steps left).
    pub fn boost(&self) -> u8 {
        self.checkers[self.color.index()]
    }

    /// Opponent checkers under it.
    pub fn hobble(&self) -> u8 {
        self.checkers[(!self.color).index()]
    }

    /// FEN-style letter.
    pub fn letter(&self) -> char {
        if self.color == Color::White {
            self.kind
        } else {
            self.kind.to_ascii_lowercase()
        }
    }
}

/// The board.
pub type Board = [Option<Piece>; 64];

/// Forward for a colour.
pub fn forward(c: Color) -> i32 {
    if c == Color::White { 1 } else { -1 }
}

/// Destinations of the piece on `s` by one normal move (a hobbled piece's pawn-like move
/// included; castling and en passant are not): `(square, is_capture)`.
pub fn normal_moves(board: &Board, s: Sq) -> Vec<(Sq, bool)> {
    normal_moves_in(board, occupancy(board), s)
}

/// [`normal_moves`] on a board whose [`occupancy`] is `occ`.
fn normal_moves_in(board: &Board, occ: u64, s: Sq) -> Vec<(Sq, bool)> {
    let Some(p) = board[s] else { return Vec::new() };
    let c = p.color;
    let enemy = |t: Sq| board[t].is_some_and(|q| q.color != c);
    let free = |t: Sq| occ >> t & 1 == 0;
    let fwd = forward(c);
    let mut out = Vec::new();
    let hobbled = p.hobble() > 0;
    if hobbled && p.kind == 'P' {
        return out;
    }
    if hobbled || p.kind == 'P' {
        // A pawn's move, or a hobbled piece's (one step forward, never two).
        if let Some(t) = offset(s, 0, fwd).filter(|&t| free(t)) {
            out.push((t, false));
            let start = if c == Color::White { 1 } else { 6 };
            if !hobbled
                && s / 8 == start
                && let Some(t2) = offset(s, 0, 2 * fwd).filter(|&t| free(t))
            {
                out.push((t2, false));
            }
        }
        out.extend(squares(reach('P', c, s, occ)).filter(|&t| enemy(t)).map(|t| (t, true)));
        return out;
    }
    let targets = squares(reach(p.kind, c, s, occ)).filter(|&t| free(t) || enemy(t));
    out.extend(targets.map(|t| (t, !free(t))));
    out
}

/// The squares the piece on `s` attacks, boosters counted (the rules file's proposal): the
/// squares of its normal move (a hobbled piece its two diagonal-forward squares, a hobbled pawn
/// none), then from each place its normal move may reach, king steps while it holds own
/// checkers, one spent per step: a capture, by the move or by a step, first takes over the
/// victim's checkers and opposite colours cancel, as in a move.
pub fn attacks_from(board: &Board, s: Sq) -> u64 {
    attacks_from_in(board, occupancy(board), s)
}

/// [`attacks_from`] on a board whose [`occupancy`] is `occ`.
fn attacks_from_in(board: &Board, occ: u64, s: Sq) -> u64 {
    let Some(p) = board[s] else { return 0 };
    let mut att = match (p.hobble() > 0, p.kind) {
        (true, 'P') => return 0,
        // A hobbled piece attacks as a pawn of its colour.
        (true, _) => reach('P', p.color, s, occ),
        (false, kind) => reach(kind, p.color, s, occ),
    };
    // Booster steps left at each place the piece may stand (-1: not reached). A capture, by
    // the normal move or by a step, first takes over the victim's checkers, then cancels. A
    // victim that gives steps (it carries more of the mover's checkers than the other's) gives
    // them once on a path: the state is the square and the set of such victims taken.
    let own = p.color.index();
    let after = |mine: u32, theirs: u32, v: Option<Piece>| -> i32 {
        let (mut a, mut b) = (mine, theirs);
        if let Some(v) = v {
            a += u32::from(v.checkers[own]);
            b += u32::from(v.checkers[1 - own]);
        }
        a.saturating_sub(b) as i32
    };
    let gainful: Vec<Sq> = (0..64)
        .filter(|&t| {
            board[t].is_some_and(|v| v.color != p.color && v.kind != 'K' && v.checkers[own] > v.checkers[1 - own])
        })
        .take(6)
        .collect();
    // Without own checkers and with no victim to give some, no booster step follows.
    if p.boost() == 0 && gainful.is_empty() {
        return att;
    }
    let index = |t: Sq| gainful.iter().position(|&x| x == t);
    let mut left = vec![-1i32; 64 << gainful.len()];
    let mut todo: Vec<(Sq, usize)> = Vec::new();
    let reach = |t: Sq, mask: usize, k: i32, left: &mut Vec<i32>, todo: &mut Vec<(Sq, usize)>| {
        let slot = &mut left[(mask << 6) | t];
        if k > *slot {
            *slot = k;
            todo.push((t, mask));
        }
    };
    for (t, _) in normal_moves_in(board, occ, s) {
        let k = after(u32::from(p.checkers[own]), u32::from(p.checkers[1 - own]), board[t]);
        let mask = index(t).map_or(0, |i| 1 << i);
        reach(t, mask, k, &mut left, &mut todo);
    }
    let mut empty_board = *board;
    empty_board[s] = None;
    while let Some((from, mask)) = todo.pop() {
        let r = left[(mask << 6) | from];
        if r < 1 {
            continue;
        }
        let steps = (r - 1) as u32;
        for t in squares(king_steps(from)) {
            att |= 1 << t;
            let (k, m) = match empty_board[t] {
                None => (r - 1, mask),
                // Kings are mated, never taken; own pieces block.
                Some(v) if v.color != p.color && v.kind != 'K' => match index(t) {
                    Some(i) if mask & (1 << i) == 0 => (after(steps, 0, Some(v)), mask | (1 << i)),
                    // Taken before on this path: the square is empty now.
                    Some(_) => (r - 1, mask),
                    None => (after(steps, 0, Some(v)).min(r - 1), mask),
                },
                Some(_) => continue,
            };
            reach(t, m, k, &mut left, &mut todo);
        }
    }
    att
}

/// True when a piece of `by` attacks `sq`, boosters counted.
pub fn attacked(board: &Board, sq: Sq, by: Color) -> bool {
    let occ = occupancy(board);
    (0..64).any(|s| board[s].is_some_and(|p| p.color == by) && attacks_from_in(board, occ, s) >> sq & 1 != 0)
}

/// The square of `c`'s king.
pub fn king(board: &Board, c: Color) -> Option<Sq> {
    (0..64).find(|&s| board[s].is_some_and(|p| p.color == c && p.kind == 'K'))
}

/// True when `c`'s king is attacked.
pub fn in_check(board: &Board, c: Color) -> bool {
    king(board, c).is_some_and(|k| attacked(board, k, !c))
}
