//! The 8x8 board of the Chess Kit games that keep a board of their own (Gravity, Cloak and
//! Dagger, Booster, the solitaires), on the core's: a square is the core's 8x8 square
//! (`rank * 8 + file`), a piece's reach comes from the move tables of `engine.ini`'s chess
//! pieces, and the FEN placement field is written and read here.

use crate::Color;
use crate::bitboard::Bitboard;
use crate::geometry::Geometry;
use crate::position::Game;
use crate::rules::Plain;
use crate::square::Square;
use std::sync::{Arc, LazyLock};

/// A square 0..64 of the core's 8x8 board, `rank * 8 + file` (rank 0 is rank 1).
pub type Sq = usize;

/// Chess's game data (the board's geometry, the pieces' move tables) and its piece kinds by
/// letter.
struct Chess {
    game: Arc<Game<Plain>>,
    kind_of: [Option<usize>; 128],
}

fn chess() -> &'static Chess {
    static CHESS: LazyLock<Chess> = LazyLock::new(|| {
        let game = super::chess::plain_game("chess").expect("the built-in engine.ini has chess");
        let kind_of = std::array::from_fn(|c| game.variant.kind_of_letter(c as u8 as char));
        Chess { game, kind_of }
    });
    &CHESS
}

fn geometry() -> &'static Geometry {
    &chess().game.variant.geometry
}

/// The square's name (`e4`).
pub fn name(s: Sq) -> String {
    geometry().name(Square::new(s))
}

/// The square named `t`, if it is one of a1..h8.
pub fn parse_sq(t: &str) -> Option<Sq> {
    geometry().parse(t).map(Square::index)
}

/// The square `df` files and `dr` ranks from `s`, if on the board.
pub fn offset(s: Sq, df: i32, dr: i32) -> Option<Sq> {
    geometry().offset(Square::new(s), df, dr).map(Square::index)
}

/// The squares a chess piece of type `kind` (`KQRBNP`) and `color` on `from` attacks while the
/// squares of `occupied` are taken: a slider's rays end on (and include) the first piece met;
/// a pawn attacks its two forward diagonals. None for any other letter (an unknown piece).
pub fn reach(kind: char, color: Color, from: Sq, occupied: u64) -> u64 {
    let chess = chess();
    let Some(k) = chess.kind_of.get(kind as usize).copied().flatten() else {
        return 0;
    };
    let (tables, c, sq, occ) = (&chess.game.tables, color.index(), Square::new(from), Bitboard(occupied));
    let kinds = &tables.kinds[k];
    let mut out = kinds.leap_capt[c][sq];
    for slide in kinds.slides[c].iter().filter(|s| s.capture) {
        out |= tables.set_attacks(slide.set, sq, occ);
    }
    for ride in kinds.loose_rides[c].iter().filter(|r| r.capture) {
        out |= tables.ray_attacks(ride.ray, sq, occ);
    }
    out.0
}

/// A king's one-step reach from `s` (the booster steps of Booster, Gravity's neighbours).
pub fn king_steps(s: Sq) -> u64 {
    reach('K', Color::White, s, 0)
}

/// A state text's en-passant field: `-`, or the square on rank 3 or 6 a pawn just passed.
pub fn read_ep(field: &str) -> Result<Option<Sq>, String> {
    match field {
        "-" => Ok(None),
        t => parse_sq(t)
            .filter(|s| s / 8 == 2 || s / 8 == 5)
            .map(Some)
            .ok_or(format!("en passant '{t}'")),
    }
}

/// The squares of a board that hold a piece.
pub fn occupancy<T>(board: &[Option<T>; 64]) -> u64 {
    board
        .iter()
        .enumerate()
        .fold(0, |m, (s, p)| m | u64::from(p.is_some()) << s)
}

/// The squares of a set, lowest first.
pub fn squares(mut set: u64) -> impl Iterator<Item = Sq> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let s = set.trailing_zeros() as Sq;
            set &= set - 1;
            s
        })
    })
}

/// The FEN placement of a board whose square `s` shows `letter(s)` (`None`: empty).
pub fn placement(letter: impl Fn(Sq) -> Option<char>) -> String {
    let mut rows = Vec::new();
    for r in (0..8).rev() {
        let mut row = String::new();
        let mut run = 0;
        for f in 0..8 {
            match letter(r * 8 + f) {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        row.push_str(&run.to_string());
                        run = 0;
                    }
                    row.push(c);
                }
            }
        }
        if run > 0 {
            row.push_str(&run.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

/// Reads a FEN placement of 8 ranks of 8 squares, calling `put(square, letter)` for each piece
/// (which may refuse the letter).
pub fn read_placement(text: &str, mut put: impl FnMut(Sq, char) -> Result<(), String>) -> Result<(), String> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 8 {
        return Err(format!("placement '{text}': 8 ranks expected"));
    }
    for (i, row) in rows.iter().enumerate() {
        let r = 7 - i;
        let mut f = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                f += d as usize;
                continue;
            }
            if f >= 8 {
                return Err(format!("rank {} is longer than 8 squares", r + 1));
            }
            put(r * 8 + f, c)?;
            f += 1;
        }
        if f != 8 {
            return Err(format!("rank {} has {f} squares, not 8", r + 1));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The squares a piece reaches by walking its steps and rays one square at a time.
    fn walked(kind: char, color: Color, from: Sq, occupied: u64) -> u64 {
        const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
        const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const DIAGONAL: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
        let fwd = if color == Color::White { 1 } else { -1 };
        let (f, r) = ((from % 8) as i32, (from / 8) as i32);
        let at = |df: i32, dr: i32| {
            let (tf, tr) = (f + df, r + dr);
            ((0..8).contains(&tf) && (0..8).contains(&tr)).then(|| (tr * 8 + tf) as usize)
        };
        type Steps = Vec<(i32, i32)>;
        let (steps, rays): (Steps, Steps) = match kind {
            'P' => (vec![(-1, fwd), (1, fwd)], vec![]),
            'N' => (KNIGHT.to_vec(), vec![]),
            'K' => ([ORTHOGONAL, DIAGONAL].concat(), vec![]),
            'R' => (vec![], ORTHOGONAL.to_vec()),
            'B' => (vec![], DIAGONAL.to_vec()),
            'Q' => (vec![], [ORTHOGONAL, DIAGONAL].concat()),
            _ => (vec![], vec![]),
        };
        let mut out = 0u64;
        for (df, dr) in steps {
            if let Some(t) = at(df, dr) {
                out |= 1 << t;
            }
        }
        for (df, dr) in rays {
            for n in 1.. {
                let Some(t) = at(df * n, dr * n) else { break };
                out |= 1 << t;
                if occupied >> t & 1 != 0 {
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn the_core_tables_reach_what_walking_the_board_reaches() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for kind in ['P', 'N', 'B', 'R', 'Q', 'K', '?'] {
            for color in Color::ALL {
                for from in 0..64 {
                    for _ in 0..20 {
                        // A random occupancy of about one square in four.
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        let occ = seed & seed.rotate_left(17);
                        assert_eq!(
                            reach(kind, color, from, occ),
                            walked(kind, color, from, occ),
                            "{kind} {color:?} on {} with {occ:#x}",
                            name(from)
                        );
                    }
                }
            }
        }
        assert_eq!(squares(king_steps(0)).map(name).collect::<Vec<_>>(), ["b1", "a2", "b2"]);
        assert_eq!(parse_sq("h8"), Some(63));
        assert_eq!((parse_sq("i1"), parse_sq("a9"), parse_sq("a01")), (None, None, None));
        assert_eq!(offset(parse_sq("a1").unwrap(), -1, 0), None);
    }
}
