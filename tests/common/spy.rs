//! A seat that plays at random and logs every line it is sent, for the observation-gate tests.

use menagerie::kit::new_table;
use menagerie::table::referee::{self, Played};
use menagerie::table::seats::{Answer, PlayerError, RandomSeat, Seat, SeatError};
use menagerie::table::{Outcome, Seen, Settings};
use std::sync::{Arc, Mutex};

/// A seat that plays at random and keeps every line it is sent.
struct Spy {
    inner: RandomSeat,
    seat: usize,
    log: Arc<Mutex<Vec<(usize, String)>>>,
}

impl Seat for Spy {
    fn start(&mut self, g: &str, seat: usize, n: usize, roles: &[&str], s: &Settings) -> Result<(), SeatError> {
        self.seat = seat;
        self.inner.start(g, seat, n, roles, s)
    }
    fn see(&mut self, o: &Seen) -> Result<(), SeatError> {
        self.log.lock().unwrap().push((self.seat, format!("see {}", o.text())));
        Ok(())
    }
    fn event(&mut self, e: &str) -> Result<(), SeatError> {
        self.log.lock().unwrap().push((self.seat, format!("event {e}")));
        Ok(())
    }
    fn ask(&mut self, id: u64, kind: &str, s: f64, legal: &[String]) -> Result<Answer, SeatError> {
        self.inner.ask(id, kind, s, legal)
    }
    fn refused(&mut self, m: &str) -> Result<(), SeatError> {
        Err(SeatError::Player(PlayerError::Failed(m.to_string())))
    }
    fn end(&mut self, _: &Outcome) {}
}

pub fn spied_game(name: &str, seed: u64) -> (Played, Vec<(usize, String)>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut t = new_table(name, &Vec::new()).unwrap();
    let n = t.seats();
    let mut seats: Vec<Box<dyn Seat>> = (0..n as u64)
        .map(|i| {
            Box::new(Spy {
                inner: RandomSeat::new(seed * 10 + i),
                seat: 0,
                log: Arc::clone(&log),
            }) as Box<dyn Seat>
        })
        .collect();
    let names = vec!["random".to_string(); n];
    let p = referee::play(t.as_mut(), &mut seats, seed, &names, &Vec::new(), true, 30.0);
    let lines = log.lock().unwrap().clone();
    (p, lines)
}
