//! What Gravity keeps with its board.

use super::{Gravity, occupancy, stacked};
use crate::table::{Actor, TableGame};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A random chance outcome or legal action of `g`; `None` once the game is over.
fn random_action(g: &Gravity, rng: &mut StdRng) -> Option<super::Action> {
    match g.actor() {
        Actor::Over => None,
        Actor::Chance => {
            let odds = g.chance_outcomes();
            Some(odds[rng.random_range(0..odds.len())].0)
        }
        Actor::Seat(..) => {
            let legal = g.legal_actions();
            Some(legal[rng.random_range(0..legal.len())])
        }
    }
}

#[test]
fn the_occupancy_and_stacked_pieces_kept_are_those_of_the_board() {
    let mut rng = StdRng::seed_from_u64(7);
    for settings in [&[][..], &[("order", "bottom-up")], &[("end", "fall"), ("last", "both")]] {
        let settings = settings.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect();
        for _ in 0..40 {
            let mut g = Gravity::new(&settings).expect("settings");
            let mut steps = 0;
            loop {
                assert_eq!(g.occ, occupancy(&g.board), "{}", g.state_text());
                assert_eq!(g.st, stacked(&g.board), "{}", g.state_text());
                let Some(a) = random_action(&g, &mut rng) else { break };
                // Half the time through the state text, which is read again.
                if rng.random_range(0..2) == 0 {
                    g.apply(&a).expect("legal");
                } else {
                    g.apply_unseen(&a).expect("legal");
                    let mut h = g.clone();
                    h.set_state(&g.state_text()).expect("its own state");
                    g = h;
                }
                steps += 1;
            }
            assert!(steps > 50);
        }
    }
}

/// A seat's observation is the state itself, and its text reads back as that state: the seat
/// shown the text (a hint replaying a page's observations) and the seat handed the value see
/// the same game.
#[test]
fn an_observation_s_text_reads_back_as_the_observation() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut aside_read = 0;
    for settings in [&[][..], &[("order", "bottom-up")], &[("end", "fall"), ("last", "both")]] {
        let settings = settings.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect();
        for _ in 0..20 {
            let mut g = Gravity::new(&settings).expect("settings");
            loop {
                for seat in 0..2 {
                    let o = g.observation(seat);
                    let read = g.read_observation(&o.to_string()).expect("its own observation");
                    assert!(read == o, "{o}");
                }
                // The pieces set aside are counted when a text is read: one piece taken off
                // the board as if set aside (rank 8 full is too rare in random games).
                if let Some(s) = (0..64)
                    .rev()
                    .find(|&s| g.board[s].is_some() && g.remaining >> s & 1 == 0)
                {
                    let mut h = g.clone();
                    h.board[s] = None;
                    h.placed(occupancy(&h.board));
                    h.set_aside += 1;
                    if let Ok(read) = h.read_observation(&h.to_string()) {
                        assert_eq!(read.set_aside, h.set_aside, "{h}");
                        aside_read += 1;
                    }
                }
                let Some(a) = random_action(&g, &mut rng) else { break };
                g.apply(&a).expect("legal");
            }
        }
    }
    // Most such states read (a piece taken off may leave a state its turn refuses).
    assert!(aside_read > 1000, "{aside_read}");
}
