//! Evaluation terms counted on hand-worked positions (what each side has, before weights), on
//! boards of several shapes: the counts are what the evaluation multiplies by its weights.

use menagerie::games::{self, GameVisitor};
use menagerie::{Catalog, Game, Position, Rules, TermCounts, default_variants, term};
use std::sync::Arc;

struct Counts(&'static str);

impl GameVisitor for Counts {
    type Output = TermCounts;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> TermCounts {
        Position::from_fen(game, self.0)
            .unwrap_or_else(|e| panic!("{}: {e}", self.0))
            .term_counts()
    }
}

fn counts(variant: &str, fen: &'static str) -> TermCounts {
    games::dispatch(default_variants().get(variant).unwrap(), Counts(fen))
}

const WHITE: usize = 0;
const BLACK: usize = 1;

/// Capablanca's 10x8 board: a pawn on b5 is passed unless an enemy pawn stands ahead on the
/// a, b or c file; progress from the second rank to the eighth is 3/6, bucket 3 of 0..6.
#[test]
fn passed_pawn_on_ten_by_eight() {
    let blocked = counts("capablanca", "4k5/2p7/10/1P8/10/10/10/4K5 w - - 0 1");
    assert_eq!([blocked.passed(WHITE), blocked.passed(BLACK)], [[0; 7]; 2]);
    let free = counts("capablanca", "4k5/7p2/10/1P8/10/10/10/4K5 w - - 0 1");
    assert_eq!(free.passed(WHITE), [0, 0, 0, 1, 0, 0, 0]);
    // Black's h7 pawn is passed too, on its first rank.
    assert_eq!(free.passed(BLACK), [1, 0, 0, 0, 0, 0, 0]);
    // A pawn behind does not stop a passed pawn.
    let behind = counts("capablanca", "4k5/10/10/1P8/2p7/10/10/4K5 w - - 0 1");
    assert_eq!(behind.passed(WHITE)[3], 1);
}

/// Chess 911's 11x11 board with holes: the black king on b10 has a zone of five squares (a9,
/// a10, b11 and c11 are holes; a11 is not). A rook on c3 attacks c9 and c10; a queen on e7
/// attacks c9 and the king's square b10.
#[test]
fn king_zone_attacks_on_eleven_by_eleven_with_holes() {
    let n = counts("chess911", "11/1k9/11/11/4Q6/11/11/11/2R8/5K5/11 b - - 0 1");
    assert_eq!(n.zone_attackers, [0, 2]);
    assert_eq!(n.zone_attacks, [0, 4]);
    assert!(n.danger[BLACK] >= 4, "danger is weighted by attacker: {:?}", n.danger);
    // The same pieces far from the king attack nothing of its zone.
    let far = counts("chess911", "11/1k9/11/11/11/11/11/9Q1/11/5K2R2/11 b - - 0 1");
    assert_eq!(far.zone_attackers, [0, 0]);
}

/// A knight attacked by a pawn is threatened; defended by a pawn it does not hang.
#[test]
fn threats_and_hanging_pieces() {
    let defended = counts("chess", "4k3/8/3p4/4N3/3P4/8/8/4K3 w - - 0 1");
    assert_eq!(defended.of(term::PAWN_THREAT), [1, 0]);
    assert_eq!(defended.of(term::HANGING), [0, 0]);
    let alone = counts("chess", "4k3/8/3p4/4N3/8/8/8/4K3 w - - 0 1");
    assert_eq!(alone.of(term::PAWN_THREAT), [1, 0]);
    assert_eq!(alone.of(term::HANGING), [1, 0]);
    // A rook attacked by a bishop and defended by its king does not hang.
    let guarded = counts("chess", "4k3/8/8/8/8/2b5/3R4/4K3 w - - 0 1");
    assert_eq!(guarded.of(term::HANGING), [0, 0]);
}

/// Doubled and isolated pawns, rooks on open and half-open files, the bishop pair.
#[test]
fn pawn_structure_files_and_pairs() {
    let n = counts("chess", "4k3/1p6/8/8/8/P7/P3P3/R3KB1R w - - 0 1");
    assert_eq!(n.of(term::DOUBLED), [1, 0]);
    assert_eq!(n.of(term::ISOLATED), [3, 1]);
    // h-file: no pawn at all (open); a-file: White's own pawns (neither).
    assert_eq!(n.of(term::OPEN_FILE), [1, 0]);
    assert_eq!(n.of(term::HALF_OPEN_FILE), [0, 0]);
    let half = counts("chess", "4k3/1p6/8/8/8/8/4P3/1R2K3 w - - 0 1");
    assert_eq!(half.of(term::HALF_OPEN_FILE), [1, 0]);
    let pair = counts("chess", "2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1");
    assert_eq!(pair.of(term::BOUND_PAIR), [1, 1]);
    let same_colour = counts("chess", "4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1");
    assert_eq!(same_colour.of(term::BOUND_PAIR), [0, 0]);
}

/// A backward pawn (d3: its neighbours have advanced, and Black's c5 pawn attacks d4) and
/// pawns connected by a defending pawn (d3 defends c4 and e4).
#[test]
fn backward_and_connected_pawns() {
    let n = counts("chess", "4k3/8/8/2p5/2P1P3/3P4/8/4K3 w - - 0 1");
    assert_eq!(n.of(term::BACKWARD), [1, 0]);
    // Black's c5 pawn is isolated, which is not counted again as backward.
    assert_eq!(n.of(term::ISOLATED), [0, 1]);
    assert_eq!(n.of(term::CONNECTED), [2, 0]);
    // Without the attacker on c5, d3 may advance: not backward.
    assert_eq!(
        counts("chess", "4k3/p7/8/8/2P1P3/3P4/8/4K3 w - - 0 1").of(term::BACKWARD),
        [0, 0]
    );
    // Pawns side by side are connected too.
    assert_eq!(
        counts("chess", "4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1").of(term::CONNECTED),
        [2, 0]
    );
}

/// A knight on e5 defended by d4 where no black pawn can ever attack it is on an outpost; a
/// black pawn on f7 could chase it.
#[test]
fn knights_on_outposts() {
    assert_eq!(
        counts("chess", "4k3/p7/8/4N3/3P4/8/8/4K3 w - - 0 1").of(term::OUTPOST),
        [1, 0]
    );
    assert_eq!(
        counts("chess", "4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1").of(term::OUTPOST),
        [0, 0]
    );
    // In its own half it is not an outpost.
    assert_eq!(
        counts("chess", "4k3/p7/8/8/4N3/3P4/8/4K3 w - - 0 1").of(term::OUTPOST),
        [0, 0]
    );
}

/// A rook attacked by a bishop is threatened by a lesser piece; a bishop attacked by a rook is
/// not.
#[test]
fn threats_by_lesser_pieces() {
    let n = counts("chess", "4k3/8/8/8/6b1/8/8/3RK3 w - - 0 1");
    assert_eq!(n.of(term::LESSER_THREAT), [1, 0]);
    let n = counts("chess", "4k3/8/8/8/3b4/8/8/3RK3 w - - 0 1");
    assert_eq!(n.of(term::LESSER_THREAT), [0, 0]);
}

/// The pawns in front of the king (f2, g2, h2) shield it; an enemy pawn on g4 storms it, one
/// on h5 is too far.
#[test]
fn royal_shield_and_storm() {
    let n = counts("chess", "4k3/8/8/7p/6p1/8/5PPP/6K1 w - - 0 1");
    assert_eq!(n.of(term::SHIELD), [3, 0]);
    assert_eq!(n.of(term::STORM), [1, 0]);
}

/// The mobility table: a knight on a1 reaches two squares, so `reach2` weighs it and `reach3`
/// does not.
#[test]
fn the_mobility_table_weighs_by_squares_reached() {
    const FEN: &str = "4k3/8/8/8/8/8/8/N3K3 w - - 0 1";
    let eval = |line: &str| {
        let set = Catalog::parse(&with_line("chess", line), "t.ini").unwrap();
        games::dispatch(set.get("chess").unwrap(), Eval(FEN))
    };
    // Each weight against itself set to zero (the variant's fitted weights may use it). The
    // tapered sum is divided once, so the 50 may lose one to rounding.
    let gain = eval("eval.reach2.n = 50 50") - eval("eval.reach2.n = 0 0");
    assert!((49..=50).contains(&gain), "reach2 moved the evaluation by {gain}");
    assert_eq!(eval("eval.reach3.n = 50 50") - eval("eval.reach3.n = 0 0"), 0);
}

struct Eval(&'static str);

impl GameVisitor for Eval {
    type Output = i32;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> i32 {
        Position::from_fen(game, self.0).unwrap().evaluate()
    }
}

/// Chess 911's own features at the start: both Rendezvous to come, six pieces of each side on
/// the Eye's diagonals (a Fortress in its citadel, a rook and a pawn on each), two Fortresses
/// in the citadels.
#[test]
fn chess911_features_at_the_start() {
    let start = default_variants().get("chess911").unwrap().variant().start_fen.clone();
    let n = counts("chess911", Box::leak(start.into_boxed_str()));
    assert_eq!(n.rules, [[1, 6, 2, 0], [1, 6, 2, 0]]);
    // After White's Rendezvous (the castling field's V), White has none to come.
    let used = counts(
        "chess911",
        "f9f/1rnbqksbnr1/1ppppppppp1/11/11/11/11/11/1PPPPPPPPP1/1RNBQKBSNR1/F9F b KQkqV - 1 1",
    );
    assert_eq!(used.rules[0][0], 0);
    assert_eq!(used.rules[1][0], 1);
}

struct StartEval;

impl GameVisitor for StartEval {
    type Output = i32;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> i32 {
        Position::startpos(game).evaluate()
    }
}

/// `eval.NAME = MG EG` lines in a variant's section set its weights: a rook alone on its file
/// is worth exactly the open-file weight more.
#[test]
fn eval_settings_in_the_ini_set_the_weights() {
    let eval = |extra: &str| {
        let text = format!(
            "[mini]\nboard = 4x4\npiece = K king K royal\npiece = R rook R\nstart = 3k/4/4/R2K w - - 0 1\n{extra}"
        );
        let set = Catalog::parse(&text, "test.ini").unwrap();
        games::dispatch(set.get("mini").unwrap(), StartEval)
    };
    assert_eq!(eval("eval.open_file = 300 300\n") - eval("eval.open_file = 0 0\n"), 300);
    assert_eq!(
        counts("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").of(term::OPEN_FILE),
        [1, 0]
    );
}

/// A Chess 911 opening of `tools/openings/chess911.epd` (holes written `*`).
const CHESS911_MIDDLE: &str =
    "f*********f/*rnbqksbnr*/*ppp1pp3*/*6ppp*/*3p5*/*1N7*/*8P*/*1P7*/*P1PPPPPP1*/*R1BQKSBNR*/F*********F w KQkq - 0 5";

/// A Tensor opening of `tools/openings/tensor.epd`, with beasts (T) of both sides.
const TENSOR_MIDDLE: &str = "rtn1qkbntr/ppbpp2ppp/2p2pp3/10/1P8/3N4N1/PTPPPPPPPP/R2BQKB1TR w KQkq - 0 5";

/// What the tuner reads for a position: (White's evaluation, middle-game share, features) and
/// the names and values of the weights.
struct Trace(&'static str);

impl GameVisitor for Trace {
    type Output = (i32, f64, Vec<f64>, Vec<String>, Vec<[f64; 2]>);
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Self::Output {
        let w = game.eval.weights.clone();
        let (e, mg, f) = Position::from_fen(game, self.0).unwrap().tuning_trace();
        (e, mg, f, w.names(), w.linear())
    }
}

/// The tuner's model is the evaluation: raising any one linear weight (a term's, or a kind's
/// material, square feature or mobility) through `eval.*` changes White's evaluation by that
/// weight's feature in the trace, tapered by the phase, on 8x8, on 10x8, and on the boards of
/// Chess 911 and Tensor with their rules modules' own features.
#[test]
fn the_trace_predicts_the_evaluation_weight_by_weight() {
    let cases = [
        (
            "chess",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
        ),
        ("chess", "8/5pk1/R5p1/3r4/5P2/6P1/5K2/8 b - - 0 40"),
        ("chess", "2r3k1/1q3pp1/p3p2p/1p1nP3/3N4/P1Q3P1/1P3P1P/2R3K1 w - - 0 28"),
        ("chess", "4k3/2p5/8/3P4/1N6/8/5B2/4K3 w - - 0 1"),
        (
            "capablanca",
            "r1abqkbcnr/pppp1ppppp/2n7/4p5/4P5/5N4/PPPP1PPPPP/RNABQKBC1R w KQkq - 2 3",
        ),
        ("chess911", CHESS911_MIDDLE),
        ("tensor", TENSOR_MIDDLE),
    ];
    let mut moved = 0;
    for (variant, fen) in cases {
        let (e0, mg, f, names, w) = games::dispatch(default_variants().get(variant).unwrap(), Trace(fen));
        assert_eq!(f.len(), names.len());
        for (j, name) in names.iter().enumerate() {
            let (dm, de) = (40.0, -24.0);
            let text = with_line(variant, &format!("eval.{name} = {} {}", w[j][0] + dm, w[j][1] + de));
            let set = Catalog::parse(&text, "t.ini").unwrap();
            let e1 = games::dispatch(set.get(variant).unwrap(), Trace(fen)).0;
            let want = f[j] * (dm * mg + de * (1.0 - mg));
            let got = (e1 - e0) as f64;
            assert!(
                (got - want).abs() <= 2.0,
                "{variant} {fen}: eval.{name} moved the evaluation by {got}, the trace says {want}"
            );
            moved += usize::from(got != 0.0);
        }
    }
    assert!(moved > 40, "only {moved} weights moved the evaluation");
}

/// The built-in engine.ini with `line` added at the end of the variant's section (after its
/// own `eval.*` lines, which it overrides).
fn with_line(variant: &str, line: &str) -> String {
    let ini = menagerie::variant::DEFAULT_INI;
    let at = ini.find(&format!("\n[{variant}")).expect("the variant's section") + 1;
    let end = ini[at..].find("\n[").map_or(ini.len(), |i| at + i + 1);
    format!("{}{line}\n{}", &ini[..end], &ini[end..])
}
