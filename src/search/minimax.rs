//! Plain fixed-depth minimax (negamax form): the teaching baseline. No pruning, no
//! ordering, no table; it visits every node of the tree to the given depth.

use std::time::Duration;

use super::{
    fixed_depth, terminal_score, Control, Limits, MoveStack, Score, SearchInfo, SearchResult,
    Searcher, INFINITY,
};
use crate::game::Game;

/// Plain minimax with one heuristic at the leaves.
pub struct Minimax<G: Game> {
    heuristic: G::Heuristic,
    moves: MoveStack<G::Move>,
    nodes: u64,
    node_limit: Option<u64>,
    deadline: Option<std::time::Instant>,
    seldepth: u32,
    aborted: bool,
}

impl<G: Game> Minimax<G> {
    /// A minimax searcher using `heuristic`.
    pub fn new(heuristic: G::Heuristic) -> Self {
        Minimax {
            heuristic,
            moves: MoveStack::default(),
            nodes: 0,
            node_limit: None,
            deadline: None,
            seldepth: 0,
            aborted: false,
        }
    }

    fn negamax(&mut self, pos: &mut G, depth: u32, ply: u32, control: &Control<'_>) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = pos.outcome() {
            return terminal_score(outcome, pos.side_to_move(), ply);
        }
        if depth == 0 {
            return pos.evaluate(self.heuristic);
        }
        if self.nodes.is_multiple_of(1024)
            && (control.stopped()
                || self.node_limit.is_some_and(|n| self.nodes >= n)
                || self
                    .deadline
                    .is_some_and(|d| std::time::Instant::now() >= d))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let mut moves = self.moves.take(ply as usize);
        pos.generate_moves(&mut moves);
        let mut best = -INFINITY;
        for &mv in &moves {
            let undo = pos.make_move(mv);
            let value = -self.negamax(pos, depth - 1, ply + 1, control);
            pos.unmake_move(mv, undo);
            best = best.max(value);
        }
        self.moves.give(ply as usize, moves);
        best
    }
}

/// Fills the root move list; shared by the fixed-depth searchers.
pub(super) fn root_moves<G: Game>(pos: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
}

impl<G: Game> Searcher<G> for Minimax<G> {
    fn name(&self) -> &'static str {
        "minimax"
    }

    fn search(
        &mut self,
        pos: &mut G,
        limits: &Limits,
        control: &Control<'_>,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let depth = fixed_depth(limits, 4);
        self.nodes = 1;
        self.node_limit = limits.nodes;
        self.deadline = super::time::budget(limits, std::time::Duration::ZERO)
            .hard
            .map(|h| control.start + h);
        self.seldepth = 0;
        self.aborted = false;
        let moves = root_moves(pos);
        let mut best = None;
        let mut best_value = -INFINITY;
        for &mv in &moves {
            let undo = pos.make_move(mv);
            // Fill per-ply buffers lazily: the root uses ply 0 in `moves` above.
            let value = -self.negamax(pos, depth - 1, 1, control);
            pos.unmake_move(mv, undo);
            if self.aborted && best.is_some() {
                break;
            }
            if value > best_value {
                best_value = value;
                best = Some(mv);
            }
        }
        let score = if best.is_some() {
            best_value
        } else {
            pos.outcome()
                .map_or(0, |o| terminal_score(o, pos.side_to_move(), 0))
        };
        let elapsed = control.start.elapsed();
        let pv: Vec<G::Move> = best.into_iter().collect();
        on_info(&SearchInfo {
            depth,
            seldepth: self.seldepth,
            score: Score::from_internal(score),
            nodes: self.nodes,
            elapsed,
            hashfull: None,
            pv: pv.clone(),
        });
        SearchResult {
            best,
            score,
            depth,
            seldepth: self.seldepth,
            nodes: self.nodes,
            elapsed: elapsed.max(Duration::ZERO),
            pv,
        }
    }

    fn clear(&mut self) {}
}
