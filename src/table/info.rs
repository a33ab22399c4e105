//! What a table game is, fixed for the game: one static [`GameInfo`] per game (OpenSpiel's
//! `GameType`), read by the referee, `playtest`, the console and the browser's lobby alike.

use super::Settings;
use std::fmt;

/// A game's static descriptor.
#[derive(Debug)]
pub struct GameInfo {
    /// The name the command line and the protocol use (`splitbrain`).
    pub name: &'static str,
    /// The name people use (`Split-Brain Chess`).
    pub title: &'static str,
    /// One line on what it is.
    pub about: &'static str,
    /// The seat counts its settings allow, the default's first.
    pub seats: &'static [usize],
    /// Every role a seat may hold, in the order `roles` lists them.
    pub roles: &'static [&'static str],
    /// Its settings, each with its choices.
    pub settings: &'static [Setting],
    /// The observation's space-separated fields, in order: (label, kind).
    pub fields: &'static [(&'static str, FieldKind)],
    /// Whether the referee deals or draws.
    pub chance: Chance,
    /// Whether a seat may not see all of the state.
    pub information: Information,
    /// How the seats' scores relate.
    pub utility: Utility,
    /// The rule book's design questions its playtests answer: (question, the tally key or
    /// ratio label that answers it), for `playtest --report`.
    pub questions: &'static [(&'static str, &'static str)],
    /// Ratios of tally sums that `playtest` reports: (label, numerator key, denominator key).
    pub ratios: &'static [(&'static str, &'static str, &'static str)],
    /// Tally keys whose spread `playtest` shows (quartiles and a histogram).
    pub histograms: &'static [&'static str],
}

/// The kind of an observation's field, which says how a board page or the terminal draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// A FEN placement (`?` for a hidden piece).
    Board,
    /// Card letters, groups by `,` (a hand each, a pile each).
    Cards,
    /// Words to show as they are.
    Text,
    /// Numbers under pieces: `SQ=N` words by `,`, or `-`.
    Badges,
    /// Marked squares: squares by `,`, `-` for none.
    Rings,
    /// What a seat saw: `SQ=L` words by `,` (`.` an empty square), or `-`.
    Seen,
    /// A marker on a track from the first number to the second.
    Track(i32, i32),
}

impl fmt::Display for FieldKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldKind::Board => f.write_str("board"),
            FieldKind::Cards => f.write_str("cards"),
            FieldKind::Text => f.write_str("text"),
            FieldKind::Badges => f.write_str("badges"),
            FieldKind::Rings => f.write_str("rings"),
            FieldKind::Seen => f.write_str("seen"),
            FieldKind::Track(lo, hi) => write!(f, "track:{lo}:{hi}"),
        }
    }
}

/// One field of an observation: its label, kind and text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field<'a> {
    /// What it is (`hands (white,black)`).
    pub label: &'static str,
    /// How to draw it.
    pub kind: FieldKind,
    /// Its word in the observation.
    pub text: &'a str,
}

/// One setting: `key=value` with a value from `choices`.
#[derive(Debug)]
pub struct Setting {
    /// The key (`draws`).
    pub key: &'static str,
    /// Every value it takes.
    pub choices: &'static [&'static str],
    /// The value when the key is not given (one of `choices`).
    pub default: &'static str,
    /// What it changes, in a few words.
    pub about: &'static str,
}

/// How chance enters a game (OpenSpiel's chance modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chance {
    /// No chance: the seats' actions decide everything.
    Deterministic,
    /// The referee deals or draws at chance nodes, each outcome with its odds.
    Explicit,
}

/// What a seat sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Information {
    /// Every seat sees the whole state.
    Perfect,
    /// Some of the state is hidden from some seat (cards, marks, pieces, a pile's order).
    Imperfect,
}

/// How the seats' scores relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utility {
    /// Two teams whose scores add up to the same total (win 1, loss 0, draw 0.5 a seat).
    ConstantSum,
    /// Every seat gets the same score: partners, or a solitaire's one seat.
    Identical,
}

impl fmt::Display for Chance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Chance::Deterministic => "deterministic",
            Chance::Explicit => "explicit",
        })
    }
}

impl fmt::Display for Information {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Information::Perfect => "perfect",
            Information::Imperfect => "imperfect",
        })
    }
}

impl fmt::Display for Utility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Utility::ConstantSum => "constant-sum",
            Utility::Identical => "identical",
        })
    }
}

impl GameInfo {
    /// A descriptor with only a name, seats and roles (no settings, fields or questions; no
    /// chance, perfect information, constant-sum): a start for small games, with `..` for more.
    pub const fn new(name: &'static str, seats: &'static [usize], roles: &'static [&'static str]) -> GameInfo {
        GameInfo {
            name,
            title: name,
            about: "",
            seats,
            roles,
            settings: &[],
            fields: &[],
            chance: Chance::Deterministic,
            information: Information::Perfect,
            utility: Utility::ConstantSum,
            questions: &[],
            ratios: &[],
            histograms: &[],
        }
    }

    /// The value of every setting in [`GameInfo::settings`] order: the last given for its key,
    /// else its default. An unknown key or a value not among its choices is an error naming
    /// what is allowed.
    pub fn read_settings(&self, settings: &Settings) -> Result<Vec<&'static str>, String> {
        let mut values: Vec<&'static str> = self.settings.iter().map(|s| s.default).collect();
        for (k, v) in settings {
            let Some(i) = self.settings.iter().position(|s| s.key == k) else {
                let names: Vec<&str> = self.settings.iter().map(|s| s.key).collect();
                return Err(format!(
                    "unknown setting '{k}' for {} (known: {})",
                    self.name,
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ));
            };
            let s = &self.settings[i];
            let Some(&value) = s.choices.iter().find(|c| **c == v) else {
                return Err(format!("setting {k}={v}: expected one of {}", s.choices.join(", ")));
            };
            values[i] = value;
        }
        Ok(values)
    }

    /// `observation` cut into its labelled fields, or `None` when it has not one word a field
    /// (a game without labels, or a text from elsewhere).
    pub fn fields_of<'a>(&self, observation: &'a str) -> Option<Vec<Field<'a>>> {
        let words: Vec<&str> = observation.split_whitespace().collect();
        (!self.fields.is_empty() && words.len() == self.fields.len()).then(|| {
            self.fields
                .iter()
                .zip(words)
                .map(|(&(label, kind), text)| Field { label, kind, text })
                .collect()
        })
    }

    /// Several lines for `--help` and `menagerie games`: the title, seats, kinds, each setting.
    pub fn describe(&self) -> String {
        let seats: Vec<String> = self.seats.iter().map(usize::to_string).collect();
        let mut out = format!(
            "{} ({}): {}\n  seats {}; chance {}; information {}; scores {}\n",
            self.name,
            self.title,
            self.about,
            seats.join(" or "),
            self.chance,
            self.information,
            self.utility
        );
        for s in self.settings {
            out += &format!(
                "  {}={} (default {}): {}\n",
                s.key,
                s.choices.join("|"),
                s.default,
                s.about
            );
        }
        out
    }

    /// Checks the descriptor against itself: keys unique, each default among its choices.
    pub fn check(&self) -> Result<(), String> {
        for (i, s) in self.settings.iter().enumerate() {
            if !s.choices.contains(&s.default) {
                return Err(format!(
                    "{}: {}'s default {} is not a choice",
                    self.name, s.key, s.default
                ));
            }
            if self.settings[..i].iter().any(|t| t.key == s.key) {
                return Err(format!("{}: setting {} twice", self.name, s.key));
            }
        }
        Ok(())
    }
}
