//! Fitting the weights of the `roads` heuristic to game outcomes by Texel's method
//! ([`crate::texel`]).
//!
//! Data: `tests/data/tak-selfplay.txt`, positions of self-play games with their results
//! (its header says how the games were played). The ignored tests below rebuild the data
//! from an arena journal and refit the weights; the ordinary test checks that the weights
//! in `eval.rs` fit the kept data better than the hand-set ones they replaced.

use super::eval::{side_features, FEATURES, FEATURE_NAMES, ROADS_WEIGHTS};
use super::{Tak, TakSettings};
use crate::texel::{self, Sample};

/// The weights before fitting (set by hand, checked in matches).
const HAND_WEIGHTS: [i32; FEATURES] = [
    60, 25, 50, 10, 12, 8, 8, 20, 10_000, 3_000, 900, 400, 160, 70, 30, 12, 5, 2,
];
/// Tempo of the side to move, as in `evaluate`: the last feature of a sample.
const TEMPO: i32 = 20;
/// Weights that stay as set: a finished road, a road threat with the move (a win next
/// ply): the search proves those, the fit should not trade them off; and the tempo.
const FIXED: [usize; 3] = [8, 9, FEATURES];

const DATA: &str = "tak-selfplay.txt";

fn settings() -> TakSettings {
    TakSettings {
        size: 5,
        half_komi: 0,
        line: false,
    }
}

fn load() -> Vec<Sample> {
    texel::load(DATA, &settings(), |pos: &Tak, result| {
        texel::sample_of(pos, result, side_features)
    })
}

#[test]
fn tuned_weights_fit_the_kept_games_better_than_the_hand_weights() {
    texel::assert_fits_better(
        &load(),
        &texel::start_weights(&HAND_WEIGHTS, TEMPO),
        &texel::start_weights(&ROADS_WEIGHTS, TEMPO),
        25.0,
    );
}

/// Rebuilds the data from a journal of Tak 5x5 games: `AGON_TAK_JOURNAL=path cargo test
/// --release --lib tak::tune::rebuild_data -- --ignored`.
#[test]
#[ignore]
fn rebuild_data() {
    let journals = texel::journals_from_env("AGON_TAK_JOURNAL");
    let header =
        "# Positions of Tak 5x5 self-play games with White's result (1, 0.5, 0): TPS|result.\n\
         # Games: arena match --game \"tak size=5\" --games 1400 --openings random:4 --seed 41\n\
         #   --max-plies 300 with agon against itself at st=0.03 (MoveOverhead 20 ms, so\n\
         #   about 1-2 ms a move), commit 3c43a19 (the first fitted weights); every third\n\
         #   position from ply 6 on. The first fit used 600 games of commit a68b3bd.\n\
         # Rebuilt by src/games/tak/tune.rs (rebuild_data).\n";
    let count = texel::rebuild::<Tak>(&journals, &settings(), header, DATA);
    println!("{count} positions");
}

/// Refits the weights on the kept data, starting from the weights in `eval.rs` (the
/// first round started from [`HAND_WEIGHTS`]), and prints them with the losses:
/// `cargo test --release --lib tak::tune::refit -- --ignored --nocapture`.
#[test]
#[ignore]
fn refit() {
    let current = texel::start_weights(&ROADS_WEIGHTS, TEMPO);
    texel::refit(&load(), &FEATURE_NAMES, &current, &FIXED, 25.0, 2.0);
}
