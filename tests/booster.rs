//! Booster Chess (`../shared/rules/chess-kit.md` sections 7 and 10), each rule on a
//! hand-worked position: cancelling stacks, captures taking over checkers, booster steps,
//! hobbled moves, shedding on the back rank, the castling bans, check and mate counting booster
//! threats, the exposed-king rule, promotion then boosting, the en passant limits, the deck,
//! drawing to the reserve and the reshuffle; bad input and the observation gate.

use menagerie::Color;
use menagerie::kit::booster::{Booster, in_check};
use menagerie::kit::new_table;
use menagerie::table::{Actor, Settings, Table, TableGame};

#[path = "common/spy.rs"]
mod spy;
use spy::spied_game;

const DECK: &str = "PPPPPPPPNNBBRRQKppppppppnnbbrrqkCCcc";

/// A state: the pile holds every card not in the hands.
fn state(board: &str, checkers: &str, reserves: &str, hands: (&str, &str), phase: &str) -> String {
    let mut pile: Vec<char> = DECK.chars().collect();
    for c in hands.0.chars().chain(hands.1.chars()) {
        let i = pile.iter().position(|d| *d == c).unwrap();
        pile.remove(i);
    }
    pile.sort();
    let h = |x: &str| if x.is_empty() { "-".to_string() } else { x.to_string() };
    format!(
        "{board} {checkers} {reserves} {},{} {} - 0 0 {phase} -",
        h(hands.0),
        h(hands.1),
        pile.into_iter().collect::<String>()
    )
}

fn at(text: &str) -> Box<dyn Table> {
    let mut t = new_table("booster", &Vec::new()).unwrap();
    t.set_state(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    t
}

fn act(t: &mut Box<dyn Table>, a: &str) -> String {
    t.act(a).unwrap_or_else(|e| panic!("{a}: {e} in {}", t.state_text()))
}

fn field(t: &dyn Table, i: usize) -> String {
    t.state_text().split_whitespace().nth(i).unwrap().to_string()
}

#[test]
fn opposite_checkers_cancel_in_pairs() {
    // The rook a1 carries a black checker; White adds one of its own: both go home.
    let mut t = at(&state("4k3/8/8/8/8/8/8/R3K3 w - -", "a1=b1", "6,5", ("C", ""), "add"));
    act(&mut t, "add C a1");
    assert_eq!(field(t.as_ref(), 4), "-");
    assert_eq!(field(t.as_ref(), 5), "6,6");
}

#[test]
fn the_capturer_takes_over_the_checkers() {
    // A rook with one white checker takes a knight with two black ones: one pair cancels and
    // the rook is left hobbled by a black checker.
    let mut t = at(&state(
        "4k3/8/8/3n4/8/8/8/3RK3 w - -",
        "d1=w1,d5=b2",
        "5,4",
        ("", ""),
        "move",
    ));
    assert_eq!(act(&mut t, "d1d5"), "white d1d5 takes n");
    assert_eq!(field(t.as_ref(), 4), "d5=b1");
    assert_eq!(field(t.as_ref(), 5), "6,5");
    // Taking a hobbled piece boosts: the white checkers under the knight are the rook's now.
    let mut t = at(&state("4k3/8/8/3n4/8/8/8/3RK3 w - -", "d5=w2", "4,6", ("", ""), "move"));
    act(&mut t, "d1d5");
    assert_eq!(field(t.as_ref(), 4), "d5=w2");
    assert!(field(t.as_ref(), 11).starts_with("boost-d5"), "{}", t.state_text());
}

#[test]
fn booster_steps_spend_checkers_and_may_capture() {
    let mut t = at(&state("4k3/8/8/3p4/8/8/8/N3K3 w - -", "a1=w2", "4,6", ("", ""), "move"));
    act(&mut t, "a1b3");
    assert_eq!(field(t.as_ref(), 11), "boost-b3");
    act(&mut t, "step c4");
    assert_eq!(field(t.as_ref(), 4), "c4=w1");
    assert_eq!(field(t.as_ref(), 5), "5,6");
    assert_eq!(act(&mut t, "step d5"), "white step d5 takes p");
    assert_eq!(field(t.as_ref(), 4), "-");
    assert_eq!(field(t.as_ref(), 5), "6,6");
    // No checker left: no more steps (the turn went on to the cards).
    assert_ne!(t.actor(), Actor::Seat(0, "boost"));
}

#[test]
fn hobbled_pieces_move_like_pawns_and_hobbled_pawns_not_at_all() {
    let t = at(&state(
        "4k3/8/2p1p3/8/3N4/8/3P4/4K3 w - -",
        "d4=b1,d2=b1",
        "6,4",
        ("", ""),
        "move",
    ));
    let mut from_d4: Vec<String> = t.actions().into_iter().filter(|a| a.starts_with("d4")).collect();
    from_d4.sort();
    assert_eq!(from_d4, ["d4d5"]);
    assert!(!t.actions().iter().any(|a| a.starts_with("d2")), "{:?}", t.actions());
    let t = at(&state(
        "4k3/8/2p1p3/3N4/8/8/8/4K3 w - -",
        "d5=b1",
        "6,5",
        ("", ""),
        "move",
    ));
    let mut from_d5: Vec<String> = t.actions().into_iter().filter(|a| a.starts_with("d5")).collect();
    from_d5.sort();
    assert_eq!(from_d5, ["d5c6", "d5d6", "d5e6"]);
}

#[test]
fn hobble_checkers_are_shed_on_the_back_rank() {
    let mut t = at(&state("4k3/R7/8/8/8/8/8/4K3 w - -", "a7=b2", "6,4", ("", ""), "move"));
    act(&mut t, "a7a8");
    assert_eq!(field(t.as_ref(), 4), "-");
    assert_eq!(field(t.as_ref(), 5), "6,6");
}

#[test]
fn castling_bans_and_booster_threats_on_the_path() {
    // A boosted rook cannot castle; the other can.
    let t = at(&state("4k3/8/8/8/8/8/8/R3K2R w KQ -", "h1=w1", "5,6", ("", ""), "move"));
    assert!(!t.actions().contains(&"e1g1".to_string()) && t.actions().contains(&"e1c1".to_string()));
    // A plain knight on h4 does not stop short castling; with one booster checker it does (a
    // step after h4-g2 reaches f1).
    let t = at(&state("4k3/8/8/8/7n/8/8/4K2R w K -", "-", "6,6", ("", ""), "move"));
    assert!(t.actions().contains(&"e1g1".to_string()));
    let t = at(&state("4k3/8/8/8/7n/8/8/4K2R w K -", "h4=b1", "6,5", ("", ""), "move"));
    assert!(!t.actions().contains(&"e1g1".to_string()), "{:?}", t.actions());
}

#[test]
fn check_and_mate_count_booster_threats() {
    // A knight on d5 does not attack e8; with a booster checker it does (d5-e7, then a step).
    let mut g = Booster::new(&Vec::new()).unwrap();
    TableGame::set_state(
        &mut g,
        &state("4k3/8/8/3N4/8/8/8/4K3 b - -", "-", "6,6", ("", ""), "move"),
    )
    .unwrap();
    assert!(!in_check(g.board(), Color::Black));
    TableGame::set_state(
        &mut g,
        &state("4k3/8/8/3N4/8/8/8/4K3 b - -", "d5=w1", "5,6", ("", ""), "move"),
    )
    .unwrap();
    assert!(in_check(g.board(), Color::Black));
    // And every square around the king is covered: mate.
    let o = TableGame::outcome(&g).unwrap();
    assert_eq!((o.result.as_str(), o.reason.as_str()), ("white", "checkmate"));
}

#[test]
fn a_move_that_exposes_the_king_is_illegal_even_if_a_step_would_block() {
    let t = at(&state(
        "4r1k1/8/8/8/8/8/4B3/4K3 w - -",
        "e2=w1",
        "5,6",
        ("", ""),
        "move",
    ));
    assert!(!t.actions().iter().any(|a| a.starts_with("e2")), "{:?}", t.actions());
}

#[test]
fn promotion_then_boosting() {
    let mut t = at(&state("6k1/4P3/8/8/8/8/8/4K3 w - -", "e7=w1", "5,6", ("", ""), "move"));
    act(&mut t, "e7e8q");
    assert!(field(t.as_ref(), 0).starts_with("4Q1k1"), "{}", t.state_text());
    assert_eq!(field(t.as_ref(), 11), "boost-e8");
    assert!(t.actions().contains(&"step d7".to_string()));
}

#[test]
fn en_passant_limits() {
    // A plain double step may be taken en passant.
    let mut t = at(&state("4k3/3p4/8/4P3/8/8/8/4K3 b - -", "-", "6,6", ("", ""), "move"));
    act(&mut t, "d7d5");
    while t.actor() == Actor::Chance {
        let c = t.chances()[0].0.clone();
        t.act_chance(&c).unwrap();
    }
    if t.actor() == Actor::Seat(1, "add") {
        act(&mut t, "skip");
    }
    assert!(t.actions().contains(&"e5d6".to_string()), "{}", t.state_text());
    // A pawn that reached d5 by a booster step may not.
    let mut t = at(&state(
        "4k3/3p4/8/4P3/8/8/8/4K3 b - -",
        "d7=b1",
        "6,5",
        ("", ""),
        "move",
    ));
    act(&mut t, "d7d6");
    act(&mut t, "step d5");
    assert_eq!(field(t.as_ref(), 3), "-");
    // A hobbled pawn takes nothing, en passant included.
    let t = at(&state(
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6",
        "e5=b1",
        "6,5",
        ("", ""),
        "move",
    ));
    assert!(!t.actions().contains(&"e5d6".to_string()));
}

#[test]
fn the_deck_the_reserve_and_the_reshuffle() {
    let mut t = new_table("booster", &Vec::new()).unwrap();
    assert_eq!(field(t.as_ref(), 7).len(), 36);
    for _ in 0..12 {
        let c = t.chances()[0].0.clone();
        t.act_chance(&c).unwrap();
    }
    assert_eq!(t.actor(), Actor::Seat(0, "move"));
    assert!(field(t.as_ref(), 6).split(',').all(|h| h.len() == 6));
    // A checker comes back to the reserve (a booster step): the hand is drawn up to 6 again
    // after the card; with the pile empty the discard is shuffled in.
    let text = "4k3/8/8/8/8/8/8/N3K3 w - - a1=w1 5,6 PP,- - PPPPPPNNBBRRQKppppppppnnbbrrqkCCcc 0 0 move -";
    let mut t = at(text);
    act(&mut t, "a1b3");
    act(&mut t, "step c4");
    // Reserve 6 now; one card played leaves one in hand, and five are drawn from the reshuffle.
    act(&mut t, "add P e1");
    assert_eq!(t.actor(), Actor::Chance);
    let pile = field(t.as_ref(), 7);
    assert!(pile.len() >= 33, "the discard became the pile: {pile}");
    let mut draws = 0;
    while t.actor() == Actor::Chance {
        let c = t.chances()[0].0.clone();
        t.act_chance(&c).unwrap();
        draws += 1;
    }
    assert_eq!(draws, 4);
    assert_eq!(field(t.as_ref(), 6).split(',').next().unwrap().len(), 5);
}

#[test]
fn bad_input_changes_nothing() {
    let mut t = at(&state("4k3/8/8/8/8/8/8/N3K3 w - -", "a1=w1", "5,6", ("Q", "q"), "move"));
    let before = t.state_text();
    // Out of order (a step or a card before the move), a move a knight cannot make, garbage.
    for bad in ["step b3", "add Q e1", "stop", "skip", "a1a2", "e1e3", "zz", ""] {
        assert!(t.act(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before, "{bad}");
    }
    act(&mut t, "a1b3");
    act(&mut t, "stop");
    let before = t.state_text();
    // A card not in hand; a checker under a piece the card does not name.
    for bad in ["add R e1", "add Q a1", "step c5", "add q e8"] {
        assert!(t.act(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before, "{bad}");
    }
    // A booster step without a checker: the knight on b3 has none after stopping, and a plain
    // piece is never asked for steps.
    let t2 = at(&state("4k3/8/8/8/8/8/8/N3K3 w - -", "-", "6,6", ("", ""), "move"));
    let mut t2 = t2;
    act(&mut t2, "a1b3");
    assert_ne!(t2.actor(), Actor::Seat(0, "boost"));
    for bad in [
        "4k3/8/8/8/8/8/8/4K3 w - - - 6,6 -,- - - 0 0 move -",
        "4k3/8/8/8/8/8/8/4K3 w - - e1=w9 6,6 -,- - - 0 0 move -",
        "8/8/8/8/8/8/8/4K3 w - - - 6,6 -,- - - 0 0 move -",
    ] {
        let mut f = new_table("booster", &Vec::new()).unwrap();
        assert!(f.set_state(bad).is_err(), "{bad}");
    }
    let s: Settings = vec![("checkers".into(), "7".into())];
    assert!(new_table("booster", &s).is_err());
    assert!(new_table("booster", &vec![("bogus".into(), "1".into())]).is_err());
}

#[test]
fn observation_gate_along_random_games() {
    let mut checked = 0;
    for seed in 0..6 {
        let (_, log) = spied_game("booster", seed);
        for (seat, line) in log.iter() {
            let Some(obs) = line.strip_prefix("see ") else { continue };
            let w: Vec<&str> = obs.split_whitespace().collect();
            let hands: Vec<&str> = w[6].split(',').collect();
            let other = hands[1 - seat];
            assert!(other == "-" || other.chars().all(|c| c == '?'), "seat {seat}: {obs}");
            assert!(w[7].starts_with('#'), "{obs}");
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked}");
}

/// Kings are mated, not taken: a rook that took over a checker in its capture may step, but
/// not onto the king beside it.
#[test]
fn no_booster_step_takes_a_king() {
    let mut t = at(&state("4k3/3n4/8/8/8/8/8/3RK3 w - -", "d7=w1", "5,6", ("", ""), "move"));
    act(&mut t, "d1d7");
    assert_eq!(field(t.as_ref(), 11), "boost-d7");
    assert!(!t.actions().contains(&"step e8".to_string()), "{:?}", t.actions());
    assert!(t.actions().contains(&"step d8".to_string()));
}

/// A boosted pawn may step back onto its own first rank (booster steps are king steps); it then
/// moves on as a pawn.
#[test]
fn a_pawn_stepped_back_to_its_first_rank_moves_on() {
    let mut t = at(&state("4k3/8/8/8/8/8/6P1/4K3 w - -", "g2=w2", "4,6", ("", ""), "move"));
    act(&mut t, "g2g3");
    act(&mut t, "step g2");
    act(&mut t, "step g1");
    assert!(
        t.state_text().starts_with("4k3/8/8/8/8/8/8/4K1P1 "),
        "{}",
        t.state_text()
    );
    let mut t = at(&state("4k3/8/8/8/8/8/8/4K1P1 w - -", "-", "6,6", ("", ""), "move"));
    let mut from_g1: Vec<String> = t.actions().into_iter().filter(|a| a.starts_with("g1")).collect();
    from_g1.sort();
    assert_eq!(from_g1, ["g1g2"]);
    act(&mut t, "g1g2");
}

/// The chess generator with the booster rules on top and our own fallback generator give the
/// same moves along random games (each checks the other).
#[test]
fn both_move_generators_agree_along_random_games() {
    use menagerie::table::referee;
    use menagerie::table::seats::{RandomSeat, Seat};
    let mut compared = 0;
    for seed in 0..10 {
        let mut t = new_table("booster", &Vec::new()).unwrap();
        let mut seats: Vec<Box<dyn Seat>> = vec![Box::new(RandomSeat::new(seed)), Box::new(RandomSeat::new(seed + 50))];
        let p = referee::play(
            t.as_mut(),
            &mut seats,
            seed,
            &vec!["random".to_string(); 2],
            &Vec::new(),
            true,
            30.0,
        );
        // Replay the record, comparing at every move.
        let mut g = Booster::new(&Vec::new()).unwrap();
        for line in &p.record[1..p.record.len() - 1] {
            let action = line.split("\"action\":\"").nth(1).unwrap().split('"').next().unwrap();
            if matches!(TableGame::actor(&g), Actor::Seat(_, "move")) {
                let mut a: Vec<String> = g.moves().iter().map(|m| m.to_string()).collect();
                let mut b: Vec<String> = g.own_moves().iter().map(|m| m.to_string()).collect();
                a.sort();
                b.sort();
                assert_eq!(a, b, "{}", TableGame::state_text(&g));
                compared += 1;
            }
            let act = TableGame::parse_action(&g, action).unwrap();
            TableGame::apply(&mut g, &act).unwrap();
        }
    }
    assert!(compared > 500, "{compared}");
}

/// A pawn brought back to its starting rank by booster steps has moved: no double step.
#[test]
fn a_pawn_back_on_its_starting_rank_does_not_double_step() {
    let mut t = at(&state("4k3/8/8/8/8/4P3/8/4K3 w - -", "e3=w2", "4,6", ("", ""), "move"));
    act(&mut t, "e3e4");
    act(&mut t, "step e3");
    act(&mut t, "step e2");
    assert!(t.state_text().ends_with(" e2"), "{}", t.state_text());
    // White to move again from here (the test skips Black's turn).
    let mut w: Vec<String> = t.state_text().split_whitespace().map(String::from).collect();
    w[1] = "w".into();
    w[11] = "move".into();
    let mut t = at(&w.join(" "));
    assert!(t.actions().contains(&"e2e3".to_string()), "{:?}", t.actions());
    assert!(!t.actions().contains(&"e2e4".to_string()), "{:?}", t.actions());
    act(&mut t, "e2e3");
    assert!(t.state_text().ends_with(" -"), "{}", t.state_text());
}

/// Rules §7: the capturer takes over the victim's checkers and opposite colours cancel at once,
/// so a booster path after a capture has the steps the piece holds after the capture. The
/// attack map (check, mate) follows the same rule as the moves.
#[test]
fn attacks_after_a_capture_use_the_checkers_it_brings() {
    let full = "BBCCKNNPPPPPPPPQRRbbccknnppppppppqrr - 0 10 move -";
    // Bf1-g2 blocks: after bxg2 the black bishop's checker cancels White's, so no step to h1.
    let mut t = at(&format!("b3k3/8/8/8/8/8/7P/5BRK w - - a8=b1,f1=w1 5,5 -,- {full}"));
    assert_eq!(t.actor(), Actor::Seat(0, "move"));
    assert!(t.outcome().is_none());
    assert_eq!(t.actions(), vec!["f1g2".to_string()]);
    act(&mut t, "f1g2");
    // A white pawn with one white checker on f2: after Bxf2 the bishop's checker cancels, so
    // f2 is no springboard to f1, g1 or g2.
    let t = at(&format!("7k/b7/8/8/8/8/5P2/6K1 w - - a7=b1,f2=w1 5,5 -,- {full}"));
    let mut acts = t.actions();
    acts.sort();
    assert_eq!(acts, vec!["g1f1", "g1g2", "g1h1", "g1h2"]);
    // A hobbled pawn with two black checkers on d4: after Bxd4 the bishop holds three and
    // reaches g1, so White is in check already and only three moves answer it.
    let t = at(&format!("7k/b7/8/8/3P4/8/8/R5K1 w - - a7=b1,d4=b2 6,3 -,- {full}"));
    let mut acts = t.actions();
    acts.sort();
    assert_eq!(acts, vec!["a1a7", "g1h1", "g1h2"]);
}

/// The same rule further on: a booster step that captures takes over the victim's checkers
/// and may step on with them, and a hobbled piece that captures a piece carrying its owner's
/// checkers comes out boosted.
#[test]
fn attacks_follow_captures_by_steps_and_by_hobbled_pieces() {
    let check = |board: &str, checkers: &str, reserves: &str| {
        let mut g = Booster::new(&Vec::new()).unwrap();
        TableGame::set_state(&mut g, &state(board, checkers, reserves, ("", ""), "move")).unwrap();
        in_check(g.board(), Color::White)
    };
    // Rook h8 with one checker: h8-h3, a step takes g2 and its two black checkers (two steps
    // left), g2-f1, f1-e1. With a plain pawn on g2 the rook's step ends there.
    assert!(check("k6r/8/8/8/8/8/6P1/4K3 w - -", "h8=b1,g2=b2", "6,3"));
    assert!(!check("k6r/8/8/8/8/8/6P1/4K3 w - -", "h8=b1", "6,5"));
    // A black knight on f4 hobbled by a white checker captures like a black pawn (e3, g3);
    // after fxe3 it holds the two black checkers of the knight it took, one cancels its own
    // hobble, and the one left is a step: e3-d2 hits the king.
    assert!(check("4k3/8/8/8/5n2/4N3/3K4/8 w - -", "f4=w1,e3=b2", "5,4"));
    assert!(!check("4k3/8/8/8/5n2/4N3/3K4/8 w - -", "f4=w1", "5,6"));
}

/// A victim's checkers are taken over once: a piece that steps off the square it captured on
/// and back finds it empty, so its reach stays bounded.
#[test]
fn a_capture_gives_its_checkers_once() {
    let check = |board: &str| {
        let mut g = Booster::new(&Vec::new()).unwrap();
        TableGame::set_state(&mut g, &state(board, "h1=w1,h3=w3", "2,6", ("", ""), "move")).unwrap();
        in_check(g.board(), Color::Black)
    };
    // Rxh3 with four steps: e5 is two away, a8 seven.
    assert!(check("8/8/8/4k3/8/7n/8/K6R b - -"));
    assert!(!check("k7/8/8/8/8/7n/8/K6R b - -"));
}

/// The default engine seat is the generic player at 500 iterations a decision (BENCHMARKS.md):
/// its games are those of `mcts:iterations=500`, not of the generic player's own default.
#[test]
fn the_engine_seat_is_the_generic_player_at_500_iterations() {
    use menagerie::table::referee;
    use menagerie::table::seats::make_seats;
    let record = |spec: &str, seed: u64| {
        let mut t = new_table("booster", &Vec::new()).unwrap();
        let names = vec![spec.to_string(), "random".to_string()];
        let mut seats = make_seats(t.as_ref(), &names, seed, 30.0).unwrap();
        let p = referee::play(t.as_mut(), &mut seats, seed, &names, &Vec::new(), true, 30.0);
        // The steps, without the header (which names the seats).
        p.record[1..].join("\n")
    };
    let mut differs = false;
    for seed in 1..=2 {
        let engine = record("engine", seed);
        assert_eq!(engine, record("mcts:iterations=500", seed), "seed {seed}");
        differs |= engine != record("mcts", seed);
    }
    assert!(differs, "the default seat played as mcts at 1,000 iterations");
}
