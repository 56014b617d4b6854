//! Halma unit tests.
