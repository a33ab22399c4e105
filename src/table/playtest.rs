//! Playtest statistics: many seeded games, each game's tally summed, every figure with its
//! standard error, progress on stderr.

use super::Tally;
use std::fmt::Write;

/// The tallies of many games.
#[derive(Clone, Default)]
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

    /// One value per game: the sum of `key` in that game's tally.
    pub fn values(&self, key: &str) -> Vec<f64> {
        self.games
            .iter()
            .map(|t| t.iter().filter(|(k, _)| k == key).fold(0.0, |a, (_, v)| a + v))
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

    /// The spread of each key in `keys` over the games: [`spread`].
    pub fn spreads(&self, keys: &[&str]) -> String {
        keys.iter().map(|k| spread(k, &self.values(k))).collect()
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

/// Adds how a game ended to its tally: `result: R` and `ended: KIND` (the reason before any
/// `:`, whose details are the game's own, not a kind of end), forfeits included.
pub fn tally_end(tally: &mut Tally, outcome: &super::Outcome) {
    tally.push((format!("result: {}", outcome.result), 1.0));
    let kind = outcome.reason.split(':').next().unwrap_or_default();
    tally.push((format!("ended: {kind}"), 1.0));
}

/// The quartile `q` (0 to 1) of sorted values, interpolating between neighbours.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let x = q * (sorted.len() - 1) as f64;
    let (i, f) = (x.floor() as usize, x - x.floor());
    let j = (i + 1).min(sorted.len() - 1);
    sorted[i] + f * (sorted[j] - sorted[i])
}

/// A key's spread as text: mean, minimum, quartiles, maximum, then one histogram line per
/// whole value (values are rounded down) with its count, share and a bar.
pub fn spread(key: &str, values: &[f64]) -> String {
    let mut out = String::new();
    if values.is_empty() {
        return out;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let (m, se) = mean_se(&v);
    let _ = writeln!(
        out,
        "{key}: mean {m:.3} (std err {se:.3}), min {}, quartiles {} / {} / {}, max {}",
        v[0],
        quantile(&v, 0.25),
        quantile(&v, 0.5),
        quantile(&v, 0.75),
        v[v.len() - 1]
    );
    let (lo, hi) = (v[0].floor() as i64, v[v.len() - 1].floor() as i64);
    if hi - lo > 200 {
        return out;
    }
    let n = v.len() as f64;
    let mut counts = vec![0usize; (hi - lo + 1) as usize];
    for x in &v {
        counts[(x.floor() as i64 - lo) as usize] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(1).max(1);
    for (b, &c) in (lo..=hi).zip(&counts) {
        let _ = writeln!(
            out,
            "  {b:>5} {c:>6} {:>6.1}% {}",
            100.0 * c as f64 / n,
            "#".repeat((c * 50).div_ceil(most))
        );
    }
    out
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

/// What a playtest shard file says about its run: every shard of one playtest says the same,
/// but for its number.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardHead {
    /// The game.
    pub game: String,
    /// Its settings, as `KEY=VALUE` words joined by spaces (`-` for none).
    pub settings: String,
    /// The seat specs, joined by `,`.
    pub seats: String,
    /// The seed of game 0.
    pub seed: u64,
    /// Games of the whole playtest.
    pub games: usize,
    /// This shard, 1 to `of`.
    pub shard: usize,
    /// Shards in all.
    pub of: usize,
    /// `--optimum` states (0: none).
    pub optimum: u64,
}

const SHARD_MAGIC: &str = "menagerie-playtest-shard 1";

/// A shard file: the head on the first line, then one line a game, `GAME\tKEY\tVALUE...`
/// (keys in their tally order; values as Rust prints them, which read back exactly).
pub fn shard_text(head: &ShardHead, games: &[(usize, Tally)]) -> String {
    let mut out = format!(
        "{SHARD_MAGIC}\tgame={}\tsettings={}\tseats={}\tseed={}\tgames={}\tshard={}/{}\toptimum={}\n",
        head.game, head.settings, head.seats, head.seed, head.games, head.shard, head.of, head.optimum
    );
    for (g, t) in games {
        let _ = write!(out, "{g}");
        for (k, v) in t {
            let _ = write!(out, "\t{k}\t{v}");
        }
        out.push('\n');
    }
    out
}

/// Reads a shard file ([`shard_text`]); errors name the line.
pub fn read_shard(text: &str) -> Result<(ShardHead, Vec<(usize, Tally)>), String> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let mut f = first.split('\t');
    if f.next() != Some(SHARD_MAGIC) {
        return Err("line 1: not a playtest shard (written by playtest --shard I/N --out FILE)".into());
    }
    let mut field = |key: &str| -> Result<String, String> {
        f.next()
            .and_then(|w| w.strip_prefix(key)?.strip_prefix('='))
            .map(String::from)
            .ok_or_else(|| format!("line 1: no {key}= where expected"))
    };
    let (game, settings, seats) = (field("game")?, field("settings")?, field("seats")?);
    let number = |w: String, what: &str| w.parse::<u64>().map_err(|_| format!("line 1: {what} '{w}'"));
    let seed = number(field("seed")?, "seed")?;
    let games = number(field("games")?, "games")? as usize;
    let shard = field("shard")?;
    let (i, n) = shard.split_once('/').ok_or(format!("line 1: shard '{shard}'"))?;
    let (shard, of) = (number(i.into(), "shard")? as usize, number(n.into(), "shard")? as usize);
    let optimum = number(field("optimum")?, "optimum")?;
    if of == 0 || shard == 0 || shard > of {
        return Err(format!("line 1: shard {shard}/{of}"));
    }
    let head = ShardHead {
        game,
        settings,
        seats,
        seed,
        games,
        shard,
        of,
        optimum,
    };
    let mut out = Vec::new();
    for (n, line) in lines.enumerate() {
        let bad = |what: &str| format!("line {}: {what}", n + 2);
        let w: Vec<&str> = line.split('\t').collect();
        let g: usize = w[0].parse().map_err(|_| bad("no game number"))?;
        if g >= head.games || g % head.of != head.shard - 1 {
            return Err(bad(&format!("game {g} is not one of shard {}/{}", head.shard, head.of)));
        }
        if w.len() % 2 != 1 {
            return Err(bad("a key without its value"));
        }
        let mut t: Tally = Vec::new();
        for kv in w[1..].chunks(2) {
            let v: f64 = kv[1]
                .parse()
                .map_err(|_| bad(&format!("'{}' is not a number", kv[1])))?;
            t.push((kv[0].to_string(), v));
        }
        out.push((g, t));
    }
    Ok((head, out))
}

/// Shards merged: the tallies of every game in game order, once each shard of one playtest is
/// given once and every game is in it once.
pub fn merge_shards(shards: Vec<(ShardHead, Vec<(usize, Tally)>)>) -> Result<(ShardHead, Vec<Tally>), String> {
    let first = shards.first().ok_or("--merge needs shard files")?.0.clone();
    let mut seen = vec![false; first.of];
    let mut games: Vec<Option<Tally>> = vec![None; first.games];
    for (head, tallies) in shards {
        let same = ShardHead {
            shard: first.shard,
            ..head.clone()
        };
        if same != first {
            return Err(format!(
                "shard {}/{} is of another playtest ({head:?})",
                head.shard, head.of
            ));
        }
        if std::mem::replace(&mut seen[head.shard - 1], true) {
            return Err(format!("shard {}/{} is given twice", head.shard, head.of));
        }
        for (g, t) in tallies {
            if games[g].replace(t).is_some() {
                return Err(format!("game {g} appears twice in shard {}/{}", head.shard, head.of));
            }
        }
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(format!("shard {}/{} is missing", i + 1, first.of));
    }
    let missing = games.iter().filter(|g| g.is_none()).count();
    if missing > 0 {
        return Err(format!(
            "{missing} games are missing from the shards (a shard cut short?)"
        ));
    }
    Ok((first, games.into_iter().flatten().collect()))
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

    #[test]
    fn quartiles_and_histogram_by_hand() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&v, 0.25), 2.0);
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&[1.0, 2.0], 0.5), 1.5);
        let text = spread("score", &[0.0, 2.0, 2.0, 3.0]);
        assert!(text.starts_with("score: mean 1.750"), "{text}");
        assert!(text.contains("quartiles 1.5 / 2 / 2.25"), "{text}");
        // One line per whole value from 0 to 3; 2 is the tallest bar.
        let lines: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(
            lines[1].contains("      0 ") && lines[2].ends_with(&"#".repeat(50)),
            "{text}"
        );
    }
}
