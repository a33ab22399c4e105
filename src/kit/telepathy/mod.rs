//! Telepathy Chess (rules section 2): four seats in two teams; each team turn its predictor
//! secretly plays a card naming the piece type its mover will move, the mover moves without a
//! word, and a marker rewards the team that reads its partner. Seats: 0 and 1 White's team, 2
//! and 3 Black's. Notation: `docs/table-games.md`.

use super::Kept;
use super::chess::{self, legal};
use super::{team_forfeit, team_outcome};
use crate::Color;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::notation::write_move;
use crate::position::{Game, Position};
use crate::rules::Plain;
use crate::square::Square;
use crate::table::mcts::{Belief, ReadOnce};
use crate::table::seats::Seat;
use crate::table::{
    Actor, Chance, FieldKind, GameInfo, Information, Outcome, Setting, Settings, TableGame, Tally, Utility,
};
use rand::rngs::StdRng;
use std::cell::RefCell;
use std::fmt;
use std::sync::{Arc, OnceLock};

mod engine;
mod state;
use engine::Engine;

/// The seven cards of a team's hand and table: the six piece types and the checker (`C`, a bet
/// that the partner moves the face-up type).
pub const CARDS: [char; 7] = ['P', 'N', 'B', 'R', 'Q', 'K', 'C'];

/// A face-down card a view does not show (no card letter).
const HIDDEN: char = '?';

/// What IS-MCTS's heuristic counts a marker step towards a team's side, in centipawns.
const MARKER_STEP_CP: f64 = 60.0;
/// What it counts a removal due now (the remover takes its least useful piece).
const REMOVAL_CP: f64 = 120.0;
/// The generic player's default `fade`: plies without a pawn move or capture over which its
/// heuristic's lead fades to nothing ([`Telepathy::heuristic`]).
const FADE_PLIES: u32 = 200;

/// The step that comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The predictor of the side to move plays a card face down.
    Predict,
    /// Its mover moves.
    Move,
    /// The team on whose side the marker overflowed removes one of its pieces.
    Remove(Color),
    /// The game is over.
    Over,
}

/// An action of Telepathy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The predictor's card (`card Q`).
    Card(char),
    /// The mover's move, in UCI text (`e2e4`, `e7e8q`, castling `e1g1`).
    Move(MoveText),
    /// A piece the overflowing team takes off (`remove e4`).
    Remove(Square),
}

/// A move's UCI text, held inline (four or five ASCII letters and digits): the generic player
/// compares and copies many.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveText([u8; 5]);

impl MoveText {
    /// The text, if it has the form of a move (4 or 5 ASCII letters and digits).
    pub fn new(text: &str) -> Option<MoveText> {
        let b = text.as_bytes();
        if !(4..=5).contains(&b.len()) || !b.iter().all(u8::is_ascii_alphanumeric) {
            return None;
        }
        let mut t = [0; 5];
        t[..b.len()].copy_from_slice(b);
        Some(MoveText(t))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        let n = if self.0[4] == 0 { 4 } else { 5 };
        std::str::from_utf8(&self.0[..n]).unwrap_or("")
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The moves of boards a thread saw, by position key (with the squares taken, a check on it).
type KeptMoves = Kept<u64, (Bitboard<u64>, Arc<Legal>)>;

/// The places for boards' moves a thread keeps ([`Telepathy::board_changed`]; 128 KB).
const BOARDS_KEPT: usize = 1 << 12;

/// A board's moves for the mover ([`Telepathy::moves`]) and, once asked for, their actions
/// (a search asks at every step).
#[derive(Default)]
struct Legal {
    moves: Vec<Move>,
    actions: OnceLock<Vec<Action>>,
}

/// A team's cards in hand, in the order they came (at most the seven cards), held inline and
/// copied as plain values: the generic player copies states many times.
#[derive(Clone, Copy, Default)]
struct Hand {
    cards: [char; 7],
    len: u8,
}

impl Hand {
    /// Adds `c` at the end (a hand never holds more than the seven cards).
    fn push(&mut self, c: char) {
        self.cards[usize::from(self.len)] = c;
        self.len += 1;
    }

    /// Takes out the card at `i`, keeping the others' order.
    fn remove(&mut self, i: usize) -> char {
        let c = self.cards[i];
        self.cards.copy_within(i + 1..usize::from(self.len), i);
        self.len -= 1;
        c
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl std::ops::Deref for Hand {
    type Target = [char];
    fn deref(&self) -> &[char] {
        &self.cards[..usize::from(self.len)]
    }
}

impl std::ops::DerefMut for Hand {
    fn deref_mut(&mut self) -> &mut [char] {
        &mut self.cards[..usize::from(self.len)]
    }
}

impl FromIterator<char> for Hand {
    fn from_iter<I: IntoIterator<Item = char>>(cards: I) -> Hand {
        let mut hand = Hand::default();
        cards.into_iter().for_each(|c| hand.push(c));
        hand
    }
}

/// The predictions' statistics a playtest tallies: made and hit in each band of pieces on the
/// board ([`BANDS`]), and in all, and the misses (plain counts: a search copies them often).
#[derive(Clone, Copy, Default)]
struct Predictions {
    made: [u32; 4],
    hit: [u32; 4],
    all: u32,
    hits: u32,
    misses: u32,
}

/// The bands of pieces on the board that the tally counts predictions in.
const BANDS: [(u32, u32); 4] = [(25, 32), (17, 24), (9, 16), (2, 8)];

impl Predictions {
    /// Counts a prediction made with `pieces` on the board: hit 1, same 0, miss -1.
    fn add(&mut self, pieces: u32, result: i8) {
        self.all += 1;
        self.hits += u32::from(result == 1);
        self.misses += u32::from(result == -1);
        if let Some(b) = BANDS.iter().position(|&(lo, hi)| (lo..=hi).contains(&pieces)) {
            self.made[b] += 1;
            self.hit[b] += u32::from(result == 1);
        }
    }
}

/// The whole state of a game.
#[derive(Clone)]
pub struct Telepathy {
    pos: Position<Plain>,
    /// [`Telepathy::moves`] and their actions, kept and shared by copies of the state: a team
    /// turn reads them three times, and the generic player's draws copy a state many times.
    legal: Arc<Legal>,
    /// -1, 0 or 1 (1 = White's side).
    marker: i32,
    /// Per team (White, Black): the face-up card.
    face_up: [char; 2],
    /// Per team: the hand (six cards while no card is face down).
    hands: [Hand; 2],
    /// Per team: the seat that predicts next.
    predictor: [usize; 2],
    /// The face-down card of the side to move.
    pending: Option<char>,
    phase: Phase,
    draws: bool,
    /// Plies after which the game is drawn (0: none): the rules have no end for two sides that
    /// keep their kings safe, and self-play needs one.
    limit: usize,
    /// `faceup=off8` (the later revision): a team that has lost 8 pieces plays without a
    /// face-up card.
    faceup_off: bool,
    /// `removals_end=N`: a team forced into its N-th removal loses (0: never).
    removals_end: u32,
    /// `bare_kings=end`: with only the kings left, or a lone minor piece against a king, the game
    /// ends by the result of every prediction hitting ([`Telepathy::bare_kings_end`],
    /// [`Telepathy::lone_minor_drawn`]).
    bare_end: bool,
    /// Per team: the removals it has made (state: `removals_end` counts them).
    removed: [u32; 2],
    end: Option<Outcome>,
    /// Statistics of the predictions made.
    predictions: Predictions,
    removals: u32,
    /// Plies played when the last removal happened.
    last_removal: Option<usize>,
    plies: usize,
    /// The generic player's `fade` (not a rule: the engine seat's copy carries its option).
    fade: u32,
    game: Arc<Game<Plain>>,
}

fn team_of(seat: usize) -> Color {
    if seat < 2 { Color::White } else { Color::Black }
}

fn mover_of(predictor: usize) -> usize {
    predictor ^ 1
}

impl Telepathy {
    /// A game at the chess start. Settings: `white_first=0|1` and `black_first=0|1` (which
    /// seat of each team predicts first, counted inside the team: each team chooses), `draws=off|on` (threefold repetition and the 50-move
    /// rule; the proposal leaves them off), `limit=0|200|400|600|1000` (plies after which the game is drawn,
    /// default 600, 0 for none); the author's variants: `faceup=on|off8` (off8: a team that has
    /// lost 8 pieces plays without a face-up card), `removals_end=0|N` (a team forced into its
    /// N-th removal loses), `bare_kings=end|play` (with only the kings left the game ends: see
    /// [`Telepathy::bare_kings_end`]; a lone minor piece against a king is drawn when every
    /// hit leaves the marker short: [`Telepathy::lone_minor_drawn`]).
    pub fn new(settings: &Settings) -> Result<Telepathy, String> {
        let v = INFO.read_settings(settings)?;
        let game = chess::plain_game("chess")?;
        let (fw, fb) = (usize::from(v[0] == "1"), usize::from(v[1] == "1"));
        let hand: Hand = CARDS.iter().copied().filter(|&c| c != 'P').collect();
        let mut t = Telepathy {
            pos: Position::startpos(Arc::clone(&game)),
            legal: Arc::default(),
            marker: 0,
            face_up: ['P', 'P'],
            hands: [hand, hand],
            predictor: [fw, 2 + fb],
            pending: None,
            phase: Phase::Predict,
            draws: v[2] == "on",
            limit: v[3].parse().expect("a listed number"),
            faceup_off: v[4] == "off8",
            removals_end: v[5].parse().expect("a listed number"),
            bare_end: v[6] == "end",
            removed: [0, 0],
            end: None,
            predictions: Predictions::default(),
            removals: 0,
            last_removal: None,
            plies: 0,
            fade: FADE_PLIES,
            game,
        };
        t.board_changed();
        Ok(t)
    }

    /// [`Telepathy::new`] behind the table interface.
    pub fn boxed(settings: &Settings) -> Result<Box<dyn crate::table::Table>, String> {
        Ok(Box::new(Telepathy::new(settings)?))
    }

    fn team(&self) -> Color {
        self.pos.side_to_move()
    }

    /// The card letter of the piece on `sq`.
    fn type_on(&self, sq: Square) -> char {
        let p = self.pos.piece_at(sq);
        self.pos.variant().pieces[p.kind()].letter
    }

    /// The mover's moves: the legal moves, plus taking the opponent's king when it stands
    /// attacked (a team may have exposed its own king by a removal).
    pub fn moves(&self) -> &[Move] {
        &self.legal.moves
    }

    /// [`Telepathy::moves`] as actions, in their order (written once for a board).
    fn move_actions(&self) -> &[Action] {
        self.legal.actions.get_or_init(|| {
            let mut written = String::with_capacity(8);
            (self.legal.moves.iter())
                .map(|&m| {
                    written.clear();
                    write_move(&mut written, &self.pos, m);
                    Action::Move(MoveText::new(&written).expect("a chess move's text"))
                })
                .collect()
        })
    }

    /// Works out [`Telepathy::moves`] again, after the board changed. A thread keeps the
    /// moves of the boards it saw lately: a search's draws make the same boards again and
    /// again (the same move under each card).
    fn board_changed(&mut self) {
        thread_local! {
            static KNOWN: RefCell<KeptMoves> = RefCell::new(Kept::new(BOARDS_KEPT));
        }
        let (key, occupied) = (self.pos.key(), self.pos.occupied());
        let known = KNOWN.with_borrow(|k| k.get(&key).filter(|(o, _)| *o == occupied).map(|(_, l)| Arc::clone(l)));
        self.legal = match known {
            Some(l) => l,
            None => {
                let l = self.work_out_moves();
                KNOWN.with_borrow_mut(|k| k.keep(key, (occupied, Arc::clone(&l))));
                l
            }
        };
    }

    /// [`Telepathy::moves`] of the board.
    fn work_out_moves(&mut self) -> Arc<Legal> {
        let pos = &mut self.pos;
        let mut v = legal(pos);
        let them = !pos.side_to_move();
        if pos.royal_in_danger(them) {
            let kings = pos.royals(them);
            let mut list = MoveList::new();
            pos.pseudo_legal_moves(&mut list);
            for &m in list.iter() {
                if kings.contains(m.to()) && !v.contains(&m) {
                    v.push(m);
                }
            }
        }
        Arc::new(Legal {
            moves: v,
            actions: OnceLock::new(),
        })
    }

    fn removable(&self, team: Color) -> Vec<Square> {
        let own = self.pos.color_bb(team);
        let kings = self.pos.royals(team);
        let others: Vec<Square> = own.into_iter().filter(|&s| !kings.contains(s)).collect();
        if others.is_empty() {
            own.into_iter().collect()
        } else {
            others
        }
    }

    fn name(&self, s: Square) -> String {
        self.pos.variant().geometry.name(s)
    }

    fn finish(&mut self, winner: Option<Color>, reason: &str) {
        self.end = Some(team_outcome(2, winner, reason));
        self.phase = Phase::Over;
    }

    /// The end by rule on the board, checked when a team is about to predict.
    fn check_board_end(&mut self) {
        let has_move = !self.moves().is_empty();
        if let Some((winner, reason)) = chess::board_end(&self.pos, has_move, self.draws) {
            return self.finish(winner, reason);
        }
        if self.bare_end && self.pos.occupied().count() == 2 {
            return self.bare_kings_end();
        }
        if self.bare_end && self.lone_minor_drawn() {
            return self.finish(None, "lone minor piece: every prediction hits");
        }
        if self.limit > 0 && self.plies >= self.limit {
            self.finish(None, "move limit");
        }
    }

    /// Only the two kings left, the team to move having a move: its mover can move only the
    /// king, so a K card (or the checker on a face-up K) cannot miss. With the marker on the
    /// other team's side that hit overflows it and the other team must remove its king: the team
    /// to move wins. Otherwise each team's K card hits in turn and the marker swings between the
    /// middle and one side for ever: a draw.
    fn bare_kings_end(&mut self) {
        let us = self.team();
        let their_side = if us == Color::White { -1 } else { 1 };
        if self.marker == their_side {
            let reason = if us == Color::White {
                "bare kings: White's certain hit overflows the marker"
            } else {
                "bare kings: Black's certain hit overflows the marker"
            };
            self.finish(Some(us), reason);
        } else {
            self.finish(None, "bare kings: every prediction hits");
        }
    }

    /// A knight or bishop and its king against a bare king, where no mate exists and every
    /// prediction can hit (the bare team's K card; the other team's K card and a king move, or
    /// its minor piece's card when the king cannot move): with every prediction hitting, the
    /// marker overflows only if the team to predict has it on the other team's side already.
    fn lone_minor_drawn(&self) -> bool {
        if self.pos.occupied().count() != 3 {
            return false;
        }
        let bare = if self.pos.color_bb(Color::White).count() == 1 {
            Color::White
        } else {
            Color::Black
        };
        let minor = self.pos.color_bb(!bare) & !self.pos.royals(!bare);
        let Some(sq) = minor.first() else { return false };
        // The marker's value on the side of the team not to predict (Black's side is -1).
        let theirs = if self.team() == Color::White { -1 } else { 1 };
        matches!(self.type_on(sq), 'N' | 'B') && self.marker != theirs
    }

    /// The team to move is about to predict: with `faceup=off8` a team that has lost 8 pieces
    /// takes its face-up card into the hand for good; then the ends by rule. Returns the event
    /// words for a face-up card taken back.
    fn enter_predict(&mut self) -> String {
        self.phase = Phase::Predict;
        let t = self.team().index();
        let mut event = String::new();
        if self.faceup_off && self.face_up[t] != '-' && 16 - self.pos.color_bb(self.team()).count() >= 8 {
            let face = self.face_up[t];
            self.hands[t].push(face);
            self.face_up[t] = '-';
            event = format!(" no face-up {}", if t == 0 { "white" } else { "black" });
        }
        self.check_board_end();
        event
    }

    fn pieces_on_board(&self) -> u32 {
        self.pos.occupied().count()
    }

    /// Moves the marker for team `t`'s result (+1: towards the opponents' side); returns the
    /// team that must remove a piece, if the marker overflowed.
    fn step_marker(&mut self, t: Color, towards_opponents: bool) -> Option<Color> {
        // White's side is +1: White's success moves towards Black's side (-1).
        let d = match (t, towards_opponents) {
            (Color::White, true) | (Color::Black, false) => -1,
            _ => 1,
        };
        self.marker += d;
        if self.marker.abs() == 2 {
            let loser = if self.marker == 2 { Color::White } else { Color::Black };
            self.marker = 0;
            return Some(loser);
        }
        None
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Card(c) => write!(f, "card {c}"),
            Action::Move(m) => write!(f, "{m}"),
            // The chess board: 8 files, index = rank * 8 + file.
            Action::Remove(s) => write!(
                f,
                "remove {}{}",
                (b'a' + (s.index() % 8) as u8) as char,
                s.index() / 8 + 1
            ),
        }
    }
}

/// What Telepathy Chess is: its settings, fields and design questions.
pub static INFO: GameInfo = GameInfo {
    name: "telepathy",
    title: "Telepathy Chess",
    about: "4 seats, two to a team on the chess board; a predictor bets on the type of piece its partner moves",
    seats: &[4],
    roles: &["white", "black", "predictor", "mover"],
    settings: &[
        Setting {
            key: "white_first",
            choices: &["0", "1"],
            default: "0",
            about: "White's first predictor: seat 0 or 1",
        },
        Setting {
            key: "black_first",
            choices: &["0", "1"],
            default: "0",
            about: "Black's first predictor: seat 2 (0) or 3 (1)",
        },
        Setting {
            key: "draws",
            choices: &["off", "on"],
            default: "off",
            about: "threefold repetition and the 50-move rule",
        },
        Setting {
            key: "limit",
            choices: &["0", "200", "400", "600", "1000"],
            default: "600",
            about: "plies until a draw (0: none)",
        },
        Setting {
            key: "faceup",
            choices: &["on", "off8"],
            default: "on",
            about: "off8: no face-up card after a team has lost 8 pieces (the later revision)",
        },
        Setting {
            key: "removals_end",
            choices: &["0", "2", "3", "4", "5", "6", "8"],
            default: "0",
            about: "a team forced into its N-th removal loses (0: never)",
        },
        Setting {
            key: "bare_kings",
            choices: &["end", "play"],
            default: "end",
            about: "end: bare kings, or a lone knight or bishop against a king, end by the result of every hit",
        },
    ],
    fields: fen_then![
        "marker (black,white)" => FieldKind::Track(-1, 1),
        "face-up cards (white,black)" => FieldKind::Cards,
        "hands (white,black)" => FieldKind::Cards,
        "predictors (white,black)" => FieldKind::Text,
        "face-down card" => FieldKind::Cards,
        "phase" => FieldKind::Text,
        "removals (white,black)" => FieldKind::Text,
    ],
    chance: Chance::Deterministic,
    information: Information::Imperfect,
    utility: Utility::ConstantSum,
    questions: &[
        (
            "How often does the predictor name the type of the piece that moves?",
            "hit rate, all predictions",
        ),
        ("... with 25-32 pieces on the board", "hit rate with 25-32 pieces"),
        ("... with 2-8 pieces on the board", "hit rate with 2-8 pieces"),
        ("How many removals does the marker force a game?", "forced removals"),
        ("How often does White win?", "result: white"),
        ("How often does Black win?", "result: black"),
        ("How often is the game drawn?", "result: draw"),
        ("How often do only the kings remain?", "ended: bare kings"),
        ("How long is a game (plies)?", "plies"),
    ],
    ratios: &[
        ("hit rate, all predictions", "hits", "predictions"),
        (
            "hit rate with 25-32 pieces",
            "hits with 25-32 pieces",
            "predictions with 25-32 pieces",
        ),
        (
            "hit rate with 17-24 pieces",
            "hits with 17-24 pieces",
            "predictions with 17-24 pieces",
        ),
        (
            "hit rate with 9-16 pieces",
            "hits with 9-16 pieces",
            "predictions with 9-16 pieces",
        ),
        (
            "hit rate with 2-8 pieces",
            "hits with 2-8 pieces",
            "predictions with 2-8 pieces",
        ),
        ("miss rate, all predictions", "misses", "predictions"),
    ],
    histograms: &[],
};

impl Telepathy {
    /// Team `t`'s move `text` against its face-down card: hit, same or miss, the hand-off,
    /// the marker, and a king taken, a removal due or the next prediction; with `tell`, the
    /// event's text.
    fn play_move(&mut self, t: Color, text: &MoveText, tell: bool) -> Result<String, String> {
        let ti = t.index();
        let played = Action::Move(*text);
        let i = self
            .move_actions()
            .iter()
            .position(|a| *a == played)
            .ok_or("no such move")?;
        let m = self.moves()[i];
        let moved = self.type_on(m.from());
        let card = self.pending.take().ok_or("no card face down")?;
        let face = self.face_up[ti];
        let wanted = if card == 'C' { face } else { card };
        let (word, result) = if moved == wanted {
            ("hit", 1)
        } else if moved == face {
            ("same", 0)
        } else {
            ("miss", -1)
        };
        self.predictions.add(self.pieces_on_board(), result);
        let captured_king = self.pos.royals(!t).contains(m.to());
        if self.draws {
            self.pos.make_move(m);
        } else {
            // Without repetition draws nothing reads the positions before.
            self.pos.play_for_good(m);
        }
        self.board_changed();
        self.plies += 1;
        // Hand-off: the mover takes the hand and the checker if it is on the table,
        // else the old face-up card; the card left is the new face-up card.
        if card == 'C' || face == '-' {
            // Without a face-up card the played card simply returns to the hand.
            self.hands[ti].push(card);
        } else {
            self.hands[ti].push(face);
            self.face_up[ti] = card;
        }
        self.predictor[ti] = mover_of(self.predictor[ti]);
        let overflow = if result == 0 {
            None
        } else {
            self.step_marker(t, result == 1)
        };
        // The event is written only for those who read it (not a search's `apply_unseen`).
        let mut event = if tell {
            format!("move {text} {moved} card {card} {word} marker {}", self.marker)
        } else {
            String::new()
        };
        if captured_king {
            self.finish(
                Some(t),
                if t == Color::White {
                    "White captures the king"
                } else {
                    "Black captures the king"
                },
            );
            event += " end";
            return Ok(event);
        }
        event += &match overflow {
            Some(loser) => self.overflow(loser),
            None => self.enter_predict(),
        };
        if self.phase == Phase::Over {
            event += " end";
        }
        Ok(event)
    }

    /// The legal actions in `out` (emptied first; no allocation for moves and cards).
    fn actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Predict => {
                let mut cards = self.hands[self.team().index()];
                cards.sort_unstable();
                out.extend(cards.iter().map(|&c| Action::Card(c)));
                out.dedup();
            }
            Phase::Move => out.extend_from_slice(self.move_actions()),
            Phase::Remove(c) => out.extend(self.removable(c).into_iter().map(Action::Remove)),
            Phase::Over => {}
        }
    }

    /// The team to move lays card `c` from its hand face down.
    fn predict(&mut self, c: char) -> Result<(), String> {
        let ti = self.team().index();
        let i = self.hands[ti].iter().position(|&x| x == c).ok_or("card not in hand")?;
        self.hands[ti].remove(i);
        self.pending = Some(c);
        self.phase = Phase::Move;
        Ok(())
    }

    /// The marker ran over on `loser`'s side: a removal, or the end with `removals_end`.
    fn overflow(&mut self, loser: Color) -> String {
        let event = format!(" overflow {}", if loser == Color::White { "white" } else { "black" });
        if self.removals_end > 0 && self.removed[loser.index()] + 1 >= self.removals_end {
            let who = if loser == Color::White { "White" } else { "Black" };
            self.finish(
                Some(!loser),
                &format!("{who} forced into removal {}", self.removals_end),
            );
        } else {
            self.phase = Phase::Remove(loser);
        }
        event
    }

    /// Team `c` removes its piece on `sq`; its king removed ends the game.
    fn remove(&mut self, c: Color, sq: Square) -> String {
        let was_king = self.pos.royals(c).contains(sq);
        self.pos.take_off(sq);
        self.board_changed();
        self.removals += 1;
        self.removed[c.index()] += 1;
        self.last_removal = Some(self.plies);
        let mut event = format!(
            "removed {} by {}",
            self.name(sq),
            if c == Color::White { "white" } else { "black" }
        );
        if was_king {
            self.finish(Some(!c), "the last piece, the king, removed");
            event += " end";
            return event;
        }
        event += &self.enter_predict();
        if self.phase == Phase::Over {
            event += " end";
        }
        event
    }
}

impl TableGame for Telepathy {
    type Action = Action;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn roles(&self, seat: usize) -> Vec<&'static str> {
        let team = team_of(seat);
        let role = if self.predictor[team.index()] == seat {
            "predictor"
        } else {
            "mover"
        };
        vec![if team == Color::White { "white" } else { "black" }, role]
    }

    fn actor(&self) -> Actor {
        let t = self.team().index();
        match self.phase {
            Phase::Predict => Actor::Seat(self.predictor[t], "predict"),
            Phase::Move => Actor::Seat(mover_of(self.predictor[t]), "move"),
            // The removing team's next mover takes the piece off.
            Phase::Remove(c) => Actor::Seat(mover_of(self.predictor[c.index()]), "remove"),
            Phase::Over => Actor::Over,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.actions_into(&mut actions);
        actions
    }

    fn search_actions_into(&self, out: &mut Vec<Action>) {
        self.actions_into(out);
    }

    fn why_illegal(&self, action: &Action) -> String {
        if let (Action::Remove(sq), Phase::Remove(team)) = (action, self.phase) {
            let who = if team == Color::White { "white" } else { "black" };
            if !self.pos.color_bb(team).contains(*sq) {
                return format!("{} holds no {who} piece", self.name(*sq));
            }
            if self.pos.royals(team).contains(*sq) {
                return format!("{} holds the king; other {who} pieces remain", self.name(*sq));
            }
        }
        crate::table::default_refusal(self, action)
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        if let Some(c) = text.strip_prefix("card ") {
            let c = c.trim().to_ascii_uppercase();
            return match c.chars().next() {
                Some(ch) if c.len() == 1 && CARDS.contains(&ch) => Ok(Action::Card(ch)),
                _ => Err(format!("card '{c}': expected one of P N B R Q K C")),
            };
        }
        if let Some(sq) = text.strip_prefix("remove ") {
            let g = &self.pos.variant().geometry;
            return g
                .parse(sq.trim())
                .map(Action::Remove)
                .ok_or_else(|| format!("'{}' is not a square", sq.trim()));
        }
        let t = text.trim();
        MoveText::new(t)
            .map(Action::Move)
            .ok_or_else(|| format!("'{t}' is not 'card X', a move like e2e4 or 'remove SQ'"))
    }

    fn apply(&mut self, action: &Action) -> Result<String, String> {
        let t = self.team();
        match (action, self.phase) {
            (Action::Card(c), Phase::Predict) => self.predict(*c).map(|()| "predicted".into()),
            (Action::Move(text), Phase::Move) => self.play_move(t, text, true),
            (Action::Remove(sq), Phase::Remove(c)) => Ok(self.remove(c, *sq)),
            _ => Err("illegal action".into()),
        }
    }

    fn apply_unseen(&mut self, action: &Action) -> Result<(), String> {
        match (action, self.phase) {
            (Action::Move(text), Phase::Move) => self.play_move(self.team(), text, false).map(drop),
            (Action::Card(c), Phase::Predict) => self.predict(*c),
            _ => self.apply(action).map(drop),
        }
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
        *self = self.read_state(text, None)?;
        Ok(())
    }

    fn sample_observed(&self, _: usize, observation: &String, rng: &mut StdRng) -> Result<Telepathy, String> {
        let mut g = self.read_view(observation)?;
        g.fill_hidden(rng);
        Ok(g)
    }

    fn belief(&self, _: usize) -> Box<dyn Belief<Telepathy>> {
        // The observation read once; each draw only deals the hidden cards.
        Box::new(ReadOnce::new(
            self.clone(),
            |g, o| g.read_view(o),
            |_, g, rng| {
                g.fill_hidden(rng);
                Ok(())
            },
        ))
    }

    fn heuristic(&self) -> Option<Vec<f64>> {
        // The best reply's value: a leaf before the side to move's reply sees what it takes.
        let e = f64::from(chess::reply_value(&self.pos));
        let mut white = if self.pos.side_to_move() == Color::White { e } else { -e };
        // The marker: each step towards a team's side is part of a forced removal (+2 makes
        // White remove a piece), and a removal due now costs about a pawn.
        white -= f64::from(self.marker) * MARKER_STEP_CP;
        match self.phase {
            Phase::Remove(Color::White) => white -= REMOVAL_CP,
            Phase::Remove(Color::Black) => white += REMOVAL_CP,
            _ => {}
        }
        Some(super::fading_team_chances(2, white, self.pos.halfmove(), self.fade))
    }

    fn set_finished(&mut self, text: &str, end: &Outcome) -> Result<(), String> {
        *self = self.read_state(text, Some(end))?;
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.clone()
    }

    fn forfeit(&self, seat: usize, why: &str) -> Outcome {
        team_forfeit(2, seat, why)
    }

    fn tally(&self) -> Tally {
        let mut t: Tally = Vec::new();
        // Prediction hits by material left: pieces on the board when the move was made.
        let p = &self.predictions;
        for (b, (lo, hi)) in BANDS.into_iter().enumerate() {
            t.push((format!("predictions with {lo}-{hi} pieces"), f64::from(p.made[b])));
            t.push((format!("hits with {lo}-{hi} pieces"), f64::from(p.hit[b])));
        }
        t.push(("predictions".into(), f64::from(p.all)));
        t.push(("hits".into(), f64::from(p.hits)));
        t.push(("misses".into(), f64::from(p.misses)));
        t.push(("forced removals".into(), f64::from(self.removals)));
        // Decided after a removal: the game ended within one team turn of the last removal.
        let after = self.end.is_some()
            && self.last_removal.is_some_and(|r| self.plies - r <= 1)
            && self.end.as_ref().is_some_and(|o| o.result != "draw");
        t.push(("decided right after a removal".into(), f64::from(u8::from(after))));
        t.push(("plies".into(), self.plies as f64));
        t
    }

    fn engine_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn Seat>, String> {
        // The generic player, which beats the hand-made one (BENCHMARKS.md), unless
        // `player=model` asks for that one. `fade` is the generic player's, read here: its
        // copy of the game carries it into the heuristic.
        let defaults = ("model", &MCTS_DEFAULTS[..]);
        let mut game = self.clone();
        let (fade, rest) = super::generic_option(options, "fade", "model")?;
        if let Some(v) = fade {
            game.fade = (v.parse().ok())
                .filter(|n| *n <= 1000)
                .ok_or_else(|| format!("engine option fade={v}: plies from 0 (never) to 1000"))?;
        }
        crate::table::mcts::engine_seat_or_own(&game, seat, &rest, seed, defaults, |rest| {
            Engine::new(self.clone(), rest, seed)
        })
    }
}

/// The engine seat's options for the generic player, chosen in matches against the hand-made
/// one (BENCHMARKS.md): the partner's face-down card drawn as the partner's own search would
/// choose it, a tree of two decisions (the card, the move) before the best-reply leaf, a
/// greedier UCB and the best mean of the often visited actions.
const MCTS_DEFAULTS: [(&str, &str); 5] = [
    ("iterations", "1000"),
    ("partner", "1000"),
    ("depth", "2"),
    ("explore", "50"),
    ("pick", "1"),
];

#[cfg(test)]
mod tests {
    use super::{Action, Telepathy};
    use crate::table::TableGame;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    use std::sync::Arc;

    /// The moves of a board kept by the thread are those worked out afresh: for boards that
    /// differ only in castling rights, the side to move or a piece's kind (the same squares
    /// taken), read again from the kept ones, and along random games.
    #[test]
    fn kept_moves_are_the_board_s_moves() {
        let check = |t: &Telepathy| {
            let fresh = t.clone().work_out_moves();
            assert_eq!(t.moves(), &fresh.moves[..], "{}", t.state_text());
        };
        let rest = "0 P,P NBRQKC,NBRQKC 0,2 - predict 0,0";
        let boards = [
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - - 0 1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/N3K2R w Kkq - 0 1",
        ];
        let mut t = Telepathy::new(&Vec::new()).unwrap();
        let mut counts = Vec::new();
        let mut first = Vec::new();
        for pass in 0..2 {
            for (i, b) in boards.iter().enumerate() {
                t.set_state(&format!("{b} {rest}")).unwrap();
                check(&t);
                counts.push(t.moves().len());
                if pass == 0 {
                    first.push(Arc::clone(&t.legal));
                } else {
                    assert!(Arc::ptr_eq(&first[i], &t.legal), "{b}: worked out again");
                }
            }
        }
        assert_eq!(counts[..4], counts[4..]);
        assert!(counts[0] > counts[1] && counts[1] > counts[3], "{counts:?}");
        let mut rng = StdRng::seed_from_u64(7);
        let mut boards = 0;
        for _ in 0..20 {
            let mut t = Telepathy::new(&Vec::new()).unwrap();
            for _ in 0..300 {
                let legal = t.legal_actions();
                if legal.is_empty() {
                    break;
                }
                let action = &legal[rng.random_range(0..legal.len())];
                t.apply(action).unwrap();
                check(&t);
                boards += usize::from(!matches!(action, Action::Card(_)));
            }
        }
        assert!(boards > 2000, "{boards}");
    }
}
