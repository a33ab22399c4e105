//! The rules console (`menagerie referee GAME`): one command a line, exactly one reply line
//! each (`../shared/protocol.md` §5). Errors are `Error (reason): COMMAND` and change nothing.

use super::{Actor, Table};
use crate::lines;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::io::{BufRead, Write};

/// The reply to one console line; `None` for `quit`.
pub fn reply(table: &mut dyn Table, rng: &mut StdRng, line: &str) -> Option<String> {
    let line = line.trim();
    let (cmd, arg) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let arg = arg.trim();
    let err = |reason: &str| format!("Error ({reason}): {line}");
    Some(match cmd {
        "quit" => return None,
        "state" if arg.is_empty() => table.state_text(),
        "state" => match table.set_state(arg) {
            Ok(()) => "ok".into(),
            Err(e) => err(&e),
        },
        "actor" => table.actor().to_string(),
        "actions" => match table.actor() {
            Actor::Chance => table.chances().into_iter().map(|c| c.0).collect::<Vec<_>>().join(" "),
            _ => table.actions().join(" "),
        },
        "act" if arg.is_empty() => err("act needs an action"),
        "act" => {
            let r = match table.actor() {
                Actor::Chance => table.act_chance(arg),
                _ => table.act(arg),
            };
            match r {
                Ok(event) => format!("ok {event}"),
                Err(e) => err(&e.to_string()),
            }
        }
        "chance" => match table.draw_chance(rng) {
            Ok((a, e)) => format!("ok {a} {e}"),
            Err(e) => err(&e.to_string()),
        },
        "observe" => match arg.parse::<usize>() {
            Ok(s) if s < table.seats() => table.observe(s),
            _ => err(&format!("no seat '{arg}' (0..{})", table.seats().saturating_sub(1))),
        },
        "end" => match table.outcome() {
            Some(o) => o.to_string(),
            None => "none".into(),
        },
        "" => err("empty line"),
        _ => err("unknown command"),
    })
}

/// Runs the console on `input` and `out` until `quit` or the end of input.
pub fn run(table: &mut dyn Table, seed: u64, input: impl BufRead, mut out: impl Write) {
    let mut rng = StdRng::seed_from_u64(seed);
    for line in lines::lines(input, lines::MAX_LINE) {
        let reply = match line.text(lines::MAX_LINE) {
            Ok(line) => reply(table, &mut rng, &line),
            Err((why, text)) => Some(format!("Error ({why}): {}", text.trim())),
        };
        match reply {
            Some(r) => {
                if writeln!(out, "{r}").and_then(|_| out.flush()).is_err() {
                    break;
                }
            }
            None => break,
        }
    }
}
