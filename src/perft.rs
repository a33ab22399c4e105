//! Perft: counts the leaves of the legal move tree, with bulk counting at depth 1.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Rules;

/// Leaf count at `depth` (depth 0 counts the position itself).
pub fn perft<R: Rules>(pos: &mut Position<R>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal_moves();
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut n = 0;
    for &m in &list {
        pos.make_move(m);
        n += perft(pos, depth - 1);
        pos.unmake_move();
    }
    n
}

/// Walks the tree to `depth` plies and returns the first position (as FEN, with both counts)
/// where [`Position::count_legal_moves`], perft's last ply, differs from the length of
/// [`Position::legal_moves`].
pub fn count_mismatch<R: Rules>(pos: &mut Position<R>, depth: u32) -> Option<String> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let counted = pos.count_legal_moves();
    if counted != list.len() as u64 {
        return Some(format!("{}: counted {counted}, listed {}", pos.fen(), list.len()));
    }
    if depth > 1 {
        for &m in &list {
            pos.make_move(m);
            let bad = count_mismatch(pos, depth - 1);
            pos.unmake_move();
            if bad.is_some() {
                return bad;
            }
        }
    }
    None
}

/// Leaf counts per root move. `progress(done, total, move, count)` is called after each root
/// move, so that long runs can report.
pub fn divide<R: Rules>(
    pos: &mut Position<R>,
    depth: u32,
    progress: &mut dyn FnMut(usize, usize, Move, u64),
) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut out = Vec::with_capacity(list.len());
    for (i, &m) in list.iter().enumerate() {
        pos.make_move(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.unmake_move();
        out.push((m, n));
        progress(i + 1, list.len(), m, n);
    }
    out
}
