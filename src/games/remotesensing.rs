//! Remote Sensing with On & Off-Board Detection (Gifford), per
//! `../shared/rules/remote-sensing.md`.
//!
//! Board, array, pieces, promotion and "no check" are plain data in `engine.ini`. This module
//! adds what data cannot say:
//! - two kings (both `royal`; a side that has lost both has lost). Capturing King I removes
//!   the victim's on-board sensors, capturing King II its off-board sensors;
//! - the four holding bins, keyed by (owner, colour of the capture square), kept as sets of
//!   piece types and written `[wl/wd/bl/bd]` after the FEN board;
//! - the six sensors (`dynamic` pieces): each moves as any piece type it detects from its
//!   square's colour, on the board (own, enemy or both) or in the bins (own, enemy or both).
//!   Sensors never detect sensors; King I and King II are both type K.
//!
//! Settings: `rules.king_board`, `rules.king_bins` (the two king letters),
//! `rules.friendly`, `rules.enemy`, `rules.mega` (on-board sensor letters),
//! `rules.friendly_off`, `rules.enemy_off`, `rules.mega_off` (off-board sensor letters),
//! `rules.enemy_pawn = literal | own` (direction of a mimicked enemy pawn, rules §5.3).

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::position::{Piece, Position};
use crate::rules::{Holding, Rules};
use crate::square::Square;
use crate::variant::{MAX_KINDS, Variant};
use crate::zobrist::Zobrist;

/// What a sensor looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sensor {
    /// Off-board (bins) rather than on-board.
    bins: bool,
    /// Detects its owner's pieces.
    own: bool,
    /// Detects the opponent's pieces.
    enemy: bool,
}

/// Remote Sensing rules.
#[derive(Clone, Debug)]
pub struct RemoteSensing {
    /// Per kind: the type it counts as (King II counts as King I); `None` for sensors.
    type_of: [Option<usize>; MAX_KINDS],
    /// Per kind: its sensor description, if it is a sensor.
    sensor: [Option<Sensor>; MAX_KINDS],
    /// Sensor kinds per class (0 on-board, 1 off-board), by slot.
    class_kinds: [[usize; 3]; 2],
    /// King I and King II kinds.
    kings: [usize; 2],
    /// Bitmask of the non-sensor kinds.
    detectable: u32,
    /// Squares of each colour: [light, dark].
    colour_squares: [Bitboard; 2],
    /// A mimicked enemy pawn moves as the enemy's pawn does (towards the sensor's owner).
    literal_enemy_pawn: bool,
    /// Material value of moving as each type, for the evaluation of sensors.
    mimic_value: [i32; MAX_KINDS],
    /// Bin letter of each type, in writing order.
    letters: Vec<(char, usize)>,
}

/// The bins and what the last move removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RsState {
    /// Bit `bin * 16 + type`, bin = owner * 2 + (1 if the capture square was dark).
    bins: u64,
    /// Sensors the last move removed with a king, per slot of the class; the class is
    /// `removed_class - 1` (0: nothing removed).
    removed: [Bitboard; 3],
    removed_class: u8,
}

impl RsState {
    /// The type mask of one bin.
    #[inline]
    fn bin(&self, owner: Color, dark: bool) -> u32 {
        (self.bins >> ((owner.index() * 2 + dark as usize) * 16) & 0xFFFF) as u32
    }
}

const SLOT_KEYS: [[&str; 3]; 2] = [["friendly", "enemy", "mega"], ["friendly_off", "enemy_off", "mega_off"]];

impl RemoteSensing {
    /// The types the sensor of `kind` on `from` detects: (own types, enemy types).
    fn detected(&self, pos: &Position<Self>, from: Square, kind: usize) -> (u32, u32) {
        let Some(s) = self.sensor[kind] else {
            return (0, 0);
        };
        let dark = pos.variant().geometry.is_dark(from);
        let us = pos.piece_at(from).color();
        let them = !us;
        let (mut own, mut enemy) = (0u32, 0u32);
        if s.bins {
            let st = pos.rule_state();
            if s.own {
                own = st.bin(us, dark);
            }
            if s.enemy {
                enemy = st.bin(them, dark);
            }
        } else {
            let squares = self.colour_squares[dark as usize];
            if s.own {
                own = self.types_on(pos, us, squares);
            }
            if s.enemy {
                enemy = self.types_on(pos, them, squares);
            }
        }
        (own, enemy)
    }

    /// Squares the sensor of `kind` on `from` may move to now (one entry per square, however
    /// many types reach it).
    pub fn sensor_targets(&self, pos: &Position<Self>, from: Square, kind: usize) -> Bitboard {
        let (own, enemy) = self.detected(pos, from, kind);
        self.targets_as(pos, from, own, enemy)
    }

    /// Squares the sensor on `from` reaches moving as the `own` and `enemy` types.
    fn targets_as(&self, pos: &Position<Self>, from: Square, own: u32, enemy: u32) -> Bitboard {
        let us = pos.piece_at(from).color();
        let them = !us;
        let enemy_dir = if self.literal_enemy_pawn { them } else { us };
        let mut targets = Bitboard::EMPTY;
        let mut add = |types: u32, dir: Color| {
            let mut m = types;
            while m != 0 {
                let t = m.trailing_zeros() as usize;
                m &= m - 1;
                targets |= self.type_targets(pos, from, t, dir, them);
            }
        };
        add(own, us);
        // A type seen on both sides moves the same way twice unless the directions differ.
        add(if enemy_dir == us { enemy & !own } else { enemy }, enemy_dir);
        targets & pos.game().landable
    }

    /// Types of the non-sensor pieces of `c` standing on `squares`.
    #[inline]
    fn types_on(&self, pos: &Position<Self>, c: Color, squares: Bitboard) -> u32 {
        let mine = pos.color_bb(c) & squares;
        let mut types = 0;
        let mut m = self.detectable;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            if (pos.kind_bb(k) & mine).is_nonempty()
                && let Some(t) = self.type_of[k]
            {
                types |= 1 << t;
            }
        }
        types
    }

    /// Where a piece of type `t`, moving in `dir`'s direction, could go from `from`, capturing
    /// pieces of `them`. Pawn types take no initial moves; lame leaps are honoured.
    fn type_targets(&self, pos: &Position<Self>, from: Square, t: usize, dir: Color, them: Color) -> Bitboard {
        let game = pos.game();
        let kt = &game.tables.kinds[t];
        let c = dir.index();
        let occ = pos.occupied();
        let theirs = pos.color_bb(them);
        let mut bb = pos.kind_targets(from, t, dir, theirs);
        if game.pawn_kinds >> t & 1 == 0 {
            for sp in &kt.specials[c][from] {
                if (sp.path & occ).is_nonempty() {
                    continue;
                }
                let target = pos.piece_at(sp.to);
                if (target.is_none() && sp.quiet) || (sp.capture && theirs.contains(sp.to)) {
                    bb.set(sp.to);
                }
            }
        }
        bb
    }

    /// The type written with `letter` in a bin.
    fn type_by_letter(&self, letter: char) -> Option<usize> {
        self.letters.iter().find(|l| l.0 == letter).map(|l| l.1)
    }

    /// Sensor value: the best type it moves as now, a quarter of each other type, a base for
    /// what it may detect later, and its mobility.
    fn sensor_value(&self, pos: &Position<Self>, from: Square, kind: usize) -> i32 {
        let (own, enemy) = self.detected(pos, from, kind);
        let mut types = own | enemy;
        let (mut best, mut sum) = (0, 0);
        while types != 0 {
            let v = self.mimic_value[types.trailing_zeros() as usize];
            types &= types - 1;
            best = best.max(v);
            sum += v;
        }
        let mobility = self.targets_as(pos, from, own, enemy).count() as i32;
        SENSOR_BASE + best + (sum - best) / 4 + 3 * mobility
    }
}

/// What an idle sensor is worth: it may detect something later.
const SENSOR_BASE: i32 = 60;

/// The setting `rules.KEY`, trimmed.
fn setting<'v>(v: &'v Variant, key: &str) -> Result<&'v str, String> {
    v.rule_settings
        .get(key)
        .map(|s| s.trim())
        .ok_or_else(|| format!("remotesensing needs rules.{key}"))
}

/// The kind named by the one piece letter of `rules.KEY`.
fn piece_setting(v: &Variant, key: &str) -> Result<usize, String> {
    let text = setting(v, key)?;
    let mut ch = text.chars();
    match (ch.next(), ch.next()) {
        (Some(c), None) => v
            .kind_of_letter(c)
            .ok_or_else(|| format!("rules.{key}: no piece '{c}' in the variant")),
        _ => Err(format!("rules.{key}: expected one piece letter, found '{text}'")),
    }
}

/// The six sensors of `SLOT_KEYS`: each kind's sensor (dynamic pieces only, each once), and
/// the kind in each class (board, bins) and slot (own, enemy, mega).
type Sensors = ([Option<Sensor>; MAX_KINDS], [[usize; 3]; 2]);

fn read_sensors(v: &Variant) -> Result<Sensors, String> {
    let mut sensor = [None; MAX_KINDS];
    let mut class_kinds = [[0usize; 3]; 2];
    for (class, keys) in SLOT_KEYS.iter().enumerate() {
        for (slot, key) in keys.iter().enumerate() {
            let k = piece_setting(v, key)?;
            if !v.pieces[k].is_dynamic() {
                return Err(format!(
                    "rules.{key}: piece {} must be written 'dynamic' (a sensor has no fixed moves)",
                    v.pieces[k].letter
                ));
            }
            if sensor[k].is_some() {
                return Err(format!("rules.{key}: piece {} is already a sensor", v.pieces[k].letter));
            }
            sensor[k] = Some(Sensor {
                bins: class == 1,
                own: slot != 1,
                enemy: slot != 0,
            });
            class_kinds[class][slot] = k;
        }
    }
    Ok((sensor, class_kinds))
}

/// The material value of moving as each type, for the evaluation of sensors: the piece's set
/// value, a pawn's, or one from its mobility (a royal piece, or a piece without a value).
fn mimic_values(v: &Variant) -> [i32; MAX_KINDS] {
    let mut mimic_value = [0; MAX_KINDS];
    for (k, p) in v.pieces.iter().enumerate() {
        mimic_value[k] = match p.value {
            Some(val) if !p.is_royal() => val,
            _ if p.is_pawn() => crate::eval::PAWN_VALUE,
            _ => (62.0 * crate::eval::effective_mobility(v, k)).round() as i32,
        };
    }
    mimic_value
}

impl Rules for RemoteSensing {
    type State = RsState;
    type Word = u128;
    const SETTINGS: &'static [&'static str] = &[
        "king_board",
        "king_bins",
        "friendly",
        "enemy",
        "mega",
        "friendly_off",
        "enemy_off",
        "mega_off",
        "enemy_pawn",
    ];

    fn new(v: &Variant) -> Result<Self, String> {
        let kind_setting = |k: &str| piece_setting(v, k);
        let king_board = kind_setting("king_board")?;
        let king_bins = kind_setting("king_bins")?;
        for (k, key) in [(king_board, "king_board"), (king_bins, "king_bins")] {
            if !v.pieces[k].is_royal() {
                return Err(format!("rules.{key}: piece {} must be royal", v.pieces[k].letter));
            }
        }
        if king_board == king_bins {
            return Err("rules.king_board and rules.king_bins name the same piece".into());
        }
        if v.check {
            return Err("remotesensing needs 'check = false'".into());
        }
        let (sensor, class_kinds) = read_sensors(v)?;
        let mut type_of = [None; MAX_KINDS];
        let mut detectable = 0;
        for (k, p) in v.pieces.iter().enumerate() {
            if sensor[k].is_some() {
                continue;
            }
            if p.is_dynamic() {
                return Err(format!("piece {} is dynamic but not one of the six sensors", p.letter));
            }
            type_of[k] = Some(if k == king_bins { king_board } else { k });
            detectable |= 1 << k;
        }
        let literal_enemy_pawn = match setting(v, "enemy_pawn")? {
            "literal" => true,
            "own" => false,
            other => {
                return Err(format!(
                    "rules.enemy_pawn: expected 'literal' or 'own', found '{other}'"
                ));
            }
        };
        let g = &v.geometry;
        let mut colour_squares = [Bitboard::EMPTY; 2];
        for sq in g.board {
            colour_squares[g.is_dark(sq) as usize].set(sq);
        }
        let letters: Vec<(char, usize)> = (0..v.pieces.len())
            .filter(|&k| type_of[k] == Some(k))
            .map(|k| (v.pieces[k].letter, k))
            .collect();
        let mimic_value = mimic_values(v);
        Ok(RemoteSensing {
            type_of,
            sensor,
            class_kinds,
            kings: [king_board, king_bins],
            detectable,
            colour_squares,
            literal_enemy_pawn,
            mimic_value,
            letters,
        })
    }

    fn dynamic_kinds(&self) -> u32 {
        self.class_kinds.iter().flatten().fold(0, |m, &k| m | 1 << k)
    }

    fn dynamic_moves(&self, pos: &Position<Self>, from: Square, kind: usize, list: &mut MoveList) {
        for to in self.sensor_targets(pos, from, kind) {
            list.push(Move::normal(from, to));
        }
    }

    fn after_make(&self, pos: &mut Position<Self>, m: Move) {
        let captured = pos.state().captured;
        let mut st = *pos.rule_state();
        st.removed = [Bitboard::EMPTY; 3];
        st.removed_class = 0;
        if captured.is_some() {
            let k = captured.kind();
            let victim = captured.color();
            if let Some(t) = self.type_of[k] {
                let dark = pos.variant().geometry.is_dark(m.to());
                st.bins |= 1u64 << ((victim.index() * 2 + dark as usize) * 16 + t);
            }
            if let Some(class) = self.kings.iter().position(|&kk| kk == k) {
                for (slot, &sk) in self.class_kinds[class].iter().enumerate() {
                    let bb = pos.pieces(victim, sk);
                    st.removed[slot] = bb;
                    for sq in bb {
                        pos.remove_piece(sq);
                    }
                }
                st.removed_class = class as u8 + 1;
            }
        }
        *pos.rule_state_mut() = st;
    }

    fn before_unmake(&self, pos: &mut Position<Self>, _m: Move) {
        let st = *pos.rule_state();
        if st.removed_class == 0 {
            return;
        }
        let victim = !pos.side_to_move();
        let class = st.removed_class as usize - 1;
        for (slot, &sk) in self.class_kinds[class].iter().enumerate() {
            for sq in st.removed[slot] {
                pos.put_piece(Piece::new(sk, victim), sq);
            }
        }
    }

    fn state_key(&self, s: &RsState, z: &Zobrist) -> u64 {
        let mut k = 0;
        let mut b = s.bins;
        while b != 0 {
            k ^= z.extra[b.trailing_zeros() as usize];
            b &= b - 1;
        }
        k
    }

    fn parse_holdings(&self, text: &str, state: &mut RsState) -> Result<(), String> {
        let parts: Vec<&str> = text.split('/').collect();
        if parts.len() != 4 {
            return Err(format!(
                "expected four bins 'wl/wd/bl/bd' (White on light, White on dark, Black on light, Black on dark), found {}",
                parts.len()
            ));
        }
        let mut bins = 0u64;
        for (bin, part) in parts.iter().enumerate() {
            if *part == "-" {
                continue;
            }
            if part.is_empty() {
                return Err(format!("bin {} is empty; write '-'", bin + 1));
            }
            for c in part.chars() {
                let Some(t) = self.type_by_letter(c.to_ascii_uppercase()) else {
                    let allowed: String = self.letters.iter().map(|l| l.0).collect();
                    return Err(format!("'{c}' cannot be in a bin (piece types: {allowed})"));
                };
                bins |= 1u64 << (bin * 16 + t);
            }
        }
        state.bins = bins;
        Ok(())
    }

    fn holdings(&self, s: &RsState) -> Vec<Holding> {
        const NAMES: [(&str, Color); 4] = [
            ("White, light", Color::White),
            ("White, dark", Color::White),
            ("Black, light", Color::Black),
            ("Black, dark", Color::Black),
        ];
        NAMES
            .iter()
            .enumerate()
            .map(|(bin, &(label, owner))| {
                let mask = s.bins >> (bin * 16) & 0xFFFF;
                Holding {
                    label,
                    owner,
                    letters: self
                        .letters
                        .iter()
                        .filter(|&&(_, t)| mask >> t & 1 != 0)
                        .map(|&(c, _)| c)
                        .collect(),
                }
            })
            .collect()
    }

    fn write_holdings(&self, s: &RsState, out: &mut String) {
        out.push('[');
        for bin in 0..4 {
            if bin > 0 {
                out.push('/');
            }
            let mask = s.bins >> (bin * 16) & 0xFFFF;
            if mask == 0 {
                out.push('-');
            }
            for &(c, t) in &self.letters {
                if mask >> t & 1 != 0 {
                    out.push(c);
                }
            }
        }
        out.push(']');
    }

    fn eval_terms(&self, pos: &Position<Self>) -> i32 {
        let us = pos.side_to_move();
        let mut score = 0;
        let listed = &pos.game().eval.value;
        for &kind in self.class_kinds.iter().flatten() {
            for c in Color::ALL {
                for sq in pos.pieces(c, kind) {
                    // The material sums already hold the ini value; replace it by the real one.
                    let v = self.sensor_value(pos, sq, kind) - listed[kind];
                    score += if c == us { v } else { -v };
                }
            }
        }
        score
    }
}
