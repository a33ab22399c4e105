//! PGN: SAN written by hand-worked cases, tolerant reading, and seeded random games of every
//! two-player variant written and read back to the same position.

use menagerie::default_variants;
use menagerie::engine::{Notation, Session, new_session, session_from_pgn};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn session(variant: &str) -> Box<dyn Session> {
    new_session(default_variants().get(variant).unwrap())
}

/// The movetext of a game from `fen` with `moves` (MMN).
fn movetext(variant: &str, fen: &str, moves: &[&str]) -> String {
    let mut s = session(variant);
    s.set_fen(fen).unwrap();
    for m in moves {
        s.play_text(m, Notation::Mmn).unwrap();
    }
    let pgn = s.pgn(&[], "*");
    pgn.split("\n\n").nth(1).unwrap().trim().to_string()
}

#[test]
fn san_by_hand() {
    // Two knights reach d2: the file tells them apart; castling; a capture by a pawn.
    let fen = "r3k2r/pppq1ppp/8/3pP3/8/5N2/PPP2PPP/RN2K2R w KQkq d6 0 1";
    assert_eq!(movetext("chess", fen, &["b1d2"]), "1. Nbd2 *");
    assert_eq!(movetext("chess", fen, &["e1g1", "e8c8"]), "1. O-O O-O-O *");
    assert_eq!(movetext("chess", fen, &["e5d6"]), "1. exd6 *");
    // Two rooks on one file: the rank tells them apart.
    let rooks = "4k3/8/8/R7/8/R7/8/4K3 w - - 0 1";
    assert_eq!(movetext("chess", rooks, &["a3a4"]), "1. R3a4 *");
    // Promotion with check, and mate; a game from Black's move starts with `1...`.
    assert_eq!(
        movetext("chess", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", &["b7b8q"]),
        "1. b8=Q+ *"
    );
    assert_eq!(
        movetext("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", &["g8h8", "d1d8"]),
        "1... Kh8 2. Rd8# *"
    );
    // Capablanca's archbishop and chancellor by their letters.
    let capa = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    assert_eq!(movetext("capablanca", capa, &["c1d3", "h8g6"]), "1. Ad3 Cg6 *");
    // Tensor has moves of its own: MMN.
    let tensor = session("tensor").fen();
    assert_eq!(movetext("tensor", &tensor, &["d2d4"]), "1. d2d4 *");
}

#[test]
fn reading_skips_comments_variations_and_numbers() {
    let text = "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6\n\
                3.Bb5 a6; a comment\n4. Ba4 Nf6 5. 0-0 Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *\n";
    let s = session_from_pgn(default_variants(), &*session("chess"), text).unwrap();
    assert_eq!(
        s.fen(),
        "r1bq1rk1/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N2/PP1P1PPP/RNBQR1K1 w - - 1 9"
    );
    // MMN is read too, and a promotion without `=`.
    let text = "[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. b8Q+ e8d7 *";
    let s = session_from_pgn(default_variants(), &*session("chess"), text).unwrap();
    assert_eq!(s.fen(), "1Q6/3k4/8/8/8/8/8/4K3 w - - 1 2");
    // The Variant tag chooses the game, whatever the current one.
    let text = "[Variant \"Los Alamos\"]\n\n1. b3 b4 *";
    let s = session_from_pgn(default_variants(), &*session("chess"), text).unwrap();
    assert_eq!(s.variant().name, "losalamos");
}

#[test]
fn bad_pgn_is_refused_with_the_move() {
    let chess = session("chess");
    let err = session_from_pgn(default_variants(), &*chess, "1. e4 e5 2. Ke3 *")
        .err()
        .unwrap();
    assert!(err.contains("move 2") && err.contains("Ke3"), "{err}");
    let err = session_from_pgn(default_variants(), &*chess, "[Variant \"nosuch\"]\n1. e4 *")
        .err()
        .unwrap();
    assert!(err.contains("unknown variant"), "{err}");
    let err = session_from_pgn(default_variants(), &*chess, "[FEN \"8/8 w\"]\n*")
        .err()
        .unwrap();
    assert!(err.contains("FEN"), "{err}");
    let err = session_from_pgn(default_variants(), &*chess, "[Event broken\n1. e4 *")
        .err()
        .unwrap();
    assert!(err.contains("line 1"), "{err}");
}

#[test]
fn random_games_of_every_variant_come_back_the_same() {
    let mut rng = StdRng::seed_from_u64(7);
    for variant in [
        "chess",
        "chess960",
        "losalamos",
        "capablanca",
        "chess911",
        "remotesensing",
        "tensor",
        "rbc",
    ] {
        for game in 0..4 {
            let mut s = session(variant);
            let plies = 40 + game * 30;
            for _ in 0..plies {
                if s.outcome().is_some() {
                    break;
                }
                let legal = s.legal_texts();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.random_range(0..legal.len())].clone();
                s.play_text(&m, Notation::Mmn).unwrap();
            }
            let pgn = s.pgn(&[("White", "random"), ("Black", "random")], "*");
            let back = session_from_pgn(default_variants(), &*session("chess"), &pgn)
                .unwrap_or_else(|e| panic!("{variant}: {e}\n{pgn}"));
            assert_eq!(back.variant().name, variant);
            assert_eq!(back.fen(), s.fen(), "{variant}\n{pgn}");
            assert_eq!(back.moves_played(), s.moves_played(), "{variant}");
        }
    }
}
