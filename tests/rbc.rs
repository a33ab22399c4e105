//! Reconnaissance Blind Chess referee: the reconchess 1.6.9 test vectors of
//! `../shared/rules/rbc.md` §5, the requestable moves, sensing, passes and the end of a game.

use menagerie::games::rbc::{End, Rbc, Referee, Request, sense};
use menagerie::{Game, Position, default_variants};
use std::sync::Arc;

fn game() -> Arc<Game<Rbc>> {
    Game::<Rbc>::new(default_variants().get("rbc").unwrap()).unwrap()
}

fn referee(fen: &str) -> Referee {
    Referee::new(Position::from_fen(game(), fen).unwrap())
}

fn req(r: &Referee, text: &str) -> Request {
    Request::parse(r.position().variant(), text).unwrap()
}

#[test]
fn revision_vectors_from_the_rules_file() {
    // FEN, requested, taken (or "none"), capture square (or "-"): rbc.md §5, verified there
    // with reconchess 1.6.9.
    let vectors = [
        ("4k3/8/8/p7/8/8/8/R3K3 w - - 0 1", "a1a8", "a1a5", "a5"),
        ("4k3/p7/8/p7/8/8/8/R3K3 w - - 0 1", "a1a8", "a1a5", "a5"),
        ("4k3/8/8/8/3p4/8/8/B3K3 w - - 0 1", "a1h8", "a1d4", "d4"),
        // rbc.md has a black pawn on b1, where no pawn can stand (our FEN refuses it); a knight
        // there stops the queen the same way.
        ("4k3/8/8/8/8/8/8/Qn2K3 w - - 0 1", "a1d1", "a1b1", "b1"),
        ("4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1", "e2e4", "e2e3", "-"),
        ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e4", "none", "-"),
        ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e3", "none", "-"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2d3", "none", "-"),
        ("4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1", "e2d3", "e2d3", "d3"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "a7a8q", "-"),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", "a7a8n", "-"),
        ("n3k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "none", "-"),
        ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8", "a7b8q", "b8"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "e5d6", "d5"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2", "e5d6", "none", "-"),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", "e1g1", "-"),
        ("4k3/8/8/8/8/8/8/R3K1nR w KQ - 0 1", "e1g1", "none", "-"),
        ("4k3/8/8/8/8/8/8/Rn2K2R w KQ - 0 1", "e1c1", "none", "-"),
        ("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "e1g1", "e1g1", "-"),
        ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "e1g1", "e1g1", "-"),
        ("4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1", "b1c3", "b1c3", "c3"),
    ];
    for (fen, asked, want_taken, want_capture) in vectors {
        let mut r = referee(fen);
        let request = req(&r, asked);
        let before = r.position().clone();
        let res = r.play(Some(request)).unwrap_or_else(|e| panic!("{fen} {asked}: {e}"));
        let taken = res
            .taken
            .map_or("none".to_string(), |m| menagerie::notation::move_text(&before, m));
        let capture = res
            .capture
            .map_or("-".to_string(), |s| before.variant().geometry.name(s));
        assert_eq!(
            (taken.as_str(), capture.as_str()),
            (want_taken, want_capture),
            "{fen} {asked}"
        );
    }
}

#[test]
fn castling_moves_both_pieces_and_a_failed_castle_moves_nothing() {
    let mut r = referee("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    r.play(Some(req(&r, "e1g1"))).unwrap();
    assert_eq!(r.position().fen(), "4k3/8/8/8/8/8/5r2/R4RK1 b - - 1 1");
    let mut r = referee("4k3/8/8/8/8/8/8/R3K1nR w KQ - 0 1");
    r.play(Some(req(&r, "e1g1"))).unwrap();
    assert_eq!(r.position().fen(), "4k3/8/8/8/8/8/8/R3K1nR b KQ - 1 1");
}

#[test]
fn move_actions_of_the_start_position_and_refused_requests() {
    let r = referee("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(r.move_actions().len(), 34, "rbc.md §4: 20 + 14");
    for (fen, asked) in [
        ("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "e1c1"), // own knight on b1
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1h1"),  // king-takes-rook notation
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e5"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e1e1"),
    ] {
        let mut r = referee(fen);
        let err = r.play(Some(req(&r, asked))).unwrap_err();
        assert!(err.contains("not in move_actions"), "{fen} {asked}: {err}");
        assert_eq!(r.position().fen(), fen, "a refused request changed the board");
    }
}

#[test]
fn sense_windows() {
    let r = referee("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let pos = r.position();
    let g = &pos.variant().geometry;
    let names = |c: &str| -> Vec<String> {
        sense(pos, g.parse(c).unwrap())
            .iter()
            .map(|(s, _)| g.name(*s))
            .collect()
    };
    assert_eq!(names("a1"), ["a2", "b2", "a1", "b1"]);
    assert_eq!(names("e4"), ["d5", "e5", "f5", "d4", "e4", "f4", "d3", "e3", "f3"]);
    assert_eq!(names("h5").len(), 6);
    let seen = sense(pos, g.parse("b7").unwrap());
    assert!(seen.iter().any(|(s, p)| g.name(*s) == "a8" && p.is_some()));
    assert!(seen.iter().any(|(s, p)| g.name(*s) == "a6" && p.is_none()));
}

#[test]
fn passes_run_the_clock_to_a_draw_and_a_king_capture_ends_the_game() {
    let mut r = referee("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for i in 0..100 {
        assert_eq!(r.end(), None, "ended after {i} passes");
        r.play(None).unwrap();
    }
    assert_eq!(r.end(), Some(End::MoveLimit));
    assert!(
        r.position().fen().ends_with(" w KQkq - 100 51"),
        "{}",
        r.position().fen()
    );
    let mut r = referee("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1");
    let res = r.play(Some(req(&r, "e1e8"))).unwrap();
    assert_eq!(
        res.capture.map(|s| r.position().variant().geometry.name(s)),
        Some("e8".into())
    );
    assert_eq!(r.end(), Some(End::KingCapture(menagerie::Color::White)));
}

mod belief {
    use super::*;
    use menagerie::games::rbc::belief::{Belief, Board, CHECK_PRIOR};
    use menagerie::games::rbc::player::RbcPlayer;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// What a run of games measured.
    #[derive(Default, Debug)]
    struct Run {
        turns: usize,
        /// Checks of the true board actually made.
        checked: usize,
        largest: usize,
        /// Checks made on a sampled belief (by its definition), redraws, exact ones.
        sampled_checks: usize,
        redraws: u32,
        exact_redraws: u32,
    }

    /// Plays `games` random RBC games (requests from move_actions, some passes, random senses,
    /// or the players' own choices when `smart`) refereed by our referee, and checks after every
    /// observation that each side's belief still holds the true board. With `cap`, the beliefs
    /// keep at most that many boards: no observation may then contradict a belief, and once
    /// sampled its definition must still give the true board (checked when a walk of
    /// `DEFINES_BUDGET` boards can tell); without, a sampled belief is not checked.
    fn run(games: usize, seed: u64, smart: bool, cap: Option<(usize, usize)>) -> Run {
        let g = game();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Run::default();
        let strict = cap.is_some();
        for _ in 0..games {
            let start = Position::startpos(Arc::clone(&g));
            let mut r = Referee::new(start.clone());
            let mut players = [
                RbcPlayer::new(&start, menagerie::Color::White),
                RbcPlayer::new(&start, menagerie::Color::Black),
            ];
            // Fixed work: the same decisions on any machine load (a wall-clock budget made the
            // games, and so the belief sizes, depend on the load).
            players.iter_mut().for_each(|p| {
                p.budget = std::time::Duration::from_millis(20);
                p.fixed_work = smart;
                if let Some((c, thin)) = cap {
                    p.belief_mut().max_boards = c;
                    p.belief_mut().thin = thin;
                    p.belief_mut().redraw_budget = REDRAW_BUDGET;
                }
            });
            let mut last_capture = None;
            for _ in 0..(if smart { 40 } else { 20 }) {
                if r.end().is_some() {
                    break;
                }
                let side = r.position().side_to_move().index();
                let p = &mut players[side];
                let truth = |r: &Referee| Board::of(r.position());
                ok(p.opponent(last_capture), p.belief(), strict);
                check(p.belief_mut(), &truth(&r), "after the capture notice", strict, &mut out);
                let center = if smart {
                    p.choose_sense(None)
                } else {
                    Some(menagerie::Square::new(rng.random_range(0..64)))
                };
                if let Some(c) = center {
                    let seen = sense(r.position(), c);
                    ok(p.seen(&seen), p.belief(), strict);
                    check(p.belief_mut(), &truth(&r), "after the sense", strict, &mut out);
                }
                let acts = r.move_actions();
                let req = if smart {
                    p.choose_move(None)
                } else if rng.random_range(0..10) == 0 || acts.is_empty() {
                    None
                } else {
                    Some(acts[rng.random_range(0..acts.len())])
                };
                if let Some(q) = req {
                    assert!(
                        acts.contains(&q),
                        "the player asked for {} outside move_actions in {} (belief {} boards)",
                        q.text(r.position().variant()),
                        r.position().fen(),
                        p.belief().boards().len()
                    );
                }
                let before = r.position().clone();
                let res = r.play(req).unwrap();
                let taken = res.taken.map(|m| menagerie::notation::move_text(&before, m));
                ok(p.result(req, taken.as_deref(), res.capture), p.belief(), strict);
                check(p.belief_mut(), &truth(&r), "after the move result", strict, &mut out);
                out.largest = out.largest.max(p.belief().boards().len());
                last_capture = res.capture;
                out.turns += 1;
            }
            for p in &players {
                out.redraws += p.belief().redraws;
                out.exact_redraws += p.belief().exact_redraws;
            }
        }
        out
    }

    /// Boards a check of a sampled belief's definition may walk.
    const DEFINES_BUDGET: usize = 50_000;

    /// Boards a redraw may make in the runs with a cap (four times that when the sample is
    /// empty).
    const REDRAW_BUDGET: usize = 100_000;

    /// An observation may contradict a belief only after it was sampled down, and not at all
    /// when `strict` (its definition holds the true board, so a redraw finds boards).
    fn ok(r: Result<(), String>, b: &Belief, strict: bool) {
        if let Err(e) = r {
            assert!(b.sampled && !strict, "contradiction (sampled: {}): {e}", b.sampled);
        }
    }

    /// Checks that the true board is in the belief, or when it was sampled down and `strict`,
    /// in its definition; counts the checks made in `out`.
    fn check(b: &mut Belief, truth: &Board, when: &str, strict: bool, out: &mut Run) {
        if !b.sampled {
            assert!(
                b.contains(truth),
                "{when}: the true board left the belief ({} boards)",
                b.boards().len()
            );
            out.checked += 1;
        } else if strict {
            let defined = b.defines(truth, DEFINES_BUDGET);
            assert_ne!(
                defined,
                Some(false),
                "{when}: the true board left the belief's definition"
            );
            if defined.is_some() {
                out.checked += 1;
                out.sampled_checks += 1;
            }
        }
    }

    #[test]
    fn the_true_board_stays_in_the_belief_in_random_games() {
        let Run {
            turns,
            checked,
            largest,
            ..
        } = run(8, 11, false, None);
        eprintln!("{turns} turns, {checked} checks, largest belief {largest}");
        assert!(turns > 120, "{turns} turns");
        // Up to three checks a turn (capture notice, sense, move result); once a game's belief
        // is sampled down its checks are skipped. Most must really be made (measured: 348 in
        // 160 turns; the largest belief reached the 20,000-board cap in one game).
        assert!(checked >= 2 * turns, "only {checked} checks in {turns} turns");
        assert!(
            largest > 20,
            "the belief never grew ({largest}): the test would not see a loss"
        );
    }

    /// With room for only 100 boards, the beliefs of random games are sampled down again and
    /// again; the true board never leaves their definition, and every observation that empties
    /// (or thins) the sample draws boards from it, so none contradicts a belief.
    #[test]
    fn a_sampled_belief_keeps_the_true_board_in_its_definition() {
        let run = run(3, 23, false, Some((100, 4)));
        eprintln!("{run:?}");
        assert!(run.turns >= 60, "{run:?}");
        assert!(
            run.sampled_checks > run.turns,
            "too few checks of a sampled belief: {run:?}"
        );
        assert!(run.redraws >= 5, "{run:?}");
    }

    /// Black's first move, kept as a sample of 5 of its 20 boards, then a Black pass and a
    /// sense that sees the move (with room for 100 boards by then): when the sample lacks the
    /// move, the boards are drawn again from the definition, which finds the exact set (the
    /// first move, then a pass or a move the sense does not see); else the sample holds it.
    #[test]
    fn a_redraw_finds_the_exact_set_again() {
        let mut missed = 0;
        for (i, (mv, at)) in [("e7e5", "e6"), ("g8f6", "f7"), ("b7b6", "b7"), ("h7h5", "h6")]
            .into_iter()
            .enumerate()
        {
            let start = Position::startpos(game());
            let mut r = Referee::new(start.clone());
            let mut b = Belief::with_seed(&start, menagerie::Color::White, i as u64);
            b.max_boards = 5;
            r.play(None).unwrap();
            b.own_result(None, None, None).unwrap();
            r.play(Some(req(&r, mv))).unwrap();
            b.opponent_moved(None).unwrap();
            // A window where no black piece can be yet: all 20 boards agree, 5 are kept.
            b.seen(&sense(r.position(), sq("b2"))).unwrap();
            assert!(b.sampled && b.boards().len() == 5, "{mv}");
            let had = b.contains(&Board::of(r.position()));
            missed += usize::from(!had);
            r.play(None).unwrap();
            b.own_result(None, None, None).unwrap();
            r.play(None).unwrap();
            b.opponent_moved(None).unwrap();
            b.max_boards = 100;
            b.seen(&sense(r.position(), sq(at))).unwrap();
            assert!(
                b.contains(&Board::of(r.position())),
                "{mv}: the true board is not in the belief"
            );
            assert_eq!(b.exact_redraws, u32::from(!had), "{mv}");
            assert_eq!(b.sampled, had, "{mv}: exact again after a redraw");
        }
        assert!(missed > 0, "every sample held the move: the test saw no redraw");
    }

    /// After an observation that contradicts every board, the guess the belief keeps has our
    /// own pieces as they really are, so the moves we may request are the referee's.
    #[test]
    fn a_contradiction_leaves_our_own_pieces_true() {
        let g = game();
        let start = Position::startpos(Arc::clone(&g));
        let text = |rs: Vec<Request>| {
            let mut v: Vec<String> = rs.iter().map(|r| r.text(start.variant())).collect();
            v.sort();
            v
        };
        let truth_actions = |fen: &str| text(referee(fen).move_actions());
        let mut b = Belief::new(&start, menagerie::Color::White);
        b.own_result(Some(req(&referee(START), "e2e4")), Some("e2e4"), None)
            .unwrap();
        b.opponent_moved(None).unwrap();
        // A capture of our a2 pawn on b3 is impossible after one black move: no board has a
        // piece there, so the result contradicts them all; our pawn is on b3 all the same.
        let r = b.own_result(Some(req(&referee(START), "a2b3")), Some("a2b3"), Some(sq("b3")));
        assert!(r.is_err());
        let after = "rnbqkbnr/pppppppp/8/8/4P3/1P6/1PPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(text(b.move_actions()), truth_actions(after));
        // Black "captures" on d2, where no black piece can reach: the guess loses our d2 pawn.
        let r = b.opponent_moved(Some(sq("d2")));
        assert!(r.is_err());
        let after = "rnbqkbnr/pppppppp/8/8/4P3/1P6/1PP2PPP/RNBQKBNR w KQkq - 0 3";
        assert_eq!(text(b.move_actions()), truth_actions(after));
    }

    /// Plays `turns` turns in which we (White) pass and sense around `center`, and Black
    /// passes or, when `moves`, requests a random move; returns our belief's pass rate.
    fn pass_rate_after(turns: usize, moves: bool, seed: u64) -> f64 {
        let g = game();
        let mut rng = StdRng::seed_from_u64(seed);
        let start = Position::startpos(Arc::clone(&g));
        let mut r = Referee::new(start.clone());
        let mut b = Belief::new(&start, menagerie::Color::White);
        let mut capture = None;
        for turn in 0..turns {
            if turn > 0 {
                b.opponent_moved(capture).unwrap();
                let seen = sense(r.position(), sq("d6"));
                b.seen(&seen).unwrap();
            }
            let res = r.play(None).unwrap();
            b.own_result(None, None, res.capture).unwrap();
            let acts = r.move_actions();
            let req = (moves && !acts.is_empty()).then(|| acts[rng.random_range(0..acts.len())]);
            capture = r.play(req).unwrap().capture;
            if r.end().is_some() {
                break;
            }
        }
        b.pass_rate()
    }

    /// The belief learns how often the opponent passes: one that has stopped moving is seen
    /// as passing within a few turns, one that moves is not.
    #[test]
    fn the_belief_learns_whether_the_opponent_passes() {
        let passer = pass_rate_after(12, false, 1);
        assert!(
            passer > 0.8,
            "a bot that always passes: estimated pass rate {passer:.2}"
        );
        for seed in 1..4 {
            let mover = pass_rate_after(12, true, seed);
            assert!(mover < 0.3, "a bot that moves: estimated pass rate {mover:.2}");
        }
    }

    /// White's belief after a White pass from `fen` and one Black turn without a capture,
    /// with the opponent model on or off.
    fn after_one_black_turn(fen: &str, quality: bool) -> Belief {
        let mut b = Belief::new(&Position::from_fen(game(), fen).unwrap(), menagerie::Color::White);
        b.quality = quality;
        b.own_result(None, None, None).unwrap();
        b.opponent_moved(None).unwrap();
        b
    }

    /// The probability of the board `fen` in `b`, which must hold it.
    fn probability(b: &Belief, fen: &str) -> f64 {
        let target = Board::of(&Position::from_fen(game(), fen).unwrap());
        let i = b.boards().iter().position(|x| *x == target);
        b.probabilities()[i.unwrap_or_else(|| panic!("{fen} is not in the belief"))]
    }

    /// The opponent is taken to prefer moves that attack our king: after one black turn, a
    /// board where the rook gives check is CHECK_PRIOR times as likely as one where it went
    /// elsewhere, and the rook's quiet moves and the king's are equally likely.
    #[test]
    fn moves_that_attack_our_king_weigh_more() {
        // The moves' values for the opponent are left out here: the next test.
        let b = after_one_black_turn("k6r/8/8/8/8/8/8/4K3 w - - 0 1", false);
        let p = |fen: &str| probability(&b, fen);
        let quiet = p("k5r1/8/8/8/8/8/8/4K3 w - - 1 2");
        assert!(quiet > 0.0);
        for fen in ["k3r3/8/8/8/8/8/8/4K3 w - - 1 2", "k7/8/8/8/8/8/8/4K2r w - - 1 2"] {
            let ratio = p(fen) / quiet;
            assert!((ratio - CHECK_PRIOR).abs() < 1e-9, "{fen}: {ratio} times a quiet move");
        }
        for fen in ["k7/7r/8/8/8/8/8/4K3 w - - 1 2", "7r/k7/8/8/8/8/8/4K3 w - - 1 2"] {
            let ratio = p(fen) / quiet;
            assert!((ratio - 1.0).abs() < 1e-9, "{fen}: {ratio} times another quiet move");
        }
    }

    /// The opponent is taken to prefer moves that are good for it: a queen move onto a
    /// square our pawns attack is less likely than one to a safe square, and all the more when
    /// the belief weighs moves by their value (with the model off, the two are alike).
    #[test]
    fn good_moves_for_the_opponent_weigh_more() {
        let ratio = |quality: bool| {
            let b = after_one_black_turn("k2q4/8/8/8/2P1P3/8/8/4K3 w - - 0 1", quality);
            probability(&b, "k7/8/8/3q4/2P1P3/8/8/4K3 w - - 1 2")
                / probability(&b, "k7/8/3q4/8/2P1P3/8/8/4K3 w - - 1 2")
        };
        assert!((ratio(false) - 1.0).abs() < 1e-9, "{}", ratio(false));
        assert!(
            ratio(true) < 0.5,
            "Qd5 (en prise) is {} times as likely as Qd6",
            ratio(true)
        );
    }

    /// Replays one side of a recorded game (`tests/rbc_games/`) into a player and returns the
    /// mean natural log of the probability its belief gives the true board at each check.
    fn mean_log_truth(file: &str, model: bool) -> f64 {
        let g = game();
        let v = g.variant.clone();
        let text = std::fs::read_to_string(format!("{}/tests/rbc_games/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let opt_sq = |w: &str| (w != "none").then(|| sq(w));
        let start = Position::startpos(Arc::clone(&g));
        let mut player = None;
        let (mut sum, mut n) = (0.0, 0);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (cmd, rest) = line.split_once(' ').unwrap();
            let words: Vec<&str> = rest.split_whitespace().collect();
            if cmd == "rbc-color" {
                let me = if rest == "white" {
                    menagerie::Color::White
                } else {
                    menagerie::Color::Black
                };
                let mut p = RbcPlayer::new(&start, me);
                p.set_opponent_model(model);
                player = Some(p);
                continue;
            }
            let p = player.as_mut().unwrap();
            match cmd {
                "rbc-opp" => p.opponent(opt_sq(rest)).unwrap(),
                "rbc-seen" => {
                    let seen: Vec<_> = words
                        .iter()
                        .map(|w| {
                            let (s, l) = w.split_once(':').unwrap();
                            let c = l.chars().next().unwrap();
                            let piece = match v.kind_of_letter(c.to_ascii_uppercase()) {
                                Some(k) if c.is_ascii_uppercase() => menagerie::Piece::new(k, menagerie::Color::White),
                                Some(k) => menagerie::Piece::new(k, menagerie::Color::Black),
                                None => menagerie::Piece::NONE,
                            };
                            (sq(s), piece)
                        })
                        .collect();
                    p.seen(&seen).unwrap();
                }
                "rbc-result" => {
                    let req = (words[0] != "pass").then(|| Request::parse(&v, words[0]).unwrap());
                    let taken = (words[1] != "pass").then_some(words[1]);
                    p.result(req, taken, opt_sq(words[2])).unwrap();
                }
                "rbc-truth" => {
                    let truth = Board::of(&Position::from_fen(Arc::clone(&g), rest).unwrap());
                    sum += p.belief().probability_of(&truth).max(1e-12).ln();
                    n += 1;
                }
                _ => panic!("{line}"),
            }
        }
        sum / n as f64
    }

    /// The opponent model earns its place: along the recorded games against StrangeFish2, our
    /// side's belief gives the true board more probability with the model than with every
    /// opponent move alike (measured: mean ln p -0.80 against -1.07, and -3.29 against -3.73).
    #[test]
    fn the_opponent_model_finds_strangefish2_s_boards_likelier() {
        for file in ["strangefish2-black-loss-black.txt", "strangefish2-white-loss-white.txt"] {
            let (with, without) = (mean_log_truth(file, true), mean_log_truth(file, false));
            eprintln!("{file}: mean ln p {with:.3} with the model, {without:.3} without");
            assert!(
                with > without + 0.15,
                "{file}: {with:.3} with the model, {without:.3} without"
            );
        }
    }

    fn sq(name: &str) -> menagerie::Square {
        let g = game();
        let geo = &g.variant.geometry;
        geo.board.into_iter().find(|&s| geo.name(s) == name).unwrap()
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn players_choose_requestable_moves_and_keep_the_true_board() {
        let Run { turns, checked, .. } = run(2, 5, true, None);
        eprintln!("{turns} turns, {checked} checks");
        assert!(turns >= 20, "{turns} turns");
        assert!(checked >= 2 * turns, "only {checked} checks in {turns} turns");
    }

    /// The mover keeps our king safe on every board when it can: Black's king on g8 behind
    /// its pawns, White's rook on a1 may have gone to a8 (a back-rank attack on some boards of
    /// the belief), and only Rd5-d8 is safe on all of them (a pawn's luft or a king step still
    /// stands on the attacked rank; Rd5xa5 and the like leave it open).
    #[test]
    fn the_move_keeps_the_king_safe_on_every_board_when_it_can() {
        let start = Position::from_fen(game(), "6k1/5ppp/8/3r4/8/8/8/R6K w - - 0 1").unwrap();
        for seed in [1, 2, 3] {
            let mut me = RbcPlayer::with_seed(&start, menagerie::Color::Black, seed);
            me.fixed_work = true;
            me.opponent(None).unwrap();
            let boards = me.belief().boards().len();
            assert!(boards > 10, "{boards} boards");
            let req = me.choose_move(None);
            assert_eq!(me.text(req), "d5d8", "seed {seed}, {boards} boards");
        }
    }

    /// The sense looks where the answer decides the move: White's knight left g1 for f3 (our
    /// bishop takes it there), h3 or e2 (our knight takes it there) or stayed, and only the
    /// windows around f2 and g2 tell all four apart (each shows three of its squares and so
    /// the fourth); any other window leaves a knight to take unfound on some boards. The
    /// opponent model is off: it would call those knight moves unlikely (each hangs it).
    #[test]
    fn the_sense_finds_what_decides_the_move() {
        let start = Position::from_fen(game(), "7k/1b4pp/8/8/5n2/8/PP6/K5N1 w - - 0 1").unwrap();
        for seed in [1, 2, 3] {
            let mut me = RbcPlayer::with_seed(&start, menagerie::Color::Black, seed);
            me.fixed_work = true;
            me.set_opponent_model(false);
            me.opponent(None).unwrap();
            let boards = me.belief().boards().len();
            assert!(boards >= 8, "{boards} boards");
            let center = me.choose_sense(None).map(|c| start.variant().geometry.name(c));
            assert!(
                matches!(center.as_deref(), Some("f2" | "g2")),
                "seed {seed}: sensed {center:?} ({boards} boards)"
            );
        }
    }

    /// Every decision of a player seeded with `seed` that ignores the clock, playing White for
    /// `turns` turns against random requests (a generator of the test's own, fixed seed). It
    /// senses only every third turn, so its belief grows large and its decisions rest on samples.
    fn decisions(seed: u64, turns: usize) -> Vec<String> {
        let g = game();
        let start = Position::startpos(Arc::clone(&g));
        let mut r = Referee::new(start.clone());
        let mut me = RbcPlayer::with_seed(&start, menagerie::Color::White, seed);
        me.fixed_work = true;
        let mut opponent = StdRng::seed_from_u64(1234);
        let mut out = Vec::new();
        let mut last_capture = None;
        for turn in 0..turns {
            if r.end().is_some() {
                break;
            }
            // White.
            ok(me.opponent(last_capture), me.belief(), false);
            let center = if turn % 3 == 2 { me.choose_sense(None) } else { None };
            if let Some(c) = center {
                ok(me.seen(&sense(r.position(), c)), me.belief(), false);
            }
            let req = me.choose_move(None);
            out.push(format!(
                "boards {} sense {:?} move {}",
                me.belief().boards().len(),
                center.map(|c| c.index()),
                req.map_or("pass".to_string(), |q| q.text(r.position().variant()))
            ));
            let before = r.position().clone();
            let res = r.play(req).unwrap();
            let taken = res.taken.map(|m| menagerie::notation::move_text(&before, m));
            ok(me.result(req, taken.as_deref(), res.capture), me.belief(), false);
            if r.end().is_some() {
                break;
            }
            // Black: a random requestable move.
            let acts = r.move_actions();
            let q = (!acts.is_empty()).then(|| acts[opponent.random_range(0..acts.len())]);
            last_capture = r.play(q).unwrap().capture;
        }
        out
    }

    /// The same seed and the same observations give the same decisions: two runs of one seeded
    /// game agree turn by turn (a belief sampled with an unseeded generator, or sets whose order
    /// changes from run to run, would not).
    #[test]
    fn seeded_players_decide_alike() {
        // Seed 22: a game that lasts at least ten turns against these requests (with seed 21
        // the search of 2026-12-07 takes the king on the eighth).
        let a = decisions(22, 12);
        let b = decisions(22, 12);
        eprintln!("{a:#?}");
        assert!(a.len() >= 10, "{a:?}");
        assert_eq!(a, b);
        // The seed is really used: another one plays another game.
        assert_ne!(a, decisions(99, 12));
    }
}
