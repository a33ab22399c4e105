//! CECP (XBoard/WinBoard protocol version 2), with engine-defined variants (`setup` and
//! `piece` lines generated from `engine.ini`), legality highlighting and analysis.

use super::refusal::{Refusal, Why};
use super::{EngineState, Input, begin_search, end_search, send};
use crate::Color;
use crate::engine::{Legal, Notation, Session};
use crate::moves::{Move, MoveForm};
use crate::search::{DEFAULT_ELO, Iteration, Limits, MATE, MATE_BOUND, MAX_ELO, MIN_ELO, Strength};
use crate::square::parse_square_name;
use crate::variant::Variant;
use std::time::Duration;

/// Variants that XBoard 4.9.1 knows by itself (no `setup` needed).
const XBOARD_NATIVE: &[&str] = &["normal", "fischerandom", "capablanca"];

/// XBoard's internal piece slots, in the order of the `setup` piece-to-char table.
const XBOARD_SLOTS: &[u8; 22] = b"PNBRQFEACWMOHIJGDVLSUK";

/// The name XBoard uses for a variant.
pub fn cecp_name(v: &Variant) -> &str {
    match v.name.as_str() {
        "chess" => "normal",
        "chess960" => "fischerandom",
        name => name,
    }
}

/// The `setup` and `piece` lines that define a variant for XBoard.
pub fn setup_lines(v: &Variant, fen: &str) -> Vec<String> {
    let mut slot_of: Vec<Option<usize>> = vec![None; v.pieces.len()];
    let mut used = [false; 22];
    let betza_slot = |b: &str| match b {
        "BN" | "NB" => Some(b'A'),
        "RN" | "NR" => Some(b'C'),
        _ => None,
    };
    // Royal first on K, pawns on P, then by movement, then by letter, then any free slot.
    for pass in 0..4 {
        for (k, p) in v.pieces.iter().enumerate() {
            if slot_of[k].is_some() {
                continue;
            }
            let want = match pass {
                0 if p.is_royal() => Some(b'K'),
                0 if p.is_pawn() => Some(b'P'),
                1 => betza_slot(&p.betza),
                2 if p.letter != 'K' => Some(p.letter as u8),
                3 => XBOARD_SLOTS[..21].iter().copied().find(|c| !used[slot_index(*c)]),
                _ => None,
            };
            if let Some(c) = want
                && let Some(i) = XBOARD_SLOTS.iter().position(|&s| s == c)
                && !used[i]
            {
                used[i] = true;
                slot_of[k] = Some(i);
            }
        }
    }
    let mut table = [b'.'; 44];
    for (k, p) in v.pieces.iter().enumerate() {
        if let Some(i) = slot_of[k] {
            table[i] = p.letter as u8;
            table[22 + i] = p.letter.to_ascii_lowercase() as u8;
        }
    }
    let g = &v.geometry;
    // XBoard is told of no holdings (`+0` below; it would treat them as drop stock), so any
    // holdings part of the FEN stays out.
    let fen = match (fen.find('['), fen.find(']')) {
        (Some(a), Some(b)) if a < b => format!("{}{}", &fen[..a], &fen[b + 1..]),
        _ => fen.to_string(),
    };
    let mut out = vec![format!(
        "setup ({}) {}x{}+0_fairy {}",
        String::from_utf8_lossy(&table),
        g.files(),
        g.ranks(),
        fen
    )];
    for p in &v.pieces {
        let betza = match &p.xboard {
            Some(x) => x.clone(),
            None if p.is_dynamic() => dynamic_betza(v),
            None => p.betza.clone(),
        };
        out.push(format!("piece {}& {}", p.letter, betza));
    }
    out
}

/// What XBoard is told a dynamic piece (moved by a rules module) may do: every fixed piece's
/// moves in both directions, a superset of whatever it can do in a game. The engine itself
/// decides what is legal and highlights it.
fn dynamic_betza(v: &Variant) -> String {
    let mut parts: Vec<String> = Vec::new();
    for p in v.pieces.iter().filter(|p| !p.is_dynamic()) {
        let turned: String = p
            .betza
            .chars()
            .map(|c| match c {
                'f' => 'b',
                'b' => 'f',
                'l' => 'r',
                'r' => 'l',
                c => c,
            })
            .collect();
        for b in [p.betza.clone(), turned] {
            if !parts.contains(&b) {
                parts.push(b);
            }
        }
    }
    parts.concat()
}

fn slot_index(c: u8) -> usize {
    XBOARD_SLOTS.iter().position(|&s| s == c).unwrap_or(0)
}

/// Converts our move text to CECP: boards with exactly 10 ranks count ranks from 0.
pub fn to_cecp(text: &str, ranks: usize) -> String {
    if ranks != 10 {
        return text.to_string();
    }
    shift_ranks(text, -1)
}

/// Converts a CECP move to our text.
pub fn from_cecp(text: &str, ranks: usize) -> String {
    if ranks != 10 {
        return text.to_string();
    }
    shift_ranks(text, 1)
}

fn shift_ranks(text: &str, by: i32) -> String {
    let mut out = String::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let n: i32 = text[start..i].parse().unwrap_or(0);
            out.push_str(&(n + by).to_string());
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// CECP protocol state.
pub struct Cecp<'a> {
    st: &'a mut EngineState,
    force: bool,
    engine_side: Color,
    analyzing: bool,
    post: bool,
    mps: u32,
    base: Duration,
    inc: Duration,
    st_time: Option<Duration>,
    sd: Option<u32>,
    nps: Option<u64>,
    time_left: Option<Duration>,
    debug: bool,
    told_specials: bool,
    random: bool,
    /// The GUI accepted `feature mmn=1`: moves travel in MMN and special moves are played.
    mmn: bool,
    /// The square of the last `lift` that was answered (the first leg of a multi-leg move).
    last_lift: Option<String>,
    /// The hidden-information game (RBC), made at its first `rbc-*` line.
    hidden: Option<Box<dyn crate::engine::HiddenGame>>,
    /// FEN of the last `setboard` (the start of a hidden-information game).
    setboard_fen: String,
    /// Moves that analysis leaves out (`exclude`); cleared when the position changes.
    excluded: Vec<Move>,
    /// `hard`: after its move the engine thinks on while the opponent does (`easy` stops it).
    ponder: bool,
    /// The reply the last search expected, to ponder on.
    expected: Option<Move>,
    /// The engine option `UCI_LimitStrength` is on: play at `elo`.
    limit_strength: bool,
    elo: u32,
}

impl<'a> Cecp<'a> {
    /// Wraps the engine state.
    pub fn new(st: &'a mut EngineState) -> Cecp<'a> {
        Cecp {
            st,
            force: false,
            engine_side: Color::Black,
            analyzing: false,
            post: false,
            mps: 0,
            base: Duration::from_secs(300),
            inc: Duration::ZERO,
            st_time: None,
            sd: None,
            nps: None,
            time_left: None,
            debug: false,
            told_specials: false,
            random: false,
            mmn: false,
            last_lift: None,
            hidden: None,
            setboard_fen: String::new(),
            excluded: Vec::new(),
            ponder: false,
            expected: None,
            limit_strength: false,
            elo: DEFAULT_ELO,
        }
    }

    /// Serves lines until `quit`.
    pub fn run(&mut self, mut input: Input) -> i32 {
        while let Some(line) = input.next_line() {
            if !self.command(&line, &mut input) {
                break;
            }
            while self.analyzing {
                if !self.analyze(&mut input) {
                    return 0;
                }
            }
            if let Some(reply) = self.expected.take()
                && self.ponder
                && !self.force
            {
                self.ponder_on(reply, &mut input);
            }
        }
        0
    }

    fn ranks(&self) -> usize {
        self.st.session.variant().geometry.ranks()
    }

    fn features(&self) {
        let mut names: Vec<String> = Vec::new();
        for v in &self.st.set.variants {
            names.push(cecp_name(v).to_string());
            names.extend(v.aliases.iter().filter(|a| a.contains('-')).cloned());
        }
        send(&format!(
            "feature myname=\"{}\" ping=1 setboard=1 usermove=1 time=1 draw=1 sigint=0 sigterm=0 reuse=1 \
             analyze=1 exclude=1 colors=0 san=0 name=1 nps=1 memory=1 highlight=1 debug=1 mmn=1 rbc=1 variants=\"{}\"",
            super::ENGINE_NAME,
            names.join(",")
        ));
        send(&format!(
            "feature option=\"UCI_LimitStrength -check 0\" option=\"UCI_Elo -spin {DEFAULT_ELO} {MIN_ELO} {MAX_ELO}\""
        ));
        send("feature done=1");
    }

    /// Runs one command, answering a refused one with its `Error` line; false on `quit`.
    fn command(&mut self, line: &str, input: &mut Input) -> bool {
        self.dispatch(line, input).unwrap_or_else(|r| {
            send(&r.cecp());
            true
        })
    }

    /// Runs one command; false on `quit`.
    fn dispatch(&mut self, line: &str, input: &mut Input) -> Result<bool, Refusal> {
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        if !matches!(cmd, "lift" | "put" | "hover") {
            self.last_lift = None; // a multi-leg move in the GUI ends with any other command
        }
        if matches!(cmd, "new" | "variant" | "setboard") {
            self.hidden = None;
            self.setboard_fen.clear();
        }
        if matches!(cmd, "new" | "variant" | "setboard" | "usermove" | "undo" | "remove") || looks_like_move(cmd) {
            self.excluded.clear();
        }
        if cmd.starts_with("rbc-") {
            self.hidden_command(cmd, line)?;
            return Ok(true);
        }
        if self.game_command(cmd, arg, input)? || self.clock_command(cmd, arg, line)? {
            return Ok(true);
        }
        match cmd {
            "accepted" if arg == "debug" => self.debug = true,
            "accepted" if arg == "mmn" => {
                self.mmn = true;
                self.st.session.set_special_moves(true);
            }
            "xboard" | "accepted" | "rejected" => {}
            "protover" => self.features(),
            "ping" => send(&format!("pong {arg}")),
            "random" => {
                self.random = !self.random;
                self.reseed();
            }
            "hard" => self.ponder = true,
            "easy" => self.ponder = false,
            "?" | "draw" | "hint" | "bk" | "computer" | "name" | "rating" | "ics" | "cores" | "egtpath" | "put"
            | "hover" | "pause" | "resume" | "." | "exit" => {}
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => self.analyzing = true,
            "exclude" | "include" => self.exclude(cmd == "exclude", arg)?,
            "lift" => self.lift(arg)?,
            "option" => self.option(arg)?,
            "quit" => return Ok(false),
            "savepgn" => {
                super::save_pgn(&mut *self.st.session, arg, "menagerie xboard")
                    .map_err(|e| Refusal::new(Why::Failed(e), format!("savepgn {arg}")))?;
                send(&format!("# saved {arg}"));
            }
            "perft" => self.perft(arg, line)?,
            // Protocol version 1 sends bare moves; accept them when they parse as one.
            _ if arg.is_empty() && looks_like_move(cmd) => self.usermove(cmd, input)?,
            _ => return Err(Refusal::new(Why::UnknownCommand, cmd)),
        }
        Ok(true)
    }

    /// The commands that set up or run the game (`new`, `variant`, `setboard`, `go`, moves,
    /// taking back); false for any other.
    fn game_command(&mut self, cmd: &str, arg: &str, input: &mut Input) -> Result<bool, Refusal> {
        match cmd {
            "new" => self.new_game(),
            "variant" => self.variant(arg)?,
            "force" => self.force = true,
            "go" => {
                self.force = false;
                self.engine_side = self.st.session.side_to_move();
                if !self.announce_end() {
                    self.think(input);
                }
            }
            "playother" => {
                self.force = false;
                self.engine_side = !self.st.session.side_to_move();
            }
            "white" | "black" => {}
            "usermove" => self.usermove(arg, input)?,
            "result" => self.force = true,
            "setboard" => {
                self.st
                    .session
                    .set_fen(arg)
                    .map_err(|e| Refusal::new(Why::Failed(e.to_string()), format!("setboard {arg}")))?;
                self.setboard_fen = arg.to_string();
            }
            "undo" => {
                if !self.st.session.undo() {
                    return Err(Refusal::new(Why::NoMoveToUndo, "undo"));
                }
            }
            "remove" => {
                if self.st.session.moves_played() < 2 {
                    return Err(Refusal::new(Why::NoMovesToRemove, "remove"));
                }
                self.st.session.undo();
                self.st.session.undo();
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The clock and the search's bounds (`time`, `level`, `st`, `sd`, `nps`, `memory`);
    /// false for any other command.
    fn clock_command(&mut self, cmd: &str, arg: &str, line: &str) -> Result<bool, Refusal> {
        let refuse = |why| Err(Refusal::new(why, line));
        match cmd {
            "time" => match arg.parse::<i64>() {
                // XBoard sends a negative time after an overstep: treat it as none left.
                Ok(cs) => self.time_left = Some(Duration::from_millis((cs.max(0) as u64).saturating_mul(10))),
                Err(_) => return refuse(Why::BadTime),
            },
            "otim" => {
                if arg.parse::<i64>().is_err() {
                    return refuse(Why::BadTime);
                }
            }
            "level" => self.level(arg, line)?,
            "st" => match arg.parse::<f64>() {
                Ok(s) if s > 0.0 && s < 1e7 => self.st_time = Some(Duration::from_secs_f64(s)),
                _ => return refuse(Why::BadTime),
            },
            "sd" => match arg.parse::<u32>() {
                Ok(d) if d > 0 => self.sd = Some(d),
                _ => return refuse(Why::BadDepth),
            },
            "nps" => match arg.parse::<u64>() {
                Ok(n) => self.nps = (n > 0).then_some(n),
                Err(_) => return refuse(Why::BadNps),
            },
            "memory" => match arg.parse::<usize>() {
                Ok(mb) if (1..=crate::search::MAX_HASH_MB).contains(&mb) => {
                    if mb != self.st.searcher.hash_mb() {
                        self.st
                            .searcher
                            .set_hash(mb)
                            .map_err(|e| Refusal::new(Why::Failed(e.to_string()), line))?;
                    }
                }
                _ => return refuse(Why::BadMemory),
            },
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `new`: chess from its start, the engine Black, the clock's per-game bounds cleared.
    fn new_game(&mut self) {
        if self.st.set.get("chess").is_some() {
            let _ = self.st.set_variant("chess");
        }
        self.st.session.set_special_moves(self.mmn);
        self.st.session.reset();
        self.st.searcher.clear();
        self.reseed();
        self.force = false;
        self.engine_side = Color::Black;
        self.st_time = None;
        self.sd = None;
        self.time_left = None;
    }

    /// `variant NAME`: the variant, its `setup` lines for XBoard when XBoard does not know it.
    fn variant(&mut self, arg: &str) -> Result<(), Refusal> {
        if self
            .st
            .set_variant(if arg == "normal" { "chess" } else { arg })
            .is_err()
        {
            return Err(Refusal::new(Why::UnknownVariant, arg));
        }
        if self.st.session.set_special_moves(self.mmn) && !self.mmn && !self.told_specials {
            self.told_specials = true;
            send("telluser Menagerie: this game's own special moves have no XBoard form and are not played here");
        }
        let v = self.st.session.variant().clone();
        if !XBOARD_NATIVE.contains(&cecp_name(&v)) {
            for l in setup_lines(&v, &self.st.session.fen()) {
                send(&l);
            }
        }
        Ok(())
    }

    /// `lift SQ`: the highlight board of the piece there, or of the second leg when the last
    /// lift's piece captures on the way through SQ.
    fn lift(&mut self, arg: &str) -> Result<(), Refusal> {
        let sq = from_cecp(arg, self.ranks());
        let leg = self
            .last_lift
            .as_ref()
            .and_then(|from| highlight(&mut *self.st.session, from, Some(&sq)));
        if let Some(h) = leg {
            send(&format!("highlight {h}"));
            return Ok(());
        }
        let h = highlight(&mut *self.st.session, &sq, None)
            .ok_or_else(|| Refusal::new(Why::NoPieceToMove, format!("lift {arg}")))?;
        send(&format!("highlight {h}"));
        self.last_lift = Some(sq);
        Ok(())
    }

    /// `perft DEPTH` (an extension): move counts per root move and the total.
    fn perft(&mut self, arg: &str, line: &str) -> Result<(), Refusal> {
        let d = arg
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=crate::protocol::MAX_PROTOCOL_PERFT).contains(d))
            .ok_or_else(|| Refusal::new(Why::BadDepth, line))?;
        let res = self.st.session.divide(d);
        let total: u64 = res.iter().map(|r| r.1).sum();
        for (m, n) in res {
            let text = self.st.session.write(m, Notation::Mmn);
            send(&format!("{}: {n}", to_cecp(&text, self.ranks())));
        }
        send(&format!("Nodes searched: {total}"));
        Ok(())
    }

    /// Turns random mode on or off (as the `random` command toggles it).
    pub fn set_random(&mut self, on: bool) {
        self.random = on;
        self.reseed();
    }

    /// A new noise seed for random mode (or none when it is off).
    fn reseed(&mut self) {
        let seed = if self.random {
            let t = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            (t.as_nanos() as u64) | 1
        } else {
            0
        };
        self.st.searcher.set_noise(seed);
    }

    fn level(&mut self, arg: &str, line: &str) -> Result<(), Refusal> {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        let parsed = (|| {
            if parts.len() != 3 {
                return None;
            }
            let mps: u32 = parts[0].parse().ok()?;
            let base = match parts[1].split_once(':') {
                Some((m, s)) => m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?,
                None => parts[1].parse::<f64>().ok()? * 60.0,
            };
            let inc: f64 = parts[2].parse().ok()?;
            (base >= 0.0 && inc >= 0.0 && base < 1e7 && inc < 1e6).then_some((mps, base, inc))
        })();
        let (mps, base, inc) = parsed.ok_or_else(|| Refusal::new(Why::BadTimeControl, line))?;
        self.mps = mps;
        self.time_left = None;
        self.base = Duration::from_secs_f64(base);
        self.inc = Duration::from_secs_f64(inc);
        self.st_time = None;
        Ok(())
    }

    /// A line of the hidden-information protocol (RBC, `../shared/protocol.md` §4).
    fn hidden_command(&mut self, cmd: &str, line: &str) -> Result<(), Refusal> {
        if self.hidden.is_none() {
            match self.st.session.hidden(&self.setboard_fen) {
                Some(Ok(h)) => self.hidden = Some(h),
                Some(Err(e)) => return Err(Refusal::new(Why::Failed(e.to_string()), line)),
                None => return Err(Refusal::new(Why::NotHidden, line)),
            }
        }
        let reply = self.hidden.as_mut().expect("made above").command(line);
        if let Some(reply) = reply.map_err(|e| Refusal::new(Why::Failed(e.to_string()), cmd))? {
            send(&reply);
        }
        Ok(())
    }

    fn usermove(&mut self, arg: &str, input: &mut Input) -> Result<(), Refusal> {
        let text = from_cecp(arg, self.ranks());
        self.st
            .session
            .play_text(&text, Notation::Xboard)
            .map_err(|e| Refusal::new(Why::IllegalMove(e.reason().to_string()), arg))?;
        if !(self.analyzing || self.force || self.announce_end()) && self.st.session.side_to_move() == self.engine_side
        {
            self.think(input);
        }
        Ok(())
    }

    /// When the game is over by rule, says so (`RESULT {reason}`) and stops playing (force
    /// mode); true then. Run once for each position a move makes.
    fn announce_end(&mut self) -> bool {
        let Some(o) = self.st.session.outcome() else {
            return false;
        };
        send(&format!("{} {{{}}}", o.result(), o.reason()));
        self.force = true;
        true
    }

    /// `option NAME=VALUE` for the options of the `feature option` lines.
    fn option(&mut self, arg: &str) -> Result<(), Refusal> {
        let (name, value) = arg.split_once('=').unwrap_or((arg, ""));
        let out_of = |name, range: String| Err(Refusal::new(Why::OptionIs { name, range }, format!("option {arg}")));
        match (name.trim(), value.trim()) {
            ("UCI_LimitStrength", "1") => self.limit_strength = true,
            ("UCI_LimitStrength", "0") => self.limit_strength = false,
            ("UCI_Elo", v) => match v.parse::<u32>() {
                Ok(e) if (MIN_ELO..=MAX_ELO).contains(&e) => self.elo = e,
                _ => return out_of("UCI_Elo", format!("{MIN_ELO}..{MAX_ELO}")),
            },
            ("UCI_LimitStrength", _) => return out_of("UCI_LimitStrength", "0 or 1".into()),
            _ => return Err(Refusal::new(Why::UnknownOption, arg)),
        }
        Ok(())
    }

    fn limits(&self) -> Limits {
        let mut l = Limits {
            overhead: Duration::from_millis(50),
            nps: self.nps,
            depth: self.sd,
            strength: self.limit_strength.then(|| Strength::new(self.elo)),
            ..Limits::default()
        };
        if let Some(t) = self.st_time {
            l.movetime = Some(t);
        } else {
            l.time_left = Some(self.time_left.unwrap_or(self.base));
            l.increment = self.inc;
            if self.mps > 0 {
                let done = self.st.session.fullmove().saturating_sub(1);
                l.moves_to_go = Some(self.mps - done % self.mps);
            }
        }
        l
    }

    /// The engine's move in a game that is not over: searched, played, sent, and the new
    /// position's end announced.
    fn think(&mut self, input: &mut Input) {
        let limits = self.limits();
        let (best, expected, discard) = self.search(limits, input, false, self.post);
        if discard {
            return;
        }
        self.expected = expected;
        let Some(best) = best else {
            // The game goes on by the rules, but every legal move is one this GUI cannot show.
            send("telluser Menagerie: every legal move here is a special move XBoard cannot show; resigning");
            send("resign");
            self.force = true;
            return;
        };
        let shown = self
            .st
            .session
            .write(best.mv(), if self.mmn { Notation::Mmn } else { Notation::Xboard });
        if self.st.session.play(best).is_err() {
            let r = Refusal::new(Why::Internal, format!("could not play own move {shown}"));
            return send(&r.cecp());
        }
        send(&format!("move {}", to_cecp(&shown, self.ranks())));
        self.announce_end();
    }

    /// A search; `interruptible`: every command ends it (analysis, pondering); `post`: with
    /// thinking output. Returns the best move, the expected reply and whether to drop the move.
    fn search(
        &mut self,
        limits: Limits,
        input: &mut Input,
        interruptible: bool,
        post: bool,
    ) -> (Option<Legal>, Option<Move>, bool) {
        let ranks = self.ranks();
        let analyzing = interruptible;
        let st = &mut *self.st;
        begin_search(&st.shared, input, false, analyzing);
        let mut sink = |it: &Iteration, pv: &str| {
            if !post {
                return;
            }
            let score = if it.score >= MATE_BOUND {
                100000 + (MATE - it.score + 1) / 2
            } else if it.score <= -MATE_BOUND {
                -100000 - (MATE + it.score) / 2
            } else {
                it.score
            };
            let nps = it.nodes * 1000 / it.millis.max(1);
            let pv = pv.split(' ').map(|m| to_cecp(m, ranks)).collect::<Vec<_>>().join(" ");
            send(&format!(
                "{} {} {} {} {} {} 0\t{}",
                it.depth,
                score,
                it.millis / 10,
                it.nodes,
                it.seldepth,
                nps,
                pv
            ));
        };
        let (best, expected) = st.session.go(&mut st.searcher, limits, &mut sink);
        let discard = end_search(&st.shared);
        (best, expected, discard)
    }

    /// Pondering (`hard`): the expected reply is played on the board, searched until the next
    /// command arrives (its move is never played; thinking output as `post` says), and taken
    /// back. What it leaves in the
    /// transposition table speeds up the next search when the opponent did play that reply.
    fn ponder_on(&mut self, reply: Move, input: &mut Input) {
        let Ok(reply) = self.st.session.check(reply) else {
            return;
        };
        if self.st.session.play(reply).is_err() {
            return;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.search(limits, input, true, self.post);
        self.st.session.undo();
    }

    /// `exclude MOVE|all` and `include MOVE|all`: which moves analysis looks at.
    fn exclude(&mut self, out: bool, arg: &str) -> Result<(), Refusal> {
        if arg == "all" {
            self.excluded = if out { self.st.session.legal_moves() } else { Vec::new() };
            return Ok(());
        }
        let m = self
            .st
            .session
            .parse(&from_cecp(arg, self.ranks()), Notation::Xboard)
            .map_err(|_| Refusal::new(Why::Failed("illegal move".into()), arg))?
            .mv();
        self.excluded.retain(|x| *x != m);
        if out {
            self.excluded.push(m);
        }
        Ok(())
    }

    /// One analysis search; returns false when input ended.
    fn analyze(&mut self, input: &mut Input) -> bool {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let searched = if self.excluded.is_empty() {
            true
        } else {
            let mut rest = self.st.session.legal_moves();
            rest.retain(|m| !self.excluded.contains(m));
            if !rest.is_empty() {
                super::search_only(&mut self.st.searcher, &rest);
            }
            !rest.is_empty()
        };
        if searched {
            self.search(limits, input, true, true);
        }
        // The search ends on a command (or at its depth limit): take the next command.
        let Some(line) = input.next_line() else { return false };
        match line.split_whitespace().next().unwrap_or("") {
            "exit" => {
                self.analyzing = false;
                true
            }
            "." => true,
            _ => self.command(&line, input),
        }
    }
}

/// The highlight board (`lift`) of the piece on `square`: `Y` a target, `R` a capture, `M` a
/// promotion, `.` nothing; `None` when the square has no piece of the side to move. With
/// `via` (the first leg of a move that captures on the way ended there): where the second leg
/// may land, `None` when nowhere.
pub fn highlight(session: &mut dyn Session, square: &str, via: Option<&str>) -> Option<String> {
    let g = session.variant().geometry.clone();
    let sq = g.parse(square)?;
    let via = match via {
        Some(v) => Some(g.parse(v)?),
        None => None,
    };
    if session.owner(sq) != Some(session.side_to_move()) {
        return None;
    }
    let mut marks = vec![b'.'; g.size()];
    for m in session.legal_moves().into_iter().filter(|m| m.from() == sq) {
        let shape = session.shape(m);
        match (shape.form, via) {
            (MoveForm::Capture(v), None) => {
                if marks[v.index()] == b'.' {
                    marks[v.index()] = b'C';
                }
                continue;
            }
            (MoveForm::Capture(v), Some(w)) if v == w => {
                marks[m.to().index()] = b'R';
                continue;
            }
            (MoveForm::FromTo, None) => {}
            _ => continue,
        }
        marks[m.to().index()] = if shape.promotes {
            b'M'
        } else if shape.takes {
            b'R'
        } else {
            b'Y'
        };
    }
    if via.is_some() && marks.iter().all(|&c| c == b'.') {
        return None;
    }
    let mut s = String::new();
    for rank in (0..g.ranks()).rev() {
        let mut empty = 0;
        for file in 0..g.files() {
            let c = marks[rank * g.files() + file];
            if c == b'.' {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push(c as char);
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    Some(s)
}

/// True when a word looks like a coordinate move (protocol version 1 sends bare moves).
pub fn looks_like_move(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 4 || !b[0].is_ascii_lowercase() {
        return false;
    }
    let second = (1..b.len()).find(|&i| b[i].is_ascii_lowercase());
    match second {
        Some(i) => parse_square_name(&s[..i]).is_some() || s[..i].ends_with('0'),
        None => false,
    }
}
