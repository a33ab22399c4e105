//! Booster Chess's board rules: pieces with checkers under them (boosted by their own colour's,
//! hobbled by the other's), their moves, the booster-aware attack map and the king's safety.

use crate::Color;
use crate::kit::board::{Sq, king_steps, occupancy, offset, reach, squares};
use arrayvec::ArrayVec;

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
pub fn normal_moves(board: &Board, s: Sq) -> Moves {
    normal_moves_in(board, occupancy(board), s)
}

/// A piece's destinations, `(square, is_capture)` (a queen has at most 27).
pub type Moves = ArrayVec<(Sq, bool), 32>;

/// [`normal_moves`] on a board whose [`occupancy`] is `occ`.
fn normal_moves_in(board: &Board, occ: u64, s: Sq) -> Moves {
    let mut out = Moves::new();
    let Some(p) = board[s] else { return out };
    let c = p.color;
    let enemy = |t: Sq| board[t].is_some_and(|q| q.color != c);
    let free = |t: Sq| occ >> t & 1 == 0;
    let fwd = forward(c);
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
    let occ = occupancy(board);
    let gainful = board[s].map_or_else(ArrayVec::new, |p| victims(board, occ, p.color).0);
    attacks_from_in(board, occ, s, &gainful, None)
}

/// The pieces a piece of `c` gains booster steps by taking: the other side's pieces carrying
/// more of `c`'s checkers than of their own side's. Returns the first six of them that are not
/// kings (by square), and the steps all of them give, kings included (a normal move may take
/// a king; a booster step never does).
fn victims(board: &Board, occ: u64, c: Color) -> (ArrayVec<Sq, 6>, u32) {
    let own = c.index();
    let (mut gainful, mut bonus) = (ArrayVec::new(), 0);
    for t in squares(occ) {
        let Some(v) = board[t].filter(|v| v.color != c && v.checkers[own] > v.checkers[1 - own]) else {
            continue;
        };
        bonus += u32::from(v.checkers[own]);
        if v.kind != 'K' && !gainful.is_full() {
            gainful.push(t);
        }
    }
    (gainful, bonus)
}

/// [`attacks_from`] on a board whose [`occupancy`] is `occ` and whose gainful victims for the
/// piece on `s` are `gainful` ([`victims`]). With a `target` (a square, and the steps the
/// piece's side can gain by captures), only whether the square is attacked is worked out: the
/// search stops once it is found or out of the piece's reach.
fn attacks_from_in(board: &Board, occ: u64, s: Sq, gainful: &[Sq], target: Option<(Sq, u32)>) -> u64 {
    let Some(p) = board[s] else { return 0 };
    let att = match (p.hobble() > 0, p.kind) {
        (true, 'P') => return 0,
        // A hobbled piece attacks as a pawn of its colour.
        (true, _) => reach('P', p.color, s, occ),
        (false, kind) => reach(kind, p.color, s, occ),
    };
    // Without own checkers and with no victim to give some, no booster step follows.
    if p.boost() == 0 && gainful.is_empty() {
        return att;
    }
    if let Some((t, bonus)) = target
        && (att >> t & 1 != 0 || out_of_reach(p, s, att, t, bonus))
    {
        return att;
    }
    att | booster_steps(board, occ, s, gainful, target.map(|(t, _)| t))
}

/// Whether booster steps cannot bring the piece `p` on `s`, attacking `att` normally, to `t`:
/// steps along a path are at most its checkers and `bonus`, the checkers of every victim that
/// may give some, so a target farther than that from each destination is out of reach (the
/// destinations lie in the piece's reach and, moving as a pawn, its pushes).
fn out_of_reach(p: Piece, s: Sq, att: u64, t: Sq, bonus: u32) -> bool {
    let most = u32::from(p.checkers[p.color.index()]) + bonus;
    if most == 0 {
        return true;
    }
    let pushes = if p.kind == 'P' || p.hobble() > 0 {
        let fwd = forward(p.color);
        [1, 2]
            .iter()
            .filter_map(|&n| offset(s, 0, n * fwd))
            .fold(0u64, |b, d| b | 1 << d)
    } else {
        0
    };
    (att | pushes) & within(t, most) == 0
}

/// The squares the piece on `s` attacks by booster steps after a normal move (those it
/// reaches by the normal move alone may be among them), stopping once `target` is found.
fn booster_steps(board: &Board, occ: u64, s: Sq, gainful: &[Sq], target: Option<Sq>) -> u64 {
    let Some(p) = board[s] else { return 0 };
    let mut att = 0;
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
    let moves = normal_moves_in(board, occ, s);
    let index = |t: Sq| gainful.iter().position(|&x| x == t);
    // Without gainful victims (most boards) the table fits on the stack.
    let (mut small, mut big) = ([-1i32; 64], Vec::new());
    let left: &mut [i32] = if gainful.is_empty() {
        &mut small
    } else {
        big.resize(64 << gainful.len(), -1);
        &mut big
    };
    let mut todo: Vec<(Sq, usize)> = Vec::with_capacity(32);
    let reach = |t: Sq, mask: usize, k: i32, left: &mut [i32], todo: &mut Vec<(Sq, usize)>| {
        let slot = &mut left[(mask << 6) | t];
        if k > *slot {
            *slot = k;
            todo.push((t, mask));
        }
    };
    for (t, _) in moves {
        let k = after(u32::from(p.checkers[own]), u32::from(p.checkers[1 - own]), board[t]);
        let mask = index(t).map_or(0, |i| 1 << i);
        reach(t, mask, k, left, &mut todo);
    }
    while let Some((from, mask)) = todo.pop() {
        let r = left[(mask << 6) | from];
        if r < 1 {
            continue;
        }
        let steps = (r - 1) as u32;
        for t in squares(king_steps(from)) {
            att |= 1 << t;
            if target == Some(t) {
                return att;
            }
            // The piece has left `s`.
            let (k, m) = match board[t].filter(|_| t != s) {
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
            reach(t, m, k, left, &mut todo);
        }
    }
    att
}

/// The squares at most `m` king steps from `t`.
fn within(t: Sq, m: u32) -> u64 {
    let m = m.min(7) as usize;
    let (f, r) = (t % 8, t / 8);
    let files = (f.saturating_sub(m)..=(f + m).min(7)).fold(0u64, |b, x| b | 1 << x);
    (r.saturating_sub(m)..=(r + m).min(7)).fold(0u64, |b, y| b | files << (8 * y))
}

/// True when a piece of `by` attacks `sq`, boosters counted.
pub fn attacked(board: &Board, sq: Sq, by: Color) -> bool {
    let occ = occupancy(board);
    let (gainful, bonus) = victims(board, occ, by);
    let target = Some((sq, bonus));
    squares(occ).any(|s| {
        board[s].is_some_and(|p| p.color == by) && attacks_from_in(board, occ, s, &gainful, target) >> sq & 1 != 0
    })
}

/// The square of `c`'s king.
pub fn king(board: &Board, c: Color) -> Option<Sq> {
    (0..64).find(|&s| board[s].is_some_and(|p| p.color == c && p.kind == 'K'))
}

/// True when `c`'s king is attacked.
pub fn in_check(board: &Board, c: Color) -> bool {
    king(board, c).is_some_and(|k| attacked(board, k, !c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// A random board: about one square in three holds a piece of either colour (kings too,
    /// any number), each with up to three checkers of each colour under it, cancelled as the
    /// rules keep them (one colour's at most).
    fn random_board(rng: &mut StdRng) -> Board {
        let mut board: Board = [None; 64];
        for slot in board.iter_mut() {
            if rng.random_range(0..3) == 0 {
                let color = if rng.random_bool(0.5) {
                    Color::White
                } else {
                    Color::Black
                };
                let kind = ['P', 'N', 'B', 'R', 'Q', 'K'][rng.random_range(0..6)];
                let mut p = Piece::new(color, kind);
                let n = rng.random_range(0..4);
                p.checkers[rng.random_range(0..2)] = n;
                *slot = Some(p);
            }
        }
        board
    }

    #[test]
    fn the_attack_test_agrees_with_every_piece_s_whole_attack_set() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut attacked_squares = 0;
        for _ in 0..3000 {
            let board = random_board(&mut rng);
            for by in Color::ALL {
                let sets: Vec<u64> = (0..64)
                    .filter(|&s| board[s].is_some_and(|p| p.color == by))
                    .map(|s| attacks_from(&board, s))
                    .collect();
                for sq in 0..64 {
                    let whole = sets.iter().any(|a| a >> sq & 1 != 0);
                    attacked_squares += usize::from(whole);
                    assert_eq!(attacked(&board, sq, by), whole, "{by:?} on {sq} of {board:?}");
                }
            }
        }
        assert!(attacked_squares > 100_000, "{attacked_squares}");
    }
}
