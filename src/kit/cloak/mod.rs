//! Cloak and Dagger Chess (rules section 9): two seats (0 White, 1 Black). Each side secretly
//! assigns its eight back-rank pieces to numbered checkers (a Chess960 array: checker n stands
//! on file n); pieces move by their true type while the board shows only checkers. A turn is
//! an optional guess, a move, a bonus after a right guess, and optional uncloaking; a wrong
//! guess gives the opponent the bonus before its next turn. The referee refuses an illegal
//! attempt without saying why. Notation: `docs/table-games.md`.

mod engine;
mod moves;

use super::board::placement;
pub(crate) use super::board::{Sq, name, parse_sq};
use super::{team_forfeit, team_outcome};
use crate::Color;
use crate::table::seats::Seat;
use crate::table::{
    Actor, Chance, FieldKind, GameInfo, Information, Outcome, Setting, Settings, TableGame, Tally, Utility,
};
use std::fmt;

pub use engine::Engine;
pub use moves::{attacked, attacks};

/// Every legal assignment of K, Q, 2 R, 2 B, 2 N to checkers 1-8 (checker n on file n): the
/// king between the rooks, the bishops on squares of opposite colours. There are 960.
pub fn arrays() -> &'static [[char; 8]] {
    static ARRAYS: std::sync::LazyLock<Vec<[char; 8]>> = std::sync::LazyLock::new(all_arrays);
    &ARRAYS
}

/// [`arrays`], worked out.
fn all_arrays() -> Vec<[char; 8]> {
    let mut out = Vec::new();
    let mut cur = ['.'; 8];
    fn place(i: usize, left: &mut Vec<char>, cur: &mut [char; 8], out: &mut Vec<[char; 8]>) {
        if i == 8 {
            let pos = |c: char| {
                cur.iter()
                    .enumerate()
                    .filter(|x| *x.1 == c)
                    .map(|x| x.0)
                    .collect::<Vec<_>>()
            };
            let (r, k, b) = (pos('R'), pos('K')[0], pos('B'));
            if r[0] < k && k < r[1] && b[0] % 2 != b[1] % 2 {
                out.push(*cur);
            }
            return;
        }
        let mut tried = Vec::new();
        for j in 0..left.len() {
            let c = left[j];
            if tried.contains(&c) {
                continue;
            }
            tried.push(c);
            left.remove(j);
            cur[i] = c;
            place(i + 1, left, cur, out);
            left.insert(j, c);
        }
    }
    place(0, &mut "KQRRBBNN".chars().collect(), &mut cur, &mut out);
    out
}

/// Reads an assignment `RQKRBBNN` (the types of checkers 1..8) and checks it is a legal array.
pub fn parse_array(text: &str) -> Result<[char; 8], String> {
    let v: Vec<char> = text.chars().map(|c| c.to_ascii_uppercase()).collect();
    let bad = || {
        format!(
            "'{text}' is not a legal assignment (8 letters K Q R R B B N N, king between the rooks, bishops on opposite colours)"
        )
    };
    let arr: [char; 8] = v.try_into().map_err(|_| bad())?;
    if arrays().contains(&arr) { Ok(arr) } else { Err(bad()) }
}

/// A piece: colour, true type (`?` before its side has assigned), checker number (0 once
/// uncloaked; pawns are never cloaked).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// True type `KQRBNP`, `?` when not known (before the assignment, or in a seat's view).
    pub kind: char,
    /// Checker number 1-8; 0 once uncloaked (pawns are never cloaked).
    pub cloak: u8,
}

/// The board.
pub type Board = [Option<Piece>; 64];

/// The step that comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A side records its secret assignment.
    Assign(Color),
    /// The side to move may guess.
    Guess,
    /// Its regular move.
    Move,
    /// A bonus for that side (after its right guess, or before its turn after the
    /// opponent's wrong one).
    Bonus(Color),
    /// The side to move may uncloak checkers, then ends its turn.
    Uncloak,
    /// The game is over.
    Over,
}

/// An action of Cloak and Dagger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The secret assignment (`assign RQKRBBNN`: the types of checkers 1-8).
    Assign([char; 8]),
    /// A guess at an enemy checker's type (`guess 3 N`).
    Guess(u8, char),
    /// No guess, or no bonus (`pass`).
    Pass,
    /// A move (`e2e4`, `e7e8q`; castling as the king taking its own rook, `e1h1`).
    Move(Sq, Sq, Option<char>),
    /// A bonus drop of a captured own pawn on the own second rank (`drop e2`).
    Drop(Sq),
    /// Uncloak an own checker (`uncloak 3`).
    Uncloak(u8),
    /// End the turn (`done`).
    Done,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Assign(a) => write!(f, "assign {}", a.iter().collect::<String>()),
            Action::Guess(n, t) => write!(f, "guess {n} {t}"),
            Action::Pass => write!(f, "pass"),
            Action::Move(a, b, p) => {
                write!(f, "{}{}", name(*a), name(*b))?;
                match p {
                    Some(c) => write!(f, "{}", c.to_ascii_lowercase()),
                    None => Ok(()),
                }
            }
            Action::Drop(s) => write!(f, "drop {}", name(*s)),
            Action::Uncloak(n) => write!(f, "uncloak {n}"),
            Action::Done => write!(f, "done"),
        }
    }
}

/// A public fact about a checker: `w3=N` (it is a knight) or `b5!Q` (it is not a queen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    /// Whose checker.
    pub color: Color,
    /// Its number.
    pub checker: u8,
    /// The type named.
    pub kind: char,
    /// Whether it is (a right guess, a capture, an uncloaking) or is not (a wrong guess).
    pub is: bool,
}

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = if self.color == Color::White { 'w' } else { 'b' };
        write!(f, "{c}{}{}{}", self.checker, if self.is { '=' } else { '!' }, self.kind)
    }
}

/// Statistics of one game, for `playtest`.
#[derive(Clone, Debug, Default)]
struct Stats {
    guesses: u32,
    right: u32,
    bonus_moves: u32,
    bonus_drops: u32,
    bonus_passed: u32,
    unknown_attacker: u32,
    captures: u32,
    uncloaks: u32,
    refused: u32,
}

/// The whole state of a game.
#[derive(Clone)]
pub struct Cloak {
    board: Board,
    side: Color,
    phase: Phase,
    /// Back-rank squares whose piece has not moved (castling needs king and rook among them).
    unmoved: u64,
    ep: Option<Sq>,
    halfmove: u32,
    plies: u32,
    /// Own pawns captured and not dropped back, per colour.
    pawns_taken: [u32; 2],
    /// This turn's guess: `Some(true)` right, `Some(false)` wrong.
    guess: Option<bool>,
    facts: Vec<Fact>,
    /// The last move, drop or uncloaking, for everyone (`w:e2e4`).
    last: String,
    /// Attempts refused in this phase (only the side that tried sees which).
    refused: Vec<Action>,
    /// Position keys at each turn's start, for repetition.
    seen: Vec<u64>,
    limit: u32,
    draws: bool,
    end: Option<Outcome>,
    how: &'static str,
    stats: Stats,
}

fn ch(c: Color) -> char {
    if c == Color::White { 'w' } else { 'b' }
}

fn color_word(c: Color) -> &'static str {
    if c == Color::White { "white" } else { "black" }
}

impl Cloak {
    /// A game before the assignments. Settings: `draws=on|off` (threefold repetition and the
    /// 50-move rule, on by default: the rules say draws are standard), `limit=0|200|400|600`
    /// (plies after which the game is drawn, default 400, 0 for none).
    pub fn new(settings: &Settings) -> Result<Cloak, String> {
        let v = INFO.read_settings(settings)?;
        let mut board: Board = [None; 64];
        for f in 0..8 {
            for (rank, pawn_rank, c) in [(0, 1, Color::White), (7, 6, Color::Black)] {
                board[rank * 8 + f] = Some(Piece {
                    color: c,
                    kind: '?',
                    cloak: f as u8 + 1,
                });
                board[pawn_rank * 8 + f] = Some(Piece {
                    color: c,
                    kind: 'P',
                    cloak: 0,
                });
            }
        }
        Ok(Cloak {
            board,
            side: Color::White,
            phase: Phase::Assign(Color::White),
            unmoved: 0xFF | 0xFF << 56,
            ep: None,
            halfmove: 0,
            plies: 0,
            pawns_taken: [0, 0],
            guess: None,
            facts: Vec::new(),
            last: "-".into(),
            refused: Vec::new(),
            seen: Vec::new(),
            limit: v[1].parse().expect("a listed number"),
            draws: v[0] == "on",
            end: None,
            how: "",
            stats: Stats::default(),
        })
    }

    /// [`Cloak::new`] behind the table interface.
    pub fn boxed(settings: &Settings) -> Result<Box<dyn crate::table::Table>, String> {
        Ok(Box::new(Cloak::new(settings)?))
    }

    /// The board (true types).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }

    /// The public facts about checkers.
    pub fn facts(&self) -> &[Fact] {
        &self.facts
    }

    fn king(&self, c: Color) -> Option<Sq> {
        (0..64).find(|&s| self.board[s].is_some_and(|p| p.color == c && p.kind == 'K'))
    }

    fn publicly_known(&self, c: Color, checker: u8) -> bool {
        self.facts.iter().any(|f| f.color == c && f.checker == checker && f.is)
    }

    /// Plays a move or drop of side `c` known to be legal; returns the event.
    fn play(&mut self, c: Color, a: &Action) -> String {
        let (from, to) = match *a {
            Action::Move(f, t, _) => (Some(f), t),
            Action::Drop(s) => (None, s),
            _ => unreachable!("only moves and drops are played"),
        };
        let castling = from.is_some_and(|f| self.is_castling(f, to));
        let mover = from.and_then(|f| self.board[f]);
        let mut victim = if castling { None } else { self.board[to] };
        if victim.is_none()
            && mover.is_some_and(|p| p.kind == 'P')
            && Some(to) == self.ep
            && from.is_some_and(|f| f % 8 != to % 8)
        {
            victim = Some(Piece {
                color: !c,
                kind: 'P',
                cloak: 0,
            });
        }
        let after = self.board_after(c, a);
        let double = mover.is_some_and(|p| p.kind == 'P') && from.is_some_and(|f| f.abs_diff(to) == 16);
        self.ep = if double { from.map(|f| (f + to) / 2) } else { None };
        self.board = after;
        if let Some(f) = from {
            self.unmoved &= !(1u64 << f);
        }
        self.unmoved &= !(1u64 << to);
        if castling {
            self.unmoved &= !(0xFFu64 << (to / 8 * 8));
        }
        self.halfmove += 1;
        if victim.is_some() || mover.is_some_and(|p| p.kind == 'P') || from.is_none() {
            self.halfmove = 0;
        }
        let text = a.to_string().replace(' ', "-");
        self.last = format!("{}:{text}", ch(c));
        let mut event = format!("{} {}", color_word(c), a);
        if from.is_none() {
            self.pawns_taken[c.index()] -= 1;
        }
        if let Some(v) = victim {
            self.stats.captures += 1;
            if mover.is_some_and(|m| m.cloak != 0 && !self.publicly_known(c, m.cloak)) {
                self.stats.unknown_attacker += 1;
            }
            if v.kind == 'P' {
                self.pawns_taken[v.color.index()] += 1;
            }
            if v.cloak != 0 {
                self.facts.retain(|f| !(f.color == v.color && f.checker == v.cloak));
                self.facts.push(Fact {
                    color: v.color,
                    checker: v.cloak,
                    kind: v.kind,
                    is: true,
                });
                event.push_str(&format!(" takes checker {} ({})", v.cloak, v.kind));
            } else {
                event.push_str(&format!(" takes {}", v.kind));
            }
            if v.kind == 'K' {
                let how = if v.cloak != 0 {
                    "cloaked king captured"
                } else {
                    "uncloaked king captured"
                };
                self.finish(Some(c), how);
                event.push_str(" end");
            }
        }
        event
    }

    fn finish(&mut self, winner: Option<Color>, how: &'static str) {
        self.phase = Phase::Over;
        self.how = how;
        self.end = Some(team_outcome(1, winner, how));
    }

    /// The position for repetition, hashed: the board with its cloaks, the side, castling
    /// and en-passant rights, and (as uncloaking or a guess changes what the players may do)
    /// the public facts and the pawns to drop.
    fn key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = crate::table::QuickHasher::default();
        let white = |c: Color| c == Color::White;
        for c in &self.board {
            c.map(|p| (white(p.color), p.kind, p.cloak)).hash(&mut h);
        }
        (white(self.side), self.unmoved, self.ep, self.pawns_taken).hash(&mut h);
        for f in &self.facts {
            (white(f.color), f.checker, f.kind, f.is).hash(&mut h);
        }
        h.finish()
    }

    /// The start of a turn of the side to move: the end by rule, or its guess.
    fn start_turn(&mut self) {
        self.phase = Phase::Guess;
        self.guess = None;
        let c = self.side;
        let any = self.pseudo_moves(c, false).iter().any(|a| self.truly_legal(c, a));
        if !any {
            let king_hit = self
                .king(c)
                .is_some_and(|k| self.board[k].is_some_and(|p| p.cloak == 0) && attacked(&self.board, k, !c));
            if king_hit {
                self.finish(Some(!c), "uncloaked king mated");
            } else {
                self.finish(None, "stalemate");
            }
            return;
        }
        let key = self.key();
        self.seen.push(key);
        if self.draws && self.seen.iter().filter(|&&k| k == key).count() >= 3 {
            self.finish(None, "threefold repetition");
        } else if self.draws && self.halfmove >= 100 {
            self.finish(None, "50-move rule");
        } else if self.limit > 0 && self.plies >= self.limit {
            self.finish(None, "ply limit");
        }
    }

    /// The state text; `viewer` hides the other side's cloaked types and refused attempts.
    fn text(&self, viewer: Option<Color>) -> String {
        let board = placement(|s| {
            self.board[s].map(|p| {
                let hidden = p.kind == '?' || (p.cloak != 0 && viewer.is_some_and(|v| v != p.color));
                let k = if hidden { 'C' } else { p.kind };
                if p.color == Color::White {
                    k
                } else {
                    k.to_ascii_lowercase()
                }
            })
        });
        let list = |v: Vec<String>| if v.is_empty() { "-".to_string() } else { v.join(",") };
        let cloaks = list(
            (0..64)
                .filter_map(|s| {
                    self.board[s]
                        .filter(|p| p.cloak != 0)
                        .map(|p| format!("{}={}", name(s), p.cloak))
                })
                .collect(),
        );
        let unmoved = list((0..64).filter(|s| self.unmoved >> s & 1 != 0).map(name).collect());
        let phase = match self.phase {
            Phase::Assign(c) => format!("assign-{}", color_word(c)),
            Phase::Guess => "guess".into(),
            Phase::Move => "move".into(),
            Phase::Bonus(c) => format!("bonus-{}", color_word(c)),
            Phase::Uncloak => "uncloak".into(),
            Phase::Over => "over".into(),
        };
        let actor = match self.phase {
            Phase::Bonus(c) | Phase::Assign(c) => c,
            _ => self.side,
        };
        let refused = if self.refused.is_empty() {
            "-".to_string()
        } else if viewer.is_none_or(|v| v == actor) {
            self.refused
                .iter()
                .map(|a| a.to_string().replace(' ', "-"))
                .collect::<Vec<_>>()
                .join(",")
        } else {
            format!("x{}", self.refused.len())
        };
        format!(
            "{} {} {} {} {} {} {} {} {},{} {} {} {} {}",
            board,
            ch(self.side),
            phase,
            cloaks,
            unmoved,
            self.ep.map_or("-".to_string(), name),
            self.halfmove,
            self.plies,
            self.pawns_taken[0],
            self.pawns_taken[1],
            match self.guess {
                None => "-",
                Some(true) => "right",
                Some(false) => "wrong",
            },
            list(self.facts.iter().map(|f| f.to_string()).collect()),
            self.last,
            refused
        )
    }

    /// The acting side now (for a bonus or an assignment it may differ from the side to move).
    fn acting(&self) -> Option<Color> {
        match self.phase {
            Phase::Assign(c) | Phase::Bonus(c) => Some(c),
            Phase::Guess | Phase::Move | Phase::Uncloak => Some(self.side),
            Phase::Over => None,
        }
    }
}

mod state;

/// What Cloak and Dagger Chess is: its settings, fields and design questions.
pub static INFO: GameInfo = GameInfo {
    name: "cloak",
    title: "Cloak and Dagger Chess",
    about: "2 seats; secret Chess960 arrays under numbered checkers",
    seats: &[2],
    roles: &["white", "black"],
    settings: &[
        Setting {
            key: "draws",
            choices: &["on", "off"],
            default: "on",
            about: "stalemate, threefold repetition and the 50-move rule",
        },
        Setting {
            key: "limit",
            choices: &["0", "200", "400", "600"],
            default: "400",
            about: "plies until a draw (0: none)",
        },
    ],
    fields: &[
        ("board", FieldKind::Board),
        ("side to move", FieldKind::Text),
        ("phase", FieldKind::Text),
        ("checkers", FieldKind::Badges),
        ("unmoved squares", FieldKind::Text),
        ("en passant", FieldKind::Text),
        ("halfmove clock", FieldKind::Text),
        ("plies", FieldKind::Text),
        ("pawns taken (white,black)", FieldKind::Text),
        ("guess", FieldKind::Text),
        ("facts", FieldKind::Text),
        ("last move", FieldKind::Text),
        ("refused attempts", FieldKind::Text),
    ],
    chance: Chance::Deterministic,
    information: Information::Imperfect,
    utility: Utility::ConstantSum,
    questions: &[
        ("How often is a guess right?", "guess accuracy"),
        ("How many guesses a game?", "guesses"),
        (
            "What share of captures is made by a piece of a type the loser did not know?",
            "share of captures by an attacker of unknown type",
        ),
        ("How often does White win?", "result: white"),
        ("How often does Black win?", "result: black"),
        ("How often is the game drawn?", "result: draw"),
        ("How long is a game (plies)?", "plies"),
    ],
    ratios: &[
        ("guess accuracy", "right guesses", "guesses"),
        (
            "share of captures by an attacker of unknown type",
            "pieces lost to an attacker of unknown type",
            "captures",
        ),
    ],
    histograms: &[],
};

impl Cloak {
    /// The assignment of `c`'s back rank; then Black's, or the first turn.
    fn assign(&mut self, c: Color, arr: [char; 8]) -> Result<String, String> {
        let rank = if c == Color::White { 0 } else { 7 };
        for (f, k) in arr.iter().enumerate() {
            if let Some(p) = self.board[rank * 8 + f].as_mut() {
                p.kind = *k;
            }
        }
        if c == Color::White {
            self.phase = Phase::Assign(Color::Black);
        } else {
            self.start_turn();
        }
        Ok(format!("{} assigned", color_word(c)))
    }

    /// `side`'s guess that the enemy checker `n` is a `k`: right or wrong, remembered as a fact.
    fn make_guess(&mut self, side: Color, n: u8, k: char) -> Result<String, String> {
        let p = self
            .board
            .iter()
            .flatten()
            .find(|p| p.color != side && p.cloak == n)
            .ok_or("no such cloaked checker")?;
        let right = p.kind == k;
        self.guess = Some(right);
        self.stats.guesses += 1;
        self.stats.right += u32::from(right);
        let fact = Fact {
            color: !side,
            checker: n,
            kind: k,
            is: right,
        };
        if !self.facts.contains(&fact) {
            self.facts.push(fact);
        }
        self.phase = Phase::Move;
        Ok(format!(
            "{} guesses checker {n} is {k}: {}",
            color_word(side),
            if right { "right" } else { "wrong" }
        ))
    }

    /// `side`'s attempt `a` refused by the referee (silently: only that it was refused is said).
    fn refuse_attempt(&mut self, side: Color, a: Action) -> String {
        self.refused.push(a);
        self.stats.refused += 1;
        format!("{} attempt refused", color_word(side))
    }

    /// `side`'s regular move: refused when not truly legal; then the bonus or the uncloaking.
    fn regular_move(&mut self, side: Color, a: Action) -> Result<String, String> {
        if !self.truly_legal(side, &a) {
            return Ok(self.refuse_attempt(side, a));
        }
        self.refused.clear();
        self.plies += 1;
        let event = self.play(side, &a);
        if self.phase != Phase::Over {
            self.phase = if self.guess == Some(true) {
                Phase::Bonus(side)
            } else {
                Phase::Uncloak
            };
        }
        Ok(event)
    }

    /// `c`'s bonus move or drop: refused when not truly legal.
    fn bonus(&mut self, c: Color, a: Action) -> Result<String, String> {
        if !self.truly_legal(c, &a) {
            return Ok(self.refuse_attempt(c, a));
        }
        self.refused.clear();
        if matches!(a, Action::Drop(_)) {
            self.stats.bonus_drops += 1;
        } else {
            self.stats.bonus_moves += 1;
        }
        let event = format!("bonus: {}", self.play(c, &a));
        if self.phase != Phase::Over {
            self.after_bonus(c);
        }
        Ok(event)
    }

    /// `side` uncloaks its checker `n`: the piece's type becomes a fact.
    fn uncloak(&mut self, side: Color, n: u8) -> Result<String, String> {
        let s = (0..64)
            .find(|&s| self.board[s].is_some_and(|p| p.color == side && p.cloak == n))
            .ok_or("no such cloaked checker")?;
        let p = self.board[s].as_mut().expect("found above");
        p.cloak = 0;
        let kind = p.kind;
        self.stats.uncloaks += 1;
        self.facts.retain(|f| !(f.color == side && f.checker == n));
        self.facts.push(Fact {
            color: side,
            checker: n,
            kind,
            is: true,
        });
        self.last = format!("{}:uncloak-{n}", ch(side));
        Ok(format!(
            "{} uncloaks checker {n}: {kind} on {}",
            color_word(side),
            name(s)
        ))
    }

    /// `side` ends its turn: the other's bonus after a wrong guess, else the other's turn.
    fn end_turn(&mut self, side: Color) -> Result<String, String> {
        let wrong = self.guess == Some(false);
        self.side = !side;
        self.refused.clear();
        if wrong {
            self.phase = Phase::Bonus(self.side);
            self.guess = None;
        } else {
            self.start_turn();
        }
        Ok(format!("{} ends the turn", color_word(side)))
    }
}

impl TableGame for Cloak {
    type Action = Action;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn roles(&self, seat: usize) -> Vec<&'static str> {
        vec![if seat == 0 { "white" } else { "black" }]
    }

    fn actor(&self) -> Actor {
        let kind = match self.phase {
            Phase::Assign(_) => "assign",
            Phase::Guess => "guess",
            Phase::Move => "move",
            Phase::Bonus(_) => "bonus",
            Phase::Uncloak => "uncloak",
            Phase::Over => return Actor::Over,
        };
        Actor::Seat(self.acting().expect("not over").index(), kind)
    }

    fn legal_actions(&self) -> Vec<Action> {
        let mut v = match self.phase {
            Phase::Assign(_) => arrays().iter().copied().map(Action::Assign).collect(),
            Phase::Guess => {
                let mut v = vec![Action::Pass];
                // A checker whose type a right guess (or a capture) made public is no longer a
                // guess (our reading: otherwise it would give a bonus every turn).
                let open = |p: &&Piece| p.color != self.side && p.cloak != 0 && !self.publicly_known(p.color, p.cloak);
                for p in self.board.iter().flatten().filter(open) {
                    for k in ['K', 'Q', 'R', 'B', 'N'] {
                        v.push(Action::Guess(p.cloak, k));
                    }
                }
                v
            }
            Phase::Move => self.pseudo_moves(self.side, false),
            Phase::Bonus(c) => {
                let mut v = vec![Action::Pass];
                v.extend(self.pseudo_moves(c, true));
                v.extend(self.drops(c));
                v
            }
            Phase::Uncloak => {
                let mut v = vec![Action::Done];
                v.extend(
                    self.board
                        .iter()
                        .flatten()
                        .filter(|p| p.color == self.side && p.cloak != 0)
                        .map(|p| Action::Uncloak(p.cloak)),
                );
                v
            }
            Phase::Over => Vec::new(),
        };
        v.retain(|a| !self.refused.contains(a));
        v
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        let checker = |t: &str| -> Result<u8, String> {
            t.parse::<u8>()
                .ok()
                .filter(|n| (1..=8).contains(n))
                .ok_or(format!("'{t}' is not a checker 1-8"))
        };
        let sq = |t: &str| parse_sq(t).ok_or_else(|| format!("'{t}' is not a square a1..h8"));
        match w.as_slice() {
            ["assign", a] => Ok(Action::Assign(parse_array(a)?)),
            ["guess", n, t] => {
                let k = t.chars().next().unwrap_or(' ').to_ascii_uppercase();
                if t.len() != 1 || !"KQRBN".contains(k) {
                    return Err(format!("'{t}' is not a piece type K Q R B N"));
                }
                Ok(Action::Guess(checker(n)?, k))
            }
            ["pass"] => Ok(Action::Pass),
            ["done"] => Ok(Action::Done),
            ["drop", s] => Ok(Action::Drop(sq(s)?)),
            ["uncloak", n] => Ok(Action::Uncloak(checker(n)?)),
            [m] if (m.len() == 4 || m.len() == 5) && m.is_ascii() => {
                let promo = match m.get(4..) {
                    Some("") | None => None,
                    Some(p) if "qrbn".contains(p) => p.chars().next().map(|c| c.to_ascii_uppercase()),
                    Some(p) => return Err(format!("'{p}' is not a promotion piece q r b n")),
                };
                Ok(Action::Move(sq(&m[..2])?, sq(&m[2..4])?, promo))
            }
            _ => Err(format!(
                "'{text}' is not a Cloak and Dagger action (assign RQKRBBNN, guess 3 N, pass, e2e4, drop e2, uncloak 3, done)"
            )),
        }
    }

    fn apply(&mut self, action: &Action) -> Result<String, String> {
        let side = self.side;
        match (*action, self.phase) {
            (Action::Assign(arr), Phase::Assign(c)) => self.assign(c, arr),
            (Action::Pass, Phase::Guess) => {
                self.phase = Phase::Move;
                Ok(format!("{} does not guess", color_word(side)))
            }
            (Action::Guess(n, k), Phase::Guess) => self.make_guess(side, n, k),
            (a @ Action::Move(..), Phase::Move) => self.regular_move(side, a),
            (Action::Pass, Phase::Bonus(c)) => {
                self.stats.bonus_passed += 1;
                self.after_bonus(c);
                Ok(format!("{} passes the bonus", color_word(c)))
            }
            (a @ (Action::Move(..) | Action::Drop(_)), Phase::Bonus(c)) => self.bonus(c, a),
            (Action::Uncloak(n), Phase::Uncloak) => self.uncloak(side, n),
            (Action::Done, Phase::Uncloak) => self.end_turn(side),
            _ => Err("illegal action".into()),
        }
    }

    type Observation = String;

    fn read_observation(&self, text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }

    fn observation(&self, seat: usize) -> String {
        self.text(Some(if seat == 0 { Color::White } else { Color::Black }))
    }

    fn state_text(&self) -> String {
        self.text(None)
    }

    fn set_state(&mut self, text: &str) -> Result<(), String> {
        let next = state::parse(self, text, false, None)?;
        *self = next;
        Ok(())
    }

    fn belief(&self, seat: usize) -> Box<dyn crate::table::mcts::Belief<Cloak>> {
        Box::new(engine::Belief::new(seat))
    }

    fn heuristic(&self) -> Option<Vec<f64>> {
        let lead = match engine::evaluation(self) {
            Some(board) => board,
            // Before the assignments: material.
            None => super::material_lead(self.board.iter().flatten().map(|p| {
                if p.color == Color::White {
                    p.kind
                } else {
                    p.kind.to_ascii_lowercase()
                }
            })),
        };
        Some(super::team_chances(1, lead + self.turn_lead()))
    }

    fn set_finished(&mut self, text: &str, end: &Outcome) -> Result<(), String> {
        *self = state::parse(self, text, false, Some(end))?;
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.clone()
    }

    fn forfeit(&self, seat: usize, why: &str) -> Outcome {
        team_forfeit(1, seat, why)
    }

    fn tally(&self) -> Tally {
        let s = &self.stats;
        let ended = |h: &str| f64::from(u8::from(self.how == h));
        vec![
            ("guesses".into(), s.guesses as f64),
            ("right guesses".into(), s.right as f64),
            ("bonus pawn moves".into(), s.bonus_moves as f64),
            ("bonus drops".into(), s.bonus_drops as f64),
            ("bonuses passed".into(), s.bonus_passed as f64),
            ("captures".into(), s.captures as f64),
            (
                "pieces lost to an attacker of unknown type".into(),
                s.unknown_attacker as f64,
            ),
            ("uncloakings".into(), s.uncloaks as f64),
            ("refused attempts".into(), s.refused as f64),
            ("plies".into(), self.plies as f64),
            ("end: cloaked king captured".into(), ended("cloaked king captured")),
            ("end: uncloaked king captured".into(), ended("uncloaked king captured")),
            ("end: uncloaked king mated".into(), ended("uncloaked king mated")),
            (
                "end: other (draw by rule or limit)".into(),
                f64::from(u8::from(
                    !self.how.is_empty() && !self.how.contains("king captured") && self.how != "uncloaked king mated",
                )),
            ),
        ]
    }

    fn engine_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn Seat>, String> {
        // The generic player beats the hand-made one (BENCHMARKS.md); 500 iterations a
        // decision, so that 1,000 games take minutes.
        let defaults = ("search", &[("iterations", "500")][..]);
        crate::table::mcts::engine_seat_or_own(self, seat, options, seed, defaults, |rest| {
            Engine::new(seat, rest, seed)
        })
    }
}

/// What a bonus still to come is worth to its side in the heuristic (centipawns; chosen in
/// matches of the generic player against the hand-made one, BENCHMARKS.md).
const BONUS_CP: f64 = 200.0;

impl Cloak {
    /// White's lead, in centipawns, from what the board does not show: a bonus to come.
    fn turn_lead(&self) -> f64 {
        let sign = |c: Color| if c == Color::White { 1.0 } else { -1.0 };
        let bonus = match (self.phase, self.guess) {
            (Phase::Bonus(c), _) => sign(c),
            (Phase::Move, Some(true)) => sign(self.side),
            (Phase::Move | Phase::Uncloak, Some(false)) => -sign(self.side),
            _ => 0.0,
        };
        bonus * BONUS_CP
    }

    /// After side `c`'s bonus: the mover's own bonus leads to uncloaking; a bonus owed before
    /// `c`'s turn leads to that turn.
    fn after_bonus(&mut self, c: Color) {
        self.refused.clear();
        if c == self.side && self.guess == Some(true) {
            self.phase = Phase::Uncloak;
        } else {
            self.start_turn();
        }
    }
}
