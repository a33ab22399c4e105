//! Neighbour Chess Solitaire (`../shared/rules/chess-kit.md` section 8): the torus placement,
//! the nearest-empty rings, the decision to stop (and its minimum), the discard before each
//! move, borrowed moves only from same-colour neighbours, captures as a setting, the win by one
//! group with diagonal contact and its score, running out of cards, bad input, the observation,
//! and the open-deal solver against an exhaustive search through the game's own interface.

use menagerie::kit::neighbour::{carry, landing};
use menagerie::kit::new_table;
use menagerie::table::{Actor, Table};
#[path = "common/exhaustive.rs"]
mod exhaustive;
use exhaustive::wins_within;

fn sq(name: &str) -> usize {
    let b = name.as_bytes();
    (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
}

fn game(settings: &[(&str, &str)]) -> Box<dyn Table> {
    let s: Vec<(String, String)> = settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    new_table("neighbour", &s).unwrap()
}

fn at(settings: &[(&str, &str)], state: &str) -> Box<dyn Table> {
    let mut t = game(settings);
    t.set_state(state).unwrap_or_else(|e| panic!("{state}: {e}"));
    t
}

/// Deals the piece deck and the position deck in the order given.
fn dealt(settings: &[(&str, &str)], pieces: &str, positions: &[&str]) -> Box<dyn Table> {
    let mut t = game(settings);
    for c in pieces.chars() {
        t.act_chance(&format!("deal {c}")).unwrap();
    }
    for c in positions {
        t.act_chance(&format!("deal {c}")).unwrap();
    }
    assert_eq!(t.actor(), Actor::Seat(0, "add"));
    t
}

const PIECES: &str = "KQRRBBNNkqrrbbnn";
const POSITIONS: [&str; 20] = [
    "3r", "2b", "6b", "2r", "3b", "4r", "4b", "5r", "5b", "6r", "2r", "2b", "3r", "3b", "4r", "4b", "5r", "5b", "6r",
    "6b",
];

#[test]
fn position_cards_carry_pieces_around_the_board() {
    // Red: files to the right; black: ranks up; both wrap.
    assert_eq!(carry(sq("a1"), 3), sq("d1"));
    assert_eq!(carry(sq("g1"), 3), sq("b1"));
    assert_eq!(carry(sq("a6"), -5), sq("a3"));
    assert_eq!(carry(sq("h8"), 2), sq("b8"));
    // The first piece starts from a1.
    let mut t = dealt(&[], PIECES, &POSITIONS);
    assert_eq!(t.act("add").unwrap(), "add K 3r to d1");
    assert_eq!(t.act("add").unwrap(), "add Q 2b to d3");
    // The rook goes six ranks up from d3, round to d1, which the king holds: the nearest ring
    // of d1 has five empty squares and the seat picks one.
    assert_eq!(t.act("add").unwrap(), "add R 6b to d1, taken: place it");
    assert_eq!(t.actor(), Actor::Seat(0, "place"));
    assert_eq!(
        t.actions(),
        ["place c1", "place c2", "place d2", "place e1", "place e2"]
    );
    assert_eq!(t.act("place e2").unwrap(), "place R e2");
    // The next add counts from the rook's square.
    assert_eq!(t.act("add").unwrap(), "add R 2r to g2");
}

#[test]
fn a_full_ring_sends_the_piece_to_the_next_ring_without_wrapping() {
    // d4 and its whole first ring taken: the second ring's empty squares.
    let mut board = [0u8; 64];
    for s in ["c3", "d3", "e3", "c4", "d4", "e4", "c5", "d5", "e5"] {
        board[sq(s)] = b'N';
    }
    let ring = landing(&board, sq("d4"));
    assert_eq!(ring.len(), 16);
    assert!(ring.contains(&sq("b2")) && ring.contains(&sq("f6")) && !ring.contains(&sq("c3")));
    // At a corner only the squares on the board count: a1's first ring is a2, b1, b2.
    let mut board = [0u8; 64];
    board[sq("a1")] = b'K';
    assert_eq!(landing(&board, sq("a1")), [sq("b1"), sq("a2"), sq("b2")]);
    // An empty target is the square itself.
    assert_eq!(landing(&board, sq("c3")), [sq("c3")]);
}

#[test]
fn the_seat_stops_adding_only_after_the_minimum() {
    let mut t = dealt(&[], PIECES, &POSITIONS);
    for _ in 0..3 {
        assert_eq!(t.actions().first().map(String::as_str), Some("add"));
        let a = t.act("add").unwrap();
        if a.ends_with("place it") {
            let p = t.actions()[0].clone();
            t.act(&p).unwrap();
        }
    }
    let e = t.act("stop").unwrap_err().to_string();
    assert!(e.contains("at least 8 before stopping"), "{e}");
    let mut t = dealt(&[("min", "3")], PIECES, &POSITIONS);
    for _ in 0..3 {
        if t.act("add").unwrap().ends_with("place it") {
            let p = t.actions()[0].clone();
            t.act(&p).unwrap();
        }
    }
    assert!(t.actions().contains(&"stop".to_string()));
    t.act("stop").unwrap();
    assert!(matches!(t.actor(), Actor::Seat(0, "move") | Actor::Over));
}

/// Eight pieces after eight adds: White R a1, N b1, K e4; Black r a8, k h8, q h6, b d5, n g3.
const SPREAD: &str = "r6k/8/7q/3b4/4K3/6n1/8/RN6 QRBBNrbn 6r6r2b2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r e4 move - 0";

fn from(t: &dyn Table, square: &str) -> Vec<String> {
    let mut v: Vec<String> = t
        .actions()
        .into_iter()
        .filter(|a| a.starts_with(square))
        .map(|a| a[2..].to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn pieces_borrow_the_moves_of_same_colour_neighbours_only() {
    let t = at(&[], SPREAD);
    // The rook a1 moves as its neighbour the knight does; the knight as the rook.
    assert_eq!(from(t.as_ref(), "a1"), ["b3", "c2"]);
    assert_eq!(from(t.as_ref(), "b1").len(), 7 + 6);
    // The king's only neighbour is a black bishop: it cannot move. Nor can the black pieces,
    // none of which has a black neighbour.
    for s in ["e4", "d5", "a8", "h8", "h6", "g3"] {
        assert!(from(t.as_ref(), s).is_empty(), "{s}");
    }
    assert_eq!(t.actions().len(), 15);
}

#[test]
fn a_borrowed_move_takes_only_with_captures_on() {
    // A black rook on b5 blocks the knight's borrowed rook move up the b-file.
    let state = "7k/8/7q/1r1b4/4K3/6n1/8/RN6 QRBBNrbn 6r6r2b2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r e4 move - 0";
    let off = at(&[], state);
    assert_eq!(
        from(off.as_ref(), "b1"),
        ["b2", "b3", "b4", "c1", "d1", "e1", "f1", "g1", "h1"]
    );
    let mut on = at(&[("captures", "on")], state);
    assert!(from(on.as_ref(), "b1").contains(&"b5".to_string()));
    assert!(on.act("b1b5").unwrap().starts_with("b1b5 takes r"));
}

#[test]
fn each_move_discards_a_card_from_the_piece_deck_first() {
    let mut t = at(&[], SPREAD);
    t.act("a1c2").unwrap();
    assert_eq!(
        t.state_text(),
        "r6k/8/7q/3b4/4K3/6n1/2R5/1N6 RBBNrbn 6r6r2b2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r e4 move - 1"
    );
}

/// One move from one group: the bishop e7 borrows the rook f6's move to g7, touching f6 and
/// the knight h8 (diagonal contact counts).
const NEAR: &str = "7n/4b3/5r2/4q3/3k4/2K5/1N6/R7 QRBBNrbn 6r6r2b2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r c3 move - 0";

#[test]
fn one_group_wins_with_the_cards_left_in_both_piles() {
    let mut t = at(&[], NEAR);
    assert_eq!(t.act("e7g7").unwrap(), "e7g7 end: connected: score 19");
    let o = t.outcome().unwrap();
    assert_eq!((o.result.as_str(), o.scores.clone()), ("win", vec![19.0]));
    // With the last card spent on a move that does not connect: lost, score 0.
    let last = "7n/4b3/5r2/4q3/3k4/2K5/1N6/R7 - 6b 2r2r3r3r4r4r5r5r c3 move - 19";
    let mut t = at(&[], last);
    let e = t.act("e7e8").unwrap();
    assert!(e.ends_with("not connected: no card left"), "{e}");
    assert_eq!(t.outcome().unwrap().scores, [0.0]);
}

#[test]
fn bad_input_changes_nothing() {
    let mut t = at(&[], NEAR);
    let before = t.state_text();
    for (a, why) in [
        ("h8g6", "no same-colour neighbour of h8 moves so"),
        ("e7e1", "no same-colour neighbour of e7 moves so"),
        ("add", "not an action of the move step"),
        ("stop", "not an action of the move step"),
        ("place e4", "not an action of the move step"),
        ("deal 3r", "the shuffle is over"),
        ("e7", "not a Neighbour action"),
    ] {
        let e = t.act(a).unwrap_err().to_string();
        assert!(e.contains(why), "{a}: {e}");
        assert_eq!(t.state_text(), before, "{a}");
    }
    // The same carried piece held for e7, which the bishop holds, is a state.
    at(
        &[],
        "7n/4b3/5r2/4q3/3k4/2K5/1N6/R7 RBBNrbn 6r6r2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r2b e5 place Q@e7 0",
    );
    // A square off the ring, while placing.
    let mut t = dealt(&[], PIECES, &POSITIONS);
    t.act("add").unwrap();
    t.act("add").unwrap();
    t.act("add").unwrap();
    let before = t.state_text();
    let e = t.act("place h8").unwrap_err().to_string();
    assert!(e.contains("not an empty square of the nearest ring"), "{e}");
    assert_eq!(t.state_text(), before);
    for bad in [
        // Nine pieces but eight position cards turned.
        "7n/4b3/5r2/4q3/3k4/2K5/1N6/R6Q RBBNrbn 6r6r2b2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r c3 move - 0",
        // Moving after five pieces: the adding may stop only after eight.
        "7n/4b3/5r2/8/8/2K5/1N6/8 QRRBBNqkrbn 3r4r4r5r5r6r6r3b3b4b4b5b5b6b6b 2r2r2b2b3r c3 move - 0",
        // A carried piece held for a square its anchor and card do not give (e5 + 2b = e7).
        "7n/4b3/5r2/4q3/3k4/2K5/1N6/R7 RBBNrbn 6r6r2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r2b e5 place Q@d4 0",
        // Seventeen position cards turned, and a move count past the 36 cards.
        "7n/4b3/5r2/4q3/3k4/2K5/1N6/R7 - 6b 2r2r3r3r4r4r5r5r6r6r2b2b3b3b4b4b5b c3 move - 19",
        "7n/4b3/5r2/4q3/3k4/2K5/1N6/R7 QRBBNrbn 6r6r2b2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r c3 move - 4294967295",
        // A third 2r.
        "7n/4b3/5r2/4q3/3k4/2K5/1N6/R7 QRBBNrbn 2r6r2b2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r c3 move - 0",
        "7n/4b3/5r2/4q3/3k4/2K5/1N6/R7 QRBBNrbn 6r6r2b2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r c3 fly - 0",
        "7n/4b3/5r2/4q3/3k4/2K5/1N6/R7 ???????? 6r6r2b2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r c3 move - 0",
        "7n/4b3/5r2/4q3/3k4/2K5/1N6/R7 QRBBNrbn 6r6r2b2b3b3b4b4b5b5b6b6b 2r2r3r3r4r4r5r5r c3 move -",
    ] {
        let mut t = at(&[], NEAR);
        assert!(t.set_state(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), NEAR);
    }
    let s = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
    let e = new_table("neighbour", &s("bogus", "1")).err().unwrap();
    assert!(e.contains("unknown setting 'bogus'"), "{e}");
    assert!(new_table("neighbour", &s("min", "17")).is_err());
    assert!(new_table("neighbour", &s("captures", "maybe")).is_err());
}

#[test]
fn the_seat_sees_the_decks_only_when_the_deal_is_open() {
    let hidden = at(&[], NEAR);
    assert_eq!(
        hidden.observe(0),
        "7n/4b3/5r2/4q3/3k4/2K5/1N6/R7 ???????? ???????????? 2r2r3r3r4r4r5r5r c3 move - 0"
    );
    let open = at(&[("open", "on")], NEAR);
    assert_eq!(open.observe(0), NEAR);
    let mut t = game(&[]);
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(3);
    while t.actor() == Actor::Chance {
        let (_, e) = t.draw_chance(&mut rng).unwrap();
        assert!(e == "piece deck gets a card" || e == "position deck gets a card", "{e}");
    }
}

/// Every state where the adding has stopped (or the game ended while adding), through the
/// game's own interface.
fn stops(t: &dyn Table, out: &mut Vec<Box<dyn Table>>) {
    match t.actor() {
        Actor::Seat(_, "add") | Actor::Seat(_, "place") => {
            for a in t.actions() {
                let mut c = t.clone_box();
                c.act(&a).unwrap();
                stops(c.as_ref(), out);
            }
        }
        _ => out.push(t.clone_box()),
    }
}

/// The open-deal solver's best play is a real win, and no play scores more: for every way the
/// adding can stop, every sequence of moves that would beat it is searched exhaustively.
#[test]
fn the_solver_optimum_holds_against_an_exhaustive_search() {
    for seed in [1u64, 2, 3, 9] {
        let mut t = game(&[("open", "on")]);
        menagerie::table::referee::deal(t.as_mut(), seed).unwrap();
        let best = t.deal_optimum(2_000_000).unwrap();
        assert!(best.proved, "seed {seed}");
        let mut play = t.clone_box();
        for a in &best.plan {
            play.act(a).unwrap_or_else(|e| panic!("seed {seed}: {a}: {e}"));
        }
        let o = play.outcome().unwrap();
        assert_eq!((o.result.as_str(), o.scores[0]), ("win", best.score), "seed {seed}");
        let mut ends = Vec::new();
        stops(t.as_ref(), &mut ends);
        assert!(ends.len() >= 9, "seed {seed}: {} ways to stop", ends.len());
        for e in &ends {
            if let Some(o) = e.outcome() {
                assert!(o.result != "win" || o.scores[0] <= best.score, "seed {seed}");
                continue;
            }
            // Cards left at the stop: more than the best needs fewer moves than the gap.
            let cards: u32 = e
                .state_text()
                .split(' ')
                .skip(1)
                .take(2)
                .map(|d| {
                    if d == "-" {
                        0
                    } else {
                        d.len() as u32 / if d.contains(char::is_numeric) { 2 } else { 1 }
                    }
                })
                .sum();
            let s = best.score as u32;
            if cards > s {
                assert!(
                    !wins_within(e.as_ref(), cards - s - 1),
                    "seed {seed}: a better play than {s} from {}",
                    e.state_text()
                );
            }
        }
    }
}
