//! The turn layer of the table games (the Chess Kit games): games whose turn is not one chess
//! move, with seats, roles, cards, chance and hidden information. It knows no game by name;
//! each game lives in `kit/` and plugs in through [`TableGame`]. Shaped like OpenSpiel's
//! `State`: who acts, the legal actions, applying one, what each seat may observe, the end with
//! a score per seat. `docs/table-games.md` has the design, `../shared/protocol.md` §5 the
//! contract.

pub mod console;
pub mod explain;
pub mod history;
pub mod info;
pub mod mcts;
pub mod playtest;
pub mod record;
pub mod record_line;
pub mod referee;
pub mod report;
pub mod seats;

pub use info::{Chance, Field, FieldKind, GameInfo, Information, Setting, Utility};
use rand::rngs::StdRng;
use std::fmt;

/// A fast hash of small values (squares, letters, counts): each word rotated in and
/// multiplied. For the generic player's index of actions and the games' position keys;
/// not for data an opponent chooses to collide.
#[derive(Default)]
pub struct QuickHasher(u64);

impl std::hash::Hasher for QuickHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Who acts next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A seat, with the kind of action asked (`mark`, `predict`, `move`, ...).
    Seat(usize, &'static str),
    /// The referee draws from [`TableGame::chance_outcomes`].
    Chance,
    /// The game is over.
    Over,
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Seat(s, kind) => write!(f, "seat {s} {kind}"),
            Actor::Chance => write!(f, "chance"),
            Actor::Over => write!(f, "none"),
        }
    }
}

/// The end of a game: a score for every seat, the result word and the reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// One score per seat (1 win, 0 loss, 0.5 draw in the two-team games).
    pub scores: Vec<f64>,
    /// Short result (`white`, `black`, `draw`, or a game's own word).
    pub result: String,
    /// Why the game ended, in words.
    pub reason: String,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "result {} scores {} {{{}}}",
            self.result,
            scores_text(&self.scores),
            self.reason
        )
    }
}

/// A finished game's state text cut into the game's state and its outcome (`STATE result R
/// scores S,S {REASON}`); `None` when the text has no outcome at its end.
pub fn split_outcome(text: &str) -> Option<(&str, Outcome)> {
    let text = text.trim_end();
    if !text.ends_with('}') {
        return None;
    }
    let open = text.find(" {")?;
    let head = &text[..open];
    let reason = &text[open + 2..text.len() - 1];
    let i = head.rfind(" result ")?;
    let w: Vec<&str> = head[i + 1..].split(' ').collect();
    let ["result", result, "scores", scores] = w.as_slice() else {
        return None;
    };
    let scores = scores
        .split(',')
        .map(|s| s.parse::<f64>().ok().filter(|x| x.is_finite()))
        .collect::<Option<Vec<f64>>>()?;
    Some((
        &head[..i],
        Outcome {
            scores,
            result: result.to_string(),
            reason: reason.to_string(),
        },
    ))
}

/// Scores as `1,0,1,0`.
pub fn scores_text(scores: &[f64]) -> String {
    scores.iter().map(|s| format!("{s}")).collect::<Vec<_>>().join(",")
}

/// The best score of a one-seat game's deal with every card's order known.
#[derive(Clone, Debug, PartialEq)]
pub struct Optimum {
    /// The best score found.
    pub score: f64,
    /// True when no play scores more (the search finished within its budget).
    pub proved: bool,
    /// States the search expanded.
    pub nodes: u64,
    /// The actions of the best play, from the dealt state.
    pub plan: Vec<String>,
}

/// A game's settings: `key=value` words, each checked by the game.
pub type Settings = Vec<(String, String)>;

/// Makes a game's table from its name and settings: the catalogue of games, which lives above
/// this layer (`kit::new_table`) and is passed in where a record names its game.
pub type NewTable = fn(&str, &Settings) -> Result<Box<dyn Table>, String>;

/// Named measurements of one finished game, summed and averaged by `playtest`.
pub type Tally = Vec<(String, f64)>;

/// One table game: its true state and rules. Implementors live in `kit/`, one file per game.
pub trait TableGame: Clone + Send + 'static {
    /// An action (typed; `Display` gives its text form; hashed where the generic player
    /// indexes a node's many actions).
    type Action: Clone + Eq + std::hash::Hash + fmt::Display + Send;

    /// What the game is: name, seats, settings, fields, design questions ([`GameInfo`]).
    fn info(&self) -> &'static GameInfo;
    /// Number of seats (one of [`GameInfo::seats`]; by default its first, for games whose
    /// settings do not change it).
    fn seats(&self) -> usize {
        self.info().seats[0]
    }
    /// The roles of a seat now (`white`, `chooser`, ...), for `kit-game`.
    fn roles(&self, seat: usize) -> Vec<&'static str>;
    /// Who acts next.
    fn actor(&self) -> Actor;
    /// The legal actions of the actor (empty when the game is over).
    fn legal_actions(&self) -> Vec<Self::Action>;
    /// The legal actions a search should try: a game may leave out actions that another
    /// always does at least as well as (a mark that only the opponent would snap). Never empty
    /// while the game is not over.
    fn search_actions(&self) -> Vec<Self::Action> {
        self.legal_actions()
    }
    /// [`TableGame::search_actions`] in `out` (what it held is dropped): a search asks at every
    /// step, and a game may fill the buffer without allocating.
    fn search_actions_into(&self, out: &mut Vec<Self::Action>) {
        *out = self.search_actions();
    }
    /// Reads an action's text (syntax only; legality is checked by [`Table::act`]).
    fn parse_action(&self, text: &str) -> Result<Self::Action, String>;
    /// Applies one of [`TableGame::legal_actions`] (or a chance outcome); returns the public
    /// event text. Legality is checked once, by [`Table::act`] and [`Table::act_chance`]; on
    /// error the state is untouched.
    fn apply(&mut self, action: &Self::Action) -> Result<String, String>;
    /// [`TableGame::apply`] without the event's text, for searches that apply many actions
    /// whose events nobody reads. The default calls `apply`.
    fn apply_unseen(&mut self, action: &Self::Action) -> Result<(), String> {
        self.apply(action).map(drop)
    }
    /// Why `action` (parsed, but not among the legal actions) is refused, in one line. The
    /// default reads the legal actions and the actor's own observation ([`explain::refusal`]);
    /// a game overrides it where it can say more.
    fn why_illegal(&self, action: &Self::Action) -> String {
        default_refusal(self, action)
    }
    /// At a chance node: each outcome with its probability.
    fn chance_outcomes(&self) -> Vec<(Self::Action, f64)> {
        Vec::new()
    }
    /// What a seat may know, as a value; its `Display` is the text a seat program, a person
    /// or a record is shown (hidden parts written `?`). A game whose seats see everything may
    /// use its own state.
    type Observation: Clone + PartialEq + fmt::Display + Send + 'static;
    /// What `seat` may know now. The only gate between the true state and a seat.
    fn observation(&self, seat: usize) -> Self::Observation;
    /// [`TableGame::observation`] as its text.
    fn observe(&self, seat: usize) -> String {
        self.observation(seat).to_string()
    }
    /// Reads an observation's text (a record's, a page's, a test's) as this game (its
    /// settings) shows it; Menagerie's own seats are handed the value and read no text.
    fn read_observation(&self, text: &str) -> Result<Self::Observation, String>;
    /// The whole true state in the game's notation.
    fn state_text(&self) -> String;
    /// Sets the state from its text; the state is untouched on error.
    fn set_state(&mut self, text: &str) -> Result<(), String>;
    /// Sets a finished game: `text` its state (phase over) and `end` how it ended, as
    /// [`Table::state_text`] prints them. The default serves games whose end follows from the
    /// text alone: it must come out the same.
    fn set_finished(&mut self, text: &str, end: &Outcome) -> Result<(), String> {
        let mut next = self.clone();
        next.set_state(text)?;
        match next.outcome() {
            Some(o) if o == *end => {
                *self = next;
                Ok(())
            }
            Some(o) => Err(format!("the state ends as {o}, not as {end}")),
            None => Err("the state's game is not over".into()),
        }
    }
    /// The end, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// IS-MCTS's belief for `seat` ([`mcts::Belief`]): true states its observations allow. The
    /// default reads the newest observation alone ([`TableGame::sample_observed`]); a game whose
    /// history tells more (RBC) keeps its own.
    fn belief(&self, seat: usize) -> Box<dyn mcts::Belief<Self>> {
        Box::new(mcts::LastObservation::new(self.clone(), seat))
    }
    /// A true state in which `observation(seat)` is `observation`, its hidden parts drawn from
    /// `rng`. Only what every state of `self`'s settings shares is read (the settings, a
    /// whole deck), never the position or whose turn it is. The default reads the
    /// observation's text as the state: right for a game in which a seat sees everything.
    fn sample_observed(&self, seat: usize, observation: &Self::Observation, rng: &mut StdRng) -> Result<Self, String> {
        let _ = (seat, rng);
        let mut g = self.clone();
        g.set_state(&observation.to_string())?;
        Ok(g)
    }
    /// Each seat's expected score in a state that is not over, for a search that stops before
    /// the end (IS-MCTS's playouts); `None`: play on to the end.
    fn heuristic(&self) -> Option<Vec<f64>> {
        None
    }
    /// The outcome when `seat` forfeits (a seat program that died or answered garbage).
    fn forfeit(&self, seat: usize, why: &str) -> Outcome;
    /// The game's measurements for `playtest` (called at the end).
    fn tally(&self) -> Tally {
        Vec::new()
    }
    /// For a solitaire, once dealt: the best score of this game's deal with every order known,
    /// searched within `budget` states (`None`: the game has no such solver or is not dealt).
    fn deal_optimum(&self, _budget: u64) -> Option<Optimum> {
        None
    }
    /// Menagerie's own player for `seat` (options from `engine:KEY=VALUE`).
    fn engine_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn seats::Seat>, String>;
    /// For a game played on a variant's board (RBC): the variant's name and the moves that
    /// happened from its start position (MMN, `pass` for a pass), for a PGN of the game.
    fn board_moves(&self) -> Option<(&'static str, Vec<String>)> {
        None
    }
}

/// [`TableGame::why_illegal`]'s default: [`explain::refusal`] over the legal actions and what
/// the acting seat observes.
pub fn default_refusal<G: TableGame>(game: &G, action: &G::Action) -> String {
    let mut legal: Vec<String> = game.legal_actions().iter().map(|a| a.to_string()).collect();
    legal.sort();
    let (asked, seen) = match game.actor() {
        Actor::Seat(seat, kind) => (kind, game.observe(seat)),
        _ => ("", String::new()),
    };
    explain::refusal(&action.to_string(), &legal, asked, &seen)
}

/// Why a table refused an action (its state untouched). `Display` is the reason in the words
/// that seats, the console, the page and the records are given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// The game is over.
    Over,
    /// Chance acts now, not a seat.
    ChanceActs,
    /// A chance outcome was given where a seat acts.
    NoChanceStep,
    /// Chance has no outcome with a positive probability (a rules bug).
    NoOutcome,
    /// The text is not an action of this game (the game's words: what it expected).
    Syntax(String),
    /// A well-formed action that is not legal now, and why, from what the actor knows.
    Illegal(String),
    /// Not one of the chance outcomes now.
    NotAnOutcome,
    /// The rules refused it while applying it (the game's words).
    Rules(String),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::Over => f.write_str("the game is over"),
            ActionError::ChanceActs => f.write_str("chance acts now"),
            ActionError::NoChanceStep => f.write_str("no chance step now"),
            ActionError::NoOutcome => f.write_str("no chance outcome"),
            ActionError::NotAnOutcome => f.write_str("not a chance outcome here"),
            ActionError::Syntax(why) | ActionError::Illegal(why) | ActionError::Rules(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ActionError {}

impl From<ActionError> for String {
    fn from(e: ActionError) -> String {
        e.to_string()
    }
}

/// A table game behind a trait object that speaks text: what the referee, the console and the
/// seats use.
pub trait Table: Send {
    /// What the game is ([`GameInfo`]).
    fn info(&self) -> &'static GameInfo;
    /// Number of seats.
    fn seats(&self) -> usize;
    /// Roles of a seat now.
    fn roles(&self, seat: usize) -> Vec<&'static str>;
    /// Who acts next.
    fn actor(&self) -> Actor;
    /// The actor's legal actions as text, sorted.
    fn actions(&self) -> Vec<String>;
    /// Applies an action given as text; an error leaves the state untouched.
    fn act(&mut self, text: &str) -> Result<String, ActionError>;
    /// Draws a chance outcome with `rng` and applies it; returns (action text, event).
    fn draw_chance(&mut self, rng: &mut StdRng) -> Result<(String, String), ActionError>;
    /// The chance outcomes as text with their probabilities.
    fn chances(&self) -> Vec<(String, f64)>;
    /// Applies the chance outcome written `text` (a record being replayed, the console).
    fn act_chance(&mut self, text: &str) -> Result<String, ActionError>;
    /// The best score of this game's deal with every order known.
    fn deal_optimum(&self, budget: u64) -> Option<Optimum>;
    /// What `seat` may know now, as text.
    fn observe(&self, seat: usize) -> String;
    /// What `seat` may know now, as text and as the game's value ([`Seen`]).
    fn seen(&self, seat: usize) -> Seen;
    /// The whole true state; a finished game's ends with its outcome (`... result white scores
    /// 1,0 {checkmate}`), which the state alone may not tell (a repetition, a ply limit).
    fn state_text(&self) -> String;
    /// Sets the state (a text [`Table::state_text`] printed); untouched on error.
    fn set_state(&mut self, text: &str) -> Result<(), String>;
    /// The end, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// The outcome when `seat` forfeits.
    fn forfeit(&self, seat: usize, why: &str) -> Outcome;
    /// Measurements of the finished game.
    fn tally(&self) -> Tally;
    /// Menagerie's player for a seat.
    fn engine_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn seats::Seat>, String>;
    /// The variant and the moves of a game on a variant's board; see [`TableGame::board_moves`].
    fn board_moves(&self) -> Option<(&'static str, Vec<String>)>;
    /// A copy of the game.
    fn clone_box(&self) -> Box<dyn Table>;
    /// The generic IS-MCTS player for `seat` ([`mcts::Mcts`]), options from `mcts:KEY=VALUE`.
    fn mcts_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn seats::Seat>, String>;
    /// IS-MCTS's belief of `seat` behind text ([`mcts::TextBelief`]): fed the seat's
    /// observations, it draws true states as state texts (for tests and tools).
    fn text_belief(&self, seat: usize) -> Box<dyn mcts::TextBelief>;
}

impl<G: TableGame> Table for G {
    fn info(&self) -> &'static GameInfo {
        TableGame::info(self)
    }
    fn seats(&self) -> usize {
        TableGame::seats(self)
    }
    fn roles(&self, seat: usize) -> Vec<&'static str> {
        TableGame::roles(self, seat)
    }
    fn actor(&self) -> Actor {
        TableGame::actor(self)
    }
    fn actions(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal_actions().iter().map(|a| a.to_string()).collect();
        v.sort();
        v.dedup();
        v
    }
    fn act(&mut self, text: &str) -> Result<String, ActionError> {
        match TableGame::actor(self) {
            Actor::Over => return Err(ActionError::Over),
            Actor::Chance => return Err(ActionError::ChanceActs),
            Actor::Seat(..) => {}
        }
        let a = self.parse_action(text.trim()).map_err(ActionError::Syntax)?;
        if !self.legal_actions().contains(&a) {
            return Err(ActionError::Illegal(self.why_illegal(&a)));
        }
        self.apply(&a).map_err(ActionError::Rules)
    }
    fn draw_chance(&mut self, rng: &mut StdRng) -> Result<(String, String), ActionError> {
        use rand::RngExt;
        let outcomes = self.chance_outcomes();
        let total: f64 = outcomes.iter().map(|o| o.1).sum();
        if outcomes.is_empty() || total <= 0.0 {
            return Err(ActionError::NoOutcome);
        }
        let mut x = rng.random_range(0.0..total);
        let mut pick = &outcomes[outcomes.len() - 1].0;
        for (a, p) in &outcomes {
            if x < *p {
                pick = a;
                break;
            }
            x -= p;
        }
        let pick = pick.clone();
        let event = self.apply(&pick).map_err(ActionError::Rules)?;
        Ok((pick.to_string(), event))
    }
    fn chances(&self) -> Vec<(String, f64)> {
        self.chance_outcomes()
            .into_iter()
            .map(|(a, p)| (a.to_string(), p))
            .collect()
    }
    fn act_chance(&mut self, text: &str) -> Result<String, ActionError> {
        if TableGame::actor(self) != Actor::Chance {
            return Err(ActionError::NoChanceStep);
        }
        let a = self.parse_action(text.trim()).map_err(ActionError::Syntax)?;
        if !self.chance_outcomes().iter().any(|(o, _)| *o == a) {
            return Err(ActionError::NotAnOutcome);
        }
        self.apply(&a).map_err(ActionError::Rules)
    }
    fn deal_optimum(&self, budget: u64) -> Option<Optimum> {
        TableGame::deal_optimum(self, budget)
    }
    fn observe(&self, seat: usize) -> String {
        TableGame::observe(self, seat)
    }
    fn seen(&self, seat: usize) -> Seen {
        Seen::of(self, seat)
    }
    fn state_text(&self) -> String {
        let text = TableGame::state_text(self);
        match TableGame::outcome(self) {
            Some(o) => format!("{text} {o}"),
            None => text,
        }
    }
    fn set_state(&mut self, text: &str) -> Result<(), String> {
        match split_outcome(text) {
            Some((state, end)) => TableGame::set_finished(self, state, &end),
            None => TableGame::set_state(self, text),
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        TableGame::outcome(self)
    }
    fn forfeit(&self, seat: usize, why: &str) -> Outcome {
        TableGame::forfeit(self, seat, why)
    }
    fn tally(&self) -> Tally {
        TableGame::tally(self)
    }
    fn engine_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn seats::Seat>, String> {
        TableGame::engine_seat(self, seat, options, seed)
    }
    fn board_moves(&self) -> Option<(&'static str, Vec<String>)> {
        TableGame::board_moves(self)
    }
    fn mcts_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn seats::Seat>, String> {
        Ok(Box::new(seats::PlayerSeat(mcts::Mcts::new(self, seat, options, seed)?)))
    }
    fn text_belief(&self, seat: usize) -> Box<dyn mcts::TextBelief> {
        Box::new(mcts::GameBelief {
            game: self.clone(),
            belief: TableGame::belief(self, seat),
        })
    }
    fn clone_box(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }
}

/// What a seat is shown: its observation as text (for seat programs, people, pages and
/// records) and, from a live table, as the game's own value, which Menagerie's players take
/// as it is ([`Seen::read`]): no text is printed and parsed again between the state and them.
pub struct Seen {
    text: String,
    value: Option<Box<dyn std::any::Any + Send>>,
}

impl Seen {
    /// What `seat` of `game` may know now.
    pub fn of<G: TableGame>(game: &G, seat: usize) -> Seen {
        let value = game.observation(seat);
        Seen {
            text: value.to_string(),
            value: Some(Box::new(value)),
        }
    }

    /// An observation known only as text (replayed from a page or a record).
    pub fn from_text(text: &str) -> Seen {
        Seen {
            text: text.to_string(),
            value: None,
        }
    }

    /// The observation's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The observation as `game`'s value: the value itself when the table handed one over,
    /// else its text read by [`TableGame::read_observation`].
    pub fn read<G: TableGame>(&self, game: &G) -> Result<G::Observation, String> {
        match self.value.as_ref().and_then(|v| v.downcast_ref::<G::Observation>()) {
            Some(v) => Ok(v.clone()),
            None => game.read_observation(&self.text),
        }
    }
}

/// Reads `key=value` words into settings; anything else is an error.
pub fn parse_settings(words: &[String]) -> Result<Settings, String> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => Err(format!("'{w}' is not a setting (expected KEY=VALUE)")),
        })
        .collect()
}
