//! Split-Brain Chess (rules section 3) on the `losalamos` variant. Each team move is made by a
//! chooser (who marks a piece) and a mover (who marks a target) who cannot talk; the referee
//! resolves the two secret marks. Seats: 0 White king side, 1 White queen side, 2 Black king
//! side, 3 Black queen side. Notation: `docs/table-games.md`.

use super::chess::{self, board_end, legal, promotion};
use super::{team_forfeit, team_outcome};
use crate::Color;
use crate::bitboard::Bitboard;
use crate::fen::Setup;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Plain;
use crate::square::Square;
use crate::table::history::History;
use crate::table::seats::Seat;
use crate::table::{
    Actor, Chance, FieldKind, GameInfo, Information, Outcome, Setting, Settings, Table, TableGame, Tally, Utility,
};
use std::fmt;
use std::sync::Arc;

mod belief;
mod engine;
mod state;
pub use engine::Engine;

/// Which corner the marker is in: the players on that side choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The king side (the marker's start: the black king's corner).
    King,
    /// The queen side.
    Queen,
}

/// How the opponents' chooser resolves marks that do not make a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The marked piece moves, as near the target as it can.
    Piece,
    /// Some piece moves to the target, the one nearest the marked piece.
    Target,
}

/// The step of a team turn that comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The chooser marks a piece.
    Piece,
    /// The mover marks a target.
    Target,
    /// The opponents' chooser picks among equally near valid squares for the piece mark.
    SnapPiece,
    /// The same for the target mark.
    SnapTarget,
    /// The opponents' chooser picks the mode.
    Mode,
    /// The team picks among equally near moves of the mode.
    Tie(Mode),
    /// The partner who completes the move picks the promotion piece (mode `None`: the move
    /// was made directly).
    Promote(Option<Mode>, Square, Square),
    /// The game is over.
    Over,
}

/// The mover's mark: a target square, or with `marks=vector` a movement vector (files, ranks;
/// White's view) that any piece could make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// A square (`mark e4`).
    Square(Square),
    /// A vector (`vector +0+1`: one rank up).
    Vector(i32, i32),
}

/// A vector's text: signed file and rank steps (`+1-2`).
fn vector_text(df: i32, dr: i32) -> String {
    format!("{df:+}{dr:+}")
}

/// Reads `+1-2` (signs required; each step -5 to 5; not both 0).
fn parse_vector(text: &str) -> Result<(i32, i32), String> {
    let err = || format!("'{text}' is not a vector like +1-2 (file and rank steps, -5 to 5)");
    let split = text
        .char_indices()
        .skip(1)
        .find(|(_, c)| *c == '+' || *c == '-')
        .map(|x| x.0)
        .ok_or_else(err)?;
    let (a, b) = text.split_at(split);
    if !a.starts_with(['+', '-']) {
        return Err(err());
    }
    let (df, dr): (i32, i32) = (a.parse().map_err(|_| err())?, b.parse().map_err(|_| err())?);
    if df.abs() > 5 || dr.abs() > 5 || (df, dr) == (0, 0) {
        return Err(err());
    }
    Ok((df, dr))
}

/// An action of Split-Brain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A secret mark (`mark e2`): any square; an invalid one snaps to the nearest valid one.
    Mark(Square),
    /// With `marks=vector`, the mover's secret vector (`vector +1+2`); snaps like a mark.
    Vector(i32, i32),
    /// The opponents' chooser's pick among equally near vectors (`snap +1+1`).
    SnapVector(i32, i32),
    /// The opponents' chooser's pick among equally near squares (`snap e3`).
    Snap(Square),
    /// The opponents' chooser's mode (`mode piece`, `mode target`).
    Mode(Mode),
    /// The team's pick among equally near moves (`move e2e3`).
    Move(Square, Square),
    /// The promotion piece (`promote q`).
    Promote(char),
}

/// The whole state of a game.
#[derive(Clone)]
pub struct SplitBrain {
    pos: Position<Plain>,
    /// The legal moves of `pos`, kept: every phase of a team turn reads them.
    legal: Arc<[Move]>,
    marker: Side,
    phase: Phase,
    /// The marks (the piece mark, the target mark or vector), as snapped once resolved.
    marks: (Option<Square>, Option<Aim>),
    /// `marks=vector`: the mover marks a vector instead of a target square.
    vectors: bool,
    manhattan: bool,
    draws: bool,
    /// Plies after which the game is drawn (0: none), a guard for self-play.
    limit: usize,
    end: Option<Outcome>,
    /// Per team turn: the position before it and how it was resolved (0 direct, 1 piece
    /// mode, 2 target mode), with the move played.
    turns: History<(Setup, u8, Move)>,
    /// The generic player's memory: the keys of the boards its seat saw since the last pawn
    /// move or capture, other than this one (not a rule, not in the text: its belief fills it).
    seen: Arc<[u64]>,
    /// Whether the generic player counts a board it saw before as a draw (`repeats=on`).
    repeats: bool,
}

/// Seat of `team`'s player on `side`.
pub fn seat_of(team: Color, side: Side) -> usize {
    team.index() * 2 + usize::from(side == Side::Queen)
}

impl SplitBrain {
    /// A game at the Los Alamos start. Settings: `snap=manhattan|chebyshev` (the distance for
    /// snapping invalid marks; the rule book proposes Manhattan), `draws=on|off` (threefold
    /// repetition and the 50-move rule; proposal on), `limit=0|200|400|600|1000` (plies after which the game is
    /// drawn, default 600, 0 for none), `marks=target|vector` (the author's variant: the mover
    /// marks a movement vector instead of a target square).
    pub fn new(settings: &Settings) -> Result<SplitBrain, String> {
        let v = INFO.read_settings(settings)?;
        let mut pos = Position::startpos(chess::plain_game("losalamos")?);
        Ok(SplitBrain {
            legal: legal(&mut pos).into(),
            pos,
            marker: Side::King,
            phase: Phase::Piece,
            marks: (None, None),
            manhattan: v[0] == "manhattan",
            draws: v[1] == "on",
            limit: v[2].parse().expect("a listed number"),
            vectors: v[3] == "vector",
            end: None,
            turns: History::new(),
            seen: Arc::new([]),
            repeats: true,
        })
    }

    /// [`SplitBrain::new`] behind the table interface.
    pub fn boxed(settings: &Settings) -> Result<Box<dyn Table>, String> {
        Ok(Box::new(SplitBrain::new(settings)?))
    }

    fn team(&self) -> Color {
        self.pos.side_to_move()
    }

    /// Whether the generic player remembers the boards it saw: a repetition is a rule and the
    /// seat's option leaves it on.
    fn remembers(&self) -> bool {
        self.draws && self.repeats
    }

    fn chooser(&self, team: Color) -> usize {
        seat_of(team, self.marker)
    }

    fn mover(&self, team: Color) -> usize {
        let other = if self.marker == Side::King {
            Side::Queen
        } else {
            Side::King
        };
        seat_of(team, other)
    }

    fn sq(&self, name: &str) -> Result<Square, String> {
        let g = &self.pos.variant().geometry;
        g.parse(name)
            .filter(|&s| g.landable().contains(s))
            .ok_or_else(|| format!("'{name}' is not a square of the 6x6 board"))
    }

    fn name(&self, s: Square) -> String {
        self.pos.variant().geometry.name(s)
    }

    fn dist(&self, a: Square, b: Square) -> usize {
        if self.manhattan {
            chess::manhattan(&self.pos, a, b)
        } else {
            chess::chebyshev(&self.pos, a, b)
        }
    }

    fn moves(&self) -> &[Move] {
        &self.legal
    }

    /// Squares holding a piece of the team with a legal move.
    pub fn valid_pieces(&self) -> Vec<Square> {
        squares(self.moves().iter().map(|m| m.from()))
    }

    /// Squares some piece of the team can legally move to.
    pub fn valid_targets(&self) -> Vec<Square> {
        squares(self.moves().iter().map(|m| m.to()))
    }

    /// A move's vector: file and rank steps.
    fn vector_of(&self, m: Move) -> (i32, i32) {
        let g = &self.pos.variant().geometry;
        (
            g.file_of(m.to()) as i32 - g.file_of(m.from()) as i32,
            g.rank_of(m.to()) as i32 - g.rank_of(m.from()) as i32,
        )
    }

    /// The vectors some piece of the team can legally move by.
    pub fn valid_vectors(&self) -> Vec<(i32, i32)> {
        let mut v: Vec<(i32, i32)> = self.moves().iter().map(|&m| self.vector_of(m)).collect();
        v.sort();
        v.dedup();
        v
    }

    fn vector_dist(&self, a: (i32, i32), b: (i32, i32)) -> usize {
        let (x, y) = ((a.0 - b.0).unsigned_abs() as usize, (a.1 - b.1).unsigned_abs() as usize);
        if self.manhattan { x + y } else { x.max(y) }
    }

    /// The valid aims nearest to `aim` (one when it is valid), squares or vectors alike.
    fn nearest_aims(&self, aim: Aim) -> Vec<Aim> {
        match aim {
            Aim::Square(t) => self
                .nearest(t, &self.valid_targets())
                .into_iter()
                .map(Aim::Square)
                .collect(),
            Aim::Vector(df, dr) => {
                let valid = self.valid_vectors();
                if valid.contains(&(df, dr)) {
                    return vec![aim];
                }
                let best = valid.iter().map(|&v| self.vector_dist(v, (df, dr))).min().unwrap_or(0);
                valid
                    .into_iter()
                    .filter(|&v| self.vector_dist(v, (df, dr)) == best)
                    .map(|(a, b)| Aim::Vector(a, b))
                    .collect()
            }
        }
    }

    /// Whether move `m` is the one the marks name: from the piece mark to the target square,
    /// or from it by the vector.
    fn hits(&self, m: Move, s: Square, aim: Aim) -> bool {
        m.from() == s
            && match aim {
                Aim::Square(t) => m.to() == t,
                Aim::Vector(df, dr) => self.vector_of(m) == (df, dr),
            }
    }

    fn aim_text(&self, aim: Aim) -> String {
        match aim {
            Aim::Square(t) => self.name(t),
            Aim::Vector(df, dr) => vector_text(df, dr),
        }
    }

    /// The valid squares nearest to `mark` (one when the mark is valid).
    fn nearest(&self, mark: Square, valid: &[Square]) -> Vec<Square> {
        if valid.contains(&mark) {
            return vec![mark];
        }
        let best = valid.iter().map(|&v| self.dist(v, mark)).min().unwrap_or(0);
        valid.iter().copied().filter(|&v| self.dist(v, mark) == best).collect()
    }

    /// The moves a mode allows, the nearest by Manhattan distance (rules §3 step 3, whatever
    /// the snapping setting): the (from, to) pairs among which the team picks.
    pub fn mode_moves(&self, mode: Mode) -> Vec<(Square, Square)> {
        let (Some(s), Some(aim)) = self.marks else {
            return Vec::new();
        };
        let moves = self.moves();
        let pairs: Vec<(Square, Square, usize)> = match (mode, aim) {
            (Mode::Piece, Aim::Square(t)) => moves
                .iter()
                .filter(|m| m.from() == s)
                .map(|m| (m.from(), m.to(), chess::manhattan(&self.pos, m.to(), t)))
                .collect(),
            (Mode::Target, Aim::Square(t)) => moves
                .iter()
                .filter(|m| m.to() == t)
                .map(|m| (m.from(), m.to(), chess::manhattan(&self.pos, m.from(), s)))
                .collect(),
            // With a vector: the marked piece's move whose vector is nearest (Manhattan), or a
            // move by the vector, of the piece nearest the marked one.
            (Mode::Piece, Aim::Vector(df, dr)) => moves
                .iter()
                .filter(|m| m.from() == s)
                .map(|&m| {
                    let (a, b) = self.vector_of(m);
                    (m.from(), m.to(), ((a - df).abs() + (b - dr).abs()) as usize)
                })
                .collect(),
            (Mode::Target, Aim::Vector(df, dr)) => moves
                .iter()
                .filter(|&&m| self.vector_of(m) == (df, dr))
                .map(|m| (m.from(), m.to(), chess::manhattan(&self.pos, m.from(), s)))
                .collect(),
        };
        let best = pairs.iter().map(|p| p.2).min().unwrap_or(0);
        let mut v: Vec<(Square, Square)> = pairs.iter().filter(|p| p.2 == best).map(|p| (p.0, p.1)).collect();
        v.sort_by_key(|p| (p.0.index(), p.1.index()));
        v.dedup();
        v
    }

    fn actor_now(&self) -> Actor {
        let team = self.team();
        match self.phase {
            Phase::Over => Actor::Over,
            Phase::Piece => Actor::Seat(self.chooser(team), "piece"),
            Phase::Target => Actor::Seat(self.mover(team), "target"),
            Phase::SnapPiece | Phase::SnapTarget => Actor::Seat(self.chooser(!team), "snap"),
            Phase::Mode => Actor::Seat(self.chooser(!team), "mode"),
            Phase::Tie(m) => {
                let seat = if m == Mode::Target {
                    self.chooser(team)
                } else {
                    self.mover(team)
                };
                Actor::Seat(seat, "tie")
            }
            Phase::Promote(m, ..) => {
                let seat = if m == Some(Mode::Target) {
                    self.chooser(team)
                } else {
                    self.mover(team)
                };
                Actor::Seat(seat, "promote")
            }
        }
    }

    /// After both marks (and any snapping): the direct move, or the mode choice.
    fn resolve(&mut self, event: &mut Log) -> Result<(), String> {
        let valid_s = self.valid_pieces();
        let (s, t) = (
            self.marks.0.ok_or("no piece mark")?,
            self.marks.1.ok_or("no target mark")?,
        );
        if !valid_s.contains(&s) {
            let near = self.nearest(s, &valid_s);
            if near.len() > 1 {
                self.phase = Phase::SnapPiece;
                return Ok(());
            }
            self.marks.0 = Some(near[0]);
            event.add(|| format!(" snapped {}->{}", self.name(s), self.name(near[0])));
        }
        let near = self.nearest_aims(t);
        if near.len() > 1 {
            self.phase = Phase::SnapTarget;
            return Ok(());
        }
        if near[0] != t {
            self.marks.1 = Some(near[0]);
            event.add(|| format!(" snapped {}->{}", self.aim_text(t), self.aim_text(near[0])));
        }
        let (s, t) = (self.marks.0.unwrap(), self.marks.1.unwrap());
        if let Some(m) = self.moves().iter().copied().find(|&m| self.hits(m, s, t)) {
            event.add(|| " direct".into());
            return self.complete(None, s, m.to(), event);
        }
        self.phase = Phase::Mode;
        Ok(())
    }

    /// Plays the move from `s` to `t` (asking for the promotion piece when there is a choice).
    fn complete(&mut self, mode: Option<Mode>, s: Square, t: Square, event: &mut Log) -> Result<(), String> {
        let mut candidates = self.moves().iter().copied().filter(|m| m.from() == s && m.to() == t);
        let m = candidates.next().ok_or("no such move")?;
        if candidates.next().is_some() {
            self.phase = Phase::Promote(mode, s, t);
            return Ok(());
        }
        self.play(mode, m, event);
        Ok(())
    }

    fn play(&mut self, mode: Option<Mode>, m: Move, event: &mut Log) {
        let how = match mode {
            None => 0,
            Some(Mode::Piece) => 1,
            Some(Mode::Target) => 2,
        };
        self.turns.push((self.pos.setup(), how, m));
        event.add(|| format!(" move {}", chess::text(&self.pos, m)));
        let black = self.team() == Color::Black;
        self.pos.make_move(m);
        self.legal = legal(&mut self.pos).into();
        if black {
            self.marker = if self.marker == Side::King {
                Side::Queen
            } else {
                Side::King
            };
            let marker = if self.marker == Side::King { "k" } else { "q" };
            event.add(|| format!(" marker {marker}"));
        }
        self.marks = (None, None);
        self.phase = Phase::Piece;
        let has_move = !self.legal.is_empty();
        let mut end = board_end(&self.pos, has_move, self.draws);
        if end.is_none() && self.limit > 0 && self.turns.len() >= self.limit {
            end = Some((None, "move limit"));
        }
        if let Some((winner, reason)) = end {
            let o = team_outcome(2, winner, reason);
            event.add(|| format!(" end {} {{{reason}}}", o.result));
            self.end = Some(o);
            self.phase = Phase::Over;
        }
    }

    /// Applies `action`, writing its event to `event`; on error the state is untouched.
    fn step(&mut self, action: &Action, event: &mut Log) -> Result<(), String> {
        let before = (self.marks, self.phase);
        let r = match (*action, self.phase) {
            (Action::Mark(s), Phase::Piece) => {
                self.marks.0 = Some(s);
                self.phase = Phase::Target;
                event.add(|| "piece marked".into());
                Ok(())
            }
            (Action::Mark(t), Phase::Target) if !self.vectors => {
                self.marks.1 = Some(Aim::Square(t));
                event.add(|| format!("marks {} {}", self.name(self.marks.0.unwrap()), self.name(t)));
                self.resolve(event)
            }
            (Action::Vector(df, dr), Phase::Target) if self.vectors => {
                self.marks.1 = Some(Aim::Vector(df, dr));
                event.add(|| format!("marks {} {}", self.name(self.marks.0.unwrap()), vector_text(df, dr)));
                self.resolve(event)
            }
            (Action::Snap(s), Phase::SnapPiece) => {
                event.add(|| format!("snapped {}->{}", self.name(self.marks.0.unwrap()), self.name(s)));
                self.marks.0 = Some(s);
                self.resolve(event)
            }
            (Action::Snap(t), Phase::SnapTarget) if !self.vectors => {
                event.add(|| format!("snapped {}->{}", self.aim_text(self.marks.1.unwrap()), self.name(t)));
                self.marks.1 = Some(Aim::Square(t));
                self.resolve(event)
            }
            (Action::SnapVector(df, dr), Phase::SnapTarget) if self.vectors => {
                event.add(|| {
                    format!(
                        "snapped {}->{}",
                        self.aim_text(self.marks.1.unwrap()),
                        vector_text(df, dr)
                    )
                });
                self.marks.1 = Some(Aim::Vector(df, dr));
                self.resolve(event)
            }
            (Action::Mode(mode), Phase::Mode) => {
                event.add(|| format!("mode {}", if mode == Mode::Piece { "piece" } else { "target" }));
                let pairs = self.mode_moves(mode);
                if pairs.len() > 1 {
                    self.phase = Phase::Tie(mode);
                    Ok(())
                } else {
                    let (a, b) = pairs[0];
                    self.complete(Some(mode), a, b, event)
                }
            }
            (Action::Move(a, b), Phase::Tie(mode)) => {
                event.add(|| format!("picked {}{}", self.name(a), self.name(b)));
                self.complete(Some(mode), a, b, event)
            }
            (Action::Promote(c), Phase::Promote(mode, s, t)) => {
                let m = self
                    .moves()
                    .iter()
                    .copied()
                    .find(|&m| m.from() == s && m.to() == t && promotion(&self.pos, m) == Some(c))
                    .ok_or("no such promotion")?;
                event.add(|| format!("promote {c}"));
                self.play(mode, m, event);
                Ok(())
            }
            _ => Err("illegal action".into()),
        };
        if r.is_err() {
            // Only the marks and the phase change before a step can fail.
            (self.marks, self.phase) = before;
        }
        r
    }
}

/// The distinct squares of `all`, in index order.
fn squares(all: impl Iterator<Item = Square>) -> Vec<Square> {
    let mut set = Bitboard::<u128>::EMPTY;
    for sq in all {
        set.set(sq);
    }
    set.collect()
}

/// An action's event text, written only when someone reads it.
struct Log(Option<String>);

impl Log {
    fn add(&mut self, part: impl FnOnce() -> String) {
        if let Some(text) = &mut self.0 {
            text.push_str(&part());
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Squares of the 6x6 board: files a-f, ranks 1-6, index = rank * 6 + file.
        let name = |s: &Square| format!("{}{}", (b'a' + (s.index() % 6) as u8) as char, s.index() / 6 + 1);
        match self {
            Action::Mark(s) => write!(f, "mark {}", name(s)),
            Action::Vector(df, dr) => write!(f, "vector {}", vector_text(*df, *dr)),
            Action::SnapVector(df, dr) => write!(f, "snap {}", vector_text(*df, *dr)),
            Action::Snap(s) => write!(f, "snap {}", name(s)),
            Action::Mode(Mode::Piece) => write!(f, "mode piece"),
            Action::Mode(Mode::Target) => write!(f, "mode target"),
            Action::Move(a, b) => write!(f, "move {}{}", name(a), name(b)),
            Action::Promote(c) => write!(f, "promote {c}"),
        }
    }
}

/// What Split-Brain Chess is: its settings, fields and design questions.
pub static INFO: GameInfo = GameInfo {
    name: "splitbrain",
    title: "Split-Brain Chess",
    about: "4 seats, two to a team on the Los Alamos board; each turn two partners mark a piece and a target",
    seats: &[4],
    roles: &["white", "black", "kingside", "queenside"],
    settings: &[
        Setting {
            key: "snap",
            choices: &["manhattan", "chebyshev"],
            default: "manhattan",
            about: "how a mark snaps to the nearest reachable square",
        },
        Setting {
            key: "draws",
            choices: &["on", "off"],
            default: "on",
            about: "threefold repetition and the 50-move rule",
        },
        Setting {
            key: "limit",
            choices: &["0", "200", "400", "600", "1000"],
            default: "600",
            about: "plies until a draw (0: none)",
        },
        Setting {
            key: "marks",
            choices: &["target", "vector"],
            default: "target",
            about: "vector: the mover marks a movement vector (the author's variant)",
        },
    ],
    fields: fen_then![
        "marker" => FieldKind::Text,
        "phase" => FieldKind::Text,
        "marks (piece,target)" => FieldKind::Rings,
    ],
    chance: Chance::Deterministic,
    information: Information::Imperfect,
    utility: Utility::ConstantSum,
    questions: &[
        (
            "How often do the two marks make a move directly (no mode chosen by the opponents)?",
            "share of team turns resolved directly",
        ),
        (
            "How often does the team play the move its engine rates best?",
            "share of moves that were the engine's best",
        ),
        ("How often does White win?", "result: white"),
        ("How often does Black win?", "result: black"),
        ("How often is the game drawn?", "result: draw"),
        ("How long is a game (plies)?", "plies"),
    ],
    ratios: &[
        (
            "share of team turns resolved directly",
            "resolved directly",
            "team turns",
        ),
        ("share resolved by piece mode", "resolved by piece mode", "team turns"),
        ("share resolved by target mode", "resolved by target mode", "team turns"),
        (
            "share of moves that were the engine's best",
            "engine's best move played",
            "team turns",
        ),
    ],
    histograms: &[],
};

impl TableGame for SplitBrain {
    type Action = Action;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn roles(&self, seat: usize) -> Vec<&'static str> {
        let team = if seat < 2 { "white" } else { "black" };
        let side = if seat.is_multiple_of(2) {
            "kingside"
        } else {
            "queenside"
        };
        vec![team, side]
    }

    fn actor(&self) -> Actor {
        self.actor_now()
    }

    fn search_actions(&self) -> Vec<Action> {
        // An invalid mark is snapped to the nearest valid one (the opponent's choice among
        // several): never better than marking that one at once.
        match self.phase {
            Phase::Target if self.vectors => (self.valid_vectors().into_iter())
                .map(|(df, dr)| Action::Vector(df, dr))
                .collect(),
            Phase::Piece => self.valid_pieces().into_iter().map(Action::Mark).collect(),
            Phase::Target => self.valid_targets().into_iter().map(Action::Mark).collect(),
            _ => self.legal_actions(),
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::Target if self.vectors => (-5..=5)
                .flat_map(|df| (-5..=5).map(move |dr| (df, dr)))
                .filter(|&v| v != (0, 0))
                .map(|(df, dr)| Action::Vector(df, dr))
                .collect(),
            Phase::Piece | Phase::Target => self
                .pos
                .variant()
                .geometry
                .landable()
                .into_iter()
                .map(Action::Mark)
                .collect(),
            Phase::SnapPiece => {
                let m = self.marks.0.expect("marked");
                self.nearest(m, &self.valid_pieces())
                    .into_iter()
                    .map(Action::Snap)
                    .collect()
            }
            Phase::SnapTarget => {
                let m = self.marks.1.expect("marked");
                self.nearest_aims(m)
                    .into_iter()
                    .map(|a| match a {
                        Aim::Square(t) => Action::Snap(t),
                        Aim::Vector(df, dr) => Action::SnapVector(df, dr),
                    })
                    .collect()
            }
            Phase::Mode => vec![Action::Mode(Mode::Piece), Action::Mode(Mode::Target)],
            Phase::Tie(mode) => self
                .mode_moves(mode)
                .into_iter()
                .map(|(a, b)| Action::Move(a, b))
                .collect(),
            Phase::Promote(_, s, t) => self
                .moves()
                .iter()
                .copied()
                .filter(|m| m.from() == s && m.to() == t)
                .filter_map(|m| promotion(&self.pos, m).map(Action::Promote))
                .collect(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let (word, arg) = text.split_once(' ').ok_or(
            "expected 'mark SQ', 'vector +F+R', 'snap SQ', 'mode piece|target', 'move FROMTO' or 'promote q|r|n'",
        )?;
        let arg = arg.trim();
        match word {
            "mark" => Ok(Action::Mark(self.sq(arg)?)),
            "vector" => parse_vector(arg).map(|(df, dr)| Action::Vector(df, dr)),
            "snap" if arg.starts_with(['+', '-']) => parse_vector(arg).map(|(df, dr)| Action::SnapVector(df, dr)),
            "snap" => Ok(Action::Snap(self.sq(arg)?)),
            "mode" => match arg {
                "piece" => Ok(Action::Mode(Mode::Piece)),
                "target" => Ok(Action::Mode(Mode::Target)),
                _ => Err(format!("mode '{arg}': expected piece or target")),
            },
            "move" => {
                let split = arg
                    .char_indices()
                    .skip(1)
                    .find(|(_, c)| c.is_ascii_alphabetic())
                    .map(|x| x.0);
                let (a, b) = split
                    .map(|i| arg.split_at(i))
                    .ok_or_else(|| format!("move '{arg}': expected like e2e3"))?;
                Ok(Action::Move(self.sq(a)?, self.sq(b)?))
            }
            "promote" => match arg {
                "q" | "r" | "n" | "Q" | "R" | "N" => {
                    Ok(Action::Promote(arg.to_ascii_lowercase().chars().next().unwrap()))
                }
                _ => Err(format!("promote '{arg}': expected q, r or n")),
            },
            _ => Err(format!("unknown action '{word}'")),
        }
    }

    fn apply(&mut self, action: &Action) -> Result<String, String> {
        let mut event = Log(Some(String::new()));
        self.step(action, &mut event)?;
        Ok(event.0.unwrap_or_default().trim().to_string())
    }

    fn apply_unseen(&mut self, action: &Action) -> Result<(), String> {
        self.step(action, &mut Log(None))
    }

    type Observation = String;

    fn read_observation(&self, text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }

    fn observation(&self, seat: usize) -> String {
        // The piece mark is secret until the target mark reveals both: only the chooser sees it.
        let chooser = matches!(self.phase, Phase::Target) && seat == self.chooser(self.team());
        self.text(chooser || !matches!(self.phase, Phase::Target))
    }

    fn state_text(&self) -> String {
        self.text(true)
    }

    fn set_state(&mut self, text: &str) -> Result<(), String> {
        *self = self.read_state(text, None)?;
        Ok(())
    }

    fn sample_observed(
        &self,
        _: usize,
        observation: &String,
        rng: &mut rand::rngs::StdRng,
    ) -> Result<SplitBrain, String> {
        Ok(belief::View::read(self, observation)?.draw(rng))
    }

    fn belief(&self, _: usize) -> Box<dyn crate::table::mcts::Belief<SplitBrain>> {
        Box::new(belief::MarkBelief::new(self))
    }

    fn heuristic(&self) -> Option<Vec<f64>> {
        // With threefold repetition a rule, a board seen before is valued as the draw it
        // leads to (as engines value a first repetition): the side ahead looks for progress.
        if self.remembers() && (self.seen.contains(&self.pos.key()) || self.pos.is_repetition(1)) {
            return Some(vec![0.5; 4]);
        }
        // The best reply's value: a leaf before the side to move's reply sees what it takes.
        let e = f64::from(super::chess::reply_value(&self.pos));
        let white = if self.pos.side_to_move() == Color::White { e } else { -e };
        Some(super::team_chances(2, white))
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
        let mut t: Tally = vec![
            ("team turns".into(), self.turns.len() as f64),
            (
                "resolved directly".into(),
                self.turns.iter().filter(|x| x.1 == 0).count() as f64,
            ),
            (
                "resolved by piece mode".into(),
                self.turns.iter().filter(|x| x.1 == 1).count() as f64,
            ),
            (
                "resolved by target mode".into(),
                self.turns.iter().filter(|x| x.1 == 2).count() as f64,
            ),
        ];
        // How often the move played was the engine's best (a depth-3 search of the position).
        let mut searcher = chess::searcher();
        let mut best = 0;
        // Oldest first: the searcher keeps what it learnt from one position for the next.
        let turns: Vec<_> = self.turns.iter().collect();
        for (setup, _, m) in turns.into_iter().rev() {
            let mut pos =
                Position::from_setup(std::sync::Arc::clone(self.pos.game()), setup, false).expect("own position");
            let vals = chess::move_values(&mut searcher, &mut pos, 2);
            let top = vals.iter().map(|v| v.1).max().unwrap_or(0);
            if vals.iter().any(|(x, v)| x == m && *v == top) {
                best += 1;
            }
        }
        t.push(("engine's best move played".into(), best as f64));
        t.push(("plies".into(), self.turns.len() as f64));
        t
    }

    fn engine_seat(&self, seat: usize, options: &Settings, seed: u64) -> Result<Box<dyn Seat>, String> {
        // The generic player, which beats the hand-made one (BENCHMARKS.md), unless
        // `player=focal` asks for that one.
        let defaults = ("focal", &MCTS_DEFAULTS[..]);
        let mut game = self.clone();
        let (repeats, rest) = super::generic_option(options, "repeats", "focal")?;
        match repeats.as_deref() {
            None => {}
            Some("on") => game.repeats = true,
            Some("off") => game.repeats = false,
            Some(v) => return Err(format!("engine option repeats={v}: on or off")),
        }
        crate::table::mcts::engine_seat_or_own(&game, seat, &rest, seed, defaults, |rest| {
            Engine::new(self.clone(), rest, seed)
        })
    }
}

/// The engine seat's options for the generic player, chosen in matches against the hand-made
/// one (BENCHMARKS.md): the partner's secret mark drawn as the partner's own search would make
/// it, a tree of four decisions (both marks, the opponents' snap or mode, the next mark) before
/// the heuristic, a greedier UCB and the best mean of the often visited marks.
const MCTS_DEFAULTS: [(&str, &str); 5] = [
    ("iterations", "500"),
    ("partner", "500"),
    ("depth", "4"),
    ("explore", "30"),
    ("pick", "1"),
];
