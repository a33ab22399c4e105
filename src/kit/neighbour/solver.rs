//! Neighbour with both decks' order known (the `open=on` setting, and the yardstick for the
//! hidden game): the best score for a deal. Every way of adding (where each carried piece
//! lands when its square is taken, and when to stop) is tried; for each board the adding
//! leaves, IDA* finds the fewest moves that connect it, allowed only as many as could still
//! beat the best score so far.

use super::{Action, Neighbour, Phase, connected, each_move};
use crate::kit::board::Sq;
use crate::kit::solitaire::{
    Board, Groups, Puzzle, Solution, beam, board_key, div_ceil_small, groups_of, grow, ida, most_touched, neighbours,
    occupancy, regroup, white_squares,
};
use std::collections::HashSet;

/// The moving phase as a puzzle: boards, one move an action.
pub struct Moves {
    /// Borrowed moves may take enemy pieces.
    pub captures: bool,
}

/// A lower bound on the moves that connect `board`: [`group_bound`] (eight directions), and
/// also: a group none of whose pieces has a same-colour neighbour cannot move a piece until
/// some piece lands next to it, so each such group needs a moved piece beside it, and one
/// moved piece touches at most `m` groups (the most any empty square touches now).
pub fn bound(board: &Board) -> u32 {
    let occ = occupancy(board);
    bound_from(&groups_of(occ, true), occ, white_squares(board, occ))
}

/// [`bound`] from the board's groups `gs`, occupancy `occ` and White's squares `white`.
fn bound_from(gs: &Groups, occ: u64, white: u64) -> u32 {
    if gs.len() <= 1 {
        return 0;
    }
    let black = occ & !white;
    // A piece can move while a piece of its colour stands next to it.
    let movable = (white & neighbours(white)) | (black & neighbours(black));
    let stuck = gs.iter().filter(|&&g| g & movable == 0).count() as u32;
    let m = most_touched(gs.iter().map(|&g| grow(g, true) & !occ));
    div_ceil_small(gs.len() as u32, 1 + m).max(div_ceil_small(stuck, m))
}

impl Puzzle for Moves {
    type State = Board;
    type Action = Action;

    fn successors(&self, s: &Board, out: &mut Vec<(Action, u32)>) {
        let occ = occupancy(s);
        let white = white_squares(s, occ);
        let gs = groups_of(occ, true);
        let first = out.len();
        let mut after = Groups::new();
        each_move(s, self.captures, |a, t| {
            // The bound from the groups one move changes, not from the whole board again.
            let (gone, came) = (1u64 << a, 1u64 << t);
            let white = if white & gone != 0 {
                white & !gone | came
            } else {
                white & !came
            };
            regroup(&gs, gone, came, true, &mut after);
            let h = bound_from(&after, occ & !gone | came, white);
            out.push((Action::Move(a, t), h));
        });
        // Most promising first; a stable sort keeps the generation order among equals.
        out[first..].sort_by_key(|k| k.1);
    }

    fn play(&self, s: &Board, a: &Action) -> Board {
        let mut b = *s;
        if let Action::Move(a, t) = *a {
            b[t] = b[a];
            b[a] = 0;
        }
        b
    }

    fn key(&self, s: &Board) -> u64 {
        board_key(s, 0)
    }

    fn solved(&self, s: &Board) -> bool {
        connected(s)
    }

    fn bound(&self, s: &Board) -> u32 {
        bound(s)
    }
}

/// Some moves (at most `max`) that connect `board`, found by a beam search of `width`.
pub fn some_moves(board: &Board, captures: bool, max: u32, width: usize) -> Option<Vec<Action>> {
    beam(&Moves { captures }, board, max, width)
}

/// The fewest moves (at most `max`) that connect `board`.
pub fn fewest_moves(board: &Board, captures: bool, max: u32, budget: u64) -> Solution<Action> {
    ida(&Moves { captures }, board, max, budget)
}

/// The best play found for an open deal.
#[derive(Clone, Debug)]
pub struct Best {
    /// The score it reaches (cards left), or 0 with no plan.
    pub score: u32,
    /// The actions from the state solved (adds, places, stop, moves); `None` if none connects.
    pub plan: Option<Vec<Action>>,
    /// True when no play scores more.
    pub proved: bool,
    /// States expanded by all the searches.
    pub nodes: u64,
}

/// The best play from `game` (in its add, place or move step) knowing both decks' order,
/// spending at most `budget` states in all. Every board the adding can leave is collected
/// first; then, for each score from the highest any board could reach down, each board that
/// could still reach it is searched for a connection within the moves that score allows. The
/// first score reached is the best.
pub fn solve_open(game: &Neighbour, budget: u64) -> Best {
    let mut stops: Vec<(Neighbour, Vec<Action>)> = Vec::new();
    let mut seen = HashSet::new();
    collect(game, &mut Vec::new(), &mut seen, &mut stops);
    let mut best = Best {
        score: 0,
        plan: None,
        proved: true,
        nodes: 0,
    };
    // Cards left at the stop, a lower bound on the moves still needed, and whether that bound
    // is all a search has shown so far.
    let mut boards: Vec<(u32, u32)> = stops
        .iter()
        .map(|(g, _)| match g.phase() {
            // Connected as the adding stopped, or lost there (no move left).
            Phase::Over if connected(g.board()) => (g.cards_left(), 0),
            Phase::Over => (0, 1),
            _ => (g.cards_left(), bound(g.board())),
        })
        .collect();
    let top = boards.iter().map(|&(c, lb)| c.saturating_sub(lb)).max().unwrap_or(0);
    for target in (0..=top).rev() {
        for (i, (g, path)) in stops.iter().enumerate() {
            let (cards, lb) = boards[i];
            if cards < target + lb {
                continue;
            }
            if g.phase() == Phase::Over {
                // Connected as the adding stopped.
                if cards >= target {
                    best.score = cards;
                    best.plan = Some(path.clone());
                    return best;
                }
                continue;
            }
            if best.nodes >= budget {
                return fallback(&stops, best);
            }
            let sol = fewest_moves(g.board(), g.rules().captures, cards - target, budget - best.nodes);
            best.nodes += sol.nodes;
            match sol.actions {
                Some(m) => {
                    best.score = cards - m.len() as u32;
                    best.plan = Some(path.iter().copied().chain(m).collect());
                    best.proved = sol.proved;
                    return best;
                }
                None if sol.proved => boards[i].1 = cards - target + 1,
                None => return fallback(&stops, best),
            }
        }
    }
    best
}

/// When the budget runs out: the best score a beam search finds from the ways to stop, not
/// proved.
fn fallback(stops: &[(Neighbour, Vec<Action>)], mut best: Best) -> Best {
    best.proved = false;
    for (g, path) in stops {
        let cards = g.cards_left();
        if g.phase() == Phase::Over || best.plan.is_some() && cards <= best.score {
            continue;
        }
        if let Some(m) = some_moves(g.board(), g.rules().captures, cards, 200) {
            let score = cards - m.len() as u32;
            if best.plan.is_none() || score > best.score {
                best.score = score;
                best.plan = Some(path.iter().copied().chain(m).collect());
            }
        }
    }
    best
}

/// Every state in which the adding can stop (or has stopped) from `g`, with its actions.
fn collect(
    g: &Neighbour,
    path: &mut Vec<Action>,
    seen: &mut HashSet<(Board, usize, Option<Sq>)>,
    out: &mut Vec<(Neighbour, Vec<Action>)>,
) {
    match g.phase() {
        Phase::Move | Phase::Over => out.push((g.clone(), path.clone())),
        Phase::Add | Phase::Place => {
            if g.phase() == Phase::Add && !seen.insert((*g.board(), g.pieces().len(), g.anchor())) {
                return;
            }
            for a in crate::table::TableGame::legal_actions(g) {
                let mut n = g.clone();
                if crate::table::TableGame::apply(&mut n, &a).is_ok() {
                    path.push(a);
                    collect(&n, path, seen, out);
                    path.pop();
                }
            }
        }
        Phase::Deal => {}
    }
}
