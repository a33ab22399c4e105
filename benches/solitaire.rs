//! Criterion benchmarks of the solitaires' open-deal solvers: a typical Parade deal, the
//! slowest of Parade's seeds 1-1000 (seed 110), and typical Neighbour deals.

use criterion::{Criterion, criterion_group, criterion_main};
use menagerie::kit::new_table;
use menagerie::table::{Table, referee};
use std::hint::black_box;

/// The game `name` dealt as `play` and `playtest` deal seed `seed`.
fn dealt(name: &str, seed: u64) -> Box<dyn Table> {
    let mut t = new_table(name, &Vec::new()).expect("a solitaire");
    referee::deal(t.as_mut(), seed).expect("a deal");
    t
}

fn solver_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("open-deal");
    group.sample_size(10);
    for (name, seed) in [
        ("parade", 1),
        ("parade", 2),
        ("parade", 110),
        ("neighbour", 4),
        ("neighbour", 6),
    ] {
        let t = dealt(name, seed);
        group.bench_function(format!("{name}-seed{seed}"), |b| {
            b.iter(|| t.deal_optimum(black_box(2_000_000)).expect("a solver"))
        });
    }
    group.finish();
}

criterion_group!(benches, solver_benches);
criterion_main!(benches);
