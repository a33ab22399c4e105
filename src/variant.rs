//! Variants as plain data, read from `engine.ini`.
//!
//! The ini format is documented at the top of `engine.ini` and in the README. This module
//! parses it into [`Variant`] values and refuses anything it cannot honour, naming the file,
//! the line and the problem. It only reads data: the rules modules check their own settings and
//! the start position in a step of their own ([`crate::games::Catalog::prepare`]).

use crate::betza::{self, Motion};
use crate::bitboard::Bitboard;
use crate::geometry::Geometry;
use crate::square::Square;
use std::collections::BTreeMap;
use std::fmt;

/// Largest number of piece types one variant may define.
pub const MAX_KINDS: usize = 16;

/// One piece type of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// Upper-case FEN letter (White's; Black uses the lower case).
    pub letter: char,
    /// Human name (`knight`).
    pub name: String,
    /// The Betza text as written.
    pub betza: String,
    /// The parsed motions (from White's side).
    pub motions: Vec<Motion>,
    /// What kind of piece it is (royal, pawn, dynamic).
    pub flags: PieceFlags,
    /// Optional material value in centipawns for evaluation.
    pub value: Option<i32>,
    /// What XBoard is told instead of `betza` (`xboard=BETZA`): XBetza that Menagerie's
    /// parser does not take, such as the castling atom `O`.
    pub xboard: Option<String>,
}

bitflags::bitflags! {
    /// What kind of piece a piece type is.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct PieceFlags: u8 {
        /// Losing it (to mate, or to capture where there is no check) loses the game.
        const ROYAL = 1;
        /// Promotes, may use `i` (initial) moves from the pawn ranks and may be taken en passant.
        const PAWN = 1 << 1;
        /// No fixed moves: written `dynamic` instead of Betza; the rules module generates them.
        const DYNAMIC = 1 << 2;
    }
}

impl PieceDef {
    /// Losing it loses the game.
    pub fn is_royal(&self) -> bool {
        self.flags.contains(PieceFlags::ROYAL)
    }

    /// A pawn (promotes, `i` moves, taken en passant).
    pub fn is_pawn(&self) -> bool {
        self.flags.contains(PieceFlags::PAWN)
    }

    /// Moved by the rules module (no fixed moves).
    pub fn is_dynamic(&self) -> bool {
        self.flags.contains(PieceFlags::DYNAMIC)
    }
}

/// One way to castle for White (Black's is the rank-mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastleOption {
    /// King's square before.
    pub king_from: Square,
    /// King's square after.
    pub king_to: Square,
    /// Rook's square before.
    pub rook_from: Square,
    /// Rook's square after.
    pub rook_to: Square,
}

/// What the side to move gets when it has no legal move and is not in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateResult {
    /// Draw (FIDE).
    Draw,
    /// The stalemated side loses.
    Loss,
    /// The stalemated side wins.
    Win,
}

/// A variant: everything the generic machinery needs, as data.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Name used by `--variant`, `UCI_Variant` and `variant`.
    pub name: String,
    /// Other accepted names (e.g. Fairy-Max's `los-alamos`).
    pub aliases: Vec<String>,
    /// Board shape.
    pub geometry: Geometry,
    /// Piece types; a piece's kind is its index here.
    pub pieces: Vec<PieceDef>,
    /// Start position FEN.
    pub start_fen: String,
    /// Ranks (0-based, relative to the owner) where pawns may use `i` moves.
    pub pawn_initial_ranks: Vec<usize>,
    /// First rank (0-based, relative) of the promotion zone; `None` = pawns never promote.
    pub promotion_rank: Option<usize>,
    /// Kinds a pawn may promote to.
    pub promotion_kinds: Vec<usize>,
    /// Must a pawn entering the zone promote?
    pub promotion_compulsory: bool,
    /// Castling options per right for White: right 0 is FEN `K`, right 1 is `Q`.
    pub castling: [Vec<CastleOption>; 2],
    /// Chess960 castling (`chess960 = true`): each game's king and rooks may start on any
    /// squares of the back rank (king between the rooks, read from its FEN) and end where
    /// `castle_k`/`castle_q` put them.
    pub chess960: bool,
    /// Is there check (moves may not leave a royal piece attacked)? Without check, royal pieces
    /// are simply captured and a side with no royal piece left has lost.
    pub check: bool,
    /// May a side pass its turn (RBC)? The search then weighs a pass at every node: no
    /// zugzwang.
    pub pass: bool,
    /// Result of a stalemate for the stalemated side.
    pub stalemate: StalemateResult,
    /// The special-rule module, `plain` when there is none.
    pub rules: String,
    /// Settings the rules module reads (`rules.KEY = VALUE` lines), uninterpreted here.
    pub rule_settings: BTreeMap<String, String>,
    /// Evaluation weights (`eval.TERM = MG EG` lines, as `menagerie tune` writes them),
    /// checked when the game is built.
    pub eval_settings: BTreeMap<String, String>,
    /// Half-moves without capture or pawn move after which a draw may be claimed (0 = never).
    pub move_rule: u32,
    /// Where the variant was written, for error messages of later checks.
    pub origin: Origin,
}

/// The file and lines a variant was read from.
#[derive(Clone, Debug, Default)]
pub struct Origin {
    /// File name as given to the loader.
    pub file: String,
    /// Line of the `[name]` header.
    pub line: usize,
    /// Line of each key as written (`rules`, `start`, `rules.eye`, ...).
    pub keys: BTreeMap<String, usize>,
}

impl Origin {
    /// An error at the line of `key` (the section header when the key is not written).
    pub fn error(&self, key: &str, message: String) -> IniError {
        IniError {
            file: self.file.clone(),
            line: self.keys.get(key).copied().unwrap_or(self.line),
            message,
        }
    }
}

impl Variant {
    /// The kind whose white letter is `c` (case-insensitive).
    pub fn kind_of_letter(&self, c: char) -> Option<usize> {
        let u = c.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == u)
    }

    /// Bitmask of royal kinds.
    pub fn royal_kinds(&self) -> u32 {
        self.kinds_where(|p| p.is_royal())
    }

    /// Bitmask of pawn kinds.
    pub fn pawn_kinds(&self) -> u32 {
        self.kinds_where(|p| p.is_pawn())
    }

    /// Bitmask of kinds without fixed moves (moved by the rules module).
    pub fn dynamic_kinds(&self) -> u32 {
        self.kinds_where(|p| p.is_dynamic())
    }

    fn kinds_where(&self, f: impl Fn(&PieceDef) -> bool) -> u32 {
        self.pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| f(p))
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    /// Castling options of a side and right, in that side's squares.
    pub fn castle_options(&self, c: crate::Color, right: usize) -> impl Iterator<Item = CastleOption> + '_ {
        let g = &self.geometry;
        self.castling[right].iter().map(move |o| match c {
            crate::Color::White => *o,
            crate::Color::Black => CastleOption {
                king_from: g.flip(o.king_from),
                king_to: g.flip(o.king_to),
                rook_from: g.flip(o.rook_from),
                rook_to: g.flip(o.rook_to),
            },
        })
    }
}

/// A problem in an ini file: file, line (1-based; 0 = the file as a whole) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IniError {
    /// File name as given.
    pub file: String,
    /// 1-based line, 0 when the problem is not tied to one line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for IniError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for IniError {}

/// A set of variants loaded from one ini text, in file order.
#[derive(Clone, Debug)]
pub struct VariantSet {
    /// The variants, in the order the file defines them.
    pub variants: Vec<Variant>,
}

/// The `engine.ini` compiled into the binary.
pub const DEFAULT_INI: &str = include_str!("../engine.ini");

/// Reads and parses an ini file from disk.
pub fn load_ini_file(path: &str) -> Result<VariantSet, IniError> {
    let text = std::fs::read_to_string(path).map_err(|e| IniError {
        file: path.to_string(),
        line: 0,
        message: format!("cannot read: {e}"),
    })?;
    parse_ini(&text, path)
}

#[derive(Clone, Debug, Default)]
struct Section {
    name: String,
    line: usize,
    /// key -> (value, line); `piece` entries are kept separately.
    keys: BTreeMap<String, (String, usize)>,
    /// letter -> (definition text or "-" to remove, line), in order of first appearance.
    pieces: Vec<(char, String, usize)>,
}

/// Every key a section may hold; anything else is an error (typos must not pass silently).
const KNOWN_KEYS: &[&str] = &[
    "board",
    "holes",
    "no_landing",
    "start",
    "pawn_initial_ranks",
    "promotion_rank",
    "promotion_pieces",
    "promotion_compulsory",
    "castle_k",
    "castle_q",
    "check",
    "pass",
    "stalemate",
    "rules",
    "aliases",
    "move_rule",
    "chess960",
];

/// A `[name]` or `[name:parent]` header (`rest` after its `[`) at line `ln`: a new section,
/// with the parent's keys (but its aliases) and pieces when it names one defined above.
fn section_header(rest: &str, line: &str, ln: usize, sections: &[Section]) -> Result<Section, String> {
    let Some(inner) = rest.strip_suffix(']') else {
        return Err(format!("section header without ']': {line}"));
    };
    let (name, parent) = match inner.split_once(':') {
        Some((n, p)) => (n.trim(), Some(p.trim())),
        None => (inner.trim(), None),
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(format!("bad variant name '{name}' (letters, digits, - and _ only)"));
    }
    let name = name.to_ascii_lowercase();
    if sections.iter().any(|s| s.name == name) {
        return Err(format!("variant '{name}' is defined twice"));
    }
    let mut sec = Section {
        name,
        line: ln,
        ..Default::default()
    };
    if let Some(p) = parent {
        let p = p.to_ascii_lowercase();
        let Some(parent) = sections.iter().find(|s| s.name == p) else {
            return Err(format!("parent variant '{p}' is not defined above"));
        };
        sec.keys = parent.keys.clone();
        sec.keys.remove("aliases");
        sec.pieces = parent.pieces.clone();
    }
    Ok(sec)
}

/// A `key = value` line of a section: a piece (a later one with the same letter replaces it)
/// or a known key, `rules.*` or `eval.*`.
fn add_key(sec: &mut Section, key: String, value: String, ln: usize) -> Result<(), String> {
    if key == "piece" {
        let letter = value.chars().next().filter(|c| c.is_ascii_alphabetic());
        let Some(letter) = letter.map(|c| c.to_ascii_uppercase()) else {
            return Err("piece needs a letter first: 'piece = N knight N'".into());
        };
        let rest = value[1..].trim().to_string();
        if let Some(e) = sec.pieces.iter_mut().find(|p| p.0 == letter) {
            *e = (letter, rest, ln);
        } else {
            sec.pieces.push((letter, rest, ln));
        }
    } else if KNOWN_KEYS.contains(&key.as_str()) || key.starts_with("rules.") || key.starts_with("eval.") {
        sec.keys.insert(key, (value, ln));
    } else {
        return Err(format!("unknown key '{key}'"));
    }
    Ok(())
}

/// Parses ini text. `file` is only used in error messages.
pub fn parse_ini(text: &str, file: &str) -> Result<VariantSet, IniError> {
    let err = |line: usize, message: String| IniError {
        file: file.to_string(),
        line,
        message,
    };
    let mut sections: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let line = match raw.find(['#', ';']) {
            Some(p) => &raw[..p],
            None => raw,
        }
        .trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let sec = section_header(rest, line, ln, &sections).map_err(|m| err(ln, m))?;
            sections.push(sec);
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(err(
                ln,
                format!("expected 'key = value' or '[variant]', found '{line}'"),
            ));
        };
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim().to_string();
        let Some(sec) = sections.last_mut() else {
            return Err(err(ln, "key before the first [variant] header".into()));
        };
        add_key(sec, key, value, ln).map_err(|m| err(ln, m))?;
    }
    if sections.is_empty() {
        return Err(err(0, "no [variant] section".into()));
    }
    let mut variants: Vec<Variant> = Vec::new();
    for s in &sections {
        let v = build_variant(s, file, &err)?;
        for a in std::iter::once(&v.name).chain(&v.aliases) {
            if variants.iter().any(|o| o.name == *a || o.aliases.contains(a)) {
                return Err(err(s.line, format!("name '{a}' is used by two variants")));
            }
        }
        variants.push(v);
    }
    Ok(VariantSet { variants })
}

/// A section's keys as the builders below read them: each error names its line.
struct Keys<'a> {
    s: &'a Section,
    err: &'a dyn Fn(usize, String) -> IniError,
}

impl Keys<'_> {
    /// The value of `k` and its line.
    fn get(&self, k: &str) -> Option<(&str, usize)> {
        self.s.keys.get(k).map(|(v, l)| (v.as_str(), *l))
    }

    /// The value of `k`, which the section must have.
    fn need(&self, k: &str) -> Result<(&str, usize), IniError> {
        self.get(k)
            .ok_or_else(|| self.fail(self.s.line, format!("variant '{}' has no '{k}'", self.s.name)))
    }

    fn fail(&self, line: usize, msg: String) -> IniError {
        (self.err)(line, msg)
    }

    /// A yes/no key.
    fn bool(&self, k: &str, default: bool) -> Result<bool, IniError> {
        match self.get(k) {
            None => Ok(default),
            Some(("true" | "yes" | "1", _)) => Ok(true),
            Some(("false" | "no" | "0", _)) => Ok(false),
            Some((v, l)) => Err(self.fail(l, format!("{k}: expected true or false, found '{v}'"))),
        }
    }

    /// A list of squares of `g` (words split by spaces or commas).
    fn squares(&self, k: &str, g: &Geometry) -> Result<Bitboard, IniError> {
        let mut bb = Bitboard::EMPTY;
        if let Some((v, l)) = self.get(k) {
            for t in v.split([' ', ',']).filter(|t| !t.is_empty()) {
                let sq = g
                    .parse(t)
                    .ok_or_else(|| self.fail(l, format!("{k}: '{t}' is not a square of this board")))?;
                bb.set(sq);
            }
        }
        Ok(bb)
    }

    /// A list of rank numbers on a board of `h` ranks, counted from 0.
    fn ranks(&self, k: &str, h: usize) -> Result<Vec<usize>, IniError> {
        let mut v = Vec::new();
        if let Some((val, l)) = self.get(k) {
            for t in val.split([' ', ',']).filter(|t| !t.is_empty()) {
                let r: usize = t
                    .parse()
                    .map_err(|_| self.fail(l, format!("{k}: '{t}' is not a rank number")))?;
                if r == 0 || r > h {
                    return Err(self.fail(l, format!("{k}: rank {r} is not on a board with {h} ranks")));
                }
                v.push(r - 1);
            }
        }
        Ok(v)
    }

    /// The keys with a prefix (`rules.`, `eval.`), the prefix taken off.
    fn prefixed(&self, prefix: &str) -> BTreeMap<String, String> {
        self.s
            .keys
            .iter()
            .filter_map(|(k, (v, _))| k.strip_prefix(prefix).map(|k| (k.to_string(), v.clone())))
            .collect()
    }
}

fn build_variant(s: &Section, file: &str, err: &dyn Fn(usize, String) -> IniError) -> Result<Variant, IniError> {
    let keys = Keys { s, err };
    let geometry = build_geometry(&keys)?;
    let pieces = build_pieces(&keys)?;
    let promotion = build_promotion(&keys, &pieces, geometry.ranks())?;
    let castling = build_castling(&keys, &geometry, &pieces)?;
    let stalemate = match keys.get("stalemate") {
        None | Some(("draw", _)) => StalemateResult::Draw,
        Some(("loss", _)) => StalemateResult::Loss,
        Some(("win", _)) => StalemateResult::Win,
        Some((v, l)) => {
            return Err(err(l, format!("stalemate: expected draw, loss or win, found '{v}'")));
        }
    };
    let move_rule = match keys.get("move_rule") {
        None => 100,
        Some((v, l)) => v
            .parse()
            .map_err(|_| err(l, format!("move_rule: '{v}' is not a number of half-moves")))?,
    };
    let aliases = keys
        .get("aliases")
        .map(|(v, _)| {
            v.split([' ', ','])
                .filter(|a| !a.is_empty())
                .map(|a| a.to_ascii_lowercase())
                .collect()
        })
        .unwrap_or_default();
    let (start_fen, _) = keys.need("start")?;
    let chess960 = keys.bool("chess960", false)?;
    if chess960 && (castling[0].len() != 1 || castling[1].len() != 1) {
        return Err(err(
            s.line,
            "chess960 = true needs exactly one castle_k and one castle_q option (where king and rook end)".into(),
        ));
    }
    Ok(Variant {
        name: s.name.clone(),
        aliases,
        geometry,
        pieces,
        start_fen: start_fen.to_string(),
        pawn_initial_ranks: promotion.pawn_initial_ranks,
        promotion_rank: promotion.rank,
        promotion_kinds: promotion.kinds,
        promotion_compulsory: keys.bool("promotion_compulsory", true)?,
        castling,
        chess960,
        check: keys.bool("check", true)?,
        pass: keys.bool("pass", false)?,
        stalemate,
        rules: keys.get("rules").map_or("plain", |x| x.0).to_ascii_lowercase(),
        rule_settings: keys.prefixed("rules."),
        eval_settings: keys.prefixed("eval."),
        move_rule,
        origin: Origin {
            file: file.to_string(),
            line: s.line,
            keys: s.keys.iter().map(|(k, (_, l))| (k.clone(), *l)).collect(),
        },
    })
}

/// The board: `board`, `holes`, `no_landing`.
fn build_geometry(keys: &Keys) -> Result<Geometry, IniError> {
    let (board, bl) = keys.need("board")?;
    let (w, h) = board
        .split_once('x')
        .and_then(|(a, b)| Some((a.trim().parse::<usize>().ok()?, b.trim().parse::<usize>().ok()?)))
        .ok_or_else(|| keys.fail(bl, format!("board: expected FILESxRANKS like 8x8, found '{board}'")))?;
    let mut geometry = Geometry::new(w, h).map_err(|e| keys.fail(bl, e))?;
    let holes = keys.squares("holes", &geometry)?;
    geometry.add_holes(holes);
    let nl = keys.squares("no_landing", &geometry)?;
    if (nl & !geometry.board).is_nonempty() {
        return Err(keys.fail(
            keys.get("no_landing").map_or(keys.s.line, |x| x.1),
            "no_landing: a square is also a hole".into(),
        ));
    }
    geometry.add_no_landing(nl);
    Ok(geometry)
}

/// The `piece` lines, in order (a `-` definition removes an inherited piece).
fn build_pieces(keys: &Keys) -> Result<Vec<PieceDef>, IniError> {
    let s = keys.s;
    let mut pieces = Vec::new();
    for (letter, def, ln) in &s.pieces {
        if def != "-" {
            pieces.push(build_piece(*letter, def, |m| keys.fail(*ln, m))?);
        }
    }
    if pieces.is_empty() {
        return Err(keys.fail(s.line, format!("variant '{}' has no pieces", s.name)));
    }
    if pieces.len() > MAX_KINDS {
        return Err(keys.fail(
            s.line,
            format!("variant '{}' has more than {MAX_KINDS} piece types", s.name),
        ));
    }
    Ok(pieces)
}

/// One piece from `NAME BETZA [royal] [pawn] [value=N] [xboard=BETZA]`.
fn build_piece(letter: char, def: &str, fail: impl Fn(String) -> IniError) -> Result<PieceDef, IniError> {
    let mut words = def.split_whitespace();
    let (Some(name), Some(betza_text)) = (words.next(), words.next()) else {
        return Err(fail(format!(
            "piece {letter}: expected 'piece = {letter} NAME BETZA [royal] [pawn] [value=N] [xboard=BETZA]'"
        )));
    };
    let dynamic = betza_text == "dynamic";
    let motions = if dynamic {
        Vec::new()
    } else {
        betza::parse(betza_text).map_err(|e| fail(format!("piece {letter} '{betza_text}': {e}")))?
    };
    let mut pd = PieceDef {
        letter,
        name: name.to_string(),
        betza: betza_text.to_string(),
        motions,
        flags: if dynamic {
            PieceFlags::DYNAMIC
        } else {
            PieceFlags::empty()
        },
        value: None,
        xboard: None,
    };
    for w in words {
        match w {
            "royal" => pd.flags |= PieceFlags::ROYAL,
            "pawn" => pd.flags |= PieceFlags::PAWN,
            _ if w.starts_with("xboard=") && w.len() > 7 => pd.xboard = Some(w[7..].to_string()),
            _ if w.starts_with("value=") => {
                pd.value = Some(w[6..].parse().map_err(|_| fail(format!("piece {letter}: bad {w}")))?)
            }
            _ => {
                return Err(fail(format!(
                    "piece {letter}: unknown flag '{w}' (royal, pawn, value=N, xboard=BETZA)"
                )));
            }
        }
    }
    if dynamic && (pd.is_royal() || pd.is_pawn()) {
        return Err(fail(format!(
            "piece {letter}: a dynamic piece cannot be royal or a pawn"
        )));
    }
    if !pd.is_pawn() && pd.motions.iter().any(|m| m.initial || m.en_passant) {
        return Err(fail(format!(
            "piece {letter}: 'i' and 'e' moves are only supported for pawns"
        )));
    }
    Ok(pd)
}

/// What a variant's pawns do: their initial ranks, the promotion rank and what they become.
struct Promotion {
    pawn_initial_ranks: Vec<usize>,
    rank: Option<usize>,
    kinds: Vec<usize>,
}

/// Pawns' initial ranks, the promotion rank and the pieces a pawn may become.
fn build_promotion(keys: &Keys, pieces: &[PieceDef], ranks: usize) -> Result<Promotion, IniError> {
    let pawn_initial_ranks = keys.ranks("pawn_initial_ranks", ranks)?;
    let promotion_rank = keys.ranks("promotion_rank", ranks)?;
    if promotion_rank.len() > 1 {
        return Err(keys.fail(
            keys.get("promotion_rank").expect("read above").1,
            "promotion_rank: give one rank".into(),
        ));
    }
    let promotion_rank = promotion_rank.first().copied();
    let mut promotion_kinds = Vec::new();
    if let Some((v, l)) = keys.get("promotion_pieces") {
        for c in v.chars().filter(|c| !c.is_whitespace()) {
            let k = pieces
                .iter()
                .position(|p| p.letter == c.to_ascii_uppercase())
                .ok_or_else(|| keys.fail(l, format!("promotion_pieces: no piece '{c}'")))?;
            if pieces[k].is_royal() || pieces[k].is_pawn() {
                return Err(keys.fail(
                    l,
                    format!("promotion_pieces: cannot promote to royal or pawn piece '{c}'"),
                ));
            }
            promotion_kinds.push(k);
        }
    }
    if pieces.iter().any(|p| p.is_pawn()) && promotion_rank.is_some() && promotion_kinds.is_empty() {
        return Err(keys.fail(
            keys.s.line,
            "promotion_rank is set but promotion_pieces is empty".into(),
        ));
    }
    Ok(Promotion {
        pawn_initial_ranks,
        rank: promotion_rank,
        kinds: promotion_kinds,
    })
}

/// The castling options: `castle_k` and `castle_q`, each a comma-separated list of
/// `KINGFROMKINGTO ROOKFROMROOKTO`.
fn build_castling(keys: &Keys, geometry: &Geometry, pieces: &[PieceDef]) -> Result<[Vec<CastleOption>; 2], IniError> {
    let mut castling: [Vec<CastleOption>; 2] = [Vec::new(), Vec::new()];
    for (i, k) in ["castle_k", "castle_q"].iter().enumerate() {
        let Some((v, l)) = keys.get(k) else { continue };
        for opt in v.split(',').map(str::trim).filter(|o| !o.is_empty()) {
            let o = castle_option(geometry, k, opt, |m| keys.fail(l, m))?;
            if castling[1 - i]
                .iter()
                .chain(&castling[i])
                .any(|x| x.king_from != o.king_from)
            {
                return Err(keys.fail(
                    l,
                    format!("{k}: every castling option must start from the same king square"),
                ));
            }
            if castling[i].iter().any(|x| x.rook_from != o.rook_from) {
                return Err(keys.fail(l, format!("{k}: options of one right must use the same rook")));
            }
            castling[i].push(o);
        }
    }
    if castling[0]
        .first()
        .zip(castling[1].first())
        .is_some_and(|(a, b)| a.rook_from == b.rook_from)
    {
        return Err(keys.fail(keys.s.line, "castle_k and castle_q use the same rook".into()));
    }
    if (castling[0].len() + castling[1].len()) > 0 && !pieces.iter().any(|p| p.is_royal()) {
        return Err(keys.fail(keys.s.line, "castling needs a royal piece".into()));
    }
    Ok(castling)
}

/// One castling option `opt` of key `k`, like `e1g1 h1f1`: king and rook on one rank.
fn castle_option(
    geometry: &Geometry,
    k: &str,
    opt: &str,
    fail: impl Fn(String) -> IniError,
) -> Result<CastleOption, IniError> {
    let toks: Vec<&str> = opt.split_whitespace().collect();
    let bad = || {
        fail(format!(
            "{k}: expected 'KINGFROMKINGTO ROOKFROMROOKTO' like 'e1g1 h1f1', found '{opt}'"
        ))
    };
    if toks.len() != 2 {
        return Err(bad());
    }
    let split = |t: &str| -> Option<(Square, Square)> {
        let b = t.as_bytes();
        let second = (1..b.len()).find(|&j| b[j].is_ascii_lowercase())?;
        Some((geometry.parse(&t[..second])?, geometry.parse(&t[second..])?))
    };
    let (kf, kt) = split(toks[0]).ok_or_else(bad)?;
    let (rf, rt) = split(toks[1]).ok_or_else(bad)?;
    let landable = geometry.landable();
    if ![kf, kt, rf, rt].iter().all(|s| landable.contains(*s)) {
        return Err(fail(format!("{k}: '{opt}' uses a square that does not exist")));
    }
    let rank = geometry.rank_of(kf);
    if kf == rf || kt == rt || [kt, rf, rt].iter().any(|s| geometry.rank_of(*s) != rank) {
        return Err(fail(format!(
            "{k}: '{opt}' is not a castling (king and rook on one rank)"
        )));
    }
    Ok(CastleOption {
        king_from: kf,
        king_to: kt,
        rook_from: rf,
        rook_to: rt,
    })
}
