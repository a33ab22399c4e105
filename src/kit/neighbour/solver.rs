//! Neighbour with both decks' order known (the `open=on` setting, and the yardstick for the
//! hidden game): the best score for a deal. Every way of adding (where each carried piece
//! lands when its square is taken, and when to stop) is tried; for each board the adding
//! leaves, IDA* finds the fewest moves that connect it, allowed only as many as could still
//! beat the best score so far.

use super::{Action, Neighbour, Phase, connected, moves};
use crate::kit::board::Sq;
use crate::kit::solitaire::{
    Board, Puzzle, Solution, beam, board_key, groups_of, grow, ida, most_touched, neighbours, occupancy, white_squares,
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
    let gs = groups_of(occ, true);
    if gs.len() <= 1 {
        return 0;
    }
    let white = white_squares(board, occ);
    let black = occ & !white;
    // A piece can move while a piece of its colour stands next to it.
    let movable = (white & neighbours(white)) | (black & neighbours(black));
    let stuck = gs.iter().filter(|&&g| g & movable == 0).count() as u32;
    let m = most_touched(gs.iter().map(|&g| grow(g, true) & !occ));
    (gs.len() as u32).div_ceil(1 + m).max(stuck.div_ceil(m))
}

impl Puzzle for Moves {
    type State = Board;
    type Action = Action;

    fn successors(&self, s: &Board, out: &mut Vec<(Action, Board, u32)>) {
        let first = out.len();
        out.extend(moves(s, self.captures).into_iter().map(|(a, t)| {
            let mut b = *s;
            b[t] = b[a];
            b[a] = 0;
            (Action::Move(a, t), b, bound(&b))
        }));
        // Most promising first; a stable sort keeps the generation order among equals.
        out[first..].sort_by_key(|k| k.2);
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
