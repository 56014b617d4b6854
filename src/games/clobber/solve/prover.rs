//! The region solver as the search's prover: it proves the root (after the opening book)
//! and, inside the search, small positions within a node budget.

use super::*;
use crate::games::clobber::{book, ClobberMove};

/// Live stones at most, for a position met inside the search to be handed to the
/// solver (see [`RegionProver`]).
pub const IN_SEARCH_STONES: usize = 14;

/// Live stones at most, for a root proved lost to have its defences ranked by the
/// opponent's winning replies (see [`crate::prover::Prover::ranks_defences`]).
pub const DEFENCE_STONES: usize = 26;

/// Whether `pos` is on a board the solver takes and has at most `stones` live stones.
fn within(pos: &Clobber, stones: usize) -> bool {
    pos.settings_of().squares() <= MAX_SOLVE_SQUARES
        && pos.stone_count(Side::First) + pos.stone_count(Side::Second) <= stones
}

/// Solver nodes a proof inside the search may take.
pub const IN_SEARCH_NODES: u64 = 2_000;

/// The region solver as the search's prover ([`crate::prover`]): at the root it proves
/// who wins and a winning move; inside the search, positions of at most
/// [`IN_SEARCH_STONES`] stones (small groups, often each with a known value) within
/// [`IN_SEARCH_NODES`] nodes. It proves no distances: the search scores its proofs
/// with the bound of [`crate::prover::Prover::max_plies`], the stones left (each move
/// takes one).
pub struct RegionProver {
    solver: Solver,
    memory: Budget,
}

impl RegionProver {
    /// A prover whose tables take at most `memory` bytes (they are emptied when full).
    pub fn new(memory: Budget) -> RegionProver {
        let mut solver = Solver::new();
        solver.set_memory_limit(memory);
        RegionProver { solver, memory }
    }

    fn attempt(
        &mut self,
        limits: &crate::prover::ProofLimits<'_>,
        run: impl FnOnce(&mut Solver) -> Result<crate::prover::Proof<ClobberMove>, SolveError>,
    ) -> Option<crate::prover::Proof<ClobberMove>> {
        self.solver.set_limits(limits.deadline, limits.nodes);
        match run(&mut self.solver) {
            Ok(proof) => Some(proof),
            Err(SolveError::OutOfMemory) => {
                crate::prover::Prover::<Clobber>::clear(self);
                None
            }
            Err(_) => None,
        }
    }
}

impl crate::prover::Prover<Clobber> for RegionProver {
    fn prove_root(
        &mut self,
        pos: &Clobber,
        first: Option<ClobberMove>,
        limits: &crate::prover::ProofLimits<'_>,
    ) -> Option<crate::prover::Proof<ClobberMove>> {
        use crate::prover::Proof;
        match book::lookup(pos) {
            Some(book::BookResult::Win(mv)) => {
                return Some(Proof::Win {
                    mv: Some(mv),
                    plies: None,
                })
            }
            Some(book::BookResult::Loss) => return Some(Proof::Loss { plies: None }),
            None => {}
        }
        self.attempt(limits, |solver| {
            let solution = solver.solve_from(pos, first, limits.stop)?;
            Ok(if solution.side_to_move_wins {
                Proof::Win {
                    mv: solution.winning_move,
                    plies: None,
                }
            } else {
                Proof::Loss { plies: None }
            })
        })
    }

    fn prove_node(
        &mut self,
        pos: &Clobber,
        limits: &crate::prover::ProofLimits<'_>,
    ) -> Option<crate::prover::Proof<ClobberMove>> {
        use crate::prover::Proof;
        self.attempt(limits, |solver| {
            Ok(if solver.side_to_move_wins(pos, limits.stop)? {
                Proof::Win {
                    mv: None,
                    plies: None,
                }
            } else {
                Proof::Loss { plies: None }
            })
        })
    }

    fn refuted(&self) -> Vec<ClobberMove> {
        self.solver.refuted().to_vec()
    }

    fn root_share(&self, pos: &Clobber) -> f64 {
        // Measured on 5x6 against OpenSpiel's MCTS (5000 simulations, 40 games at 100 ms
        // a move, half of the move's time to the solver at every root): 9 of agon's 13
        // losses came from positions of 25 or 26 stones, at ply 5 or 6, that the solver
        // proves won in 60 ms to 1.1 s; the game is decided there. What a proof that runs
        // out of time has proved of the position's groups stays in the tables, so the
        // next move's attempt goes further: from 27 stones down the solver gets most of
        // every move, at 28 and 29 a share that fills its tables, at the start little.
        match pos.stone_count(Side::First) + pos.stone_count(Side::Second) {
            0..=27 => 0.8,
            28..=29 => 0.3,
            _ => 0.05,
        }
    }

    fn ranks_defences(&self, pos: &Clobber) -> bool {
        within(pos, DEFENCE_STONES)
    }

    fn in_search(&self, pos: &Clobber) -> Option<u64> {
        within(pos, IN_SEARCH_STONES).then_some(IN_SEARCH_NODES)
    }

    fn max_plies(&self, pos: &Clobber) -> u32 {
        // Every move takes a stone, and the last stone standing takes none.
        let stones = pos.stone_count(Side::First) + pos.stone_count(Side::Second);
        stones.saturating_sub(1) as u32
    }

    fn nodes(&self) -> u64 {
        self.solver.nodes()
    }

    fn clear(&mut self) {
        let nodes = self.solver.nodes;
        self.solver = Solver::new();
        self.solver.set_memory_limit(self.memory);
        self.solver.nodes = nodes;
    }
}
