//! Moves as text in Menagerie move notation (MMN, `../shared/protocol.md` §3): coordinate
//! moves (`e2e4`, `e7e8q`, `k10k11`), castling as the king's move, and the multi-step forms a
//! rules module describes with [`MoveForm`]: a hand-off `a1d4>g7` and a capture on the way
//! `c2xd4c4`. Parsing first checks the syntax, then finds the legal move with that text.
//! XBoard gets its own projection of multi-step moves ([`xboard_text`]).

use crate::color::Color;
use crate::geometry::Geometry;
use crate::moves::{Move, MoveForm, MoveKind, MoveList};
use crate::position::Position;
use crate::rules::{Capabilities, Rules};
use crate::square::Square;
use arrayvec::ArrayVec;

/// Appends a square's name (`e4`, `j10`).
pub(crate) fn push_square(out: &mut String, g: &Geometry, sq: Square) {
    out.push((b'a' + g.file_of(sq) as u8) as char);
    // The rank's digits by hand: the formatter is slow for the players that write many moves.
    let rank = g.rank_of(sq) + 1;
    if rank >= 10 {
        out.push((b'0' + (rank / 10 % 10) as u8) as char);
    }
    out.push((b'0' + (rank % 10) as u8) as char);
}

/// Appends the MMN text of a move to `out` (no allocation once `out` has room).
pub fn write_move<R: Rules>(out: &mut String, pos: &Position<R>, m: Move) {
    write_move_by(out, pos, pos.side_to_move(), m);
}

/// [`write_move`] for a move of side `mover`, who need not be the side to move in `pos` (a
/// principal variation written from its root): a Chess960 castling names that side's rook.
pub fn write_move_by<R: Rules>(out: &mut String, pos: &Position<R>, mover: Color, m: Move) {
    let g = &pos.variant().geometry;
    push_square(out, g, m.from());
    if m.kind() == MoveKind::Castle && pos.variant().chess960 {
        // Chess960: the king takes its own rook, as UCI_Chess960 engines write it.
        push_square(out, g, pos.castle_info(mover, m).sq.rook_from);
        return;
    }
    if m.kind() == MoveKind::Special {
        match pos.game().rules.special_form(m) {
            MoveForm::FromTo => {}
            MoveForm::Handoff(via) => {
                push_square(out, g, via);
                out.push('>');
            }
            MoveForm::Capture(via) => {
                out.push('x');
                push_square(out, g, via);
            }
        }
    }
    push_square(out, g, m.to());
    if m.kind() == MoveKind::Promotion {
        out.push(pos.variant().pieces[m.extra()].letter.to_ascii_lowercase());
    }
}

/// The MMN text of a move in this position's variant.
pub fn move_text<R: Rules>(pos: &Position<R>, m: Move) -> String {
    let mut s = String::with_capacity(12);
    write_move(&mut s, pos, m);
    s
}

/// The move as XBoard 4.9.1 writes it: a capture on the way as two legs through the victim
/// (`c2d4,d4c4`), castling as king leg plus rook leg (`f1i1,j1h1`) where the rules module asks
/// for it, everything else as in MMN. A hand-off has no XBoard form (its MMN text is
/// returned). Ranks are 1-based here; CECP's shift for 10-rank boards is applied later.
pub fn xboard_text<R: Rules>(pos: &Position<R>, m: Move) -> String {
    let g = &pos.variant().geometry;
    let mut s = String::with_capacity(12);
    match m.kind() {
        MoveKind::Special => {
            if let MoveForm::Capture(via) = pos.game().rules.special_form(m) {
                push_square(&mut s, g, m.from());
                push_square(&mut s, g, via);
                s.push(',');
                push_square(&mut s, g, via);
                push_square(&mut s, g, m.to());
                return s;
            }
        }
        MoveKind::Castle if pos.variant().chess960 => {
            // The protocol's FischerRandom castling: O-O and O-O-O.
            return if m.castle_option().0 == 0 { "O-O" } else { "O-O-O" }.to_string();
        }
        MoveKind::Castle if pos.game().caps.contains(Capabilities::CASTLING_AS_LEGS) => {
            let us = pos.side_to_move();
            let info = pos.castle_info(us, m);
            push_square(&mut s, g, info.sq.king_from);
            push_square(&mut s, g, info.sq.king_to);
            s.push(',');
            push_square(&mut s, g, info.sq.rook_from);
            push_square(&mut s, g, info.sq.rook_to);
            return s;
        }
        _ => {}
    }
    move_text(pos, m)
}

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in MMN (or XBoard's multi-leg form).
    Syntax(String),
    /// Well formed but not legal here.
    Illegal(String),
    /// Well formed, not legal, with the reason.
    Refused(String, &'static str),
}

impl MoveError {
    /// The reason in a few words.
    pub fn reason(&self) -> &'static str {
        match self {
            MoveError::Syntax(_) => "not a move",
            MoveError::Illegal(_) => "illegal",
            MoveError::Refused(_, r) => r,
        }
    }
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Syntax(t) => write!(f, "not a move: {t}"),
            MoveError::Illegal(t) => write!(f, "illegal move: {t}"),
            MoveError::Refused(t, r) => write!(f, "illegal move ({r}): {t}"),
        }
    }
}

/// One step of an MMN token after the origin square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    handoff: bool,
    capture: bool,
    square: Square,
}

/// A syntactically valid MMN token: origin, steps, promotion letter.
struct Token {
    from: Square,
    steps: ArrayVec<Step, 8>,
    promo: Option<char>,
}

/// Reads one square name (`a1` .. `p16`) of the board at `*i`.
fn read_square(g: &Geometry, b: &[u8], i: &mut usize) -> Option<Square> {
    let start = *i;
    if *i >= b.len() || !(b'a'..=b'p').contains(&b[*i]) {
        return None;
    }
    *i += 1;
    let digits = *i;
    while *i < b.len() && b[*i].is_ascii_digit() && *i - digits < 2 {
        *i += 1;
    }
    if *i == digits {
        return None;
    }
    let text = std::str::from_utf8(&b[start..*i]).ok()?;
    g.parse(text)
}

/// Checks the syntax of an MMN token: squares of the board, steps marked `>`/`x`, and an
/// optional lower-case promotion letter at the end.
fn tokenize(g: &Geometry, text: &str) -> Result<Token, MoveError> {
    let err = || MoveError::Syntax(text.to_string());
    if !text.is_ascii() || text.len() < 4 || text.len() > 24 {
        return Err(err());
    }
    let b = text.as_bytes();
    let mut i = 0;
    let from = read_square(g, b, &mut i).ok_or_else(err)?;
    let mut steps = ArrayVec::new();
    let mut promo = None;
    while i < b.len() {
        if i + 1 == b.len() && b[i].is_ascii_lowercase() && b[i] != b'x' {
            promo = Some(b[i] as char);
            i += 1;
            break;
        }
        let handoff = b[i] == b'>';
        if handoff {
            i += 1;
        }
        let capture = i < b.len() && b[i] == b'x';
        if capture {
            i += 1;
        }
        let square = read_square(g, b, &mut i).ok_or_else(err)?;
        steps
            .try_push(Step {
                handoff,
                capture,
                square,
            })
            .map_err(|_| err())?;
    }
    if steps.is_empty() || i != b.len() {
        return Err(err());
    }
    Ok(Token { from, steps, promo })
}

/// Finds the legal move written as `text` in MMN. A bounce may name its bounce square as a
/// waypoint (`c1e3g5`); it is checked and dropped. The position is left as it was.
pub fn parse_move<R: Rules>(pos: &mut Position<R>, text: &str) -> Result<Move, MoveError> {
    if let Some(right) = castle_word(text) {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        return find_castle(&list, text, |m| m.castle_option().0 == right);
    }
    let g = pos.variant().geometry.clone();
    let tok = tokenize(&g, text)?;
    let refused = |r: &'static str| MoveError::Refused(text.to_string(), r);
    let plain = |s: &Step| !s.handoff && !s.capture;
    let mut waypoint = None;
    let mut canon = String::with_capacity(16);
    push_square(&mut canon, &g, tok.from);
    match tok.steps.as_slice() {
        [to] if plain(to) => push_square(&mut canon, &g, to.square),
        [to] if to.handoff => return Err(refused("a hand-off needs the square of the piece handed to")),
        [_] => return Err(refused("a capture step needs a destination after it")),
        [via, to] if plain(via) && to.handoff && !to.capture => {
            push_square(&mut canon, &g, via.square);
            canon.push('>');
            push_square(&mut canon, &g, to.square);
        }
        [via, to] if plain(via) && to.handoff => return Err(refused("a propel cannot capture")),
        [via, to] if via.capture && !via.handoff && plain(to) => {
            canon.push('x');
            push_square(&mut canon, &g, via.square);
            push_square(&mut canon, &g, to.square);
        }
        [via, to] if plain(via) && plain(to) => {
            waypoint = Some(via.square);
            push_square(&mut canon, &g, to.square);
        }
        _ => return Err(refused("not a move form of this game")),
    }
    if let Some(p) = tok.promo {
        canon.push(p);
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let found = list.iter().copied().find(|&m| move_text(pos, m) == canon);
    let m = match found {
        Some(m) => m,
        // Chess960 castling may also be written as the king's move when no other move is.
        None if pos.variant().chess960 && tok.steps.len() == 1 && tok.promo.is_none() => {
            let to = tok.steps[0].square;
            find_castle(&list, text, |m| m.from() == tok.from && m.to() == to)?
        }
        None => return Err(MoveError::Illegal(text.to_string())),
    };
    if let Some(via) = waypoint
        && !pos.game().rules.valid_waypoint(pos, m, via)
    {
        return Err(refused("the move does not pass that square"));
    }
    Ok(m)
}

/// `O-O` (or `0-0`) is right 0, `O-O-O` right 1.
fn castle_word(text: &str) -> Option<usize> {
    match text {
        "O-O" | "0-0" => Some(0),
        "O-O-O" | "0-0-0" => Some(1),
        _ => None,
    }
}

/// The one legal castling move that `pick` accepts.
fn find_castle(list: &MoveList, text: &str, pick: impl Fn(Move) -> bool) -> Result<Move, MoveError> {
    let mut found = list
        .iter()
        .copied()
        .filter(|&m| m.kind() == MoveKind::Castle && pick(m));
    match (found.next(), found.next()) {
        (Some(m), None) => Ok(m),
        (None, _) => Err(MoveError::Illegal(text.to_string())),
        // A variant with several castling moves a side (Tensor): the word does not say which.
        (Some(_), Some(_)) => Err(MoveError::Refused(
            text.to_string(),
            "more than one castling move reads so: give the king's from and to",
        )),
    }
}

/// Finds the legal move written in XBoard's form ([`xboard_text`]) or in MMN.
pub fn parse_xboard_move<R: Rules>(pos: &mut Position<R>, text: &str) -> Result<Move, MoveError> {
    if !text.contains(',') {
        return parse_move(pos, text);
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let found = list.iter().copied().find(|&m| xboard_text(pos, m) == text);
    match found {
        Some(m) => Ok(m),
        None => {
            let g = &pos.variant().geometry;
            let legs_ok = text.len() <= 24 && text.split(',').all(|leg| tokenize(g, leg).is_ok());
            if legs_ok {
                Err(MoveError::Illegal(text.to_string()))
            } else {
                Err(MoveError::Syntax(text.to_string()))
            }
        }
    }
}
