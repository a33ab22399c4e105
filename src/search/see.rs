//! Static exchange evaluation: what a capture wins or loses once both sides have taken back on
//! its square with their least valuable pieces, on any board and piece set. Attackers are found
//! again after each capture with the occupancy of that moment, so sliders behind sliders (and
//! any rider the variant's tables know) join in as the square opens.

use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::{Capabilities, Rules};

/// What a royal piece is worth to an exchange: taking back with it into an attack loses it.
const ROYAL: i32 = 20_000;

fn value<R: Rules>(pos: &Position<R>, kind: usize) -> i32 {
    if pos.game().royal_kinds >> kind & 1 != 0 {
        ROYAL
    } else {
        pos.game().eval.value[kind]
    }
}

/// The material balance of move `m` after the exchange on its square, for the side moving:
/// positive wins, negative loses. `None` where the variant's attacks are its own (a rules module
/// decides them) or the move is no plain move onto a square (castling, multi-step moves).
pub fn see<R: Rules>(pos: &Position<R>, m: Move) -> Option<i32> {
    if pos.game().caps.contains(Capabilities::CUSTOM_ATTACKS) {
        return None;
    }
    let (from, to) = (m.from(), m.to());
    let victim = match m.kind() {
        MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Promotion | MoveKind::EnPassant => pos.victim(m),
        _ => return None,
    };
    let mover = pos.piece_at(from);
    if mover.is_none() {
        return None;
    }
    let mut occ = pos.occupied();
    let mut gain = [0i32; 64];
    gain[0] = if victim.is_some() { value(pos, victim.kind()) } else { 0 };
    // What stands on the square now, and may be taken next.
    let mut on_square = value(pos, mover.kind());
    if m.kind() == MoveKind::Promotion {
        let promoted = pos.game().eval.value[m.extra()];
        gain[0] += promoted - pos.game().eval.value[mover.kind()];
        on_square = promoted;
    }
    occ.clear(from);
    if m.kind() == MoveKind::EnPassant {
        occ.clear(m.aux_square());
    }
    let mut side = !mover.color();
    let mut d = 0;
    loop {
        let attackers = pos.attackers_to(to, side, occ) & occ;
        // The least valuable attacker.
        let Some((sq, v)) = attackers
            .into_iter()
            .map(|s| (s, value(pos, pos.piece_at(s).kind())))
            .min_by_key(|&(_, v)| v)
        else {
            break;
        };
        d += 1;
        gain[d] = on_square - gain[d - 1];
        if d + 1 >= gain.len() {
            break;
        }
        on_square = v;
        occ.clear(sq);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    Some(gain[0])
}

/// True when `m` loses material in the exchange on its square; `None` where [`see`] has no
/// answer. A capture of a piece worth at least the capturer never loses (the capturer can stop
/// after it), so the exchange is worked out only for the others.
pub fn loses<R: Rules>(pos: &Position<R>, m: Move) -> Option<bool> {
    let (victim, mover) = (pos.victim(m), pos.piece_at(m.from()));
    if victim.is_some()
        && mover.is_some()
        && value(pos, victim.kind()) >= value(pos, mover.kind())
        && !pos.game().caps.contains(Capabilities::CUSTOM_ATTACKS)
    {
        return Some(false);
    }
    see(pos, m).map(|g| g < 0)
}

#[cfg(test)]
mod tests {
    use super::see;
    use crate::games::{AnyGame, default_variants};
    use crate::notation::parse_move;
    use crate::position::Position;
    use crate::rules::Rules;
    use std::sync::Arc;

    fn exchange<R: Rules>(game: &Arc<crate::position::Game<R>>, fen: &str, mv: &str) -> i32 {
        let mut pos = Position::from_fen(Arc::clone(game), fen).unwrap();
        let m = parse_move(&mut pos, mv).unwrap();
        see(&pos, m).unwrap()
    }

    /// Exchanges worked by hand, in the engine's own piece values (pawn, knight, ...).
    #[test]
    fn hand_worked_exchanges() {
        let Some(AnyGame::Plain(chess)) = default_variants().get("chess") else {
            panic!()
        };
        let v = |k: char| {
            let i = chess.variant.pieces.iter().position(|p| p.letter == k).unwrap();
            chess.eval.value[i]
        };
        let (p, n, r) = (v('P'), v('N'), v('R'));
        // An undefended pawn: won whole.
        assert_eq!(exchange(chess, "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), p);
        // A pawn defended by a pawn, taken by a rook: the rook is lost for the pawn.
        assert_eq!(exchange(chess, "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), p - r);
        // Two rooks behind each other (an x-ray) against one defender: R x p, p x R, R x p.
        assert_eq!(
            exchange(chess, "4k3/8/4p3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            2 * p - r
        );
        // A knight takes a pawn defended by a queen: the queen will not take back into the rook.
        assert_eq!(exchange(chess, "3qk3/8/8/3p4/8/4N3/8/3RK3 w - - 0 1", "e3d5"), p);
        // A quiet move onto a square a pawn guards loses the piece.
        assert_eq!(exchange(chess, "4k3/8/4p3/8/8/2N5/8/4K3 w - - 0 1", "c3d5"), -n);
        // The king takes back where nothing defends the square: Black's queen will not take.
        assert_eq!(exchange(chess, "3qk3/8/8/3n4/2K1P3/8/8/8 w - - 0 1", "e4d5"), n);
        // With a rook behind the queen the king may not take back: Q x P stands.
        assert_eq!(exchange(chess, "3rk3/3q4/8/3n4/2K1P3/8/8/8 w - - 0 1", "e4d5"), n - p);
        // Capablanca (10x8): the archbishop's knight leap joins the defence.
        let Some(AnyGame::PlainWide(capa)) = default_variants().get("capablanca") else {
            panic!()
        };
        let cv = |k: char| {
            let i = capa.variant.pieces.iter().position(|x| x.letter == k).unwrap();
            capa.eval.value[i]
        };
        assert_eq!(
            exchange(capa, "5k4/10/10/4p5/10/3a6/10/4R1K3 w - - 0 1", "e1e5"),
            cv('P') - cv('R')
        );
    }

    /// Chess 911's board has holes: a rook in the a11 corner is walled in by them, while a
    /// fortress there (rook and knight) still leaps to b9 and takes back.
    #[test]
    fn holes_stop_riders_but_not_leapers() {
        let Some(AnyGame::Chess911(g)) = default_variants().get("chess911") else {
            panic!()
        };
        let v = |k: char| {
            let i = g.variant.pieces.iter().position(|x| x.letter == k).unwrap();
            g.eval.value[i]
        };
        let fen = |corner: char| {
            format!("{corner}*********1/*7k1*/*p8*/*9*/*9*/*9*/*R8*/*9*/*9*/*7K1*/1*********1 w - - 0 1")
        };
        assert_eq!(exchange(g, &fen('r'), "b5b9"), v('P'));
        assert_eq!(exchange(g, &fen('f'), "b5b9"), v('P') - v('R'));
    }
}
