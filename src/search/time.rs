//! Time management.
