//! Chess 911 (the "Egyptian Eye"), per `rules/chess911.md`.
//!
//! The board, pieces, castling and promotion are plain data in `engine.ini`. This module adds
//! what data cannot say:
//! - the All Seeing Eye: royal pieces may never stand on the two diagonals through it
//!   (20 squares; the Eye square itself is a no-landing square in the ini);
//! - the Rendezvous: once per game, Princess on g2 and Bishop on h2 (Black: g10/h10) may swap,
//!   written `g2h2`. The FEN castling field carries `V`/`v` once White/Black has used it.
//!
//! Settings: `rules.eye = f6`, `rules.rendezvous = Sg2 Bh2` (White's squares; Black mirrors).

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Piece, Position};
use crate::rules::{Capabilities, MAX_RULE_FEATURES, Rules};
use crate::square::Square;
use crate::variant::Variant;
use crate::zobrist::Zobrist;

/// Chess 911 rules.
#[derive(Clone, Debug)]
pub struct Chess911 {
    eye_diagonals: Bitboard,
    /// The board's corners (the citadels).
    citadels: Bitboard,
    princess: usize,
    bishop: usize,
    /// Per colour: (princess square, bishop square).
    swap_squares: [(Square, Square); 2],
}

/// Bit `colour` set: that side has used its Rendezvous.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RendezvousUsed(u8);

impl Rules for Chess911 {
    type State = RendezvousUsed;
    type Word = u128;
    const SETTINGS: &'static [&'static str] = &["eye", "rendezvous"];
    const CAPABILITIES: Capabilities = Capabilities::SPECIAL_MOVES;

    fn new(v: &Variant) -> Result<Self, String> {
        let g = &v.geometry;
        let setting = |k: &str| {
            v.rule_settings
                .get(k)
                .ok_or_else(|| format!("chess911 needs rules.{k}"))
        };
        let eye_text = setting("eye")?;
        let eye = g
            .parse(eye_text)
            .ok_or_else(|| format!("rules.eye: '{eye_text}' is not a square"))?;
        if !g.no_landing.contains(eye) {
            return Err(format!("rules.eye: {eye_text} must also be a no_landing square"));
        }
        let mut eye_diagonals = Bitboard::EMPTY;
        for sq in g.board {
            let df = g.file_of(sq) as i32 - g.file_of(eye) as i32;
            let dr = g.rank_of(sq) as i32 - g.rank_of(eye) as i32;
            if df != 0 && df.abs() == dr.abs() {
                eye_diagonals.set(sq);
            }
        }
        let rv = setting("rendezvous")?;
        let parts: Vec<&str> = rv.split_whitespace().collect();
        let parse_part = |t: &str| -> Option<(usize, Square)> {
            let mut ch = t.chars();
            let letter = ch.next()?;
            Some((v.kind_of_letter(letter)?, g.parse(ch.as_str())?))
        };
        let bad = || format!("rules.rendezvous: expected like 'Sg2 Bh2', found '{rv}'");
        if parts.len() != 2 {
            return Err(bad());
        }
        let (princess, ps) = parse_part(parts[0]).ok_or_else(bad)?;
        let (bishop, bs) = parse_part(parts[1]).ok_or_else(bad)?;
        if !g.landable().contains(ps) || !g.landable().contains(bs) {
            return Err(format!(
                "rules.rendezvous: '{rv}' names a square where no piece can stand"
            ));
        }
        let mut citadels = Bitboard::EMPTY;
        for sq in g.board {
            let (f, r) = (g.file_of(sq), g.rank_of(sq));
            if (f == 0 || f + 1 == g.files()) && (r == 0 || r + 1 == g.ranks()) {
                citadels.set(sq);
            }
        }
        Ok(Chess911 {
            eye_diagonals,
            citadels,
            princess,
            bishop,
            swap_squares: [(ps, bs), (g.flip(ps), g.flip(bs))],
        })
    }

    /// The Rendezvous still to come, pieces on the Eye's diagonals (where no royal piece can
    /// take them) and pieces in a citadel.
    const EVAL_FEATURES: &'static [&'static str] = &["rendezvous", "eye_lines", "citadel"];

    fn eval_features(&self, pos: &Position<Self>, c: Color, out: &mut [i32; MAX_RULE_FEATURES]) {
        let own = pos.color_bb(c);
        out[0] = i32::from(pos.rule_state().0 >> c.index() & 1 == 0);
        out[1] = (own & !pos.royals(c) & self.eye_diagonals).count() as i32;
        out[2] = (own & self.citadels).count() as i32;
    }

    fn royal_forbidden(&self) -> Bitboard {
        self.eye_diagonals
    }

    fn extra_moves(&self, pos: &Position<Self>, list: &mut MoveList) {
        let us = pos.side_to_move();
        if pos.rule_state().0 >> us.index() & 1 != 0 {
            return;
        }
        let (ps, bs) = self.swap_squares[us.index()];
        if pos.piece_at(ps) == Piece::new(self.princess, us) && pos.piece_at(bs) == Piece::new(self.bishop, us) {
            list.push(Move::new(ps, bs, MoveKind::Special, 0, 0));
        }
    }

    fn make_special(&self, pos: &mut Position<Self>, m: Move) {
        let a = pos.remove_piece(m.from());
        let b = pos.remove_piece(m.to());
        pos.put_piece(a, m.to());
        pos.put_piece(b, m.from());
    }

    fn unmake_special(&self, pos: &mut Position<Self>, m: Move) {
        self.make_special(pos, m);
    }

    fn after_move(&self, pos: &Position<Self>, m: Move, state: &mut RendezvousUsed) {
        if m.kind() == MoveKind::Special {
            state.0 |= 1 << pos.side_to_move().index();
        }
    }

    fn state_key(&self, s: &RendezvousUsed, z: &Zobrist) -> u64 {
        let mut k = 0;
        for c in Color::ALL {
            if s.0 >> c.index() & 1 != 0 {
                k ^= z.extra[c.index()];
            }
        }
        k
    }

    fn parse_castling_char(&self, c: char, state: &mut RendezvousUsed) -> bool {
        match c {
            'V' => state.0 |= 1,
            'v' => state.0 |= 2,
            _ => return false,
        }
        true
    }

    fn write_castling_chars(&self, s: &RendezvousUsed, out: &mut String) {
        if s.0 & 1 != 0 {
            out.push('V');
        }
        if s.0 & 2 != 0 {
            out.push('v');
        }
    }
}
