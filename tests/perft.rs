//! Runs every `perft/*.perft` suite. Entries above a node budget are skipped unless
//! `MENAGERIE_PERFT_NODES` raises it (`MENAGERIE_PERFT_NODES=all` runs everything).

use menagerie::{default_variants, perft_fen};
use std::fs;
use std::path::Path;

const DEFAULT_BUDGET: u64 = 50_000_000;

fn budget() -> u64 {
    match std::env::var("MENAGERIE_PERFT_NODES") {
        Ok(v) if v == "all" => u64::MAX,
        Ok(v) => v.parse().expect("MENAGERIE_PERFT_NODES must be a number or 'all'"),
        Err(_) => DEFAULT_BUDGET,
    }
}

struct Entry {
    id: String,
    fen: String,
    depth: u32,
    nodes: u64,
    line: usize,
}

fn parse_suite(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let (mut id, mut fen) = (String::new(), String::new());
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => id = rest.trim().to_string(),
            "epd" => fen = rest.trim().to_string(),
            "perft" => {
                let mut w = rest.split_whitespace();
                let depth = w.next().unwrap().parse().unwrap();
                let nodes = w.next().unwrap().parse().unwrap();
                out.push(Entry {
                    id: id.clone(),
                    fen: fen.clone(),
                    depth,
                    nodes,
                    line: i + 1,
                });
            }
            other => panic!("line {}: unknown key {other}", i + 1),
        }
    }
    out
}

fn run_suite(variant: &str) {
    let set = default_variants();
    let v = set.get(variant).expect("variant exists");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("perft")
        .join(format!("{variant}.perft"));
    let text = fs::read_to_string(&path).expect("suite file exists");
    let entries = parse_suite(&text);
    assert!(!entries.is_empty());
    let budget = budget();
    let mut ran = 0;
    let mut failures = Vec::new();
    for e in &entries {
        if e.nodes > budget {
            continue;
        }
        let got = perft_fen(v, Some(&e.fen), e.depth).unwrap_or_else(|err| panic!("{} ({}): {err}", e.id, e.fen));
        if got != e.nodes {
            failures.push(format!(
                "{variant}.perft:{} {} depth {}: expected {}, got {got}",
                e.line, e.id, e.depth, e.nodes
            ));
        }
        ran += 1;
    }
    eprintln!(
        "{variant}: {ran} of {} entries run (budget {budget} nodes)",
        entries.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran > 0);
}

#[test]
fn chess() {
    run_suite("chess");
}

#[test]
fn losalamos() {
    run_suite("losalamos");
}

#[test]
fn capablanca() {
    run_suite("capablanca");
}

#[test]
fn chess911() {
    run_suite("chess911");
}

#[test]
fn remotesensing() {
    run_suite("remotesensing");
}

#[test]
fn remotesensing_ownpawn() {
    run_suite("remotesensing-ownpawn");
}

#[test]
fn every_variant_has_a_suite() {
    let set = default_variants();
    for v in &set.variants {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("perft")
            .join(format!("{}.perft", v.name));
        assert!(path.exists(), "no perft suite for variant {}", v.name);
    }
}
