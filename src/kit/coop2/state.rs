//! Cooperative Chess 2's state text (`docs/table-games.md`) written, and read with every field
//! checked, the game untouched on error. `?` cards are ones the text does not give (another
//! seat's hand, `#N` for a draw pile of N cards in a seat's view).

use super::{Coop2, DECK, Phase, Pile};
use crate::Color;
use crate::position::Position;
use crate::table::Outcome;
use std::sync::Arc;

const FIELDS: &str = "FEN(6 fields) LINE DISCARD HANDW,HANDB DECK CAPTURES TURNS PHASE";

/// The game `base` (its settings kept) set to the state `text`. A seat's `view` may hold
/// what the text does not give (`?` cards, `#N` piles, `C` pieces); the true state may not.
pub fn parse(base: &Coop2, text: &str, view: bool, end: Option<&Outcome>) -> Result<Coop2, String> {
    let w: Vec<&str> = text.split_whitespace().collect();
    if w.len() != 13 {
        return Err(format!("expected 13 fields: {FIELDS}"));
    }
    let mut g = base.clone();
    let fen = format!("{} {} {} - {} {}", w[0], w[1], w[2], w[4], w[5]);
    g.pos = Position::from_fen_exposed(Arc::clone(&g.game), &fen).map_err(|e| e.to_string())?;
    read_ep(&mut g, w[3])?;
    read_cards(&mut g, [w[6], w[7], w[8], w[9]], view)?;
    g.captures = w[10].parse().map_err(|_| format!("captures '{}'", w[10]))?;
    g.turns = w[11].parse().map_err(|_| format!("turns '{}'", w[11]))?;
    g.phase = match w[12] {
        "deal-0" => Phase::Deal(0),
        "deal-1" => Phase::Deal(1),
        "refill-0" => Phase::Refill(0),
        "refill-1" => Phase::Refill(1),
        "draw-line" => Phase::DrawLine,
        "play" => Phase::Play,
        "quiet" => Phase::Quiet,
        "capture" => Phase::Capture,
        "over" if end.is_some() => Phase::Over,
        p => return Err(format!("phase '{p}'")),
    };
    check_hands(&g)?;
    // A king is taken only as the game ends.
    crate::kit::chess::check_kings(&g.pos, [1, 1], g.phase == Phase::Over)?;
    g.end = None;
    g.ending = "";
    if let Some(end) = end {
        if g.phase != Phase::Over || end.scores.len() != crate::table::TableGame::seats(&g) {
            return Err("a finished game's state has phase over and a score a seat".into());
        }
        g.end = Some(end.clone());
    }
    Ok(g)
}

/// The en-passant field: `-`, or the squares a pawn of each colour just passed.
fn read_ep(g: &mut Coop2, field: &str) -> Result<(), String> {
    let geo = g.pos.variant().geometry.clone();
    g.ep = [None, None];
    if field != "-" {
        for t in field.split(',') {
            let s = geo.parse(t).ok_or(format!("en passant '{t}'"))?;
            let pawn = match geo.rank_of(s) {
                2 => Color::White,
                5 => Color::Black,
                _ => return Err(format!("en passant '{t}': rank 3 or 6")),
            };
            g.ep[pawn.index()] = Some(s);
        }
    }
    Ok(())
}

/// The line, discard, hands and draw pile fields: every card of the deck somewhere, once
/// (`?` and `#N` only in a `view`).
fn read_cards(g: &mut Coop2, [line, discard, hands, pile]: [&str; 4], view: bool) -> Result<(), String> {
    let cards = |t: &str, what: &str| -> Result<Pile, String> {
        let mut pile = Pile::new();
        for c in t.chars().filter(|_| t != "-") {
            if !(DECK.contains(&c) || c == '?') {
                return Err(format!("{what}: '{c}' is not a card"));
            }
            pile.try_push(c)
                .map_err(|_| format!("{what}: more cards than the deck has"))?;
        }
        Ok(pile)
    };
    g.line = cards(line, "line")?;
    g.discard = cards(discard, "discard")?;
    if g.line.contains(&'?') || g.discard.contains(&'?') {
        return Err("line and discard are face up".into());
    }
    let (hw, hb) = hands.split_once(',').ok_or("hands: WHITE,BLACK")?;
    g.hands = [cards(hw, "hand")?, cards(hb, "hand")?];
    g.deck = match pile.strip_prefix('#') {
        Some(n) => {
            let n = n.parse::<usize>().ok().filter(|&n| n <= 32);
            std::iter::repeat_n('?', n.ok_or(format!("draw pile '{pile}': #N with N up to 32"))?).collect()
        }
        None => cards(pile, "draw pile")?,
    };
    // Every card is somewhere, once.
    let all: Vec<char> = g
        .line
        .iter()
        .chain(&g.discard)
        .chain(g.hands.iter().flatten())
        .chain(&g.deck)
        .copied()
        .collect();
    if all.len() != 32 {
        return Err(format!(
            "{} cards in line, discard, hands and pile; the deck has 32",
            all.len()
        ));
    }
    for &c in DECK {
        let have = all.iter().filter(|&&x| x == c).count();
        if have > DECK.iter().filter(|&&x| x == c).count() {
            return Err(format!("too many '{c}' cards"));
        }
    }
    if !view && all.contains(&'?') {
        return Err("'?' and '#N' are for a seat's view; the true state gives every card".into());
    }
    Ok(())
}

/// Hands that fit the phase: the player to play has a card, at most 2 a hand, none in the
/// solitaire, which alone draws to the line.
fn check_hands(g: &Coop2) -> Result<(), String> {
    if g.phase == Phase::Play
        && g.hands[if g.rules.solitaire {
            0
        } else {
            g.pos.side_to_move().index()
        }]
        .is_empty()
    {
        return Err("the player to play a card has none".into());
    }
    if g.hands.iter().any(|h| h.len() > 2) {
        return Err("a hand holds at most 2 cards".into());
    }
    if g.rules.solitaire
        && (g.hands.iter().any(|h| !h.is_empty()) || matches!(g.phase, Phase::Deal(_) | Phase::Refill(_) | Phase::Play))
    {
        return Err("the solitaire has no hands".into());
    }
    if !g.rules.solitaire && g.phase == Phase::DrawLine {
        return Err("only the solitaire draws to the line".into());
    }
    Ok(())
}

impl Coop2 {
    /// A seat's view (`observation`) read as a state with `?` cards.
    pub(super) fn read_view(&self, observation: &str) -> Result<Coop2, String> {
        parse(self, observation, true, None)
    }

    /// The cards a seat's view does not show (`?`: the partner's hand, the pile), dealt at
    /// random from those not in view.
    pub(super) fn deal_unseen(&mut self, rng: &mut rand::rngs::StdRng) -> Result<(), String> {
        let [h0, h1] = &mut self.hands;
        let places: &mut [&mut [char]] = &mut [h0, h1, &mut self.deck, &mut self.discard, &mut self.line];
        crate::kit::deal_unseen(DECK, places, rng)
    }

    /// The state text: the whole state, or with `viewer` what that seat may see (the other
    /// hand as `?` cards, the draw pile as its size `#N`; the true pile is sorted).
    pub(super) fn text(&self, viewer: Option<usize>) -> String {
        let cards = |v: &[char]| {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.iter().collect()
            }
        };
        let hand = |i: usize| {
            if viewer.is_some_and(|v| v != i) {
                "?".repeat(self.hands[i].len()).chars().collect::<String>()
            } else {
                let mut h = self.hands[i].clone();
                h.sort();
                h.into_iter().collect()
            }
        };
        let hand = |i: usize| {
            let h = hand(i);
            if h.is_empty() { "-".to_string() } else { h }
        };
        let deck = if viewer.is_some() {
            format!("#{}", self.deck.len())
        } else {
            let mut d = self.deck.clone();
            d.sort();
            cards(&d)
        };
        let phase = match self.phase {
            Phase::Deal(s) => format!("deal-{s}"),
            Phase::Refill(s) => format!("refill-{s}"),
            Phase::DrawLine => "draw-line".into(),
            Phase::Play => "play".into(),
            Phase::Quiet => "quiet".into(),
            Phase::Capture => "capture".into(),
            Phase::Over => "over".into(),
        };
        let f = self.pos.fen();
        let w: Vec<&str> = f.split_whitespace().collect();
        let g = &self.pos.variant().geometry;
        let eps: Vec<String> = self.ep.iter().flatten().map(|&s| g.name(s)).collect();
        let ep = if eps.is_empty() { "-".to_string() } else { eps.join(",") };
        format!(
            "{} {} {} {} {} {} {} {} {},{} {} {} {} {}",
            w[0],
            w[1],
            w[2],
            ep,
            w[4],
            w[5],
            cards(&self.line),
            cards(&self.discard),
            hand(0),
            hand(1),
            deck,
            self.captures,
            self.turns,
            phase
        )
    }
}
