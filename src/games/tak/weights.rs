//! The weights of Tak's fitted evaluation and move scores, per board size (see
//! `features.rs` and `policy.rs` for what they multiply). Written by `train.rs`
//! (`train_all`, run by `scripts/train-tak.sh`) from the self-play games in
//! `tests/data/tak-train/`; do not edit by hand.

use super::features::FEATURES;
use super::policy::MOVE_FEATURES;
use super::TakSettings;

/// 5x5: 107689 positions of sp5-r0.txt (1500 steps), cross-entropy 0.52391.
pub const WEIGHTS_5: [f32; FEATURES] = [
    37.1,   // flat on class 0
    43.6,   // flat on class 1
    48.4,   // flat on class 2
    32.4,   // flat on class 3
    63.6,   // flat on class 4
    48.7,   // flat on class 5
    0.0,    // flat on class 6
    0.0,    // flat on class 7
    0.0,    // flat on class 8
    0.0,    // flat on class 9
    -15.0,  // capstone on class 0
    -9.6,   // capstone on class 1
    16.8,   // capstone on class 2
    -29.3,  // capstone on class 3
    35.1,   // capstone on class 4
    89.6,   // capstone on class 5
    0.0,    // capstone on class 6
    0.0,    // capstone on class 7
    0.0,    // capstone on class 8
    0.0,    // capstone on class 9
    118.6,  // flats x endgame
    55.9,   // walls
    14.8,   // walls x endgame
    56.1,   // supports under flat/wall/cap 0
    85.2,   // supports under flat/wall/cap 1
    100.7,  // supports under flat/wall/cap 2
    -8.1,   // captives under flat/wall/cap 0
    28.7,   // captives under flat/wall/cap 1
    13.1,   // captives under flat/wall/cap 2
    -87.7,  // capstones in hand
    -138.5, // stones in hand x endgame
    3000.0, // road threat, to move
    53.1,   // one road threat
    46.8,   // two or more road threats
    13.1,   // road distance 2.. 0
    -13.5,  // road distance 2.. 1
    -33.7,  // road distance 2.. 2
    -33.0,  // road distance 2.. 3
    0.0,    // road distance 2.. 4
    0.0,    // road distance 2.. 5
    9.7,    // group spans squared
    4.4,    // lines with 2.. pieces 0
    29.0,   // lines with 2.. pieces 1
    41.0,   // lines with 2.. pieces 2
    0.0,    // lines with 2.. pieces 3
    0.0,    // lines with 2.. pieces 4
    0.0,    // lines with 2.. pieces 5
    44.6,   // capstone next to their stack
    6.8,    // empty squares influenced
    92.6,   // tempo
    60.2,   // tempo x endgame
    0.0,    // komi
    0.0,    // komi x endgame
];

/// 5x5: the moves chosen in 107689 positions of the same files (6 epochs), mean log-loss 2.7874, top-1 0.226.
pub const MOVE_WEIGHTS_5: [f32; MOVE_FEATURES] = [
    1.0175, -2.5433, 1.4242, -0.2952, 0.0982, 0.6176, 0.5244, 1.0524, 0.8709, 0.0000, 0.0000,
    0.0000, 0.0000, -2.2978, -2.5215, -0.7762, -2.2671, 1.2242, 3.5225, 0.0000, 0.0000, 0.0000,
    0.0000, 0.3018, 0.8656, 0.3954, 0.3231, 0.6157, 0.3800, -0.0415, 1.3059, 0.1290, 0.2594,
    -0.1162, 0.8955, 0.1676, 0.3292, 0.4883, 1.4855, 2.4992, 4.0406, -0.6204, -0.7614, 1.9852,
    -0.0112, 0.3042, 0.2468, 0.0000, 0.3861, -1.3619, 1.8099, -0.2662, 1.4015, 3.3923, 1.0088,
    -1.2539, 0.4876, 1.8468, 1.7665,
];

/// 6x6: 130000 positions of sp6k2-r0.txt (1500 steps), cross-entropy 0.57390.
pub const WEIGHTS_6: [f32; FEATURES] = [
    23.6,   // flat on class 0
    34.6,   // flat on class 1
    41.8,   // flat on class 2
    37.3,   // flat on class 3
    44.1,   // flat on class 4
    51.8,   // flat on class 5
    0.0,    // flat on class 6
    0.0,    // flat on class 7
    0.0,    // flat on class 8
    0.0,    // flat on class 9
    -11.7,  // capstone on class 0
    -35.4,  // capstone on class 1
    3.2,    // capstone on class 2
    -10.2,  // capstone on class 3
    34.1,   // capstone on class 4
    46.1,   // capstone on class 5
    0.0,    // capstone on class 6
    0.0,    // capstone on class 7
    0.0,    // capstone on class 8
    0.0,    // capstone on class 9
    94.7,   // flats x endgame
    35.6,   // walls
    49.6,   // walls x endgame
    62.2,   // supports under flat/wall/cap 0
    70.3,   // supports under flat/wall/cap 1
    74.4,   // supports under flat/wall/cap 2
    -17.8,  // captives under flat/wall/cap 0
    10.0,   // captives under flat/wall/cap 1
    -0.3,   // captives under flat/wall/cap 2
    -26.2,  // capstones in hand
    -104.5, // stones in hand x endgame
    3000.0, // road threat, to move
    25.0,   // one road threat
    36.9,   // two or more road threats
    24.6,   // road distance 2.. 0
    -4.9,   // road distance 2.. 1
    -17.2,  // road distance 2.. 2
    -14.5,  // road distance 2.. 3
    1.2,    // road distance 2.. 4
    0.0,    // road distance 2.. 5
    3.2,    // group spans squared
    1.5,    // lines with 2.. pieces 0
    8.1,    // lines with 2.. pieces 1
    27.2,   // lines with 2.. pieces 2
    41.7,   // lines with 2.. pieces 3
    0.0,    // lines with 2.. pieces 4
    0.0,    // lines with 2.. pieces 5
    20.0,   // capstone next to their stack
    -2.6,   // empty squares influenced
    23.3,   // tempo
    55.1,   // tempo x endgame
    -15.8,  // komi
    66.0,   // komi x endgame
];

/// 6x6: the moves chosen in 130000 positions of the same files (6 epochs), mean log-loss 3.0472, top-1 0.211.
pub const MOVE_WEIGHTS_6: [f32; MOVE_FEATURES] = [
    1.2183, -2.5524, 0.9044, -0.4270, -0.0119, 0.4687, 0.2483, 0.9360, 1.1965, 0.0000, 0.0000,
    0.0000, 0.0000, -4.9082, -3.6165, -1.4231, -2.7632, 0.3325, 2.1470, 0.0000, 0.0000, 0.0000,
    0.0000, 0.4458, 1.0526, 0.7251, 0.4084, 0.7406, 0.5243, -0.0975, 1.2220, -1.9258, 0.2770,
    -0.0355, 0.6206, 0.1097, 0.2947, 0.4869, 1.8750, 2.7533, 0.0000, -1.5348, -1.7089, 2.4231,
    -0.0995, 0.3491, 0.3341, -0.0858, 0.4495, -1.4655, 2.0482, -0.5609, 1.3901, 3.8375, 1.2145,
    -1.3512, 0.6441, 1.5217, 2.0094,
];

/// The evaluation weights for `settings`, where they were fitted.
pub fn for_settings(settings: &TakSettings) -> Option<&'static [f32; FEATURES]> {
    match (settings.line, settings.size) {
        (false, 5) => Some(&WEIGHTS_5),
        (false, 6) => Some(&WEIGHTS_6),
        _ => None,
    }
}

/// The move weights for `settings`, where they were fitted.
pub fn move_weights_for(settings: &TakSettings) -> Option<&'static [f32; MOVE_FEATURES]> {
    match (settings.line, settings.size) {
        (false, 5) => Some(&MOVE_WEIGHTS_5),
        (false, 6) => Some(&MOVE_WEIGHTS_6),
        _ => None,
    }
}
