//! Parade Chess Solitaire (rules section 6): one seat lays out pile A by the gap rule, then
//! spends pile B one card an action (move an enemy piece a piece attacks, or add the top card's
//! piece) until all pieces form one orthogonally connected group. Score: the cards left; after
//! pile B runs out each move counts -1, down to -16 (a loss). Notation: `docs/table-games.md`.

mod engine;
pub mod solver;

use super::board::{Sq, name, parse_sq, placement, read_placement};
use super::solitaire::{Board, PIECES, gap, groups, is_piece, is_white, occupancy, reach, refusal, solo_outcome};
use crate::table::seats::{PlayerSeat, Seat};
use crate::table::{
    Actor, Chance, FieldKind, GameInfo, Information, Optimum, Outcome, Setting, Settings, TableGame, Tally, Utility,
};
use std::fmt;

/// Cards in pile A (laid out) and in pile B (the budget).
pub const PILE: usize = 8;
/// The lowest score: after 16 moves past the end of pile B the game is lost.
pub const FLOOR: i32 = -16;

/// The most actions a game may take: each costs a point from pile B's eight down to the floor.
pub const MAX_ACTIONS: u32 = (PILE as i32 - FLOOR) as u32;

/// An action of Parade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Chance: the next card of the shuffle (`deal N`), to pile A (laid out) and then pile B.
    Deal(u8),
    /// The piece on the first square moves to the second (`c1b2`): an enemy piece that attacks
    /// it also attacks the second square once it is lifted.
    Move(Sq, Sq),
    /// The top card of pile B is turned and its piece added by the gap rule (`add`).
    Add,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Deal(c) => write!(f, "deal {}", *c as char),
            Action::Move(a, b) => write!(f, "{}{}", name(*a), name(*b)),
            Action::Add => write!(f, "add"),
        }
    }
}

/// The square where a piece with `gap` goes: `gap` empty squares after the last occupied
/// square in reading order (after a1's predecessor on an empty board), counting on from a1
/// past h8 and empty squares only.
pub fn gap_square(board: &Board, gap: usize) -> Sq {
    let start = board.iter().rposition(|&p| p != 0).map_or(0, |l| l + 1);
    let mut skip = gap;
    let mut s = start % 64;
    loop {
        if board[s] == 0 {
            if skip == 0 {
                return s;
            }
            skip -= 1;
        }
        s = (s + 1) % 64;
    }
}

/// Every move action on `board`: (from, to) of a piece Y moved by an enemy X that attacks it,
/// to an empty square X attacks with Y lifted. Each (from, to) once, in square order.
pub fn moves(board: &Board) -> Vec<(Sq, Sq)> {
    let occ = occupancy(board);
    let mut out = Vec::new();
    let mut seen = [0u64; 64];
    for x in 0..64 {
        let px = board[x];
        if px == 0 {
            continue;
        }
        let mut targets = reach(px, x, occ) & occ;
        while targets != 0 {
            let y = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            if is_white(board[y]) == is_white(px) {
                continue;
            }
            let lifted = occ & !(1u64 << y);
            let to = reach(px, x, lifted) & !lifted & !(1u64 << y);
            seen[y] |= to;
        }
    }
    for (y, &to) in seen.iter().enumerate() {
        let mut t = to;
        while t != 0 {
            let s = t.trailing_zeros() as usize;
            t &= t - 1;
            out.push((y, s));
        }
    }
    out
}

/// True when the pieces on `board` form one orthogonally connected group.
pub fn connected(board: &Board) -> bool {
    groups(occupancy(board), false) == 1
}

/// The step that comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Chance deals the shuffle: pile A's cards are laid out as they come, then pile B.
    Deal,
    /// The seat spends a card (or, past pile B, a point) on an action.
    Play,
    /// The game is over.
    Over,
}

/// The whole state of a game of Parade.
#[derive(Clone)]
pub struct Parade {
    board: Board,
    /// Pile B, top card first.
    pile: Vec<u8>,
    /// Actions taken: cards of pile B spent, then the moves past its end.
    spent: u32,
    /// Pile A's cards laid out so far (8 once dealt).
    laid: u32,
    /// Whether pile B's order is open (the `open=on` setting).
    open: bool,
    phase: Phase,
    end: Option<Outcome>,
    /// Pieces added from pile B and moves made, for the tally.
    adds: u32,
    moved: u32,
    /// The state as dealt (layout and pile B), for [`TableGame::deal_optimum`].
    dealt: Option<Box<(Board, Vec<u8>)>>,
}

impl Parade {
    /// A game about to be dealt. Setting: `open=off|on` (pile B's order known to the seat;
    /// off by default, as in the rules).
    pub fn new(settings: &Settings) -> Result<Parade, String> {
        let v = INFO.read_settings(settings)?;
        Ok(Parade {
            board: [0; 64],
            pile: Vec::new(),
            spent: 0,
            laid: 0,
            open: v[0] == "on",
            phase: Phase::Deal,
            end: None,
            adds: 0,
            moved: 0,
            dealt: None,
        })
    }

    /// [`Parade::new`] behind the table interface.
    pub fn boxed(settings: &Settings) -> Result<Box<dyn crate::table::Table>, String> {
        Ok(Box::new(Parade::new(settings)?))
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Pile B, top first (the true order).
    pub fn pile(&self) -> &[u8] {
        &self.pile
    }

    /// Actions taken so far.
    pub fn spent(&self) -> u32 {
        self.spent
    }

    /// The score now: cards left in pile B, or less than zero past its end.
    pub fn score(&self) -> i32 {
        PILE as i32 - self.spent as i32
    }

    /// Whether the seat sees pile B's order.
    pub fn open(&self) -> bool {
        self.open
    }

    /// The cards neither on the board nor in pile B as this state knows it, with repeats:
    /// during the deal those still to deal; in a view (pile B hidden) every unseen card.
    pub fn undealt(&self) -> Vec<u8> {
        let mut left: Vec<u8> = PIECES.to_vec();
        for &p in self.board.iter().filter(|&&p| p != 0).chain(&self.pile) {
            if let Some(i) = left.iter().position(|&c| c == p) {
                left.swap_remove(i);
            }
        }
        left
    }

    /// Ends the game if the pieces are connected, the floor is reached or no action is left.
    fn settle(&mut self) -> Option<String> {
        if self.phase != Phase::Play {
            return None;
        }
        let score = self.score();
        let (scores, result, reason) = if connected(&self.board) {
            let result = if score >= 0 { "win" } else { "late" };
            (score, result, format!("connected: score {score}"))
        } else if score <= FLOOR {
            (FLOOR, "loss", format!("not connected: score {FLOOR}"))
        } else if self.legal_actions().is_empty() {
            (FLOOR, "loss", "not connected: no action left".to_string())
        } else {
            return None;
        };
        self.phase = Phase::Over;
        self.end = Some(solo_outcome(f64::from(scores), result, &reason));
        Some(reason)
    }

    fn text(&self, hide: bool) -> String {
        let pile = if self.pile.is_empty() {
            "-".to_string()
        } else if hide {
            "?".repeat(self.pile.len())
        } else {
            self.pile.iter().map(|&c| c as char).collect()
        };
        format!(
            "{} {} {}",
            placement(|s| (self.board[s] != 0).then_some(self.board[s] as char)),
            pile,
            self.spent
        )
    }

    /// Reads a state text; with `view`, pile B may be hidden (`?` for each card) as in an
    /// observation. Checks that the parts fit one game.
    pub fn parse(base: &Parade, text: &str, view: bool) -> Result<Parade, String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        if w.len() != 3 {
            return Err("expected 'PLACEMENT PILE SPENT' (PILE top card first, or -)".into());
        }
        let mut next = Parade::new(&Vec::new())?;
        next.open = base.open;
        read_placement(w[0], |s, ch| {
            if !is_piece(ch as u8) {
                return Err(format!("'{ch}' is not one of KQRBN kqrbn"));
            }
            next.board[s] = ch as u8;
            Ok(())
        })?;
        let hidden = w[1].chars().all(|c| c == '?') && w[1] != "-";
        if hidden && !view {
            return Err("pile B hidden ('?'): a state names its cards".into());
        }
        if w[1] != "-" && !hidden {
            for c in w[1].bytes() {
                if !is_piece(c) {
                    return Err(format!("pile card '{}' is not one of KQRBN kqrbn", c as char));
                }
                next.pile.push(c);
            }
        }
        next.spent = w[2]
            .parse()
            .ok()
            .filter(|&s: &u32| s <= MAX_ACTIONS)
            .ok_or(format!("spent '{}': 0..{MAX_ACTIONS}", w[2]))?;
        let on_board = next.board.iter().filter(|&&p| p != 0).count();
        let pile_len = if hidden { w[1].len() } else { next.pile.len() };
        // No more of a piece than the 16 cards hold.
        let mut left: Vec<u8> = PIECES.to_vec();
        for &p in next.board.iter().filter(|&&p| p != 0).chain(&next.pile) {
            let i = left
                .iter()
                .position(|&c| c == p)
                .ok_or(format!("more '{}' than the cards hold", p as char))?;
            left.swap_remove(i);
        }
        let dealing = next.spent == 0 && (on_board < PILE || pile_len < PILE);
        if dealing {
            if on_board > PILE || on_board < PILE && pile_len > 0 {
                return Err("while dealing, pile A's eight cards are laid out before pile B gets a card".into());
            }
            if hidden {
                next.pile = vec![b'?'; pile_len];
            }
            next.laid = on_board as u32;
            next.phase = Phase::Deal;
        } else {
            let spent = next.spent as usize;
            let adds = on_board.saturating_sub(PILE);
            if on_board < PILE || pile_len != PILE.saturating_sub(spent) || adds > spent.min(PILE) {
                return Err(format!(
                    "{on_board} pieces, {pile_len} cards in pile B and {spent} spent do not fit one game"
                ));
            }
            next.laid = PILE as u32;
            next.adds = adds as u32;
            next.moved = (spent - adds) as u32;
            next.phase = Phase::Play;
            if next.spent == 0 && !hidden {
                next.dealt = Some(Box::new((next.board, next.pile.clone())));
            }
            if hidden {
                next.pile = vec![b'?'; pile_len];
            }
            next.settle();
        }
        Ok(next)
    }
}

/// What Parade Chess Solitaire is: its settings, fields and design questions.
pub static INFO: GameInfo = GameInfo {
    name: "parade",
    title: "Parade Chess Solitaire",
    about: "1 seat; move pieces by attacks until all touch",
    seats: &[1],
    roles: &["player"],
    settings: &[Setting {
        key: "open",
        choices: &["off", "on"],
        default: "off",
        about: "on: pile B's order is seen",
    }],
    fields: &[
        ("board", FieldKind::Board),
        ("pile b", FieldKind::Cards),
        ("actions taken", FieldKind::Text),
    ],
    chance: Chance::Explicit,
    information: Information::Imperfect,
    utility: Utility::Identical,
    questions: &[
        ("What does the player score?", "score"),
        (
            "How often is the parade connected with cards to spare?",
            "won (connected, score >= 0)",
        ),
        ("How often is it lost?", "lost"),
        (
            "What does the hidden order of pile B cost (with --optimum)?",
            "optimum less score",
        ),
    ],
    ratios: &[],
    histograms: &["score"],
};

impl TableGame for Parade {
    type Action = Action;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn roles(&self, _seat: usize) -> Vec<&'static str> {
        vec!["player"]
    }

    fn actor(&self) -> Actor {
        match self.phase {
            Phase::Deal => Actor::Chance,
            Phase::Play => Actor::Seat(0, "act"),
            Phase::Over => Actor::Over,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        if self.phase != Phase::Play {
            return Vec::new();
        }
        let mut v: Vec<Action> = moves(&self.board)
            .into_iter()
            .map(|(a, b)| Action::Move(a, b))
            .collect();
        if !self.pile.is_empty() {
            v.push(Action::Add);
        }
        v
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        let sq = |t: &str| parse_sq(t).ok_or_else(|| format!("'{t}' is not a square a1..h8"));
        match w.as_slice() {
            ["add"] => Ok(Action::Add),
            ["deal", c] if c.len() == 1 && is_piece(c.as_bytes()[0]) => Ok(Action::Deal(c.as_bytes()[0])),
            [m] if m.len() == 4 && m.is_ascii() => Ok(Action::Move(sq(&m[..2])?, sq(&m[2..])?)),
            _ => Err(format!("'{text}' is not a Parade action (a move 'c1b2' or 'add')")),
        }
    }

    fn apply(&mut self, action: &Action) -> Result<String, String> {
        let event = match (*action, self.phase) {
            (Action::Deal(c), Phase::Deal) => {
                if !self.undealt().contains(&c) {
                    return Err("that card is dealt already".into());
                }
                if self.laid < PILE as u32 {
                    let s = gap_square(&self.board, gap(c));
                    self.board[s] = c;
                    self.laid += 1;
                    format!("lay {} {}", c as char, name(s))
                } else {
                    self.pile.push(c);
                    if self.pile.len() == PILE {
                        self.phase = Phase::Play;
                        self.dealt = Some(Box::new((self.board, self.pile.clone())));
                    }
                    if self.open {
                        format!("pile B gets {}", c as char)
                    } else {
                        "pile B gets a card".to_string()
                    }
                }
            }
            (Action::Add, Phase::Play) => {
                if self.pile.is_empty() {
                    return Err("pile B is empty: only moves are left".into());
                }
                let c = self.pile.remove(0);
                let s = gap_square(&self.board, gap(c));
                self.board[s] = c;
                self.spent += 1;
                self.adds += 1;
                format!("add {} {}", c as char, name(s))
            }
            (Action::Move(a, b), Phase::Play) => {
                if !moves(&self.board).contains(&(a, b)) {
                    return Err(format!(
                        "{}{}: no enemy piece attacks {} and, with it lifted, {}",
                        name(a),
                        name(b),
                        name(a),
                        name(b)
                    ));
                }
                self.board[b] = self.board[a];
                self.board[a] = 0;
                if !self.pile.is_empty() {
                    self.pile.remove(0);
                }
                self.spent += 1;
                self.moved += 1;
                format!("{}{}", name(a), name(b))
            }
            (Action::Deal(_), _) => return Err("the deal is over".into()),
            _ => return Err("the cards are being dealt".into()),
        };
        Ok(match self.settle() {
            Some(end) => format!("{event} end: {end}"),
            None => event,
        })
    }

    fn why_illegal(&self, action: &Action) -> String {
        refusal(self, action)
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        if self.phase != Phase::Deal {
            return Vec::new();
        }
        let left: Vec<char> = self.undealt().into_iter().map(char::from).collect();
        super::draw_odds(&left, |c| Action::Deal(c as u8))
    }

    type Observation = String;

    fn read_observation(&self, text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }

    fn observation(&self, _seat: usize) -> String {
        self.text(!self.open)
    }

    fn state_text(&self) -> String {
        self.text(false)
    }

    fn set_state(&mut self, text: &str) -> Result<(), String> {
        *self = Parade::parse(self, text, false)?;
        Ok(())
    }

    fn heuristic(&self) -> Option<Vec<f64>> {
        // The score now, less an action for each group still apart.
        let apart = groups(occupancy(&self.board), false).saturating_sub(1) as i32;
        Some(vec![f64::from((self.score() - apart).max(FLOOR))])
    }

    fn sample_observed(&self, _: usize, observation: &String, rng: &mut rand::rngs::StdRng) -> Result<Parade, String> {
        // A hidden pile B: as many of the unseen cards (the rest were spent), in a random order.
        let mut g = Parade::parse(self, observation, true)?;
        let pile = observation.split_whitespace().nth(1).unwrap_or("-");
        if pile != "-" && pile.chars().all(|c| c == '?') {
            g.pile.clear();
            g.pile = super::solitaire::draw_some(g.undealt(), pile.len(), rng)?;
        }
        Ok(g)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.clone()
    }

    fn forfeit(&self, _seat: usize, why: &str) -> Outcome {
        solo_outcome(f64::from(FLOOR), "loss", &format!("seat 0 forfeits: {why}"))
    }

    fn tally(&self) -> Tally {
        let score = self.end.as_ref().map_or(0.0, |o| o.scores[0]);
        let result = self.end.as_ref().map_or("", |o| o.result.as_str());
        vec![
            ("score".into(), score),
            (
                "won (connected, score >= 0)".into(),
                f64::from(u8::from(result == "win")),
            ),
            (
                "connected late (score < 0)".into(),
                f64::from(u8::from(result == "late")),
            ),
            ("lost".into(), f64::from(u8::from(result == "loss"))),
            ("adds".into(), f64::from(self.adds)),
            ("moves".into(), f64::from(self.moved)),
        ]
    }

    fn deal_optimum(&self, budget: u64) -> Option<Optimum> {
        let (board, pile) = self.dealt.as_deref()?;
        let sol = solver::OpenDeal::from_parts(pile, 0).solve(board, budget);
        let plan: Vec<String> = sol.actions.iter().flatten().map(ToString::to_string).collect();
        Some(Optimum {
            score: match &sol.actions {
                Some(a) => f64::from(PILE as i32 - a.len() as i32),
                None => f64::from(FLOOR),
            },
            proved: sol.proved,
            nodes: sol.nodes,
            plan,
        })
    }

    fn engine_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn Seat>, String> {
        let mut e = engine::Engine::new(self, options, seed)?;
        crate::table::seats::Player::see(&mut e, &crate::table::Seen::of(self, seat)).map_err(|e| e.to_string())?;
        Ok(Box::new(PlayerSeat(e)))
    }
}
