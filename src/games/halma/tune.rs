//! Fitting the weights of the `distance` heuristic to game outcomes by Texel's method
//! ([`crate::texel`]), on Halma 8x8.
//!
//! Data: `tests/data/halma-selfplay.txt` (its header says how the games were played).
//! The ignored tests rebuild it from arena journals and refit; the ordinary test checks
//! that the weights in `eval.rs` fit the kept data better than the hand-set ones.

use super::eval::{side_features, DISTANCE_TEMPO, DISTANCE_WEIGHTS, FEATURES, FEATURE_NAMES};
use super::{Halma, HalmaSettings};
use crate::texel::{self, Sample};

/// The weights before fitting: ten per step of distance, one per squared step, twenty per
/// piece in the target camp; nothing for the home camp, no tempo.
const HAND_WEIGHTS: [i32; FEATURES] = [10, 1, 20, 0];
const HAND_TEMPO: i32 = 0;

const DATA: &str = "halma-selfplay.txt";

fn settings() -> HalmaSettings {
    HalmaSettings {
        size: 8,
        strict: false,
        limit: 600,
    }
}

fn load() -> Vec<Sample> {
    texel::load(DATA, &settings(), |pos: &Halma, result| {
        texel::sample_of(pos, result, |p, side, _| side_features(p, side))
    })
}

#[test]
fn tuned_weights_fit_the_kept_games_better_than_the_hand_weights() {
    texel::assert_fits_better(
        &load(),
        &texel::start_weights(&HAND_WEIGHTS, HAND_TEMPO),
        &texel::start_weights(&DISTANCE_WEIGHTS, DISTANCE_TEMPO),
        10.0,
    );
}

/// Rebuilds the data from journals of Halma 8x8 games: `AGON_HALMA_JOURNAL=a.jsonl:b.jsonl
/// cargo test --release --lib halma::tune::rebuild_data -- --ignored`.
#[test]
#[ignore]
fn rebuild_data() {
    let journals = texel::journals_from_env("AGON_HALMA_JOURNAL");
    let header = "# Positions of Halma 8x8 self-play games with the first player's result\n\
         # (1, 0.5, 0): position|result.\n\
         # Games: arena match --game \"halma size=8\" --openings random:4 --max-plies 400,\n\
         #   600 games with --seed 32 and 1400 with --seed 34, agon against itself at\n\
         #   st=0.03 with MoveOverhead 20 (about 1-2 ms a move), commit 87fa0e6; every\n\
         #   third position from ply 6 on. Rebuilt by src/games/halma/tune.rs (rebuild_data).\n";
    let count = texel::rebuild::<Halma>(&journals, &settings(), header, DATA);
    println!("{count} positions");
}

/// Refits the weights on the kept data and prints them with the losses:
/// `cargo test --release --lib halma::tune::refit -- --ignored --nocapture`.
#[test]
#[ignore]
fn refit() {
    let hand = texel::start_weights(&HAND_WEIGHTS, HAND_TEMPO);
    texel::refit(&load(), &FEATURE_NAMES, &hand, &[], 10.0, 0.2);
}
