//! Betza notation -> concrete move vectors.
//!
//! Supported: atoms `W F D N A H C Z G` (and `K Q R B` shorthands), doubled atoms as riders
//! (`NN`, `WW`), a number after an atom as the range limit (`W4`, `R2`), and the modifiers
//! `m` (move only), `c` (capture only), `f b l r s v` (directions), `i` (initial move, pawns
//! only), `n` (lame: the squares in between must be empty) and `e` (en passant capture).

use std::fmt;

/// One direction of a piece's movement, seen from White's side (`dy > 0` is forward).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Motion {
    /// File step.
    pub dx: i8,
    /// Rank step, forward positive.
    pub dy: i8,
    /// 1 for a leap, `0` for an unlimited rider, `n` for a rider limited to `n` steps.
    pub range: u8,
    /// May move to an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
    /// Only from the piece's initial squares (pawns' double step).
    pub initial: bool,
    /// Lame leap: every square the leap passes (in the Bresenham sense, orthogonal/diagonal atoms
    /// only) must be empty.
    pub lame: bool,
    /// May capture en passant.
    pub en_passant: bool,
}

/// A problem in a Betza string, with the 1-based column where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Betza column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for BetzaError {}

fn atom_vector(c: char) -> Option<(i8, i8)> {
    Some(match c {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Orthogonal,
    Diagonal,
    Oblique,
}

/// All sign/axis variants of an atom `(a, b)` with `a >= b`.
fn expand(a: i8, b: i8) -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

fn single_filter(c: char, shape: Shape, dx: i8, dy: i8) -> bool {
    match c {
        'f' => dy > 0,
        'b' => dy < 0,
        'l' => dx < 0,
        'r' => dx > 0,
        'v' => match shape {
            Shape::Orthogonal => dx == 0,
            Shape::Oblique => dy.abs() > dx.abs(),
            Shape::Diagonal => true,
        },
        's' => match shape {
            Shape::Orthogonal => dy == 0,
            Shape::Oblique => dx.abs() > dy.abs(),
            Shape::Diagonal => true,
        },
        _ => false,
    }
}

/// Groups direction letters per the atom's shape: `fl` on a diagonal atom is one diagonal, on an
/// oblique atom a quadrant; `ff` on an oblique atom means forward and mostly vertical.
fn direction_groups(dirs: &[char], shape: Shape) -> Vec<(char, Option<char>)> {
    let mut groups = Vec::new();
    let mut i = 0;
    while i < dirs.len() {
        let a = dirs[i];
        let b = dirs.get(i + 1).copied();
        let pair = match (shape, b) {
            (Shape::Orthogonal, _) | (_, None) => None,
            (Shape::Diagonal, Some(b)) => {
                let fb = |c| c == 'f' || c == 'b';
                let lr = |c| c == 'l' || c == 'r';
                ((fb(a) && lr(b)) || (lr(a) && fb(b))).then_some(b)
            }
            (Shape::Oblique, Some(b)) => {
                let opposite = matches!((a, b), ('f', 'b') | ('b', 'f') | ('l', 'r') | ('r', 'l'));
                ("fblr".contains(a) && "fblrsv".contains(b) && !opposite).then_some(b)
            }
        };
        groups.push((a, pair));
        i += if pair.is_some() { 2 } else { 1 };
    }
    groups
}

fn group_selects(g: (char, Option<char>), shape: Shape, dx: i8, dy: i8) -> bool {
    match g {
        (a, None) => single_filter(a, shape, dx, dy),
        (a, Some(b)) if a == b => {
            // Doubled letter on an oblique atom: forward-forward = forward and vertical.
            let axis = if a == 'f' || a == 'b' { 'v' } else { 's' };
            single_filter(a, shape, dx, dy) && single_filter(axis, shape, dx, dy)
        }
        (a, Some(b)) => single_filter(a, shape, dx, dy) && single_filter(b, shape, dx, dy),
    }
}

/// Parses a Betza string into the list of motions it allows (duplicates merged).
pub fn parse(text: &str) -> Result<Vec<Motion>, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Err(bad(0, "empty move description".into()));
    }
    let mut out: Vec<Motion> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let token = read_token(&chars, &mut i)?;
        push_motions(&mut out, &token)?;
    }
    Ok(out)
}

/// An error at 0-based character `i`.
fn bad(i: usize, message: String) -> BetzaError {
    BetzaError { column: i + 1, message }
}

/// One atom of a description with its modifiers, its base atoms (a shorthand's one or two)
/// and its range (0: unlimited).
struct Token {
    start: usize,
    mods: Vec<char>,
    bases: Vec<char>,
    range: u8,
}

/// Reads the modifiers, atom and range at `*i`, and moves `*i` past them.
fn read_token(chars: &[char], i: &mut usize) -> Result<Token, BetzaError> {
    let start = *i;
    let mut mods = Vec::new();
    while *i < chars.len() && chars[*i].is_ascii_lowercase() {
        if !"mcfblrsvine".contains(chars[*i]) {
            return Err(bad(*i, format!("unsupported modifier '{}'", chars[*i])));
        }
        mods.push(chars[*i]);
        *i += 1;
    }
    let Some(&atom) = chars.get(*i) else {
        return Err(bad(start, "modifiers without an atom".into()));
    };
    if !atom.is_ascii_uppercase() {
        return Err(bad(*i, format!("expected an atom letter, found '{atom}'")));
    }
    *i += 1;
    // Shorthands expand to one or two base atoms with an implied rider flag.
    let (bases, mut rider): (Vec<char>, bool) = match atom {
        'K' => (vec!['W', 'F'], false),
        'Q' => (vec!['W', 'F'], true),
        'R' => (vec!['W'], true),
        'B' => (vec!['F'], true),
        c if atom_vector(c).is_some() => (vec![c], false),
        c => return Err(bad(*i - 1, format!("unknown atom '{c}'"))),
    };
    if !rider && bases.len() == 1 && chars.get(*i) == Some(&atom) {
        rider = true;
        *i += 1;
    }
    let mut range: u8 = if rider { 0 } else { 1 };
    let num_start = *i;
    while *i < chars.len() && chars[*i].is_ascii_digit() {
        *i += 1;
    }
    if *i > num_start {
        let n: u32 = chars[num_start..*i]
            .iter()
            .collect::<String>()
            .parse()
            .map_err(|_| bad(num_start, "bad range".into()))?;
        if n > 16 {
            return Err(bad(num_start, format!("range {n} is larger than any board")));
        }
        // `W0`/`N0` mean an unlimited rider; `R4`/`W4` a rider limited to 4 steps.
        range = n as u8;
    }
    Ok(Token {
        start,
        mods,
        bases,
        range,
    })
}

/// The motions of one token, each direction its modifiers select, merged into `out` (a
/// motion already there gains the token's quiet and capture flags).
fn push_motions(out: &mut Vec<Motion>, t: &Token) -> Result<(), BetzaError> {
    let Token {
        start,
        ref mods,
        ref bases,
        range,
    } = *t;
    let (quiet, capture) = match (mods.contains(&'m'), mods.contains(&'c') || mods.contains(&'e')) {
        (true, false) => (true, false),
        (false, true) => (false, true),
        _ => (true, true),
    };
    let initial = mods.contains(&'i');
    let lame = mods.contains(&'n');
    let en_passant = mods.contains(&'e');
    if en_passant && !capture {
        return Err(bad(start, "'e' (en passant) needs a capturing move".into()));
    }
    if (initial || lame || en_passant) && range != 1 {
        return Err(bad(start, "'i', 'n' and 'e' apply to leaps only, not riders".into()));
    }
    let dirs: Vec<char> = mods.iter().copied().filter(|c| "fblrsv".contains(*c)).collect();
    for &base in bases {
        let (a, b) = atom_vector(base).expect("base atoms are known");
        let shape = if b == 0 {
            Shape::Orthogonal
        } else if a == b {
            Shape::Diagonal
        } else {
            Shape::Oblique
        };
        if lame && shape == Shape::Oblique {
            return Err(bad(start, "lame ('n') oblique leaps are not supported".into()));
        }
        let groups = direction_groups(&dirs, shape);
        for (dx, dy) in expand(a, b) {
            if !groups.is_empty() && !groups.iter().any(|g| group_selects(*g, shape, dx, dy)) {
                continue;
            }
            let m = Motion {
                dx,
                dy,
                range,
                quiet,
                capture,
                initial,
                lame,
                en_passant,
            };
            if let Some(old) = out.iter_mut().find(|o| {
                o.dx == dx
                    && o.dy == dy
                    && o.range == range
                    && o.initial == initial
                    && o.lame == lame
                    && o.en_passant == en_passant
            }) {
                old.quiet |= quiet;
                old.capture |= capture;
            } else {
                out.push(m);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(s: &str) -> usize {
        parse(s).unwrap().len()
    }

    #[test]
    fn atoms_and_compounds() {
        assert_eq!(count("N"), 8);
        assert_eq!(count("K"), 8);
        assert_eq!(count("Q"), 8);
        assert_eq!(count("BN"), 12);
        assert_eq!(count("RN"), 12);
        assert_eq!(count("NN"), 8);
        assert!(parse("NN").unwrap().iter().all(|m| m.range == 0));
        assert!(parse("R").unwrap().iter().all(|m| m.range == 0 && m.dx * m.dy == 0));
        assert!(parse("W3").unwrap().iter().all(|m| m.range == 3));
        assert_eq!(count("G"), 4);
        assert_eq!(count("Z"), 8);
    }

    #[test]
    fn direction_modifiers() {
        let p = parse("fmWfcF").unwrap();
        assert_eq!(p.len(), 3);
        assert!(p.iter().any(|m| (m.dx, m.dy) == (0, 1) && m.quiet && !m.capture));
        assert!(
            p.iter()
                .filter(|m| m.dx != 0)
                .all(|m| m.dy == 1 && m.capture && !m.quiet)
        );
        let n = parse("ffN").unwrap();
        assert_eq!(n.len(), 2);
        assert!(n.iter().all(|m| m.dy == 2));
        let n = parse("fsN").unwrap();
        assert!(n.iter().all(|m| m.dy == 1) && n.len() == 2);
        assert_eq!(parse("fN").unwrap().len(), 4);
        assert_eq!(
            parse("flF").unwrap(),
            vec![Motion {
                dx: -1,
                dy: 1,
                range: 1,
                quiet: true,
                capture: true,
                initial: false,
                lame: false,
                en_passant: false
            }]
        );
        assert_eq!(parse("vR").unwrap().len(), 2);
        assert_eq!(parse("sR").unwrap().len(), 2);
        assert_eq!(parse("bW").unwrap().len(), 1);
        let ds = parse("ifmnD").unwrap();
        assert_eq!(ds.len(), 1);
        assert!(ds[0].initial && ds[0].lame && ds[0].quiet && !ds[0].capture);
    }

    #[test]
    fn en_passant_alone_means_capture_only() {
        let p = parse("feF").unwrap();
        assert!(p.iter().all(|m| m.capture && !m.quiet && m.en_passant));
    }

    #[test]
    fn errors_have_columns() {
        assert_eq!(parse("").unwrap_err().column, 1);
        assert_eq!(parse("Nx").unwrap_err().column, 2);
        assert_eq!(parse("fY").unwrap_err().column, 2);
        assert_eq!(parse("qN").unwrap_err().column, 1);
        assert!(parse("fm").is_err());
        assert!(parse("W99").is_err());
        assert!(parse("nN").is_err());
    }
}
