//! Criterion benchmarks of perft (bulk counting) on each board geometry, and on the boards of
//! at most 64 squares also through the 128-bit path (`-wide`).

use criterion::{Criterion, criterion_group, criterion_main};
use menagerie::cli::BENCH_POSITIONS;
use menagerie::{default_variants, perft_fen, wide_variants};
use std::hint::black_box;

fn perft_benches(c: &mut Criterion) {
    let set = default_variants();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (i, &(name, fen, depth)) in BENCH_POSITIONS.iter().enumerate() {
        let v = set.get(name).expect("bench variant exists");
        let fen = (!fen.is_empty()).then_some(fen);
        // One depth less than `menagerie bench`, to keep criterion's sampling short.
        let depth = depth - 1;
        group.bench_function(format!("{i}-{name}-d{depth}"), |b| {
            b.iter(|| perft_fen(black_box(v), fen, depth).unwrap())
        });
        let wide = wide_variants().get(name).expect("bench variant exists");
        if wide.word_bits() != v.word_bits() {
            group.bench_function(format!("{i}-{name}-d{depth}-wide"), |b| {
                b.iter(|| perft_fen(black_box(wide), fen, depth).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
