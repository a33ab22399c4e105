//! Fitting evaluation weights to game results (Texel's method): each position's evaluation is
//! a constant plus the linear terms, `sum f_j (mg_j p + eg_j (1 - p))` with `f` the term
//! counts (White's minus Black's) and `p` the middle-game share; the predicted score is
//! `1 / (1 + 10^(-K e / 400))`. `K` is fitted first, then the weights by Adam on the mean
//! squared error against the results, plus an optional pull towards the starting weights
//! (`l2 * sum ((w - w0) / 100)^2`) that keeps weights the data hardly sees near their defaults.

/// One position, reduced to what the fit needs.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The evaluation (White's side, centipawns) without the fitted terms.
    pub base: f64,
    /// Middle-game share of the phase, 0..1.
    pub mg: f64,
    /// Non-zero term counts: (weight index, count).
    pub features: Vec<(usize, f64)>,
    /// The target for White, 0..1: the game's result, or a soft target (a blend with a score).
    pub result: f64,
}

impl Sample {
    /// A sample from an evaluation `eval` made with the weights `w` (one (mg, eg) pair per
    /// term), the counts and the phase: the fitted terms' share is taken out of `eval`.
    pub fn new(eval: f64, mg: f64, counts: &[f64], w: &[[f64; 2]], result: f64) -> Sample {
        let features: Vec<(usize, f64)> = counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != 0.0)
            .map(|(j, &c)| (j, c))
            .collect();
        let mut s = Sample {
            base: eval,
            mg,
            features,
            result,
        };
        s.base -= s.terms(w);
        s
    }

    fn terms(&self, w: &[[f64; 2]]) -> f64 {
        self.features
            .iter()
            .map(|&(j, f)| f * (w[j][0] * self.mg + w[j][1] * (1.0 - self.mg)))
            .sum()
    }

    /// The evaluation with weights `w`.
    pub fn eval(&self, w: &[[f64; 2]]) -> f64 {
        self.base + self.terms(w)
    }
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error of the predictions with scaling `k` and weights `w`.
pub fn error(samples: &[Sample], k: f64, w: &[[f64; 2]]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let d = s.result - sigmoid(k, s.eval(w));
            d * d
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The scaling constant that fits the results best with weights `w` (golden-section search
/// on 0.05..5).
pub fn fit_k(samples: &[Sample], w: &[[f64; 2]]) -> f64 {
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(samples, c, w) < error(samples, d, w) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// The gradient of [`error`] with respect to the weights.
pub fn gradient(samples: &[Sample], k: f64, w: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let mut grad = vec![[0.0f64; 2]; w.len()];
    for s in samples {
        let p = sigmoid(k, s.eval(w));
        // d/de (r - p)^2 = -2 (r - p) p (1 - p) K ln10 / 400
        let de = -2.0 * (s.result - p) * p * (1.0 - p) * scale;
        for &(j, f) in &s.features {
            grad[j][0] += de * f * s.mg;
            grad[j][1] += de * f * (1.0 - s.mg);
        }
    }
    let count = samples.len().max(1) as f64;
    grad.iter_mut().flatten().for_each(|g| *g /= count);
    grad
}

/// How [`fit_weights`] steps.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Step size in centipawns.
    pub rate: f64,
    /// Pull towards the starting weights: `l2 * sum ((w - w0) / 100)^2` is added to the error.
    pub l2: f64,
}

/// Fits the weights from `start` with scaling `k`. `progress(epoch, error)` is called every
/// 100 epochs with the error of the predictions (the pull not included).
pub fn fit_weights(
    samples: &[Sample],
    k: f64,
    start: &[[f64; 2]],
    fit: Fit,
    progress: &mut dyn FnMut(usize, f64),
) -> Vec<[f64; 2]> {
    let n = start.len();
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![[0.0f64; 2]; n], vec![[0.0f64; 2]; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let Fit { epochs, rate, l2 } = fit;
    for epoch in 1..=epochs {
        let grad = gradient(samples, k, &w);
        for j in 0..n {
            for h in 0..2 {
                let g = grad[j][h] + 2.0 * l2 * (w[j][h] - start[j][h]) / 1e4;
                m[j][h] = b1 * m[j][h] + (1.0 - b1) * g;
                v[j][h] = b2 * v[j][h] + (1.0 - b2) * g * g;
                let mh = m[j][h] / (1.0 - b1.powi(epoch as i32));
                let vh = v[j][h] / (1.0 - b2.powi(epoch as i32));
                w[j][h] -= rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 100 == 0 || epoch == epochs {
            progress(epoch, error(samples, k, &w));
        }
    }
    w
}

/// Reads `FEN | RESULT` lines of a variant into samples for the evaluation's linear weights
/// (a GameVisitor: the positions are set up by the variant's rules). Lines that do not parse
/// are errors with their file and line.
pub struct LoadSamples<'a> {
    /// Data files (datagen's output).
    pub files: &'a [String],
    /// Where the samples go.
    pub samples: &'a mut Vec<Sample>,
}

impl crate::games::GameVisitor for LoadSamples<'_> {
    type Output = Result<(), String>;
    fn visit<R: crate::rules::Rules>(self, game: std::sync::Arc<crate::position::Game<R>>) -> Self::Output {
        let w = game.eval.weights.linear();
        for file in self.files {
            let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let at = || format!("{file}:{}", i + 1);
                let (fen, result) = line
                    .split_once('|')
                    .ok_or_else(|| format!("{}: want 'FEN | RESULT'", at()))?;
                let result = match result.trim().parse::<f64>() {
                    Ok(r) if (0.0..=1.0).contains(&r) => r,
                    _ => {
                        return Err(format!(
                            "{}: result '{}' is not a number from 0 to 1",
                            at(),
                            result.trim()
                        ));
                    }
                };
                let pos = crate::position::Position::from_fen(game.clone(), fen.trim())
                    .map_err(|e| format!("{}: {e}", at()))?;
                let (eval, mg, counts) = pos.tuning_trace();
                self.samples.push(Sample::new(eval as f64, mg, &counts, &w, result));
            }
        }
        Ok(())
    }
}
