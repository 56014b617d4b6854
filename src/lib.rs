//! Agon: rules, search and protocol for two-player board games.
//!
//! ```
//! use agon::game::Game;
//! use agon::games::mnk::{Mnk, MnkSettings};
//! use agon::search::{new_searcher, Control, Limits, SearchOptions, SearcherKind};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut pos = Mnk::start(&MnkSettings::new(3, 3, 3));
//! let options = SearchOptions {
//!     heuristic: Mnk::heuristics()[0].1,
//!     ordering: true,
//!     hash_mb: 1,
//!     default_depth: 9,
//!     move_overhead: std::time::Duration::ZERO,
//!     seed: 0,
//!     playout: agon::search::DEFAULT_PLAYOUT,
//!     threads: 1,
//! };
//! let mut searcher = new_searcher::<Mnk>(SearcherKind::Pvs, &options);
//! let stop = AtomicBool::new(false);
//! let result = searcher.search(&mut pos, &Limits::depth(9), &Control::new(&stop), &mut |_| {});
//! assert_eq!(result.score, 0); // tic-tac-toe is a draw
//! ```

pub mod bench;
pub mod cgt;
pub mod engine;
pub mod game;
pub mod games;
pub mod gomocup;
pub mod learn;
pub mod memory;
pub mod perft;
pub mod play;
pub mod protocol;
/// The proof interface of the game's own solvers, a room of [`game`].
pub use game::prover;
pub mod score;
pub mod search;
pub mod selfplay;
pub mod solve;
#[cfg(test)]
mod texel;
pub mod view;
pub mod zobrist;
