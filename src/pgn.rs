//! PGN out and in. Moves are SAN where the variant's rules module adds nothing to the core's
//! moves (chess, Chess960, Los Alamos, Capablanca), MMN otherwise; set-ups go in the `FEN` and
//! `SetUp` tags and the variant in `Variant`. Reading takes SAN (with or without check marks
//! and `=` before a promotion, `0-0` for `O-O`) or MMN, and skips comments, variations, NAGs
//! and move numbers.

use crate::moves::{Move, MoveKind, MoveList};
use crate::notation::MoveError;
use crate::position::Position;
use crate::rules::Rules;
use std::fmt::Write;

/// True when the game's moves are written in SAN: its rules module has no moves, move
/// generation or information of its own that SAN could not say.
pub fn uses_san<R: Rules>(pos: &Position<R>) -> bool {
    pos.game().caps.is_empty()
}

/// SAN of legal move `m` without its check mark (`Nbd2`, `exd6`, `e8=Q`, `O-O-O`).
fn san_body<R: Rules>(pos: &mut Position<R>, m: Move, legal: &MoveList) -> String {
    let mut s = String::with_capacity(8);
    if m.kind() == MoveKind::Castle {
        s.push_str(if m.castle_option().0 == 0 { "O-O" } else { "O-O-O" });
        return s;
    }
    let g = &pos.variant().geometry;
    let kind = pos.piece_at(m.from()).kind();
    let capture = pos.victim(m).is_some() || m.kind() == MoveKind::EnPassant;
    if pos.game().pawn_kinds >> kind & 1 != 0 {
        if capture {
            s.push((b'a' + g.file_of(m.from()) as u8) as char);
        }
    } else {
        s.push(pos.variant().pieces[kind].letter.to_ascii_uppercase());
        let rivals = legal.iter().filter(|o| {
            o.to() == m.to()
                && o.from() != m.from()
                && o.kind() != MoveKind::Castle
                && pos.piece_at(o.from()).kind() == kind
        });
        let (mut any, mut same_file, mut same_rank) = (false, false, false);
        for o in rivals {
            any = true;
            same_file |= g.file_of(o.from()) == g.file_of(m.from());
            same_rank |= g.rank_of(o.from()) == g.rank_of(m.from());
        }
        if any && (!same_file || same_rank) {
            s.push((b'a' + g.file_of(m.from()) as u8) as char);
        }
        if any && same_file {
            let _ = write!(s, "{}", g.rank_of(m.from()) + 1);
        }
    }
    if capture {
        s.push('x');
    }
    crate::notation::push_square(&mut s, g, m.to());
    if m.kind() == MoveKind::Promotion {
        s.push('=');
        s.push(pos.variant().pieces[m.extra()].letter.to_ascii_uppercase());
    }
    s
}

/// The move as PGN writes it in this game: SAN with `+` or `#`, or MMN.
pub fn move_text<R: Rules>(pos: &mut Position<R>, m: Move) -> String {
    if !uses_san(pos) {
        return crate::notation::move_text(pos, m);
    }
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    let mut s = san_body(pos, m, &legal);
    pos.make_move(m);
    if pos.variant().check && pos.in_check() {
        legal.clear();
        pos.legal_moves(&mut legal);
        s.push(if legal.is_empty() { '#' } else { '+' });
    }
    pos.unmake_move();
    s
}

/// SAN written without check marks, annotations and `=`, castling with letter O.
fn normal_san(text: &str) -> String {
    text.trim_end_matches(['+', '#', '!', '?'])
        .replace("e.p.", "")
        .replace('0', "O")
        .replace('=', "")
}

/// The legal move a PGN token names: SAN (loosely written) or MMN.
pub fn parse_move<R: Rules>(pos: &mut Position<R>, text: &str) -> Result<Move, MoveError> {
    if uses_san(pos) {
        let want = normal_san(text);
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        for &m in &legal {
            if normal_san(&san_body(pos, m, &legal)) == want {
                return Ok(m);
            }
        }
    }
    crate::notation::parse_move(pos, text).map_err(|e| MoveError::Refused(text.to_string(), e.reason()))
}

/// One game read from PGN text: its tags in order, its move tokens and its result token.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    /// `(name, value)` pairs.
    pub tags: Vec<(String, String)>,
    /// Move tokens (SAN or MMN), comments, variations, NAGs and numbers removed.
    pub moves: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl PgnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("bad tag line: {line}"))?;
    let (name, value) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("bad tag line: {line}"))?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| format!("tag value not quoted: {line}"))?;
    Ok((name.to_string(), value.replace("\\\"", "\"").replace("\\\\", "\\")))
}

/// Splits PGN text into games. A game is its tag section (if any) and its movetext, ended by
/// a result token or the end of the text.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut started = false;
    let (mut comment, mut depth) = (false, 0usize);
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if !comment && depth == 0 && t.starts_with('[') {
            if !game.moves.is_empty() {
                game.result = "*".into();
                games.push(std::mem::take(&mut game));
            }
            game.tags
                .push(parse_tag(t).map_err(|e| format!("line {}: {e}", n + 1))?);
            started = true;
            continue;
        }
        if t.starts_with('%') {
            continue;
        }
        let mut word = String::new();
        let mut words = Vec::new();
        for c in t.chars() {
            if comment {
                comment = c != '}';
                continue;
            }
            match c {
                '{' if depth == 0 => comment = true,
                ';' if depth == 0 => break,
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ if depth > 0 => {}
                c if c.is_whitespace() => words.push(std::mem::take(&mut word)),
                c => word.push(c),
            }
            if comment || depth > 0 || c == '(' {
                words.push(std::mem::take(&mut word));
            }
        }
        words.push(word);
        for w in words.into_iter().filter(|w| !w.is_empty()) {
            if matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                game.result = w;
                games.push(std::mem::take(&mut game));
                started = false;
                continue;
            }
            // Move numbers (`12.`, `12...`, or glued to the move: `12.e4`) and NAGs.
            let digits = w.len() - w.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let w = if w[digits..].starts_with('.') {
                w[digits..].trim_start_matches('.')
            } else {
                w.as_str()
            };
            if w.is_empty() || w.starts_with('$') {
                continue;
            }
            started = true;
            game.moves.push(w.to_string());
        }
    }
    if started && (!game.moves.is_empty() || !game.tags.is_empty()) {
        game.result = "*".into();
        games.push(game);
    }
    Ok(games)
}

/// A pass (`Move::NONE` in a game whose variant lets a side pass, RBC), as PGN's null move.
pub const PASS: &str = "--";

/// Writes `moves` (legal one after another from `pos`; `Move::NONE` a pass) as PGN movetext
/// with move numbers, wrapped at 80 columns. `pos` is restored.
pub fn write_movetext<R: Rules>(pos: &mut Position<R>, moves: &[Move], result: &str) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    let mut push = |out: &mut String, word: &str| {
        if line_len > 0 && line_len + 1 + word.len() > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    };
    let mut made = 0;
    // Numbers counted here: a pass (a null move) does not advance the position's counter.
    let mut number = pos.fullmove();
    let mut white = pos.side_to_move() == crate::Color::White;
    for (i, &m) in moves.iter().enumerate() {
        if white || i == 0 {
            let dots = if white { "." } else { "..." };
            push(&mut out, &format!("{number}{dots}"));
        }
        if !white {
            number += 1;
        }
        white = !white;
        if m == Move::NONE {
            push(&mut out, PASS);
            pos.make_null();
        } else {
            let text = move_text(pos, m);
            push(&mut out, &text);
            pos.make_move(m);
        }
        made += 1;
    }
    for &m in moves[..made].iter().rev() {
        if m == Move::NONE {
            pos.unmake_null();
        } else {
            pos.unmake_move();
        }
    }
    push(&mut out, result);
    out
}
