//! The generic IS-MCTS player (`src/table/mcts.rs`) on two small games written here: Nim, where
//! it must find the winning take, and a bet on a hidden card, where it must bet by the odds its
//! belief allows and not by the true card (which a player that read the true state would see).

use menagerie::table::mcts::Mcts;
use menagerie::table::seats::{Player, Seat};
use menagerie::table::{Actor, Chance, GameInfo, Information, Outcome, Seen, Settings, TableGame};
use rand::RngExt;
use rand::rngs::StdRng;

/// Nim: two seats take 1 or 2 stones in turn; whoever takes the last stone wins.
#[derive(Clone)]
struct Nim {
    stones: u32,
    turn: usize,
}

static NIM_INFO: GameInfo = GameInfo::new("nim", &[2], &["player"]);

impl TableGame for Nim {
    type Action = u32;
    fn info(&self) -> &'static GameInfo {
        &NIM_INFO
    }
    fn seats(&self) -> usize {
        2
    }
    fn roles(&self, _: usize) -> Vec<&'static str> {
        vec!["player"]
    }
    fn actor(&self) -> Actor {
        if self.stones == 0 {
            Actor::Over
        } else {
            Actor::Seat(self.turn, "take")
        }
    }
    fn legal_actions(&self) -> Vec<u32> {
        (1..=self.stones.min(2)).collect()
    }
    fn parse_action(&self, text: &str) -> Result<u32, String> {
        text.parse().map_err(|_| format!("'{text}'"))
    }
    fn apply(&mut self, a: &u32) -> Result<String, String> {
        self.stones -= a;
        self.turn = 1 - self.turn;
        Ok(format!("took {a}"))
    }
    type Observation = String;
    fn read_observation(&self, text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }
    fn observation(&self, _: usize) -> String {
        self.state_text()
    }
    fn state_text(&self) -> String {
        format!("{} {}", self.stones, self.turn)
    }
    fn set_state(&mut self, text: &str) -> Result<(), String> {
        let w: Vec<u32> = text
            .split(' ')
            .map(|x| x.parse().map_err(|_| "bad".to_string()))
            .collect::<Result<_, _>>()?;
        *self = Nim {
            stones: w[0],
            turn: w[1] as usize,
        };
        Ok(())
    }
    fn outcome(&self) -> Option<Outcome> {
        // The seat that took the last stone is the one not to move now.
        (self.stones == 0).then(|| Outcome {
            scores: if self.turn == 1 { vec![1.0, 0.0] } else { vec![0.0, 1.0] },
            result: "won".into(),
            reason: "last stone".into(),
        })
    }
    fn forfeit(&self, _: usize, _: &str) -> Outcome {
        unreachable!()
    }
    fn engine_seat(&self, _: usize, _: &Settings, _: u64) -> Result<Box<dyn Seat>, String> {
        Err("none".into())
    }
}

/// A bet: chance deals card `a` (7 in 10) or `b` face down; the one seat bets on it and scores
/// 1 when right. The seat sees `?` until the end.
#[derive(Clone)]
struct Bet {
    card: Option<char>,
    bet: Option<char>,
}

static BET_INFO: GameInfo = GameInfo {
    chance: Chance::Explicit,
    information: Information::Imperfect,
    ..GameInfo::new("bet", &[2], &["bettor"])
};

impl TableGame for Bet {
    type Action = char;
    fn info(&self) -> &'static GameInfo {
        &BET_INFO
    }
    fn seats(&self) -> usize {
        1
    }
    fn roles(&self, _: usize) -> Vec<&'static str> {
        vec!["bettor"]
    }
    fn actor(&self) -> Actor {
        match (self.card, self.bet) {
            (None, _) => Actor::Chance,
            (Some(_), None) => Actor::Seat(0, "bet"),
            _ => Actor::Over,
        }
    }
    fn legal_actions(&self) -> Vec<char> {
        if self.actor() == Actor::Over {
            vec![]
        } else {
            vec!['a', 'b']
        }
    }
    fn chance_outcomes(&self) -> Vec<(char, f64)> {
        vec![('a', 0.7), ('b', 0.3)]
    }
    fn parse_action(&self, text: &str) -> Result<char, String> {
        text.chars().next().ok_or("empty".into())
    }
    fn apply(&mut self, a: &char) -> Result<String, String> {
        if self.card.is_none() {
            self.card = Some(*a);
            Ok("dealt".into())
        } else {
            self.bet = Some(*a);
            Ok(format!("bet {a}"))
        }
    }
    type Observation = String;
    fn read_observation(&self, text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }
    fn observation(&self, _: usize) -> String {
        let card = match (self.card, self.bet) {
            (None, _) => '-',
            (Some(c), Some(_)) => c,
            (Some(_), None) => '?',
        };
        format!("{card} {}", self.bet.unwrap_or('-'))
    }
    fn state_text(&self) -> String {
        format!("{} {}", self.card.unwrap_or('-'), self.bet.unwrap_or('-'))
    }
    fn set_state(&mut self, text: &str) -> Result<(), String> {
        let c: Vec<char> = text.chars().collect();
        let opt = |c: char| (c != '-').then_some(c);
        *self = Bet {
            card: opt(c[0]),
            bet: opt(c[2]),
        };
        Ok(())
    }
    fn sample_observed(&self, _: usize, observation: &String, rng: &mut StdRng) -> Result<Bet, String> {
        // The hidden card by its odds; nothing of `self` is read.
        let card = if rng.random::<f64>() < 0.7 { 'a' } else { 'b' };
        let mut g = self.clone();
        g.set_state(&observation.replace('?', &card.to_string()))?;
        Ok(g)
    }
    fn outcome(&self) -> Option<Outcome> {
        let (c, b) = (self.card?, self.bet?);
        Some(Outcome {
            scores: vec![if c == b { 1.0 } else { 0.0 }],
            result: "bet".into(),
            reason: "card shown".into(),
        })
    }
    fn forfeit(&self, _: usize, _: &str) -> Outcome {
        unreachable!()
    }
    fn engine_seat(&self, _: usize, _: &Settings, _: u64) -> Result<Box<dyn Seat>, String> {
        Err("none".into())
    }
}

/// A signal: seat 0 plays a letter face down, then its partner, seat 1, names a letter or
/// passes (`z`). Both score 1 when the partner names the good letter (`a`) that seat 0 played,
/// 0.4 when it passes, and 0 otherwise. Seat 1 sees seat 0's letter as `?`: drawing it evenly,
/// naming `a` is worth 1/3 and passing is best; a partner that models seat 0 names `a`.
#[derive(Clone)]
struct Signal {
    played: Option<char>,
    named: Option<char>,
}

static SIGNAL_INFO: GameInfo = GameInfo {
    information: Information::Imperfect,
    ..GameInfo::new("signal", &[2], &["signaller", "partner"])
};

impl TableGame for Signal {
    type Action = char;
    fn info(&self) -> &'static GameInfo {
        &SIGNAL_INFO
    }
    fn seats(&self) -> usize {
        2
    }
    fn roles(&self, seat: usize) -> Vec<&'static str> {
        vec![["signaller", "partner"][seat]]
    }
    fn actor(&self) -> Actor {
        match (self.played, self.named) {
            (None, _) => Actor::Seat(0, "play"),
            (Some(_), None) => Actor::Seat(1, "name"),
            _ => Actor::Over,
        }
    }
    fn legal_actions(&self) -> Vec<char> {
        match self.actor() {
            Actor::Seat(0, _) => vec!['a', 'b', 'c'],
            Actor::Seat(..) => vec!['a', 'b', 'c', 'z'],
            _ => vec![],
        }
    }
    fn parse_action(&self, text: &str) -> Result<char, String> {
        text.chars().next().ok_or("empty".into())
    }
    fn apply(&mut self, a: &char) -> Result<String, String> {
        match self.actor() {
            Actor::Seat(0, _) => self.played = Some(*a),
            _ => self.named = Some(*a),
        }
        Ok(format!("{a}"))
    }
    type Observation = String;
    fn read_observation(&self, text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }
    fn observation(&self, seat: usize) -> String {
        let hidden = seat == 1 && self.named.is_none();
        let played = self.played.map(|c| if hidden { '?' } else { c });
        format!("{} {}", played.unwrap_or('-'), self.named.unwrap_or('-'))
    }
    fn state_text(&self) -> String {
        format!("{} {}", self.played.unwrap_or('-'), self.named.unwrap_or('-'))
    }
    fn set_state(&mut self, text: &str) -> Result<(), String> {
        let c: Vec<char> = text.chars().collect();
        let letter = |c: char| match c {
            '-' => Ok(None),
            'a' | 'b' | 'c' | 'z' => Ok(Some(c)),
            _ => Err(format!("'{c}': a letter or -")),
        };
        *self = Signal {
            played: letter(c[0])?,
            named: letter(c[2])?,
        };
        Ok(())
    }
    fn sample_observed(&self, _: usize, observation: &String, rng: &mut StdRng) -> Result<Signal, String> {
        // The hidden letter evenly.
        let letter = ['a', 'b', 'c'][rng.random_range(0..3)];
        let mut g = self.clone();
        g.set_state(&observation.replace('?', &letter.to_string()))?;
        Ok(g)
    }
    fn outcome(&self) -> Option<Outcome> {
        let (p, n) = (self.played?, self.named?);
        let v = match n {
            'z' => 0.4,
            _ if n == p && p == 'a' => 1.0,
            _ => 0.0,
        };
        Some(Outcome {
            scores: vec![v, v],
            result: "scored".into(),
            reason: "named".into(),
        })
    }
    fn forfeit(&self, _: usize, _: &str) -> Outcome {
        unreachable!()
    }
    fn engine_seat(&self, _: usize, _: &Settings, _: u64) -> Result<Box<dyn Seat>, String> {
        Err("none".into())
    }
}

/// The partner's choice after seat 0 played `played`, by an `mcts` seat with `extra` options
/// that saw the start (seat 0's choice still to come), then seat 0's letter face down.
fn partner_names(played: char, extra: &[(&str, &str)], seed: u64) -> String {
    let start = Signal {
        played: None,
        named: None,
    };
    let mut opts = options(&[("iterations", "400")]);
    opts.extend(options(extra));
    let mut p = Mcts::new(&start, 1, &opts, seed).unwrap();
    let mut g = start.clone();
    g.apply(&played).unwrap();
    p.see(&Seen::of(&g, 1)).unwrap();
    let legal: Vec<String> = g.legal_actions().iter().map(|a| a.to_string()).collect();
    p.decide(&legal).unwrap()
}

#[test]
fn a_partner_model_names_what_its_partner_would_play() {
    for seed in 0..4 {
        // Drawing the hidden letter evenly, the partner passes.
        assert_eq!(partner_names('a', &[], seed), "z", "seed {seed}");
        // Modelling seat 0 by seat 0's own search, it names `a`: seat 0 would play it.
        assert_eq!(partner_names('a', &[("partner", "200")], seed), "a", "seed {seed}");
        // The model is of seat 0's choice, not of the hidden letter: the same answer when
        // seat 0 in fact played `b`.
        assert_eq!(partner_names('b', &[("partner", "200")], seed), "a", "seed {seed}");
    }
}

/// A trap for a search that stops early: seat 0 plays `a` or `b`, then seat 1 (its opponent)
/// `x` or `y`. After `a` seat 1's `y` wins for seat 1, after `b` both seats draw; the heuristic,
/// which scores the state before seat 1's reply, calls `a` good for seat 0.
#[derive(Clone)]
struct Trap {
    moves: Vec<char>,
}

static TRAP_INFO: GameInfo = GameInfo::new("trap", &[2], &["player"]);

impl TableGame for Trap {
    type Action = char;
    fn info(&self) -> &'static GameInfo {
        &TRAP_INFO
    }
    fn seats(&self) -> usize {
        2
    }
    fn roles(&self, _: usize) -> Vec<&'static str> {
        vec!["player"]
    }
    fn actor(&self) -> Actor {
        match self.moves.len() {
            0 => Actor::Seat(0, "play"),
            1 => Actor::Seat(1, "reply"),
            _ => Actor::Over,
        }
    }
    fn legal_actions(&self) -> Vec<char> {
        match self.moves.len() {
            0 => vec!['a', 'b'],
            1 => vec!['x', 'y'],
            _ => vec![],
        }
    }
    fn parse_action(&self, text: &str) -> Result<char, String> {
        text.chars().next().ok_or("empty".into())
    }
    fn apply(&mut self, a: &char) -> Result<String, String> {
        self.moves.push(*a);
        Ok(format!("{a}"))
    }
    type Observation = String;
    fn read_observation(&self, text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }
    fn observation(&self, _: usize) -> String {
        self.state_text()
    }
    fn state_text(&self) -> String {
        self.moves.iter().collect()
    }
    fn set_state(&mut self, text: &str) -> Result<(), String> {
        self.moves = text.chars().collect();
        Ok(())
    }
    fn heuristic(&self) -> Option<Vec<f64>> {
        (self.moves == ['a']).then(|| vec![0.9, 0.1])
    }
    fn outcome(&self) -> Option<Outcome> {
        let v = match self.moves[..] {
            ['a', 'y'] => 0.0,
            ['a', 'x'] => 1.0,
            [_, _] => 0.5,
            _ => return None,
        };
        Some(Outcome {
            scores: vec![v, 1.0 - v],
            result: "played".into(),
            reason: "replied".into(),
        })
    }
    fn forfeit(&self, _: usize, _: &str) -> Outcome {
        unreachable!()
    }
    fn engine_seat(&self, _: usize, _: &Settings, _: u64) -> Result<Box<dyn Seat>, String> {
        Err("none".into())
    }
}

#[test]
fn a_search_limited_in_depth_scores_its_leaves_by_the_heuristic() {
    let trap = Trap { moves: vec![] };
    let legal = ["a".to_string(), "b".to_string()];
    for seed in 0..3 {
        let mut full = Mcts::new(&trap, 0, &options(&[("iterations", "300")]), seed).unwrap();
        assert_eq!(full.decide(&legal).unwrap(), "b", "seed {seed}: sees the reply");
        let shallow = options(&[("iterations", "300"), ("depth", "1")]);
        let mut shallow = Mcts::new(&trap, 0, &shallow, seed).unwrap();
        assert_eq!(
            shallow.decide(&legal).unwrap(),
            "a",
            "seed {seed}: trusts the heuristic"
        );
    }
}

fn options(text: &[(&str, &str)]) -> Settings {
    text.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

#[test]
fn mcts_finds_the_winning_take_in_nim() {
    // From 4 stones take 1 (leaving 3), from 5 take 2, from 7 take 1: every other take loses.
    for (stones, best) in [(4, "1"), (5, "2"), (7, "1"), (8, "2")] {
        for seed in 0..3 {
            let nim = Nim { stones, turn: 0 };
            let mut p = Mcts::new(&nim, 0, &options(&[("iterations", "2000")]), seed).unwrap();
            let legal: Vec<String> = nim.legal_actions().iter().map(|a| a.to_string()).collect();
            assert_eq!(p.decide(&legal).unwrap(), best, "{stones} stones, seed {seed}");
        }
    }
}

#[test]
fn mcts_bets_by_its_belief_and_never_by_the_hidden_card() {
    // The true card is `b`, the unlikely one: a player reading the true state would bet `b`.
    let game = Bet {
        card: Some('b'),
        bet: None,
    };
    for seed in 0..5 {
        let mut p = Mcts::new(&game, 0, &options(&[("iterations", "500")]), seed).unwrap();
        assert_eq!(p.decide(&["a".into(), "b".into()]).unwrap(), "a", "seed {seed}");
    }
}

#[test]
fn mcts_options_are_checked_and_seeds_repeat() {
    let nim = Nim { stones: 10, turn: 0 };
    for bad in [
        ("iterations", "0"),
        ("seconds", "-1"),
        ("width", "3"),
        ("explore", "x"),
        ("pick", "2"),
        ("depth", "-1"),
    ] {
        let e = Mcts::new(&nim, 0, &options(&[bad]), 1).err().expect("refused");
        assert!(e.contains(bad.0), "{e}");
    }
    // The same seed gives the same choices, with a tree too small to be sure of anything.
    let choices = |seed: u64| -> Vec<String> {
        (0..6)
            .map(|i| {
                let g = Nim {
                    stones: 10 + i,
                    turn: 0,
                };
                let mut p = Mcts::new(&g, 0, &options(&[("iterations", "3")]), seed).unwrap();
                p.decide(&["1".into(), "2".into()]).unwrap()
            })
            .collect()
    };
    assert_eq!(choices(9), choices(9));
}

/// Telepathy's heuristic (the leaves' value for IS-MCTS) counts the marker and a removal due:
/// with the same board, White's chances fall as the marker moves towards White's side (+2 makes
/// White remove a piece), and fall again while White must remove one.
#[test]
fn telepathy_leaves_count_the_marker_and_a_removal_due() {
    use menagerie::kit::telepathy::Telepathy;
    let white = |marker: &str, phase: &str| {
        let mut g = Telepathy::new(&Vec::new()).unwrap();
        let text = format!(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {marker} P,P NBRQKC,NBRQKC 0,2 - {phase} 0,0"
        );
        TableGame::set_state(&mut g, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let h = g.heuristic().expect("a value");
        assert_eq!(h[0], h[1]);
        assert!((h[0] + h[2] - 1.0).abs() < 1e-9);
        h[0]
    };
    let (towards_black, even, towards_white) = (white("-1", "predict"), white("0", "predict"), white("1", "predict"));
    assert!(
        towards_black > even && even > towards_white,
        "{towards_black} {even} {towards_white}"
    );
    assert!(white("0", "remove-white") < even);
    assert!(white("0", "remove-black") > even);
}

/// The generic Telepathy player's lead fades for the side ahead as plies pass without a pawn
/// move or capture (`fade`, 200 plies unless the engine seat's option says otherwise), so that
/// it makes progress instead of repeating the moves its partner predicts; the side behind
/// sees the whole lead.
#[test]
fn telepathy_leaves_fade_without_a_pawn_move_or_capture() {
    use menagerie::kit::telepathy::Telepathy;
    // White's and Black's chances with White a rook up, by the half-move clock and the marker.
    let chances = |clock: u32, marker: &str| {
        let mut g = Telepathy::new(&Vec::new()).unwrap();
        let text = format!(
            "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - {clock} 60 {marker} P,P NBRQKC,NBRQKC 0,2 - predict 0,0"
        );
        TableGame::set_state(&mut g, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let h = g.heuristic().expect("a value");
        assert_eq!((h[0], h[2]), (h[1], h[3]));
        (h[0], h[2])
    };
    let (fresh, behind) = chances(0, "0");
    assert!(fresh > 0.9 && (fresh + behind - 1.0).abs() < 1e-9, "{fresh} {behind}");
    let (half, _) = chances(100, "0");
    assert!(half < fresh && half > 0.6, "{half}");
    assert_eq!(chances(200, "0"), (0.5, behind));
    assert_eq!(chances(300, "1").0, 0.5);
    // Black a rook up: Black's lead fades, White's view stays.
    let mut g = Telepathy::new(&Vec::new()).unwrap();
    let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 200 60 0 P,P NBRQKC,NBRQKC 0,2 - predict 0,0";
    TableGame::set_state(&mut g, text).unwrap();
    let h = g.heuristic().expect("a value");
    assert!(h[0] < 0.1 && h[2] == 0.5, "{h:?}");
    // The option: plies from 0 (never) to 1000.
    let g = Telepathy::new(&Vec::new()).unwrap();
    let seat = |v: &str| g.engine_seat(0, &options(&[("fade", v)]), 1);
    assert!(seat("0").is_ok() && seat("1000").is_ok());
    for bad in ["-1", "1001", "x", ""] {
        let e = seat(bad).err().expect("refused");
        assert!(e.contains(&format!("fade={bad}")), "{e}");
    }
    let model = |o: &[(&str, &str)]| g.engine_seat(0, &options(o), 1);
    assert!(model(&[("player", "model")]).is_ok());
    let e = model(&[("player", "model"), ("fade", "10")]).err().expect("refused");
    assert!(e.contains("fade") && e.contains("player=model"), "{e}");
}

/// A leaf where the side to move may take the exposed king is won for it, and only then (the
/// reply search's quiescence scores a board without the king as mated).
#[test]
fn telepathy_leaves_with_an_exposed_king_are_won_by_the_side_to_move() {
    use menagerie::kit::telepathy::Telepathy;
    let white = |board: &str| {
        let mut g = Telepathy::new(&Vec::new()).unwrap();
        let text = format!("{board} 0 1 0 P,P NBRQKC,NBRQKC 1,2 - predict");
        TableGame::set_state(&mut g, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        g.heuristic().expect("a value")[0]
    };
    // Black to move may take the king on e1 (White the king on g8); with the bishop between,
    // it may not.
    assert!(white("4r1k1/8/8/8/8/8/8/4K2B b - -") < 0.01);
    assert!(white("R5k1/8/8/8/8/8/8/4K3 w - -") > 0.99);
    let shielded = white("4r1k1/8/8/8/8/8/4B3/4K3 b - -");
    assert!(shielded > 0.05 && shielded < 0.95, "{shielded}");
}

/// `apply_unseen` (what the search applies) leaves the state, outcome and tally that `apply`
/// leaves, at every step of seeded random games of the games that write it their own way:
/// Coop2 (two seats and the solitaire), Gravity, Telepathy (with and without an end by
/// removals) and Split-Brain (target and vector marks; its tally, a search of every turn,
/// compared at each game's end).
#[test]
fn apply_unseen_leaves_what_apply_leaves() {
    use menagerie::kit::coop2::Coop2;
    use menagerie::kit::gravity::Gravity;
    use menagerie::kit::splitbrain::SplitBrain;
    use menagerie::kit::telepathy::Telepathy;
    use rand::SeedableRng;
    fn walk<G: TableGame>(start: G, games: u64) -> usize {
        walk_tallied(start, games, true)
    }
    fn walk_tallied<G: TableGame>(start: G, games: u64, every_step: bool) -> usize {
        let mut steps = 0;
        for seed in 0..games {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut g = start.clone();
            loop {
                let pick = match g.actor() {
                    Actor::Over => break,
                    Actor::Chance => g.chance_outcomes().into_iter().map(|(a, _)| a).collect::<Vec<_>>(),
                    Actor::Seat(..) => g.legal_actions(),
                };
                let a = pick[rng.random_range(0..pick.len())].clone();
                let mut unseen = g.clone();
                unseen.apply_unseen(&a).unwrap();
                g.apply(&a).unwrap();
                assert_eq!(unseen.state_text(), g.state_text(), "seed {seed} step {steps}");
                assert_eq!(unseen.outcome(), g.outcome(), "seed {seed} step {steps}");
                if every_step || g.outcome().is_some() {
                    assert_eq!(unseen.tally(), g.tally(), "seed {seed} step {steps}");
                }
                steps += 1;
            }
        }
        steps
    }
    let solitaire: Settings = vec![("seats".into(), "1".into())];
    assert!(walk(Coop2::new(&Vec::new()).unwrap(), 20) > 1000);
    assert!(walk(Coop2::new(&solitaire).unwrap(), 20) > 1000);
    assert!(walk(Gravity::new(&Vec::new()).unwrap(), 10) > 500);
    assert!(walk(Telepathy::new(&Vec::new()).unwrap(), 10) > 1000);
    assert!(walk(Telepathy::new(&options(&[("removals_end", "2")])).unwrap(), 10) > 200);
    for marks in ["target", "vector"] {
        let start = SplitBrain::new(&options(&[("marks", marks), ("limit", "200")])).unwrap();
        assert!(walk_tallied(start, 6, false) > 1000, "{marks}");
    }
}

/// Split-Brain's search leaves out exactly the marks that would be snapped (which the
/// opponent's chooser then places): along seeded random games, with target and vector marks, a
/// piece or target mark is among the search's actions if and only if it is not snapped.
#[test]
fn splitbrain_searches_the_marks_that_are_not_snapped() {
    use menagerie::kit::splitbrain::SplitBrain;
    use rand::SeedableRng;
    let phase = |g: &SplitBrain| g.state_text().split_whitespace().rev().nth(1).unwrap().to_string();
    let mut checked = 0;
    for marks in ["target", "vector"] {
        for seed in 0..3 {
            let mut g = SplitBrain::new(&options(&[("marks", marks)])).unwrap();
            let mut rng = StdRng::seed_from_u64(seed);
            for _ in 0..80 {
                if g.actor() == Actor::Over {
                    break;
                }
                let (legal, searched, now) = (g.legal_actions(), g.search_actions(), phase(&g));
                if now == "piece" || now == "target" {
                    assert!(!searched.is_empty() && searched.iter().all(|a| legal.contains(a)));
                    for a in &legal {
                        // Mark `a` (and a valid target after a piece mark); a mark is snapped by
                        // rule (the event says so) or by the opponent's choice (a snap phase).
                        let mut h = g.clone();
                        let mut events = h.apply(a).unwrap();
                        if now == "piece" {
                            let t = h.search_actions()[0];
                            events += &h.apply(&t).unwrap();
                        } else if phase(&h) == "snap-piece" {
                            let s = h.legal_actions()[0];
                            events += &h.apply(&s).unwrap();
                        }
                        let own = a.to_string().split_whitespace().nth(1).unwrap().to_string();
                        if now == "target" && g.state_text().ends_with(&format!(" {own},-")) {
                            continue; // the piece mark's own snap would read the same
                        }
                        let snapped = phase(&h) == if now == "piece" { "snap-piece" } else { "snap-target" }
                            || events.contains(&format!("snapped {own}->"));
                        assert_eq!(searched.contains(a), !snapped, "{marks} {now} {a}: {}", g.state_text());
                        checked += 1;
                    }
                }
                let a = legal[rng.random_range(0..legal.len())];
                g.apply(&a).unwrap();
            }
        }
    }
    assert!(checked > 1000, "{checked} marks checked");
}

/// Split-Brain's engine seat is the generic player with the options chosen in matches against
/// the hand-made one (BENCHMARKS.md), which `engine:player=focal` still gives.
#[test]
fn splitbrain_s_engine_seat_is_the_generic_player_with_its_options() {
    use menagerie::kit::new_table;
    use menagerie::table::referee;
    use menagerie::table::seats::make_seats;
    let record = |spec: &str| {
        let mut t = new_table("splitbrain", &Vec::new()).unwrap();
        let names = vec![spec.to_string(), "random".into(), "random".into(), "random".into()];
        let mut seats = make_seats(t.as_ref(), &names, 3, 30.0).unwrap();
        let p = referee::play(t.as_mut(), &mut seats, 3, &names, &Vec::new(), true, 30.0);
        // The steps, without the header (which names the seats); the first 30.
        p.record[1..].iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    };
    let engine = record("engine");
    assert_eq!(
        engine,
        record("mcts:iterations=500:partner=500:depth=4:explore=30:pick=1")
    );
    assert_ne!(
        engine,
        record("mcts:iterations=400:partner=500:depth=4:explore=30:pick=1"),
        "at 400 iterations"
    );
    assert_ne!(engine, record("engine:player=focal"), "played as the hand-made player");
}

/// Telepathy's and Split-Brain's beliefs (read once per observation, then only dealing what
/// is hidden) draw every hidden card or mark the observation allows, about evenly, and agree
/// with reading the observation afresh: along seeded random games, each seat facing a hidden
/// face-down card draws each of the six cards besides its team's face-up one, and a target
/// chooser draws the piece mark on each square holding a piece that can move (counted here
/// from the board's legal moves).
#[test]
fn beliefs_draw_every_hidden_card_and_mark_about_evenly() {
    use menagerie::games::AnyGame;
    use menagerie::kit::splitbrain::SplitBrain;
    use menagerie::kit::telepathy::Telepathy;
    use menagerie::{MoveList, Position, default_variants};
    use rand::SeedableRng;
    use std::collections::BTreeMap;
    // The hidden part of a drawn state (a word of its text) and how many values it may take.
    type Hidden = fn(&str) -> (String, usize);
    fn walk<G: TableGame>(start: G, hidden: Hidden) -> usize {
        let mut checked = 0;
        for seed in 0..3 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut g = start.clone();
            for step in 0..120 {
                let Actor::Seat(..) = g.actor() else { break };
                for s in 0..g.seats() {
                    let value = g.observation(s);
                    let obs = value.to_string();
                    if obs == g.state_text() {
                        continue;
                    }
                    let mut belief = g.belief(s);
                    belief.see(&value).unwrap();
                    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
                    let draws = 300;
                    for k in 0..draws {
                        let drawn = belief.sample(&mut StdRng::seed_from_u64(k)).unwrap();
                        let read = start.sample_observed(s, &value, &mut StdRng::seed_from_u64(k)).unwrap();
                        assert_eq!(drawn.state_text(), read.state_text());
                        assert_eq!(drawn.observe(s), obs);
                        *seen.entry(hidden(&drawn.state_text()).0).or_default() += 1;
                    }
                    let want = hidden(&g.state_text()).1;
                    let at = format!("seed {seed} step {step} seat {s}: {obs}: {seen:?}");
                    assert_eq!(seen.len(), want, "{at}");
                    let even = draws as usize / want;
                    assert!(seen.values().all(|&n| n * 2 > even && n < even * 2), "{at}");
                    checked += 1;
                }
                let legal = g.legal_actions();
                g.apply(&legal[rng.random_range(0..legal.len())]).unwrap();
            }
        }
        checked
    }
    // Telepathy: the face-down card; six cards are possible, seven without a face-up card.
    let card: Hidden = |text| {
        let w: Vec<&str> = text.split_whitespace().collect();
        let team = usize::from(w[1] == "b");
        let face = w[7].split(',').nth(team).unwrap();
        (w[10].to_string(), if face == "-" { 7 } else { 6 })
    };
    assert!(walk(Telepathy::new(&Vec::new()).unwrap(), card) > 50);
    // Split-Brain: the piece mark, on any square a legal move starts from.
    let mark: Hidden = |text| {
        let w: Vec<&str> = text.split_whitespace().collect();
        let Some(AnyGame::Plain(game)) = default_variants().get("losalamos") else {
            panic!()
        };
        let pos = Position::from_fen(game.clone(), &w[..6].join(" ")).unwrap();
        let mut list = MoveList::new();
        pos.clone().legal_moves(&mut list);
        let mut from: Vec<_> = list.iter().map(|m| m.from()).collect();
        from.sort_by_key(|s| s.index());
        from.dedup();
        (w[8].split(',').next().unwrap().to_string(), from.len())
    };
    assert!(walk(SplitBrain::new(&Vec::new()).unwrap(), mark) > 20);
}

/// The partner model draws the state each unseen action of another seat made by that seat's
/// own search: the action it would play gets about half the weight (its visits again), and
/// every action the observation allows keeps half a visit, so even one the short search never
/// tried is drawn.
#[test]
fn the_partner_model_keeps_every_allowed_action_possible() {
    use menagerie::kit::telepathy::Telepathy;
    use menagerie::table::mcts::{Belief, MctsOptions, PartnerModel};
    use rand::SeedableRng;
    use std::collections::HashMap;
    let mut g = Telepathy::new(&Vec::new()).unwrap();
    let Actor::Seat(predictor, _) = g.actor() else {
        panic!("a seat acts first")
    };
    let mover = predictor ^ 1;
    // Three iterations over six cards: three are never tried.
    let options = MctsOptions::parse(&vec![("partner".to_string(), "3".to_string())]).unwrap();
    let mut model = PartnerModel::new(&g, mover, g.belief(mover), &options);
    model.see(&g.observe(mover)).unwrap();
    let card = g.parse_action("card Q").unwrap();
    TableGame::apply(&mut g, &card).unwrap();
    model.see(&g.observe(mover)).unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    let mut drawn: HashMap<String, usize> = HashMap::new();
    let draws = 3000;
    for _ in 0..draws {
        let s = model.sample(&mut rng).unwrap();
        assert_eq!(
            s.observe(mover),
            g.observe(mover),
            "a draw the mover's observation allows"
        );
        *drawn.entry(s.state_text()).or_default() += 1;
    }
    assert_eq!(drawn.len(), 6, "each card the predictor held: {drawn:?}");
    let most = drawn.values().max().copied().unwrap();
    assert!(
        most * 100 >= draws * 40,
        "the search's pick has about half the weight: {drawn:?}"
    );
    // Half a visit of 3 + 3 + 3 (the visits, the pick's bonus and the half visits): 1 in 18.
    assert!(drawn.values().all(|&n| n * 30 > draws), "{drawn:?}");
}

/// A search that stops once its pick cannot change (the default) answers as the same search
/// spending its whole budget (`settle=0`) with the same seed, at seat decisions along seeded
/// random games of Telepathy and Split-Brain (`pick=1`) and Gravity (the most visited); some
/// of those searches do stop early.
#[test]
fn a_search_that_stops_early_answers_as_the_whole_search() {
    use menagerie::kit::gravity::Gravity;
    use menagerie::kit::splitbrain::SplitBrain;
    use menagerie::kit::telepathy::Telepathy;
    use rand::SeedableRng;
    fn walk<G: TableGame>(start: G, spec: &[(&str, &str)], games: u64) -> (usize, usize) {
        let (mut compared, mut early) = (0, 0);
        let whole: Vec<(&str, &str)> = spec.iter().copied().chain([("settle", "0")]).collect();
        for seed in 0..games {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut g = start.clone();
            for step in 0.. {
                let pick = match g.actor() {
                    Actor::Over => break,
                    Actor::Chance => g.chance_outcomes().into_iter().map(|(a, _)| a).collect::<Vec<_>>(),
                    Actor::Seat(seat, _) => {
                        if step % 3 == 0 {
                            let mut a = Mcts::new(&g, seat, &options(spec), seed).unwrap();
                            let mut b = Mcts::new(&g, seat, &options(&whole), seed).unwrap();
                            let (x, y) = (a.search().unwrap().to_string(), b.search().unwrap().to_string());
                            assert_eq!(x, y, "seed {seed} step {step}: {}", g.state_text());
                            compared += 1;
                            if a.iterations_run() < b.iterations_run() {
                                early += 1;
                            }
                        }
                        g.legal_actions()
                    }
                };
                let a = pick[rng.random_range(0..pick.len())].clone();
                g.apply(&a).unwrap();
                if step > 150 {
                    break;
                }
            }
        }
        (compared, early)
    }
    let picked = [("iterations", "200"), ("pick", "1"), ("depth", "2")];
    let (t, te) = walk(Telepathy::new(&Vec::new()).unwrap(), &picked, 3);
    let (s, se) = walk(SplitBrain::new(&Vec::new()).unwrap(), &picked, 3);
    let (g, ge) = walk(Gravity::new(&Vec::new()).unwrap(), &[("iterations", "200")], 3);
    assert!(t > 50 && s > 50 && g > 20, "compared {t} {s} {g}");
    assert!(te > 0 && se > 0 && ge > 0, "stopped early {te} {se} {ge}");
}

/// The generic Split-Brain player remembers the boards its seat saw since the last pawn move or
/// capture, and values a move back to one of them as a draw (threefold repetition is a rule by
/// default): the side ahead then looks for progress. Its own belief carries the memory, and so
/// do the partner model's draws and a belief made from a drawn state (the partner's search).
#[test]
fn splitbrain_s_player_values_a_board_it_saw_before_as_a_draw() {
    use menagerie::kit::splitbrain::SplitBrain;
    use menagerie::table::mcts::{Belief, MctsOptions, PartnerModel};
    use rand::SeedableRng;
    // White a queen up; the knights go out and back, and the first board comes again.
    let boards = [
        "rn1knr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1",
        "rn1knr/pppppp/6/2N3/PPPPPP/R1QKNR b - - 1 1",
        "r2knr/pppppp/2n3/2N3/PPPPPP/R1QKNR w - - 2 2",
        "r2knr/pppppp/2n3/6/PPPPPP/RNQKNR b - - 3 2",
        "rn1knr/pppppp/6/6/PPPPPP/RNQKNR w - - 4 3",
    ];
    let state = |g: &mut SplitBrain, fen: &str| {
        TableGame::set_state(g, &format!("{fen} k piece -,-")).unwrap_or_else(|e| panic!("{fen}: {e}"));
    };
    let play = |g: &mut SplitBrain, actions: &[&str]| {
        for a in actions {
            let a = g.parse_action(a).unwrap();
            TableGame::apply(g, &a).unwrap();
        }
    };
    let white = |g: &SplitBrain| g.heuristic().expect("a value")[0];
    // Seat 0's draw after it saw `seen` (the last one the board it is on).
    let drawn = |settings: &[(&str, &str)], seen: &[&str]| {
        let mut g = SplitBrain::new(&options(settings)).unwrap();
        let mut belief = g.belief(0);
        for fen in seen {
            state(&mut g, fen);
            belief.see(&g.observe(0)).unwrap();
        }
        belief.sample(&mut StdRng::seed_from_u64(1)).unwrap()
    };
    // Black's knight goes back to b6, to the first board: a draw if that board was seen.
    let back = |mut g: SplitBrain| {
        play(&mut g, &["mark c4", "mark b6"]);
        let board = |t: &str| t.split(' ').next().unwrap_or_default().to_string();
        assert_eq!(board(&g.state_text()), board(boards[0]));
        white(&g)
    };
    assert_eq!(back(drawn(&[], &boards[..4])), 0.5);
    assert!(back(drawn(&[], &boards[1..4])) > 0.7, "the first board not seen");
    assert!(
        back(drawn(&[("draws", "off")], &boards[..4])) > 0.7,
        "no repetition rule"
    );
    // A pawn move or capture (the clock at 0) forgets what came before.
    let reset = "r2knr/pppppp/2n3/6/PPPPPP/RNQKNR b - - 0 2";
    assert!(back(drawn(&[], &[&boards[..3], &[reset]].concat())) > 0.7);
    // The board a seat is on is not a repetition itself, even seen before.
    assert!(white(&drawn(&[], &boards)) > 0.7);
    // A belief made from a drawn state (a partner model's search of it) remembers as much.
    let d = drawn(&[], &boards[..4]);
    let mut again = d.belief(2);
    again.see(&d.observe(2)).unwrap();
    assert_eq!(back(again.sample(&mut StdRng::seed_from_u64(3)).unwrap()), 0.5);
    // The mover's partner model: after the hidden piece mark, the draws made from the whole
    // board it saw remember the boards too (White's knight back to c3 is a seen board).
    let mut g = SplitBrain::new(&Vec::new()).unwrap();
    let mover = 1;
    let partner = MctsOptions::parse(&options(&[("partner", "20")])).unwrap();
    let mut model = PartnerModel::new(&g, mover, g.belief(mover), &partner);
    for fen in boards {
        state(&mut g, fen);
        model.see(&g.observe(mover)).unwrap();
    }
    play(&mut g, &["mark b1"]);
    model.see(&g.observe(mover)).unwrap();
    assert!(
        g.observe(mover).contains("?,"),
        "the piece mark is hidden from the mover"
    );
    let mut rng = StdRng::seed_from_u64(2);
    let mut checked = 0;
    for _ in 0..200 {
        let mut s = model.sample(&mut rng).unwrap();
        if s.state_text().ends_with("target b1,-") {
            play(&mut s, &["mark c3"]);
            assert_eq!(white(&s), 0.5, "{}", s.state_text());
            checked += 1;
        }
    }
    assert!(checked > 0, "the knight's mark drawn");
    // The engine seat's option, the generic player's only.
    let seat = |o: &[(&str, &str)]| g.engine_seat(0, &options(o), 1);
    assert!(seat(&[("repeats", "on")]).is_ok() && seat(&[("repeats", "off")]).is_ok());
    let e = seat(&[("repeats", "x")]).err().expect("refused");
    assert!(e.contains("repeats=x"), "{e}");
    let e = seat(&[("player", "focal"), ("repeats", "off")]).err().expect("refused");
    assert!(e.contains("player=focal"), "{e}");
}
