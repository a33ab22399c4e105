//! Reconnaissance Blind Chess as a table game (`rbc`): two seats, each turn a sense and then a
//! move request, the referee's [`Referee`] underneath. The observation is the one gate: a seat
//! sees its own pieces, what its last sense showed, where it lost a piece, its own move's
//! result, and the whole true game only once it is over.
//!
//! State text: `FEN PHASE CAPTURE SEEN_W SEEN_B RESULT_W RESULT_B MOVES` where PHASE is `sense`,
//! `move` or `over`; CAPTURE the square of the last move's capture (`-`); SEEN a side's last
//! sense window as `sq=L` words joined by `,` (`.` empty; `-` none); RESULT a side's last move
//! as `REQUESTED>TAKEN` with `@SQ` when it captured (`pass` for either; `-` none); MOVES the
//! moves that really happened, `,`-joined (`-` none).

use super::board;
use super::{team_forfeit, team_outcome};
use crate::Color;
use crate::games::AnyGame;
use crate::games::rbc::player::RbcGame;
use crate::games::rbc::{End, Rbc, Referee, Request, sense};
use crate::position::{Game, Piece, Position};
use crate::rules::HiddenGame;
use crate::table::Seen;
use crate::table::seats::{Player, PlayerError, PlayerSeat, Seat};
use crate::table::{Actor, Chance, FieldKind, GameInfo, Information, Outcome, Settings, TableGame, Utility};
use std::sync::Arc;

/// One RBC game's true state.
#[derive(Clone)]
pub struct RbcTable {
    referee: Referee,
    sensing: bool,
    capture: Option<String>,
    seen: [String; 2],
    results: [String; 2],
    moves: Vec<String>,
}

/// A seat's action.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RbcAction {
    /// Sense the 3x3 window around a square.
    Sense(String),
    /// No sense this turn.
    SensePass,
    /// Ask for a move (UCI text).
    Move(String),
    /// No move this turn.
    Pass,
}

impl std::fmt::Display for RbcAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RbcAction::Sense(s) => write!(f, "sense {s}"),
            RbcAction::SensePass => write!(f, "sense pass"),
            RbcAction::Move(m) => write!(f, "{m}"),
            RbcAction::Pass => write!(f, "pass"),
        }
    }
}

fn dash(s: &str) -> String {
    if s.is_empty() { "-".into() } else { s.into() }
}

fn undash(s: &str) -> String {
    if s == "-" { String::new() } else { s.into() }
}

impl RbcTable {
    fn game() -> Result<Arc<Game<Rbc>>, String> {
        match crate::games::default_variants().get("rbc") {
            Some(AnyGame::Rbc(g)) => Ok(Arc::clone(g)),
            _ => Err("the built-in variants have no 'rbc'".into()),
        }
    }

    /// A game at the start position (no settings).
    pub fn new(settings: &Settings) -> Result<RbcTable, String> {
        INFO.read_settings(settings)?;
        Ok(RbcTable {
            referee: Referee::new(Position::startpos(RbcTable::game()?)),
            sensing: true,
            capture: None,
            seen: Default::default(),
            results: Default::default(),
            moves: Vec::new(),
        })
    }

    /// [`RbcTable::new`] behind the table interface.
    pub fn boxed(settings: &Settings) -> Result<Box<dyn crate::table::Table>, String> {
        Ok(Box::new(RbcTable::new(settings)?))
    }

    /// `sense`, `move` or `over`.
    fn phase(&self) -> &'static str {
        if self.referee.end().is_some() {
            "over"
        } else if self.sensing {
            "sense"
        } else {
            "move"
        }
    }

    fn pos(&self) -> &Position<Rbc> {
        self.referee.position()
    }

    fn name(&self, sq: crate::Square) -> String {
        self.pos().variant().geometry.name(sq)
    }

    /// The board `seat` may see: its own pieces and what its sense showed this turn (the
    /// whole board once the game is over).
    fn placement_for(&self, seat: usize) -> String {
        let pos = self.pos();
        let g = &pos.variant().geometry;
        let over = self.referee.end().is_some();
        let me = Color::ALL[seat];
        let mut sensed = [None; 64];
        if pos.side_to_move() == me && !self.sensing {
            for (s, l) in self.seen[seat].split(',').filter_map(|w| w.split_once('=')) {
                if let Some(sq) = board::parse_sq(s) {
                    sensed[sq] = l.chars().next().filter(|&c| c != '.');
                }
            }
        }
        board::placement(|s| {
            let p = pos.piece_at(g.square(s % 8, s / 8).expect("RBC's board is 8x8"));
            if over || (p.is_some() && p.color() == me) {
                p.is_some().then(|| letter(pos, p))
            } else {
                sensed[s]
            }
        })
    }
}

fn letter(pos: &Position<Rbc>, p: Piece) -> char {
    let l = pos.variant().pieces[p.kind()].letter;
    if p.color() == Color::White {
        l
    } else {
        l.to_ascii_lowercase()
    }
}

/// What Reconnaissance Blind Chess is: its settings, fields and design questions.
pub static INFO: GameInfo = GameInfo {
    name: "rbc",
    title: "Reconnaissance Blind Chess",
    about: "2 seats; each turn sense a 3x3 window, then ask for a move",
    seats: &[2],
    roles: &["white", "black"],
    settings: &[],
    fields: &[
        ("board", FieldKind::Board),
        ("your colour", FieldKind::Text),
        ("side to move", FieldKind::Text),
        ("phase", FieldKind::Text),
        ("last capture on", FieldKind::Text),
        ("your last sense", FieldKind::Seen),
        ("your last move (asked>taken)", FieldKind::Text),
        ("true moves (after the game)", FieldKind::Text),
    ],
    chance: Chance::Deterministic,
    information: Information::Imperfect,
    utility: Utility::ConstantSum,
    questions: &[
        ("How often does White win?", "result: white"),
        ("How often does Black win?", "result: black"),
    ],
    ratios: &[],
    histograms: &[],
};

impl TableGame for RbcTable {
    type Action = RbcAction;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn roles(&self, seat: usize) -> Vec<&'static str> {
        vec![if seat == 0 { "white" } else { "black" }]
    }
    fn actor(&self) -> Actor {
        if self.referee.end().is_some() {
            return Actor::Over;
        }
        let s = self.pos().side_to_move().index();
        Actor::Seat(s, if self.sensing { "sense" } else { "move" })
    }
    fn legal_actions(&self) -> Vec<RbcAction> {
        match self.actor() {
            Actor::Seat(_, "sense") => {
                let g = &self.pos().variant().geometry;
                (0..g.ranks())
                    .flat_map(|r| (0..g.files()).map(move |f| (f, r)))
                    .filter_map(|(f, r)| g.square(f, r))
                    .map(|sq| RbcAction::Sense(g.name(sq)))
                    .chain([RbcAction::SensePass])
                    .collect()
            }
            Actor::Seat(..) => {
                let v = self.pos().variant();
                let mut out: Vec<RbcAction> = self
                    .referee
                    .move_actions()
                    .iter()
                    .map(|r| RbcAction::Move(r.text(v)))
                    .collect();
                out.push(RbcAction::Pass);
                out
            }
            _ => Vec::new(),
        }
    }
    fn parse_action(&self, text: &str) -> Result<RbcAction, String> {
        let v = self.pos().variant();
        if text == "sense pass" {
            return Ok(RbcAction::SensePass);
        }
        if let Some(sq) = text.strip_prefix("sense ") {
            return v
                .geometry
                .parse(sq.trim())
                .map(|s| RbcAction::Sense(v.geometry.name(s)))
                .ok_or_else(|| format!("not a square: {sq}"));
        }
        if text == "pass" {
            return Ok(RbcAction::Pass);
        }
        Request::parse(v, text)
            .map(|r| RbcAction::Move(r.text(v)))
            .ok_or_else(|| format!("not a sense (sense SQ), move (e2e4) or pass: {text}"))
    }
    fn why_illegal(&self, action: &RbcAction) -> String {
        match (action, self.sensing) {
            (RbcAction::Sense(_) | RbcAction::SensePass, false) => "sensed already: now a move or pass".into(),
            (_, true) => "sense first (sense SQ)".into(),
            _ => "not among the requestable moves (move_actions)".into(),
        }
    }
    fn apply(&mut self, action: &RbcAction) -> Result<String, String> {
        let me = self.pos().side_to_move().index();
        let who = if me == 0 { "white" } else { "black" };
        match action {
            RbcAction::SensePass => {
                self.seen[me].clear();
                self.sensing = false;
                Ok(format!("{who} sensed"))
            }
            RbcAction::Sense(sq) => {
                let g = &self.pos().variant().geometry;
                let center = g.parse(sq).ok_or("not a square")?;
                let window: Vec<String> = sense(self.pos(), center)
                    .into_iter()
                    .map(|(s, p)| {
                        format!(
                            "{}={}",
                            self.name(s),
                            if p.is_some() { letter(self.pos(), p) } else { '.' }
                        )
                    })
                    .collect();
                self.seen[me] = window.join(",");
                self.sensing = false;
                Ok(format!("{who} sensed"))
            }
            RbcAction::Move(_) | RbcAction::Pass => {
                let v = self.pos().variant().clone();
                let req = match action {
                    RbcAction::Move(m) => Some(Request::parse(&v, m).ok_or("not a move")?),
                    _ => None,
                };
                let before = self.pos().clone();
                let res = self.referee.play(req)?;
                let taken = res
                    .taken
                    .map_or("pass".to_string(), |m| crate::notation::move_text(&before, m));
                self.capture = res.capture.map(|s| self.name(s));
                self.results[me] = format!(
                    "{}>{}{}",
                    req.map_or("pass".to_string(), |r| r.text(&v)),
                    taken,
                    self.capture.as_ref().map_or(String::new(), |c| format!("@{c}"))
                );
                self.moves.push(taken);
                self.sensing = true;
                Ok(match &self.capture {
                    Some(c) => format!("{who} moved, capturing on {c}"),
                    None => format!("{who} moved"),
                })
            }
        }
    }
    type Observation = String;

    fn read_observation(&self, text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }

    fn observation(&self, seat: usize) -> String {
        let over = self.actor() == Actor::Over;
        let phase = self.phase();
        format!(
            "{} {} {} {} {} {} {} {}",
            self.placement_for(seat),
            if seat == 0 { "white" } else { "black" },
            if self.pos().side_to_move().index() == 0 {
                "w"
            } else {
                "b"
            },
            phase,
            self.capture.as_deref().unwrap_or("-"),
            dash(&self.seen[seat]),
            dash(&self.results[seat]),
            if over { dash(&self.moves.join(",")) } else { "?".into() }
        )
    }
    fn state_text(&self) -> String {
        let phase = self.phase();
        format!(
            "{} {} {} {} {} {} {} {}",
            self.pos().fen(),
            phase,
            self.capture.as_deref().unwrap_or("-"),
            dash(&self.seen[0]),
            dash(&self.seen[1]),
            dash(&self.results[0]),
            dash(&self.results[1]),
            dash(&self.moves.join(","))
        )
    }
    fn set_state(&mut self, text: &str) -> Result<(), String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        if w.len() != 13 {
            return Err(format!(
                "expected FEN (6 fields) PHASE CAPTURE SEEN_W SEEN_B RESULT_W RESULT_B MOVES, found {} fields",
                w.len()
            ));
        }
        let pos = Position::from_fen(RbcTable::game()?, &w[..6].join(" ")).map_err(|e| e.to_string())?;
        let sensing = match w[6] {
            "sense" | "over" => true,
            "move" => false,
            p => return Err(format!("phase '{p}': expected sense, move or over")),
        };
        let g = &pos.variant().geometry;
        let capture = match w[7] {
            "-" => None,
            s => Some(g.name(g.parse(s).ok_or_else(|| format!("capture: not a square: {s}"))?)),
        };
        *self = RbcTable {
            referee: Referee::new(pos),
            sensing,
            capture,
            seen: [undash(w[8]), undash(w[9])],
            results: [undash(w[10]), undash(w[11])],
            moves: undash(w[12])
                .split(',')
                .filter(|m| !m.is_empty())
                .map(String::from)
                .collect(),
        };
        Ok(())
    }
    fn outcome(&self) -> Option<Outcome> {
        Some(match self.referee.end()? {
            End::KingCapture(c) => team_outcome(1, Some(c), &format!("{}'s king was captured", (!c).name())),
            End::MoveLimit => team_outcome(1, None, "100 half-moves without a capture or pawn move"),
        })
    }

    fn forfeit(&self, seat: usize, why: &str) -> Outcome {
        team_forfeit(1, seat, why)
    }
    fn board_moves(&self) -> Option<(&'static str, Vec<String>)> {
        Some(("rbc", self.moves.clone()))
    }
    fn engine_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn Seat>, String> {
        let (v, seed_option) = crate::table::seats::number_options(options, &[("work", 1, 100, 100)])?;
        Ok(Box::new(PlayerSeat(EnginePlayer::new(
            seat,
            seed_option.unwrap_or(seed),
            v[0] as u32,
        )?)))
    }
    fn belief(&self, seat: usize) -> Box<dyn crate::table::mcts::Belief<RbcTable>> {
        Box::new(TableBelief {
            feed: EnginePlayer::new(seat, 0, 100),
            seat,
        })
    }
    fn heuristic(&self) -> Option<Vec<f64>> {
        let e = self.pos().evaluate() as f64;
        let white = if self.pos().side_to_move() == Color::White {
            e
        } else {
            -e
        };
        Some(super::team_chances(1, white))
    }
}

/// IS-MCTS's belief of an RBC seat: the RBC player's board set, fed the seat's observations as
/// the engine seat feeds it. A draw is one board by its probability, written as a true state
/// that the seat's observation allows (the opponent's own senses and results unknown, `-`).
struct TableBelief {
    feed: Result<EnginePlayer, String>,
    seat: usize,
}

impl crate::table::mcts::Belief<RbcTable> for TableBelief {
    fn see(&mut self, observation: &String) -> Result<(), String> {
        self.feed
            .as_mut()
            .map_err(|e| e.clone())?
            .see(&Seen::from_text(observation))
            .map_err(|e| e.to_string())
    }
    fn sample(&mut self, rng: &mut rand::rngs::StdRng) -> Result<RbcTable, String> {
        use rand::RngExt;
        let feed = self.feed.as_ref().map_err(|e| e.clone())?;
        let belief = feed.hidden.belief().ok_or("the belief has no colour")?;
        let odds = belief.probabilities();
        let mut x = rng.random::<f64>() * odds.iter().sum::<f64>();
        let mut i = 0;
        while i + 1 < odds.len() && x >= odds[i] {
            x -= odds[i];
            i += 1;
        }
        let board = belief.boards().get(i).ok_or("the belief holds no board")?;
        let side = if feed.field(2) == "w" {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = Position::startpos(RbcTable::game()?);
        board.load(&mut pos, side);
        let mine = |s: &str, other: &str| {
            if self.seat == 0 {
                format!("{s} {other}")
            } else {
                format!("{other} {s}")
            }
        };
        let text = format!(
            "{} {} {} {} {} -",
            pos.fen(),
            feed.field(3),
            feed.field(4),
            mine(feed.field(5), "-"),
            mine(feed.field(6), "-"),
        );
        let mut g = RbcTable::new(&Vec::new())?;
        TableGame::set_state(&mut g, &text)?;
        Ok(g)
    }
}

/// Menagerie's RBC player in a seat: the protocol lines of `../shared/protocol.md` section 4,
/// made from the seat's observations alone (so that a hint, which replays them, sees what the
/// seat saw).
struct EnginePlayer {
    hidden: RbcGame,
    /// `w` or `b`.
    me: &'static str,
    observation: String,
    /// Side to move and phase of the previous observation.
    last: (String, String),
}

impl EnginePlayer {
    /// The player of `seat` (0 White), its decisions seeded by `seed`, at `work` per cent of
    /// the default work.
    fn new(seat: usize, seed: u64, work: u32) -> Result<EnginePlayer, String> {
        let start = Position::startpos(RbcTable::game()?);
        Ok(EnginePlayer {
            hidden: RbcGame::seeded(start, Color::ALL[seat], seed, work),
            me: if seat == 0 { "w" } else { "b" },
            observation: String::new(),
            last: Default::default(),
        })
    }
    fn field(&self, i: usize) -> &str {
        self.observation.split_whitespace().nth(i).unwrap_or("-")
    }
    /// Tells the player a fact. A fact its belief cannot fit (a board set sampled down too far)
    /// is not fatal: the player keeps a guess and plays on, as under CECP.
    fn tell(&mut self, line: &str) {
        let _ = self.hidden.command(line);
    }
    fn reply(&mut self, line: &str) -> Result<String, String> {
        self.hidden.command(line)?.ok_or_else(|| format!("no reply to {line}"))
    }
    /// This turn's sense window from the observation, as `rbc-seen` wants it (`sq:L`).
    fn window(&self) -> String {
        let w = self.field(5);
        if w == "-" {
            return String::new();
        }
        w.replace('=', ":").replace(',', " ")
    }
}

impl Player for EnginePlayer {
    fn see(&mut self, seen: &Seen) -> Result<(), PlayerError> {
        let observation = seen.text();
        self.observation = observation.to_string();
        let now = (self.field(2).to_string(), self.field(3).to_string());
        let before = std::mem::replace(&mut self.last, now.clone());
        let me = self.me;
        let was = |phase: &str| before.0 == me && before.1 == phase;
        let is = |phase: &str| now.0 == me && now.1 == phase;
        if was("move") && !is("move") {
            // Our move was made: `REQUESTED>TAKEN[@SQ]`.
            let r = self.field(6).to_string();
            let (asked, taken) = r
                .split_once('>')
                .ok_or_else(|| PlayerError::Unreadable("no move result".into()))?;
            let (taken, cap) = taken.split_once('@').unwrap_or((taken, "none"));
            self.tell(&format!("rbc-result {asked} {taken} {cap}"));
        }
        if is("sense") && !was("sense") {
            // Our turn begins: where the opponent's move took one of ours.
            let cap = match self.field(4) {
                "-" => "none".to_string(),
                sq => sq.to_string(),
            };
            self.tell(&format!("rbc-opp {cap}"));
        }
        if is("move") && was("sense") {
            let seen = self.window();
            self.tell(&format!("rbc-seen {seen}"));
        }
        Ok(())
    }
    fn decide(&mut self, _: &[String]) -> Result<String, PlayerError> {
        // The player does a fixed amount of work: the clock it is told does not matter.
        if self.field(3) == "sense" {
            let r = self.reply("rbc-sense 10").map_err(PlayerError::Failed)?;
            return Ok(r
                .strip_prefix("sense ")
                .map_or("sense pass".into(), |sq| format!("sense {sq}")));
        }
        let r = self.reply("rbc-go 10").map_err(PlayerError::Failed)?;
        Ok(r.strip_prefix("move ").unwrap_or("pass").to_string())
    }
}
