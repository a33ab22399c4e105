//! The table-game layer and its first two games, Split-Brain and Telepathy
//! (`../shared/rules/chess-kit.md` sections 2, 3 and 10): the rules on hand-worked states, the
//! observation gate along random games, records that replay, and every kind of seat.

use menagerie::kit::new_table;
use menagerie::table::{record, referee};

#[path = "common/spy.rs"]
mod spy;
use menagerie::table::seats::{Answer, RandomSeat, Seat, make_seats};
use menagerie::table::{ActionError, Actor, Chance, GameInfo, Outcome, Seen, Settings, Table, Utility};
use spy::spied_game;

fn game(name: &str, settings: &[(&str, &str)]) -> Box<dyn Table> {
    let s: Settings = settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    new_table(name, &s).unwrap()
}

fn at(name: &str, state: &str) -> Box<dyn Table> {
    let mut t = game(name, &[]);
    t.set_state(state).unwrap_or_else(|e| panic!("{state}: {e}"));
    t
}

fn act(t: &mut Box<dyn Table>, a: &str) -> String {
    t.act(a).unwrap_or_else(|e| panic!("{a}: {e} in {}", t.state_text()))
}

// ---------------------------------------------------------------- Split-Brain

const LA_START: &str = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1";

#[test]
fn splitbrain_direct_move_and_roles() {
    let mut t = game("splitbrain", &[]);
    assert_eq!(t.state_text(), format!("{LA_START} k piece -,-"));
    // Round 1: the king-side players choose (White's seat 0 marks, seat 1 moves).
    assert_eq!(t.actor(), Actor::Seat(0, "piece"));
    assert_eq!(act(&mut t, "mark b2"), "piece marked");
    assert_eq!(t.actor(), Actor::Seat(1, "target"));
    assert_eq!(act(&mut t, "mark b3"), "marks b2 b3 direct move b2b3");
    // Black: seat 2 chooses, seat 3 moves; after Black's move the marker goes to the queen side.
    assert_eq!(t.actor(), Actor::Seat(2, "piece"));
    act(&mut t, "mark e5");
    assert_eq!(act(&mut t, "mark e4"), "marks e5 e4 direct move e5e4 marker q");
    // Round 2: the queen-side players choose.
    assert_eq!(t.actor(), Actor::Seat(1, "piece"));
    act(&mut t, "mark a2");
    assert_eq!(t.actor(), Actor::Seat(0, "target"));
}

#[test]
fn splitbrain_invalid_marks_snap_to_the_nearest_valid_square() {
    // The king on d1 has no move: the nearest pieces that can move are d2 and e1 (Manhattan 1
    // each), so the opponents' chooser (seat 2: Black on the marker's king side) picks.
    let mut t = game("splitbrain", &[]);
    act(&mut t, "mark d1");
    assert_eq!(act(&mut t, "mark d3"), "marks d1 d3");
    assert_eq!(t.actor(), Actor::Seat(2, "snap"));
    assert_eq!(t.actions(), ["snap d2", "snap e1"]);
    // d2 can go to d3: direct.
    assert_eq!(act(&mut t, "snap d2"), "snapped d1->d2 direct move d2d3");
    // One nearest square snaps without asking: a6 (Black's rook) is no piece of White's; a2 is
    // the only valid square at Manhattan 4 (b2 is 5 away, b1 6). The target a4 nobody can
    // reach snaps to a3 (a5 is not reachable either).
    let mut t = game("splitbrain", &[]);
    act(&mut t, "mark a6");
    assert_eq!(
        act(&mut t, "mark a4"),
        "marks a6 a4 snapped a6->a2 snapped a4->a3 direct move a2a3"
    );
}

#[test]
fn splitbrain_vector_marks() {
    // `marks=vector`: the mover marks a movement vector. At the start White's pieces can move
    // by +0+1 (the pawns) and -1+2, +1+2 (the knights).
    let v = [("marks", "vector")];
    let mut t = game("splitbrain", &v);
    act(&mut t, "mark b2");
    assert_eq!(t.actions().len(), 120);
    assert!(t.act("mark b3").is_err(), "a square is no vector");
    assert_eq!(act(&mut t, "vector +0+1"), "marks b2 +0+1 direct move b2b3");
    // The pawn cannot move like a knight: the opponents' chooser picks the mode. By piece: the
    // pawn's move nearest the vector; by target: a move by the vector, of the piece nearest b2.
    for (mode, event) in [
        ("mode piece", "mode piece move b2b3"),
        ("mode target", "mode target move b1c3"),
    ] {
        let mut t = game("splitbrain", &v);
        act(&mut t, "mark b2");
        assert_eq!(act(&mut t, "vector +1+2"), "marks b2 +1+2");
        assert_eq!(t.state_text(), format!("{LA_START} k mode b2,+1+2"));
        assert_eq!(act(&mut t, mode), event);
    }
    // An invalid vector snaps to the nearest valid one; equally near ones are the opponents'
    // chooser's pick.
    let mut t = game("splitbrain", &v);
    act(&mut t, "mark b1");
    assert_eq!(
        act(&mut t, "vector +2+2"),
        "marks b1 +2+2 snapped +2+2->+1+2 direct move b1c3"
    );
    let mut t = game("splitbrain", &v);
    act(&mut t, "mark e1");
    act(&mut t, "vector +0+2");
    assert_eq!(t.actor(), Actor::Seat(2, "snap"));
    assert_eq!(t.actions(), ["snap +0+1", "snap +1+2", "snap -1+2"]);
    assert_eq!(act(&mut t, "snap -1+2"), "snapped +0+2->-1+2 direct move e1d3");
    // The state text carries the vector and reads back.
    let mut t = game("splitbrain", &v);
    t.set_state(&format!("{LA_START} k snap-target e1,+0+2")).unwrap();
    assert_eq!(t.actions(), ["snap +0+1", "snap +1+2", "snap -1+2"]);
    assert!(t.set_state(&format!("{LA_START} k mode e1,+0+0")).is_err());
}

#[test]
fn splitbrain_chebyshev_setting_snaps_differently() {
    // From d1, Chebyshev distance 1 reaches c2, d2, e2 and e1 (c1 and the king cannot move).
    let mut t = game("splitbrain", &[("snap", "chebyshev")]);
    act(&mut t, "mark d1");
    act(&mut t, "mark d3");
    assert_eq!(t.actions(), ["snap c2", "snap d2", "snap e1", "snap e2"]);
    // The modes of step 3 measure by Manhattan whatever the snapping setting: from a2, c2 and
    // b1 are both 2 away, a tie (by Chebyshev b1 would be nearer).
    let mut t = game("splitbrain", &[("snap", "chebyshev")]);
    act(&mut t, "mark a2");
    act(&mut t, "mark c3");
    act(&mut t, "mode target");
    assert_eq!(t.actions(), ["move b1c3", "move c2c3"]);
    assert!(new_table("splitbrain", &vec![("snap".into(), "euclid".into())]).is_err());
    assert!(new_table("splitbrain", &vec![("bogus".into(), "1".into())]).is_err());
}

#[test]
fn splitbrain_modes_and_ties_by_hand() {
    // Piece a2, target c3: a2 cannot go to c3. Piece mode: a2's only move a2a3. Target mode:
    // c2c3 and b1c3 reach c3, both at Manhattan 2 from a2: a tie the team's chooser breaks.
    let mut t = game("splitbrain", &[]);
    act(&mut t, "mark a2");
    assert_eq!(act(&mut t, "mark c3"), "marks a2 c3");
    assert_eq!(t.actor(), Actor::Seat(2, "mode"));
    let mut piece = t.clone_box();
    assert_eq!(act(&mut piece, "mode piece"), "mode piece move a2a3");
    assert_eq!(act(&mut t, "mode target"), "mode target");
    assert_eq!(t.actor(), Actor::Seat(0, "tie"));
    assert_eq!(t.actions(), ["move b1c3", "move c2c3"]);
    assert_eq!(act(&mut t, "move b1c3"), "picked b1c3 move b1c3");
    // Piece mode with a tie: the knight on b1 marked, target e3. Its moves a3 (4 from e3) and
    // c3 (2): c3 alone, no tie. With the target d4 (empty, reachable by d2? no: d2-d3 only):
    // d4 is invalid and snaps to d3 (1) alone.
    let mut t = game("splitbrain", &[]);
    act(&mut t, "mark b1");
    assert_eq!(act(&mut t, "mark e3"), "marks b1 e3");
    assert_eq!(act(&mut t, "mode piece"), "mode piece move b1c3");
}

#[test]
fn splitbrain_promotion_is_chosen_by_the_partner_who_completes_the_move() {
    let mut t = at("splitbrain", "3k2/1P4/6/6/6/3K2 w - - 0 1 k piece -,-");
    act(&mut t, "mark b5");
    act(&mut t, "mark b6");
    // Direct: the mover (seat 1) picks among Q, R and N.
    assert_eq!(t.actor(), Actor::Seat(1, "promote"));
    assert_eq!(t.actions(), ["promote n", "promote q", "promote r"]);
    assert_eq!(act(&mut t, "promote n"), "promote n move b5b6n");
    assert!(t.state_text().starts_with("1N1k2/"), "{}", t.state_text());
}

#[test]
fn splitbrain_ends_by_mate_stalemate_repetition_and_the_fifty_move_rule() {
    // Mate: the rook goes to a6 (the black king on d6 is boxed in by the white king on d4).
    let mut t = at("splitbrain", "3k2/6/3K2/6/6/R5 w - - 0 1 k piece -,-");
    act(&mut t, "mark a1");
    let e = act(&mut t, "mark a6");
    assert!(e.ends_with("end white {White mates}"), "{e}");
    assert_eq!(t.actor(), Actor::Over);
    assert_eq!(t.outcome().unwrap().scores, [1.0, 1.0, 0.0, 0.0]);
    // Stalemate: Qc4-c5 leaves the black king on a6 without a move, not in check.
    let mut t = at("splitbrain", "k5/6/2K3/2Q3/6/6 w - - 0 1 k piece -,-");
    act(&mut t, "mark c3");
    let e = act(&mut t, "mark b4");
    assert!(e.ends_with("end draw {stalemate}"), "{e}");
    // Threefold repetition: both knights go out and back twice.
    let mut t = game("splitbrain", &[]);
    for (a, b) in [("b1", "a3"), ("b6", "a4"), ("a3", "b1"), ("a4", "b6")].repeat(2) {
        act(&mut t, &format!("mark {a}"));
        act(&mut t, &format!("mark {b}"));
    }
    assert_eq!(t.outcome().map(|o| o.reason), Some("threefold repetition".to_string()));
    // Off by setting.
    let mut t = game("splitbrain", &[("draws", "off")]);
    for (a, b) in [("b1", "a3"), ("b6", "a4"), ("a3", "b1"), ("a4", "b6")].repeat(2) {
        act(&mut t, &format!("mark {a}"));
        act(&mut t, &format!("mark {b}"));
    }
    assert_eq!(t.outcome(), None);
    // The 50-move rule: 99 quiet half-moves, then one more.
    let mut t = at("splitbrain", "3k2/6/6/6/6/R2K2 w - - 99 80 k piece -,-");
    act(&mut t, "mark a1");
    let e = act(&mut t, "mark a2");
    assert!(e.ends_with("end draw {50-move rule}"), "{e}");
}

#[test]
fn splitbrain_bad_input_changes_nothing() {
    let mut t = game("splitbrain", &[]);
    act(&mut t, "mark b2");
    let before = t.state_text();
    for bad in [
        "mark z9",
        "mark",
        "mode piece",
        "snap b2",
        "promote q",
        "move b2b3",
        "fly away",
        "",
    ] {
        assert!(t.act(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before, "{bad}");
    }
    for bad in [
        "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1 x piece -,-",
        "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1 k mode -,-",
        "rnqknr/pppppp/6 w - - 0 1 k piece -,-",
        "not a state",
    ] {
        assert!(t.set_state(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before);
    }
}

// ---------------------------------------------------------------- Telepathy

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn telepathy_turn_marker_and_hand_off() {
    let mut t = game("telepathy", &[]);
    assert_eq!(t.state_text(), format!("{START} 0 P,P NBRQKC,NBRQKC 0,2 - predict 0,0"));
    assert_eq!(t.actor(), Actor::Seat(0, "predict"));
    assert_eq!(
        t.actions(),
        ["card B", "card C", "card K", "card N", "card Q", "card R"]
    );
    assert_eq!(act(&mut t, "card N"), "predicted");
    assert_eq!(t.actor(), Actor::Seat(1, "move"));
    // A hit moves the marker one step towards Black's side (-1); the mover takes the hand and
    // the old face-up card (no checker on the table); N is the new face-up card; seat 1 predicts.
    assert_eq!(act(&mut t, "g1f3"), "move g1f3 N card N hit marker -1");
    assert!(
        t.state_text().ends_with(" -1 N,P BRQKCP,NBRQKC 1,2 - predict 0,0"),
        "{}",
        t.state_text()
    );
    // Black bets the checker on the face-up type (P) and moves a pawn: a hit, towards White.
    act(&mut t, "card C");
    assert_eq!(act(&mut t, "e7e5"), "move e7e5 P card C hit marker 0");
    // The checker goes back to the hand; the face-up card stays P.
    assert!(
        t.state_text().ends_with(" 0 N,P BRQKCP,NBRQKC 1,3 - predict 0,0"),
        "{}",
        t.state_text()
    );
    // White: a knight is face up; predicting a bishop and moving the knight is "same".
    act(&mut t, "card B");
    assert_eq!(act(&mut t, "f3g5"), "move f3g5 N card B same marker 0");
    // A miss moves the marker towards the mover's own side.
    act(&mut t, "card Q");
    assert_eq!(act(&mut t, "b8c6"), "move b8c6 N card Q miss marker -1");
}

#[test]
fn telepathy_overflow_makes_the_team_on_that_side_remove_a_piece() {
    // The marker on White's side (1) and White misses: White removes one of its own pieces,
    // never the king while it has another; the marker returns to the middle.
    let mut t = at("telepathy", &format!("{START} 1 P,P NBRQKC,NBRQKC 0,2 - predict"));
    act(&mut t, "card Q");
    // The mover is told why a move is refused, from the board it sees.
    assert_eq!(
        t.act("e2e5"),
        Err(ActionError::Illegal("the pawn on e2 may go to e3, e4 only".into()))
    );
    assert_eq!(
        t.act("e7e5"),
        Err(ActionError::Illegal("e7 holds a black pawn: not yours to move".into()))
    );
    assert_eq!(
        t.act("f1c4"),
        Err(ActionError::Illegal("the bishop on f1 has no legal move now".into()))
    );
    assert_eq!(act(&mut t, "g1f3"), "move g1f3 N card Q miss marker 0 overflow white");
    // Seat 0 predicted; seat 1 moved and now predicts; the removal falls to seat 0.
    assert_eq!(t.actor(), Actor::Seat(0, "remove"));
    let acts = t.actions();
    assert_eq!(acts.len(), 15, "{acts:?}");
    assert!(!acts.contains(&"remove e1".to_string()));
    // A refusal says why, and changes nothing.
    let before = t.state_text();
    assert_eq!(
        t.act("remove e1"),
        Err(ActionError::Illegal(
            "e1 holds the king; other white pieces remain".into()
        ))
    );
    assert_eq!(
        t.act("remove e7"),
        Err(ActionError::Illegal("e7 holds no white piece".into()))
    );
    assert_eq!(
        t.act("card Q"),
        Err(ActionError::Illegal("the question now is 'remove': remove a1, remove a2, remove b1, remove b2, remove c1, remove c2, remove d1, remove d2 (and 7 more)".into()))
    );
    assert_eq!(t.state_text(), before);
    assert_eq!(act(&mut t, "remove a1"), "removed a1 by white");
    assert_eq!(t.actor(), Actor::Seat(2, "predict"));
    // The rook is gone and so is White's queen-side castling right.
    assert!(
        t.state_text()
            .starts_with("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/1NBQKB1R b Kkq"),
        "{}",
        t.state_text()
    );
    // A success of Black's with the marker on White's side also costs White a piece.
    let mut t = at("telepathy", &format!("{START} 1 P,P NBRQKC,NBRQKC 0,2 - predict"));
    act(&mut t, "card Q");
    assert_eq!(act(&mut t, "e2e4"), "move e2e4 P card Q same marker 1");
    act(&mut t, "card C");
    assert_eq!(act(&mut t, "e7e5"), "move e7e5 P card C hit marker 0 overflow white");
}

#[test]
fn telepathy_castling_is_a_king_move_and_promotion_a_pawn_move() {
    let mut t = at(
        "telepathy",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1 0 P,P NBRQKC,NBRQKC 0,2 - predict",
    );
    act(&mut t, "card K");
    assert_eq!(act(&mut t, "e1g1"), "move e1g1 K card K hit marker -1");
    let mut t = at(
        "telepathy",
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 0 N,P PBRQKC,NBRQKC 0,2 - predict",
    );
    act(&mut t, "card P");
    assert_eq!(act(&mut t, "b7b8q"), "move b7b8q P card P hit marker -1");
    // En passant is a pawn move too.
    let mut t = at(
        "telepathy",
        "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1 0 N,P PBRQKC,NBRQKC 0,2 - predict",
    );
    act(&mut t, "card P");
    assert_eq!(act(&mut t, "d5e6"), "move d5e6 P card P hit marker -1");
}

/// Rules §2: "the losing team has to remove one of their pieces": a removal is not a move, so
/// the next mover may still take a double step en passant, and the half-move clock runs on.
#[test]
fn telepathy_a_removal_keeps_en_passant_and_the_clock() {
    let mut t = at(
        "telepathy",
        "4k3/6p1/8/8/6Pp/8/8/4K3 b - g3 7 40 0 P,P NBRQKC,NBRQKC 0,2 - remove-black",
    );
    act(&mut t, "remove g7");
    assert!(
        t.state_text().starts_with("4k3/8/8/8/6Pp/8/8/4K3 b - g3 7 40 "),
        "{}",
        t.state_text()
    );
    act(&mut t, "card B");
    assert!(t.actions().contains(&"h4g3".to_string()), "{:?}", t.actions());
    act(&mut t, "h4g3");
    assert!(
        t.state_text().starts_with("4k3/8/8/8/8/6p1/8/4K3 w - - 0 41 "),
        "{}",
        t.state_text()
    );
    // Removing the pawn that double-stepped ends the chance.
    let mut t = at(
        "telepathy",
        "4k3/6p1/8/8/6Pp/8/8/4K3 b - g3 7 40 0 P,P NBRQKC,NBRQKC 0,2 - remove-white",
    );
    act(&mut t, "remove g4");
    assert!(
        t.state_text().starts_with("4k3/6p1/8/8/7p/8/8/4K3 b - - 7 40 "),
        "{}",
        t.state_text()
    );
}

#[test]
fn telepathy_king_capture_after_an_exposed_king() {
    // White must remove a piece; only the rook shields its king from the black rook, and the
    // bishop cannot go: removing the rook exposes the king, Black may take it and wins.
    let mut t = at(
        "telepathy",
        "4r1k1/8/8/8/8/8/4R3/4K2B w - - 0 1 1 P,P NBRQKC,NBRQKC 0,2 - predict",
    );
    act(&mut t, "card Q");
    assert!(act(&mut t, "h1g2").ends_with("overflow white"));
    assert_eq!(t.actions(), ["remove e2", "remove g2"]);
    act(&mut t, "remove e2");
    act(&mut t, "card K");
    assert!(t.actions().contains(&"e8e1".to_string()), "{:?}", t.actions());
    let e = act(&mut t, "e8e1");
    assert!(e.ends_with(" end"), "{e}");
    assert_eq!(t.outcome().unwrap().reason, "Black captures the king");
    // The same exposed king set up as a state (the side not to move stands attacked), and an
    // engine seat reads it as its observation.
    let exposed = "4r1k1/8/8/8/8/8/8/4K2B b - - 0 1 0 P,P NBRQKC,NBRQKC 1,2 - predict";
    let mut t = at("telepathy", exposed);
    act(&mut t, "card R");
    act(&mut t, "e8e1");
    assert_eq!(t.outcome().unwrap().reason, "Black captures the king");
    // Both engine seats, the generic one (the default) and the hand-made one, predict and
    // then take the king.
    for options in [vec![("player".to_string(), "model".to_string())], vec![]] {
        let mut t = at("telepathy", exposed);
        let mut predictor = game("telepathy", &[]).engine_seat(2, &options, 1).unwrap();
        predictor.see(&Seen::from_text(exposed)).unwrap();
        let card = match predictor.ask(1, "predict", 30.0, &t.actions()) {
            Ok(Answer::Action(c)) if c.starts_with("card ") => c,
            other => panic!("{options:?}: {other:?}"),
        };
        act(&mut t, &card);
        let mut mover = game("telepathy", &[]).engine_seat(3, &options, 1).unwrap();
        mover.see(&t.seen(3)).unwrap();
        let answer = mover.ask(2, "move", 30.0, &t.actions());
        assert!(
            matches!(&answer, Ok(Answer::Action(m)) if m == "e8e1"),
            "{options:?}: {answer:?}"
        );
    }
    // A team with only its king must remove it, and loses (bare kings played on, as the rule
    // book has it).
    let mut t = game("telepathy", &[("bare_kings", "play")]);
    t.set_state("4k3/8/8/8/8/8/8/4K3 w - - 0 1 1 P,P NBRQKC,NBRQKC 0,2 - predict")
        .unwrap();
    act(&mut t, "card Q");
    act(&mut t, "e1d1");
    assert_eq!(t.actions(), ["remove d1"]);
    act(&mut t, "remove d1");
    assert_eq!(t.outcome().unwrap().result, "black");
}

#[test]
fn telepathy_bare_kings_end_at_once() {
    // Only the kings: the team to move cannot miss with its K card. With the marker on the
    // other team's side that hit overflows it: the team to move wins at once.
    let t = at(
        "telepathy",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -1 P,P NBRQKC,NBRQKC 0,2 - predict",
    );
    let o = t.outcome().expect("over at once");
    assert_eq!(
        (o.result.as_str(), o.reason.as_str()),
        ("white", "bare kings: White's certain hit overflows the marker")
    );
    // The marker in the middle, or on the mover's own side: a draw.
    for state in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 0 P,P NBRQKC,NBRQKC 0,2 - predict",
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1 -1 P,P NBRQKC,NBRQKC 0,2 - predict",
    ] {
        let t = at("telepathy", state);
        assert_eq!(t.outcome().expect(state).result, "draw", "{state}");
    }
    // Reached in play: White takes the last black piece with a hit (marker to Black's side,
    // -1); Black is to move with the marker on its own side: drawn.
    let mut t = at(
        "telepathy",
        "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1 0 P,P NBRQKC,NBRQKC 0,2 - predict",
    );
    act(&mut t, "card K");
    let e = act(&mut t, "e1e2");
    assert_eq!(e, "move e1e2 K card K hit marker -1 end");
    assert_eq!(t.outcome().unwrap().reason, "bare kings: every prediction hits");
    // `bare_kings=play` plays on.
    let mut t = game("telepathy", &[("bare_kings", "play")]);
    t.set_state("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -1 P,P NBRQKC,NBRQKC 0,2 - predict")
        .unwrap();
    assert!(t.outcome().is_none());
}

#[test]
fn telepathy_lone_minor_piece_ends_drawn() {
    let drawn = "lone minor piece: every prediction hits";
    // The outcome, if any, of a board, side to move and marker under `settings`.
    let end = |settings: &[(&str, &str)], head: &str| {
        let mut t = game("telepathy", settings);
        t.set_state(&format!("{head} P,P NBRQKC,NBRQKC 0,2 - predict")).unwrap();
        t.outcome()
    };
    // A knight or bishop against a bare king: drawn unless the team to predict has the marker
    // on the other team's side already (its hit would overflow it).
    for (settings, head) in [
        (&[][..], "4k3/8/8/8/8/8/8/3NK3 b - - 0 1 -1"),
        (&[], "4k3/8/8/8/8/8/8/3NK3 b - - 0 1 0"),
        (&[], "4k3/8/8/8/8/8/8/3NK3 w - - 0 1 0"),
        (&[], "4k3/8/8/8/8/8/8/3NK3 w - - 0 1 1"),
        (&[], "3bk3/8/8/8/8/8/8/4K3 b - - 0 1 0"),
        (&[], "3bk3/8/8/8/8/8/8/4K3 w - - 0 1 1"),
        (&[("removals_end", "6")], "4k3/8/8/8/8/8/8/3NK3 b - - 0 1 0"),
    ] {
        let o = end(settings, head).expect(head);
        assert_eq!((o.result.as_str(), o.reason.as_str()), ("draw", drawn), "{head}");
    }
    // Play goes on: the marker on the other team's side (either team to predict), a rook, a
    // pawn, two minor pieces, bare kings played on.
    for (settings, head) in [
        (&[][..], "4k3/8/8/8/8/8/8/3NK3 w - - 0 1 -1"),
        (&[], "4k3/8/8/8/8/8/8/3NK3 b - - 0 1 1"),
        (&[], "3bk3/8/8/8/8/8/8/4K3 b - - 0 1 1"),
        (&[], "3bk3/8/8/8/8/8/8/4K3 w - - 0 1 -1"),
        (&[], "4k3/8/8/8/8/8/8/3RK3 b - - 0 1 0"),
        (&[], "4k3/8/8/8/8/8/3P4/4K3 b - - 0 1 0"),
        (&[], "4k3/8/8/8/8/8/8/2BNK3 b - - 0 1 0"),
        (&[("bare_kings", "play")], "4k3/8/8/8/8/8/8/3NK3 b - - 0 1 0"),
    ] {
        assert!(end(settings, head).is_none(), "{settings:?} {head}");
    }
    // Reached in play: White's knight takes the last black piece with a hit (marker to Black's
    // side); Black, bare, is to predict: drawn.
    let mut t = at(
        "telepathy",
        "4k3/8/8/8/8/2r5/8/3NK3 w - - 0 1 0 P,P NBRQKC,NBRQKC 0,2 - predict",
    );
    act(&mut t, "card N");
    assert_eq!(act(&mut t, "d1c3"), "move d1c3 N card N hit marker -1 end");
    assert_eq!(t.outcome().unwrap().reason, drawn);
    // The same capture as a miss leaves the marker on White's side with Black to predict: Black's
    // king takes the knight with its hit, and White, left with its king, must remove it.
    let mut t = at(
        "telepathy",
        "8/8/8/8/3k4/2r5/8/3NK3 w - - 0 1 0 P,P NBRQKC,NBRQKC 0,2 - predict",
    );
    act(&mut t, "card K");
    assert_eq!(act(&mut t, "d1c3"), "move d1c3 N card K miss marker 1");
    assert!(t.outcome().is_none());
    act(&mut t, "card K");
    act(&mut t, "d4c3");
    assert_eq!(t.actions(), ["remove e1"]);
    act(&mut t, "remove e1");
    assert_eq!(t.outcome().unwrap().result, "black");
}

#[test]
fn telepathy_removals_end_after_n() {
    // `removals_end=2`: White has made one removal; its next overflow would be the second.
    let mut t = game("telepathy", &[("removals_end", "2")]);
    t.set_state(&format!("{START} 1 P,P NBRQKC,NBRQKC 0,2 - predict 1,0"))
        .unwrap();
    act(&mut t, "card Q");
    assert_eq!(
        act(&mut t, "g1f3"),
        "move g1f3 N card Q miss marker 0 overflow white end"
    );
    let o = t.outcome().unwrap();
    assert_eq!(
        (o.result.as_str(), o.reason.as_str()),
        ("black", "White forced into removal 2")
    );
    // The first removal is made, and counted in the state.
    let mut t = game("telepathy", &[("removals_end", "2")]);
    t.set_state(&format!("{START} 1 P,P NBRQKC,NBRQKC 0,2 - predict 0,0"))
        .unwrap();
    act(&mut t, "card Q");
    act(&mut t, "g1f3");
    act(&mut t, "remove a1");
    assert!(t.state_text().ends_with(" predict 1,0"), "{}", t.state_text());
    // Without the setting the counts are kept but end nothing.
    let mut t = at("telepathy", &format!("{START} 1 P,P NBRQKC,NBRQKC 0,2 - predict 5,0"));
    act(&mut t, "card Q");
    assert!(act(&mut t, "g1f3").ends_with("overflow white"));
    assert!(t.outcome().is_none());
}

#[test]
fn telepathy_faceup_off_after_eight_lost() {
    // White has lost 8 pieces (a king and seven pawns left): with `faceup=off8` its face-up
    // card goes into the hand for good, and it predicts from seven cards.
    let lost8 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/4K3 w kq - 0 1 0 N,P PBRQKC,NBRQKC 0,2 - predict";
    let mut t = game("telepathy", &[("faceup", "off8")]);
    t.set_state(lost8).unwrap();
    assert!(t.state_text().contains(" -,P PBRQKCN,NBRQKC "), "{}", t.state_text());
    assert_eq!(t.actions().len(), 7);
    // A checker copies no face-up card: a miss; the card returns to the hand.
    act(&mut t, "card C");
    assert_eq!(act(&mut t, "a2a3"), "move a2a3 P card C miss marker 1");
    assert!(t.state_text().contains(" -,P PBRQKNC,NBRQKC "), "{}", t.state_text());
    // Black's turn ("same": its face-up P moved), then White's again: a hit is a hit.
    act(&mut t, "card N");
    assert_eq!(act(&mut t, "e7e6"), "move e7e6 P card N same marker 1");
    act(&mut t, "card K");
    assert_eq!(act(&mut t, "e1d1"), "move e1d1 K card K hit marker 0");
    // The rule book's game keeps the face-up card, and refuses none in a state.
    let mut t = at("telepathy", lost8);
    assert!(t.state_text().contains(" N,P PBRQKC,NBRQKC "), "{}", t.state_text());
    let e = t.set_state(&lost8.replace("N,P PBRQKC", "-,P PBRQKCN")).unwrap_err();
    assert!(e.starts_with("face-up card '-'"), "{e}");
}

#[test]
fn telepathy_bad_input_changes_nothing() {
    let mut t = game("telepathy", &[]);
    let before = t.state_text();
    for bad in ["card X", "card", "e2e4", "remove e2", "card PP", ""] {
        assert!(t.act(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before);
    }
    act(&mut t, "card N");
    let before = t.state_text();
    for bad in ["e2e5", "card B", "z9z9", "remove e2"] {
        assert!(t.act(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before);
    }
    for bad in [
        format!("{START} 0 C,P NBRQKP,NBRQKC 0,2 - predict"),
        format!("{START} 0 P,P NBRQK,NBRQKC 0,2 - predict"),
        format!("{START} 3 P,P NBRQKC,NBRQKC 0,2 - predict"),
        format!("{START} 0 P,P NBRQKC,NBRQKC 2,2 - predict"),
        format!("{START} 0 P,P NBRQKC,NBRQKC 0,2 Q predict"),
    ] {
        assert!(t.set_state(&bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before);
    }
}

// ---------------------------------------------------------------- the layer, every game

/// Split-Brain: the piece mark is secret until the target mark reveals both; only its chooser
/// sees it. Telepathy: the face-down card (and the hand it left) only its predictor sees.
#[test]
fn observation_gate_along_random_games() {
    let (mut checked_sb, mut checked_tp) = (0, 0);
    for seed in 1..=12 {
        let (p, lines) = spied_game("splitbrain", seed);
        assert!(p.steps > 20);
        for (seat, l) in &lines {
            if let Some(o) = l.strip_prefix("see ") {
                let w: Vec<&str> = o.split_whitespace().collect();
                if w[7] == "target" {
                    let team = usize::from(w[1] == "b");
                    let chooser = team * 2 + usize::from(w[6] == "q");
                    let (mark, rest) = w[8].split_once(',').unwrap();
                    assert_eq!(rest, "-", "{o}");
                    assert_eq!(mark == "?", *seat != chooser, "seat {seat} sees {o}");
                    checked_sb += 1;
                }
            } else if l.contains("piece marked") {
                assert_eq!(l, "event piece marked");
            }
        }
        let (p, lines) = spied_game("telepathy", seed);
        assert!(p.steps > 20);
        for (seat, l) in &lines {
            if let Some(o) = l.strip_prefix("see ") {
                let w: Vec<&str> = o.split_whitespace().collect();
                if w[11] == "move" {
                    let side = usize::from(w[1] == "b");
                    let predictor: usize = w[9].split(',').nth(side).unwrap().parse().unwrap();
                    let hand = w[8].split(',').nth(side).unwrap();
                    let hidden = *seat != predictor;
                    assert_eq!(w[10] == "?", hidden, "seat {seat} sees {o}");
                    assert_eq!(hand == "?", hidden, "seat {seat} sees {o}");
                    checked_tp += 1;
                }
            } else if l.starts_with("event predicted") {
                assert_eq!(l, "event predicted");
            }
        }
    }
    assert!(checked_sb > 500 && checked_tp > 500, "{checked_sb} {checked_tp}");
}

/// Telepathy's invariants along random games: six cards in hand when no card is face down,
/// the checker never face up, the marker within -1..1.
#[test]
fn telepathy_invariants_along_random_games() {
    for seed in 1..=10 {
        let (p, lines) = spied_game("telepathy", seed);
        assert!(p.steps > 20);
        for (_, l) in lines.iter().filter(|l| l.0 == 0) {
            let Some(o) = l.strip_prefix("see ") else { continue };
            let w: Vec<&str> = o.split_whitespace().collect();
            let marker: i32 = w[6].parse().unwrap();
            assert!((-1..=1).contains(&marker), "{o}");
            assert!(!w[7].contains('C'), "{o}");
            if w[10] == "-" {
                assert!(w[8].split(',').all(|h| h.len() == 6), "{o}");
            }
        }
    }
}

/// A record replays to the same game: chance is redealt from the seed and Menagerie's seats
/// decide again, so a changed event, seed or seat list is caught at the first line it changes.
#[test]
fn records_replay_to_the_same_game() {
    for name in menagerie::kit::names() {
        for seed in [4, 5] {
            let mut t = game(name, &[]);
            let n = t.seats();
            let names: Vec<String> = (0..n)
                .map(|i| if i % 2 == 0 { "engine" } else { "random" }.to_string())
                .collect();
            let mut seats = make_seats(t.as_ref(), &names, seed, 30.0).unwrap();
            let p = referee::play(t.as_mut(), &mut seats, seed, &names, &Vec::new(), true, 30.0);
            let replay = |lines: &[String]| {
                let games = record::games(&(lines.join("\n") + "\n"), new_table)?;
                record::replay(&games[0], new_table, 30.0, None)
            };
            match replay(&p.record) {
                Ok(record::Replayed::Agrees(q)) => assert_eq!((q.outcome, q.steps), (p.outcome.clone(), p.steps)),
                other => panic!("{name}: {other:?}"),
            }
            // A changed event is caught.
            let mut bad = p.record.clone();
            let i = bad.iter().rposition(|l| l.contains("\"event\":\"")).unwrap();
            bad[i] = bad[i].replacen("\"event\":\"", "\"event\":\"x", 1);
            let e = replay(&bad).unwrap_err();
            assert!(
                e.starts_with(&format!("line {}: the record has ", i + 1)),
                "{name}: {e}"
            );
            // So are another seed and other seats (engine and random swapped).
            let mut bad = p.record.clone();
            bad[0] = bad[0].replacen(&format!("\"seed\":\"{seed}\""), "\"seed\":\"99\"", 1);
            assert!(replay(&bad).is_err(), "{name}: seed");
            let mut bad = p.record.clone();
            bad[0] = bad[0].replacen("\"seats\":[\"engine\"", "\"seats\":[\"random\"", 1);
            assert_ne!(bad[0], p.record[0]);
            assert!(replay(&bad).is_err(), "{name}: seats");
        }
    }
}

/// The same seed, seats and settings give the same game, and Menagerie's own players finish
/// every game without losing a seat: each observation a real game sends is one they read.
#[test]
fn seeded_games_repeat_and_engines_never_forfeit() {
    for name in menagerie::kit::names() {
        let run = |seed: u64| {
            let mut t = game(name, &[]);
            let n = t.seats();
            let mut seats: Vec<Box<dyn Seat>> = (0..n)
                .map(|i| t.engine_seat(i, &Vec::new(), seed * 7 + i as u64).unwrap())
                .collect();
            referee::play(
                t.as_mut(),
                &mut seats,
                seed,
                &vec!["engine".to_string(); n],
                &Vec::new(),
                true,
                30.0,
            )
            .record
        };
        let first = run(3);
        let end = first.last().expect("a result line");
        assert!(!end.contains("forfeit"), "{name}: {end}");
        assert_eq!(first, run(3), "{name}");
    }
}

// ---------------------------------------------------------------- chance, on a game of the test

/// A game of the test's own with a chance step: a die is rolled (1..6, each 1/6), then seat 0
/// guesses odd or even; right wins.
#[derive(Clone)]
struct Dice {
    roll: Option<u8>,
    guess: Option<bool>,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum DiceAction {
    Roll(u8),
    Guess(bool),
}

impl std::fmt::Display for DiceAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiceAction::Roll(n) => write!(f, "roll {n}"),
            DiceAction::Guess(odd) => write!(f, "{}", if *odd { "odd" } else { "even" }),
        }
    }
}

/// The dice game's observation: the roll, once rolled. Its text cannot be read back, so a
/// seat that reads it works only from the value.
#[derive(Clone, PartialEq)]
struct DiceView(Option<u8>);

impl std::fmt::Display for DiceView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

static DICE_INFO: GameInfo = GameInfo {
    chance: Chance::Explicit,
    utility: Utility::Identical,
    ..GameInfo::new("dice", &[1], &["guesser"])
};

impl menagerie::table::TableGame for Dice {
    type Action = DiceAction;
    fn info(&self) -> &'static GameInfo {
        &DICE_INFO
    }
    fn seats(&self) -> usize {
        1
    }
    fn roles(&self, _: usize) -> Vec<&'static str> {
        vec!["guesser"]
    }
    fn actor(&self) -> Actor {
        match (self.roll, self.guess) {
            (None, _) => Actor::Chance,
            (Some(_), None) => Actor::Seat(0, "guess"),
            _ => Actor::Over,
        }
    }
    fn legal_actions(&self) -> Vec<DiceAction> {
        if self.roll.is_some() && self.guess.is_none() {
            vec![DiceAction::Guess(true), DiceAction::Guess(false)]
        } else {
            vec![]
        }
    }
    fn parse_action(&self, text: &str) -> Result<DiceAction, String> {
        match text {
            "odd" => Ok(DiceAction::Guess(true)),
            "even" => Ok(DiceAction::Guess(false)),
            t => t
                .strip_prefix("roll ")
                .and_then(|n| n.parse().ok())
                .map(DiceAction::Roll)
                .ok_or("bad".into()),
        }
    }
    fn apply(&mut self, a: &DiceAction) -> Result<String, String> {
        match a {
            DiceAction::Roll(n) => self.roll = Some(*n),
            DiceAction::Guess(g) => self.guess = Some(*g),
        }
        Ok(a.to_string())
    }
    fn chance_outcomes(&self) -> Vec<(DiceAction, f64)> {
        if self.roll.is_none() {
            (1..=6).map(|n| (DiceAction::Roll(n), 1.0 / 6.0)).collect()
        } else {
            vec![]
        }
    }
    type Observation = DiceView;
    fn read_observation(&self, text: &str) -> Result<DiceView, String> {
        Err(format!("the dice game reads no observation text ('{text}')"))
    }
    fn observation(&self, _: usize) -> DiceView {
        DiceView(self.roll)
    }
    fn sample_observed(&self, _: usize, view: &DiceView, _: &mut rand::rngs::StdRng) -> Result<Dice, String> {
        Ok(Dice {
            roll: view.0,
            guess: None,
        })
    }
    fn state_text(&self) -> String {
        format!("{:?} {:?}", self.roll, self.guess)
    }
    fn set_state(&mut self, _: &str) -> Result<(), String> {
        Err("not here".into())
    }
    fn outcome(&self) -> Option<Outcome> {
        let (r, g) = (self.roll?, self.guess?);
        let won = (r % 2 == 1) == g;
        Some(Outcome {
            scores: vec![if won { 1.0 } else { 0.0 }],
            result: if won { "won" } else { "lost" }.into(),
            reason: format!("rolled {r}"),
        })
    }
    fn forfeit(&self, _: usize, why: &str) -> Outcome {
        Outcome {
            scores: vec![0.0],
            result: "lost".into(),
            reason: why.into(),
        }
    }
    fn engine_seat(&self, _: usize, _: &Settings, seed: u64) -> Result<Box<dyn Seat>, String> {
        Ok(Box::new(RandomSeat::new(seed)))
    }
}

/// The referee draws chance from its seeded generator, records it as a chance step, and a
/// replay applies the same outcome; other seeds roll other numbers.
#[test]
fn chance_is_drawn_from_the_seed_and_replays() {
    let play = |seed: u64| {
        let mut t: Box<dyn Table> = Box::new(Dice {
            roll: None,
            guess: None,
        });
        let mut seats: Vec<Box<dyn Seat>> = vec![Box::new(RandomSeat::new(1))];
        referee::play(
            t.as_mut(),
            &mut seats,
            seed,
            &["random".to_string()],
            &Vec::new(),
            true,
            1.0,
        )
    };
    let a = play(8);
    assert_eq!(a.record, play(8).record);
    assert!(
        a.record[1].starts_with("{\"seat\":\"chance\",\"action\":\"roll "),
        "{:?}",
        a.record
    );
    let rolls: std::collections::BTreeSet<String> = (0..40).map(|s| play(s).outcome.reason).collect();
    assert_eq!(rolls.len(), 6, "{rolls:?}");
}

/// The referee hands Menagerie's own seats each observation as the game's value: the generic
/// player plays the dice game, whose observation text cannot be read back, to its end, and
/// is refused the same observation as text.
#[test]
fn own_seats_are_handed_observations_as_values() {
    for seed in 0..4 {
        let mut t: Box<dyn Table> = Box::new(Dice {
            roll: None,
            guess: None,
        });
        let options = vec![("iterations".to_string(), "50".to_string())];
        let mut seats = vec![t.mcts_seat(0, &options, seed).unwrap()];
        let played = referee::play(
            t.as_mut(),
            &mut seats,
            seed,
            &["mcts".to_string()],
            &Vec::new(),
            true,
            1.0,
        );
        // The roll seen, the search guesses right.
        assert_eq!(played.outcome.result, "won", "{:?}", played.outcome);
    }
    let t = Dice {
        roll: Some(3),
        guess: None,
    };
    let mut seat = Table::mcts_seat(&t, 0, &Vec::new(), 1).unwrap();
    assert!(seat.see(&Table::seen(&t, 0)).is_ok());
    let refused = seat.see(&Seen::from_text(&Table::observe(&t, 0)));
    assert!(
        matches!(&refused, Err(e) if e.to_string().contains("reads no observation text")),
        "{refused:?}"
    );
}

/// A seat's observation is not a true state: where it hides something (another hand, the
/// pile's cards, a cloaked type) the referee refuses it as a state, so a view can never be
/// taken for the game.
#[test]
fn an_observation_with_hidden_parts_is_not_a_state() {
    use menagerie::table::seats::RandomSeat;
    // Steps into each game: Parade's pile B is empty (and so public) after 16 deals and 8
    // actions.
    for (name, steps) in [
        ("cloak", 30),
        ("coop2", 30),
        ("booster", 30),
        ("parade", 20),
        ("neighbour", 40),
    ] {
        let mut refused = 0;
        for seed in 0..4 {
            let mut t = game(name, &[]);
            let mut rng = RandomSeat::new(seed);
            let mut rng_chance = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed);
            for _ in 0..steps {
                match t.actor() {
                    Actor::Over => break,
                    Actor::Chance => {
                        t.draw_chance(&mut rng_chance).unwrap();
                    }
                    Actor::Seat(_, kind) => {
                        let legal = t.actions();
                        let Answer::Action(a) = rng.ask(0, kind, 1.0, &legal).unwrap() else {
                            panic!("a random seat answers an action")
                        };
                        t.act(&a).unwrap();
                    }
                }
            }
            for seat in 0..t.seats() {
                let obs = t.observe(seat);
                if obs != t.state_text() {
                    let mut fresh = game(name, &[]);
                    assert!(fresh.set_state(&obs).is_err(), "{name}: {obs}");
                    // The true state itself is taken, and reads back the same.
                    fresh.set_state(&t.state_text()).unwrap();
                    assert_eq!(fresh.state_text(), t.state_text(), "{name}");
                    refused += 1;
                }
            }
        }
        assert!(refused >= 4, "{name}: {refused}");
    }
}

/// Every state the rules console prints is one it takes back (`state TEXT`), at every step of
/// seeded games of every table game, over and all (a finished game's text ends with its
/// result): the same text comes out again.
#[test]
fn every_printed_state_reads_back() {
    let mut failures = Vec::new();
    let mut cases: Vec<(&str, Vec<(&str, &str)>)> = menagerie::kit::names().iter().map(|n| (*n, vec![])).collect();
    cases.extend([
        ("coop2", vec![("seats", "1")]),
        ("coop2", vec![("check", "allow")]),
        ("telepathy", vec![("draws", "on")]),
        ("parade", vec![("open", "on")]),
    ]);
    for (name, settings) in &cases {
        let name = *name;
        for seed in 0..10u64 {
            let game = |_: &str, _: &[(&str, &str)]| game(name, settings);
            let mut t = game(name, &[]);
            let mut pick = RandomSeat::new(seed);
            let mut chance = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed);
            for step in 0..3000 {
                let text = t.state_text();
                let mut fresh = game(name, &[]);
                match fresh.set_state(&text) {
                    Err(e) => {
                        failures.push(format!("{name} seed {seed} step {step}: {e}: {text}"));
                        break;
                    }
                    Ok(()) if fresh.state_text() != text => {
                        failures.push(format!(
                            "{name} seed {seed} step {step}: {text} reads back as {}",
                            fresh.state_text()
                        ));
                        break;
                    }
                    Ok(()) => {}
                }
                match t.actor() {
                    Actor::Over => break,
                    Actor::Chance => {
                        t.draw_chance(&mut chance).unwrap();
                    }
                    Actor::Seat(_, kind) => {
                        let legal = t.actions();
                        let Answer::Action(a) = pick.ask(0, kind, 1.0, &legal).unwrap() else {
                            panic!("a random seat answers an action")
                        };
                        t.act(&a)
                            .unwrap_or_else(|e| panic!("{name} seed {seed}: {a}: {e} in {}", t.state_text()));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A board the game cannot reach is refused with the reason: Split-Brain without kings or
/// with two; Cooperative Chess 2 and Telepathy with no king or eight a side while playing.
#[test]
fn boards_without_one_king_a_side_are_refused() {
    for (name, state, why) in [
        ("splitbrain", "6/6/6/6/6/6 w - - 0 1 k piece -,-", "White has 0 kings"),
        (
            "splitbrain",
            "rnqknr/pppppp/6/6/PPPPPP/RNKKNR w - - 0 1 k piece -,-",
            "White has 2 kings",
        ),
        (
            "coop2",
            "8/8/8/8/8/8/8/R3K3 w - - 0 1 kRp - -,- BBKNNPPPPPPPPQRbbnnpppppppqrr 20 30 capture",
            "Black has 0 kings",
        ),
        (
            "coop2",
            "KKKKKKKK/8/8/8/8/8/8/kkkkkkkk w - - 0 1 kRp - -,- BBKNNPPPPPPPPQRbbnnpppppppqrr 20 30 capture",
            "White has 8 kings",
        ),
        (
            "telepathy",
            "8/8/8/8/8/8/8/4K3 w - - 0 1 0 P,P NBRQKC,NBRQKC 0,2 - predict",
            "Black has 0 kings",
        ),
    ] {
        let mut t = game(name, &[]);
        let before = t.state_text();
        let e = t.set_state(state).unwrap_err();
        assert!(e.starts_with(why), "{name}: {e}");
        assert_eq!(t.state_text(), before);
    }
}
