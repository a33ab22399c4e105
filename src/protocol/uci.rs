//! UCI, with `UCI_Variant`, `IniFile` and `go perft`.

use super::refusal::{Refusal, Why};
use super::{EngineState, Input, begin_search, end_search, send};
use crate::engine::{Legal, Notation, new_session};
use crate::games::Catalog;
use crate::search::{DEFAULT_ELO, Iteration, Limits, MATE, MATE_BOUND, MAX_ELO, MIN_ELO, Strength};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// UCI protocol state.
pub struct Uci<'a> {
    st: &'a mut EngineState,
    overhead: u64,
    multipv: usize,
    /// `UCI_LimitStrength` on: play at `elo`.
    limit_strength: bool,
    elo: u32,
}

/// The words of `go` that take a value or stand alone; `searchmoves` ends at the next of them.
const GO_WORDS: &[&str] = &[
    "searchmoves",
    "ponder",
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
    "perft",
];

/// The UCI `score` field for a search score.
pub fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

impl<'a> Uci<'a> {
    /// Wraps the engine state.
    pub fn new(st: &'a mut EngineState) -> Uci<'a> {
        Uci {
            st,
            overhead: 30,
            multipv: 1,
            limit_strength: false,
            elo: DEFAULT_ELO,
        }
    }

    /// Answers the `uci` command that started the protocol, then serves lines until `quit`.
    pub fn run(&mut self, mut input: Input) -> i32 {
        self.identify();
        while let Some(line) = input.next_line() {
            if !self.command(&line, &mut input) {
                break;
            }
        }
        0
    }

    fn identify(&self) {
        send(&format!("id name {}", super::ENGINE_NAME));
        send("id author the Menagerie developers");
        let names: Vec<&str> = self.st.set.names();
        let vars: String = names.iter().map(|n| format!(" var {n}")).collect();
        send(&format!(
            "option name UCI_Variant type combo default {}{vars}",
            self.st.session.variant().name
        ));
        send(&format!(
            "option name UCI_Chess960 type check default {}",
            self.st.session.variant().chess960
        ));
        send(&format!(
            "option name Hash type spin default {} min 1 max {}",
            super::DEFAULT_HASH_MB,
            crate::search::MAX_HASH_MB
        ));
        send("option name Clear Hash type button");
        send("option name Ponder type check default false");
        send(&format!(
            "option name MultiPV type spin default 1 min 1 max {}",
            crate::search::MAX_MULTIPV
        ));
        send("option name UCI_LimitStrength type check default false");
        send(&format!(
            "option name UCI_Elo type spin default {DEFAULT_ELO} min {MIN_ELO} max {MAX_ELO}"
        ));
        send("option name IniFile type string default <empty>");
        send(&format!(
            "option name Move Overhead type spin default {} min 0 max 5000",
            self.overhead
        ));
        send("uciok");
    }

    /// Runs one command, answering a refused one with its `info string`; false on `quit`.
    fn command(&mut self, line: &str, input: &mut Input) -> bool {
        self.dispatch(line, input).unwrap_or_else(|r| {
            send(&r.uci());
            true
        })
    }

    /// Runs one command; false on `quit`.
    fn dispatch(&mut self, line: &str, input: &mut Input) -> Result<bool, Refusal> {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return Ok(true) };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => self.identify(),
            "isready" => send("readyok"),
            "ucinewgame" => {
                self.st.searcher.clear();
                self.st.session.reset();
            }
            "setoption" => self.setoption(&rest)?,
            "position" => self.position(&rest)?,
            "go" => self.go(&rest, input)?,
            "stop" | "ponderhit" => {}
            "savepgn" => {
                super::save_pgn(&mut *self.st.session, &rest.join(" "), "menagerie uci")
                    .map_err(|e| Refusal::new(Why::Failed(e), "savepgn"))?;
                send(&format!("info string saved {}", rest.join(" ")));
            }
            "quit" => return Ok(false),
            "d" => {
                // A game over by rule says so (match runners referee with it), before the FEN:
                // clients that read up to the FEN line see nothing left over after it.
                if let Some(o) = self.st.session.outcome() {
                    send(&format!("info string result {} {}", o.result(), o.reason()));
                }
                send(&format!("info string fen {}", self.st.session.fen()));
            }
            "eval" => send(&format!("info string eval {}", self.st.session.evaluate())),
            _ => return Err(Refusal::new(Why::UnknownCommand, line)),
        }
        Ok(true)
    }

    /// `UCI_Variant`: a new game of the variant, announced with its board and start.
    fn set_variant(&mut self, value: &str) -> Result<(), Refusal> {
        self.st
            .set_variant(value)
            .map_err(|e| Refusal::bare(Why::Failed(e.to_string())))?;
        let v = self.st.session.variant();
        let g = &v.geometry;
        send(&format!(
            "info string variant {} files {} ranks {} startpos {}",
            v.name,
            g.files(),
            g.ranks(),
            self.st.session.fen()
        ));
        Ok(())
    }

    /// `IniFile`: the variants of another ini file (the current variant kept when the file
    /// has it, else its first); empty or `<empty>` changes nothing.
    fn load_ini(&mut self, value: &str) -> Result<(), Refusal> {
        if value.is_empty() || value == "<empty>" {
            return Ok(());
        }
        let set = Catalog::load(value).map_err(|e| Refusal::bare(Why::Failed(e.to_string())))?;
        let current = &self.st.session.variant().name;
        let session = set
            .get(current)
            .or_else(|| set.variants.first())
            .map(new_session)
            .ok_or_else(|| Refusal::bare(Why::Failed("the ini file has no variants".into())))?;
        self.st.set = set;
        self.st.session = session;
        send(&format!(
            "info string loaded {value}: {}",
            self.st.set.names().join(" ")
        ));
        Ok(())
    }

    fn setoption(&mut self, rest: &[&str]) -> Result<(), Refusal> {
        // setoption name NAME... [value VALUE...]
        if rest.first() != Some(&"name") {
            return Err(Refusal::new(
                Why::Expected("'setoption name NAME [value VALUE]'"),
                "setoption",
            ));
        }
        let vpos = rest.iter().position(|w| *w == "value");
        let name = rest[1..vpos.unwrap_or(rest.len())].join(" ");
        let value = vpos.map(|p| rest[p + 1..].join(" ")).unwrap_or_default();
        // A value outside what the option takes: `OPTION: 'VALUE' is not RANGE`.
        let not = |option: &str, range: &str| {
            Refusal::new(
                Why::ValueIsNot {
                    value: value.clone(),
                    range: range.to_string(),
                },
                option,
            )
        };
        let flag = |option: &str| match value.as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(not(option, "true or false")),
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => self.set_variant(&value)?,
            "uci_chess960" => {
                let on = flag("UCI_Chess960")?;
                self.st
                    .set_chess960(on)
                    .map_err(|e| Refusal::new(Why::Failed(e.to_string()), "UCI_Chess960"))?;
            }
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=crate::search::MAX_HASH_MB).contains(&mb) => {
                    self.st
                        .searcher
                        .set_hash(mb)
                        .map_err(|e| Refusal::new(Why::Failed(e.to_string()), "Hash"))?;
                }
                _ => {
                    return Err(not(
                        "Hash",
                        &format!("a size in MB (1..{})", crate::search::MAX_HASH_MB),
                    ));
                }
            },
            "clear hash" => self.st.searcher.clear(),
            // The GUI says whether it will send `go ponder`; the time plan is the same either way.
            "ponder" => {
                flag("Ponder")?;
            }
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=crate::search::MAX_MULTIPV).contains(&n) => self.multipv = n,
                _ => return Err(not("MultiPV", &format!("1..{}", crate::search::MAX_MULTIPV))),
            },
            "uci_limitstrength" => self.limit_strength = flag("UCI_LimitStrength")?,
            "uci_elo" => match value.parse::<u32>() {
                Ok(e) if (MIN_ELO..=MAX_ELO).contains(&e) => self.elo = e,
                _ => return Err(not("UCI_Elo", &format!("{MIN_ELO}..{MAX_ELO}"))),
            },
            "move overhead" => match value.parse::<u64>() {
                Ok(ms) if ms <= 5000 => self.overhead = ms,
                _ => return Err(not("Move Overhead", "0..5000 ms")),
            },
            "inifile" => self.load_ini(&value)?,
            _ => return Err(Refusal::new(Why::UnknownOption, name)),
        }
        Ok(())
    }

    fn position(&mut self, rest: &[&str]) -> Result<(), Refusal> {
        let unchanged = |r: Refusal| r.keeping("position unchanged");
        let failed = |e: &dyn std::fmt::Display| unchanged(Refusal::bare(Why::Failed(e.to_string())));
        let mpos = rest.iter().position(|w| *w == "moves");
        let (setup, moves) = match mpos {
            Some(p) => (&rest[..p], &rest[p + 1..]),
            None => (rest, &[][..]),
        };
        if setup.first() == Some(&"pgn") {
            // An extension: the position after the last game of a PGN file (its Variant tag
            // chooses the game).
            let file = setup[1..].join(" ");
            let loaded = std::fs::read_to_string(&file)
                .map_err(|e| format!("{file}: {e}"))
                .and_then(|text| crate::engine::session_from_pgn(&self.st.set, &*self.st.session, &text));
            let pgn_refusal = |e: String| unchanged(Refusal::new(Why::Failed(e), "position pgn"));
            return match loaded {
                Ok(s) if moves.is_empty() => {
                    self.st.session = s;
                    Ok(())
                }
                Ok(_) => Err(pgn_refusal("no moves after the file".into())),
                Err(e) => Err(pgn_refusal(e)),
            };
        }
        let mut s = self.st.session.fresh();
        match setup.first() {
            Some(&"startpos") if setup.len() == 1 => {}
            Some(&"fen") if setup.len() > 1 => s.set_fen(&setup[1..].join(" ")).map_err(|e| failed(&e))?,
            _ => {
                return Err(unchanged(Refusal::new(
                    Why::Expected("'startpos' or 'fen FEN'"),
                    "position",
                )));
            }
        }
        for m in moves {
            s.play_text(m, Notation::Mmn).map_err(|e| failed(&e))?;
        }
        self.st.session = s;
        Ok(())
    }

    /// The limits of `go`'s parameters and its `searchmoves`; `None` when it was `go perft N`
    /// (answered here).
    fn go_limits<'r>(&mut self, rest: &[&'r str]) -> Option<(Limits, Vec<&'r str>)> {
        let mut l = Limits {
            overhead: Duration::from_millis(self.overhead),
            ..Limits::default()
        };
        let white = self.st.session.side_to_move() == crate::Color::White;
        let clock_given = rest
            .iter()
            .any(|w| matches!(*w, "wtime" | "btime" | "winc" | "binc" | "movestogo"));
        let ponder = rest.contains(&"ponder");
        l.ponder = ponder;
        l.multipv = self.multipv;
        l.strength = self.limit_strength.then(|| Strength::new(self.elo));
        let mut only: Vec<&str> = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let key = rest[i];
            let num = rest.get(i + 1).and_then(|v| v.parse::<i64>().ok());
            let mut takes_value = true;
            match (key, num) {
                ("infinite", _) => {
                    l.infinite = true;
                    takes_value = false;
                }
                ("ponder", _) => takes_value = false,
                ("searchmoves", _) => {
                    let n = rest[i + 1..].iter().take_while(|w| !GO_WORDS.contains(w)).count();
                    only.extend_from_slice(&rest[i + 1..i + 1 + n]);
                    i += 1 + n;
                    continue;
                }
                ("perft", Some(d)) if (1..=super::MAX_PROTOCOL_PERFT as i64).contains(&d) => {
                    let res = self.st.session.divide(d as u32);
                    let total: u64 = res.iter().map(|r| r.1).sum();
                    for (m, n) in res {
                        send(&format!("{}: {n}", self.st.session.write(m, Notation::Mmn)));
                    }
                    send("");
                    send(&format!("Nodes searched: {total}"));
                    return None;
                }
                ("wtime", Some(t)) if white => l.time_left = Some(Duration::from_millis(t.max(0) as u64)),
                ("btime", Some(t)) if !white => l.time_left = Some(Duration::from_millis(t.max(0) as u64)),
                ("winc", Some(t)) if white => l.increment = Duration::from_millis(t.max(0) as u64),
                ("binc", Some(t)) if !white => l.increment = Duration::from_millis(t.max(0) as u64),
                ("wtime" | "btime" | "winc" | "binc", Some(_)) => {}
                ("movestogo", Some(n)) if n > 0 => l.moves_to_go = Some(n as u32),
                ("movetime", Some(t)) if t >= 0 => l.movetime = Some(Duration::from_millis(t as u64)),
                ("depth", Some(d)) if d > 0 => l.depth = Some(d as u32),
                ("nodes", Some(n)) if n > 0 => l.nodes = Some(n as u64),
                ("mate", Some(n)) if n > 0 => l.mate = Some(n.min(40) as u32),
                _ => {
                    // Said, and the search goes on without it.
                    send(&Refusal::new(Why::Ignored(key.to_string()), "go").uci());
                    takes_value = false;
                }
            }
            i += if takes_value { 2 } else { 1 };
        }
        if clock_given && l.time_left.is_none() {
            // Only the other side's clock (or only increments): think briefly rather than for ever.
            l.movetime = Some(Duration::from_millis(1000));
        }
        let bounded =
            l.depth.is_some() || l.nodes.is_some() || l.movetime.is_some() || l.time_left.is_some() || l.mate.is_some();
        if !bounded && !ponder {
            // A bare `go` (or one with only bad parameters) analyses until `stop`.
            l.infinite = true;
        }
        Some((l, only))
    }

    fn go(&mut self, rest: &[&str], input: &mut Input) -> Result<(), Refusal> {
        let Some((l, only)) = self.go_limits(rest) else {
            return Ok(());
        };
        let ponder = l.ponder;
        let st = &mut *self.st;
        if !only.is_empty() {
            // MMN, or XBoard's form of a multi-leg move.
            let session = &mut st.session;
            let parsed: Result<Vec<_>, _> = only
                .iter()
                .map(|t| {
                    session
                        .parse(t, Notation::Mmn)
                        .or_else(|e| session.parse(t, Notation::Xboard).map_err(|_| e))
                        .map(Legal::mv)
                })
                .collect();
            let moves =
                parsed.map_err(|e| Refusal::new(Why::Failed(e.to_string()), "go searchmoves").keeping("no search"))?;
            super::search_only(&mut st.searcher, &moves);
        }
        st.shared.pondering.store(ponder, Ordering::SeqCst);
        begin_search(&st.shared, input, true, false);
        let lines = self.multipv;
        let mut sink = |it: &Iteration, pv: &str| {
            let nps = it.nodes * 1000 / it.millis.max(1);
            let multipv = if lines > 1 {
                format!(" multipv {}", it.multipv)
            } else {
                String::new()
            };
            send(&format!(
                "info depth {} seldepth {}{multipv} score {} nodes {} nps {} time {} hashfull {} pv {}",
                it.depth,
                it.seldepth,
                score_text(it.score),
                it.nodes,
                nps,
                it.millis,
                it.hashfull,
                pv
            ));
        };
        let (best, ponder) = st.session.go(&mut st.searcher, l, &mut sink);
        // UCI: an infinite search answers only after `stop`, a ponder search only after `stop`
        // or `ponderhit`, even when it ended by itself (a depth reached, a mate found).
        while (l.infinite || st.shared.pondering.load(Ordering::SeqCst)) && !st.shared.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(2));
        }
        st.shared.pondering.store(false, Ordering::SeqCst);
        end_search(&st.shared);
        let line: Vec<_> = best.map(Legal::mv).into_iter().chain(ponder).collect();
        match st.session.write_line(&line, Notation::Mmn).as_slice() {
            [b, p] => send(&format!("bestmove {b} ponder {p}")),
            [b] => send(&format!("bestmove {b}")),
            _ => send("bestmove 0000"),
        }
        Ok(())
    }
}
