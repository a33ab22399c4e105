//! The referee: plays one game of a table game between seats. It alone holds the true state,
//! draws chance from its seeded generator, asks the acting seat, tells every seat what it may
//! see (only [`super::Table::observe`]) and the public events, and writes the game record.

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
    // A record line, or the game halts.
    macro_rules! line {
        ($steps:expr, $text:expr) => {
            if let Err(why) = record(&$text) {
                for s in seats.iter_mut() {
                    s.end(&Outcome {
                        scores: vec![0.5; n],
                        result: "unfinished".into(),
                        reason: why.clone(),
                    });
                }
                return Err(Halt { steps: $steps, why });
            }
        };
    }
    for (i, s) in seats.iter_mut().enumerate() {
        if let Err(e) = s.start(table.info().name, i, n, &table.roles(i), settings) {
            let o = table.forfeit(i, &e);
            return finish(record, seats, o, Some((i, &e)), 0);
        }
    }
    let mut seen: Vec<String> = vec![String::new(); n];
    let mut asked = 0u64;
    for steps in 0..MAX_STEPS {
        // Every seat sees the state it acts in, and the last one (the end may show more; a
        // seat that cannot read it no longer forfeits anything).
        let actor = table.actor();
        let over = actor == Actor::Over;
        for (i, s) in seats.iter_mut().enumerate() {
            let obs = table.observe(i);
            if obs != seen[i] {
                if let Err(e) = s.see(&obs)
                    && !over
                {
                    let o = table.forfeit(i, &e);
                    return finish(record, seats, o, Some((i, &e)), steps);
                }
                seen[i] = obs;
            }
        }
        let (who, action, event) = match actor {
            Actor::Over => {
                let o = table.outcome().unwrap_or_else(|| Outcome {
                    scores: vec![0.5; n],
                    result: "draw".into(),
                    reason: "no outcome".into(),
                });
                return finish(record, seats, o, None, steps);
            }
            Actor::Chance => match table.draw_chance(&mut rng) {
                Ok((a, e)) => (None, a, e),
                Err(e) => {
                    let o = Outcome {
                        scores: vec![0.5; n],
                        result: "draw".into(),
                        reason: format!("referee: {e}"),
                    };
                    return finish(record, seats, o, None, steps);
                }
            },
            Actor::Seat(seat, kind) => {
                let legal = table.actions();
                let mut bad = 0;
                loop {
                    asked += 1;
                    let answer = match seats[seat].ask(asked, kind, move_seconds, &legal) {
                        Ok(a) => a,
                        Err(e) => {
                            let o = table.forfeit(seat, &e);
                            return finish(record, seats, o, Some((seat, &e)), steps);
                        }
                    };
                    let (answer, reason, garbage) = match answer {
                        Answer::Action(a) => match table.act(&a) {
                            Ok(event) => break (Some(seat), a, event),
                            Err(reason) => (a, reason.to_string(), false),
                        },
                        Answer::Garbage { line, why } => (line, why, true),
                    };
                    bad += 1;
                    line!(steps, refusal_line(seat, &answer, &reason, garbage));
                    let msg = format!("Error ({reason}): {answer}");
                    if let Err(e) = seats[seat].refused(&msg) {
                        let o = table.forfeit(seat, &e);
                        return finish(record, seats, o, Some((seat, &e)), steps);
                    }
                    if !seats[seat].patient() && bad >= MAX_BAD_ANSWERS {
                        let why = bad_answers(bad, &answer, &reason);
                        let o = table.forfeit(seat, &why);
                        return finish(record, seats, o, Some((seat, &why)), steps);
                    }
                }
            }
        };
        line!(steps, step_line(who, &action, &event));
        for (i, s) in seats.iter_mut().enumerate() {
            if let Err(e) = s.event(&event) {
                let o = table.forfeit(i, &e);
                return finish(record, seats, o, Some((i, &e)), steps + 1);
            }
        }
    }
    let o = Outcome {
        scores: vec![0.5; n],
        result: "draw".into(),
        reason: format!("referee: no end after {MAX_STEPS} steps"),
    };
    finish(record, seats, o, None, MAX_STEPS)
}
