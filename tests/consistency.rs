//! Random playouts from every suite position of every variant check that
//! - a slow, ray-walking move generator written straight from the Betza motions agrees with the
//!   table-driven one (the two generators share only the position and the rules module);
//! - the incremental Zobrist key equals the recomputed one;
//! - the FEN round-trips, and unmake restores the exact position.

use menagerie::games::{self, GameVisitor};
use menagerie::{Color, Game, Move, MoveKind, MoveList, Position, Rules, Square, default_variants};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fs;
use std::path::Path;
use std::sync::Arc;

/// Does `by` attack `target` (ray walking, no tables)?
fn slow_attacked<R: Rules>(pos: &Position<R>, target: Square, by: Color) -> bool {
    let v = pos.variant();
    let g = &v.geometry;
    for from in pos.color_bb(by) {
        let kind = pos.piece_at(from).kind();
        for m in &v.pieces[kind].motions {
            if !m.capture {
                continue;
            }
            let sign = if by == Color::White { 1 } else { -1 };
            let (dx, dy) = (m.dx as i32 * sign, m.dy as i32 * sign);
            if m.range == 1 {
                if m.initial && !v.pawn_initial_ranks.contains(&g.relative_rank(by, from)) {
                    continue;
                }
                if g.offset(from, dx, dy) != Some(target) {
                    continue;
                }
                if m.lame && !lame_path_clear(pos, from, dx, dy) {
                    continue;
                }
                return true;
            }
            let mut cur = from;
            let mut n = 0;
            while let Some(next) = g.offset(cur, dx, dy) {
                if !g.exists(next) {
                    break;
                }
                if next == target {
                    return true;
                }
                if pos.piece_at(next).is_some() {
                    break;
                }
                cur = next;
                n += 1;
                if m.range != 0 && n >= m.range {
                    break;
                }
            }
        }
    }
    false
}

fn lame_path_clear<R: Rules>(pos: &Position<R>, from: Square, dx: i32, dy: i32) -> bool {
    let g = &pos.variant().geometry;
    let steps = dx.abs().max(dy.abs());
    (1..steps).all(|s| match g.offset(from, dx.signum() * s, dy.signum() * s) {
        Some(q) => g.exists(q) && pos.piece_at(q).is_none(),
        None => false,
    })
}

fn royal_unsafe<R: Rules>(pos: &Position<R>, c: Color) -> bool {
    let forbidden = pos.game().rules.royal_forbidden();
    pos.royals(c)
        .any(|k| forbidden.contains(k) || slow_attacked(pos, k, !c))
}

fn slow_moves<R: Rules>(pos: &mut Position<R>) -> Vec<u32> {
    let us = pos.side_to_move();
    let v = pos.variant().clone();
    let g = &v.geometry;
    let has_royals = v.pieces.iter().any(|p| p.royal);
    if has_royals && pos.royals(us).is_empty() {
        return Vec::new();
    }
    let zone = |sq: Square| v.promotion_rank.is_some_and(|r| g.relative_rank(us, sq) >= r);
    let mut out: Vec<Move> = Vec::new();
    let push = |out: &mut Vec<Move>, from: Square, to: Square, kind: usize| {
        if v.pieces[kind].pawn && zone(to) {
            for &pk in &v.promotion_kinds {
                out.push(Move::new(from, to, MoveKind::Promotion, kind as u32, pk as u32));
            }
            if v.promotion_compulsory {
                return;
            }
        }
        out.push(Move::normal(from, to));
    };
    for from in pos.color_bb(us) {
        let kind = pos.piece_at(from).kind();
        for m in &v.pieces[kind].motions {
            let sign = if us == Color::White { 1 } else { -1 };
            let (dx, dy) = (m.dx as i32 * sign, m.dy as i32 * sign);
            if m.range == 1 {
                if m.initial && !v.pawn_initial_ranks.contains(&g.relative_rank(us, from)) {
                    continue;
                }
                let Some(to) = g.offset(from, dx, dy) else { continue };
                if !g.exists(to) || g.no_landing.contains(to) {
                    continue;
                }
                if m.lame && !lame_path_clear(pos, from, dx, dy) {
                    continue;
                }
                let t = pos.piece_at(to);
                if t.is_none() && m.quiet {
                    let double = v.pieces[kind].pawn && m.lame && (dx.abs().max(dy.abs()) > 1) && !zone(to);
                    if double {
                        let ep = g.offset(to, -dx.signum(), -dy.signum()).unwrap();
                        out.push(Move::new(from, to, MoveKind::DoubleStep, ep.index() as u32, 0));
                    } else {
                        push(&mut out, from, to, kind);
                    }
                } else if t.is_some() && t.color() != us && m.capture {
                    push(&mut out, from, to, kind);
                }
                if let Some(ep) = pos.state().ep
                    && m.en_passant
                    && to == ep
                {
                    let victim = g.offset(ep, 0, if us == Color::White { -1 } else { 1 }).unwrap();
                    out.push(Move::new(from, ep, MoveKind::EnPassant, victim.index() as u32, 0));
                }
                continue;
            }
            let mut cur = from;
            let mut n = 0;
            while let Some(next) = g.offset(cur, dx, dy) {
                if !g.exists(next) {
                    break;
                }
                let t = pos.piece_at(next);
                if t.is_some() {
                    if t.color() != us && m.capture {
                        push(&mut out, from, next, kind);
                    }
                    break;
                }
                if m.quiet && !g.no_landing.contains(next) {
                    push(&mut out, from, next, kind);
                }
                cur = next;
                n += 1;
                if m.range != 0 && n >= m.range {
                    break;
                }
            }
        }
    }
    // Castling, from the variant's option list.
    let forbidden = pos.game().rules.royal_forbidden();
    for right in 0..2 {
        if pos.state().castling >> (us.index() * 2 + right) & 1 == 0 {
            continue;
        }
        for (i, o) in v.castle_options(us, right).enumerate() {
            let (k, r) = (pos.piece_at(o.king_from), pos.piece_at(o.rook_from));
            if k.is_none() || k.color() != us || !v.pieces[k.kind()].royal || r.is_none() || r.color() != us {
                continue;
            }
            let rank = g.rank_of(o.king_from);
            let span = |a: Square, b: Square| {
                let (fa, fb) = (g.file_of(a), g.file_of(b));
                (fa.min(fb)..=fa.max(fb))
                    .map(|f| g.square(f, rank).unwrap())
                    .collect::<Vec<_>>()
            };
            let mut ok = span(o.king_from, o.king_to)
                .into_iter()
                .chain(span(o.rook_from, o.rook_to))
                .all(|s| s == o.king_from || s == o.rook_from || pos.piece_at(s).is_none());
            if ok && v.check {
                let path = span(o.king_from, o.king_to);
                ok = !path.iter().any(|&s| forbidden.contains(s))
                    && !path.iter().any(|&s| s != o.king_to && slow_attacked(pos, s, !us));
            }
            if ok {
                out.push(Move::new(
                    o.king_from,
                    o.king_to,
                    MoveKind::Castle,
                    (right * 8 + i) as u32,
                    0,
                ));
            }
        }
    }
    let mut extra = MoveList::new();
    pos.game().rules.extra_moves(pos, &mut extra);
    // Pieces without fixed moves have no Betza to walk: their moves come from the module itself
    // (so they cannot disagree here) and only feed the key/material/FEN/unmake checks. Their
    // move sets are checked against tools/reference/remotesensing.py by .ci/run.
    for from in pos.color_bb(us) {
        let kind = pos.piece_at(from).kind();
        if v.pieces[kind].dynamic {
            pos.game().rules.dynamic_moves(pos, from, kind, &mut extra);
        }
    }
    out.extend(extra.iter().copied());
    let mut legal: Vec<u32> = Vec::new();
    for m in out {
        if v.check {
            pos.make_move(m);
            let bad = royal_unsafe(pos, us);
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
    /// Compare with the slow Betza generator (not for games whose module makes every move).
    slow: bool,
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
                for _ in 0..self.plies {
                    let mut list = MoveList::new();
                    pos.legal_moves(&mut list);
                    let mut fast: Vec<u32> = list.iter().map(|m| m.bits()).collect();
                    fast.sort_unstable();
                    if self.slow {
                        let slow = slow_moves(&mut pos);
                        assert_eq!(fast, slow, "generators disagree in {}", pos.fen());
                    }
                    assert_eq!(pos.key(), pos.compute_key(), "incremental key wrong in {}", pos.fen());
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
            slow,
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
            (slow_attacked(&a, a8, Color::White), slow_attacked(&b, a8, Color::White))
        }
    }
    assert_eq!(games::dispatch(set.get("chess").unwrap(), T), (true, false));
}
