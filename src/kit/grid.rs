//! The 8x8 boards of the Chess Kit games that keep their own board (Gravity, Cloak and
//! Dagger, Booster, the solitaires): squares `rank * 8 + file`, the pieces' steps and
//! directions, and the FEN placement field, written and read.

/// A square 0..64, `rank * 8 + file` (rank 0 is rank 1).
pub type Sq = usize;

/// The square's name (`e4`).
pub fn name(s: Sq) -> String {
    format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
}

/// The square named `t`, if it is one of a1..h8.
pub fn parse_sq(t: &str) -> Option<Sq> {
    let b = t.as_bytes();
    (b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]))
        .then(|| (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize)
}

/// A knight's steps as (files, ranks).
pub const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
/// A king's steps, also the eight directions of a queen.
pub const KING: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
/// A rook's directions.
pub const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// A bishop's directions.
pub const BISHOP: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The square `df` files and `dr` ranks from `s`, if on the board.
pub fn offset(s: Sq, df: i32, dr: i32) -> Option<Sq> {
    let (f, r) = ((s % 8) as i32 + df, (s / 8) as i32 + dr);
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as usize)
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
