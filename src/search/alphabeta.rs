//! Plain fixed-depth alpha-beta (negamax form, fail-soft), with move ordering that can
//! be switched off: the comparison students run against minimax. No table, no
//! iterative deepening. With ordering off it visits moves in generation order.

use super::minimax::root_moves;
use super::order::sort_by_hint;
use super::{
    fixed_depth, terminal_score, Control, Limits, MoveStack, Score, SearchInfo, SearchResult,
    Searcher, INFINITY,
};
use crate::game::Game;

/// Plain alpha-beta with one heuristic at the leaves.
pub struct AlphaBeta<G: Game> {
    heuristic: G::Heuristic,
    ordering: bool,
    moves: MoveStack<G::Move>,
    hints: Vec<(i32, G::Move)>,
    nodes: u64,
    node_limit: Option<u64>,
    deadline: Option<std::time::Instant>,
    seldepth: u32,
    aborted: bool,
}

impl<G: Game> AlphaBeta<G> {
    /// An alpha-beta searcher; `ordering` sorts moves by the game's ordering hint.
    pub fn new(heuristic: G::Heuristic, ordering: bool) -> Self {
        AlphaBeta {
            heuristic,
            ordering,
            moves: MoveStack::default(),
            hints: Vec::new(),
            nodes: 0,
            node_limit: None,
            deadline: None,
            seldepth: 0,
            aborted: false,
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
        let depth = fixed_depth(limits, 4);
        self.nodes = 1;
        self.node_limit = limits.nodes;
        self.deadline = super::time::budget(limits, std::time::Duration::ZERO)
            .hard
            .map(|h| control.start + h);
        self.seldepth = 0;
        self.aborted = false;
        let mut moves = root_moves(pos);
        if self.ordering {
            sort_by_hint(pos, &mut moves, &mut self.hints);
        }
        let mut best = None;
        let mut alpha = -INFINITY;
        for &mv in &moves {
            let undo = pos.make_move(mv);
            let value = -self.negamax(pos, depth - 1, 1, -INFINITY, -alpha, control);
            pos.unmake_move(mv, undo);
            if self.aborted && best.is_some() {
                break;
            }
            if value > alpha || best.is_none() {
                alpha = alpha.max(value);
                best = Some(mv);
            }
        }
        let score = if best.is_some() {
            alpha
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
            elapsed,
            pv,
        }
    }

    fn clear(&mut self) {}
}
