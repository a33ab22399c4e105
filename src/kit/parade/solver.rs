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

    /// The card an `add` turns after `spent` actions.
    fn next_card(&self, spent: u8) -> Option<u8> {
        self.pile.get(usize::from(spent - self.base)).copied()
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

    fn successors(&self, s: &State, out: &mut Vec<(Action, u32)>) {
        let (board, spent) = s;
        if u32::from(*spent) >= MAX_ACTIONS {
            return;
        }
        let first = out.len();
        if self.next_card(*spent).is_some() {
            out.push((Action::Add, bound(&self.play(s, &Action::Add).0)));
        }
        let occ = occupancy(board);
        for (a, t) in moves(board) {
            out.push((Action::Move(a, t), group_bound(occ & !(1 << a) | 1 << t, false)));
        }
        // Most promising first; a stable sort keeps the generation order among equals.
        out[first..].sort_by_key(|k| k.1);
    }

    fn play(&self, s: &State, a: &Action) -> State {
        let (mut b, spent) = *s;
        match *a {
            Action::Add => {
                if let Some(c) = self.next_card(spent) {
                    b[gap_square(&b, gap(c))] = c;
                }
            }
            Action::Move(a, t) => {
                b[t] = b[a];
                b[a] = 0;
            }
            _ => {}
        }
        (b, spent + 1)
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
