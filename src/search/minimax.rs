//! Plain fixed-depth minimax (negamax form): the teaching baseline. No pruning, no
//! ordering, no table; it visits every node of the tree to the given depth.

use super::fixed::{search_root, Counters, FixedDepth};
use super::{
    terminal_score, Control, Limits, MoveStack, SearchInfo, SearchResult, Searcher, INFINITY,
};
use crate::game::Game;

/// Plain minimax with one heuristic at the leaves.
pub struct Minimax<G: Game> {
    heuristic: G::Heuristic,
    default_depth: u32,
    moves: MoveStack<G::Move>,
    counters: Counters,
}

impl<G: Game> Minimax<G> {
    /// A minimax searcher using `heuristic`, searching `default_depth` plies when the
    /// limits give no depth.
    pub fn new(heuristic: G::Heuristic, default_depth: u32) -> Self {
        Minimax {
            heuristic,
            default_depth,
            moves: MoveStack::default(),
            counters: Counters::default(),
        }
    }

    fn negamax(&mut self, pos: &mut G, depth: u32, ply: u32, control: &Control<'_>) -> i32 {
        if let Some(outcome) = pos.outcome() {
            self.counters.visit(ply, control);
            return terminal_score(outcome, pos.side_to_move(), ply);
        }
        if depth == 0 {
            self.counters.visit(ply, control);
            return pos.evaluate(self.heuristic);
        }
        if self.counters.visit(ply, control) {
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

impl<G: Game> FixedDepth<G> for Minimax<G> {
    fn counters(&mut self) -> &mut Counters {
        &mut self.counters
    }

    fn default_depth(&self) -> u32 {
        self.default_depth
    }

    fn order_root(&mut self, _pos: &G, _moves: &mut Vec<G::Move>) {}

    fn child_value(&mut self, pos: &mut G, depth: u32, _alpha: i32, control: &Control<'_>) -> i32 {
        -self.negamax(pos, depth, 1, control)
    }
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
        search_root(self, pos, limits, control, on_info)
    }

    fn clear(&mut self) {}
}
