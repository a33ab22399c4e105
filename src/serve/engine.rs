//! The server's engine thread: one job at a time (a board's search, a table seat's hint), one
//! searcher kept between searches and cleared when the variant changes. A job that panics is
//! a bug; the thread survives it.

use crate::search::Searcher;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Sender, channel};

/// Work for the engine thread.
pub type Job = Box<dyn FnOnce(&mut Searcher) + Send>;

/// A handle on the engine thread.
#[derive(Clone)]
pub struct Engine {
    jobs: Sender<(String, Job)>,
}

impl Engine {
    /// Starts the engine thread.
    pub fn start() -> Engine {
        let (tx, rx) = channel::<(String, Job)>();
        std::thread::Builder::new()
            .name("engine".into())
            .spawn(move || {
                let mut searcher = Searcher::new(32, Arc::new(AtomicBool::new(false)));
                let mut last = String::new();
                for (variant, job) in rx {
                    // Keys do not name the variant: another variant's entries would mislead.
                    if !variant.is_empty() && variant != last {
                        searcher.clear();
                        last = variant;
                    }
                    let run = std::panic::AssertUnwindSafe(|| job(&mut searcher));
                    if std::panic::catch_unwind(run).is_err() {
                        searcher.clear();
                    }
                }
            })
            .expect("the engine thread starts");
        Engine { jobs: tx }
    }

    /// Queues `job`; `variant` names the variant it searches (empty: it does not search).
    pub fn run(&self, variant: String, job: Job) {
        let _ = self.jobs.send((variant, job));
    }
}
