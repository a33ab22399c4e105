//! The protocol-neutral facade: a game session (position plus the moves played) behind a
//! trait object, so protocols handle any variant without knowing its rules module. The one
//! dynamic dispatch happens per command; search and move generation inside are monomorphised.

use crate::color::Color;
use crate::fen::FenError;
use crate::games::{self, AnyGame, GameVisitor};
use crate::moves::{Move, MoveForm, MoveKind, MoveList};
use crate::notation::{MoveError, move_text, parse_move, parse_xboard_move, write_move_by, xboard_text};
use crate::perft;
use crate::position::{BoardEnd, EndReason, Game, Position};
use crate::rules::{Capabilities, Rules};
use crate::search::{Iteration, Limits, Report, SearchResult, Searcher};
use crate::square::Square;
use crate::variant::Variant;
use std::sync::Arc;

/// How a game ended by rule on the board ([`Position::outcome`]), as values: the protocols
/// word it ([`Outcome::result`], [`Outcome::reason`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner and why.
    end: BoardEnd,
    /// Whether the variant has check (a side without a move is stalemated only then).
    check: bool,
}

impl Outcome {
    /// The winner; `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        self.end.winner
    }

    /// The PGN result token.
    pub fn result(&self) -> &'static str {
        match self.end.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The reason in the protocols' words.
    pub fn reason(&self) -> &'static str {
        self.end.win_words().unwrap_or(match self.end.reason {
            // Without check there is no stalemate as such: the side simply has no move.
            EndReason::NoMove if self.check => "Stalemate",
            EndReason::NoMove => "No legal move",
            EndReason::Repetition => "3-fold repetition",
            _ => "50 move rule",
        })
    }
}

/// A move the session found legal in its position (`Move::NONE`: a pass where the variant
/// has one), as [`Session::parse`], [`Session::check`] and [`Session::go`] give it and
/// [`Session::play`] takes it: a move read or found once is not checked again. It names its
/// position by the position's key, so a move of another position is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Legal {
    mv: Move,
    key: u64,
    /// Whether the rules module's own moves were on (a GUI that cannot show them turns them
    /// off; the key does not say).
    specials: bool,
}

impl Legal {
    /// The move.
    pub fn mv(self) -> Move {
        self.mv
    }
}

/// A pass (`--`) asked of a variant without one.
fn no_pass() -> MoveError {
    MoveError::Refused(crate::pgn::PASS.to_string(), "this variant has no pass")
}

/// How a move is written at an edge (a protocol, the browser, PGN); inside, moves are [`Move`]s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Menagerie move notation (`../shared/protocol.md` §3); UCI's coordinates for chess.
    Mmn,
    /// XBoard's form ([`xboard_text`]): a capture on the way or castling as legs; read as it
    /// or as MMN.
    Xboard,
    /// PGN's: SAN where the variant has it, MMN otherwise, `--` for a pass.
    Pgn,
}

/// A legal move as a board display sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveShape {
    /// Its written form (the victim's square of a capture on the way).
    pub form: MoveForm,
    /// True when it takes on its destination (en passant included).
    pub takes: bool,
    /// True for a promotion.
    pub promotes: bool,
}

/// Search output as the session hands it to a protocol: the iteration and the PV as text.
pub type InfoSink<'a> = dyn FnMut(&Iteration, &str) + 'a;

/// A game in progress, independent of its rules module.
pub trait Session: Send {
    /// The variant.
    fn variant(&self) -> &Variant;
    /// FEN of the current position.
    fn fen(&self) -> String;
    /// Sets up a FEN (the session is unchanged on error).
    fn set_fen(&mut self, fen: &str) -> Result<(), FenError>;
    /// Back to the start position.
    fn reset(&mut self);
    /// The legal move written as `text` in `notation` (a pass, `--`, in PGN's where the
    /// variant has one). The session is unchanged.
    fn parse(&mut self, text: &str, notation: Notation) -> Result<Legal, MoveError>;
    /// `m` checked against the legal moves here (`Move::NONE`: a pass where the variant has
    /// one), for moves that come as values (a board click, a stored line).
    fn check(&mut self, m: Move) -> Result<Legal, MoveError>;
    /// `m` (legal here) written in `notation`.
    fn write(&mut self, m: Move, notation: Notation) -> String;
    /// Plays `m`, a move found legal here; unchanged (an error) when it was found legal in
    /// another position.
    fn play(&mut self, m: Legal) -> Result<(), MoveError>;
    /// `line` (each move legal after the ones before it, from here) written in `notation`;
    /// the session is unchanged. The text stops at the first move that is not legal.
    fn write_line(&mut self, line: &[Move], notation: Notation) -> Vec<String> {
        let mut out = Vec::with_capacity(line.len());
        for &m in line {
            let Ok(legal) = self.check(m) else {
                break;
            };
            out.push(self.write(m, notation));
            self.play(legal).expect("legal here");
        }
        for _ in 0..out.len() {
            self.undo();
        }
        out
    }
    /// Reads and plays a move written in `notation`, for the edges that get text; returns it.
    fn play_text(&mut self, text: &str, notation: Notation) -> Result<Move, MoveError> {
        let m = self.parse(text, notation)?;
        self.play(m)?;
        Ok(m.mv())
    }
    /// Takes back the last move; false when there is none.
    fn undo(&mut self) -> bool;
    /// Number of moves played since the set-up.
    fn moves_played(&self) -> usize;
    /// Full-move number of the current position.
    fn fullmove(&self) -> u32;
    /// Side to move.
    fn side_to_move(&self) -> Color;
    /// The legal moves.
    fn legal_moves(&mut self) -> Vec<Move>;
    /// The legal moves in MMN, for the edges that show them.
    fn legal_texts(&mut self) -> Vec<String> {
        let moves = self.legal_moves();
        moves.into_iter().map(|m| self.write(m, Notation::Mmn)).collect()
    }
    /// The game result if the game is over by rule (mate, stalemate, king capture, 50 moves,
    /// threefold repetition).
    fn outcome(&mut self) -> Option<Outcome>;
    /// Searches the current position; returns the best move (legal here) and the expected
    /// reply (legal after it). The PV reaches `info` as MMN text.
    fn go(&mut self, searcher: &mut Searcher, limits: Limits, info: &mut InfoSink) -> (Option<Legal>, Option<Move>);
    /// The game from its set-up as PGN: `tags` first (the Seven Tag Roster's others are
    /// filled with `?`), then `Result`, `Variant` (the variant's name) and `SetUp`/`FEN` when the game
    /// did not start from the variant's start position; moves in SAN or MMN ([`crate::pgn`]).
    fn pgn(&mut self, tags: &[(&str, &str)], result: &str) -> String;
    /// Perft divide: (move, count) per legal move.
    fn divide(&mut self, depth: u32) -> Vec<(Move, u64)>;
    /// What a board display needs of legal move `m`: how it is written (a capture on the way
    /// names its victim), whether it takes on its destination, whether it promotes.
    fn shape(&self, m: Move) -> MoveShape;
    /// The colour of the piece on `sq`, if any.
    fn owner(&self, sq: Square) -> Option<Color>;
    /// Static evaluation (centipawns, side to move).
    fn evaluate(&self) -> i32;
    /// A new session of the same game at its start position (the game data is shared).
    fn fresh(&self) -> Box<dyn Session>;
    /// A copy of this session (position and moves), for a search on another thread.
    fn snapshot(&self) -> Box<dyn Session>;
    /// A player of the game's hidden information from `fen` (empty: the start position);
    /// `None` for games of full information.
    fn hidden(&self, fen: &str) -> Option<Result<Box<dyn HiddenGame>, String>>;
    /// Allows or forbids the rules module's own moves (a GUI that cannot show them). Returns
    /// true when the game has such moves.
    fn set_special_moves(&mut self, on: bool) -> bool;
    /// The pieces held off the board (a rules module's holdings), for a board to show.
    fn holdings(&self) -> Vec<crate::rules::Holding>;
    /// Each move since the set-up as PGN writes it (SAN or MMN) with the FEN after it, for a
    /// board's move list to show and browse.
    fn history(&self) -> Vec<(String, String)>;
    /// The squares of the side to move's royal pieces that stand in check (none in variants
    /// without check).
    fn checked(&self) -> Vec<String>;
}

pub use crate::rules::HiddenGame;

/// A session of one rules module.
#[derive(Clone)]
pub struct GameSession<R: Rules> {
    pos: Position<R>,
    start_fen: String,
    played: Vec<Move>,
    pv_text: String,
    specials: bool,
}

struct TextReport<'a, 'b> {
    buf: &'a mut String,
    sink: &'a mut InfoSink<'b>,
}

impl<R: Rules> Report<R> for TextReport<'_, '_> {
    fn iteration(&mut self, root: &Position<R>, info: &Iteration, pv: &[Move]) {
        self.buf.clear();
        // The moves alternate sides from the root; each is written as its mover's.
        let mut mover = root.side_to_move();
        for (i, &m) in pv.iter().enumerate() {
            if i > 0 {
                self.buf.push(' ');
            }
            write_move_by(self.buf, root, mover, m);
            mover = !mover;
        }
        (self.sink)(info, self.buf);
    }
}

impl<R: Rules> GameSession<R> {
    /// A session at the variant's start position.
    pub fn new(game: Arc<Game<R>>) -> GameSession<R> {
        let start_fen = game.variant.start_fen.clone();
        let pos = Position::startpos(game);
        GameSession {
            pos,
            start_fen,
            played: Vec::with_capacity(1024),
            pv_text: String::with_capacity(4096),
            specials: true,
        }
    }

    /// The position the game was set up from, as `played` starts from it.
    fn start_position(&self) -> Position<R> {
        let mut start = match Position::from_fen(Arc::clone(self.pos.game()), &self.start_fen) {
            Ok(p) => p,
            Err(_) => Position::startpos(Arc::clone(self.pos.game())),
        };
        start.set_special_moves(self.specials);
        start
    }

    /// `mv` as found legal in the current position.
    fn legal(&self, mv: Move) -> Legal {
        Legal {
            mv,
            key: self.pos.key(),
            specials: self.pos.special_moves_on(),
        }
    }
}

impl<R: Rules> Session for GameSession<R> {
    fn variant(&self) -> &Variant {
        self.pos.variant()
    }

    fn fen(&self) -> String {
        self.pos.fen()
    }

    fn set_fen(&mut self, fen: &str) -> Result<(), FenError> {
        let mut pos = Position::from_fen(Arc::clone(self.pos.game()), fen)?;
        pos.set_special_moves(self.specials);
        self.pos = pos;
        self.start_fen = fen.to_string();
        self.played.clear();
        Ok(())
    }

    fn reset(&mut self) {
        let game = Arc::clone(self.pos.game());
        self.start_fen = game.variant.start_fen.clone();
        self.pos = Position::startpos(game);
        self.pos.set_special_moves(self.specials);
        self.played.clear();
    }

    fn parse(&mut self, text: &str, notation: Notation) -> Result<Legal, MoveError> {
        let mv = match notation {
            Notation::Mmn => parse_move(&mut self.pos, text),
            Notation::Xboard => parse_xboard_move(&mut self.pos, text),
            Notation::Pgn if text == crate::pgn::PASS => return self.check(Move::NONE),
            Notation::Pgn => crate::pgn::parse_move(&mut self.pos, text),
        }?;
        Ok(self.legal(mv))
    }

    fn check(&mut self, m: Move) -> Result<Legal, MoveError> {
        if m == Move::NONE {
            return if self.pos.variant().pass {
                Ok(self.legal(m))
            } else {
                Err(no_pass())
            };
        }
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        if !list.contains(&m) {
            return Err(MoveError::Illegal(move_text(&self.pos, m)));
        }
        Ok(self.legal(m))
    }

    fn write(&mut self, m: Move, notation: Notation) -> String {
        match notation {
            Notation::Mmn => move_text(&self.pos, m),
            Notation::Xboard => xboard_text(&self.pos, m),
            Notation::Pgn if m == Move::NONE => crate::pgn::PASS.to_string(),
            Notation::Pgn => crate::pgn::move_text(&mut self.pos, m),
        }
    }

    fn play(&mut self, m: Legal) -> Result<(), MoveError> {
        if m.key != self.pos.key() || m.specials != self.pos.special_moves_on() {
            // Only its squares: the move may mean nothing here.
            let g = &self.pos.variant().geometry;
            let text = match m.mv {
                Move::NONE => crate::pgn::PASS.to_string(),
                mv => g.name(mv.from()) + &g.name(mv.to()),
            };
            return Err(MoveError::Refused(text, "found legal in another position"));
        }
        if m.mv == Move::NONE {
            self.pos.make_null();
        } else {
            self.pos.make_move(m.mv);
        }
        self.played.push(m.mv);
        Ok(())
    }

    fn undo(&mut self) -> bool {
        match self.played.pop() {
            Some(Move::NONE) => self.pos.unmake_null(),
            Some(_) => self.pos.unmake_move(),
            None => return false,
        }
        true
    }

    fn moves_played(&self) -> usize {
        self.played.len()
    }

    fn fullmove(&self) -> u32 {
        self.pos.fullmove()
    }

    fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    fn legal_moves(&mut self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        list.to_vec()
    }

    fn outcome(&mut self) -> Option<Outcome> {
        let end = self.pos.outcome()?;
        Some(Outcome {
            end,
            check: self.pos.variant().check,
        })
    }

    fn go(&mut self, searcher: &mut Searcher, limits: Limits, info: &mut InfoSink) -> (Option<Legal>, Option<Move>) {
        let mut report = TextReport {
            buf: &mut self.pv_text,
            sink: info,
        };
        let r: SearchResult = searcher.go(&mut self.pos, limits, &mut report);
        if r.best == Move::NONE {
            return (None, None);
        }
        let ponder = (r.ponder != Move::NONE).then(|| {
            self.pos.make_move(r.best);
            let legal = self.check(r.ponder).is_ok();
            self.pos.unmake_move();
            legal.then_some(r.ponder)
        });
        (Some(self.legal(r.best)), ponder.flatten())
    }

    fn history(&self) -> Vec<(String, String)> {
        let mut pos = self.start_position();
        let mut out = Vec::with_capacity(self.played.len());
        for &m in &self.played {
            if m == Move::NONE {
                pos.make_null();
                out.push((crate::pgn::PASS.to_string(), pos.fen()));
            } else {
                let text = crate::pgn::move_text(&mut pos, m);
                pos.make_move(m);
                out.push((text, pos.fen()));
            }
        }
        out
    }

    fn checked(&self) -> Vec<String> {
        if !self.pos.in_check() {
            return Vec::new();
        }
        let side = self.pos.side_to_move();
        let g = &self.pos.variant().geometry;
        self.pos
            .royals(side)
            .filter(|&k| self.pos.game().royal_forbidden.contains(k) || self.pos.is_attacked(k, !side))
            .map(|k| g.name(k))
            .collect()
    }

    fn pgn(&mut self, tags: &[(&str, &str)], result: &str) -> String {
        let mut out = String::new();
        for name in ["Event", "Site", "Date", "Round", "White", "Black"] {
            let value = tags.iter().find(|t| t.0 == name).map_or("?", |t| t.1);
            out.push_str(&format!("[{name} \"{}\"]\n", pgn_escape(value)));
        }
        out.push_str(&format!("[Result \"{result}\"]\n"));
        out.push_str(&format!("[Variant \"{}\"]\n", self.pos.variant().name));
        let mut start = self.start_position();
        let start_fen = start.fen();
        if start_fen != Position::startpos(Arc::clone(self.pos.game())).fen() {
            out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{start_fen}\"]\n"));
        }
        for (name, value) in tags {
            if ![
                "Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "SetUp", "FEN",
            ]
            .contains(name)
            {
                out.push_str(&format!("[{name} \"{}\"]\n", pgn_escape(value)));
            }
        }
        out.push('\n');
        out.push_str(&crate::pgn::write_movetext(&mut start, &self.played, result));
        out.push('\n');
        out
    }

    fn divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        perft::divide(&mut self.pos, depth.max(1), &mut |_, _, _, _| {})
    }

    fn shape(&self, m: Move) -> MoveShape {
        let form = if m.kind() == MoveKind::Special {
            self.pos.game().rules.special_form(m)
        } else {
            MoveForm::FromTo
        };
        let t = self.pos.piece_at(m.to());
        MoveShape {
            form,
            takes: (t.is_some() && t.color() != self.pos.side_to_move()) || m.kind() == MoveKind::EnPassant,
            promotes: m.kind() == MoveKind::Promotion,
        }
    }

    fn owner(&self, sq: Square) -> Option<Color> {
        let p = self.pos.piece_at(sq);
        p.is_some().then(|| p.color())
    }

    fn evaluate(&self) -> i32 {
        self.pos.evaluate()
    }

    fn fresh(&self) -> Box<dyn Session> {
        let mut s = GameSession::new(Arc::clone(self.pos.game()));
        s.set_special_moves(self.specials);
        Box::new(s)
    }

    fn snapshot(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }

    fn hidden(&self, fen: &str) -> Option<Result<Box<dyn HiddenGame>, String>> {
        R::hidden_player(Arc::clone(self.pos.game()), fen)
    }

    fn holdings(&self) -> Vec<crate::rules::Holding> {
        self.pos.game().rules.holdings(self.pos.rule_state())
    }

    fn set_special_moves(&mut self, on: bool) -> bool {
        self.specials = on;
        self.pos.set_special_moves(on);
        self.pos.game().caps.contains(Capabilities::SPECIAL_MOVES)
    }
}

struct NewSession;

impl GameVisitor for NewSession {
    type Output = Box<dyn Session>;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Box<dyn Session> {
        Box::new(GameSession::new(game))
    }
}

fn pgn_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// True when a PGN `Variant` tag names `v`: its name or an alias, case, spaces and hyphens
/// ignored (`Los Alamos`, `Chess960`, `Standard`).
pub fn pgn_names(tag: &str, v: &Variant) -> bool {
    let key = |s: &str| s.to_ascii_lowercase().replace([' ', '-'], "");
    let tag = key(tag);
    key(&v.name) == tag || v.aliases.iter().any(|a| key(a) == tag)
}

/// Plays a move written as PGN writes it (SAN or MMN, `--` a pass) and returns its MMN
/// (`pass` for a pass); `s` is unchanged on error.
pub fn play_pgn(s: &mut dyn Session, text: &str) -> Result<String, MoveError> {
    let m = s.parse(text, Notation::Pgn)?;
    let mmn = if m.mv() == Move::NONE {
        "pass".to_string()
    } else {
        s.write(m.mv(), Notation::Mmn)
    };
    s.play(m)?;
    Ok(mmn)
}

/// Sets `s` up from a PGN game's `FEN` tag (if any) and plays its moves. Returns the FEN it
/// started from and the moves in MMN; the error names the first problem (the FEN, or a move
/// with its number), and `s` may then be left part-way.
pub fn replay_pgn(s: &mut dyn Session, game: &crate::pgn::PgnGame) -> Result<(String, Vec<String>), String> {
    if let Some(fen) = game.tag("FEN") {
        s.set_fen(fen.trim()).map_err(|e| format!("FEN tag: {e}"))?;
    }
    let start = s.fen();
    let moves = game
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| play_pgn(s, m).map_err(|e| format!("move {} ({m}): {e}", i / 2 + 1)))
        .collect::<Result<_, _>>()?;
    Ok((start, moves))
}

/// The position after the last game of PGN `text`: a session of the game's `Variant` tag
/// (looked up in `set`; without the tag, `current`'s variant), set up from its `FEN` tag and
/// with its moves played. The error names the game's first problem.
pub fn session_from_pgn(set: &games::Catalog, current: &dyn Session, text: &str) -> Result<Box<dyn Session>, String> {
    let games = crate::pgn::read_games(text)?;
    let game = games.last().ok_or("no game in the PGN")?;
    let mut s = match game.tag("Variant") {
        Some(name) => {
            let v = set
                .variants
                .iter()
                .find(|v| pgn_names(name, v))
                .ok_or_else(|| format!("unknown variant '{name}' in the PGN"))?;
            new_session(v)
        }
        None => current.fresh(),
    };
    replay_pgn(&mut *s, game)?;
    Ok(s)
}

/// A session for a variant, at its start position.
pub fn new_session(game: &AnyGame) -> Box<dyn Session> {
    games::dispatch(game, NewSession)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Iteration;

    /// A principal variation with both sides castling in Chess960: each castling names its
    /// own side's rook (once Black's was written with White's, `e8h1`).
    #[test]
    fn a_pv_writes_each_castling_as_its_movers() {
        let games::AnyGame::Plain(game) = games::default_variants().get("chess960").expect("built in").clone() else {
            panic!("chess960 is a plain variant");
        };
        let mut pos = Position::from_fen(game, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1").unwrap();
        let root = pos.clone();
        let castle_k = |pos: &mut Position<crate::rules::Plain>| {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            *list
                .iter()
                .find(|m| m.kind() == MoveKind::Castle && m.castle_option().0 == 0)
                .expect("O-O is legal")
        };
        let white = castle_k(&mut pos);
        pos.make_move(white);
        let black = castle_k(&mut pos);
        let (mut buf, mut seen) = (String::new(), String::new());
        let mut sink = |_: &Iteration, pv: &str| seen = pv.to_string();
        let mut report = TextReport {
            buf: &mut buf,
            sink: &mut sink,
        };
        let info = Iteration {
            depth: 2,
            seldepth: 2,
            score: 0,
            nodes: 0,
            millis: 0,
            hashfull: 0,
            multipv: 1,
        };
        report.iteration(&root, &info, &[white, black]);
        assert_eq!(seen, "e1h1 e8h8");
    }

    /// A move read or checked once is played without a second check, but only in the
    /// position it was found legal in; `check` refuses what is not legal, a pass included.
    #[test]
    fn a_legal_move_is_played_only_where_it_was_found_legal() {
        let mut s = new_session(games::default_variants().get("chess").expect("built in"));
        let e4 = s.parse("e2e4", Notation::Mmn).expect("legal");
        let d4 = s.parse("d2d4", Notation::Mmn).expect("legal");
        s.play(e4).expect("found legal here");
        let fen = s.fen();
        assert_eq!(
            s.play(d4),
            Err(MoveError::Refused("d2d4".into(), "found legal in another position"))
        );
        assert_eq!((s.fen(), s.moves_played()), (fen, 1));
        assert!(matches!(s.check(e4.mv()), Err(MoveError::Illegal(_))));
        assert!(s.check(Move::NONE).is_err(), "chess has no pass");
        assert_eq!(s.parse("--", Notation::Pgn), Err(no_pass()));
        let e5 = s.parse("e7e5", Notation::Mmn).expect("legal");
        assert_eq!(s.check(e5.mv()), Ok(e5));
        // Found with the rules module's own moves on, which a GUI has turned off since.
        s.set_special_moves(false);
        assert!(s.play(e5).is_err());
        s.set_special_moves(true);
        s.play(e5).expect("found legal here");
        assert_eq!(s.moves_played(), 2);
    }
}
