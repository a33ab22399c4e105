//! `Position`: the board (mailbox plus bitboards), side to move, counters and an undo stack,
//! generic over the game's [`Rules`]. `Game` holds what all positions of a variant share.

use crate::bitboard::{Bitboard, Word};
use crate::castling::CastlingRights;
use crate::color::Color;
use crate::moves::{Move, MoveKind, MoveList};
use crate::rules::{Bb, Capabilities, Rules};
use crate::square::{MAX_SQUARES, Square};
use crate::tables::Tables;
use crate::variant::{CastleOption, MAX_KINDS, Variant};
use crate::zobrist::Zobrist;
use std::sync::Arc;

/// A piece: kind and colour packed as `kind * 2 + colour`; [`Piece::NONE`] for an empty square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Piece(u8);

impl Piece {
    /// No piece.
    pub const NONE: Piece = Piece(255);

    /// A piece of the given kind and colour.
    #[inline]
    pub fn new(kind: usize, c: Color) -> Piece {
        Piece((kind * 2 + c.index()) as u8)
    }

    /// True for [`Piece::NONE`].
    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 255
    }

    /// True for a real piece.
    #[inline]
    pub fn is_some(self) -> bool {
        self.0 != 255
    }

    /// Index into the variant's piece table.
    #[inline]
    pub fn kind(self) -> usize {
        (self.0 >> 1) as usize
    }

    /// Owner.
    #[inline]
    pub fn color(self) -> Color {
        if self.0 & 1 == 0 { Color::White } else { Color::Black }
    }

    /// `kind * 2 + colour`, for Zobrist keys.
    #[inline]
    pub fn code(self) -> usize {
        self.0 as usize
    }
}

/// One castling option resolved for a side: squares plus the masks the move generator needs.
#[derive(Clone, Copy, Debug)]
pub struct CastleInfo<W: Word> {
    /// The option's squares.
    pub sq: CastleOption,
    /// Squares that must be empty (apart from the king and rook themselves).
    pub empty: Bitboard<W>,
    /// Squares the king crosses before its destination, its start included; none may be attacked.
    pub king_path: Bitboard<W>,
}

/// What every position of one variant shares: the variant, its tables, keys and rules module.
#[derive(Debug)]
pub struct Game<R: Rules> {
    /// The variant as loaded.
    pub variant: Variant,
    /// Derived move tables.
    pub tables: Tables<R::Word>,
    /// Hash keys.
    pub zobrist: Zobrist,
    /// The rules module.
    pub rules: R,
    /// Per square: castling rights that survive a move from or to it.
    pub castle_mask: [CastlingRights; MAX_SQUARES],
    /// `castles[colour][right]`: options (right 0 = `K`, 1 = `Q`). In Chess960 every king and
    /// rook start; a position says which one its game uses.
    pub castles: [[Vec<CastleInfo<R::Word>>; 2]; 2],
    /// In Chess960, the kind that castles with the king (what X-FEN's `K` and `Q` look for).
    pub castle_rook_kind: Option<usize>,
    /// Per colour: the promotion zone.
    pub promo_zone: [Bb<R>; 2],
    /// Squares where a piece may end a move.
    pub landable: Bb<R>,
    /// Squares forbidden to royal pieces (from the rules module).
    pub royal_forbidden: Bb<R>,
    /// Bitmask of royal kinds.
    pub royal_kinds: u32,
    /// Bitmask of pawn kinds.
    pub pawn_kinds: u32,
    /// Whether the fast legality test applies.
    pub fast_legal: bool,
    /// Per colour: bitmask of the non-royal, non-dynamic kinds with a shift plan (counted a
    /// whole set at a time).
    pub shift_kinds: [u32; 2],
    /// Bitmask of kinds moved by the rules module.
    pub dynamic_kinds: u32,
    /// Evaluation tables.
    pub eval: crate::eval::EvalTables<R::Word>,
    /// What the rules module does beyond the generic machinery.
    pub caps: Capabilities,
}

/// Every Chess960 castling of side `c` for `right`: the king on any file of the back rank with
/// the rook on any file beyond it (towards the h-file for `K`, the a-file for `Q`); both end
/// where the variant's option for the right puts them.
fn chess960_options(variant: &Variant, c: Color, right: usize) -> Vec<CastleOption> {
    let g = &variant.geometry;
    let Some(base) = variant.castle_options(c, right).next() else {
        return Vec::new();
    };
    let rank = g.rank_of(base.king_to);
    let mut out = Vec::new();
    for kf in 0..g.files() {
        for rf in 0..g.files() {
            let beyond = if right == 0 { rf > kf } else { rf < kf };
            if let (true, Some(king_from), Some(rook_from)) = (beyond, g.square(kf, rank), g.square(rf, rank)) {
                out.push(CastleOption {
                    king_from,
                    rook_from,
                    ..base
                });
            }
        }
    }
    out
}

/// The piece letter on `sq` in the variant's start FEN.
fn start_letter(variant: &Variant, sq: Square) -> Option<char> {
    let g = &variant.geometry;
    let board = variant.start_fen.split_whitespace().next()?;
    let row = board.split('/').nth(g.ranks() - 1 - g.rank_of(sq))?;
    let mut file = 0;
    let mut run = 0;
    for ch in row.chars() {
        if let Some(d) = ch.to_digit(10) {
            run = run * 10 + d as usize;
            continue;
        }
        file += run;
        run = 0;
        if file == g.file_of(sq) {
            return ch.is_ascii_alphabetic().then_some(ch);
        }
        file += 1;
    }
    None
}

static GAMES_BUILT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many times this process has built a variant's game data (tables, keys, evaluation
/// tables): they are meant to be built once per variant and shared.
pub fn games_built() -> usize {
    GAMES_BUILT.load(std::sync::atomic::Ordering::Relaxed)
}

/// Each square's castling rights mask (the rights a move from or to it keeps) and, per
/// colour and right, the castling options with the squares they need empty and the king's
/// path.
type CastleTables<W> = ([CastlingRights; MAX_SQUARES], [[Vec<CastleInfo<W>>; 2]; 2]);

fn castle_tables<W: Word>(variant: &Variant) -> Result<CastleTables<W>, String> {
    let g = &variant.geometry;
    let mut castle_mask = [CastlingRights::all(); MAX_SQUARES];
    let mut castles: [[Vec<CastleInfo<W>>; 2]; 2] = Default::default();
    for c in Color::ALL {
        for (right, list) in castles[c.index()].iter_mut().enumerate() {
            let bit = CastlingRights::of(c, right);
            let options: Vec<CastleOption> = if variant.chess960 {
                chess960_options(variant, c, right)
            } else {
                variant.castle_options(c, right).collect()
            };
            for o in options {
                if !variant.chess960 {
                    castle_mask[o.king_from.index()] &= !bit;
                    castle_mask[o.rook_from.index()] &= !bit;
                }
                let rank = g.rank_of(o.king_from);
                let span = crate::castling::castle_span(
                    g.file_of(o.king_from),
                    g.file_of(o.king_to),
                    g.file_of(o.rook_from),
                    g.file_of(o.rook_to),
                );
                let on_rank = |files: u32| {
                    (0..g.files())
                        .filter(|f| files >> f & 1 != 0)
                        .filter_map(|f| g.square(f, rank))
                        .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from(s))
                };
                list.push(CastleInfo {
                    sq: o,
                    empty: on_rank(span.empty),
                    king_path: on_rank(span.king_path),
                });
            }
            if list.len() > 64 {
                return Err(format!("{} castling options for one right; at most 64", list.len()));
            }
        }
    }
    Ok((castle_mask, castles))
}

impl<R: Rules> Game<R> {
    /// Builds the shared data of a variant; fails when the rules module rejects it.
    pub fn new(variant: &Variant) -> Result<Arc<Game<R>>, String> {
        let rules = R::new(variant)?;
        let g = &variant.geometry;
        let (castle_mask, castles) = castle_tables(variant)?;
        let castle_rook_kind = if variant.chess960 {
            let o = variant
                .castle_options(Color::White, 0)
                .next()
                .expect("checked by the parser");
            start_letter(variant, o.rook_from).and_then(|c| variant.kind_of_letter(c))
        } else {
            None
        };
        let mut promo_zone = [Bitboard::EMPTY; 2];
        if let Some(pr) = variant.promotion_rank {
            for c in Color::ALL {
                for sq in g.board {
                    if g.relative_rank(c, sq) >= pr {
                        promo_zone[c.index()].set(sq);
                    }
                }
            }
        }
        let tables = Tables::new(variant)?;
        let dynamic_kinds = variant.dynamic_kinds();
        if dynamic_kinds & !rules.dynamic_kinds() != 0 {
            let k = (dynamic_kinds & !rules.dynamic_kinds()).trailing_zeros() as usize;
            return Err(format!(
                "piece {} is dynamic but rules module '{}' does not move it",
                variant.pieces[k].letter, variant.rules
            ));
        }
        if dynamic_kinds != 0 && variant.check {
            return Err("dynamic pieces need 'check = false' (attacks by them are not tracked)".into());
        }
        let caps = R::CAPABILITIES;
        let fast_legal = !caps
            .intersects(Capabilities::SLOW_LEGALITY | Capabilities::OWN_MOVEGEN | Capabilities::CUSTOM_ATTACKS)
            && tables.lame_attackers.is_empty()
            && tables
                .inverse_rides
                .iter()
                .all(|g| g.len() <= crate::movegen::MAX_PIN_GROUPS);
        let plain = !(variant.royal_kinds() | dynamic_kinds);
        let shift_kinds = [0, 1].map(|c| {
            (0..tables.kinds.len())
                .filter(|&k| plain >> k & 1 != 0 && tables.kinds[k].shifts[c].is_some())
                .fold(0u32, |m, k| m | 1 << k)
        });
        GAMES_BUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(Arc::new(Game {
            shift_kinds,
            royal_forbidden: rules.royal_forbidden(),
            variant: variant.clone(),
            tables,
            zobrist: Zobrist::new(),
            rules,
            castle_mask,
            castles,
            castle_rook_kind,
            promo_zone,
            landable: g.landable().convert(),
            royal_kinds: variant.royal_kinds(),
            pawn_kinds: variant.pawn_kinds(),
            fast_legal,
            dynamic_kinds,
            eval: crate::eval::EvalTables::new(variant, R::EVAL_FEATURES),
            caps,
        }))
    }
}

/// The part of a position that is copied into the undo stack on every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInfo<S: Copy> {
    /// Zobrist key of the whole position.
    pub key: u64,
    /// Castling rights: bit `colour * 2 + right`.
    pub castling: CastlingRights,
    /// En-passant target square, if a capture there is possible.
    pub ep: Option<Square>,
    /// The pawn that may be taken en passant (meaningful while `ep` is set).
    pub ep_victim: Square,
    /// Half-moves since the last capture or pawn move.
    pub halfmove: u32,
    /// Piece captured by the move that led here.
    pub captured: Piece,
    /// The move that led here.
    pub last_move: Move,
    /// The rules module's state.
    pub rule: S,
}

/// Why a game ended by rule on the board ([`Position::board_end`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move has no royal piece left.
    KingCaptured,
    /// The side to move has no move and stands in check.
    Mate,
    /// The side to move has no move and is not in check (stalemate where there is check).
    NoMove,
    /// The position stands for the third time.
    Repetition,
    /// The move rule (50 moves by default) ran out.
    MoveRule,
}

/// A game's end by rule: the winner (`None`: drawn) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardEnd {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    pub reason: EndReason,
}

impl BoardEnd {
    /// A king capture or a mate in words ("White mates"); `None` for the other ends, which
    /// each front end words its own way.
    pub fn win_words(&self) -> Option<&'static str> {
        let white = self.winner == Some(Color::White);
        match self.reason {
            EndReason::KingCaptured if white => Some("White captures the king"),
            EndReason::KingCaptured => Some("Black captures the king"),
            EndReason::Mate if white => Some("White mates"),
            EndReason::Mate => Some("Black mates"),
            _ => None,
        }
    }
}

/// A position of a variant, with its history for unmake and repetition checks.
#[derive(Clone, Debug)]
pub struct Position<R: Rules> {
    pub(crate) game: Arc<Game<R>>,
    pub(crate) board: [Piece; MAX_SQUARES],
    pub(crate) by_color: [Bb<R>; 2],
    pub(crate) by_kind: [Bb<R>; MAX_KINDS],
    pub(crate) side: Color,
    pub(crate) st: StateInfo<R::State>,
    pub(crate) history: Vec<StateInfo<R::State>>,
    pub(crate) fullmove: u32,
    pub(crate) specials: bool,
    /// In Chess960, the option of `castles[colour][right]` this game's start gives.
    pub(crate) castle_sel: [[u8; 2]; 2],
    /// Material plus piece-square terms per colour: [opening, endgame], kept up to date by
    /// `put_piece`/`remove_piece`.
    pub(crate) psq: [[i32; 2]; 2],
    /// Sum of phase material on the board.
    pub(crate) phase: i32,
    /// Zobrist keys of the pawns (both colours), of White's other pieces and of Black's
    /// (the search's correction history), kept up to date by `put_piece`/`remove_piece`.
    pub(crate) piece_keys: [u64; 3],
}

/// How much undo history is reserved up front, so that games and searches of ordinary length
/// never allocate while moves are made.
pub const HISTORY_RESERVE: usize = 2048;

impl<R: Rules> Position<R> {
    /// An empty board of the game (no pieces, White to move).
    pub fn empty(game: Arc<Game<R>>) -> Position<R> {
        Position {
            game,
            board: [Piece::NONE; MAX_SQUARES],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; MAX_KINDS],
            side: Color::White,
            st: StateInfo {
                key: 0,
                castling: CastlingRights::empty(),
                ep: None,
                ep_victim: Square::default(),
                halfmove: 0,
                captured: Piece::NONE,
                last_move: Move::NONE,
                rule: R::State::default(),
            },
            history: Vec::with_capacity(HISTORY_RESERVE),
            fullmove: 1,
            specials: true,
            castle_sel: [[0; 2]; 2],
            psq: [[0; 2]; 2],
            phase: 0,
            piece_keys: [0; 3],
        }
    }

    /// The start position of the game.
    pub fn startpos(game: Arc<Game<R>>) -> Position<R> {
        let fen = game.variant.start_fen.clone();
        Position::from_fen(game, &fen).expect("start FEN was validated when the variant was loaded")
    }

    /// The shared game data.
    #[inline]
    pub fn game(&self) -> &Arc<Game<R>> {
        &self.game
    }

    /// The variant.
    #[inline]
    pub fn variant(&self) -> &Variant {
        &self.game.variant
    }

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// All pieces of a colour.
    #[inline]
    pub fn color_bb(&self, c: Color) -> Bb<R> {
        self.by_color[c.index()]
    }

    /// All pieces of a kind, both colours.
    #[inline]
    pub fn kind_bb(&self, kind: usize) -> Bb<R> {
        self.by_kind[kind]
    }

    /// Pieces of a kind and colour.
    #[inline]
    pub fn pieces(&self, c: Color, kind: usize) -> Bb<R> {
        self.by_kind[kind] & self.by_color[c.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bb<R> {
        self.by_color[0] | self.by_color[1]
    }

    /// The current undo record (key, counters, rule state).
    #[inline]
    pub fn state(&self) -> &StateInfo<R::State> {
        &self.st
    }

    /// The rules module's state.
    #[inline]
    pub fn rule_state(&self) -> &R::State {
        &self.st.rule
    }

    /// Mutable rule state (for rule modules while making a special move).
    #[inline]
    pub fn rule_state_mut(&mut self) -> &mut R::State {
        &mut self.st.rule
    }

    /// Zobrist key.
    #[inline]
    pub fn key(&self) -> u64 {
        self.st.key
    }

    /// Half-move clock.
    #[inline]
    pub fn halfmove(&self) -> u32 {
        self.st.halfmove
    }

    /// Full-move number.
    #[inline]
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// Royal pieces of a colour.
    #[inline]
    pub fn royals(&self, c: Color) -> Bb<R> {
        let mut bb = Bitboard::EMPTY;
        let mut m = self.game.royal_kinds;
        while m != 0 {
            bb |= self.by_kind[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        bb & self.by_color[c.index()]
    }

    /// Which of `piece_keys` holds `p`: 0 for a pawn, 1 + its colour for another piece.
    #[inline]
    fn piece_key_slot(&self, p: Piece) -> usize {
        if self.game.pawn_kinds >> p.kind() & 1 != 0 {
            0
        } else {
            1 + p.color().index()
        }
    }

    /// Zobrist keys of the pawns (both colours), of White's other pieces and of Black's.
    #[inline]
    pub fn piece_keys(&self) -> [u64; 3] {
        self.piece_keys
    }

    /// Puts a piece on an empty square, updating bitboards and the key.
    #[inline]
    pub fn put_piece(&mut self, p: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = p;
        self.by_color[p.color().index()].set(sq);
        self.by_kind[p.kind()].set(sq);
        let z = self.game.zobrist.piece(p.code(), sq.index());
        self.st.key ^= z;
        self.piece_keys[self.piece_key_slot(p)] ^= z;
        let e = &self.game.eval;
        let v = e.psq(p.code(), sq);
        let c = p.color().index();
        self.psq[c][0] += v[0];
        self.psq[c][1] += v[1];
        self.phase += e.phase_value[p.kind()];
    }

    /// Removes and returns the piece on a square.
    #[inline]
    pub fn remove_piece(&mut self, sq: Square) -> Piece {
        let p = self.board[sq.index()];
        debug_assert!(p.is_some());
        self.board[sq.index()] = Piece::NONE;
        self.by_color[p.color().index()].clear(sq);
        self.by_kind[p.kind()].clear(sq);
        let z = self.game.zobrist.piece(p.code(), sq.index());
        self.st.key ^= z;
        self.piece_keys[self.piece_key_slot(p)] ^= z;
        let e = &self.game.eval;
        let v = e.psq(p.code(), sq);
        let c = p.color().index();
        self.psq[c][0] -= v[0];
        self.psq[c][1] -= v[1];
        self.phase -= e.phase_value[p.kind()];
        p
    }

    /// The castling options side `c` may use for `right`, with the index of the first: all of
    /// the variant's, or in Chess960 the one this game's start gives.
    #[inline]
    pub fn castle_options(&self, c: Color, right: usize) -> (usize, &[CastleInfo<R::Word>]) {
        let all = &self.game.castles[c.index()][right];
        if self.game.variant.chess960 {
            let i = self.castle_sel[c.index()][right] as usize;
            (i, &all[i.min(all.len())..(i + 1).min(all.len())])
        } else {
            (0, all)
        }
    }

    /// The option a castling move of side `c` uses.
    #[inline]
    pub fn castle_info(&self, c: Color, m: Move) -> &CastleInfo<R::Word> {
        let (right, i) = m.castle_option();
        &self.game.castles[c.index()][right][i]
    }

    /// Castling rights that survive a move from or to `sq`.
    #[inline]
    fn castle_keep(&self, sq: Square) -> CastlingRights {
        if !self.game.variant.chess960 {
            return self.game.castle_mask[sq.index()];
        }
        let mut keep = CastlingRights::all();
        for c in Color::ALL {
            for right in 0..2 {
                let all = &self.game.castles[c.index()][right];
                if let Some(o) = all.get(self.castle_sel[c.index()][right] as usize)
                    && (o.sq.king_from == sq || o.sq.rook_from == sq)
                {
                    keep &= !CastlingRights::of(c, right);
                }
            }
        }
        keep
    }

    /// Takes a piece off the board for good (a rule of a table game, not a move): castling
    /// rights that need the square go. It is no move, so the half-move clock runs on and an
    /// en-passant square stays while its pawn and a capturer remain. No undo; the history of
    /// earlier positions no longer repeats.
    pub fn take_off(&mut self, sq: Square) -> Piece {
        let p = self.remove_piece(sq);
        let z = &self.game.zobrist;
        let rights = self.st.castling & self.castle_keep(sq);
        self.st.key ^= z.castling[self.st.castling.index()] ^ z.castling[rights.index()];
        self.st.castling = rights;
        if let Some(ep) = self.st.ep
            && (self.st.ep_victim == sq || !self.ep_capturable(ep))
        {
            self.st.ep = None;
            self.st.key ^= z.ep(ep.index());
        }
        self.history.clear();
        p
    }

    #[inline]
    fn move_piece(&mut self, from: Square, to: Square) {
        let p = self.remove_piece(from);
        self.put_piece(p, to);
    }

    /// Recomputes [`Position::piece_keys`] from scratch (for consistency tests).
    pub fn compute_piece_keys(&self) -> [u64; 3] {
        let mut keys = [0; 3];
        for sq in self.occupied() {
            let p = self.board[sq.index()];
            keys[self.piece_key_slot(p)] ^= self.game.zobrist.piece(p.code(), sq.index());
        }
        keys
    }

    /// Recomputes the key from scratch (used after set-up and by consistency tests).
    pub fn compute_key(&self) -> u64 {
        let z = &self.game.zobrist;
        let mut k = 0;
        for sq in self.occupied() {
            k ^= z.piece(self.board[sq.index()].code(), sq.index());
        }
        k ^= z.castling[self.st.castling.index()];
        if let Some(ep) = self.st.ep {
            k ^= z.ep(ep.index());
        }
        if self.side == Color::Black {
            k ^= z.side;
        }
        k ^ self.game.rules.state_key(&self.st.rule, z)
    }

    /// True when an en-passant capture onto `ep` by the side to move is possible by the tables.
    pub(crate) fn ep_capturable(&self, ep: Square) -> bool {
        let us = self.side;
        let mut m = self.game.pawn_kinds;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            if (self.game.tables.kinds[k].ep_capt_inv[us.index()][ep] & self.pieces(us, k)).is_nonempty() {
                return true;
            }
        }
        false
    }

    /// The game data, borrowed apart from `self` so that the rules module's hooks can take the
    /// position mutably during make and unmake, without reference-count traffic on every move.
    #[inline(always)]
    fn shared_game<'a>(&self) -> &'a Game<R> {
        // SAFETY: `self.game` is set once when the position is built and never replaced, so
        // the `Game` lives at least as long as `self`; the borrow is only used within
        // `make_move` and `unmake_move`, which do not drop or replace `self.game`.
        unsafe { &*Arc::as_ptr(&self.game) }
    }

    /// Plays a move that the move generator produced for this position.
    pub fn make_move(&mut self, m: Move) {
        self.make_move_keeping::<true>(m);
    }

    /// Plays a move for good: it cannot be taken back, and the positions before it no longer
    /// count for repetition (the undo history is dropped, and nothing is stored for this
    /// move). For table games that never take a move back nor count repetitions, and copy
    /// positions often.
    pub fn play_for_good(&mut self, m: Move) {
        self.make_move_keeping::<false>(m);
        self.history.clear();
    }

    /// [`Position::make_move`], keeping the undo state only with `UNDO`.
    #[inline(always)]
    fn make_move_keeping<const UNDO: bool>(&mut self, m: Move) {
        let game = self.shared_game();
        let z = &game.zobrist;
        if UNDO {
            self.history.push(self.st);
        }
        let us = self.side;
        let old_castling = self.st.castling;
        let old_rule_key = game.rules.state_key(&self.st.rule, z);
        if let Some(ep) = self.st.ep.take() {
            self.st.key ^= z.ep(ep.index());
        }
        self.st.captured = Piece::NONE;
        self.st.last_move = m;
        self.st.halfmove += 1;
        let (from, to) = (m.from(), m.to());
        let mover = self.board[from.index()];
        match m.kind() {
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Promotion => {
                if self.board[to.index()].is_some() {
                    self.st.captured = self.remove_piece(to);
                    self.st.halfmove = 0;
                }
                self.move_piece(from, to);
                if m.kind() == MoveKind::Promotion {
                    self.remove_piece(to);
                    self.put_piece(Piece::new(m.extra(), us), to);
                }
                if m.kind() == MoveKind::DoubleStep {
                    let ep = m.aux_square();
                    self.side = !us;
                    let capturable = self.ep_capturable(ep);
                    self.side = us;
                    if capturable {
                        self.st.ep = Some(ep);
                        self.st.ep_victim = to;
                        self.st.key ^= z.ep(ep.index());
                    }
                }
            }
            MoveKind::EnPassant => {
                self.st.captured = self.remove_piece(m.aux_square());
                self.move_piece(from, to);
            }
            MoveKind::Castle => {
                let info = *self.castle_info(us, m);
                let king = self.remove_piece(info.sq.king_from);
                let rook = self.remove_piece(info.sq.rook_from);
                self.put_piece(king, info.sq.king_to);
                self.put_piece(rook, info.sq.rook_to);
            }
            MoveKind::Special => game.rules.make_special(self, m),
        }
        game.rules.after_make(self, m);
        if mover.is_some() && game.pawn_kinds >> mover.kind() & 1 != 0 {
            self.st.halfmove = 0;
        }
        let rights = if old_castling.is_empty() {
            old_castling
        } else {
            old_castling & self.castle_keep(from) & self.castle_keep(to)
        };
        if rights != old_castling {
            self.st.castling = rights;
            self.st.key ^= z.castling[old_castling.index()] ^ z.castling[rights.index()];
        }
        let mut rule = self.st.rule;
        game.rules.after_move(self, m, &mut rule);
        self.st.rule = rule;
        self.st.key ^= old_rule_key ^ game.rules.state_key(&self.st.rule, z);
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = !us;
        self.st.key ^= z.side;
    }

    /// Takes back the last move made with [`Position::make_move`].
    pub fn unmake_move(&mut self) {
        let m = self.st.last_move;
        let game = self.shared_game();
        self.side = !self.side;
        let us = self.side;
        if us == Color::Black {
            self.fullmove -= 1;
        }
        game.rules.before_unmake(self, m);
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Promotion => {
                if m.kind() == MoveKind::Promotion {
                    let pawn_kind = self.promotion_source_kind();
                    self.remove_piece(to);
                    self.put_piece(Piece::new(pawn_kind, us), to);
                }
                self.move_piece(to, from);
                if self.st.captured.is_some() {
                    self.put_piece(self.st.captured, to);
                }
            }
            MoveKind::EnPassant => {
                self.move_piece(to, from);
                self.put_piece(self.st.captured, m.aux_square());
            }
            MoveKind::Castle => {
                let info = *self.castle_info(us, m);
                let king = self.remove_piece(info.sq.king_to);
                let rook = self.remove_piece(info.sq.rook_to);
                self.put_piece(king, info.sq.king_from);
                self.put_piece(rook, info.sq.rook_from);
            }
            MoveKind::Special => game.rules.unmake_special(self, m),
        }
        self.st = self.history.pop().expect("unmake without a move");
    }

    /// The pawn kind that promotes. Variants with several pawn kinds keep the source kind in
    /// the move's aux field.
    #[inline]
    fn promotion_source_kind(&self) -> usize {
        let m = self.st.last_move;
        m.aux() as usize
    }

    /// Passes the turn (for null-move search). Undo with [`Position::unmake_null`].
    pub fn make_null(&mut self) {
        let z = &self.game.zobrist;
        self.history.push(self.st);
        if let Some(ep) = self.st.ep.take() {
            self.st.key ^= z.ep(ep.index());
        }
        self.st.captured = Piece::NONE;
        self.st.last_move = Move::NONE;
        self.st.halfmove += 1;
        self.side = !self.side;
        self.st.key ^= z.side;
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self) {
        self.side = !self.side;
        self.st = self.history.pop().expect("unmake_null without make_null");
    }

    /// Hands the move to `side` with move number `fullmove`, and en passant on `ep` where a
    /// pawn of the other side stands right behind it and one of `side` can take it: the side,
    /// en passant, move number and key that [`Position::from_setup`] would read (the rest, as
    /// castling rights, is kept; the undo history is dropped). For table games whose turns do
    /// not alternate as in chess.
    pub fn set_turn(&mut self, side: Color, ep: Option<Square>, fullmove: u32) {
        let z = &self.game.zobrist;
        self.history.clear();
        if self.side != side {
            self.side = side;
            self.st.key ^= z.side;
        }
        self.fullmove = fullmove.max(1);
        self.st.captured = Piece::NONE;
        self.st.last_move = Move::NONE;
        if let Some(old) = self.st.ep.take() {
            self.st.key ^= z.ep(old.index());
        }
        let behind = ep.and_then(|sq| Some((sq, crate::fen::passed_pawn(&self.game, &self.board, side, sq)?)));
        if let Some((sq, victim)) = behind
            && self.ep_capturable(sq)
        {
            self.st.ep = Some(sq);
            self.st.ep_victim = victim;
            self.st.key ^= self.game.zobrist.ep(sq.index());
        }
    }

    /// True when the position repeats an earlier one (same key, same side) within the reach of
    /// the half-move clock; `count` is how many earlier occurrences are required.
    pub fn is_repetition(&self, count: usize) -> bool {
        let n = self.history.len();
        let reach = (self.st.halfmove as usize).min(n);
        let mut seen = 0;
        let mut i = 2;
        while i <= reach {
            if self.history[n - i].key == self.st.key {
                seen += 1;
                if seen >= count {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// True when the move rule (50 moves by default) allows a draw claim.
    pub fn move_rule_reached(&self) -> bool {
        let mr = self.game.variant.move_rule;
        mr > 0 && self.st.halfmove >= mr
    }

    /// The end of the game by rule here, if it has ended. `has_move`: whether the side to move
    /// has a move by the game's rules (its legal moves, or more where a game adds some);
    /// `draws`: whether repetition and the move rule end it. In this order: the royal pieces
    /// taken, mate or no move (as the variant scores it), the move rule, threefold repetition.
    pub fn board_end(&self, has_move: bool, draws: bool) -> Option<BoardEnd> {
        let us = self.side;
        let (win_them, win_us) = (Some(!us), Some(us));
        let end = |winner, reason| Some(BoardEnd { winner, reason });
        if self.royals_gone(us) {
            return end(win_them, EndReason::KingCaptured);
        }
        if !has_move {
            if self.in_check() {
                return end(win_them, EndReason::Mate);
            }
            let winner = match self.variant().stalemate {
                crate::variant::StalemateResult::Draw => None,
                crate::variant::StalemateResult::Loss => win_them,
                crate::variant::StalemateResult::Win => win_us,
            };
            return end(winner, EndReason::NoMove);
        }
        if draws && self.move_rule_reached() {
            return end(None, EndReason::MoveRule);
        }
        if draws && self.is_repetition(2) {
            return end(None, EndReason::Repetition);
        }
        None
    }

    /// The end of the game by its full rules here, if it has ended: [`Self::board_end`] with
    /// every legal move counted (the rules module's own too, even where they are off for a
    /// GUI), repetition and the move rule on. The one end-of-game rule of the board games.
    pub fn outcome(&mut self) -> Option<BoardEnd> {
        let mut list = MoveList::new();
        let shown = self.specials;
        self.specials = true;
        self.legal_moves(&mut list);
        self.specials = shown;
        self.board_end(!list.is_empty(), true)
    }

    /// Turns the rules module's extra moves on or off (off where a GUI cannot show them).
    pub fn set_special_moves(&mut self, on: bool) {
        self.specials = on;
    }

    /// True while the rules module's extra moves are on.
    #[inline]
    pub fn special_moves_on(&self) -> bool {
        self.specials
    }

    /// Ensures the undo stack can take `extra` more moves without allocating.
    pub fn reserve_history(&mut self, extra: usize) {
        self.history.reserve(extra);
    }
}
