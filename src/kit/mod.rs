//! The table games, one file per game, on the turn layer of [`crate::table`]: the Chess Kit
//! games (`../shared/rules/chess-kit.md`) and Reconnaissance Blind Chess (`rbc`, over the
//! referee of [`crate::games::rbc`]). The registry below lists each game once.

/// Labels of an observation that starts with a whole FEN (six fields), then the game's own
/// fields as `label => kind` ([`crate::table::GameInfo::fields`]).
macro_rules! fen_then {
    ($($label:literal => $kind:expr),* $(,)?) => {
        &[
            ("board", $crate::table::FieldKind::Board),
            ("side to move", $crate::table::FieldKind::Text),
            ("castling", $crate::table::FieldKind::Text),
            ("en passant", $crate::table::FieldKind::Text),
            ("halfmove clock", $crate::table::FieldKind::Text),
            ("move number", $crate::table::FieldKind::Text),
            $(($label, $kind)),*
        ]
    };
}

pub(crate) mod board;
pub mod booster;
mod chess;
pub mod cloak;
pub mod coop2;
pub mod gravity;
pub mod neighbour;
pub mod parade;
pub mod rbc;
mod solitaire;
pub mod splitbrain;
pub mod telepathy;

use crate::Color;
use crate::table::{GameInfo, Outcome, QuickHasher, Settings, Table};
use std::hash::{Hash, Hasher};

/// A table game's constructor from its settings.
type Make = fn(&Settings) -> Result<Box<dyn Table>, String>;

/// Every table game: its descriptor and its constructor.
const GAMES: &[(&GameInfo, Make)] = &[
    (&splitbrain::INFO, splitbrain::SplitBrain::boxed),
    (&booster::INFO, booster::Booster::boxed),
    (&cloak::INFO, cloak::Cloak::boxed),
    (&coop2::INFO, coop2::Coop2::boxed),
    (&gravity::INFO, gravity::Gravity::boxed),
    (&parade::INFO, parade::Parade::boxed),
    (&neighbour::INFO, neighbour::Neighbour::boxed),
    (&telepathy::INFO, telepathy::Telepathy::boxed),
    (&rbc::INFO, rbc::RbcTable::boxed),
];

/// The names of the table games.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.0.name).collect()
}

/// Every table game's descriptor.
pub fn infos() -> Vec<&'static GameInfo> {
    GAMES.iter().map(|g| g.0).collect()
}

/// A new game of `name` with `settings`.
pub fn new_table(name: &str, settings: &Settings) -> Result<Box<dyn Table>, String> {
    let (_, make) = GAMES
        .iter()
        .find(|g| g.0.name == name)
        .ok_or_else(|| format!("unknown game '{name}' (table games: {})", names().join(", ")))?;
    make(settings)
}

/// The outcome of a game between White's team (the first `per_team` seats) and Black's (the
/// rest); `winner` `None` is a draw.
pub(crate) fn team_outcome(per_team: usize, winner: Option<Color>, reason: &str) -> Outcome {
    let score = |c: Color| match winner {
        Some(w) if w == c => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    let mut scores = vec![score(Color::White); per_team];
    scores.extend(vec![score(Color::Black); per_team]);
    Outcome {
        scores,
        result: winner
            .map_or("draw", |c| if c == Color::White { "white" } else { "black" })
            .into(),
        reason: reason.into(),
    }
}

/// The outcome when `seat` forfeits: its team loses.
pub(crate) fn team_forfeit(per_team: usize, seat: usize, why: &str) -> Outcome {
    let loser = if seat < per_team { Color::White } else { Color::Black };
    team_outcome(per_team, Some(!loser), &format!("seat {seat} forfeits: {why}"))
}

/// The chance of drawing each card of a pile whose order is unknown: each distinct card with
/// its share of the pile, as the action `draw` makes of it.
pub(crate) fn draw_odds<T: Ord + Copy, A>(pile: &[T], draw: impl Fn(T) -> A) -> Vec<(A, f64)> {
    let mut kinds = pile.to_vec();
    kinds.sort();
    kinds.dedup();
    let n = pile.len() as f64;
    kinds
        .into_iter()
        .map(|k| (draw(k), pile.iter().filter(|&&c| c == k).count() as f64 / n))
        .collect()
}

/// Cards as text, sorted (`-` for none): hands, piles and discards whose order is not part of
/// the state.
pub(crate) fn cards_text(cards: &[char]) -> String {
    let mut v = cards.to_vec();
    v.sort();
    if v.is_empty() {
        "-".to_string()
    } else {
        v.into_iter().collect()
    }
}

/// Fills every `?` card of `places` (every place a card may be) with the cards of `full` that
/// the places do not show,
/// shuffled by `rng`: one draw of the hidden cards that a seat's view allows.
pub(crate) fn deal_unseen(
    full: &[char],
    places: &mut [&mut [char]],
    rng: &mut rand::rngs::StdRng,
) -> Result<(), String> {
    use rand::RngExt;
    let mut unseen = full.to_vec();
    let mut holes = 0;
    for c in places.iter().flat_map(|p| p.iter()) {
        if *c == '?' {
            holes += 1;
        } else {
            let i = unseen
                .iter()
                .position(|x| x == c)
                .ok_or_else(|| format!("the view shows one '{c}' card more than the deck has"))?;
            unseen.swap_remove(i);
        }
    }
    if holes != unseen.len() {
        return Err(format!("{holes} hidden cards, but {} cards unseen", unseen.len()));
    }
    for p in places.iter_mut() {
        for c in p.iter_mut().filter(|c| **c == '?') {
            *c = unseen.swap_remove(rng.random_range(0..unseen.len()));
        }
    }
    Ok(())
}

/// Each team's expected score (White's seats first) from White's advantage in centipawns: a
/// logistic curve, 400 cp for ten to one.
pub(crate) fn team_chances(per_team: usize, white_cp: f64) -> Vec<f64> {
    let w = white_chance(white_cp);
    chances_of(per_team, w, 1.0 - w)
}

/// White's chance for a lead of `white_cp` centipawns (a logistic curve: 400 cp is 10 to 1).
fn white_chance(white_cp: f64) -> f64 {
    // The generic player's leaves ask for the same leads again and again.
    thread_local! {
        static KNOWN: std::cell::RefCell<Kept<u64, f64>> = std::cell::RefCell::new(Kept::new(CHANCES_KEPT));
    }
    let bits = white_cp.to_bits();
    if let Some(w) = KNOWN.with_borrow(|k| k.get(&bits).copied()) {
        return w;
    }
    let w = logistic(white_cp);
    KNOWN.with_borrow_mut(|k| k.keep(bits, w));
    w
}

/// [`white_chance`] worked out.
fn logistic(white_cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-white_cp / 400.0))
}

/// The places for chances a thread keeps ([`white_chance`]).
const CHANCES_KEPT: usize = 256;

/// Values a thread keeps for pure functions that a search asks for again and again (a board's
/// reply value, a lead's chance): a table of pairs of places, the pair chosen by the key's
/// hash; a new value goes first in its pair, the one there moves second, the second goes.
pub(crate) struct Kept<K, V> {
    places: Vec<Option<(K, V)>>,
}

impl<K: Hash + Eq, V> Kept<K, V> {
    /// Nothing kept yet; `places` (a power of two, at least 2) values at most.
    pub(crate) fn new(places: usize) -> Kept<K, V> {
        assert!(places.is_power_of_two() && places >= 2, "{places} places");
        Kept {
            places: std::iter::repeat_with(|| None).take(places).collect(),
        }
    }

    /// The first place of `key`'s pair: from the top bits of its hash, the best mixed.
    fn pair(&self, key: &K) -> usize {
        let mut h = QuickHasher::default();
        key.hash(&mut h);
        let pairs = self.places.len() / 2;
        2 * h.finish().checked_shr(64 - pairs.trailing_zeros()).unwrap_or(0) as usize
    }

    /// The value kept for `key`.
    pub(crate) fn get(&self, key: &K) -> Option<&V> {
        let i = self.pair(key);
        self.places[i..i + 2]
            .iter()
            .flatten()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// Keeps `value` for `key`, first in its pair.
    pub(crate) fn keep(&mut self, key: K, value: V) {
        let i = self.pair(&key);
        if !self.places[i].as_ref().is_some_and(|(k, _)| *k == key) {
            self.places[i + 1] = self.places[i].take();
        }
        self.places[i] = Some((key, value));
    }
}

/// `white` for each of White's seats, then `black` for each of Black's.
fn chances_of(per_team: usize, white: f64, black: f64) -> Vec<f64> {
    let mut v = Vec::with_capacity(2 * per_team);
    v.resize(per_team, white);
    v.resize(2 * per_team, black);
    v
}

/// [`team_chances`] for a generic player's leaf, with the lead of the team ahead faded by the
/// half-move `clock`: to nothing after `fade` plies without a pawn move or capture (0: never),
/// so that the side ahead makes progress rather than repeat moves; the team behind sees the
/// whole lead (fading it too made it decline captures that reset the clock).
pub(crate) fn fading_team_chances(per_team: usize, white_cp: f64, clock: u32, fade: u32) -> Vec<f64> {
    let w = white_chance(white_cp);
    if fade == 0 || white_cp == 0.0 {
        return chances_of(per_team, w, 1.0 - w);
    }
    let fade = f64::from(fade);
    let faded = white_chance(white_cp * (fade - f64::from(clock).min(fade)) / fade);
    if white_cp > 0.0 {
        chances_of(per_team, faded, 1.0 - w)
    } else {
        chances_of(per_team, w, 1.0 - faded)
    }
}

/// The engine seat's options split: the last value given for `key`, an option of the generic
/// player alone (refused with the hand-made one's `player=OWN`), and the others.
pub(crate) fn generic_option(options: &Settings, key: &str, own: &str) -> Result<(Option<String>, Settings), String> {
    let (given, rest): (Settings, Settings) = options.iter().cloned().partition(|(k, _)| k == key);
    let hand_made = (rest.iter().rev())
        .find(|(k, _)| k == "player")
        .is_some_and(|(_, v)| v == own);
    if hand_made && !given.is_empty() {
        return Err(format!("engine option {key}: the generic player's, not player={own}'s"));
    }
    Ok((given.last().map(|(_, v)| v.clone()), rest))
}

/// White's material lead in centipawns on a board of piece letters (`K` and unknown letters
/// count nothing).
pub(crate) fn material_lead(letters: impl Iterator<Item = char>) -> f64 {
    letters
        .map(|c| {
            let v = match c.to_ascii_uppercase() {
                'P' => 100.0,
                'N' | 'B' => 320.0,
                'R' => 500.0,
                'Q' => 950.0,
                _ => 0.0,
            };
            if c.is_ascii_uppercase() { v } else { -v }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::{Kept, logistic, white_chance};

    /// A kept value is found only by its own key, and new values in its pair move it second and
    /// then out; a table of one pair works.
    #[test]
    fn kept_values_answer_only_their_own_key() {
        for places in [2, 4, 64] {
            let mut kept: Kept<(u64, u64), u64> = Kept::new(places);
            let keys: Vec<(u64, u64)> = (0..500u64)
                .map(|i| (i.wrapping_mul(0x2545_F491_4F6C_DD1D), i % 3))
                .collect();
            for &k in &keys {
                kept.keep(k, k.0 ^ k.1);
                assert_eq!(kept.get(&k), Some(&(k.0 ^ k.1)));
            }
            let found = keys.iter().filter(|k| kept.get(k).is_some()).count();
            assert!(found <= places && found > 0, "{places} places: {found}");
            for k in &keys {
                assert!(kept.get(k).is_none_or(|&v| v == k.0 ^ k.1));
            }
        }
        // Three keys of one pair: the third pushes out the first only.
        let keys: Vec<(u64, u64)> = (0..100u64).map(|i| (i, 0)).collect();
        let mut kept: Kept<(u64, u64), u64> = Kept::new(8);
        let pair = kept.pair(&keys[0]);
        let same: Vec<(u64, u64)> = keys.iter().copied().filter(|k| kept.pair(k) == pair).take(3).collect();
        for (n, &k) in same.iter().enumerate() {
            kept.keep(k, n as u64);
            kept.keep(k, n as u64);
        }
        let found = |kept: &Kept<(u64, u64), u64>| same.iter().map(|k| kept.get(k).copied()).collect::<Vec<_>>();
        assert_eq!(found(&kept), [None, Some(1), Some(2)]);
        // The second key again: first in the pair, the third second, no copy of it left.
        kept.keep(same[1], 10);
        assert_eq!(found(&kept), [None, Some(10), Some(2)]);
        kept.keep(same[0], 20);
        assert_eq!(found(&kept), [Some(20), Some(10), None]);
    }

    /// The chances kept are the chances worked out, for leads that share places and come back,
    /// both zeros among them.
    #[test]
    fn kept_chances_are_the_chances() {
        let leads: Vec<f64> = (0..2_000)
            .map(|i| f64::from(i % 700) * 1.37 - 480.0)
            .chain([0.0, -0.0])
            .collect();
        for round in 0..2 {
            for &x in leads.iter().rev().skip(round) {
                assert_eq!(white_chance(x).to_bits(), logistic(x).to_bits(), "{x}");
            }
        }
    }
}
