//! The referee: plays one game of a table game between seats. It alone holds the true state,
//! draws chance from its seeded generator, asks the acting seat, tells every seat what it may
//! see (only [`super::Table::observe`]) and the public events, and writes the game record.

use super::json::Json;
use super::seats::Seat;
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
    /// The record, one JSON object a line (empty unless asked for).
    pub record: Vec<String>,
}

/// The record's first line: game, seed, seats and settings.
pub fn header(game: &str, seed: u64, seats: &[String], settings: &Settings) -> String {
    Json::Obj(vec![
        ("game".into(), Json::Str(game.into())),
        // As text: a u64 does not fit a JSON number exactly.
        ("seed".into(), Json::Str(seed.to_string())),
        (
            "seats".into(),
            Json::Arr(seats.iter().map(|s| Json::Str(s.clone())).collect()),
        ),
        (
            "settings".into(),
            Json::Obj(
                settings
                    .iter()
                    .map(|(k, v)| (k.clone(), Json::Str(v.clone())))
                    .collect(),
            ),
        ),
    ])
    .text()
}

/// The record line of one step (`seat` `None`: chance).
pub fn step_line(seat: Option<usize>, action: &str, event: &str) -> String {
    Json::Obj(vec![
        (
            "seat".into(),
            seat.map_or(Json::Str("chance".into()), |s| Json::Num(s as f64)),
        ),
        ("action".into(), Json::Str(action.into())),
        ("event".into(), Json::Str(event.into())),
    ])
    .text()
}

/// The record's last line.
pub fn result_line(o: &Outcome, forfeit: Option<usize>) -> String {
    let mut kv = vec![
        ("result".into(), Json::Str(o.result.clone())),
        (
            "scores".into(),
            Json::Arr(o.scores.iter().map(|&s| Json::Num(s)).collect()),
        ),
        ("reason".into(), Json::Str(o.reason.clone())),
    ];
    if let Some(s) = forfeit {
        kv.push(("forfeit".into(), Json::Num(s as f64)));
    }
    Json::Obj(kv).text()
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
    let mut record = Vec::new();
    if keep_record {
        record.push(header(table.name(), seed, seat_names, settings));
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let n = table.seats();
    let finish = |seats: &mut [Box<dyn Seat>], outcome: Outcome, forfeit, steps, mut record: Vec<String>| {
        for s in seats.iter_mut() {
            s.end(&outcome);
        }
        if keep_record {
            record.push(result_line(&outcome, forfeit));
        }
        Played { outcome, steps, record }
    };
    for (i, s) in seats.iter_mut().enumerate() {
        if let Err(e) = s.start(table.name(), i, n, &table.roles(i), settings) {
            let o = table.forfeit(i, &e);
            return finish(seats, o, Some(i), 0, record);
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
                    return finish(seats, o, Some(i), steps, record);
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
                return finish(seats, o, None, steps, record);
            }
            Actor::Chance => match table.draw_chance(&mut rng) {
                Ok((a, e)) => (None, a, e),
                Err(e) => {
                    let o = Outcome {
                        scores: vec![0.5; n],
                        result: "draw".into(),
                        reason: format!("referee: {e}"),
                    };
                    return finish(seats, o, None, steps, record);
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
                            return finish(seats, o, Some(seat), steps, record);
                        }
                    };
                    match table.act(&answer) {
                        Ok(event) => break (Some(seat), answer, event),
                        Err(reason) => {
                            bad += 1;
                            let msg = format!("Error ({reason}): {answer}");
                            let gone = seats[seat].refused(&msg).err();
                            if gone.is_some() || (!seats[seat].patient() && bad >= MAX_BAD_ANSWERS) {
                                let why = gone.unwrap_or(format!("{bad} bad answers, the last: {answer}"));
                                let o = table.forfeit(seat, &why);
                                return finish(seats, o, Some(seat), steps, record);
                            }
                        }
                    }
                }
            }
        };
        if keep_record {
            record.push(step_line(who, &action, &event));
        }
        for (i, s) in seats.iter_mut().enumerate() {
            if let Err(e) = s.event(&event) {
                let o = table.forfeit(i, &e);
                return finish(seats, o, Some(i), steps + 1, record);
            }
        }
    }
    let o = Outcome {
        scores: vec![0.5; n],
        result: "draw".into(),
        reason: format!("referee: no end after {MAX_STEPS} steps"),
    };
    finish(seats, o, None, MAX_STEPS, record)
}

/// Replays a record on `table` (a fresh game with the record's settings): every action and
/// chance outcome is applied again and every event and the result must come out the same.
/// Returns the outcome.
pub fn replay(table: &mut dyn Table, lines: &[String]) -> Result<Outcome, String> {
    for (i, line) in lines.iter().enumerate().skip(1) {
        let at = |m: String| format!("record line {}: {m}", i + 1);
        let v = Json::parse(line).map_err(at)?;
        if let Some(result) = v.get("result") {
            let reason = v.get("reason").and_then(Json::as_str).unwrap_or("");
            let scores: Vec<f64> = match v.get("scores") {
                Some(Json::Arr(a)) => a.iter().filter_map(Json::as_f64).collect(),
                _ => Vec::new(),
            };
            let o = match v.get("forfeit").and_then(Json::as_f64) {
                Some(seat) => {
                    let seat = seat as usize;
                    let why = reason
                        .strip_prefix(&format!("seat {seat} forfeits: "))
                        .unwrap_or(reason);
                    table.forfeit(seat, why)
                }
                None => table
                    .outcome()
                    .ok_or_else(|| at("the record ends but the game does not".into()))?,
            };
            if Some(o.result.as_str()) != result.as_str() || o.reason != reason || o.scores != scores {
                return Err(at(format!(
                    "the record says {result:?} {scores:?} {reason:?}, the replay {o}"
                )));
            }
            return Ok(o);
        }
        let action = v
            .get("action")
            .and_then(Json::as_str)
            .ok_or_else(|| at("no action".into()))?;
        let event = v.get("event").and_then(Json::as_str).unwrap_or("");
        let got = match v.get("seat") {
            Some(Json::Str(s)) if s == "chance" => table.act_chance(action),
            Some(Json::Num(s)) => {
                let seat = *s as usize;
                match table.actor() {
                    Actor::Seat(a, _) if a == seat => table.act(action),
                    other => Err(format!("the record has seat {seat} act, the game asks {other}")),
                }
            }
            _ => Err("no seat".into()),
        }
        .map_err(|e| at(format!("{e}: {action}")))?;
        if got != event {
            return Err(at(format!("event {got:?}, the record says {event:?}")));
        }
    }
    Err("the record has no result line".into())
}
