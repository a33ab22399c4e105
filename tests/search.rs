//! Search: finds mates, returns legal moves, respects limits, and allocates nothing during `go`
//! once the searcher exists (counting global allocator).

use menagerie::games::{self, GameVisitor};
use menagerie::search::{Limits, MATE_BOUND, Searcher, Silent};
use menagerie::{Game, MoveList, Position, Rules, default_variants};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[path = "common/alloc_counter.rs"]
mod alloc_counter;
use alloc_counter::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

struct Go {
    fen: Option<&'static str>,
    limits: Limits,
}

struct Outcome {
    allocs: usize,
    best: String,
    legal: bool,
    score: i32,
    nodes: u64,
}

impl GameVisitor for Go {
    type Output = Outcome;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Outcome {
        let mut pos = match self.fen {
            Some(f) => Position::from_fen(game, f).unwrap(),
            None => Position::startpos(game),
        };
        let mut searcher = Searcher::new(8, Arc::new(AtomicBool::new(false)));
        // One search to warm up (first use of lazily built std internals), then the measured one.
        searcher.go(
            &mut pos,
            Limits {
                depth: Some(2),
                ..Limits::default()
            },
            &mut Silent,
        );
        let mut result = None;
        let allocs = allocations(|| {
            result = Some(searcher.go(&mut pos, self.limits, &mut Silent));
        });
        let r = result.unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        Outcome {
            allocs,
            best: menagerie::notation::move_text(&pos, r.best),
            legal: list.contains(&r.best),
            score: r.score,
            nodes: r.nodes,
        }
    }
}

fn go(variant: &str, fen: Option<&'static str>, limits: Limits) -> Outcome {
    let set = default_variants();
    games::dispatch(set.get(variant).unwrap(), Go { fen, limits })
}

#[test]
fn a_whole_go_allocates_nothing() {
    for (variant, fen) in [
        ("chess", None),
        (
            "chess",
            Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        ),
        ("losalamos", None),
        ("capablanca", None),
        ("chess911", None),
        ("tensor", None),
    ] {
        let o = go(
            variant,
            fen,
            Limits {
                depth: Some(6),
                ..Limits::default()
            },
        );
        assert!(o.legal, "{variant}: illegal best move {}", o.best);
        assert!(
            o.nodes > 500,
            "{variant}: the search must do real work ({} nodes)",
            o.nodes
        );
        assert_eq!(o.allocs, 0, "{variant}: {} allocations during go", o.allocs);
    }
}

#[test]
fn finds_mates() {
    // Mate in one (back rank) and mate in two (queen and rook).
    let o = go(
        "chess",
        Some("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
        Limits {
            depth: Some(4),
            ..Limits::default()
        },
    );
    assert_eq!(o.best, "d1d8");
    assert!(o.score > MATE_BOUND);
    let o = go(
        "chess",
        Some("k7/8/1K6/8/8/8/8/7R w - - 0 1"),
        Limits {
            depth: Some(6),
            ..Limits::default()
        },
    );
    assert!(o.score > MATE_BOUND, "mate in two not seen: {} {}", o.best, o.score);
    // Chess 911: the black king on c10 may not step to b10 or c9 (Eye diagonals), so a rook
    // check on the c-file or rank 10 mates; without the Eye rule it would escape.
    let o = go(
        "chess911",
        Some("11/2k8/11/11/11/11/11/7R3/1R9/3R2K4/11 w - - 0 1"),
        Limits {
            depth: Some(3),
            ..Limits::default()
        },
    );
    assert!(
        o.legal && o.score > MATE_BOUND,
        "Chess 911 mate in one missed: {} {}",
        o.best,
        o.score
    );
}

#[test]
fn tensor_mate_by_a_rook_bounce() {
    // Rh1-e1 mates by a bounce check (up the e-file to its own beast on e8, then west along
    // the eighth rank), Rh1-h8 by sliding through that beast; b8 is on the line, a7 and b7
    // are Black's own pawns. Without bounces and pass-through there is no mate in one.
    let o = go(
        "tensor",
        Some("k3T5/pp8/10/10/10/10/9K/7R2 w - - 0 1"),
        Limits {
            depth: Some(3),
            ..Limits::default()
        },
    );
    assert!(
        o.legal && o.score > MATE_BOUND,
        "bounce mate missed: {} {}",
        o.best,
        o.score
    );
    assert!(["h1e1", "h1h8"].contains(&o.best.as_str()), "{}", o.best);
}

#[test]
fn king_capture_games_see_a_king_left_en_prise() {
    // RBC (no check): Qh5-f7 attacks the king on g8, which cannot take the queen (the knight
    // on e5 guards f7) and has no flight square; Qxg8 follows. Depth 2 must see it: the king
    // capture may not be pruned as a capture of a piece worth nothing, and Black, whose king
    // can be taken, may not stand pat.
    let o = go(
        "rbc",
        Some("r4bkr/ppp1p1pp/2n5/4N2Q/3qn3/8/PPP2PPP/R1B2RK1 w - - 0 11"),
        Limits {
            depth: Some(2),
            ..Limits::default()
        },
    );
    assert_eq!(o.best, "h5f7", "score {}", o.score);
    assert!(o.score > MATE_BOUND, "{}", o.score);
}

#[test]
fn rbc_search_knows_the_pass() {
    // RBC allows a pass: the black king on h8, boxed in by the queen on g6 but not attacked,
    // passes instead of stepping into capture. Without the pass this would score as lost.
    let o = go(
        "rbc",
        Some("7k/8/6Q1/8/8/8/8/K7 b - - 0 1"),
        Limits {
            depth: Some(3),
            ..Limits::default()
        },
    );
    assert!(o.score > -MATE_BOUND, "a pass saves the king: {} {}", o.best, o.score);
    assert!(o.score < -500, "a queen down: {}", o.score);
}

#[test]
fn respects_node_limits() {
    let o = go(
        "chess",
        None,
        Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
    );
    assert!(o.legal);
    assert!(o.nodes < 30_000, "{} nodes", o.nodes);
}
