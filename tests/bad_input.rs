//! Bad input never panics and always gets one clear line: garbled FENs, mutated FENs, broken
//! ini files (with file and line), and bad command lines (exit code 2).

use menagerie::games::{self, GameVisitor};
use menagerie::{Catalog, Game, MoveList, Position, Rules, default_variants, variant::DEFAULT_INI};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::process::Command;
use std::sync::Arc;

struct TryFens(Vec<String>);

impl GameVisitor for TryFens {
    /// For each FEN: Ok(fen written back) or Err(message).
    type Output = Vec<Result<String, String>>;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Self::Output {
        self.0
            .iter()
            .map(|f| match Position::from_fen(Arc::clone(&game), f) {
                Ok(mut p) => {
                    let mut list = MoveList::new();
                    p.legal_moves(&mut list);
                    for &m in &list {
                        p.make_move(m);
                        p.unmake_move();
                    }
                    Ok(p.fen())
                }
                Err(e) => Err(e.to_string()),
            })
            .collect()
    }
}

fn try_fens(variant: &str, fens: &[String]) -> Vec<Result<String, String>> {
    let set = default_variants();
    games::dispatch(set.get(variant).unwrap(), TryFens(fens.to_vec()))
}

#[test]
fn garbled_fens_are_rejected_with_one_line() {
    let chess: &[&str] = &[
        "",
        "   ",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1R w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1",
        "rnbqkbnr/pppppppp/*7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4QK2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\u{0}",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ♞",
        "𝕣nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "99999999999999999999/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBSR w KQkq - 0 1",
    ];
    // The one FEN above that is valid (a trailing space is allowed).
    let valid = ["4k3/8/8/8/8/8/8/4K2R w K - 0 1 "];
    let fens: Vec<String> = chess.iter().map(|s| s.to_string()).collect();
    for (f, r) in fens.iter().zip(try_fens("chess", &fens)) {
        if valid.contains(&f.as_str()) {
            assert!(r.is_ok(), "{f:?} should be accepted: {r:?}");
            continue;
        }
        let e = r.expect_err(&format!("{f:?} was accepted"));
        assert!(e.starts_with("bad FEN: ") && !e.contains('\n'), "{e:?}");
    }
    let c911: Vec<String> = [
        // A piece on a hole, a piece on the Eye, `*` on a real square, a pawn on its promotion rank.
        "1N9/5k5/11/11/11/11/11/11/11/5K5/11 w - - 0 1",
        "11/5k5/11/11/11/5N5/11/11/11/5K5/11 w - - 0 1",
        "11/5k5/11/11/11/11/11/11/11/1*3K5/11 w - - 0 1",
        "11/5k5/11/11/11/11/11/11/11/5K*4/11 w - - 0 1",
        "11/3P1k5/11/11/11/11/11/11/11/5K5/11 w - - 0 1",
        "11/5k5/11/11/11/11/11/11/11/5K5/11 w X - 0 1",
        "11/5k5/11/11/11/11/11/11/11/5K5 w - - 0 1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (f, r) in c911.iter().zip(try_fens("chess911", &c911)) {
        let e = r.expect_err(&format!("{f:?} was accepted"));
        assert!(e.starts_with("bad FEN: ") && !e.contains('\n'), "{e:?}");
    }
}

#[test]
fn chess911_accepts_both_hole_forms_and_prints_stars() {
    let forms: Vec<String> = [
        "f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1/F9F w KQkq - 0 1",
        "f*********f/*rnbqksbnr*/*ppppppppp*/*9*/*9*/*4*4*/*9*/*9*/*PPPPPPPPP*/*RNBQKSBNR*/F*********F w KQkq - 0 1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let out = try_fens("chess911", &forms);
    let a = out[0].clone().unwrap();
    assert_eq!(Ok(a.clone()), out[1]);
    assert!(a.starts_with("f*********f/*rnbqksbnr*/"), "{a}");
    // The Eye is a real square: written as part of an empty run.
    assert!(a.contains("/*9*/*9*/*9*/"), "{a}");
}

#[test]
fn mutated_fens_never_panic() {
    let mut rng = StdRng::seed_from_u64(7);
    let alphabet: Vec<char> = "pnbrqkPNBRQKSFsf*0123456789/ -wbKQkqVvae38".chars().collect();
    for (variant, base) in [
        (
            "chess",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        ("losalamos", "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"),
        (
            "capablanca",
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        ),
        (
            "chess911",
            "f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKSBNR1/F9F w KQkq - 0 1",
        ),
    ] {
        let mut fens = Vec::new();
        for _ in 0..3000 {
            let mut s: Vec<char> = base.chars().collect();
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..s.len());
                match rng.random_range(0..3) {
                    0 => s[i] = alphabet[rng.random_range(0..alphabet.len())],
                    1 => s.insert(i, alphabet[rng.random_range(0..alphabet.len())]),
                    _ => {
                        s.remove(i);
                    }
                }
            }
            fens.push(s.into_iter().collect::<String>());
        }
        let results = try_fens(variant, &fens);
        let mut accepted = Vec::new();
        for r in &results {
            match r {
                Ok(f) => accepted.push(f.clone()),
                Err(e) => assert!(e.starts_with("bad FEN: ") && !e.contains('\n')),
            }
        }
        assert!(results.iter().any(|r| r.is_err()));
        // Whatever was accepted is written back in a form that reads again to itself.
        for (f, r) in accepted.iter().zip(try_fens(variant, &accepted)) {
            assert_eq!(Ok(f.clone()), r);
        }
    }
}

fn ini_error(text: &str) -> (usize, String) {
    let e = Catalog::parse(text, "test.ini").expect_err("must be rejected");
    let shown = e.to_string();
    assert!(shown.starts_with("test.ini") && !shown.contains('\n'), "{shown}");
    (e.line, e.message)
}

const GOOD: &str = "[mini]\nboard = 4x4\npiece = K king K royal\npiece = R rook R\nstart = 3k/4/4/R2K w - - 0 1\n";

#[test]
fn broken_ini_files_name_the_line_and_problem() {
    assert!(Catalog::parse(GOOD, "test.ini").is_ok());
    let cases: &[(&str, usize, &str)] = &[
        ("", 0, "no [variant]"),
        ("board = 8x8\n", 1, "before the first"),
        ("[a\nboard=8x8\n", 1, "without ']'"),
        ("[a b]\n", 1, "bad variant name"),
        ("[x:nothere]\n", 1, "parent"),
        ("[mini]\nboard = 4x4\nbogus = 1\n", 3, "unknown key"),
        (
            "[mini]\nboard = 40x4\npiece = K king K royal\nstart = 8 w\n",
            2,
            "files and ranks",
        ),
        (
            "[mini]\nboard = 12x12\npiece = K king K royal\nstart = 8 w\n",
            2,
            "more than 128",
        ),
        ("[mini]\nboard = fourxfour\n", 2, "FILESxRANKS"),
        (
            "[mini]\nboard = 4x4\npiece = K king Kq royal\nstart = 3k/4/4/3K w\n",
            3,
            "Betza column 2",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king K sovereign\nstart = 3k/4/4/3K w\n",
            3,
            "unknown flag",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king\nstart = 3k/4/4/3K w\n",
            3,
            "expected 'piece =",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king K royal\nstart = 3k/4/4/3X w\n",
            4,
            "unknown piece letter",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king K royal\nstart = 3k/4/4/3K w\nholes = e5\n",
            5,
            "not a square",
        ),
        ("[mini]\nboard = 4x4\npiece = K king K royal\n", 1, "no 'start'"),
        ("[mini]\nboard = 4x4\nstart = 4/4/4/4 w\n", 1, "no pieces"),
        (
            "[mini]\nboard = 4x4\npiece = K king K royal\nstart = 3k/4/4/3K w\nrules = nosuch\n",
            5,
            "unknown module",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king K royal\nstart = 3k/4/4/3K w\ncheck = maybe\n",
            5,
            "true or false",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king K royal\nstart = 3k/4/4/3K w\nstalemate = tie\n",
            5,
            "draw, loss",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king K royal\nstart = 3k/4/4/3K w\ncastle_k = d1b1\n",
            5,
            "castle_k",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king K royal\npiece = P pawn fmW pawn\nstart = 3k/4/4/3K w\npromotion_rank = 4\n",
            1,
            "promotion_pieces",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king K royal\nstart = 3k/4/4/3K w\npromotion_pieces = Q\n",
            5,
            "no piece 'Q'",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king K royal\nstart = 3k/4/4/3K w\npromotion_rank = 9\n",
            5,
            "not on a board",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king iK royal\nstart = 3k/4/4/3K w\n",
            3,
            "only supported for pawns",
        ),
        (
            "[mini]\nboard = 4x4\npiece = K king K royal\nstart = 3k/4/4/3K w\n[mini]\n",
            5,
            "defined twice",
        ),
        (
            "[mini]\nboard = 8x8\npiece = K king K royal\npiece = X x QNNCCZZAAGGHHDD\nstart = 7k/8/8/8/8/8/8/K7 w\n",
            1,
            "more than 32 rider",
        ),
        (
            "[mini]\nboard = 8x8\npiece = K king K royal\npiece = R rook R\nstart = 4k3/8/8/8/8/8/8/R3K3 w\ncastle_q = e1c2 a1d1\n",
            6,
            "one rank",
        ),
        (
            "[chess911]\nboard = 11x11\npiece = K king K royal\nstart = 5k5/11/11/11/11/11/11/11/11/11/5K5 w\nrules = chess911\n",
            5,
            "rules.eye",
        ),
    ];
    for (text, line, needle) in cases {
        let (l, m) = ini_error(text);
        assert!(m.contains(needle), "{text:?}: message {m:?} lacks {needle:?}");
        assert_eq!(l, *line, "{text:?}: {m}");
    }
}

#[test]
fn mutated_engine_ini_never_panics() {
    let mut rng = StdRng::seed_from_u64(11);
    let lines: Vec<&str> = DEFAULT_INI.lines().collect();
    let mut rejected = 0;
    for _ in 0..400 {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        let i = rng.random_range(0..l.len());
        match rng.random_range(0..3) {
            0 => {
                l.remove(i);
            }
            1 => {
                let mut c: Vec<char> = l[i].chars().collect();
                if !c.is_empty() {
                    let j = rng.random_range(0..c.len());
                    c[j] = ['x', '=', '[', '9', ' ', 'Z', '/'][rng.random_range(0..7)];
                }
                l[i] = c.into_iter().collect();
            }
            _ => l.insert(i, "piece = X".into()),
        }
        if let Err(e) = Catalog::parse(&l.join("\n"), "engine.ini") {
            rejected += 1;
            assert!(!e.to_string().contains('\n'));
        }
    }
    assert!(rejected > 50, "only {rejected} mutations rejected");
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_errors_are_one_line_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("menagerie-bad-ini-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let broken = dir.join("broken.ini");
    std::fs::write(&broken, "[v]\nboard = 4x4\npiece = K king Q7x royal\n").unwrap();
    let broken = broken.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["frobnicate"], "unknown command"),
        (vec!["perft"], "needs a depth"),
        (vec!["perft", "0"], "out of range"),
        (vec!["perft", "99"], "out of range"),
        (vec!["perft", "x"], "not a number"),
        (vec!["perft", "--variant", "nosuch", "2"], "unknown variant"),
        (vec!["perft", "--fen"], "needs a value"),
        (vec!["perft", "--fen", "8/8 w", "2"], "bad FEN"),
        (vec!["perft", "2", "3"], "unexpected argument"),
        (vec!["--ini"], "needs a file"),
        (vec!["--ini", "/nonexistent/engine.ini", "variants"], "cannot read"),
        (vec!["--ini", broken, "variants"], "broken.ini:3:"),
        (vec!["check-ini", broken], "broken.ini:3:"),
        // Global options come before the command only.
        (vec!["perft", "--ini", broken, "1"], "unexpected argument '--ini'"),
        (vec!["--random", "perft", "1"], "--random is for the protocol loop"),
        (vec!["bench", "extra"], "unexpected argument"),
        (vec!["perft", "-d", "2"], "perft: unexpected argument '-d'"),
        (vec!["perft", "--divide=yes", "2"], "perft: "),
        (vec!["datagen", "chess", "--games=x"], "--games 'x' is not a number"),
        (vec!["tune", "--data"], "--data needs a value"),
        (
            vec!["playtest", "gravity", "--games", "2", "--bogus", "1"],
            "unknown option '--bogus'",
        ),
    ];
    for (args, needle) in cases {
        let (code, _out, err) = cli(&args);
        assert_eq!(code, 2, "{args:?}: exit code");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
        assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
    }
}

/// Options are read by lexopt: `--name=value` is the same as `--name value`.
#[test]
fn cli_options_take_their_value_after_an_equals_sign() {
    let (code, out, err) = cli(&["perft", "--variant=losalamos", "2"]);
    assert_eq!(code, 0, "{err}");
    let (_, spaced, _) = cli(&["perft", "--variant", "losalamos", "2"]);
    assert_eq!(out.lines().next(), spaced.lines().next());
    assert_eq!(
        out.lines().next(),
        Some("100"),
        "Los Alamos: 10 moves a side from the start"
    );
}

#[test]
fn cli_perft_divide_format() {
    let (code, out, _) = cli(&["perft", "--divide", "--variant", "losalamos", "2"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 12, "{out}");
    assert!(
        lines[..10]
            .iter()
            .all(|l| l.split(": ").nth(1).and_then(|n| n.parse::<u64>().ok()) == Some(10))
    );
    assert_eq!(lines[10], "");
    assert_eq!(lines[11], "Nodes searched: 100");
    let (code, out, _) = cli(&["perft", "--variant", "chess911", "3"]);
    assert_eq!((code, out.trim()), (0, "17792"));
    // Another ini file can be loaded and used.
    let dir = std::env::temp_dir().join(format!("menagerie-good-ini-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.ini");
    std::fs::write(&good, GOOD).unwrap();
    let (code, out, err) = cli(&["--ini", good.to_str().unwrap(), "perft", "--variant", "mini", "1"]);
    assert_eq!(code, 0, "{err}");
    // Rook a1: a2 a3 a4 b1 c1 = 5; king d1: c2 d2 (c1 would be... c1 and c2, d2) -> 3; total 8.
    assert_eq!(out.trim(), "8");
}

#[test]
fn black_moves_are_white_moves_turned_round() {
    // A piece that only steps to its owner's right: White goes towards h, Black towards a.
    let ini =
        "[side]\nboard = 8x8\npiece = K king K royal\npiece = X sidestep rW\nstart = k7/8/8/3x4/3X4/8/8/7K w - - 0 1\n";
    let set = Catalog::parse(ini, "side.ini").unwrap();
    let v = set.get("side").unwrap();
    struct Moves(&'static str);
    impl GameVisitor for Moves {
        type Output = Vec<String>;
        fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Vec<String> {
            let mut p = Position::from_fen(game, self.0).unwrap();
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            let mut v: Vec<String> = list.iter().map(|&m| menagerie::notation::move_text(&p, m)).collect();
            v.retain(|m| m.starts_with('d'));
            v
        }
    }
    assert_eq!(
        games::dispatch(v, Moves("k7/8/8/3x4/3X4/8/8/7K w - - 0 1")),
        vec!["d4e4"]
    );
    assert_eq!(
        games::dispatch(v, Moves("k7/8/8/3x4/3X4/8/8/7K b - - 0 1")),
        vec!["d5c5"]
    );
}

/// Every rules module refuses a `rules.KEY` it does not read, naming the file and the line.
#[test]
fn every_rules_module_refuses_an_unknown_setting() {
    let mut seen = Vec::new();
    for name in menagerie::games::NAMES {
        // The built-in file with `rules.bogus` added to the first variant of this module.
        let mut lines: Vec<String> = DEFAULT_INI.lines().map(String::from).collect();
        let sections: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with('[')).collect();
        let owner = sections.iter().copied().find(|&start| {
            let end = sections.iter().copied().find(|&s| s > start).unwrap_or(lines.len());
            let module = lines[start..end]
                .iter()
                .find_map(|l| l.strip_prefix("rules = "))
                .unwrap_or("plain");
            module.trim() == *name
        });
        let start = owner.unwrap_or_else(|| panic!("no variant of module {name} in engine.ini"));
        lines.insert(start + 1, "rules.bogus = 1".into());
        let e = Catalog::parse(&lines.join("\n"), "test.ini").expect_err(name);
        assert_eq!((e.file.as_str(), e.line), ("test.ini", start + 2), "{name}: {e}");
        assert!(e.message.contains("rules.bogus"), "{name}: {e}");
        seen.push(*name);
    }
    assert!(seen.len() >= 5, "{seen:?}");
}

/// The game data of a variant (tables, keys, evaluation tables) is built once and shared:
/// sessions, new games, set-ups and fresh sessions build nothing more.
#[test]
fn game_data_is_built_once_per_variant() {
    use menagerie::engine::new_session;
    let set = default_variants();
    assert!(std::ptr::eq(set, default_variants()), "the default set is built once");
    let before = menagerie::position::games_built();
    for v in &set.variants {
        let mut s = new_session(v);
        for _ in 0..10 {
            let mut f = s.fresh();
            f.reset();
            let fen = f.fen();
            f.set_fen(&fen).unwrap();
            s = f;
        }
    }
    assert_eq!(
        menagerie::position::games_built(),
        before,
        "a session rebuilt the game data"
    );
}

/// The ini loader only reads data: a variant naming an unknown rules module, a setting no module
/// reads or a start position without kings is data it accepts; the rules step refuses each, at
/// the line of the key at fault.
#[test]
fn the_loader_reads_data_and_the_rules_step_checks_it() {
    let cases = [
        ("rules = nosuch\n", "rules: unknown module 'nosuch'", 6),
        ("rules.eye = f6\n", "rules.eye: unknown setting of the plain rules", 6),
        ("eval.bogus = 1 2\n", "eval.bogus: unknown term", 6),
        ("eval.doubled = x 3\n", "eval.doubled = x 3: want whole numbers", 6),
        ("eval.doubled = 4\n", "eval.doubled = 4: want two numbers", 6),
        ("eval.king_danger = 4 5\n", "eval.king_danger = 4 5: want one number", 6),
        ("eval.doubled = 4.5 3\n", "eval.doubled = 4.5 3: want whole numbers", 6),
        ("eval.value.q = 900 950\n", "eval.value.q: unknown term", 6),
        ("eval.centre.r = 1.5 x\n", "eval.centre.r = 1.5 x: want numbers", 6),
        ("eval.mobility.r = 2 inf\n", "eval.mobility.r = 2 inf: want numbers", 6),
        ("", "start: ", 5),
    ];
    for (extra, want, line) in cases {
        let mut text = GOOD.to_string();
        if extra.is_empty() {
            text = text.replace("start = 3k/4/4/R2K", "start = 4/4/4/R3");
        }
        text.push_str(extra);
        let data = menagerie::parse_ini(&text, "test.ini").expect("the loader takes the data");
        assert_eq!(data.variants.len(), 1);
        let e = Catalog::prepare(data).expect_err(want);
        assert!(e.to_string().starts_with(&format!("test.ini:{line}: {want}")), "{e}");
    }
}
