//! A search score as the protocol writes it: a leaf that the searchers and the protocol
//! both use (the searchers classify their internal values into it, in `search`).

use std::fmt;

/// A score as the protocol prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A heuristic value in centi-units.
    Cp(i32),
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Win(p) => write!(f, "win {p}"),
            Score::Loss(p) => write!(f, "loss {p}"),
        }
    }
}
