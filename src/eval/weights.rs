//! The evaluation's weights: per piece kind its material, the shape of its piece-square terms
//! (a linear sum of square features) and its mobility; then the structure, threat and file
//! terms. Defaults come from the variant's geometry; `eval.*` lines in `engine.ini` replace any
//! of them, and `menagerie tune` fits them all.

use crate::color::Color;
use crate::rules::MAX_RULE_FEATURES;
#[cfg(doc)]
use crate::rules::Rules;
use crate::square::Square;
use crate::variant::Variant;

/// A weight in the middle game and in the end game, in centipawns.
pub type Pair = [i32; 2];

/// Number of passed-pawn buckets: the pawn's progress from its first rank to the promotion
/// zone, in sevenths.
pub const PASSED_BUCKETS: usize = 7;

/// The square features a piece-square term is a weighted sum of, named as in `engine.ini`
/// (`eval.centre.N = MG EG`).
pub const SQUARE_FEATURES: [&str; 5] = ["centre", "file_centre", "rank", "advance", "home"];

/// The per-kind weights, named as in `engine.ini`: material, the square features, mobility
/// (per square the piece reaches), then a table by the number of squares reached (`reach7`: seven
/// or more) on top of it.
pub const KIND_TERMS: [&str; 15] = [
    "value",
    "centre",
    "file_centre",
    "rank",
    "advance",
    "home",
    "mobility",
    "reach0",
    "reach1",
    "reach2",
    "reach3",
    "reach4",
    "reach5",
    "reach6",
    "reach7",
];

/// Index of mobility in [`KIND_TERMS`].
pub const MOBILITY: usize = 6;

/// Index of the first entry of the mobility table in [`KIND_TERMS`].
pub const REACH: usize = 7;

/// Entries of the mobility table: a piece reaching `n` squares falls in `min(n, 7)`.
pub const REACH_BUCKETS: usize = 8;

/// One kind's weights in the order of [`KIND_TERMS`], [middle game, end game].
pub type KindWeights = [[f64; 2]; KIND_TERMS.len()];

/// The evaluation's weights for one variant.
#[derive(Clone, Debug)]
pub struct Weights {
    /// Per kind (in the variant's order): [`KIND_TERMS`].
    pub kinds: Vec<KindWeights>,
    /// The kinds' FEN letters, for the names.
    pub letters: Vec<char>,
    /// The terms' weights that are not per kind, indexed by [`term`].
    pub terms: [Pair; TERM_WEIGHTS],
    /// The names of the rules module's own features ([`Rules::EVAL_FEATURES`]).
    pub rule_names: &'static [&'static str],
    /// Their weights, in that order (the rest zero).
    pub rules: [Pair; MAX_RULE_FEATURES],
    /// Middle-game penalty per square of king danger (danger squared, divided by 64).
    pub king_danger: i32,
}

/// The terms that are not per kind: their indices in [`Weights::terms`], in the order of
/// [`TERMS`] and of [`Weights::linear`].
pub mod term {
    use super::PASSED_BUCKETS;
    /// Passed pawns, by bucket: `PASSED + bucket`.
    pub const PASSED: usize = 0;
    /// Pawns with a pawn of their side ahead on their file.
    pub const DOUBLED: usize = PASSED + PASSED_BUCKETS;
    /// Pawns with no pawn of their side on an adjacent file.
    pub const ISOLATED: usize = DOUBLED + 1;
    /// File riders on files without pawns.
    pub const OPEN_FILE: usize = ISOLATED + 1;
    /// File riders on files with enemy pawns only.
    pub const HALF_OPEN_FILE: usize = OPEN_FILE + 1;
    /// Colour-bound kinds with pieces on both square colours.
    pub const BOUND_PAIR: usize = HALF_OPEN_FILE + 1;
    /// Non-pawn, non-royal pieces attacked by enemy pawns.
    pub const PAWN_THREAT: usize = BOUND_PAIR + 1;
    /// Non-pawn, non-royal pieces attacked and not defended.
    pub const HANGING: usize = PAWN_THREAT + 1;
    /// Pawns no pawn of their side can support, whose next square an enemy pawn attacks.
    pub const BACKWARD: usize = HANGING + 1;
    /// Pawns defended by a pawn of their side or with one beside them.
    pub const CONNECTED: usize = BACKWARD + 1;
    /// Leapers in the enemy half, defended by a pawn, that no enemy pawn can ever attack.
    pub const OUTPOST: usize = CONNECTED + 1;
    /// Non-pawn, non-royal pieces attacked by an enemy piece of lower value.
    pub const LESSER_THREAT: usize = OUTPOST + 1;
    /// Pawns up to two ranks in front of the side's single royal piece (tapered with the
    /// material, not with the other terms).
    pub const SHIELD: usize = LESSER_THREAT + 1;
    /// Enemy pawns up to three ranks in front of the side's single royal piece.
    pub const STORM: usize = SHIELD + 1;
}

/// Number of linear weights that are not per kind.
pub const TERM_WEIGHTS: usize = term::STORM + 1;

/// The terms' names as in `engine.ini` (`eval.NAME = MG EG`) and their default weights in
/// every variant, indexed by [`term`]: passed pawns by bucket; doubled, isolated, backward and
/// connected pawns; file riders on open and half-open files; colour-bound pairs; pieces
/// attacked by pawns, hanging, or attacked by lesser pieces; leapers on outposts; pawns in the
/// royal piece's shield and enemy pawns storming it. The terms added after the first fits weigh
/// nothing until a variant's weights are fitted.
pub const TERMS: [(&str, Pair); TERM_WEIGHTS] = [
    ("passed.0", [5, 10]),
    ("passed.1", [8, 20]),
    ("passed.2", [12, 35]),
    ("passed.3", [35, 60]),
    ("passed.4", [90, 120]),
    ("passed.5", [160, 200]),
    ("passed.6", [220, 260]),
    ("doubled", [-10, -25]),
    ("isolated", [-8, -15]),
    ("open_file", [25, 10]),
    ("half_open_file", [12, 6]),
    ("bound_pair", [30, 50]),
    ("pawn_threat", [-45, -35]),
    ("hanging", [-20, -15]),
    ("backward", [0, 0]),
    ("connected", [0, 0]),
    ("outpost", [0, 0]),
    ("lesser_threat", [0, 0]),
    ("shield", [12, 0]),
    ("storm", [0, 0]),
];

/// The default middle-game penalty per unit of king danger squared (divided by 64).
const DEFAULT_KING_DANGER: i32 = 24;

/// The square features of a square for a piece of colour `c` (pawn-like or not), in the order
/// of [`SQUARE_FEATURES`]: distance from the edge towards the centre, the same along the rank,
/// the rank counted from the piece's side, progress towards promotion (pawns) or the far rank
/// (others) squared, and 1 on its first rank.
pub fn square_features(v: &Variant, c: Color, sq: Square, pawn: bool) -> [f64; SQUARE_FEATURES.len()] {
    let g = &v.geometry;
    let fc = (g.files() as f64 - 1.0) / 2.0;
    let rc = (g.ranks() as f64 - 1.0) / 2.0;
    let df = (g.file_of(sq) as f64 - fc).abs();
    let dr = (g.rank_of(sq) as f64 - rc).abs();
    let rr = g.relative_rank(c, sq) as f64;
    let progress = if pawn {
        let promo = v.promotion_rank.unwrap_or(g.ranks() - 1) as f64;
        let start = v.pawn_initial_ranks.first().map_or(1.0, |&r| r as f64);
        ((rr - start) / (promo - start).max(1.0)).clamp(0.0, 1.0)
    } else {
        rr / (g.ranks() as f64 - 1.0).max(1.0)
    };
    let home = if rr == 0.0 { 1.0 } else { 0.0 };
    [fc.max(rc) - df.max(dr), fc - df, rr, progress * progress, home]
}

impl Weights {
    /// The default weights of a variant, with `value` its kinds' material values and
    /// `avg_mobility` their average reach on an empty board: pawns gain by advancing (more in
    /// the end game) and towards the central files; a royal piece stays home and off the
    /// centre in the middle game and centralises in the end game; short-range pieces like the
    /// centre more than long riders; riders gain per square they reach.
    /// `rule_names` are the rules module's own features (zero weights).
    pub fn for_variant(
        v: &Variant,
        value: &[i32],
        avg_mobility: &[f64],
        rule_names: &'static [&'static str],
    ) -> Weights {
        let kinds = v
            .pieces
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let mut w: KindWeights = [[0.0; 2]; KIND_TERMS.len()];
                w[0] = [value[k] as f64; 2];
                if p.is_pawn() {
                    w[2] = [3.0, 0.0];
                    w[4] = [60.0, 160.0];
                } else if p.is_royal() {
                    w[1] = [-4.0, 12.0];
                    w[3] = [-10.0, 0.0];
                    w[5] = [15.0, 0.0];
                } else {
                    let c = if avg_mobility[k] < 7.0 { 8.0 } else { 3.0 };
                    w[1] = [c, c * 0.5];
                    if p.motions.iter().any(|m| m.range != 1) {
                        w[MOBILITY] = [3.0, 3.0];
                    }
                }
                w
            })
            .collect();
        Weights {
            kinds,
            letters: v.pieces.iter().map(|p| p.letter).collect(),
            terms: TERMS.map(|(_, p)| p),
            rule_names,
            rules: [[0; 2]; MAX_RULE_FEATURES],
            king_danger: DEFAULT_KING_DANGER,
        }
    }

    /// Number of linear weights (every one but the king danger, which is not linear).
    pub fn linear_len(&self) -> usize {
        self.whole_len() + self.kinds.len() * KIND_TERMS.len()
    }

    /// Number of the first linear weights, which are whole centipawns: the terms and the
    /// rules module's features.
    fn whole_len(&self) -> usize {
        TERM_WEIGHTS + self.rule_names.len()
    }

    /// Names of the linear weights as `engine.ini` writes them after `eval.`, in the order of
    /// [`Weights::linear`]: the terms, the rules module's features, then `TERM.LETTER` per kind
    /// (the letter in lower case, as `engine.ini` keys are).
    pub fn names(&self) -> Vec<String> {
        let own = self.rule_names.iter().copied();
        let mut v: Vec<String> = TERMS.iter().map(|t| t.0).chain(own).map(String::from).collect();
        for &l in &self.letters {
            v.extend(KIND_TERMS.iter().map(|t| format!("{t}.{}", l.to_ascii_lowercase())));
        }
        v
    }

    /// The weights with `eval.NAME = MG EG` settings applied (`king_danger` takes one number;
    /// per-kind weights may have decimals). An error names the setting at fault.
    pub fn with_settings(
        &self,
        settings: &std::collections::BTreeMap<String, String>,
    ) -> Result<Weights, (String, String)> {
        let names = self.names();
        let mut linear = self.linear();
        let mut w = self.clone();
        for (key, value) in settings {
            let bad = |want: &str| (key.clone(), format!("eval.{key} = {value}: want {want}"));
            let i = names.iter().position(|n| n.eq_ignore_ascii_case(key));
            if key == "king_danger" {
                let numbers: Result<Vec<i32>, _> = value.split_whitespace().map(str::parse::<i32>).collect();
                match numbers.as_deref() {
                    Ok(&[n]) => w.king_danger = n,
                    Ok(_) => return Err(bad("one number")),
                    Err(_) => return Err(bad("a whole number")),
                }
            } else if let Some(i) = i {
                let numbers: Result<Vec<f64>, _> = value.split_whitespace().map(str::parse::<f64>).collect();
                let numbers = numbers.ok().filter(|n| n.iter().all(|x| x.is_finite()));
                let Some(numbers) = numbers else {
                    return Err(bad(if i < self.whole_len() {
                        "whole numbers"
                    } else {
                        "numbers"
                    }));
                };
                let [mg, eg] = numbers[..] else {
                    return Err(bad("two numbers, middle game and end game"));
                };
                if i < self.whole_len() && (mg.fract() != 0.0 || eg.fract() != 0.0) {
                    return Err(bad("whole numbers"));
                }
                linear[i] = [mg, eg];
            } else {
                let kinds = KIND_TERMS.map(|t| format!("{t}.L")).join(", ");
                return Err((
                    key.clone(),
                    format!(
                        "eval.{key}: unknown term (known: {}, {kinds} with L a piece letter of the variant, king_danger)",
                        names[..self.whole_len()].join(", ")
                    ),
                ));
            }
        }
        w.set_linear(&linear);
        Ok(w)
    }

    /// Sets the linear weights from a list in the order of [`Weights::linear`] (the terms that
    /// are not per kind are rounded to whole centipawns).
    pub fn set_linear(&mut self, v: &[[f64; 2]]) {
        assert_eq!(v.len(), self.linear_len(), "one pair per linear weight");
        let n = self.rule_names.len();
        for (p, x) in self.terms.iter_mut().chain(&mut self.rules[..n]).zip(v) {
            *p = x.map(|x| x.round() as i32);
        }
        let whole = self.whole_len();
        for (k, w) in self.kinds.iter_mut().enumerate() {
            let at = whole + k * KIND_TERMS.len();
            w.copy_from_slice(&v[at..at + KIND_TERMS.len()]);
        }
    }

    /// The linear weights as a list: the terms, the rules module's features, then the kinds'.
    pub fn linear(&self) -> Vec<[f64; 2]> {
        let own = &self.rules[..self.rule_names.len()];
        let mut v: Vec<[f64; 2]> = self.terms.iter().chain(own).map(|p| p.map(f64::from)).collect();
        for w in &self.kinds {
            v.extend_from_slice(w);
        }
        v
    }
}
