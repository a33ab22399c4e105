//! Telepathy's state text: reading it (a whole state, or a seat's observation with the
//! hidden cards left to deal) and writing it.

use super::{CARDS, HIDDEN, Hand, Phase, Telepathy};
use crate::Color;
use crate::position::Position;
use crate::table::{Outcome, TableGame};
use rand::RngExt;
use rand::rngs::StdRng;
use std::sync::Arc;

/// The removals field (optional; absent: none yet): `WHITE,BLACK` counts 0 to 16.
fn read_removals(field: Option<&str>) -> Result<[u32; 2], String> {
    Ok(match field {
        None => [0, 0],
        Some(r) => {
            let (a, b) = r
                .split_once(',')
                .ok_or(format!("removals '{r}': expected WHITE,BLACK"))?;
            let n = |x: &str| {
                x.parse::<u32>()
                    .ok()
                    .filter(|&n| n <= 16)
                    .ok_or(format!("removals '{r}': counts 0 to 16"))
            };
            [n(a)?, n(b)?]
        }
    })
}

/// The phase field (`over` only for a finished game, whose text carries the result).
fn read_phase(field: &str, finished: bool) -> Result<Phase, String> {
    Ok(match field {
        "predict" => Phase::Predict,
        "move" => Phase::Move,
        "remove-white" => Phase::Remove(Color::White),
        "remove-black" => Phase::Remove(Color::Black),
        "over" if finished => Phase::Over,
        p => {
            return Err(format!(
                "phase '{p}': expected predict, move, remove-white or remove-black (over: with the result after it)"
            ));
        }
    })
}

impl Telepathy {
    /// The game set to the state `text`; `end` is the outcome a finished game's text carries.
    pub(super) fn read_state(&self, text: &str, end: Option<&Outcome>) -> Result<Telepathy, String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        if w.len() < 12 {
            return Err("expected 'FEN(6 fields) MARKER FACEW,FACEB HANDW,HANDB PREDW,PREDB PENDING PHASE [REMOVALSW,REMOVALSB]'".into());
        }
        let pos = Position::from_fen_exposed(Arc::clone(&self.game), &w[..6].join(" ")).map_err(|e| e.to_string())?;
        let mut next = self.clone();
        next.pos = pos;
        next.board_changed();
        next.end = None;
        // A set state starts its own count of plies and statistics.
        next.plies = 0;
        next.predictions = super::Predictions::default();
        next.removals = 0;
        next.last_removal = None;
        if !(12..=13).contains(&w.len()) {
            return Err("expected 'FEN(6 fields) MARKER FACEW,FACEB HANDW,HANDB PREDW,PREDB PENDING PHASE [REMOVALSW,REMOVALSB]'".into());
        }
        next.removed = read_removals(w.get(12).copied())?;
        next.marker = match w[6] {
            "-1" => -1,
            "0" => 0,
            "1" => 1,
            m => return Err(format!("marker '{m}': expected -1, 0 or 1")),
        };
        let pair = |x: &str, what: &str| -> Result<(String, String), String> {
            x.split_once(',')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or(format!("{what}: expected WHITE,BLACK"))
        };
        let (fw, fb) = pair(w[7], "face-up cards")?;
        let (hw, hb) = pair(w[8], "hands")?;
        let (pw, pb) = pair(w[9], "predictors")?;
        next.read_cards([&fw, &fb], w[10])?;
        next.phase = read_phase(w[11], end.is_some())?;
        if let Some(end) = end {
            if next.phase != Phase::Over || end.scores.len() != 4 {
                return Err("a finished game's state has phase over and four scores".into());
            }
            next.end = Some(end.clone());
        }
        if (next.phase == Phase::Move) != next.pending.is_some() {
            return Err("a card lies face down exactly in the move phase".into());
        }
        next.read_hands([hw, hb])?;
        let seat = |s: &str, lo: usize| -> Result<usize, String> {
            s.parse::<usize>()
                .ok()
                .filter(|&x| x == lo || x == lo + 1)
                .ok_or(format!("predictor '{s}'"))
        };
        next.predictor = [seat(&pw, 0)?, seat(&pb, 2)?];
        // A king is taken or removed only as the game ends.
        crate::kit::chess::check_kings(&next.pos, [1, 1], next.phase == Phase::Over)?;
        if next.phase == Phase::Predict {
            next.enter_predict();
        }
        Ok(next)
    }

    /// The face-up cards (`-` for none when `faceup=off` allows it) and the face-down one.
    fn read_cards(&mut self, face_up: [&str; 2], pending: &str) -> Result<(), String> {
        let faceup_off = self.faceup_off;
        let card = |s: &str| -> Result<char, String> {
            let c = s.chars().next().unwrap_or(' ');
            if s.len() == 1 && ((CARDS.contains(&c) && c != 'C') || (c == '-' && faceup_off)) {
                Ok(c)
            } else if faceup_off {
                Err(format!("face-up card '{s}': a piece type P N B R Q K, or - for none"))
            } else {
                Err(format!("face-up card '{s}': a piece type P N B R Q K"))
            }
        };
        self.face_up = [card(face_up[0])?, card(face_up[1])?];
        self.pending = match pending {
            "-" => None,
            c if c.len() == 1 && CARDS.contains(&c.chars().next().unwrap()) => c.chars().next(),
            c => return Err(format!("face-down card '{c}'")),
        };
        Ok(())
    }

    /// The hands: with its face-up card (and the mover's face-down one) each is the seven cards.
    fn read_hands(&mut self, hands: [String; 2]) -> Result<(), String> {
        for (i, h) in hands.iter().enumerate() {
            let cards: Vec<char> = h.chars().collect();
            let mut all: Vec<char> = cards.clone();
            all.extend(Some(self.face_up[i]).filter(|&c| c != '-'));
            if i == self.pos.side_to_move().index() {
                all.extend(self.pending);
            }
            all.sort();
            let mut want = CARDS.to_vec();
            want.sort();
            if all != want {
                return Err(format!(
                    "hand '{h}' with its face-up card (and a face-down one) must be the seven cards PNBRQKC"
                ));
            }
            self.hands[i] = cards.into_iter().collect();
        }
        Ok(())
    }

    /// The state an observation shows. Hidden from it: the face-down card and the hand it
    /// left, together the six cards besides the team's face-up one; the face-down card is then
    /// [`HIDDEN`] until [`Telepathy::fill_hidden`] deals them.
    pub(super) fn read_view(&self, observation: &str) -> Result<Telepathy, String> {
        let mut w: Vec<String> = observation.split_whitespace().map(String::from).collect();
        if w.len() < 11 || w[10] != "?" {
            let mut g = self.clone();
            g.set_state(observation)?;
            return Ok(g);
        }
        let t = usize::from(w[1] == "b");
        let face: Vec<char> = w[7]
            .split(',')
            .nth(t)
            .ok_or("face-up cards: WHITE,BLACK")?
            .chars()
            .collect();
        // Read with some dealing of the six cards, then marked hidden.
        let mut rest: Vec<char> = CARDS.iter().copied().filter(|c| !face.contains(c)).collect();
        let pending = rest.remove(0);
        let hand: String = rest.into_iter().collect();
        let hands: Vec<String> = w[8].split(',').map(String::from).collect();
        if hands.len() != 2 {
            return Err("hands: WHITE,BLACK".into());
        }
        w[8] = if t == 0 {
            format!("{hand},{}", hands[1])
        } else {
            format!("{},{hand}", hands[0])
        };
        w[10] = pending.to_string();
        let mut g = self.clone();
        g.set_state(&w.join(" "))?;
        g.pending = Some(HIDDEN);
        Ok(g)
    }

    /// Deals a view's hidden cards ([`Telepathy::read_view`]): the face-down card drawn evenly
    /// from the six besides the face-up one, the others in the hand.
    pub(super) fn fill_hidden(&mut self, rng: &mut StdRng) {
        if self.pending != Some(HIDDEN) {
            return;
        }
        let t = self.team().index();
        let face = self.face_up[t];
        let mut rest: Hand = CARDS.iter().copied().filter(|&c| c != face).collect();
        self.pending = Some(rest.remove(rng.random_range(0..rest.len())));
        self.hands[t] = rest;
    }

    pub(super) fn text(&self, viewer: Option<usize>) -> String {
        // The face-down card, and the hand it left, are hidden from all but its predictor.
        let t = self.team().index();
        let secret = self.pending.is_some() && viewer.is_some_and(|v| v != self.predictor[t]);
        let hand = |i: usize| -> String {
            if secret && i == t {
                "?".into()
            } else {
                self.hands[i].iter().collect()
            }
        };
        let pending = match self.pending {
            None => "-".to_string(),
            Some(_) if secret => "?".to_string(),
            Some(c) => c.to_string(),
        };
        let phase = match self.phase {
            Phase::Predict => "predict".to_string(),
            Phase::Move => "move".to_string(),
            Phase::Remove(c) => format!("remove-{}", if c == Color::White { "white" } else { "black" }),
            Phase::Over => "over".to_string(),
        };
        format!(
            "{} {} {},{} {},{} {},{} {} {} {},{}",
            self.pos.fen(),
            self.marker,
            self.face_up[0],
            self.face_up[1],
            hand(0),
            hand(1),
            self.predictor[0],
            self.predictor[1],
            pending,
            phase,
            self.removed[0],
            self.removed[1]
        )
    }
}
