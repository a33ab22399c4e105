//! `datagen`: the same seed gives the same data, shards split the games without overlap, and
//! every line is a position of the variant with a result.

use menagerie::datagen::{Datagen, DatagenArgs, DatagenStats};
use menagerie::{default_variants, games};

fn run(variant: &str, games: u64, seed: u64, shard: (u64, u64)) -> (DatagenStats, Vec<String>) {
    let mut out: Vec<u8> = Vec::new();
    let mut progress = |_: &str| {};
    let stats = games::dispatch(
        default_variants().get(variant).unwrap(),
        Datagen {
            args: DatagenArgs {
                games,
                nodes: 300,
                seed,
                shard,
            },
            out: &mut out,
            progress: &mut progress,
        },
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    (stats, text.lines().map(str::to_string).collect())
}

#[test]
fn same_seed_same_data_and_lines_are_positions_with_results() {
    let (stats, a) = run("losalamos", 3, 7, (1, 1));
    let (_, b) = run("losalamos", 3, 7, (1, 1));
    assert_eq!(a, b);
    assert_eq!(stats.games, 3);
    assert_eq!(stats.positions as usize, a.len());
    assert!(a.len() > 20, "only {} positions", a.len());
    let (_, c) = run("losalamos", 3, 8, (1, 1));
    assert_ne!(a, c, "another seed gives other games");
    let v = default_variants().get("losalamos").unwrap();
    for line in &a {
        let (fen, result) = line.split_once(" | ").unwrap();
        assert!(["1.0", "0.5", "0.0"].contains(&result), "{line}");
        assert!(menagerie::perft_fen(v, Some(fen), 1).unwrap() > 0, "{line}");
    }
}

#[test]
fn shards_split_the_games_without_overlap() {
    let (all_stats, mut all) = run("chess", 4, 11, (1, 1));
    let (s1, mut parts) = run("chess", 4, 11, (1, 2));
    let (s2, second) = run("chess", 4, 11, (2, 2));
    assert_eq!((s1.games, s2.games, all_stats.games), (2, 2, 4));
    parts.extend(second);
    all.sort();
    parts.sort();
    assert_eq!(all, parts);
}
