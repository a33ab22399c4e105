//! Game records (`play --record`, `--replay`, `--resume`): JSON lines written and flushed as the
//! game goes (`docs/table-games.md`, "Records"). A replay plays the game again from the
//! record's header, with Menagerie's own seats (engine, random) deciding again, chance redealt
//! from the seed, and the record's answers standing in for people and seat programs; every line
//! it makes must be the record's next line. So a changed seed, seat list, action, event,
//! refusal, forfeit or result shows up as the first line that differs.

use super::record_line::{Finish, Line, Step};
use super::referee::{self, Halt, Played, RecordSink};
use super::seats::{Answer, Seat, SeatError, check_specs, make_seat};
use super::{NewTable, Outcome, Seen, Settings};
use std::sync::{Arc, Mutex};

pub use super::record_line::Header;

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

/// A seat number of a record line (a step's or refusal's seat, a result's forfeit) below
/// `seats`.
fn check_seat(seat: Option<usize>, seats: usize) -> Result<(), String> {
    match seat {
        Some(n) if n >= seats => Err(format!("seat {n} is not a seat (0..{})", seats.saturating_sub(1))),
        _ => Ok(()),
    }
}

/// Reads a record file's text into its games. Every line is checked for its form (JSON, a
/// game `new_table` knows, seat numbers in range); a last line cut in the middle is dropped,
/// as a game cut short by the end of the program. `Err` names the file line.
pub fn games(text: &str, new_table: NewTable) -> Result<Vec<GameRecord>, String> {
    let raw: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
        .collect();
    let mut out: Vec<GameRecord> = Vec::new();
    for (k, &(no, line)) in raw.iter().enumerate() {
        let at = |m: String| format!("line {no}: {m}");
        let v = match Line::parse(line) {
            Ok(v) => v,
            // Only the very last line may be cut short (the program ended while writing it).
            Err(_) if k + 1 == raw.len() && !text.ends_with('\n') => break,
            Err(e) => return Err(at(e)),
        };
        if let Line::Header(header) = v {
            let probe = new_table(&header.game, &header.settings).map_err(at)?;
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
        check_seat(v.seat(), g.header.seats.len()).map_err(at)?;
        g.finished = matches!(v, Line::Finish(_));
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
    fn next(&self) -> Option<Line> {
        self.lines.get(self.pos).and_then(|l| Line::parse(l).ok())
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
        let Line::Finish(Finish {
            forfeit: Some(seat),
            why: Some(why),
            ..
        }) = lock(&self.script).next()?
        else {
            return None;
        };
        let counted = why.contains(" bad answers, the last: ");
        (seat == self.seat && !counted).then_some(why)
    }

    /// True while the record still has lines to play.
    fn scripted(&self) -> bool {
        let s = lock(&self.script);
        s.pos < s.lines.len()
    }

    fn pass_on(&mut self, f: impl FnOnce(&mut dyn Seat) -> Result<(), SeatError>) -> Result<(), SeatError> {
        if let Some(why) = self.own_forfeit() {
            return Err(SeatError::Record(why));
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
    ) -> Result<(), SeatError> {
        self.pass_on(|l| l.start(game, seat, seats, roles, settings))
    }
    fn see(&mut self, seen: &Seen) -> Result<(), SeatError> {
        self.pass_on(|l| l.see(seen))
    }
    fn event(&mut self, text: &str) -> Result<(), SeatError> {
        self.pass_on(|l| l.event(text))
    }
    fn ask(&mut self, id: u64, kind: &str, seconds_left: f64, legal: &[String]) -> Result<Answer, SeatError> {
        let ends = || SeatError::Record("the record ends".into());
        if !self.scripted() {
            return match self.live.as_mut() {
                Some(live) => live.ask(id, kind, seconds_left, legal),
                None => Err(ends()),
            };
        }
        if let Some(why) = self.own_forfeit() {
            return Err(SeatError::Record(why));
        }
        let none_here = || SeatError::Record(format!("the record has no answer of seat {} here", self.seat));
        match lock(&self.script).next().ok_or_else(ends)? {
            Line::Step(Step {
                seat: Some(seat),
                action,
                ..
            }) if seat == self.seat => Ok(Answer::Action(action)),
            Line::Refusal(r) if r.seat == self.seat && r.garbage => Ok(Answer::Garbage {
                line: r.refused,
                why: r.reason,
            }),
            Line::Refusal(r) if r.seat == self.seat => Ok(Answer::Action(r.refused)),
            _ => Err(none_here()),
        }
    }
    fn refused(&mut self, message: &str) -> Result<(), SeatError> {
        if self.scripted() {
            return match self.own_forfeit() {
                Some(why) => Err(SeatError::Record(why)),
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

/// Plays `g` again, on a table `new_table` makes. With `append` (a resumed game) the seats
/// of people and programs are made from their specs to play on past the record's end, whose
/// lines go to `append`; without it the game stops where the record does. `Err` names the first line that differs, in the record's words.
pub fn replay(
    g: &GameRecord,
    new_table: NewTable,
    move_seconds: f64,
    append: Option<RecordSink>,
) -> Result<Replayed, String> {
    let h = &g.header;
    let mut table = new_table(&h.game, &h.settings)?;
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
