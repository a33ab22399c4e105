//! Runs every `perft/*.perft` suite, found by listing the folder: a suite's file stem names its
//! variant. Entries above a node budget are skipped unless `MENAGERIE_PERFT_NODES` raises it
//! (`MENAGERIE_PERFT_NODES=all` runs everything).

use menagerie::{Catalog, count_mismatch_fen, default_variants, perft_fen, wide_variants};
use std::fs;
use std::path::{Path, PathBuf};

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

fn parse_suite(text: &str, file: &str) -> Vec<Entry> {
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
                let mut num = |what: &str| {
                    w.next()
                        .and_then(|t| t.parse::<u64>().ok())
                        .unwrap_or_else(|| panic!("{file}:{}: perft needs DEPTH NODES, bad {what}", i + 1))
                };
                let depth = num("depth") as u32;
                let nodes = num("node count");
                assert!(!fen.is_empty(), "{file}:{}: perft before any epd", i + 1);
                out.push(Entry {
                    id: id.clone(),
                    fen: fen.clone(),
                    depth,
                    nodes,
                    line: i + 1,
                });
            }
            other => panic!("{file}:{}: unknown key {other}", i + 1),
        }
    }
    out
}

/// Every `*.perft` file of `perft/`, sorted.
fn suite_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("perft/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    files
}

/// Runs one suite file within `budget` nodes an entry; returns (entries run, failures).
fn run_suite(path: &Path, budget: u64) -> (usize, Vec<String>) {
    run_suite_in(default_variants(), path, budget)
}

/// As [`run_suite`], with the variants of `set`.
fn run_suite_in(set: &Catalog, path: &Path, budget: u64) -> (usize, Vec<String>) {
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let variant = path.file_stem().unwrap().to_string_lossy().into_owned();
    let v = set
        .get(&variant)
        .unwrap_or_else(|| panic!("{file}: no variant '{variant}' in engine.ini"));
    let text = fs::read_to_string(path).expect("suite file readable");
    let entries = parse_suite(&text, &file);
    assert!(!entries.is_empty(), "{file}: no perft entries");
    let (mut ran, mut failures) = (0, Vec::new());
    for e in entries.iter().filter(|e| e.nodes <= budget) {
        match perft_fen(v, Some(&e.fen), e.depth) {
            Ok(got) if got == e.nodes => {}
            Ok(got) => failures.push(format!(
                "{file}:{} {} depth {}: expected {}, got {got}",
                e.line, e.id, e.depth, e.nodes
            )),
            Err(err) => failures.push(format!("{file}:{} {} ({}): {err}", e.line, e.id, e.fen)),
        }
        ran += 1;
    }
    eprintln!("{file}: {ran} of {} entries run (budget {budget} nodes)", entries.len());
    (ran, failures)
}

#[test]
fn every_suite_file_runs_and_matches() {
    let files = suite_files();
    let budget = budget();
    let mut failures = Vec::new();
    let mut empty = Vec::new();
    for f in &files {
        let (ran, mut fail) = run_suite(f, budget);
        if ran == 0 {
            empty.push(f.display().to_string());
        }
        failures.append(&mut fail);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(empty.is_empty(), "suites with no entry inside the budget: {empty:?}");
    // The listing itself must find the suites README promises (a wrong folder finds none).
    for name in ["chess", "tensor", "rbc"] {
        assert!(
            files.iter().any(|f| f.file_stem().unwrap() == name),
            "perft/{name}.perft not found by the listing"
        );
    }
}

/// The suites of plain boards with 64-bit bitboards (chess, Chess960, Los Alamos) also pass on
/// the 128-bit path, the one the large boards use (a smaller budget: the counts are the same).
/// RBC's module has the 64-bit path only.
#[test]
fn small_boards_pass_on_both_widths() {
    let mut failures = Vec::new();
    let mut narrow = Vec::new();
    for f in suite_files() {
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        let Some(v) = default_variants().get(&name) else {
            continue;
        };
        if v.word_bits() != 64 || wide_variants().get(&name).unwrap().word_bits() != 128 {
            continue;
        }
        narrow.push(name.clone());
        let (ran, mut fail) = run_suite_in(wide_variants(), &f, budget().min(5_000_000));
        assert!(ran > 0, "{name}: no entry inside the budget");
        failures.append(&mut fail);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for name in ["chess", "losalamos", "chess960"] {
        assert!(narrow.iter().any(|n| n == name), "{name} is not checked on both widths");
    }
    assert_eq!(default_variants().get("rbc").unwrap().word_bits(), 64);
    // The large boards keep 128 bits.
    for name in ["capablanca", "chess911", "tensor"] {
        assert_eq!(default_variants().get(name).unwrap().word_bits(), 128, "{name}");
    }
}

/// Perft counts its last ply without listing moves (pawns and knights a whole set at a time);
/// on every node within four plies of every suite position, of every variant on both widths,
/// the count equals the length of the move list.
#[test]
fn counted_moves_equal_listed_moves() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in suite_files() {
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        let file = f.file_name().unwrap().to_string_lossy().into_owned();
        let entries = parse_suite(&fs::read_to_string(&f).unwrap(), &file);
        let mut fens: Vec<&str> = entries.iter().map(|e| e.fen.as_str()).collect();
        fens.dedup();
        for set in [default_variants(), wide_variants()] {
            let v = set.get(&name).unwrap();
            for fen in &fens {
                match count_mismatch_fen(v, Some(fen), 4) {
                    Ok(None) => checked += 1,
                    Ok(Some(bad)) => failures.push(format!("{name} ({} bits) from {fen}: {bad}", v.word_bits())),
                    Err(e) => failures.push(format!("{name}: {fen}: {e}")),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 20, "only {checked} positions checked");
}

#[test]
fn every_variant_has_a_suite() {
    for v in &default_variants().variants {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("perft")
            .join(format!("{}.perft", v.name));
        assert!(path.exists(), "no perft suite for variant {}", v.name);
    }
}

/// A wrong number in a suite must fail: the same runner on a copy of a suite with one count
/// changed reports exactly that line.
#[test]
fn a_wrong_number_fails() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft/rbc.perft");
    let text = fs::read_to_string(&src).unwrap();
    let (n, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("perft 1 "))
        .expect("rbc.perft has a depth-1 entry");
    let count: u64 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
    let bad = text.replacen(line, &format!("perft 1 {}", count + 1), 1);
    let dir = std::env::temp_dir().join(format!("menagerie-perft-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("rbc.perft");
    fs::write(&copy, bad).unwrap();
    let (_, failures) = run_suite(&copy, budget());
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].starts_with(&format!("rbc.perft:{} ", n + 1)),
        "{failures:?}"
    );
}
