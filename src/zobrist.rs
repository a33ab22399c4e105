//! Zobrist keys, seeded so that every run (and every machine) hashes alike.

use crate::square::MAX_SQUARES;
use crate::variant::MAX_KINDS;

/// Keys for pieces on squares, castling rights, en-passant squares, side to move, and a
/// pool of spare keys that rule modules use for their own state.
#[derive(Clone, Debug)]
pub struct Zobrist {
    piece: Vec<u64>,
    /// Per castling-rights mask (4 bits).
    pub castling: [u64; 16],
    ep: Vec<u64>,
    /// XORed in when Black is to move.
    pub side: u64,
    /// Spare keys for rule modules (flags, holdings).
    pub extra: [u64; 256],
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    /// Builds the keys from a fixed seed.
    pub fn new() -> Zobrist {
        let mut s = 0x4D45_4E41_4745_5249; // "MENAGERI"
        let mut z = Zobrist {
            piece: (0..MAX_KINDS * 2 * MAX_SQUARES).map(|_| splitmix(&mut s)).collect(),
            castling: [0; 16],
            ep: (0..MAX_SQUARES).map(|_| splitmix(&mut s)).collect(),
            side: splitmix(&mut s),
            extra: [0; 256],
        };
        for c in 1..16 {
            z.castling[c] = splitmix(&mut s);
        }
        for e in z.extra.iter_mut() {
            *e = splitmix(&mut s);
        }
        z
    }

    /// Key of a piece code (`kind * 2 + colour`) on a square index.
    #[inline]
    pub fn piece(&self, code: usize, sq: usize) -> u64 {
        self.piece[code * MAX_SQUARES + sq]
    }

    /// Key of an en-passant square index.
    #[inline]
    pub fn ep(&self, sq: usize) -> u64 {
        self.ep[sq]
    }
}

impl Default for Zobrist {
    fn default() -> Self {
        Zobrist::new()
    }
}
