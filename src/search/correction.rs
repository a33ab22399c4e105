//! Correction history: what the searches under each pawn structure found beyond its static
//! evaluation, by side to move, added back to later static evaluations of the same structure
//! (the evaluation's errors tend to repeat with the pawns).

use super::*;
use crate::bitboard::Word;

/// Entries per side (a power of two).
pub(super) const CORRECTION_SIZE: usize = 16384;
/// Bound of an entry (the gravity formula keeps it inside).
const CORRECTION_MAX: i32 = 1024;
/// An entry of `CORRECTION_MAX` adds this many centipawns.
const CORRECTION_CP: i32 = 64;

impl Searcher {
    /// The correction table's index of `pos`'s pawn structure (every pawn kind, both sides).
    #[inline]
    fn pawn_index<R: Rules>(pos: &Position<R>) -> usize {
        let (mut white, mut black) = (0u128, 0u128);
        let mut kinds = pos.game().pawn_kinds;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            white |= pos.pieces(Color::White, k).0.to_u128();
            black |= pos.pieces(Color::Black, k).0.to_u128();
        }
        let fold = |w: u128| (w as u64) ^ ((w >> 64) as u64).rotate_left(29);
        let h = fold(white).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ fold(black).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        (h >> (64 - CORRECTION_SIZE.trailing_zeros())) as usize
    }

    /// What the table adds to a static evaluation of `pos` (0 outside the main search).
    #[inline]
    pub(super) fn correction<R: Rules>(&self, pos: &Position<R>) -> i32 {
        if !self.correcting {
            return 0;
        }
        let c = self.correction[pos.side_to_move().index()][Self::pawn_index(pos)] as i32;
        c * CORRECTION_CP / CORRECTION_MAX
    }

    /// Moves `pos`'s entry towards what a search of `depth` found (`best`) beyond the
    /// corrected static evaluation `eval`.
    #[inline]
    pub(super) fn update_correction<R: Rules>(&mut self, pos: &Position<R>, depth: i32, best: i32, eval: i32) {
        if !self.correcting {
            return;
        }
        let bonus = ((best - eval) * depth).clamp(-CORRECTION_MAX / 4, CORRECTION_MAX / 4);
        let e = &mut self.correction[pos.side_to_move().index()][Self::pawn_index(pos)];
        *e = gravity_within(*e as i32, bonus, CORRECTION_MAX) as i16;
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
        let other = Position::from_fen(chess(), "4k3/ppp5/8/8/8/8/4PPPP/4K3 w - - 0 1").unwrap();
        let black = Position::from_fen(chess(), "4k3/pppp4/8/8/8/8/4PPPP/4K3 b - - 0 1").unwrap();
        for _ in 0..200 {
            s.update_correction(&pos, 10, 500, 0);
        }
        assert_eq!(s.correction(&pos), CORRECTION_CP, "pushed up to its bound");
        assert_eq!(s.correction(&other), 0, "another pawn structure");
        assert_eq!(s.correction(&black), 0, "the other side to move");
        s.update_correction(&pos, 2, 0, 30);
        assert!(
            s.correction(&pos) < CORRECTION_CP,
            "a search below the evaluation lowers it"
        );
        for _ in 0..200 {
            s.update_correction(&pos, 10, -500, 0);
        }
        assert_eq!(s.correction(&pos), -CORRECTION_CP);
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
            s.correction.iter().flatten().any(|&c| c != 0),
            "the searches learnt nothing"
        );
        for (f, b) in fens.iter().zip(before) {
            let mut pos = Position::from_fen(chess(), f).unwrap();
            assert_eq!(s.quiescence(&mut pos, 2_000), b, "{f}");
        }
    }
}
