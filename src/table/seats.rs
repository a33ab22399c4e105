//! Seats: who plays a seat of a table game. Every seat gets the same lines (`kit-game`,
//! `kit-see`, `kit-event`, `kit-ask`, `kit-end`, `../shared/protocol.md` §5), in the form of
//! method calls; a `cmd:` seat gets them as text. A [`SeatError`] from any call means the seat
//! is lost (a program that died, stayed silent or kept answering garbage).

use super::{FieldKind, GameInfo, Outcome, Seen, Settings, Table, parse_settings, scores_text};
use crate::lines::{self, Line};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A seat's answer to a question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// An action's text, to be checked by the rules.
    Action(String),
    /// A line that is no answer to this question (not UTF-8, another question's id, not a
    /// `kit-act` line): a bad answer, with why.
    Garbage {
        /// The line as received (invalid bytes replaced).
        line: String,
        /// Why it is no answer, in a few words.
        why: String,
    },
}

/// Longest line a seat program may send; a longer one loses the seat at once.
pub const MAX_SEAT_LINE: usize = 64 * 1024;

/// Lines a seat program may have sent ahead of the referee's reading (with [`MAX_SEAT_LINE`],
/// what a flooding program can make the referee hold).
const SEAT_LINES_AHEAD: usize = 8;

/// Lines the referee may have queued for a seat program that does not read them yet; past
/// that the program has stopped reading its input and loses the seat.
const SEAT_LINES_BEHIND: usize = 4096;

/// Why a seat is lost in the middle of a game; its text is the forfeit's reason in the record.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatError {
    /// The seat's program, page or terminal is gone (why, in words).
    Gone(String),
    /// No answer within the seat's time (in seconds).
    Silent(f64),
    /// The program stopped reading its input for the seat's time (in seconds).
    NotReading(f64),
    /// The program sent a line of more than this many bytes.
    LineTooLong(usize),
    /// The terminal could not be written or read (the I/O error).
    Terminal(String),
    /// Menagerie's own player gave up (why).
    Player(PlayerError),
    /// A replayed record: the seat forfeits here, or the record has no answer for it.
    Record(String),
}

/// Why Menagerie's own player (a [`Player`], the random seat) gives up its seat; its text is
/// the forfeit's reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// An observation it cannot read (the game's reason).
    Unreadable(String),
    /// It was offered no legal action.
    NoLegalAction,
    /// The referee refused its action (a bug in the player): the seat's kind and the message.
    Refused {
        /// `engine` or `random`.
        seat: &'static str,
        /// The referee's message.
        message: String,
    },
    /// Its own search or program failed (why).
    Failed(String),
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Unreadable(why) | PlayerError::Failed(why) => f.write_str(why),
            PlayerError::NoLegalAction => f.write_str("no legal action"),
            PlayerError::Refused { seat, message } => write!(f, "{seat} seat refused: {message}"),
        }
    }
}

impl fmt::Display for SeatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatError::Gone(why) | SeatError::Record(why) => f.write_str(why),
            SeatError::Player(e) => e.fmt(f),
            SeatError::Silent(s) => write!(f, "no answer in {s} s"),
            SeatError::NotReading(s) => write!(
                f,
                "the seat program stopped reading its input ({SEAT_LINES_BEHIND} lines unread for {s} s)"
            ),
            SeatError::LineTooLong(n) => write!(f, "sent a line of more than {n} bytes (at most {MAX_SEAT_LINE})"),
            SeatError::Terminal(e) => write!(f, "terminal: {e}"),
        }
    }
}

impl std::error::Error for SeatError {}

impl From<SeatError> for String {
    fn from(e: SeatError) -> String {
        e.to_string()
    }
}

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
    ) -> Result<(), SeatError>;
    /// What the seat may see now (sent whenever it changes).
    fn see(&mut self, seen: &Seen) -> Result<(), SeatError>;
    /// A public happening.
    fn event(&mut self, text: &str) -> Result<(), SeatError>;
    /// Asks for one action of `kind`; `legal` are the seat's legal actions. `Err` loses the
    /// seat; an [`Answer::Garbage`] counts as a bad answer.
    fn ask(&mut self, id: u64, kind: &str, seconds_left: f64, legal: &[String]) -> Result<Answer, SeatError>;
    /// The last answer was refused with this one-line message; the same question follows.
    fn refused(&mut self, message: &str) -> Result<(), SeatError>;
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
    /// The seat's new observation (the game's value where the table handed it over).
    fn see(&mut self, seen: &Seen) -> Result<(), PlayerError>;
    /// An action among `legal`.
    fn decide(&mut self, legal: &[String]) -> Result<String, PlayerError>;
}

/// A [`Player`] in a seat: it ignores events (the observations carry what it needs) and gives
/// up when refused (an engine that answers illegally has a bug).
pub struct PlayerSeat<P: Player>(pub P);

impl<P: Player> Seat for PlayerSeat<P> {
    fn start(&mut self, _: &str, _: usize, _: usize, _: &[&str], _: &Settings) -> Result<(), SeatError> {
        Ok(())
    }
    fn see(&mut self, seen: &Seen) -> Result<(), SeatError> {
        self.0.see(seen).map_err(SeatError::Player)
    }
    fn event(&mut self, _: &str) -> Result<(), SeatError> {
        Ok(())
    }
    fn ask(&mut self, _: u64, _: &str, _: f64, legal: &[String]) -> Result<Answer, SeatError> {
        self.0.decide(legal).map(Answer::Action).map_err(SeatError::Player)
    }
    fn refused(&mut self, message: &str) -> Result<(), SeatError> {
        Err(SeatError::Player(PlayerError::Refused {
            seat: "engine",
            message: message.to_string(),
        }))
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
    fn start(&mut self, _: &str, _: usize, _: usize, _: &[&str], _: &Settings) -> Result<(), SeatError> {
        Ok(())
    }
    fn see(&mut self, _: &Seen) -> Result<(), SeatError> {
        Ok(())
    }
    fn event(&mut self, _: &str) -> Result<(), SeatError> {
        Ok(())
    }
    fn ask(&mut self, _: u64, _: &str, _: f64, legal: &[String]) -> Result<Answer, SeatError> {
        if legal.is_empty() {
            return Err(SeatError::Player(PlayerError::NoLegalAction));
        }
        Ok(Answer::Action(legal[self.rng.random_range(0..legal.len())].clone()))
    }
    fn refused(&mut self, message: &str) -> Result<(), SeatError> {
        Err(SeatError::Player(PlayerError::Refused {
            seat: "random",
            message: message.to_string(),
        }))
    }
    fn end(&mut self, _: &Outcome) {}
}

/// A person at this terminal: shows what the seat sees (each field labelled, boards drawn) and
/// its legal actions, reads one action a line from standard input, asks again after a bad one
/// with the rules' reason, and keeps the seat's running score over the games of the run.
pub struct HumanSeat {
    seat: usize,
    /// `None`: standard input, read through std's one shared buffer, so that no seat's own
    /// buffer takes lines meant for another question.
    input: Option<Box<dyn BufRead + Send>>,
    out: Box<dyn Write + Send>,
    /// The game's descriptor, whose fields label the observation; `None`: shown as it is.
    info: Option<&'static GameInfo>,
}

/// Each seat's (score, games) over the games of this process, for a person's running score.
static RUNNING_SCORE: std::sync::Mutex<Vec<(f64, u32)>> = std::sync::Mutex::new(Vec::new());

impl HumanSeat {
    /// A person on standard input and output.
    pub fn stdio() -> HumanSeat {
        HumanSeat {
            seat: 0,
            input: None,
            out: Box::new(std::io::stdout()),
            info: None,
        }
    }

    /// A person behind the given streams.
    pub fn new(input: Box<dyn BufRead + Send>, out: Box<dyn Write + Send>) -> HumanSeat {
        HumanSeat {
            seat: 0,
            input: Some(input),
            out,
            info: None,
        }
    }

    /// Shows each observation by the game's fields ([`GameInfo::fields`]).
    pub fn with_info(mut self, info: &'static GameInfo) -> HumanSeat {
        self.info = Some(info);
        self
    }

    fn say(&mut self, text: &str) -> Result<(), SeatError> {
        writeln!(self.out, "{text}")
            .and_then(|_| self.out.flush())
            .map_err(|e| SeatError::Terminal(e.to_string()))
    }
}

impl Seat for HumanSeat {
    fn start(&mut self, game: &str, seat: usize, seats: usize, roles: &[&str], _: &Settings) -> Result<(), SeatError> {
        self.seat = seat;
        self.say(&format!(
            "[seat {seat}] {game}: you are seat {seat} of {seats} ({})",
            roles.join(" ")
        ))
    }
    fn see(&mut self, seen: &Seen) -> Result<(), SeatError> {
        let observation = seen.text();
        let mut text = format!("[seat {}] you see: {observation}", self.seat);
        for f in self.info.and_then(|i| i.fields_of(observation)).unwrap_or_default() {
            if f.kind == FieldKind::Board {
                for row in draw_placement(f.text) {
                    text.push_str(&format!("\n[seat {}]   {row}", self.seat));
                }
            } else {
                text.push_str(&format!("\n[seat {}]   {}: {}", self.seat, f.label, f.text));
            }
        }
        self.say(&text)
    }
    fn event(&mut self, text: &str) -> Result<(), SeatError> {
        self.say(&format!("[seat {}] event: {text}", self.seat))
    }
    fn ask(&mut self, _: u64, kind: &str, _: f64, legal: &[String]) -> Result<Answer, SeatError> {
        self.say(&format!("[seat {}] legal: {}", self.seat, legal.join(", ")))?;
        self.say(&format!("[seat {}] your {kind}?", self.seat))?;
        let read = match self.input.as_mut() {
            Some(input) => lines::read_line(input, lines::MAX_LINE),
            None => lines::read_line(&mut std::io::stdin().lock(), lines::MAX_LINE),
        };
        match read {
            Ok(None) => Err(SeatError::Gone("the terminal closed".into())),
            Ok(Some(line)) => Ok(match line.text(lines::MAX_LINE) {
                Ok(t) => Answer::Action(t.trim().to_string()),
                Err((why, line)) => Answer::Garbage { line, why },
            }),
            Err(e) => Err(SeatError::Terminal(e.to_string())),
        }
    }
    fn refused(&mut self, message: &str) -> Result<(), SeatError> {
        self.say(&format!("[seat {}] {message}", self.seat))
    }
    fn end(&mut self, outcome: &Outcome) {
        let mine = outcome.scores.get(self.seat).copied().unwrap_or(0.0);
        let (total, games) = {
            let mut all = RUNNING_SCORE.lock().unwrap_or_else(|e| e.into_inner());
            if all.len() <= self.seat {
                all.resize(self.seat + 1, (0.0, 0));
            }
            all[self.seat].0 += mine;
            all[self.seat].1 += 1;
            all[self.seat]
        };
        let _ = self.say(&format!(
            "[seat {}] {outcome}\n[seat {}] your score: {mine} this game, {total} in {games} game{}",
            self.seat,
            self.seat,
            if games == 1 { "" } else { "s" }
        ));
    }
    fn patient(&self) -> bool {
        true
    }
}

/// A board field (a FEN placement: digit runs, letters, `*` holes, `?` unknown) drawn for a
/// terminal: top rank first with its number, files lettered under it, chess pieces as their
/// Unicode figures (White hollow, Black filled), other pieces as their letters, `·` empty.
pub fn draw_placement(placement: &str) -> Vec<String> {
    let board = placement.split('[').next().unwrap_or("");
    let rows: Vec<Vec<String>> = board
        .split('/')
        .map(|row| {
            let mut cells = Vec::new();
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut n = d;
                    while let Some(e) = chars.peek().and_then(|c| c.to_digit(10)) {
                        n = n * 10 + e;
                        chars.next();
                    }
                    cells.extend((0..n).map(|_| "·".to_string()));
                } else if c == '*' {
                    cells.push(" ".into());
                } else if c.is_ascii_alphabetic() || c == '?' {
                    cells.push(figure(c).map_or(c.to_string(), String::from));
                }
            }
            cells
        })
        .collect();
    let files = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width = rows.len().to_string().len();
    let mut out: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, cells)| format!("{:>width$} {}", rows.len() - i, cells.join(" ")))
        .collect();
    let letters: Vec<String> = (0..files).map(|f| char::from(b'a' + f as u8).to_string()).collect();
    out.push(format!("{:>width$} {}", "", letters.join(" ")));
    out
}

/// The Unicode figure of a chess piece letter (upper case White).
fn figure(c: char) -> Option<&'static str> {
    Some(match c {
        'K' => "♔",
        'Q' => "♕",
        'R' => "♖",
        'B' => "♗",
        'N' => "♘",
        'P' => "♙",
        'k' => "♚",
        'q' => "♛",
        'r' => "♜",
        'b' => "♝",
        'n' => "♞",
        'p' => "♟",
        _ => return None,
    })
}

/// A child process speaking the seat lines on its standard input and output, in a process
/// group of its own that ends with the seat. What it may cost the referee is bounded: lines of
/// at most [`MAX_SEAT_LINE`] bytes, a few read ahead, each question answered within the
/// seat's time by one line.
pub struct CmdSeat {
    child: Child,
    /// Lines to the program, written by a thread of their own (a program that does not read
    /// cannot block the referee).
    to: Option<mpsc::SyncSender<String>>,
    from: mpsc::Receiver<Line>,
    /// Longest wait for one answer.
    pub timeout: Duration,
}

impl CmdSeat {
    /// Starts `command` (a program and its arguments, separated by spaces).
    pub fn spawn(command: &str, timeout: Duration) -> Result<CmdSeat, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("cmd: needs a program")?;
        let mut cmd = Command::new(program);
        cmd.args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|e| format!("cannot start '{program}': {e}"))?;
        #[cfg(unix)]
        if let Ok(pgid) = i32::try_from(child.id()) {
            groups::add(pgid);
        }
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut stdin = child.stdin.take().ok_or("no stdin")?;
        let (tx, from) = mpsc::sync_channel(SEAT_LINES_AHEAD);
        std::thread::spawn(move || {
            let mut input = BufReader::new(stdout);
            while let Ok(Some(line)) = lines::read_line_or_give_up(&mut input, MAX_SEAT_LINE) {
                let long = matches!(line, Line::TooLong(_));
                if tx.send(line).is_err() || long {
                    break;
                }
            }
        });
        let (to, lines_out) = mpsc::sync_channel::<String>(SEAT_LINES_BEHIND);
        std::thread::spawn(move || {
            for line in lines_out {
                if writeln!(stdin, "{line}").and_then(|_| stdin.flush()).is_err() {
                    break;
                }
            }
        });
        Ok(CmdSeat {
            child,
            to: Some(to),
            from,
            timeout,
        })
    }

    /// Why the program is gone, in words: its exit status when it has one.
    fn gone(&mut self) -> SeatError {
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return SeatError::Gone(format!("the seat program has exited ({status})"));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        SeatError::Gone("the seat program closed its output".into())
    }

    /// Queues a line for the program; when the queue is full, waits up to the seat's time for
    /// the program to read on.
    fn send(&mut self, line: &str) -> Result<(), SeatError> {
        let to = self
            .to
            .as_ref()
            .ok_or_else(|| SeatError::Gone("the seat is closed".into()))?;
        let deadline = Instant::now() + self.timeout;
        let mut line = line.to_string();
        loop {
            match to.try_send(line) {
                Ok(()) => return Ok(()),
                Err(mpsc::TrySendError::Full(back)) if Instant::now() < deadline => {
                    line = back;
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(mpsc::TrySendError::Full(_)) => return Err(SeatError::NotReading(self.timeout.as_secs_f64())),
                Err(mpsc::TrySendError::Disconnected(_)) => return Err(self.gone()),
            }
        }
    }
}

/// Reads one answer line: `kit-act ID ACTION` for question `id`, anything else garbage.
fn answer_of(line: Line, id: u64) -> Result<Answer, SeatError> {
    let text = match line {
        Line::Text(t) => t,
        Line::NotUtf8(line) => {
            return Ok(Answer::Garbage {
                line,
                why: "not UTF-8".into(),
            });
        }
        Line::TooLong(n) => return Err(SeatError::LineTooLong(n)),
    };
    let garbage = |why: String| Answer::Garbage {
        line: text.clone(),
        why,
    };
    let Some(rest) = text.strip_prefix("kit-act ") else {
        return Ok(garbage(format!("not 'kit-act {id} ACTION'")));
    };
    let (n, action) = rest.trim_start().split_once(' ').unwrap_or((rest.trim(), ""));
    Ok(match n.parse::<u64>() {
        Ok(n) if n == id => Answer::Action(action.trim().to_string()),
        Ok(n) if n < id => garbage(format!("a stale answer to question {n}; this is question {id}")),
        Ok(n) => garbage(format!("an answer to question {n}, never asked; this is question {id}")),
        Err(_) => garbage(format!("'{n}' is no question id; this is question {id}")),
    })
}

impl Seat for CmdSeat {
    fn start(
        &mut self,
        game: &str,
        seat: usize,
        seats: usize,
        roles: &[&str],
        settings: &Settings,
    ) -> Result<(), SeatError> {
        let mut line = format!("kit-game {game} {seat} {seats} {}", roles.join(" "));
        for (k, v) in settings {
            line += &format!(" {k}={v}");
        }
        self.send(&line)
    }
    fn see(&mut self, seen: &Seen) -> Result<(), SeatError> {
        self.send(&format!("kit-see {}", seen.text()))
    }
    fn event(&mut self, text: &str) -> Result<(), SeatError> {
        self.send(&format!("kit-event {text}"))
    }
    fn ask(&mut self, id: u64, kind: &str, seconds_left: f64, legal: &[String]) -> Result<Answer, SeatError> {
        // Our extension (docs/table-games.md): the legal actions, one `|`-separated line, so
        // that a seat program need not know the rules to answer.
        self.send(&format!("kit-legal {}", legal.join("|")))?;
        self.send(&format!("kit-ask {id} {kind} {seconds_left:.1}"))?;
        // One line answers: the next one the program sends, within its time.
        let deadline = Instant::now() + self.timeout;
        match self
            .from
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => answer_of(line, id),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(SeatError::Silent(self.timeout.as_secs_f64())),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(self.gone()),
        }
    }
    fn refused(&mut self, message: &str) -> Result<(), SeatError> {
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

/// The process groups of the seat programs running now, ended with their seats and, since a
/// group of its own does not get the terminal's Ctrl-C, by the referee's SIGINT, SIGTERM or
/// SIGHUP too (the record is already on disk, line by line).
#[cfg(unix)]
mod groups {
    use std::sync::Once;
    use std::sync::atomic::{AtomicI32, Ordering};

    const SLOTS: usize = 64;
    static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
    static HANDLER: Once = Once::new();

    unsafe extern "C" {
        /// POSIX `kill(2)`: a negative pid signals the whole process group.
        fn kill(pid: i32, sig: i32) -> i32;
        /// POSIX `signal(2)`.
        fn signal(sig: i32, handler: extern "C" fn(i32)) -> usize;
        /// POSIX `_exit(2)`.
        fn _exit(code: i32) -> !;
    }

    const SIGKILL: i32 = 9;

    /// Kills every seat program's group, then ends the referee as the signal would have.
    extern "C" fn on_signal(sig: i32) {
        for g in &GROUPS {
            let pgid = g.load(Ordering::SeqCst);
            if pgid > 0 {
                // SAFETY: kill(2) and _exit(2) are async-signal-safe and take plain integers.
                unsafe {
                    kill(-pgid, SIGKILL);
                }
            }
        }
        // SAFETY: as above.
        unsafe { _exit(128 + sig) }
    }

    /// Notes a seat program's group (and, the first time, takes over the ending signals).
    pub fn add(pgid: i32) {
        HANDLER.call_once(|| {
            for sig in [1, 2, 15] {
                // SAFETY: the handler only calls async-signal-safe functions.
                unsafe {
                    signal(sig, on_signal);
                }
            }
        });
        for g in &GROUPS {
            if g.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
                return;
            }
        }
    }

    /// Kills a seat program's group and forgets it.
    pub fn end(pgid: i32) {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours.
        unsafe {
            kill(-pgid, SIGKILL);
        }
        for g in &GROUPS {
            let _ = g.compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst);
        }
    }
}

impl Drop for CmdSeat {
    fn drop(&mut self) {
        // Closing its input asks the program to end; it gets a moment, then its whole process
        // group (anything it started) is killed.
        drop(self.to.take());
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        #[cfg(unix)]
        if let Ok(pgid) = i32::try_from(self.child.id()) {
            groups::end(pgid);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The seed of seat `i`'s player in a game dealt from `seed`.
pub fn seat_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(i as u64 + 1)
}

/// Checks seat specs for `table` without starting anything: one a seat, each `engine[:K=V...]`,
/// `mcts[:K=V...]`, `random`, `human` or `cmd:PROGRAM`, at most one `human`.
pub fn check_specs(table: &dyn Table, specs: &[String]) -> Result<(), String> {
    if specs.len() != table.seats() {
        return Err(format!(
            "{} has {} seats, --seats gives {}",
            table.info().name,
            table.seats(),
            specs.len()
        ));
    }
    if specs.iter().filter(|s| *s == "human").count() > 1 {
        return Err("one human seat per terminal: a second person would read the first one's secrets there".into());
    }
    for (i, spec) in specs.iter().enumerate() {
        let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let ok = match kind {
            "engine" | "mcts" => {
                rest.is_empty() || parse_settings(&rest.split(':').map(String::from).collect::<Vec<_>>()).is_ok()
            }
            "random" | "human" => rest.is_empty(),
            "cmd" => !rest.trim().is_empty(),
            _ => false,
        };
        if !ok {
            return Err(format!(
                "seat {i}: '{spec}' is not engine[:KEY=VALUE...], mcts[:KEY=VALUE...], random, human or cmd:PROGRAM"
            ));
        }
    }
    Ok(())
}

/// Makes the seats of one game from their specs (`engine[:K=V...]`, `random`, `human`,
/// `cmd:PROGRAM`), each seeded by [`seat_seed`].
pub fn make_seats(
    table: &dyn Table,
    specs: &[String],
    seed: u64,
    move_seconds: f64,
) -> Result<Vec<Box<dyn Seat>>, String> {
    check_specs(table, specs)?;
    (0..specs.len())
        .map(|i| make_seat(table, i, &specs[i], seed, move_seconds))
        .collect()
}

/// Makes seat `i` of a game dealt from `seed` from its spec (checked by [`check_specs`]).
pub fn make_seat(
    table: &dyn Table,
    i: usize,
    spec: &str,
    seed: u64,
    move_seconds: f64,
) -> Result<Box<dyn Seat>, String> {
    let seat_seed = seat_seed(seed, i);
    let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
    Ok(match kind {
        "engine" => {
            let options = if rest.is_empty() {
                Vec::new()
            } else {
                parse_settings(&rest.split(':').map(String::from).collect::<Vec<_>>())?
            };
            table.engine_seat(i, &options, seat_seed)?
        }
        "mcts" => {
            let options = if rest.is_empty() {
                Vec::new()
            } else {
                parse_settings(&rest.split(':').map(String::from).collect::<Vec<_>>())?
            };
            table.mcts_seat(i, &options, seat_seed)?
        }
        "random" if rest.is_empty() => Box::new(RandomSeat::new(seat_seed)),
        "human" if rest.is_empty() => Box::new(HumanSeat::stdio().with_info(table.info())),
        "cmd" if !rest.trim().is_empty() => {
            Box::new(CmdSeat::spawn(rest, Duration::from_secs_f64(move_seconds)).map_err(|e| format!("seat {i}: {e}"))?)
        }
        _ => {
            return Err(format!(
                "seat {i}: '{spec}' is not engine[:KEY=VALUE...], mcts[:KEY=VALUE...], random, human or cmd:PROGRAM"
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each way of losing a seat is its own value, and reads as the forfeit reason the records
    /// and the hostile-seat tests have always shown.
    #[test]
    fn seat_errors_are_values_that_read_as_their_forfeit_reasons() {
        assert_eq!(answer_of(Line::TooLong(70_000), 3), Err(SeatError::LineTooLong(70_000)));
        assert_eq!(
            SeatError::LineTooLong(70_000).to_string(),
            format!("sent a line of more than 70000 bytes (at most {MAX_SEAT_LINE})")
        );
        assert_eq!(SeatError::Silent(1.5).to_string(), "no answer in 1.5 s");
        assert_eq!(
            SeatError::NotReading(2.0).to_string(),
            format!("the seat program stopped reading its input ({SEAT_LINES_BEHIND} lines unread for 2 s)")
        );
        assert_eq!(
            SeatError::Terminal("broken pipe".into()).to_string(),
            "terminal: broken pipe"
        );
        assert_eq!(
            String::from(SeatError::Gone("the terminal closed".into())),
            "the terminal closed"
        );
        let mut random = RandomSeat::new(1);
        assert_eq!(
            random.ask(1, "move", 1.0, &[]),
            Err(SeatError::Player(PlayerError::NoLegalAction))
        );
        assert_eq!(
            random.refused("e9 is off the board"),
            Err(SeatError::Player(PlayerError::Refused {
                seat: "random",
                message: "e9 is off the board".into()
            }))
        );
        assert_eq!(
            SeatError::Player(PlayerError::Refused {
                seat: "engine",
                message: "e9 is off the board".into()
            })
            .to_string(),
            "engine seat refused: e9 is off the board"
        );
        assert_eq!(
            SeatError::Player(PlayerError::NoLegalAction).to_string(),
            "no legal action"
        );
        assert_eq!(
            SeatError::Player(PlayerError::Unreadable("bad placement".into())).to_string(),
            "bad placement"
        );
    }

    /// A seat program that has exited is gone, and says how it ended.
    #[cfg(unix)]
    #[test]
    fn a_seat_program_that_exits_is_gone() {
        let mut seat = CmdSeat::spawn("true", Duration::from_secs(5)).unwrap();
        match seat.ask(1, "move", 5.0, &["a".to_string()]) {
            Err(SeatError::Gone(why)) => assert!(why.starts_with("the seat program"), "{why}"),
            other => panic!("expected the seat gone, got {other:?}"),
        }
    }
}
