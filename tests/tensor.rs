//! Tensor Chess rules that perft counts alone do not pin down: what each move form does to the
//! board (and unmake restores), MMN text in and out, XBoard's projection, propels off under
//! XBoard, en passant after a pass-through, checks that FEN validation sees, and bad input.

use menagerie::cecp_highlight as highlight;
use menagerie::engine::{Notation, Session, new_session};
use menagerie::{Catalog, default_variants};

#[path = "common/play.rs"]
mod common_play;

fn play(fen: &'static str, moves: &'static [&'static str]) -> Vec<String> {
    common_play::play("tensor", fen, moves)
}

/// XBoard's form of a legal move written in MMN.
fn xboard_form(s: &mut dyn Session, mmn: &str) -> String {
    let m = s.parse(mmn, Notation::Mmn).unwrap();
    s.write(m.mv(), Notation::Xboard)
}

fn session() -> Box<dyn Session> {
    new_session(default_variants().get("tensor").unwrap())
}

const TZ1: &str = "9k/10/10/3PP5/2tTn5/2p7/10/K9 w - - 0 1";
const TZ3: &str = "10/10/7t2/2p7/10/4T5/10/2B2K3k w - - 0 1";
const TZ7: &str = "k9/10/10/2b7/10/10/10/5KT2R w K - 0 1";
const TZ8: &str = "9k/10/10/10/10/1T8/1P8/9K w - - 0 1";

#[test]
fn beast_capture_removes_the_victim_and_may_return_home() {
    let after = play(TZ1, &["d4xc4d4"]);
    assert_eq!(after[0], "9k/10/10/3PP5/3Tn5/2p7/10/K9 b - - 0 1");
    let after = play(TZ1, &["d4xc4b4"]);
    assert_eq!(after[0], "9k/10/10/3PP5/1T2n5/2p7/10/K9 b - - 0 1");
}

#[test]
fn propels_move_both_pieces() {
    // Rook a1 propels the beast on b1 back onto a1: a swap; the queen-side right goes.
    let start = "rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1";
    let after = play(start, &["a1b1>a1"]);
    assert_eq!(
        after[0],
        "rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/TRNBQKBNTR b Kkq - 1 1"
    );
    // Pawn propel (resets the half-move clock) and pass-through double step (no en passant).
    let after = play("9k/10/10/10/10/1T8/1P8/9K w - - 7 1", &["b2b3>b4"]);
    assert_eq!(after[0], "9k/10/10/10/1T8/1P8/10/9K b - - 0 1");
    let after = play(TZ8, &["b2b4"]);
    assert_eq!(after[0], "9k/10/10/10/1P8/1T8/10/9K b - - 0 1");
    // Knight propel onto the knight's own square (TZ-4).
    let after = play("10/4p5/6T3/10/5N3k/10/10/K9 w - - 0 1", &["f4g6>f4"]);
    assert_eq!(after[0], "10/4p5/6N3/10/5T3k/10/10/K9 b - - 1 1");
}

#[test]
fn castling_crosses_an_own_beast() {
    let after = play(TZ7, &["f1i1"]);
    assert_eq!(after[0], "k9/10/10/2b7/10/10/10/6TRK1 b - - 1 1");
}

#[test]
fn promotion_to_a_beast() {
    let mut s = session();
    s.set_fen("4k5/P9/10/10/10/10/10/4K5 w - - 0 1").unwrap();
    let moves = s.legal_texts();
    for p in ["a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7a8t"] {
        assert!(moves.contains(&p.to_string()), "{p} missing from {moves:?}");
    }
    s.play_text("a7a8t", Notation::Mmn).unwrap();
    assert_eq!(s.fen(), "T3k5/10/10/10/10/10/10/4K5 b - - 0 1");
}

#[test]
fn en_passant_but_not_after_a_pass_through() {
    let mut s = session();
    s.set_fen("4k5/3p6/10/4P5/10/10/10/4K5 b - - 0 1").unwrap();
    s.play_text("d7d5", Notation::Mmn).unwrap();
    assert!(s.fen().contains(" w - d6 "), "{}", s.fen());
    s.play_text("e5d6", Notation::Mmn).unwrap();
    assert_eq!(s.fen(), "4k5/10/3P6/10/10/10/10/4K5 b - - 0 2");
    // Over its own beast on d6: a pass-through, no en-passant square.
    s.set_fen("4k5/3p6/3t6/4P5/10/10/10/4K5 b - - 0 1").unwrap();
    s.play_text("d7d5", Notation::Mmn).unwrap();
    assert_eq!(s.fen(), "4k5/10/3t6/3pP5/10/10/10/4K5 w - - 0 2");
}

#[test]
fn waypoints_are_checked_and_dropped() {
    let mut s = session();
    s.set_fen(TZ3).unwrap();
    // c1 to e3 (own beast), bounce north-west to c5 capturing the pawn: the same move as c1c5.
    s.play_text("c1e3c5", Notation::Mmn).unwrap();
    let via = s.fen();
    s.set_fen(TZ3).unwrap();
    s.play_text("c1c5", Notation::Mmn).unwrap();
    assert_eq!(s.fen(), via);
    // Straight through the beast to g5.
    s.set_fen(TZ3).unwrap();
    s.play_text("c1e3g5", Notation::Mmn).unwrap();
    // d2 holds no beast: refused, nothing changes.
    s.set_fen(TZ3).unwrap();
    let err = s.play_text("c1d2c5", Notation::Mmn).unwrap_err();
    assert!(err.to_string().contains("the move does not pass that square"), "{err}");
    assert_eq!(s.fen(), TZ3);
    // A beast's chain named by a square it lands on: d4 over c4 to b4, back, over d5 to d6.
    s.set_fen(TZ1).unwrap();
    let err = s.play_text("d4f6d6", Notation::Mmn).unwrap_err();
    assert!(err.to_string().contains("the move does not pass that square"), "{err}");
    assert_eq!(s.fen(), TZ1);
    s.play_text("d4b4d6", Notation::Mmn).unwrap();
    assert_eq!(s.fen(), "9k/10/3T6/3PP5/2t1n5/2p7/10/K9 b - - 1 1");
}

#[test]
fn bad_tokens_are_clear_errors_and_change_nothing() {
    let mut s = session();
    s.set_fen(TZ3).unwrap();
    for (text, want) in [
        ("c1e3>xg5", "a propel cannot capture"),
        ("c1xe3", "a capture step needs a destination"),
        ("c1>e3", "a hand-off needs"),
        ("c1e3f4g5", "not a move form of this game"),
        ("c1e3>c5", "illegal"), // c5 is occupied: no propel there
        ("c1e3>", "not a move"),
        ("c1z3", "not a move"),
        ("c1c1", "illegal"),
        ("e3xh6j8", "illegal"),
        ("c1c5q", "illegal"),
    ] {
        let err = s.play_text(text, Notation::Mmn).unwrap_err();
        assert!(err.to_string().contains(want), "{text}: {err}");
        assert_eq!(s.fen(), TZ3, "{text} changed the position");
    }
}

#[test]
fn xboard_projection_in_and_out() {
    let mut s = session();
    s.set_fen(TZ1).unwrap();
    assert_eq!(xboard_form(&mut *s, "d4xc4d4"), "d4c4,c4d4");
    assert_eq!(xboard_form(&mut *s, "d4xc4b4"), "d4c4,c4b4");
    assert_eq!(xboard_form(&mut *s, "d4d6"), "d4d6");
    s.play_text("d4c4,c4d4", Notation::Xboard).unwrap();
    assert_eq!(s.fen(), "9k/10/10/3PP5/3Tn5/2p7/10/K9 b - - 0 1");
    s.set_fen(TZ7).unwrap();
    assert_eq!(xboard_form(&mut *s, "f1i1"), "f1i1,j1h1");
    s.play_text("f1i1,j1h1", Notation::Xboard).unwrap();
    assert_eq!(s.fen(), "k9/10/10/2b7/10/10/10/6TRK1 b - - 1 1");
    s.set_fen(TZ7).unwrap();
    let err = s.play_text("f1i1,j1g1", Notation::Xboard).unwrap_err();
    assert_eq!(err.reason(), "illegal");
    let err = s.play_text("f1i1,,", Notation::Xboard).unwrap_err();
    assert_eq!(err.reason(), "not a move");
    assert_eq!(s.fen(), TZ7);
}

#[test]
fn propels_are_off_where_the_gui_cannot_show_them() {
    let mut s = session();
    assert!(s.set_special_moves(false));
    let moves = s.legal_texts();
    assert_eq!(moves.len(), 28, "{moves:?}");
    assert!(moves.iter().all(|m| !m.contains('>')));
    assert!(s.play_text("a1b1>a1", Notation::Mmn).is_err());
    s.set_special_moves(true);
    assert_eq!(s.legal_texts().len(), 30);
}

#[test]
fn fen_validation_sees_checks_by_bounce_and_through_beasts() {
    let mut s = session();
    for fen in [
        "9k/10/10/10/10/2t7/10/b3K5 b - - 0 1", // bishop bounce off its beast
        "r8k/10/10/t9/10/10/10/K9 b - - 0 1",   // rook through its own beast
        "9k/10/10/10/1n8/3t6/10/4K5 b - - 0 1", // knight bounce
    ] {
        let err = s.set_fen(fen).unwrap_err().to_string();
        assert!(err.contains("White is in check"), "{fen}: {err}");
    }
    for fen in [
        "9k/10/10/10/10/2T7/10/b3K5 b - - 0 1", // the beast is White's: no bounce for Black
        "r8k/10/10/T9/10/10/10/K9 b - - 0 1",   // White's beast blocks
        "8Tk/10/10/10/10/10/10/K9 w - - 0 1",   // a beast never gives check
    ] {
        s.set_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
}

#[test]
fn settings_are_checked() {
    let base = menagerie::variant::DEFAULT_INI;
    for (from, to, want) in [
        ("rules.queen_propel = all", "rules.queen_propel = some", "queen_propel"),
        ("rules.en_passant = true", "rules.en_passant = maybe", "en_passant"),
        ("rules.beast = T", "rules.beast = X", "names no piece"),
    ] {
        let text = base.replace(from, to);
        let err = Catalog::parse(&text, "test.ini").unwrap_err().to_string();
        assert!(err.contains(want), "{to}: {err}");
    }
}

#[test]
fn queen_propel_mode_flag() {
    // Queen d1 reaches its beast on d3 orthogonally; with 'mode' the beast may only move
    // orthogonally on from d3.
    let fen = "9k/10/10/10/10/3T6/10/3Q2K3 w - - 0 1";
    let propels = |ini: &str| {
        let set = Catalog::parse(ini, "test.ini").unwrap();
        let mut s = new_session(set.get("tensor").unwrap());
        s.set_fen(fen).unwrap();
        let mut p: Vec<String> = s.legal_texts().into_iter().filter(|m| m.contains('>')).collect();
        p.sort();
        p
    };
    let all = propels(menagerie::variant::DEFAULT_INI);
    let text = menagerie::variant::DEFAULT_INI.replace("rules.queen_propel = all", "rules.queen_propel = mode");
    let mode = propels(&text);
    assert!(all.contains(&"d1d3>f5".to_string()), "{all:?}");
    assert!(!mode.contains(&"d1d3>f5".to_string()), "{mode:?}");
    assert!(mode.contains(&"d1d3>j3".to_string()), "{mode:?}");
    assert!(mode.iter().all(|m| all.contains(m)));
}

#[test]
fn highlighting_shows_capture_legs() {
    let mut s = session();
    s.set_fen(TZ1).unwrap();
    // Td4: steps c5 d3 e3, hops d6 f4 b4 f6 b2, and the black beast c4 as the intermediate
    // square (C) of the captures.
    assert_eq!(
        highlight(&mut *s, "d4", None).unwrap(),
        "10/10/3Y1Y4/2Y7/1YC2Y4/3YY5/1Y8/10"
    );
    // Second leg after dropping on c4: land on b4 or back on d4.
    assert_eq!(
        highlight(&mut *s, "d4", Some("c4")).unwrap(),
        "10/10/10/10/1R1R6/10/10/10"
    );
    assert_eq!(highlight(&mut *s, "d4", Some("e4")), None);
}

#[test]
fn random_move_tokens_never_panic_or_change_the_position() {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    let alphabet: Vec<char> = "abcdefghijkpqrtxz>,0123456789 é".chars().collect();
    let mut rng = StdRng::seed_from_u64(7);
    let mut s = session();
    for fen in [TZ1, TZ3, TZ7, TZ8] {
        s.set_fen(fen).unwrap();
        for _ in 0..3000 {
            let len = rng.random_range(0..16);
            let text: String = (0..len)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect();
            for xboard in [false, true] {
                let r = if xboard {
                    s.play_text(&text, Notation::Xboard)
                } else {
                    s.play_text(&text, Notation::Mmn)
                };
                if r.is_ok() {
                    s.undo();
                }
                assert_eq!(s.fen(), fen, "{text:?} left the position changed");
            }
        }
    }
}

#[test]
fn impossible_piece_counts_are_refused() {
    // 23 beasts around a queen: more pieces than a side ever has (20), refused with a clear
    // error instead of overflowing the move list.
    let mut s = session();
    let err = s
        .set_fen("T1K4T1k/T5T3/T4T4/T3T5/T2T6/T1T7/TT8/QTTTTTTTTT w - - 0 1")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("White has 25 pieces; no game of this variant has more than 20"),
        "{err}"
    );
    assert_eq!(s.fen(), default_variants().get("tensor").unwrap().start_fen);
}

#[test]
fn waypoint_edge_cases() {
    let mut s = session();
    s.set_fen(TZ1).unwrap();
    // The destination or the origin as its own waypoint is not a waypoint.
    assert!(s.play_text("d4d6d6", Notation::Mmn).is_err());
    assert!(s.play_text("d4d4d6", Notation::Mmn).is_err());
    assert_eq!(s.fen(), TZ1);
    // Castling may name a square the king crosses.
    s.set_fen(TZ7).unwrap();
    assert!(s.play_text("f1e1i1", Notation::Mmn).is_err());
    s.play_text("f1g1i1", Notation::Mmn).unwrap();
    assert_eq!(s.fen(), "k9/10/10/2b7/10/10/10/6TRK1 b - - 1 1");
}

#[test]
fn no_en_passant_from_a_fen_when_it_is_off() {
    let text = menagerie::variant::DEFAULT_INI.replace("rules.en_passant = true", "rules.en_passant = false");
    let set = Catalog::parse(&text, "test.ini").unwrap();
    let mut s = new_session(set.get("tensor").unwrap());
    s.set_fen("4k5/10/10/3pP5/10/10/10/4K5 w - d6 0 2").unwrap();
    assert!(!s.legal_texts().contains(&"e5d6".to_string()));
    let mut s = session();
    s.set_fen("4k5/10/10/3pP5/10/10/10/4K5 w - d6 0 2").unwrap();
    assert!(s.legal_texts().contains(&"e5d6".to_string()));
}
