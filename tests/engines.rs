//! Menagerie's own player finishes games of every table game in every seat without losing a
//! seat: each observation the referee sends in a real game is one its view reads.

use menagerie::kit;
use menagerie::table::referee;

#[test]
fn engine_seats_finish_every_table_game_without_a_forfeit() {
    for game in kit::names() {
        // One RBC game: its player does a fixed amount of work per decision, for repeatable games.
        let seeds = if game == "rbc" { 1 } else { 2 };
        for seed in 1..=seeds {
            let mut table = kit::new_table(game, &Vec::new()).unwrap();
            let mut seats: Vec<_> = (0..table.seats())
                .map(|i| table.engine_seat(i, &Vec::new(), seed * 10 + i as u64).unwrap())
                .collect();
            let names = vec!["engine".to_string(); seats.len()];
            let p = referee::play(table.as_mut(), &mut seats, seed, &names, &Vec::new(), false, 1.0);
            assert!(
                !p.outcome.reason.contains("forfeits"),
                "{game} seed {seed}: {}",
                p.outcome
            );
        }
    }
}
