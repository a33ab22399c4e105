//! Information-set Monte Carlo tree search, written once for every table game: the `mcts` seat.
//!
//! Single-observer IS-MCTS (Cowling, Powley and Whitehouse, 2012): each iteration draws a true
//! state the seat's observations allow ([`TableGame::belief`]), walks one tree keyed by the
//! actions taken from the decision, picks among the actions legal in that draw by UCB with
//! availability counts, expands one action, plays on at random for a few actions and scores the
//! end ([`TableGame::outcome`]) or the state ([`TableGame::heuristic`]). Chance nodes draw by
//! their odds; every seat maximises its own score, so teams, opponents and solitaires need no
//! special case. The tree's size is fixed before the search starts. Partners who act unseen
//! (a card face down, a secret mark) can be drawn as their own search would act
//! ([`PartnerModel`]).

use super::QuickHasher;
use super::seats::{Player, PlayerError, PlayerSeat, Seat, number_options};
use super::{Actor, Seen, Settings, TableGame};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash};
use std::time::{Duration, Instant};
use ucb::best_by_ucb;

mod ucb;

/// What a seat believes: its observations so far, and true states drawn from them.
pub trait Belief<G: TableGame>: Send {
    /// The seat's newest observation.
    fn see(&mut self, observation: &G::Observation) -> Result<(), String>;
    /// A true state the observations allow, its hidden parts drawn from `rng`.
    fn sample(&mut self, rng: &mut StdRng) -> Result<G, String>;
}

/// A [`Belief`] behind a table object: fed what its seat is shown, it draws true states as
/// state texts.
pub trait TextBelief {
    /// The seat's newest observation.
    fn see(&mut self, seen: &Seen) -> Result<(), String>;
    /// A true state the observations allow, as its state text.
    fn sample_text(&mut self, rng: &mut StdRng) -> Result<String, String>;
}

/// A belief with a game of its settings, to read observations known only as text.
pub struct GameBelief<G: TableGame> {
    /// A game with the belief's settings.
    pub game: G,
    /// The belief.
    pub belief: Box<dyn Belief<G>>,
}

impl<G: TableGame> TextBelief for GameBelief<G> {
    fn see(&mut self, seen: &Seen) -> Result<(), String> {
        let o = seen.read(&self.game)?;
        self.belief.see(&o)
    }
    fn sample_text(&mut self, rng: &mut StdRng) -> Result<String, String> {
        Ok(self.belief.sample(rng)?.state_text())
    }
}

/// The belief of a game whose newest observation says all a seat may infer: each draw is
/// [`TableGame::sample_observed`] of that observation.
pub struct LastObservation<G: TableGame> {
    game: G,
    seat: usize,
    observation: Option<G::Observation>,
}

impl<G: TableGame> LastObservation<G> {
    /// A belief for `seat`; `game` supplies only the settings (its state is never read).
    pub fn new(game: G, seat: usize) -> LastObservation<G> {
        LastObservation {
            game,
            seat,
            observation: None,
        }
    }
}

impl<G: TableGame> Belief<G> for LastObservation<G> {
    fn see(&mut self, observation: &G::Observation) -> Result<(), String> {
        self.observation = Some(observation.clone());
        Ok(())
    }
    fn sample(&mut self, rng: &mut StdRng) -> Result<G, String> {
        let o = self.observation.as_ref().ok_or("no observation yet")?;
        self.game.sample_observed(self.seat, o, rng)
    }
}

/// The belief of a game whose newest observation says all a seat may infer, read once: each
/// draw is a copy of the view `read` made of it, its hidden parts drawn by `fill` (given the
/// game the belief was made for, whose settings it keeps). A view that cannot be read (a
/// finished game's) is an error only when drawn from.
pub struct ReadOnce<G: TableGame> {
    base: G,
    read: fn(&G, &G::Observation) -> Result<G, String>,
    fill: fn(&G, &mut G, &mut StdRng) -> Result<(), String>,
    view: Result<G, String>,
}

impl<G: TableGame> ReadOnce<G> {
    /// A belief for a seat of `base` (read as [`TableGame::sample_observed`] reads `self`).
    pub fn new(
        base: G,
        read: fn(&G, &G::Observation) -> Result<G, String>,
        fill: fn(&G, &mut G, &mut StdRng) -> Result<(), String>,
    ) -> ReadOnce<G> {
        ReadOnce {
            base,
            read,
            fill,
            view: Err("no observation yet".into()),
        }
    }
}

impl<G: TableGame<Observation = G>> ReadOnce<G> {
    /// The belief of a seat that sees the whole state: the observation is the state.
    pub fn seen(base: G) -> ReadOnce<G> {
        ReadOnce::new(base, |_, observation| Ok(observation.clone()), |_, _, _| Ok(()))
    }
}

impl<G: TableGame> Belief<G> for ReadOnce<G> {
    fn see(&mut self, observation: &G::Observation) -> Result<(), String> {
        self.view = (self.read)(&self.base, observation);
        Ok(())
    }
    fn sample(&mut self, rng: &mut StdRng) -> Result<G, String> {
        let mut g = self.view.clone()?;
        (self.fill)(&self.base, &mut g, rng)?;
        Ok(g)
    }
}

/// A belief that draws another seat's unseen action as that seat would choose it. After the
/// seat saw the whole state and another seat then acted unseen (a predictor's face-down card,
/// a chooser's secret mark), each draw takes one of the actions that agree with the seat's
/// newest observation (and leave this seat to act), by the acting seat's own search of that
/// state (made once, `partner` iterations): half the odds to the action it would play, half by
/// its root visits. Otherwise draws come from the game's belief.
pub struct PartnerModel<G: TableGame> {
    seat: usize,
    base: Box<dyn Belief<G>>,
    /// The partner's search: these options with `partner` iterations and no model of its own.
    options: MctsOptions,
    /// A game with the settings, to read observations as states.
    game: G,
    /// The whole state, while the newest observation is it or the one right after it.
    whole: Option<G>,
    /// Whether the newest observation was the whole state.
    saw_whole: bool,
    observation: Option<G::Observation>,
    /// The states the unseen action may have made, each with its odds' running total; made at
    /// the first draw after the action (empty: draw from `base`).
    model: Option<Vec<(G, f64)>>,
}

impl<G: TableGame> PartnerModel<G> {
    /// The model for `seat` of `game`, drawing from `base` when it has nothing to model.
    pub fn new(game: &G, seat: usize, base: Box<dyn Belief<G>>, options: &MctsOptions) -> PartnerModel<G> {
        let options = MctsOptions {
            iterations: options.partner,
            time: None,
            partner: 0,
            seed: None,
            ..options.clone()
        };
        PartnerModel {
            seat,
            base,
            options,
            game: game.clone(),
            whole: None,
            saw_whole: false,
            observation: None,
            model: None,
        }
    }

    /// The states one unseen action of another seat makes from the whole state, that the
    /// seat's newest observation allows, with their odds' running totals (empty if none).
    fn build(&self, rng: &mut StdRng) -> Result<Vec<(G, f64)>, String> {
        let Some(before) = &self.whole else {
            return Ok(Vec::new());
        };
        let Actor::Seat(other, _) = before.actor() else {
            return Ok(Vec::new());
        };
        if other == self.seat {
            return Ok(Vec::new());
        }
        let mut after: Vec<(G::Action, G)> = Vec::new();
        for a in before.legal_actions() {
            let mut g = before.clone();
            // States where this seat acts, that show it its observation.
            if g.apply_unseen(&a).is_ok()
                && matches!(g.actor(), Actor::Seat(s, _) if s == self.seat)
                && self.observation.as_ref() == Some(&g.observation(self.seat))
            {
                after.push((a, g));
            }
        }
        if after.len() < 2 {
            return Ok(after.into_iter().map(|(_, g)| (g, 1.0)).collect());
        }
        let mut partner = Mcts::with_options(before, other, self.options.clone(), rng.random())?;
        partner.grow(false)?;
        let edges = &partner.nodes[0].edges;
        let picked = partner.pick().map(|i| &edges[i].action);
        let all: f64 = edges.iter().map(|e| f64::from(e.visits)).sum();
        let mut total = 0.0;
        Ok(after
            .into_iter()
            .map(|(a, g)| {
                // Half a visit for each action keeps every allowed action possible.
                total += 0.5
                    + edges
                        .iter()
                        .find(|e| e.action == a)
                        .map_or(0.0, |e| f64::from(e.visits));
                if picked == Some(&a) {
                    total += all;
                }
                (g, total)
            })
            .collect())
    }
}

impl<G: TableGame> Belief<G> for PartnerModel<G> {
    fn see(&mut self, observation: &G::Observation) -> Result<(), String> {
        self.base.see(observation)?;
        // Whether the observation shows the whole state: its text reads as a state that
        // prints the same.
        let text = observation.to_string();
        let mut g = self.game.clone();
        let whole = g.set_state(&text).is_ok() && g.state_text() == text;
        if whole {
            // The whole state as the base belief holds it, which may remember more than the
            // text says (what its seat saw before): its draw, when the draw's text is the
            // observation.
            let held = self.base.sample(&mut StdRng::seed_from_u64(0));
            self.whole = Some(held.ok().filter(|h| h.state_text() == text).unwrap_or(g));
        } else if !self.saw_whole {
            // Two observations since the whole state: more than one action to guess.
            self.whole = None;
        }
        self.saw_whole = whole;
        self.observation = Some(observation.clone());
        self.model = None;
        Ok(())
    }
    fn sample(&mut self, rng: &mut StdRng) -> Result<G, String> {
        if self.model.is_none() {
            self.model = Some(self.build(rng)?);
        }
        let model = self.model.as_deref().unwrap_or(&[]);
        let Some((_, total)) = model.last() else {
            return self.base.sample(rng);
        };
        let x = rng.random::<f64>() * total;
        let k = model.partition_point(|(_, t)| *t <= x).min(model.len() - 1);
        Ok(model[k].0.clone())
    }
}

/// One action out of a node: its child, and the statistics of the seat that acts there.
struct Edge<A> {
    action: A,
    child: u32,
    visits: u32,
    /// Iterations in which this action was legal (the availability count of IS-MCTS).
    available: u32,
    /// Sum of the acting seat's scores over the visits.
    total: f64,
    /// `total / visits` (0 before the first visit), kept for UCB.
    mean: f64,
}

/// A node: the actions tried from it. Which seat acts is read from each draw.
struct Node<A> {
    edges: Vec<Edge<A>>,
    /// The edge of each action, once the node has [`INDEXED`] edges: a node of many actions
    /// (a Cloak assignment's 960) is then matched in one pass.
    index: HashMap<A, u32, BuildHasherDefault<QuickHasher>>,
    /// The legal actions of the last selection here, each with its edge ([`UNTRIED`] if
    /// none): where draws agree on the actions (a public board), one pass over the two lists
    /// matches them.
    last: Vec<(A, u32)>,
}

/// No edge yet, in [`Node::last`].
const UNTRIED: u32 = u32::MAX;

/// The number of edges from which a node keeps an index of its actions.
const INDEXED: usize = 32;

impl<A: PartialEq + Eq + Hash + Clone> Node<A> {
    fn new() -> Node<A> {
        Node {
            edges: Vec::new(),
            index: HashMap::default(),
            last: Vec::new(),
        }
    }

    /// The edge of each of `legal` ([`UNTRIED`] if none), matched anew only when `legal`
    /// differs from the last selection's.
    fn edges_of(&mut self, legal: &[A]) -> &[(A, u32)] {
        let same = self.last.len() == legal.len() && self.last.iter().zip(legal).all(|(l, a)| l.0 == *a);
        if !same {
            let mut last = std::mem::take(&mut self.last);
            last.clear();
            last.extend(
                legal
                    .iter()
                    .map(|a| (a.clone(), self.find(a).map_or(UNTRIED, |i| i as u32))),
            );
            self.last = last;
        }
        &self.last
    }

    /// The edge of `action`, if tried.
    fn find(&self, action: &A) -> Option<usize> {
        if self.edges.len() < INDEXED {
            self.edges.iter().position(|e| e.action == *action)
        } else {
            self.index.get(action).map(|&i| i as usize)
        }
    }

    /// Adds the edge `e`; returns its number.
    fn add(&mut self, e: Edge<A>) -> usize {
        let i = self.edges.len() as u32;
        for l in self.last.iter_mut().filter(|l| l.0 == e.action) {
            l.1 = i;
        }
        self.edges.push(e);
        let n = self.edges.len();
        if n == INDEXED {
            let all = self.edges.iter().enumerate().map(|(i, e)| (e.action.clone(), i as u32));
            self.index.extend(all);
        } else if n > INDEXED {
            self.index.insert(self.edges[n - 1].action.clone(), n as u32 - 1);
        }
        n - 1
    }
}

/// Search settings: `iterations=N` (default 1000), `seconds=S` (a time budget; alone, it lifts
/// the iteration limit, and with both the search stops at whichever comes first),
/// `explore=N` (UCB's constant in hundredths, default 70), `rollout=N` (random actions after
/// the tree before the heuristic scores, default 0), `partner=N` (another seat's unseen action
/// drawn by that seat's own search of N iterations, [`PartnerModel`]; default 0: by the
/// game's belief), `depth=N` (seat decisions in the tree before the heuristic scores;
/// default 0: no limit), `pick=1` (play the best mean among the actions visited at least half
/// as often as the most visited; default 0: the most visited), `settle=0` (spend the whole
/// budget even once the pick cannot change; default 1: stop then), `seed=N`.
#[derive(Clone, Debug)]
pub struct MctsOptions {
    /// Iterations a decision (`u32::MAX` under a time budget alone).
    pub iterations: u32,
    /// Time a decision, if limited.
    pub time: Option<Duration>,
    /// UCB's exploration constant (scores brought to 0..1).
    pub explore: f64,
    /// Random seat actions after the tree before the heuristic may score.
    pub rollout: u32,
    /// Iterations of the search that models another seat's unseen action (0: none).
    pub partner: u32,
    /// The most seat decisions an iteration takes in the tree (0: no limit).
    pub depth: u32,
    /// Whether the root's action is the best mean among the often visited.
    pub pick: bool,
    /// Whether a decision's search stops once its pick cannot change (see [`Mcts::grow`]).
    pub settle: bool,
    /// The seat's seed, when given.
    pub seed: Option<u64>,
}

impl MctsOptions {
    /// Reads the seat options (see the type's doc); unknown keys are refused.
    pub fn parse(options: &Settings) -> Result<MctsOptions, String> {
        let mut numbers: Settings = Vec::new();
        let mut time = None;
        for (k, v) in options {
            if k == "seconds" {
                let s: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s <= 3600.0)
                    .ok_or_else(|| format!("engine option seconds={v}: a number of seconds, 0 to 3600"))?;
                time = Some(Duration::from_secs_f64(s));
            } else {
                numbers.push((k.clone(), v.clone()));
            }
        }
        let known = [
            ("iterations", 1, 10_000_000, 1000),
            ("explore", 0, 1000, 70),
            ("rollout", 0, 10_000, 0),
            ("partner", 0, 10_000_000, 0),
            ("depth", 0, 10_000, 0),
            ("pick", 0, 1, 0),
            ("settle", 0, 1, 1),
        ];
        let (v, seed) = number_options(&numbers, &known).map_err(|e| format!("{e}, seconds=S"))?;
        let counted = options.iter().any(|(k, _)| k == "iterations");
        Ok(MctsOptions {
            iterations: if time.is_some() && !counted {
                u32::MAX
            } else {
                v[0] as u32
            },
            time,
            explore: v[1] as f64 / 100.0,
            rollout: v[2] as u32,
            partner: v[3] as u32,
            depth: v[4] as u32,
            pick: v[5] == 1,
            settle: v[6] == 1,
            seed,
        })
    }
}

/// The IS-MCTS player of one seat.
pub struct Mcts<G: TableGame> {
    seat: usize,
    /// A game with the settings, to read an observation known only as text.
    game: G,
    belief: Box<dyn Belief<G>>,
    options: MctsOptions,
    rng: StdRng,
    nodes: Vec<Node<G::Action>>,
    /// The lowest and highest scores seen, to bring every game's scores to 0..1 for UCB.
    range: (f64, f64),
    /// Buffers an iteration reuses: its path (node, edge, acting seat), and the edges of the
    /// legal actions at a node and those untried (indices into the legal actions).
    path: Vec<(usize, usize, usize)>,
    present: Vec<usize>,
    untried: Vec<usize>,
    /// Buffer for UCB's estimates ([`ucb::best_by_ucb`]).
    estimates: Vec<f64>,
    /// Buffer for the legal actions of a step of an iteration.
    actions: Vec<G::Action>,
    /// The iterations the last search ran.
    ran: u32,
}

impl<G: TableGame> Mcts<G> {
    /// A player for `seat` of `game` (its settings; its belief from [`TableGame::belief`]).
    pub fn new(game: &G, seat: usize, options: &Settings, seed: u64) -> Result<Mcts<G>, String> {
        Mcts::with_options(game, seat, MctsOptions::parse(options)?, seed)
    }

    /// A player for `seat` of `game` with options already read.
    fn with_options(game: &G, seat: usize, options: MctsOptions, seed: u64) -> Result<Mcts<G>, String> {
        let seed = options.seed.unwrap_or(seed);
        let cap = options.iterations.min(1 << 20) as usize * 2 + 1;
        let mut belief = game.belief(seat);
        if options.partner > 0 {
            belief = Box::new(PartnerModel::new(game, seat, belief, &options));
        }
        belief.see(&game.observation(seat))?;
        Ok(Mcts {
            seat,
            game: game.clone(),
            belief,
            options,
            rng: StdRng::seed_from_u64(seed),
            nodes: Vec::with_capacity(cap),
            range: (f64::INFINITY, f64::NEG_INFINITY),
            path: Vec::new(),
            present: Vec::new(),
            untried: Vec::new(),
            estimates: Vec::new(),
            actions: Vec::new(),
            ran: 0,
        })
    }

    /// The action to play after the search (see `pick`).
    pub fn search(&mut self) -> Result<G::Action, String> {
        let root_actions = self.grow(self.options.settle)?;
        let root = &self.nodes[0];
        let best = self.pick().map(|i| root.edges[i].action.clone());
        best.or_else(|| root_actions.and_then(|a| a.into_iter().next()))
            .ok_or_else(|| "no legal action".to_string())
    }

    /// The iterations the last search ran (fewer than the budget when it settled early).
    pub fn iterations_run(&self) -> u32 {
        self.ran
    }

    /// The root's edge to play: the most visited; with `pick=1`, the best mean among those
    /// visited at least half as often as the most visited.
    fn pick(&self) -> Option<usize> {
        pick(&self.nodes[0].edges, self.options.pick)
    }

    /// Grows a new tree for the decision within the budget; returns the root's actions to
    /// search in the first draw (none if no iteration ran). With `settle`, the search ends
    /// once its pick cannot change: a single action in the first draw (it is the seat's own,
    /// so every draw has it alone), or an edge the iterations left cannot catch ([`settled`]).
    fn grow(&mut self, settle: bool) -> Result<Option<Vec<G::Action>>, String> {
        self.nodes.clear();
        self.nodes.push(Node::new());
        self.range = (f64::INFINITY, f64::NEG_INFINITY);
        let start = Instant::now();
        let cap = self.nodes.capacity();
        let mut root_actions = None;
        self.ran = 0;
        for i in 0..self.options.iterations {
            if let Some(t) = self.options.time
                && i > 0
                && start.elapsed() >= t
            {
                break;
            }
            let left = self.options.iterations - i;
            if settle
                && self.options.time.is_none()
                && 2 * left < self.options.iterations
                && settled(&self.nodes[0].edges, left, self.options.pick)
            {
                break;
            }
            let mut state = self.belief.sample(&mut self.rng)?;
            match state.actor() {
                Actor::Seat(s, _) if s == self.seat => {}
                other => {
                    return Err(format!(
                        "the belief drew a state where {other} acts, not seat {}",
                        self.seat
                    ));
                }
            }
            if root_actions.is_none() {
                let actions = state.search_actions();
                if settle && actions.len() == 1 {
                    return Ok(Some(actions));
                }
                root_actions = Some(actions);
            }
            self.iterate(&mut state, cap)?;
            self.ran += 1;
        }
        Ok(root_actions)
    }

    /// One iteration on the drawn `state`: select, expand, play out, back up.
    fn iterate(&mut self, state: &mut G, cap: usize) -> Result<(), String> {
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let mut node = 0usize;
        let mut expanded = false;
        loop {
            match state.actor() {
                Actor::Over => break,
                Actor::Chance => {
                    let a = draw(&state.chance_outcomes(), &mut self.rng)?;
                    let (i, fresh) = self.edge(node, &a, cap);
                    state.apply_unseen(&a)?;
                    match i {
                        Some(i) => node = self.nodes[node].edges[i].child as usize,
                        None => break,
                    }
                    if fresh {
                        expanded = true;
                    }
                }
                Actor::Seat(seat, _) => {
                    let deep = self.options.depth > 0 && path.len() >= self.options.depth as usize;
                    if expanded || deep {
                        break;
                    }
                    let mut legal = std::mem::take(&mut self.actions);
                    state.search_actions_into(&mut legal);
                    if legal.is_empty() {
                        return Err(format!("seat {seat} acts with no legal action: {}", state.state_text()));
                    }
                    let (i, fresh) = self.select(node, &legal, cap);
                    let action = match i {
                        Some(i) => self.nodes[node].edges[i].action.clone(),
                        None => legal[self.rng.random_range(0..legal.len())].clone(),
                    };
                    self.actions = legal;
                    state.apply_unseen(&action)?;
                    let Some(i) = i else { break };
                    path.push((node, i, seat));
                    node = self.nodes[node].edges[i].child as usize;
                    expanded = fresh;
                }
            }
        }
        let scores = self.play_out(state)?;
        for &s in &scores {
            self.range.0 = self.range.0.min(s);
            self.range.1 = self.range.1.max(s);
        }
        for &(n, i, seat) in &path {
            let e = &mut self.nodes[n].edges[i];
            e.visits += 1;
            e.total += scores.get(seat).copied().unwrap_or(0.0);
            e.mean = e.total / e.visits as f64;
        }
        self.path = path;
        Ok(())
    }

    /// Picks the edge to follow among `legal`: an untried action first (made an edge, if the
    /// tree has room: `(None, _)` when not), else the best by UCB. Counts availability.
    fn select(&mut self, node: usize, legal: &[G::Action], cap: usize) -> (Option<usize>, bool) {
        let (mut untried, mut present) = (std::mem::take(&mut self.untried), std::mem::take(&mut self.present));
        untried.clear();
        present.clear();
        for (k, &(_, i)) in self.nodes[node].edges_of(legal).iter().enumerate() {
            if i == UNTRIED {
                untried.push(k);
            } else {
                present.push(i as usize);
            }
        }
        for &i in &present {
            self.nodes[node].edges[i].available += 1;
        }
        let picked = if untried.is_empty() {
            (self.best_by_ucb(node, &present), false)
        } else {
            let k = untried[self.rng.random_range(0..untried.len())];
            let (i, fresh) = self.edge(node, &legal[k], cap);
            if let Some(i) = i {
                self.nodes[node].edges[i].available += 1;
            }
            (i, fresh)
        };
        (self.untried, self.present) = (untried, present);
        picked
    }

    /// The edge among `present` (edges of `node`) with the best upper confidence bound.
    fn best_by_ucb(&mut self, node: usize, present: &[usize]) -> Option<usize> {
        let estimates = &mut self.estimates;
        best_by_ucb(
            &self.nodes[node].edges,
            present,
            self.range,
            self.options.explore,
            estimates,
        )
    }

    /// The edge of `action` at `node`, made (with a new child) if missing and the tree has
    /// room; the flag says it was made now.
    fn edge(&mut self, node: usize, action: &G::Action, cap: usize) -> (Option<usize>, bool) {
        if let Some(i) = self.nodes[node].find(action) {
            return (Some(i), false);
        }
        if self.nodes.len() >= cap {
            return (None, false);
        }
        let child = self.nodes.len() as u32;
        self.nodes.push(Node::new());
        let i = self.nodes[node].add(Edge {
            action: action.clone(),
            child,
            visits: 0,
            available: 0,
            total: 0.0,
            mean: 0.0,
        });
        (Some(i), true)
    }

    /// Random actions (chance by its odds) for at most `rollout` seat actions, then the
    /// outcome's scores or the game's heuristic; with neither, play on to the end.
    fn play_out(&mut self, state: &mut G) -> Result<Vec<f64>, String> {
        let mut steps = 0u32;
        loop {
            match state.actor() {
                Actor::Over => {
                    return state
                        .outcome()
                        .map(|o| o.scores)
                        .ok_or_else(|| "over without an outcome".to_string());
                }
                Actor::Chance => {
                    let a = draw(&state.chance_outcomes(), &mut self.rng)?;
                    state.apply_unseen(&a)?;
                }
                Actor::Seat(..) => {
                    if steps >= self.options.rollout
                        && let Some(h) = state.heuristic()
                    {
                        return Ok(h);
                    }
                    let mut legal = std::mem::take(&mut self.actions);
                    state.search_actions_into(&mut legal);
                    if legal.is_empty() {
                        return Err(format!("a seat acts with no legal action: {}", state.state_text()));
                    }
                    let a = legal[self.rng.random_range(0..legal.len())].clone();
                    self.actions = legal;
                    state.apply_unseen(&a)?;
                    steps += 1;
                }
            }
        }
    }
}

/// The engine seat of a game whose generic player is its strongest: the `mcts` player (with
/// the game's `mcts_defaults` under the options given), unless the option `player=NAME` asks
/// for the game's own player `own_name`, which `own` makes from the other options (and which
/// is then shown the seat's observation: its view starts from what the seat may see).
pub fn engine_seat_or_own<G: TableGame, P: Player + 'static>(
    game: &G,
    seat: usize,
    options: &Settings,
    seed: u64,
    (own_name, mcts_defaults): (&str, &[(&str, &str)]),
    own: impl FnOnce(&Settings) -> Result<P, String>,
) -> Result<Box<dyn Seat>, String> {
    let rest: Settings = options.iter().filter(|(k, _)| k != "player").cloned().collect();
    match options
        .iter()
        .rev()
        .find(|(k, _)| k == "player")
        .map(|(_, v)| v.as_str())
    {
        None | Some("mcts") => {
            let mcts = with_defaults(&rest, mcts_defaults);
            let player = Mcts::new(game, seat, &mcts, seed)
                .map_err(|e| format!("{e} (the hand-made player's options follow player={own_name})"))?;
            Ok(Box::new(PlayerSeat(player)))
        }
        Some(p) if p == own_name => {
            let mut player = own(&rest)?;
            player.see(&Seen::of(game, seat)).map_err(|e| e.to_string())?;
            Ok(Box::new(PlayerSeat(player)))
        }
        Some(p) => Err(format!("engine option player={p}: mcts or {own_name}")),
    }
}

/// `options` after those of `defaults` they do not give (a budget in seconds replaces a
/// default number of iterations).
fn with_defaults(options: &Settings, defaults: &[(&str, &str)]) -> Settings {
    let given = |key: &str| (options.iter()).any(|(k, _)| k == key || (key == "iterations" && k == "seconds"));
    let mut out: Settings = (defaults.iter())
        .filter(|(k, _)| !given(k))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    out.extend(options.iter().cloned());
    out
}

/// Whether [`pick`] must choose the most visited of `edges` however `left` more visits (at
/// most one each) fall: every other edge (and any not yet made) stays below the most
/// visited's count, or with `by_mean` below half of it, so that none could be picked.
fn settled<A>(edges: &[Edge<A>], left: u32, by_mean: bool) -> bool {
    let (mut most, mut next) = (0, 0);
    for e in edges {
        if e.visits > most {
            (most, next) = (e.visits, most);
        } else if e.visits > next {
            next = e.visits;
        }
    }
    let reach = next + left;
    if by_mean {
        reach < most.div_ceil(2)
    } else {
        reach < most
    }
}

/// The edge to play among `edges`: the most visited (ties: the larger total); `by_mean`, the
/// best mean among those visited at least half as often.
fn pick<A>(edges: &[Edge<A>], by_mean: bool) -> Option<usize> {
    let most = (0..edges.len()).max_by(|&a, &b| {
        let (a, b) = (&edges[a], &edges[b]);
        a.visits.cmp(&b.visits).then(a.total.total_cmp(&b.total))
    })?;
    if !by_mean {
        return Some(most);
    }
    let mean = |e: &Edge<A>| e.total / f64::from(e.visits.max(1));
    let floor = edges[most].visits.div_ceil(2);
    (0..edges.len())
        .filter(|&i| edges[i].visits >= floor)
        .max_by(|&a, &b| mean(&edges[a]).total_cmp(&mean(&edges[b])))
}

/// Draws a chance outcome by its odds.
fn draw<A: Clone>(outcomes: &[(A, f64)], rng: &mut StdRng) -> Result<A, String> {
    let total: f64 = outcomes.iter().map(|o| o.1).sum();
    if outcomes.is_empty() || total <= 0.0 {
        return Err("a chance node without outcomes".into());
    }
    let mut x = rng.random::<f64>() * total;
    for (a, p) in outcomes {
        if x < *p {
            return Ok(a.clone());
        }
        x -= p;
    }
    Ok(outcomes[outcomes.len() - 1].0.clone())
}

impl<G: TableGame> Player for Mcts<G> {
    fn see(&mut self, seen: &Seen) -> Result<(), PlayerError> {
        let observation = seen.read(&self.game).map_err(PlayerError::Unreadable)?;
        self.belief.see(&observation).map_err(PlayerError::Unreadable)
    }

    fn decide(&mut self, legal: &[String]) -> Result<String, PlayerError> {
        // One legal action is no decision (a pass, an end of turn): no search.
        if let [only] = legal {
            return Ok(only.clone());
        }
        let a = self.search().map_err(PlayerError::Failed)?.to_string();
        if legal.contains(&a) {
            Ok(a)
        } else {
            Err(PlayerError::Failed(format!(
                "mcts chose '{a}', which the referee does not list"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Edge, INDEXED, Node, UNTRIED, pick, settled, with_defaults};

    fn settings(pairs: &[(&str, &str)]) -> crate::table::Settings {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn a_game_s_defaults_yield_to_the_options_given() {
        let defaults = [("iterations", "500"), ("explore", "60")];
        assert_eq!(
            with_defaults(&settings(&[]), &defaults),
            settings(&[("iterations", "500"), ("explore", "60")])
        );
        assert_eq!(
            with_defaults(&settings(&[("iterations", "80")]), &defaults),
            settings(&[("explore", "60"), ("iterations", "80")])
        );
        // A budget in seconds: no default number of iterations cuts it short.
        assert_eq!(
            with_defaults(&settings(&[("seconds", "2")]), &defaults),
            settings(&[("explore", "60"), ("seconds", "2")])
        );
    }

    /// The most visited edge, or with `by_mean` the best mean among those visited at least half
    /// as often as the most visited.
    #[test]
    fn the_root_plays_the_most_visited_or_the_best_mean_of_the_often_visited() {
        let edge = |visits: u32, mean: f64| Edge {
            action: visits,
            child: 0,
            visits,
            available: visits,
            total: mean * f64::from(visits),
            mean,
        };
        let edges = [edge(10, 0.5), edge(5, 0.7), edge(4, 0.9), edge(0, 0.0)];
        assert_eq!(pick(&edges, false), Some(0));
        assert_eq!(pick(&edges, true), Some(1), "5 of 10 visits is enough, 4 is not");
        assert_eq!(pick::<u32>(&[], true), None);
    }

    /// `settled` holds exactly when no way of spending the iterations left (on the edges, or
    /// on an edge not yet made) lets `pick` choose another edge than the most visited: every
    /// small case, with the other edges' means better than the most visited's.
    #[test]
    fn a_search_is_settled_exactly_when_no_iterations_left_change_its_pick() {
        let edge = |visits: u32, better: bool| Edge {
            action: 0u32,
            child: 0,
            visits,
            available: visits,
            total: if better { f64::from(visits) } else { 0.0 },
            mean: if better && visits > 0 { 1.0 } else { 0.0 },
        };
        // Every way of adding `left` visits over `n` edges.
        fn spread(n: usize, left: u32, out: &mut Vec<Vec<u32>>, now: &mut Vec<u32>) {
            if now.len() == n - 1 {
                now.push(left);
                out.push(now.clone());
                now.pop();
                return;
            }
            for k in 0..=left {
                now.push(k);
                spread(n, left - k, out, now);
                now.pop();
            }
        }
        let mut seen = [0; 2];
        for by_mean in [false, true] {
            for visits in (0..4u32.pow(3)).map(|x| [x % 4 * 3, x / 4 % 4 * 2, x / 16]) {
                // The most visited first (the others' means better), then one edge not yet made.
                let Some(&most) = visits.iter().max() else { continue };
                let mut order = visits.to_vec();
                order.sort_by_key(|&v| std::cmp::Reverse(v));
                if most == 0 || order[1] == most {
                    continue;
                }
                let edges: Vec<_> = (order.iter().enumerate()).map(|(i, &v)| edge(v, i > 0)).collect();
                for left in 0..6 {
                    let mut ways = Vec::new();
                    spread(edges.len() + 1, left, &mut ways, &mut Vec::new());
                    let changes = ways.iter().any(|w| {
                        let mut after: Vec<_> = (edges.iter().zip(w).enumerate())
                            .map(|(i, (e, &k))| edge(e.visits + k, i > 0))
                            .collect();
                        after.push(edge(w[edges.len()], true));
                        pick(&after, by_mean) != Some(0)
                    });
                    let s = settled(&edges, left, by_mean);
                    assert_eq!(s, !changes, "{order:?} left {left} by_mean {by_mean}");
                    seen[usize::from(s)] += 1;
                }
            }
        }
        assert!(seen[0] > 100 && seen[1] > 100, "{seen:?}");
    }

    /// A node finds each action's edge, before and after it keeps an index, and no edge for
    /// an action never added.
    #[test]
    fn a_node_finds_its_edges_with_and_without_an_index() {
        let mut node: Node<(u8, char)> = Node::new();
        let action = |i: usize| ((i % 7) as u8, (b'a' + (i / 7) as u8) as char);
        for n in 0..3 * INDEXED {
            let i = node.add(Edge {
                action: action(n),
                child: n as u32,
                visits: 0,
                available: 0,
                total: 0.0,
                mean: 0.0,
            });
            assert_eq!(i, n);
            for k in 0..=n {
                assert_eq!(node.find(&action(k)), Some(k), "action {k} of {}", n + 1);
            }
            assert_eq!(node.find(&action(n + 1)), None);
        }
    }

    /// The edges a node matches to a draw's legal actions are those `find` gives, whether the
    /// actions repeat the last draw's, differ from them, list an action twice, or edges were
    /// added in between (for an action of the last draw or another), before and after the
    /// node keeps an index.
    #[test]
    fn a_node_matches_each_draw_s_legal_actions_to_its_edges() {
        let mut node: Node<u32> = Node::new();
        let add = |node: &mut Node<u32>, action: u32| {
            node.add(Edge {
                action,
                child: 0,
                visits: 0,
                available: 0,
                total: 0.0,
                mean: 0.0,
            })
        };
        let draws: [Vec<u32>; 4] = [
            (0..40).collect(),
            (20..60).rev().collect(),
            (0..40).step_by(3).collect(),
            vec![61, 5, 61, 90, 5, 62],
        ];
        for round in 0..160 {
            let legal = &draws[round / 2 % 4];
            let want: Vec<u32> = (legal.iter())
                .map(|a| node.find(a).map_or(UNTRIED, |i| i as u32))
                .collect();
            let n = node.edges.len();
            let got = node.edges_of(legal);
            assert!(got.iter().map(|l| &l.0).eq(legal), "round {round}");
            let got: Vec<u32> = got.iter().map(|l| l.1).collect();
            assert_eq!(got, want, "round {round}, {n} edges");
            // An untried action of this draw, or one outside every draw, made an edge.
            let fresh = legal.iter().copied().find(|a| node.find(a).is_none());
            match fresh {
                Some(a) if round % 5 != 4 => add(&mut node, a),
                _ => add(&mut node, 1000 + round as u32),
            };
        }
        assert!(node.edges.len() > 2 * INDEXED);
    }
}
