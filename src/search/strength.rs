//! Playing-strength levels for people (UCI `UCI_LimitStrength` + `UCI_Elo`): a level searches a
//! few nodes, finds several lines and picks among them with seeded noise, so a weaker level both
//! sees less and chooses worse. The Elo scale is calibrated by matches (BENCHMARKS.md): Fairy-Max
//! counts as 2000.

/// Weakest level offered.
pub const MIN_ELO: u32 = 800;
/// Strongest level offered; the unlimited engine is stronger still.
pub const MAX_ELO: u32 = 2400;
/// Default `UCI_Elo`.
pub const DEFAULT_ELO: u32 = 1500;

/// One calibration point: a level's Elo, node budget and noise.
#[derive(Clone, Copy, Debug)]
struct Point {
    elo: u32,
    nodes: u64,
    noise: i32,
}

/// The levels' settings, from chess matches at 10+0.1 against Fairy-Max (counted as 2000) and
/// between node budgets (BENCHMARKS.md, "Strength levels"); levels in between interpolate.
const LEVELS: [Point; 5] = [
    Point {
        elo: 800,
        nodes: 1_000,
        noise: 60,
    },
    Point {
        elo: 1200,
        nodes: 3_500,
        noise: 40,
    },
    Point {
        elo: 1600,
        nodes: 8_000,
        noise: 20,
    },
    Point {
        elo: 2000,
        nodes: 20_000,
        noise: 10,
    },
    Point {
        elo: 2400,
        nodes: 100_000,
        noise: 0,
    },
];

/// A strength level: its node budget, how many lines it weighs and how much noise it adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: u32,
}

impl Strength {
    /// The level for `elo`, clamped to `MIN_ELO..=MAX_ELO`.
    pub fn new(elo: u32) -> Strength {
        Strength {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
        }
    }

    /// The level's Elo.
    pub fn elo(self) -> u32 {
        self.elo
    }

    /// The calibration points around this level and how far between them it lies.
    fn between(self) -> (Point, Point, f64) {
        let i = LEVELS
            .iter()
            .rposition(|p| p.elo <= self.elo)
            .unwrap_or(0)
            .min(LEVELS.len() - 2);
        let (a, b) = (LEVELS[i], LEVELS[i + 1]);
        (a, b, f64::from(self.elo - a.elo) / f64::from(b.elo - a.elo))
    }

    /// Node budget of one move, geometric between the calibration points.
    pub fn nodes(self) -> u64 {
        let (a, b, t) = self.between();
        (a.nodes as f64 * (b.nodes as f64 / a.nodes as f64).powf(t)).round() as u64
    }

    /// Lines searched (MultiPV) to choose among.
    pub fn lines(self) -> usize {
        4
    }

    /// Largest noise added to a line's score, in centipawns, linear between the points.
    pub fn noise(self) -> i32 {
        let (a, b, t) = self.between();
        (f64::from(a.noise) + (f64::from(b.noise) - f64::from(a.noise)) * t).round() as i32
    }

    /// Index of the line to play among `scores` (best first): the largest score plus a noise
    /// drawn from `seed`, at most [`Strength::noise`]. The same seed gives the same choice.
    pub fn pick(self, scores: &[i32], seed: u64) -> usize {
        let width = self.noise() as u64 + 1;
        let mut best = 0;
        let mut best_value = i64::MIN;
        for (i, &s) in scores.iter().enumerate() {
            let value = i64::from(s) + (mix(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) % width) as i64;
            if value > best_value {
                best = i;
                best_value = value;
            }
        }
        best
    }
}

/// SplitMix64's finaliser: a well-spread 64-bit value from any seed.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_monotone_and_clamped() {
        assert_eq!(Strength::new(0).elo(), MIN_ELO);
        assert_eq!(Strength::new(9999).elo(), MAX_ELO);
        let mut last = Strength::new(MIN_ELO);
        for elo in (MIN_ELO + 100..=MAX_ELO).step_by(100) {
            let s = Strength::new(elo);
            assert!(s.nodes() > last.nodes(), "{elo}");
            assert!(s.noise() <= last.noise(), "{elo}");
            last = s;
        }
        assert_eq!(Strength::new(MAX_ELO).noise(), 0);
    }

    #[test]
    fn the_top_level_plays_the_best_line_and_low_levels_do_not_always() {
        let scores = [10, 5, 0, -5];
        let top = Strength::new(MAX_ELO);
        assert!((0..200).all(|seed| top.pick(&scores, seed) == 0));
        let low = Strength::new(MIN_ELO);
        let picks: Vec<usize> = (0..200).map(|seed| low.pick(&scores, seed)).collect();
        assert!((0..4).all(|i| picks.contains(&i)), "{picks:?}");
        assert!(
            picks
                .iter()
                .all(|&i| low.pick(&scores, i as u64) == low.pick(&scores, i as u64))
        );
        // A line far below the others is never chosen.
        assert!((0..200).all(|seed| low.pick(&[0, -10, -2000], seed) != 2));
    }
}
