//! A game's own proof solver, lent to the search.
//!
//! Some games have a solver that proves who wins far faster than a search does:
//! Clobber's sum-of-regions solver ([`crate::games::clobber::solve`]) and the m,n,k
//! threat solver ([`crate::games::mnk::solve`]). A game offers one through
//! [`crate::game::Game::prover`]; the default searcher ([`crate::search::pvs`]) then uses
//! it while it plays, without knowing which game it is:
//!
//! - **at the root**, with a share of the move's time before the search: a proved win is
//!   played at once (its move keeps the win), a proved loss or draw is reported as such
//!   while the search picks the move, and root moves proved losing before the time ran
//!   out are left out of the search ([`Prover::refuted`]);
//! - **at a root proved lost**, when the solver is quick two plies down
//!   ([`Prover::ranks_defences`]): the defence played is the one that leaves the opponent
//!   the fewest winning replies, so that an opponent that is not perfect has the most
//!   chances to go wrong;
//! - **inside the search**, at nodes the prover calls small ([`Prover::in_search`]),
//!   with a small node budget: a proved node is a won or lost leaf.
//!
//! A solver that proves who wins without counting plies still gives a score in the
//! search's win/loss band: the game cannot last more than [`Prover::max_plies`] more
//! plies, so a win is worth at least a win in that many plies (a lower bound) and a loss
//! at most a loss in that many (an upper bound). The search stores them as such bounds;
//! whatever the distance, a proved win stays a win and a proved loss a loss.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::Game;

/// What a prover proved about a position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof<Move> {
    /// The side to move wins; with a winning move when asked at the root, and the
    /// distance in plies when the solver measured it.
    Win {
        /// A move that keeps the win (at the root).
        mv: Option<Move>,
        /// The exact distance (shortest win against the longest defence), if known.
        plies: Option<u32>,
    },
    /// The side to move loses whatever it plays.
    Loss {
        /// The exact distance (longest defence), if known.
        plies: Option<u32>,
    },
    /// Neither side can force a win.
    Draw,
}

/// When a proof attempt must give up.
#[derive(Clone, Copy, Debug)]
pub struct ProofLimits<'a> {
    /// The search's stop flag.
    pub stop: &'a AtomicBool,
    /// A wall-clock deadline.
    pub deadline: Option<Instant>,
    /// A budget of solver nodes for this attempt.
    pub nodes: Option<u64>,
}

impl ProofLimits<'_> {
    /// Whether the stop flag is raised or the deadline has passed.
    pub fn expired(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A game's proof solver as the search uses it. Its tables live as long as it does, so
/// what it proved for one move serves the next.
pub trait Prover<G: Game>: Send {
    /// Proves the value of `pos` (a game in progress) and, when the side to move wins, a
    /// winning move. `None` when the limits ended the attempt first (or the position is
    /// beyond the solver).
    ///
    /// `first` is the move the search would try first (its table's move from an earlier
    /// search), to be tried first: when it wins, the proof needs no other root move.
    fn prove_root(
        &mut self,
        pos: &G,
        first: Option<G::Move>,
        limits: &ProofLimits<'_>,
    ) -> Option<Proof<G::Move>>;

    /// Root moves the last [`Prover::prove_root`] proved losing (the position after each
    /// is won for the opponent), also when its limits ended it before a result: the
    /// search then leaves them out. Empty for a solver that does not say.
    fn refuted(&self) -> Vec<G::Move> {
        Vec::new()
    }

    /// Proves the value of `pos` without naming a move (cheaper), for a node inside the
    /// search; `None` when it proves nothing: the limits ended the attempt first, or a
    /// method that proves wins only (gomoku's VCF) found none.
    fn prove_node(&mut self, pos: &G, limits: &ProofLimits<'_>) -> Option<Proof<G::Move>>;

    /// The share of the move's time worth spending on a proof of `pos` at the root, before
    /// the search (0 to 1): a position far from any proof the solver can finish is worth
    /// a little, one near the end of the game much more.
    fn root_share(&self, pos: &G) -> f64;

    /// Whether, at a root `pos` proved lost, proofs of the positions two plies down are
    /// quick enough to rank the defences by how many winning replies each leaves the
    /// opponent (see the module doc). `false` for a solver that does not say.
    fn ranks_defences(&self, _pos: &G) -> bool {
        false
    }

    /// The solver nodes worth spending on `pos` met inside the search, `None` when it is
    /// not worth a try. Called at many nodes: it must be cheap.
    fn in_search(&self, pos: &G) -> Option<u64>;

    /// An upper bound on the plies the game can still last from `pos`.
    fn max_plies(&self, pos: &G) -> u32;

    /// Solver nodes visited so far, over all attempts.
    fn nodes(&self) -> u64;

    /// Forgets everything (a new game, or tables that reached their memory budget).
    fn clear(&mut self);
}
