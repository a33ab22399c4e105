//! Game records (`play --record`, `--replay`, `--resume`): JSON lines written and flushed as the
//! game goes (`docs/table-games.md`, "Records"). A replay plays the game again from the
//! record's header, with Menagerie's own seats (engine, random) deciding again, chance redealt
//! from the seed, and the record's answers standing in for people and seat programs; every line
//! it makes must be the record's next line. So a changed seed, seat list, action, event,
//! refusal, forfeit or result shows up as the first line that differs.

use super::json::Json;
use super::referee::{self, Halt, Played, RecordSink};
use super::seats::{Answer, Seat, check_specs, make_seat};
use super::{Outcome, Settings};
use std::sync::{Arc, Mutex};

/// A record's first line, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game's name.
    pub game: String,
    /// The seed chance and Menagerie's seats are drawn from.
    pub seed: u64,
    /// The seat specs (`engine`, `random`, `human`, `cmd:PROGRAM`).
    pub seats: Vec<String>,
    /// The game's settings.
    pub settings: Settings,
}

/// One game of a record file.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Its header.
    pub header: Header,
    /// The line number (1-based) of the header in the file.
    pub first_line: usize,
    /// Its lines, the header first, as written.
    pub lines: Vec<String>,
    /// True when the game has its result line.
    pub finished: bool,
}

fn header_of(v: &Json) -> Result<Header, String> {
    let game = v
        .get("game")
        .and_then(Json::as_str)
        .ok_or("not a game header (no \"game\")")?;
    let seed = v
        .get("seed")
        .and_then(Json::as_str)
        .and_then(|s| s.parse::<u64>().ok())
        .ok_or("the header's seed is not a number in quotes")?;
    let seats = match v.get("seats") {
        Some(Json::Arr(a)) => a
            .iter()
            .map(|s| s.as_str().map(String::from).ok_or("a seat that is not text"))
            .collect::<Result<Vec<_>, _>>()?,
        _ => return Err("the header has no seat list".into()),
    };
    let settings = match v.get("settings") {
        Some(Json::Obj(kv)) => kv
            .iter()
            .map(|(k, v)| {
                v.as_str()
                    .map(|v| (k.clone(), v.to_string()))
                    .ok_or("a setting that is not text")
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
        _ => return Err("the header's settings are not an object".into()),
    };
    Ok(Header {
        game: game.to_string(),
        seed,
        seats,
        settings,
    })
}

/// A seat number of a record line (its `seat` or `forfeit` value): `chance` or an index below
/// `seats`.
fn seat_of(v: Option<&Json>, seats: usize) -> Result<Option<usize>, String> {
    match v {
        Some(Json::Str(s)) if s == "chance" => Ok(None),
        Some(Json::Num(n)) if n.fract() == 0.0 && *n >= 0.0 && (*n as usize) < seats => Ok(Some(*n as usize)),
        Some(Json::Num(n)) => Err(format!("seat {n} is not a seat (0..{})", seats.saturating_sub(1))),
        _ => Err("a line with no seat".into()),
    }
}

/// Reads a record file's text into its games. Every line is checked for its form (JSON, a
/// known game, seat numbers in range); a last line cut in the middle is dropped, as a game cut
/// short by the end of the program. `Err` names the file line.
pub fn games(text: &str) -> Result<Vec<GameRecord>, String> {
    let raw: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
        .collect();
    let mut out: Vec<GameRecord> = Vec::new();
    for (k, &(no, line)) in raw.iter().enumerate() {
        let at = |m: String| format!("line {no}: {m}");
        let v = match Json::parse(line) {
            Ok(v) => v,
            // Only the very last line may be cut short (the program ended while writing it).
            Err(_) if k + 1 == raw.len() && !text.ends_with('\n') => break,
            Err(e) => return Err(at(e)),
        };
        if v.get("game").is_some() {
            let header = header_of(&v).map_err(at)?;
            let probe = crate::kit::new_table(&header.game, &header.settings).map_err(at)?;
            if header.seats.len() != probe.seats() {
                return Err(at(format!(
                    "{} has {} seats, the header lists {}",
                    header.game,
                    probe.seats(),
                    header.seats.len()
                )));
            }
            if let Some(g) = out.last()
                && !g.finished
            {
                return Err(at("a new game before the last one's result".into()));
            }
            out.push(GameRecord {
                header,
                first_line: no,
                lines: vec![line.to_string()],
                finished: false,
            });
            continue;
        }
        let g = out
            .last_mut()
            .ok_or_else(|| at("the record does not start with a game header".into()))?;
        if g.finished {
            return Err(at("a line after the game's result".into()));
        }
        let seats = g.header.seats.len();
        if v.get("result").is_some() {
            if let Some(f) = v.get("forfeit") {
                seat_of(Some(f), seats).map_err(at)?;
            }
            g.finished = true;
        } else {
            let seat = seat_of(v.get("seat"), seats).map_err(at)?;
            if v.get("refused").is_some() && seat.is_none() {
                return Err(at("chance is never refused".into()));
            }
            if v.get("action").is_none() && v.get("refused").is_none() {
                return Err(at("neither an action, a refusal nor a result".into()));
            }
        }
        g.lines.push(line.to_string());
    }
    if out.is_empty() {
        return Err("no game in the record".into());
    }
    Ok(out)
}

/// Where a replay stands in the record, shared by the record's reader and the seats whose
/// answers come from it.
struct Script {
    lines: Vec<String>,
    /// The next line the game must make.
    pos: usize,
    /// Line number in the file of `lines[0]`.
    first_line: usize,
    /// The first line that differs: (file line, the record's, the replay's).
    differs: Option<(usize, String, String)>,
    /// Lines made past the record's end go here (a resumed game), or the game halts there.
    append: Option<RecordSink>,
}

impl Script {
    /// The record line the game must make next, if the record has one.
    fn next(&self) -> Option<Json> {
        self.lines.get(self.pos).and_then(|l| Json::parse(l).ok())
    }

    /// Takes the game's next line: the same as the record's, or past the record's end.
    fn take(&mut self, line: &str) -> Result<(), String> {
        match self.lines.get(self.pos) {
            Some(want) if want == line => {
                self.pos += 1;
                Ok(())
            }
            Some(want) => {
                let no = self.first_line + self.pos;
                self.differs = Some((no, want.clone(), line.to_string()));
                Err(format!("line {no} differs"))
            }
            None => match self.append.as_mut() {
                Some(f) => f(line),
                None => Err("the record ends".into()),
            },
        }
    }
}

fn lock(s: &Mutex<Script>) -> std::sync::MutexGuard<'_, Script> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

/// A seat a person or a program held: its answers, refusals and forfeit come from the record;
/// past the record's end, the `live` seat (a resumed game) plays on.
struct ScriptSeat {
    seat: usize,
    script: Arc<Mutex<Script>>,
    live: Option<Box<dyn Seat>>,
    patient: bool,
}

impl ScriptSeat {
    /// The record's forfeit of this seat, next, when the seat itself caused it (not the
    /// referee's count of bad answers).
    fn own_forfeit(&self) -> Option<String> {
        let v = lock(&self.script).next()?;
        let seat = v.get("forfeit").and_then(Json::as_f64)?;
        let why = v.get("why").and_then(Json::as_str)?;
        let counted = why.contains(" bad answers, the last: ");
        (seat == self.seat as f64 && !counted).then(|| why.to_string())
    }

    /// True while the record still has lines to play.
    fn scripted(&self) -> bool {
        let s = lock(&self.script);
        s.pos < s.lines.len()
    }

    fn pass_on(&mut self, f: impl FnOnce(&mut dyn Seat) -> Result<(), String>) -> Result<(), String> {
        if let Some(why) = self.own_forfeit() {
            return Err(why);
        }
        match self.live.as_mut() {
            Some(live) => f(live.as_mut()),
            None => Ok(()),
        }
    }
}

impl Seat for ScriptSeat {
    fn start(
        &mut self,
        game: &str,
        seat: usize,
        seats: usize,
        roles: &[&str],
        settings: &Settings,
    ) -> Result<(), String> {
        self.pass_on(|l| l.start(game, seat, seats, roles, settings))
    }
    fn see(&mut self, observation: &str) -> Result<(), String> {
        self.pass_on(|l| l.see(observation))
    }
    fn event(&mut self, text: &str) -> Result<(), String> {
        self.pass_on(|l| l.event(text))
    }
    fn ask(&mut self, id: u64, kind: &str, seconds_left: f64, legal: &[String]) -> Result<Answer, String> {
        if !self.scripted() {
            return match self.live.as_mut() {
                Some(live) => live.ask(id, kind, seconds_left, legal),
                None => Err("the record ends".into()),
            };
        }
        if let Some(why) = self.own_forfeit() {
            return Err(why);
        }
        let v = lock(&self.script).next().ok_or("the record ends")?;
        let text = |k: &str| v.get(k).and_then(Json::as_str).map(String::from);
        if v.get("seat").and_then(Json::as_f64) != Some(self.seat as f64) {
            return Err(format!("the record has no answer of seat {} here", self.seat));
        }
        if let Some(a) = text("action") {
            return Ok(Answer::Action(a));
        }
        match (text("refused"), v.get("garbage")) {
            (Some(line), Some(Json::Bool(true))) => Ok(Answer::Garbage {
                line,
                why: text("reason").unwrap_or_default(),
            }),
            (Some(a), _) => Ok(Answer::Action(a)),
            _ => Err(format!("the record has no answer of seat {} here", self.seat)),
        }
    }
    fn refused(&mut self, message: &str) -> Result<(), String> {
        if self.scripted() {
            return match self.own_forfeit() {
                Some(why) => Err(why),
                None => Ok(()),
            };
        }
        match self.live.as_mut() {
            Some(live) => live.refused(message),
            None => Ok(()),
        }
    }
    fn end(&mut self, outcome: &Outcome) {
        if let Some(live) = self.live.as_mut() {
            live.end(outcome);
        }
    }
    fn patient(&self) -> bool {
        self.patient
    }
}

/// How a replayed game ended.
#[derive(Debug)]
pub enum Replayed {
    /// Every line agrees and the game is over.
    Agrees(Played),
    /// Every line agrees but the record stops before the end, after this many steps.
    Unfinished(usize),
}

/// Plays `g` again. `live` (a resumed game) makes the seats of people and programs from their
/// specs to play on past the record's end, whose lines go to `append`; without it the game
/// stops where the record does. `Err` names the first line that differs, in the record's words.
pub fn replay(g: &GameRecord, move_seconds: f64, append: Option<RecordSink>) -> Result<Replayed, String> {
    let h = &g.header;
    let mut table = crate::kit::new_table(&h.game, &h.settings)?;
    let script = Arc::new(Mutex::new(Script {
        lines: g.lines.clone(),
        pos: 0,
        first_line: g.first_line,
        differs: None,
        append: None,
    }));
    let live = append.is_some();
    check_specs(table.as_ref(), &h.seats)?;
    let mut seats: Vec<Box<dyn Seat>> = Vec::new();
    for (i, spec) in h.seats.iter().enumerate() {
        let kind = spec.split(':').next().unwrap_or("");
        seats.push(match kind {
            "human" | "cmd" => Box::new(ScriptSeat {
                seat: i,
                script: Arc::clone(&script),
                live: if live {
                    Some(make_seat(table.as_ref(), i, spec, h.seed, move_seconds)?)
                } else {
                    None
                },
                patient: kind == "human",
            }),
            _ => make_seat(table.as_ref(), i, spec, h.seed, move_seconds)?,
        });
    }
    lock(&script).append = append;
    let mut take = |line: &str| lock(&script).take(line);
    let played = referee::play_recorded(
        table.as_mut(),
        &mut seats,
        h.seed,
        &h.seats,
        &h.settings,
        move_seconds,
        &mut take,
    );
    drop(seats);
    let s = lock(&script);
    if let Some((no, want, got)) = &s.differs {
        return Err(format!("line {no}: the record has {want}, the replay makes {got}"));
    }
    match played {
        Ok(p) => Ok(Replayed::Agrees(p)),
        Err(Halt { steps, why }) if why == "the record ends" => Ok(Replayed::Unfinished(steps)),
        Err(Halt { why, .. }) => Err(why),
    }
}
