//! The `random` searcher: a uniformly random legal move, the weakest reference opponent
//! for grading bots. Reproducible: the choice depends only on the seed and the position's
//! hash (the same position with the same seed gives the same move).

use std::time::Instant;

use super::{Control, Limits, SearchInfo, SearchResult, Searcher};
use crate::game::Game;
use crate::zobrist::splitmix64;

/// Plays a random legal move.
pub struct Random {
    seed: u64,
}

impl Random {
    /// A random mover drawing from `seed`.
    pub fn new(seed: u64) -> Self {
        Random { seed }
    }
}

impl<G: Game> Searcher<G> for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn search(
        &mut self,
        pos: &mut G,
        _limits: &Limits,
        _control: &Control<'_>,
        _on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let (_, r) = splitmix64(self.seed ^ pos.hash());
        let best = (!moves.is_empty()).then(|| moves[(r % moves.len() as u64) as usize]);
        SearchResult {
            best,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 1,
            elapsed: start.elapsed(),
            pv: best.into_iter().collect(),
            solved: false,
        }
    }

    fn clear(&mut self) {}
}
