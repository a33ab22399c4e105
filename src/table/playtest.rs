//! Playtest statistics: many seeded games, each game's tally summed, every figure with its
//! standard error, progress on stderr.

use super::Tally;
use std::fmt::Write;

/// The tallies of many games.
#[derive(Default)]
pub struct Summary {
    games: Vec<Tally>,
}

impl Summary {
    /// Adds one game's tally.
    pub fn add(&mut self, t: Tally) {
        self.games.push(t);
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// True when no game was added.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    fn values(&self, key: &str) -> Vec<f64> {
        self.games
            .iter()
            .map(|t| t.iter().filter(|(k, _)| k == key).map(|(_, v)| v).sum())
            .collect()
    }

    /// Keys in the order they first appear.
    pub fn keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = Vec::new();
        for t in &self.games {
            for (k, _) in t {
                if !keys.contains(k) {
                    keys.push(k.clone());
                }
            }
        }
        keys
    }

    /// Mean per game and its standard error.
    pub fn mean(&self, key: &str) -> (f64, f64) {
        mean_se(&self.values(key))
    }

    /// The ratio of two sums (num / den) and its standard error (delta method over games).
    pub fn ratio(&self, num: &str, den: &str) -> Option<(f64, f64, f64)> {
        let x = self.values(num);
        let y = self.values(den);
        let (sx, sy): (f64, f64) = (x.iter().sum(), y.iter().sum());
        if sy <= 0.0 {
            return None;
        }
        let r = sx / sy;
        let n = x.len() as f64;
        let ybar = sy / n;
        let var = x.iter().zip(&y).map(|(a, b)| (a - r * b).powi(2)).sum::<f64>() / (n * (n - 1.0)).max(1.0);
        Some((r, var.sqrt() / ybar, sy))
    }

    /// The statistics as a text table: every key's mean per game, then the ratios.
    pub fn report(&self, ratios: &[(&str, &str, &str)]) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "games: {}", self.games.len());
        let _ = writeln!(
            out,
            "{:<44} {:>12} {:>10} {:>10}",
            "per game", "mean", "std err", "total"
        );
        for k in self.keys() {
            let (m, se) = self.mean(&k);
            let total: f64 = self.values(&k).iter().sum();
            let _ = writeln!(out, "{k:<44} {m:>12.3} {se:>10.3} {total:>10}");
        }
        if !ratios.is_empty() {
            let _ = writeln!(out, "{:<44} {:>12} {:>10} {:>10}", "ratio", "value", "std err", "of");
            for (label, num, den) in ratios {
                match self.ratio(num, den) {
                    Some((r, se, of)) => {
                        let _ = writeln!(out, "{label:<44} {r:>12.3} {se:>10.3} {of:>10}");
                    }
                    None => {
                        let _ = writeln!(out, "{label:<44} {:>12} {:>10} {:>10}", "-", "-", 0);
                    }
                }
            }
        }
        out
    }
}

/// Mean and standard error of the mean.
pub fn mean_se(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    if v.is_empty() {
        return (0.0, 0.0);
    }
    let m = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (m, 0.0);
    }
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_and_ratios_by_hand() {
        let mut s = Summary::default();
        s.add(vec![("a".into(), 1.0), ("b".into(), 2.0)]);
        s.add(vec![("a".into(), 3.0), ("b".into(), 2.0)]);
        // Mean 2, sample variance 2, SE = sqrt(2/2) = 1.
        assert_eq!(s.mean("a"), (2.0, 1.0));
        // 4 / 4 = 1; residuals 1-2 = -1 and 3-2 = 1: var = 2 / (2*1) = 1, SE = 1 / ybar(2).
        let (r, se, of) = s.ratio("a", "b").unwrap();
        assert_eq!((r, se, of), (1.0, 0.5, 4.0));
        assert!(s.ratio("a", "missing").is_none());
    }
}
