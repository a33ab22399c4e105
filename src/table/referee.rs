//! The referee: plays one game of a table game between seats. It alone holds the true state,
//! draws chance from its seeded generator, asks the acting seat, tells every seat what it may
//! see (only [`super::Table::seen`], its observation) and the public events, and writes the
//! game record.

use super::record_line::{Finish, Header, Line, Refusal, Step};
use super::seats::{Answer, Seat};
use super::{Actor, Outcome, Settings, Table};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// Most steps a game may take before the referee calls it drawn (no game of the rule book
/// comes near; it guards against a rules bug that never ends).
pub const MAX_STEPS: usize = 100_000;

/// Bad answers after which a seat that is not a person loses its seat.
pub const MAX_BAD_ANSWERS: usize = 3;

/// How one game went.
#[derive(Clone, Debug)]
pub struct Played {
    /// The end.
    pub outcome: Outcome,
    /// Actions applied (chance included).
    pub steps: usize,
    /// The seat that forfeited, if one did.
    pub forfeit: Option<usize>,
    /// The record, one JSON object a line (empty unless asked for).
    pub record: Vec<String>,
}

/// A game stopped before its end by whoever takes its record (a replay that reached the end of
/// a record cut short, or a record file that cannot be written): the steps played and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Halt {
    /// Actions applied before the halt.
    pub steps: usize,
    /// Why, in words.
    pub why: String,
}

/// Where a game's record lines go, one at a time as they happen; an `Err` halts the game.
pub type RecordSink = Box<dyn FnMut(&str) -> Result<(), String> + Send>;

/// The record's first line: game, seed, seats and settings.
pub fn header(game: &str, seed: u64, seats: &[String], settings: &Settings) -> String {
    Line::Header(Header {
        game: game.into(),
        seed,
        seats: seats.to_vec(),
        settings: settings.clone(),
    })
    .text()
}

/// The record line of one step (`seat` `None`: chance).
pub fn step_line(seat: Option<usize>, action: &str, event: &str) -> String {
    Line::Step(Step {
        seat,
        action: action.into(),
        event: event.into(),
    })
    .text()
}

/// The record line of a refused answer: the rules refused it (`garbage` false) or it was no
/// answer at all (a line the seat program sent that is not `kit-act` for the question).
pub fn refusal_line(seat: usize, answer: &str, reason: &str, garbage: bool) -> String {
    Line::Refusal(Refusal {
        seat,
        refused: answer.into(),
        reason: reason.into(),
        garbage,
    })
    .text()
}

/// The record's last line: the outcome, the steps played and, for a forfeit, the seat and what
/// it did.
pub fn result_line(o: &Outcome, steps: usize, forfeit: Option<(usize, &str)>) -> String {
    Line::Finish(Finish {
        result: o.result.clone(),
        scores: o.scores.clone(),
        reason: o.reason.clone(),
        steps,
        forfeit: forfeit.map(|f| f.0),
        why: forfeit.map(|f| f.1.to_string()),
    })
    .text()
}

/// The forfeit reason the referee gives a seat that answered badly too often.
pub fn bad_answers(count: usize, last: &str, why: &str) -> String {
    format!("{count} bad answers, the last: {last} ({why})")
}

/// Plays `table`'s chance steps up to the first seat's action, drawing them as [`play`] does
/// with `seed`: the same deal that `play` with that seed starts from.
pub fn deal(table: &mut dyn Table, seed: u64) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(seed);
    while table.actor() == Actor::Chance {
        table.draw_chance(&mut rng)?;
    }
    Ok(())
}

/// Plays `table` to its end with one seat per seat index. `seat_names` and `settings` go into
/// the record (kept when `keep_record`); `move_seconds` is what a seat is told it has.
pub fn play(
    table: &mut dyn Table,
    seats: &mut [Box<dyn Seat>],
    seed: u64,
    seat_names: &[String],
    settings: &Settings,
    keep_record: bool,
    move_seconds: f64,
) -> Played {
    let mut lines = Vec::new();
    let mut keep = |l: &str| {
        if keep_record {
            lines.push(l.to_string());
        }
        Ok(())
    };
    let mut p = play_recorded(table, seats, seed, seat_names, settings, move_seconds, &mut keep)
        .unwrap_or_else(|h| unreachable!("a record kept in memory never halts: {}", h.why));
    p.record = lines;
    p
}

/// The end of a game: its result line, then every seat is told.
fn finish(
    record: &mut dyn FnMut(&str) -> Result<(), String>,
    seats: &mut [Box<dyn Seat>],
    outcome: Outcome,
    forfeit: Option<(usize, &str)>,
    steps: usize,
) -> Result<Played, Halt> {
    record(&result_line(&outcome, steps, forfeit)).map_err(|why| Halt { steps, why })?;
    for s in seats.iter_mut() {
        s.end(&outcome);
    }
    Ok(Played {
        outcome,
        steps,
        forfeit: forfeit.map(|f| f.0),
        record: Vec::new(),
    })
}

/// [`play`], giving every record line to `record` as it happens (the header first, the result
/// last). An `Err` from `record` halts the game there.
pub fn play_recorded(
    table: &mut dyn Table,
    seats: &mut [Box<dyn Seat>],
    seed: u64,
    seat_names: &[String],
    settings: &Settings,
    move_seconds: f64,
    record: &mut dyn FnMut(&str) -> Result<(), String>,
) -> Result<Played, Halt> {
    record(&header(table.info().name, seed, seat_names, settings)).map_err(|why| Halt { steps: 0, why })?;
    let mut rng = StdRng::seed_from_u64(seed);
    let n = table.seats();
    for (i, s) in seats.iter_mut().enumerate() {
        if let Err(e) = s.start(table.info().name, i, n, &table.roles(i), settings) {
            let e = e.to_string();
            let o = table.forfeit(i, &e);
            return finish(record, seats, o, Some((i, &e)), 0);
        }
    }
    let mut game = Game {
        table,
        seats,
        record,
        move_seconds,
        asked: 0,
        seen: vec![String::new(); n],
    };
    for steps in 0..MAX_STEPS {
        let actor = game.table.actor();
        if let Err((i, e)) = game.show(actor == Actor::Over) {
            return game.forfeit(i, &e, steps);
        }
        let (who, action, event) = match actor {
            Actor::Over => {
                let o = game.table.outcome().unwrap_or_else(|| drawn(n, "no outcome".into()));
                return finish(game.record, game.seats, o, None, steps);
            }
            Actor::Chance => match game.table.draw_chance(&mut rng) {
                Ok((a, e)) => (None, a, e),
                Err(e) => return finish(game.record, game.seats, drawn(n, format!("referee: {e}")), None, steps),
            },
            Actor::Seat(seat, kind) => match game.ask(seat, kind, steps)? {
                Ok((a, e)) => (Some(seat), a, e),
                Err(why) => return game.forfeit(seat, &why, steps),
            },
        };
        game.line(steps, &step_line(who, &action, &event))?;
        for i in 0..game.seats.len() {
            if let Err(e) = game.seats[i].event(&event) {
                return game.forfeit(i, &e.to_string(), steps + 1);
            }
        }
    }
    let o = drawn(n, format!("referee: no end after {MAX_STEPS} steps"));
    finish(game.record, game.seats, o, None, MAX_STEPS)
}

/// A drawn outcome for `n` seats.
fn drawn(n: usize, reason: String) -> Outcome {
    Outcome {
        scores: vec![0.5; n],
        result: "draw".into(),
        reason,
    }
}

/// A game under way, for [`play_recorded`]: the true state, the seats, where the record goes,
/// the questions asked so far and what each seat last saw.
struct Game<'a> {
    table: &'a mut dyn Table,
    seats: &'a mut [Box<dyn Seat>],
    record: &'a mut dyn FnMut(&str) -> Result<(), String>,
    move_seconds: f64,
    asked: u64,
    seen: Vec<String>,
}

impl Game<'_> {
    /// A record line, or the game halts after `steps` (every seat told it ended unfinished).
    fn line(&mut self, steps: usize, text: &str) -> Result<(), Halt> {
        (self.record)(text).map_err(|why| {
            let n = self.table.seats();
            for s in self.seats.iter_mut() {
                s.end(&Outcome {
                    scores: vec![0.5; n],
                    result: "unfinished".into(),
                    reason: why.clone(),
                });
            }
            Halt { steps, why }
        })
    }

    /// `seat` loses its seat for `why` after `steps`: the game ends.
    fn forfeit(&mut self, seat: usize, why: &str, steps: usize) -> Result<Played, Halt> {
        let o = self.table.forfeit(seat, why);
        finish(self.record, self.seats, o, Some((seat, why)), steps)
    }

    /// Every seat sees the state it acts in, and the last one: `Err` names a seat that could
    /// not read its observation, and why (at the end, a seat that cannot read it no longer
    /// forfeits anything).
    fn show(&mut self, over: bool) -> Result<(), (usize, String)> {
        for (i, s) in self.seats.iter_mut().enumerate() {
            let seen = self.table.seen(i);
            if seen.text() != self.seen[i] {
                if let Err(e) = s.see(&seen)
                    && !over
                {
                    return Err((i, e.to_string()));
                }
                self.seen[i] = seen.text().to_string();
            }
        }
        Ok(())
    }

    /// Asks `seat` for an action of `kind` until the rules take one: the action and its
    /// event, or (`Ok(Err)`) why the seat forfeits. Each refused answer is recorded and told
    /// to the seat; a seat that is not patient forfeits after [`MAX_BAD_ANSWERS`].
    fn ask(&mut self, seat: usize, kind: &str, steps: usize) -> Result<Result<(String, String), String>, Halt> {
        let legal = self.table.actions();
        let mut bad = 0;
        loop {
            self.asked += 1;
            let answer = match self.seats[seat].ask(self.asked, kind, self.move_seconds, &legal) {
                Ok(a) => a,
                Err(e) => return Ok(Err(e.to_string())),
            };
            let (answer, reason, garbage) = match answer {
                Answer::Action(a) => match self.table.act(&a) {
                    Ok(event) => return Ok(Ok((a, event))),
                    Err(reason) => (a, reason.to_string(), false),
                },
                Answer::Garbage { line, why } => (line, why, true),
            };
            bad += 1;
            self.line(steps, &refusal_line(seat, &answer, &reason, garbage))?;
            if let Err(e) = self.seats[seat].refused(&format!("Error ({reason}): {answer}")) {
                return Ok(Err(e.to_string()));
            }
            if !self.seats[seat].patient() && bad >= MAX_BAD_ANSWERS {
                return Ok(Err(bad_answers(bad, &answer, &reason)));
            }
        }
    }
}
