//! Hostile input against the real binary (issue 25): bytes that are not UTF-8 at every
//! line-based entry point, seat programs that flood, never end a line, send huge lines, answer
//! other questions or leave processes behind, records cut short (resumed) and forged (refused).
//! Each ends with the one-line error of its protocol, a forfeit that says what happened, within
//! the seat's time and with the referee's memory bounded.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_menagerie");

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("menagerie-hostile-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[repr(C)]
struct Rusage {
    utime: [i64; 2],
    stime: [i64; 2],
    maxrss: i64,
    rest: [i64; 13],
}

unsafe extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
}

/// Runs the binary with `args` (no input); returns its standard output, the seconds it took and
/// its peak resident memory in MB (from `wait4`, the kernel's own count). The child is reaped
/// by `wait4` itself, not by std (a second wait could reap another test's child).
#[allow(clippy::zombie_processes)]
fn run_measured(args: &[&str]) -> (String, f64, f64) {
    let start = Instant::now();
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
    let mut status = 0;
    let mut usage = Rusage {
        utime: [0; 2],
        stime: [0; 2],
        maxrss: 0,
        rest: [0; 13],
    };
    // SAFETY: the child is ours and not yet waited for; both pointers are to live locals.
    let pid = unsafe { wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    let secs = start.elapsed().as_secs_f64();
    (out, secs, usage.maxrss as f64 / 1024.0)
}

#[test]
fn bytes_that_are_not_utf8_get_an_error_line_and_the_loop_goes_on() {
    // UCI: the engine answers both isready, and says why the line between was dropped; a
    // Latin-1 byte in a setoption value loses nothing either.
    let out = run(
        &[],
        b"uci\nisready\n\xff\xfe\nsetoption name IniFile value caf\xe9.ini\nisready\nquit\n",
    );
    let o = text(&out.stdout);
    assert_eq!(o.matches("readyok").count(), 2, "{o}");
    assert_eq!(o.matches("info string not UTF-8: ").count(), 2, "{o}");
    assert!(out.status.success());
    // XBoard: the protocol's error form, then the next command is answered.
    let o = text(&run(&[], b"xboard\nprotover 2\n\xff\nping 7\nquit\n").stdout);
    assert!(o.contains("Error (not UTF-8): \u{fffd}\n"), "{o}");
    assert!(o.contains("pong 7"), "{o}");
    // Before the protocol is chosen.
    let o = text(&run(&[], b"\xfe\nuci\nisready\n").stdout);
    assert!(o.starts_with("Error (not UTF-8): ") && o.contains("readyok"), "{o}");
    // The rules console and the RBC referee.
    let o = text(&run(&["referee", "splitbrain"], b"\xffstate\nactor\n").stdout);
    assert_eq!(o, "Error (not UTF-8): \u{fffd}state\nseat 0 piece\n");
    let o = text(&run(&["rbc-referee"], b"\xff\nend\n").stdout);
    assert_eq!(o, "error not UTF-8: \u{fffd}\nnone\n");
    // A person at the terminal is asked again.
    let o = text(
        &run(
            &["play", "splitbrain", "--seats", "human,random,random,random"],
            b"mark \xe92\nmark b2\n",
        )
        .stdout,
    );
    assert!(o.contains("[seat 0] Error (not UTF-8): mark \u{fffd}2"), "{o}");
    assert!(o.contains("[seat 0] event: piece marked"), "{o}");
}

#[test]
fn seat_programs_lose_their_seat_saying_what_they_did() {
    for (prog, why) in [
        (
            "latin1.sh",
            "seat 1 forfeits: 3 bad answers, the last: kit-act 4 caf\u{fffd} (not UTF-8)",
        ),
        (
            "future.sh",
            "seat 1 forfeits: 3 bad answers, the last: kit-act 999999 pass (an answer to question 999999, never asked; this is question 4)",
        ),
        (
            "dies.sh",
            "seat 1 forfeits: the seat program has exited (exit status: 3)",
        ),
    ] {
        let seats = format!("random,cmd:sh tests/seats/{prog},random,random");
        let out = run(&["play", "telepathy", "--seats", &seats, "--move-seconds", "2"], b"");
        let o = text(&out.stdout);
        assert!(o.contains(&format!("{{{why}}}")), "{prog}: {o}");
    }
}

#[test]
fn flooding_and_endless_seats_end_within_their_time_and_memory() {
    for (seats, why) in [
        // A flood of stale answers.
        (
            "cmd:yes kit-act 0 x,random,random,random",
            "(a stale answer to question 0; this is question 3)",
        ),
        // Output without a newline, forever.
        ("cmd:cat /dev/zero,random,random,random", "sent a line of more than"),
        // One line of 50 MB.
        (
            "cmd:sh tests/seats/long_line.sh,random,random,random",
            "sent a line of more than",
        ),
        // Nothing at all, and it reads nothing.
        ("cmd:sleep 30,random,random,random", "no answer in 2 s"),
    ] {
        let (o, secs, mb) = run_measured(&["play", "splitbrain", "--seats", seats, "--move-seconds", "2"]);
        eprintln!("{seats}: {secs:.2} s, peak RSS {mb:.1} MB");
        assert!(o.contains("{seat 0 forfeits: ") && o.contains(why), "{seats}: {o}");
        assert!(secs < 3.0, "{seats}: {secs:.1} s");
        assert!(mb < 64.0, "{seats}: peak RSS {mb:.1} MB");
    }
}

fn alive(pid: u32) -> bool {
    // A zombie waiting for a parent that does not reap is dead too.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(") ").next().unwrap_or("").starts_with('Z'),
        Err(_) => false,
    }
}

#[test]
fn a_lost_seat_takes_its_whole_process_group_with_it() {
    let dir = temp_dir("group");
    let pidfile = dir.join("sleep.pid");
    let seats = format!(
        "random,cmd:sh tests/seats/spawns.sh {},random,random",
        pidfile.display()
    );
    let o = text(&run(&["play", "telepathy", "--seats", &seats], b"").stdout);
    assert!(o.contains("seat 1 forfeits: 3 bad answers"), "{o}");
    let pid: u32 = std::fs::read_to_string(&pidfile).unwrap().trim().parse().unwrap();
    let t = Instant::now();
    while alive(pid) && t.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(pid), "the seat's sleep {pid} outlived the game");
    // Ctrl-C (SIGINT) on the referee while it waits for a program: the program's group ends
    // too, though a group of its own does not get the terminal's signal.
    std::fs::remove_file(&pidfile).unwrap();
    let seats = format!(
        "random,cmd:sh tests/seats/spawns_and_waits.sh {},random,random",
        pidfile.display()
    );
    let mut child = Command::new(BIN)
        .args(["play", "telepathy", "--seats", &seats, "--move-seconds", "60"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while !pidfile.exists() && t.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let pid: u32 = std::fs::read_to_string(&pidfile).unwrap().trim().parse().unwrap();
    assert!(alive(pid));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    let t = Instant::now();
    while alive(pid) && t.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(pid), "the seat's sleep {pid} outlived the referee's Ctrl-C");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn lines_in(f: &Path) -> usize {
    std::fs::read_to_string(f).map_or(0, |t| t.lines().count())
}

#[test]
fn a_record_cut_short_replays_as_unfinished_and_resumes_to_the_same_game() {
    let dir = temp_dir("resume");
    let whole = dir.join("whole.jsonl");
    let cut = dir.join("cut.jsonl");
    let seats = "cmd:sh tests/seats/first_legal.sh 0.05,random,engine,random";
    let args = |f: &Path| -> Vec<String> {
        [
            "play",
            "telepathy",
            "--seats",
            seats,
            "--seed",
            "3",
            "--record",
            f.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let out = Command::new(BIN).args(args(&whole)).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The same game, killed once its record has a dozen lines: every step so far is there.
    let mut child = Command::new(BIN)
        .args(args(&cut))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while lines_in(&cut) < 12 && t.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = lines_in(&cut);
    assert!(kept >= 12, "{kept} lines");
    // The last line whole but without its newline (the program ended between the two) is kept.
    let t = std::fs::read_to_string(&cut).unwrap();
    std::fs::write(&cut, t.trim_end_matches('\n')).unwrap();
    let out = run(&["play", "--replay", cut.to_str().unwrap()], b"");
    let o = text(&out.stdout);
    assert!(out.status.success(), "{o}{}", text(&out.stderr));
    assert!(o.contains("game 1: unfinished at step "), "{o}");
    // Resumed with the same seats, it plays on to the end, appended to the same file: the game
    // of the uninterrupted run, line for line.
    let out = run(&["play", "--resume", cut.to_str().unwrap()], b"");
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("game 1: result "),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        std::fs::read_to_string(&cut).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
    let o = text(&run(&["play", "--replay", cut.to_str().unwrap()], b"").stdout);
    assert!(o.contains("replay: 1 games agree with the record"), "{o}");
    // A finished record has nothing to resume.
    let out = run(&["play", "--resume", cut.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is finished: nothing to resume"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn forged_records_are_refused_with_the_line_that_differs() {
    let dir = temp_dir("forged");
    let file = dir.join("game.jsonl");
    let f = file.to_str().unwrap();
    let out = run(
        &[
            "play",
            "splitbrain",
            "--seats",
            "random,cmd:sh tests/seats/garbage.sh,random,random",
            "--seed",
            "5",
            "--record",
            f,
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let good = std::fs::read_to_string(&file).unwrap();
    assert!(good.contains("\"refused\":\"flap your wings\""), "{good}");
    assert!(good.contains("\"forfeit\":1"), "{good}");
    let o = text(&run(&["play", "--replay", f], b"").stdout);
    assert!(
        o.contains("game 1: result black scores 0,0,1,1 {seat 1 forfeits: 3 bad answers"),
        "{o}"
    );
    let lines: Vec<&str> = good.lines().collect();
    let without = |pred: &dyn Fn(&str) -> bool| -> String {
        lines.iter().filter(|l| !pred(l)).map(|l| format!("{l}\n")).collect()
    };
    for (what, forged, why) in [
        (
            "seed",
            good.replacen("\"seed\":\"5\"", "\"seed\":\"6\"", 1),
            "line 2: the record has ",
        ),
        (
            "seats",
            good.replacen("\"seats\":[\"random\"", "\"seats\":[\"engine\"", 1),
            "line 2: the record has ",
        ),
        (
            "half a seat",
            good.replacen("{\"seat\":0,", "{\"seat\":0.5,", 1),
            "seat 0.5 is not a seat",
        ),
        (
            "seat -1",
            good.replacen("{\"seat\":0,", "{\"seat\":-1,", 1),
            "seat -1 is not a seat",
        ),
        (
            "forfeit moved",
            good.replacen("\"forfeit\":1", "\"forfeit\":2", 1)
                .replace("seat 1 forfeits", "seat 2 forfeits")
                .replace("0,0,1,1", "1,1,0,0")
                .replace("\"result\":\"black\"", "\"result\":\"white\""),
            "the record has {\"result\"",
        ),
        (
            "refusals removed",
            without(&|l: &str| l.contains("\"refused\"")),
            "the record has ",
        ),
        ("empty", String::new(), "no game in the record"),
        (
            "two people at one terminal",
            good.replacen("\"seats\":[\"random\"", "\"seats\":[\"human\"", 1)
                .replacen("\"cmd:sh tests/seats/garbage.sh\"", "\"human\"", 1),
            "one human seat per terminal",
        ),
        (
            "a program without a name",
            good.replacen("\"cmd:sh tests/seats/garbage.sh\"", "\"cmd:\"", 1),
            "seat 1: 'cmd:' is not",
        ),
    ] {
        std::fs::write(&file, &forged).unwrap();
        let out = run(&["play", "--replay", f], b"");
        let e = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {}", text(&out.stdout));
        assert_eq!(e.lines().count(), 1, "{what}: {e}");
        assert!(e.contains(why), "{what}: {e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
