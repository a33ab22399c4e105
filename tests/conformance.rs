//! One conformance test over every table game (issue 29), along seeded random games: legal
//! actions exist exactly while a seat acts; chance odds are positive and sum to 1; the outcome
//! exists exactly once the game is over, with a score per seat; the state text round-trips at
//! every step (same text, actor and legal actions); every seat's observation is a line of text;
//! an action outside the legal ones is refused with the state untouched; and every true state
//! the acting seat's belief draws (IS-MCTS's `mcts` seat) shows that seat the same observation
//! and offers it the same actions, so a seat's belief holds only what it may know (and a belief
//! fed the observations as text draws the same).

use menagerie::kit::{names, new_table};
use menagerie::table::mcts::TextBelief;
use menagerie::table::{ActionError, Actor, Seen, Table};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The acting seat's belief, fed that seat's observations as they came, draws true states
/// whose observation for the seat is the one it has, with the same actor and actions; a
/// belief fed them as text (`texts`: a hint's replay) draws the same, seed for seed.
fn check_resampling(
    t: &dyn Table,
    name: &str,
    seed: u64,
    step: usize,
    beliefs: &mut [Box<dyn TextBelief>],
    texts: &mut [Box<dyn TextBelief>],
) {
    let Actor::Seat(seat, _) = t.actor() else { return };
    let obs = t.observe(seat);
    let mut rng = StdRng::seed_from_u64(seed * 1000 + step as u64);
    for _ in 0..3 {
        let k: u64 = rng.random();
        let (mut one, mut again) = (StdRng::seed_from_u64(k), StdRng::seed_from_u64(k));
        let text = beliefs[seat]
            .sample_text(&mut one)
            .unwrap_or_else(|e| panic!("{name} seed {seed} step {step}: seat {seat} cannot draw from '{obs}': {e}"));
        let read = texts[seat].sample_text(&mut again);
        assert_eq!(
            read.as_ref(),
            Ok(&text),
            "{name} seed {seed} step {step}: seat {seat}, fed texts"
        );
        let mut drawn = new_table(name, &Vec::new()).unwrap();
        drawn
            .set_state(&text)
            .unwrap_or_else(|e| panic!("{name} seed {seed} step {step}: the draw '{text}' is refused: {e}"));
        let at = || format!("{name} seed {seed} step {step}: true {} drew {text}", t.state_text());
        assert_eq!(drawn.observe(seat), obs, "{}", at());
        assert_eq!(drawn.actor(), t.actor(), "{}", at());
        assert_eq!(drawn.actions(), t.actions(), "{}", at());
    }
}

fn check_step(t: &dyn Table, name: &str, seed: u64, step: usize) {
    let at = || format!("{name} seed {seed} step {step}: {}", t.state_text());
    let actions = t.actions();
    let chances = t.chances();
    match t.actor() {
        Actor::Seat(seat, kind) => {
            assert!(seat < t.seats(), "{}: seat {seat}", at());
            assert!(!kind.is_empty(), "{}", at());
            assert!(!actions.is_empty(), "{}: a seat acts without a legal action", at());
            assert!(t.outcome().is_none(), "{}: an outcome before the end", at());
        }
        Actor::Chance => {
            assert!(!chances.is_empty(), "{}: chance without outcomes", at());
            assert!(chances.iter().all(|c| c.1 > 0.0), "{}: {chances:?}", at());
            let sum: f64 = chances.iter().map(|c| c.1).sum();
            assert!((sum - 1.0).abs() < 1e-9, "{}: chance odds sum to {sum}", at());
            assert!(t.outcome().is_none(), "{}", at());
        }
        Actor::Over => {
            assert!(actions.is_empty(), "{}: actions after the end: {actions:?}", at());
            let o = t
                .outcome()
                .unwrap_or_else(|| panic!("{}: over without an outcome", at()));
            assert_eq!(o.scores.len(), t.seats(), "{}", at());
        }
    }
    for seat in 0..t.seats() {
        let obs = t.observe(seat);
        assert!(
            !obs.trim().is_empty() && !obs.contains('\n'),
            "{}: seat {seat} sees '{obs}'",
            at()
        );
    }
    // The state text reads back into the same state.
    let text = t.state_text();
    let mut copy = new_table(name, &Vec::new()).unwrap();
    copy.set_state(&text)
        .unwrap_or_else(|e| panic!("{}: its own state text is refused: {e}", at()));
    assert_eq!(copy.state_text(), text, "{}", at());
    assert_eq!(copy.actor(), t.actor(), "{}", at());
    assert_eq!(copy.actions(), actions, "{}", at());
}

#[test]
fn every_table_game_conforms_along_random_games() {
    for name in names() {
        for seed in 0..4u64 {
            let mut t = new_table(name, &Vec::new()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut rng = StdRng::seed_from_u64(seed);
            let mut step = 0;
            let mut seen: Vec<String> = vec![String::new(); t.seats()];
            let mut beliefs: Vec<Box<dyn TextBelief>> = (0..t.seats()).map(|s| t.text_belief(s)).collect();
            let mut texts: Vec<Box<dyn TextBelief>> = (0..t.seats()).map(|s| t.text_belief(s)).collect();
            loop {
                check_step(t.as_ref(), name, seed, step);
                for (s, last) in seen.iter_mut().enumerate() {
                    let o = t.seen(s);
                    if *last != o.text() {
                        beliefs[s].see(&o).unwrap_or_else(|e| {
                            panic!("{name} seed {seed} step {step}: seat {s} sees '{}': {e}", o.text())
                        });
                        texts[s].see(&Seen::from_text(o.text())).unwrap_or_else(|e| {
                            panic!("{name} seed {seed} step {step}: seat {s} reads '{}': {e}", o.text())
                        });
                        *last = o.text().to_string();
                    }
                }
                check_resampling(t.as_ref(), name, seed, step, &mut beliefs, &mut texts);
                if step == 250 {
                    break;
                }
                step += 1;
                match t.actor() {
                    Actor::Over => break,
                    Actor::Chance => {
                        t.draw_chance(&mut rng)
                            .unwrap_or_else(|e| panic!("{name} seed {seed}: chance: {e}"));
                    }
                    Actor::Seat(..) => {
                        let actions = t.actions();
                        // An action nobody may take now is refused, with a reason, and changes
                        // nothing.
                        let before = t.state_text();
                        let bogus = ["pass pass", "e9e9", "card Z", "mark z99"]
                            .into_iter()
                            .find(|b| !actions.iter().any(|a| a == b))
                            .expect("a bogus action");
                        let e = t.act(bogus).expect_err(bogus);
                        // The text or the rules refused it, never the game in the middle of
                        // applying it.
                        assert!(
                            matches!(e, ActionError::Syntax(_) | ActionError::Illegal(_)),
                            "{name}: {e:?}"
                        );
                        let e = e.to_string();
                        assert!(!e.is_empty() && !e.contains('\n'), "{name}: '{e}'");
                        assert_eq!(t.state_text(), before, "{name} seed {seed}: {bogus}");
                        let a = &actions[rng.random_range(0..actions.len())];
                        t.act(a)
                            .unwrap_or_else(|e| panic!("{name} seed {seed}: {a}: {e} in {before}"));
                    }
                }
            }
        }
    }
}

/// Each game's descriptor (`GameInfo`) says what its games do: every listed setting choice is
/// taken and anything else refused by name; the seat counts and roles are those listed; along
/// seeded random games to their end, a deterministic game never reaches a chance node and an
/// explicit one does, a perfect-information game shows every seat the same observation and an
/// imperfect one hides something from some seat, and the scores are identical or constant-sum.
#[test]
fn every_descriptor_matches_its_game() {
    use menagerie::kit::infos;
    use menagerie::table::{Chance, Information, Utility};
    let listed: Vec<&str> = infos().iter().map(|i| i.name).collect();
    assert_eq!(listed, names());
    for info in infos() {
        let name = info.name;
        info.check().unwrap_or_else(|e| panic!("{e}"));
        let mut seat_counts = Vec::new();
        for s in info.settings {
            for c in s.choices {
                let t = new_table(name, &vec![(s.key.to_string(), c.to_string())])
                    .unwrap_or_else(|e| panic!("{name} {}={c}: {e}", s.key));
                if !seat_counts.contains(&t.seats()) {
                    seat_counts.push(t.seats());
                }
            }
            let e = new_table(name, &vec![(s.key.to_string(), "bogus".into())])
                .err()
                .expect("refused");
            assert!(e.contains(s.choices[0]), "{name}: {e}");
        }
        let e = new_table(name, &vec![("nosuchkey".into(), "1".into())])
            .err()
            .expect("refused");
        assert!(e.contains("unknown setting") && e.contains(name), "{name}: {e}");
        let default_seats = new_table(name, &Vec::new()).unwrap().seats();
        assert_eq!(default_seats, info.seats[0], "{name}: the default's seats come first");
        seat_counts.push(default_seats);
        seat_counts.sort();
        seat_counts.dedup();
        let mut listed_seats = info.seats.to_vec();
        listed_seats.sort();
        assert_eq!(seat_counts, listed_seats, "{name}: seat counts");

        let (mut chance, mut hidden, mut ended) = (false, false, 0);
        for seed in 0..3u64 {
            let mut t = new_table(name, &Vec::new()).unwrap();
            let mut rng = StdRng::seed_from_u64(seed);
            for _ in 0..3000 {
                for seat in 0..t.seats() {
                    for role in t.roles(seat) {
                        assert!(info.roles.contains(&role), "{name}: role {role} is not listed");
                    }
                }
                let seen: Vec<String> = (0..t.seats()).map(|s| t.observe(s)).collect();
                let differs = seen.iter().any(|o| *o != seen[0]) || (t.seats() == 1 && seen[0] != t.state_text());
                if info.information == Information::Perfect {
                    assert!(seen.iter().all(|o| *o == seen[0]), "{name}: seats see {seen:?}");
                }
                hidden |= differs;
                match t.actor() {
                    Actor::Over => break,
                    Actor::Chance => {
                        chance = true;
                        t.draw_chance(&mut rng).unwrap();
                    }
                    Actor::Seat(..) => {
                        let actions = t.actions();
                        t.act(&actions[rng.random_range(0..actions.len())]).unwrap();
                    }
                }
            }
            if let Some(o) = t.outcome() {
                ended += 1;
                match info.utility {
                    Utility::Identical => assert!(o.scores.iter().all(|s| *s == o.scores[0]), "{name}: {o}"),
                    Utility::ConstantSum => {
                        let sum: f64 = o.scores.iter().sum();
                        assert_eq!(sum, t.seats() as f64 / 2.0, "{name}: {o}");
                    }
                }
            }
        }
        assert!(ended > 0, "{name}: no random game ended in 3,000 steps");
        assert_eq!(
            chance,
            info.chance == Chance::Explicit,
            "{name}: chance {}",
            info.chance
        );
        assert_eq!(
            hidden,
            info.information == Information::Imperfect,
            "{name}: information {}",
            info.information
        );
    }
}
