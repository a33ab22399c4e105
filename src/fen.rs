//! FEN for any board size: multi-digit empty runs, `*` for holes (on input a hole may also be
//! counted in a digit run), castling as `KQkq` or Shredder-style rook files, and holdings in
//! brackets after the board for games that have them (read by the rules module).

use crate::castling::CastlingRights;
use crate::color::Color;
use crate::position::{Game, Piece, Position};
use crate::rules::Rules;
use crate::square::Square;
use crate::variant::Variant;
use std::fmt;
use std::sync::Arc;

/// Why a FEN (or a table game's [`Setup`]) was rejected. `Display` gives the one-line message
/// for the user. Ranks are numbered from 1; squares are named as the variant names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// No field at all.
    Empty,
    /// Fields after the move number.
    TrailingText(String),
    /// The board field's ranks, against the board's.
    RankCount {
        /// Ranks in the FEN.
        given: usize,
        /// Ranks of the board.
        board: usize,
    },
    /// A run of empty squares written with a leading 0.
    ZeroRun {
        /// The rank, from 1.
        rank: usize,
    },
    /// A run of empty squares past any board's width.
    RunTooLong {
        /// The rank, from 1.
        rank: usize,
    },
    /// A piece beyond the board's last file.
    RankTooWide {
        /// The rank, from 1.
        rank: usize,
        /// Files of the board.
        files: usize,
    },
    /// A rank's files, against the board's.
    RankWidth {
        /// The rank, from 1.
        rank: usize,
        /// Files the rank fills.
        given: usize,
        /// Files of the board.
        board: usize,
    },
    /// `*` on a square that is not a hole.
    NotAHole(String),
    /// A letter that names no piece of the variant.
    UnknownLetter {
        /// The letter.
        letter: char,
        /// The rank, from 1.
        rank: usize,
    },
    /// Holdings (`[...]`) without their closing bracket.
    HoldingsUnclosed(String),
    /// Holdings the rules refuse, and why.
    Holdings {
        /// The holdings' inside.
        holdings: String,
        /// The rules' reason.
        why: String,
    },
    /// A side to move other than `w` or `b`.
    SideToMove(String),
    /// An en-passant square off the board.
    EpOffBoard(String),
    /// An en-passant square no pawn just passed.
    EpNoPawn(String),
    /// A move counter that is not a number (which counter, the text).
    NotANumber {
        /// The counter's name.
        counter: &'static str,
        /// Its text.
        text: String,
    },
    /// Move counters too large to be real.
    CountersOutOfRange,
    /// A set-up's squares, against the board's.
    SquareCount {
        /// Squares in the set-up.
        given: usize,
        /// Squares of the board.
        board: usize,
    },
    /// A set-up's piece kind the variant lacks.
    UnknownKind {
        /// The piece kind's index.
        kind: usize,
        /// Where it stands.
        square: String,
    },
    /// A piece on a square where none may stand.
    NoLanding(String),
    /// A pawn on its first or last rank, or in a zone where it must promote.
    PawnRank {
        /// The pawn's side.
        color: Color,
        /// Where it stands.
        square: String,
    },
    /// The side not to move stands in check.
    NotToMoveInCheck {
        /// The side in check.
        side: Color,
    },
    /// A castling field's letter that is no castling right here.
    CastlingLetter {
        /// The castling field.
        field: String,
        /// The letter.
        letter: char,
    },
    /// A castling right the variant does not have.
    CastlingMissing {
        /// The castling field.
        field: String,
    },
    /// Two rooks named for one castling right (Chess960).
    CastlingTwoRooks {
        /// The castling field.
        field: String,
    },
    /// What the variant's rules module refuses.
    Rules(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        f.write_str("bad FEN: ")?;
        match self {
            Empty => write!(f, "empty"),
            TrailingText(t) => write!(f, "unexpected text after the move number: '{t}'"),
            RankCount { given, board } => write!(f, "{given} ranks given, the board has {board}"),
            ZeroRun { rank } => write!(f, "rank {rank}: an empty run starts with 0"),
            RunTooLong { rank } => write!(f, "rank {rank}: empty run too long"),
            RankTooWide { rank, files } => write!(f, "rank {rank} is wider than {files} files"),
            RankWidth { rank, given, board } => write!(f, "rank {rank} has {given} files, the board has {board}"),
            NotAHole(sq) => write!(f, "'*' on {sq}, which is not a hole"),
            UnknownLetter { letter, rank } => write!(f, "unknown piece letter '{letter}' on rank {rank}"),
            HoldingsUnclosed(h) => write!(f, "holdings '{h}' do not end with ']'"),
            Holdings { holdings, why } => write!(f, "holdings '[{holdings}]': {why}"),
            SideToMove(s) => write!(f, "side to move '{s}' (expected w or b)"),
            EpOffBoard(ep) => write!(f, "en-passant square '{ep}' is not on the board"),
            EpNoPawn(ep) => write!(f, "en-passant square '{ep}' has no pawn that just moved past it"),
            NotANumber { counter, text } => write!(f, "{counter} '{text}' is not a number"),
            CountersOutOfRange => write!(f, "move counters out of range"),
            SquareCount { given, board } => write!(f, "{given} squares given, the board has {board}"),
            UnknownKind { kind, square } => write!(f, "piece kind {kind} on {square}, which this variant lacks"),
            NoLanding(sq) => write!(f, "piece on {sq}, where no piece may stand"),
            PawnRank { color, square } => write!(f, "{} pawn on {square}, where no pawn can stand", color.name()),
            NotToMoveInCheck { side } => write!(f, "{} is in check but it is {}'s move", side.name(), (!*side).name()),
            CastlingLetter { field, letter } => {
                write!(f, "castling field '{field}': '{letter}' is not a castling right here")
            }
            CastlingMissing { field } => write!(f, "castling field '{field}': this variant has no such castling"),
            CastlingTwoRooks { field } => write!(f, "castling field '{field}': two rooks for one right"),
            Rules(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for FenError {}

/// A position as given, before the rules check it: a FEN's fields read into values, or what a
/// table game holds. [`Position::from_setup`] checks it and makes the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, by square index (`Piece::NONE`: empty).
    pub board: Vec<Piece>,
    /// The side to move.
    pub side: Color,
    /// The castling field as FEN writes it (`KQkq`, rook files, a rules module's letters;
    /// `-`: none), read against the board.
    pub castling: String,
    /// The en-passant square.
    pub ep: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove: u32,
    /// The move number.
    pub fullmove: u32,
    /// The holdings' text inside their brackets, for the rules module.
    pub holdings: Option<String>,
}

impl Setup {
    /// Reads a FEN of variant `v` into its fields: everything but what depends on the rules.
    pub fn read(v: &Variant, fen: &str) -> Result<Setup, FenError> {
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        let holdings = split_holdings(&mut fields)?.map(str::to_string);
        if fields.len() > 6 {
            return Err(FenError::TrailingText(fields[6..].join(" ")));
        }
        let g = &v.geometry;
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != g.ranks() {
            return Err(FenError::RankCount {
                given: rows.len(),
                board: g.ranks(),
            });
        }
        let mut board = vec![Piece::NONE; g.size()];
        for (i, row) in rows.iter().enumerate() {
            read_rank(v, row, g.ranks() - 1 - i, &mut board)?;
        }
        let side = match fields.get(1) {
            None | Some(&"w") => Color::White,
            Some(&"b") => Color::Black,
            Some(s) => return Err(FenError::SideToMove(s.to_string())),
        };
        let ep = match fields.get(3).copied().unwrap_or("-") {
            "-" => None,
            ep => match g.parse(ep).filter(|s| g.exists(*s)) {
                Some(sq) => Some(sq),
                None => return Err(FenError::EpOffBoard(ep.to_string())),
            },
        };
        let num = |i: usize, counter: &'static str, default: u32| -> Result<u32, FenError> {
            match fields.get(i) {
                None => Ok(default),
                Some(s) => s.parse::<u32>().map_err(|_| FenError::NotANumber {
                    counter,
                    text: s.to_string(),
                }),
            }
        };
        let halfmove = num(4, "half-move clock", 0)?;
        let fullmove = num(5, "move number", 1)?.max(1);
        if halfmove > 10_000 || fullmove > 100_000 {
            return Err(FenError::CountersOutOfRange);
        }
        Ok(Setup {
            board,
            side,
            castling: fields.get(2).copied().unwrap_or("-").to_string(),
            ep,
            halfmove,
            fullmove,
            holdings,
        })
    }

    /// The square of the pawn that just passed en-passant square `sq` (a square of the board,
    /// empty, with a pawn of the side not to move right behind it); `None` when `sq` cannot be
    /// one.
    pub fn ep_victim<R: Rules>(&self, game: &Game<R>, sq: Square) -> Option<Square> {
        passed_pawn(game, &self.board, self.side, sq)
    }

    /// Sets the en-passant square to `ep` when a pawn just passed it, to none otherwise (a
    /// table game offers en passant only where it can be taken).
    pub fn set_ep_if_passed<R: Rules>(&mut self, game: &Game<R>, ep: Option<Square>) {
        self.ep = ep.filter(|&sq| self.ep_victim(game, sq).is_some());
    }
}

/// The square of the pawn of the side not to move (`side` moves) right behind en-passant
/// square `sq` on `board`, with `sq` an empty square of the board; `None` otherwise.
pub(crate) fn passed_pawn<R: Rules>(game: &Game<R>, board: &[Piece], side: Color, sq: Square) -> Option<Square> {
    let g = &game.variant.geometry;
    if !g.exists(sq) {
        return None;
    }
    let behind = g.offset(sq, 0, if side == Color::White { -1 } else { 1 })?;
    let p = *board.get(behind.index())?;
    let pawn = p.is_some() && p.color() != side && p.kind() < 32 && game.pawn_kinds >> p.kind() & 1 != 0;
    (pawn && board.get(sq.index()).is_some_and(|q| q.is_none())).then_some(behind)
}

/// Takes the holdings out of a FEN's fields: `[...]` right after the board, or as the last
/// field; returns their inside.
fn split_holdings<'a>(fields: &mut Vec<&'a str>) -> Result<Option<&'a str>, FenError> {
    if let Some(open) = fields[0].find('[') {
        let Some(inner) = fields[0][open + 1..].strip_suffix(']') else {
            return Err(FenError::HoldingsUnclosed(fields[0][open..].to_string()));
        };
        fields[0] = &fields[0][..open];
        return Ok(Some(inner));
    }
    if fields.len() > 1 && fields[fields.len() - 1].starts_with('[') {
        let last = fields.pop().expect("more than one field");
        let Some(inner) = last[1..].strip_suffix(']') else {
            return Err(FenError::HoldingsUnclosed(last.to_string()));
        };
        return Ok(Some(inner));
    }
    Ok(None)
}

/// The piece a FEN letter names in variant `v` (upper case White, lower case Black).
pub fn piece_of_letter(v: &Variant, c: char) -> Option<Piece> {
    let kind = v.kind_of_letter(c).filter(|_| c.is_ascii_alphabetic())?;
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    Some(Piece::new(kind, color))
}

/// Reads one rank of a FEN board (`rank` counted from 0 at White's side) into `board`.
fn read_rank(v: &Variant, row: &str, rank: usize, board: &mut [Piece]) -> Result<(), FenError> {
    let g = &v.geometry;
    let mut file = 0usize;
    let chars: Vec<char> = row.chars().collect();
    let mut j = 0;
    while j < chars.len() {
        let c = chars[j];
        if c.is_ascii_digit() {
            if c == '0' {
                return Err(FenError::ZeroRun { rank: rank + 1 });
            }
            let mut n = 0usize;
            while j < chars.len() && chars[j].is_ascii_digit() {
                n = n * 10 + chars[j].to_digit(10).unwrap() as usize;
                if n > 64 {
                    return Err(FenError::RunTooLong { rank: rank + 1 });
                }
                j += 1;
            }
            file += n;
            continue;
        }
        j += 1;
        if file >= g.files() {
            return Err(FenError::RankTooWide {
                rank: rank + 1,
                files: g.files(),
            });
        }
        let sq = g.square(file, rank).expect("inside the rectangle");
        if c == '*' {
            if g.exists(sq) && !g.no_landing.contains(sq) {
                return Err(FenError::NotAHole(g.name(sq)));
            }
        } else {
            let Some(p) = piece_of_letter(v, c) else {
                return Err(FenError::UnknownLetter {
                    letter: c,
                    rank: rank + 1,
                });
            };
            board[sq.index()] = p;
        }
        file += 1;
    }
    if file != g.files() {
        return Err(FenError::RankWidth {
            rank: rank + 1,
            given: file,
            board: g.files(),
        });
    }
    Ok(())
}

impl<R: Rules> Position<R> {
    /// Parses a FEN of this game. Castling rights whose king or rook is missing are dropped;
    /// everything else that does not fit the variant is an error.
    pub fn from_fen(game: Arc<Game<R>>, fen: &str) -> Result<Position<R>, FenError> {
        let setup = Setup::read(&game.variant, fen)?;
        Position::from_setup(game, &setup, false)
    }

    /// [`Position::from_fen`] for games in which a king can be left attacked with the other
    /// side to move (Telepathy's removals): the side not to move may stand in check.
    pub fn from_fen_exposed(game: Arc<Game<R>>, fen: &str) -> Result<Position<R>, FenError> {
        let setup = Setup::read(&game.variant, fen)?;
        Position::from_setup(game, &setup, true)
    }

    /// The position `setup` describes, checked as a FEN is; with `exposed` the side not to
    /// move may stand in check.
    pub fn from_setup(game: Arc<Game<R>>, setup: &Setup, exposed: bool) -> Result<Position<R>, FenError> {
        let mut pos = Position::empty(game);
        let game = Arc::clone(&pos.game);
        let g = &game.variant.geometry;
        if let Some(h) = &setup.holdings
            && let Err(e) = game.rules.parse_holdings(h, &mut pos.st.rule)
        {
            return Err(FenError::Holdings {
                holdings: h.clone(),
                why: e.to_string(),
            });
        }
        if setup.board.len() != g.size() {
            return Err(FenError::SquareCount {
                given: setup.board.len(),
                board: g.size(),
            });
        }
        // In FEN order, so that the first misplaced piece is the one named.
        for rank in (0..g.ranks()).rev() {
            for file in 0..g.files() {
                let sq = g.square(file, rank).expect("inside the rectangle");
                let p = setup.board[sq.index()];
                if p.is_none() {
                    continue;
                }
                if p.kind() >= game.variant.pieces.len() {
                    return Err(FenError::UnknownKind {
                        kind: p.kind(),
                        square: g.name(sq),
                    });
                }
                if !game.landable.contains(sq) {
                    return Err(FenError::NoLanding(g.name(sq)));
                }
                pos.put_piece(p, sq);
            }
        }
        pos.side = setup.side;
        pos.st.castling = pos.read_castling(&setup.castling)?;
        if let Some(sq) = setup.ep {
            let Some(victim) = setup.ep_victim(&game, sq) else {
                return Err(FenError::EpNoPawn(g.name(sq)));
            };
            if pos.ep_capturable(sq) {
                pos.st.ep = Some(sq);
                pos.st.ep_victim = victim;
            }
        }
        pos.st.halfmove = setup.halfmove;
        pos.fullmove = setup.fullmove.max(1);
        pos.validate(exposed)?;
        pos.st.key = pos.compute_key();
        Ok(pos)
    }

    /// Reads the castling field against the board (pieces placed, rule state read).
    fn read_castling(&mut self, castling: &str) -> Result<CastlingRights, FenError> {
        let game = Arc::clone(&self.game);
        let g = &game.variant.geometry;
        let mut rights = CastlingRights::empty();
        if castling == "-" {
            return Ok(rights);
        }
        if game.variant.chess960 {
            return self.parse_chess960_castling(castling);
        }
        for c in castling.chars() {
            if game.rules.parse_castling_char(c, &mut self.st.rule) {
                continue;
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let right = match c.to_ascii_uppercase() {
                'K' => Some(0),
                'Q' => Some(1),
                f if f.is_ascii_uppercase() && ((f as u8 - b'A') as usize) < g.files() => {
                    let file = (f as u8 - b'A') as usize;
                    (0..2).find(|&r| {
                        game.castles[color.index()][r]
                            .iter()
                            .any(|o| g.file_of(o.sq.rook_from) == file)
                    })
                }
                _ => None,
            };
            let Some(right) = right else {
                return Err(FenError::CastlingLetter {
                    field: castling.to_string(),
                    letter: c,
                });
            };
            let options = &game.castles[color.index()][right];
            if options.is_empty() {
                return Err(FenError::CastlingMissing {
                    field: castling.to_string(),
                });
            }
            let o = options[0].sq;
            let (k, r) = (self.board[o.king_from.index()], self.board[o.rook_from.index()]);
            let king_ok = k.is_some() && k.color() == color && game.royal_kinds >> k.kind() & 1 != 0;
            let rook_ok = r.is_some() && r.color() == color && game.royal_kinds >> r.kind() & 1 == 0;
            if king_ok && rook_ok {
                rights |= CastlingRights::of(color, right);
            }
        }
        Ok(rights)
    }

    /// This position as a [`Setup`], to be changed and checked again (a table game's turn).
    pub fn setup(&self) -> Setup {
        let g = &self.game.variant.geometry;
        let mut holdings = String::new();
        self.game.rules.write_holdings(&self.st.rule, &mut holdings);
        let holdings = holdings
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .map(str::to_string);
        Setup {
            board: self.board[..g.size()].to_vec(),
            side: self.side,
            castling: self.castling_field(),
            ep: self.st.ep,
            halfmove: self.st.halfmove,
            fullmove: self.fullmove,
            holdings,
        }
    }

    fn validate(&self, exposed: bool) -> Result<(), FenError> {
        let game = &self.game;
        let v = &game.variant;
        let g = &v.geometry;
        for c in Color::ALL {
            let mut m = game.pawn_kinds;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                for sq in self.pieces(c, k) {
                    let rr = g.relative_rank(c, sq);
                    let in_zone = game.promo_zone[c.index()].contains(sq) && v.promotion_compulsory;
                    if rr == 0 || rr == g.ranks() - 1 || in_zone {
                        return Err(FenError::PawnRank {
                            color: c,
                            square: g.name(sq),
                        });
                    }
                }
            }
        }
        game.rules.validate(self).map_err(FenError::Rules)?;
        if v.check && !exposed {
            let them = !self.side;
            if self.royal_in_danger(them) {
                return Err(FenError::NotToMoveInCheck { side: them });
            }
        }
        Ok(())
    }

    /// The position of a FEN, or the start position when `fen` is empty.
    pub fn from_fen_or_start(game: Arc<Game<R>>, fen: &str) -> Result<Position<R>, FenError> {
        if fen.trim().is_empty() {
            Ok(Position::startpos(game))
        } else {
            Position::from_fen(game, fen)
        }
    }

    /// The castling field as FEN writes it (`-` when empty).
    fn castling_field(&self) -> String {
        let game = &self.game;
        let mut c = String::new();
        if game.variant.chess960 {
            self.write_chess960_castling(&mut c);
        } else {
            for (flag, ch) in [
                (CastlingRights::WHITE_K, 'K'),
                (CastlingRights::WHITE_Q, 'Q'),
                (CastlingRights::BLACK_K, 'k'),
                (CastlingRights::BLACK_Q, 'q'),
            ] {
                if self.st.castling.contains(flag) {
                    c.push(ch);
                }
            }
        }
        game.rules.write_castling_chars(&self.st.rule, &mut c);
        if c.is_empty() {
            c.push('-');
        }
        c
    }

    /// Writes the FEN. Holes are written as `*`.
    pub fn fen(&self) -> String {
        let game = &self.game;
        let v = &game.variant;
        let g = &v.geometry;
        let mut s = String::new();
        for rank in (0..g.ranks()).rev() {
            let mut empty = 0;
            for file in 0..g.files() {
                let sq = g.square(file, rank).expect("inside");
                let p = self.board[sq.index()];
                if p.is_some() || !g.exists(sq) {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    if p.is_some() {
                        let l = v.pieces[p.kind()].letter;
                        s.push(if p.color() == Color::White {
                            l
                        } else {
                            l.to_ascii_lowercase()
                        });
                    } else {
                        s.push('*');
                    }
                } else {
                    empty += 1;
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        game.rules.write_holdings(&self.st.rule, &mut s);
        s.push(' ');
        s.push(self.side.char());
        s.push(' ');
        s.push_str(&self.castling_field());
        s.push(' ');
        match self.st.ep {
            Some(ep) => s.push_str(&g.name(ep)),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.st.halfmove, self.fullmove));
        s
    }
}

impl<R: Rules> Position<R> {
    /// Side `c`'s king on its back rank in Chess960, as a file, and that rank.
    fn chess960_king(&self, c: Color) -> Option<(usize, usize)> {
        let g = &self.game.variant.geometry;
        let rank = g.rank_of(self.game.castles[c.index()][0].first()?.sq.king_to);
        (0..g.files()).find_map(|f| {
            let p = self.board[g.square(f, rank)?.index()];
            (p.is_some() && p.color() == c && self.game.royal_kinds >> p.kind() & 1 != 0).then_some((f, rank))
        })
    }

    /// True when `sq` holds a castling partner (the Chess960 rook) of side `c`.
    fn is_castle_rook(&self, c: Color, sq: Option<Square>) -> bool {
        sq.is_some_and(|sq| {
            let p = self.board[sq.index()];
            p.is_some() && p.color() == c && Some(p.kind()) == self.game.castle_rook_kind
        })
    }

    /// The outermost castling partner of side `c` beyond its king for `right`, as a file.
    fn outermost_rook(&self, c: Color, right: usize) -> Option<usize> {
        let g = &self.game.variant.geometry;
        let (kf, rank) = self.chess960_king(c)?;
        let found = |f: &usize| self.is_castle_rook(c, g.square(*f, rank));
        if right == 0 {
            (kf + 1..g.files()).rev().find(found)
        } else {
            (0..kf).find(found)
        }
    }

    /// Reads a Chess960 castling field: X-FEN (`KQkq` for the outermost rook, a file letter
    /// for another) or Shredder-FEN (file letters only). Sets which option each right uses.
    /// A right whose king or rook is missing is dropped, as for every variant.
    fn parse_chess960_castling(&mut self, field: &str) -> Result<CastlingRights, FenError> {
        let g = self.game.variant.geometry.clone();
        let mut rights = CastlingRights::empty();
        for ch in field.chars() {
            let c = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let up = ch.to_ascii_uppercase();
            let not_a_right = || {
                Err(FenError::CastlingLetter {
                    field: field.to_string(),
                    letter: ch,
                })
            };
            let Some((kf, rank)) = self.chess960_king(c) else {
                if up == 'K' || up == 'Q' || (up.is_ascii_uppercase() && ((up as u8 - b'A') as usize) < g.files()) {
                    continue;
                }
                return not_a_right();
            };
            let (right, rook_file) = match up {
                'K' => (0, self.outermost_rook(c, 0)),
                'Q' => (1, self.outermost_rook(c, 1)),
                f if f.is_ascii_uppercase() && ((f as u8 - b'A') as usize) < g.files() => {
                    let file = (f as u8 - b'A') as usize;
                    if file == kf {
                        return not_a_right();
                    }
                    let ok = self.is_castle_rook(c, g.square(file, rank));
                    (usize::from(file < kf), ok.then_some(file))
                }
                _ => return not_a_right(),
            };
            let Some(rf) = rook_file else { continue };
            let (king_from, rook_from) = (g.square(kf, rank), g.square(rf, rank));
            let index = self.game.castles[c.index()][right]
                .iter()
                .position(|o| Some(o.sq.king_from) == king_from && Some(o.sq.rook_from) == rook_from);
            let Some(index) = index else { return not_a_right() };
            if rights.has(c, right) && self.castle_sel[c.index()][right] as usize != index {
                return Err(FenError::CastlingTwoRooks {
                    field: field.to_string(),
                });
            }
            self.castle_sel[c.index()][right] = index as u8;
            rights |= CastlingRights::of(c, right);
        }
        Ok(rights)
    }

    /// Writes the castling rights in X-FEN: `K`/`Q` when the rook is the outermost one, its
    /// file letter otherwise.
    fn write_chess960_castling(&self, out: &mut String) {
        let g = &self.game.variant.geometry;
        for c in Color::ALL {
            for right in 0..2 {
                if !self.st.castling.has(c, right) {
                    continue;
                }
                let (_, opts) = self.castle_options(c, right);
                let Some(o) = opts.first() else { continue };
                let rf = g.file_of(o.sq.rook_from);
                let ch = if self.outermost_rook(c, right) == Some(rf) {
                    if right == 0 { 'K' } else { 'Q' }
                } else {
                    (b'A' + rf as u8) as char
                };
                out.push(if c == Color::White { ch } else { ch.to_ascii_lowercase() });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{AnyGame, default_variants};
    use crate::rules::Plain;

    fn chess() -> Arc<Game<Plain>> {
        let Some(AnyGame::Plain(chess)) = default_variants().get("chess") else {
            panic!("chess is a plain variant")
        };
        chess.clone()
    }

    /// Each way a FEN can be wrong is its own value, and reads as one line that says so.
    #[test]
    fn bad_fens_are_typed_values() {
        use FenError::*;
        let s = String::from;
        let cases = [
            ("", Empty),
            ("8/8/8/8/8/8/8/8/8 w - - 0 1", RankCount { given: 9, board: 8 }),
            ("4k3/8/8/8/8/8/8/04K3 w - - 0 1", ZeroRun { rank: 1 }),
            ("4k3/8/8/8/8/8/8/4K3R w - - 0 1", RankTooWide { rank: 1, files: 8 }),
            (
                "4k3/8/8/8/8/8/8/4K2 w - - 0 1",
                RankWidth {
                    rank: 1,
                    given: 7,
                    board: 8,
                },
            ),
            ("4k3/8/8/8/8/8/8/4K2X w - - 0 1", UnknownLetter { letter: 'X', rank: 1 }),
            ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", SideToMove(s("x"))),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 more", TrailingText(s("more"))),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - z 1",
                NotANumber {
                    counter: "half-move clock",
                    text: s("z"),
                },
            ),
            ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", EpOffBoard(s("e9"))),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", EpNoPawn(s("e6"))),
            (
                "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
                PawnRank {
                    color: Color::White,
                    square: s("a1"),
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
                NotToMoveInCheck { side: Color::Black },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w X - 0 1",
                CastlingLetter {
                    field: s("X"),
                    letter: 'X',
                },
            ),
        ];
        for (fen, want) in cases {
            assert_eq!(Position::from_fen(chess(), fen).err(), Some(want.clone()), "{fen:?}");
            let text = want.to_string();
            assert!(text.starts_with("bad FEN: ") && !text.contains('\n'), "{text}");
        }
        assert_eq!(
            NotToMoveInCheck { side: Color::Black }.to_string(),
            "bad FEN: Black is in check but it is White's move"
        );
        assert_eq!(
            RankWidth {
                rank: 1,
                given: 7,
                board: 8
            }
            .to_string(),
            "bad FEN: rank 1 has 7 files, the board has 8"
        );
    }
}
