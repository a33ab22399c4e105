//! Two-player games in the browser: a session of any variant, each side a person or the
//! engine, an optional clock, take-back and set-up from a FEN. The engine's moves are searched
//! on the server's one engine thread ([`Engine`]), never on a connection thread.

use super::engine::{Engine, Job};
use super::http::Reply;
use crate::Color;
use crate::engine::{Legal, Notation, Session, new_session};
use crate::games::AnyGame;
use crate::search::{Limits, MAX_ELO, MIN_ELO, Searcher, Strength};
use crate::square::square_name;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest time the engine may be given per move.
pub const MAX_ENGINE_MS: u64 = 60_000;

/// The creator's own side and token, and an invitation code per other person side.
pub type HandedOut = (Option<(Color, String)>, Vec<(Color, String)>);

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Someone at the page.
    Person,
    /// Menagerie's search.
    Engine,
}

impl Player {
    fn parse(s: &str) -> Result<Player, String> {
        match s {
            "person" => Ok(Player::Person),
            "engine" => Ok(Player::Engine),
            _ => Err(format!("a player is 'person' or 'engine', not '{s}'")),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Player::Person => "person",
            Player::Engine => "engine",
        }
    }
}

/// Both clocks: time left per side and when the running one started.
#[derive(Clone, Debug)]
struct Clock {
    start_ms: u64,
    inc_ms: u64,
    left_ms: [u64; 2],
    since: Instant,
}

/// One two-player game.
pub struct Board {
    game: AnyGame,
    /// Squares of the frame that do not exist, and those no piece may land on (the page's
    /// gaps and marks; fixed by the variant).
    holes: Vec<String>,
    marked: Vec<String>,
    session: Box<dyn Session>,
    start_fen: String,
    moves: Vec<String>,
    players: [Player; 2],
    clock: Option<Clock>,
    engine_ms: u64,
    /// The engine plays at this strength level (`None`: full strength).
    engine_level: Option<Strength>,
    /// Bumped on every change; the page polls for a newer one.
    pub version: u64,
    result: Option<(String, String)>,
    /// The version the engine is searching for (`None`: not searching).
    thinking: Option<u64>,
    /// Each person side's secret token (its player's link), and the invitation that hands it
    /// out once (`None`: spent, or the creator's own side).
    tokens: [Option<String>; 2],
    invitations: [Option<String>; 2],
    /// A side's request to take back, made when the game had this many moves: the other
    /// person's take-back carries it out; any move drops it.
    takeback: Option<(Color, usize)>,
}

impl Board {
    /// A new game from the page's request.
    pub fn new(game: &AnyGame, req: &Value) -> Result<Board, String> {
        let player = |key: &str| Player::parse(req.get(key).and_then(Value::as_str).unwrap_or("person"));
        let players = [player("white")?, player("black")?];
        let engine_ms = match req.get("engine_ms") {
            None | Some(Value::Null) => 1000,
            Some(v) => match v.as_f64() {
                Some(ms) if (10.0..=MAX_ENGINE_MS as f64).contains(&ms) => ms as u64,
                _ => return Err(format!("engine_ms must be a number from 10 to {MAX_ENGINE_MS}")),
            },
        };
        let engine_level = match req.get("engine_level") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_f64() {
                Some(e) if (f64::from(MIN_ELO)..=f64::from(MAX_ELO)).contains(&e) => Some(Strength::new(e as u32)),
                _ => {
                    return Err(format!(
                        "engine_level must be null (full strength) or {MIN_ELO} to {MAX_ELO}"
                    ));
                }
            },
        };
        let clock = match req.get("clock") {
            None | Some(Value::Null) => None,
            Some(c) => {
                let minutes = c.get("minutes").and_then(Value::as_f64).unwrap_or(-1.0);
                let inc = c.get("increment").and_then(Value::as_f64).unwrap_or(0.0);
                if !(0.05..=600.0).contains(&minutes) || !(0.0..=600.0).contains(&inc) {
                    return Err("clock: minutes from 0.05 to 600, increment from 0 to 600 seconds".into());
                }
                let start_ms = (minutes * 60_000.0) as u64;
                Some(Clock {
                    start_ms,
                    inc_ms: (inc * 1000.0) as u64,
                    left_ms: [start_ms; 2],
                    since: Instant::now(),
                })
            }
        };
        let g = &game.geometry;
        let (mut holes, mut marked) = (Vec::new(), Vec::new());
        for r in 0..g.ranks() {
            for f in 0..g.files() {
                match g.square(f, r) {
                    Some(sq) if g.exists(sq) => {
                        if !g.landable().contains(sq) {
                            marked.push(square_name(f, r));
                        }
                    }
                    _ => holes.push(square_name(f, r)),
                }
            }
        }
        let mut b = Board {
            game: game.clone(),
            holes,
            marked,
            session: new_session(game),
            start_fen: game.start_fen.clone(),
            moves: Vec::new(),
            players,
            clock,
            engine_ms,
            engine_level,
            version: 1,
            result: None,
            thinking: None,
            tokens: [None, None],
            invitations: [None, None],
            takeback: None,
        };
        if let Some(fen) = req.get("fen").and_then(Value::as_str).filter(|f| !f.trim().is_empty()) {
            b.set_fen(fen)?;
        }
        Ok(b)
    }

    fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        let mut s = self.session.fresh();
        s.set_fen(fen.trim()).map_err(|e| format!("FEN: {e}"))?;
        self.start_fen = s.fen();
        self.session = s;
        self.moves.clear();
        self.result = None;
        self.thinking = None;
        if let Some(c) = &mut self.clock {
            c.left_ms = [c.start_ms; 2];
            c.since = Instant::now();
        }
        self.check_end();
        Ok(())
    }

    /// Runs the clock of the side to move up to now; a flag that falls ends the game.
    fn tick(&mut self) {
        if self.result.is_some() {
            return;
        }
        let side = self.session.side_to_move().index();
        let started = !self.moves.is_empty();
        if let Some(c) = &mut self.clock {
            // The clocks start with the first move: until then nobody's time runs.
            if !started {
                c.since = Instant::now();
                return;
            }
            let spent = c.since.elapsed().as_millis() as u64;
            c.since = Instant::now();
            c.left_ms[side] = c.left_ms[side].saturating_sub(spent);
            if c.left_ms[side] == 0 {
                let res = if side == 0 { "0-1" } else { "1-0" };
                self.result = Some((res.into(), format!("{}'s time ran out", Color::ALL[side].name())));
                self.thinking = None;
                self.version += 1;
            }
        }
    }

    fn check_end(&mut self) {
        if let Some(o) = self.session.outcome() {
            self.result = Some((o.result().into(), o.reason().into()));
        }
    }

    /// Runs the clock; an error when the game is over (a flag may just have fallen).
    fn still_on(&mut self) -> Result<(), String> {
        self.tick();
        match &self.result {
            Some((r, why)) => Err(format!("the game is over ({r}, {why})")),
            None => Ok(()),
        }
    }

    /// Plays `m`, found legal for the side to move; the game is untouched on error.
    fn play(&mut self, m: Legal) -> Result<(), String> {
        self.still_on()?;
        let text = self.session.write(m.mv(), Notation::Mmn);
        self.session.play(m).map_err(|e| format!("{}: {text}", e.reason()))?;
        let side = 1 - self.session.side_to_move().index();
        if let Some(c) = &mut self.clock {
            c.left_ms[side] += c.inc_ms;
            c.since = Instant::now();
        }
        self.moves.push(text);
        self.takeback = None;
        self.version += 1;
        self.check_end();
        Ok(())
    }

    /// Makes a secret token for each person side: the creator's own (the first person side)
    /// and an invitation for the other, which hands its token out once.
    pub fn hand_out(&mut self) -> HandedOut {
        let mut own = None;
        let mut invitations = Vec::new();
        for c in Color::ALL {
            if self.players[c.index()] != Player::Person {
                continue;
            }
            let token = super::tables::token();
            self.tokens[c.index()] = Some(token.clone());
            if own.is_none() {
                own = Some((c, token));
            } else {
                let code = super::tables::token();
                self.invitations[c.index()] = Some(code.clone());
                invitations.push((c, code));
            }
        }
        (own, invitations)
    }

    /// The side whose secret token this is.
    pub fn side_of(&self, token: &str) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|c| self.tokens[c.index()].as_deref() == Some(token))
    }

    /// Opens an invitation: the side and its token, once; then the invitation is spent.
    pub fn redeem(&mut self, code: &str) -> Result<(Color, String), Reply> {
        for c in Color::ALL {
            if self.invitations[c.index()].as_deref() == Some(code) {
                self.invitations[c.index()] = None;
                let token = self.tokens[c.index()].clone().ok_or_else(wrong_token)?;
                self.version += 1;
                return Ok((c, token));
            }
        }
        Err(Reply::error(
            410,
            "this invitation has been used (or never was): ask the game's creator",
        ))
    }

    /// `side`'s person moves from the page.
    pub fn person_move(&mut self, side: Color, text: &str) -> Result<(), String> {
        if text.len() > 64 {
            return Err("a move is at most 64 characters".into());
        }
        if self.session.side_to_move() != side {
            return Err(format!("it is {}'s turn", self.session.side_to_move().name()));
        }
        self.still_on()?;
        let m = self
            .session
            .parse(text.trim(), Notation::Mmn)
            .map_err(|e| format!("{}: {text}", e.reason()))?;
        self.play(m)
    }

    /// `side` asks to take back its last move (confirmed on the page). Against the engine it is
    /// done at once, back to the person's last turn; against a person it waits for the other's
    /// take-back, which carries it out. Refused once the game is over.
    pub fn take_back(&mut self, side: Color, confirmed: bool) -> Result<(), String> {
        self.tick();
        if !confirmed {
            return Err("a take-back asks for confirmation ('confirm': true)".into());
        }
        if let Some((r, why)) = &self.result {
            return Err(format!("the game is over ({r}, {why}): no take-back"));
        }
        let other = !side;
        if self.players[other.index()] == Player::Person {
            match self.takeback {
                Some((asker, at)) if asker == other && at == self.moves.len() => {
                    // The other side asked; this side agrees: back to the asker's last turn.
                    self.takeback = None;
                    return self.undo_to(asker);
                }
                Some((asker, at)) if asker == side && at == self.moves.len() => {
                    return Err("your take-back waits for the other player's answer".into());
                }
                _ => {
                    if self.moves.is_empty() {
                        return Err("no move to take back".into());
                    }
                    self.takeback = Some((side, self.moves.len()));
                    self.version += 1;
                    return Ok(());
                }
            }
        }
        self.undo_to(side)
    }

    /// Takes moves back until `side` is to move again, at least one.
    fn undo_to(&mut self, side: Color) -> Result<(), String> {
        if self.moves.is_empty() {
            return Err("no move to take back".into());
        }
        let mut n = 0;
        while n < self.moves.len() {
            self.session.undo();
            n += 1;
            if self.session.side_to_move() == side {
                break;
            }
        }
        self.moves.truncate(self.moves.len() - n);
        self.result = None;
        self.thinking = None;
        if let Some(c) = &mut self.clock {
            c.since = Instant::now();
        }
        self.version += 1;
        self.check_end();
        Ok(())
    }

    /// `side`'s person resigns (confirmed on the page), on either turn.
    pub fn resign(&mut self, side: Color, confirmed: bool) -> Result<(), String> {
        self.tick();
        if !confirmed {
            return Err("resigning asks for confirmation ('confirm': true)".into());
        }
        if self.result.is_some() {
            return Err("the game is over".into());
        }
        let res = if side == Color::White { "0-1" } else { "1-0" };
        self.result = Some((res.into(), format!("{} resigned", side.name())));
        self.takeback = None;
        self.version += 1;
        Ok(())
    }

    /// A new game from a FEN, set up by `side`'s person: only against the engine (another person
    /// would lose the game they are playing).
    pub fn new_fen(&mut self, side: Color, fen: &str) -> Result<(), String> {
        if fen.len() > 512 {
            return Err("a FEN is at most 512 characters".into());
        }
        if self.players[(!side).index()] == Player::Person {
            return Err("with two people, a new position is a new game: start one from the lobby".into());
        }
        self.set_fen(fen)?;
        self.takeback = None;
        self.version += 1;
        Ok(())
    }

    /// The position after a PGN's last game (its set-up and moves), as a new game against the
    /// engine; the game is untouched on error.
    pub fn new_pgn(&mut self, side: Color, text: &str) -> Result<(), String> {
        if self.players[(!side).index()] == Player::Person {
            return Err("with two people, a new position is a new game: start one from the lobby".into());
        }
        let games = crate::pgn::read_games(text).map_err(|e| format!("PGN: {e}"))?;
        let game = games.last().ok_or("PGN: no game in it")?;
        let v = self.game.variant();
        if let Some(tag) = game.tag("Variant")
            && !crate::engine::pgn_names(tag, v)
        {
            return Err(format!("PGN: a game of {tag}; this board plays {}", v.name));
        }
        let mut s = self.session.fresh();
        let (start_fen, moves) = crate::engine::replay_pgn(&mut *s, game).map_err(|e| format!("PGN {e}"))?;
        self.set_fen(&start_fen)?;
        self.session = s;
        self.moves = moves;
        self.check_end();
        self.takeback = None;
        self.version += 1;
        Ok(())
    }

    /// The search the engine should run now, if it is the engine's turn; `on_done` gets the
    /// move and the version it was searched for.
    pub fn engine_job(this: &Arc<Mutex<Board>>, engine: &Engine, wake: impl Fn() + Send + 'static) {
        let job = {
            let mut b = this.lock().unwrap_or_else(|e| e.into_inner());
            b.tick();
            let side = b.session.side_to_move().index();
            if b.result.is_some() || b.thinking.is_some() || b.players[side] != Player::Engine {
                return;
            }
            let version = b.version;
            b.thinking = Some(version);
            let mut limits = Limits::default();
            let mut ms = b.engine_ms;
            if let Some(c) = &b.clock {
                // A share of the time left, never more than nine tenths of it.
                ms = ms
                    .min(c.left_ms[side] / 30 + c.inc_ms / 2)
                    .min(c.left_ms[side] * 9 / 10)
                    .max(1);
            }
            limits.movetime = Some(Duration::from_millis(ms));
            limits.strength = b.engine_level;
            let board = Arc::clone(this);
            let variant = b.game.name.clone();
            let mut s = b.session.snapshot();
            let job: Job = Box::new(move |searcher: &mut Searcher| {
                // A search that panics is a bug: the game ends with it rather than waiting forever.
                let search = std::panic::AssertUnwindSafe(|| s.go(searcher, limits, &mut |_, _| {}).0);
                let Ok(best) = std::panic::catch_unwind(search) else {
                    searcher.clear();
                    let mut b = board.lock().unwrap_or_else(|e| e.into_inner());
                    if b.thinking != Some(version) || b.version != version {
                        return;
                    }
                    b.thinking = None;
                    b.result = Some(("*".into(), "engine error: the search failed".into()));
                    b.version += 1;
                    drop(b);
                    wake();
                    return;
                };
                let mut b = board.lock().unwrap_or_else(|e| e.into_inner());
                if b.thinking != Some(version) || b.version != version {
                    return;
                }
                b.thinking = None;
                // The engine's flag may have fallen while it thought: that result stands.
                b.tick();
                if b.result.is_some() {
                    drop(b);
                    wake();
                    return;
                }
                match best {
                    Some(m) => {
                        if let Err(e) = b.play(m) {
                            b.result = Some(("*".into(), format!("engine error: {e}")));
                            b.version += 1;
                        }
                    }
                    None => {
                        b.check_end();
                        if b.result.is_none() {
                            b.result = Some(("*".into(), "the engine found no move".into()));
                        }
                        b.version += 1;
                    }
                }
                drop(b);
                wake();
            });
            (variant, job)
        };
        engine.run(job.0, job.1);
    }

    /// The version after running the clock (a falling flag is a change), for polling.
    pub fn poll_version(&mut self) -> u64 {
        self.tick();
        self.version
    }

    /// The board `id` as the page gets it: a spectator's (`you` `None`) or a side's.
    /// The game so far as PGN (the page's download).
    fn pgn(&mut self, id: &str) -> String {
        let result = self.result.as_ref().map_or("*", |r| r.0.as_str()).to_string();
        let (white, black) = (self.players[0].name(), self.players[1].name());
        let event = format!("Menagerie board {id}");
        let tags = [
            ("Event", event.as_str()),
            ("Site", "menagerie serve"),
            ("White", white),
            ("Black", black),
        ];
        self.session.pgn(&tags, &result)
    }

    pub fn view(&mut self, id: &str, you: Option<Color>) -> Value {
        self.tick();
        let v = self.game.variant();
        let g = &v.geometry;
        let legal = if self.result.is_some() {
            Vec::new()
        } else {
            self.session.legal_texts()
        };
        let side = self.session.side_to_move();
        let name = |c: Color| c.name().to_lowercase();
        let pieces: serde_json::Map<String, Value> =
            v.pieces.iter().map(|p| (p.letter.to_string(), json!(p.name))).collect();
        let holdings: Vec<Value> = self
            .session
            .holdings()
            .into_iter()
            .map(|h| json!({ "label": h.label, "owner": name(h.owner), "letters": h.letters }))
            .collect();
        let history: Vec<Value> = self
            .session
            .history()
            .into_iter()
            .map(|(text, fen)| json!({ "move": text, "fen": fen }))
            .collect();
        let running = (self.result.is_none() && !self.moves.is_empty()).then(|| name(side));
        let takeback = match self.takeback {
            Some((c, at)) if at == self.moves.len() && self.result.is_none() => Some(name(c)),
            _ => None,
        };
        json!({
            "id": id,
            "version": self.version,
            "variant": v.name,
            "files": g.files(),
            "ranks": g.ranks(),
            "holes": self.holes,
            "marked": self.marked,
            "pieces": pieces,
            "fen": self.session.fen(),
            "start_fen": self.start_fen,
            "pgn": self.pgn(id),
            "holdings": holdings,
            "side": name(side),
            "players": { "white": self.players[0].name(), "black": self.players[1].name() },
            "moves": self.moves,
            "history": history,
            "check": self.session.checked(),
            "legal": legal,
            "clock": self.clock.as_ref().map(|c| json!({
                "white_ms": c.left_ms[0],
                "black_ms": c.left_ms[1],
                "running": running,
            })),
            "thinking": self.thinking.is_some(),
            "engine_level": self.engine_level.map(|l| l.elo()),
            "you": you.map(name),
            "takeback": takeback,
            "result": self.result.as_ref().map(|(r, why)| json!({ "result": r, "reason": why })),
        })
    }
}

/// The reply for a board operation that failed.
pub fn refused(e: String) -> Reply {
    Reply::error(400, &e)
}

/// The reply to a token that opens no side of the board.
pub fn wrong_token() -> Reply {
    Reply::error(403, "wrong player link: the board's plain link is a spectator's")
}
