//! Transposition table: buckets of four 16-byte entries (one cache line), allocated once (and
//! again only when the size is changed with `Hash`/`memory`). A new position replaces the entry
//! of its bucket that is worth least: empty, then the shallowest and oldest.

use crate::moves::Move;
use arrayvec::ArrayVec;

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

/// Entries a key may use: one bucket.
const BUCKET: usize = 4;

/// The table.
#[derive(Debug)]
pub struct TransTable {
    entries: Vec<Entry>,
    /// Bucket index mask (buckets are [`BUCKET`] entries).
    mask: usize,
    generation: u8,
    /// For the smallest table, emptied before each of many short searches: the buckets
    /// stored to since it was last emptied, so that emptying it clears only those (`None`:
    /// not kept, or more than fit).
    stored: Option<ArrayVec<u32, STORES_KEPT>>,
}

/// The most stored-to buckets the smallest table keeps ([`TransTable::clear`]).
const STORES_KEPT: usize = 64;

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
            mask: n / BUCKET - 1,
            generation: 0,
            stored: None,
        }
    }

    /// The smallest table: 1,024 entries (16 KB), cheap to empty: emptying it after a search of
    /// a few nodes clears only the buckets they stored to.
    pub fn smallest() -> TransTable {
        TransTable {
            entries: vec![Entry::default(); 1024],
            mask: 1024 / BUCKET - 1,
            generation: 0,
            stored: Some(ArrayVec::new()),
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
            mask: n / BUCKET - 1,
            generation: 0,
            stored: None,
        })
    }

    /// Empties the table (the smallest table: see [`TransTable::smallest`]).
    pub fn clear(&mut self) {
        match &mut self.stored {
            Some(stored) if !stored.is_full() => {
                for &b in stored.iter() {
                    self.entries[b as usize..b as usize + BUCKET].fill(Entry::default());
                }
                stored.clear();
            }
            _ => {
                self.entries.fill(Entry::default());
                if let Some(stored) = &mut self.stored {
                    stored.clear();
                }
            }
        }
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
        let k = (key >> 32) as u32;
        self.bucket(key).iter().find(|e| e.key == k && e.bound != 0).copied()
    }

    /// Asks the CPU to load the key's bucket into the cache (called right after a move is
    /// made, so that the child's probe does not wait for memory). A hint only.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let b = (key as usize & self.mask) * BUCKET;
            let p = self.entries.as_ptr().wrapping_add(b).cast::<i8>();
            // SAFETY: a prefetch never faults and reads nothing the program sees.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Entry] {
        let b = (key as usize & self.mask) * BUCKET;
        &self.entries[b..b + BUCKET]
    }

    /// Stores a result.
    #[inline]
    pub fn store(&mut self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: u8) {
        let gen_now = self.generation;
        let k = (key >> 32) as u32;
        let b = (key as usize & self.mask) * BUCKET;
        if let Some(stored) = &mut self.stored {
            // Full: the next emptying clears every bucket.
            let _ = stored.try_push(b as u32);
        }
        let bucket = &mut self.entries[b..b + BUCKET];
        // The same position's entry, else the one worth least: empty, then shallow and old.
        let i = bucket
            .iter()
            .position(|e| e.key == k && e.bound != 0)
            .unwrap_or_else(|| {
                (0..BUCKET)
                    .min_by_key(|&i| {
                        let e = &bucket[i];
                        if e.bound == 0 {
                            i32::MIN
                        } else {
                            e.depth as i32 - 8 * i32::from(gen_now.wrapping_sub(e.generation))
                        }
                    })
                    .expect("a bucket has entries")
            });
        let slot = &mut bucket[i];
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_entry_survives_shallow_ones_of_other_positions() {
        let mut t = TransTable::new(1);
        let buckets = t.mask as u64 + 1;
        // Five positions of one bucket (same low bits, other high bits).
        let key = |i: u64| (i << 32) | 5;
        assert_eq!(key(1) & (buckets - 1), key(2) & (buckets - 1));
        t.store(key(1), Move::NONE, 10, 0, 12, BOUND_EXACT);
        for i in 2..=5 {
            t.store(key(i), Move::NONE, 20, 0, 0, BOUND_LOWER);
        }
        // The deep one stays; of the four shallow ones the first went for the fifth.
        assert_eq!(t.probe(key(1)).map(|e| e.depth), Some(12));
        assert_eq!((2..=5).filter(|&i| t.probe(key(i)).is_some()).count(), 3);
        assert!(t.probe(key(5)).is_some());
        // An old deep entry gives way to a new search's shallow one.
        for _ in 0..3 {
            t.new_search();
        }
        for i in 6..=9 {
            t.store(key(i), Move::NONE, 30, 0, 1, BOUND_UPPER);
        }
        assert!(t.probe(key(1)).is_none());
    }

    /// Emptying forgets every entry stored, whether the smallest table clears only the buckets
    /// it stored to or, past [`STORES_KEPT`] stores, all of them.
    #[test]
    fn an_emptied_table_finds_nothing() {
        for mut t in [TransTable::smallest(), TransTable::new(1)] {
            for stores in [1, 10, STORES_KEPT, STORES_KEPT + 1, 3_000] {
                let keys: Vec<u64> = (0..stores as u64)
                    .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
                    .collect();
                for &k in &keys {
                    t.store(k, Move::NONE, 5, 5, 1, BOUND_EXACT);
                }
                assert!(keys.iter().any(|&k| t.probe(k).is_some()));
                t.clear();
                assert_eq!(
                    keys.iter().filter(|&&k| t.probe(k).is_some()).count(),
                    0,
                    "{stores} stores"
                );
                assert_eq!(t.hashfull(), 0);
            }
        }
    }
}
