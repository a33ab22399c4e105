//! Command line: argv -> subcommands. Every error is one line on stderr and exit code 2.

use crate::games::{self, AnyGame, Catalog, GameVisitor, default_variants};
use crate::notation::move_text;
use crate::perft;
use crate::position::{Game, Position};
use crate::rules::Rules;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// Deepest perft the CLI accepts.
pub const MAX_PERFT_DEPTH: u32 = 20;

const HELP: &str = "\
menagerie - a chess-variant engine

USAGE:
    menagerie [--ini FILE] COMMAND [ARGS]

COMMANDS:
    perft [--variant V] [--fen FEN] [--divide] DEPTH
                      count leaf nodes of the legal move tree; --divide prints
                      'move: count' per root move, a blank line, 'Nodes searched: N'
    bench             perft node counts and fixed-depth searches; then 'Bench: N' (the
                      signature) and, last, 'N nodes M nps' as OpenBench reads it
    --version         the engine's name and version
    pgn write VARIANT [--fen FEN] [MOVE...]
                      the game as PGN (moves in SAN or MMN; SAN where the variant has it)
    pgn read FILE     the variant and FEN after the file's last game
    datagen VARIANT --games N --nodes K --seed S --out FILE [--shard I/N]
                      self-play at K nodes a move from seeded random openings; writes
                      the quiet positions as 'FEN | RESULT' (1.0, 0.5, 0.0 for White);
                      --shard I/N plays games I, I+N, ... of N shards (no overlap);
                      progress on stderr
    tune --variant V --data FILE... --out WEIGHTS [--epochs N] [--l2 X]
                      fit the evaluation's weights (material, piece-square features,
                      mobility, terms) to datagen's results: the scaling constant, then
                      the weights (Adam, pulled towards the defaults by X, 0.0001); a
                      RESULT may be any target from 0 to 1 (a blend with a score);
                      writes 'eval.NAME = MG EG' lines for the variant's engine.ini
                      section; progress on stderr
    variants          list the variants of the loaded ini
    check-ini FILE    load an ini file and report the first problem, if any
    rbc-referee [V]   Reconnaissance Blind Chess referee on stdin/stdout (variant V, default
                      rbc): 'fen FEN', 'actions', 'play MOVE|pass', 'fen', 'end', 'quit'
    games             the table games: seats, chance, information, scores and every
                      setting with its choices
    referee GAME [--seed N] [KEY=VALUE...]
                      rules console of a table game on stdin/stdout: state [TEXT], actor,
                      actions, act ACTION, chance, observe SEAT, end, quit
    play GAME --seats S,S,... [--seed N] [--games N] [--record FILE] [--pgn FILE]
         [--move-seconds S] [KEY=VALUE...]
                      play table games; a seat is engine[:KEY=VALUE...], mcts[:KEY=VALUE...]
                      (iterations=N, seconds=S, explore=N, rollout=N, partner=N, depth=N,
                      pick=1, settle=0, seed=N), random, human or cmd:PROGRAM ARGS; --record writes
                      JSON lines; --pgn writes the games on a variant's board (rbc) as PGN
    play --replay FILE
                      replay a record, checking every step
    playtest GAME --games N [--seed N] [--seats S,...] [--csv FILE] [--optimum STATES]
         [--jobs N] [--shard I/N --out FILE] [KEY=VALUE...]
                      self-play statistics with standard errors (progress on stderr);
                      --optimum also solves each solitaire deal with the order known;
                      --jobs plays N games at once (the same figures as one job);
                      --shard plays games I-1, I-1+N, ... and writes their tallies;
                      --report DIR writes DIR/GAME.html, the game's design questions
                      answered with 95 % intervals, one column per --compare 'K=V ...'
    playtest --merge FILE... [--csv FILE]
                      the report of all the shards of one playtest, as one run's
    solve GAME [--deals N] [--seed N] [--budget STATES] [--csv FILE] [KEY=VALUE...]
                      solve the deals of a solitaire that has an open-deal solver, with
                      the order known: the best score, whether proved optimal, time per deal
    serve [--port N] [--host ADDR] [--any-seed]
                      play every game in a browser: serves the page and prints the
                      address to open (127.0.0.1:8080 unless told; --port 0 picks one);
                      --any-seed takes a table game's seed from the page even with
                      several people (tests: they could rebuild each other's cards)
    help, --help      this text

OPTIONS:
    --ini FILE        variants file to use instead of the built-in engine.ini
    --random          (protocol mode) start in CECP random mode: a small evaluation noise,
                      new for every game, so that engine matches vary

With no command, menagerie waits for 'uci' or 'xboard' on standard input and then speaks
that protocol (UCI_Variant / 'variant' select the game).";

/// The lines of [`HELP`] about `cmd` (`menagerie play --help`), if it is a command there.
fn command_help(cmd: &str) -> Option<String> {
    let lines: Vec<&str> = HELP.lines().collect();
    let starts = |l: &str| {
        l.strip_prefix("    ")
            .is_some_and(|r| !r.starts_with(' ') && r.split_whitespace().next() == Some(cmd))
    };
    let first = lines.iter().position(|l| starts(l))?;
    let mut out = vec!["USAGE:".to_string()];
    for (i, l) in lines.iter().enumerate().skip(first) {
        // A command's lines: its own, and any further form of it or text indented under it.
        let own = starts(l) || l.starts_with("         ") || l.starts_with("                      ");
        if i > first && (!own || l.trim().is_empty()) {
            break;
        }
        out.push(if starts(l) {
            format!("    menagerie {}", l.trim_start())
        } else {
            format!("          {l}")
        });
    }
    Some(out.join("\n"))
}

pub use crate::args::{Arg, Args, CliError};

/// Runs the command line; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    match run_inner(args) {
        Ok(()) => 0,
        Err(CliError(msg)) => {
            eprintln!("error: {msg}");
            2
        }
    }
}

/// The global options (`--ini FILE`, `--random`), which come before the command, and the
/// command's words (after it, every word is the command's).
fn global_options(args: &[String]) -> Result<(Option<Catalog>, bool, Vec<String>), CliError> {
    let mut words = lexopt::Parser::from_args(args.iter().cloned());
    let (mut set, mut random) = (None, false);
    let mut command = Vec::new();
    loop {
        let arg = words.next().map_err(|e| CliError(e.to_string()))?;
        let first = match arg {
            None => break,
            Some(lexopt::Arg::Long("ini")) => {
                let file = words.value().map_err(|_| CliError("--ini needs a file name".into()))?;
                let file = file.to_string_lossy();
                set = Some(Catalog::load(&file).map_err(|e| CliError(e.to_string()))?);
                continue;
            }
            Some(lexopt::Arg::Long("random")) => {
                random = true;
                continue;
            }
            // Anything else starts the command (`--help` and `--version` are commands too).
            Some(lexopt::Arg::Long(name)) => format!("--{name}"),
            Some(lexopt::Arg::Short(c)) => format!("-{c}"),
            Some(lexopt::Arg::Value(v)) => v.to_string_lossy().into_owned(),
        };
        command.push(first);
        command.extend(
            words
                .raw_args()
                .map_err(|e| CliError(e.to_string()))?
                .map(|a| a.to_string_lossy().into_owned()),
        );
        break;
    }
    Ok((set, random, command))
}

fn run_inner(args: &[String]) -> Result<(), CliError> {
    let (set, random, command) = global_options(args)?;
    let args = command.as_slice();
    let set = set.unwrap_or_else(|| default_variants().clone());
    if random && !args.is_empty() {
        return Err(CliError(
            "--random is for the protocol loop: give it without a command".into(),
        ));
    }
    let Some(cmd) = args.first().cloned() else {
        // No command: speak UCI or XBoard on stdin/stdout.
        return match crate::protocol::run(set, random) {
            0 => Ok(()),
            code => Err(CliError(format!("protocol loop ended with code {code}"))),
        };
    };
    let rest = &args[1..];
    if rest.iter().any(|a| a == "--help" || a == "-h")
        && let Some(text) = command_help(&cmd)
    {
        println!("{text}");
        return Ok(());
    }
    match cmd.as_str() {
        "--version" | "-V" | "version" => {
            println!("{}", crate::protocol::ENGINE_NAME);
            Ok(())
        }
        "help" | "--help" | "-h" => {
            println!("{HELP}\nTable games: {}.", crate::kit::names().join(", "));
            Ok(())
        }
        "games" => {
            for info in crate::kit::infos() {
                print!("{}", info.describe());
            }
            Ok(())
        }
        "variants" => {
            cmd_variants(&set);
            Ok(())
        }
        "check-ini" => cmd_check_ini(rest),
        "perft" => cmd_perft(&set, rest),
        "datagen" => cmd_datagen(&set, rest),
        "tune" => cmd_tune(&set, rest),
        "bench" => cmd_bench(&set, rest),
        "pgn" => cmd_pgn(&set, rest),
        "referee" => crate::table_cli::referee(rest),
        "play" => crate::table_cli::play(rest),
        "playtest" => crate::table_cli::playtest(rest),
        "solve" => crate::table_cli::solve(rest),
        "serve" => crate::serve::run(&set, rest).map_err(CliError),
        "rbc-referee" => cmd_rbc_referee(&set, rest),
        other => Err(CliError(format!("unknown command '{other}' (try 'menagerie --help')"))),
    }
}

/// `variants`: each variant of the catalogue, its board, rules and start position.
fn cmd_variants(set: &Catalog) {
    for v in &set.variants {
        let g = &v.geometry;
        println!(
            "{} {}x{} rules={} start={}",
            v.name,
            g.files(),
            g.ranks(),
            v.rules,
            v.start_fen
        );
    }
}

/// `check-ini FILE`: loads the file as a catalogue and names its variants.
fn cmd_check_ini(rest: &[String]) -> Result<(), CliError> {
    let file = rest
        .first()
        .ok_or_else(|| CliError("check-ini needs a file name".into()))?;
    let s = Catalog::load(file).map_err(|e| CliError(e.to_string()))?;
    println!("{file}: ok, {} variants: {}", s.variants.len(), s.names().join(" "));
    Ok(())
}

/// `rbc-referee [VARIANT]`: the reconchess adapter's referee on stdin and stdout.
fn cmd_rbc_referee(set: &Catalog, rest: &[String]) -> Result<(), CliError> {
    let v = find_variant(set, rest.first().map_or("rbc", |s| s.as_str()))?;
    if v.rules != "rbc" {
        return Err(CliError(format!("variant '{}' is not an RBC variant", v.name)));
    }
    crate::games::rbc::serve_referee(v, std::io::stdin().lock(), std::io::stdout().lock());
    Ok(())
}

/// `pgn write VARIANT [--fen FEN] [MOVE...]` prints the game as PGN; `pgn read FILE` prints
/// the variant and the FEN after the file's last game.
fn cmd_pgn(set: &Catalog, args: &[String]) -> Result<(), CliError> {
    match args.first().map(String::as_str) {
        Some("write") => {
            let v = find_variant(set, args.get(1).map_or("", String::as_str))?;
            let mut s = crate::engine::new_session(v);
            let mut rest = &args[2.min(args.len())..];
            if rest.first().map(String::as_str) == Some("--fen") {
                let fen = rest
                    .get(1)
                    .ok_or_else(|| CliError("pgn write: --fen needs a FEN".into()))?;
                s.set_fen(fen).map_err(|e| CliError(format!("pgn write: {e}")))?;
                rest = &rest[2..];
            }
            for m in rest {
                s.play_text(m, crate::engine::Notation::Pgn)
                    .map_err(|e| CliError(format!("pgn write: {e}")))?;
            }
            let result = s.outcome().map_or("*".to_string(), |o| o.result().to_string());
            print!("{}", s.pgn(&[("Event", "menagerie pgn write")], &result));
            Ok(())
        }
        Some("read") => {
            let file = args.get(1).ok_or_else(|| CliError("pgn read needs a file".into()))?;
            let text = std::fs::read_to_string(file).map_err(|e| CliError(format!("{file}: {e}")))?;
            let current = crate::engine::new_session(
                find_variant(set, "chess")
                    .or_else(|_| set.variants.first().ok_or_else(|| CliError("no variants".into())))?,
            );
            let s =
                crate::engine::session_from_pgn(set, &*current, &text).map_err(|e| CliError(format!("{file}: {e}")))?;
            println!("{} {}", s.variant().name, s.fen());
            Ok(())
        }
        _ => Err(CliError(
            "pgn: 'pgn write VARIANT [--fen FEN] [MOVE...]' or 'pgn read FILE'".into(),
        )),
    }
}

fn find_variant<'a>(set: &'a Catalog, name: &str) -> Result<&'a AnyGame, CliError> {
    set.get(name)
        .ok_or_else(|| CliError(format!("unknown variant '{name}' (known: {})", set.names().join(", "))))
}

fn cmd_datagen(set: &Catalog, args: &[String]) -> Result<(), CliError> {
    let variant = args
        .first()
        .filter(|a| !a.starts_with("--"))
        .ok_or_else(|| CliError("datagen needs a variant (menagerie datagen VARIANT --games N ...)".into()))?;
    let v = find_variant(set, variant)?;
    let (mut games, mut nodes, mut seed, mut out, mut shard) = (None, None, None, None, (1, 1));
    let mut words = Args::new("datagen", &args[1..]);
    while let Some(flag) = words.next_flag()? {
        match flag.as_str() {
            "--games" => games = Some(words.number(&flag)?),
            "--nodes" => nodes = Some(words.number(&flag)?),
            "--seed" => seed = Some(words.number(&flag)?),
            "--out" => out = Some(words.value(&flag)?),
            "--shard" => {
                let value = words.value(&flag)?;
                let bad = || CliError(format!("--shard '{value}': want I/N with 1 <= I <= N, for example 2/8"));
                let (a, b) = value.split_once('/').ok_or_else(bad)?;
                shard = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
                if shard.1 == 0 || shard.0 == 0 || shard.0 > shard.1 {
                    return Err(bad());
                }
            }
            _ => return Err(words.unknown(&flag)),
        }
    }
    let need = |x: Option<u64>, what: &str| x.ok_or_else(|| CliError(format!("datagen needs {what}")));
    let args = crate::datagen::DatagenArgs {
        games: need(games, "--games N")?,
        nodes: need(nodes, "--nodes K")?.max(1),
        seed: need(seed, "--seed S")?,
        shard,
    };
    let path = out.ok_or_else(|| CliError("datagen needs --out FILE".into()))?;
    let file = std::fs::File::create(&path).map_err(|e| CliError(format!("{path}: {e}")))?;
    let mut writer = std::io::BufWriter::new(file);
    let mut last = Instant::now();
    let mut progress = |line: &str| {
        if last.elapsed().as_secs_f64() >= 1.0 {
            eprintln!("{line}");
            last = Instant::now();
        }
    };
    let stats = games::dispatch(
        v,
        crate::datagen::Datagen {
            args,
            out: &mut writer,
            progress: &mut progress,
        },
    )
    .map_err(CliError)?;
    eprintln!(
        "datagen: {} games ({} White wins, {} Black wins), {} positions in {path}",
        stats.games, stats.white_wins, stats.black_wins, stats.positions
    );
    Ok(())
}

fn cmd_tune(set: &Catalog, args: &[String]) -> Result<(), CliError> {
    let (mut variant, mut data, mut out) = (None, Vec::new(), None);
    let mut fit = crate::tune::Fit {
        epochs: 2000,
        rate: 1.0,
        l2: 1e-4,
    };
    let mut words = Args::new("tune", args);
    while let Some(flag) = words.next_flag()? {
        match flag.as_str() {
            "--variant" => variant = Some(words.value(&flag)?),
            "--out" => out = Some(words.value(&flag)?),
            "--epochs" => fit.epochs = words.number(&flag)?,
            "--l2" => {
                let value = words.value(&flag)?;
                fit.l2 = value
                    .parse()
                    .ok()
                    .filter(|x: &f64| *x >= 0.0)
                    .ok_or_else(|| CliError(format!("--l2 '{value}' is not a number >= 0")))?
            }
            "--data" => data.extend(words.values(&flag)?),
            _ => return Err(words.unknown(&flag)),
        }
    }
    let v = find_variant(set, &variant.ok_or_else(|| CliError("tune needs --variant V".into()))?)?;
    if data.is_empty() {
        return Err(CliError("tune needs --data FILE...".into()));
    }
    let out = out.ok_or_else(|| CliError("tune needs --out WEIGHTS".into()))?;
    let start = Instant::now();
    let mut samples = Vec::new();
    games::dispatch(
        v,
        crate::tune::LoadSamples {
            files: &data,
            samples: &mut samples,
        },
    )
    .map_err(CliError)?;
    if samples.is_empty() {
        return Err(CliError("tune: the data has no positions".into()));
    }
    eprintln!(
        "tune: {} positions read in {:.1} s",
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    // Catalog::prepare checked the variant's settings.
    let features = games::eval_features_of(&v.variant().rules);
    let current = crate::eval::variant_weights(v.variant(), features).map_err(|(_, m)| CliError(m))?;
    let w0 = current.linear();
    let k = crate::tune::fit_k(&samples, &w0);
    let e0 = crate::tune::error(&samples, k, &w0);
    eprintln!("tune: K = {k:.4}, error {e0:.6} with the current weights");
    let epochs = fit.epochs;
    let mut progress = |epoch: usize, e: f64| eprintln!("tune: epoch {epoch} of {epochs}, error {e:.6}");
    let w = crate::tune::fit_weights(&samples, k, &w0, fit, &mut progress);
    let e1 = crate::tune::error(&samples, k, &w);
    let mut text = format!(
        "# menagerie tune --variant {} --epochs {epochs} --l2 {}: {} positions, K = {k:.4}, error {e0:.6} -> {e1:.6}\n",
        v.variant().name,
        fit.l2,
        samples.len()
    );
    for (name, p) in current.names().iter().zip(&w) {
        // Adding 0 turns a rounded -0 into 0.
        text.push_str(&format!(
            "eval.{name} = {} {}\n",
            p[0].round() + 0.0,
            p[1].round() + 0.0
        ));
    }
    std::fs::write(&out, text).map_err(|e| CliError(format!("{out}: {e}")))?;
    eprintln!("tune: wrote {out} in {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn cmd_perft(set: &Catalog, args: &[String]) -> Result<(), CliError> {
    let mut variant = "chess".to_string();
    let mut fen = None;
    let mut divide = false;
    let mut depth = None;
    let mut words = Args::new("perft", args);
    while let Some(arg) = words.next_arg()? {
        match arg {
            Arg::Opt(flag) => match flag.as_str() {
                "--variant" => variant = words.value(&flag)?,
                "--fen" => fen = Some(words.value(&flag)?),
                "--divide" => divide = true,
                _ => return Err(words.unknown(&flag)),
            },
            Arg::Word(d) if depth.is_none() => {
                let n: u32 = d
                    .parse()
                    .map_err(|_| CliError(format!("depth '{d}' is not a number")))?;
                if !(1..=MAX_PERFT_DEPTH).contains(&n) {
                    return Err(CliError(format!("depth {n} is out of range 1..{MAX_PERFT_DEPTH}")));
                }
                depth = Some(n);
            }
            Arg::Word(w) => return Err(words.unknown(&w)),
        }
    }
    let depth = depth.ok_or_else(|| CliError("perft needs a depth".into()))?;
    let v = find_variant(set, &variant)?;
    games::dispatch(v, PerftCmd { fen, depth, divide })
}

struct PerftCmd {
    fen: Option<String>,
    depth: u32,
    divide: bool,
}

impl GameVisitor for PerftCmd {
    type Output = Result<(), CliError>;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Result<(), CliError> {
        let mut pos = Position::from_fen_or_start(game, self.fen.as_deref().unwrap_or(""))
            .map_err(|e| CliError(e.to_string()))?;
        let start = Instant::now();
        let show = pos.clone();
        let mut progress = |done: usize, total: usize, m, n| {
            let secs = start.elapsed().as_secs_f64();
            if secs > 1.0 || self.depth >= 6 {
                eprintln!("[{done}/{total}] {} {n} ({secs:.1} s)", move_text(&show, m));
            }
        };
        let results = perft::divide(&mut pos, self.depth, &mut progress);
        let total: u64 = results.iter().map(|r| r.1).sum();
        let mut out = std::io::stdout().lock();
        if self.divide {
            let mut lines: Vec<String> = results
                .iter()
                .map(|(m, n)| format!("{}: {n}", move_text(&pos, *m)))
                .collect();
            lines.sort();
            for l in lines {
                let _ = writeln!(out, "{l}");
            }
            let _ = writeln!(out);
            let _ = writeln!(out, "Nodes searched: {total}");
        } else {
            let secs = start.elapsed().as_secs_f64();
            let _ = writeln!(out, "{total}");
            eprintln!(
                "{total} nodes in {secs:.3} s ({:.0} nodes/s)",
                total as f64 / secs.max(1e-9)
            );
        }
        Ok(())
    }
}

/// Positions timed by `menagerie bench`: (variant, FEN or "" for the start, depth).
pub const BENCH_POSITIONS: &[(&str, &str, u32)] = &[
    ("chess", "", 5),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
    ),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    ("losalamos", "", 6),
    ("capablanca", "", 4),
    ("chess911", "", 4),
    ("remotesensing", "", 5),
    ("tensor", "", 4),
    ("tensor", "6k3/4tn4/3tT2t2/6P3/1b3P4/7B2/10/9K b - - 0 1", 3),
];

struct BenchOne {
    fen: String,
    depth: u32,
}

impl GameVisitor for BenchOne {
    type Output = Result<(u64, f64), String>;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Result<(u64, f64), String> {
        let mut pos = Position::from_fen_or_start(game, &self.fen).map_err(|e| e.to_string())?;
        let t = Instant::now();
        let n = perft::perft(&mut pos, self.depth);
        Ok((n, t.elapsed().as_secs_f64()))
    }
}

fn cmd_bench(set: &Catalog, args: &[String]) -> Result<(), CliError> {
    let mut words = Args::new("bench", args);
    if let Some(Arg::Opt(a) | Arg::Word(a)) = words.next_arg()? {
        return Err(words.unknown(&a));
    }
    let mut total = 0u64;
    let mut secs = 0.0;
    for &(name, fen, depth) in BENCH_POSITIONS {
        let Some(v) = set.get(name) else {
            println!("{name}: not in this ini, skipped");
            continue;
        };
        let fen = if fen.is_empty() { String::new() } else { fen.to_string() };
        let shown = if fen.is_empty() {
            "startpos".to_string()
        } else {
            fen.clone()
        };
        let (n, s) = games::dispatch(v, BenchOne { fen, depth }).map_err(CliError)?;
        println!(
            "{name:<11} perft {depth} {n:>12} nodes {s:>7.3} s {:>6.1} Mnps  {shown}",
            n as f64 / s / 1e6
        );
        total += n;
        secs += s;
    }
    println!(
        "Perft total: {total} nodes in {secs:.3} s, {:.1} Mnps",
        total as f64 / secs / 1e6
    );
    let mut search_nodes = 0u64;
    let mut search_secs = 0.0;
    for &(name, fen, depth) in SEARCH_BENCH {
        let Some(v) = set.get(name) else { continue };
        let (n, s, best) = games::dispatch(
            v,
            SearchOne {
                fen: fen.to_string(),
                depth,
            },
        );
        let shown = if fen.is_empty() { "startpos" } else { fen };
        println!(
            "{name:<11} search depth {depth:>2} {n:>10} nodes {s:>7.3} s {:>6.0} knps  best {best:<6} {shown}",
            n as f64 / s / 1e3
        );
        search_nodes += n;
        search_secs += s;
    }
    println!(
        "Search total: {search_nodes} nodes in {search_secs:.3} s, {:.0} knps",
        search_nodes as f64 / search_secs / 1e3
    );
    println!("Bench: {search_nodes}");
    // The last line in the form OpenBench's workers read: the signature, then the speed.
    println!("{search_nodes} nodes {:.0} nps", search_nodes as f64 / search_secs);
    Ok(())
}

/// Positions searched to a fixed depth by `menagerie bench`; their node total is the signature.
pub const SEARCH_BENCH: &[(&str, &str, u32)] = &[
    ("chess", "", 12),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        10,
    ),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 14),
    ("losalamos", "", 12),
    ("capablanca", "", 11),
    ("chess911", "", 10),
    ("remotesensing", "", 9),
    ("tensor", "", 10),
];

struct SearchOne {
    fen: String,
    depth: u32,
}

impl GameVisitor for SearchOne {
    type Output = (u64, f64, String);
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> (u64, f64, String) {
        let mut pos = Position::from_fen_or_start(game, &self.fen).expect("bench FENs are valid");
        let mut searcher = crate::search::Searcher::new(16, Arc::new(std::sync::atomic::AtomicBool::new(false)));
        let limits = crate::search::Limits {
            depth: Some(self.depth),
            ..Default::default()
        };
        let t = Instant::now();
        let r = searcher.go(&mut pos, limits, &mut crate::search::Silent);
        (r.nodes, t.elapsed().as_secs_f64(), move_text(&pos, r.best))
    }
}
