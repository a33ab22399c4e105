//! Attack and ray tables derived once when a variant is loaded.
//!
//! Leaps are bitboards per (kind, colour, square). Riders use rays: for every (direction,
//! range) a bitboard per square of the squares the ray crosses, stopping before holes and the
//! board edge. Because a ray's square indices move monotonically, the first blocker is the
//! lowest or highest set bit of `ray & occupied`.

use crate::betza::Motion;
use crate::bitboard::{Bitboard, Word};
use crate::color::Color;
use crate::geometry::Geometry;
use crate::square::{MAX_SQUARES, Square};
use crate::variant::{PieceDef, Variant};
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
pub struct SpecialLeap<W: Word> {
    /// Target square.
    pub to: Square,
    /// Squares that must be empty (lame leaps).
    pub path: Bitboard<W>,
    /// May end on an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
}

/// Tables of one piece kind.
#[derive(Clone, Debug)]
pub struct KindTables<W: Word> {
    /// Unconditional leaps to empty squares, per colour and square.
    pub leap_quiet: [SqTable<Bitboard<W>>; 2],
    /// Unconditional capturing leaps.
    pub leap_capt: [SqTable<Bitboard<W>>; 2],
    /// Squares from which this kind captures onto the square by an unconditional leap.
    pub leap_capt_inv: [SqTable<Bitboard<W>>; 2],
    /// En-passant capture targets.
    pub ep_capt: [SqTable<Bitboard<W>>; 2],
    /// Squares from which this kind could capture en passant onto the square.
    pub ep_capt_inv: [SqTable<Bitboard<W>>; 2],
    /// Conditional leaps (lame or initial), per colour and square.
    pub specials: [SqTable<ArrayVec<SpecialLeap<W>, 8>>; 2],
    /// Rider directions, per colour.
    pub rides: [ArrayVec<Ride, 32>; 2],
    /// True when some conditional leap can capture (attack detection then checks them).
    pub lame_capture: bool,
    /// Rider directions looked up together by magic multiply (64-bit boards), per colour.
    pub slides: [ArrayVec<Slide, 4>; 2],
    /// The rider directions not covered by `slides`, per colour (all of them on 128 bits).
    pub loose_rides: [ArrayVec<Ride, 32>; 2],
    /// The kind's moves as whole-set shifts, per colour, when it has no rides and few
    /// distinct leaps (pawns, knights): counting moves then needs no loop over pieces.
    pub shifts: [Option<ShiftPlan<W>>; 2],
}

/// Unconditional leaps of one index offset: every piece on `origin` may leap `delta` squares.
#[derive(Clone, Copy, Debug)]
pub struct ShiftLeap<W: Word> {
    pub delta: i32,
    pub origin: Bitboard<W>,
    /// May end on an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
}

/// Conditional leaps of one index offset and one path: from `origin`, `delta` squares on, if
/// the squares at `path` offsets are empty.
#[derive(Clone, Debug)]
pub struct ShiftSpecial<W: Word> {
    pub delta: i32,
    pub origin: Bitboard<W>,
    pub path: ArrayVec<i32, 3>,
    pub quiet: bool,
    pub capture: bool,
}

/// A kind's leaps grouped by index offset. Exact by construction: the leaps from a square are
/// `square + delta` for each entry whose `origin` holds it.
#[derive(Clone, Debug, Default)]
pub struct ShiftPlan<W: Word> {
    pub leaps: ArrayVec<ShiftLeap<W>, 16>,
    pub specials: ArrayVec<ShiftSpecial<W>, 8>,
}

impl<W: Word> ShiftPlan<W> {
    /// The plan of one colour of a kind, or `None` when it has rides, too many distinct
    /// offsets, long lame paths, or a conditional leap that repeats an unconditional one (the
    /// move list skips such duplicates per piece).
    fn of(kt: &KindTables<W>, c: usize) -> Option<ShiftPlan<W>> {
        if !kt.rides[c].is_empty() {
            return None;
        }
        let mut plan = ShiftPlan::default();
        for from in (0..MAX_SQUARES).map(Square::new) {
            let (quiet, capt) = (kt.leap_quiet[c][from], kt.leap_capt[c][from]);
            for to in quiet | capt {
                let delta = to.index() as i32 - from.index() as i32;
                let (q, x) = (quiet.contains(to), capt.contains(to));
                match plan
                    .leaps
                    .iter_mut()
                    .find(|l| (l.delta, l.quiet, l.capture) == (delta, q, x))
                {
                    Some(l) => l.origin.set(from),
                    None => plan
                        .leaps
                        .try_push(ShiftLeap {
                            delta,
                            origin: Bitboard::from(from),
                            quiet: q,
                            capture: x,
                        })
                        .ok()?,
                }
            }
            for sp in &kt.specials[c][from] {
                let delta = sp.to.index() as i32 - from.index() as i32;
                let path: ArrayVec<i32, 3> = sp
                    .path
                    .map(|p| p.index() as i32 - from.index() as i32)
                    .collect::<ArrayVec<i32, 8>>()
                    .as_slice()
                    .try_into()
                    .ok()?;
                if (quiet | capt).contains(sp.to) {
                    return None;
                }
                let same = |s: &ShiftSpecial<W>| {
                    (s.delta, s.quiet, s.capture) == (delta, sp.quiet, sp.capture) && s.path == path
                };
                match plan.specials.iter_mut().find(|s| same(s)) {
                    Some(s) => s.origin.set(from),
                    None => plan
                        .specials
                        .try_push(ShiftSpecial {
                            delta,
                            origin: Bitboard::from(from),
                            path,
                            quiet: sp.quiet,
                            capture: sp.capture,
                        })
                        .ok()?,
                }
            }
        }
        Some(plan)
    }
}

/// Some rider directions of a kind looked up at once ([`Tables::set_attacks`]).
#[derive(Clone, Copy, Debug)]
pub struct Slide {
    /// Index of the slider set.
    pub set: usize,
    /// May end on an empty square.
    pub quiet: bool,
    /// May capture the first piece met.
    pub capture: bool,
}

/// Where one square's entries of a slider set live in the shared attack table.
#[derive(Clone, Copy, Debug, Default)]
struct MagicEntry {
    /// The squares whose occupancy matters (every ray square but the last of each ray).
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// Board (files, ranks, squares) and ray directions of a slider set.
type MagicKey = (usize, usize, u128, Vec<(i8, i8, u8)>);

/// Per square of a slider set: (table bits, magic number).
type Magics = Vec<(u32, u64)>;

/// Magic numbers already found in this process, by board and rays.
static MAGIC_CACHE: std::sync::Mutex<Vec<(MagicKey, Magics)>> = std::sync::Mutex::new(Vec::new());

/// Candidate magic numbers tried per table size before the table grows by one bit.
const MAGIC_TRIES: u32 = 2_000;

/// Rays from every square looked up together: the occupancy of the mask, multiplied by the
/// square's magic number, indexes the squares reached (fancy magic bitboards).
#[derive(Clone, Debug)]
pub struct SliderSet {
    /// The rays, sorted.
    pub rays: ArrayVec<usize, 8>,
    entries: SqTable<MagicEntry>,
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
pub struct Tables<W: Word> {
    /// Per ray: `(dx, dy, range)` with `range == 0` unlimited.
    pub ray_dirs: Vec<(i8, i8, u8)>,
    /// `rays[ray * 128 + sq]`: squares crossed from `sq`.
    rays: Vec<SqTable<Bitboard<W>>>,
    /// Same direction without range limit.
    full: Vec<SqTable<Bitboard<W>>>,
    /// Whether square indices grow along the ray.
    pub ray_up: Vec<bool>,
    /// Tables per kind.
    pub kinds: Vec<KindTables<W>>,
    /// Per attacking colour: inverse ride groups.
    pub inverse_rides: [Vec<InverseRide>; 2],
    /// Per attacking colour: bitmask of the kinds in `inverse_rides` (the kinds that can pin).
    pub rider_kinds: [u32; 2],
    /// Per attacking colour: kinds with unconditional capturing leaps.
    pub leap_attackers: [Vec<usize>; 2],
    /// Kinds with conditional capturing leaps.
    pub lame_attackers: Vec<usize>,
    /// Per attacking colour: the inverse rides not covered by `attack_sets`.
    pub attack_rides: [Vec<InverseRide>; 2],
    /// Per attacking colour: slider sets from the attacked square, with the kinds riding them.
    pub attack_sets: [Vec<(usize, u32)>; 2],
    /// Magic slider sets (64-bit boards only).
    pub sets: Vec<SliderSet>,
    /// The squares reached, for every set, square and occupancy.
    magic_attacks: Vec<u64>,
}

/// Splits `items` (rider directions) into groups of two to eight one-step orthogonal, or
/// diagonal, rays that agree by `same`, and the rest (other directions, groups of one).
fn group_rays<T: Copy>(
    dirs: &[(i8, i8, u8)],
    items: &[T],
    ray: impl Fn(&T) -> usize,
    same: impl Fn(&T, &T) -> bool,
) -> (Vec<ArrayVec<T, 8>>, Vec<T>) {
    let class = |item: &T| {
        let (dx, dy, _) = dirs[ray(item)];
        match (dx.abs(), dy.abs()) {
            (1, 0) | (0, 1) => Some(false),
            (1, 1) => Some(true),
            _ => None,
        }
    };
    let (mut groups, mut rest) = (Vec::new(), Vec::new());
    let mut done = vec![false; items.len()];
    for (i, a) in items.iter().enumerate() {
        if done[i] {
            continue;
        }
        let Some(cl) = class(a) else {
            rest.push(*a);
            continue;
        };
        let mut group: ArrayVec<T, 8> = ArrayVec::new();
        for (j, b) in items.iter().enumerate().skip(i) {
            if !done[j] && class(b) == Some(cl) && same(a, b) && !group.is_full() {
                group.push(*b);
                done[j] = true;
            }
        }
        if group.len() < 2 {
            rest.extend(group);
        } else {
            groups.push(group);
        }
    }
    (groups, rest)
}

fn walk<W: Word>(g: &Geometry, sq: Square, dx: i8, dy: i8, range: u8) -> Bitboard<W> {
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

/// A leap `d` (owner's side) for colour `c` from every square: plain leaps into the leap
/// tables (en passant apart), lame and first-move leaps as special leaps with their paths.
fn add_leaps<W: Word>(
    v: &Variant,
    kt: &mut KindTables<W>,
    c: Color,
    m: &Motion,
    (dx, dy): (i8, i8),
    p: &PieceDef,
) -> Result<(), String> {
    let g = &v.geometry;
    let landable = g.landable();
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
    Ok(())
}

impl<W: Word> KindTables<W> {
    /// A kind with no move yet.
    fn empty() -> KindTables<W> {
        KindTables {
            leap_quiet: [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)],
            leap_capt: [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)],
            leap_capt_inv: [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)],
            ep_capt: [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)],
            ep_capt_inv: [SqTable::filled(Bitboard::EMPTY), SqTable::filled(Bitboard::EMPTY)],
            specials: [SqTable::filled(ArrayVec::new()), SqTable::filled(ArrayVec::new())],
            rides: [ArrayVec::new(), ArrayVec::new()],
            lame_capture: false,
            slides: [ArrayVec::new(), ArrayVec::new()],
            loose_rides: [ArrayVec::new(), ArrayVec::new()],
            shifts: [None, None],
        }
    }
}

impl<W: Word> Tables<W> {
    /// Builds all tables for a variant.
    pub fn new(v: &Variant) -> Result<Tables<W>, String> {
        let g = &v.geometry;
        let mut t = Tables {
            ray_dirs: Vec::new(),
            rays: Vec::new(),
            full: Vec::new(),
            ray_up: Vec::new(),
            kinds: Vec::new(),
            inverse_rides: [Vec::new(), Vec::new()],
            rider_kinds: [0, 0],
            leap_attackers: [Vec::new(), Vec::new()],
            lame_attackers: Vec::new(),
            attack_rides: [Vec::new(), Vec::new()],
            attack_sets: [Vec::new(), Vec::new()],
            sets: Vec::new(),
            magic_attacks: Vec::new(),
        };
        for (k, p) in v.pieces.iter().enumerate() {
            let mut kt = KindTables::empty();
            for c in Color::ALL {
                // Black's moves are White's turned by 180 degrees, so 'l' and 'r' are the
                // owner's left and right.
                let sign: i8 = if c == Color::White { 1 } else { -1 };
                for m in &p.motions {
                    let d = (m.dx * sign, m.dy * sign);
                    if m.range != 1 {
                        t.add_ride(g, &mut kt, (k, c), m, d, p)?;
                    } else {
                        add_leaps(v, &mut kt, c, m, d, p)?;
                    }
                }
                if kt.leap_capt[c.index()].iter().any(|b| b.is_nonempty()) {
                    t.leap_attackers[c.index()].push(k);
                }
            }
            if kt.lame_capture {
                t.lame_attackers.push(k);
            }
            kt.loose_rides = kt.rides.clone();
            kt.shifts = [ShiftPlan::of(&kt, 0), ShiftPlan::of(&kt, 1)];
            t.kinds.push(kt);
        }
        t.attack_rides = t.inverse_rides.clone();
        t.rider_kinds = [0, 1].map(|c| t.inverse_rides[c].iter().fold(0, |m, r| m | r.kinds));
        if W::BITS == 64 {
            t.build_slider_sets(g);
        }
        Ok(t)
    }

    /// A rider's direction `d` (owner's side) of kind `k` for colour `c`: its ride, and, for a
    /// capture, the inverse ride that finds attackers.
    fn add_ride(
        &mut self,
        g: &Geometry,
        kt: &mut KindTables<W>,
        (k, c): (usize, Color),
        m: &Motion,
        (dx, dy): (i8, i8),
        p: &PieceDef,
    ) -> Result<(), String> {
        let ray = self.ray_id(g, dx, dy, m.range);
        let rides = &mut kt.rides[c.index()];
        if let Some(r) = rides.iter_mut().find(|r| r.ray == ray) {
            r.quiet |= m.quiet;
            r.capture |= m.capture;
        } else {
            if rides.is_full() {
                return Err(format!("piece {} has more than 32 rider directions", p.letter));
            }
            rides.push(Ride {
                ray,
                quiet: m.quiet,
                capture: m.capture,
            });
        }
        if m.capture {
            let inv = self.ray_id(g, -dx, -dy, m.range);
            let list = &mut self.inverse_rides[c.index()];
            match list.iter_mut().find(|r| r.ray == inv) {
                Some(r) => r.kinds |= 1 << k,
                None => list.push(InverseRide {
                    ray: inv,
                    kinds: 1 << k,
                }),
            }
        }
        Ok(())
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
    pub fn ray(&self, ray: usize, sq: Square) -> Bitboard<W> {
        self.rays[ray][sq]
    }

    /// The unlimited ray in the same direction.
    #[inline]
    pub fn full_ray(&self, ray: usize, sq: Square) -> Bitboard<W> {
        self.full[ray][sq]
    }

    /// Squares the ray reaches with blockers `occ`: up to and including the first blocker.
    #[inline]
    pub fn ray_attacks(&self, ray: usize, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let r = self.ray(ray, sq);
        let hit = r & occ;
        match self.first_on_ray(ray, hit) {
            Some(b) => r & !self.full_ray(ray, b),
            None => r,
        }
    }

    /// The first square of `set` met along `ray` (the set must lie on the ray).
    #[inline]
    pub fn first_on_ray(&self, ray: usize, set: Bitboard<W>) -> Option<Square> {
        if self.ray_up[ray] { set.first() } else { set.last() }
    }

    /// Squares reached along the rays of slider set `set` from `sq` with blockers `occ`, each
    /// ray up to and including its first blocker.
    #[inline]
    pub fn set_attacks(&self, set: usize, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let e = &self.sets[set].entries[sq];
        let occ = occ.0.to_u128() as u64;
        let i = e.offset as usize + ((occ & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
        Bitboard(W::from_u128(u128::from(self.magic_attacks[i])))
    }

    /// Groups rider directions into magic slider sets: per kind and colour, the one-step
    /// orthogonal rays with the same flags, and likewise the diagonal ones (two or more each);
    /// the inverse rides for attack detection likewise, by the kinds that ride them.
    fn build_slider_sets(&mut self, g: &Geometry) {
        for k in 0..self.kinds.len() {
            for c in 0..2 {
                let rides = self.kinds[k].rides[c].clone();
                let (groups, rest) = group_rays(
                    &self.ray_dirs,
                    &rides,
                    |r| r.ray,
                    |a, b| (a.quiet, a.capture) == (b.quiet, b.capture),
                );
                let mut loose: ArrayVec<Ride, 32> = rest.into_iter().collect();
                let mut slides: ArrayVec<Slide, 4> = ArrayVec::new();
                for group in groups {
                    if slides.is_full() {
                        loose.extend(group);
                        continue;
                    }
                    let set = self.slider_set(g, group.iter().map(|r| r.ray).collect());
                    slides.push(Slide {
                        set,
                        quiet: group[0].quiet,
                        capture: group[0].capture,
                    });
                }
                self.kinds[k].loose_rides[c] = loose;
                self.kinds[k].slides[c] = slides;
            }
        }
        for c in 0..2 {
            let inv = self.inverse_rides[c].clone();
            let (groups, loose) = group_rays(&self.ray_dirs, &inv, |r| r.ray, |a, b| a.kinds == b.kinds);
            let mut sets = Vec::new();
            for group in groups {
                let set = self.slider_set(g, group.iter().map(|r| r.ray).collect());
                sets.push((set, group[0].kinds));
            }
            self.attack_rides[c] = loose;
            self.attack_sets[c] = sets;
        }
    }

    /// The slider set of these rays, built (magic numbers found) on first use.
    fn slider_set(&mut self, g: &Geometry, mut rays: ArrayVec<usize, 8>) -> usize {
        rays.sort_unstable();
        if let Some(i) = self.sets.iter().position(|s| s.rays == rays) {
            return i;
        }
        let mut entries = SqTable::filled(MagicEntry::default());
        // Variants on the same board share their magic numbers (found once per process).
        let key: MagicKey = (
            g.files(),
            g.ranks(),
            g.board.0,
            rays.iter().map(|&r| self.ray_dirs[r]).collect(),
        );
        let cached = MAGIC_CACHE
            .lock()
            .ok()
            .and_then(|c| c.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone()));
        let mut found: Magics = Vec::new();
        // A fixed seed: the same variant gets the same magic numbers on every run.
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64 ^ (rays.iter().fold(0u64, |h, &r| h.wrapping_mul(31) + r as u64));
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut occs: Vec<u64> = Vec::new();
        let mut reached: Vec<u64> = Vec::new();
        let mut slots: Vec<(u32, u64)> = Vec::new();
        for sq in g.board {
            let mask = self.blocker_subsets(&rays, sq, &mut occs, &mut reached);
            let (bits, magic) = match cached.as_ref().and_then(|c| c.get(found.len())) {
                Some(&(bits, magic)) => (bits, magic),
                None => find_magic(mask, &occs, &reached, &mut slots, &mut next),
            };
            found.push((bits, magic));
            let (shift, size) = (64 - bits, 1usize << bits);
            let offset = self.magic_attacks.len();
            self.magic_attacks.resize(offset + size, 0);
            for (&o, &a) in occs.iter().zip(&reached) {
                self.magic_attacks[offset + (o.wrapping_mul(magic) >> shift) as usize] = a;
            }
            entries[sq] = MagicEntry {
                mask,
                magic,
                shift,
                offset: offset as u32,
            };
        }
        if cached.is_none()
            && let Ok(mut c) = MAGIC_CACHE.lock()
        {
            c.push((key, found));
        }
        self.sets.push(SliderSet { rays, entries });
        self.sets.len() - 1
    }

    /// The squares of `sq` whose occupancy matters to these rays (the mask), with every
    /// subset of it into `occs` (carry-rippler) and the squares the rays reach under each into
    /// `reached`.
    fn blocker_subsets(&self, rays: &[usize], sq: Square, occs: &mut Vec<u64>, reached: &mut Vec<u64>) -> u64 {
        let mut mask = 0u64;
        for &ray in rays {
            let r = self.ray(ray, sq);
            let last = if self.ray_up[ray] { r.last() } else { r.first() };
            if let Some(last) = last {
                mask |= (r & !Bitboard::from(last)).0.to_u128() as u64;
            }
        }
        // Every subset of the mask (carry-rippler) and the squares it lets the rays reach.
        occs.clear();
        reached.clear();
        let mut sub = 0u64;
        loop {
            let occ: Bitboard<W> = Bitboard(W::from_u128(u128::from(sub)));
            let att = rays
                .iter()
                .fold(Bitboard::EMPTY, |a, &ray| a | self.ray_attacks(ray, sq, occ));
            occs.push(sub);
            reached.push(att.0.to_u128() as u64);
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        mask
    }
}

/// A magic number for one square's `mask`: it maps every subset in `occs` to a slot of a
/// table of `bits` bits so that subsets sharing a slot reach the same squares (`reached`).
/// Each table size gets a bounded number of tries: a square whose magic is slow to find gets
/// a table one bit larger instead (start-up stays short). Returns (bits, magic).
fn find_magic(
    mask: u64,
    occs: &[u64],
    reached: &[u64],
    slots: &mut Vec<(u32, u64)>,
    next: &mut impl FnMut() -> u64,
) -> (u32, u64) {
    let mut bits = mask.count_ones().max(1);
    let mut attempt = 0u32;
    let mut tries = 0u32;
    slots.clear();
    slots.resize(1 << bits, (0, 0));
    loop {
        if tries == MAGIC_TRIES {
            tries = 0;
            bits += 1;
            slots.clear();
            slots.resize(1 << bits, (0, 0));
        }
        tries += 1;
        attempt += 1;
        let magic = next() & next() & next();
        if bits >= 8 && (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let shift = 64 - bits;
        let ok = occs.iter().zip(reached).all(|(&o, &a)| {
            let slot = &mut slots[(o.wrapping_mul(magic) >> shift) as usize];
            if slot.0 != attempt {
                *slot = (attempt, a);
                true
            } else {
                slot.1 == a
            }
        });
        if ok {
            return (bits, magic);
        }
    }
}
