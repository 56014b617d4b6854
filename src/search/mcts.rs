//! Monte Carlo tree search with UCT (Kocsis & Szepesvári 2006, "Bandit based Monte-Carlo
//! planning"): grow a tree from the root, choosing at each node the child with the best
//! upper confidence bound `w/n + c * sqrt(ln N / n)`, expand one new child, value it, and
//! back the value up the path.
//!
//! A new leaf is valued by a **playout** of `playout` random plies (uniform legal moves),
//! then, if the game is not over, by the heuristic mapped to a win probability with a
//! logistic curve; with `playout = 0` the heuristic alone values the leaf (the
//! "evaluation" variant, as in AlphaZero-style searches without a network). A finished
//! game is worth 1, ½ or 0. The move played is the most visited child of the root.
//!
//! Proven results are kept (MCTS-Solver, Winands et al. 2008): a terminal child that wins
//! for the mover makes its parent a proven win, and a node all of whose children are
//! proven losses for the mover is a proven loss; proven nodes are never re-sampled.

use std::time::Duration;

use super::time::{budget, Budget};
use super::{terminal_score, Control, Limits, Score, SearchInfo, SearchResult, Searcher};
use crate::game::{Game, Outcome};
use crate::zobrist::splitmix64;

/// The exploration constant: √2, the UCB1 value for rewards in [0, 1].
const EXPLORATION: f64 = std::f64::consts::SQRT_2;
/// Centi-units of evaluation per unit of logit when a heuristic becomes a probability.
const EVAL_SCALE: f64 = 400.0;
/// Most tree nodes kept; the search stops growing (and stops) past this.
const MAX_NODES: usize = 4_000_000;

/// A node's proven value for the player who moved into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    Unknown,
    Win,
    Loss,
}

struct Node<M> {
    /// The move into this node (`None` at the root).
    mv: Option<M>,
    parent: usize,
    children: Vec<usize>,
    /// Moves not yet expanded.
    untried: Vec<M>,
    /// Whether `untried` has been filled.
    expanded: bool,
    visits: u32,
    /// Sum of rewards for the player who moved into this node.
    reward: f64,
    proof: Proof,
}

/// The UCT searcher.
pub struct Mcts<G: Game> {
    heuristic: G::Heuristic,
    playout: u32,
    default_depth: u32,
    move_overhead: Duration,
    rng: u64,
    nodes: Vec<Node<G::Move>>,
}

impl<G: Game> Mcts<G> {
    /// A searcher valuing leaves with `playout` random plies and then `heuristic`;
    /// without a time or node limit it runs 1000 iterations per ply of `default_depth`.
    pub fn new(
        heuristic: G::Heuristic,
        playout: u32,
        default_depth: u32,
        move_overhead: Duration,
        seed: u64,
    ) -> Self {
        Mcts {
            heuristic,
            playout,
            default_depth,
            move_overhead,
            rng: seed ^ 0x6D63_7473_5F73_6565,
            nodes: Vec::new(),
        }
    }

    fn random(&mut self, n: usize) -> usize {
        let (next, r) = splitmix64(self.rng);
        self.rng = next;
        (r % n as u64) as usize
    }

    /// The value of `pos` for the side to move, in [0, 1], by playout and heuristic.
    fn value(&mut self, pos: &mut G, buffer: &mut Vec<G::Move>) -> f64 {
        let me = pos.side_to_move();
        let mut line = Vec::new();
        for _ in 0..self.playout {
            if pos.outcome().is_some() {
                break;
            }
            buffer.clear();
            pos.generate_moves(buffer);
            if buffer.is_empty() {
                break;
            }
            let mv = buffer[self.random(buffer.len())];
            let undo = pos.make_move(mv);
            line.push((mv, undo));
        }
        let value = match pos.outcome() {
            Some(o) => outcome_value(o, me),
            None => {
                let eval = f64::from(pos.evaluate(self.heuristic));
                let own = if pos.side_to_move() == me {
                    eval
                } else {
                    -eval
                };
                1.0 / (1.0 + (-own / EVAL_SCALE).exp())
            }
        };
        while let Some((mv, undo)) = line.pop() {
            pos.unmake_move(mv, undo);
        }
        value
    }

    /// The child of `node` to descend into: an unproven child with the best UCB, or a
    /// proven win (which ends the selection).
    fn select(&self, node: usize) -> Option<usize> {
        let parent = &self.nodes[node];
        let log_n = f64::from(parent.visits.max(1)).ln();
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        for &c in &parent.children {
            let child = &self.nodes[c];
            let value = match child.proof {
                Proof::Win => return Some(c),
                Proof::Loss => continue,
                Proof::Unknown => {
                    let n = f64::from(child.visits.max(1));
                    child.reward / n + EXPLORATION * (log_n / n).sqrt()
                }
            };
            if value > best_value {
                best_value = value;
                best = Some(c);
            }
        }
        best
    }

    /// Marks proofs up from `node` as far as they go.
    fn propagate_proof(&mut self, mut node: usize) {
        loop {
            let parent = self.nodes[node].parent;
            if node == 0 {
                return;
            }
            match self.nodes[node].proof {
                // The mover into `node` wins: the parent (opponent to move there) lost.
                Proof::Win => {
                    if self.nodes[parent].proof == Proof::Loss {
                        return;
                    }
                    self.nodes[parent].proof = Proof::Loss;
                }
                Proof::Loss => {
                    let p = &self.nodes[parent];
                    let all_lost = p.expanded
                        && p.untried.is_empty()
                        && p.children
                            .iter()
                            .all(|&c| self.nodes[c].proof == Proof::Loss);
                    if !all_lost || p.proof == Proof::Win {
                        return;
                    }
                    self.nodes[parent].proof = Proof::Win;
                }
                Proof::Unknown => return,
            }
            node = parent;
        }
    }

    /// One iteration: select, expand, value, back up. Returns the depth reached.
    fn iterate(&mut self, pos: &mut G, buffer: &mut Vec<G::Move>) -> u32 {
        let mut node = 0;
        let mut path = Vec::new();
        // Selection.
        loop {
            let n = &self.nodes[node];
            if n.proof != Proof::Unknown || pos.outcome().is_some() {
                break;
            }
            if !n.expanded {
                buffer.clear();
                pos.generate_moves(buffer);
                let moves = buffer.clone();
                let n = &mut self.nodes[node];
                n.untried = moves;
                n.expanded = true;
            }
            if !self.nodes[node].untried.is_empty() || self.nodes.len() >= MAX_NODES {
                break;
            }
            match self.select(node) {
                Some(c) => {
                    let mv = self.nodes[c].mv.expect("children have moves");
                    path.push((mv, pos.make_move(mv)));
                    node = c;
                }
                None => break,
            }
        }
        // Expansion of one untried move.
        let mut value_for_mover;
        if self.nodes[node].proof == Proof::Unknown
            && pos.outcome().is_none()
            && !self.nodes[node].untried.is_empty()
            && self.nodes.len() < MAX_NODES
        {
            let count = self.nodes[node].untried.len();
            let pick = self.random(count);
            let mv = self.nodes[node].untried.swap_remove(pick);
            path.push((mv, pos.make_move(mv)));
            let child = self.nodes.len();
            let mover = pos.side_to_move().other();
            let proof = match pos.outcome() {
                Some(Outcome::Win(side)) if side == mover => Proof::Win,
                Some(Outcome::Win(_)) => Proof::Loss,
                _ => Proof::Unknown,
            };
            self.nodes.push(Node {
                mv: Some(mv),
                parent: node,
                children: Vec::new(),
                untried: Vec::new(),
                expanded: false,
                visits: 0,
                reward: 0.0,
                proof,
            });
            self.nodes[node].children.push(child);
            node = child;
            // The value for the player who moved into `node`.
            value_for_mover = 1.0 - self.value(pos, buffer);
            if proof != Proof::Unknown {
                self.propagate_proof(child);
            }
        } else {
            value_for_mover = match pos.outcome() {
                Some(o) => 1.0 - outcome_value(o, pos.side_to_move()),
                None => match self.nodes[node].proof {
                    Proof::Win => 1.0,
                    Proof::Loss => 0.0,
                    Proof::Unknown => 1.0 - self.value(pos, buffer),
                },
            };
        }
        let depth = path.len() as u32;
        // Back-up: the value alternates perspective at every level.
        loop {
            let n = &mut self.nodes[node];
            n.visits += 1;
            n.reward += value_for_mover;
            if node == 0 {
                break;
            }
            node = n.parent;
            value_for_mover = 1.0 - value_for_mover;
        }
        while let Some((mv, undo)) = path.pop() {
            pos.unmake_move(mv, undo);
        }
        depth
    }

    /// The root's best child: a proven win, else the most visited unproven-loss child.
    fn best_child(&self, node: usize) -> Option<usize> {
        let children = &self.nodes[node].children;
        if let Some(&c) = children
            .iter()
            .find(|&&c| self.nodes[c].proof == Proof::Win)
        {
            return Some(c);
        }
        children
            .iter()
            .copied()
            .max_by_key(|&c| (self.nodes[c].proof != Proof::Loss, self.nodes[c].visits))
    }

    fn principal_variation(&self) -> Vec<G::Move> {
        let mut pv = Vec::new();
        let mut node = 0;
        while let Some(c) = self.best_child(node) {
            pv.push(self.nodes[c].mv.expect("children have moves"));
            node = c;
            if pv.len() >= 32 {
                break;
            }
        }
        pv
    }

    /// The root's score in internal units: a proven result as a win or loss at the
    /// principal variation's length (a proof, not necessarily the shortest), else the
    /// best child's mean reward as a logit in evaluation units.
    fn root_score(&self) -> i32 {
        let plies = self.principal_variation().len().max(1) as i32;
        match self.nodes[0].proof {
            // The root's proof is from the view of the player who moved into it.
            Proof::Loss => return super::WIN - plies,
            Proof::Win => return -(super::WIN - plies),
            Proof::Unknown => {}
        }
        let Some(best) = self.best_child(0) else {
            return 0;
        };
        let n = &self.nodes[best];
        let p = (n.reward / f64::from(n.visits.max(1))).clamp(0.001, 0.999);
        (EVAL_SCALE * (p / (1.0 - p)).ln()).round() as i32
    }
}

/// 1 for a win of `side`, 0 for its loss, ½ for a draw.
fn outcome_value(outcome: Outcome, side: crate::game::Side) -> f64 {
    match outcome {
        Outcome::Draw => 0.5,
        Outcome::Win(w) if w == side => 1.0,
        Outcome::Win(_) => 0.0,
    }
}

impl<G: Game> Searcher<G> for Mcts<G> {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn search(
        &mut self,
        pos: &mut G,
        limits: &Limits,
        control: &Control<'_>,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        // The default 20 moves to go: MCTS's clock use was not measured with the game's
        // estimate of the moves left.
        let Budget { soft, hard, .. } = budget(limits, self.move_overhead, None);
        // `nodes` counts iterations; `depth` (or, with no limit at all, `Depth`) a
        // thousand iterations per ply.
        let by_depth = |d: u32| u64::from(d.max(1)) * 1000;
        let iterations = match (limits.nodes, limits.depth) {
            (Some(n), _) => n,
            (None, Some(d)) => by_depth(d),
            (None, None) if soft.is_none() && !limits.infinite => by_depth(self.default_depth),
            (None, None) => u64::MAX,
        };
        let deadline = soft.or(hard).map(|t| control.start + t);
        self.nodes.clear();
        self.nodes.push(Node {
            mv: None,
            parent: 0,
            children: Vec::new(),
            untried: Vec::new(),
            expanded: false,
            visits: 0,
            reward: 0.0,
            proof: Proof::Unknown,
        });
        let mut buffer = Vec::new();
        let mut root_moves = Vec::new();
        pos.generate_moves(&mut root_moves);
        if root_moves.is_empty() || pos.outcome().is_some() {
            return SearchResult {
                best: None,
                score: pos
                    .outcome()
                    .map_or(0, |o| terminal_score(o, pos.side_to_move(), 0)),
                depth: 0,
                seldepth: 0,
                nodes: 1,
                elapsed: control.start.elapsed(),
                pv: Vec::new(),
                solved: true,
            };
        }
        let mut done = 0u64;
        let mut seldepth = 0;
        let mut depth_sum = 0u64;
        let mut next_report = 1024u64;
        while done < iterations {
            if done.is_multiple_of(64)
                && (control.stopped() || deadline.is_some_and(|d| std::time::Instant::now() >= d))
            {
                break;
            }
            let d = self.iterate(pos, &mut buffer);
            seldepth = seldepth.max(d);
            depth_sum += u64::from(d);
            done += 1;
            if self.nodes[0].proof != Proof::Unknown || self.nodes.len() >= MAX_NODES {
                break;
            }
            if done == next_report {
                next_report *= 2;
                on_info(&SearchInfo {
                    depth: (depth_sum / done) as u32,
                    seldepth,
                    score: Score::from_internal(self.root_score()),
                    nodes: done,
                    elapsed: control.start.elapsed(),
                    hashfull: None,
                    pv: self.principal_variation(),
                });
            }
        }
        let pv = self.principal_variation();
        let best = pv.first().copied().or(Some(root_moves[0]));
        let result = SearchResult {
            best,
            score: self.root_score(),
            depth: (depth_sum / done.max(1)) as u32,
            seldepth,
            nodes: done.max(1),
            elapsed: control.start.elapsed(),
            pv,
            solved: self.nodes[0].proof != Proof::Unknown,
        };
        on_info(&SearchInfo {
            depth: result.depth,
            seldepth,
            score: Score::from_internal(result.score),
            nodes: result.nodes,
            elapsed: result.elapsed,
            hashfull: None,
            pv: result.pv.clone(),
        });
        result
    }

    fn clear(&mut self) {
        self.nodes.clear();
    }
}
