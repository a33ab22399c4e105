//! Protocol tests against the real binary: transcripts (`tests/transcripts/*.txt`, `>` sent,
//! `<` expected as a prefix, in order) and a flood of random and mutated lines after which the
//! engine must still answer and play a legal move.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Starts the engine; returns the process, a channel of its output lines and its stdin.
fn spawn_engine() -> (Child, mpsc::Receiver<String>, ChildStdin) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(l) = line else { break };
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    let stdin = child.stdin.take().unwrap();
    (child, rx, stdin)
}

/// Sends all lines (from a thread of their own), then reads the output until `finished` says
/// a line ends the conversation or `timeout` passes; returns everything read.
fn converse_until(input: &[String], timeout: Duration, mut finished: impl FnMut(&str) -> bool) -> Vec<String> {
    let (mut child, rx, mut stdin) = spawn_engine();
    let writer = {
        let input = input.to_vec();
        std::thread::spawn(move || {
            for l in input {
                if writeln!(stdin, "{l}").is_err() {
                    break;
                }
            }
            stdin
        })
    };
    let mut out = Vec::new();
    let deadline = std::time::Instant::now() + timeout;
    while let Ok(l) = rx.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now())) {
        let last = finished(&l);
        out.push(l);
        if last {
            break;
        }
    }
    let mut stdin = writer.join().unwrap();
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let _ = child.wait();
    out
}

/// Sends all lines, then waits for a line starting with `done` (or a timeout).
fn converse(input: &[String], done: &str, timeout: Duration) -> Vec<String> {
    converse_until(input, timeout, |l| l.starts_with(done))
}

/// Sends all lines, then waits for the line `marker` and after it a line starting with `done`
/// (or a timeout).
fn converse_after(input: &[String], marker: &str, done: &str, timeout: Duration) -> Vec<String> {
    let mut marked = false;
    converse_until(input, timeout, |l| {
        let last = marked && l.starts_with(done);
        marked |= l == marker;
        last
    })
}

/// Replays a transcript step by step: `>` lines are sent; each `<` line must be the next line
/// the engine prints (as a prefix) before the next `>` line is sent. Lines matching a `~` prefix
/// (`~ 0` stands for any line that starts with a digit, CECP's thinking output) may come
/// anywhere; any other line fails the transcript, stray errors included. At the end a sync
/// (`isready` or `ping`) must come back with nothing unexpected before it.
fn run_transcript(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/transcripts")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let allowed: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("~ ")).collect();
    let may_come = |line: &str| {
        allowed.iter().any(|a| {
            if *a == "0" {
                line.starts_with(|c: char| c.is_ascii_digit())
            } else {
                line.starts_with(a)
            }
        })
    };
    let (mut child, rx, mut stdin) = spawn_engine();
    let mut seen: Vec<String> = Vec::new();
    let mut uci = None;
    let expect = |want: &str, at: String, seen: &mut Vec<String>| loop {
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(got) => {
                seen.push(got.clone());
                if got.starts_with(want) && (!want.is_empty() || got.is_empty()) {
                    break;
                }
                assert!(
                    may_come(&got),
                    "{at}: unexpected line {got:?} while waiting for {want:?}; output so far:\n{}",
                    seen.join("\n")
                );
            }
            Err(_) => panic!("{at}: no line starting {want:?}; output so far:\n{}", seen.join("\n")),
        }
    };
    for (n, l) in text.lines().enumerate() {
        if let Some(cmd) = l.strip_prefix("> ") {
            uci.get_or_insert(cmd == "uci");
            writeln!(stdin, "{cmd}").unwrap();
            stdin.flush().unwrap();
        } else if l == "<" || l.starts_with("< ") {
            expect(l.get(2..).unwrap_or(""), format!("{name}:{}", n + 1), &mut seen);
        }
    }
    let sync = if uci == Some(true) {
        ("isready", "readyok")
    } else {
        ("ping 424242", "pong 424242")
    };
    writeln!(stdin, "{}", sync.0).unwrap();
    stdin.flush().unwrap();
    expect(sync.1, format!("{name}: end"), &mut seen);
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let _ = child.wait();
}

#[test]
fn uci_transcript() {
    run_transcript("uci_basic.txt");
}

#[test]
fn cecp_transcript() {
    run_transcript("cecp_basic.txt");
}

/// Every kind of refused command, in each protocol's own words.
#[test]
fn refusal_transcripts() {
    run_transcript("uci_refusals.txt");
    run_transcript("cecp_refusals.txt");
}

const UCI_WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "movetime",
    "nodes",
    "setoption",
    "name",
    "value",
    "UCI_Variant",
    "Hash",
    "Clear",
    "IniFile",
    "perft",
    "stop",
    "ponderhit",
    "e2e4",
    "e7e5",
    "g1f3",
    "a7a8q",
    "chess911",
    "losalamos",
    "capablanca",
    "8/8/8/8/8/8/8/8",
    "w",
    "b",
    "KQkq",
    "-",
    "0",
    "1",
    "-5",
    "99999999999999",
    "wtime",
    "btime",
    "winc",
    "mate",
    "d",
];

const CECP_WORDS: &[&str] = &[
    "new",
    "variant",
    "force",
    "usermove",
    "e2e4",
    "e7e5",
    "d2d4",
    "a7a8q",
    "setboard",
    "undo",
    "remove",
    "ping",
    "post",
    "nopost",
    "hard",
    "easy",
    "draw",
    "result",
    "1-0",
    "*",
    "lift",
    "put",
    "hover",
    "e2",
    "k11",
    "memory",
    "option",
    "name",
    "rating",
    "computer",
    "random",
    "?",
    "accepted",
    "rejected",
    "protover",
    "2",
    "chess911",
    "losalamos",
    "capablanca",
    "normal",
    "8/8/8",
    "w",
    "b",
    "-",
    "0",
    "1",
    "-3",
    "bk",
    "hint",
    "exit",
    ".",
];

fn garbage(rng: &mut StdRng, words: &[&str], n: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for _ in 0..n {
        let line = match rng.random_range(0..4) {
            0 => (0..rng.random_range(1..6))
                .map(|_| words[rng.random_range(0..words.len())])
                .collect::<Vec<_>>()
                .join(" "),
            1 => (0..rng.random_range(1..30))
                .map(|_| rng.random_range(32u8..127) as char)
                .collect(),
            2 => {
                let mut w: Vec<char> = words[rng.random_range(0..words.len())].chars().collect();
                if !w.is_empty() {
                    let i = rng.random_range(0..w.len());
                    w[i] = rng.random_range(33u8..127) as char;
                }
                w.into_iter().collect()
            }
            _ => String::from_utf8_lossy(
                &(0..rng.random_range(1..12))
                    .map(|_| rng.random_range(1u8..=255))
                    .collect::<Vec<u8>>(),
            )
            .into_owned(),
        };
        lines.push(line);
    }
    lines
}

/// Numbers as a careless or hostile client writes them.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "7",
    "-1",
    "-5",
    "3.5",
    "-0.5",
    "1e9",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "",
    "99999999999999",
    "99999999999999999999999999",
    "18446744073709551616",
    "-9223372036854775809",
    "0x10",
    "+7",
    "5ms",
    "2:30",
    "1:99:00",
];

/// Moves, good and garbled, in the forms both protocols take.
const MOVES: &[&str] = &[
    "e2e4",
    "e7e5",
    "g1f3",
    "b8c6",
    "e1g1",
    "O-O",
    "a7a8q",
    "a7a8",
    "e2e9",
    "z2z4",
    "e2e4e5",
    "e2",
    "0000",
    "@@@@",
    "P@e4",
    "e2e4,e4e5",
    "e2e4=Q",
    "Nf3",
    "e2-e4",
    "e2xe4",
    "a1b1>a1",
    "k11k10",
];

fn pick<'a>(rng: &mut StdRng, from: &[&'a str]) -> &'a str {
    from[rng.random_range(0..from.len())]
}

/// One character changed, dropped or doubled.
fn mutate(rng: &mut StdRng, line: &str) -> String {
    let mut c: Vec<char> = line.chars().collect();
    if c.is_empty() {
        return line.to_string();
    }
    let i = rng.random_range(0..c.len());
    match rng.random_range(0..3) {
        0 => c[i] = rng.random_range(32u8..127) as char,
        1 => {
            c.remove(i);
        }
        _ => c.insert(i, c[i]),
    }
    c.into_iter().collect()
}

/// A FEN that may be garbled.
fn some_fen(rng: &mut StdRng) -> String {
    let fen = pick(
        rng,
        &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
            "8/8/8/8 w - - 0 1",
            "k7/8/8/8/8/8/8/7K w - - 99999999999 -1",
            "k7/P7/8/8/8/8/8/7K w - - nan 1",
        ],
    );
    if rng.random_range(0..2) == 0 {
        mutate(rng, fen)
    } else {
        fen.to_string()
    }
}

/// The lines where parser bugs live: moves, searches and every limit, clocks, set-ups, with
/// numbers huge, negative, fractional, `nan` and empty; each sent raw or mutated.
fn risky(rng: &mut StdRng, uci: bool) -> String {
    let num = |rng: &mut StdRng| pick(rng, NUMBERS).to_string();
    let line = if uci {
        match rng.random_range(0..5) {
            0 | 1 => {
                let mut l = String::from("go");
                for _ in 0..rng.random_range(0..5) {
                    let limit = pick(
                        rng,
                        &[
                            "wtime",
                            "btime",
                            "winc",
                            "binc",
                            "movestogo",
                            "depth",
                            "nodes",
                            "mate",
                            "movetime",
                            "infinite",
                            "ponder",
                            "searchmoves",
                            "perft",
                        ],
                    );
                    l += &format!(" {limit}");
                    match limit {
                        "infinite" | "ponder" => {}
                        "searchmoves" => l += &format!(" {} {}", pick(rng, MOVES), pick(rng, MOVES)),
                        // perft runs to the end and blocks input: keep it shallow.
                        "perft" => l += pick(rng, &[" 1", " 2", " -1", " nan", "", " 99999999999999"]),
                        _ => l += &format!(" {}", num(rng)),
                    }
                }
                l
            }
            2 => {
                let setup = if rng.random_range(0..2) == 0 {
                    "startpos".to_string()
                } else {
                    format!("fen {}", some_fen(rng))
                };
                let moves: Vec<&str> = (0..rng.random_range(0..4)).map(|_| pick(rng, MOVES)).collect();
                format!("position {setup} moves {}", moves.join(" "))
            }
            3 => format!(
                "setoption name {} value {}",
                pick(rng, &["Hash", "Move Overhead", "UCI_Variant"]),
                num(rng)
            ),
            _ => format!("position startpos moves e2e4 {}", pick(rng, MOVES)),
        }
    } else {
        match rng.random_range(0..10) {
            0 => format!("usermove {}", pick(rng, MOVES)),
            1 => pick(rng, MOVES).to_string(),
            2 => "go".to_string(),
            3 => format!("level {} {} {}", num(rng), num(rng), num(rng)),
            4 => format!("st {}", num(rng)),
            5 => format!("sd {}", num(rng)),
            6 => format!("{} {}", pick(rng, &["time", "otim"]), num(rng)),
            7 => format!("nps {}", num(rng)),
            8 => format!("setboard {}", some_fen(rng)),
            _ => pick(
                rng,
                &["force", "new", "playother", "analyze", "exit", "?", "undo", "remove"],
            )
            .to_string(),
        }
    };
    if rng.random_range(0..3) == 0 {
        mutate(rng, &line)
    } else {
        line
    }
}

/// The flood: `bursts` bursts of random garbage and risky lines, each ended by lines that stop
/// any search and ask for an answer (`isready`, or `ping N` with N the burst's number). Only
/// `quit` is kept out.
fn flood(seed: u64, uci: bool, bursts: usize) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let words = if uci { UCI_WORDS } else { CECP_WORDS };
    let mut out = Vec::new();
    for b in 0..bursts {
        let mut lines = garbage(&mut rng, words, 25);
        lines.extend((0..25).map(|_| risky(&mut rng, uci)));
        for i in (1..lines.len()).rev() {
            lines.swap(i, rng.random_range(0..=i));
        }
        lines.retain(|l| l.split_whitespace().next() != Some("quit"));
        out.extend(lines);
        if uci {
            out.extend(["stop".to_string(), "isready".to_string()]);
        } else {
            out.extend(["exit", "force"].map(String::from));
            out.push(format!("ping {}", 100_000 + b));
        }
    }
    out
}

/// `isready` lines the engine must answer: the first word alone (the reader trims the line).
fn isready_count(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.trim() == "isready").count()
}

#[test]
fn uci_survives_garbage() {
    let mut input = vec!["uci".to_string()];
    input.extend(flood(3, true, 60));
    assert!(input.iter().any(|l| l.starts_with("go") && l.contains("infinite")));
    assert!(input.iter().any(|l| l.starts_with("position") && l.contains("nan")));
    let asked = isready_count(&input);
    input.extend(
        [
            "stop",
            "setoption name UCI_Variant value chess",
            "position fen 7k/8/8/8/8/8/8/K7 w - - 0 1",
            "d",
            "position startpos moves e2e4",
            "isready",
            "go depth 3",
        ]
        .map(String::from),
    );
    let out = converse_after(
        &input,
        "info string fen 7k/8/8/8/8/8/8/K7 w - - 0 1",
        "bestmove",
        Duration::from_secs(300),
    );
    let ready = out.iter().filter(|l| *l == "readyok").count();
    let searches = out.iter().filter(|l| l.starts_with("bestmove")).count();
    eprintln!(
        "{} lines sent, {} read, {searches} searches ended",
        input.len(),
        out.len()
    );
    assert!(
        ready > asked,
        "{ready} readyok for {asked} isready before the final one"
    );
    let best = out
        .iter()
        .rev()
        .find(|l| l.starts_with("bestmove"))
        .expect("a bestmove after the garbage");
    assert_legal_after_e4(best.split_whitespace().nth(1).unwrap());
}

#[test]
fn cecp_survives_garbage() {
    let mut input = vec!["xboard".to_string(), "protover 2".to_string()];
    input.extend(flood(5, false, 60));
    assert!(input.iter().any(|l| l.starts_with("level") && l.contains("nan")));
    input.extend(["ping 77", "new", "force", "usermove e2e4", "sd 3", "go"].map(String::from));
    let out = converse_after(&input, "pong 77", "move ", Duration::from_secs(300));
    let moves = out.iter().filter(|l| l.starts_with("move ")).count();
    eprintln!("{} lines sent, {} read, {moves} moves played", input.len(), out.len());
    // Every burst's ping is answered, in order, before the final one.
    let pongs: Vec<&String> = out.iter().filter(|l| l.starts_with("pong 1")).collect();
    let want: Vec<String> = (0..60).map(|b| format!("pong {}", 100_000 + b)).collect();
    let got: Vec<&String> = pongs.iter().copied().filter(|l| want.contains(l)).collect();
    assert_eq!(got, want.iter().collect::<Vec<_>>(), "pongs after the bursts");
    assert!(out.iter().any(|l| l == "pong 77"), "no pong after the garbage");
    let mv = out
        .iter()
        .rev()
        .find(|l| l.starts_with("move "))
        .expect("a move after the garbage");
    assert_legal_after_e4(mv.split_whitespace().nth(1).unwrap());
}

/// The move must be legal after 1. e4, checked against a fresh engine's perft list.
fn assert_legal_after_e4(mv: &str) {
    let check = converse(
        &["uci", "position startpos moves e2e4", "go perft 1"].map(String::from),
        "Nodes searched",
        Duration::from_secs(20),
    );
    assert!(
        check.iter().any(|l| l.starts_with(&format!("{mv}:"))),
        "{mv} is not legal after e2e4"
    );
}

/// Tensor: White's only legal moves are c5a5 and c5xb5a5 (the beast blocks the check on the
/// a-file, with or without taking the black beast on b5).
const TENSOR_BLOCK: &str = "r8k/10/6b3/1tT7/2n7/10/10/K9 w - - 0 1";

fn lines(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn tensor_cecp_projection_without_mmn() {
    let setboard = format!("setboard {TENSOR_BLOCK}");
    let out = converse(
        &lines(&[
            "xboard",
            "protover 2",
            "rejected mmn",
            "new",
            "variant tensor",
            "force",
            &setboard,
            "sd 3",
            "go",
        ]),
        "move ",
        Duration::from_secs(60),
    );
    assert!(out.iter().any(|l| l.starts_with("feature ") && l.contains(" mmn=1")));
    assert!(out.iter().any(|l| l.starts_with("telluser ")), "no word about propels");
    assert!(
        out.iter()
            .any(|l| l.starts_with("setup (") && l.contains("10x8+0_fairy"))
    );
    assert!(out.iter().any(|l| l == "piece K& KO2"));
    let mv = out.iter().find(|l| l.starts_with("move ")).expect("a move");
    assert!(["move c5b5,b5a5", "move c5a5"].contains(&mv.as_str()), "{mv}");
    // XBoard's form comes back in; a propel is refused (it has no XBoard form).
    let out = converse(
        &lines(&[
            "xboard",
            "protover 2",
            "rejected mmn",
            "new",
            "variant tensor",
            "force",
            &setboard,
            "usermove c5b5,b5a5",
            "new",
            "variant tensor",
            "force",
            "usermove a1b1>a1",
            "ping 1",
        ]),
        "pong 1",
        Duration::from_secs(20),
    );
    let illegal: Vec<&String> = out.iter().filter(|l| l.starts_with("Illegal move")).collect();
    assert_eq!(illegal, ["Illegal move (illegal): a1b1>a1"], "{out:?}");
}

#[test]
fn tensor_cecp_with_mmn() {
    let setboard = format!("setboard {TENSOR_BLOCK}");
    let out = converse(
        &lines(&[
            "xboard",
            "protover 2",
            "accepted mmn",
            "new",
            "variant tensor",
            "force",
            "usermove a1b1>a1",
            "usermove c8d6",
            "ping 1",
            &setboard,
            "sd 3",
            "go",
        ]),
        "move ",
        Duration::from_secs(60),
    );
    assert!(
        !out.iter()
            .any(|l| l.starts_with("Illegal") || l.starts_with("telluser")),
        "{out:?}"
    );
    let mv = out.iter().find(|l| l.starts_with("move ")).expect("a move");
    assert!(["move c5xb5a5", "move c5a5"].contains(&mv.as_str()), "{mv}");
}

#[test]
fn tensor_uci_mmn_in_and_out() {
    let out = converse(
        &lines(&[
            "uci",
            "setoption name UCI_Variant value tensor",
            "position startpos moves a1b1>a1 j8i8>j8 c1d3",
            "d",
            "position startpos moves a1b1>xa1",
            "d",
            &format!("position fen {TENSOR_BLOCK}"),
            "go perft 1",
        ]),
        "Nodes searched",
        Duration::from_secs(20),
    );
    let fens: Vec<&String> = out.iter().filter(|l| l.starts_with("info string fen ")).collect();
    assert_eq!(fens.len(), 2, "{out:?}");
    assert_eq!(
        fens[0].as_str(),
        "info string fen rtnbqkbnrt/pppppppppp/10/10/10/3N6/PPPPPPPPPP/TR1BQKBNTR b Kq - 3 2"
    );
    assert_eq!(fens[1], fens[0], "a bad move changed the position");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string") && l.contains("a propel cannot capture")),
        "{out:?}"
    );
    let mut perft: Vec<&str> = out.iter().filter(|l| l.ends_with(": 1")).map(|l| l.as_str()).collect();
    perft.sort();
    assert_eq!(perft, ["c5a5: 1", "c5xb5a5: 1"]);
}

/// The true board stays in the belief along the recorded games against StrangeFish2
/// (`../shared/peers/strangefish2-games/`, each side's observations written as `rbc-*` lines
/// by `tools/reconchess/history_lines.py`): every `rbc-truth` line answers `truth in`.
#[test]
fn recorded_games_keep_the_true_board_in_the_belief() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rbc_games");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 4, "{files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut input = vec!["xboard", "protover 2", "new", "variant rbc"];
        input.extend(text.lines().filter(|l| !l.starts_with('#')));
        input.push("ping 1");
        let out = converse(&lines(&input), "pong 1", Duration::from_secs(60));
        let truths: Vec<&String> = out.iter().filter(|l| l.starts_with("truth ")).collect();
        let want = text.lines().filter(|l| l.starts_with("rbc-truth")).count();
        assert!(
            want >= 38 && truths.len() == want,
            "{f:?}: {} of {want} answers: {out:?}",
            truths.len()
        );
        let errors: Vec<&String> = out.iter().filter(|l| l.starts_with("Error")).collect();
        assert!(errors.is_empty(), "{f:?}: {errors:?}");
        for (i, t) in truths.iter().enumerate() {
            assert!(t.starts_with("truth in"), "{f:?}: check {} of {want}: {t}", i + 1);
        }
    }
}

#[test]
fn rbc_lines_over_cecp() {
    let out = converse(
        &lines(&[
            "xboard",
            "protover 2",
            "new",
            "variant rbc",
            "rbc-go 10",
            "rbc-turn soon",
            "rbc-turn 0.5",
            "rbc-color white",
            "rbc-opp none",
            "rbc-sense 900",
            "rbc-seen d8:q e8:k f8:b d7:p e7:p f7:p d6:. e6:. f6:.",
            "rbc-go 900",
            "rbc-result e2e4 e2e4 none",
            "rbc-stats",
            "rbc-truth rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "rbc-truth rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
            "rbc-truth not a fen",
            "rbc-seen z9:q",
            "rbc-bogus",
            "rbc-result e2e4",
            "ping 1",
        ]),
        "pong 1",
        Duration::from_secs(60),
    );
    assert!(out.iter().any(|l| l.starts_with("feature ") && l.contains(" rbc=1")));
    let errors: Vec<&String> = out.iter().filter(|l| l.starts_with("Error")).collect();
    assert_eq!(errors.len(), 6, "{out:?}");
    assert!(errors[0].contains("send 'rbc-color white|black' first"), "{errors:?}");
    assert!(errors[1].contains("rbc-turn SECONDS"), "{errors:?}");
    assert!(errors[2].contains("bad FEN"), "{errors:?}");
    let sense = out.iter().find(|l| l.starts_with("sense ")).expect("a sense reply");
    assert!(sense == "sense pass" || sense.len() == 8, "{sense}");
    let mv = out.iter().find(|l| l.starts_with("move ")).expect("a move reply");
    // White's first move: one of the 34 requestable moves, or a pass.
    let m = &mv[5..];
    let start_actions = [
        "a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "f2f3", "f2f4", "g2g3", "g2g4",
        "h2h3", "h2h4", "b1a3", "b1c3", "g1f3", "g1h3", "a2b3", "b2a3", "b2c3", "c2b3", "c2d3", "d2c3", "d2e3", "e2d3",
        "e2f3", "f2e3", "f2g3", "g2f3", "g2h3", "h2g3", "pass",
    ];
    assert!(start_actions.contains(&m), "{mv}");
    // After e2e4 the belief is the start position with the pawn moved: one board.
    assert!(
        out.iter()
            .any(|l| l == "stats boards 1 sampled 0 rebuilds 0 redraws 0 exact 0"),
        "{out:?}"
    );
    // The true board is that one; another is not in the set.
    let truth: Vec<&String> = out.iter().filter(|l| l.starts_with("truth ")).collect();
    assert_eq!(
        truth,
        ["truth in sampled 0 p 1.000000e0", "truth out sampled 0 p 0.000000e0"],
        "{out:?}"
    );
}

/// XBoard analysis with `exclude` and `include`: the excluded mate is never a PV's first move;
/// once included again, analysis finds it.
#[test]
fn cecp_analysis_leaves_out_excluded_moves() {
    let (mut child, rx, mut stdin) = spawn_engine();
    let mut say = |lines: &[&str]| {
        for l in lines {
            writeln!(stdin, "{l}").unwrap();
        }
    };
    let first_move = |l: &str| {
        l.split('\t')
            .nth(1)
            .and_then(|pv| pv.split(' ').next())
            .map(str::to_string)
    };
    let wait_for = |want: &str| -> Vec<String> {
        let mut seen = Vec::new();
        while let Ok(l) = rx.recv_timeout(Duration::from_secs(20)) {
            let done = l == want;
            seen.push(l);
            if done {
                return seen;
            }
        }
        panic!("no '{want}' after {seen:?}");
    };
    say(&[
        "xboard",
        "protover 2",
        "new",
        "force",
        "setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "post",
        "exclude d1d8",
        "exclude z9z9",
        "analyze",
        "ping 1",
    ]);
    let before = wait_for("pong 1");
    assert!(before.iter().any(|l| l == "Error (illegal move): z9z9"), "{before:?}");
    // Let the analysis reach some depth, then ask again.
    std::thread::sleep(Duration::from_millis(300));
    say(&["ping 2"]);
    let thinking: Vec<String> = wait_for("pong 2")
        .into_iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert!(thinking.len() >= 3, "{thinking:?}");
    assert!(
        thinking.iter().all(|l| first_move(l).is_some_and(|m| m != "d1d8")),
        "{thinking:?}"
    );
    say(&["include all"]);
    let found = (0..2000).any(|_| {
        rx.recv_timeout(Duration::from_secs(20))
            .is_ok_and(|l| first_move(&l).is_some_and(|m| m == "d1d8"))
    });
    assert!(found, "the mate was not found once included again");
    say(&["exit", "quit"]);
    let _ = child.wait();
}

/// XBoard `hard`: after its move the engine ponders on the expected reply, answers an idle
/// `ping` meanwhile, and takes the pondered move back: another reply is accepted on the true
/// position and answered with a legal move.
#[test]
fn cecp_ponders_after_its_move_in_hard_mode() {
    let (mut child, rx, mut stdin) = spawn_engine();
    let mut say = |lines: &[&str]| {
        for l in lines {
            writeln!(stdin, "{l}").unwrap();
        }
    };
    let mut seen = Vec::new();
    let mut wait_for = |want: &str| -> String {
        while let Ok(l) = rx.recv_timeout(Duration::from_secs(20)) {
            seen.push(l.clone());
            if l.starts_with(want) {
                return l;
            }
        }
        panic!("no '{want}' after {seen:?}");
    };
    say(&["xboard", "protover 2", "new", "hard", "post", "sd 5", "usermove e2e4"]);
    let first = wait_for("move ")[5..].to_string();
    // Pondering now: thinking output deeper than `sd 5` comes from the ponder search (which
    // has no depth limit); an idle ping is answered at once.
    wait_for("10 ");
    say(&["ping 1"]);
    wait_for("pong 1");
    say(&["usermove g1f3"]);
    let second = wait_for("move ")[5..].to_string();
    say(&["ping 2"]);
    wait_for("pong 2");
    say(&["easy", "quit"]);
    let _ = child.wait();
    let errors: Vec<&String> = seen
        .iter()
        .filter(|l| l.starts_with("Error") || l.starts_with("Illegal"))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    // Black's second move must be legal after 1. e4 <black's first> 2. Nf3.
    let out = converse(
        &lines(&[
            "uci",
            &format!("position startpos moves e2e4 {first} g1f3 {second}"),
            "d",
        ]),
        "info string fen",
        Duration::from_secs(10),
    );
    assert!(!out.iter().any(|l| l.contains("illegal")), "{first} {second}: {out:?}");
    let fen = out.last().cloned().unwrap_or_default();
    assert!(
        fen.starts_with("info string fen") && fen.contains(" w "),
        "{first} {second}: {fen}"
    );
}

/// The strength options of both protocols: advertised, checked, and bounding the search's
/// nodes (level 1600 searches at most 3,000 nodes a move).
#[test]
fn strength_levels_over_uci_and_cecp() {
    let budget = menagerie::search::Strength::new(1600).nodes();
    let out = converse(
        &lines(&[
            "uci",
            "setoption name UCI_Elo value 5000",
            "setoption name UCI_LimitStrength value perhaps",
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_Elo value 1600",
            "position startpos moves e2e4",
            "go wtime 60000 btime 60000",
        ]),
        "bestmove",
        Duration::from_secs(20),
    );
    for want in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1500 min 800 max 2400",
        "info string UCI_Elo: '5000' is not 800..2400",
        "info string UCI_LimitStrength: 'perhaps' is not true or false",
    ] {
        assert!(out.iter().any(|l| l == want), "no '{want}' in {out:?}");
    }
    let nodes: Vec<u64> = out
        .iter()
        .filter_map(|l| l.split(" nodes ").nth(1)?.split(' ').next()?.parse().ok())
        .collect();
    assert!(!nodes.is_empty() && nodes.iter().all(|&n| n <= budget), "{nodes:?}");
    assert_legal_after_e4(out.last().unwrap().split(' ').nth(1).unwrap());

    let out = converse(
        &lines(&[
            "xboard",
            "protover 2",
            "option UCI_Elo=99",
            "option UCI_LimitStrength=1",
            "option UCI_Elo=1600",
            "new",
            "post",
            "usermove e2e4",
        ]),
        "move ",
        Duration::from_secs(20),
    );
    assert!(
        out.iter().any(|l| l.contains("option=\"UCI_Elo -spin 1500 800 2400\"")),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.starts_with("Error (UCI_Elo is 800..2400)")),
        "{out:?}"
    );
    // Thinking output: ply score time nodes pv.
    let nodes: Vec<u64> = out
        .iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .filter_map(|l| l.split_whitespace().nth(3)?.parse().ok())
        .collect();
    assert!(!nodes.is_empty() && nodes.iter().all(|&n| n <= budget), "{nodes:?}");
    assert_legal_after_e4(out.last().unwrap().trim_start_matches("move "));
}

/// `savepgn FILE` (an extension of both protocols) writes the game so far as PGN; a file that
/// cannot be written is an error line and the game goes on.
#[test]
fn savepgn_writes_the_game_in_both_protocols() {
    let dir = std::env::temp_dir().join(format!("menagerie-savepgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("uci.pgn");
    let f = file.to_str().unwrap();
    let out = converse(
        &lines(&[
            "uci",
            "setoption name UCI_Variant value capablanca",
            "position startpos moves e2e4 e7e5 b1c3",
            &format!("savepgn {f}"),
            "savepgn /no/such/dir/x.pgn",
            "savepgn",
            "isready",
        ]),
        "readyok",
        Duration::from_secs(20),
    );
    assert!(out.iter().any(|l| *l == format!("info string saved {f}")), "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string savepgn: cannot write /no/such/dir/x.pgn")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l == "info string savepgn: savepgn needs a file name"),
        "{out:?}"
    );
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(
        pgn.contains("[Variant \"capablanca\"]") && pgn.contains("1. e4 e5 2. Nc3 *"),
        "{pgn}"
    );

    let file = dir.join("xboard.pgn");
    let f = file.to_str().unwrap();
    let out = converse(
        &lines(&[
            "xboard",
            "protover 2",
            "new",
            "force",
            "usermove e2e4",
            "usermove c7c5",
            &format!("savepgn {f}"),
            "ping 1",
        ]),
        "pong 1",
        Duration::from_secs(20),
    );
    assert!(out.iter().any(|l| *l == format!("# saved {f}")), "{out:?}");
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(pgn.contains("1. e4 c5 *"), "{pgn}");
}
