//! Reading Cloak and Dagger's state text (`docs/table-games.md`): every field checked, the
//! game untouched on error.

use super::{Cloak, Fact, Phase, Piece, name, parse_sq};
use crate::Color;
use crate::kit::board::{read_ep, read_placement};
use crate::table::Outcome;

const FIELDS: &str = "PLACEMENT SIDE PHASE CLOAKS UNMOVED EP HALFMOVE PLIES TAKENW,TAKENB GUESS FACTS LAST REFUSED";

/// The game `base` (its settings kept) set to the state `text`. A seat's `view` may hold
/// what the text does not give (`?` cards, `#N` piles, `C` pieces); the true state may not.
pub fn parse(base: &Cloak, text: &str, view: bool, end: Option<&Outcome>) -> Result<Cloak, String> {
    let w: Vec<&str> = text.split_whitespace().collect();
    if w.len() != 13 {
        return Err(format!("expected 13 fields: {FIELDS}"));
    }
    let mut g = base.clone();
    read_pieces(&mut g, w[0], w[3])?;
    g.side = match w[1] {
        "w" => Color::White,
        "b" => Color::Black,
        s => return Err(format!("side '{s}': w or b")),
    };
    g.phase = read_phase(w[2])?;
    g.unmoved = 0;
    if w[4] != "-" {
        for t in w[4].split(',') {
            let s = parse_sq(t)
                .filter(|s| *s < 8 || *s >= 56)
                .ok_or(format!("unmoved '{t}': a back-rank square"))?;
            g.unmoved |= 1 << s;
        }
    }
    g.ep = read_ep(w[5])?;
    g.halfmove = w[6].parse().map_err(|_| format!("halfmove '{}'", w[6]))?;
    g.plies = w[7].parse().map_err(|_| format!("plies '{}'", w[7]))?;
    let (tw, tb) = w[8].split_once(',').ok_or("taken pawns: WHITE,BLACK")?;
    let num = |t: &str| {
        t.parse::<u32>()
            .ok()
            .filter(|n| *n <= 8)
            .ok_or(format!("taken pawns '{t}'"))
    };
    g.pawns_taken = [num(tw)?, num(tb)?];
    g.guess = match w[9] {
        "-" => None,
        "right" => Some(true),
        "wrong" => Some(false),
        t => return Err(format!("guess '{t}': -, right or wrong")),
    };
    read_facts(&mut g, w[10])?;
    g.last = w[11].to_string();
    g.refused.clear();
    if w[12] != "-" && !w[12].starts_with('x') {
        for t in w[12].split(',') {
            g.refused
                .push(crate::table::TableGame::parse_action(&g, &t.replace('-', " "))?);
        }
    }
    check_hidden(&g, view)?;
    if g.phase == Phase::Guess && g.guess.is_some() {
        return Err("no guess is made before the guess phase".into());
    }
    g.seen.clear();
    g.stats = Default::default();
    g.end = None;
    g.how = "";
    if let Some(end) = end {
        if g.phase != Phase::Over || end.scores.len() != 2 {
            return Err("a finished game's state has phase over and 2 scores".into());
        }
        g.end = Some(end.clone());
        return Ok(g);
    }
    if g.phase == Phase::Over {
        return Err("a finished game's state ends with its result".into());
    }
    if g.phase == Phase::Guess {
        g.start_turn();
    }
    Ok(g)
}

/// The placement and cloaks fields: the pieces, each cloaked one with its checker, forming
/// at most one army a side.
fn read_pieces(g: &mut Cloak, placement: &str, cloaks: &str) -> Result<(), String> {
    g.board = [None; 64];
    read_placement(placement, |s, c| {
        let kind = c.to_ascii_uppercase();
        if !"KQRBNPC".contains(kind) {
            return Err(format!("{}: '{c}' is not a piece letter", name(s)));
        }
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        g.board[s] = Some(Piece {
            color,
            kind: if kind == 'C' { '?' } else { kind },
            cloak: 0,
        });
        Ok(())
    })?;
    if cloaks != "-" {
        for item in cloaks.split(',') {
            let (sq, n) = item.split_once('=').ok_or(format!("cloak '{item}': SQUARE=N"))?;
            let s = parse_sq(sq).ok_or(format!("cloak '{item}': bad square"))?;
            let n: u8 = n
                .parse()
                .ok()
                .filter(|n| (1..=8).contains(n))
                .ok_or(format!("cloak '{item}': 1-8"))?;
            let p = g.board[s].as_mut().ok_or(format!("cloak '{item}': no piece there"))?;
            if p.kind == 'P' || p.cloak != 0 {
                return Err(format!("cloak '{item}': pawns are never cloaked"));
            }
            p.cloak = n;
        }
    }
    check_armies(g)
}

/// Each checker once a side, every unknown type cloaked, and each side's pieces one army
/// (promoted pieces in place of pawns) with a king or a cloaked piece that may be it.
fn check_armies(g: &Cloak) -> Result<(), String> {
    for s in 0..64 {
        let Some(p) = g.board[s] else { continue };
        if p.kind == '?' && p.cloak == 0 {
            return Err(format!("{}: an unknown type ('C') must be cloaked", name(s)));
        }
        let same = (0..64)
            .filter(|&t| g.board[t].is_some_and(|q| q.color == p.color && q.cloak == p.cloak))
            .count();
        if p.cloak != 0 && same > 1 {
            return Err(format!("checker {} appears twice", p.cloak));
        }
    }
    for c in [Color::White, Color::Black] {
        let count = |k: char| g.board.iter().flatten().filter(|p| p.color == c && p.kind == k).count();
        let unknown = count('?');
        // Promoted pieces take the place of pawns.
        let extra: usize = [('Q', 1), ('R', 2), ('B', 2), ('N', 2)]
            .iter()
            .map(|&(k, n)| count(k).saturating_sub(n))
            .sum();
        if count('K') > 1 || count('P') + extra > 8 || count('K') + unknown == 0 {
            return Err(format!(
                "{} pieces do not fit one army with its king",
                if c == Color::White { "White's" } else { "Black's" }
            ));
        }
    }
    Ok(())
}

/// The phase field.
fn read_phase(field: &str) -> Result<Phase, String> {
    Ok(match field {
        "assign-white" => Phase::Assign(Color::White),
        "assign-black" => Phase::Assign(Color::Black),
        "guess" => Phase::Guess,
        "move" => Phase::Move,
        "bonus-white" => Phase::Bonus(Color::White),
        "bonus-black" => Phase::Bonus(Color::Black),
        "uncloak" => Phase::Uncloak,
        "over" => Phase::Over,
        p => return Err(format!("phase '{p}'")),
    })
}

/// The facts field (`w3=N`, `b5!Q`: what guesses told, comma-separated, or `-`).
fn read_facts(g: &mut Cloak, field: &str) -> Result<(), String> {
    g.facts.clear();
    if field != "-" {
        for t in field.split(',') {
            let b = t.as_bytes();
            let ok = b.len() == 4
                && (b[0] == b'w' || b[0] == b'b')
                && (b'1'..=b'8').contains(&b[1])
                && (b[2] == b'=' || b[2] == b'!')
                && b"KQRBN".contains(&b[3]);
            if !ok {
                return Err(format!("fact '{t}': like w3=N or b5!Q"));
            }
            g.facts.push(Fact {
                color: if b[0] == b'w' { Color::White } else { Color::Black },
                checker: b[1] - b'0',
                kind: b[3] as char,
                is: b[2] == b'=',
            });
        }
    }
    Ok(())
}

/// `C` pieces (types not given) only where the text may hide them.
fn check_hidden(g: &Cloak, view: bool) -> Result<(), String> {
    // `C` is a cloaked piece whose type the text does not give: before its side assigns, or
    // the other side's pieces in a seat's view (which the engine seats read).
    let unassigned = |c: Color| g.board.iter().flatten().any(|p| p.color == c && p.kind == '?');
    if let Phase::Assign(c) = g.phase
        && !unassigned(c)
    {
        return Err("in the assign phase the side assigning has no types yet".into());
    }
    if !view {
        let may_hide = |c: Color| match g.phase {
            Phase::Assign(Color::White) => true,
            Phase::Assign(Color::Black) => c == Color::Black,
            _ => false,
        };
        if [Color::White, Color::Black]
            .iter()
            .any(|&c| unassigned(c) && !may_hide(c))
        {
            return Err("'C' (a type not given) is for a seat's view, or a side still to assign".into());
        }
    }
    if g.phase == Phase::Guess && g.guess.is_some() {
        return Err("no guess is made before the guess phase".into());
    }
    Ok(())
}
