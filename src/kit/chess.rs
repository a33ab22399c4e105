//! What the Chess Kit games need of a chess board, taken from the existing position and the
//! `engine.ini` variants: legal moves, their text, the end by rule, and move values from the
//! search.

use crate::Color;
use crate::fen::{Setup, piece_of_letter};
use crate::games::{AnyGame, default_variants};
use crate::moves::{Move, MoveKind, MoveList};
use crate::notation::move_text;
use crate::position::{EndReason, Game, Piece, Position};
use crate::rules::{Plain, Rules};
use crate::search::{Limits, MATE_BOUND, Searcher, Silent};
use crate::square::Square;
use crate::table::QuickHasher;
use std::cell::RefCell;
use std::hash::Hasher;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The game data of a plain built-in variant.
pub fn plain_game(name: &str) -> Result<Arc<Game<Plain>>, String> {
    match default_variants().get(name) {
        Some(AnyGame::Plain(g)) => Ok(Arc::clone(g)),
        Some(_) => Err(format!("variant '{name}' is not a plain variant of at most 64 squares")),
        None => Err(format!("no variant '{name}'")),
    }
}

/// `Err` with the reason unless each side has exactly `kings` kings (per colour, at most
/// when `at_most`): a board a game of one king a side cannot reach is refused.
pub fn check_kings(pos: &Position<Plain>, kings: [u32; 2], at_most: bool) -> Result<(), String> {
    for c in Color::ALL {
        let have = pos.royals(c).count();
        let want = kings[c.index()];
        if have != want && !(at_most && have < want) {
            return Err(format!(
                "{} has {have} kings; {}",
                c.name(),
                if at_most {
                    format!("at most {want} here")
                } else {
                    format!("a board of this game has {want}")
                }
            ));
        }
    }
    Ok(())
}

/// The position of variant `game` (8x8) for a table game's board: `letter(square)` gives the
/// FEN letter on each square (case for colour), then the side to move, the castling field and
/// the en-passant square, kept only when a pawn just passed it. `None` when the board is no
/// position of the variant (the side not to move may stand in check).
pub fn grid_position(
    game: &Arc<Game<Plain>>,
    letter: impl Fn(usize) -> Option<char>,
    side: Color,
    castling: &str,
    ep: Option<usize>,
) -> Option<Position<Plain>> {
    let v = &game.variant;
    let mut board = vec![Piece::NONE; v.geometry.size()];
    for (s, slot) in board.iter_mut().enumerate() {
        if let Some(c) = letter(s) {
            *slot = piece_of_letter(v, c)?;
        }
    }
    let mut setup = Setup {
        board,
        side,
        castling: castling.to_string(),
        ep: None,
        halfmove: 0,
        fullmove: 1,
        holdings: None,
    };
    setup.set_ep_if_passed(game, ep.map(Square::new));
    Position::from_setup(Arc::clone(game), &setup, true).ok()
}

/// The legal moves.
pub fn legal(pos: &mut Position<Plain>) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter().copied().collect()
}

/// The promotion letter of a move (`None` for other moves).
pub fn promotion(pos: &Position<Plain>, m: Move) -> Option<char> {
    (m.kind() == MoveKind::Promotion).then(|| pos.variant().pieces[m.extra()].letter.to_ascii_lowercase())
}

/// Manhattan distance between two squares.
pub fn manhattan(pos: &Position<Plain>, a: Square, b: Square) -> usize {
    let g = &pos.variant().geometry;
    g.file_of(a).abs_diff(g.file_of(b)) + g.rank_of(a).abs_diff(g.rank_of(b))
}

/// Chebyshev (king-step) distance between two squares.
pub fn chebyshev(pos: &Position<Plain>, a: Square, b: Square) -> usize {
    let g = &pos.variant().geometry;
    g.file_of(a)
        .abs_diff(g.file_of(b))
        .max(g.rank_of(a).abs_diff(g.rank_of(b)))
}

/// How a game on the board ended by rule ([`Position::board_end`]), in the table games'
/// words: the winner (`None`: drawn) and the reason. `has_move`: whether the side to move has
/// a move by the game's own rules (a game may add moves to the legal ones, as Telepathy's
/// capture of an exposed king); `draws`: whether repetition and the 50-move rule end it.
pub fn board_end(pos: &Position<Plain>, has_move: bool, draws: bool) -> Option<(Option<Color>, &'static str)> {
    let end = pos.board_end(has_move, draws)?;
    let reason = end.win_words().unwrap_or(match end.reason {
        EndReason::NoMove => "stalemate",
        EndReason::Repetition => "threefold repetition",
        _ => "50-move rule",
    });
    Some((end.winner, reason))
}

/// A searcher for a player: small table, its own stop flag.
pub fn searcher() -> Searcher {
    Searcher::new(1, Arc::new(AtomicBool::new(false)))
}

/// Nodes of the quiescence search of [`leaf_value`].
const LEAF_NODES: u64 = 2_000;

/// The quiescence search's value of `pos` for its side to move (centipawns), by this thread's
/// own searcher: a leaf value for the generic player's heuristics, which score many positions.
/// It depends on `pos` alone (the same games whatever a thread played before: `--jobs`).
pub fn leaf_value<R: Rules>(pos: &mut Position<R>) -> i32 {
    LEAF_SEARCHER.with_borrow_mut(|s| s.quiescence(pos, LEAF_NODES))
}

/// [`leaf_value`] where a value of at least `beta` need not be exact
/// ([`Searcher::quiescence_below`]).
fn leaf_value_below(pos: &mut Position<Plain>, beta: i32) -> i32 {
    LEAF_SEARCHER.with_borrow_mut(|s| s.quiescence_below(pos, LEAF_NODES, beta))
}

thread_local! {
    /// Each thread's searcher for leaf values (its table emptied at every value).
    static LEAF_SEARCHER: RefCell<Searcher> = RefCell::new(Searcher::for_quiescence(Arc::new(AtomicBool::new(false))));
}

/// The value of the best legal move for the side to move (centipawns): each move followed by
/// [`leaf_value`] of the reply (but where that search would run out of nodes), a mate in one
/// scored as the quiescence search scores mate; no move: mated (`-MATE_BOUND`) or stalemate (0).
pub fn reply_value(pos: &Position<Plain>) -> i32 {
    // A pure function of the position, so a thread keeps the values it worked out (a game's
    // leaves repeat boards: the same move under each card or mark).
    thread_local! {
        static KNOWN: RefCell<super::Kept<(u64, u64), i32>> = RefCell::new(super::Kept::new(REPLIES_KEPT));
    }
    let mut variant = QuickHasher::default();
    variant.write(pos.variant().name.as_bytes());
    let key = (pos.key(), variant.finish());
    if let Some(v) = KNOWN.with_borrow(|k| k.get(&key).copied()) {
        return v;
    }
    // Worked out on a copy, made only when the value is not kept.
    let v = reply_value_uncached(&mut pos.clone());
    KNOWN.with_borrow_mut(|k| k.keep(key, v));
    v
}

/// The places for reply values a thread keeps (512 KB).
const REPLIES_KEPT: usize = 1 << 14;

fn reply_value_uncached(pos: &mut Position<Plain>) -> i32 {
    let mut moves = legal(pos);
    if moves.is_empty() {
        return if pos.in_check() { -MATE_BOUND } else { 0 };
    }
    // Captures first, the most valuable victim by the least valuable piece first: once a good
    // move is known, a reply whose static value already shows it no better needs no search,
    // and one whose search reaches it no more.
    let value = |p: Piece| {
        if p == Piece::NONE {
            0
        } else {
            pos.game().eval.value[p.kind()]
        }
    };
    moves.sort_by_key(|&m| match pos.victim(m) {
        Piece::NONE => i32::MAX,
        v => value(pos.piece_at(m.from())) - 16 * value(v),
    });
    let mut best = -MATE_BOUND;
    for m in moves {
        pos.make_move(m);
        best = best.max(-leaf_value_below(pos, -best));
        pos.unmake_move();
    }
    best
}

/// The value of each legal move for the side to move (centipawns, mate scores kept below
/// `MATE_BOUND` in order), by a search of `depth` plies after it.
pub fn move_values(searcher: &mut Searcher, pos: &mut Position<Plain>, depth: u32) -> Vec<(Move, i32)> {
    let mut out = Vec::new();
    for m in legal(pos) {
        pos.make_move(m);
        let v = if legal(pos).is_empty() {
            if pos.in_check() { MATE_BOUND } else { 0 }
        } else {
            let limits = Limits {
                depth: Some(depth.max(1)),
                nodes: Some(200_000),
                ..Limits::default()
            };
            -searcher.go(pos, limits, &mut Silent).score
        };
        pos.unmake_move();
        out.push((m, v));
    }
    out
}

/// The move's text (UCI form).
pub fn text(pos: &Position<Plain>, m: Move) -> String {
    move_text(pos, m)
}

#[cfg(test)]
mod tests {
    use super::{leaf_value, plain_game, reply_value};
    use crate::position::Position;
    use crate::search::MATE_BOUND;

    /// The reply value sees a mate in one and a quiet move that wins a piece, which the
    /// quiescence search alone (captures only) does not; asked again, it gives the same value.
    #[test]
    fn the_reply_value_sees_a_quiet_move_s_threat() {
        let game = plain_game("chess").unwrap();
        let at = |fen: &str| Position::from_fen(game.clone(), fen).unwrap();
        // Ra8 mates.
        let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        assert!(reply_value(&at(mate)) >= MATE_BOUND / 2, "{}", reply_value(&at(mate)));
        assert!(leaf_value(&mut at(mate)).abs() < 1_000);
        // Nc7+ forks king and rook: a rook ahead after the reply.
        let fork = "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1";
        let (quiet, reply) = (leaf_value(&mut at(fork)), reply_value(&at(fork)));
        assert!(reply > quiet + 200, "{quiet} {reply}");
        assert_eq!(reply_value(&at(fork)), reply);
    }

    /// Reply values are kept per variant: the same board in chess and in a chess without
    /// check (a king may be left attacked, and taken) has each variant's own value, in either
    /// order.
    #[test]
    fn the_reply_values_kept_are_each_variant_s_own() {
        use super::reply_value_uncached;
        use crate::games::{AnyGame, Catalog, default_variants};
        let ini = format!("{}\n[nocheck:chess]\ncheck = false\n", include_str!("../../engine.ini"));
        let catalog = Catalog::parse(&ini, "test").unwrap();
        let game = |name: &str| match (catalog.get(name), default_variants().get(name)) {
            (Some(AnyGame::Plain(g)), _) if name == "nocheck" => g.clone(),
            (_, Some(AnyGame::Plain(g))) => g.clone(),
            _ => panic!("{name} is not plain"),
        };
        // Ra8 mates in chess; without check Black's king may still move.
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        let at = |name: &str| Position::from_fen(game(name), fen).unwrap();
        let own = |name: &str| reply_value_uncached(&mut at(name));
        assert_ne!(own("chess"), own("nocheck"), "the board should tell the variants apart");
        // Each order on a thread of its own: the values are kept per thread.
        for order in [["chess", "nocheck"], ["nocheck", "chess"]] {
            std::thread::scope(|s| {
                s.spawn(|| {
                    for name in order {
                        assert_eq!(reply_value(&at(name)), own(name), "{name} after {order:?}");
                    }
                });
            });
        }
    }

    /// The reply value skips the search of a reply whose static value already shows it no
    /// better than the best so far, and stops one once it shows that, and is still exactly
    /// the best of every reply's full quiescence value (at least `-MATE_BOUND`), in each
    /// position along seeded random games where no reply's full search runs out of nodes.
    #[test]
    fn the_reply_value_is_the_best_of_the_replies_full_searches() {
        use super::legal;
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let game = plain_game("chess").unwrap();
        let mut rng = StdRng::seed_from_u64(5);
        let (mut all, mut ran_out) = (0, 0);
        for _ in 0..20 {
            let mut pos = Position::startpos(game.clone());
            for _ in 0..60 {
                let moves = legal(&mut pos);
                if moves.is_empty() {
                    break;
                }
                let mut limited = false;
                let full = (moves.iter())
                    .map(|&m| {
                        let mut p = pos.clone();
                        p.make_move(m);
                        let v = -leaf_value(&mut p);
                        limited |= super::LEAF_SEARCHER.with_borrow(crate::search::Searcher::ran_out);
                        v
                    })
                    .max()
                    .unwrap()
                    .max(-MATE_BOUND);
                // A reply whose search ran out of nodes stood pat; the shorter searches of
                // the reply value need not.
                if limited {
                    ran_out += 1;
                } else {
                    assert_eq!(reply_value(&pos), full, "{}", pos.fen());
                    all += 1;
                }
                pos.make_move(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(all > 1_000 && ran_out < 40, "{all} {ran_out}");
    }
}
