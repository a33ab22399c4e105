//! Parade with pile B's order known (the `open=on` setting, and the yardstick for the hidden
//! game): the fewest actions that connect the pieces, by IDA* over boards. An action either
//! moves a piece or adds the next card's piece, so the state is the board and the number of
//! actions taken; the bound counts groups that one action can join at most.

use super::{Action, MAX_ACTIONS, Parade, connected, gap_square, moves};
use crate::kit::solitaire::{Board, Puzzle, Solution, board_key, gap, group_bound, ida, occupancy};

/// A Parade deal with pile B's order known, from a given board on.
pub struct OpenDeal {
    /// Pile B's cards still to come, top first.
    pile: Vec<u8>,
    /// Actions taken at the start of the search.
    base: u8,
}

/// A search state: the board and the actions taken.
pub type State = (Board, u8);

/// A lower bound on the actions that connect `board` ([`group_bound`], orthogonal contact).
pub fn bound(board: &Board) -> u32 {
    group_bound(occupancy(board), false)
}

impl OpenDeal {
    /// The puzzle of `game` from its current state (its true pile B order).
    pub fn new(game: &Parade) -> OpenDeal {
        OpenDeal {
            pile: game.pile().to_vec(),
            base: game.spent() as u8,
        }
    }

    /// The puzzle of `board` with `pile` to come after `spent` actions.
    pub fn from_parts(pile: &[u8], spent: u32) -> OpenDeal {
        OpenDeal {
            pile: pile.to_vec(),
            base: spent as u8,
        }
    }

    /// The most actions a game may still take.
    pub fn max_actions(&self) -> u32 {
        MAX_ACTIONS - u32::from(self.base)
    }

    /// The best play from `board`: the fewest actions found, whether that is proved, within
    /// `budget` expanded states.
    pub fn solve(&self, board: &Board, budget: u64) -> Solution<Action> {
        ida(self, &(*board, self.base), self.max_actions(), budget)
    }
}

impl Puzzle for OpenDeal {
    type State = State;
    type Action = Action;

    fn successors(&self, s: &State, out: &mut Vec<(Action, State, u32)>) {
        let (board, spent) = s;
        if u32::from(*spent) >= MAX_ACTIONS {
            return;
        }
        let mut kids: Vec<(u32, Action, State)> = Vec::new();
        let i = usize::from(spent - self.base);
        if let Some(&c) = self.pile.get(i) {
            let mut b = *board;
            b[gap_square(&b, gap(c))] = c;
            kids.push((bound(&b), Action::Add, (b, spent + 1)));
        }
        for (a, t) in moves(board) {
            let mut b = *board;
            b[t] = b[a];
            b[a] = 0;
            kids.push((bound(&b), Action::Move(a, t), (b, spent + 1)));
        }
        kids.sort_by_key(|k| k.0);
        out.extend(kids.into_iter().map(|(h, a, s)| (a, s, h)));
    }

    fn key(&self, s: &State) -> u64 {
        board_key(&s.0, u32::from(s.1))
    }

    fn solved(&self, s: &State) -> bool {
        connected(&s.0)
    }

    fn bound(&self, s: &State) -> u32 {
        bound(&s.0)
    }
}
