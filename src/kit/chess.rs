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
use std::cell::RefCell;
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
    thread_local! {
        static SEARCHER: RefCell<Searcher> = RefCell::new(Searcher::for_quiescence(Arc::new(AtomicBool::new(false))));
    }
    SEARCHER.with_borrow_mut(|s| s.quiescence(pos, LEAF_NODES))
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
