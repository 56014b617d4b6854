//! Iterative deepening principal variation search (placeholder while being written).
use super::{Control, Limits, SearchInfo, SearchResult, Searcher};
use crate::game::Game;
use std::time::Duration;
/// PVS.
pub struct Pvs<G: Game> {
    inner: super::alphabeta::AlphaBeta<G>,
}
impl<G: Game> Pvs<G> {
    /// New.
    pub fn new(heuristic: G::Heuristic, _hash_mb: usize, _overhead: Duration) -> Self {
        Pvs {
            inner: super::alphabeta::AlphaBeta::new(heuristic, true),
        }
    }
}
impl<G: Game> Searcher<G> for Pvs<G> {
    fn name(&self) -> &'static str {
        "pvs"
    }
    fn search(
        &mut self,
        pos: &mut G,
        limits: &Limits,
        control: &Control<'_>,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        self.inner.search(pos, limits, control, on_info)
    }
    fn clear(&mut self) {}
}
