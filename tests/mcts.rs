//! The generic IS-MCTS player (`src/table/mcts.rs`) on two small games written here: Nim, where
//! it must find the winning take, and a bet on a hidden card, where it must bet by the odds its
//! belief allows and not by the true card (which a player that read the true state would see).

use menagerie::table::mcts::Mcts;
use menagerie::table::seats::{Player, Seat};
use menagerie::table::{Actor, Chance, GameInfo, Information, Outcome, Settings, TableGame};
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
    fn observe(&self, _: usize) -> String {
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
    fn observe(&self, _: usize) -> String {
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
    fn sample_observed(&self, _: usize, observation: &str, rng: &mut StdRng) -> Result<Bet, String> {
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
    for bad in [("iterations", "0"), ("seconds", "-1"), ("depth", "3"), ("explore", "x")] {
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

/// `apply_unseen` (what the search applies) leaves the state and outcome that `apply` leaves,
/// at every step of seeded random games of the games that write it their own way: Coop2 (two
/// seats and the solitaire) and Gravity.
#[test]
fn apply_unseen_leaves_what_apply_leaves() {
    use menagerie::kit::coop2::Coop2;
    use menagerie::kit::gravity::Gravity;
    use rand::SeedableRng;
    fn walk<G: TableGame>(start: G, games: u64) -> usize {
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
                steps += 1;
            }
        }
        steps
    }
    let solitaire: Settings = vec![("seats".into(), "1".into())];
    assert!(walk(Coop2::new(&Vec::new()).unwrap(), 20) > 1000);
    assert!(walk(Coop2::new(&solitaire).unwrap(), 20) > 1000);
    assert!(walk(Gravity::new(&Vec::new()).unwrap(), 10) > 500);
}
