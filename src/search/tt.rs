//! Transposition table.
