//! Quiescence search: captures and promotions (evasions in check) until the position is
//! quiet, with stand pat, delta pruning and losing exchanges skipped; also the table games'
//! static values built on it.

use super::*;

impl Searcher {
    /// A searcher with the smallest table, for [`Searcher::quiescence`], which empties it at
    /// every call.
    pub fn for_quiescence(stop: Arc<AtomicBool>) -> Searcher {
        let mut s = Searcher::new(1, stop);
        s.tt = TransTable::smallest();
        s
    }

    /// The quiescence search's value of `pos` for the side to move (captures and promotions
    /// until the position is quiet), within `nodes` nodes: a static value that sees the
    /// exchanges pending, for players that score many positions (the table games' leaves).
    /// The table is emptied first, so that the value depends on `pos` alone, whatever was
    /// searched before (cheaply: see [`Searcher::for_quiescence`]).
    pub fn quiescence<R: Rules>(&mut self, pos: &mut Position<R>, nodes: u64) -> i32 {
        self.quiescence_cut(pos, nodes, INF, None)
    }

    /// [`Searcher::quiescence`] whose first level stops once a move reaches `cut` (each move
    /// searched with the whole search's window): below `cut`, the whole search's value, unless
    /// that search runs out of nodes. `stand`: the static value, if known.
    fn quiescence_cut<R: Rules>(&mut self, pos: &mut Position<R>, nodes: u64, cut: i32, stand: Option<i32>) -> i32 {
        self.tt.clear();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        self.begin(pos, limits);
        self.correcting = false;
        (self.root_cut, self.root_stand) = (cut, stand);
        let mut frames = std::mem::take(&mut self.frames);
        let v = self.qsearch(pos, &mut frames, 0, -INF, INF);
        self.frames = frames;
        (self.root_cut, self.root_stand) = (INF, None);
        if self.aborted { pos.evaluate() } else { v }
    }

    /// [`Searcher::quiescence`] where only a value below `beta` matters: a static value that
    /// reaches `beta` is returned unsearched (a side not under threat), else the search stops
    /// once a move reaches `beta` ([`Searcher::quiescence_cut`]).
    pub fn quiescence_below<R: Rules>(&mut self, pos: &mut Position<R>, nodes: u64, beta: i32) -> i32 {
        let mut known = None;
        if self.noise == 0 && !pos.royals_gone(pos.side_to_move()) && !Self::must_answer(pos) {
            let stand = pos.evaluate();
            if stand >= beta {
                return stand;
            }
            known = Some(stand);
        }
        self.quiescence_cut(pos, nodes, beta, known)
    }

    /// The static evaluation of a quiescence node as stored (uncorrected): the table's, the
    /// root's given one, or worked out; `-INF` in check.
    #[inline]
    fn raw_stand<R: Rules>(&self, pos: &Position<R>, entry: Option<tt::Entry>, ply: usize, in_check: bool) -> i32 {
        if in_check {
            return -INF;
        }
        match (entry, self.root_stand) {
            (Some(e), _) => e.eval as i32,
            (None, Some(s)) if ply == 0 => s,
            (None, _) => self.static_eval(pos),
        }
    }

    /// Quiescence search: stand pat or search the captures (all evasions in check) until the
    /// position is quiet, with the table's bounds and static evaluation.
    pub(super) fn qsearch<R: Rules>(
        &mut self,
        pos: &mut Position<R>,
        frames: &mut [Frame],
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv_len[ply] = 0;
        self.check_time();
        if self.aborted {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let Some((frame, rest)) = frames.split_first_mut() else {
            return pos.evaluate();
        };
        if pos.royals_gone(pos.side_to_move()) {
            return -MATE + ply as i32;
        }
        // The table, as in the main search: a bound that settles this node, and the static
        // evaluation stored with it.
        let key = pos.key();
        let entry = self.tt.probe(key);
        if let Some(e) = entry {
            let s = score_from_tt(e.score as i32, ply);
            if settles(e.bound, s, alpha, beta) {
                return s;
            }
        }
        let orig_alpha = alpha;
        let in_check = Self::must_answer(pos);
        let raw = self.raw_stand(pos, entry, ply, in_check);
        let stand = if in_check { raw } else { raw + self.correction(pos) };
        if stand >= beta || (rest.is_empty() && !in_check) {
            return stand;
        }
        alpha = alpha.max(stand);
        let kept = match Self::quiescence_moves(pos, frame, rest.is_empty(), ply, in_check, stand, alpha) {
            Ok(kept) => kept,
            Err(score) => return score,
        };
        let mut best = stand;
        let mut best_move = Move::NONE;
        for i in 0..kept {
            let m = frame.pick(i);
            pos.make_move(m);
            self.tt.prefetch(pos.key());
            let score = -self.qsearch(pos, rest, ply + 1, -beta, -alpha);
            pos.unmake_move();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta || (ply == 0 && alpha >= self.root_cut) {
                        break;
                    }
                }
            }
        }
        if best == -INF {
            return Self::terminal_score(pos, ply);
        }
        // Standing pat is not an exact score of this node.
        let top = if ply == 0 { beta.min(self.root_cut) } else { beta };
        let bound = bound_of(best, orig_alpha, top, best_move != Move::NONE);
        self.tt
            .store(key, best_move, score_to_tt(best, ply), raw.max(-MATE), 0, bound);
        best
    }

    /// Generates quiescence's moves into `frame` and keeps those worth searching
    /// ([`Self::keep_noisy`]): how many, or the node's score when none is to be searched (mated
    /// in check, or in check at the last frame).
    #[inline]
    fn quiescence_moves<R: Rules>(
        pos: &mut Position<R>,
        frame: &mut Frame,
        last_frame: bool,
        ply: usize,
        in_check: bool,
        stand: i32,
        alpha: i32,
    ) -> Result<usize, i32> {
        frame.moves.clear();
        if in_check {
            pos.legal_moves(&mut frame.moves);
            if frame.moves.is_empty() {
                return Err(Self::terminal_score(pos, ply));
            }
            if last_frame {
                return Err(pos.evaluate());
            }
        } else {
            pos.legal_captures(&mut frame.moves);
        }
        let kept = Self::keep_noisy(pos, frame, in_check, stand, alpha);
        frame.moves.truncate(kept);
        Ok(kept)
    }

    /// Quiescence's moves: of the generated ones, captures and promotions only (all moves when
    /// in check), without those that delta pruning or a lost exchange drop, scored MVV-LVA in
    /// `frame`. Returns how many are kept.
    #[inline]
    fn keep_noisy<R: Rules>(pos: &Position<R>, frame: &mut Frame, in_check: bool, stand: i32, alpha: i32) -> usize {
        let eval = &pos.game().eval;
        let mut kept = 0;
        for i in 0..frame.moves.len() {
            let m = frame.moves[i];
            let victim = pos.victim(m);
            let capture = victim.is_some();
            let gain = if capture {
                Self::victim_value(pos, victim)
            } else if m.kind() == MoveKind::Promotion {
                eval.value[m.extra()] - 100
            } else if in_check {
                0
            } else {
                continue;
            };
            if !in_check && stand + gain + 200 < alpha {
                continue; // delta pruning
            }
            let mover = pos.piece_at(m.from());
            // A capture that loses material in the exchange is skipped (where the variant's
            // attacks are a rules module's own: a capture by a more valuable piece onto a
            // defended square).
            if !in_check && capture {
                let losing = match see::loses(pos, m) {
                    Some(l) => l,
                    None => {
                        mover.is_some()
                            && eval.value[mover.kind()] > gain + 50
                            && pos.is_attacked(m.to(), !pos.side_to_move())
                    }
                };
                if losing {
                    continue;
                }
            }
            frame.moves[kept] = m;
            frame.scores[kept] = 16 * gain
                - if mover.is_some() {
                    eval.value[mover.kind()] / 16
                } else {
                    0
                };
            kept += 1;
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{AnyGame, default_variants};
    use crate::moves::MoveList;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Asked only below `beta`, the quiescence search gives the whole search's value where that
    /// is below `beta` and a value of at least `beta` otherwise, in every position along seeded
    /// random games of chess where the whole search ends within its nodes (one that runs out
    /// stands pat instead, which the shorter search need not); and its first level does stop
    /// early (a bound below the value).
    #[test]
    fn a_value_below_beta_is_the_whole_search_s() {
        let Some(AnyGame::Plain(chess)) = default_variants().get("chess") else {
            panic!("chess is a plain variant")
        };
        let mut rng = StdRng::seed_from_u64(7);
        let mut s = Searcher::for_quiescence(Arc::new(AtomicBool::new(false)));
        let (mut checked, mut stopped, mut out_of_nodes) = (0, 0, 0);
        for _ in 0..20 {
            let mut pos = Position::startpos(chess.clone());
            for _ in 0..80 {
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let full = s.quiescence(&mut pos, 2_000);
                let ran_out = s.aborted;
                out_of_nodes += usize::from(ran_out);
                for beta in [full - 200, full - 30, full - 1, full, full + 1, full + 30] {
                    let v = s.quiescence_below(&mut pos, 2_000, beta);
                    if ran_out {
                        break;
                    }
                    if full < beta {
                        assert_eq!(v, full, "beta {beta}: {}", pos.fen());
                    } else {
                        assert!(v >= beta, "beta {beta}: {v} below it, whole {full}: {}", pos.fen());
                        stopped += usize::from(v < full);
                    }
                    checked += 1;
                }
                pos.make_move(list[rng.random_range(0..list.len())]);
            }
        }
        assert!(
            checked > 5_000 && stopped > 100 && out_of_nodes < 20,
            "{checked} {stopped} {out_of_nodes}"
        );
    }
}
