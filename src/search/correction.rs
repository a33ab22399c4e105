//! Correction history: what the searches found beyond the static evaluation, by side to move,
//! under each pawn structure and under each side's other pieces, added back to later static
//! evaluations that share them (the evaluation's errors tend to repeat with the same pieces).

use super::*;

/// Entries per side and table (a power of two).
pub(super) const CORRECTION_SIZE: usize = 16384;
/// Tables: the pawn structure, White's other pieces, Black's other pieces.
pub(super) const CORRECTION_TABLES: usize = 3;
/// Bound of an entry (the gravity formula keeps it inside).
const CORRECTION_MAX: i32 = 1024;
/// An entry of `CORRECTION_MAX` in the pawn table adds this many centipawns (in each of the
/// other pieces' tables, half as many).
const CORRECTION_CP: i32 = 64;

/// The top bits of a key as a table index.
#[inline]
fn index_of(key: u64) -> usize {
    (key >> (64 - CORRECTION_SIZE.trailing_zeros())) as usize
}

impl Searcher {
    /// The correction tables' indices of `pos`: its pawn structure (every pawn kind, both
    /// sides), White's other pieces, Black's other pieces (kings included).
    #[inline]
    fn correction_indices<R: Rules>(pos: &Position<R>) -> [usize; CORRECTION_TABLES] {
        pos.piece_keys().map(index_of)
    }

    /// What the tables add to a static evaluation of `pos` (0 outside the main search).
    #[inline]
    pub(super) fn correction<R: Rules>(&self, pos: &Position<R>) -> i32 {
        if !self.correcting {
            return 0;
        }
        let t = &self.correction[pos.side_to_move().index()];
        let [p, w, b] = Self::correction_indices(pos);
        let sum = 2 * t[0][p] as i32 + t[1][w] as i32 + t[2][b] as i32;
        sum * CORRECTION_CP / (2 * CORRECTION_MAX)
    }

    /// Moves `pos`'s entries towards what a search of `depth` found (`best`) beyond the
    /// corrected static evaluation `eval`.
    #[inline]
    pub(super) fn update_correction<R: Rules>(&mut self, pos: &Position<R>, depth: i32, best: i32, eval: i32) {
        if !self.correcting {
            return;
        }
        let bonus = ((best - eval) * depth).clamp(-CORRECTION_MAX / 4, CORRECTION_MAX / 4);
        let t = &mut self.correction[pos.side_to_move().index()];
        for (table, i) in t.iter_mut().zip(Self::correction_indices(pos)) {
            table[i] = gravity_within(table[i] as i32, bonus, CORRECTION_MAX) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{AnyGame, default_variants};

    fn chess() -> Arc<crate::position::Game<crate::rules::Plain>> {
        let Some(AnyGame::Plain(chess)) = default_variants().get("chess") else {
            panic!("chess is a plain variant")
        };
        chess.clone()
    }

    /// An entry moves towards the searches' findings, for its side and structure only, and
    /// stays inside its bound however often it is pushed.
    #[test]
    fn corrections_follow_the_searches_within_their_bound() {
        let mut s = Searcher::new(1, Arc::new(AtomicBool::new(false)));
        s.correcting = true;
        let pos = Position::from_fen(chess(), "4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1").unwrap();
        let pawns = Position::from_fen(chess(), "4k3/ppp5/8/8/8/8/4PPPP/4K3 w - - 0 1").unwrap();
        let king = Position::from_fen(chess(), "3k4/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1").unwrap();
        let both = Position::from_fen(chess(), "3k4/ppp5/8/8/8/8/4PPPP/3K4 w - - 0 1").unwrap();
        let black = Position::from_fen(chess(), "4k3/pppp4/8/8/8/8/4PPPP/4K3 b - - 0 1").unwrap();
        for _ in 0..200 {
            s.update_correction(&pos, 10, 500, 0);
        }
        assert_eq!(s.correction(&pos), 2 * CORRECTION_CP, "pushed up to its bounds");
        assert_eq!(
            s.correction(&pawns),
            CORRECTION_CP,
            "another pawn structure, the same pieces"
        );
        assert_eq!(
            s.correction(&king),
            3 * CORRECTION_CP / 2,
            "the same pawns and White's pieces"
        );
        assert_eq!(s.correction(&both), 0, "other pawns and pieces");
        assert_eq!(s.correction(&black), 0, "the other side to move");
        s.update_correction(&pos, 2, 0, 30);
        assert!(
            s.correction(&pos) < 2 * CORRECTION_CP,
            "a search below the evaluation lowers it"
        );
        for _ in 0..200 {
            s.update_correction(&pos, 10, -500, 0);
        }
        assert_eq!(s.correction(&pos), -2 * CORRECTION_CP);
        s.correcting = false;
        assert_eq!(s.correction(&pos), 0, "nothing outside the main search");
    }

    /// The table games' quiescence values stay the positions' own: the same before and after
    /// main searches that learnt corrections.
    #[test]
    fn main_searches_leave_quiescence_values_alone() {
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 b - - 0 10",
            "8/5pk1/4p1p1/3pP1P1/3P4/5K2/8/8 w - - 0 40",
        ];
        let mut s = Searcher::new(1, Arc::new(AtomicBool::new(false)));
        let mut before = Vec::new();
        for f in fens {
            let mut pos = Position::from_fen(chess(), f).unwrap();
            before.push(s.quiescence(&mut pos, 2_000));
        }
        for f in fens {
            let mut pos = Position::from_fen(chess(), f).unwrap();
            let limits = Limits {
                depth: Some(9),
                ..Limits::default()
            };
            s.go(&mut pos, limits, &mut Silent);
        }
        assert!(
            s.correction.iter().flatten().flatten().any(|&c| c != 0),
            "the searches learnt nothing"
        );
        for (f, b) in fens.iter().zip(before) {
            let mut pos = Position::from_fen(chess(), f).unwrap();
            assert_eq!(s.quiescence(&mut pos, 2_000), b, "{f}");
        }
    }
}
