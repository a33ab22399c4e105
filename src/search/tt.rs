//! Transposition table: one 16-byte entry per slot, allocated once (and again only when the
//! size is changed with `Hash`/`memory`).

use crate::moves::Move;

/// Bound type of a stored score.
pub const BOUND_EXACT: u8 = 3;
/// The score is a lower bound (fail high).
pub const BOUND_LOWER: u8 = 2;
/// The score is an upper bound (fail low).
pub const BOUND_UPPER: u8 = 1;

/// One table entry.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub struct Entry {
    key: u32,
    /// Best move found (raw bits).
    pub mv: u32,
    /// Score, mate scores relative to this node.
    pub score: i16,
    /// Static evaluation.
    pub eval: i16,
    /// Search depth of the score.
    pub depth: u8,
    /// One of the `BOUND_*` constants.
    pub bound: u8,
    generation: u8,
    _pad: u8,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);

/// The table.
#[derive(Debug)]
pub struct TransTable {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl TransTable {
    /// A table of at most `mb` megabytes (a power-of-two number of entries, at least 1024).
    pub fn new(mb: usize) -> TransTable {
        let bytes = mb.clamp(1, 1 << 16) << 20;
        let mut n = 1024usize;
        while n * 2 * std::mem::size_of::<Entry>() <= bytes {
            n *= 2;
        }
        TransTable {
            entries: vec![Entry::default(); n],
            mask: n - 1,
            generation: 0,
        }
    }

    /// Like [`TransTable::new`], but reports an allocation failure instead of aborting.
    pub fn try_new(mb: usize) -> Result<TransTable, String> {
        let bytes = mb.clamp(1, 1 << 16) << 20;
        let mut n = 1024usize;
        while n * 2 * std::mem::size_of::<Entry>() <= bytes {
            n *= 2;
        }
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(n)
            .map_err(|_| format!("cannot allocate a {mb} MB transposition table"))?;
        entries.resize(n, Entry::default());
        Ok(TransTable {
            entries,
            mask: n - 1,
            generation: 0,
        })
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
        self.generation = 0;
    }

    /// Starts a new search (older entries become easier to replace).
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Size in megabytes.
    pub fn megabytes(&self) -> usize {
        (self.entries.len() * std::mem::size_of::<Entry>()) >> 20
    }

    /// The entry for a key, if one is stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == (key >> 32) as u32 && e.bound != 0).then_some(e)
    }

    /// Stores a result.
    #[inline]
    pub fn store(&mut self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: u8) {
        let gen_now = self.generation;
        let slot = &mut self.entries[key as usize & self.mask];
        let k = (key >> 32) as u32;
        if slot.key != k || depth + 2 >= slot.depth as i32 || slot.generation != gen_now || bound == BOUND_EXACT {
            let keep_move = slot.key == k && mv == Move::NONE;
            *slot = Entry {
                key: k,
                mv: if keep_move { slot.mv } else { mv.bits() },
                score: score.clamp(-32767, 32767) as i16,
                eval: eval.clamp(-32767, 32767) as i16,
                depth: depth.clamp(0, 255) as u8,
                bound,
                generation: gen_now,
                _pad: 0,
            };
        }
    }

    /// Permille of the first thousand slots used in this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| e.bound != 0 && e.generation == self.generation)
            .count();
        (used * 1000 / n) as u32
    }
}
