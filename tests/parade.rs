//! Parade Chess Solitaire (`../shared/rules/chess-kit.md` sections 1 and 6): the seed layout,
//! the move rule's seed checks, the add rule (8 of diamonds to g4, and past h8), the win, the
//! negative phase, bad input, the observation, and the open-deal solver against an exhaustive
//! search through the game's own interface.

use menagerie::kit::new_table;
use menagerie::kit::parade::{Parade, solver::OpenDeal};
use menagerie::table::{Actor, Table, TableGame};
#[path = "common/exhaustive.rs"]
mod exhaustive;
use exhaustive::wins_within;

/// The seed example's layout (rules §1): B, R, k, r, n, N, r, b.
const SEED: &str = "8/8/8/8/1r2b3/1r1n1N2/5k2/2B3R1";

fn game(settings: &[(&str, &str)]) -> Box<dyn Table> {
    let s: Vec<(String, String)> = settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    new_table("parade", &s).unwrap()
}

fn at(state: &str) -> Box<dyn Table> {
    let mut t = game(&[]);
    t.set_state(state).unwrap_or_else(|e| panic!("{state}: {e}"));
    t
}

/// The destinations the move rule gives the piece on `from`, sorted.
fn dests(t: &dyn Table, from: &str) -> Vec<String> {
    let mut v: Vec<String> = t
        .actions()
        .into_iter()
        .filter(|a| a.len() == 4 && a.starts_with(from))
        .map(|a| a[2..].to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn the_seed_cards_lay_out_the_seed_diagram() {
    let mut t = game(&[]);
    for c in ["B", "R", "k", "r", "n", "N", "r", "b"] {
        assert_eq!(t.actor(), Actor::Chance);
        t.act_chance(&format!("deal {c}")).unwrap();
    }
    assert_eq!(t.state_text(), format!("{SEED} - 0"));
    // Pile B gets the other eight, hidden from the seat.
    for c in ["K", "Q", "R", "B", "N", "q", "b", "n"] {
        let e = t.act_chance(&format!("deal {c}")).unwrap();
        assert_eq!(e, "pile B gets a card");
    }
    assert_eq!(t.actor(), Actor::Seat(0, "act"));
    assert_eq!(t.state_text(), format!("{SEED} KQRBNqbn 0"));
    assert_eq!(t.observe(0), format!("{SEED} ???????? 0"));
    // The chance odds follow what is left: a card already out is refused.
    let mut t = game(&[]);
    t.act_chance("deal K").unwrap();
    assert!(t.act_chance("deal K").is_err());
    assert!(t.chances().iter().all(|(a, _)| a != "deal K"));
}

#[test]
fn the_knight_moves_the_bishop_to_exactly_its_five_squares() {
    let t = at(&format!("{SEED} KQRBNqbn 0"));
    assert_eq!(dests(t.as_ref(), "c1"), ["b2", "c5", "e1", "e5", "f4"]);
}

#[test]
fn the_king_and_the_bishop_examples() {
    let t = at(&format!("{SEED} KQRBNqbn 0"));
    // The king f2 moves the rook g1 to any other empty neighbour of f2.
    assert_eq!(dests(t.as_ref(), "g1"), ["e1", "e2", "e3", "f1", "g2", "g3"]);
    // The knight f3 is attacked by the king and the bishop e4: the king's ring, and the
    // bishop's rays with f3 lifted, the ray to g2 and h1 going on through f3.
    let f3 = dests(t.as_ref(), "f3");
    for s in [
        "e1", "f1", "e2", "g2", "e3", "g3", "h1", "f5", "g6", "h7", "d5", "c6", "b7", "a8",
    ] {
        assert!(f3.contains(&s.to_string()), "f3 to {s}: {f3:?}");
    }
    assert_eq!(f3.len(), 14, "{f3:?}");
    // A piece attacked by nothing of the other colour cannot be moved: the rook b4 is only
    // attacked by its own rook b3 and the black bishop does not reach it.
    assert!(dests(t.as_ref(), "b4").is_empty());
}

#[test]
fn an_add_counts_its_gap_after_the_last_piece() {
    // The 8 of diamonds (a white knight, gap 1) after the bishop e4: g4, not g7.
    let mut t = at(&format!("{SEED} NKQRBqbn 0"));
    let e = t.act("add").unwrap();
    assert_eq!(e, "add N g4");
    assert_eq!(t.state_text(), "8/8/8/8/1r2b1N1/1r1n1N2/5k2/2B3R1 KQRBqbn 1");
    // Past h8 the count goes on from a1, over empty squares only: a king (gap 6) after g8
    // skips h8, b1, c1, e1, f1, g1 (a1 and d1 are taken) and lands on h1.
    let mut t = at("6k1/8/8/8/1r2b3/1r1n1N2/5n2/R2B4 KQRBqbN 1");
    let e = t.act("add").unwrap();
    assert_eq!(e, "add K h1");
}

/// Eight pieces one move from one group: the white rook d1 moves the black knight d5 to d2,
/// which touches d1 and the column e2-e4.
const NEAR: &str = "8/8/3n4/8/4b3/4k3/4r3/QNBR4";

#[test]
fn connecting_all_pieces_wins_with_the_cards_left() {
    let mut t = at(&format!("{NEAR} KRBNqrbn 0"));
    let e = t.act("d6d2").unwrap();
    assert_eq!(e, "d6d2 end: connected: score 7");
    let o = t.outcome().unwrap();
    assert_eq!((o.result.as_str(), o.scores.clone()), ("win", vec![7.0]));
    assert_eq!(t.actor(), Actor::Over);
    // The knight moved to d3 instead touches e3 but not d1 (c2 and e2 only diagonally): the
    // game goes on.
    let mut t = at(&format!("{NEAR} KRBNqrbn 0"));
    t.act("d6d3").unwrap();
    assert_eq!(t.actor(), Actor::Seat(0, "act"));
    // The move spent the top card of pile B, unseen.
    assert_eq!(t.state_text(), "8/8/8/8/4b3/3nk3/4r3/QNBR4 RBNqrbn 1");
}

/// Contact counts only along ranks and files: eight pieces touching corner to corner are
/// eight groups, while eight side by side are one.
#[test]
fn diagonal_contact_does_not_connect() {
    let t = at("7k/6q1/5r2/4b3/3n4/2N5/1B6/R7 KQRBNrbn 0");
    assert_eq!(t.actor(), Actor::Seat(0, "act"));
    assert!(t.outcome().is_none());
    // Eight pieces side by side on a rank are one group: a state set so is already over.
    let t = at("8/8/8/8/8/8/8/RNBQKBNR kqrrbbn 1");
    let o = t.outcome().unwrap();
    assert_eq!((o.result.as_str(), o.scores[0]), ("win", 7.0));
}

#[test]
fn past_pile_b_each_move_counts_minus_one_down_to_minus_16() {
    // Pile B spent by eight moves: the same connecting move now scores -1.
    let mut t = at(&format!("{NEAR} - 8"));
    assert!(!t.actions().contains(&"add".to_string()));
    let e = t.act("d6d2").unwrap();
    assert!(e.ends_with("connected: score -1"), "{e}");
    assert_eq!(t.outcome().unwrap().result, "late");
    // At 23 spent, a move that does not connect reaches -16: lost.
    let mut t = at(&format!("{NEAR} - 23"));
    let e = t.act("d6d4").unwrap();
    assert!(e.ends_with("not connected: score -16"), "{e}");
    let o = t.outcome().unwrap();
    assert_eq!((o.result.as_str(), o.scores.clone()), ("loss", vec![-16.0]));
}

#[test]
fn bad_input_changes_nothing() {
    let mut t = at(&format!("{NEAR} KRBNqrbn 0"));
    let before = t.state_text();
    for (a, why) in [
        // The rook d1 attacks d6 but not c6; nothing else of White attacks d6.
        ("d6c6", "no enemy piece attacks d6"),
        // White's own pieces are not moved by White.
        ("a1a2", "no enemy piece attacks a1"),
        ("e9e8", "not a square"),
        ("fly", "not a Parade action"),
        ("deal K", "the deal is over"),
    ] {
        let e = t.act(a).unwrap_err().to_string();
        assert!(e.contains(why), "{a}: {e}");
        assert_eq!(t.state_text(), before, "{a}");
    }
    let mut t = at(&format!("{NEAR} - 8"));
    let e = t.act("add").unwrap_err().to_string();
    assert!(e.contains("pile B is empty"), "{e}");
    for bad in [
        // Nine pieces need one add, which takes a card: not with nothing spent.
        "8/8/3n4/8/4b3/4k3/4r3/QNBR3K RBNqrbn 0",
        // Nine pieces after one action leave seven cards in pile B, not six.
        "8/8/3n4/8/4b3/4k3/4r3/QNBR3K RBNqrb 1",
        // Fewer than eight pieces once the deal is over.
        "8/8/8/8/8/8/8/K7 - 3",
        "8/8/3n4/8/4b3/4k3/4r3/QNBR4 KRBNqrbn 4294967295",
        // A third white rook.
        "8/8/3n4/8/4b3/4k3/4r3/QNBR4 KRRNqrbn 0",
        "8/8/3n4/8/4b3/4k3/4r3/QNBR4 KRBNqrbn",
        "8/8/3n4/8/4b3/4k3/4r3/QNBR4 KRBNqrbx 0",
        "8/8/3n4/8/4b3/4k3/4r3/QNBR4 ???????? 0",
        "8/8/3n4/8/4b3/4k3/4r3/QNBR4 - 25",
    ] {
        let mut t = at(&format!("{NEAR} KRBNqrbn 0"));
        assert!(t.set_state(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), format!("{NEAR} KRBNqrbn 0"));
    }
    let s = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
    let e = new_table("parade", &s("bogus", "1")).err().unwrap();
    assert!(e.contains("unknown setting 'bogus'"), "{e}");
    assert!(new_table("parade", &s("open", "maybe")).is_err());
}

#[test]
fn the_seat_sees_pile_b_only_when_the_deal_is_open() {
    let hidden = at(&format!("{NEAR} KRBNqrbn 0"));
    assert_eq!(hidden.observe(0), format!("{NEAR} ???????? 0"));
    let mut open = game(&[("open", "on")]);
    open.set_state(&format!("{NEAR} KRBNqrbn 0")).unwrap();
    assert_eq!(open.observe(0), format!("{NEAR} KRBNqrbn 0"));
    // Along a dealt game the events never name a card of pile B.
    let mut t = game(&[]);
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(3);
    let mut events = Vec::new();
    while t.actor() == Actor::Chance {
        events.push(t.draw_chance(&mut rng).unwrap().1);
    }
    assert_eq!(events.iter().filter(|e| *e == "pile B gets a card").count(), 8);
    let pile = t.state_text().split(' ').nth(1).unwrap().to_string();
    assert!(!t.observe(0).contains(&pile));
}

/// The open-deal solver's best play is a real win, and no shorter one exists: every play of
/// one action less is searched exhaustively. The deals are fixed seeds whose best play is
/// short enough for that search (a solver that returned longer plays would make the search
/// deeper and find the shorter win).
#[test]
fn the_solver_optimum_holds_against_an_exhaustive_search() {
    for seed in [2u64, 3, 4, 6, 8, 9, 13, 15] {
        let mut t = game(&[("open", "on")]);
        menagerie::table::referee::deal(t.as_mut(), seed).unwrap();
        let best = t.deal_optimum(2_000_000).unwrap();
        assert!(best.proved, "seed {seed}");
        // The plan plays to a win with the score claimed.
        let mut play = t.clone_box();
        for a in &best.plan {
            play.act(a).unwrap_or_else(|e| panic!("seed {seed}: {a}: {e}"));
        }
        let o = play.outcome().unwrap();
        assert_eq!((o.result.as_str(), o.scores[0]), ("win", best.score), "seed {seed}");
        assert!(
            !wins_within(t.as_ref(), best.plan.len() as u32 - 1),
            "seed {seed}: a shorter win exists"
        );
    }
}

/// The solver from any state of a game, through the library: an open state one move from
/// connected is solved in one.
#[test]
fn the_solver_finds_the_one_move_win() {
    let mut g = Parade::new(&vec![("open".into(), "on".into())]).unwrap();
    TableGame::set_state(&mut g, &format!("{NEAR} KRBNqrbn 0")).unwrap();
    let sol = OpenDeal::new(&g).solve(g.board(), 100_000);
    assert!(sol.proved);
    let plan: Vec<String> = sol.actions.unwrap().iter().map(|a| a.to_string()).collect();
    // d6d2, or d6e1 (the rook d1 also reaches e1 along the first rank).
    assert!(plan == ["d6d2"] || plan == ["d6e1"], "{plan:?}");
}
