//! Table games in the browser. Each game runs the ordinary referee ([`referee::play`]) on its
//! own thread; a person's seat is a [`PageSeat`] that keeps what the referee sends it (only that
//! seat's observation) for the seat's page and waits for the page's action. Each person seat
//! has a secret token, the only way to its view.

use super::http::Reply;
use crate::kit;
use crate::table::referee;
use crate::table::seats::{Answer, Seat, SeatError, seat_seed};
use crate::table::{Outcome, Seen, Settings, Table};
use serde::Serialize;
use serde_json::Value;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// Public events kept per game.
pub const MAX_EVENTS: usize = 200;

/// Observations kept per seat for hints.
pub const MAX_SEEN: usize = 5_000;

/// Seconds an engine seat is told it has per action.
const ENGINE_SECONDS: f64 = 10.0;

/// What one person seat has been told, and the page's channel to the referee.
struct SeatView {
    token: String,
    /// The invitation that hands the token out once (`None`: spent, or the creator's seat).
    invite: Option<String>,
    observation: String,
    /// Every observation so far, in order (up to [`MAX_SEEN`]): what an engine in this seat
    /// would have seen, for hints.
    seen: Vec<String>,
    /// The open question: its id, kind and the legal actions.
    ask: Option<(u64, String, Vec<String>)>,
    refused: Option<String>,
    holder: Option<String>,
    answers: Sender<String>,
    /// Bumped on every change this seat may see: its own observation, question or refusal,
    /// and the public events. Another seat's private changes never show in it.
    version: u64,
    /// A hint for this seat is being made (one at a time).
    pub hinting: bool,
}

/// One table game being played.
pub struct Room {
    game: &'static str,
    settings: Settings,
    roles: Vec<Vec<String>>,
    players: Vec<&'static str>,
    /// The game's descriptor: the fields of its observations.
    info: &'static crate::table::GameInfo,
    /// A fresh copy of the game: engine hints are made from it and a seat's observation.
    fresh: Box<dyn Table>,
    seats: Vec<Option<SeatView>>,
    events: VecDeque<String>,
    actor: String,
    outcome: Option<Outcome>,
    /// Engine hints offered to the seats (off with several people unless the creator asks).
    hints: bool,
}

/// The room as the referee thread's seats hold it: gone once the server drops the game.
type RoomRef = Weak<Mutex<Room>>;

fn lock(room: &Mutex<Room>) -> std::sync::MutexGuard<'_, Room> {
    room.lock().unwrap_or_else(|e| e.into_inner())
}

/// Wraps every seat: keeps the public events and who acts, and for a person seat the
/// observation, the question and the answer from the page.
struct PageSeat {
    index: usize,
    room: RoomRef,
    wake: Arc<dyn Fn() + Send + Sync>,
    /// An engine's seat, or `None` for a person.
    engine: Option<Box<dyn Seat>>,
    answers: Option<Receiver<String>>,
}

impl PageSeat {
    fn with_room(&self, f: impl FnOnce(&mut Room)) -> Result<(), SeatError> {
        let room = self
            .room
            .upgrade()
            .ok_or_else(|| SeatError::Gone("the game was closed".into()))?;
        f(&mut lock(&room));
        (self.wake)();
        Ok(())
    }
}

impl Seat for PageSeat {
    fn start(
        &mut self,
        game: &str,
        seat: usize,
        seats: usize,
        roles: &[&str],
        settings: &Settings,
    ) -> Result<(), SeatError> {
        match &mut self.engine {
            Some(e) => e.start(game, seat, seats, roles, settings),
            None => Ok(()),
        }
    }
    fn see(&mut self, seen: &Seen) -> Result<(), SeatError> {
        let observation = seen.text();
        let i = self.index;
        if self.engine.is_none() {
            self.with_room(|r| {
                if let Some(s) = &mut r.seats[i] {
                    s.observation = observation.to_string();
                    if s.seen.len() < MAX_SEEN {
                        s.seen.push(observation.to_string());
                    }
                    s.version += 1;
                }
            })?;
        }
        match &mut self.engine {
            Some(e) => e.see(seen),
            None => Ok(()),
        }
    }
    fn event(&mut self, text: &str) -> Result<(), SeatError> {
        if self.index == 0 {
            self.with_room(|r| {
                if r.events.len() == MAX_EVENTS {
                    r.events.pop_front();
                }
                r.events.push_back(text.to_string());
                r.public_change();
            })?;
        }
        match &mut self.engine {
            Some(e) => e.event(text),
            None => Ok(()),
        }
    }
    fn ask(&mut self, id: u64, kind: &str, seconds_left: f64, legal: &[String]) -> Result<Answer, SeatError> {
        let i = self.index;
        let person = self.engine.is_none();
        self.with_room(|r| {
            r.actor = format!("seat {i} {kind}");
            r.public_change();
            if person && let Some(s) = &mut r.seats[i] {
                s.ask = Some((id, kind.to_string(), legal.to_vec()));
            }
        })?;
        if let Some(e) = &mut self.engine {
            return e.ask(id, kind, seconds_left, legal);
        }
        let answers = self
            .answers
            .as_ref()
            .ok_or_else(|| SeatError::Gone("no page for this seat".into()))?;
        loop {
            match answers.recv_timeout(Duration::from_secs(1)) {
                Ok(a) => return Ok(Answer::Action(a)),
                Err(RecvTimeoutError::Timeout) if self.room.strong_count() > 0 => {}
                Err(_) => return Err(SeatError::Gone("the game was closed".into())),
            }
        }
    }
    fn refused(&mut self, message: &str) -> Result<(), SeatError> {
        let i = self.index;
        if let Some(e) = &mut self.engine {
            return e.refused(message);
        }
        self.with_room(|r| {
            if let Some(s) = &mut r.seats[i] {
                s.refused = Some(message.to_string());
                s.version += 1;
            }
        })
    }
    fn end(&mut self, outcome: &Outcome) {
        if let Some(e) = &mut self.engine {
            e.end(outcome);
        }
        if self.index == 0 {
            let _ = self.with_room(|r| r.finish(outcome.clone()));
        }
    }
    fn patient(&self) -> bool {
        self.engine.is_none()
    }
}

/// A random hex token from the system's randomness (the seat links' secret).
pub fn token() -> String {
    use rand::RngExt;
    let mut rng = rand::rng();
    (0..4).map(|_| format!("{:08x}", rng.random::<u32>())).collect()
}

/// A started game: its room, the creator's seat and token (none when every seat is an
/// engine's), and an invitation code for each other person seat.
pub type Created = (Arc<Mutex<Room>>, Option<(usize, String)>, Vec<(usize, String)>);

/// The seats of a new table: each engine seat's player, each person seat's view and answer
/// channel, the creator's seat and token, and an invitation per other person seat.
struct Seating {
    engines: Vec<Option<Box<dyn Seat>>>,
    seat_views: Vec<Option<SeatView>>,
    receivers: Vec<Option<Receiver<String>>>,
    own: Option<(usize, String)>,
    invitations: Vec<(usize, String)>,
}

fn seating(table: &dyn Table, specs: &[String], creator: Option<usize>, seed: u64) -> Result<Seating, String> {
    let mut engines = Vec::new();
    let mut seat_views = Vec::new();
    let mut receivers = Vec::new();
    let mut own = None;
    let mut invitations = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        match spec.as_str() {
            "engine" | "mcts" => {
                let s = if spec == "mcts" {
                    table.mcts_seat(i, &Vec::new(), seat_seed(seed, i))?
                } else {
                    table.engine_seat(i, &Vec::new(), seat_seed(seed, i))?
                };
                engines.push(Some(s));
                seat_views.push(None);
                receivers.push(None);
            }
            "person" => {
                let (tx, rx) = channel();
                let t = token();
                let invite = if creator == Some(i) {
                    own = Some((i, t.clone()));
                    None
                } else {
                    let code = token();
                    invitations.push((i, code.clone()));
                    Some(code)
                };
                engines.push(None);
                seat_views.push(Some(SeatView {
                    token: t,
                    invite,
                    observation: table.observe(i),
                    seen: Vec::new(),
                    ask: None,
                    refused: None,
                    holder: None,
                    answers: tx,
                    version: 1,
                    hinting: false,
                }));
                receivers.push(Some(rx));
            }
            other => return Err(format!("seat {i}: '{other}' is not 'person', 'engine' or 'mcts'")),
        }
    }
    Ok(Seating {
        engines,
        seat_views,
        receivers,
        own,
        invitations,
    })
}

/// Plays the table's game on its own thread; a panic (a bug in a game or an engine) ends the
/// game as a draw and the pages are told.
fn start_referee(
    mut table: Box<dyn Table>,
    mut seats: Vec<Box<dyn Seat>>,
    (seed, specs, settings): (u64, Vec<String>, Settings),
    weak: Weak<Mutex<Room>>,
    wake: Arc<dyn Fn() + Send + Sync>,
) -> Result<(), String> {
    let name = table.info().name;
    let n = table.seats();
    std::thread::Builder::new()
        .name(format!("table {name}"))
        .spawn(move || {
            let game = std::panic::AssertUnwindSafe(|| {
                referee::play(
                    table.as_mut(),
                    &mut seats,
                    seed,
                    &specs,
                    &settings,
                    false,
                    ENGINE_SECONDS,
                );
            });
            if std::panic::catch_unwind(game).is_err()
                && let Some(room) = weak.upgrade()
            {
                lock(&room).finish(Outcome {
                    scores: vec![0.5; n],
                    result: "draw".into(),
                    reason: "referee error: the game stopped on a bug".into(),
                });
                wake();
            }
        })
        .map(|_| ())
        .map_err(|e| format!("cannot start the game: {e}"))
}

/// Starts a table game from the page's request. The creator gets its own seat's token (the
/// seat `creator`, or the first person seat) and one invitation per other person seat, never
/// another seat's token. The deal's seed is secret (64 bits from the system) unless the page
/// gives one with at most one person seat, or `any_seed` (tests that replay a game). Hints are
/// on with at most one person, and with several only when `hints` is true.
pub fn create(req: &Value, any_seed: bool, wake: Arc<dyn Fn() + Send + Sync>) -> Result<Created, String> {
    let name = req.get("game").and_then(Value::as_str).ok_or("no game given")?;
    let settings = super::settings_of(req.get("settings").and_then(Value::as_str).unwrap_or(""))?;
    let table = kit::new_table(name, &settings)?;
    let n = table.seats();
    let specs: Vec<String> = match req.get("seats") {
        Some(Value::Array(a)) => a.iter().map(|s| s.as_str().unwrap_or("?").to_string()).collect(),
        _ => return Err("seats: a list of 'person', 'engine' or 'mcts', one per seat".into()),
    };
    if specs.len() != n {
        return Err(format!("{name} has {n} seats here, {} given", specs.len()));
    }
    let persons = specs.iter().filter(|s| *s == "person").count();
    let creator = match req.get("creator") {
        None | Some(Value::Null) => specs.iter().position(|s| s == "person"),
        Some(v) => match v.as_f64() {
            Some(i) if i.fract() == 0.0 && i >= 0.0 && specs.get(i as usize).is_some_and(|s| s == "person") => {
                Some(i as usize)
            }
            _ => return Err("creator: the number of a person seat".into()),
        },
    };
    let hints = match req.get("hints") {
        None | Some(Value::Null) => persons <= 1,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("hints: true or false".into()),
    };
    let seed = match super::seed_of(req)? {
        None => rand::random::<u64>(),
        Some(_) if persons > 1 && !any_seed => {
            return Err(
                "a seed is taken only with at most one person seat: with several people it would let each rebuild the others' cards"
                    .into(),
            );
        }
        Some(s) => s,
    };
    let Seating {
        engines,
        seat_views,
        receivers,
        own,
        invitations,
    } = seating(table.as_ref(), &specs, creator, seed)?;
    let room = Arc::new(Mutex::new(Room {
        game: table.info().name,
        settings: settings.clone(),
        roles: (0..n)
            .map(|i| table.roles(i).iter().map(|r| r.to_string()).collect())
            .collect(),
        players: specs
            .iter()
            .map(|s| match s.as_str() {
                "engine" => "engine",
                "mcts" => "mcts",
                _ => "person",
            })
            .collect(),
        info: table.info(),
        fresh: table.clone_box(),
        seats: seat_views,
        events: VecDeque::new(),
        actor: "chance".into(),
        outcome: None,
        hints,
    }));
    let mut seats: Vec<Box<dyn Seat>> = Vec::new();
    for (i, (engine, answers)) in engines.into_iter().zip(receivers).enumerate() {
        seats.push(Box::new(PageSeat {
            index: i,
            room: Arc::downgrade(&room),
            wake: Arc::clone(&wake),
            engine,
            answers,
        }));
    }
    start_referee(table, seats, (seed, specs, settings), Arc::downgrade(&room), wake)?;
    Ok((room, own, invitations))
}

impl Room {
    /// The end: every seat is told, no question stays open.
    fn finish(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
        self.actor = "none".into();
        for s in self.seats.iter_mut().flatten() {
            s.ask = None;
        }
        self.public_change();
    }

    /// A change every seat sees (an event, who acts, the end).
    fn public_change(&mut self) {
        for s in self.seats.iter_mut().flatten() {
            s.version += 1;
        }
    }

    /// The version of what `seat` may see.
    pub fn version(&self, seat: usize) -> u64 {
        self.seats[seat].as_ref().map_or(0, |s| s.version)
    }

    /// True when the seats may ask the engine for a hint.
    pub fn hints(&self) -> bool {
        self.hints
    }

    /// Opens an invitation: the seat and its token, once; then the invitation is spent.
    pub fn redeem(&mut self, code: &str) -> Result<(usize, String), Reply> {
        for (i, s) in self.seats.iter_mut().enumerate() {
            if let Some(s) = s
                && s.invite.as_deref() == Some(code)
            {
                s.invite = None;
                return Ok((i, s.token.clone()));
            }
        }
        Err(Reply::error(
            410,
            "this invitation has been used (or never was): ask the game's creator",
        ))
    }

    /// The seat whose token this is.
    pub fn seat_of(&self, token: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.token == token))
    }

    /// Everything `seat` may know: its observation (the referee's, the only gate), the public
    /// events and actor, its question and the end.
    pub fn view(&self, seat: usize) -> PageView<'_> {
        let s = self.seats[seat].as_ref().expect("a person seat");
        let fields = self
            .info
            .fields_of(&s.observation)
            .unwrap_or_default()
            .into_iter()
            .map(|f| FieldView {
                label: f.label,
                kind: f.kind.to_string(),
                text: f.text,
            })
            .collect();
        PageView {
            game: self.game,
            seat,
            seats: self.seats.len(),
            roles: &self.roles[seat],
            players: &self.players,
            version: s.version,
            observation: &s.observation,
            fields,
            events: &self.events,
            actor: &self.actor,
            ask: s
                .ask
                .as_ref()
                .map(|(id, kind, actions)| AskView { id: *id, kind, actions }),
            refused: s.refused.as_deref(),
            outcome: self.outcome.as_ref().map(|o| OutcomeView {
                result: &o.result,
                scores: &o.scores,
                reason: &o.reason,
            }),
            hint: self.hints && self.outcome.is_none(),
        }
    }

    /// A page's action for `seat`; `Err` is the reply (the game and the seat's holder are
    /// untouched). The window that acts holds the seat; another window is refused.
    /// `ask` is the id of the question the page answers (`None`: whatever is open).
    pub fn act(&mut self, seat: usize, action: &str, client: &str, ask: Option<u64>) -> Result<(), Reply> {
        self.check_holder(seat, client)?;
        let s = self.seats[seat].as_mut().expect("a person seat");
        let Some((id, kind, legal)) = &s.ask else {
            return Err(Reply::error(400, "it is not this seat's turn"));
        };
        if ask.is_some_and(|a| a != *id) {
            return Err(Reply::error(409, "that question has passed; this is a new one"));
        }
        let action = action.trim();
        if !legal.iter().any(|a| a == action) {
            // Why, from what this seat knows: its question and its observation.
            let why = crate::table::explain::refusal(action, legal, kind, &s.observation);
            return Err(Reply::error(400, &format!("Error (illegal action: {why}): {action}")));
        }
        if s.answers.send(action.to_string()).is_err() {
            return Err(Reply::error(400, "the game has ended"));
        }
        s.ask = None;
        s.refused = None;
        s.holder = Some(client.to_string());
        s.version += 1;
        Ok(())
    }

    fn check_holder(&self, seat: usize, client: &str) -> Result<(), Reply> {
        check_client(client)?;
        match &self.seats[seat].as_ref().expect("a person seat").holder {
            Some(h) if h != client => Err(Reply::error(
                409,
                "this seat is played in another window; take it over to play here",
            )),
            _ => Ok(()),
        }
    }

    /// Makes `client` hold `seat`, whoever held it (the page's "take over").
    pub fn claim(&mut self, seat: usize, client: &str) -> Result<(), Reply> {
        check_client(client)?;
        let s = self.seats[seat].as_mut().expect("a person seat");
        s.holder = Some(client.to_string());
        Ok(())
    }

    /// Marks a hint for `seat` as being made or done (`Err` when one is already underway).
    pub fn set_hinting(&mut self, seat: usize, on: bool) -> Result<(), Reply> {
        let s = self.seats[seat].as_mut().expect("a person seat");
        if on && s.hinting {
            return Err(Reply::error(503, "a hint for this seat is being made; wait for it"));
        }
        s.hinting = on;
        Ok(())
    }

    /// What an engine hint for `seat` needs (`None` unless the seat must act now).
    pub fn hint_input(&self, seat: usize) -> Option<Hint> {
        let s = self.seats[seat].as_ref()?;
        let (_, kind, legal) = s.ask.clone()?;
        Some(Hint {
            fresh: self.fresh.clone_box(),
            settings: self.settings.clone(),
            seat,
            observations: s.seen.clone(),
            roles: self.roles[seat].clone(),
            kind,
            legal,
        })
    }
}

/// A page's id: 1 to 64 characters.
fn check_client(client: &str) -> Result<(), Reply> {
    if client.is_empty() || client.len() > 64 {
        return Err(Reply::error(400, "client: the page's id, 1 to 64 characters"));
    }
    Ok(())
}

/// An engine hint to make: a fresh game and one seat's observations and question.
pub struct Hint {
    fresh: Box<dyn Table>,
    settings: Settings,
    seat: usize,
    observations: Vec<String>,
    roles: Vec<String>,
    kind: String,
    legal: Vec<String>,
}

impl Hint {
    /// The engine's choice for the seat from that seat's observations alone, fed in order as
    /// the referee sent them.
    pub fn run(&self) -> Result<String, String> {
        if self.observations.len() >= MAX_SEEN {
            return Err("the game is too long to replay for a hint".into());
        }
        let mut e = self.fresh.engine_seat(self.seat, &Vec::new(), 1)?;
        let roles: Vec<&str> = self.roles.iter().map(String::as_str).collect();
        e.start(
            self.fresh.info().name,
            self.seat,
            self.fresh.seats(),
            &roles,
            &self.settings,
        )?;
        for o in &self.observations {
            e.see(&Seen::from_text(o))?;
        }
        match e.ask(0, &self.kind, ENGINE_SECONDS, &self.legal)? {
            Answer::Action(a) => Ok(a),
            Answer::Garbage { why, .. } => Err(why),
        }
    }
}

/// What a person seat's page receives ([`Room::view`]): its own observation (the referee's,
/// the only gate), the public events and actor, its question and the end.
#[derive(Debug, Serialize)]
pub struct PageView<'a> {
    /// The game's name.
    pub game: &'static str,
    /// This seat.
    pub seat: usize,
    /// How many seats.
    pub seats: usize,
    /// This seat's roles now.
    pub roles: &'a [String],
    /// Who holds each seat (`person`, `engine`, ...).
    pub players: &'a [&'static str],
    /// Counts the seat's changes, for the page's polling.
    pub version: u64,
    /// What the seat may know.
    pub observation: &'a str,
    /// The observation's fields, for drawing.
    pub fields: Vec<FieldView<'a>>,
    /// The public events, oldest first.
    pub events: &'a VecDeque<String>,
    /// Who acts now.
    pub actor: &'a str,
    /// The seat's open question.
    pub ask: Option<AskView<'a>>,
    /// Why the seat's last answer was refused.
    pub refused: Option<&'a str>,
    /// The end, once over.
    pub outcome: Option<OutcomeView<'a>>,
    /// True when the page may ask for a hint.
    pub hint: bool,
}

/// One field of an observation.
#[derive(Debug, Serialize)]
pub struct FieldView<'a> {
    /// What it is.
    pub label: &'static str,
    /// How to draw it.
    pub kind: String,
    /// Its word in the observation.
    pub text: &'a str,
}

/// A question to a seat: its id, kind and legal actions.
#[derive(Debug, Serialize)]
pub struct AskView<'a> {
    /// The question's id, sent back with the answer.
    pub id: u64,
    /// `action`, `sense`, ...
    pub kind: &'a str,
    /// The legal actions.
    pub actions: &'a [String],
}

/// How a game ended.
#[derive(Debug, Serialize)]
pub struct OutcomeView<'a> {
    /// The result text.
    pub result: &'a str,
    /// Each seat's score.
    pub scores: &'a [f64],
    /// Why.
    pub reason: &'a str,
}
