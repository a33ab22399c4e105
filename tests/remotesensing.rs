//! Remote Sensing rules that perft counts alone do not pin down: what a king capture removes
//! and puts back, bins as sets, the end of the game, FEN bins in and out, and bad input.

use menagerie::cecp_highlight as highlight;
use menagerie::engine::{Notation, Session, new_session};
use menagerie::{Catalog, Color, default_variants};

#[path = "common/play.rs"]
mod common_play;

fn play(fen: &'static str, moves: &'static [&'static str]) -> Vec<String> {
    common_play::play("remotesensing", fen, moves)
}

/// A fresh Remote Sensing session.
fn session() -> Box<dyn Session> {
    new_session(default_variants().get("remotesensing").unwrap())
}

#[test]
fn king_one_capture_removes_on_board_sensors() {
    // rules/remote-sensing.md RS-6, the FEN after Re1xe5 given there.
    let after = play("fmu1d4/9/9/9/4k4/9/9/9/K3R3D w - - 0 1 [-/-/-/-]", &["e1e5"]);
    assert_eq!(after[0], "2u1d4/9/9/9/4R4/9/9/9/K7D[-/-/-/K] b - - 0 1");
}

#[test]
fn king_two_capture_removes_all_off_board_sensors_of_that_side() {
    // Black King II on e5 (dark); black off-board sensors u a9, w b9 and a v on h2 (where a
    // promoted one would stand); the on-board sensor f c9 stays. The bin Black-on-dark gets K.
    let after = play("uwf1k4/9/9/9/4d4/9/9/7v1/K3R4 w - - 0 1", &["e1e5"]);
    assert_eq!(after[0], "2f1k4/9/9/9/4R4/9/9/9/K8[-/-/-/K] b - - 0 1");
}

#[test]
fn bins_are_sets_keyed_by_owner_and_square_colour() {
    // Black pawns on b7 and d7 (both light: file + rank odd with a = 1).
    let after = play(
        "4k4/9/1p1p5/9/9/9/9/9/1R2K4 w - - 0 1",
        &["b1b7", "e9e8", "b7d7", "e8d7", "e1f2"],
    );
    assert_eq!(after[0], "4k4/9/1R1p5/9/9/9/9/9/4K4[-/-/P/-] b - - 0 1");
    // A second pawn captured on a light square adds nothing: bins are sets.
    assert_eq!(after[2], "9/4k4/3R5/9/9/9/9/9/4K4[-/-/P/-] b - - 0 2");
    // The black king takes the rook on d7 (light): White-on-light gets R.
    assert_eq!(after[3], "9/9/3k5/9/9/9/9/9/4K4[R/-/P/-] w - - 0 3");
    // The bins stay through quiet moves.
    assert_eq!(after[4], "9/9/3k5/9/9/9/9/5K3/9[R/-/P/-] b - - 1 3");
}

#[test]
fn a_dark_square_capture_goes_to_the_dark_bin() {
    // Knight takes the pawn on c5 (3 + 5 even: dark).
    let after = play("4k4/9/9/9/2p6/9/3N5/9/4K4 w - - 0 1", &["d3c5"]);
    assert_eq!(after[0], "4k4/9/9/9/2N6/9/9/9/4K4[-/-/-/P] b - - 0 1");
}

#[test]
fn losing_both_kings_ends_the_game() {
    let mut s = session();
    s.set_fen("3d5/9/9/9/9/9/9/9/3RK4 w - - 0 1 [-/-/-/K]").unwrap();
    assert!(s.outcome().is_none());
    s.play_text("d1d9", Notation::Mmn).unwrap();
    assert!(s.legal_texts().is_empty());
    let o = s.outcome().expect("game over");
    assert_eq!(o.winner(), Some(Color::White), "{o:?}");
    assert!(s.fen().contains("[-/-/K/K]"), "{}", s.fen());
}

#[test]
fn losing_one_king_does_not_end_the_game() {
    let mut s = session();
    s.set_fen("fmu1d4/9/9/9/4k4/9/9/9/K3R3D w - - 0 1").unwrap();
    s.play_text("e1e5", Notation::Mmn).unwrap();
    assert!(s.outcome().is_none());
    assert!(!s.legal_texts().is_empty());
}

#[test]
fn fen_bins_in_every_accepted_place() {
    let mut s = session();
    let want = "4k4/9/9/9/9/4U4/9/9/K8[N/R/-/-] w - - 0 1";
    for fen in [
        "4k4/9/9/9/9/4U4/9/9/K8[N/R/-/-] w - - 0 1",
        "4k4/9/9/9/9/4U4/9/9/K8 w - - 0 1 [N/R/-/-]",
        "4k4/9/9/9/9/4U4/9/9/K8 w [N/R/-/-]",
        "4k4/9/9/9/9/4U4/9/9/K8[n/r/-/-] w - - 0 1",
    ] {
        s.set_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(s.fen(), want, "{fen}");
    }
    s.set_fen("4k4/9/9/9/9/4U4/9/9/K8 w - - 0 1").unwrap();
    assert_eq!(s.fen(), "4k4/9/9/9/9/4U4/9/9/K8[-/-/-/-] w - - 0 1");
}

#[test]
fn bad_bins_are_clear_errors_and_change_nothing() {
    let mut s = session();
    let before = s.fen();
    for (fen, want) in [
        ("4k4/9/9/9/9/4U4/9/9/K8[F/-/-/-] w - - 0 1", "'F' cannot be in a bin"),
        ("4k4/9/9/9/9/4U4/9/9/K8[D/-/-/-] w - - 0 1", "'D' cannot be in a bin"),
        ("4k4/9/9/9/9/4U4/9/9/K8[N/R/-] w - - 0 1", "expected four bins"),
        ("4k4/9/9/9/9/4U4/9/9/K8[N//-/-] w - - 0 1", "bin 2 is empty"),
        ("4k4/9/9/9/9/4U4/9/9/K8[N/R/-/- w - - 0 1", "do not end with ']'"),
        ("4k4/9/9/9/9/4U4/9/9/K8 w - - 0 1 [N/R/-/-", "do not end with ']'"),
    ] {
        let err = s.set_fen(fen).expect_err(fen).to_string();
        assert!(err.contains(want), "{fen}: {err}");
        assert!(!err.contains('\n'));
        assert_eq!(s.fen(), before);
    }
    // A variant without holdings refuses them.
    let mut chess = new_session(default_variants().get("chess").unwrap());
    let err = chess
        .set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-/-/-/-] w KQkq - 0 1")
        .unwrap_err()
        .to_string();
    assert!(err.contains("no holdings"), "{err}");
}

#[test]
fn impossible_arrays_in_engine_ini_are_refused() {
    let base = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/engine.ini")).unwrap();
    let start = base.find("[remotesensing]").unwrap();
    let end = base[start..].find("aliases = remote-sensing").unwrap() + start;
    let section = &base[start..end];
    let cases = [
        // No kings in the array.
        (
            "start = rnbfkebnr/2umdwv2/ppppppppp/9/9/9/PPPPPPPPP/2UMDWV2/RNBFKEBNR[-/-/-/-] w - - 0 1",
            "start = rnbf1ebnr/2um1wv2/ppppppppp/9/9/9/PPPPPPPPP/2UM1WV2/RNBF1EBNR w - - 0 1",
            "no royal piece",
        ),
        // Board too small for the promotion rank.
        ("board = 9x9", "board = 9x6", "promotion_rank"),
        // A sensor letter that is not a dynamic piece.
        ("rules.mega_off = W", "rules.mega_off = R", "must be written 'dynamic'"),
        // The pawn-direction switch with a typo.
        (
            "rules.enemy_pawn = literal",
            "rules.enemy_pawn = literally",
            "expected 'literal' or 'own'",
        ),
        // A sensor in a bin of the start position.
        ("RNBFKEBNR[-/-/-/-]", "RNBFKEBNR[F/-/-/-]", "cannot be in a bin"),
    ];
    for (from, to, want) in cases {
        assert!(section.contains(from), "{from}");
        let text = section.replace(from, to);
        let err = Catalog::parse(&text, "test.ini").map(|_| ()).expect_err(to);
        assert!(err.to_string().contains(want), "{to}: {err}");
    }
    Catalog::parse(section, "test.ini").expect("the section itself loads");
}

#[test]
fn highlight_shows_what_a_sensor_can_do_now() {
    let mut s = session();
    // RS-3: U d4 (dark) moves as a rook (own dark bin {R}); a black knight on d7 is a capture.
    s.set_fen("4k4/9/3n5/9/9/3U5/9/9/K8 w - - 0 1 [N/R/-/-]").unwrap();
    assert_eq!(
        highlight(&mut *s, "d4", None).unwrap(),
        "9/9/3R5/3Y5/3Y5/YYY1YYYYY/3Y5/3Y5/3Y5"
    );
    // The same sensor on e4 (light) moves as a knight (own light bin {N}).
    s.set_fen("4k4/9/9/9/9/4U4/9/9/K8 w - - 0 1 [N/R/-/-]").unwrap();
    assert_eq!(
        highlight(&mut *s, "e4", None).unwrap(),
        "9/9/9/3Y1Y3/2Y3Y2/9/2Y3Y2/3Y1Y3/9"
    );
}
