//! Plain fixed-depth alpha-beta (negamax form, fail-soft), with move ordering that can
//! be switched off: the comparison students run against minimax. No table, no
//! iterative deepening. With ordering off it visits moves in generation order.

use super::fixed::{search_root, Counters, FixedDepth};
use super::order::sort_by_hint;
use super::{
    terminal_score, Control, Limits, MoveStack, SearchInfo, SearchResult, Searcher, INFINITY,
};
use crate::game::Game;

/// Plain alpha-beta with one heuristic at the leaves.
pub struct AlphaBeta<G: Game> {
    heuristic: G::Heuristic,
    default_depth: u32,
    ordering: bool,
    moves: MoveStack<G::Move>,
    hints: Vec<(i32, G::Move)>,
    counters: Counters,
}

impl<G: Game> AlphaBeta<G> {
    /// An alpha-beta searcher; `ordering` sorts moves by the game's ordering hint;
    /// `default_depth` plies are searched when the limits give no depth.
    pub fn new(heuristic: G::Heuristic, ordering: bool, default_depth: u32) -> Self {
        AlphaBeta {
            heuristic,
            default_depth,
            ordering,
            moves: MoveStack::default(),
            hints: Vec::new(),
            counters: Counters::default(),
        }
    }

    fn negamax(
        &mut self,
        pos: &mut G,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        control: &Control<'_>,
    ) -> i32 {
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
        if self.ordering {
            sort_by_hint(pos, &mut moves, &mut self.hints);
        }
        let mut best = -INFINITY;
        for &mv in &moves {
            let undo = pos.make_move(mv);
            let value = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha, control);
            pos.unmake_move(mv, undo);
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves.give(ply as usize, moves);
        best
    }
}

impl<G: Game> FixedDepth<G> for AlphaBeta<G> {
    fn counters(&mut self) -> &mut Counters {
        &mut self.counters
    }

    fn default_depth(&self) -> u32 {
        self.default_depth
    }

    fn order_root(&mut self, pos: &G, moves: &mut Vec<G::Move>) {
        if self.ordering {
            sort_by_hint(pos, moves, &mut self.hints);
        }
    }

    fn child_value(&mut self, pos: &mut G, depth: u32, alpha: i32, control: &Control<'_>) -> i32 {
        -self.negamax(pos, depth, 1, -INFINITY, -alpha, control)
    }
}

impl<G: Game> Searcher<G> for AlphaBeta<G> {
    fn name(&self) -> &'static str {
        "alphabeta"
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
