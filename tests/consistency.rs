//! Random playouts from every suite position of every variant check that
//! - a slow, ray-walking move generator with its own table of how each plain piece moves and its
//!   own castling options (written here from the rules, not read from `engine.ini`, so it shares
//!   neither the Betza parser nor the castling tables) agrees with the engine's;
//! - the incremental Zobrist key equals the recomputed one;
//! - the FEN round-trips (and the position's `Setup`), and unmake restores the exact position.

use menagerie::games::{self, GameVisitor};
use menagerie::{Color, Game, Move, MoveKind, MoveList, Position, Rules, Setup, Square, default_variants};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fs;
use std::path::Path;
use std::sync::Arc;

/// How one plain piece moves, written here for the test from the rules, not from `engine.ini`:
/// the slow generator must not share the engine's Betza parser or castling tables, so that a bug
/// in either shows up as a disagreement.
#[derive(Clone, Copy)]
enum Mover {
    /// Steps or rides (`range` 0 = unlimited) in the given directions, moving and capturing.
    Lines(&'static [(i32, i32)], usize),
    /// Both of two movers (compound pieces).
    Both(&'static Mover, &'static Mover),
    /// A pawn: one step forward to an empty square, captures one step diagonally forward,
    /// `double`: two steps from its initial rank through an empty square, `ep`: en passant.
    Pawn { double: bool, ep: bool },
}

const ORTH: &[(i32, i32)] = &[(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: &[(i32, i32)] = &[(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ALL8: &[(i32, i32)] = &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: &[(i32, i32)] = &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING: Mover = Mover::Lines(ALL8, 1);
const QUEEN: Mover = Mover::Lines(ALL8, 0);
const ROOK: Mover = Mover::Lines(ORTH, 0);
const BISHOP: Mover = Mover::Lines(DIAG, 0);
const KNIGHT_M: Mover = Mover::Lines(KNIGHT, 1);
const BISHOP_KNIGHT: Mover = Mover::Both(&BISHOP, &KNIGHT_M);
const ROOK_KNIGHT: Mover = Mover::Both(&ROOK, &KNIGHT_M);

/// The test's own rules of a variant: each piece letter's mover, the pawns' initial rank
/// (0-based, from the owner's side) and the castling options of White
/// (`[(right, king from, king to, rook from, rook to)]`, Black's mirror the ranks).
struct OwnRules {
    pieces: Vec<(char, Mover)>,
    pawn_rank: usize,
    castling: Vec<(usize, &'static str, &'static str, &'static str, &'static str)>,
}

fn own_rules(variant: &str) -> OwnRules {
    let chess = vec![
        ('K', KING),
        ('Q', QUEEN),
        ('R', ROOK),
        ('B', BISHOP),
        ('N', KNIGHT_M),
        ('P', Mover::Pawn { double: true, ep: true }),
    ];
    let fide_castling = vec![(0, "e1", "g1", "h1", "f1"), (1, "e1", "c1", "a1", "d1")];
    match variant {
        "chess" | "rbc" => OwnRules {
            pieces: chess,
            pawn_rank: 1,
            castling: fide_castling,
        },
        "losalamos" => OwnRules {
            pieces: vec![
                ('K', KING),
                ('Q', QUEEN),
                ('R', ROOK),
                ('N', KNIGHT_M),
                (
                    'P',
                    Mover::Pawn {
                        double: false,
                        ep: false,
                    },
                ),
            ],
            pawn_rank: 1,
            castling: vec![],
        },
        "capablanca" => OwnRules {
            pieces: [chess, vec![('A', BISHOP_KNIGHT), ('C', ROOK_KNIGHT)]].concat(),
            pawn_rank: 1,
            castling: vec![(0, "f1", "i1", "j1", "h1"), (1, "f1", "c1", "a1", "d1")],
        },
        "chess911" => OwnRules {
            pieces: [chess, vec![('S', BISHOP_KNIGHT), ('F', ROOK_KNIGHT)]].concat(),
            pawn_rank: 2,
            castling: vec![(0, "f2", "i2", "j2", "h2"), (1, "f2", "d2", "b2", "e2")],
        },
        // The sensors (F E M U V W) have no fixed moves: the module moves them.
        "remotesensing" | "remotesensing-ownpawn" => OwnRules {
            pieces: vec![
                ('K', KING),
                ('D', KING),
                ('R', ROOK),
                ('N', KNIGHT_M),
                ('B', BISHOP),
                (
                    'P',
                    Mover::Pawn {
                        double: false,
                        ep: false,
                    },
                ),
            ],
            pawn_rank: 1,
            castling: vec![],
        },
        other => panic!("the test has no rules of its own for {other}"),
    }
}

/// The test's mover of the piece on `sq` (`None`: a piece the rules module moves).
fn mover_of<R: Rules>(own: &OwnRules, pos: &Position<R>, sq: Square) -> Option<Mover> {
    let def = &pos.variant().pieces[pos.piece_at(sq).kind()];
    if def.is_dynamic() {
        return None;
    }
    let m = own.pieces.iter().find(|(l, _)| *l == def.letter).map(|x| x.1);
    Some(m.unwrap_or_else(|| panic!("the test has no mover for piece {}", def.letter)))
}

/// Calls `f(to, may_move, may_capture, double_step_of)` for each square the mover reaches from
/// `from` before looking at what stands on the target (rays stop at the first piece).
fn reach<R: Rules>(
    pos: &Position<R>,
    own: &OwnRules,
    from: Square,
    m: Mover,
    c: Color,
    f: &mut dyn FnMut(Square, bool, bool, bool),
) {
    let g = &pos.variant().geometry;
    let fwd = if c == Color::White { 1 } else { -1 };
    match m {
        Mover::Both(a, b) => {
            reach(pos, own, from, *a, c, f);
            reach(pos, own, from, *b, c, f);
        }
        Mover::Lines(dirs, range) => {
            for &(dx, dy) in dirs {
                let mut cur = from;
                let mut n = 0;
                while let Some(next) = g.offset(cur, dx, dy).filter(|&s| g.exists(s)) {
                    f(next, true, true, false);
                    if pos.piece_at(next).is_some() {
                        break;
                    }
                    cur = next;
                    n += 1;
                    if range != 0 && n >= range {
                        break;
                    }
                }
            }
        }
        Mover::Pawn { double, .. } => {
            if let Some(one) = g.offset(from, 0, fwd).filter(|&s| g.exists(s)) {
                f(one, true, false, false);
                if double
                    && g.relative_rank(c, from) == own.pawn_rank
                    && pos.piece_at(one).is_none()
                    && let Some(two) = g.offset(from, 0, 2 * fwd).filter(|&s| g.exists(s))
                {
                    f(two, true, false, true);
                }
            }
            for dx in [-1, 1] {
                if let Some(t) = g.offset(from, dx, fwd).filter(|&s| g.exists(s)) {
                    f(t, false, true, false);
                }
            }
        }
    }
}

/// Does `by` attack `target` (ray walking with the test's own movers)?
fn slow_attacked<R: Rules>(pos: &Position<R>, own: &OwnRules, target: Square, by: Color) -> bool {
    let mut hit = false;
    for from in pos.color_bb(by) {
        if let Some(m) = mover_of(own, pos, from) {
            reach(pos, own, from, m, by, &mut |to, _, capture, _| {
                hit |= capture && to == target
            });
        }
    }
    hit
}

fn royal_unsafe<R: Rules>(pos: &Position<R>, own: &OwnRules, c: Color) -> bool {
    let forbidden = pos.game().rules.royal_forbidden();
    pos.royals(c)
        .any(|k| forbidden.contains(k) || slow_attacked(pos, own, k, !c))
}

fn slow_moves<R: Rules>(pos: &mut Position<R>, own: &OwnRules) -> Vec<u32> {
    let us = pos.side_to_move();
    let v = pos.variant().clone();
    let g = &v.geometry;
    let has_royals = v.pieces.iter().any(|p| p.is_royal());
    if has_royals && pos.royals(us).is_empty() {
        return Vec::new();
    }
    let zone = |sq: Square| v.promotion_rank.is_some_and(|r| g.relative_rank(us, sq) >= r);
    let mut out: Vec<Move> = Vec::new();
    for from in pos.color_bb(us) {
        let kind = pos.piece_at(from).kind();
        let Some(m) = mover_of(own, pos, from) else { continue };
        let is_pawn = matches!(m, Mover::Pawn { .. });
        let mut targets: Vec<(Square, bool)> = Vec::new();
        reach(pos, own, from, m, us, &mut |to, quiet, capture, double| {
            if g.no_landing.contains(to) {
                return;
            }
            let t = pos.piece_at(to);
            if (t.is_none() && quiet) || (t.is_some() && t.color() != us && capture) {
                targets.push((to, double));
            }
        });
        for (to, double) in targets {
            if double {
                let ep = g.offset(to, 0, if us == Color::White { -1 } else { 1 }).unwrap();
                out.push(Move::new(from, to, MoveKind::DoubleStep, ep.index() as u32, 0));
            } else if is_pawn && zone(to) {
                for &pk in &v.promotion_kinds {
                    out.push(Move::new(from, to, MoveKind::Promotion, kind as u32, pk as u32));
                }
                if !v.promotion_compulsory {
                    out.push(Move::normal(from, to));
                }
            } else {
                out.push(Move::normal(from, to));
            }
        }
        if let (Mover::Pawn { ep: true, .. }, Some(ep)) = (m, pos.state().ep) {
            let fwd = if us == Color::White { 1 } else { -1 };
            if [-1, 1].iter().any(|&dx| g.offset(from, dx, fwd) == Some(ep)) {
                let victim = g.offset(ep, 0, -fwd).unwrap();
                out.push(Move::new(from, ep, MoveKind::EnPassant, victim.index() as u32, 0));
            }
        }
    }
    // Castling, from the test's own option list: the squares between king and rook and both
    // destinations empty (but for the two pieces); with check, no square the king stands on or
    // crosses attacked.
    let forbidden = pos.game().rules.royal_forbidden();
    let mut index = [0usize; 2];
    for &(right, kf, kt, rf, rt) in &own.castling {
        let i = index[right];
        index[right] += 1;
        if !pos.state().castling.has(us, right) {
            continue;
        }
        let side = |name: &str| {
            let s = g.parse(name).unwrap();
            if us == Color::White { s } else { g.flip(s) }
        };
        let (kf, kt, rf, rt) = (side(kf), side(kt), side(rf), side(rt));
        let (k, r) = (pos.piece_at(kf), pos.piece_at(rf));
        if k.is_none() || k.color() != us || !v.pieces[k.kind()].is_royal() || r.is_none() || r.color() != us {
            continue;
        }
        let rank = g.rank_of(kf);
        let span = |a: Square, b: Square| {
            let (fa, fb) = (g.file_of(a), g.file_of(b));
            (fa.min(fb)..=fa.max(fb))
                .map(|f| g.square(f, rank).unwrap())
                .collect::<Vec<_>>()
        };
        let mut ok = span(kf, kt)
            .into_iter()
            .chain(span(rf, rt))
            .all(|s| s == kf || s == rf || pos.piece_at(s).is_none());
        if ok && v.check {
            let path = span(kf, kt);
            ok = !path.iter().any(|&s| forbidden.contains(s))
                && !path.iter().any(|&s| s != kt && slow_attacked(pos, own, s, !us));
        }
        if ok {
            out.push(Move::castle(kf, kt, right, i));
        }
    }
    let mut extra = MoveList::new();
    pos.game().rules.extra_moves(pos, &mut extra);
    // Pieces without fixed moves have no mover here: their moves come from the module itself
    // (so they cannot disagree here) and only feed the key/material/FEN/unmake checks. Their
    // move sets are checked against tools/reference/remotesensing.py by .ci/run.
    for from in pos.color_bb(us) {
        let kind = pos.piece_at(from).kind();
        if v.pieces[kind].is_dynamic() {
            pos.game().rules.dynamic_moves(pos, from, kind, &mut extra);
        }
    }
    out.extend(extra.iter().copied());
    let mut legal: Vec<u32> = Vec::new();
    for m in out {
        if v.check {
            pos.make_move(m);
            let bad = royal_unsafe(pos, own, us);
            pos.unmake_move();
            if bad {
                continue;
            }
        }
        legal.push(m.bits());
    }
    legal.sort_unstable();
    legal.dedup();
    legal
}

struct Playouts {
    fens: Vec<String>,
    games: usize,
    plies: usize,
    /// The test's own rules, to compare with the slow generator (`None` for games whose module
    /// makes every move).
    own: Option<OwnRules>,
}

impl GameVisitor for Playouts {
    type Output = usize;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> usize {
        let mut rng = StdRng::seed_from_u64(0x4d45_4e41);
        let mut checked = 0;
        for fen in &self.fens {
            for _ in 0..self.games {
                let mut pos = Position::from_fen(Arc::clone(&game), fen).unwrap();
                let mut trail: Vec<(String, u64)> = Vec::new();
                let mut pool: Vec<Move> = Vec::new();
                for _ in 0..self.plies {
                    let mut list = MoveList::new();
                    pos.legal_moves(&mut list);
                    let mut fast: Vec<u32> = list.iter().map(|m| m.bits()).collect();
                    fast.sort_unstable();
                    if let Some(own) = &self.own {
                        let slow = slow_moves(&mut pos, own);
                        assert_eq!(fast, slow, "generators disagree in {}", pos.fen());
                    }
                    check_halves(&mut pos, &list, &fast, &mut rng, &pool);
                    pool.extend(list.iter().copied());
                    if pool.len() > 2000 {
                        pool.drain(..1000);
                    }
                    assert_eq!(pos.key(), pos.compute_key(), "incremental key wrong in {}", pos.fen());
                    assert_eq!(
                        pos.piece_keys(),
                        pos.compute_piece_keys(),
                        "incremental piece keys wrong in {}",
                        pos.fen()
                    );
                    assert_eq!(
                        pos.psq_incremental(),
                        pos.psq_from_scratch(),
                        "material/PST wrong in {}",
                        pos.fen()
                    );
                    let fen_now = pos.fen();
                    let again = Position::from_fen(Arc::clone(&game), &fen_now)
                        .unwrap_or_else(|e| panic!("own FEN rejected: {fen_now}: {e}"));
                    assert_eq!(again.fen(), fen_now);
                    assert_eq!(again.key(), pos.key(), "key differs after FEN round trip: {fen_now}");
                    // The same without text: the position's Setup read back, and the FEN's.
                    let setup = pos.setup();
                    assert_eq!(Setup::read(&game.variant, &fen_now).as_ref(), Ok(&setup), "{fen_now}");
                    let direct = Position::from_setup(Arc::clone(&game), &setup, false)
                        .unwrap_or_else(|e| panic!("own Setup rejected: {fen_now}: {e}"));
                    assert_eq!((direct.fen(), direct.key()), (fen_now.clone(), pos.key()));
                    checked += 1;
                    if list.is_empty() {
                        break;
                    }
                    trail.push((fen_now, pos.key()));
                    let m = list[rng.random_range(0..list.len())];
                    pos.make_move(m);
                }
                while let Some((f, k)) = trail.pop() {
                    pos.unmake_move();
                    assert_eq!(pos.fen(), f, "unmake did not restore the position");
                    assert_eq!(pos.key(), k);
                }
            }
        }
        checked
    }
}

/// The staged search's view of the moves: captures and quiets partition the legal moves, and a
/// move the cheap test calls pseudo-legal is legal or leaves the mover's royal piece in danger
/// (it is tried on the legal moves, on moves legal earlier in the game and on random square
/// pairs).
fn check_halves<R: Rules>(pos: &mut Position<R>, list: &MoveList, legal: &[u32], rng: &mut StdRng, pool: &[Move]) {
    let (mut caps, mut quiets) = (MoveList::new(), MoveList::new());
    pos.legal_captures(&mut caps);
    pos.legal_quiets(&mut quiets);
    let mut halves: Vec<u32> = caps.iter().chain(quiets.iter()).map(|m| m.bits()).collect();
    halves.sort_unstable();
    assert_eq!(
        halves,
        legal,
        "captures + quiets differ from the legal moves in {}",
        pos.fen()
    );
    let plain = |m: &Move| matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Promotion);
    for m in list.iter() {
        if plain(m) && !pos.game().caps.contains(menagerie::Capabilities::OWN_MOVEGEN) {
            let dynamic = pos.game().dynamic_kinds >> pos.piece_at(m.from()).kind() & 1 != 0;
            assert_eq!(pos.is_plain_pseudo_legal(*m), !dynamic, "{m:?} in {}", pos.fen());
        }
    }
    let us = pos.side_to_move();
    let mut candidates: Vec<Move> = Vec::new();
    for _ in 0..pool.len().min(60) {
        candidates.push(pool[rng.random_range(0..pool.len())]);
    }
    let n = pos.variant().geometry.size();
    for _ in 0..40 {
        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
        candidates.push(Move::normal(Square::new(a), Square::new(b)));
    }
    for m in candidates {
        if pos.is_plain_pseudo_legal(m) {
            let legal_now = legal.contains(&m.bits());
            pos.make_move(m);
            let unsafe_king = pos.royal_in_danger(us);
            pos.unmake_move();
            assert!(legal_now || unsafe_king, "{m:?} called pseudo-legal in {}", pos.fen());
        }
    }
}

fn suite_fens(variant: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("perft")
        .join(format!("{variant}.perft"));
    let text = fs::read_to_string(path).unwrap();
    let mut fens: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("epd "))
        .map(|f| f.trim().to_string())
        .collect();
    fens.dedup();
    fens
}

fn run(variant: &str, games: usize, plies: usize) {
    run_with(variant, games, plies, true);
}

fn run_with(variant: &str, games: usize, plies: usize, slow: bool) {
    let set = default_variants();
    let v = set.get(variant).unwrap();
    let n = games::dispatch(
        v,
        Playouts {
            fens: suite_fens(variant),
            games,
            plies,
            own: slow.then(|| own_rules(variant)),
        },
    );
    assert!(n > 100, "{variant}: only {n} positions checked");
}

#[test]
fn chess_generators_agree() {
    run("chess", 4, 120);
}

#[test]
fn losalamos_generators_agree() {
    run("losalamos", 6, 120);
}

#[test]
fn capablanca_generators_agree() {
    run("capablanca", 6, 150);
}

#[test]
fn chess911_generators_agree() {
    run("chess911", 8, 200);
}

#[test]
fn remotesensing_generators_agree() {
    run("remotesensing", 8, 200);
}

#[test]
fn rbc_generators_agree() {
    run("rbc", 6, 150);
}

/// Tensor's module generates every move, so there is no Betza generator to compare with (its
/// independent check is tools/reference/crosscheck_tensor.py); keys, material, FEN round trips
/// and unmake are still checked along the playouts.
#[test]
fn tensor_keys_fen_and_unmake_agree() {
    run_with("tensor", 8, 200, false);
}

#[test]
fn slow_attack_detector_sees_an_attack() {
    // The reference must be able to fail: a rook on a1 attacks a8, a bishop on b1 does not.
    let set = default_variants();
    struct T;
    impl GameVisitor for T {
        type Output = (bool, bool);
        fn visit<R: Rules>(self, game: Arc<Game<R>>) -> (bool, bool) {
            let a = Position::from_fen(Arc::clone(&game), "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
            let b = Position::from_fen(game, "4k3/8/8/8/8/8/8/1B2K3 w - - 0 1").unwrap();
            let a8 = a.variant().geometry.parse("a8").unwrap();
            let own = own_rules("chess");
            (
                slow_attacked(&a, &own, a8, Color::White),
                slow_attacked(&b, &own, a8, Color::White),
            )
        }
    }
    assert_eq!(games::dispatch(set.get("chess").unwrap(), T), (true, false));
}

/// `Position::set_turn` (a table game handing the move to either side, with an en-passant
/// square it keeps open) gives the position that `from_setup` reads from the same setup: the
/// same FEN, key and legal moves, on positions along random games, for both sides and every
/// square of the third and sixth ranks as en passant.
struct TurnHandover;

impl GameVisitor for TurnHandover {
    type Output = (usize, usize);
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> (usize, usize) {
        let mut rng = StdRng::seed_from_u64(0x7475_726e);
        let g = game.variant.geometry.clone();
        let mut eps: Vec<Option<Square>> = vec![None];
        eps.extend((0..g.files()).flat_map(|f| [g.square(f, 2), g.square(f, g.ranks() - 3)]));
        let (mut checked, mut with_ep) = (0, 0);
        for _ in 0..6 {
            let mut pos = Position::startpos(Arc::clone(&game));
            for _ in 0..80 {
                for side in [Color::White, Color::Black] {
                    for &ep in &eps {
                        let mut setup = pos.setup();
                        setup.side = side;
                        setup.fullmove = 7;
                        setup.set_ep_if_passed(&game, ep);
                        let Ok(mut want) = Position::from_setup(Arc::clone(&game), &setup, true) else {
                            continue;
                        };
                        let mut got = pos.clone();
                        got.set_turn(side, ep, 7);
                        assert_eq!((got.fen(), got.key()), (want.fen(), want.key()), "from {}", pos.fen());
                        let (mut a, mut b) = (MoveList::new(), MoveList::new());
                        got.legal_moves(&mut a);
                        want.legal_moves(&mut b);
                        let bits = |l: &MoveList| l.iter().map(|m| m.bits()).collect::<Vec<u32>>();
                        assert_eq!(bits(&a), bits(&b), "moves differ in {}", want.fen());
                        checked += 1;
                        with_ep += usize::from(want.fen().split(' ').nth(3) != Some("-"));
                    }
                }
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                pos.make_move(list[rng.random_range(0..list.len())]);
            }
        }
        (checked, with_ep)
    }
}

#[test]
fn set_turn_agrees_with_from_setup() {
    let set = default_variants();
    for variant in ["chess", "capablanca"] {
        let (checked, with_ep) = games::dispatch(set.get(variant).unwrap(), TurnHandover);
        assert!(
            checked > 1000 && with_ep > 20,
            "{variant}: {checked} checked, {with_ep} with en passant"
        );
    }
}
