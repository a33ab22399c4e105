//! Search: finds mates, returns legal moves, respects limits, and allocates nothing during `go`
//! once the searcher exists (counting global allocator).

use menagerie::games::{self, GameVisitor};
use menagerie::search::{Limits, MATE_BOUND, MAX_ELO, MIN_ELO, Searcher, Silent, Strength};
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

/// The side to move's searches (`nodes` a move) played against each other from `fen`: the
/// plies until a lone king is mated, `None` if that is not within `plies`.
struct SelfPlay {
    fen: &'static str,
    nodes: u64,
    plies: usize,
}

impl GameVisitor for SelfPlay {
    type Output = Option<usize>;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Option<usize> {
        let mut pos = Position::from_fen(game, self.fen).unwrap();
        let mut searcher = Searcher::new(8, Arc::new(AtomicBool::new(false)));
        for ply in 0..self.plies {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                let lone = pos.color_bb(pos.side_to_move()).count() == 1;
                return (pos.in_check() && lone).then_some(ply);
            }
            let limits = Limits {
                nodes: Some(self.nodes),
                ..Limits::default()
            };
            let best = searcher.go(&mut pos, limits, &mut Silent).best;
            pos.make_move(best);
        }
        None
    }
}

#[test]
fn a_rook_or_a_queen_mates_a_bare_king() {
    // The mate lies beyond the horizon; the evaluation's way to it is the lone king driven to
    // the edge and met by the other king. Without it these searches walked to the 50-move
    // rule, a repetition, or gave the rook away.
    for (variant, fen) in [
        ("chess", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"),
        ("chess", "8/8/2k5/8/8/8/8/1R2K3 b - - 0 1"),
        ("chess", "7k/8/8/8/8/8/8/K5R1 w - - 0 1"),
        ("chess", "8/8/8/3k4/8/8/8/2Q1K3 w - - 0 1"),
        ("capablanca", "10/10/10/5k4/10/10/10/R4K4 w - - 0 1"),
        ("losalamos", "6/6/2k3/6/6/R2K2 w - - 0 1"),
    ] {
        let set = default_variants();
        let play = SelfPlay {
            fen,
            nodes: 20_000,
            plies: 100,
        };
        let mated = games::dispatch(set.get(variant).unwrap(), play);
        assert!(mated.is_some(), "{variant} {fen}: not mated in 100 plies");
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

/// One test position: the variant, the FEN, the accepted best moves (empty: any move that
/// keeps the expected score), whether a forced mate must be seen, and a node budget.
struct Puzzle {
    name: &'static str,
    variant: &'static str,
    fen: &'static str,
    best: &'static [&'static str],
    mate: bool,
    nodes: u64,
}

/// Published answers for chess (Win at Chess, Reinfeld 1958; each checked with Debian's
/// Stockfish 15.1 at 2 s, which agrees on the move; WAC.002 and WAC.006 left out, where it
/// prefers another move or the win is 40 moves deep), and positions of ours solved by
/// Fairy-Stockfish (build 251126) from `../shared/peers` (MultiPV 2 at depth 14: the best move
/// alone wins or mates, unless two are listed).
const PUZZLES: &[Puzzle] = &[
    Puzzle {
        name: "WAC.001 (Stockfish: mate in 2)",
        variant: "chess",
        fen: "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        best: &["g3g6"],
        mate: true,
        // The queen sacrifice is found late (depth 24, 6.3 M nodes, with the correction
        // history; depth 20, 1.6 M nodes before it): the mating quiet check two plies down is
        // pruned at low depth (see BENCHMARKS.md, the quiet-check attempts).
        nodes: 8_000_000,
    },
    Puzzle {
        name: "WAC.003 (Stockfish: +4.4)",
        variant: "chess",
        fen: "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
        best: &["e3g3"],
        mate: false,
        nodes: 2_000_000,
    },
    Puzzle {
        name: "WAC.004 (Stockfish: mate in 2)",
        variant: "chess",
        fen: "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
        best: &["h6h7"],
        mate: true,
        nodes: 2_000_000,
    },
    Puzzle {
        name: "WAC.005 (Stockfish: mate in 2)",
        variant: "chess",
        fen: "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
        best: &["c6c4"],
        mate: true,
        nodes: 2_000_000,
    },
    Puzzle {
        name: "WAC.008 (Stockfish: mate in 7)",
        variant: "chess",
        fen: "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1",
        best: &["e7f7"],
        mate: false,
        nodes: 3_000_000,
    },
    Puzzle {
        name: "WAC.009 (Stockfish: mate in 5)",
        variant: "chess",
        fen: "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1",
        best: &["d6h2"],
        mate: false,
        nodes: 3_000_000,
    },
    Puzzle {
        name: "WAC.010 (Stockfish: +5.0)",
        variant: "chess",
        fen: "2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1",
        best: &["h4h7"],
        mate: false,
        nodes: 3_000_000,
    },
    Puzzle {
        name: "Los Alamos: mate in 2 (Fairy-Stockfish: Kb3-a4, next best mates in 3)",
        variant: "losalamos",
        fen: "k5/2p3/6/1K4/6/5R w - - 0 1",
        best: &["b3a4"],
        mate: true,
        nodes: 1_000_000,
    },
    Puzzle {
        name: "Los Alamos: knight fork wins the queen (Fairy-Stockfish: 0.00 against -56)",
        variant: "losalamos",
        fen: "k5/6/4q1/1N4/6/5K w - - 0 1",
        best: &["b3c5"],
        mate: false,
        nodes: 1_000_000,
    },
    Puzzle {
        name: "Capablanca: archbishop fork wins the rook (Fairy-Stockfish: +9.8 against +0.5)",
        variant: "capablanca",
        fen: "4k5/10/10/10/1r8/6A3/10/4K5 w - - 0 1",
        best: &["g3d6"],
        mate: false,
        nodes: 1_000_000,
    },
    Puzzle {
        name: "Capablanca: back-rank mate by the chancellor (Fairy-Stockfish: mate in 1)",
        variant: "capablanca",
        fen: "6k3/5ppp2/10/10/10/10/10/C5K3 w - - 0 1",
        best: &["a1a8"],
        mate: true,
        nodes: 1_000_000,
    },
    Puzzle {
        name: "Capablanca: king and chancellor mate (Fairy-Stockfish: in 2 by Kb6 or Kc7; a longer mate is accepted)",
        variant: "capablanca",
        fen: "k9/10/2K7/10/10/10/10/9C w - - 0 1",
        best: &[],
        mate: true,
        nodes: 1_000_000,
    },
    Puzzle {
        name: "Capablanca: king and archbishop mate in 3 (Fairy-Stockfish: several ways)",
        variant: "capablanca",
        fen: "k9/10/1K8/10/10/10/10/9A w - - 0 1",
        best: &[],
        mate: true,
        nodes: 2_000_000,
    },
];

#[test]
fn solves_puzzles_with_known_answers() {
    let mut failures = Vec::new();
    for p in PUZZLES {
        let o = go(
            p.variant,
            Some(p.fen),
            Limits {
                nodes: Some(p.nodes),
                ..Limits::default()
            },
        );
        let move_ok = p.best.is_empty() || p.best.contains(&o.best.as_str());
        let mate_ok = !p.mate || o.score > MATE_BOUND;
        if !(o.legal && move_ok && mate_ok) {
            failures.push(format!("{}: played {} scoring {}", p.name, o.best, o.score));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Collects the lines of a search's last reported depth: (multipv, score, first move). Its
/// room is reserved first, so that it allocates nothing while the search reports.
struct Lines {
    depth: u32,
    lines: Vec<(u32, i32, menagerie::Move)>,
}

impl<R: Rules> menagerie::search::Report<R> for Lines {
    fn iteration(&mut self, _root: &Position<R>, info: &menagerie::search::Iteration, pv: &[menagerie::Move]) {
        if info.depth != self.depth {
            self.depth = info.depth;
            self.lines.clear();
        }
        if self.lines.len() < self.lines.capacity() {
            self.lines.push((
                info.multipv,
                info.score,
                pv.first().copied().unwrap_or(menagerie::Move::NONE),
            ));
        }
    }
}

/// What [`go_with`] found: the result, the last depth and its lines (multipv, score, first
/// move in MMN), and the allocations during `go`.
struct Found {
    result: menagerie::search::SearchResult,
    /// The best move in MMN.
    best: String,
    depth: u32,
    lines: Vec<(u32, i32, String)>,
    allocs: usize,
}

/// A search with its own searcher: `only` restricts the root (MMN), `ponder` is the ponder
/// flag's value.
struct GoWith {
    fen: &'static str,
    limits: Limits,
    only: &'static [&'static str],
    ponder: bool,
}

impl GameVisitor for GoWith {
    type Output = Found;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Found {
        let mut pos = Position::from_fen(game, self.fen).unwrap();
        let mut searcher = Searcher::new(8, Arc::new(AtomicBool::new(false)));
        searcher.set_ponder_flag(Arc::new(AtomicBool::new(self.ponder)));
        searcher.go(
            &mut pos,
            Limits {
                depth: Some(2),
                ..Limits::default()
            },
            &mut Silent,
        );
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let text = |m| menagerie::notation::move_text(&pos, m);
        let only: Vec<_> = list
            .iter()
            .copied()
            .filter(|&m| self.only.contains(&text(m).as_str()))
            .collect();
        assert_eq!(only.len(), self.only.len(), "not all of {:?} are legal", self.only);
        let mut lines = Lines {
            depth: 0,
            lines: Vec::with_capacity(64),
        };
        let mut result = None;
        let allocs = allocations(|| {
            searcher.search_only(&only);
            result = Some(searcher.go(&mut pos, self.limits, &mut lines));
        });
        let result = result.unwrap();
        Found {
            best: menagerie::notation::move_text(&pos, result.best),
            result,
            depth: lines.depth,
            lines: lines
                .lines
                .iter()
                .map(|&(n, s, m)| (n, s, menagerie::notation::move_text(&pos, m)))
                .collect(),
            allocs,
        }
    }
}

fn go_with(variant: &str, fen: &'static str, limits: Limits, only: &'static [&'static str], ponder: bool) -> Found {
    games::dispatch(
        default_variants().get(variant).unwrap(),
        GoWith {
            fen,
            limits,
            only,
            ponder,
        },
    )
}

const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";

#[test]
fn multipv_reports_distinct_lines_best_first_without_allocating() {
    for (variant, fen) in [
        (
            "chess",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        (
            "capablanca",
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        ),
    ] {
        let limits = Limits {
            depth: Some(7),
            multipv: 4,
            ..Limits::default()
        };
        let f = go_with(variant, fen, limits, &[], false);
        assert_eq!(f.allocs, 0, "{variant}: MultiPV allocated");
        assert_eq!(f.depth, 7);
        let numbers: Vec<u32> = f.lines.iter().map(|l| l.0).collect();
        assert_eq!(numbers, [1, 2, 3, 4], "{variant}");
        assert!(
            f.lines.windows(2).all(|w| w[0].1 >= w[1].1),
            "{variant}: not best first: {:?}",
            f.lines
        );
        assert_eq!(f.result.score, f.lines[0].1);
        let mut firsts: Vec<&str> = f.lines.iter().map(|l| l.2.as_str()).collect();
        firsts.sort();
        firsts.dedup();
        assert_eq!(firsts.len(), 4, "{variant}: lines share a first move: {:?}", f.lines);
    }
    // The back-rank mate is the best line; the second line is not a mate.
    let limits = Limits {
        depth: Some(4),
        multipv: 2,
        ..Limits::default()
    };
    let f = go_with("chess", BACK_RANK, limits, &[], false);
    assert_eq!(f.lines[0].2, "d1d8");
    assert!(f.lines[0].1 > MATE_BOUND && f.lines[1].1 < MATE_BOUND, "{:?}", f.lines);
}

#[test]
fn search_only_keeps_to_the_moves_given_for_one_search() {
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let f = go_with("chess", BACK_RANK, limits, &["h2h3", "g1f1"], false);
    assert_eq!(f.allocs, 0);
    assert!(
        !f.lines.is_empty() && f.lines.iter().all(|l| l.2 == "h2h3" || l.2 == "g1f1"),
        "{:?}",
        f.lines
    );
    assert!(
        f.result.score < MATE_BOUND,
        "the mate d1d8 was not allowed: {}",
        f.result.score
    );
}

#[test]
fn a_mate_limit_ends_the_search_once_the_mate_is_proved() {
    // Without the limit this search would go on to the depth limit.
    let limits = Limits {
        depth: Some(30),
        mate: Some(1),
        ..Limits::default()
    };
    let r = go_with("chess", BACK_RANK, limits, &[], false).result;
    assert!(
        r.score > MATE_BOUND && r.depth <= 2,
        "score {} depth {}",
        r.score,
        r.depth
    );
}

#[test]
fn a_ponder_search_ignores_the_clock_until_ponderhit() {
    // The same 1 ms budget: pondering (flag set) the search reaches its depth limit; once the
    // flag is cleared (ponderhit), the clock ends it long before.
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let limits = Limits {
        depth: Some(10),
        movetime: Some(std::time::Duration::from_millis(1)),
        ponder: true,
        ..Limits::default()
    };
    let f = go_with("chess", fen, limits, &[], true);
    assert_eq!((f.result.depth, f.allocs), (10, 0));
    let r = go_with("chess", fen, limits, &[], false).result;
    assert!(r.depth < 10, "the clock did not end the search: depth {}", r.depth);
}

/// Middle-game and end-game positions with several playable moves, for the strength levels.
const PLAYABLE: [&str; 6] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq - 2 5",
    "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 0 8",
    "2r2rk1/pp1bqppp/2n1pn2/3p4/3P4/2PBPN2/P1Q2PPP/R1B2RK1 w - - 0 12",
    "8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 w - - 0 40",
];

#[test]
fn strength_levels_keep_their_budget_repeat_themselves_and_choose_with_noise() {
    let mut noisy = 0;
    for fen in PLAYABLE {
        for elo in [MIN_ELO, 1600, MAX_ELO] {
            let level = Strength::new(elo);
            let limits = Limits {
                strength: Some(level),
                ..Limits::default()
            };
            let a = go_with("chess", fen, limits, &[], false);
            let b = go_with("chess", fen, limits, &[], false);
            assert_eq!(a.allocs, 0, "level {elo} allocated");
            assert!(
                a.result.nodes <= level.nodes(),
                "level {elo}: {} nodes, budget {}",
                a.result.nodes,
                level.nodes()
            );
            assert_ne!(a.result.best, menagerie::Move::NONE);
            assert_eq!(a.best, b.best, "level {elo} is not repeatable on {fen}");
            // The lines searched to choose among are not reported: MultiPV stays 1.
            assert!(a.lines.iter().all(|l| l.0 == 1), "{:?}", a.lines);
            // The same search without the level's choice: the top level (no noise) plays its
            // best line, the weakest does not always.
            let plain = Limits {
                nodes: Some(level.nodes()),
                multipv: level.lines(),
                ..Limits::default()
            };
            let p = go_with("chess", fen, plain, &[], false);
            if elo == MAX_ELO {
                assert_eq!(a.best, p.best, "the top level left its best line on {fen}");
            }
            if elo == MIN_ELO && a.best != p.best {
                noisy += 1;
            }
        }
    }
    assert!(noisy >= 1, "the weakest level chose its best line in all 6");
    // A mate outweighs the noise: the top level finds the back-rank mate.
    let limits = Limits {
        strength: Some(Strength::new(MAX_ELO)),
        ..Limits::default()
    };
    assert_eq!(go_with("chess", BACK_RANK, limits, &[], false).best, "d1d8");
}
