//! Every table game labels its observation: one label a field, in order, all along random
//! games, for every seat, and the field labelled `board` is a FEN placement.

use menagerie::kit::{names, new_table};
use menagerie::table::{Actor, FieldKind, Table};
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

/// A square's name: a file letter and a rank number.
fn is_square(s: &str) -> bool {
    s.len() >= 2 && s.as_bytes()[0].is_ascii_lowercase() && s[1..].parse::<u32>().is_ok()
}

/// Checks the labels against every seat's observation of `t` now.
fn check(t: &dyn Table, name: &str, seed: u64, step: usize) {
    let info = t.info();
    for (label, kind) in info.fields {
        if let FieldKind::Track(lo, hi) = kind {
            assert!(lo < hi, "{name}: field '{label}' is a track from {lo} to {hi}");
        }
    }
    assert!(
        info.fields.iter().any(|f| f == &("board", FieldKind::Board)),
        "{name}: no board field labelled 'board' in {:?}",
        info.fields
    );
    for seat in 0..t.seats() {
        let obs = t.observe(seat);
        let at = || format!("{name} seed {seed} step {step} seat {seat}");
        let fields = info
            .fields_of(&obs)
            .unwrap_or_else(|| panic!("{}: {:?} for '{obs}'", at(), info.fields));
        for f in &fields {
            let text = f.text;
            let ok = match f.kind {
                // `-`, or `SQ=L` words joined by `,` (`.` an empty square).
                FieldKind::Seen => {
                    text == "-"
                        || text.split(',').all(|w| {
                            w.split_once('=')
                                .is_some_and(|(sq, l)| is_square(sq) && l.chars().count() == 1)
                        })
                }
                // `-`, or `SQ=LABEL` words joined by `,`.
                FieldKind::Badges => {
                    text == "-"
                        || text
                            .split(',')
                            .all(|w| w.split_once('=').is_some_and(|(sq, l)| is_square(sq) && !l.is_empty()))
                }
                // One square, `-` or `?` for each name in the label's brackets.
                FieldKind::Rings => {
                    let names = f.label.split_once('(').map_or(1, |(_, n)| n.split(',').count());
                    let rings: Vec<&str> = text.split(',').collect();
                    rings.len() == names && rings.iter().all(|r| *r == "-" || *r == "?" || is_square(r))
                }
                FieldKind::Track(lo, hi) => text.parse::<i32>().is_ok_and(|v| (lo..=hi).contains(&v)),
                // Each rank of a placement equally wide.
                FieldKind::Board => rank_widths(text).is_some_and(|w| w.iter().all(|&x| x == w[0])),
                FieldKind::Cards | FieldKind::Text => true,
            };
            assert!(ok, "{}: {} field '{}' is '{text}' in '{obs}'", at(), f.kind, f.label);
        }
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
fn kinds_print_as_the_page_reads_them() {
    assert_eq!(FieldKind::Track(-1, 1).to_string(), "track:-1:1");
    assert_eq!(FieldKind::Board.to_string(), "board");
    assert!(is_square("e4") && is_square("j10") && !is_square("4e") && !is_square("e"));
}

#[test]
fn rank_widths_count_runs_and_hidden_squares() {
    assert_eq!(rank_widths("rnqknr/pppppp/6/6/PPPPPP/RNQKNR"), Some(vec![6; 6]));
    assert_eq!(rank_widths("2?1/4/10/p9"), Some(vec![4, 4, 10, 10]));
    assert_eq!(rank_widths("8//8"), None);
}
