//! The tree search below the root: a node's table probe, pruning, move loop, reductions and
//! the histories a cutoff rewards.

use super::*;

impl Searcher {
    pub(super) fn terminal_score<R: Rules>(pos: &Position<R>, ply: usize) -> i32 {
        let us = pos.side_to_move();
        if pos.royals_gone(us) || pos.in_check() {
            return -MATE + ply as i32;
        }
        match pos.variant().stalemate {
            StalemateResult::Draw => 0,
            StalemateResult::Loss => -MATE + ply as i32,
            StalemateResult::Win => MATE - ply as i32,
        }
    }

    /// Index into `continuation` of move `cur` after `prev`, made `back` (1 or 2) plies earlier.
    #[inline]
    fn cont_index(us: usize, back: usize, prev: usize, cur: usize) -> usize {
        ((us * 2 + back - 1) * PIECE_TO + prev) * PIECE_TO + cur
    }

    /// What the histories say of quiet move `pt` of side `us` at `ply`.
    #[inline]
    pub(super) fn quiet_history(&self, us: usize, ply: usize, pt: usize) -> i32 {
        let mut s = self.history[us][pt];
        for back in 1..=2 {
            if ply >= back && self.moved[ply - back] != NO_PIECE_TO {
                s += self.continuation[Self::cont_index(us, back, self.moved[ply - back], pt)] as i32;
            }
        }
        s
    }

    /// Rewards (or, with a negative bonus, punishes) quiet move `pt` in every history.
    fn update_quiet(&mut self, us: usize, ply: usize, pt: usize, bonus: i32) {
        let h = &mut self.history[us][pt];
        *h = gravity(*h, bonus);
        for back in 1..=2 {
            if ply >= back && self.moved[ply - back] != NO_PIECE_TO {
                let c = &mut self.continuation[Self::cont_index(us, back, self.moved[ply - back], pt)];
                *c = gravity(*c as i32, bonus) as i16;
            }
        }
    }

    /// The countermove stored against the opponent's last move.
    #[inline]
    pub(super) fn countermove(&self, us: usize, ply: usize) -> Move {
        if ply >= 1 && self.moved[ply - 1] != NO_PIECE_TO {
            self.countermoves[us][self.moved[ply - 1]]
        } else {
            Move::NONE
        }
    }

    /// What capturing `victim` is worth to move ordering and quiescence: its value, or a win
    /// for a royal piece (games without check, where kings are captured, value kings at 0).
    #[inline]
    pub(super) fn victim_value<R: Rules>(pos: &Position<R>, victim: Piece) -> i32 {
        if pos.game().royal_kinds >> victim.kind() & 1 != 0 {
            MATE_BOUND
        } else {
            pos.game().eval.value[victim.kind()]
        }
    }

    /// True when the side to move must answer a threat to its king: in check, or, in a game
    /// without check, its only royal piece can be captured (standing pat would lose it).
    #[inline]
    pub(super) fn must_answer<R: Rules>(pos: &Position<R>) -> bool {
        let us = pos.side_to_move();
        if pos.variant().check {
            return pos.in_check();
        }
        let royals = pos.royals(us);
        royals.is_nonempty() && !royals.more_than_one() && pos.royal_in_danger(us)
    }

    /// Below the root, before anything else: a node whose search was stopped, drawn by rule or
    /// by repetition ends (`Err(score)`); else the window narrowed by the mate distances.
    #[inline]
    fn early_end<R: Rules>(&mut self, pos: &Position<R>, ply: usize, alpha: i32, beta: i32) -> Result<(i32, i32), i32> {
        self.check_time();
        if self.aborted || pos.move_rule_reached() || pos.is_repetition(1) {
            return Err(0);
        }
        // Mate distance pruning.
        let alpha = alpha.max(-MATE + ply as i32);
        let beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Err(alpha);
        }
        Ok((alpha, beta))
    }

    /// The principal variation of `ply` becomes `m` and the child's.
    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = m;
        let child = self.pv_len[ply + 1].min(MAX_PLY - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=child].copy_from_slice(&tail[0][..child]);
        self.pv_len[ply] = child + 1;
    }

    /// The static evaluation of a node not in check: as stored (`raw`), corrected by the
    /// correction history (compared two plies on, and what the correction learns from), and
    /// that sharpened by a stored bound on the true score (what pruning reads).
    #[inline]
    fn node_eval<R: Rules>(
        &mut self,
        pos: &Position<R>,
        entry: Option<tt::Entry>,
        tt_bound: Option<(i32, u8)>,
        in_check: bool,
    ) -> (i32, i32, i32) {
        if in_check {
            return (-INF, -INF, -INF);
        }
        let raw = entry.map_or_else(|| self.static_eval(pos), |e| e.eval as i32);
        let corrected = (raw + self.correction(pos)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        match tt_bound {
            Some((s, bound))
                if s.abs() < MATE_BOUND
                    && (bound == BOUND_EXACT
                        || (bound == BOUND_LOWER && s > corrected)
                        || (bound == BOUND_UPPER && s < corrected)) =>
            {
                (raw, corrected, s)
            }
            _ => (raw, corrected, corrected),
        }
    }

    /// Pruning before any move of a non-PV node not in check: reverse futility, razoring and
    /// the null move. `Some(score)` ends the node.
    #[inline]
    fn prune_node<R: Rules>(
        &mut self,
        pos: &mut Position<R>,
        frames: &mut [Frame],
        node: (i32, usize, bool),
        eval: i32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let (depth, ply, improving) = node;
        // Reverse futility pruning.
        if depth <= 8 && eval - 80 * (depth - i32::from(improving)) >= beta && beta.abs() < MATE_BOUND {
            return Some(eval);
        }
        // Razoring: far below alpha, only captures can save the node.
        if depth <= 3 && eval + 250 + 150 * depth * depth < alpha {
            let s = self.qsearch(pos, frames, ply, alpha - 1, alpha);
            if self.aborted {
                return Some(0);
            }
            if s < alpha {
                return Some(s);
            }
        }
        // Null move.
        if self.null_ok && depth >= 3 && eval >= beta && pos.state().last_move != Move::NONE && has_pieces(pos) {
            let r = 3 + depth / 3 + ((eval - beta) / 200).min(3);
            self.moved[ply] = NO_PIECE_TO;
            pos.make_null();
            let s = -self.negamax(pos, &mut frames[1..], depth - 1 - r, ply + 1, -beta, -beta + 1, false);
            pos.unmake_null();
            if self.aborted {
                return Some(0);
            }
            if s >= beta {
                return Some(if s >= MATE_BOUND { beta } else { s });
            }
        }
        None
    }

    /// After a cutoff by `m` (moved piece and square `pt`): killers, countermove and the
    /// histories, the moves tried before it made worse.
    #[inline]
    fn reward_cutoff(&mut self, frame: &mut Frame, cut: Cutoff, tried: &Tried) {
        let Cutoff {
            us,
            ply,
            depth,
            m,
            pt,
            victim,
        } = cut;
        let quiet = victim.is_none() && m.kind() != MoveKind::Promotion;
        let bonus = (170 * depth - 70).min(1600);
        if quiet {
            if frame.killers[0] != m {
                frame.killers[1] = frame.killers[0];
                frame.killers[0] = m;
            }
            if ply >= 1 && self.moved[ply - 1] != NO_PIECE_TO {
                self.countermoves[us][self.moved[ply - 1]] = m;
            }
            self.update_quiet(us, ply, pt, bonus);
        } else if victim.is_some() {
            let h = &mut self.capture_history[us][pt][victim.kind()];
            *h = gravity(*h, bonus);
        }
        for &q in &tried.quiets {
            if !quiet || q != pt {
                self.update_quiet(us, ply, q, -bonus);
            }
        }
        for &(c, v) in &tried.captures {
            if (c, v) != (pt, victim.kind()) || quiet {
                let h = &mut self.capture_history[us][c][v];
                *h = gravity(*h, -bonus);
            }
        }
    }

    /// The late-move reduction of the `i`-th move (0 for the first moves, captures that win
    /// material and shallow nodes).
    #[inline]
    fn reduction(&self, depth: i32, i: usize, new_depth: i32, m: Move, why: Reduce, frame: &Frame) -> i32 {
        let Reduce {
            pv_node,
            reducible,
            improving,
            gives_check,
            hist,
            tt_capture,
        } = why;
        if depth < 2 || i <= 2 * usize::from(pv_node) || !reducible {
            return 0;
        }
        let mut r = self.lmr[depth.min(63) as usize][i.min(63)] as i32;
        r -= i32::from(pv_node);
        r += i32::from(!improving);
        r -= i32::from(gives_check);
        r += i32::from(tt_capture);
        r -= i32::from(m == frame.killers[0] || m == frame.killers[1]);
        r -= hist / 12000;
        r.clamp(0, (new_depth - 1).max(0))
    }

    /// The depth the `i`-th move would be searched to after its late-move reduction (what
    /// pruning near the leaves reads).
    #[inline]
    fn lmr_depth(&self, depth: i32, i: usize) -> i32 {
        (depth - 1 - self.lmr[depth.min(63) as usize][i.min(63)] as i32).max(0)
    }

    /// Shallow exchange pruning: a quiet move whose exchange loses more than 30 × (its reduced
    /// depth)², or a losing capture more than 100 × depth, is not worth searching.
    #[inline]
    fn loses_too_much<R: Rules>(&self, pos: &Position<R>, depth: i32, i: usize, quiet: bool, m: Move) -> bool {
        if quiet {
            let lmr_depth = self.lmr_depth(depth, i);
            lmr_depth <= 6 && see::see(pos, m).is_some_and(|v| v < -30 * lmr_depth * lmr_depth)
        } else {
            depth <= 6 && see::see(pos, m).is_some_and(|v| v < -100 * depth)
        }
    }

    /// True when a quiet move is pruned before it is made: late-move pruning (which also ends
    /// the quiet stage), futility and history pruning.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn prune_quiet(
        &self,
        frame: &mut Frame,
        depth: i32,
        i: usize,
        tried: usize,
        lmp_limit: i32,
        eval: i32,
        alpha: i32,
        hist: i32,
    ) -> bool {
        if depth <= 8 && tried as i32 >= lmp_limit {
            frame.skip_quiets = true;
            return true;
        }
        let lmr_depth = self.lmr_depth(depth, i);
        (lmr_depth <= 6 && eval + 100 + 100 * lmr_depth <= alpha) || (lmr_depth <= 3 && hist < -6000 * depth)
    }

    /// The end of a node whose moves were all searched: a pass where the variant has one, then
    /// the table's entry and the correction history; returns the node's score.
    #[inline]
    fn finish_node<R: Rules>(
        &mut self,
        pos: &mut Position<R>,
        rest: &mut [Frame],
        node: (u64, i32, usize, (i32, i32)),
        mut best: i32,
        best_move: Move,
        window: (i32, i32, i32),
    ) -> i32 {
        let (key, depth, ply, (raw_eval, static_eval)) = node;
        let (orig_alpha, alpha, beta) = window;
        // Where a side may pass, passing is one more choice (there is no zugzwang). The best
        // move stays a real move: a pass is not a move to report.
        if pos.variant().pass && best < beta {
            self.moved[ply] = NO_PIECE_TO;
            pos.make_null();
            let s = -self.negamax(pos, rest, depth - 1, ply + 1, -beta, -alpha, false);
            pos.unmake_null();
            if self.aborted {
                return 0;
            }
            best = best.max(s);
        }
        let bound = bound_of(best, orig_alpha, beta, true);
        // A root that skipped moves knows only the best of the rest.
        if ply > 0 || !self.restricted {
            self.tt
                .store(key, best_move, score_to_tt(best, ply), raw_eval, depth, bound);
            // What the search found beyond the static evaluation, where the bound says which
            // way, a quiet best move made it, and no mate decides it.
            let quiet =
                best_move == Move::NONE || (pos.victim(best_move).is_none() && best_move.kind() != MoveKind::Promotion);
            if static_eval > -INF
                && quiet
                && best.abs() < MATE_BOUND
                && !(bound == BOUND_LOWER && best <= static_eval)
                && !(bound == BOUND_UPPER && best >= static_eval)
            {
                self.update_correction(pos, depth, best, static_eval);
            }
        }
        best
    }

    /// Makes `picked`, searches it and unmakes it: the first move with the whole window, a
    /// later one with a null window after its reduction, again unreduced and then with the
    /// whole window while it beats alpha. `None`: a pseudo-legal move that leaves the royal
    /// piece in danger.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn search_move<R: Rules>(
        &mut self,
        pos: &mut Position<R>,
        rest: &mut [Frame],
        frame: &Frame,
        node: Node,
        picked: Picked,
        late: Late,
        (alpha, beta): (i32, i32),
    ) -> Option<i32> {
        let Node {
            depth,
            ply,
            pv_node,
            improving,
        } = node;
        let m = picked.mv;
        let mover = pos.side_to_move();
        self.moved[ply] = late.pt;
        pos.make_move(m);
        self.tt.prefetch(pos.key());
        // A move tried before any generation (stored, killer) is only pseudo-legal.
        if picked.unverified && pos.variant().check && pos.royal_in_danger(mover) {
            pos.unmake_move();
            return None;
        }
        let gives_check = Self::must_answer(pos);
        let new_depth = depth - 1 + i32::from(gives_check && ply < MAX_PLY / 2);
        let mut score;
        if late.i == 0 {
            score = -self.negamax(pos, rest, new_depth, ply + 1, -beta, -alpha, pv_node);
        } else {
            // Late-move reductions: quiet moves and captures that lose the exchange.
            let why = Reduce {
                pv_node,
                reducible: late.reducible,
                improving,
                gives_check,
                hist: late.hist,
                tt_capture: late.tt_capture,
            };
            let r = self.reduction(depth, late.i, new_depth, m, why, frame);
            score = -self.negamax(pos, rest, new_depth - r, ply + 1, -alpha - 1, -alpha, false);
            if score > alpha && r > 0 {
                // A reduced move that beat alpha by far is searched deeper, one that barely
                // beat the best so far shallower.
                let deeper = score > late.best + 40 + 2 * new_depth;
                let shallower = score < late.best + 10;
                let full = new_depth + i32::from(deeper) - i32::from(shallower);
                if full > new_depth - r {
                    score = -self.negamax(pos, rest, full, ply + 1, -alpha - 1, -alpha, false);
                }
            }
            if score > alpha && score < beta && pv_node {
                score = -self.negamax(pos, rest, new_depth, ply + 1, -beta, -alpha, true);
            }
        }
        pos.unmake_move();
        Some(score)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax<R: Rules>(
        &mut self,
        pos: &mut Position<R>,
        frames: &mut [Frame],
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if ply > 0 {
            match self.early_end(pos, ply, alpha, beta) {
                Ok(window) => (alpha, beta) = window,
                Err(score) => return score,
            }
        } else if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            // A node limit reached exactly by the last iteration ends the search before the
            // next one counts its root (the clock and the stop flag are left to the nodes
            // below: a first iteration always ends).
            self.aborted = true;
            return 0;
        }
        if depth <= 0 || frames.len() < 2 {
            return self.qsearch(pos, frames, ply, alpha, beta);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let key = pos.key();
        let entry = self.tt.probe(key);
        let tt_move = entry.map_or(Move::NONE, |e| Move::from_bits(e.mv));
        let tt_bound = entry.map(|e| (score_from_tt(e.score as i32, ply), e.bound));
        if let (Some(e), Some((s, bound))) = (entry, tt_bound)
            && !pv_node
            && e.depth as i32 >= depth
            && settles(bound, s, alpha, beta)
        {
            return s;
        }
        let in_check = Self::must_answer(pos);
        let (raw_eval, static_eval, eval) = self.node_eval(pos, entry, tt_bound, in_check);
        self.evals[ply] = static_eval;
        // The side to move stands better than two plies ago: prune less, reduce less.
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        // Internal iterative reduction: a node the table knows nothing of is searched less deep.
        if depth >= 4 && tt_move == Move::NONE {
            depth -= 1;
        }
        if !pv_node
            && !in_check
            && ply > 0
            && let Some(s) = self.prune_node(pos, frames, (depth, ply, improving), eval, alpha, beta)
        {
            return s;
        }
        let orig_alpha = alpha;

        let (frame, rest) = frames.split_first_mut().expect("at least two frames");
        let us = pos.side_to_move().index();
        frame.start(tt_move, self.countermove(us, ply), in_check);
        let node = Node {
            depth,
            ply,
            pv_node,
            improving,
        };
        let Some((best, best_move, count, alpha)) =
            self.search_moves(pos, frame, rest, node, in_check, eval, (alpha, beta))
        else {
            return 0;
        };
        if count == 0 {
            return Self::terminal_score(pos, ply);
        }
        self.finish_node(
            pos,
            rest,
            (key, depth, ply, (raw_eval, static_eval)),
            best,
            best_move,
            (orig_alpha, alpha, beta),
        )
    }

    /// A node's move loop: each move the picker gives, pruned or searched, until one cuts
    /// off. Returns the best score and move, the legal moves met and the raised alpha;
    /// `None` when the search was stopped.
    #[allow(clippy::too_many_arguments)]
    fn search_moves<R: Rules>(
        &mut self,
        pos: &mut Position<R>,
        frame: &mut Frame,
        rest: &mut [Frame],
        node: Node,
        in_check: bool,
        eval: i32,
        (mut alpha, beta): (i32, i32),
    ) -> Option<(i32, Move, usize, i32)> {
        let Node {
            depth, ply, improving, ..
        } = node;
        let us = pos.side_to_move().index();
        let (mut best, mut best_move) = (-INF, Move::NONE);
        let mut tried = Tried::default();
        let lmp_limit = (3 + depth * depth) / (2 - i32::from(improving));
        // Legal moves met so far (searched or pruned); `i` of the move being looked at.
        let mut count = 0;
        while let Some(picked) = self.next_move(pos, frame, ply) {
            let m = picked.mv;
            if ply == 0 && self.restricted && self.root_skips(m) {
                continue;
            }
            let i = count;
            let victim = pos.victim(m);
            let quiet = victim.is_none() && m.kind() != MoveKind::Promotion;
            let pt = piece_to(pos.piece_at(m.from()).kind(), m.to().index());
            let hist = if quiet { self.quiet_history(us, ply, pt) } else { 0 };
            count += 1;
            // Pruning before the move is made: never at the root, in check, of the first move
            // or before a move has saved the node from a mate.
            let may_prune = ply > 0 && !in_check && i > 0 && best > -MATE_BOUND;
            if may_prune && quiet && self.prune_quiet(frame, depth, i, tried.quiets.len(), lmp_limit, eval, alpha, hist)
            {
                continue;
            }
            if may_prune && (quiet || picked.losing) && self.loses_too_much(pos, depth, i, quiet, m) {
                continue;
            }
            let late = Late {
                i,
                reducible: quiet || picked.losing,
                hist,
                pt,
                tt_capture: quiet && frame.tt_move() != Move::NONE && pos.victim(frame.tt_move()).is_some(),
                best,
            };
            let Some(score) = self.search_move(pos, rest, frame, node, picked, late, (alpha, beta)) else {
                count -= 1;
                continue;
            };
            tried.note(quiet, victim, pt);
            if self.aborted {
                return None;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        let cut = Cutoff {
                            us,
                            ply,
                            depth,
                            m,
                            pt,
                            victim,
                        };
                        self.reward_cutoff(frame, cut, &tried);
                        break;
                    }
                }
            }
        }
        Some((best, best_move, count, alpha))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{AnyGame, default_variants};
    use crate::notation::parse_move;

    /// Shallow exchange pruning: a quiet move that hangs the queen to a pawn is dropped near
    /// the leaves but searched far from them, a rook that takes a defended pawn is dropped at
    /// the shallowest depth and searched beyond depth 6, and a safe move never is dropped.
    #[test]
    fn moves_that_lose_material_are_pruned_only_near_the_leaves() {
        let Some(AnyGame::Plain(chess)) = default_variants().get("chess") else {
            panic!("chess is a plain variant")
        };
        let s = Searcher::new(1, Arc::new(AtomicBool::new(false)));
        let mut pos = Position::from_fen(chess.clone(), "4k3/8/4p3/3p4/8/1Q6/8/3RK3 w - - 0 1").unwrap();
        let hang = parse_move(&mut pos, "b3c4").unwrap();
        let safe = parse_move(&mut pos, "b3b4").unwrap();
        let grab = parse_move(&mut pos, "d1d5").unwrap();
        // (depth, move number, quiet, move, pruned, what)
        let cases = [
            (2, 1, true, hang, true, "the hanging queen near the leaves"),
            (30, 1, true, hang, false, "the hanging queen far from them"),
            (1, 1, false, grab, true, "the rook for a pawn at depth 1"),
            (7, 1, false, grab, false, "the rook for a pawn at depth 7"),
        ];
        for (depth, i, quiet, m, pruned, what) in cases {
            assert_eq!(s.loses_too_much(&pos, depth, i, quiet, m), pruned, "{what}");
        }
        for depth in 1..=8 {
            assert!(
                !s.loses_too_much(&pos, depth, 5, true, safe),
                "the safe move at depth {depth}"
            );
        }
    }

    /// A quiet move is reduced one ply more where the table's move is a capture (the capture
    /// is likely best, the quiet moves less likely to matter).
    #[test]
    fn quiet_moves_after_a_capturing_table_move_are_reduced_more() {
        let s = Searcher::new(1, Arc::new(AtomicBool::new(false)));
        let frame = Frame::new();
        let why = |tt_capture| Reduce {
            pv_node: false,
            reducible: true,
            improving: true,
            gives_check: false,
            hist: 0,
            tt_capture,
        };
        for (depth, i) in [(6, 8), (10, 20), (20, 40)] {
            let plain = s.reduction(depth, i, depth - 1, Move::NONE, why(false), &frame);
            let after_capture = s.reduction(depth, i, depth - 1, Move::NONE, why(true), &frame);
            assert_eq!(after_capture, plain + 1, "depth {depth}, move {i}");
        }
    }
}
