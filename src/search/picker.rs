//! Staged move picking: the stored (TT) move before any generation, then the captures that do
//! not lose the exchange, the killers and the countermove, the quiet moves by history, and last
//! the captures that lose. Each half of the moves is generated only when the node gets to it,
//! and static exchange is worked out only for the capture about to be tried. A side that must
//! answer a threat to its king gets every legal move at once, ordered as one list.

use super::{Searcher, see};
use crate::moves::{MAX_MOVES, Move, MoveKind, MoveList};
use crate::position::{Piece, Position};
use crate::rules::Rules;

/// Ordering score of a capture that loses the exchange in the one-list order (after quiets).
const LOSING: i32 = -1_500_000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Tt,
    CapturesInit,
    GoodCaptures,
    Refutations,
    QuietsInit,
    Quiets,
    BadCaptures,
    AllInit,
    All,
    Done,
}

/// A move from the picker, with what the search needs to know of how it was found.
#[derive(Clone, Copy, Debug)]
pub(super) struct Picked {
    pub mv: Move,
    /// A capture that loses the exchange (tried after the quiet moves).
    pub losing: bool,
    /// Found without generation (the TT move, a killer): only pseudo-legal, so the search
    /// checks after making it that the mover's royal piece is safe.
    pub unverified: bool,
}

impl Picked {
    /// A move from a generated (legal) list.
    fn generated(mv: Move) -> Picked {
        Picked::losing(mv, false)
    }

    /// A generated move, `losing` when it is a capture that loses the exchange.
    fn losing(mv: Move, losing: bool) -> Picked {
        Picked {
            mv,
            losing,
            unverified: false,
        }
    }

    /// A move tried before generation (the TT move, a killer): only pseudo-legal.
    fn unverified(mv: Move) -> Picked {
        Picked {
            mv,
            losing: false,
            unverified: true,
        }
    }
}

/// One ply's move list, scores, killers and picking state.
pub(super) struct Frame {
    pub moves: MoveList,
    pub scores: [i32; MAX_MOVES],
    pub killers: [Move; 2],
    stage: Stage,
    /// Next index to pick from.
    cur: usize,
    /// Captures that lose the exchange wait in `moves[..bad]`.
    bad: usize,
    /// End of the capture half of `moves` (the quiet half follows).
    captures_end: usize,
    /// The TT move, once tried (skipped when the lists come to it).
    tt: Move,
    tt_candidate: Move,
    /// Killers and countermove: candidates, and those already tried.
    refutations: [Move; 3],
    refutation: usize,
    tried: [Move; 3],
    /// Every legal move in one list (the side to move must answer a threat).
    all_at_once: bool,
    /// The capture and quiet halves are generated apart (else split from one generation).
    cheap_halves: bool,
    /// Late-move pruning: the rest of the quiet moves are not wanted.
    pub skip_quiets: bool,
}

impl Frame {
    pub fn new() -> Frame {
        Frame {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            killers: [Move::NONE; 2],
            stage: Stage::Done,
            cur: 0,
            bad: 0,
            captures_end: 0,
            tt: Move::NONE,
            tt_candidate: Move::NONE,
            refutations: [Move::NONE; 3],
            refutation: 0,
            tried: [Move::NONE; 3],
            all_at_once: false,
            cheap_halves: true,
            skip_quiets: false,
        }
    }

    /// The table's move once it has been tried (`Move::NONE` if none, or not a move here).
    pub fn tt_move(&self) -> Move {
        self.tt
    }

    /// Starts picking at a node: `all_at_once` for a side that must answer a threat (every
    /// legal move in one ordered list), `counter` the countermove to the opponent's last move.
    pub fn start(&mut self, tt_move: Move, counter: Move, all_at_once: bool) {
        self.stage = Stage::Tt;
        self.tt_candidate = tt_move;
        self.tt = Move::NONE;
        self.refutations = [self.killers[0], self.killers[1], counter];
        self.refutation = 0;
        self.tried = [Move::NONE; 3];
        self.skip_quiets = false;
        self.cur = 0;
        self.bad = 0;
        self.captures_end = 0;
        self.moves.clear();
        self.all_at_once = all_at_once;
    }

    /// True when `m` was already handed out by an earlier stage.
    #[inline]
    fn done_before(&self, m: Move) -> bool {
        m == self.tt || self.tried.contains(&m)
    }

    /// The highest-scored move of `i..`, swapped to `i` (quiescence orders its own list).
    pub fn pick(&mut self, i: usize) -> Move {
        self.cur = i;
        self.select(self.moves.len());
        self.moves[i]
    }

    /// Moves the highest-scored move of `cur..end` to `cur`.
    #[inline]
    fn select(&mut self, end: usize) {
        let mut best = self.cur;
        for j in self.cur + 1..end {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        self.moves.swap(self.cur, best);
        self.scores.swap(self.cur, best);
    }
}

impl Searcher {
    /// The next move to try at this node, or `None` when every move has been handed out.
    pub(super) fn next_move<R: Rules>(&self, pos: &mut Position<R>, f: &mut Frame, ply: usize) -> Option<Picked> {
        loop {
            let picked = match f.stage {
                Stage::Tt => {
                    f.stage = if f.all_at_once {
                        Stage::AllInit
                    } else {
                        Stage::CapturesInit
                    };
                    let m = f.tt_candidate;
                    pos.is_plain_pseudo_legal(m).then(|| {
                        f.tt = m;
                        Picked::unverified(m)
                    })
                }
                Stage::CapturesInit => {
                    self.init_captures(pos, f);
                    None
                }
                Stage::GoodCaptures => Self::good_capture(pos, f),
                Stage::Refutations => Self::refutation(pos, f),
                Stage::QuietsInit => {
                    f.cur = f.captures_end;
                    if !f.skip_quiets {
                        if f.cheap_halves {
                            pos.legal_quiets(&mut f.moves);
                        }
                        self.score_quiets(pos, f, ply, f.cur);
                    }
                    f.stage = Stage::Quiets;
                    None
                }
                Stage::Quiets => Self::quiet(f),
                Stage::BadCaptures => {
                    if f.cur < f.bad {
                        f.cur += 1;
                        return Some(Picked::losing(f.moves[f.cur - 1], true));
                    }
                    f.stage = Stage::Done;
                    None
                }
                Stage::AllInit => {
                    pos.legal_moves(&mut f.moves);
                    self.score_all(pos, f, ply);
                    f.cur = 0;
                    f.stage = Stage::All;
                    None
                }
                Stage::All => Self::any_move(f),
                Stage::Done => return None,
            };
            if picked.is_some() {
                return picked;
            }
        }
    }

    /// The capture stage's list: captures and promotions generated apart where that is cheap,
    /// else every move generated once and split, captures and promotions first; then scored.
    fn init_captures<R: Rules>(&self, pos: &mut Position<R>, f: &mut Frame) {
        f.cheap_halves = pos.halves_are_cheap();
        if f.cheap_halves {
            pos.legal_captures(&mut f.moves);
            f.captures_end = f.moves.len();
        } else {
            pos.legal_moves(&mut f.moves);
            let mut split = 0;
            for i in 0..f.moves.len() {
                let m = f.moves[i];
                if pos.victim(m).is_some() || m.kind() == MoveKind::Promotion {
                    f.moves.swap(split, i);
                    split += 1;
                }
            }
            f.captures_end = split;
        }
        self.score_captures(pos, f);
        f.stage = Stage::GoodCaptures;
    }

    /// The best capture left that does not lose the exchange (those that do wait at the front
    /// of the list for the last stage); `None` moves on to the refutations.
    fn good_capture<R: Rules>(pos: &Position<R>, f: &mut Frame) -> Option<Picked> {
        while f.cur < f.captures_end {
            f.select(f.captures_end);
            let m = f.moves[f.cur];
            if m == f.tt {
                f.cur += 1;
                continue;
            }
            if pos.victim(m).is_some() && see::loses(pos, m) == Some(true) {
                f.moves.swap(f.bad, f.cur);
                f.scores.swap(f.bad, f.cur);
                f.bad += 1;
                f.cur += 1;
                continue;
            }
            f.cur += 1;
            return Some(Picked::generated(m));
        }
        f.stage = Stage::Refutations;
        None
    }

    /// The next killer or countermove that is a quiet pseudo-legal move not tried yet; `None`
    /// moves on to the quiet moves.
    fn refutation<R: Rules>(pos: &Position<R>, f: &mut Frame) -> Option<Picked> {
        while f.refutation < 3 {
            let m = f.refutations[f.refutation];
            f.refutation += 1;
            if m == Move::NONE
                || f.done_before(m)
                || m.kind() == MoveKind::Promotion
                || pos.victim(m).is_some()
                || !pos.is_plain_pseudo_legal(m)
            {
                continue;
            }
            f.tried[f.refutation - 1] = m;
            return Some(Picked::unverified(m));
        }
        f.stage = Stage::QuietsInit;
        None
    }

    /// The best quiet move left (none once late-move pruning ends the stage); `None` moves on
    /// to the losing captures.
    fn quiet(f: &mut Frame) -> Option<Picked> {
        if !f.skip_quiets {
            while f.cur < f.moves.len() {
                f.select(f.moves.len());
                let m = f.moves[f.cur];
                f.cur += 1;
                if f.done_before(m) {
                    continue;
                }
                return Some(Picked::generated(m));
            }
        }
        f.cur = 0;
        f.stage = Stage::BadCaptures;
        None
    }

    /// With every move in one list (the side to move must answer a threat): the best left.
    fn any_move(f: &mut Frame) -> Option<Picked> {
        while f.cur < f.moves.len() {
            f.select(f.moves.len());
            let (m, s) = (f.moves[f.cur], f.scores[f.cur]);
            f.cur += 1;
            if m == f.tt {
                continue;
            }
            return Some(Picked::losing(m, s < LOSING / 2));
        }
        f.stage = Stage::Done;
        None
    }

    /// Captures by the victim's value, the capturer's and the capture history; promotions after.
    fn score_captures<R: Rules>(&self, pos: &Position<R>, f: &mut Frame) {
        let eval = &pos.game().eval;
        let us = pos.side_to_move().index();
        for i in 0..f.captures_end {
            let m = f.moves[i];
            let victim = pos.victim(m);
            f.scores[i] = if victim.is_some() {
                self.capture_score(pos, us, m, victim)
            } else if m.kind() == MoveKind::Promotion {
                -1_000_000 + eval.value[m.extra()]
            } else {
                -2_000_000
            };
        }
    }

    #[inline]
    fn capture_score<R: Rules>(&self, pos: &Position<R>, us: usize, m: Move, victim: Piece) -> i32 {
        let mk = pos.piece_at(m.from()).kind();
        let pt = super::piece_to(mk, m.to().index());
        16 * Self::victim_value(pos, victim) - pos.game().eval.value[mk] / 16
            + self.capture_history[us][pt][victim.kind()] / 16
    }

    /// Quiet moves from `start` on, by their histories (killers and countermove first where
    /// they were not tried before the generation).
    fn score_quiets<R: Rules>(&self, pos: &Position<R>, f: &mut Frame, ply: usize, start: usize) {
        let us = pos.side_to_move().index();
        for i in start..f.moves.len() {
            let m = f.moves[i];
            f.scores[i] = if m == f.refutations[0] {
                1_500_000
            } else if m == f.refutations[1] {
                1_400_000
            } else if m == f.refutations[2] {
                1_300_000
            } else {
                let mk = pos.piece_at(m.from()).kind();
                self.quiet_history(us, ply, super::piece_to(mk, m.to().index()))
            };
        }
    }

    /// Every legal move in one order (answers to a threat): captures that do not lose the
    /// exchange, promotions, killers, countermove and quiet moves by history, losing captures.
    fn score_all<R: Rules>(&self, pos: &Position<R>, f: &mut Frame, ply: usize) {
        let eval = &pos.game().eval;
        let us = pos.side_to_move().index();
        let [k0, k1] = f.killers;
        let counter = self.countermove(us, ply);
        for i in 0..f.moves.len() {
            let m = f.moves[i];
            let victim = pos.victim(m);
            f.scores[i] = if victim.is_some() {
                let mvv = self.capture_score(pos, us, m, victim);
                if see::loses(pos, m) == Some(true) {
                    LOSING + mvv
                } else {
                    2_000_000 + mvv
                }
            } else if m.kind() == MoveKind::Promotion {
                1_900_000 + eval.value[m.extra()]
            } else if m == k0 {
                1_500_000
            } else if m == k1 {
                1_400_000
            } else if m == counter {
                1_300_000
            } else {
                let mk = pos.piece_at(m.from()).kind();
                self.quiet_history(us, ply, super::piece_to(mk, m.to().index()))
            };
        }
    }
}
