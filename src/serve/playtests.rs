//! Playtests started from the page: the same self-play as `menagerie playtest` (engine seats,
//! seeds `seed..seed+games`), on a background thread, with progress and the figures as JSON
//! for the page's pictures.

use crate::kit;
use crate::table::playtest::{Summary, mean_se, tally_end};
use crate::table::referee;
use crate::table::report::{self, figure};
use crate::table::seats::make_seats;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Most games one playtest may ask for.
pub const MAX_GAMES: usize = 10_000;

/// A playtest and what it has found so far.
pub struct Playtest {
    game: String,
    /// The settings as words ([`report::settings_label`]).
    settings: String,
    games: usize,
    summary: Summary,
    /// The game's descriptor: its ratios and histograms.
    info: &'static crate::table::GameInfo,
    started: Instant,
    seconds: f64,
    finished: bool,
    error: Option<String>,
    /// Set to stop the playtest after the game in hand.
    pub stop: Arc<AtomicBool>,
}

/// Starts a playtest from the page's request.
pub fn start(req: &Value) -> Result<Arc<Mutex<Playtest>>, String> {
    let name = req
        .get("game")
        .and_then(Value::as_str)
        .ok_or("no game given")?
        .to_string();
    let settings = super::settings_of(req.get("settings").and_then(Value::as_str).unwrap_or(""))?;
    let games = match req.get("games").and_then(Value::as_f64) {
        Some(g) if g >= 1.0 && g <= MAX_GAMES as f64 && g.fract() == 0.0 => g as usize,
        _ => return Err(format!("games: a whole number from 1 to {MAX_GAMES}")),
    };
    let seed = super::seed_of(req)?.unwrap_or(1);
    let probe = kit::new_table(&name, &settings)?;
    let pt = Arc::new(Mutex::new(Playtest {
        game: name.clone(),
        settings: report::settings_label(&settings),
        games,
        summary: Summary::default(),
        info: probe.info(),
        started: Instant::now(),
        seconds: 0.0,
        finished: false,
        error: None,
        stop: Arc::new(AtomicBool::new(false)),
    }));
    let shared = Arc::clone(&pt);
    let stop = Arc::clone(&pt.lock().unwrap_or_else(|e| e.into_inner()).stop);
    std::thread::Builder::new()
        .name("playtest".into())
        .spawn(move || {
            let specs = vec!["engine".to_string(); probe.seats()];
            let mut error = None;
            for g in 0..games {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let seed = seed.wrapping_add(g as u64);
                // A game that panics is a bug: the playtest ends with it as its error.
                let played = std::panic::catch_unwind(|| -> Result<_, String> {
                    let mut table = kit::new_table(&name, &settings)?;
                    let mut seats = make_seats(table.as_ref(), &specs, seed, 10.0)?;
                    let p = referee::play(table.as_mut(), &mut seats, seed, &specs, &settings, false, 10.0);
                    let mut tally = table.tally();
                    tally_end(&mut tally, &p.outcome);
                    Ok(tally)
                })
                .unwrap_or_else(|_| Err(format!("game {} (seed {seed}) failed inside", g + 1)));
                let mut pt = shared.lock().unwrap_or_else(|e| e.into_inner());
                match played {
                    Ok(t) => pt.summary.add(t),
                    Err(e) => {
                        error = Some(e);
                        break;
                    }
                }
                pt.seconds = pt.started.elapsed().as_secs_f64();
            }
            let mut pt = shared.lock().unwrap_or_else(|e| e.into_inner());
            pt.error = error;
            pt.finished = true;
            pt.seconds = pt.started.elapsed().as_secs_f64();
        })
        .map_err(|e| format!("cannot start the playtest: {e}"))?;
    Ok(pt)
}

impl Playtest {
    /// The design report of the games played so far ([`report::html`]): the same page as
    /// `menagerie playtest GAME --report DIR` with these settings and seeds.
    pub fn report(&self) -> String {
        let command = format!(
            "the browser's playtest of {} with {} ({} of {} games{})",
            self.game,
            self.settings,
            self.summary.len(),
            self.games,
            if self.finished { "" } else { ", running" }
        );
        let column = report::Column {
            label: self.settings.clone(),
            summary: self.summary.clone(),
        };
        report::html(self.info, &command, &[column], &["plies"])
    }

    /// True once it has ended (all games, stopped or an error).
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Progress and figures for the page.
    pub fn view(&self, id: &str) -> Value {
        let s = &self.summary;
        let num = |x: f64| json!(if x.is_finite() { x } else { 0.0 });
        let mut means = Vec::new();
        let mut results = Vec::new();
        for k in s.keys() {
            let values = s.values(&k);
            let (m, se) = mean_se(&values);
            let total: f64 = values.iter().sum();
            if let Some(r) = k.strip_prefix("result: ") {
                results.push(json!({ "result": r, "count": num(total) }));
            }
            means.push(json!({ "key": k, "mean": num(m), "se": num(se), "total": num(total) }));
        }
        let ratios: Vec<Value> = self
            .info
            .ratios
            .iter()
            .filter_map(|(label, n, d)| {
                let (r, se, of) = s.ratio(n, d)?;
                Some(json!({ "label": label, "value": num(r), "se": num(se), "of": num(of) }))
            })
            .collect();
        let histograms: Vec<Value> = self
            .info
            .histograms
            .iter()
            .map(|k| json!({ "key": k, "values": s.values(k).into_iter().map(num).collect::<Vec<_>>() }))
            .collect();
        // The design questions with their 95 % intervals, as the HTML report has them.
        let questions: Vec<Value> = self
            .info
            .questions
            .iter()
            .map(|(q, key)| {
                let f = figure(s, key, self.info.ratios);
                json!({
                    "question": q,
                    "key": key,
                    "value": f.map(|f| num(f.0)),
                    "half": f.map(|f| num(f.1)),
                })
            })
            .collect();
        json!({
            "id": id,
            "game": self.game,
            "settings": self.settings,
            "questions": questions,
            "games": self.games,
            "done": s.len(),
            "seconds": num(self.seconds),
            "finished": self.finished,
            "error": self.error,
            "means": means,
            "ratios": ratios,
            "histograms": histograms,
            "results": results,
        })
    }
}
