//! Cooperative Chess 2 (`../shared/rules/chess-kit.md` sections 4 and 10): the seed example
//! (P, Bc8-e6, Bxd5, Bxe4; line `[p, b]`), the 23 -> 43 score, king cards going to the line,
//! adjacency after the line closes up, promotion through a captured type, the settings, bad
//! input and the observation gate.

use menagerie::kit::new_table;
use menagerie::table::{Actor, Settings, Table};

#[path = "common/spy.rs"]
mod spy;
use spy::spied_game;

const DECK: &str = "PPPPPPPPNNBBRRQKppppppppnnbbrrqk";

/// The cards not in `used`, as the draw pile field.
fn rest(used: &str) -> String {
    let mut deck: Vec<char> = DECK.chars().collect();
    for c in used.chars().filter(|c| c.is_ascii_alphabetic()) {
        let i = deck
            .iter()
            .position(|d| *d == c)
            .unwrap_or_else(|| panic!("no card {c} left"));
        deck.remove(i);
    }
    deck.into_iter().collect()
}

fn game(settings: &[(&str, &str)]) -> Box<dyn Table> {
    let s: Settings = settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    new_table("coop2", &s).unwrap()
}

fn at(
    settings: &[(&str, &str)],
    fen: &str,
    line: &str,
    discard: &str,
    hands: (&str, &str),
    rest_of: &str,
) -> Box<dyn Table> {
    let mut t = game(settings);
    let used = format!("{line}{discard}{}{}", hands.0, hands.1);
    let deck = rest(&used);
    let text = format!(
        "{fen} {line} {discard} {},{} {} {rest_of}",
        if hands.0.is_empty() { "-" } else { hands.0 },
        if hands.1.is_empty() { "-" } else { hands.1 },
        if deck.is_empty() { "-".to_string() } else { deck },
    );
    t.set_state(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    t
}

fn act(t: &mut Box<dyn Table>, a: &str) -> String {
    t.act(a).unwrap_or_else(|e| panic!("{a}: {e} in {}", t.state_text()))
}

fn field(t: &dyn Table, i: usize) -> String {
    t.state_text().split_whitespace().nth(i).unwrap().to_string()
}

#[test]
fn the_seed_example() {
    // Before Black's turn: line [p, P, b], Black holds {n, P}.
    let mut t = at(
        &[],
        "rnbqkbnr/ppp1pppp/8/3P4/4P3/8/PP1P1PPP/RNBQKBNR b KQkq - 0 1",
        "pPb",
        "-",
        ("NQ", "Pn"),
        "1 3 play",
    );
    assert_eq!(t.actor(), Actor::Seat(1, "play"));
    act(&mut t, "play P");
    assert_eq!(field(t.as_ref(), 6), "pPbP");
    act(&mut t, "c8e6");
    // Bxd5 uses the P left of b (card 2), then Bxe4 the P right of b (card 3 of what is left).
    let caps = t.actions();
    assert!(caps.contains(&"e6d5 x2".to_string()), "{caps:?}");
    // Card 1 is the black pawn's, not the victim's: refused, nothing changes.
    let before = t.state_text();
    assert!(t.act("e6d5 x1").is_err());
    assert_eq!(t.state_text(), before);
    act(&mut t, "e6d5 x2");
    assert_eq!(field(t.as_ref(), 6), "pbP");
    act(&mut t, "d5e4 x3");
    assert_eq!(field(t.as_ref(), 6), "pb");
    let fen: Vec<String> = t.state_text().split_whitespace().take(3).map(String::from).collect();
    assert_eq!(fen.join(" "), "rn1qkbnr/ppp1pppp/8/8/4b3/8/PP1P1PPP/RNBQKBNR b KQkq");
    // A third capture (g2) is impossible: the remaining pawn card is black.
    assert_eq!(t.actions(), vec!["end".to_string()]);
    assert!(t.act("e4g2 x1").is_err() && t.act("e4g2 x2").is_err());
    act(&mut t, "end");
    // Black draws one card back up to two; then White may take the bishop with a pawn after
    // playing its pawn card next to b (f2-f3, then fxe4).
    while t.actor() == Actor::Chance {
        let c = t.chances()[0].0.clone();
        t.act_chance(&c).unwrap();
    }
    let mut t = at(
        &[],
        "rn1qkbnr/ppp1pppp/8/8/4b3/8/PP1P1PPP/RNBQKBNR w KQkq - 0 2",
        "pb",
        "PP",
        ("PQ", "nN"),
        "3 4 play",
    );
    act(&mut t, "play P");
    act(&mut t, "f2f3");
    assert!(t.actions().contains(&"f3e4 x2".to_string()), "{:?}", t.actions());
    act(&mut t, "f3e4 x2");
    assert_eq!(field(t.as_ref(), 6), "pP");
}

/// 23 captures including both queens, all bishops and one king: 23 + 10 + 10 = 43.
#[test]
fn the_score_example_23_to_43() {
    let mut t = at(
        &[],
        "4k1nr/6pp/8/8/8/8/PP2R3/1N1K4 w - - 0 1",
        "Rk",
        "-",
        ("", ""),
        "22 30 capture",
    );
    // The rook on e2 attacks the king; R is next to k in the line.
    assert!(t.actions().contains(&"e2e8 x2".to_string()), "{:?}", t.actions());
    let e = act(&mut t, "e2e8 x2");
    assert!(e.ends_with("end"), "{e}");
    let o = t.outcome().unwrap();
    assert_eq!(o.scores, vec![43.0, 43.0]);
    assert_eq!(
        (o.result.as_str(), o.reason.as_str()),
        ("win", "king captured: 43 points")
    );
}

#[test]
fn king_cards_go_straight_to_the_line() {
    let mut t = game(&[]);
    assert_eq!(t.actor(), Actor::Chance);
    t.act_chance("draw K").unwrap();
    assert_eq!(field(t.as_ref(), 6), "K");
    assert!(
        t.state_text().contains(" -,- "),
        "the hand is still empty: {}",
        t.state_text()
    );
    t.act_chance("draw n").unwrap();
    t.act_chance("draw P").unwrap();
    t.act_chance("draw k").unwrap();
    t.act_chance("draw q").unwrap();
    t.act_chance("draw b").unwrap();
    assert_eq!(field(t.as_ref(), 6), "Kk");
    assert_eq!(t.actor(), Actor::Seat(0, "play"));
    assert!(t.state_text().contains(" Pn,bq "), "{}", t.state_text());
    // Held kings (a setting): the king card stays in the hand.
    let mut t = game(&[("kings", "hold")]);
    t.act_chance("draw K").unwrap();
    assert_eq!(field(t.as_ref(), 6), "-");
    assert!(t.state_text().contains(" K,- "), "{}", t.state_text());
}

#[test]
fn promotion_needs_a_pawn_card_and_a_captured_type() {
    let fen = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1";
    // No white piece card in the discard: the pawn may not enter the last rank.
    let t = at(&[], fen, "pP", "n", ("", ""), "1 9 quiet");
    assert!(!t.actions().iter().any(|a| a.starts_with("e7e8")), "{:?}", t.actions());
    // With a captured white knight: e7e8n spends the P card (2) and puts the N anywhere.
    let mut t = at(&[], fen, "pP", "N", ("", ""), "1 9 quiet");
    let promos: Vec<String> = t.actions().into_iter().filter(|a| a.starts_with("e7e8")).collect();
    assert_eq!(promos, ["e7e8n p2 i1", "e7e8n p2 i2"]);
    act(&mut t, "e7e8n p2 i1");
    assert_eq!(field(t.as_ref(), 6), "Np");
    assert_eq!(field(t.as_ref(), 7), "P");
    assert!(t.state_text().starts_with("k3N3/"), "{}", t.state_text());
}

#[test]
fn settings_check_and_forced_captures() {
    // The white king on e1, a black rook on d8: with check=forbid Ke1-d1 and d2 are not
    // offered; with check=allow they are.
    let fen = "3rk3/8/8/8/8/8/8/4K3 w - - 0 1";
    let t = at(&[], fen, "-", "-", ("", ""), "0 9 quiet");
    assert!(!t.actions().contains(&"e1d1".to_string()));
    let t = at(&[("check", "allow")], fen, "-", "-", ("", ""), "0 9 quiet");
    assert!(t.actions().contains(&"e1d1".to_string()));
    // Forced captures: with a capture allowed, `end` is not offered.
    let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    let t = at(&[], fen, "Pp", "-", ("", ""), "0 9 capture");
    assert!(t.actions().contains(&"end".to_string()));
    let t = at(&[("captures", "forced")], fen, "Pp", "-", ("", ""), "0 9 capture");
    assert_eq!(t.actions(), vec!["e4d5 x2".to_string()]);
    // `captures=king` (the author's variant): only taking a king is forced. The black king
    // stands attacked by the rook on e1 (the line lets R take k and P take p).
    let fen = "4k3/8/8/3p4/2P5/8/8/4R1K1 w - - 0 1";
    let t = at(&[("captures", "king")], fen, "PpRk", "-", ("", ""), "0 9 capture");
    assert_eq!(t.actions(), vec!["e1e8 x4".to_string()]);
    let t = at(&[("captures", "forced")], fen, "PpRk", "-", ("", ""), "0 9 capture");
    assert_eq!(t.actions(), vec!["c4d5 x2".to_string(), "e1e8 x4".to_string()]);
    let t = at(&[], fen, "PpRk", "-", ("", ""), "0 9 capture");
    assert!(t.actions().contains(&"end".to_string()) && t.actions().contains(&"e1e8 x4".to_string()));
    // No king to take: `captures=king` forces nothing.
    let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    let t = at(&[("captures", "king")], fen, "Pp", "-", ("", ""), "0 9 capture");
    assert_eq!(t.actions(), vec!["e4d5 x2".to_string(), "end".to_string()]);
    // The solitaire: one seat, the card drawn goes to the line.
    let mut t = game(&[("seats", "1")]);
    assert_eq!(t.seats(), 1);
    t.act_chance("draw p").unwrap();
    assert_eq!(field(t.as_ref(), 6), "p");
    assert_eq!(t.actor(), Actor::Seat(0, "quiet"));
}

#[test]
fn running_out_of_cards_is_a_loss() {
    // White to play with an empty hand and an empty pile.
    let mut t = game(&[]);
    let text = format!("4k3/8/8/8/8/8/8/4K3 b - - 0 1 - {} -,- - 30 40 capture", DECK);
    t.set_state(&text).unwrap();
    act(&mut t, "end");
    let o = t.outcome().unwrap();
    assert_eq!(o.result, "loss");
    assert!(o.reason.starts_with("cards ran out"), "{}", o.reason);
}

#[test]
fn bad_input_changes_nothing() {
    let mut t = at(
        &[],
        "rnbqkbnr/ppp1pppp/8/3P4/4P3/8/PP1P1PPP/RNBQKBNR b KQkq - 0 1",
        "pPb",
        "-",
        ("NQ", "Pn"),
        "1 3 play",
    );
    let before = t.state_text();
    for bad in ["play q", "play X", "e7e5", "end", "draw p", "", "c8e6 x2"] {
        assert!(t.act(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before, "{bad}");
    }
    act(&mut t, "play n");
    act(&mut t, "pass");
    let before = t.state_text();
    // Captures from an empty square, a move that takes nothing, a pawn move after the quiet
    // step, and garble: each refused, nothing changed (the line's adjacency rule is tested
    // with the seed example above).
    for bad in ["e6d5 x2", "c7c6", "b8c6 x1", "x"] {
        assert!(t.act(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before, "{bad}");
    }
    for bad in [
        "8/8/8/8/8/8/8/8 w - - 0 1 - - -,- - 0 0 play",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 - - PPP,- - 0 0 play",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 X - -,- - 0 0 play",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 - - -,- - 0 0 dance",
        // More cards in one place than the deck has, and a pile of absurd size (once an
        // allocation of that many cards).
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP - -,- - 0 0 play",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 - - -,- #99999999999 0 0 play",
    ] {
        assert!(t.set_state(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before, "{bad}");
    }
    assert!(new_table("coop2", &vec![("bogus".into(), "1".into())]).is_err());
    assert!(new_table("coop2", &vec![("kings".into(), "sometimes".into())]).is_err());
}

/// No seat sees the other hand or the draw order: the other hand is `?` cards, the pile `#N`.
#[test]
fn observation_gate_along_random_games() {
    let mut checked = 0;
    for seed in 0..8 {
        let (_, log) = spied_game("coop2", seed);
        for (seat, line) in log.iter() {
            let Some(obs) = line.strip_prefix("see ") else { continue };
            let w: Vec<&str> = obs.split_whitespace().collect();
            let hands: Vec<&str> = w[8].split(',').collect();
            let other = hands[1 - seat];
            assert!(other == "-" || other.chars().all(|c| c == '?'), "seat {seat}: {obs}");
            assert!(w[9].starts_with('#'), "{obs}");
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
}

/// Rules §4: a capture puts the capturer on the victim's square, a king's too (the game ends
/// there, so the capturer's own king may stay attacked).
#[test]
fn a_king_capture_moves_the_capturer_onto_the_kings_square() {
    let mut t = at(
        &[],
        "k7/8/8/8/8/8/8/R3K3 w Q - 0 1",
        "kRp",
        "-",
        ("", ""),
        "20 30 capture",
    );
    let e = act(&mut t, "a1a8 x1");
    assert!(e.ends_with("end"), "{e}");
    // The rook left a1, so the queen-side right goes with it.
    assert_eq!(field(t.as_ref(), 0), "R7/8/8/8/8/8/8/4K3");
    assert_eq!(field(t.as_ref(), 2), "-");
    assert_eq!(field(t.as_ref(), 6), "Rp");
    assert_eq!(field(t.as_ref(), 7), "k");
}

/// The FEN counters follow FEN's meaning through turns of several moves: the half-move clock
/// counts moves since a capture or pawn move, the move number grows when White's turn comes
/// round, and a state with counters reads back with them.
#[test]
fn fen_move_counters_advance() {
    let mut t = at(
        &[],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 7",
        "-",
        "-",
        ("NQ", "nq"),
        "0 0 play",
    );
    act(&mut t, "play N");
    act(&mut t, "g1f3");
    act(&mut t, "end");
    assert_eq!((field(t.as_ref(), 4), field(t.as_ref(), 5)), ("4".into(), "7".into()));
    while t.actor() == Actor::Chance {
        let c = t.chances()[0].0.clone();
        t.act_chance(&c).unwrap();
    }
    act(&mut t, "play n");
    act(&mut t, "b8c6");
    act(&mut t, "end");
    while t.actor() == Actor::Chance {
        let c = t.chances()[0].0.clone();
        t.act_chance(&c).unwrap();
    }
    assert_eq!(t.actor(), Actor::Seat(0, "play"));
    assert_eq!((field(t.as_ref(), 4), field(t.as_ref(), 5)), ("5".into(), "8".into()));
    let c = t.actions()[0].clone();
    act(&mut t, &c);
    act(&mut t, "e2e4");
    assert_eq!((field(t.as_ref(), 4), field(t.as_ref(), 5)), ("0".into(), "8".into()));
    let text = t.state_text();
    let mut u = game(&[]);
    u.set_state(&text).unwrap();
    assert_eq!(u.state_text(), text);
}

/// The default engine seat is the generic player at 80 iterations a decision (BENCHMARKS.md):
/// its games are those of `mcts:iterations=80`, not of the generic player's own default nor
/// of the turn planner (`engine:player=turns`). One seat, the solitaire, to keep it short.
#[test]
fn the_engine_seat_is_the_generic_player_at_80_iterations() {
    use menagerie::table::referee;
    use menagerie::table::seats::make_seats;
    let settings: Settings = vec![("seats".into(), "1".into())];
    let record = |spec: &str, seed: u64| {
        let mut t = new_table("coop2", &settings).unwrap();
        let names = vec![spec.to_string()];
        let mut seats = make_seats(t.as_ref(), &names, seed, 30.0).unwrap();
        let p = referee::play(t.as_mut(), &mut seats, seed, &names, &settings, true, 30.0);
        // The steps, without the header (which names the seats).
        p.record[1..].join("\n")
    };
    let engine = record("engine", 1);
    assert_eq!(engine, record("mcts:iterations=80", 1));
    assert_ne!(engine, record("mcts", 1), "played as mcts at 1,000 iterations");
    assert_ne!(engine, record("engine:player=turns", 1), "played as the turn planner");
}
