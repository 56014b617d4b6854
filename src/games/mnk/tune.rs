//! Fitting the weights of the `threats` heuristic to game outcomes by Texel's method
//! ([`crate::texel`]), on two five-in-a-row boards: gomoku (15x15), which the first
//! player wins, and 9x9, where half the games are drawn. The weights count open windows
//! by the stones they still miss, so they apply to every k. The weight of a window four
//! or more stones short stays as set (4): it is what makes a central square worth more
//! than an edge one early on, and the fit, which drove it to 0, lost on 9x9.
//!
//! Measured against the hand weights (50 ms a move, 200 games each): fitted to gomoku
//! alone, gomoku 54.5% of 400 but 9x9 45.2%; fitted to both boards, gomoku 54.0% and 9x9
//! 46.0%; both boards with that weight kept (the weights in `eval.rs`): gomoku 63.5%
//! (+96 +- 50 Elo), 9x9 51.0% (+7 +- 37). Used for k = 4 by missing stones they lost
//! 46.8% on 7x7, so other k keep the hand weights ([`super::eval::FITTED_K`]).
//!
//! Two features were added later, the squares where a side would make two fours at once
//! (an open or a double four in the making) and that square with the move: the refit from
//! the weights before them took the loss on the kept data from 0.10531 to 0.10218; against
//! Pela 7.9 (0.1 s a move, 200 games each) the engine scored 46.2% with them and 46.0%
//! without, a wash kept for the better fit.
//!
//! Data: `tests/data/gomoku-selfplay.txt` and `tests/data/mnk9-selfplay.txt` (their
//! headers say how the games were played). The ignored tests rebuild them from arena
//! journals and refit; the ordinary test checks that the weights in `eval.rs` fit the kept
//! data better than the hand-set ones.

use super::eval::{side_features, FEATURES, FEATURE_NAMES, THREATS_TEMPO, THREATS_WEIGHTS};
use super::{Mnk, MnkSettings};
use crate::texel::{self, Sample};

/// The weights before fitting: 4 to the power of the stones in the window (for k = 5),
/// 50 more for a threat, and the two bonuses; no tempo.
const HAND_WEIGHTS: [i32; FEATURES] = [306, 64, 16, 4, 2000, 1000, 0, 0];
const HAND_TEMPO: i32 = 0;

/// The data files, with their boards.
const DATA: [(&str, MnkSettings); 2] = [
    ("gomoku-selfplay.txt", MnkSettings::new(15, 15, 5)),
    ("mnk9-selfplay.txt", MnkSettings::new(9, 9, 5)),
];

fn load() -> Vec<Sample> {
    DATA.iter()
        .flat_map(|(file, settings)| {
            texel::load(file, settings, |pos: &Mnk, result| {
                texel::sample_of(pos, result, side_features)
            })
        })
        .collect()
}

#[test]
fn tuned_weights_fit_the_kept_games_better_than_the_hand_weights() {
    texel::assert_fits_better(
        &load(),
        &texel::start_weights(&HAND_WEIGHTS, HAND_TEMPO),
        &texel::start_weights(&THREATS_WEIGHTS, THREATS_TEMPO),
        25.0,
    );
}

/// Rebuilds the data from journals of self-play games: `AGON_GOMOKU_JOURNAL=a.jsonl:b.jsonl
/// AGON_MNK9_JOURNAL=c.jsonl cargo test --release --lib mnk::tune::rebuild_data -- --ignored`.
#[test]
#[ignore]
fn rebuild_data() {
    let sources = [
        (
            "AGON_GOMOKU_JOURNAL",
            "# Positions of gomoku (mnk m=15 n=15 k=5) self-play games with the first player's\n\
             # result (1, 0.5, 0): position|result.\n\
             # Games: arena match --game \"mnk m=15 n=15 k=5\" --openings random:4, 600 games with\n\
             #   --seed 31 and 1400 with --seed 33, agon against itself at st=0.03 with\n\
             #   MoveOverhead 20 (about 1-2 ms, depth 2-3 a move), commit 87fa0e6; every third\n\
             #   position from ply 6 on. Rebuilt by src/games/mnk/tune.rs (rebuild_data).\n",
        ),
        (
            "AGON_MNK9_JOURNAL",
            "# Positions of mnk m=9 n=9 k=5 self-play games with the first player's result\n\
             # (1, 0.5, 0): position|result.\n\
             # Games: arena match --game \"mnk m=9 n=9 k=5\" --openings random:4 --seed 35,\n\
             #   800 games, agon against itself at st=0.03 with MoveOverhead 20, commit\n\
             #   87fa0e6 with the open-window counts of this change (same search); every third\n\
             #   position from ply 6 on. Rebuilt by src/games/mnk/tune.rs (rebuild_data).\n",
        ),
    ];
    for ((var, header), (file, settings)) in sources.iter().zip(DATA) {
        if std::env::var_os(var).is_some() {
            let journals = texel::journals_from_env(var);
            let count = texel::rebuild::<Mnk>(&journals, &settings, header, file);
            println!("{file}: {count} positions");
        }
    }
}

/// Refits the weights on the kept data and prints them with the losses:
/// `cargo test --release --lib mnk::tune::refit -- --ignored --nocapture`.
#[test]
#[ignore]
fn refit() {
    let hand = texel::start_weights(&HAND_WEIGHTS, HAND_TEMPO);
    // Feature 3, windows four or more short, stays as set (see the module doc).
    texel::refit(&load(), &FEATURE_NAMES, &hand, &[3], 25.0, 2.0);
}
