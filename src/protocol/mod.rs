//! The protocol loop shared by UCI and CECP: a reader thread forwards input lines to the main
//! thread, which runs commands and searches. While a search runs, the reader handles what
//! cannot wait (stop, move now, `isready`, an idle `ping`) through shared flags, so the search
//! itself stays single-threaded and knows nothing about protocols.

pub mod cecp;
pub mod refusal;
pub mod uci;

use crate::engine::{Session, new_session};
use crate::games::Catalog;
use crate::lines;
use crate::search::Searcher;
use refusal::{Refusal, Why};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// Deepest `perft` the protocols run (it blocks input; deeper runs belong to the CLI).
pub const MAX_PROTOCOL_PERFT: u32 = 6;

/// Default transposition table size in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;

/// Engine name and version as announced.
pub const ENGINE_NAME: &str = concat!("Menagerie ", env!("CARGO_PKG_VERSION"));

/// Flags shared between the reader thread and the main thread.
#[derive(Default)]
pub struct Shared {
    /// Set to end the running search (read by the searcher).
    pub stop: Arc<AtomicBool>,
    /// Set while a ponder search runs and `ponderhit` has not come (read by the searcher).
    pub pondering: Arc<AtomicBool>,
    /// True while the main thread searches.
    pub searching: AtomicBool,
    /// True while CECP analysis runs (every command interrupts it).
    pub analyzing: AtomicBool,
    /// Set when the running search's move must not be played (CECP `force`, `new`, ...).
    pub discard: AtomicBool,
    /// True when a line is queued behind the running search (a later `ping` must wait too).
    pub queued: AtomicBool,
    /// Makes "is a search running?" and "forward this line" one step for the reader.
    pub gate: std::sync::Mutex<()>,
}

/// `savepgn FILE` of both protocols (an extension): the game since the last set-up, as PGN,
/// written to FILE; the result is the rules' when the game is over, `*` otherwise.
pub fn save_pgn(session: &mut dyn Session, file: &str, event: &str) -> Result<(), String> {
    if file.is_empty() {
        return Err("savepgn needs a file name".into());
    }
    let result = session.outcome().map_or("*", |o| o.result());
    let text = session.pgn(&[("Event", event)], result);
    std::fs::write(file, text).map_err(|e| format!("cannot write {file}: {e}"))
}

/// Restricts the searcher's next search to `moves` (legal here; repeats dropped).
pub fn search_only(searcher: &mut Searcher, moves: &[crate::moves::Move]) {
    let mut only = crate::moves::MoveList::new();
    for &m in moves {
        if !only.contains(&m) && !only.is_full() {
            only.push(m);
        }
    }
    searcher.search_only(&only);
}

/// Writes one line to stdout and flushes it.
pub fn send(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Engine state common to both protocols.
pub struct EngineState {
    /// The loaded variants.
    pub set: Catalog,
    /// The current game.
    pub session: Box<dyn Session>,
    /// The searcher (owns the transposition table).
    pub searcher: Searcher,
    /// Shared flags.
    pub shared: Arc<Shared>,
}

impl EngineState {
    /// Builds the state with the set's first variant (or `chess` when present).
    pub fn new(set: Catalog, shared: Arc<Shared>) -> Result<EngineState, String> {
        let first = set.get("chess").or_else(|| set.variants.first()).ok_or("no variants")?;
        let session = new_session(first);
        let mut searcher = Searcher::new(DEFAULT_HASH_MB, Arc::clone(&shared.stop));
        searcher.set_ponder_flag(Arc::clone(&shared.pondering));
        Ok(EngineState {
            set,
            session,
            searcher,
            shared,
        })
    }

    /// Switches to a variant by name; the state is unchanged on error.
    pub fn set_variant(&mut self, name: &str) -> Result<(), String> {
        let game = self.set.get(name).ok_or_else(|| format!("unknown variant '{name}'"))?;
        self.session = new_session(game);
        Ok(())
    }

    /// Switches between a variant and its Chess960 twin: the variant of the other castling
    /// kind with the same board and pieces (UCI_Chess960). Nothing changes when already there.
    pub fn set_chess960(&mut self, on: bool) -> Result<(), String> {
        let cur = self.session.variant();
        if cur.chess960 == on {
            return Ok(());
        }
        let letters = |v: &crate::Variant| v.pieces.iter().map(|p| p.letter).collect::<String>();
        let twin = self.set.variants.iter().find(|v| {
            v.chess960 == on
                && v.geometry.files() == cur.geometry.files()
                && v.geometry.ranks() == cur.geometry.ranks()
                && letters(v) == letters(cur)
                && v.rules == cur.rules
        });
        let Some(twin) = twin.map(|v| v.name.clone()) else {
            return Err(format!(
                "variant {} has no {} twin",
                cur.name,
                if on { "Chess960" } else { "non-Chess960" }
            ));
        };
        self.set_variant(&twin)
    }
}

/// Which protocol the first line chose.
enum Protocol {
    Uci,
    Cecp,
}

/// Runs the protocol loop on stdin/stdout until `quit` or end of input.
pub fn run(set: Catalog, random: bool) -> i32 {
    let shared = Arc::new(Shared::default());
    let (tx, rx) = mpsc::channel::<String>();
    let mut state = match EngineState::new(set, Arc::clone(&shared)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    // Pick the protocol from the first meaningful line.
    let stdin = std::io::stdin();
    let protocol = loop {
        let first = match lines::read_line(&mut stdin.lock(), lines::MAX_LINE) {
            Ok(Some(l)) => l,
            Ok(None) | Err(_) => return 0,
        };
        let first = match first.text(lines::MAX_LINE) {
            Ok(t) => t,
            Err((why, text)) => {
                send(&Refusal::new(Why::BadLine(why), text.trim()).cecp());
                continue;
            }
        };
        match first.trim() {
            "" => continue,
            "uci" => break Protocol::Uci,
            "xboard" => break Protocol::Cecp,
            "quit" => return 0,
            other => send(&Refusal::new(Why::UnknownCommand, format!("{other} (send 'uci' or 'xboard' first)")).cecp()),
        }
    };
    let reader_shared = Arc::clone(&shared);
    let is_uci = matches!(protocol, Protocol::Uci);
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || reader(tx, reader_shared, is_uci))
        .expect("spawn input thread");
    match protocol {
        Protocol::Uci => uci::Uci::new(&mut state).run(Input::new(rx)),
        Protocol::Cecp => {
            let mut c = cecp::Cecp::new(&mut state);
            if random {
                c.set_random(true);
            }
            c.run(Input::new(rx))
        }
    }
}

/// What a line means while a search runs.
enum Urgent {
    /// Answer at once with this line; the line is consumed.
    Answer(String),
    /// Stop the search (and drop its move when `discard`); the line is still processed later.
    Stop { discard: bool },
    /// The pondered move was played: the ponder search becomes a timed one; the line is consumed.
    PonderHit,
    /// Nothing urgent; the line waits for the search to end.
    Wait,
    /// Drop the line.
    Ignore,
}

fn classify(uci: bool, analyzing: bool, cmd: &str, queued_before: bool) -> Urgent {
    let word = cmd.split_whitespace().next().unwrap_or("");
    if uci {
        return match word {
            "isready" => Urgent::Answer("readyok".into()),
            "ponderhit" => Urgent::PonderHit,
            "stop" | "quit" => Urgent::Stop { discard: false },
            _ => Urgent::Wait,
        };
    }
    if analyzing {
        // Analysis is endless: every command but `.` and an idle `ping` interrupts it (the
        // analysis restarts after the command if analyze mode is still on).
        return match word {
            "." => Urgent::Ignore,
            "ping" if !queued_before => Urgent::Answer(format!("pong {}", cmd[4..].trim())),
            _ => Urgent::Stop { discard: false },
        };
    }
    // Thinking on its own move: `?` moves now; commands that change the game stop the search
    // and drop its move; everything else (including `ping`) waits until the move is made.
    match word {
        "?" => Urgent::Stop { discard: false },
        "." => Urgent::Ignore,
        "new" | "force" | "usermove" | "undo" | "remove" | "setboard" | "variant" | "result" | "edit" | "go"
        | "playother" | "quit" | "white" | "black" => Urgent::Stop { discard: true },
        w if cecp::looks_like_move(w) => Urgent::Stop { discard: true },
        _ => Urgent::Wait,
    }
}

/// Applies a line's urgent meaning; returns false when the line is consumed.
fn apply_urgent(shared: &Shared, uci: bool, cmd: &str, queued_before: bool) -> bool {
    let analyzing = shared.analyzing.load(Ordering::SeqCst);
    match classify(uci, analyzing, cmd, queued_before) {
        Urgent::Answer(a) => {
            send(&a);
            false
        }
        Urgent::Stop { discard } => {
            shared.stop.store(true, Ordering::SeqCst);
            if discard {
                shared.discard.store(true, Ordering::SeqCst);
            }
            true
        }
        Urgent::PonderHit => {
            shared.pondering.store(false, Ordering::SeqCst);
            false
        }
        Urgent::Wait => true,
        Urgent::Ignore => false,
    }
}

fn reader(tx: mpsc::Sender<String>, shared: Arc<Shared>, uci: bool) {
    let stdin = std::io::stdin();
    loop {
        let line = match lines::read_line(&mut stdin.lock(), lines::MAX_LINE) {
            Ok(Some(l)) => l,
            Ok(None) | Err(_) => {
                let _gate = shared.gate.lock().unwrap_or_else(|e| e.into_inner());
                shared.stop.store(true, Ordering::SeqCst);
                shared.discard.store(true, Ordering::SeqCst);
                let _ = tx.send("quit".to_string());
                return;
            }
        };
        // A line that is not UTF-8 (or has no end in sight) is answered in the protocol's own
        // form and dropped; the loop and any search go on.
        let line = match line.text(lines::MAX_LINE) {
            Ok(t) => t,
            Err((why, text)) => {
                let r = Refusal::new(Why::BadLine(why), text.trim());
                send(&if uci { r.uci() } else { r.cecp() });
                continue;
            }
        };
        let cmd = line.trim().to_string();
        if cmd.is_empty() {
            continue;
        }
        let _gate = shared.gate.lock().unwrap_or_else(|e| e.into_inner());
        if shared.searching.load(Ordering::SeqCst) {
            let queued = shared.queued.load(Ordering::SeqCst);
            if !apply_urgent(&shared, uci, &cmd, queued) {
                continue;
            }
            shared.queued.store(true, Ordering::SeqCst);
        }
        if tx.send(cmd).is_err() {
            return;
        }
    }
}

/// Input lines in order: those drained at the start of a search first, then the channel.
pub struct Input {
    rx: mpsc::Receiver<String>,
    pending: std::collections::VecDeque<String>,
}

impl Input {
    /// Wraps the channel from the reader thread.
    pub fn new(rx: mpsc::Receiver<String>) -> Input {
        Input {
            rx,
            pending: std::collections::VecDeque::new(),
        }
    }

    /// The next line (blocking); `None` when input has ended.
    pub fn next_line(&mut self) -> Option<String> {
        self.pending.pop_front().or_else(|| self.rx.recv().ok())
    }
}

/// Marks the start of a search. Lines already waiting are given their urgent meaning now
/// (a `stop` sent right after `go` must stop this search).
pub fn begin_search(shared: &Shared, input: &mut Input, uci: bool, analyzing: bool) {
    let _gate = shared.gate.lock().unwrap_or_else(|e| e.into_inner());
    shared.stop.store(false, Ordering::SeqCst);
    shared.discard.store(false, Ordering::SeqCst);
    shared.analyzing.store(analyzing, Ordering::SeqCst);
    shared.queued.store(false, Ordering::SeqCst);
    shared.searching.store(true, Ordering::SeqCst);
    while let Ok(l) = input.rx.try_recv() {
        input.pending.push_back(l);
    }
    let lines: Vec<String> = input.pending.drain(..).collect();
    let mut queued = false;
    for l in lines {
        if apply_urgent(shared, uci, &l, queued) {
            input.pending.push_back(l);
            queued = true;
        }
    }
    shared.queued.store(queued, Ordering::SeqCst);
}

/// Marks the end of a search; returns true when its move must be dropped.
pub fn end_search(shared: &Shared) -> bool {
    let _gate = shared.gate.lock().unwrap_or_else(|e| e.into_inner());
    shared.searching.store(false, Ordering::SeqCst);
    shared.analyzing.store(false, Ordering::SeqCst);
    shared.discard.swap(false, Ordering::SeqCst)
}
