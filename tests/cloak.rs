//! Cloak and Dagger Chess (`../shared/rules/chess-kit.md` sections 9 and 10): the 960 legal
//! assignments, Chess960 castling squares, the guess and bonus flow, drops, the cloaked king's
//! exemption, refusals, the ends, the observation gate and the engine's belief.

use menagerie::kit::cloak::{Engine, arrays, parse_array};
use menagerie::kit::new_table;
use menagerie::table::seats::Player;
use menagerie::table::{Actor, Settings, Table};

#[path = "common/spy.rs"]
mod spy;
use spy::spied_game;

fn at(state: &str) -> Box<dyn Table> {
    let mut t = new_table("cloak", &Vec::new()).unwrap();
    t.set_state(state).unwrap_or_else(|e| panic!("{state}: {e}"));
    t
}

fn act(t: &mut Box<dyn Table>, a: &str) -> String {
    t.act(a).unwrap_or_else(|e| panic!("{a}: {e} in {}", t.state_text()))
}

fn placement(t: &dyn Table) -> String {
    t.state_text().split_whitespace().next().unwrap().to_string()
}

#[test]
fn there_are_exactly_960_assignments() {
    let all = arrays();
    assert_eq!(all.len(), 960);
    let mut unique = all.to_vec();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 960);
    // The rules file's example grid: K=3, Q=2, R=1 and 4, B=5 and 6, N=7 and 8.
    assert_eq!(
        parse_array("RQKRBBNN").unwrap(),
        ['R', 'Q', 'K', 'R', 'B', 'B', 'N', 'N']
    );
    for bad in ["RQKRBBN", "KRRQBBNN", "RQKRBNBN2", "RBKRQBNN", "xxxxxxxx", "RQKRBBNNN"] {
        assert!(parse_array(bad).is_err(), "{bad}");
    }
}

const CASTLE: &str = "4k3/8/8/8/8/8/8/RK5R w move a1=1,b1=2,h1=8 a1,b1,h1 - 0 0 0,0 - - - -";

#[test]
fn chess960_castling_squares() {
    // King b1, rooks a1 and h1: long castling puts the king on c1 and the rook on d1, short
    // castling the king on g1 and the rook on f1; the checkers go with their pieces.
    let mut t = at(CASTLE);
    assert!(t.actions().contains(&"b1a1".to_string()) && t.actions().contains(&"b1h1".to_string()));
    act(&mut t, "b1a1");
    assert_eq!(placement(t.as_ref()), "4k3/8/8/8/8/8/8/2KR3R");
    assert!(t.state_text().contains(" c1=2,d1=1,h1=8 "), "{}", t.state_text());
    let mut t = at(CASTLE);
    act(&mut t, "b1h1");
    assert_eq!(placement(t.as_ref()), "4k3/8/8/8/8/8/8/R4RK1");
    // A piece between them, or a moved rook, and there is no castling.
    let t = at("4k3/8/8/8/8/8/8/RKN4R w move a1=1,b1=2,c1=3,h1=8 a1,b1,c1,h1 - 0 0 0,0 - - - -");
    assert!(!t.actions().contains(&"b1a1".to_string()) && !t.actions().contains(&"b1h1".to_string()));
    let t = at("4k3/8/8/8/8/8/8/RK5R w move a1=1,b1=2,h1=8 b1,h1 - 0 0 0,0 - - - -");
    assert!(!t.actions().contains(&"b1a1".to_string()));
}

#[test]
fn a_cloaked_king_may_stand_in_check_and_castle_out_of_it() {
    // The black rook on b8 attacks b1. Cloaked, the king castles out of check and may step
    // into the rook's file; uncloaked, the same attempts are refused without a reason.
    let cloaked = "1r2k3/8/8/8/8/8/8/RK5R w move a1=1,b1=2,h1=8 a1,b1,h1 - 0 0 0,0 - - - -";
    let mut t = at(cloaked);
    act(&mut t, "b1h1");
    assert_eq!(placement(t.as_ref()), "1r2k3/8/8/8/8/8/8/R4RK1");
    let mut t = at("1r2k3/8/8/8/8/8/8/RK5R w move a1=1,h1=8 a1,b1,h1 - 0 0 0,0 - - - -");
    let stay = t.state_text();
    let e = act(&mut t, "b1h1");
    assert_eq!(e, "white attempt refused");
    assert_eq!(placement(t.as_ref()), "1r2k3/8/8/8/8/8/8/RK5R");
    assert!(
        !t.actions().contains(&"b1h1".to_string()),
        "a refused attempt is not offered again"
    );
    assert_ne!(t.state_text(), stay, "the refusal is remembered");
    // The other seat learns that an attempt was refused, not which.
    assert!(t.observe(1).ends_with(" x1"), "{}", t.observe(1));
    assert!(t.observe(0).ends_with(" b1h1"), "{}", t.observe(0));
    // Cloaked, walking into the rook's file is allowed; uncloaked it is refused.
    let mut t = at("1r2k3/8/8/8/8/8/8/R1K4R w move a1=1,c1=3,h1=8 - - 0 0 0,0 - - - -");
    act(&mut t, "c1b2");
    let mut t = at("1r2k3/8/8/8/8/8/8/R1K4R w move a1=1,h1=8 - - 0 0 0,0 - - - -");
    assert_eq!(act(&mut t, "c1b2"), "white attempt refused");
}

#[test]
fn guess_bonus_and_the_opponents_bonus() {
    let mut t = new_table("cloak", &Vec::new()).unwrap();
    assert_eq!(t.actor(), Actor::Seat(0, "assign"));
    assert_eq!(t.actions().len(), 960);
    act(&mut t, "assign RQKRBBNN");
    // Black is not shown White's assignment.
    assert!(
        t.observe(1).starts_with("cccccccc/pppppppp/8/8/8/8/PPPPPPPP/CCCCCCCC"),
        "{}",
        t.observe(1)
    );
    act(&mut t, "assign RNBQKBNR");
    assert_eq!(t.actor(), Actor::Seat(0, "guess"));
    // A right guess: the bonus comes after the move.
    assert_eq!(act(&mut t, "guess 5 K"), "white guesses checker 5 is K: right");
    act(&mut t, "e2e4");
    assert_eq!(t.actor(), Actor::Seat(0, "bonus"));
    act(&mut t, "d2d4");
    assert_eq!(t.actor(), Actor::Seat(0, "uncloak"));
    act(&mut t, "done");
    // Black guesses wrong: White's bonus comes before White's next turn.
    assert_eq!(t.actor(), Actor::Seat(1, "guess"));
    assert_eq!(act(&mut t, "guess 1 Q"), "black guesses checker 1 is Q: wrong");
    act(&mut t, "e7e5");
    assert_eq!(t.actor(), Actor::Seat(1, "uncloak"));
    act(&mut t, "done");
    assert_eq!(t.actor(), Actor::Seat(0, "bonus"));
    act(&mut t, "pass");
    assert_eq!(t.actor(), Actor::Seat(0, "guess"));
    // Checker 5 is known now: guessing it again is no guess.
    assert!(!t.actions().contains(&"guess 5 K".to_string()));
    assert!(t.actions().contains(&"guess 1 R".to_string()));
    assert!(t.state_text().contains("b5=K,w1!Q"), "{}", t.state_text());
}

#[test]
fn drops_only_on_the_own_second_rank() {
    // White has one pawn of its own taken; its bonus may drop it on an empty square of rank 2.
    let s = "4k3/8/8/8/8/8/PPPP1PPP/4K3 w bonus-white - - - 0 4 1,0 right - - -";
    let mut t = at(s);
    let acts = t.actions();
    assert!(acts.contains(&"drop e2".to_string()), "{acts:?}");
    assert!(
        !acts.iter().any(|a| a.starts_with("drop ") && a != "drop e2"),
        "{acts:?}"
    );
    let before = t.state_text();
    assert!(t.act("drop e3").is_err());
    assert!(t.act("drop e1").is_err());
    assert_eq!(t.state_text(), before);
    act(&mut t, "drop e2");
    assert_eq!(placement(t.as_ref()), "4k3/8/8/8/8/8/PPPPPPPP/4K3");
    assert!(t.state_text().contains(" 0,0 "), "{}", t.state_text());
}

#[test]
fn captures_announce_the_checker_and_the_king_ends_the_game() {
    // A cloaked king on e8 (checker 5) taken by the rook: White wins.
    let mut t = at("4k3/8/8/8/8/8/8/4R1K1 w move e8=5 - - 0 0 0,0 - - - -");
    let e = act(&mut t, "e1e8");
    assert_eq!(e, "white e1e8 takes checker 5 (K) end");
    assert_eq!(t.actor(), Actor::Over);
    let o = t.outcome().unwrap();
    assert_eq!(
        (o.result.as_str(), o.reason.as_str()),
        ("white", "cloaked king captured")
    );
    // A cloaked knight taken: its identity is public.
    let mut t = at("4k3/8/8/8/8/8/8/n3R1K1 w move a1=2 - - 0 0 0,0 - - - -");
    assert_eq!(act(&mut t, "e1a1"), "white e1a1 takes checker 2 (N)");
    assert!(t.observe(0).contains(" b2=N "), "{}", t.observe(0));
    // An uncloaked king with no move, attacked: mated at the start of its turn.
    let t = at("7k/6Q1/5K2/8/8/8/8/8 b guess - - - 0 0 0,0 - - - -");
    let o = t.outcome().unwrap();
    assert_eq!(
        (o.result.as_str(), o.reason.as_str()),
        ("white", "uncloaked king mated")
    );
    // The same king cloaked is not mated (it may be taken instead): the game goes on.
    let t = at("7k/6Q1/5K2/8/8/8/8/8 b guess h8=5 - - 0 0 0,0 - - - -");
    assert_eq!(t.actor(), Actor::Seat(1, "guess"));
}

#[test]
fn bad_input_changes_nothing() {
    let mut t = at("4k3/8/8/8/8/8/8/RNK4R w guess a1=1,b1=2,h1=8 - - 0 0 0,0 - - - -");
    let before = t.state_text();
    // A guess at a missing or an uncloaked checker, a bad type, a move out of phase.
    for bad in [
        "guess 5 K",
        "guess 9 K",
        "guess 1 P",
        "guess 1",
        "e1e2",
        "drop e2",
        "uncloak 1",
        "zzz",
        "",
    ] {
        assert!(t.act(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before, "{bad}");
    }
    act(&mut t, "pass");
    let before = t.state_text();
    // A knight (checker 2 on b1) moving like a bishop, a rook moving like a knight, a drop.
    for bad in ["b1c2", "a1b3", "drop e2", "b1b1", "a1a9", "e7e8x"] {
        assert!(t.act(bad).is_err(), "{bad}");
        assert_eq!(t.state_text(), before, "{bad}");
    }
    let mut fresh = new_table("cloak", &Vec::new()).unwrap();
    for bad in ["assign RQKRBBN", "assign KRRQBBNN", "assign RBKRQBNN"] {
        assert!(fresh.act(bad).is_err(), "{bad}");
    }
    for bad in [
        "8/8/8/8/8/8/8/8 w guess - - - 0 0 0,0 - - - -",
        "4k3/8/8/8/8/8/8/4K3 w guess e1=9 - - 0 0 0,0 - - - -",
        "4k3/8/8/8/8/8/8/4K3 w guess - - - 0 0 0,0 - w3?N - -",
        "4k3/8/8/8/8/8/8/4K3 x guess - - - 0 0 0,0 - - - -",
        "4k3/8/8/8/8/8/P7/4K3 w guess a2=1 - - 0 0 0,0 - - - -",
    ] {
        assert!(fresh.set_state(bad).is_err(), "{bad}");
    }
    let s: Settings = vec![("bogus".into(), "1".into())];
    assert!(new_table("cloak", &s).is_err());
}

/// No seat ever sees a type under the other side's cloak: every enemy checker shows as `C`,
/// and the other side's refused attempts only as a count.
#[test]
fn observation_gate_along_random_games() {
    let mut checked = 0;
    for seed in 0..12 {
        let (_, log) = spied_game("cloak", seed);
        for (seat, line) in log.iter() {
            let Some(obs) = line.strip_prefix("see ") else {
                // Events are public: none says what a checker is, except a guess's answer.
                assert!(!line.contains(" is ") || line.contains("guesses"), "{line}");
                continue;
            };
            let w: Vec<&str> = obs.split_whitespace().collect();
            let mut board = vec!['.'; 64];
            for (i, row) in w[0].split('/').enumerate() {
                let mut f = 0;
                for c in row.chars() {
                    match c.to_digit(10) {
                        Some(d) => f += d as usize,
                        None => {
                            board[(7 - i) * 8 + f] = c;
                            f += 1;
                        }
                    }
                }
            }
            let enemy_is_white = *seat == 1;
            for item in w[3].split(',').filter(|x| *x != "-") {
                let sq = item.split('=').next().unwrap().as_bytes();
                let s = (sq[1] - b'1') as usize * 8 + (sq[0] - b'a') as usize;
                let c = board[s];
                if c.is_ascii_uppercase() == enemy_is_white {
                    assert_eq!(c.to_ascii_uppercase(), 'C', "seat {seat} sees {c} under a cloak: {obs}");
                    checked += 1;
                }
            }
            let refused = w[12];
            let actor_is_me = match w[2] {
                "bonus-white" | "assign-white" => *seat == 0,
                "bonus-black" | "assign-black" => *seat == 1,
                _ => (w[1] == "w") == (*seat == 0),
            };
            if !actor_is_me {
                assert!(refused == "-" || refused.starts_with('x'), "{obs}");
            }
        }
    }
    assert!(checked > 1000, "only {checked} cloaked squares checked");
}

/// The engine's belief: an enemy checker that moved diagonally is a bishop or a queen; one that
/// castled is the king; a wrong guess removes the type named.
#[test]
fn the_engine_belief_follows_what_it_sees() {
    let mut t = new_table("cloak", &Vec::new()).unwrap();
    let mut e = Engine::new(1, &Vec::new(), 3).unwrap();
    let step = |t: &mut Box<dyn Table>, a: &str, e: &mut Engine| {
        act(t, a);
        e.see(&t.seen(1)).unwrap();
    };
    e.see(&t.seen(1)).unwrap();
    assert_eq!(e.belief().len(), 960);
    step(&mut t, "assign RNBQKBNR", &mut e);
    step(&mut t, "assign RNBQKBNR", &mut e);
    for a in ["pass", "e2e4", "done", "pass", "e7e5", "done", "pass", "f1c4", "done"] {
        step(&mut t, a, &mut e);
    }
    assert!(
        e.belief().iter().all(|a| a[5] == 'B' || a[5] == 'Q'),
        "checker 6 moved diagonally"
    );
    assert!(e.belief().len() < 960 / 2, "{}", e.belief().len());
    let n = e.belief().len();
    // Black guesses checker 7 is a bishop: wrong (a knight), and the belief drops it.
    step(&mut t, "guess 7 B", &mut e);
    assert!(e.belief().iter().all(|a| a[6] != 'B'));
    assert!(e.belief().len() < n);
    assert!(
        e.belief().contains(&['R', 'N', 'B', 'Q', 'K', 'B', 'N', 'R']),
        "the truth stays possible"
    );
}

/// A refused attempt teaches the engine too: the pawn d7 could not move, so the cloaked checker
/// on a4 attacks e8 along the diagonal: a bishop or a queen.
#[test]
fn the_engine_learns_from_a_refused_attempt() {
    let mut t = at("4k3/3p4/8/8/B7/8/8/4K3 b move a4=6 - - 0 10 0,0 - - - -");
    let mut e = Engine::new(1, &Vec::new(), 3).unwrap();
    e.see(&t.seen(1)).unwrap();
    assert_eq!(e.belief().len(), 960);
    assert_eq!(act(&mut t, "d7d6"), "black attempt refused");
    e.see(&t.seen(1)).unwrap();
    assert!(e.belief().iter().all(|a| a[5] == 'B' || a[5] == 'Q'));
    assert!(e.belief().len() < 960);
}

/// En passant belongs to the other side only: after White's double step e2e4, White's own
/// bonus cannot "take" on e3, Black's pawn d4 can, and the e4 pawn goes.
#[test]
fn en_passant_only_for_the_other_side() {
    let mut t = at("4k3/8/8/8/3pP3/8/3P4/4K3 w bonus-white - - e3 0 1 0,0 right - w:e2e4 -");
    assert!(!t.actions().contains(&"d2e3".to_string()), "{:?}", t.actions());
    for a in ["pass", "done", "pass"] {
        act(&mut t, a);
    }
    assert!(t.actions().contains(&"d4e3".to_string()), "{:?}", t.actions());
    assert_eq!(act(&mut t, "d4e3"), "black d4e3 takes P");
    assert_eq!(placement(t.as_ref()), "4k3/8/8/8/8/4p3/3P4/4K3");
}

/// The generic player's leaf value: the chess quiescence search with the side that moves next
/// on the board to move (after White's move, in its uncloaking, Black's pawn takes the queen),
/// a bonus still to come counted for its side, and a king the next mover attacks taken.
#[test]
fn the_heuristic_sees_the_reply_and_the_bonus_to_come() {
    use menagerie::kit::cloak::Cloak;
    use menagerie::table::TableGame;
    let white = |state: &str| {
        let mut g = Cloak::new(&Vec::new()).unwrap();
        TableGame::set_state(&mut g, state).unwrap_or_else(|e| panic!("{state}: {e}"));
        g.heuristic().expect("a heuristic")[0]
    };
    let hanging = white("4k3/8/8/4p3/3Q4/8/8/4K3 w uncloak - - - 0 1 0,0 - - w:d1d4 -");
    let safe = white("4k3/8/4p3/8/3Q4/8/8/4K3 w uncloak - - - 0 1 0,0 - - w:d1d4 -");
    assert!(hanging < 0.5, "the queen is lost: {hanging}");
    assert!(safe > 0.9, "a queen up: {safe}");
    let plain = white("4k3/4p3/8/8/8/8/3P4/4K3 b guess - - - 0 2 0,0 - - w:d1d2 -");
    let bonus = white("4k3/4p3/8/8/8/8/3P4/4K3 b bonus-black - - - 0 2 0,0 - - w:d1d2 -");
    assert!(bonus < plain - 0.05, "Black's bonus to come: {bonus} against {plain}");
    // White's cloaked king stands attacked by a pawn, Black to move: the search takes the
    // king, a queen up or not.
    let taken = white("4k3/8/8/8/8/8/3p4/Q3K3 w uncloak e1=5 - - 0 1 0,0 - - w:e2e1 -");
    assert!(taken < 0.01, "the king is taken: {taken}");
}

/// The engine seat is the generic player at 500 iterations a decision (it beats the
/// hand-made player, BENCHMARKS.md); `engine:player=search` asks for the hand-made one.
#[test]
fn the_engine_seat_is_the_generic_player_at_500_iterations() {
    use menagerie::table::referee;
    use menagerie::table::seats::make_seats;
    let record = |spec: &str| {
        let mut t = new_table("cloak", &Vec::new()).unwrap();
        let names = vec![spec.to_string(), "random".to_string()];
        let mut seats = make_seats(t.as_ref(), &names, 3, 30.0).unwrap();
        let p = referee::play(t.as_mut(), &mut seats, 3, &names, &Vec::new(), true, 30.0);
        // The steps, without the header (which names the seats); the first 40.
        p.record[1..].iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    };
    let engine = record("engine");
    assert_eq!(engine, record("mcts:iterations=500"));
    assert_ne!(engine, record("mcts"), "played as mcts at 1,000 iterations");
    assert_ne!(engine, record("engine:player=search"), "played as the hand-made player");
}
