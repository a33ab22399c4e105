//! The table-game subcommands against the real binary: the rules console, `play` with every
//! kind of seat (a scripted person at the terminal, seat programs that play, babble, fall
//! silent or die), records and their replay, `playtest`, and bad command lines.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn the_rules_console_answers_one_line_per_command() {
    let script = "state\nactor\nact mark b2\nobserve 1\nobserve 0\nact mark b3\nend\nact mark z9\nact\nfrobnicate\nobserve 9\nstate nonsense\nactor\nquit\nactor\n";
    let out = run(&["referee", "splitbrain"], script);
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(
        lines,
        [
            "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1 k piece -,-",
            "seat 0 piece",
            "ok piece marked",
            "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1 k target ?,-",
            "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1 k target b2,-",
            "ok marks b2 b3 direct move b2b3",
            "none",
            "Error ('z9' is not a square of the 6x6 board): act mark z9",
            "Error (act needs an action): act",
            "Error (unknown command): frobnicate",
            "Error (no seat '9' (0..3)): observe 9",
            "Error (expected 'FEN(6 fields) k|q PHASE S,T'): state nonsense",
            "seat 2 piece",
        ]
    );
    assert!(out.status.success());
}

#[test]
fn bad_command_lines_are_one_line_and_exit_2() {
    for (args, want) in [
        (vec!["referee", "nosuchgame"], "unknown game 'nosuchgame'"),
        (vec!["referee"], "referee needs a game"),
        (
            vec!["play", "telepathy", "--seats", "random,random"],
            "telepathy has 4 seats, --seats gives 2",
        ),
        (
            vec!["play", "telepathy", "--seats", "random,random,random,wizard"],
            "seat 3: 'wizard'",
        ),
        (vec!["play", "telepathy"], "play needs --seats"),
        (
            vec!["play", "telepathy", "--seats", "human,random,human,random"],
            "one human seat per terminal",
        ),
        (
            vec![
                "play",
                "telepathy",
                "--seats",
                "random,random,random,random",
                "colour=green",
            ],
            "unknown setting 'colour'",
        ),
        (
            vec![
                "play",
                "splitbrain",
                "--seats",
                "engine:player=focal:depth=99,random,random,random",
            ],
            "engine option depth=99",
        ),
        (
            vec!["play", "splitbrain", "--seats", "engine:noise=40,random,random,random"],
            "engine option noise=40: known are iterations=",
        ),
        (
            vec!["play", "splitbrain", "--seats", "engine:noise=40,random,random,random"],
            "(the hand-made player's options follow player=focal)",
        ),
        (
            vec![
                "play",
                "splitbrain",
                "--seats",
                "cmd:/no/such/program,random,random,random",
            ],
            "cannot start",
        ),
        (vec!["playtest", "splitbrain", "--games", "many"], "--games: 'many'"),
        (vec!["play", "--replay", "/no/such/file"], "--replay /no/such/file"),
        (
            vec![
                "play",
                "splitbrain",
                "--seats",
                "random,random,random,random",
                "--games",
                "0",
            ],
            "--games 0: nothing to do",
        ),
        (vec!["playtest", "parade", "--games", "0"], "--games 0: nothing to do"),
    ] {
        let out = run(&args, "");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// `COMMAND --help` prints that command's usage, not an error.
#[test]
fn each_command_has_its_help() {
    for cmd in ["play", "playtest", "referee", "solve", "perft", "serve"] {
        let out = run(&[cmd, "--help"], "");
        let o = text(&out.stdout);
        assert!(out.status.success(), "{cmd}: {o}{}", text(&out.stderr));
        assert!(o.starts_with("USAGE:\n"), "{cmd}: {o}");
        assert!(o.contains(&format!("menagerie {cmd} ")), "{cmd}: {o}");
    }
    let o = text(&run(&["play", "-h"], "").stdout);
    assert!(o.contains("menagerie play --replay FILE"), "{o}");
}

/// `--version` names the engine and Cargo's version, as UCI's `id name` and XBoard's `myname` do.
#[test]
fn version_names_the_engine() {
    let out = run(&["--version"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let want = format!("Menagerie {}\n", env!("CARGO_PKG_VERSION"));
    assert_eq!(text(&out.stdout), want);
    let uci = text(&run(&[], "uci\nquit\n").stdout);
    assert!(uci.contains(&format!("id name {want}")), "{uci}");
}

#[test]
fn a_person_plays_a_seat_at_the_terminal() {
    // Seat 0 is a person: the first answer is refused and asked again, the second is taken;
    // then the input ends and the seat is lost, which ends the game with the reason.
    let out = run(
        &[
            "play",
            "splitbrain",
            "--seats",
            "human,random,random,random",
            "--seed",
            "3",
        ],
        "fly away\nmark b2\n",
    );
    let o = text(&out.stdout);
    assert!(out.status.success(), "{o}");
    assert!(
        o.contains("[seat 0] splitbrain: you are seat 0 of 4 (white kingside)"),
        "{o}"
    );
    assert!(
        o.contains("[seat 0] you see: rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1 k piece -,-"),
        "{o}"
    );
    // The fields labelled and the board drawn, White at the bottom, files lettered.
    for line in [
        "[seat 0]   6 ♜ ♞ ♛ ♚ ♞ ♜",
        "[seat 0]   4 · · · · · ·",
        "[seat 0]   1 ♖ ♘ ♕ ♔ ♘ ♖",
        "[seat 0]     a b c d e f",
        "[seat 0]   side to move: w",
        "[seat 0]   marker: k",
        "[seat 0]   marks (piece,target): -,-",
    ] {
        assert!(o.lines().any(|l| l == line), "no line {line:?} in {o}");
    }
    assert!(o.contains("[seat 0] legal: mark a1, mark a2, "), "{o}");
    assert!(o.contains("[seat 0] Error (unknown action 'fly'): fly away"), "{o}");
    assert!(o.contains("[seat 0] event: piece marked"), "{o}");
    assert!(o.contains("seat 0 forfeits: the terminal closed"), "{o}");
    assert!(o.contains("game 1: result black scores 0,0,1,1"), "{o}");
    assert!(o.contains("[seat 0] your score: 0 this game, 0 in 1 game\n"), "{o}");
}

#[test]
fn a_persons_running_score_counts_every_game_of_the_run() {
    let out = run(
        &[
            "play",
            "splitbrain",
            "--seats",
            "human,random,random,random",
            "--games",
            "2",
        ],
        "",
    );
    let o = text(&out.stdout);
    assert!(o.contains("[seat 0] your score: 0 this game, 0 in 1 game\n"), "{o}");
    assert!(o.contains("[seat 0] your score: 0 this game, 0 in 2 games\n"), "{o}");
}

#[test]
fn a_person_plays_telepathy_at_the_terminal() {
    let out = run(
        &["play", "telepathy", "--seats", "human,engine,engine,engine"],
        "card X\ncard N\n",
    );
    let o = text(&out.stdout);
    assert!(
        o.contains("[seat 0] legal: card B, card C, card K, card N, card Q, card R"),
        "{o}"
    );
    assert!(
        o.contains("[seat 0] Error (card 'X': expected one of P N B R Q K C): card X"),
        "{o}"
    );
    assert!(o.contains("[seat 0] event: predicted"), "{o}");
    // Seat 0 saw its own face-down card; the mover (seat 1) plays, then seat 0 is asked again
    // only after the hand-off, when the input has ended.
    assert!(o.contains(" 0,2 N move"), "{o}");
    assert!(o.contains("seat 0 forfeits: the terminal closed"), "{o}");
}

#[test]
fn seat_programs_play_and_lose_their_seat_when_they_fail() {
    let good = "cmd:sh tests/seats/first_legal.sh";
    for (game, n) in [
        ("splitbrain", 4),
        ("telepathy", 4),
        ("gravity", 2),
        ("cloak", 2),
        ("coop2", 2),
        ("booster", 2),
        ("parade", 1),
        ("neighbour", 1),
    ] {
        let seats: Vec<&str> = (0..n).map(|i| if i % 2 == 0 { good } else { "random" }).collect();
        let seats = seats.join(",");
        let out = run(&["play", game, "--seats", &seats, "--seed", "2"], "");
        let o = text(&out.stdout);
        assert!(out.status.success(), "{o}{}", text(&out.stderr));
        assert!(o.starts_with("game 1: result "), "{o}");
        assert!(!o.contains("forfeits"), "{o}");
    }
    // A program that answers every question twice: the second copy is a stale answer to the
    // next question, a bad answer, and three lose the seat.
    let seats = "cmd:sh tests/seats/twice.sh,random,random,random";
    let out = run(&["play", "splitbrain", "--seats", seats, "--seed", "4"], "");
    let o = text(&out.stdout);
    assert!(o.starts_with("game 1: result "), "{o}");
    assert!(
        o.contains("{seat 0 forfeits: 3 bad answers, the last: kit-act ")
            && o.contains(" (a stale answer to question "),
        "{o}"
    );
    for (prog, why) in [
        (
            "garbage.sh",
            "3 bad answers, the last: flap your wings (not 'kit-act 4 ACTION')",
        ),
        ("silent.sh", "no answer in 1 s"),
        ("dies.sh", "the seat program has exited (exit status: 3)"),
    ] {
        let seats = format!("random,cmd:sh tests/seats/{prog},random,random");
        let out = run(&["play", "telepathy", "--seats", &seats, "--move-seconds", "1"], "");
        let o = text(&out.stdout);
        assert!(out.status.success(), "{prog}: {o}");
        assert!(
            o.contains(&format!(
                "game 1: result black scores 0,0,1,1 {{seat 1 forfeits: {why}}}"
            )),
            "{prog}: {o}"
        );
    }
}

#[test]
fn records_replay_through_the_command_line() {
    let dir = std::env::temp_dir().join(format!("menagerie-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.jsonl");
    let f = file.to_str().unwrap();
    let out = run(
        &[
            "play",
            "splitbrain",
            "--seats",
            "engine,random,engine:player=focal:noise=40,random",
            "--games",
            "2",
            "--record",
            f,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let played: Vec<String> = text(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| l.split(" (").next().unwrap().to_string())
        .collect();
    let out = run(&["play", "--replay", f], "");
    let o = text(&out.stdout);
    assert!(out.status.success(), "{o}{}", text(&out.stderr));
    let replayed: Vec<String> = o
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| l.split(" (").next().unwrap().to_string())
        .collect();
    assert_eq!(played, replayed);
    assert!(o.contains("replay: 2 games agree with the record"), "{o}");
    // A game lost by a seat program that died replays too.
    let lost = dir.join("lost.jsonl");
    let out = run(
        &[
            "play",
            "telepathy",
            "--seats",
            "random,cmd:sh tests/seats/dies.sh,random,random",
            "--record",
            lost.to_str().unwrap(),
        ],
        "",
    );
    assert!(text(&out.stdout).contains("forfeits"), "{}", text(&out.stdout));
    let out = run(&["play", "--replay", lost.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("seat 1 forfeits: the seat program has exited"),
        "{}",
        text(&out.stdout)
    );
    // A record that says something else is refused with its line.
    let t = std::fs::read_to_string(&file)
        .unwrap()
        .replacen("\"action\":\"mark ", "\"action\":\"mark z", 1);
    std::fs::write(&file, t).unwrap();
    let out = run(&["play", "--replay", f], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 2: the record has {\"seat\":0,\"action\":\"mark z"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn playtest_prints_statistics_and_progress() {
    let out = run(
        &[
            "playtest",
            "telepathy",
            "--games",
            "6",
            "--seats",
            "random,random,random,random",
        ],
        "",
    );
    let o = text(&out.stdout);
    assert!(out.status.success(), "{o}");
    assert!(o.contains("playtest telepathy: 6 games"), "{o}");
    assert!(o.contains("hit rate, all predictions"), "{o}");
    assert!(o.contains("forced removals"), "{o}");
    assert!(
        text(&out.stderr).contains("playtest telepathy: 6/6 games"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["playtest", "splitbrain", "--games", "3"], "");
    let o = text(&out.stdout);
    assert!(o.contains("share of team turns resolved directly"), "{o}");
    assert!(o.contains("share of moves that were the engine's best"), "{o}");
}

#[test]
fn playtest_jobs_give_the_same_figures_as_one_job() {
    // Engine seats (seeded) in Gravity, random ones in Cooperative Chess 2 and the generic `mcts`
    // player in Booster, Cloak and Split-Brain: the report and the
    // CSV, every line but the first (its time), are the same with 1 and 3 jobs.
    let dir = std::env::temp_dir().join(format!("menagerie-jobs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (game, seats) in [
        ("gravity", "engine,random"),
        ("coop2", "random,random"),
        ("booster", "mcts:iterations=60,engine:player=greedy"),
        // Its leaves are quiescence searches, whose table must not carry over between games.
        ("cloak", "mcts:iterations=60,engine:player=search"),
        // Its leaves' values are kept per thread; its partner model searches too.
        (
            "splitbrain",
            "mcts:iterations=60:partner=60:depth=4,engine:player=focal,mcts:iterations=60:partner=60,engine:player=focal",
        ),
    ] {
        let mut reports = Vec::new();
        for jobs in ["1", "3"] {
            let csv = dir.join(format!("{game}-{jobs}.csv"));
            let out = run(
                &[
                    "playtest",
                    game,
                    "--games",
                    "7",
                    "--seed",
                    "5",
                    "--seats",
                    seats,
                    "--jobs",
                    jobs,
                    "--csv",
                    csv.to_str().unwrap(),
                ],
                "",
            );
            let o = text(&out.stdout);
            assert!(out.status.success(), "{o}{}", text(&out.stderr));
            assert!(text(&out.stderr).contains(&format!("playtest {game}: 7/7 games")));
            let body: Vec<String> = o.lines().skip(1).map(String::from).collect();
            reports.push((body, std::fs::read_to_string(&csv).unwrap()));
        }
        assert_eq!(reports[0], reports[1], "{game}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let out = run(&["playtest", "coop2", "--games", "2", "--jobs", "0"], "");
    assert!(
        text(&out.stderr).contains("--jobs 0: give 1 to 256"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn solve_and_playtest_report_solitaire_deals() {
    let out = run(&["solve", "parade", "--deals", "3", "--seed", "2"], "");
    let o = text(&out.stdout);
    assert!(out.status.success(), "{o}{}", text(&out.stderr));
    for seed in 2..=4 {
        assert!(o.contains(&format!("deal {seed}: optimum ")), "{o}");
    }
    assert!(o.contains("proved optimal: 3 of 3 (100.0%)"), "{o}");
    assert!(o.contains("time per deal: median "), "{o}");
    assert!(o.contains("optimum: mean "), "{o}");
    // A game without a solver, and a bad budget: one line, exit 2.
    for (args, why) in [
        (vec!["solve", "gravity"], "gravity has no open-deal solver"),
        (
            vec!["solve", "parade", "--budget", "x"],
            "--budget: 'x' is not a number of states",
        ),
        (
            vec!["playtest", "gravity", "--optimum", "10"],
            "gravity has no open-deal solver",
        ),
    ] {
        let out = run(&args, "");
        let e = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains(why) && e.lines().count() == 1, "{args:?}: {e}");
    }
    // A budget too small to prove every deal: the mean over all deals is only the best found,
    // and the optimum is the mean of the proved ones.
    let out = run(&["solve", "neighbour", "--deals", "4", "--budget", "100"], "");
    let o = text(&out.stdout);
    assert!(o.contains("proved optimal: 2 of 4 (50.0%)"), "{o}");
    assert!(o.lines().any(|l| l.starts_with("best found: mean ")), "{o}");
    assert!(
        o.lines()
            .any(|l| l.starts_with("optimum (2 proved deals): mean 17.500")),
        "{o}"
    );
    assert!(!o.lines().any(|l| l.starts_with("optimum: mean")), "{o}");
    // The playtest with the same deals solved: the cost of the hidden order, each spread with
    // its quartiles and a histogram.
    let out = run(&["playtest", "parade", "--games", "4", "--optimum", "100000"], "");
    let o = text(&out.stdout);
    assert!(out.status.success(), "{o}");
    assert!(o.contains("open-deal optimum"), "{o}");
    assert!(o.contains("optimum less score: mean "), "{o}");
    assert!(o.lines().any(|l| l.starts_with("score: mean ")), "{o}");
    assert!(o.contains(" quartiles "), "{o}");
    // The optimum is proved on these deals, so no game scores above it.
    let proved = o.lines().find(|l| l.starts_with("optimum proved ")).unwrap();
    assert_eq!(proved.split_whitespace().nth(2), Some("1.000"), "{proved}");
    let less = o.lines().find(|l| l.starts_with("optimum less score: ")).unwrap();
    let min: f64 = less
        .split(", min ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(min >= 0.0, "{less}");
    assert!(o.lines().any(|l| l.ends_with('#')), "{o}");
}

/// A person plays a whole game at the terminal: the test reads what the seat is shown and
/// answers each question with the first legal action it lists, to the end of the game.
#[test]
fn a_person_plays_whole_games_at_the_terminal() {
    use std::io::{BufRead, BufReader};
    for (game, seats) in [
        ("splitbrain", "human,random,engine,random"),
        ("telepathy", "human,random,engine,random"),
        ("gravity", "human,engine"),
        ("cloak", "human,engine"),
        ("coop2", "human,engine"),
        ("booster", "human,engine"),
        ("parade", "human"),
        ("neighbour", "human"),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
            .args(["play", game, "--seats", seats, "--seed", "7"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let (mut legal, mut answers, mut last) = (String::new(), 0, String::new());
        for line in out.lines() {
            let line = line.unwrap();
            if let Some(l) = line.strip_prefix("[seat 0] legal: ") {
                legal = l.to_string();
            } else if line.starts_with("[seat 0] your ") && line.ends_with('?') {
                let first = legal.split(", ").next().unwrap_or("");
                writeln!(stdin, "{first}").unwrap();
                answers += 1;
            }
            last = line;
            if last.starts_with("summary:") {
                break;
            }
        }
        drop(stdin);
        let _ = child.wait();
        assert!(answers > 5, "{game}: {answers} answers");
        assert!(last.starts_with("summary: 1 games"), "{game}: {last}");
    }
}

/// `play --pgn`: an RBC game between random seats (they pass now and then) is written as PGN,
/// and `pgn read` reaches the board the rules console reaches with the record's actions.
#[test]
fn rbc_games_are_written_as_pgn_that_reads_back_to_the_true_board() {
    let dir = std::env::temp_dir().join(format!("menagerie-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (rec, pgn) = (dir.join("rbc.jsonl"), dir.join("rbc.pgn"));
    let mut passes = 0;
    for seed in ["3", "4"] {
        let out = run(
            &[
                "play",
                "rbc",
                "--seats",
                "random,random",
                "--seed",
                seed,
                "--record",
                rec.to_str().unwrap(),
                "--pgn",
                pgn.to_str().unwrap(),
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let record = std::fs::read_to_string(&rec).unwrap();
        let mut script = String::new();
        for line in record.lines().filter(|l| l.contains("\"action\":")) {
            let action = line.split("\"action\":\"").nth(1).unwrap().split('"').next().unwrap();
            passes += usize::from(action == "pass");
            script.push_str(&format!("act {action}\n"));
        }
        script.push_str("state\nquit\n");
        let console = text(&run(&["referee", "rbc"], &script).stdout);
        let state = console
            .lines()
            .rev()
            .find(|l| !l.starts_with("ok"))
            .unwrap()
            .to_string();
        let board: Vec<&str> = state.split(' ').take(4).collect();
        let written = std::fs::read_to_string(&pgn).unwrap();
        assert!(
            written.contains("[Variant \"rbc\"]") && written.contains("[White \"random\"]"),
            "{written}"
        );
        let read = run(&["pgn", "read", pgn.to_str().unwrap()], "");
        assert!(read.status.success(), "{}", text(&read.stderr));
        let read = text(&read.stdout);
        assert!(
            read.contains(&board.join(" ")),
            "seed {seed}: the PGN reads to\n{read}\nthe console's board is {state}"
        );
    }
    assert!(passes > 0, "no pass was played: the null move is untested");
    let out = run(
        &[
            "play",
            "splitbrain",
            "--seats",
            "random,random,random,random",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        !out.status.success() && text(&out.stderr).contains("--pgn"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn playtest_shards_merge_to_the_figures_of_one_run() {
    // Gravity with an engine and a random seat, 7 games in 3 shards (3, 2 and 2 games): the
    // merged report and CSV, every line but the title, are those of one run.
    let dir = std::env::temp_dir().join(format!("menagerie-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let base = [
        "playtest",
        "gravity",
        "--games",
        "7",
        "--seed",
        "5",
        "--seats",
        "engine,random",
    ];
    let whole = run(&[&base[..], &["--csv", &path("whole.csv")]].concat(), "");
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let out = run(
            &[&base[..], &["--shard", &shard, "--out", &path(&format!("s{i}"))]].concat(),
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).starts_with(&format!("playtest gravity: shard {i}/3")));
    }
    // Shards in any order.
    let merged = run(
        &[
            "playtest",
            "--merge",
            &path("s3"),
            &path("s1"),
            &path("s2"),
            "--csv",
            &path("merged.csv"),
        ],
        "",
    );
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let body = |o: &Output| text(&o.stdout).lines().skip(1).map(String::from).collect::<Vec<_>>();
    assert_eq!(body(&merged), body(&whole));
    assert!(text(&merged.stdout).contains("merged from 3 shards"));
    assert_eq!(
        std::fs::read_to_string(path("merged.csv")).unwrap(),
        std::fs::read_to_string(path("whole.csv")).unwrap()
    );
    // A shard missing or given twice, a shard of another playtest, a shard without its file.
    let missing = run(&["playtest", "--merge", &path("s1"), &path("s2")], "");
    assert!(
        text(&missing.stderr).contains("shard 3/3 is missing"),
        "{}",
        text(&missing.stderr)
    );
    let twice = run(&["playtest", "--merge", &path("s1"), &path("s1"), &path("s2")], "");
    assert!(text(&twice.stderr).contains("given twice"), "{}", text(&twice.stderr));
    let other = run(
        &[
            "playtest",
            "gravity",
            "--games",
            "7",
            "--seed",
            "6",
            "--seats",
            "engine,random",
            "--shard",
            "3/3",
            "--out",
            &path("o3"),
        ],
        "",
    );
    assert!(other.status.success());
    let mixed = run(&["playtest", "--merge", &path("s1"), &path("s2"), &path("o3")], "");
    assert!(
        text(&mixed.stderr).contains("another playtest"),
        "{}",
        text(&mixed.stderr)
    );
    let no_file = run(&[&base[..], &["--shard", "1/3"]].concat(), "");
    assert!(
        text(&no_file.stderr).contains("needs --out FILE"),
        "{}",
        text(&no_file.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn playtest_writes_a_design_report_with_settings_side_by_side() {
    let dir = std::env::temp_dir().join(format!("menagerie-report-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = run(
        &[
            "playtest",
            "gravity",
            "--games",
            "4",
            "--seed",
            "2",
            "--report",
            d,
            "--compare",
            "end=fall",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(dir.join("gravity.html")).unwrap();
    // Both columns, every question of the game with its figure, intervals drawn, nothing fetched.
    for want in [
        "rule book (default settings) (4 games)",
        "end=fall (4 games)",
        "Does White, who moves last, win more often?",
        "How many pieces end unscored?",
        "unscored pieces at the end",
        " ± ",
    ] {
        assert!(page.contains(want), "no '{want}' in the report");
    }
    assert_eq!(page.matches("<svg").count(), page.matches("</svg>").count());
    assert!(page.matches("<svg").count() >= 6);
    assert!(!page.contains("NaN") && !page.contains("http://") && !page.contains("<script"));
    // Under end=fall every piece scores: its column says 0 unscored; the rule book's does not.
    let row = page
        .lines()
        .find(|l| l.contains("How many pieces end unscored?"))
        .unwrap();
    let cells: Vec<&str> = row.split("<td>").skip(3).take(2).collect();
    assert!(
        !cells[0].starts_with("0.000 ± 0.000") && cells[1].starts_with("0.000 ± 0.000"),
        "{row}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let alone = run(&["playtest", "gravity", "--games", "1", "--compare", "end=fall"], "");
    assert!(
        text(&alone.stderr).contains("give --report too"),
        "{}",
        text(&alone.stderr)
    );
}
