//! Gravity Chess (rules section 5): two seats (0 White, 1 Black) drop the opponent's pieces on
//! rank 8 from a shuffled pile, then every active piece of the mover falls by one chess move,
//! in the order the mover chooses. After 25 turns stacked pieces score their rank, captures a
//! point each. The pile order is chance: each flip draws from what is left. Notation:
//! `docs/table-games.md`.

mod engine;
#[cfg(test)]
mod tests;

pub use super::board::occupancy;
use super::board::{Sq, name, parse_sq, placement, reach, read_placement, squares};
use super::{team_forfeit, team_outcome};
use crate::Color;
use crate::table::seats::Seat;
use crate::table::{
    Actor, Chance, FieldKind, GameInfo, Information, Outcome, Setting, Settings, TableGame, Tally, Utility,
};
use arrayvec::ArrayVec;
pub use engine::Engine;
use std::fmt;
use std::sync::LazyLock;

/// The twelve pieces of each army, as White's letters.
const ARMY: &str = "KQRRBBNNPPPP";

/// A pile of cards, as piece letters: at most an army.
type Pile = ArrayVec<char, 12>;
/// The first turn that only moves (W13): turns 1 to 24 (W1 .. B12) flip, move and add.
const MOVE_ONLY: u32 = 25;

/// A piece: colour and upper-case type letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    color: Color,
    kind: char,
}

impl Piece {
    fn letter(self) -> char {
        if self.color == Color::White {
            self.kind
        } else {
            self.kind.to_ascii_lowercase()
        }
    }

    fn from_letter(c: char) -> Option<Piece> {
        let kind = c.to_ascii_uppercase();
        ARMY.contains(kind).then_some(Piece {
            color: if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            },
            kind,
        })
    }
}

/// The board: 64 squares.
pub type Board = [Option<Piece>; 64];

/// The stacked pieces as a bit set, by the rules file's fixpoint: rank 1 is stacked; a piece
/// higher up is stacked when every downward destination that exists holds a stacked piece
/// (pawn: the square below; knight and king: each on-board destination on a lower rank; rook,
/// bishop, queen: the first square in each downward direction). One pass upward suffices, as
/// each test looks only at lower ranks.
pub fn stacked(board: &Board) -> u64 {
    stacked_in(board, occupancy(board))
}

/// [`stacked`], given the board's [`occupancy`] `occ`.
fn stacked_in(board: &Board, occ: u64) -> u64 {
    let mut st = 0u64;
    let under = resting_table();
    // Upwards: a piece rests on squares below it, settled before it.
    for s in squares(occ) {
        let Some(p) = board[s] else { continue };
        if s < 8 || under[resting_kind(p.kind)][s] & !st == 0 {
            st |= 1 << s;
        }
    }
    st
}

/// The squares the piece on `s` can move to, as a set: a non-capture ends strictly lower, a
/// capture (of an enemy piece that is not stacked) on the same rank or lower; pawns go one
/// square down (two from rank 8, where every pawn enters and which none returns to) and capture
/// diagonally down. `occ`: the board's [`occupancy`].
pub fn piece_moves(board: &Board, occ: u64, st: u64, s: Sq) -> u64 {
    let Some(p) = board[s] else { return 0 };
    let takes = |set: u64| {
        squares(set & occ & !st)
            .filter(|&t| board[t].is_some_and(|q| q.color != p.color))
            .fold(0, |m, t| m | 1u64 << t)
    };
    match p.kind {
        'P' => {
            let mut out = 0;
            if s >= 8 && occ >> (s - 8) & 1 == 0 {
                out |= 1u64 << (s - 8);
                if s / 8 == 7 && occ >> (s - 16) & 1 == 0 {
                    out |= 1u64 << (s - 16);
                }
            }
            // Every pawn captures downwards, as Black's do.
            out | takes(reach('P', Color::Black, s, occ))
        }
        // Along the rank or down: a move to an empty square below, a capture on the rank too.
        kind => {
            let r = reach(kind, p.color, s, occ) & (below(s) | rank_of(s));
            (r & below(s) & !occ) | takes(r)
        }
    }
}

/// The squares of `targets` (the moves of a piece on `s`, a pawn with `pawn`) in the order
/// they are offered: by square, but a pawn's step down first, then its double step.
fn in_order(pawn: bool, s: Sq, targets: u64) -> impl Iterator<Item = Sq> {
    let step = |d: Sq| if pawn && s >= d { 1u64 << (s - d) } else { 0 };
    let (one, two) = (step(8), step(16));
    squares(targets & one)
        .chain(squares(targets & two))
        .chain(squares(targets & !(one | two)))
}

/// The squares a piece rests on, by type ([`resting_kind`]) and square: its nearest
/// destinations below it (on a full board a slider reaches the first square of each ray, a
/// leaper each destination; a pawn rests on the square under it, as a rook does).
fn resting_table() -> &'static [[u64; 64]; 6] {
    static UNDER: LazyLock<[[u64; 64]; 6]> = LazyLock::new(|| {
        std::array::from_fn(|k| {
            let kind = ['R', 'N', 'B', 'R', 'Q', 'K'][k];
            std::array::from_fn(|s| reach(kind, Color::White, s, u64::MAX) & below(s))
        })
    });
    &UNDER
}

/// A piece type's row of [`resting_table`].
fn resting_kind(kind: char) -> usize {
    match kind {
        'P' => 0,
        'N' => 1,
        'B' => 2,
        'R' => 3,
        'K' => 5,
        _ => 4,
    }
}

/// The squares of the ranks below `s`'s.
fn below(s: Sq) -> u64 {
    (1u64 << (s / 8 * 8)) - 1
}

/// The squares of `s`'s rank.
fn rank_of(s: Sq) -> u64 {
    0xff << (s / 8 * 8)
}

/// Points of `c`: a point per capture plus each stacked piece's rank number.
pub fn points(board: &Board, captures: [u32; 2], c: Color) -> u32 {
    points_in(board, stacked(board), captures, c)
}

/// [`points`], given the board's [`stacked`] pieces `st`.
fn points_in(board: &Board, st: u64, captures: [u32; 2], c: Color) -> u32 {
    captures[c.index()]
        + (0..64)
            .filter(|&s| st >> s & 1 != 0 && board[s].is_some_and(|p| p.color == c))
            .map(|s| (s / 8 + 1) as u32)
            .sum::<u32>()
}

/// `end=fall`: every piece that is not stacked falls straight down its file, the lowest first,
/// until it rests on a piece or on rank 1; returns how many moved.
pub fn fall(board: &mut Board) -> usize {
    let st = stacked(board);
    let mut moved = 0;
    for s in 8..64 {
        if st >> s & 1 != 0 || board[s].is_none() {
            continue;
        }
        let mut to = s;
        while to >= 8 && board[to - 8].is_none() {
            to -= 8;
        }
        if to != s {
            board[to] = board[s].take();
            moved += 1;
        }
    }
    moved
}

/// The tie-break: from the highest rank holding a stacked piece down, the first rank where one
/// side has more stacked pieces decides. `None`: all equal.
pub fn tie_break(board: &Board) -> Option<Color> {
    let st = stacked(board);
    for rank in (0..8).rev() {
        let count = |c: Color| {
            (rank * 8..rank * 8 + 8)
                .filter(|&s| st >> s & 1 != 0 && board[s].is_some_and(|p| p.color == c))
                .count()
        };
        let (w, b) = (count(Color::White), count(Color::Black));
        if w != b {
            return Some(if w > b { Color::White } else { Color::Black });
        }
    }
    None
}

/// The step that comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Chance turns the mover's top card.
    Flip,
    /// The mover's active pieces fall, one action each.
    Move,
    /// The mover adds the flipped piece on rank 8.
    Add,
    /// The game is over.
    Over,
}

/// An action of Gravity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Chance: the flipped card (`flip q`), a piece of the opponent of the mover.
    Flip(char),
    /// A piece's move (`e7f6`).
    Move(Sq, Sq),
    /// A piece considered while it cannot move: it stays for this turn (`stay e8`).
    Stay(Sq),
    /// The flipped piece put on rank 8 (`add c8`).
    Add(Sq),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Flip(c) => write!(f, "flip {c}"),
            Action::Move(a, b) => write!(f, "{}{}", name(*a), name(*b)),
            Action::Stay(s) => write!(f, "stay {}", name(*s)),
            Action::Add(s) => write!(f, "add {}", name(*s)),
        }
    }
}

/// The whole state of a game.
#[derive(Clone, PartialEq)]
pub struct Gravity {
    board: Board,
    /// 1..=turns; turns + 1 once over.
    turn: u32,
    /// The last turn: 25 (W13, the rule book), or 26 with `last=both` (B13 also moves).
    turns: u32,
    phase: Phase,
    /// The flipped card of this turn, as the piece's letter.
    card: Option<char>,
    /// Each player's pile (White's holds Black's pieces), as letters in the army's order (which
    /// card is flipped is chance).
    piles: [Pile; 2],
    captures: [u32; 2],
    /// Pieces of the mover still to be considered this turn.
    remaining: u64,
    /// The board's occupancy and its stacked pieces, kept with the board ([`Self::placed`]).
    occ: u64,
    st: u64,
    end: Option<Outcome>,
    /// Pieces set aside because rank 8 was full.
    set_aside: u32,
    /// Whether the tie-break decided the game.
    tie_break_used: bool,
    /// `order=bottom-up` (the author's variant): the mover's pieces move from the lowest rank
    /// up, each rank from the a-file, instead of in the order the player chooses.
    bottom_up: bool,
    /// `end=fall` (our endgame variant): after the last turn every piece still in the air falls
    /// straight down its file, and every piece on the board scores its rank.
    fall: bool,
}

impl Gravity {
    /// A game on the empty board. Settings: `order=free|bottom-up` (free: the player chooses
    /// the order its pieces move in, the rule book; bottom-up: from the lowest rank up, each
    /// rank from the a-file, the author's variant).
    pub fn new(settings: &Settings) -> Result<Gravity, String> {
        let v = INFO.read_settings(settings)?;
        let white_pile: Pile = ARMY.chars().map(|c| c.to_ascii_lowercase()).collect();
        Ok(Gravity {
            board: [None; 64],
            occ: 0,
            st: 0,
            turn: 1,
            turns: if v[2] == "both" { MOVE_ONLY + 1 } else { MOVE_ONLY },
            phase: Phase::Flip,
            card: None,
            piles: [white_pile, ARMY.chars().collect()],
            captures: [0, 0],
            remaining: 0,
            end: None,
            set_aside: 0,
            tie_break_used: false,
            bottom_up: v[0] == "bottom-up",
            fall: v[1] == "fall",
        })
    }

    /// [`Gravity::new`] behind the table interface.
    pub fn boxed(settings: &Settings) -> Result<Box<dyn crate::table::Table>, String> {
        Ok(Box::new(Gravity::new(settings)?))
    }

    /// The side whose turn it is.
    pub fn mover(&self) -> Color {
        if self.turn % 2 == 1 { Color::White } else { Color::Black }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Captures per side.
    pub fn captures(&self) -> [u32; 2] {
        self.captures
    }

    /// Recomputes what is kept with the board after the pieces on `occ` changed.
    fn placed(&mut self, occ: u64) {
        self.occ = occ;
        self.st = stacked_in(&self.board, occ);
    }

    /// Whether a pawn stands on `s`.
    fn is_pawn(&self, s: Sq) -> bool {
        self.board[s].is_some_and(|p| p.kind == 'P')
    }

    fn moves_now(&self) -> Vec<Action> {
        let (st, occ) = (self.st, self.occ);
        if self.bottom_up {
            return self.lowest_moves(occ, st);
        }
        let mut out = Vec::with_capacity(32);
        let mut stuck = 0u64;
        for s in squares(self.remaining) {
            // A piece that became stacked during the turn (an own piece landed under it) never
            // moves again, captures included.
            let m = if st >> s & 1 != 0 {
                0
            } else {
                piece_moves(&self.board, occ, st, s)
            };
            if m == 0 {
                stuck |= 1 << s;
            }
            out.extend(in_order(self.is_pawn(s), s, m).map(|t| Action::Move(s, t)));
        }
        // When nothing can move, the order of the rest cannot matter: the phase ends.
        if !out.is_empty() {
            out.extend(squares(stuck).map(Action::Stay));
        }
        out
    }

    /// Whether [`Self::moves_now`] has an action: in the rule book's order, whether a piece
    /// still to be considered has a move.
    fn has_move_now(&self) -> bool {
        if self.bottom_up {
            return !self.moves_now().is_empty();
        }
        let (st, occ) = (self.st, self.occ);
        squares(self.remaining).any(|s| st >> s & 1 == 0 && piece_moves(&self.board, occ, st, s) != 0)
    }

    /// `order=bottom-up`: the moves of the lowest piece still to be considered; if it has none,
    /// its `stay` (forced, played by [`Gravity::settle`]) while a later piece could move, else
    /// nothing (the phase ends).
    fn lowest_moves(&self, occ: u64, st: u64) -> Vec<Action> {
        let moves = |s: usize| {
            if st >> s & 1 != 0 {
                0
            } else {
                piece_moves(&self.board, occ, st, s)
            }
        };
        let mut left = squares(self.remaining);
        let Some(s) = left.next() else {
            return Vec::new();
        };
        let m = moves(s);
        if m != 0 {
            return in_order(self.is_pawn(s), s, m).map(|t| Action::Move(s, t)).collect();
        }
        if left.any(|t| moves(t) != 0) {
            vec![Action::Stay(s)]
        } else {
            Vec::new()
        }
    }

    /// Starts the move phase: every active piece of the mover is to be considered.
    fn start_moves(&mut self) {
        let st = self.st;
        let c = self.mover();
        self.remaining = (0..64)
            .filter(|&s| st >> s & 1 == 0 && self.board[s].is_some_and(|p| p.color == c))
            .fold(0, |m, s| m | 1 << s);
        self.phase = Phase::Move;
    }

    /// Moves on while no choice is left; what happened goes to `notes`, for the event (none:
    /// nobody reads it).
    fn settle(&mut self, mut notes: Option<&mut Vec<String>>) {
        let mut note = |text: &dyn Fn() -> String| {
            if let Some(n) = notes.as_deref_mut() {
                n.push(text());
            }
        };
        loop {
            match self.phase {
                Phase::Move if self.bottom_up && matches!(self.moves_now().as_slice(), [Action::Stay(_)]) => {
                    if let [Action::Stay(s)] = self.moves_now().as_slice() {
                        self.remaining &= !(1u64 << s);
                        note(&|| format!("stay {}", name(*s)));
                    }
                }
                Phase::Move if !self.has_move_now() => {
                    self.remaining = 0;
                    if self.turn >= self.turns {
                        let fell = self.finish();
                        if fell > 0 {
                            note(&|| format!("{fell} fall"));
                        }
                        note(&|| "end".into());
                        return;
                    }
                    if self.turn >= MOVE_ONLY {
                        self.next_turn();
                    } else {
                        self.phase = Phase::Add;
                    }
                }
                Phase::Add => {
                    if (56..64).any(|s| self.board[s].is_none()) {
                        return;
                    }
                    let c = self.card.take().expect("a card is flipped before adding");
                    self.set_aside += 1;
                    note(&|| format!("{c} set aside (rank 8 full)"));
                    self.next_turn();
                }
                _ => return,
            }
        }
    }

    fn next_turn(&mut self) {
        self.turn += 1;
        self.card = None;
        if self.turn >= MOVE_ONLY {
            self.start_moves();
        } else {
            self.phase = Phase::Flip;
        }
    }

    /// Ends the game; returns how many pieces fell (`end=fall`).
    fn finish(&mut self) -> usize {
        self.phase = Phase::Over;
        self.turn = self.turns + 1;
        let fell = if self.fall { fall(&mut self.board) } else { 0 };
        self.placed(occupancy(&self.board));
        let (w, b) = (self.score(Color::White), self.score(Color::Black));
        let winner = if w != b {
            Some(if w > b { Color::White } else { Color::Black })
        } else {
            self.tie_break_used = true;
            self.tie()
        };
        let how = match (self.tie_break_used, winner) {
            (false, _) => "on points",
            (true, Some(_)) => "on the tie-break",
            (true, None) => "tie",
        };
        self.end = Some(team_outcome(1, winner, &format!("{how}: {w} points to {b}")));
        fell
    }

    /// A side's points: captures, and the rank of each of its stacked pieces (`end=fall`: of
    /// each of its pieces, all resting once the game is over).
    fn score(&self, c: Color) -> u32 {
        if !self.fall {
            return points_in(&self.board, self.st, self.captures, c);
        }
        self.captures[c.index()]
            + (0..64)
                .filter(|&s| self.board[s].is_some_and(|p| p.color == c))
                .map(|s| (s / 8 + 1) as u32)
                .sum::<u32>()
    }

    /// The tie-break on the stacked pieces (`end=fall`: on all pieces).
    fn tie(&self) -> Option<Color> {
        if !self.fall {
            return tie_break(&self.board);
        }
        for rank in (0..8).rev() {
            let count = |c: Color| {
                (rank * 8..rank * 8 + 8)
                    .filter(|&s| self.board[s].is_some_and(|p| p.color == c))
                    .count()
            };
            let (w, b) = (count(Color::White), count(Color::Black));
            if w != b {
                return Some(if w > b { Color::White } else { Color::Black });
            }
        }
        None
    }

    fn text(&self) -> String {
        let board = placement(|s| self.board[s].map(Piece::letter));
        // A pile is kept in the army's order.
        let pile = |i: usize| -> String {
            if self.piles[i].is_empty() {
                "-".into()
            } else {
                self.piles[i].iter().collect()
            }
        };
        let remaining: Vec<String> = (0..64).filter(|s| self.remaining >> s & 1 != 0).map(name).collect();
        let phase = match self.phase {
            Phase::Flip => "flip",
            Phase::Move => "move",
            Phase::Add => "add",
            Phase::Over => "over",
        };
        format!(
            "{} {} {} {} {},{} {},{} {}",
            board,
            self.turn.min(self.turns + 1),
            phase,
            self.card.map_or("-".to_string(), |c| c.to_string()),
            pile(0),
            pile(1),
            self.captures[0],
            self.captures[1],
            if remaining.is_empty() {
                "-".to_string()
            } else {
                remaining.join(",")
            }
        )
    }
}

/// Each army's pieces (on the board, in the other's pile, the card) never exceed its twelve,
/// and a pile holds only the other side's pieces.
fn check_armies(g: &Gravity) -> Result<(), String> {
    for c in [Color::White, Color::Black] {
        let mine = |ch: char| Piece::from_letter(ch).is_some_and(|p| p.color == c);
        let mut count: Vec<char> = g
            .board
            .iter()
            .flatten()
            .filter(|p| p.color == c)
            .map(|p| p.kind)
            .collect();
        count.extend(
            g.piles[(!c).index()]
                .iter()
                .filter(|&&x| mine(x))
                .map(|x| x.to_ascii_uppercase()),
        );
        if g.piles[(!c).index()].iter().any(|&x| !mine(x)) {
            return Err("a pile holds only the opponent's pieces".into());
        }
        count.extend(g.card.filter(|&x| mine(x)).map(|x| x.to_ascii_uppercase()));
        for k in ['K', 'Q', 'R', 'B', 'N', 'P'] {
            let have = count.iter().filter(|&&x| x == k).count();
            if have > ARMY.chars().filter(|&x| x == k).count() {
                return Err(format!("too many {k} of one colour"));
            }
        }
    }
    Ok(())
}

/// The phase, card, piles and remaining pieces fit the turn (`phase` and `card`: the fields
/// as given, for the message).
fn check_turn(g: &Gravity, phase: &str, card: &str) -> Result<(), String> {
    let mover = g.mover();
    let last = g.turn >= MOVE_ONLY;
    if g.turn > g.turns && g.phase != Phase::Over {
        return Err(format!("turn {} is the end: phase over", g.turns + 1));
    }
    // Each pile holds twelve less the flips its owner has made so far.
    for c in [Color::White, Color::Black] {
        let flipped = (1..g.turn.min(MOVE_ONLY))
            .chain((g.phase != Phase::Flip && g.turn < MOVE_ONLY).then_some(g.turn))
            .filter(|t| (t % 2 == 1) == (c == Color::White))
            .count();
        if g.phase != Phase::Over && g.piles[c.index()].len() != 12 - flipped {
            return Err(format!(
                "{}'s pile holds {} cards; after {flipped} flips it holds {}",
                if c == Color::White { "White" } else { "Black" },
                g.piles[c.index()].len(),
                12 - flipped
            ));
        }
    }
    let fits = match g.phase {
        Phase::Over => true,
        Phase::Flip => !last && g.card.is_none() && g.remaining == 0,
        Phase::Move => g.card.is_some() != last,
        Phase::Add => !last && g.card.is_some() && g.remaining == 0,
    };
    if !fits {
        return Err(format!(
            "phase {} does not fit turn {} with card {} (turns 1-24: flip, move with the card, add; from turn 25: move only)",
            phase, g.turn, card
        ));
    }
    if g.card
        .is_some_and(|c| Piece::from_letter(c).is_some_and(|p| p.color == mover))
    {
        return Err("the flipped card names an opponent's piece".into());
    }
    if (0..64).any(|s| g.remaining >> s & 1 != 0 && g.board[s].is_none_or(|p| p.color != mover)) {
        return Err("remaining pieces must be the mover's".into());
    }
    Ok(())
}

/// What Gravity Chess is: its settings, fields and design questions.
pub static INFO: GameInfo = GameInfo {
    name: "gravity",
    title: "Gravity Chess",
    about: "2 seats; pieces fall toward rank 1 and score their rank",
    seats: &[2],
    roles: &["white", "black"],
    settings: &[
        Setting {
            key: "order",
            choices: &["free", "bottom-up"],
            default: "free",
            about: "bottom-up: pieces move from the lowest rank up (the author's variant)",
        },
        Setting {
            key: "end",
            choices: &["stay", "fall"],
            default: "stay",
            about: "fall: at the end pieces in the air fall and every piece scores (our variant)",
        },
        Setting {
            key: "last",
            choices: &["white", "both"],
            default: "white",
            about: "both: Black moves once more after White's last turn (our variant)",
        },
    ],
    fields: &[
        ("board", FieldKind::Board),
        ("turn", FieldKind::Text),
        ("phase", FieldKind::Text),
        ("flipped card", FieldKind::Cards),
        ("piles (white,black)", FieldKind::Cards),
        ("captures (white,black)", FieldKind::Text),
        ("pieces still to move", FieldKind::Text),
    ],
    chance: Chance::Explicit,
    information: Information::Perfect,
    utility: Utility::ConstantSum,
    questions: &[
        ("Does White, who moves last, win more often?", "result: white"),
        ("How often does Black win?", "result: black"),
        (
            "By how many points does White lead at the end?",
            "margin (white - black)",
        ),
        ("How many pieces end unscored?", "unscored pieces at the end"),
        ("How often does the tie-break decide?", "decided by tie-break"),
        (
            "What share of the points comes from stacking?",
            "share of points from stacking",
        ),
    ],
    ratios: &[("share of points from stacking", "points from stacking", "all points")],
    histograms: &[],
};

impl Gravity {
    /// Applies `action` (see [`TableGame::apply`]); returns its event, and writes what
    /// settling did to `notes` if given.
    fn play(&mut self, action: &Action, notes: Option<&mut Vec<String>>) -> Result<Event, String> {
        let event = match (*action, self.phase) {
            (Action::Flip(c), Phase::Flip) => {
                let pile = &mut self.piles[self.mover().index()];
                let i = pile
                    .iter()
                    .position(|&x| x == c)
                    .ok_or("that card is not in the pile")?;
                // Removed in place: a pile stays in the army's order, as its text is written.
                pile.remove(i);
                self.card = Some(c);
                self.start_moves();
                Event::Flip(c)
            }
            (Action::Move(a, b), Phase::Move) => {
                let p = self.board[a].ok_or("no piece there")?;
                let taken = self.board[b].take();
                self.board[b] = Some(p);
                self.board[a] = None;
                self.placed(self.occ & !(1u64 << a) | 1u64 << b);
                self.remaining &= !(1u64 << a);
                if taken.is_some() {
                    self.captures[p.color.index()] += 1;
                }
                Event::Move(a, b, taken.map(Piece::letter))
            }
            (Action::Stay(s), Phase::Move) => {
                self.remaining &= !(1u64 << s);
                Event::Stay(s)
            }
            (Action::Add(s), Phase::Add) => {
                let c = self.card.take().ok_or("no card flipped")?;
                self.board[s] = Piece::from_letter(c);
                self.placed(self.occ | u64::from(self.board[s].is_some()) << s);
                self.next_turn();
                Event::Add(c, s)
            }
            _ => return Err("illegal action".into()),
        };
        self.settle(notes);
        Ok(event)
    }
}

/// What an action did, before what settling did.
#[derive(Clone, Copy, Debug)]
enum Event {
    Flip(char),
    /// A move, and the letter of the piece it took.
    Move(Sq, Sq, Option<char>),
    Stay(Sq),
    Add(char, Sq),
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::Flip(c) => write!(f, "flip {c}"),
            Event::Move(a, b, Some(q)) => write!(f, "{}{} takes {q}", name(a), name(b)),
            Event::Move(a, b, None) => write!(f, "{}{}", name(a), name(b)),
            Event::Stay(s) => write!(f, "stay {}", name(s)),
            Event::Add(c, s) => write!(f, "add {c} {}", name(s)),
        }
    }
}

/// Centipawns of [`super::team_chances`] a point of margin weighs in the heuristic.
const HEURISTIC_CP: f64 = 100.0;

/// The state's text (a seat's observation: the whole state).
impl std::fmt::Display for Gravity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

impl TableGame for Gravity {
    type Action = Action;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn roles(&self, seat: usize) -> Vec<&'static str> {
        vec![if seat == 0 { "white" } else { "black" }]
    }

    fn actor(&self) -> Actor {
        let seat = self.mover().index();
        match self.phase {
            Phase::Flip => Actor::Chance,
            Phase::Move => Actor::Seat(seat, "move"),
            Phase::Add => Actor::Seat(seat, "add"),
            Phase::Over => Actor::Over,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::Move => self.moves_now(),
            Phase::Add => (56..64).filter(|&s| self.board[s].is_none()).map(Action::Add).collect(),
            Phase::Flip | Phase::Over => Vec::new(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        let sq = |t: &str| parse_sq(t).ok_or_else(|| format!("'{t}' is not a square a1..h8"));
        match w.as_slice() {
            ["flip", c] if c.len() == 1 && Piece::from_letter(c.chars().next().unwrap_or(' ')).is_some() => {
                Ok(Action::Flip(c.chars().next().unwrap_or(' ')))
            }
            ["stay", s] => Ok(Action::Stay(sq(s)?)),
            ["add", s] => Ok(Action::Add(sq(s)?)),
            [m] if m.len() == 4 && m.is_ascii() => Ok(Action::Move(sq(&m[..2])?, sq(&m[2..])?)),
            _ => Err(format!(
                "'{text}' is not a Gravity action (a move 'e7f6', 'stay e8', 'add c8')"
            )),
        }
    }

    fn apply(&mut self, action: &Action) -> Result<String, String> {
        let mut notes = Vec::new();
        let event = self.play(action, Some(&mut notes))?;
        Ok(std::iter::once(event.to_string())
            .chain(notes)
            .collect::<Vec<_>>()
            .join(" "))
    }

    fn apply_unseen(&mut self, action: &Action) -> Result<(), String> {
        self.play(action, None).map(drop)
    }

    fn belief(&self, _: usize) -> Box<dyn crate::table::mcts::Belief<Gravity>> {
        // A seat sees the whole state.
        Box::new(crate::table::mcts::ReadOnce::seen(self.clone()))
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        if self.phase != Phase::Flip {
            return Vec::new();
        }
        super::draw_odds(&self.piles[self.mover().index()], Action::Flip)
    }

    /// Everything on the table is public; what is hidden, the order of the piles, is not in
    /// the state at all (each flip is drawn when it happens): a seat sees the state itself.
    type Observation = Gravity;

    fn observation(&self, _seat: usize) -> Gravity {
        self.clone()
    }

    fn read_observation(&self, text: &str) -> Result<Gravity, String> {
        let mut g = self.clone();
        TableGame::set_state(&mut g, text)?;
        Ok(g)
    }

    fn state_text(&self) -> String {
        self.text()
    }

    fn set_state(&mut self, text: &str) -> Result<(), String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        if w.len() != 7 {
            return Err("expected 'PLACEMENT TURN PHASE CARD PILEW,PILEB CAPW,CAPB REMAINING'".into());
        }
        let mut next = Gravity::new(&Vec::new())?;
        next.bottom_up = self.bottom_up;
        next.fall = self.fall;
        next.turns = self.turns;
        read_placement(w[0], |s, ch| {
            next.board[s] = Some(Piece::from_letter(ch).ok_or(format!("unknown piece letter '{ch}'"))?);
            Ok(())
        })?;
        next.turn = w[1]
            .parse()
            .ok()
            .filter(|t| (1..=next.turns + 1).contains(t))
            .ok_or(format!("turn '{}': 1..{}", w[1], next.turns + 1))?;
        next.phase = match w[2] {
            "flip" => Phase::Flip,
            "move" => Phase::Move,
            "add" => Phase::Add,
            "over" => Phase::Over,
            p => return Err(format!("phase '{p}': flip, move, add or over")),
        };
        next.card = match w[3] {
            "-" => None,
            c if c.len() == 1 => Some(
                Piece::from_letter(c.chars().next().unwrap_or(' '))
                    .ok_or("card")?
                    .letter(),
            ),
            c => return Err(format!("card '{c}'")),
        };
        next.placed(occupancy(&next.board));
        let (pw, pb) = w[4].split_once(',').ok_or("piles: expected WHITE,BLACK")?;
        let pile = |s: &str| -> Result<Pile, String> {
            let mut p = Pile::new();
            for c in s.chars().filter(|_| s != "-") {
                p.try_push(c)
                    .map_err(|_| format!("pile '{s}': more than {} cards", ARMY.len()))?;
            }
            p.sort_by_key(|c| ARMY.find(c.to_ascii_uppercase()));
            Ok(p)
        };
        next.piles = [pile(pw)?, pile(pb)?];
        let (cw, cb) = w[5].split_once(',').ok_or("captures: expected WHITE,BLACK")?;
        let num = |s: &str| s.parse::<u32>().map_err(|_| format!("capture count '{s}'"));
        next.captures = [num(cw)?, num(cb)?];
        next.remaining = 0;
        if w[6] != "-" {
            for t in w[6].split(',') {
                next.remaining |= 1 << parse_sq(t).ok_or(format!("remaining piece '{t}'"))?;
            }
        }
        check_armies(&next)?;
        // The pieces set aside (rank 8 full) are those of the 24 that are nowhere else.
        let held = u64::from(next.occ.count_ones())
            + u64::from(next.captures[0])
            + u64::from(next.captures[1])
            + (next.piles[0].len() + next.piles[1].len()) as u64
            + u64::from(next.card.is_some());
        next.set_aside = (2 * ARMY.len() as u64)
            .checked_sub(held)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or("more than 24 pieces counted (board, captures, piles and card)")?;
        check_turn(&next, w[2], w[3])?;
        if next.phase == Phase::Over {
            next.finish();
        }
        if next.phase != Phase::Over {
            next.settle(None);
        }
        *self = next;
        Ok(())
    }

    fn heuristic(&self) -> Option<Vec<f64>> {
        // The whole-turn search's estimate of the final margin, as odds: 4 points ten to one.
        let margin = engine::Engine::estimate(self, Color::White);
        Some(super::team_chances(1, margin * HEURISTIC_CP))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.clone()
    }

    fn forfeit(&self, seat: usize, why: &str) -> Outcome {
        team_forfeit(1, seat, why)
    }

    fn tally(&self) -> Tally {
        let st = stacked(&self.board);
        let mut t: Tally = Vec::new();
        let w = self.score(Color::White) as f64;
        let b = self.score(Color::Black) as f64;
        t.push(("white points".into(), w));
        t.push(("black points".into(), b));
        t.push(("margin (white - black)".into(), w - b));
        t.push(("absolute margin".into(), (w - b).abs()));
        let caps = (self.captures[0] + self.captures[1]) as f64;
        t.push(("points from captures".into(), caps));
        t.push(("all points".into(), w + b));
        t.push(("points from stacking".into(), w + b - caps));
        let active = (0..64).filter(|&s| self.board[s].is_some() && st >> s & 1 == 0).count();
        t.push(("active pieces at the end".into(), active as f64));
        // The pieces on the board that score nothing (with `end=fall` every piece scores).
        t.push((
            "unscored pieces at the end".into(),
            if self.fall { 0.0 } else { active as f64 },
        ));
        t.push(("decided by tie-break".into(), f64::from(u8::from(self.tie_break_used))));
        t.push(("pieces set aside".into(), self.set_aside as f64));
        t
    }

    fn engine_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn Seat>, String> {
        // The generic player beats the whole-turn search (BENCHMARKS.md); ten random actions
        // before the heuristic play as well as random play to the end, at a fraction of its cost.
        let defaults = ("turns", &[("rollout", "10")][..]);
        crate::table::mcts::engine_seat_or_own(self, seat, options, seed, defaults, |rest| {
            Engine::new(self, rest, seed)
        })
    }
}
