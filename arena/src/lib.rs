//! The Agon arena: referee games between engine processes that speak the Agon
//! protocol (UGI-compatible), record every game, and report Elo statistics.
//!
//! Layers, each knowing only the one below it: [`process`] (an engine process, bounded
//! line reads with deadlines, group kill) → [`client`] (protocol verbs over any
//! reader/writer) → [`referee`] (one game: clocks, rules from the `agon` library,
//! terminations) → [`schedule`] (pairs, openings, concurrency) → [`record`] and [`stats`].

pub mod adjudication;
pub mod atomic_file;
pub mod check;
pub mod class;
pub mod client;
pub mod clock;
pub mod config;
pub mod dialect;
pub mod grade;
pub mod journal;
pub mod live;
pub mod out_lock;
pub mod pgn;
pub mod process;
pub mod ratings;
pub mod record;
pub mod referee;
pub mod report;
pub mod run_loop;
pub mod runner;
pub mod safe_text;
pub mod sandbox;
pub mod schedule;
pub mod serve;
pub mod sprt;
pub mod stats;
pub mod summary;
pub mod terminal;
pub mod tournament;
