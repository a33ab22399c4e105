//! Reading Booster Chess's state text (`docs/table-games.md`): every field checked, the game
//! untouched on error. `?` cards are ones the text does not give (the other hand, `#N` for a
//! pile of N cards in a seat's view).

use super::{Booster, CHESS_CARDS, Phase, Piece};
use crate::Color;
use crate::kit::board::{name, parse_sq, read_ep, read_placement};
use crate::table::Outcome;

const FIELDS: &str =
    "PLACEMENT SIDE CASTLING EP CHECKERS RESERVEW,RESERVEB HANDW,HANDB PILE DISCARD HALFMOVE PLIES PHASE RETURNED";

/// The game `base` (its settings kept) set to the state `text`. A seat's `view` may hold
/// what the text does not give (`?` cards, `#N` piles, `C` pieces); the true state may not.
pub fn parse(base: &Booster, text: &str, view: bool, end: Option<&Outcome>) -> Result<Booster, String> {
    let w: Vec<&str> = text.split_whitespace().collect();
    if w.len() != 13 {
        return Err(format!("expected 13 fields: {FIELDS}"));
    }
    let mut g = base.clone();
    read_pieces(&mut g, w[0])?;
    g.side = match w[1] {
        "w" => Color::White,
        "b" => Color::Black,
        s => return Err(format!("side '{s}': w or b")),
    };
    if w[2] != "-" && !w[2].chars().all(|c| "KQkq".contains(c)) {
        return Err(format!("castling '{}': KQkq or -", w[2]));
    }
    g.castling = ['K', 'Q', 'k', 'q'].map(|c| w[2].contains(c));
    g.ep = read_ep(w[3])?;
    let on_board = read_checkers(&mut g, w[4])?;
    read_reserves(&mut g, w[5], on_board)?;
    read_cards(&mut g, base, [w[6], w[7], w[8]], view)?;
    g.halfmove = w[9].parse().map_err(|_| format!("halfmove '{}'", w[9]))?;
    g.plies = w[10].parse().map_err(|_| format!("plies '{}'", w[10]))?;
    read_phase(&mut g, w[11], w[12], end)?;
    g.stats = Default::default();
    if g.phase == Phase::Move && !g.has_move() {
        if super::in_check(&g.board, g.side) {
            g.finish(Some(!g.side), "checkmate");
        } else {
            g.finish(None, "stalemate");
        }
    }
    Ok(g)
}

/// The placement field: pieces without checkers, one king a side.
fn read_pieces(g: &mut Booster, field: &str) -> Result<(), String> {
    g.board = [None; 64];
    read_placement(field, |s, c| {
        let kind = c.to_ascii_uppercase();
        if !"KQRBNP".contains(kind) {
            return Err(format!("{}: '{c}' is not a piece letter", name(s)));
        }
        g.board[s] = Some(Piece::new(
            if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            },
            kind,
        ));
        Ok(())
    })?;
    for c in [Color::White, Color::Black] {
        if g.board
            .iter()
            .flatten()
            .filter(|p| p.color == c && p.kind == 'K')
            .count()
            != 1
        {
            return Err("each side has one king".into());
        }
    }
    Ok(())
}

/// The checkers field (`SQUARE=wN` or `bN`, comma-separated, or `-`): each colour's checkers
/// on the board.
fn read_checkers(g: &mut Booster, field: &str) -> Result<[u32; 2], String> {
    let mut on_board = [0u32; 2];
    if field != "-" {
        for item in field.split(',') {
            let (sq, n) = item
                .split_once('=')
                .ok_or(format!("checkers '{item}': SQUARE=wN or bN"))?;
            let s = parse_sq(sq).ok_or(format!("checkers '{item}': bad square"))?;
            let col = match n.chars().next() {
                Some('w') => 0,
                Some('b') => 1,
                _ => return Err(format!("checkers '{item}': w or b")),
            };
            let count: u8 = n[1..]
                .parse()
                .ok()
                .filter(|k| *k > 0)
                .ok_or(format!("checkers '{item}': a count"))?;
            let p = g.board[s]
                .as_mut()
                .ok_or(format!("checkers '{item}': no piece there"))?;
            if p.checkers != [0, 0] {
                return Err(format!("checkers '{item}': one entry a square"));
            }
            p.checkers[col] = count;
            on_board[col] += count as u32;
        }
    }
    Ok(on_board)
}

/// The reserves field, each colour's checkers adding up with those on the board.
fn read_reserves(g: &mut Booster, field: &str, on_board: [u32; 2]) -> Result<(), String> {
    let (rw, rb) = field.split_once(',').ok_or("reserves: WHITE,BLACK")?;
    let num = |t: &str| t.parse::<u8>().map_err(|_| format!("reserve '{t}'"));
    g.reserve = [num(rw)?, num(rb)?];
    for (board, reserve) in on_board.iter().zip(g.reserve) {
        let total = board + reserve as u32;
        if total != g.checkers as u32 {
            return Err(format!(
                "{total} checkers on the board and in reserve, not {}",
                g.checkers
            ));
        }
    }
    Ok(())
}

/// The hands, pile and discard fields: cards of the deck (`?` and `#N` only in a `view`).
fn read_cards(g: &mut Booster, base: &Booster, [hands, pile, discard]: [&str; 3], view: bool) -> Result<(), String> {
    let cards = |t: &str, what: &str| -> Result<Vec<char>, String> {
        if t == "-" {
            return Ok(Vec::new());
        }
        t.chars()
            .map(|c| {
                if CHESS_CARDS.contains(c) || c == 'C' || c == 'c' || c == '?' {
                    Ok(c)
                } else {
                    Err(format!("{what}: '{c}' is not a card"))
                }
            })
            .collect()
    };
    let (hw, hb) = hands.split_once(',').ok_or("hands: WHITE,BLACK")?;
    g.hands = [cards(hw, "hand")?, cards(hb, "hand")?];
    g.deck = match pile.strip_prefix('#') {
        Some(n) => vec!['?'; n.parse::<usize>().map_err(|_| format!("pile '{}'", pile))?],
        None => cards(pile, "pile")?,
    };
    g.discard = cards(discard, "discard")?;
    if g.discard.contains(&'?') {
        return Err("the discard is face up".into());
    }
    let total = base.deck.len() + base.discard.len() + base.hands.iter().map(Vec::len).sum::<usize>();
    let now = g.deck.len() + g.discard.len() + g.hands.iter().map(Vec::len).sum::<usize>();
    if now != total {
        return Err(format!("{now} cards in hands, pile and discard; the deck has {total}"));
    }
    if !view {
        let all: Vec<char> = g
            .deck
            .iter()
            .chain(&g.discard)
            .chain(g.hands.iter().flatten())
            .copied()
            .collect();
        let full: Vec<char> = base
            .deck
            .iter()
            .chain(&base.discard)
            .chain(base.hands.iter().flatten())
            .copied()
            .collect();
        if all.contains(&'?') {
            return Err("'?' and '#N' are for a seat's view; the true state gives every card".into());
        }
        for c in CHESS_CARDS.chars().chain("Cc".chars()) {
            let (have, deck) = (
                all.iter().filter(|&&x| x == c).count(),
                full.iter().filter(|&&x| x == c).count(),
            );
            if have != deck && !full.contains(&'?') {
                return Err(format!("{have} '{c}' cards; the deck has {deck}"));
            }
        }
    }
    Ok(())
}

/// The phase and returned-pawns fields, and a finished game's outcome.
fn read_phase(g: &mut Booster, phase: &str, returned: &str, end: Option<&Outcome>) -> Result<(), String> {
    g.phase = match phase {
        "deal-0" => Phase::Deal(0),
        "deal-1" => Phase::Deal(1),
        "move" => Phase::Move,
        "add" => Phase::Add,
        "over" if end.is_some() => Phase::Over,
        "refill-0" if g.side == Color::White => Phase::Refill(0),
        "refill-1" if g.side == Color::Black => Phase::Refill(1),
        p => match p.strip_prefix("boost-").and_then(parse_sq) {
            Some(s) if g.board[s].is_some_and(|q| q.color == g.side && q.boost() > 0) => Phase::Boost(s),
            _ => return Err(format!("phase '{p}'")),
        },
    };
    g.returned = 0;
    if returned != "-" {
        for t in returned.split(',') {
            let s = parse_sq(t).ok_or(format!("returned pawn '{t}'"))?;
            let start = |p: &Piece| s / 8 == if p.color == Color::White { 1 } else { 6 };
            if !g.board[s].is_some_and(|p| p.kind == 'P' && start(&p)) {
                return Err(format!("returned pawn '{t}': no pawn on its starting rank there"));
            }
            g.returned |= 1 << s;
        }
    }
    g.end = None;
    g.ending = "";
    if let Some(end) = end {
        if g.phase != Phase::Over || end.scores.len() != 2 {
            return Err("a finished game's state has phase over and 2 scores".to_string());
        }
        g.end = Some(end.clone());
    }
    Ok(())
}
