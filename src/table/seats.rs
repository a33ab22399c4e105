//! Seats: who plays a seat of a table game. Every seat gets the same lines (`kit-game`,
//! `kit-see`, `kit-event`, `kit-ask`, `kit-end`, `../shared/protocol.md` §5), in the form of
//! method calls; a `cmd:` seat gets them as text. An `Err` from any call means the seat is lost
//! (a program that died, stayed silent or kept answering garbage).

use super::{Outcome, Settings, Table, parse_settings, scores_text};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// One seat's player.
pub trait Seat: Send {
    /// Once, before anything else: the game, this seat, the seat count, its roles, settings.
    fn start(
        &mut self,
        game: &str,
        seat: usize,
        seats: usize,
        roles: &[&str],
        settings: &Settings,
    ) -> Result<(), String>;
    /// What the seat may see now (sent whenever it changes).
    fn see(&mut self, observation: &str) -> Result<(), String>;
    /// A public happening.
    fn event(&mut self, text: &str) -> Result<(), String>;
    /// Asks for one action of `kind`; `legal` are the seat's legal actions.
    fn ask(&mut self, id: u64, kind: &str, seconds_left: f64, legal: &[String]) -> Result<String, String>;
    /// The last answer was refused with this one-line message; the same question follows.
    fn refused(&mut self, message: &str) -> Result<(), String>;
    /// The end of the game.
    fn end(&mut self, outcome: &Outcome);
    /// True for a seat that may answer badly any number of times (a person); others lose the
    /// seat after three bad answers.
    fn patient(&self) -> bool {
        false
    }
}

/// Menagerie's own player of a seat: it keeps a view from the observations it is sent and
/// decides from that alone. [`PlayerSeat`] makes it a seat.
pub trait Player: Send {
    /// The seat's new observation.
    fn see(&mut self, observation: &str) -> Result<(), String>;
    /// An action among `legal`.
    fn decide(&mut self, legal: &[String]) -> Result<String, String>;
}

/// A [`Player`] in a seat: it ignores events (the observations carry what it needs) and gives
/// up when refused (an engine that answers illegally has a bug).
pub struct PlayerSeat<P: Player>(pub P);

impl<P: Player> Seat for PlayerSeat<P> {
    fn start(&mut self, _: &str, _: usize, _: usize, _: &[&str], _: &Settings) -> Result<(), String> {
        Ok(())
    }
    fn see(&mut self, observation: &str) -> Result<(), String> {
        self.0.see(observation)
    }
    fn event(&mut self, _: &str) -> Result<(), String> {
        Ok(())
    }
    fn ask(&mut self, _: u64, _: &str, _: f64, legal: &[String]) -> Result<String, String> {
        self.0.decide(legal)
    }
    fn refused(&mut self, message: &str) -> Result<(), String> {
        Err(format!("engine seat refused: {message}"))
    }
    fn end(&mut self, _: &Outcome) {}
}

/// Reads an engine seat's numeric options: each known one as (name, min, max, default), plus
/// `seed=N`. Returns the values in the order given and the seed, if set.
pub fn number_options(options: &Settings, known: &[(&str, i64, i64, i64)]) -> Result<(Vec<i64>, Option<u64>), String> {
    let mut values: Vec<i64> = known.iter().map(|k| k.3).collect();
    let mut seed = None;
    for (k, v) in options {
        let n: Option<i64> = v.parse().ok();
        let slot = known.iter().position(|x| x.0 == k);
        match (k.as_str(), n, slot) {
            ("seed", Some(n), _) if n >= 0 => seed = Some(n as u64),
            (_, Some(n), Some(i)) if (known[i].1..=known[i].2).contains(&n) => values[i] = n,
            _ => {
                let names: Vec<String> = known.iter().map(|x| format!("{}={}..{}", x.0, x.1, x.2)).collect();
                return Err(format!("engine option {k}={v}: known are {}, seed=N", names.join(", ")));
            }
        }
    }
    Ok((values, seed))
}

/// Uniform over the legal actions, seeded.
pub struct RandomSeat {
    rng: StdRng,
}

impl RandomSeat {
    /// A random seat drawing from a generator seeded with `seed`.
    pub fn new(seed: u64) -> RandomSeat {
        RandomSeat {
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl Seat for RandomSeat {
    fn start(&mut self, _: &str, _: usize, _: usize, _: &[&str], _: &Settings) -> Result<(), String> {
        Ok(())
    }
    fn see(&mut self, _: &str) -> Result<(), String> {
        Ok(())
    }
    fn event(&mut self, _: &str) -> Result<(), String> {
        Ok(())
    }
    fn ask(&mut self, _: u64, _: &str, _: f64, legal: &[String]) -> Result<String, String> {
        if legal.is_empty() {
            return Err("no legal action".into());
        }
        Ok(legal[self.rng.random_range(0..legal.len())].clone())
    }
    fn refused(&mut self, message: &str) -> Result<(), String> {
        Err(format!("random seat refused: {message}"))
    }
    fn end(&mut self, _: &Outcome) {}
}

/// A person at this terminal: shows what the seat sees and its legal actions, reads one action
/// a line from standard input, and asks again after a bad one.
pub struct HumanSeat {
    seat: usize,
    /// `None`: standard input, read through std's one shared buffer, so that no seat's own
    /// buffer takes lines meant for another question.
    input: Option<Box<dyn BufRead + Send>>,
    out: Box<dyn Write + Send>,
}

impl HumanSeat {
    /// A person on standard input and output.
    pub fn stdio() -> HumanSeat {
        HumanSeat {
            seat: 0,
            input: None,
            out: Box::new(std::io::stdout()),
        }
    }

    /// A person behind the given streams.
    pub fn new(input: Box<dyn BufRead + Send>, out: Box<dyn Write + Send>) -> HumanSeat {
        HumanSeat {
            seat: 0,
            input: Some(input),
            out,
        }
    }

    fn say(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.out, "{text}")
            .and_then(|_| self.out.flush())
            .map_err(|e| format!("terminal: {e}"))
    }
}

impl Seat for HumanSeat {
    fn start(&mut self, game: &str, seat: usize, seats: usize, roles: &[&str], _: &Settings) -> Result<(), String> {
        self.seat = seat;
        self.say(&format!(
            "[seat {seat}] {game}: you are seat {seat} of {seats} ({})",
            roles.join(" ")
        ))
    }
    fn see(&mut self, observation: &str) -> Result<(), String> {
        self.say(&format!("[seat {}] you see: {observation}", self.seat))
    }
    fn event(&mut self, text: &str) -> Result<(), String> {
        self.say(&format!("[seat {}] event: {text}", self.seat))
    }
    fn ask(&mut self, _: u64, kind: &str, _: f64, legal: &[String]) -> Result<String, String> {
        self.say(&format!("[seat {}] legal: {}", self.seat, legal.join(", ")))?;
        self.say(&format!("[seat {}] your {kind}?", self.seat))?;
        let mut line = String::new();
        let read = match self.input.as_mut() {
            Some(input) => input.read_line(&mut line),
            None => std::io::stdin().read_line(&mut line),
        };
        match read {
            Ok(0) => Err("the terminal closed".into()),
            Ok(_) => Ok(line.trim().to_string()),
            Err(e) => Err(format!("terminal: {e}")),
        }
    }
    fn refused(&mut self, message: &str) -> Result<(), String> {
        self.say(&format!("[seat {}] {message}", self.seat))
    }
    fn end(&mut self, outcome: &Outcome) {
        let _ = self.say(&format!("[seat {}] {outcome}", self.seat));
    }
    fn patient(&self) -> bool {
        true
    }
}

/// A child process speaking the seat lines on its standard input and output.
pub struct CmdSeat {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    /// Longest wait for one answer.
    pub timeout: Duration,
}

impl CmdSeat {
    /// Starts `command` (a program and its arguments, separated by spaces).
    pub fn spawn(command: &str, timeout: Duration) -> Result<CmdSeat, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("cmd: needs a program")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start '{program}': {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Ok(CmdSeat {
            child,
            stdin: Some(stdin),
            lines: rx,
            timeout,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("the seat is closed")?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|_| "the seat program has exited".to_string())
    }
}

impl Seat for CmdSeat {
    fn start(
        &mut self,
        game: &str,
        seat: usize,
        seats: usize,
        roles: &[&str],
        settings: &Settings,
    ) -> Result<(), String> {
        let mut line = format!("kit-game {game} {seat} {seats} {}", roles.join(" "));
        for (k, v) in settings {
            line += &format!(" {k}={v}");
        }
        self.send(&line)
    }
    fn see(&mut self, observation: &str) -> Result<(), String> {
        self.send(&format!("kit-see {observation}"))
    }
    fn event(&mut self, text: &str) -> Result<(), String> {
        self.send(&format!("kit-event {text}"))
    }
    fn ask(&mut self, id: u64, kind: &str, seconds_left: f64, legal: &[String]) -> Result<String, String> {
        // Our extension (docs/table-games.md): the legal actions, one `|`-separated line, so
        // that a seat program need not know the rules to answer.
        self.send(&format!("kit-legal {}", legal.join("|")))?;
        self.send(&format!("kit-ask {id} {kind} {seconds_left:.1}"))?;
        let line = match self.lines.recv_timeout(self.timeout) {
            Ok(l) => l,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Err(format!("no answer in {} s", self.timeout.as_secs_f64()));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err("the seat program has exited".into()),
        };
        // `kit-act ID ACTION`. A `kit-act` for an earlier question is stale and skipped; any
        // other line is answered as a bad action (three lose the seat).
        let prefix = format!("kit-act {id} ");
        let mut line = line;
        let deadline = std::time::Instant::now() + self.timeout;
        while line.starts_with("kit-act ") && !line.starts_with(&prefix) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer in {} s", self.timeout.as_secs_f64()));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err("the seat program has exited".into()),
            };
        }
        Ok(line
            .strip_prefix(&prefix)
            .map_or(line.clone(), |a| a.trim().to_string()))
    }
    fn refused(&mut self, message: &str) -> Result<(), String> {
        self.send(message)
    }
    fn end(&mut self, outcome: &Outcome) {
        let _ = self.send(&format!(
            "kit-end {} {} {{{}}}",
            outcome.result,
            scores_text(&outcome.scores),
            outcome.reason
        ));
    }
}

impl Drop for CmdSeat {
    fn drop(&mut self) {
        // Closing stdin asks the program to end; it gets a moment, then it is killed.
        drop(self.stdin.take());
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The seed of seat `i`'s player in a game dealt from `seed`.
pub fn seat_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(i as u64 + 1)
}

/// Makes the seats of one game from their specs (`engine[:K=V...]`, `random`, `human`,
/// `cmd:PROGRAM`), each seeded by [`seat_seed`].
pub fn make_seats(
    table: &dyn Table,
    specs: &[String],
    seed: u64,
    move_seconds: f64,
) -> Result<Vec<Box<dyn Seat>>, String> {
    if specs.len() != table.seats() {
        return Err(format!(
            "{} has {} seats, --seats gives {}",
            table.name(),
            table.seats(),
            specs.len()
        ));
    }
    if specs.iter().filter(|s| *s == "human").count() > 1 {
        return Err("one human seat per terminal: a second person would read the first one's secrets there".into());
    }
    let mut out: Vec<Box<dyn Seat>> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let seat_seed = seat_seed(seed, i);
        let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
        out.push(match kind {
            "engine" => {
                let options = if rest.is_empty() {
                    Vec::new()
                } else {
                    parse_settings(&rest.split(':').map(String::from).collect::<Vec<_>>())?
                };
                table.engine_seat(i, &options, seat_seed)?
            }
            "random" if rest.is_empty() => Box::new(RandomSeat::new(seat_seed)),
            "human" if rest.is_empty() => Box::new(HumanSeat::stdio()),
            "cmd" if !rest.trim().is_empty() => Box::new(
                CmdSeat::spawn(rest, Duration::from_secs_f64(move_seconds)).map_err(|e| format!("seat {i}: {e}"))?,
            ),
            _ => {
                return Err(format!(
                    "seat {i}: '{spec}' is not engine[:KEY=VALUE...], random, human or cmd:PROGRAM"
                ));
            }
        });
    }
    Ok(out)
}
