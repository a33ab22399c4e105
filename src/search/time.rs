//! Protocol-neutral search limits and the clock that enforces them.

use super::strength::Strength;
use std::time::{Duration, Instant};

/// What bounds a search. CECP and UCI both map their commands into this.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<Duration>,
    /// Time left on our clock.
    pub time_left: Option<Duration>,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control (None: sudden death or increment).
    pub moves_to_go: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Treat this many nodes as one second (CECP `nps`).
    pub nps: Option<u64>,
    /// Safety margin subtracted from every time budget.
    pub overhead: Duration,
    /// Principal variations to find, best first (0 or 1: one).
    pub multipv: usize,
    /// Stop once a mate in at most this many moves is proved (UCI `go mate N`).
    pub mate: Option<u32>,
    /// A ponder search: the clock does not run while the searcher's ponder flag is set, and
    /// the search does not end on its own before that (the protocol's `ponderhit` clears it).
    pub ponder: bool,
    /// Play at this strength level (UCI `UCI_LimitStrength`): a node budget and a noisy choice
    /// among several lines. Not for infinite analysis.
    pub strength: Option<Strength>,
}

/// Soft and hard time budgets for one search.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: Instant,
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop at once after this.
    pub hard: Option<Duration>,
    nps: Option<u64>,
}

impl Clock {
    /// Budgets for a search starting now.
    pub fn new(l: &Limits) -> Clock {
        let start = Instant::now();
        let min = Duration::from_millis(5);
        let (soft, hard) = if l.infinite {
            (None, None)
        } else if let Some(mt) = l.movetime {
            let t = mt.saturating_sub(l.overhead).max(min);
            (Some(t), Some(t))
        } else if let Some(left) = l.time_left {
            let left = left.saturating_sub(l.overhead);
            let mtg = l.moves_to_go.unwrap_or(30).clamp(1, 40);
            let base = left / mtg + l.increment * 3 / 4;
            let hard_cap = if mtg == 1 { left * 7 / 10 } else { left / 3 };
            let soft = (base * 6 / 10).min(hard_cap).max(min);
            let hard = (base * 3).min(hard_cap).max(min);
            (Some(soft), Some(hard))
        } else {
            (None, None)
        };
        Clock {
            start,
            soft,
            hard,
            nps: l.nps.filter(|&n| n > 0),
        }
    }

    /// Time spent, or nodes turned into time under CECP `nps`.
    #[inline]
    pub fn elapsed(&self, nodes: u64) -> Duration {
        match self.nps {
            Some(nps) => Duration::from_micros(nodes.saturating_mul(1_000_000) / nps),
            None => self.start.elapsed(),
        }
    }

    /// Wall-clock time since the start.
    pub fn wall(&self) -> Duration {
        self.start.elapsed()
    }
}
