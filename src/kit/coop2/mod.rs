//! Cooperative Chess 2 (rules section 4): two partners, one per colour (or one player, the
//! solitaire), play cards to a shared line; a capture needs the two pieces' cards side by side
//! in it. The team scores a point per capture and ten per piece type gone from the board, and
//! must end by capturing a king before the cards run out. Each step of a turn is one action;
//! the draws are chance. Notation: `docs/table-games.md`.

use super::board::{name, parse_sq};
use super::chess::{self, promotion};
use crate::Color;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Game, Piece, Position};
use crate::rules::Plain;
use crate::square::Square;
use crate::table::mcts::{Belief, ReadOnce};
use crate::table::seats::Seat;
use crate::table::{
    Actor, Chance, FieldKind, GameInfo, Information, Outcome, Setting, Settings, TableGame, Tally, Utility,
};
use arrayvec::ArrayVec;
use std::fmt;
use std::sync::Arc;

/// The 32 chess cards: per colour 8 P, 2 N, 2 B, 2 R, Q, K (upper case White).
const DECK: &[char; 32] = &[
    'P', 'P', 'P', 'P', 'P', 'P', 'P', 'P', 'N', 'N', 'B', 'B', 'R', 'R', 'Q', 'K', 'p', 'p', 'p', 'p', 'p', 'p', 'p',
    'p', 'n', 'n', 'b', 'b', 'r', 'r', 'q', 'k',
];
/// Piece types in the order their "type gone" bonus is counted.
const TYPES: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];

/// Cards in one place (a hand, the line, the draw pile, the discard): at most the deck.
pub type Pile = ArrayVec<char, 32>;

/// A promotion's cards: the line index (1-based) of the own pawn card spent, and where the new
/// type's card goes (1-based, in the line after the spent cards left it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Promo {
    pawn_card: usize,
    insert: usize,
}

/// A chess move as its text names it: from, to (the king's square when castling) and the
/// promotion letter (`e2e4`, `e7e8q`).
#[derive(Clone, Copy, Debug, Eq)]
pub struct Step {
    from: Square,
    to: Square,
    promo: Option<char>,
    /// The generator's move for this step where it made it: a shortcut to playing it again,
    /// not part of the step.
    made: Move,
}

impl PartialEq for Step {
    fn eq(&self, o: &Step) -> bool {
        (self.from, self.to, self.promo) == (o.from, o.to, o.promo)
    }
}

impl std::hash::Hash for Step {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.from, self.to, self.promo).hash(h);
    }
}

impl Step {
    /// The step of move `m` in `pos`.
    fn of(pos: &Position<Plain>, m: Move) -> Step {
        Step {
            from: m.from(),
            to: m.to(),
            promo: promotion(pos, m),
            made: m,
        }
    }

    /// Reads `e2e4` or `e7e8q`.
    fn parse(t: &str) -> Option<Step> {
        let square = |s: &str| parse_sq(s).map(Square::new);
        let promo = match t.get(4..)? {
            "" => None,
            p if p.len() == 1 && "nbrq".contains(p) => p.chars().next(),
            _ => return None,
        };
        Some(Step {
            from: square(t.get(0..2)?)?,
            to: square(t.get(2..4)?)?,
            promo,
            made: Move::NONE,
        })
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", name(self.from.index()), name(self.to.index()))?;
        match self.promo {
            Some(p) => write!(f, "{p}"),
            None => Ok(()),
        }
    }
}

/// An action of Cooperative Chess 2.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Chance: the card drawn (`draw q`).
    Draw(char),
    /// A hand card to the end of the line (`play P`).
    Play(char),
    /// No quiet move (`pass`).
    Pass,
    /// The quiet move (`e2e4`, castling `e1g1`, `e7e8q p2 i1`).
    Quiet(Step, Option<Promo>),
    /// A capture and the line index of the captured piece's card (`d5e4 x3`, `d7e8q x3 p2 i1`).
    Capture(Step, usize, Option<Promo>),
    /// No more captures this turn (`end`).
    End,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let promo = |f: &mut fmt::Formatter<'_>, p: &Option<Promo>| match p {
            Some(p) => write!(f, " p{} i{}", p.pawn_card, p.insert),
            None => Ok(()),
        };
        match self {
            Action::Draw(c) => write!(f, "draw {c}"),
            Action::Play(c) => write!(f, "play {c}"),
            Action::Pass => write!(f, "pass"),
            Action::Quiet(m, p) => {
                write!(f, "{m}")?;
                promo(f, p)
            }
            Action::Capture(m, x, p) => {
                write!(f, "{m} x{x}")?;
                promo(f, p)
            }
            Action::End => write!(f, "end"),
        }
    }
}

/// What an action did, as its public event says.
#[derive(Clone, Debug)]
enum Event {
    /// A card drawn, to the line (shown) or to a hand.
    Drawn(char, bool),
    Played(char),
    NoQuiet,
    Moved(Action),
    /// A capture, the captured piece's card, and whether it ended the game (a king).
    Took(Action, char, bool),
    TurnEnd,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Drawn(card, true) => write!(f, "card to the line: {card}"),
            Event::Drawn(_, false) => write!(f, "card to the hand"),
            Event::Played(card) => write!(f, "plays {card}"),
            Event::NoQuiet => write!(f, "no quiet move"),
            Event::Moved(a) => write!(f, "{a}"),
            Event::Took(a, card, end) => write!(f, "{a} takes {card}{}", if *end { ": end" } else { "" }),
            Event::TurnEnd => write!(f, "end of turn"),
        }
    }
}

/// The step that comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Chance deals to a seat's hand (before the first turn).
    Deal(usize),
    /// Chance draws to a seat's hand after its turn.
    Refill(usize),
    /// Chance draws the solitaire's card to the line.
    DrawLine,
    /// The player plays a hand card.
    Play,
    /// The optional quiet move.
    Quiet,
    /// Captures, then `end`.
    Capture,
    /// The game is over.
    Over,
}

/// The game's open questions, as settings.
#[derive(Clone, Copy, Debug)]
struct Rules {
    solitaire: bool,
    /// King cards go straight to the line (else they are held like any card).
    kings_to_line: bool,
    /// A move may leave the own king attacked (the later revision).
    into_check: bool,
    /// Which captures the line allows must be made.
    forced: Forced,
}

/// `captures=optional|forced|king`: whether a capture the line allows must be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Forced {
    /// None must (the rule book: moves are optional).
    Optional,
    /// Every one: `end` only when none is left.
    All,
    /// Only taking a king (the author's variant): when the line allows one, `end` is not offered.
    King,
}

/// The whole state of a game.
#[derive(Clone)]
pub struct Coop2 {
    /// The board; its side to move is the player of the turn.
    pos: Position<Plain>,
    /// En passant, per colour of the pawn that double-stepped: the square it passed, open
    /// through the other colour's next turn.
    ep: [Option<Square>; 2],
    phase: Phase,
    hands: [Pile; 2],
    /// The draw pile (order is chance).
    deck: Pile,
    line: Pile,
    discard: Pile,
    captures: u32,
    turns: u32,
    rules: Rules,
    end: Option<Outcome>,
    ending: &'static str,
    game: Arc<Game<Plain>>,
}

fn card_of(pos: &Position<Plain>, p: Piece) -> char {
    let l = pos.variant().pieces[p.kind()].letter.to_ascii_uppercase();
    if p.color() == Color::White {
        l
    } else {
        l.to_ascii_lowercase()
    }
}

/// Takes the first `card` out of `pile` (`None` when it holds none).
fn take_card(pile: &mut Pile, card: char) -> Option<char> {
    let i = pile.iter().position(|&d| d == card)?;
    Some(pile.remove(i))
}

fn own(c: Color, kind: char) -> char {
    if c == Color::White {
        kind
    } else {
        kind.to_ascii_lowercase()
    }
}

impl Coop2 {
    /// A game at the chess start, cards still to deal. Settings: `seats=2|1` (1: the
    /// solitaire), `kings=line|hold` (king cards straight to the line, the rule, or held),
    /// `check=forbid|allow` (may a move leave the own king attacked: the proposal forbids, the
    /// later revision allows), `captures=optional|forced|king` (king: only taking a king is forced).
    pub fn new(settings: &Settings) -> Result<Coop2, String> {
        let v = INFO.read_settings(settings)?;
        let game = chess::plain_game("chess")?;
        let rules = Rules {
            solitaire: v[0] == "1",
            kings_to_line: v[1] == "line",
            into_check: v[2] == "allow",
            forced: match v[3] {
                "forced" => Forced::All,
                "king" => Forced::King,
                _ => Forced::Optional,
            },
        };
        Ok(Coop2 {
            pos: Position::startpos(Arc::clone(&game)),
            ep: [None, None],
            phase: if rules.solitaire {
                Phase::DrawLine
            } else {
                Phase::Deal(0)
            },
            hands: [Pile::new(), Pile::new()],
            deck: Pile::from(*DECK),
            line: Pile::new(),
            discard: Pile::new(),
            captures: 0,
            turns: 0,
            rules,
            end: None,
            ending: "",
            game,
        })
    }

    /// [`Coop2::new`] behind the table interface.
    pub fn boxed(settings: &Settings) -> Result<Box<dyn crate::table::Table>, String> {
        Ok(Box::new(Coop2::new(settings)?))
    }

    /// The colour of the turn.
    pub fn turn(&self) -> Color {
        self.pos.side_to_move()
    }

    fn seat_of(&self, c: Color) -> usize {
        if self.rules.solitaire { 0 } else { c.index() }
    }

    /// The board with the side of the turn to move and en passant if the turn may take it.
    fn mover_pos(&self) -> Position<Plain> {
        let mut p = self.pos.clone();
        // The other colour's double step may be taken; ours is for the partner's next turn.
        p.set_turn(self.turn(), self.ep[(!self.turn()).index()], self.pos.fullmove());
        p
    }

    /// The turn's moves by the chess rules (legal, or with `check=allow` pseudo-legal).
    fn chess_moves(&self, p: &mut Position<Plain>, list: &mut MoveList) {
        list.clear();
        if self.rules.into_check {
            p.pseudo_legal_moves(list);
        } else {
            p.legal_moves(list);
        }
    }

    /// Line indices (1-based) of a `victim` card next to a `mover` card.
    fn usable(&self, mover: char, victim: char) -> impl Iterator<Item = usize> + '_ {
        let line = &self.line;
        (0..line.len())
            .filter(move |&i| {
                line[i] == victim && ((i > 0 && line[i - 1] == mover) || (i + 1 < line.len() && line[i + 1] == mover))
            })
            .map(|i| i + 1)
    }

    /// The promotions a pawn of `c` may make, with `x` (a captured card's index) left out.
    fn promos(&self, c: Color, promo: char, x: Option<usize>) -> Vec<Promo> {
        if !self.discard.contains(&own(c, promo.to_ascii_uppercase())) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (i, &card) in self.line.iter().enumerate() {
            if card != own(c, 'P') || Some(i + 1) == x {
                continue;
            }
            let left = self.line.len() - 1 - usize::from(x.is_some());
            for insert in 1..=left + 1 {
                out.push(Promo {
                    pawn_card: i + 1,
                    insert,
                });
            }
        }
        out
    }

    /// The enemy king's square if `c` attacks it, with the attackers.
    fn king_captures(&self, p: &Position<Plain>) -> Vec<(Square, Square)> {
        let c = self.turn();
        let mut out = Vec::new();
        let kings = (0..p.variant().pieces.len()).filter(|&k| p.variant().pieces[k].is_royal());
        let g = &p.variant().geometry;
        let last = if c == Color::White { g.ranks() - 1 } else { 0 };
        for k in kings {
            for ksq in p.pieces(!c, k) {
                for from in p.attackers_to(ksq, c, p.occupied()) {
                    // A pawn reaches the last rank only by promoting: the move generator's
                    // promotion captures carry that, with its cards.
                    let pawn = card_of(p, p.piece_at(from)).eq_ignore_ascii_case(&'P');
                    if !(pawn && g.rank_of(ksq) == last) {
                        out.push((from, ksq));
                    }
                }
            }
        }
        out
    }

    /// The captures the line allows now: those of other pieces, then those of a king.
    fn captures_now(&self) -> (Vec<Action>, Vec<Action>) {
        let mut p = self.mover_pos();
        let c = self.turn();
        let mut out = Vec::new();
        let mut list = MoveList::new();
        self.chess_moves(&mut p, &mut list);
        for &m in list.iter() {
            let victim = match m.kind() {
                MoveKind::EnPassant => p.piece_at(m.aux_square()),
                MoveKind::Castle => continue,
                _ => p.piece_at(m.to()),
            };
            if victim.is_none() || victim.color() == c {
                continue;
            }
            let mover = card_of(&p, p.piece_at(m.from()));
            let step = Step::of(&p, m);
            for x in self.usable(mover, card_of(&p, victim)) {
                match step.promo {
                    Some(t) => out.extend(
                        self.promos(c, t, Some(x))
                            .into_iter()
                            .map(|pr| Action::Capture(step, x, Some(pr))),
                    ),
                    None => out.push(Action::Capture(step, x, None)),
                }
            }
        }
        let mut kings = Vec::new();
        for (from, ksq) in self.king_captures(&p) {
            let mover = card_of(&p, p.piece_at(from));
            let step = Step {
                from,
                to: ksq,
                promo: None,
                made: Move::NONE,
            };
            for x in self.usable(mover, card_of(&p, p.piece_at(ksq))) {
                kings.push(Action::Capture(step, x, None));
            }
        }
        (out, kings)
    }

    fn quiet_now(&self) -> Vec<Action> {
        let mut p = self.mover_pos();
        let c = self.turn();
        let mut out = Vec::with_capacity(48);
        out.push(Action::Pass);
        let mut list = MoveList::new();
        self.chess_moves(&mut p, &mut list);
        for &m in list.iter() {
            let capture =
                m.kind() == MoveKind::EnPassant || (m.kind() != MoveKind::Castle && p.piece_at(m.to()).is_some());
            if capture {
                continue;
            }
            let step = Step::of(&p, m);
            match step.promo {
                Some(t) => out.extend(
                    self.promos(c, t, None)
                        .into_iter()
                        .map(|pr| Action::Quiet(step, Some(pr))),
                ),
                None => out.push(Action::Quiet(step, None)),
            }
        }
        out
    }

    /// Plays chess move `step` of the turn's side; returns the captured card, if any.
    fn play_move(&mut self, step: Step) -> Result<Option<char>, String> {
        let mut p = self.mover_pos();
        let m = match self.known_move(&mut p, step) {
            Some(m) => m,
            None => {
                let mut list = MoveList::new();
                self.chess_moves(&mut p, &mut list);
                list.into_iter()
                    .find(|&m| Step::of(&p, m) == step)
                    .ok_or("not a move here")?
            }
        };
        let victim = match m.kind() {
            MoveKind::EnPassant => Some(p.piece_at(m.aux_square())),
            MoveKind::Castle => None,
            _ => Some(p.piece_at(m.to())).filter(|v| v.is_some()),
        };
        let card = victim.map(|v| card_of(&p, v));
        let c = self.turn();
        let fullmove = p.fullmove();
        // En passant stays open through the next turn while the pawn stands (the proposal).
        if m.kind() == MoveKind::DoubleStep {
            self.ep[c.index()] = Some(m.aux_square());
        }
        p.make_move(m);
        // Back to the turn's side: the turn goes on, and so does its move number.
        self.pos = p;
        self.set_side(c, fullmove);
        Ok(card)
    }

    /// The move `step` was made from, when it is a plain move (not castling or en passant) of
    /// the turn's moves in `p`: playing it needs no search of the whole list.
    fn known_move(&self, p: &mut Position<Plain>, step: Step) -> Option<Move> {
        let m = step.made;
        // Not plain (castling, en passant) or none: `is_plain_pseudo_legal` says no. A hint
        // that is not the step's own move is refused too.
        if !p.is_plain_pseudo_legal(m) || Step::of(p, m) != step {
            return None;
        }
        if !self.rules.into_check {
            let us = p.side_to_move();
            p.make_move(m);
            let exposed = p.royal_in_danger(us);
            p.unmake_move();
            if exposed {
                return None;
            }
        }
        Some(m)
    }

    /// Gives the move to `c` (a new turn, or the same side after one of its moves) with the
    /// FEN move number `fullmove`; the half-move clock runs on.
    fn set_side(&mut self, c: Color, fullmove: u32) {
        if self.pos.side_to_move() != c || self.pos.fullmove() != fullmove {
            self.pos.set_turn(c, None, fullmove);
        }
    }

    /// `Err` unless the promotion cards `pr` fit the move `m` of a pawn of `c` (with `x`, the
    /// captured card's index, left out): a promotion spends cards, another move none.
    fn check_promo(&self, c: Color, m: Step, pr: Option<Promo>, x: Option<usize>) -> Result<(), String> {
        match (pr, m.promo) {
            (None, None) => Ok(()),
            (Some(pr), Some(kind)) if self.promos(c, kind, x).contains(&pr) => Ok(()),
            (Some(_), Some(_)) => Err("no such pawn card in the line, or no such type in the discard".into()),
            (None, Some(_)) => Err("a promotion spends a pawn card (p N i N)".into()),
            (Some(_), None) => Err("only a promotion spends cards".into()),
        }
    }

    /// Spends the cards of promotion `pr` (checked by [`Coop2::check_promo`]).
    fn apply_promo(&mut self, c: Color, kind: char, pr: Promo, x: Option<usize>) {
        // Remove the captured card (if any) and the pawn card, by their indices before either.
        let mut idx: Vec<usize> = vec![pr.pawn_card - 1];
        idx.extend(x.map(|x| x - 1));
        idx.sort_unstable_by(|a, b| b.cmp(a));
        for i in idx {
            let card = self.line.remove(i);
            self.discard.push(card);
        }
        let t = own(c, kind.to_ascii_uppercase());
        take_card(&mut self.discard, t).expect("check_promo found the card in the discard");
        self.line.insert((pr.insert - 1).min(self.line.len()), t);
    }

    /// Points now: captures plus ten per piece type with no piece left on the board.
    pub fn score(&self) -> u32 {
        let gone = TYPES
            .iter()
            .filter(|&&t| {
                !self
                    .pos
                    .occupied()
                    .into_iter()
                    .any(|s| card_of(&self.pos, self.pos.piece_at(s)).to_ascii_uppercase() == t)
            })
            .count() as u32;
        self.captures + 10 * gone
    }

    fn finish(&mut self, king_taken: bool) {
        self.phase = Phase::Over;
        let score = self.score();
        let (result, reason) = if !king_taken {
            ("loss", format!("cards ran out: {score} points"))
        } else if score < 32 {
            ("loss", format!("king captured: {score} points, below 32"))
        } else if score > 50 {
            ("great", format!("king captured: {score} points"))
        } else {
            ("win", format!("king captured: {score} points"))
        };
        self.ending = if king_taken { "king captured" } else { "cards ran out" };
        self.end = Some(Outcome {
            scores: vec![score as f64; if self.rules.solitaire { 1 } else { 2 }],
            result: result.into(),
            reason,
        });
    }

    /// After a turn's `end`: refill the hand, then the next turn (or the end).
    fn after_turn(&mut self) {
        let seat = self.seat_of(self.turn());
        if !self.rules.solitaire && self.hands[seat].len() < 2 && !self.deck.is_empty() {
            self.phase = Phase::Refill(seat);
            return;
        }
        self.next_turn();
    }

    fn next_turn(&mut self) {
        let c = !self.turn();
        // As in FEN, the move number grows when White's turn comes round again.
        self.set_side(c, self.pos.fullmove() + u32::from(c == Color::White));
        self.ep[c.index()] = None;
        self.turns += 1;
        if self.rules.solitaire {
            if self.deck.is_empty() {
                self.finish(false);
            } else {
                self.phase = Phase::DrawLine;
            }
        } else if self.hands[c.index()].is_empty() {
            self.finish(false);
        } else {
            self.phase = Phase::Play;
        }
    }
}

mod engine;
mod state;
mod turn;

pub use engine::Engine;

/// What Cooperative Chess 2 is: its settings, fields and design questions.
pub static INFO: GameInfo = GameInfo {
    name: "coop2",
    title: "Cooperative Chess 2",
    about: "2 partners, or 1 with seats=1; cards in a line allow captures",
    seats: &[2, 1],
    roles: &["white", "black", "solitaire"],
    settings: &[
        Setting {
            key: "seats",
            choices: &["2", "1"],
            default: "2",
            about: "1: one player holds both hands",
        },
        Setting {
            key: "kings",
            choices: &["line", "hold"],
            default: "line",
            about: "king cards go straight to the line, or are held",
        },
        Setting {
            key: "check",
            choices: &["forbid", "allow"],
            default: "forbid",
            about: "may a move leave the own king attacked",
        },
        Setting {
            key: "captures",
            choices: &["optional", "forced", "king"],
            default: "optional",
            about: "which captures the line forces (king: only taking a king)",
        },
    ],
    fields: fen_then![
        "line" => FieldKind::Cards,
        "discard" => FieldKind::Cards,
        "hands (white,black)" => FieldKind::Cards,
        "draw pile" => FieldKind::Text,
        "captures" => FieldKind::Text,
        "turns" => FieldKind::Text,
        "phase" => FieldKind::Text,
    ],
    chance: Chance::Explicit,
    information: Information::Imperfect,
    utility: Utility::Identical,
    questions: &[
        ("What do the partners score?", "score"),
        (
            "How often do they win (a king captured with 32 or more)?",
            "won (king captured, 32 or more)",
        ),
        ("How often is the score above 50 (great)?", "score above 50 (great)"),
        ("How often do the cards run out first?", "end: cards ran out"),
        ("How many captures a game?", "captures"),
    ],
    ratios: &[],
    histograms: &[],
};

impl TableGame for Coop2 {
    type Action = Action;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn seats(&self) -> usize {
        if self.rules.solitaire { 1 } else { 2 }
    }

    fn roles(&self, seat: usize) -> Vec<&'static str> {
        if self.rules.solitaire {
            vec!["solitaire"]
        } else {
            vec![if seat == 0 { "white" } else { "black" }]
        }
    }

    fn actor(&self) -> Actor {
        let seat = self.seat_of(self.turn());
        match self.phase {
            Phase::Deal(_) | Phase::Refill(_) | Phase::DrawLine => Actor::Chance,
            Phase::Play => Actor::Seat(seat, "play"),
            Phase::Quiet => Actor::Seat(seat, "quiet"),
            Phase::Capture => Actor::Seat(seat, "capture"),
            Phase::Over => Actor::Over,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::Play => {
                let mut h = self.hands[self.seat_of(self.turn())].to_vec();
                h.sort();
                h.dedup();
                h.into_iter().map(Action::Play).collect()
            }
            Phase::Quiet => self.quiet_now(),
            Phase::Capture => {
                let (mut v, kings) = self.captures_now();
                if self.rules.forced == Forced::King && !kings.is_empty() {
                    return kings;
                }
                let none = v.is_empty() && kings.is_empty();
                v.extend(kings);
                if self.rules.forced != Forced::All || none {
                    v.push(Action::End);
                }
                v
            }
            _ => Vec::new(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        let card = |t: &str| -> Result<char, String> {
            let c = t.chars().next().unwrap_or(' ');
            if t.len() == 1 && DECK.contains(&c) {
                Ok(c)
            } else {
                Err(format!("'{t}' is not a card (P N B R Q K, black in lower case)"))
            }
        };
        let num = |t: &str, tag: char| -> Result<usize, String> {
            t.strip_prefix(tag)
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| *n >= 1)
                .ok_or(format!("'{t}': expected {tag}N with N from 1"))
        };
        let is_move = |t: &str| (4..=5).contains(&t.len()) && t.is_ascii() && t.as_bytes()[0].is_ascii_lowercase();
        let step = |t: &str| Step::parse(t).ok_or(format!("'{t}' is not a move (e2e4, e7e8q)"));
        let promo = |a: &str, b: &str| -> Result<Promo, String> {
            Ok(Promo {
                pawn_card: num(a, 'p')?,
                insert: num(b, 'i')?,
            })
        };
        match w.as_slice() {
            ["draw", c] => Ok(Action::Draw(card(c)?)),
            ["play", c] => Ok(Action::Play(card(c)?)),
            ["pass"] => Ok(Action::Pass),
            ["end"] => Ok(Action::End),
            [m] if is_move(m) => Ok(Action::Quiet(step(m)?, None)),
            [m, p, i] if is_move(m) && p.starts_with('p') => Ok(Action::Quiet(step(m)?, Some(promo(p, i)?))),
            [m, x] if is_move(m) => Ok(Action::Capture(step(m)?, num(x, 'x')?, None)),
            [m, x, p, i] if is_move(m) => Ok(Action::Capture(step(m)?, num(x, 'x')?, Some(promo(p, i)?))),
            _ => Err(format!(
                "'{text}' is not a Cooperative Chess 2 action (play P, e2e4, pass, d5e4 x3, e7e8q p2 i1, end)"
            )),
        }
    }

    fn apply(&mut self, action: &Action) -> Result<String, String> {
        self.play(action).map(|e| e.to_string())
    }

    fn apply_unseen(&mut self, action: &Action) -> Result<(), String> {
        self.play(action).map(drop)
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        if !matches!(self.phase, Phase::Deal(_) | Phase::Refill(_) | Phase::DrawLine) || self.deck.is_empty() {
            return Vec::new();
        }
        super::draw_odds(&self.deck, Action::Draw)
    }

    type Observation = String;

    fn read_observation(&self, text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }

    fn observation(&self, seat: usize) -> String {
        self.text(Some(seat))
    }

    fn state_text(&self) -> String {
        self.text(None)
    }

    fn set_state(&mut self, text: &str) -> Result<(), String> {
        *self = state::parse(self, text, false, None)?;
        Ok(())
    }

    fn sample_observed(&self, _: usize, observation: &String, rng: &mut rand::rngs::StdRng) -> Result<Coop2, String> {
        let mut g = Coop2::read_view(self, observation)?;
        g.deal_unseen(rng)?;
        Ok(g)
    }

    fn belief(&self, _: usize) -> Box<dyn Belief<Coop2>> {
        // As sample_observed, the view read once.
        Box::new(ReadOnce::new(
            self.clone(),
            |g, o| g.read_view(o),
            |_, g, rng| g.deal_unseen(rng),
        ))
    }

    fn set_finished(&mut self, text: &str, end: &Outcome) -> Result<(), String> {
        let mut next = state::parse(self, text, false, Some(end))?;
        // The end follows from the state: a king gone is a capture, else the cards ran out.
        let king_taken = Color::ALL.iter().any(|&c| next.pos.royals(c).is_empty());
        next.finish(king_taken);
        if next.end.as_ref() != Some(end) {
            return Err(format!(
                "the state ends as {}, not as {end}",
                next.end.as_ref().map_or(String::new(), |o| o.to_string())
            ));
        }
        *self = next;
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.clone()
    }

    fn forfeit(&self, seat: usize, why: &str) -> Outcome {
        Outcome {
            scores: vec![0.0; self.seats()],
            result: "loss".into(),
            reason: format!("seat {seat} forfeits: {why}"),
        }
    }

    fn tally(&self) -> Tally {
        let score = self.score() as f64;
        let king = self.ending == "king captured";
        let yes = |b: bool| f64::from(u8::from(b));
        vec![
            ("score".into(), score),
            ("captures".into(), self.captures as f64),
            ("turns".into(), self.turns as f64),
            ("score below 32 (loss)".into(), yes(score < 32.0)),
            ("score 32-50".into(), yes((32.0..=50.0).contains(&score))),
            ("score above 50 (great)".into(), yes(score > 50.0)),
            ("end: king captured".into(), yes(king)),
            ("end: cards ran out".into(), yes(self.ending == "cards ran out")),
            ("won (king captured, 32 or more)".into(), yes(king && score >= 32.0)),
        ]
    }

    fn engine_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn Seat>, String> {
        // The generic player scores more than the turn planner (BENCHMARKS.md); 80 iterations
        // a decision, so that 1,000 games take minutes.
        let defaults = ("turns", &[("iterations", "80")][..]);
        crate::table::mcts::engine_seat_or_own(self, seat, options, seed, defaults, |rest| {
            Engine::new(self.clone(), rest, seed)
        })
    }
}

impl Coop2 {
    /// Every capture the turn's side could make if the line allowed it: (mover's card,
    /// victim's card, whether the victim is a king). One move generation.
    fn capture_pairs(&self) -> Vec<(char, char, bool)> {
        let mut p = self.mover_pos();
        let c = self.turn();
        let mut out = Vec::new();
        let mut list = MoveList::new();
        self.chess_moves(&mut p, &mut list);
        for &m in list.iter() {
            let victim = match m.kind() {
                MoveKind::EnPassant => p.piece_at(m.aux_square()),
                MoveKind::Castle => continue,
                _ => p.piece_at(m.to()),
            };
            if victim.is_some() && victim.color() != c {
                out.push((card_of(&p, p.piece_at(m.from())), card_of(&p, victim), false));
            }
        }
        for (from, ksq) in self.king_captures(&p) {
            out.push((card_of(&p, p.piece_at(from)), card_of(&p, p.piece_at(ksq)), true));
        }
        out
    }
}
