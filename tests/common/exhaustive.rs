//! An exhaustive search through a table game's own text interface, independent of any solver:
//! for checking that a solver's best play is really the best.

use menagerie::table::{Actor, Table};
use std::collections::HashSet;

/// Whether some play of at most `depth` actions from `t` wins: every state reachable that
/// far, breadth first, each distinct state text once.
pub fn wins_within(t: &dyn Table, depth: u32) -> bool {
    let mut level = vec![t.clone_box()];
    let mut seen: HashSet<String> = HashSet::new();
    for _ in 0..depth {
        let mut next = Vec::new();
        for s in &level {
            for a in s.actions() {
                let mut c = s.clone_box();
                c.act(&a).unwrap();
                if c.outcome().is_some_and(|o| o.result == "win") {
                    return true;
                }
                if c.actor() != Actor::Over && seen.insert(c.state_text()) {
                    next.push(c);
                }
            }
        }
        level = next;
    }
    false
}
