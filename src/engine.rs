//! The protocol-neutral facade: a game session (position plus the moves played) behind a
//! trait object, so protocols handle any variant without knowing its rules module. The one
//! dynamic dispatch happens per command; search and move generation inside are monomorphised.

use crate::color::Color;
use crate::games::{self, AnyGame, GameVisitor};
use crate::moves::{Move, MoveForm, MoveKind, MoveList};
use crate::notation::{MoveError, move_text, parse_move, parse_xboard_move, write_move, xboard_text};
use crate::perft;
use crate::position::{Game, Position};
use crate::rules::{Capabilities, Rules};
use crate::search::{Iteration, Limits, Report, SearchResult, Searcher};
use crate::variant::Variant;
use std::sync::Arc;

/// How a game ended, by rule on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// White won, with the reason.
    WhiteWins(&'static str),
    /// Black won, with the reason.
    BlackWins(&'static str),
    /// Drawn, with the reason.
    Draw(&'static str),
}

impl Outcome {
    /// The PGN result token.
    pub fn result(&self) -> &'static str {
        match self {
            Outcome::WhiteWins(_) => "1-0",
            Outcome::BlackWins(_) => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }

    /// The reason in words.
    pub fn reason(&self) -> &'static str {
        match self {
            Outcome::WhiteWins(r) | Outcome::BlackWins(r) | Outcome::Draw(r) => r,
        }
    }
}

/// The game result if the game is over by rule in `pos` (mate, stalemate, king capture, 50
/// moves, threefold repetition), by the full rules (moves a GUI cannot show count too).
pub fn outcome<R: Rules>(pos: &mut Position<R>) -> Option<Outcome> {
    let mut list = MoveList::new();
    let shown = pos.special_moves_on();
    pos.set_special_moves(true);
    pos.legal_moves(&mut list);
    pos.set_special_moves(shown);
    let us = pos.side_to_move();
    let win_them = |r| {
        if us == Color::White {
            Outcome::BlackWins(r)
        } else {
            Outcome::WhiteWins(r)
        }
    };
    let win_us = |r| {
        if us == Color::White {
            Outcome::WhiteWins(r)
        } else {
            Outcome::BlackWins(r)
        }
    };
    if list.is_empty() {
        if pos.royals_gone(us) {
            return Some(win_them(if us == Color::White {
                "Black captures the king"
            } else {
                "White captures the king"
            }));
        }
        if pos.in_check() {
            return Some(win_them(if us == Color::White {
                "Black mates"
            } else {
                "White mates"
            }));
        }
        // Without check there is no stalemate as such: the side simply has no move.
        let why = if pos.variant().check {
            "Stalemate"
        } else {
            "No legal move"
        };
        return Some(match pos.variant().stalemate {
            crate::variant::StalemateResult::Draw => Outcome::Draw(why),
            crate::variant::StalemateResult::Loss => win_them(why),
            crate::variant::StalemateResult::Win => win_us(why),
        });
    }
    if pos.move_rule_reached() {
        return Some(Outcome::Draw("50 move rule"));
    }
    if pos.is_repetition(2) {
        return Some(Outcome::Draw("3-fold repetition"));
    }
    None
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
    fn set_fen(&mut self, fen: &str) -> Result<(), String>;
    /// Back to the start position.
    fn reset(&mut self);
    /// Plays a move given in MMN; the session is unchanged on error.
    fn play(&mut self, text: &str) -> Result<(), MoveError>;
    /// Plays a move given in XBoard's form (multi-leg `c2d4,d4c4`) or in MMN.
    fn play_xboard(&mut self, text: &str) -> Result<(), MoveError>;
    /// XBoard's form of a legal move given in MMN (the text itself when it is not legal).
    fn xboard_form(&mut self, text: &str) -> String;
    /// Takes back the last move; false when there is none.
    fn undo(&mut self) -> bool;
    /// Number of moves played since the set-up.
    fn moves_played(&self) -> usize;
    /// Full-move number of the current position.
    fn fullmove(&self) -> u32;
    /// Side to move.
    fn side_to_move(&self) -> Color;
    /// Legal moves as text.
    fn legal_moves(&mut self) -> Vec<String>;
    /// The game result if the game is over by rule (mate, stalemate, king capture, 50 moves,
    /// threefold repetition).
    fn outcome(&mut self) -> Option<Outcome>;
    /// Searches the current position; returns best move and expected reply as text.
    fn go(&mut self, searcher: &mut Searcher, limits: Limits, info: &mut InfoSink) -> (Option<String>, Option<String>);
    /// The game from its set-up as PGN: `tags` first (the Seven Tag Roster's others are
    /// filled with `?`), then `Result`, `Variant` (the variant's name) and `SetUp`/`FEN` when the game
    /// did not start from the variant's start position; moves in SAN or MMN ([`crate::pgn`]).
    fn pgn(&mut self, tags: &[(&str, &str)], result: &str) -> String;
    /// Plays a move written as PGN writes it (SAN or MMN) and returns its MMN; the session is
    /// unchanged on error.
    fn play_pgn(&mut self, text: &str) -> Result<String, String>;
    /// Restricts the next `go` to these moves (MMN or XBoard's form); an illegal or garbled
    /// one is an error and nothing is restricted.
    fn search_only(&mut self, searcher: &mut Searcher, moves: &[&str]) -> Result<(), MoveError>;
    /// Perft divide: (move text, count) per legal move.
    fn divide(&mut self, depth: u32) -> Vec<(String, u64)>;
    /// CECP highlight board for the piece on `square`: `Y` target, `R` capture, `M`
    /// promotion, `.` nothing. `None` when the square has no piece of the side to move.
    fn highlight(&mut self, square: &str) -> Option<String>;
    /// The highlight board for the second leg of the piece on `from` after its first leg
    /// ended on `via` (a capture on the way): where it may land. `None` when there is none.
    fn highlight_leg(&mut self, from: &str, via: &str) -> Option<String>;
    /// Static evaluation (centipawns, side to move).
    fn evaluate(&self) -> i32;
    /// A new session of the same game at its start position (the game data is shared).
    fn fresh(&self) -> Box<dyn Session>;
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
        for (i, &m) in pv.iter().enumerate() {
            if i > 0 {
                self.buf.push(' ');
            }
            write_move(self.buf, root, m);
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
}

impl<R: Rules> GameSession<R> {
    /// The position the game was set up from, as `played` starts from it.
    fn start_position(&self) -> Position<R> {
        let mut start = match Position::from_fen(Arc::clone(self.pos.game()), &self.start_fen) {
            Ok(p) => p,
            Err(_) => Position::startpos(Arc::clone(self.pos.game())),
        };
        start.set_special_moves(self.specials);
        start
    }

    /// The CECP highlight board of the piece on `square`: its targets, or with `via` the
    /// targets of its multi-leg moves through `via` (the second leg).
    fn marks(&mut self, square: &str, via: Option<&str>) -> Option<String> {
        let g = self.pos.variant().geometry.clone();
        let sq = g.parse(square)?;
        let via = match via {
            Some(v) => Some(g.parse(v)?),
            None => None,
        };
        let p = self.pos.piece_at(sq);
        if p.is_none() || p.color() != self.pos.side_to_move() {
            return None;
        }
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        let mut marks = vec![b'.'; g.size()];
        let rules = &self.pos.game().rules;
        for &m in list.iter().filter(|m| m.from() == sq) {
            let form = if m.kind() == MoveKind::Special {
                rules.special_form(m)
            } else {
                MoveForm::FromTo
            };
            match (form, via) {
                (MoveForm::Capture(v), None) => {
                    if marks[v.index()] == b'.' {
                        marks[v.index()] = b'C';
                    }
                    continue;
                }
                (MoveForm::Capture(v), Some(w)) if v == w => {
                    marks[m.to().index()] = b'R';
                    continue;
                }
                (MoveForm::FromTo, None) => {}
                _ => continue,
            }
            let t = self.pos.piece_at(m.to());
            let mark = if m.kind() == MoveKind::Promotion {
                b'M'
            } else if (t.is_some() && t.color() != p.color()) || m.kind() == MoveKind::EnPassant {
                b'R'
            } else {
                b'Y'
            };
            marks[m.to().index()] = mark;
        }
        if via.is_some() && marks.iter().all(|&c| c == b'.') {
            return None;
        }
        let mut s = String::new();
        for rank in (0..g.ranks()).rev() {
            let mut empty = 0;
            for file in 0..g.files() {
                let c = marks[rank * g.files() + file];
                if c == b'.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c as char);
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        Some(s)
    }
}

impl<R: Rules> Session for GameSession<R> {
    fn variant(&self) -> &Variant {
        self.pos.variant()
    }

    fn fen(&self) -> String {
        self.pos.fen()
    }

    fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        let mut pos = Position::from_fen(Arc::clone(self.pos.game()), fen).map_err(|e| e.to_string())?;
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

    fn play(&mut self, text: &str) -> Result<(), MoveError> {
        let m = parse_move(&mut self.pos, text)?;
        self.pos.make_move(m);
        self.played.push(m);
        Ok(())
    }

    fn play_xboard(&mut self, text: &str) -> Result<(), MoveError> {
        let m = parse_xboard_move(&mut self.pos, text)?;
        self.pos.make_move(m);
        self.played.push(m);
        Ok(())
    }

    fn xboard_form(&mut self, text: &str) -> String {
        match parse_move(&mut self.pos, text) {
            Ok(m) => xboard_text(&self.pos, m),
            Err(_) => text.to_string(),
        }
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

    fn legal_moves(&mut self) -> Vec<String> {
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        list.iter().map(|&m| move_text(&self.pos, m)).collect()
    }

    fn outcome(&mut self) -> Option<Outcome> {
        outcome(&mut self.pos)
    }

    fn go(&mut self, searcher: &mut Searcher, limits: Limits, info: &mut InfoSink) -> (Option<String>, Option<String>) {
        let mut report = TextReport {
            buf: &mut self.pv_text,
            sink: info,
        };
        let r: SearchResult = searcher.go(&mut self.pos, limits, &mut report);
        if r.best == Move::NONE {
            return (None, None);
        }
        let best = move_text(&self.pos, r.best);
        let ponder = (r.ponder != Move::NONE).then(|| {
            self.pos.make_move(r.best);
            let mut list = MoveList::new();
            self.pos.legal_moves(&mut list);
            let t = list.contains(&r.ponder).then(|| move_text(&self.pos, r.ponder));
            self.pos.unmake_move();
            t
        });
        (Some(best), ponder.flatten())
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

    fn play_pgn(&mut self, text: &str) -> Result<String, String> {
        if text == crate::pgn::PASS {
            if !self.pos.variant().pass {
                return Err(format!("{text}: this variant has no pass"));
            }
            self.pos.make_null();
            self.played.push(Move::NONE);
            return Ok("pass".into());
        }
        let m = crate::pgn::parse_move(&mut self.pos, text)?;
        let mmn = move_text(&self.pos, m);
        self.pos.make_move(m);
        self.played.push(m);
        Ok(mmn)
    }

    fn search_only(&mut self, searcher: &mut Searcher, moves: &[&str]) -> Result<(), MoveError> {
        let mut only = MoveList::new();
        for text in moves {
            let m =
                parse_move(&mut self.pos, text).or_else(|e| parse_xboard_move(&mut self.pos, text).map_err(|_| e))?;
            if !only.contains(&m) && !only.is_full() {
                only.push(m);
            }
        }
        searcher.search_only(&only);
        Ok(())
    }

    fn divide(&mut self, depth: u32) -> Vec<(String, u64)> {
        let res = perft::divide(&mut self.pos, depth.max(1), &mut |_, _, _, _| {});
        res.into_iter().map(|(m, n)| (move_text(&self.pos, m), n)).collect()
    }

    fn highlight(&mut self, square: &str) -> Option<String> {
        self.marks(square, None)
    }

    fn highlight_leg(&mut self, from: &str, via: &str) -> Option<String> {
        self.marks(from, Some(via))
    }

    fn evaluate(&self) -> i32 {
        self.pos.evaluate()
    }

    fn fresh(&self) -> Box<dyn Session> {
        let mut s = GameSession::new(Arc::clone(self.pos.game()));
        s.set_special_moves(self.specials);
        Box::new(s)
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
        .map(|(i, m)| s.play_pgn(m).map_err(|e| format!("move {} ({m}): {e}", i / 2 + 1)))
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
