//! The table-game subcommands: `referee`, `play`, `playtest` and `solve`
//! (`../shared/protocol.md` §5).

use crate::args::{Arg, Args, CliError};
use crate::kit;
use crate::table::playtest::{ShardHead, Summary, merge_shards, read_shard, shard_text};
use crate::table::record::{self, Replayed};
use crate::table::referee::{self, Played, RecordSink};
use crate::table::seats::make_seats;
use crate::table::{Optimum, Outcome, Settings, Table, Tally, parse_settings, scores_text};
use std::io::Write;
use std::time::{Duration, Instant};

/// Options common to the subcommands, read from the arguments after GAME.
#[derive(Clone)]
struct Opts {
    seed: u64,
    games: usize,
    seats: Option<Vec<String>>,
    record: Option<String>,
    /// `--pgn FILE`: each game on a variant's board (RBC) as PGN.
    pgn: Option<String>,
    replay: Option<String>,
    resume: Option<String>,
    csv: Option<String>,
    move_seconds: f64,
    /// `--optimum N`: states the open-deal solver may spend per game (0: no solving).
    optimum: u64,
    /// `--jobs N`: games played at once, on threads (playtest).
    jobs: usize,
    /// `--shard I/N`: this run plays games I-1, I-1+N, ... of the playtest (1/1: all).
    shard: (usize, usize),
    /// `--out FILE`: the shard file (playtest).
    out: Option<String>,
    /// `--report DIR`: the design report's directory (playtest).
    report: Option<String>,
    /// `--compare SETTINGS` (repeated): more columns of the report, each a set of settings.
    compare: Vec<Settings>,
    settings: Settings,
}

impl Default for Opts {
    fn default() -> Opts {
        Opts {
            seed: 1,
            games: 1,
            seats: None,
            record: None,
            pgn: None,
            replay: None,
            resume: None,
            csv: None,
            move_seconds: 30.0,
            optimum: 0,
            jobs: 1,
            shard: (1, 1),
            out: None,
            report: None,
            compare: Vec::new(),
            settings: Vec::new(),
        }
    }
}

impl Opts {
    /// Option `a` (one of the command's) set to `v`.
    fn set(&mut self, a: &str, v: String) -> Result<(), CliError> {
        let num = |what: &str| {
            v.parse::<u64>()
                .map_err(|_| CliError(format!("{a}: '{v}' is not {what}")))
        };
        match a {
            "--seed" => self.seed = num("a number")?,
            "--games" | "--deals" => {
                self.games = num("a number")? as usize;
                if self.games == 0 {
                    return Err(CliError(format!("{a} 0: nothing to do (give 1 or more)")));
                }
            }
            "--seats" => self.seats = Some(v.split(',').map(|s| s.trim().to_string()).collect()),
            "--record" => self.record = Some(v),
            "--pgn" => self.pgn = Some(v),
            "--replay" => self.replay = Some(v),
            "--resume" => self.resume = Some(v),
            "--csv" => self.csv = Some(v),
            "--out" => self.out = Some(v),
            "--report" => self.report = Some(v),
            "--compare" => {
                let words: Vec<String> = v.split_whitespace().map(String::from).collect();
                self.compare
                    .push(parse_settings(&words).map_err(|e| CliError(format!("--compare '{v}': {e}")))?);
            }
            "--shard" => self.shard = shard(&v)?,
            "--optimum" | "--budget" => self.optimum = num("a number of states")?,
            "--jobs" => {
                self.jobs = num("a number")? as usize;
                if !(1..=256).contains(&self.jobs) {
                    return Err(CliError(format!("--jobs {v}: give 1 to 256")));
                }
            }
            "--move-seconds" => {
                self.move_seconds = v
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
                    .ok_or_else(|| CliError(format!("{a}: '{v}' is not a number of seconds")))?
            }
            _ => unreachable!("checked against allowed"),
        }
        Ok(())
    }
}

/// `--shard I/N`: the I-th of N parts, 1 <= I <= N.
fn shard(v: &str) -> Result<(usize, usize), CliError> {
    let bad = || CliError(format!("--shard '{v}': want I/N with 1 <= I <= N, for example 2/8"));
    let (i, n) = v.split_once('/').ok_or_else(bad)?;
    let (i, n) = (
        i.parse::<usize>().map_err(|_| bad())?,
        n.parse::<usize>().map_err(|_| bad())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

fn opts(args: &[String], allowed: &[&str]) -> Result<Opts, CliError> {
    let mut o = Opts::default();
    let mut words = Vec::new();
    let mut args = Args::new("options", args);
    while let Some(arg) = args.next_arg()? {
        let a = match arg {
            Arg::Opt(a) => a,
            Arg::Word(w) => {
                words.push(w);
                continue;
            }
        };
        let a = a.as_str();
        if !allowed.contains(&a) {
            return Err(CliError(format!(
                "unknown option '{a}' here (options: {})",
                allowed.join(" ")
            )));
        }
        o.set(a, args.value(a)?)?;
    }
    o.settings = parse_settings(&words).map_err(CliError)?;
    Ok(o)
}

fn game_arg(args: &[String], cmd: &str) -> Result<String, CliError> {
    args.first()
        .filter(|a| !a.starts_with("--"))
        .cloned()
        .ok_or_else(|| CliError(format!("{cmd} needs a game ({})", kit::names().join(", "))))
}

/// `menagerie referee GAME [--seed N] [SETTINGS]`: the rules console.
pub fn referee(args: &[String]) -> Result<(), CliError> {
    let name = game_arg(args, "referee")?;
    let o = opts(&args[1..], &["--seed"])?;
    let mut table = kit::new_table(&name, &o.settings).map_err(CliError)?;
    crate::table::console::run(
        table.as_mut(),
        o.seed,
        std::io::stdin().lock(),
        std::io::stdout().lock(),
    );
    Ok(())
}

/// Game `g` of a playtest: its tally (with the open-deal optimum when asked) and its outcome.
fn playtest_game(name: &str, o: &Opts, specs: &[String], g: usize) -> Result<(usize, Tally, String), CliError> {
    let seed = o.seed.wrapping_add(g as u64);
    let (p, table) = play_one(name, o, specs, seed, &mut |_: &str| Ok(()))?;
    let mut tally = table.tally();
    if o.optimum > 0 {
        // The same deal with every order known: what the seats' play cost against the best.
        let best = table
            .deal_optimum(o.optimum)
            .ok_or_else(|| CliError(format!("--optimum: {name} has no open-deal solver (solitaires only)")))?;
        let score = p.outcome.scores.first().copied().unwrap_or(0.0);
        tally.push(("open-deal optimum".into(), best.score));
        tally.push(("optimum proved".into(), f64::from(u8::from(best.proved))));
        tally.push(("optimum less score".into(), best.score - score));
    }
    crate::table::playtest::tally_end(&mut tally, &p.outcome);
    Ok((g, tally, p.outcome.to_string()))
}

/// Plays one game of `name` with seats made from `specs`; returns how it went and the final
/// state. Each record line goes to `record` as it happens.
fn play_one(
    name: &str,
    o: &Opts,
    specs: &[String],
    seed: u64,
    record: &mut dyn FnMut(&str) -> Result<(), String>,
) -> Result<(Played, Box<dyn Table>), CliError> {
    let mut table = kit::new_table(name, &o.settings).map_err(CliError)?;
    let mut seats = make_seats(table.as_ref(), specs, seed, o.move_seconds).map_err(CliError)?;
    let p = referee::play_recorded(
        table.as_mut(),
        &mut seats,
        seed,
        specs,
        &o.settings,
        o.move_seconds,
        record,
    )
    .map_err(|h| CliError(format!("game stopped after {} steps: {}", h.steps, h.why)))?;
    Ok((p, table))
}

/// A record sink writing each line to `file` and flushing it at once, so that a game cut short
/// keeps every step made.
fn line_writer(mut file: std::fs::File, name: String) -> impl FnMut(&str) -> Result<(), String> + Send {
    move |line: &str| {
        // One write a line: a line cut short by the end of the program is its last.
        file.write_all(format!("{line}\n").as_bytes())
            .and_then(|_| file.flush())
            .map_err(|e| format!("--record {name}: {e}"))
    }
}

fn result_line(i: usize, p: &Played) -> String {
    format!("game {}: {} ({} steps)", i + 1, p.outcome, p.steps)
}

/// `menagerie solve GAME [--deals N] [--seed N] [--budget N] [--csv FILE] [KEY=VALUE...]`: deals a
/// solitaire as `play` and `playtest` do with the same seeds, and solves each deal with every
/// order known: the best score, whether it is proved, and the time each took.
pub fn solve(args: &[String]) -> Result<(), CliError> {
    let name = game_arg(args, "solve")?;
    let o = opts(&args[1..], &["--deals", "--seed", "--budget", "--csv"])?;
    let mut csv = String::from("seed,score,proved,states,ms\n");
    // No --budget (or 0): two million states a deal.
    let budget = if o.optimum == 0 { 2_000_000 } else { o.optimum };
    let mut deals = Vec::new();
    let start = Instant::now();
    let mut last = Instant::now();
    for g in 0..o.games {
        let seed = o.seed.wrapping_add(g as u64);
        let mut table = kit::new_table(&name, &o.settings).map_err(CliError)?;
        referee::deal(table.as_mut(), seed).map_err(CliError)?;
        let t = Instant::now();
        let best = table
            .deal_optimum(budget)
            .ok_or_else(|| CliError(format!("{name} has no open-deal solver (solitaires only)")))?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        csv += &format!(
            "{seed},{},{},{},{ms:.3}\n",
            best.score,
            u8::from(best.proved),
            best.nodes
        );
        if o.games <= 20 {
            println!(
                "deal {seed}: {} {}, {} states, {ms:.1} ms: {}",
                if best.proved {
                    "optimum"
                } else {
                    "best found (not proved)"
                },
                best.score,
                best.nodes,
                best.plan.join(" ")
            );
        } else if last.elapsed() > Duration::from_secs(2) || g + 1 == o.games {
            last = Instant::now();
            eprintln!(
                "solve {name}: {}/{} deals, {:.1} s",
                g + 1,
                o.games,
                start.elapsed().as_secs_f64()
            );
        }
        deals.push((seed, best, ms));
    }
    print_solved(&name, &o, budget, &deals, start.elapsed().as_secs_f64());
    if let Some(f) = o.csv {
        std::fs::write(&f, csv).map_err(|e| CliError(format!("--csv {f}: {e}")))?;
    }
    Ok(())
}

/// `solve`'s summary of its deals (seed, best play, milliseconds): how many are proved, the
/// time a deal took, and the scores' spread.
fn print_solved(name: &str, o: &Opts, budget: u64, deals: &[(u64, Optimum, f64)], seconds: f64) {
    let proved = deals.iter().filter(|d| d.1.proved).count();
    let nodes: u64 = deals.iter().map(|d| d.1.nodes).sum();
    let mut millis: Vec<f64> = deals.iter().map(|d| d.2).collect();
    // The first slowest deal.
    let worst = deals
        .iter()
        .fold((0.0f64, 0u64), |w, d| if d.2 > w.0 { (d.2, d.0) } else { w });
    millis.sort_by(f64::total_cmp);
    let q = |x: f64| crate::table::playtest::quantile(&millis, x);
    println!(
        "solve {name}: {} deals, seeds {}..{}, budget {budget} states a deal, {seconds:.1} s",
        o.games,
        o.seed,
        o.seed.wrapping_add(o.games as u64 - 1),
    );
    println!(
        "proved optimal: {proved} of {} ({:.1}%); states per deal: {:.0}",
        o.games,
        100.0 * proved as f64 / o.games as f64,
        nodes as f64 / o.games as f64
    );
    println!(
        "time per deal: median {:.1} ms, 90% {:.1} ms, 99% {:.1} ms, worst {:.1} ms (seed {})",
        q(0.5),
        q(0.9),
        q(0.99),
        worst.0,
        worst.1
    );
    // Unproved deals give only a lower bound: the mean over all is the best found; the proved
    // deals' mean is the optimum.
    let scores: Vec<f64> = deals.iter().map(|d| d.1.score).collect();
    if proved == o.games {
        print!("{}", crate::table::playtest::spread("optimum", &scores));
    } else {
        print!("{}", crate::table::playtest::spread("best found", &scores));
        let exact: Vec<f64> = deals.iter().filter(|d| d.1.proved).map(|d| d.1.score).collect();
        if !exact.is_empty() {
            print!(
                "{}",
                crate::table::playtest::spread(&format!("optimum ({proved} proved deals)"), &exact)
            );
        }
    }
}

/// `menagerie play GAME --seats S,S,.. [--seed N] [--games N] [--record FILE] [SETTINGS]`,
/// `menagerie play --replay FILE` or `menagerie play --resume FILE`.
pub fn play(args: &[String]) -> Result<(), CliError> {
    if args.first().is_some_and(|a| a == "--replay") {
        let o = opts(args, &["--replay", "--move-seconds"])?;
        return replay(o.replay.as_deref().unwrap_or(""), o.move_seconds);
    }
    if args.first().is_some_and(|a| a == "--resume") {
        let o = opts(args, &["--resume", "--move-seconds"])?;
        return resume(o.resume.as_deref().unwrap_or(""), o.move_seconds);
    }
    let name = game_arg(args, "play")?;
    let o = opts(
        &args[1..],
        &[
            "--seats",
            "--seed",
            "--games",
            "--record",
            "--pgn",
            "--move-seconds",
            "--replay",
        ],
    )?;
    if let Some(file) = &o.replay {
        return replay(file, o.move_seconds);
    }
    let specs = o
        .seats
        .clone()
        .ok_or_else(|| CliError("play needs --seats S,S,... (engine, mcts, random, human, cmd:PROGRAM)".into()))?;
    let mut record: RecordSink = match &o.record {
        Some(f) => Box::new(line_writer(
            std::fs::File::create(f).map_err(|e| CliError(format!("--record {f}: {e}")))?,
            f.clone(),
        )),
        None => Box::new(|_: &str| Ok(())),
    };
    let mut pgn_file = match &o.pgn {
        Some(f) => {
            let fresh = kit::new_table(&name, &o.settings).map_err(CliError)?;
            if fresh.board_moves().is_none() || fresh.seats() != 2 {
                return Err(CliError(format!(
                    "--pgn: {name} is not played on a variant's board by two seats (its record is --record's)"
                )));
            }
            Some((
                std::fs::File::create(f).map_err(|e| CliError(format!("--pgn {f}: {e}")))?,
                f,
            ))
        }
        None => None,
    };
    let mut totals = vec![0.0; specs.len()];
    let mut results: Vec<(String, usize)> = Vec::new();
    for g in 0..o.games {
        let seed = o.seed.wrapping_add(g as u64);
        let (p, table) = play_one(&name, &o, &specs, seed, &mut record)?;
        println!("{}", result_line(g, &p));
        if let Some((file, f)) = &mut pgn_file {
            let text = table_pgn(table.as_ref(), &specs, g, &p.outcome).map_err(|e| CliError(format!("--pgn: {e}")))?;
            writeln!(file, "{text}").map_err(|e| CliError(format!("--pgn {f}: {e}")))?;
        }
        for (t, s) in totals.iter_mut().zip(&p.outcome.scores) {
            *t += s;
        }
        match results.iter_mut().find(|r| r.0 == p.outcome.result) {
            Some(r) => r.1 += 1,
            None => results.push((p.outcome.result.clone(), 1)),
        }
    }
    let counts: Vec<String> = results.iter().map(|(r, n)| format!("{r} {n}")).collect();
    println!(
        "summary: {} games; results: {}; total scores by seat: {}",
        o.games,
        counts.join(", "),
        scores_text(&totals)
    );
    Ok(())
}

/// A finished two-seat game on a variant's board as PGN: seat 0 White, seat 1 Black, the
/// moves that happened (a pass as `--`), the result from the scores.
fn table_pgn(table: &dyn Table, specs: &[String], game: usize, outcome: &Outcome) -> Result<String, String> {
    let (variant, moves) = table.board_moves().ok_or("the game has no board of a variant's")?;
    let v = crate::games::default_variants()
        .get(variant)
        .ok_or_else(|| format!("no variant '{variant}'"))?;
    let mut s = crate::engine::new_session(v);
    for (i, m) in moves.iter().enumerate() {
        let text = if m == "pass" { crate::pgn::PASS } else { m.as_str() };
        s.play_text(text, crate::engine::Notation::Pgn)
            .map_err(|e| format!("move {}: {e}", i / 2 + 1))?;
    }
    let result = match outcome.scores.as_slice() {
        [w, b] if w > b => "1-0",
        [w, b] if w < b => "0-1",
        [_, _] => "1/2-1/2",
        _ => "*",
    };
    let event = format!("menagerie play {}", table.info().name);
    let round = (game + 1).to_string();
    let (white, black) = (specs[0].as_str(), specs[1].as_str());
    Ok(s.pgn(
        &[
            ("Event", &event),
            ("Round", &round),
            ("White", white),
            ("Black", black),
            ("Termination", &outcome.reason),
        ],
        result,
    ))
}

/// Replays a record file: every game in it, checked line by line.
fn replay(file: &str, move_seconds: f64) -> Result<(), CliError> {
    let text = std::fs::read_to_string(file).map_err(|e| CliError(format!("--replay {file}: {e}")))?;
    let games = record::games(&text, kit::new_table).map_err(|e| CliError(format!("{file}: {e}")))?;
    let (mut done, mut cut) = (0, 0);
    for (k, g) in games.iter().enumerate() {
        match record::replay(g, kit::new_table, move_seconds, None).map_err(|e| CliError(format!("{file}: {e}")))? {
            Replayed::Agrees(p) => {
                done += 1;
                println!("game {}: {} (replayed, {} steps agree)", k + 1, p.outcome, p.steps);
            }
            Replayed::Unfinished(steps) => {
                cut += 1;
                println!(
                    "game {}: unfinished at step {steps} (replayed, {steps} steps agree; 'play --resume {file}' plays on)",
                    k + 1
                );
            }
        }
    }
    println!(
        "replay: {} games agree with the record{}",
        done + cut,
        if cut > 0 {
            format!(", {cut} unfinished")
        } else {
            String::new()
        }
    );
    Ok(())
}

/// Plays on the last game of a record cut short: the record is replayed (checked as by
/// `--replay`), then the same seats play on and the new lines are appended to the file.
fn resume(file: &str, move_seconds: f64) -> Result<(), CliError> {
    let err = |e: String| CliError(format!("--resume {file}: {e}"));
    let text = std::fs::read_to_string(file).map_err(|e| err(e.to_string()))?;
    let games = record::games(&text, kit::new_table).map_err(&err)?;
    let k = games.len();
    let g = &games[k - 1];
    if g.finished {
        return Err(err(format!("game {k}, its last, is finished: nothing to resume")));
    }
    // Keep the whole lines of the file; a last line cut in the middle goes (one that is whole
    // but lacks its newline stays, and gets it).
    let tail_start = text.rfind('\n').map_or(0, |i| i + 1);
    let tail = &text[tail_start..];
    let keep = if tail.trim().is_empty() || crate::table::record_line::Line::parse(tail).is_ok() {
        text.len()
    } else {
        tail_start
    };
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(file)
        .map_err(|e| err(e.to_string()))?;
    f.set_len(keep as u64).map_err(|e| err(e.to_string()))?;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(file)
        .map_err(|e| err(e.to_string()))?;
    if keep > 0 && !text[..keep].trim_end_matches([' ', '\t', '\r']).ends_with('\n') {
        writeln!(f).map_err(|e| err(e.to_string()))?;
    }
    eprintln!(
        "resume: game {k} ({}, seed {}) from its {} recorded lines",
        g.header.game,
        g.header.seed,
        g.lines.len()
    );
    let append = Box::new(line_writer(f, file.to_string()));
    match record::replay(g, kit::new_table, move_seconds, Some(append)).map_err(&err)? {
        Replayed::Agrees(p) => {
            println!("game {k}: {} ({} steps, resumed)", p.outcome, p.steps);
            Ok(())
        }
        Replayed::Unfinished(steps) => Err(err(format!("stopped at step {steps}"))),
    }
}

/// `menagerie playtest GAME --games N [--seed N] [--seats ...] [--csv FILE] [--jobs N]
/// [--shard I/N --out FILE] [SETTINGS]`: self-play statistics; `playtest --merge FILE...
/// [--csv FILE]` reports the shards of one playtest as one run.
pub fn playtest(args: &[String]) -> Result<(), CliError> {
    if args.first().is_some_and(|a| a == "--merge") {
        return playtest_merge(&args[1..]);
    }
    let name = game_arg(args, "playtest")?;
    let o = opts(
        &args[1..],
        &[
            "--games",
            "--seed",
            "--seats",
            "--csv",
            "--move-seconds",
            "--optimum",
            "--jobs",
            "--shard",
            "--out",
            "--report",
            "--compare",
        ],
    )?;
    check_playtest_opts(&o)?;
    let probe = kit::new_table(&name, &o.settings).map_err(CliError)?;
    let specs = o
        .seats
        .clone()
        .unwrap_or_else(|| vec!["engine".to_string(); probe.seats()]);
    crate::table::seats::check_specs(probe.as_ref(), &specs).map_err(CliError)?;
    let (shard, of) = o.shard;
    // This run's games: all, or every N-th from I-1.
    let mine: Vec<usize> = (shard - 1..o.games).step_by(of).collect();
    if mine.is_empty() {
        return Err(CliError(format!(
            "--shard {shard}/{of}: no game of {} falls to it",
            o.games
        )));
    }
    let start = Instant::now();
    let tallies = play_games(&name, &o, &specs, &mine)?;
    let secs = start.elapsed().as_secs_f64();
    let games: Vec<(usize, Tally)> = tallies
        .into_iter()
        .enumerate()
        .filter_map(|(g, t)| Some((g, t?)))
        .collect();
    if let Some(f) = &o.out {
        let head = ShardHead {
            game: name.clone(),
            settings: settings_words(&o.settings),
            seats: specs.join(","),
            seed: o.seed,
            games: o.games,
            shard,
            of,
            optimum: o.optimum,
        };
        std::fs::write(f, shard_text(&head, &games)).map_err(|e| CliError(format!("--out {f}: {e}")))?;
    }
    let title = playtest_title(&name, &o, &specs, mine.len(), secs);
    let tallies: Vec<Tally> = games.into_iter().map(|(_, t)| t).collect();
    report(probe.as_ref(), &title, tallies.clone(), o.optimum, o.csv.as_deref())?;
    if let Some(dir) = &o.report {
        design_report(args, &name, &o, &specs, tallies, dir)?;
    }
    Ok(())
}

/// The options of `playtest` that do not go together.
fn check_playtest_opts(o: &Opts) -> Result<(), CliError> {
    if !o.compare.is_empty() && o.report.is_none() {
        return Err(CliError(
            "--compare adds columns to --report DIR: give --report too".into(),
        ));
    }
    if o.report.is_some() && (o.shard.1 > 1 || o.out.is_some()) {
        return Err(CliError(
            "--report plays every game here: it does not go with --shard or --out".into(),
        ));
    }
    if o.shard.1 > 1 && o.out.is_none() {
        return Err(CliError(
            "--shard I/N needs --out FILE (the shard file for playtest --merge)".into(),
        ));
    }
    Ok(())
}

/// The first line of a playtest's report: the game, the games played (`played` of a shard's),
/// the seats and the time.
fn playtest_title(name: &str, o: &Opts, specs: &[String], played: usize, secs: f64) -> String {
    let (shard, of) = o.shard;
    if of > 1 {
        format!(
            "playtest {name}: shard {shard}/{of}, {} of {} games, seats {}, {secs:.1} s",
            played,
            o.games,
            specs.join(",")
        )
    } else {
        format!(
            "playtest {name}: {} games, seeds {}..{}, seats {}, {secs:.1} s",
            o.games,
            o.seed,
            o.seed.wrapping_add(o.games as u64 - 1),
            specs.join(",")
        )
    }
}

/// `--report DIR`: plays the same games under each `--compare` settings as well, prints their
/// reports, and writes `DIR/GAME.html` with every column.
fn design_report(
    args: &[String],
    name: &str,
    o: &Opts,
    specs: &[String],
    first: Vec<Tally>,
    dir: &str,
) -> Result<(), CliError> {
    use crate::table::report::{Column, html, settings_label};
    let summary_of = |tallies: Vec<Tally>| {
        let mut s = Summary::default();
        for t in tallies {
            s.add(t);
        }
        s
    };
    let mut columns = vec![Column {
        label: settings_label(&o.settings),
        summary: summary_of(first),
    }];
    for settings in &o.compare {
        let mut with = o.clone();
        // The compared settings override the base ones of the same key.
        with.settings = o
            .settings
            .iter()
            .filter(|(k, _)| !settings.iter().any(|(c, _)| c == k))
            .chain(settings)
            .cloned()
            .collect();
        with.csv = None;
        kit::new_table(name, &with.settings).map_err(CliError)?;
        let start = Instant::now();
        let all: Vec<usize> = (0..with.games).collect();
        let tallies: Vec<Tally> = play_games(name, &with, specs, &all)?.into_iter().flatten().collect();
        let probe = kit::new_table(name, &with.settings).map_err(CliError)?;
        let title = format!(
            "playtest {name} with {}: {} games, seeds {}..{}, {:.1} s",
            settings_words(&with.settings),
            with.games,
            with.seed,
            with.seed.wrapping_add(with.games as u64 - 1),
            start.elapsed().as_secs_f64()
        );
        report(probe.as_ref(), &title, tallies.clone(), with.optimum, None)?;
        columns.push(Column {
            label: settings_label(&with.settings),
            summary: summary_of(tallies),
        });
    }
    let probe = kit::new_table(name, &o.settings).map_err(CliError)?;
    let command = format!(
        "menagerie playtest {}",
        args.iter()
            .map(|a| if a.contains(' ') { format!("'{a}'") } else { a.clone() })
            .collect::<Vec<_>>()
            .join(" ")
    );
    let page = html(probe.info(), &command, &columns, &["plies"]);
    std::fs::create_dir_all(dir).map_err(|e| CliError(format!("--report {dir}: {e}")))?;
    let file = std::path::Path::new(dir).join(format!("{name}.html"));
    std::fs::write(&file, page).map_err(|e| CliError(format!("--report {}: {e}", file.display())))?;
    eprintln!("playtest {name}: report written to {}", file.display());
    Ok(())
}

/// Plays games `mine` of a playtest on `o.jobs` threads, progress on stderr; the tallies by
/// game number (`None` for games not in `mine`).
fn play_games(name: &str, o: &Opts, specs: &[String], mine: &[usize]) -> Result<Vec<Option<Tally>>, CliError> {
    let start = Instant::now();
    let mut last = Instant::now();
    // Each job takes the next game not yet taken (games differ in length: no job waits idle
    // while another has several left); the tallies are kept by game number, so any number of
    // jobs gives the same report as one.
    let jobs = o.jobs.min(mine.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut tallies: Vec<Option<Tally>> = vec![None; o.games];
    let (tx, rx) = std::sync::mpsc::channel::<Result<(usize, Tally, String), CliError>>();
    std::thread::scope(|scope| -> Result<(), CliError> {
        for _ in 0..jobs {
            let (tx, next) = (tx.clone(), &next);
            scope.spawn(move || {
                let taken = std::iter::from_fn(|| Some(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
                for k in taken.take_while(|&k| k < mine.len()) {
                    let r = playtest_game(name, o, specs, mine[k]);
                    let failed = r.is_err();
                    if tx.send(r).is_err() || failed {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut done = 0;
        for r in rx {
            let (g, tally, outcome) = r?;
            tallies[g] = Some(tally);
            done += 1;
            if last.elapsed() > Duration::from_secs(2) || done == mine.len() {
                last = Instant::now();
                let secs = start.elapsed().as_secs_f64();
                eprintln!(
                    "playtest {name}: {done}/{} games, {secs:.1} s, last: {outcome}",
                    mine.len()
                );
            }
        }
        Ok(())
    })?;
    Ok(tallies)
}

/// Settings as the words of a command line (`-` for none).
fn settings_words(settings: &Settings) -> String {
    if settings.is_empty() {
        return "-".into();
    }
    crate::table::report::settings_words(settings)
}

/// `playtest --merge FILE... [--csv FILE]`: the report of one playtest from all its shards.
fn playtest_merge(args: &[String]) -> Result<(), CliError> {
    let mut files = Vec::new();
    let mut csv = None;
    let mut args = Args::new("playtest --merge", args);
    while let Some(arg) = args.next_arg()? {
        match arg {
            Arg::Opt(a) if a == "--csv" => csv = Some(args.value(&a)?),
            Arg::Opt(a) => {
                return Err(CliError(format!(
                    "unknown option '{a}' here (playtest --merge FILE... [--csv FILE])"
                )));
            }
            Arg::Word(f) => files.push(f),
        }
    }
    let mut shards = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).map_err(|e| CliError(format!("{f}: {e}")))?;
        shards.push(read_shard(&text).map_err(|e| CliError(format!("{f}: {e}")))?);
    }
    let (head, tallies) = merge_shards(shards).map_err(CliError)?;
    let words: Vec<String> = if head.settings == "-" {
        Vec::new()
    } else {
        head.settings.split(' ').map(String::from).collect()
    };
    let settings = parse_settings(&words).map_err(CliError)?;
    let probe = kit::new_table(&head.game, &settings).map_err(CliError)?;
    let title = format!(
        "playtest {}: {} games, seeds {}..{}, seats {}, merged from {} shards",
        head.game,
        head.games,
        head.seed,
        head.seed.wrapping_add(head.games as u64 - 1),
        head.seats,
        head.of
    );
    report(probe.as_ref(), &title, tallies, head.optimum, csv.as_deref())
}

/// Prints a playtest's report (title, means, ratios, spreads) and writes its CSV.
fn report(
    probe: &dyn Table,
    title: &str,
    tallies: Vec<Tally>,
    optimum: u64,
    csv: Option<&str>,
) -> Result<(), CliError> {
    let mut summary = Summary::default();
    for t in &tallies {
        summary.add(t.clone());
    }
    println!("{title}");
    print!("{}", summary.report(probe.info().ratios));
    let mut spread_keys = probe.info().histograms.to_vec();
    if optimum > 0 {
        spread_keys.extend(["open-deal optimum", "optimum less score"]);
    }
    print!("{}", summary.spreads(&spread_keys));
    if let Some(f) = csv {
        let keys = summary.keys();
        let mut text = keys.join(",") + "\n";
        for t in &tallies {
            let row: Vec<String> = keys
                .iter()
                .map(|k| {
                    t.iter()
                        .filter(|(x, _)| x == k)
                        .map(|(_, v)| v)
                        .fold(0.0, |a, b| a + b)
                        .to_string()
                })
                .collect();
            text += &(row.join(",") + "\n");
        }
        std::fs::write(f, text).map_err(|e| CliError(format!("--csv {f}: {e}")))?;
    }
    Ok(())
}
