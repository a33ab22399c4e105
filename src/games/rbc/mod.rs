//! Reconnaissance Blind Chess, per `../shared/rules/rbc.md`: the referee's semantics of
//! reconchess 1.6.9, the reference implementation.
//!
//! The true board is ordinary chess without check (`check = false` in `engine.ini`: a king is
//! captured and its side has lost) with castling that only needs the squares between king and
//! rook empty, which is what the generic generator does without check. What is RBC's own is
//! here: the moves a player may request (`move_actions`), how the referee turns a request into
//! the move that really happens (`revise`: sliders stop on the first enemy piece, blocked pawn
//! moves fail or shorten, an unqualified promotion is a queen), the capture square each side is
//! told, the 3x3 sense window, passes, and the end of the game (king capture, 100 half-moves).
//! Players never see the true board; a [`Referee`] holds it.

pub mod belief;
pub mod player;

use crate::color::Color;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Game, Piece, Position};
use crate::rules::{Capabilities, HiddenGame, Rules};
use crate::square::Square;
use crate::variant::Variant;
use std::sync::Arc;

/// RBC's rules module: nothing beyond the data on the board itself (the referee functions
/// below work on its positions).
#[derive(Clone, Debug)]
pub struct Rbc {
    pub(crate) queen: usize,
    pawn: usize,
    sliders: u32,
}

impl Rules for Rbc {
    type State = ();
    type Word = u64;

    const CAPABILITIES: Capabilities = Capabilities::HIDDEN_INFORMATION;

    fn hidden_player(game: Arc<Game<Rbc>>, fen: &str) -> Option<Result<Box<dyn HiddenGame>, String>> {
        Some(player::RbcGame::new(game, fen).map(|g| Box::new(g) as Box<dyn HiddenGame>))
    }

    fn new(variant: &Variant) -> Result<Self, String> {
        if variant.check {
            return Err("rbc rules need 'check = false' (kings are captured)".into());
        }
        let find = |b: &str| {
            variant
                .pieces
                .iter()
                .position(|p| p.betza == b && !p.is_royal() && !p.is_pawn())
        };
        let queen = find("Q").ok_or("rbc rules need a queen (Betza Q)")?;
        let pawn = variant
            .pieces
            .iter()
            .position(|p| p.is_pawn())
            .ok_or("rbc rules need a pawn")?;
        let mut sliders = 0;
        for (k, p) in variant.pieces.iter().enumerate() {
            if ["Q", "R", "B"].contains(&p.betza.as_str()) && !p.is_royal() {
                sliders |= 1 << k;
            }
        }
        Ok(Rbc { queen, pawn, sliders })
    }
}

/// A move a player asks for (reconchess `chess.Move`): from, to and a promotion piece kind.
/// It need not be a move of the true board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    /// Origin.
    pub from: Square,
    /// Destination (for castling: the king's, `e1g1`).
    pub to: Square,
    /// Promotion piece kind, if any.
    pub promo: Option<usize>,
}

impl Request {
    /// The request in UCI text (`e7e8q`).
    pub fn text(&self, v: &Variant) -> String {
        let g = &v.geometry;
        let mut s = g.name(self.from) + &g.name(self.to);
        if let Some(k) = self.promo {
            s.push(v.pieces[k].letter.to_ascii_lowercase());
        }
        s
    }

    /// Reads UCI text (`e2e4`, `a7a8n`); `None` when it is not a move of this board.
    pub fn parse(v: &Variant, text: &str) -> Option<Request> {
        let g = &v.geometry;
        if !text.is_ascii() || text.len() < 4 || text.len() > 5 {
            return None;
        }
        let from = g.parse(&text[..2])?;
        let to = g.parse(&text[2..4])?;
        let promo = match text[4..].chars().next() {
            None => None,
            Some(c) => Some(
                v.kind_of_letter(c.to_ascii_uppercase())
                    .filter(|k| v.promotion_kinds.contains(k))?,
            ),
        };
        Some(Request { from, to, promo })
    }

    fn of(m: Move) -> Request {
        Request {
            from: m.from(),
            to: m.to(),
            promo: (m.kind() == MoveKind::Promotion).then(|| m.extra()),
        }
    }
}

impl Rbc {
    /// reconchess `move_actions`: the pseudo-legal moves of the mover's pieces on the board
    /// without the opponent's pieces, plus every forward-diagonal pawn move onto a square
    /// without an own piece (on the last rank as the plain move and the four promotions).
    /// May hold duplicates, as reconchess's list does.
    pub fn move_actions(&self, pos: &Position<Self>) -> Vec<Request> {
        let us = pos.side_to_move();
        let mut own = pos.clone();
        for sq in pos.color_bb(!us) {
            own.remove_piece(sq);
        }
        own.st.ep = None;
        let mut list = MoveList::new();
        own.pseudo_legal_moves(&mut list);
        let mut out: Vec<Request> = list.iter().map(|&m| Request::of(m)).collect();
        let g = &pos.variant().geometry;
        let dr = if us == Color::White { 1 } else { -1 };
        let last = g.ranks() - 1;
        for from in pos.pieces(us, self.pawn) {
            for df in [-1, 1] {
                let Some(to) = g.offset(from, df, dr) else { continue };
                if pos.color_bb(us).contains(to) {
                    continue;
                }
                out.push(Request { from, to, promo: None });
                if g.relative_rank(us, to) == last {
                    for &k in &pos.variant().promotion_kinds {
                        out.push(Request {
                            from,
                            to,
                            promo: Some(k),
                        });
                    }
                }
            }
        }
        out
    }

    /// The request as the referee takes it: a pawn move to the last rank without a piece
    /// promotes to a queen.
    pub fn with_default_promotion(&self, pos: &Position<Self>, req: Request) -> Request {
        let p = pos.piece_at(req.from);
        let g = &pos.variant().geometry;
        if req.promo.is_none()
            && p.is_some()
            && p.kind() == self.pawn
            && g.relative_rank(p.color(), req.to) == g.ranks() - 1
        {
            return Request {
                promo: Some(self.queen),
                ..req
            };
        }
        req
    }

    /// The true-board move for `from`-`to`-`promo` if it is pseudo-legal (castling apart).
    fn pseudo_legal(list: &MoveList, from: Square, to: Square, promo: Option<usize>) -> Option<Move> {
        list.iter().copied().find(|m| {
            m.kind() != MoveKind::Castle
                && m.from() == from
                && m.to() == to
                && (m.kind() == MoveKind::Promotion).then(|| m.extra()) == promo
        })
    }

    /// reconchess `revise_move`: the move that really happens for a request from
    /// `move_actions` (default promotion already added), or `None` when it fails.
    pub fn revise(&self, pos: &Position<Self>, req: Request) -> Option<Move> {
        let mut list = MoveList::new();
        pos.pseudo_legal_moves(&mut list);
        let p = pos.piece_at(req.from);
        if p.is_none() || p.color() != pos.side_to_move() {
            return None;
        }
        // Castling: the king's two-square move (only the right and empty squares between king
        // and rook count).
        let castle = list
            .iter()
            .copied()
            .find(|m| m.kind() == MoveKind::Castle && m.from() == req.from && m.to() == req.to);
        if let Some(m) = castle {
            return Some(m);
        }
        if let Some(m) = Self::pseudo_legal(&list, req.from, req.to, req.promo) {
            return Some(m);
        }
        if self.is_castle_request(pos, req) {
            return None;
        }
        if p.kind() != self.pawn && self.sliders >> p.kind() & 1 == 0 {
            return None;
        }
        // Shorten: the destination, then the squares between, farthest first.
        let g = &pos.variant().geometry;
        let (df, dr) = (
            g.file_of(req.to) as i32 - g.file_of(req.from) as i32,
            g.rank_of(req.to) as i32 - g.rank_of(req.from) as i32,
        );
        let steps = df.abs().max(dr.abs());
        if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return None;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        for i in (1..steps).rev() {
            let sq = g.offset(req.from, sf * i, sr * i)?;
            if let Some(m) = Self::pseudo_legal(&list, req.from, sq, req.promo) {
                return Some(m);
            }
        }
        None
    }

    /// True for a king's castling request (a two-file king move on its home rank while that
    /// side still has the right).
    fn is_castle_request(&self, pos: &Position<Self>, req: Request) -> bool {
        let us = pos.side_to_move();
        let game = pos.game();
        (0..2).any(|right| {
            pos.st.castling.has(us, right)
                && game.castles[us.index()][right]
                    .iter()
                    .any(|c| c.sq.king_from == req.from && c.sq.king_to == req.to)
        })
    }

    /// The square where move `m` (about to be played) captures, if it does.
    pub fn capture_square(&self, pos: &Position<Self>, m: Move) -> Option<Square> {
        match m.kind() {
            MoveKind::EnPassant => Some(m.aux_square()),
            MoveKind::Castle => None,
            _ => {
                let t = pos.piece_at(m.to());
                (t.is_some() && t.color() != pos.side_to_move()).then(|| m.to())
            }
        }
    }
}

/// What a sense reveals: every square of the 3x3 window around `center` that lies on the
/// board, top rank first and left to right, with its piece (or [`Piece::NONE`]).
pub fn sense<R: Rules>(pos: &Position<R>, center: Square) -> Vec<(Square, Piece)> {
    let g = &pos.variant().geometry;
    let mut out = Vec::with_capacity(9);
    for dr in [1, 0, -1] {
        for df in [-1, 0, 1] {
            if let Some(s) = g.offset(center, df, dr) {
                out.push((s, pos.piece_at(s)));
            }
        }
    }
    out
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A king was captured; the winner.
    KingCapture(Color),
    /// 100 half-moves without a pawn move or capture (passes and failed moves count): a draw.
    MoveLimit,
}

/// What one turn did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnResult {
    /// The move that really happened (`None`: a pass or a failed request).
    pub taken: Option<Move>,
    /// Where it captured, if it did (told to both sides).
    pub capture: Option<Square>,
}

/// The referee: the true board of one game, turned by requests.
#[derive(Clone, Debug)]
pub struct Referee {
    pos: Position<Rbc>,
}

impl Referee {
    /// A referee for `pos` (the side to move acts first).
    pub fn new(pos: Position<Rbc>) -> Referee {
        Referee { pos }
    }

    /// The true board.
    pub fn position(&self) -> &Position<Rbc> {
        &self.pos
    }

    /// The requests the side to move may make.
    pub fn move_actions(&self) -> Vec<Request> {
        self.pos.game().rules.move_actions(&self.pos)
    }

    /// Plays the side to move's turn: a request (checked against `move_actions`) or a pass.
    /// A request outside `move_actions` is an error and changes nothing.
    pub fn play(&mut self, req: Option<Request>) -> Result<TurnResult, String> {
        let rules = self.pos.game().rules.clone();
        let taken = match req {
            None => None,
            Some(r) => {
                let r = rules.with_default_promotion(&self.pos, r);
                if !rules.move_actions(&self.pos).contains(&r) {
                    return Err(format!(
                        "requested move {} is not in move_actions",
                        r.text(self.pos.variant())
                    ));
                }
                rules.revise(&self.pos, r)
            }
        };
        let capture = taken.and_then(|m| rules.capture_square(&self.pos, m));
        match taken {
            Some(m) => self.pos.make_move(m),
            None => {
                // python-chess pushes a null move: the half-move clock runs on, the e.p. square
                // goes, and Black's pass ends a full move.
                let black = self.pos.side_to_move() == Color::Black;
                self.pos.make_null();
                if black {
                    self.pos.fullmove += 1;
                }
            }
        }
        Ok(TurnResult { taken, capture })
    }

    /// The end of the game, if it has come (checked before every turn).
    pub fn end(&self) -> Option<End> {
        for c in Color::ALL {
            if self.pos.royals_gone(c) {
                return Some(End::KingCapture(!c));
            }
        }
        (self.pos.halfmove() >= 100).then_some(End::MoveLimit)
    }
}

/// A line-based referee on standard input and output, for tests against reconchess and for
/// match runners: `fen FEN` (set up; `ok`), `actions` (the requestable moves, sorted, one line),
/// `play MOVE|pass` (`taken MOVE|none capture SQ|-`), `fen` (the true board's FEN),
/// `end` (`none`, `king white|black`, `movelimit`), `quit`. Errors are `error ...` lines and
/// change nothing.
pub fn serve_referee(variant: &Variant, input: impl std::io::BufRead, mut out: impl std::io::Write) {
    let game = match crate::position::Game::<Rbc>::new(variant) {
        Ok(g) => g,
        Err(e) => {
            let _ = writeln!(out, "error {e}");
            return;
        }
    };
    let mut referee = Referee::new(Position::startpos(std::sync::Arc::clone(&game)));
    for line in crate::lines::lines(input, crate::lines::MAX_LINE) {
        let line = match line.text(crate::lines::MAX_LINE) {
            Ok(line) => line,
            Err((why, text)) => {
                let _ = writeln!(out, "error {why}: {}", text.trim());
                let _ = out.flush();
                continue;
            }
        };
        let line = line.trim();
        let (cmd, arg) = line.split_once(' ').unwrap_or((line, ""));
        let reply = match (cmd, arg.trim()) {
            ("quit", _) => break,
            ("fen", "") => referee.position().fen(),
            ("fen", fen) => match Position::from_fen(std::sync::Arc::clone(&game), fen) {
                Ok(p) => {
                    referee = Referee::new(p);
                    "ok".into()
                }
                Err(e) => format!("error {e}"),
            },
            ("actions", _) => {
                let v = referee.position().variant();
                let mut texts: Vec<String> = referee.move_actions().iter().map(|r| r.text(v)).collect();
                texts.sort();
                texts.dedup();
                texts.join(" ")
            }
            ("play", text) => {
                let before = referee.position().clone();
                let request = if text == "pass" {
                    Ok(None)
                } else {
                    Request::parse(before.variant(), text)
                        .map(Some)
                        .ok_or_else(|| format!("error not a move: {text}"))
                };
                match request.and_then(|r| referee.play(r).map_err(|e| format!("error {e}"))) {
                    Ok(res) => format!(
                        "taken {} capture {}",
                        res.taken
                            .map_or("none".to_string(), |m| crate::notation::move_text(&before, m)),
                        res.capture
                            .map_or("-".to_string(), |s| before.variant().geometry.name(s))
                    ),
                    Err(e) => e,
                }
            }
            ("end", _) => match referee.end() {
                None => "none".into(),
                Some(End::KingCapture(c)) => format!("king {}", c.name().to_lowercase()),
                Some(End::MoveLimit) => "movelimit".into(),
            },
            _ => format!("error unknown command: {line}"),
        };
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }
}
