//! Neighbour Chess Solitaire (rules section 8): one seat adds pieces from a shuffled piece
//! deck, each carried from the last one's square by a position card across the board's edges
//! (a torus), to the nearest empty ring when its square is taken; it stops adding when it
//! likes (after `min` pieces), then moves pieces, each with the move of a same-colour piece
//! among its eight neighbours and for one card from a draw pile, until all pieces touch (eight
//! directions). Score: the cards left in both draw piles. Notation: `docs/table-games.md`.

mod engine;
pub mod solver;

use super::board::{Sq, name, offset, parse_sq, placement, read_placement};
use super::solitaire::{Board, PIECES, groups, grow, is_piece, occupancy, reach, refusal, solo_outcome, white_squares};
use crate::table::seats::{Player, PlayerSeat, Seat};
use crate::table::{
    Actor, Chance, FieldKind, GameInfo, Information, Optimum, Outcome, Setting, Settings, TableGame, Tally, Utility,
};
use std::fmt;

/// The position deck: 2-6 of hearts and diamonds (red: files to the right) and of spades and
/// clubs (black: ranks up). A card is its value, negative for black.
pub const POSITIONS: [i8; 20] = [2, 2, 3, 3, 4, 4, 5, 5, 6, 6, -2, -2, -3, -3, -4, -4, -5, -5, -6, -6];
/// Cards in both decks.
pub const CARDS: u32 = 36;

/// A position card as text: `3r` (red, three files right) or `3b` (black, three ranks up).
pub fn position_text(c: i8) -> String {
    format!("{}{}", c.unsigned_abs(), if c > 0 { 'r' } else { 'b' })
}

fn parse_position(t: &str) -> Option<i8> {
    let b = t.as_bytes();
    if b.len() != 2 || !(b'2'..=b'6').contains(&b[0]) {
        return None;
    }
    let v = (b[0] - b'0') as i8;
    match b[1] {
        b'r' => Some(v),
        b'b' => Some(-v),
        _ => None,
    }
}

/// The square a position card carries a piece to from `anchor`: red moves files right, black
/// ranks up, both wrapping around the board's edge.
pub fn carry(anchor: Sq, card: i8) -> Sq {
    let (f, r) = (anchor % 8, anchor / 8);
    if card > 0 {
        r * 8 + (f + card as usize) % 8
    } else {
        ((r + card.unsigned_abs() as usize) % 8) * 8 + f
    }
}

/// The squares a piece may go to when `target` is taken: the empty squares of the nearest
/// ring around it (king steps, no wrapping) that has one. Just `target` when it is empty.
pub fn landing(board: &Board, target: Sq) -> Vec<Sq> {
    if board[target] == 0 {
        return vec![target];
    }
    for d in 1..8i32 {
        let ring: Vec<Sq> = (-d..=d)
            .flat_map(|df| (-d..=d).map(move |dr| (df, dr)))
            .filter(|&(df, dr)| df.abs().max(dr.abs()) == d)
            .filter_map(|(df, dr)| offset(target, df, dr))
            .filter(|&s| board[s] == 0)
            .collect();
        if !ring.is_empty() {
            let mut ring = ring;
            ring.sort();
            return ring;
        }
    }
    Vec::new()
}

/// Every move on `board`: (from, to) of a piece moving as a same-colour piece among its eight
/// neighbours does, to an empty square (or, with `captures`, onto an enemy piece). Each
/// (from, to) once, in square order.
pub fn moves(board: &Board, captures: bool) -> Vec<(Sq, Sq)> {
    let mut out = Vec::new();
    each_move(board, captures, |a, t| out.push((a, t)));
    out
}

/// Calls `f` with each move of [`moves`], in the same order.
pub fn each_move(board: &Board, captures: bool, mut f: impl FnMut(Sq, Sq)) {
    let occ = occupancy(board);
    let white = white_squares(board, occ);
    let mut rest = occ;
    while rest != 0 {
        let s = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let own = if white >> s & 1 != 0 { white } else { occ & !white };
        let mut helpers = grow(1 << s, true) & own & !(1u64 << s);
        let mut to = 0u64;
        while helpers != 0 {
            let n = helpers.trailing_zeros() as usize;
            helpers &= helpers - 1;
            to |= reach(board[n], s, occ);
        }
        to &= if captures { !own } else { !occ };
        while to != 0 {
            let t = to.trailing_zeros() as usize;
            to &= to - 1;
            f(s, t);
        }
    }
}

/// True when the pieces on `board` form one group, diagonal contact counting.
pub fn connected(board: &Board) -> bool {
    groups(occupancy(board), true) == 1
}

/// An action of Neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Chance: the next card of the piece deck's shuffle (`deal N`).
    DealPiece(u8),
    /// Chance: the next card of the position deck's shuffle (`deal 3r`).
    DealPosition(i8),
    /// Turn the next piece and position cards and carry the piece (`add`).
    Add,
    /// Put the carried piece on this square of the nearest empty ring (`place e4`).
    Place(Sq),
    /// Stop adding (`stop`).
    Stop,
    /// A move with a neighbour's move (`b2c4`); the referee discards the card it costs.
    Move(Sq, Sq),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::DealPiece(c) => write!(f, "deal {}", *c as char),
            Action::DealPosition(c) => write!(f, "deal {}", position_text(*c)),
            Action::Add => write!(f, "add"),
            Action::Place(s) => write!(f, "place {}", name(*s)),
            Action::Stop => write!(f, "stop"),
            Action::Move(a, b) => write!(f, "{}{}", name(*a), name(*b)),
        }
    }
}

/// The step that comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Chance shuffles the piece deck, then the position deck.
    Deal,
    /// The seat adds a piece, or stops once `min` pieces are on the board.
    Add,
    /// The carried piece's square is taken: the seat picks a square of the nearest ring.
    Place,
    /// The seat moves.
    Move,
    /// The game is over.
    Over,
}

/// The rule book's open points as settings.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Pieces on the board before the seat may stop adding (proposal: 8).
    pub min: u32,
    /// A borrowed move may take an enemy piece (proposal: no).
    pub captures: bool,
    /// The seat sees both decks' order.
    pub open: bool,
}

/// The whole state of a game of Neighbour.
#[derive(Clone)]
pub struct Neighbour {
    board: Board,
    /// The piece deck, top first.
    pieces: Vec<u8>,
    /// The position deck, top first.
    positions: Vec<i8>,
    /// The position cards turned so far, in order.
    used: Vec<i8>,
    /// The square of the last piece added.
    anchor: Option<Sq>,
    phase: Phase,
    /// In [`Phase::Place`]: the carried piece and its taken target square.
    held: Option<(u8, Sq)>,
    /// Moves made (each discarded a card).
    spent: u32,
    rules: Rules,
    end: Option<Outcome>,
    /// Pieces captured by borrowed moves (`captures=on`).
    captured: u32,
    /// The state as dealt, for [`TableGame::deal_optimum`].
    dealt: Option<Box<Neighbour>>,
}

impl Neighbour {
    /// A game about to be shuffled. Settings: `min=1..16` (default 8), `captures=off|on`,
    /// `open=off|on`.
    pub fn new(settings: &Settings) -> Result<Neighbour, String> {
        let v = INFO.read_settings(settings)?;
        Ok(Neighbour {
            board: [0; 64],
            pieces: Vec::new(),
            positions: Vec::new(),
            used: Vec::new(),
            anchor: None,
            phase: Phase::Deal,
            held: None,
            spent: 0,
            rules: Rules {
                min: v[0].parse().unwrap_or(8),
                captures: v[1] == "on",
                open: v[2] == "on",
            },
            end: None,
            captured: 0,
            dealt: None,
        })
    }

    /// [`Neighbour::new`] behind the table interface.
    pub fn boxed(settings: &Settings) -> Result<Box<dyn crate::table::Table>, String> {
        Ok(Box::new(Neighbour::new(settings)?))
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The settings.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The step that comes next.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The piece deck, top first (`?` for each unseen card in a view).
    pub fn pieces(&self) -> &[u8] {
        &self.pieces
    }

    /// The position deck, top first (0 for each unseen card in a view).
    pub fn positions(&self) -> &[i8] {
        &self.positions
    }

    /// In the place step: the carried piece and the taken square it was carried to.
    pub fn held(&self) -> Option<(u8, Sq)> {
        self.held
    }

    /// The square of the last piece added.
    pub fn anchor(&self) -> Option<Sq> {
        self.anchor
    }

    /// Pieces added so far (the carried one included).
    pub fn added(&self) -> u32 {
        self.used.len() as u32
    }

    /// Cards left in both draw piles: the score once connected.
    pub fn cards_left(&self) -> u32 {
        (self.pieces.len() + self.positions.len()) as u32
    }

    /// The piece cards not on the board, carried or in the deck as this state knows it.
    pub fn unseen_pieces(&self) -> Vec<u8> {
        let mut left: Vec<u8> = PIECES.to_vec();
        let seen = self
            .board
            .iter()
            .copied()
            .filter(|&p| p != 0)
            .chain(self.held.map(|h| h.0))
            .chain(self.pieces.iter().copied().filter(|&p| p != b'?'));
        for p in seen {
            if let Some(i) = left.iter().position(|&c| c == p) {
                left.swap_remove(i);
            }
        }
        left
    }

    /// The position cards neither turned nor in the deck as this state knows it.
    pub fn unseen_positions(&self) -> Vec<i8> {
        let mut left = POSITIONS.to_vec();
        for &p in self.used.iter().chain(self.positions.iter().filter(|&&p| p != 0)) {
            if let Some(i) = left.iter().position(|&c| c == p) {
                left.swap_remove(i);
            }
        }
        left
    }

    fn finish(&mut self, result: &str, score: u32, reason: String) -> String {
        self.phase = Phase::Over;
        self.end = Some(solo_outcome(f64::from(score), result, &reason));
        reason
    }

    /// After the adding phase and after each move: the win, or the loss when no move or card
    /// is left.
    fn settle(&mut self) -> Option<String> {
        if self.phase != Phase::Move {
            return None;
        }
        if connected(&self.board) {
            let s = self.cards_left();
            return Some(self.finish("win", s, format!("connected: score {s}")));
        }
        if self.cards_left() == 0 {
            return Some(self.finish("loss", 0, "not connected: no card left".into()));
        }
        if moves(&self.board, self.rules.captures).is_empty() {
            return Some(self.finish("loss", 0, "not connected: no move left".into()));
        }
        None
    }

    /// Puts `piece` on `s` and moves on to the next step.
    fn put(&mut self, piece: u8, s: Sq) {
        self.board[s] = piece;
        self.anchor = Some(s);
        self.held = None;
        self.phase = if self.pieces.is_empty() {
            Phase::Move
        } else {
            Phase::Add
        };
    }

    fn text(&self, hide: bool) -> String {
        let pieces = if self.pieces.is_empty() {
            "-".to_string()
        } else if hide {
            "?".repeat(self.pieces.len())
        } else {
            self.pieces.iter().map(|&c| c as char).collect()
        };
        let positions = if self.positions.is_empty() {
            "-".to_string()
        } else if hide {
            "?".repeat(self.positions.len())
        } else {
            self.positions.iter().map(|&c| position_text(c)).collect()
        };
        let used = if self.used.is_empty() {
            "-".to_string()
        } else {
            self.used.iter().map(|&c| position_text(c)).collect()
        };
        let phase = match self.phase {
            Phase::Deal => "deal",
            Phase::Add => "add",
            Phase::Place => "place",
            Phase::Move => "move",
            Phase::Over => "over",
        };
        format!(
            "{} {} {} {} {} {} {} {}",
            placement(|s| (self.board[s] != 0).then_some(self.board[s] as char)),
            pieces,
            positions,
            used,
            self.anchor.map_or("-".to_string(), name),
            phase,
            self.held
                .map_or("-".to_string(), |(p, s)| format!("{}@{}", p as char, name(s))),
            self.spent
        )
    }

    /// Reads a state text; with `view`, the decks may be hidden (`?` for each card) as in an
    /// observation.
    pub fn parse(base: &Neighbour, text: &str, view: bool) -> Result<Neighbour, String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        if w.len() != 8 {
            return Err("expected 'PLACEMENT PIECES POSITIONS USED ANCHOR PHASE HELD SPENT'".into());
        }
        let mut next = Neighbour {
            rules: base.rules,
            ..Neighbour::new(&Vec::new())?
        };
        read_placement(w[0], |s, ch| {
            if !is_piece(ch as u8) {
                return Err(format!("'{ch}' is not one of KQRBN kqrbn"));
            }
            next.board[s] = ch as u8;
            Ok(())
        })?;
        let hidden = next.read_decks([w[1], w[2], w[3]], view)?;
        next.anchor = match w[4] {
            "-" => None,
            t => Some(parse_sq(t).ok_or(format!("anchor '{t}' is not a square"))?),
        };
        next.phase = match w[5] {
            "deal" => Phase::Deal,
            "add" => Phase::Add,
            "place" => Phase::Place,
            "move" => Phase::Move,
            "over" => Phase::Over,
            p => return Err(format!("phase '{p}': deal, add, place, move or over")),
        };
        next.held = read_held(w[6])?;
        next.spent = w[7].parse().map_err(|_| format!("spent '{}': a count", w[7]))?;
        next.check_cards()?;
        next.check_counts(hidden)?;
        Ok(next)
    }

    /// The piece deck, the position deck and the used position cards; true when a deck is
    /// hidden (`?` cards, only in a `view`).
    fn read_decks(&mut self, [pieces, positions, used]: [&str; 3], view: bool) -> Result<bool, String> {
        let hidden = |t: &str| t != "-" && t.chars().all(|c| c == '?');
        if (hidden(pieces) || hidden(positions)) && !view {
            return Err("a deck hidden ('?'): a state names its cards".into());
        }
        if hidden(pieces) {
            self.pieces = vec![b'?'; pieces.len()];
        } else if pieces != "-" {
            for c in pieces.bytes() {
                if !is_piece(c) {
                    return Err(format!("piece card '{}' is not one of KQRBN kqrbn", c as char));
                }
                self.pieces.push(c);
            }
        }
        let cards = |t: &str| -> Result<Vec<i8>, String> {
            if t == "-" {
                return Ok(Vec::new());
            }
            if !t.is_ascii() || !t.len().is_multiple_of(2) {
                return Err(format!("position cards '{t}': pairs like 3r 5b"));
            }
            (0..t.len() / 2)
                .map(|i| {
                    parse_position(&t[2 * i..2 * i + 2])
                        .ok_or(format!("'{}' is not a position card", &t[2 * i..2 * i + 2]))
                })
                .collect()
        };
        if hidden(positions) {
            self.positions = vec![0; positions.len()];
        } else {
            self.positions = cards(positions)?;
        }
        self.used = cards(used)?;
        Ok(hidden(pieces) || hidden(positions))
    }

    /// No more of a piece or position card than the decks hold.
    fn check_cards(&self) -> Result<(), String> {
        let mut left: Vec<u8> = PIECES.to_vec();
        for p in self
            .board
            .iter()
            .copied()
            .filter(|&p| p != 0)
            .chain(self.held.map(|h| h.0))
            .chain(self.pieces.iter().copied().filter(|&p| p != b'?'))
        {
            let i = left
                .iter()
                .position(|&c| c == p)
                .ok_or(format!("more '{}' than the piece deck holds", p as char))?;
            left.swap_remove(i);
        }
        let mut left = POSITIONS.to_vec();
        for &p in self.used.iter().chain(self.positions.iter().filter(|&&p| p != 0)) {
            let i = left
                .iter()
                .position(|&c| c == p)
                .ok_or(format!("more '{}' than the position deck holds", position_text(p)))?;
            left.swap_remove(i);
        }
        Ok(())
    }

    /// The counts of pieces, cards and moves fit one game in its phase (then the game is
    /// settled); `hidden`: the decks were not given.
    fn check_counts(&mut self, hidden: bool) -> Result<(), String> {
        let on_board = self.board.iter().filter(|&&p| p != 0).count() as u32 + u32::from(self.held.is_some());
        let adds = self.used.len() as u32;
        let (np, nq) = (self.pieces.len() as u32, self.positions.len() as u32);
        if adds > 16 || self.spent > CARDS {
            return Err(format!(
                "{adds} position cards turned and {} moves: at most 16 and 36",
                self.spent
            ));
        }
        if self.phase == Phase::Deal {
            if adds > 0
                || on_board > 0
                || self.spent > 0
                || self.anchor.is_some()
                || (nq > 0 && np < 16)
                || nq as usize == POSITIONS.len()
            {
                return Err(
                    "while dealing nothing is on the board, the piece deck is dealt first, and the position deck is not yet full"
                        .into(),
                );
            }
        } else {
            // Each add turned a piece card and a position card; each move discarded one card,
            // from the piece deck while it lasted.
            let from_pieces = self.spent.min(16 - adds);
            let fits = adds <= 16
                && on_board + self.captured <= adds
                && np == 16 - adds - from_pieces
                && nq + self.spent - from_pieces == 20 - adds
                && (self.phase == Phase::Place) == self.held.is_some()
                && (self.spent == 0 || matches!(self.phase, Phase::Move | Phase::Over))
                && (adds == 0) == self.anchor.is_none()
                && (self.phase != Phase::Add || np > 0)
                // Adding stops by choice after `min` pieces, or when the piece deck is out.
                && (!matches!(self.phase, Phase::Move | Phase::Over) || adds >= self.rules.min || adds == 16)
                // Before any move, the anchor holds the last piece added (once one is).
                && (self.phase != Phase::Add || adds == 0 || self.anchor.is_some_and(|a| self.board[a] != 0))
                // A carried piece's square follows from the anchor and the last position card.
                && self.held.is_none_or(|(_, t)| {
                    self.used.last().is_some_and(|&c| carry(self.anchor.unwrap_or(0), c) == t)
                });
            if !fits {
                return Err(format!(
                    "{on_board} pieces, decks of {np} and {nq}, {adds} position cards turned and {} moves do not fit one game",
                    self.spent
                ));
            }
            self.captured = adds - on_board;
            if adds == 0 && !hidden {
                self.dealt = Some(Box::new(self.clone()));
            }
            if self.captured > 0 && !self.rules.captures {
                return Err(format!("{} pieces missing, and captures are off", self.captured));
            }
            if let Some((_, t)) = self.held
                && self.board[t] == 0
            {
                return Err("the held piece's square is empty: it would stand there".into());
            }
            if self.phase == Phase::Over {
                self.phase = Phase::Move;
                if self.settle().is_none() {
                    return Err("phase over, but the game goes on".into());
                }
            } else {
                self.settle();
            }
        }
        Ok(())
    }
}

/// The held field: `-`, or `PIECE@SQUARE` for a piece carried to its square.
fn read_held(field: &str) -> Result<Option<(u8, Sq)>, String> {
    Ok(match field {
        "-" => None,
        t => {
            let (p, s) = t.split_once('@').ok_or(format!("held '{t}': PIECE@SQUARE"))?;
            let p = p.as_bytes();
            if p.len() != 1 || !is_piece(p[0]) {
                return Err(format!("held '{t}': PIECE@SQUARE"));
            }
            Some((p[0], parse_sq(s).ok_or(format!("held '{t}': PIECE@SQUARE"))?))
        }
    })
}

/// What Neighbour Chess Solitaire is: its settings, fields and design questions.
pub static INFO: GameInfo = GameInfo {
    name: "neighbour",
    title: "Neighbour Chess Solitaire",
    about: "1 seat; pieces borrow a neighbour's move until all touch",
    seats: &[1],
    roles: &["player"],
    settings: &[
        Setting {
            key: "min",
            choices: &[
                "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
            ],
            default: "8",
            about: "pieces added before play may stop adding",
        },
        Setting {
            key: "captures",
            choices: &["off", "on"],
            default: "off",
            about: "borrowed moves may capture",
        },
        Setting {
            key: "open",
            choices: &["off", "on"],
            default: "off",
            about: "on: the decks' order is seen",
        },
    ],
    fields: &[
        ("board", FieldKind::Board),
        ("piece deck", FieldKind::Cards),
        ("position deck", FieldKind::Text),
        ("positions used", FieldKind::Text),
        ("anchor", FieldKind::Text),
        ("phase", FieldKind::Text),
        ("carried piece", FieldKind::Text),
        ("moves made", FieldKind::Text),
    ],
    chance: Chance::Explicit,
    information: Information::Imperfect,
    utility: Utility::Identical,
    questions: &[
        ("What does the player score?", "score"),
        ("How often are the pieces connected?", "won"),
        ("How many pieces are added?", "pieces added"),
        (
            "What does the hidden order of the decks cost (with --optimum)?",
            "optimum less score",
        ),
    ],
    ratios: &[],
    histograms: &["score", "pieces added"],
};

impl Neighbour {
    /// Adds the next piece: carried by the next position card from the anchor, put down at
    /// once, or held to be placed when the nearest ring of empty squares gives a choice.
    fn add(&mut self) -> Result<String, String> {
        if self.pieces.is_empty() || self.positions.is_empty() {
            return Err("no card left to add".into());
        }
        let p = self.pieces.remove(0);
        let c = self.positions.remove(0);
        self.used.push(c);
        let target = carry(self.anchor.unwrap_or(0), c);
        let ring = landing(&self.board, target);
        let text = format!("add {} {} to {}", p as char, position_text(c), name(target));
        if ring.len() == 1 {
            self.put(p, ring[0]);
            if ring[0] == target {
                return Ok(text);
            }
            return Ok(format!("{text}, taken: {}", name(ring[0])));
        }
        self.held = Some((p, target));
        self.phase = Phase::Place;
        Ok(format!("{text}, taken: place it"))
    }

    /// A borrowed move from `a` to `b`, discarding a card (from the piece deck while it lasts).
    fn move_piece(&mut self, a: Sq, b: Sq) -> Result<String, String> {
        if !moves(&self.board, self.rules.captures).contains(&(a, b)) {
            return Err(format!(
                "{}{}: no same-colour neighbour of {} moves so",
                name(a),
                name(b),
                name(a)
            ));
        }
        if self.cards_left() == 0 {
            return Err("no card left to discard".into());
        }
        let taken = self.board[b];
        self.board[b] = self.board[a];
        self.board[a] = 0;
        if taken != 0 {
            self.captured += 1;
        }
        if self.pieces.is_empty() {
            self.positions.remove(0);
        } else {
            self.pieces.remove(0);
        }
        self.spent += 1;
        Ok(if taken != 0 {
            format!("{}{} takes {}", name(a), name(b), taken as char)
        } else {
            format!("{}{}", name(a), name(b))
        })
    }
}

impl TableGame for Neighbour {
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
            Phase::Add => Actor::Seat(0, "add"),
            Phase::Place => Actor::Seat(0, "place"),
            Phase::Move => Actor::Seat(0, "move"),
            Phase::Over => Actor::Over,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::Add => {
                let mut v = vec![Action::Add];
                if self.added() >= self.rules.min {
                    v.push(Action::Stop);
                }
                v
            }
            Phase::Place => self
                .held
                .map(|(_, t)| landing(&self.board, t).into_iter().map(Action::Place).collect())
                .unwrap_or_default(),
            Phase::Move => moves(&self.board, self.rules.captures)
                .into_iter()
                .map(|(a, b)| Action::Move(a, b))
                .collect(),
            Phase::Deal | Phase::Over => Vec::new(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        let sq = |t: &str| parse_sq(t).ok_or_else(|| format!("'{t}' is not a square a1..h8"));
        match w.as_slice() {
            ["add"] => Ok(Action::Add),
            ["stop"] => Ok(Action::Stop),
            ["place", s] => Ok(Action::Place(sq(s)?)),
            ["deal", c] if c.len() == 1 && is_piece(c.as_bytes()[0]) => Ok(Action::DealPiece(c.as_bytes()[0])),
            ["deal", c] => parse_position(c)
                .map(Action::DealPosition)
                .ok_or(format!("'{c}' is not a card")),
            [m] if m.len() == 4 && m.is_ascii() => Ok(Action::Move(sq(&m[..2])?, sq(&m[2..])?)),
            _ => Err(format!(
                "'{text}' is not a Neighbour action ('add', 'stop', 'place e4' or a move 'b2c4')"
            )),
        }
    }

    fn apply(&mut self, action: &Action) -> Result<String, String> {
        let event = match (*action, self.phase) {
            (Action::DealPiece(c), Phase::Deal) => {
                if self.pieces.len() >= 16 || !self.unseen_pieces().contains(&c) {
                    return Err("that card is dealt already".into());
                }
                self.pieces.push(c);
                if self.rules.open {
                    format!("piece deck gets {}", c as char)
                } else {
                    "piece deck gets a card".into()
                }
            }
            (Action::DealPosition(c), Phase::Deal) => {
                if self.pieces.len() < 16 || !self.unseen_positions().contains(&c) {
                    return Err("that card is dealt already, or the piece deck comes first".into());
                }
                self.positions.push(c);
                if self.positions.len() == POSITIONS.len() {
                    self.phase = Phase::Add;
                    self.dealt = Some(Box::new(self.clone()));
                }
                if self.rules.open {
                    format!("position deck gets {}", position_text(c))
                } else {
                    "position deck gets a card".into()
                }
            }
            (Action::Add, Phase::Add) => self.add()?,
            (Action::Place(s), Phase::Place) => {
                let (p, t) = self.held.ok_or("no piece to place")?;
                if !landing(&self.board, t).contains(&s) {
                    return Err(format!("{} is not an empty square of the nearest ring", name(s)));
                }
                self.put(p, s);
                format!("place {} {}", p as char, name(s))
            }
            (Action::Stop, Phase::Add) => {
                if self.added() < self.rules.min {
                    return Err(format!(
                        "{} pieces added: at least {} before stopping",
                        self.added(),
                        self.rules.min
                    ));
                }
                self.phase = Phase::Move;
                "stop".into()
            }
            (Action::Move(a, b), Phase::Move) => self.move_piece(a, b)?,
            (Action::DealPiece(_) | Action::DealPosition(_), _) => return Err("the shuffle is over".into()),
            (_, Phase::Deal) => return Err("the decks are being shuffled".into()),
            _ => {
                return Err(format!(
                    "not an action of the {} step",
                    self.text(true).split(' ').nth(5).unwrap_or("?")
                ));
            }
        };
        // When adding ends (stop, or the piece deck is out), and after every move.
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
        if self.pieces.len() < 16 {
            super::draw_odds(&self.unseen_pieces(), Action::DealPiece)
        } else {
            super::draw_odds(&self.unseen_positions(), Action::DealPosition)
        }
    }

    type Observation = String;

    fn read_observation(&self, text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }

    fn observation(&self, _seat: usize) -> String {
        self.text(!self.rules.open)
    }

    fn state_text(&self) -> String {
        self.text(false)
    }

    fn set_state(&mut self, text: &str) -> Result<(), String> {
        *self = Neighbour::parse(self, text, false)?;
        Ok(())
    }

    fn heuristic(&self) -> Option<Vec<f64>> {
        // The cards left, less one for each group still apart.
        let apart = groups(occupancy(&self.board), true).saturating_sub(1) as f64;
        Some(vec![f64::from(self.cards_left()) - apart])
    }

    fn sample_observed(
        &self,
        _: usize,
        observation: &String,
        rng: &mut rand::rngs::StdRng,
    ) -> Result<Neighbour, String> {
        // Hidden draw piles: as many of the unseen cards of each deck (the rest were spent), in a
        // random order.
        let mut g = Neighbour::parse(self, observation, true)?;
        if g.pieces.contains(&b'?') {
            let mut unseen: Vec<u8> = PIECES.to_vec();
            let shown = g.board.iter().copied().filter(|&p| p != 0).chain(g.held.map(|h| h.0));
            for p in shown.chain(g.pieces.iter().copied().filter(|&p| p != b'?')) {
                if let Some(i) = unseen.iter().position(|&c| c == p) {
                    unseen.swap_remove(i);
                }
            }
            g.pieces = super::solitaire::draw_some(unseen, g.pieces.len(), rng)?;
        }
        if g.positions.contains(&0) {
            let mut unseen = POSITIONS.to_vec();
            for p in &g.used {
                if let Some(i) = unseen.iter().position(|c| c == p) {
                    unseen.swap_remove(i);
                }
            }
            g.positions = super::solitaire::draw_some(unseen, g.positions.len(), rng)?;
        }
        Ok(g)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.clone()
    }

    fn forfeit(&self, _seat: usize, why: &str) -> Outcome {
        solo_outcome(0.0, "loss", &format!("seat 0 forfeits: {why}"))
    }

    fn tally(&self) -> Tally {
        let score = self.end.as_ref().map_or(0.0, |o| o.scores[0]);
        let won = self.end.as_ref().is_some_and(|o| o.result == "win");
        vec![
            ("score".into(), score),
            ("won".into(), f64::from(u8::from(won))),
            ("pieces added".into(), f64::from(self.added())),
            ("moves".into(), f64::from(self.spent)),
            ("pieces captured".into(), f64::from(self.captured)),
        ]
    }

    fn deal_optimum(&self, budget: u64) -> Option<Optimum> {
        let dealt = self.dealt.as_deref()?;
        let best = solver::solve_open(dealt, budget);
        Some(Optimum {
            score: f64::from(best.score),
            proved: best.proved,
            nodes: best.nodes,
            plan: best.plan.iter().flatten().map(ToString::to_string).collect(),
        })
    }

    fn engine_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn Seat>, String> {
        let mut e = engine::Engine::new(self, options, seed)?;
        Player::see(&mut e, &crate::table::Seen::of(self, seat)).map_err(|e| e.to_string())?;
        Ok(Box::new(PlayerSeat(e)))
    }
}
