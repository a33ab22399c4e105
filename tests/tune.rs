//! The tuner: from positions labelled by a known weight vector (soft results from the same
//! sigmoid), it finds the scaling constant and the weights again. A wrong gradient (a sign, a
//! missing phase factor) would leave the weights elsewhere.

use menagerie::tune::{Fit, Sample, error, fit_k, fit_weights, gradient};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

#[test]
fn recovers_a_known_weight_vector() {
    let truth = vec![[40.0, 80.0], [-20.0, -35.0], [15.0, 5.0]];
    let k = 1.3;
    let mut rng = StdRng::seed_from_u64(5);
    let zero = vec![[0.0, 0.0]; truth.len()];
    let samples: Vec<Sample> = (0..4000)
        .map(|_| {
            let counts: Vec<f64> = (0..truth.len()).map(|_| rng.random_range(-2..=2) as f64).collect();
            let mg = rng.random_range(0.0..1.0);
            let base = rng.random_range(-150.0..150.0);
            let mut s = Sample::new(base, mg, &counts, &zero, 0.0);
            s.result = 1.0 / (1.0 + 10f64.powf(-k * s.eval(&truth) / 400.0));
            s
        })
        .collect();
    let k_fit = fit_k(&samples, &truth);
    assert!((k_fit - k).abs() < 0.01, "K {k_fit}");
    let fit = Fit {
        epochs: 3000,
        rate: 1.0,
        l2: 0.0,
    };
    let w = fit_weights(&samples, k, &zero, fit, &mut |_, _| {});
    for (got, want) in w.iter().zip(&truth) {
        for h in 0..2 {
            assert!((got[h] - want[h]).abs() < 2.0, "fitted {w:?}, truth {truth:?}");
        }
    }
    assert!(error(&samples, k, &w) < 1e-5);
    assert!(error(&samples, k, &zero) > 1e-3, "the start is far from the truth");
    // A strong pull towards the start keeps the weights near it.
    let pulled = fit_weights(&samples, k, &zero, Fit { l2: 1e3, ..fit }, &mut |_, _| {});
    for (got, want) in pulled.iter().zip(&truth) {
        for h in 0..2 {
            assert!(got[h].abs() < want[h].abs() / 4.0, "pulled {pulled:?}, truth {truth:?}");
        }
    }
}

/// A sample made with some weights gives back its evaluation with those weights.
#[test]
fn a_sample_keeps_its_evaluation() {
    let w = vec![[10.0, 30.0], [5.0, -5.0]];
    let s = Sample::new(123.0, 0.25, &[2.0, -1.0], &w, 1.0);
    assert!((s.eval(&w) - 123.0).abs() < 1e-9);
    // base = 123 - (2 * (10 * 0.25 + 30 * 0.75) - (5 * 0.25 - 5 * 0.75)) = 123 - (50 + 2.5)
    assert!((s.base - 70.5).abs() < 1e-9, "{}", s.base);
}

/// The gradient equals the error's finite differences, weight by weight, on noisy results.
#[test]
fn gradient_matches_finite_differences() {
    let mut rng = StdRng::seed_from_u64(9);
    let zero = vec![[0.0, 0.0]; 3];
    let samples: Vec<Sample> = (0..300)
        .map(|_| {
            let counts: Vec<f64> = (0..3).map(|_| rng.random_range(-3..=3) as f64).collect();
            let result = [0.0, 0.5, 1.0][rng.random_range(0..3)];
            Sample::new(
                rng.random_range(-300.0..300.0),
                rng.random_range(0.0..1.0),
                &counts,
                &zero,
                result,
            )
        })
        .collect();
    let w = vec![[30.0, -10.0], [5.0, 60.0], [-25.0, 12.0]];
    let k = 0.9;
    let g = gradient(&samples, k, &w);
    let h = 1e-4;
    for j in 0..w.len() {
        for p in 0..2 {
            let (mut up, mut down) = (w.clone(), w.clone());
            up[j][p] += h;
            down[j][p] -= h;
            let numeric = (error(&samples, k, &up) - error(&samples, k, &down)) / (2.0 * h);
            assert!(
                (numeric - g[j][p]).abs() <= 1e-4 * numeric.abs().max(1e-6),
                "weight {j}.{p}: gradient {} against {numeric}",
                g[j][p]
            );
        }
    }
}

/// Data files carry a target from 0 to 1 for White: a game's result, or a soft target such as a
/// blend of the result with another engine's score. Anything else is refused with its line.
#[test]
fn data_files_take_soft_targets_and_refuse_others() {
    use menagerie::tune::LoadSamples;
    use menagerie::{default_variants, games};
    let dir = std::env::temp_dir().join(format!("menagerie-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let load = |name: &str, text: &str| {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let files = [file.to_string_lossy().into_owned()];
        let mut samples = Vec::new();
        let r = games::dispatch(
            default_variants().get("chess").unwrap(),
            LoadSamples {
                files: &files,
                samples: &mut samples,
            },
        );
        r.map(|()| samples.iter().map(|s| s.result).collect::<Vec<f64>>())
    };
    let good = format!("{start} | 1.0\n{start} | 0.5\n\n{start} | 0.734\n{start} | 0\n");
    assert_eq!(load("good.txt", &good), Ok(vec![1.0, 0.5, 0.734, 0.0]));
    for bad in ["1.5", "-0.1", "win", "NaN", ""] {
        let err = load("bad.txt", &format!("{start} | 0.5\n{start} | {bad}\n")).unwrap_err();
        assert!(err.contains("bad.txt:2") && err.contains("from 0 to 1"), "{bad}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
