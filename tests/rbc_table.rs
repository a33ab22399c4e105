//! Reconnaissance Blind Chess as a table game (`rbc`), as the browser and `menagerie play`
//! run it: the observation hides the opponent's pieces except what a sense showed, tells
//! capture squares and the own move's result, and shows the true game once it is over. The
//! rules are reconchess 1.6.9's (`../shared/rules/rbc.md`): a sense shows the 3x3 window, a
//! capture's square is told to both sides, a king capture ends the game.

use menagerie::kit;
use menagerie::table::{ActionError, Actor, Table};

fn fields(obs: &str) -> Vec<String> {
    obs.split_whitespace().map(String::from).collect()
}

fn new() -> Box<dyn Table> {
    kit::new_table("rbc", &Vec::new()).unwrap()
}

#[test]
fn a_seat_sees_its_own_pieces_and_its_sense_window_only() {
    let mut t = new();
    assert_eq!(t.actor(), Actor::Seat(0, "sense"));
    let w = fields(&t.observe(0));
    assert_eq!(w[0], "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR");
    assert_eq!(fields(&t.observe(1))[0], "rnbqkbnr/pppppppp/8/8/8/8/8/8");
    // A sense of e7: d8 e8 f8 / d7 e7 f7 / d6 e6 f6, top rank first (reconchess's window).
    t.act("sense e7").unwrap();
    let w = fields(&t.observe(0));
    assert_eq!(w[0], "3qkb2/3ppp2/8/8/8/8/PPPPPPPP/RNBQKBNR");
    assert_eq!(w[5], "d8=q,e8=k,f8=b,d7=p,e7=p,f7=p,d6=.,e6=.,f6=.");
    // Black learns nothing of it.
    assert_eq!(fields(&t.observe(1))[5], "-");
    assert_eq!(fields(&t.observe(1))[0], "rnbqkbnr/pppppppp/8/8/8/8/8/8");
    assert_eq!(t.actor(), Actor::Seat(0, "move"));
}

#[test]
fn a_capture_is_told_to_both_and_the_end_shows_the_true_game() {
    let mut t = new();
    // White's queen can take the king on e8 (no check in RBC): the game ends with it.
    t.set_state("4k3/8/8/8/8/8/8/4Q1K1 w - - 0 1 sense - - - - - -")
        .unwrap();
    t.act("sense a1").unwrap();
    // A request the opponent's pieces do not limit: the queen's slide stops on the king.
    assert!(t.actions().contains(&"e1e8".to_string()));
    let event = t.act("e1e8").unwrap();
    assert_eq!(event, "white moved, capturing on e8");
    assert_eq!(t.actor(), Actor::Over);
    let o = t.outcome().unwrap();
    assert_eq!((o.result.as_str(), o.scores.clone()), ("white", vec![1.0, 0.0]));
    let b = fields(&t.observe(1));
    assert_eq!(b[0], "4Q3/8/8/8/8/8/8/6K1", "the end shows the true board");
    assert_eq!(b[4], "e8");
    assert_eq!(fields(&t.observe(0))[6], "e1e8>e1e8@e8");
    assert_eq!(b[7], "e1e8", "and the true moves");
}

#[test]
fn a_blocked_slide_stops_and_the_mover_is_told_what_happened() {
    let mut t = new();
    // reconchess revises a slider's request to stop on the first enemy piece: a rook asked
    // to a8 through a black pawn on a5 captures it there.
    t.set_state("4k3/8/8/p7/8/8/8/R3K3 w - - 0 1 sense - - - - - -")
        .unwrap();
    t.act("sense h8").unwrap();
    t.act("a1a8").unwrap();
    assert_eq!(fields(&t.observe(0))[6], "a1a8>a1a5@a5");
    assert_eq!(fields(&t.observe(1))[4], "a5");
    assert_eq!(fields(&t.observe(1))[6], "-", "Black's own last move is not White's");
}

#[test]
fn bad_actions_are_refused_and_change_nothing() {
    let mut t = new();
    let before = t.state_text();
    assert!(t.act("e2e4").unwrap_err().to_string().contains("sense first"));
    assert!(matches!(t.act("sense z9"), Err(ActionError::Syntax(_))));
    assert!(matches!(t.act("hello"), Err(ActionError::Syntax(_))));
    assert_eq!(t.state_text(), before);
    t.act("sense pass").unwrap();
    assert_eq!(fields(&t.observe(0))[5], "-", "a sense passed shows nothing");
    assert!(matches!(t.act("sense d4"), Err(ActionError::Illegal(e)) if e.contains("sensed already")));
    assert!(t.act("e2e5").unwrap_err().to_string().contains("move_actions"));
    assert!(t.set_state("garbage").is_err());
    // A state with a sense window, both sides' results, a capture and moves reads back whole.
    t.act("e2e4").unwrap();
    t.act("sense e4").unwrap();
    t.act("d7d5").unwrap();
    t.act("sense d5").unwrap();
    t.act("e4d5").unwrap();
    let mid = t.state_text();
    assert!(mid.contains("e4d5>e4d5@d5") && mid.contains("d5=p"), "{mid}");
    let mut copy = new();
    copy.set_state(&mid).unwrap();
    assert_eq!(copy.state_text(), mid, "the state text reads back");
    for seat in 0..2 {
        assert_eq!(copy.observe(seat), t.observe(seat));
    }
}

#[test]
fn the_engine_plays_a_seat_to_the_end() {
    let mut t = new();
    let mut seats = vec![
        t.engine_seat(0, &Vec::new(), 1).unwrap(),
        Box::new(menagerie::table::seats::RandomSeat::new(3)) as Box<dyn menagerie::table::seats::Seat>,
    ];
    let names = vec!["engine".to_string(), "random".to_string()];
    let p = menagerie::table::referee::play(t.as_mut(), &mut seats, 1, &names, &Vec::new(), false, 1.0);
    assert!(!p.outcome.reason.contains("forfeit"), "{}", p.outcome);
    assert_eq!(p.outcome.result, "white", "{}", p.outcome);
}

/// The budgeted seat (`engine:work=N`, per cent of the default work) plays its own repeatable
/// games, beats a random seat, and refuses a share out of 1..=100.
#[test]
fn the_budgeted_engine_seat_repeats_its_games_and_beats_random() {
    use menagerie::table::seats::make_seats;
    let record = |names: &[&str], seed: u64| {
        let mut t = new();
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let mut seats = make_seats(t.as_ref(), &names, seed, 30.0).unwrap();
        let p = menagerie::table::referee::play(t.as_mut(), &mut seats, seed, &names, &Vec::new(), true, 30.0);
        (p.outcome.result.clone(), p.record[1..].join("\n"))
    };
    let budgeted = record(&["engine:work=1", "engine:work=1"], 2);
    assert_eq!(budgeted, record(&["engine:work=1", "engine:work=1"], 2));
    assert_ne!(budgeted.1, record(&["engine:work=2", "engine:work=2"], 2).1);
    for seed in 1..=4 {
        assert_eq!(record(&["engine:work=1", "random"], seed).0, "white");
        assert_eq!(record(&["random", "engine:work=1"], seed).0, "black");
    }
    let t = new();
    for bad in ["0", "101", "x"] {
        let options = vec![("work".to_string(), bad.to_string())];
        assert!(t.engine_seat(0, &options, 1).is_err(), "work={bad}");
    }
}
