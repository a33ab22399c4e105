//! Attack and ray tables derived once when a variant is loaded.
//!
//! Leaps are bitboards per (kind, colour, square). Riders use rays: for every (direction,
//! range) a bitboard per square of the squares the ray crosses, stopping before holes and the
//! board edge. Because a ray's square indices move monotonically, the first blocker is the
//! lowest or highest set bit of `ray & occupied`.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::geometry::Geometry;
use crate::square::{MAX_SQUARES, Square};
use crate::variant::Variant;
use arrayvec::ArrayVec;

/// A value per square index, indexed by [`Square`] without bounds checks (the index is
/// masked to the table's 128 entries).
#[derive(Clone, Debug)]
pub struct SqTable<T>(Box<[T; MAX_SQUARES]>);

impl<T: Clone> SqTable<T> {
    /// A table with every entry set to `v`.
    pub fn filled(v: T) -> SqTable<T> {
        let b: Box<[T]> = vec![v; MAX_SQUARES].into_boxed_slice();
        SqTable(b.try_into().unwrap_or_else(|_| unreachable!("length is MAX_SQUARES")))
    }
}

impl<T> std::ops::Index<Square> for SqTable<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, sq: Square) -> &T {
        &self.0[sq.index() & (MAX_SQUARES - 1)]
    }
}

impl<T> std::ops::IndexMut<Square> for SqTable<T> {
    #[inline(always)]
    fn index_mut(&mut self, sq: Square) -> &mut T {
        &mut self.0[sq.index() & (MAX_SQUARES - 1)]
    }
}

impl<T> SqTable<T> {
    /// Every entry, by square index.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }
}

/// One rider direction of a piece kind.
#[derive(Clone, Copy, Debug)]
pub struct Ride {
    /// Index into the ray tables.
    pub ray: usize,
    /// May end on an empty square.
    pub quiet: bool,
    /// May capture the first piece met.
    pub capture: bool,
}

/// A leap with conditions: lame (path must be empty), initial (pawn ranks only) or en passant.
#[derive(Clone, Copy, Debug)]
pub struct SpecialLeap {
    /// Target square.
    pub to: Square,
    /// Squares that must be empty (lame leaps).
    pub path: Bitboard,
    /// May end on an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
}

/// Tables of one piece kind.
#[derive(Clone, Debug)]
pub struct KindTables {
    /// Unconditional leaps to empty squares, per colour and square.
    pub leap_quiet: [SqTable<Bitboard>; 2],
    /// Unconditional capturing leaps.
    pub leap_capt: [SqTable<Bitboard>; 2],
    /// Squares from which this kind captures onto the square by an unconditional leap.
    pub leap_capt_inv: [SqTable<Bitboard>; 2],
    /// En-passant capture targets.
    pub ep_capt: [SqTable<Bitboard>; 2],
    /// Squares from which this kind could capture en passant onto the square.
    pub ep_capt_inv: [SqTable<Bitboard>; 2],
    /// Conditional leaps (lame or initial), per colour and square.
    pub specials: [SqTable<ArrayVec<SpecialLeap, 8>>; 2],
    /// Rider directions, per colour.
    pub rides: [ArrayVec<Ride, 32>; 2],
    /// True when some conditional leap can capture (attack detection then checks them).
    pub lame_capture: bool,
}

/// Pieces that could capture onto a square by riding: look from the square along `ray`; if the
/// first piece met is of the attacking colour and one of `kinds`, it attacks.
#[derive(Clone, Copy, Debug)]
pub struct InverseRide {
    /// Ray from the attacked square (opposite direction to the rider's).
    pub ray: usize,
    /// Bitmask of kinds riding that way with that range.
    pub kinds: u32,
}

/// All tables of a variant.
#[derive(Clone, Debug)]
pub struct Tables {
    /// Per ray: `(dx, dy, range)` with `range == 0` unlimited.
    pub ray_dirs: Vec<(i8, i8, u8)>,
    /// `rays[ray * 128 + sq]`: squares crossed from `sq`.
    rays: Vec<SqTable<Bitboard>>,
    /// Same direction without range limit.
    full: Vec<SqTable<Bitboard>>,
    /// Whether square indices grow along the ray.
    pub ray_up: Vec<bool>,
    /// Tables per kind.
    pub kinds: Vec<KindTables>,
    /// Per attacking colour: inverse ride groups.
    pub inverse_rides: [Vec<InverseRide>; 2],
    /// Per attacking colour: kinds with unconditional capturing leaps.
    pub leap_attackers: [Vec<usize>; 2],
    /// Kinds with conditional capturing leaps.
    pub lame_attackers: Vec<usize>,
}

fn walk(g: &Geometry, sq: Square, dx: i8, dy: i8, range: u8) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    let mut cur = sq;
    let mut n = 0;
    while let Some(next) = g.offset(cur, dx as i32, dy as i32) {
        if !g.exists(next) {
            break;
        }
        bb.set(next);
        cur = next;
        n += 1;
        if range != 0 && n >= range {
            break;
        }
    }
    bb
}

impl Tables {
    /// Builds all tables for a variant.
    pub fn new(v: &Variant) -> Result<Tables, String> {
        let g = &v.geometry;
        let landable = g.landable();
        let mut t = Tables {
            ray_dirs: Vec::new(),
            rays: Vec::new(),
            full: Vec::new(),
            ray_up: Vec::new(),
            kinds: Vec::new(),
            inverse_rides: [Vec::new(), Vec::new()],
            leap_attackers: [Vec::new(), Vec::new()],
            lame_attackers: Vec::new(),
        };
        for (k, p) in v.pieces.iter().enumerate() {
            let mut kt = KindTables {
                leap_quiet: [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)],
                leap_capt: [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)],
                leap_capt_inv: [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)],
                ep_capt: [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)],
                ep_capt_inv: [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)],
                specials: [SqTable::filled(ArrayVec::new()), SqTable::filled(ArrayVec::new())],
                rides: [ArrayVec::new(), ArrayVec::new()],
                lame_capture: false,
            };
            for c in Color::ALL {
                // Black's moves are White's turned by 180 degrees, so 'l' and 'r' are the
                // owner's left and right.
                let sign: i8 = if c == Color::White { 1 } else { -1 };
                for m in &p.motions {
                    let (dx, dy) = (m.dx * sign, m.dy * sign);
                    if m.range != 1 {
                        let ray = t.ray_id(g, dx, dy, m.range);
                        if !kt.rides[c.index()].iter().any(|r| r.ray == ray) {
                            if kt.rides[c.index()].is_full() {
                                return Err(format!("piece {} has more than 32 rider directions", p.letter));
                            }
                            kt.rides[c.index()].push(Ride {
                                ray,
                                quiet: m.quiet,
                                capture: m.capture,
                            });
                        } else if let Some(r) = kt.rides[c.index()].iter_mut().find(|r| r.ray == ray) {
                            r.quiet |= m.quiet;
                            r.capture |= m.capture;
                        }
                        if m.capture {
                            let inv = t.ray_id(g, -dx, -dy, m.range);
                            let list = &mut t.inverse_rides[c.index()];
                            match list.iter_mut().find(|r| r.ray == inv) {
                                Some(r) => r.kinds |= 1 << k,
                                None => list.push(InverseRide {
                                    ray: inv,
                                    kinds: 1 << k,
                                }),
                            }
                        }
                        continue;
                    }
                    for from in g.board {
                        let Some(to) = g.offset(from, dx as i32, dy as i32) else {
                            continue;
                        };
                        if !landable.contains(to) || !landable.contains(from) {
                            continue;
                        }
                        if m.initial && !v.pawn_initial_ranks.contains(&g.relative_rank(c, from)) {
                            continue;
                        }
                        if m.lame || m.initial {
                            let mut path = Bitboard::EMPTY;
                            if m.lame {
                                let (ux, uy) = (dx.signum(), dy.signum());
                                let steps = dx.abs().max(dy.abs());
                                let mut ok = true;
                                for s in 1..steps {
                                    match g.offset(from, (ux * s) as i32, (uy * s) as i32) {
                                        Some(q) if g.exists(q) => path.set(q),
                                        _ => ok = false,
                                    }
                                }
                                if !ok {
                                    continue;
                                }
                            }
                            let list = &mut kt.specials[c.index()][from];
                            if list.is_full() {
                                return Err(format!("piece {} has more than 8 lame or initial leaps", p.letter));
                            }
                            list.push(SpecialLeap {
                                to,
                                path,
                                quiet: m.quiet,
                                capture: m.capture,
                            });
                            kt.lame_capture |= m.capture;
                            continue;
                        }
                        if m.quiet {
                            kt.leap_quiet[c.index()][from].set(to);
                        }
                        if m.capture {
                            kt.leap_capt[c.index()][from].set(to);
                            kt.leap_capt_inv[c.index()][to].set(from);
                        }
                        if m.en_passant {
                            kt.ep_capt[c.index()][from].set(to);
                            kt.ep_capt_inv[c.index()][to].set(from);
                        }
                    }
                }
                if kt.leap_capt[c.index()].iter().any(|b| b.is_nonempty()) {
                    t.leap_attackers[c.index()].push(k);
                }
            }
            if kt.lame_capture {
                t.lame_attackers.push(k);
            }
            t.kinds.push(kt);
        }
        Ok(t)
    }

    fn ray_id(&mut self, g: &Geometry, dx: i8, dy: i8, range: u8) -> usize {
        if let Some(i) = self.ray_dirs.iter().position(|&d| d == (dx, dy, range)) {
            return i;
        }
        let id = self.ray_dirs.len();
        self.ray_dirs.push((dx, dy, range));
        self.ray_up.push(dy as i32 * g.files() as i32 + dx as i32 > 0);
        let mut rays = SqTable::filled(Bitboard::EMPTY);
        let mut full = SqTable::filled(Bitboard::EMPTY);
        for sq in g.board {
            rays[sq] = walk(g, sq, dx, dy, range);
            full[sq] = walk(g, sq, dx, dy, 0);
        }
        self.rays.push(rays);
        self.full.push(full);
        id
    }

    /// Squares crossed by `ray` from `sq` on an empty board.
    #[inline]
    pub fn ray(&self, ray: usize, sq: Square) -> Bitboard {
        self.rays[ray][sq]
    }

    /// The unlimited ray in the same direction.
    #[inline]
    pub fn full_ray(&self, ray: usize, sq: Square) -> Bitboard {
        self.full[ray][sq]
    }

    /// Squares the ray reaches with blockers `occ`: up to and including the first blocker.
    #[inline]
    pub fn ray_attacks(&self, ray: usize, sq: Square, occ: Bitboard) -> Bitboard {
        let r = self.ray(ray, sq);
        let hit = r & occ;
        match self.first_on_ray(ray, hit) {
            Some(b) => r & !self.full_ray(ray, b),
            None => r,
        }
    }

    /// The first square of `set` met along `ray` (the set must lie on the ray).
    #[inline]
    pub fn first_on_ray(&self, ray: usize, set: Bitboard) -> Option<Square> {
        if self.ray_up[ray] { set.first() } else { set.last() }
    }
}
