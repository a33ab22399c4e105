//! Gravity Chess (`../shared/rules/chess-kit.md` section 5): the rules file's three diagrams and
//! its scoring example, the move-order example, the turn flow, the tie-break and bad input.

use menagerie::Color;
use menagerie::kit::gravity::{Gravity, occupancy, piece_moves, points, stacked, tie_break};
use menagerie::kit::new_table;
use menagerie::table::referee;
use menagerie::table::seats::{RandomSeat, Seat};
use menagerie::table::{Actor, Seen, Table, TableGame};

/// A state in the middle of turn 25 (White moves only, no card), `remaining` to be considered.
fn last_turn(placement: &str, remaining: &str) -> Gravity {
    let mut g = Gravity::new(&Vec::new()).unwrap();
    let text = format!("{placement} 25 move - -,- 0,0 {remaining}");
    TableGame::set_state(&mut g, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
    g
}

fn over(placement: &str, captures: &str) -> Gravity {
    let mut g = Gravity::new(&Vec::new()).unwrap();
    let text = format!("{placement} 26 over - -,- {captures} -");
    TableGame::set_state(&mut g, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
    g
}

fn sq(name: &str) -> usize {
    let b = name.as_bytes();
    (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
}

fn names(set: u64) -> Vec<String> {
    (0..64)
        .filter(|s| set >> s & 1 != 0)
        .map(|s| format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1))
        .collect()
}

fn dests(g: &Gravity, from: &str) -> Vec<String> {
    let b = g.board();
    let mut v = names(piece_moves(b, occupancy(b), stacked(b), sq(from)));
    v.sort();
    v
}

/// The scoring diagram: White 2 captures + Qd1 1 + Na2, Rc2, Be2 6 + Nh3 3 + Pb4 4 = 16; Black
/// 4 captures + six on rank 1 + rf2 2 + bb3 3 + ph4 4 = 19. Active: ke3 (to d2), Kg3 (to g2,
/// h2), Rg6. Black wins.
#[test]
fn the_scoring_diagram_is_16_against_19() {
    let g = over("8/8/6R1/8/1P5p/1b2k1KN/N1R1Br2/p1nQqrnb", "2,4");
    let b = g.board();
    let st = stacked(b);
    let occupied: u64 = (0..64).filter(|&s| b[s].is_some()).fold(0, |m, s| m | 1 << s);
    assert_eq!(names(occupied & !st), ["e3", "g3", "g6"]);
    assert_eq!(points(b, [2, 4], Color::White), 16);
    assert_eq!(points(b, [2, 4], Color::Black), 19);
    assert!(dests(&g, "e3").contains(&"d2".to_string()));
    assert!(dests(&g, "g3").contains(&"g2".to_string()) && dests(&g, "g3").contains(&"h2".to_string()));
    let o = TableGame::outcome(&g).unwrap();
    assert_eq!(o.result, "black");
    assert_eq!(o.scores, vec![0.0, 1.0]);
    assert_eq!(o.reason, "on points: 16 points to 19");
}

/// The second diagram: rf2 is stacked; bg2 is not (h1 is free); Qc2 is not; the queen could take
/// bg2 along rank 2 but for the stacked rook between them, and cannot take the rook.
#[test]
fn the_second_diagram() {
    let g = last_turn("p6N/q7/8/8/8/3B4/2Q2rb1/5rn1", "c2,d3,h8");
    let b = g.board();
    let st = stacked(b);
    assert!(st >> sq("f2") & 1 != 0);
    assert!(st >> sq("g2") & 1 == 0);
    assert!(st >> sq("c2") & 1 == 0);
    let q = dests(&g, "c2");
    assert!(
        !q.contains(&"g2".to_string()) && !q.contains(&"f2".to_string()),
        "{q:?}"
    );
    // Along rank 2 only captures count: d2 and e2 are empty, so not destinations.
    assert!(!q.contains(&"d2".to_string()) && q.contains(&"b1".to_string()), "{q:?}");
}

/// The move-order diagram: moving the bishop e7-f6 first frees the e8 pawn, which then must
/// move; considering the pawn first (it cannot move yet) leaves it where it is.
#[test]
fn moving_the_bishop_first_frees_the_pawn() {
    let start = last_turn("4P3/4B3/r3P3/1n2b3/8/8/8/8", "e6,e7,e8");
    assert_eq!(stacked(start.board()), 0, "nothing rests on rank 1 here");
    let legal: Vec<String> = TableGame::legal_actions(&start).iter().map(|a| a.to_string()).collect();
    assert!(legal.contains(&"stay e8".to_string()), "{legal:?}");
    assert!(legal.contains(&"e7f6".to_string()), "{legal:?}");
    assert!(
        !legal.iter().any(|a| a.starts_with("e8")),
        "the pawn is blocked at first: {legal:?}"
    );

    let mut a = start.clone();
    Table::act(&mut a, "e7f6").unwrap();
    let legal: Vec<String> = TableGame::legal_actions(&a).iter().map(|x| x.to_string()).collect();
    assert!(legal.contains(&"e8e7".to_string()), "{legal:?}");
    assert!(
        !legal.contains(&"stay e8".to_string()),
        "a piece that can move must: {legal:?}"
    );

    let mut b = start.clone();
    Table::act(&mut b, "stay e8").unwrap();
    Table::act(&mut b, "e7f6").unwrap();
    // The pawn was considered already; e6 cannot move (the bishop e5 blocks it): the turn,
    // the last one, ends and the game with it.
    assert_eq!(TableGame::actor(&b), Actor::Over);
    assert!(b.board()[sq("e8")].is_some());
}

#[test]
fn moves_go_down_and_captures_stay_level_or_lower() {
    // Rook d5: down the file, captures the active knight on g5 along the rank; never up, never
    // a quiet move along the rank. Pawn h8: one or two down from rank 8; pawn b4 (moved) one.
    let g = last_turn("7P/8/8/3R2n1/1P6/8/8/8", "b4,d5,h8");
    assert_eq!(dests(&g, "d5"), ["d1", "d2", "d3", "d4", "g5"]);
    assert_eq!(dests(&g, "h8"), ["h6", "h7"]);
    assert_eq!(dests(&g, "b4"), ["b3"]);
    // A knight never jumps up; a king steps down or captures beside it.
    let g = last_turn("8/8/8/8/3N4/8/8/8", "d4");
    assert_eq!(dests(&g, "d4"), ["b3", "c2", "e2", "f3"]);
    let g = last_turn("8/8/8/8/3Kp3/8/8/8", "d4");
    assert_eq!(dests(&g, "d4"), ["c3", "d3", "e3", "e4"]);
    // A stacked piece cannot be captured: the pawn on a1 is safe from the rook on a3.
    let g = last_turn("8/8/8/8/8/R7/8/p7", "a3");
    assert_eq!(dests(&g, "a3"), ["a2"]);
}

#[test]
fn tie_break_from_the_highest_rank_down() {
    // White a1 b1 c1 = 3; Black h1 h2 = 1 + 2 = 3. Rank 2 has one black stacked piece: Black.
    let g = over("8/8/8/8/8/8/7p/PPP4p", "0,0");
    assert_eq!(tie_break(g.board()), Some(Color::Black));
    let o = TableGame::outcome(&g).unwrap();
    assert_eq!(
        (o.result.as_str(), o.reason.as_str()),
        ("black", "on the tie-break: 3 points to 3")
    );
    // Mirror-equal stacks: a tie.
    let g = over("8/8/8/8/8/8/p6P/P6p", "0,0");
    assert_eq!(tie_break(g.board()), None);
    assert_eq!(TableGame::outcome(&g).unwrap().result, "draw");
}

/// W1 flips and adds (nothing to move), B1 the same, ... B12 adds the last white piece, W13
/// only moves: 25 turns, every piece of both armies used once.
#[test]
fn turn_flow_and_chance() {
    let g = Gravity::new(&Vec::new()).unwrap();
    assert_eq!(TableGame::actor(&g), Actor::Chance);
    let odds = TableGame::chance_outcomes(&g);
    let p = |c: &str| {
        odds.iter()
            .find(|(a, _)| a.to_string() == format!("flip {c}"))
            .unwrap()
            .1
    };
    assert!((p("p") - 4.0 / 12.0).abs() < 1e-12 && (p("k") - 1.0 / 12.0).abs() < 1e-12);
    let mut t = new_table("gravity", &Vec::new()).unwrap();
    t.act_chance("flip q").unwrap();
    assert_eq!(t.actor(), Actor::Seat(0, "add"), "nothing to move on turn 1");
    assert_eq!(t.actions().len(), 8);
    t.act("add d8").unwrap();
    assert_eq!(t.actor(), Actor::Chance);
    assert!(t.act_chance("flip q").is_err(), "Black's pile holds White's pieces");
    t.act_chance("flip Q").unwrap();
    // Whole games: 24 pieces placed, 25 turns.
    for seed in 0..6 {
        let mut t = new_table("gravity", &Vec::new()).unwrap();
        let mut seats: Vec<Box<dyn Seat>> = vec![Box::new(RandomSeat::new(seed)), Box::new(RandomSeat::new(seed + 9))];
        let names = vec!["random".to_string(); 2];
        let p = referee::play(t.as_mut(), &mut seats, seed, &names, &Vec::new(), true, 30.0);
        let flips = p.record.iter().filter(|l| l.contains("\"action\":\"flip ")).count();
        assert_eq!(flips, 24, "seed {seed}");
        let state = t.state_text();
        assert!(state.contains(" 26 over - -,- "), "{state}");
        let w: Vec<&str> = state.split_whitespace().collect();
        let on_board = w[0].chars().filter(|c| c.is_ascii_alphabetic()).count();
        let captured: usize = w[5].split(',').map(|x| x.parse::<usize>().unwrap()).sum();
        let aside = p.record.iter().filter(|l| l.contains("set aside")).count();
        assert_eq!(on_board + captured + aside, 24, "{state}");
    }
}

#[test]
fn end_fall_drops_the_pieces_in_the_air_and_scores_all() {
    // The rule book's scoring example (White 16, Black 19 by the rule book: ke3, Kg3 and Rg6
    // active). With `end=fall` they fall after the last turn: ke3 rests on Be2 (rank 3), Kg3
    // falls to g2 onto the knight on g1, and Rg6 onto it at g3; every piece scores its rank:
    // White 2 + 1 + 2 + 2 + 2 + 3 + 4 + 2 + 3 = 21, Black 4 + 6 + 2 + 3 + 4 + 3 = 22.
    let example = "8/8/6R1/8/1P5p/1b2k1KN/N1R1Br2/p1nQqrnb";
    let mut board = last_turn(example, "-").board().to_owned();
    assert_eq!(menagerie::kit::gravity::fall(&mut board), 2);
    let settings = vec![("end".to_string(), "fall".to_string())];
    let mut t = new_table("gravity", &settings).unwrap();
    t.set_state(&format!("{example} 25 move - -,- 2,4 -")).unwrap();
    let o = t.outcome().expect("over: nothing left to move");
    assert_eq!(
        (o.result.as_str(), o.reason.as_str()),
        ("black", "on points: 21 points to 22")
    );
    assert!(
        t.state_text().starts_with("8/8/8/8/1P5p/1b2k1RN/N1R1BrK1/p1nQqrnb "),
        "{}",
        t.state_text()
    );
    // The rule book's end on the same board.
    let mut t = new_table("gravity", &Vec::new()).unwrap();
    t.set_state(&format!("{example} 25 move - -,- 2,4 -")).unwrap();
    assert_eq!(t.outcome().unwrap().reason, "on points: 16 points to 19");
}

/// `last=both` (our variant): after White's move-only turn 25, Black moves once more (turn 26),
/// then the game is scored. On the scoring example Black's active king e3 steps to d2, onto the
/// stacked c1, d1 and e1, and scores 2 more: 16 to 21 instead of 16 to 19.
#[test]
fn last_both_gives_black_a_move_only_turn_after_white() {
    let example = "8/8/6R1/8/1P5p/1b2k1KN/N1R1Br2/p1nQqrnb";
    let settings = vec![("last".to_string(), "both".to_string())];
    let mut t = new_table("gravity", &settings).unwrap();
    t.set_state(&format!("{example} 25 move - -,- 2,4 -")).unwrap();
    assert_eq!(t.actor(), Actor::Seat(1, "move"), "{}", t.state_text());
    assert!(t.state_text().contains(" 26 move - -,- 2,4 e3"), "{}", t.state_text());
    assert_eq!(t.actions(), ["e3d2"]);
    let event = t.act("e3d2").unwrap();
    assert!(event.ends_with("end"), "{event}");
    let o = t.outcome().expect("over after Black's last turn");
    assert_eq!(
        (o.result.as_str(), o.reason.as_str()),
        ("black", "on points: 16 points to 21")
    );
    assert!(t.state_text().contains(" 27 over "), "{}", t.state_text());
    // The state text of that game reads back with the setting, and not without it.
    let text = t.state_text();
    let mut again = new_table("gravity", &settings).unwrap();
    again.set_state(&text).unwrap();
    assert_eq!(again.state_text(), text);
    assert!(new_table("gravity", &Vec::new()).unwrap().set_state(&text).is_err());
    // White's turn 25 still comes first: a white piece left to move is asked of seat 0.
    let mut t = new_table("gravity", &settings).unwrap();
    t.set_state(&format!("{example} 25 move - -,- 2,4 g3")).unwrap();
    assert_eq!(t.actor(), Actor::Seat(0, "move"));
}

#[test]
fn order_bottom_up_moves_the_lowest_piece_first() {
    // The seed example: White's Pe6 (stuck over the black bishop), Be7 and Pe8. In the rule
    // book's order the player chooses (and may leave e8 stuck); bottom-up takes e6, then e7,
    // then e8, which the bishop's move has freed.
    let state = "4P3/4B3/r3P3/1n2b3/8/8/8/8 25 move - -,- 0,0 e6,e7,e8";
    let settings = vec![("order".to_string(), "bottom-up".to_string())];
    let mut t = new_table("gravity", &settings).unwrap();
    t.set_state(state).unwrap();
    // Pe6 is lowest and cannot move: it stays by itself; then the bishop must move.
    let acts = t.actions();
    assert!(!acts.is_empty() && acts.iter().all(|a| a.starts_with("e7")), "{acts:?}");
    assert_eq!(t.act("e7d6").unwrap(), "e7d6");
    assert_eq!(t.actions(), ["e8e7"]);
    let mut free = new_table("gravity", &Vec::new()).unwrap();
    free.set_state(state).unwrap();
    let acts = free.actions();
    assert!(
        acts.contains(&"stay e8".to_string()) && acts.contains(&"stay e6".to_string()),
        "{acts:?}"
    );
    assert!(new_table("gravity", &vec![("order".into(), "top-down".into())]).is_err());
}

#[test]
fn bad_input_changes_nothing() {
    let mut t = new_table("gravity", &Vec::new()).unwrap();
    t.set_state("4P3/4B3/r3P3/1n2b3/8/8/8/8 25 move - -,- 0,0 e6,e7,e8")
        .unwrap();
    let before = t.state_text();
    for bad in ["e7e8", "stay e7", "e8e7", "add a8", "z9z9", "", "flip q", "e5d4"] {
        assert!(t.act(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before, "{bad}");
    }
    for bad in [
        "8/8/8/8/8/8/8/8 1 flip - x,y 0,0 -",
        "8/8/8/8/8/8/8/9 1 flip - -,- 0,0 -",
        "8/8/8/8/8/8/8/8 25 flip - -,- 0,0 -",
        "8/8/8/8/8/8/8/8 3 add - -,- 0,0 -",
        "8/8/8/8/8/8/8/8 1 move Q -,- 0,0 -",
        "QQ6/8/8/8/8/8/8/8 25 move - -,- 0,0 -",
        "8/8/8/8/8/8/8/8 25 move - -,- 0,0 a1",
        // Turn 26 is the end; a pile must hold what its owner has not flipped.
        "k7/8/8/8/8/8/8/8 26 move - -,- 0,0 a8",
        "8/8/8/8/8/8/8/8 3 flip - -,- 0,0 -",
    ] {
        assert!(t.set_state(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before, "{bad}");
    }
    assert!(new_table("gravity", &vec![("bogus".into(), "1".into())]).is_err());
}

/// A piece that becomes stacked during the turn (an own piece landed under it) never moves
/// again, not even to capture: here the knight lands on e2, resting on c1 and g1, and the
/// pawn above it may not take on d2.
#[test]
fn a_piece_stacked_during_the_turn_stays() {
    let mut g = last_turn("8/8/8/8/8/4P1N1/3n4/2r3r1", "e3,g3");
    let legal: Vec<String> = TableGame::legal_actions(&g).iter().map(|a| a.to_string()).collect();
    assert!(
        legal.contains(&"e3d2".to_string()) && legal.contains(&"g3e2".to_string()),
        "{legal:?}"
    );
    Table::act(&mut g, "g3e2").unwrap();
    assert_eq!(TableGame::actor(&g), Actor::Over, "{}", TableGame::state_text(&g));
    assert!(g.board()[sq("e3")].is_some());
}

/// The default engine seat is the generic player with ten random actions before the heuristic
/// (BENCHMARKS.md): its games are those of `mcts:rollout=10`, not of the generic player's own
/// default (the heuristic straight after the tree) nor of the whole-turn search.
#[test]
fn the_engine_seat_is_the_generic_player_with_rollouts_of_ten() {
    use menagerie::table::seats::make_seats;
    let record = |spec: &str, seed: u64| {
        let mut t = new_table("gravity", &Vec::new()).unwrap();
        let names = vec![spec.to_string(), spec.to_string()];
        let mut seats = make_seats(t.as_ref(), &names, seed, 30.0).unwrap();
        let p = referee::play(t.as_mut(), &mut seats, seed, &names, &Vec::new(), true, 30.0);
        // The steps, without the header (which names the seats).
        p.record[1..].join("\n")
    };
    let engine = record("engine", 1);
    assert_eq!(engine, record("mcts:rollout=10", 1));
    assert_ne!(engine, record("mcts", 1), "played as mcts without rollouts");
    assert_ne!(
        engine,
        record("engine:player=turns", 1),
        "played as the whole-turn search"
    );
}

/// The whole-turn engine seat gives up a garbled observation as an unreadable one, with the
/// game's reason as the forfeit's text.
#[test]
fn the_engine_seat_refuses_a_garbled_observation_as_unreadable() {
    use menagerie::table::seats::{PlayerError, SeatError, make_seat};
    let t = new_table("gravity", &Vec::new()).unwrap();
    let mut seat = make_seat(t.as_ref(), 0, "engine:player=turns", 1, 30.0).unwrap();
    match seat.see(&Seen::from_text("no such state")) {
        Err(SeatError::Player(PlayerError::Unreadable(why))) => {
            assert!(!why.is_empty() && !why.contains('\n'), "{why:?}")
        }
        other => panic!("{other:?}"),
    }
    let start = t.observe(0);
    assert_eq!(seat.see(&t.seen(0)), Ok(()), "{start}");
}
