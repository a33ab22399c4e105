//! A game record's lines as values (`docs/table-games.md`, "Records"): the referee writes them,
//! the record's reader reads them, both through serde, so the form is written down once.
//!
//! The bytes stay those of the records written before serde: keys in this order, a seed as
//! text, chance as `"chance"`, whole scores without a decimal point.

use super::Settings;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The first line: game, seed, seats and settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The game's name.
    pub game: String,
    /// The seed chance and Menagerie's seats are drawn from (as text: a u64 does not fit a
    /// JSON number exactly).
    #[serde(with = "seed_text")]
    pub seed: u64,
    /// The seat specs (`engine`, `random`, `human`, `cmd:PROGRAM`).
    pub seats: Vec<String>,
    /// The game's settings, an object of texts.
    #[serde(default, with = "settings_object")]
    pub settings: Settings,
}

/// One step: a seat's action or chance's outcome, and the public event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Who acted (`None`: chance).
    #[serde(with = "seat_or_chance")]
    pub seat: Option<usize>,
    /// The action's text.
    pub action: String,
    /// The event the table announced.
    pub event: String,
}

/// An answer the referee refused: the rules refused it (`garbage` false), or it was no answer
/// at all (a line the seat program sent that is not `kit-act` for the question).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// The seat that answered.
    #[serde(deserialize_with = "seat_number")]
    pub seat: usize,
    /// What it answered.
    pub refused: String,
    /// Why it was refused.
    pub reason: String,
    /// True when the answer was not an answer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub garbage: bool,
}

/// The last line: the outcome, the steps played and, for a forfeit, the seat and what it did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finish {
    /// The result text (`white scores 1,0`).
    pub result: String,
    /// Each seat's score.
    #[serde(serialize_with = "whole_numbers")]
    pub scores: Vec<f64>,
    /// Why it ended.
    pub reason: String,
    /// Actions applied, chance included.
    pub steps: usize,
    /// The seat that forfeited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<usize>,
    /// What the forfeiting seat did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// One line of a record.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// A game's first line.
    Header(Header),
    /// A step.
    Step(Step),
    /// A refused answer.
    Refusal(Refusal),
    /// A game's last line.
    Finish(Finish),
}

impl Line {
    /// Reads one line; which kind it is follows from its keys (`game`, `result`, `refused`,
    /// else a step), so that an error names what is wrong with that kind.
    pub fn parse(text: &str) -> Result<Line, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("JSON: {e}"))?;
        let has = |k: &str| v.get(k).is_some();
        let kind = if has("game") {
            "game header"
        } else if has("result") {
            "result line"
        } else if has("refused") {
            "refusal line"
        } else if has("action") {
            "step line"
        } else {
            return Err("neither a game header, an action, a refusal nor a result".into());
        };
        // Read again from the text, not from `v`: a JSON value's object is sorted by key,
        // and the settings keep the file's order.
        let typed = match kind {
            "game header" => serde_json::from_str(text).map(Line::Header),
            "result line" => serde_json::from_str(text).map(Line::Finish),
            "refusal line" => serde_json::from_str(text).map(Line::Refusal),
            _ => serde_json::from_str(text).map(Line::Step),
        };
        typed.map_err(|e| format!("a {kind} that does not read: {e}"))
    }

    /// The line's compact JSON text.
    pub fn text(&self) -> String {
        let text = match self {
            Line::Header(h) => serde_json::to_string(h),
            Line::Step(s) => serde_json::to_string(s),
            Line::Refusal(r) => serde_json::to_string(r),
            Line::Finish(f) => serde_json::to_string(f),
        };
        // Strings, whole numbers, vectors and maps of strings always serialize.
        text.unwrap_or_else(|e| unreachable!("a record line serializes: {e}"))
    }

    /// The seat whose answer or forfeit the line holds (a step's or refusal's seat, a result's
    /// forfeit), if any.
    pub fn seat(&self) -> Option<usize> {
        match self {
            Line::Step(s) => s.seat,
            Line::Refusal(r) => Some(r.seat),
            Line::Finish(f) => f.forfeit,
            Line::Header(_) => None,
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Whole scores as integers (`1`, not `1.0`), as the records have always had them.
fn whole_numbers<S: Serializer>(scores: &[f64], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(scores.len()))?;
    for &x in scores {
        if x.fract() == 0.0 && x.abs() < 1e15 {
            seq.serialize_element(&(x as i64))?;
        } else {
            seq.serialize_element(&x)?;
        }
    }
    seq.end()
}

mod seed_text {
    use super::*;

    pub fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&seed.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d).map_err(|_| D::Error::custom("the seed is not a number in quotes"))?;
        text.parse()
            .map_err(|_| D::Error::custom(format!("the seed '{text}' is not a number")))
    }
}

mod seat_or_chance {
    use super::*;

    pub fn serialize<S: Serializer>(seat: &Option<usize>, s: S) -> Result<S::Ok, S::Error> {
        match seat {
            Some(n) => s.serialize_u64(*n as u64),
            None => s.serialize_str("chance"),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
        match Raw::deserialize(d).map_err(|_| D::Error::custom("a seat is a number or \"chance\""))? {
            Raw::Word(w) if w == "chance" => Ok(None),
            Raw::Word(w) => Err(D::Error::custom(format!(
                "seat '{w}' is neither a number nor \"chance\""
            ))),
            raw => raw.seat().map(Some).map_err(D::Error::custom),
        }
    }
}

/// A seat as written: a whole number, another number (refused) or a word.
#[derive(Deserialize)]
#[serde(untagged)]
enum Raw {
    Seat(u64),
    Number(f64),
    Word(String),
}

impl Raw {
    /// The seat number, or why it is none.
    fn seat(self) -> Result<usize, String> {
        match self {
            Raw::Seat(n) => usize::try_from(n).map_err(|_| format!("seat {n} is not a seat")),
            Raw::Number(x) => Err(format!("seat {x} is not a seat")),
            Raw::Word(w) => Err(format!("seat '{w}' is not a seat")),
        }
    }
}

/// A seat that must be a number (a refusal's).
fn seat_number<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    Raw::deserialize(d)
        .map_err(|_| D::Error::custom("a seat is a number"))?
        .seat()
        .map_err(D::Error::custom)
}

mod settings_object {
    use super::*;
    use serde::ser::SerializeMap;

    pub fn serialize<S: Serializer>(settings: &Settings, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(settings.len()))?;
        for (k, v) in settings {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Settings, D::Error> {
        // In the file's order (a map type would sort them).
        struct Ordered;
        impl<'de> serde::de::Visitor<'de> for Ordered {
            type Value = Settings;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of settings, each a text")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Settings, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    out.push((k, v));
                }
                Ok(out)
            }
        }
        d.deserialize_map(Ordered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines in the form the records had before serde (written by the hand-made JSON writer):
    /// each reads and writes back to the same bytes.
    const OLD: [&str; 6] = [
        r#"{"game":"telepathy","seed":"18446744073709551615","seats":["engine","cmd:./bot --x \"y\""],"settings":{"faceup":"off","draws":"on"}}"#,
        r#"{"seat":"chance","action":"deal K","event":"dealt"}"#,
        r#"{"seat":1,"action":"e2e4","event":"e2e4 \u001f tab\t"}"#,
        r#"{"seat":0,"refused":"zz","reason":"not a move"}"#,
        r#"{"seat":0,"refused":"ÿ?","reason":"not UTF-8","garbage":true}"#,
        r#"{"result":"draw","scores":[0.5,0.5,1,0],"reason":"by agreement","steps":12,"forfeit":1,"why":"died"}"#,
    ];

    #[test]
    fn old_lines_read_and_write_back_unchanged() {
        for line in OLD {
            let read = Line::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(read.text(), line);
        }
        let Ok(Line::Header(h)) = Line::parse(OLD[0]) else {
            panic!("not a header")
        };
        assert_eq!(h.seed, u64::MAX);
        assert_eq!(h.settings[0], ("faceup".to_string(), "off".to_string()));
        assert_eq!(Line::parse(OLD[1]).map(|l| l.seat()), Ok(None));
        assert_eq!(Line::parse(OLD[5]).map(|l| l.seat()), Ok(Some(1)));
    }

    #[test]
    fn bad_lines_are_refused_with_their_kind() {
        for (line, says) in [
            (r#"{"game":"gravity","seed":7,"seats":[]}"#, "game header"),
            (r#"{"game":"gravity","seed":"x","seats":[]}"#, "the seed 'x'"),
            (r#"{"seat":-1,"action":"a","event":"b"}"#, "seat -1 is not a seat"),
            (r#"{"seat":0.5,"refused":"a","reason":"b"}"#, "seat 0.5 is not a seat"),
            (r#"{"seat":"dealer","action":"a","event":"b"}"#, "step line"),
            (r#"{"seat":"chance","refused":"a","reason":"b"}"#, "refusal line"),
            (r#"{"result":"x","scores":"1,0","reason":"b","steps":1}"#, "result line"),
            (r#"{"seat":0}"#, "neither"),
            (r#"{"seat":0,"#, "JSON"),
        ] {
            match Line::parse(line) {
                Ok(l) => panic!("{line} read as {l:?}"),
                Err(e) => assert!(e.contains(says), "{line}: {e}"),
            }
        }
    }
}
