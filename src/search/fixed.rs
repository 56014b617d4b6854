//! What the two fixed-depth searchers share: node counting with limit checks, and the
//! root loop that turns child values into a result and one final `info` report.

use std::time::Instant;

use super::{
    fixed_depth, terminal_score, time, Control, Limits, Score, SearchInfo, SearchResult, INFINITY,
};
use crate::game::Game;

/// Node count, deepest ply and the limits that abort a fixed-depth search.
#[derive(Debug, Default)]
pub(super) struct Counters {
    pub nodes: u64,
    pub seldepth: u32,
    pub aborted: bool,
    node_limit: Option<u64>,
    deadline: Option<Instant>,
}

impl Counters {
    /// Starts counting for a search with `limits` that began at `control.start`.
    pub fn reset(&mut self, limits: &Limits, control: &Control<'_>) {
        *self = Counters {
            nodes: 1,
            node_limit: limits.nodes,
            deadline: time::budget(limits, std::time::Duration::ZERO, None)
                .hard
                .map(|h| control.start + h),
            ..Counters::default()
        };
    }

    /// Counts a node at `ply`; every 1024 nodes checks stop, node and time limits.
    /// Returns whether the search must unwind.
    #[inline]
    pub fn visit(&mut self, ply: u32, control: &Control<'_>) -> bool {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes.is_multiple_of(1024)
            && (control.stopped()
                || self.node_limit.is_some_and(|n| self.nodes >= n)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
        self.aborted
    }
}

/// A fixed-depth searcher seen from its root.
pub(super) trait FixedDepth<G: Game> {
    /// The counters of the running search.
    fn counters(&mut self) -> &mut Counters;
    /// The depth searched when `limits` gives none (the `Depth` option).
    fn default_depth(&self) -> u32;
    /// Puts the root moves in the order they are searched.
    fn order_root(&mut self, pos: &G, moves: &mut Vec<G::Move>);
    /// The value, from the root mover's view, of the position after a root move, searched
    /// `depth` more plies; `alpha` is the best value found so far among earlier moves.
    fn child_value(&mut self, pos: &mut G, depth: u32, alpha: i32, control: &Control<'_>) -> i32;
}

/// Searches every root move to the fixed depth and reports the result.
pub(super) fn search_root<G: Game, S: FixedDepth<G>>(
    searcher: &mut S,
    pos: &mut G,
    limits: &Limits,
    control: &Control<'_>,
    on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    let depth = fixed_depth(limits, searcher.default_depth());
    searcher.counters().reset(limits, control);
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    searcher.order_root(pos, &mut moves);
    let mut best = None;
    let mut alpha = -INFINITY;
    for &mv in &moves {
        let undo = pos.make_move(mv);
        let value = searcher.child_value(pos, depth - 1, alpha, control);
        pos.unmake_move(mv, undo);
        if searcher.counters().aborted && best.is_some() {
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
    let counters = searcher.counters();
    let pv: Vec<G::Move> = best.into_iter().collect();
    on_info(&SearchInfo {
        depth,
        seldepth: counters.seldepth,
        score: Score::from_internal(score),
        nodes: counters.nodes,
        elapsed,
        hashfull: None,
        pv: pv.clone(),
    });
    SearchResult {
        best,
        score,
        depth,
        seldepth: counters.seldepth,
        nodes: counters.nodes,
        elapsed,
        pv,
        solved: false,
    }
}
