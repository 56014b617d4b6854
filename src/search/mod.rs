//! Search: limits, scores, reports, and the [`Searcher`] trait with its three
//! implementations ([`minimax`], [`alphabeta`], [`pvs`]).
//!
//! Scores are integers from the side to move's point of view. Static evaluations stay
//! inside ±[`EVAL_LIMIT`]; a won position is `WIN - plies` and a lost one `-(WIN - plies)`,
//! where `plies` counts from the root, so a shorter win always scores higher and a
//! longer loss always scores higher than a shorter one.

pub mod alphabeta;
mod fixed;
pub mod mcts;
pub mod minimax;
pub mod order;
pub mod pvs;
pub mod random;
pub mod time;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome};

/// The score of a win at the root itself (the game is already won: never seen in practice).
pub const WIN: i32 = 1_000_000;
/// Every score at or above this (or at or below its negation) is a proven win (loss).
pub const WIN_THRESHOLD: i32 = WIN - 10_000;
/// Static evaluations must stay strictly inside ±`EVAL_LIMIT`.
pub const EVAL_LIMIT: i32 = 500_000;
/// Larger than every score: the initial window.
pub const INFINITY: i32 = WIN + 1;

/// The score of a finished game for the side to move, `ply` plies from the root.
#[inline]
pub fn terminal_score(outcome: Outcome, side_to_move: crate::game::Side, ply: u32) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(side) if side == side_to_move => WIN - ply as i32,
        Outcome::Win(_) => -(WIN - ply as i32),
    }
}

pub use crate::score::Score;

/// Experiment knobs (development only): `AGON_KNOB_<NAME>` overrides a default.
pub(crate) fn knob(name: &str, default: i32) -> i32 {
    std::env::var(format!("AGON_KNOB_{name}"))
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

impl Score {
    /// Classifies an internal score.
    pub fn from_internal(value: i32) -> Score {
        if value >= WIN_THRESHOLD {
            Score::Win((WIN - value) as u32)
        } else if value <= -WIN_THRESHOLD {
            Score::Loss((WIN + value) as u32)
        } else {
            Score::Cp(value)
        }
    }
}

/// The mover's clock as `go` reports it: what is left of its time, for this search (the
/// arena's running clock of a whole game is `arena::clock::Clock`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoverClock {
    /// Time left for the side to move.
    pub time: Duration,
    /// Increment per move for the side to move.
    pub increment: Duration,
    /// Moves until the next time control, if any (sudden death when `None`).
    pub moves_to_go: Option<u32>,
}

/// What bounds a search. Several limits may be set; the first one reached stops it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Exact time to spend.
    pub movetime: Option<Duration>,
    /// The mover's clock: the searcher budgets its own time.
    pub clock: Option<MoverClock>,
    /// Search until stopped (depth and nodes still apply if given).
    pub infinite: bool,
}

impl Limits {
    /// A fixed-depth limit.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
}

/// A progress report of a running search (an `info` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<Move> {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of the principal variation.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Transposition table fill in permill, where a searcher has one.
    pub hashfull: Option<u32>,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
}

/// The final answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<Move> {
    /// The move to play; `None` only when the root has no legal move.
    pub best: Option<Move>,
    /// The root score (internal units, side to move's view).
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Total nodes.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Whether the score is proved: the last iteration was cut by no horizon (a draw or
    /// a heuristic-free value) or found a forced win or loss.
    pub solved: bool,
}

/// The shared stop flag and the wall clock of one search.
pub struct Control<'a> {
    /// Set by another thread to stop the search as soon as possible.
    pub stop: &'a AtomicBool,
    /// When the search started.
    pub start: Instant,
}

impl<'a> Control<'a> {
    /// A control starting now.
    pub fn new(stop: &'a AtomicBool) -> Self {
        Control {
            stop,
            start: Instant::now(),
        }
    }

    /// Whether a stop was requested.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A search algorithm over one game with one heuristic.
pub trait Searcher<G: Game>: Send {
    /// The name shown in the protocol (`minimax`, `alphabeta`, `pvs`).
    fn name(&self) -> &'static str;

    /// Searches `pos` (restored before returning) within `limits`, reporting progress to `on_info`.
    /// Returns a legal best move whenever the root has one, even when stopped at once.
    fn search(
        &mut self,
        pos: &mut G,
        limits: &Limits,
        control: &Control<'_>,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move>;

    /// Forgets everything learned from earlier searches (new game).
    fn clear(&mut self);
}

/// Random plies of an `mcts` playout before the heuristic values the leaf (the `Playout`
/// option's default).
pub const DEFAULT_PLAYOUT: u32 = 8;

/// Which searcher an engine uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearcherKind {
    /// Plain fixed-depth minimax.
    Minimax,
    /// Plain fixed-depth alpha-beta.
    AlphaBeta,
    /// Iterative deepening PVS with a transposition table (the default).
    Pvs,
    /// A uniformly random legal move (a reference opponent for grading), from the seed.
    Random,
    /// Monte Carlo tree search (UCT), leaves valued by a playout and the heuristic.
    Mcts,
}

impl SearcherKind {
    /// All kinds, the default first.
    pub const ALL: [SearcherKind; 5] = [
        SearcherKind::Pvs,
        SearcherKind::AlphaBeta,
        SearcherKind::Minimax,
        SearcherKind::Random,
        SearcherKind::Mcts,
    ];

    /// The protocol name.
    pub fn name(self) -> &'static str {
        match self {
            SearcherKind::Minimax => "minimax",
            SearcherKind::AlphaBeta => "alphabeta",
            SearcherKind::Pvs => "pvs",
            SearcherKind::Random => "random",
            SearcherKind::Mcts => "mcts",
        }
    }

    /// Parses a protocol name (case-insensitive).
    pub fn from_name(name: &str) -> Option<SearcherKind> {
        SearcherKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }
}

/// Options that configure a searcher.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions<H> {
    /// The heuristic used at the leaves.
    pub heuristic: H,
    /// Move ordering on (alpha-beta only; pvs always orders).
    pub ordering: bool,
    /// Transposition table size in MiB (pvs only).
    pub hash_mb: usize,
    /// Depth the fixed-depth searchers use when the limits give none.
    pub default_depth: u32,
    /// Time kept back from every move for communication lag.
    pub move_overhead: Duration,
    /// Seed of the `random` and `mcts` searchers.
    pub seed: u64,
    /// Random plies before the heuristic values a new `mcts` leaf (0: the heuristic alone).
    pub playout: u32,
    /// Search threads of `pvs` (Lazy SMP when more than 1).
    pub threads: usize,
}

impl<H> SearchOptions<H> {
    /// `heuristic` with the library's plain defaults: ordering on, a 16 MiB table, depth 4
    /// when the limits give none, no move overhead, seed 0, the default playout, one
    /// thread (what the tools that run a searcher themselves use: play, bench, solve,
    /// selfplay).
    pub fn plain(heuristic: H) -> Self {
        SearchOptions {
            heuristic,
            ordering: true,
            hash_mb: 16,
            default_depth: 4,
            move_overhead: Duration::ZERO,
            seed: 0,
            playout: DEFAULT_PLAYOUT,
            threads: 1,
        }
    }
}

/// Builds a searcher of the given kind for game `G`.
pub fn new_searcher<G: Game>(
    kind: SearcherKind,
    options: &SearchOptions<G::Heuristic>,
) -> Box<dyn Searcher<G>> {
    match kind {
        SearcherKind::Minimax => Box::new(minimax::Minimax::new(
            options.heuristic,
            options.default_depth,
        )),
        SearcherKind::AlphaBeta => Box::new(alphabeta::AlphaBeta::new(
            options.heuristic,
            options.ordering,
            options.default_depth,
        )),
        SearcherKind::Pvs if options.threads > 1 => Box::new(pvs::LazySmp::new(
            options.heuristic,
            options.hash_mb,
            options.move_overhead,
            options.threads,
        )),
        SearcherKind::Pvs => Box::new(pvs::Pvs::new(
            options.heuristic,
            options.hash_mb,
            options.move_overhead,
        )),
        SearcherKind::Random => Box::new(random::Random::new(options.seed)),
        SearcherKind::Mcts => Box::new(mcts::Mcts::new(
            options.heuristic,
            options.playout,
            options.default_depth,
            options.move_overhead,
            options.seed,
        )),
    }
}

/// The depth a fixed-depth searcher uses for `limits`.
pub fn fixed_depth(limits: &Limits, default_depth: u32) -> u32 {
    limits.depth.unwrap_or(default_depth).max(1)
}

/// One reusable move buffer per ply, so the search never allocates in the tree.
pub struct MoveStack<Move> {
    buffers: Vec<Vec<Move>>,
}

impl<Move> Default for MoveStack<Move> {
    fn default() -> Self {
        MoveStack {
            buffers: Vec::new(),
        }
    }
}

impl<Move> MoveStack<Move> {
    /// Takes the buffer of `ply`, emptied.
    #[inline]
    pub fn take(&mut self, ply: usize) -> Vec<Move> {
        while self.buffers.len() <= ply {
            self.buffers.push(Vec::new());
        }
        let mut buf = std::mem::take(&mut self.buffers[ply]);
        buf.clear();
        buf
    }

    /// Gives a buffer back for reuse at `ply`.
    #[inline]
    pub fn give(&mut self, ply: usize, buf: Vec<Move>) {
        self.buffers[ply] = buf;
    }
}
