//! Proves that move generation, make/unmake and perft allocate nothing once a position is set
//! up: a counting global allocator counts allocations made on this thread while enabled.

use menagerie::games::{self, GameVisitor};
use menagerie::{Game, MoveList, Position, Rules, default_variants, perft::perft};
use std::sync::Arc;

#[path = "common/alloc_counter.rs"]
mod alloc_counter;
use alloc_counter::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

struct Work {
    fens: Vec<String>,
    depth: u32,
}

impl GameVisitor for Work {
    type Output = (usize, u64);
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> (usize, u64) {
        let mut positions: Vec<Position<R>> = self
            .fens
            .iter()
            .map(|f| Position::from_fen(Arc::clone(&game), f).unwrap())
            .collect();
        positions.push(Position::startpos(game));
        let mut nodes = 0;
        let n = allocations(|| {
            for pos in positions.iter_mut() {
                nodes += perft(pos, self.depth);
                // A long pseudo-random walk: generate, make, and unmake at the end.
                let mut seed = 0x2545_F491_4F6C_DD1Du64;
                let mut made = 0;
                for _ in 0..300 {
                    let mut list = MoveList::new();
                    pos.legal_moves(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.make_move(list[(seed % list.len() as u64) as usize]);
                    made += 1;
                    nodes += 1;
                }
                for _ in 0..made {
                    pos.unmake_move();
                }
            }
        });
        (n, nodes)
    }
}

#[test]
fn movegen_make_unmake_and_perft_do_not_allocate() {
    let set = default_variants();
    let cases: &[(&str, &[&str], u32)] = &[
        (
            "chess",
            &["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"],
            3,
        ),
        ("losalamos", &["6/2P3/6/1K1k2/6/6 w - - 0 1"], 4),
        ("capablanca", &[], 3),
        ("chess911", &["11/5k5/11/11/11/11/11/11/11/5KSB3/11 w - - 0 1"], 3),
        ("tensor", &["6k3/4tn4/3tT2t2/6P3/1b3P4/7B2/10/9K b - - 0 1"], 3),
    ];
    for (name, fens, depth) in cases {
        let v = set.get(name).unwrap();
        let work = Work {
            fens: fens.iter().map(|s| s.to_string()).collect(),
            depth: *depth,
        };
        let (allocs, nodes) = games::dispatch(v, work);
        assert!(nodes > 1000, "{name}: the work must be real ({nodes} nodes)");
        assert_eq!(allocs, 0, "{name}: {allocs} allocations during movegen/perft");
    }
}

#[test]
fn the_counter_sees_allocations() {
    // The counter must be able to fail: a Vec allocation is counted.
    let n = allocations(|| {
        let v: Vec<u64> = Vec::with_capacity(100);
        std::hint::black_box(&v);
    });
    assert_eq!(n, 1);
}
