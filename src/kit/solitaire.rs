//! What the two solitaires (Parade, Neighbour) share: a board of the 16 non-pawn pieces and
//! their reach on an 8x8 board, connectivity of all pieces as one group, and an IDA* search
//! for the fewest actions that connect them (with the node budget it may spend and whether it
//! proved its answer optimal).

use super::board::{self, Sq};
use crate::Color;
use crate::table::{Outcome, TableGame};
use arrayvec::ArrayVec;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A hasher for keys that are already hashes.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

type KeyMap = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// A 64-bit hash of a board and a small number (the actions taken, say).
pub fn board_key(b: &Board, extra: u32) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(extra);
    for chunk in b.chunks_exact(8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        h = (h ^ w).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 32;
    }
    h
}

/// The board: each square empty (0) or a piece letter (`KQRBN` White, `kqrbn` Black).
pub type Board = [u8; 64];

/// The 16 pieces (and their cards): each colour's K, Q, two R, two B, two N.
pub const PIECES: &[u8; 16] = b"KQRRBBNNkqrrbbnn";

/// True for a White piece's letter.
pub fn is_white(p: u8) -> bool {
    p.is_ascii_uppercase()
}

/// True for one of the ten letters.
pub fn is_piece(p: u8) -> bool {
    b"KQRBNkqrbn".contains(&p)
}

/// The layout gap of a piece's card (rules §1): N 1, B 2, R 3, Q 5, K 6.
pub fn gap(p: u8) -> usize {
    match p.to_ascii_uppercase() {
        b'N' => 1,
        b'B' => 2,
        b'R' => 3,
        b'Q' => 5,
        _ => 6,
    }
}

/// The occupied squares as a bit set, eight squares at a time: a byte's top bit is set when
/// the byte is not zero, and a multiplication gathers the eight top bits into one byte.
pub fn occupancy(b: &Board) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    per_square(b, |x| ((((x & LOW7) + LOW7) | x) & !LOW7) >> 7)
}

/// One bit per square, eight squares at a time: `flag` turns a rank's eight bytes (as one
/// little-endian word) into a word with each square's bit at the bottom of its byte, and a
/// multiplication gathers the eight bits into one byte.
fn per_square(b: &Board, flag: impl Fn(u64) -> u64) -> u64 {
    let mut m = 0u64;
    for (i, rank) in b.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(rank.try_into().expect("eight squares"));
        m |= (flag(x).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
    }
    m
}

/// The White pieces' squares among those of `occ` (the board's occupancy), eight squares at
/// a time: bit 5 (`0x20`) of a letter is set in lower case.
pub fn white_squares(b: &Board, occ: u64) -> u64 {
    occ & !per_square(b, |x| (x >> 5) & 0x0101_0101_0101_0101)
}

/// The squares next to some square of `x` (any of the eight directions); a square of `x` is
/// in it only when another square of `x` is next to it.
pub fn neighbours(x: u64) -> u64 {
    let side = (x << 1 & NOT_A) | (x >> 1 & NOT_H);
    let row = x | side;
    side | row << 8 | row >> 8
}

/// The squares a piece of type `kind` (`KQRBN`, either case) on `s` attacks when `occ` is
/// occupied: knight and king steps, and slides up to and including the first occupied square.
pub fn reach(kind: u8, s: Sq, occ: u64) -> u64 {
    board::reach(kind.to_ascii_uppercase() as char, Color::White, s, occ)
}

const NOT_A: u64 = !0x0101_0101_0101_0101;
const NOT_H: u64 = !0x8080_8080_8080_8080;

/// `x` and its neighbours: the four orthogonal ones, or all eight with `diagonal`.
pub fn grow(x: u64, diagonal: bool) -> u64 {
    if diagonal {
        let y = x | (x << 1 & NOT_A) | (x >> 1 & NOT_H);
        y | y << 8 | y >> 8
    } else {
        x | x << 8 | x >> 8 | (x << 1 & NOT_A) | (x >> 1 & NOT_H)
    }
}

/// The group of `occ` that holds the square bit `seed`.
fn flood(seed: u64, occ: u64, diagonal: bool) -> u64 {
    let mut g = seed;
    loop {
        let next = grow(g, diagonal) & occ;
        if next == g {
            return g;
        }
        g = next;
    }
}

/// The number of connected groups of the squares in `occ` (orthogonal contact, or any of the
/// eight with `diagonal`).
pub fn groups(occ: u64, diagonal: bool) -> u32 {
    let mut rest = occ;
    let mut n = 0;
    while rest != 0 {
        rest &= !flood(rest & rest.wrapping_neg(), occ, diagonal);
        n += 1;
    }
    n
}

/// A lower bound on the actions that join the pieces `occ` into one group when an action
/// moves one piece or adds one. In the end each group now apart either has a piece that moved
/// or touches a piece that moved or was added; such a piece answers for its own group and the
/// groups around its new square, at most `1 + m` where `m` is the most groups any empty square
/// touches now. So at least `groups / (1 + m)` pieces move or come.
pub fn group_bound(occ: u64, diagonal: bool) -> u32 {
    let gs = groups_of(occ, diagonal);
    if gs.len() <= 1 {
        return 0;
    }
    let around = gs.iter().map(|&g| grow(g, diagonal) & !occ);
    div_ceil_small(gs.len() as u32, 1 + most_touched(around))
}

/// `n.div_ceil(d)`, by constants for the divisors the bounds use (1 to 5): a division
/// instruction takes tens of cycles, in the solvers' hottest loop.
pub fn div_ceil_small(n: u32, d: u32) -> u32 {
    match d {
        1 => n,
        2 => n.div_ceil(2),
        3 => n.div_ceil(3),
        4 => n.div_ceil(4),
        5 => n.div_ceil(5),
        _ => n.div_ceil(d),
    }
}

/// Groups of squares, each as a bit set (64 squares make at most 32 groups apart).
pub type Groups = ArrayVec<u64, 32>;

/// The connected groups of `occ`, each as a bit set.
pub fn groups_of(occ: u64, diagonal: bool) -> Groups {
    let mut rest = occ;
    let mut out = Groups::new();
    while rest != 0 {
        let g = flood(rest & rest.wrapping_neg(), occ, diagonal);
        rest &= !g;
        out.push(g);
    }
    out
}

/// Writes to `out` the groups of `gs` (the connected groups of some squares) after the square
/// bit `gone` leaves and the square bit `came` comes (or stays, when it was in a group): only
/// the group that loses `gone` is flooded again, and the groups touching `came` join it.
pub fn regroup(gs: &Groups, gone: u64, came: u64, diagonal: bool, out: &mut Groups) {
    out.clear();
    let mut joined = came;
    let mut keep = |g: u64| {
        if grow(g, diagonal) & came != 0 {
            joined |= g;
        } else {
            out.push(g);
        }
    };
    for &g in gs {
        if g & gone == 0 {
            keep(g);
            continue;
        }
        let rest = g & !gone;
        // A square with one neighbour in its group leaves the rest connected.
        if (grow(gone, diagonal) & rest).count_ones() <= 1 {
            if rest != 0 {
                keep(rest);
            }
            continue;
        }
        let mut left = rest;
        while left != 0 {
            let part = flood(left & left.wrapping_neg(), rest, diagonal);
            left &= !part;
            keep(part);
        }
    }
    out.push(joined);
}

/// The most of the sets `around` that one square is in, capped at 4 (the most groups one
/// square can touch), and at least 1.
pub fn most_touched(around: impl IntoIterator<Item = u64>) -> u32 {
    // Bit-sliced counters: c0 ones, c1 twos, c2 fours (saturating).
    let (mut c0, mut c1, mut c2) = (0u64, 0u64, 0u64);
    for a in around {
        let carry0 = c0 & a;
        c0 ^= a;
        let carry1 = c1 & carry0;
        c1 ^= carry0;
        c2 |= carry1;
    }
    if c2 != 0 {
        4
    } else if c1 & c0 != 0 {
        3
    } else if c1 != 0 {
        2
    } else {
        1
    }
}

/// Why a solitaire refuses `action`: its `apply`, which checks every rule, says which one
/// fails (tried on a copy).
pub fn refusal<G: TableGame>(game: &G, action: &G::Action) -> String {
    match game.clone().apply(action) {
        Err(e) => e,
        Ok(_) => "illegal action".into(),
    }
}

/// The end of a solitaire: its one seat's score, the result word and the reason.
pub fn solo_outcome(score: f64, result: &str, reason: &str) -> Outcome {
    Outcome {
        scores: vec![score],
        result: result.into(),
        reason: reason.into(),
    }
}

/// A one-player puzzle of unit-cost actions, for [`ida`].
pub trait Puzzle {
    /// A state (hashable: the exhaustive search keeps the states it has seen).
    type State: Clone + Eq + Hash;
    /// An action.
    type Action: Clone;
    /// The actions from `s` with the bounds of the states they lead to, best-looking first,
    /// appended to `out` (which may hold others' successors).
    fn successors(&self, s: &Self::State, out: &mut Vec<(Self::Action, u32)>);
    /// The state `a` (one of `successors(s)`) leads to from `s`.
    fn play(&self, s: &Self::State, a: &Self::Action) -> Self::State;
    /// A 64-bit key of the state for [`ida`]'s table of states seen (two states sharing a
    /// key are taken as one: with a good hash, never in practice).
    fn key(&self, s: &Self::State) -> u64;
    /// True when `s` is solved.
    fn solved(&self, s: &Self::State) -> bool;
    /// A lower bound on the actions still needed from `s` (never more than the truth).
    fn bound(&self, s: &Self::State) -> u32;
}

/// What a search found: the actions, whether they are proved the fewest possible, the lower
/// bound it reached, and the states it expanded.
#[derive(Clone, Debug)]
pub struct Solution<A> {
    /// The actions of the best solution found (`None`: none found).
    pub actions: Option<Vec<A>>,
    /// True when no shorter solution exists (and, with `actions` `None`, none within `max`).
    pub proved: bool,
    /// Every solution needs at least this many actions.
    pub lower: u32,
    /// States expanded.
    pub nodes: u64,
}

/// Iterative-deepening A*: the fewest actions (at most `max`) that solve `start`, expanding
/// at most `budget` states. Within one iteration a state reached again at no smaller depth is
/// skipped, which keeps the answer optimal. When the budget runs out the answer is not proved.
pub fn ida<P: Puzzle>(p: &P, start: &P::State, max: u32, budget: u64) -> Solution<P::Action> {
    let h0 = p.bound(start);
    let mut ida = Ida {
        p,
        limit: h0,
        budget,
        nodes: 0,
        seen: KeyMap::default(),
        path: Vec::new(),
        next: u32::MAX,
        kids: Vec::new(),
    };
    while ida.limit <= max {
        ida.seen.clear();
        ida.next = u32::MAX;
        let (proved, found) = match ida.dfs(start, h0, 0) {
            Search::Found => (true, true),
            Search::Budget => (false, false),
            Search::NotFound if ida.next == u32::MAX => break,
            Search::NotFound => {
                ida.limit = ida.next;
                continue;
            }
        };
        return Solution {
            actions: found.then_some(ida.path),
            proved,
            lower: ida.limit,
            nodes: ida.nodes,
        };
    }
    Solution {
        actions: None,
        proved: true,
        lower: ida.limit,
        nodes: ida.nodes,
    }
}

enum Search {
    Found,
    NotFound,
    Budget,
}

/// One iteration of [`ida`]: its bound on cost, what it has seen and found, and one buffer
/// for the successors of every state on the path (each state's at the end, while it is
/// searched).
struct Ida<'a, P: Puzzle> {
    p: &'a P,
    limit: u32,
    budget: u64,
    nodes: u64,
    seen: KeyMap,
    path: Vec<P::Action>,
    /// The smallest cost over `limit` met, the next iteration's limit.
    next: u32,
    kids: Vec<(P::Action, u32)>,
}

impl<P: Puzzle> Ida<'_, P> {
    /// Searches below `s` (its bound `h`, reached in `g` actions).
    fn dfs(&mut self, s: &P::State, h: u32, g: u32) -> Search {
        // A solved state's bound is 0: a state with a positive bound need not be tested.
        if h == 0 && self.p.solved(s) {
            return Search::Found;
        }
        let f = g + h;
        if f > self.limit {
            self.next = self.next.min(f);
            return Search::NotFound;
        }
        if g >= self.limit {
            self.next = self.next.min(g + 1);
            return Search::NotFound;
        }
        let key = self.p.key(s);
        // Reached before at no greater depth: nothing new below.
        match self.seen.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) if *e.get() <= g => return Search::NotFound,
            e => {
                e.insert_entry(g);
            }
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Search::Budget;
        }
        let first = self.kids.len();
        self.p.successors(s, &mut self.kids);
        let end = self.kids.len();
        let mut result = Search::NotFound;
        for i in first..end {
            let h = self.kids[i].1;
            if g + 1 + h > self.limit {
                self.next = self.next.min(g + 1 + h);
                continue;
            }
            let a = self.kids[i].0.clone();
            let t = self.p.play(s, &a);
            self.path.push(a);
            match self.dfs(&t, h, g + 1) {
                Search::NotFound => {
                    self.path.pop();
                }
                other => {
                    result = other;
                    break;
                }
            }
        }
        self.kids.truncate(first);
        result
    }
}

/// A solution of `start` in at most `max` actions, not necessarily the shortest: a beam search
/// that keeps, level by level, the `width` states with the smallest bounds (each state once).
/// For when [`ida`] runs out of budget.
pub fn beam<P: Puzzle>(p: &P, start: &P::State, max: u32, width: usize) -> Option<Vec<P::Action>> {
    if p.solved(start) {
        return Some(Vec::new());
    }
    let mut seen = KeyMap::default();
    seen.insert(p.key(start), 0);
    // Each state with the index of its parent entry and the action that led to it.
    let mut arena: Vec<(Option<usize>, Option<P::Action>)> = vec![(None, None)];
    let mut level: Vec<(u32, usize, P::State)> = vec![(p.bound(start), 0, start.clone())];
    let mut kids = Vec::new();
    for _ in 0..max {
        let mut next: Vec<(u32, usize, P::State)> = Vec::new();
        for (_, at, s) in &level {
            kids.clear();
            p.successors(s, &mut kids);
            for (a, h) in kids.drain(..) {
                let t = p.play(s, &a);
                let k = p.key(&t);
                if seen.insert(k, 0).is_some() {
                    continue;
                }
                arena.push((Some(*at), Some(a)));
                let id = arena.len() - 1;
                if p.solved(&t) {
                    let mut path = Vec::new();
                    let mut cur = id;
                    while let (Some(parent), Some(a)) = (arena[cur].0, arena[cur].1.clone()) {
                        path.push(a);
                        cur = parent;
                    }
                    path.reverse();
                    return Some(path);
                }
                next.push((h, id, t));
            }
        }
        if next.is_empty() {
            return None;
        }
        next.sort_by_key(|n| n.0);
        next.truncate(width);
        level = next;
    }
    None
}

/// `n` of `cards` in a random order: a hidden pile drawn from the cards a seat has not seen.
pub fn draw_some<T: Copy>(mut cards: Vec<T>, n: usize, rng: &mut rand::rngs::StdRng) -> Result<Vec<T>, String> {
    use rand::RngExt;
    if n > cards.len() {
        return Err(format!("a pile of {n} hidden cards, but {} unseen", cards.len()));
    }
    Ok((0..n)
        .map(|_| cards.swap_remove(rng.random_range(0..cards.len())))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::board::{parse_sq, squares};

    fn bits(names: &[&str]) -> u64 {
        names.iter().fold(0, |m, n| m | 1 << parse_sq(n).unwrap())
    }

    /// A xorshift generator from `seed`, for random boards.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn occupancy_marks_every_square_holding_a_byte() {
        // Every byte value on every square, alone and beside others (a byte of 0x80 or 0x7f
        // next to zeros catches a carry between bytes).
        for s in 0..64 {
            for v in 1..=255u8 {
                let mut b: Board = [0; 64];
                b[s] = v;
                assert_eq!(occupancy(&b), 1 << s, "{v} on {s}");
                b[(s + 9) % 64] = 0x80;
                assert_eq!(occupancy(&b), 1 << s | 1 << ((s + 9) % 64), "{v} on {s}");
            }
        }
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..1000 {
            let mut b: Board = [0; 64];
            for slot in b.iter_mut() {
                let r = next();
                *slot = if r.is_multiple_of(3) { (r >> 8) as u8 } else { 0 };
            }
            let walked = (0..64).filter(|&s| b[s] != 0).fold(0u64, |m, s| m | 1 << s);
            assert_eq!(occupancy(&b), walked);
        }
    }

    #[test]
    fn regroup_agrees_with_grouping_again() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let sorted = |mut g: Groups| {
            g.sort_unstable();
            g
        };
        let mut after = Groups::new();
        for round in 0..3000 {
            // Sparse and dense boards, so that groups split, join and stay apart.
            let occ = if round % 2 == 0 {
                next() & next()
            } else {
                next() & (next() | next())
            };
            if occ == 0 {
                continue;
            }
            // A random square of `set`, as its bit.
            let mut pick = |set: u64| {
                let n = (next() % u64::from(set.count_ones())) as usize;
                squares(set).nth(n).map_or(0, |s| 1u64 << s)
            };
            let gone = pick(occ);
            // Onto an empty square, or onto another piece (a capture).
            let came = if round % 3 == 0 && occ != gone {
                pick(occ & !gone)
            } else {
                pick(!occ)
            };
            for diagonal in [true, false] {
                regroup(&groups_of(occ, diagonal), gone, came, diagonal, &mut after);
                let want = groups_of(occ & !gone | came, diagonal);
                assert_eq!(sorted(after.clone()), sorted(want), "{occ:#x} {gone:#x} -> {came:#x}");
            }
        }
    }

    #[test]
    fn white_squares_and_neighbours_agree_with_walking_the_board() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            let mut b: Board = [0; 64];
            for slot in b.iter_mut() {
                let r = next();
                *slot = if r.is_multiple_of(3) {
                    b"KQRBNkqrbn"[(r >> 8) as usize % 10]
                } else {
                    0
                };
            }
            let walked = (0..64).filter(|&s| is_white(b[s])).fold(0u64, |m, s| m | 1 << s);
            assert_eq!(white_squares(&b, occupancy(&b)), walked);
            let x = next() & next();
            let near = (0..64)
                .filter(|&s| grow(1 << s, true) & x & !(1u64 << s) != 0)
                .fold(0u64, |m, s| m | 1 << s);
            assert_eq!(neighbours(x), near, "{x:#x}");
        }
    }

    #[test]
    fn groups_orthogonal_and_diagonal() {
        // a1-b1 touch; c2 touches b1 only diagonally; h1 and a2 are not neighbours (no wrap).
        let occ = bits(&["a1", "b1", "c2", "h1", "a2"]);
        assert_eq!(groups(occ, false), 3);
        assert_eq!(groups(occ, true), 2);
        assert_eq!(groups(bits(&["h4", "a5"]), true), 2);
    }

    #[test]
    fn group_bound_counts_the_groups_a_square_touches() {
        // Three lone pieces around d4 (d5, c4, e4): one piece on d4 joins them, and the bound
        // is ceil(3 / (1 + 3)) = 1.
        assert_eq!(group_bound(bits(&["d5", "c4", "e4"]), false), 1);
        // Pieces far apart: no square touches two, so each piece moved joins at most two
        // groups: ceil(4 / 2) = 2.
        assert_eq!(group_bound(bits(&["a1", "h1", "a8", "h8"]), false), 2);
        // One group: nothing to do.
        assert_eq!(group_bound(bits(&["a1", "a2"]), false), 0);
        // a1 and c3 are two groups either way. Touching orthogonally, a square touches at most
        // one of them: ceil(2 / (1 + 1)) = 1. Touching diagonally too, b2 touches both:
        // ceil(2 / (1 + 2)) = 1.
        assert_eq!(group_bound(bits(&["a1", "c3"]), false), 1);
        assert_eq!(group_bound(bits(&["a1", "c3"]), true), 1);
        assert_eq!(group_bound(bits(&["a1", "b2"]), true), 0);
    }

    #[test]
    fn reach_stops_at_the_first_piece() {
        let occ = bits(&["d4", "d6"]);
        let r = reach(b'R', parse_sq("d4").unwrap(), occ);
        assert!(r >> parse_sq("d6").unwrap() & 1 != 0);
        assert!(r >> parse_sq("d7").unwrap() & 1 == 0);
        assert_eq!(r.count_ones(), 2 + 7 + 3);
    }
}
