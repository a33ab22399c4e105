//! A trace of seeded random games of every table game: each step's state and its legal
//! actions, sorted (so the trace does not depend on the order moves are generated in). Written
//! to the file `KIT_TRACE` names, to compare two builds' move generation along the same games
//! (`diff` the two files): `KIT_TRACE=FILE cargo test --release --test kit_trace -- --ignored`.

use menagerie::kit::{names, new_table};
use menagerie::table::Actor;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fmt::Write;

#[test]
#[ignore = "a tool: writes the trace file KIT_TRACE names"]
fn kit_trace() {
    let path = std::env::var("KIT_TRACE").expect("KIT_TRACE=FILE");
    let games: usize = std::env::var("KIT_TRACE_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(100);
    let mut out = String::new();
    for name in names() {
        for seed in 0..games as u64 {
            let mut t = new_table(name, &Vec::new()).unwrap();
            let mut rng = StdRng::seed_from_u64(seed);
            for _ in 0..300 {
                let mut actions = t.actions();
                actions.sort();
                writeln!(out, "{name} {seed} {} | {}", t.state_text(), actions.join(" ")).unwrap();
                match t.actor() {
                    Actor::Over => break,
                    Actor::Chance => {
                        t.draw_chance(&mut rng).unwrap();
                    }
                    Actor::Seat(..) => {
                        let a = &actions[rng.random_range(0..actions.len())];
                        t.act(a).unwrap();
                    }
                }
            }
        }
    }
    std::fs::write(path, out).unwrap();
}
