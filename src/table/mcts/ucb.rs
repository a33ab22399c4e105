//! UCB for the generic player's selection: each edge's upper confidence bound, screened by
//! estimates from tables so that only the edges near the best are worked out exactly.

use super::Edge;
use std::sync::LazyLock;

/// The edge among `present` (indices into `edges`) with the best upper confidence bound (means
/// brought to 0..1 by the score `range`, constant `c`; of equal bounds the last). Estimates
/// from tables, a few units in the last place off (kept in `estimates`, a buffer), screen out
/// all but the edges near the best.
pub(super) fn best_by_ucb<A>(
    edges: &[Edge<A>],
    present: &[usize],
    (lo, hi): (f64, f64),
    c: f64,
    estimates: &mut Vec<f64>,
) -> Option<usize> {
    let span = if hi > lo { hi - lo } else { 1.0 };
    let (low, per_span) = (lo.min(hi), 1.0 / span);
    let (logs, roots) = (&**LOGS, &**INVERSE_ROOTS);
    // The edges present were mostly available as often: one logarithm serves them.
    let mut log = (0, 0.0, 0.0);
    let mut log_of = |available: u32| {
        if log.0 != available {
            let l = kept_or(logs, available, f64::ln);
            log = (available, l, l.sqrt());
        }
        (log.1, log.2)
    };
    let estimate = |e: &Edge<A>, root_log: f64| {
        let mean = if e.visits == 0 {
            f64::INFINITY
        } else {
            (e.mean - low) * per_span
        };
        mean + c * root_log * kept_or(roots, e.visits.max(1), |n| 1.0 / n.sqrt())
    };
    estimates.clear();
    let mut top = f64::NEG_INFINITY;
    for &i in present {
        let e = &edges[i];
        let guess = estimate(e, log_of(e.available.max(1)).1);
        estimates.push(guess);
        top = top.max(guess);
    }
    let near = if top.is_finite() {
        top - 1e-9 * (1.0 + top.abs())
    } else {
        top
    };
    let mut best: Option<(usize, f64)> = None;
    for (&i, &guess) in present.iter().zip(estimates.iter()) {
        if guess < near {
            continue;
        }
        let e = &edges[i];
        let l = log_of(e.available.max(1)).0;
        let mean = if e.visits == 0 {
            f64::INFINITY
        } else {
            (e.mean - low) / span
        };
        let u = mean + c * (l / e.visits.max(1) as f64).sqrt();
        if best.is_none_or(|(_, b)| u.total_cmp(&b).is_ge()) {
            best = Some((i, u));
        }
    }
    best.map(|(i, _)| i)
}

/// `1 / sqrt(n)`, read from a table for the counts most searches reach.
#[cfg(test)]
fn inverse_root(n: u32) -> f64 {
    kept_or(&INVERSE_ROOTS, n, |n| 1.0 / n.sqrt())
}

/// The natural logarithm of `n`, read from a table for the counts most searches reach.
#[cfg(test)]
fn ln(n: u32) -> f64 {
    kept_or(&LOGS, n, f64::ln)
}

/// `f(n)`, read from `table` (of `f` at 0, 1, ...) where it reaches.
#[inline]
fn kept_or(table: &[f64], n: u32, f: fn(f64) -> f64) -> f64 {
    match table.get(n as usize) {
        Some(&v) => v,
        None => f(n as f64),
    }
}

/// The natural logarithms of the counts below [`LOGS_KEPT`].
static LOGS: LazyLock<Vec<f64>> = LazyLock::new(|| (0..LOGS_KEPT).map(|n| (n as f64).ln()).collect());

/// `1 / sqrt(n)` of the counts below [`LOGS_KEPT`].
static INVERSE_ROOTS: LazyLock<Vec<f64>> = LazyLock::new(|| (0..LOGS_KEPT).map(|n| 1.0 / (n as f64).sqrt()).collect());

/// The counts whose logarithms and inverse roots the tables keep.
const LOGS_KEPT: u32 = 1 << 13;

#[cfg(test)]
mod tests {
    use super::{Edge, LOGS_KEPT, best_by_ucb, inverse_root, ln};

    /// UCB's logarithms and inverse roots from the tables are the values, on both sides of
    /// their end.
    #[test]
    fn the_table_s_logarithms_are_the_logarithms() {
        for n in [0, 1, 2, 1000, LOGS_KEPT - 1, LOGS_KEPT, LOGS_KEPT + 1, u32::MAX] {
            assert_eq!(ln(n).to_bits(), (n as f64).ln().to_bits(), "ln {n}");
            let root = 1.0 / (n as f64).sqrt();
            assert_eq!(inverse_root(n).to_bits(), root.to_bits(), "1/sqrt {n}");
        }
    }

    /// UCB's pick, with its bounds screened by estimates first, is the pick of every bound
    /// worked out (the last of equal bounds), over random edges with equal and unvisited ones
    /// and means a unit in the last place apart.
    #[test]
    fn ucb_picks_as_working_out_every_bound_does() {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        // Every bound worked out, as the search did before it screened them.
        let every = |edges: &[Edge<u32>], present: &[usize], (lo, hi): (f64, f64), c: f64| {
            let span = if hi > lo { hi - lo } else { 1.0 };
            let mut best: Option<(usize, f64)> = None;
            for &i in present {
                let e = &edges[i];
                let mean = if e.visits == 0 {
                    f64::INFINITY
                } else {
                    (e.mean - lo.min(hi)) / span
                };
                let u = mean + c * (ln(e.available.max(1)) / e.visits.max(1) as f64).sqrt();
                if best.is_none_or(|(_, b)| u.total_cmp(&b).is_ge()) {
                    best = Some((i, u));
                }
            }
            best.map(|(i, _)| i)
        };
        let mut rng = StdRng::seed_from_u64(3);
        let counts = [0, 1, 2, 3, 7, 40, 41, 500, 9_000];
        let means = [0.0, 0.25, 0.5, 0.5f64.next_up(), 0.5f64.next_down(), 0.75, 1.0];
        let mut differ = 0;
        for _ in 0..20_000 {
            let n = rng.random_range(1..40);
            let edges: Vec<Edge<u32>> = (0..n)
                .map(|k| {
                    let visits = counts[rng.random_range(0..counts.len() - 1)];
                    let mean = if visits == 0 {
                        0.0
                    } else {
                        means[rng.random_range(0..means.len())]
                    };
                    Edge {
                        action: k,
                        child: 0,
                        visits,
                        available: visits.max(counts[rng.random_range(1..counts.len())]),
                        total: mean * f64::from(visits),
                        mean,
                    }
                })
                .collect();
            let present: Vec<usize> = (0..n as usize).filter(|_| rng.random_range(0..4) > 0).collect();
            let range =
                [(0.0, 1.0), (-1.0, 2.0), (0.3, 0.3), (f64::INFINITY, f64::NEG_INFINITY)][rng.random_range(0..4)];
            let c = [0.0, 0.5, 0.7, 2.0][rng.random_range(0..4)];
            let picked = best_by_ucb(&edges, &present, range, c, &mut Vec::new());
            assert_eq!(picked, every(&edges, &present, range, c), "{range:?} {c}");
            differ += usize::from(picked != present.last().copied());
        }
        assert!(differ > 10_000, "{differ}");
        // Pairs whose bounds lie within a few units in the last place, in both orders.
        let edge = |visits: u32, available: u32, mean: f64| Edge {
            action: 0,
            child: 0,
            visits,
            available,
            total: mean * f64::from(visits),
            mean,
        };
        let (mut first, mut second) = (0, 0);
        for _ in 0..20_000 {
            let c = 0.7;
            let (n, v, w) = (
                rng.random_range(2..5_000),
                rng.random_range(1..2_000),
                rng.random_range(1..2_000),
            );
            let a = edge(v, n, rng.random::<f64>());
            let bound = a.mean + c * (ln(n) / f64::from(v)).sqrt();
            let mut mean = bound - c * (ln(n) / f64::from(w)).sqrt();
            for _ in 0..rng.random_range(0..3) {
                mean = if rng.random() { mean.next_up() } else { mean.next_down() };
            }
            let edges = [a, edge(w, n, mean)];
            for present in [[0, 1], [1, 0]] {
                let picked = best_by_ucb(&edges, &present, (0.0, 1.0), c, &mut Vec::new());
                assert_eq!(picked, every(&edges, &present, (0.0, 1.0), c), "{v} {w} {n}");
                first += usize::from(picked == Some(present[0]));
                second += usize::from(picked == Some(present[1]));
            }
        }
        assert!(first > 1_000 && second > 1_000, "{first} {second}");
    }
}
