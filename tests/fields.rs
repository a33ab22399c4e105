//! Every table game labels its observation: one label a field, in order, all along random
//! games, for every seat, and the field labelled `board` is a FEN placement.

use menagerie::kit::{names, new_table};
use menagerie::table::{Actor, Table};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// The width of each rank of a FEN placement (a run of digits is that many empty squares,
/// anything else one square, `?` included); `None` when a rank is empty.
fn rank_widths(placement: &str) -> Option<Vec<usize>> {
    placement
        .split('/')
        .map(|rank| {
            let (mut width, mut run) = (0, 0);
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(d) => run = run * 10 + d as usize,
                    None => {
                        width += run + 1;
                        run = 0;
                    }
                }
            }
            width += run;
            (width > 0).then_some(width)
        })
        .collect()
}

/// A `track:MIN:MAX` kind's bounds.
fn track_range(kind: &str) -> Option<(i32, i32)> {
    let mut parts = kind.strip_prefix("track:")?.split(':');
    let lo = parts.next()?.parse().ok()?;
    let hi = parts.next()?.parse().ok()?;
    (parts.next().is_none() && lo < hi).then_some((lo, hi))
}

/// A square's name: a file letter and a rank number.
fn is_square(s: &str) -> bool {
    s.len() >= 2 && s.as_bytes()[0].is_ascii_lowercase() && s[1..].parse::<u32>().is_ok()
}

/// Checks the labels against every seat's observation of `t` now.
fn check(t: &dyn Table, name: &str, seed: u64, step: usize) {
    let fields = t.info().fields;
    for (label, kind) in fields {
        assert!(
            ["board", "cards", "seen", "text", "badges", "rings"].contains(kind) || track_range(kind).is_some(),
            "{name}: field '{label}' has kind '{kind}'"
        );
    }
    let board = fields
        .iter()
        .position(|f| f.0 == "board")
        .unwrap_or_else(|| panic!("{name}: no field labelled 'board' in {fields:?}"));
    for seat in 0..t.seats() {
        let obs = t.observe(seat);
        let words: Vec<&str> = obs.split_whitespace().collect();
        assert_eq!(
            fields.len(),
            words.len(),
            "{name} seed {seed} step {step} seat {seat}: {fields:?} for '{obs}'"
        );
        // A `seen` field is `-` or `SQ=L` words joined by `,` (`.` an empty square).
        for (i, _) in fields.iter().enumerate().filter(|(_, f)| f.1 == "seen") {
            let ok = words[i] == "-"
                || words[i].split(',').all(|w| {
                    w.split_once('=').is_some_and(|(sq, l)| {
                        sq.len() >= 2
                            && sq.as_bytes()[0].is_ascii_lowercase()
                            && sq[1..].parse::<u32>().is_ok()
                            && l.chars().count() == 1
                    })
                });
            assert!(
                ok,
                "{name} seed {seed} step {step} seat {seat}: seen field '{}'",
                words[i]
            );
        }
        for (i, (label, kind)) in fields.iter().enumerate() {
            let text = words[i];
            let ok = match *kind {
                // `-`, or `SQ=LABEL` words joined by `,`.
                "badges" => {
                    text == "-"
                        || text
                            .split(',')
                            .all(|w| w.split_once('=').is_some_and(|(sq, l)| is_square(sq) && !l.is_empty()))
                }
                // One square, `-` or `?` for each name in the label's brackets.
                "rings" => {
                    let names = label.split_once('(').map_or(1, |(_, n)| n.split(',').count());
                    let rings: Vec<&str> = text.split(',').collect();
                    rings.len() == names && rings.iter().all(|r| *r == "-" || *r == "?" || is_square(r))
                }
                _ => match track_range(kind) {
                    Some((lo, hi)) => text.parse::<i32>().is_ok_and(|v| (lo..=hi).contains(&v)),
                    None => true,
                },
            };
            assert!(
                ok,
                "{name} seed {seed} step {step} seat {seat}: {kind} field '{label}' is '{text}'"
            );
        }
        let widths = rank_widths(words[board])
            .unwrap_or_else(|| panic!("{name} seed {seed} step {step} seat {seat}: empty rank in '{obs}'"));
        assert!(
            widths.iter().all(|&w| w == widths[0]),
            "{name} seed {seed} step {step} seat {seat}: ranks of widths {widths:?} in '{obs}'"
        );
    }
}

#[test]
fn every_observation_field_has_one_label() {
    for name in names() {
        for seed in 0..5u64 {
            let mut t = new_table(name, &Vec::new()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut rng = StdRng::seed_from_u64(seed);
            for step in 0..=60 {
                check(t.as_ref(), name, seed, step);
                if step == 60 {
                    break;
                }
                match t.actor() {
                    Actor::Over => break,
                    Actor::Chance => {
                        t.draw_chance(&mut rng)
                            .unwrap_or_else(|e| panic!("{name} seed {seed}: chance: {e}"));
                    }
                    Actor::Seat(..) => {
                        let actions = t.actions();
                        assert!(
                            !actions.is_empty(),
                            "{name} seed {seed}: no action in {}",
                            t.state_text()
                        );
                        let a = &actions[(step * 7 + seed as usize * 3 + 1) % actions.len()];
                        t.act(a)
                            .unwrap_or_else(|e| panic!("{name} seed {seed}: {a}: {e} in {}", t.state_text()));
                    }
                }
            }
        }
    }
}

#[test]
fn track_kinds_name_their_bounds() {
    assert_eq!(track_range("track:-1:1"), Some((-1, 1)));
    assert_eq!(track_range("track:2:1"), None);
    assert_eq!(track_range("track:1"), None);
    assert!(is_square("e4") && is_square("j10") && !is_square("4e") && !is_square("e"));
}

#[test]
fn rank_widths_count_runs_and_hidden_squares() {
    assert_eq!(rank_widths("rnqknr/pppppp/6/6/PPPPPP/RNQKNR"), Some(vec![6; 6]));
    assert_eq!(rank_widths("2?1/4/10/p9"), Some(vec![4, 4, 10, 10]));
    assert_eq!(rank_widths("8//8"), None);
}
