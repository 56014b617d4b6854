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

/// 6x6: 225054 positions of sp6k2-r0.txt, sp6k2-r1.txt (1500 steps), cross-entropy 0.57550.
pub const WEIGHTS_6: [f32; FEATURES] = [
    21.7,   // flat on class 0
    26.0,   // flat on class 1
    34.4,   // flat on class 2
    31.5,   // flat on class 3
    38.9,   // flat on class 4
    49.2,   // flat on class 5
    0.0,    // flat on class 6
    0.0,    // flat on class 7
    0.0,    // flat on class 8
    0.0,    // flat on class 9
    -18.2,  // capstone on class 0
    -13.0,  // capstone on class 1
    24.1,   // capstone on class 2
    6.2,    // capstone on class 3
    48.6,   // capstone on class 4
    63.9,   // capstone on class 5
    0.0,    // capstone on class 6
    0.0,    // capstone on class 7
    0.0,    // capstone on class 8
    0.0,    // capstone on class 9
    96.0,   // flats x endgame
    46.5,   // walls
    44.1,   // walls x endgame
    58.5,   // supports under flat/wall/cap 0
    72.5,   // supports under flat/wall/cap 1
    76.0,   // supports under flat/wall/cap 2
    -18.1,  // captives under flat/wall/cap 0
    6.5,    // captives under flat/wall/cap 1
    3.2,    // captives under flat/wall/cap 2
    -111.7, // capstones in hand
    -104.5, // stones in hand x endgame
    3000.0, // road threat, to move
    29.0,   // one road threat
    36.3,   // two or more road threats
    24.7,   // road distance 2.. 0
    -4.7,   // road distance 2.. 1
    -14.1,  // road distance 2.. 2
    -12.5,  // road distance 2.. 3
    -1.6,   // road distance 2.. 4
    0.0,    // road distance 2.. 5
    3.9,    // group spans squared
    2.6,    // lines with 2.. pieces 0
    11.6,   // lines with 2.. pieces 1
    29.4,   // lines with 2.. pieces 2
    49.6,   // lines with 2.. pieces 3
    0.0,    // lines with 2.. pieces 4
    0.0,    // lines with 2.. pieces 5
    39.9,   // capstone next to their stack
    -1.1,   // empty squares influenced
    34.4,   // tempo
    52.0,   // tempo x endgame
    -16.6,  // komi
    67.6,   // komi x endgame
];

/// 6x6: the moves chosen in 225054 positions of the same files (6 epochs), mean log-loss 3.1224, top-1 0.193.
pub const MOVE_WEIGHTS_6: [f32; MOVE_FEATURES] = [
    1.0023, -2.1447, 0.8091, -0.4078, -0.0243, 0.4512, 0.2008, 0.7931, 1.0673, 0.0000, 0.0000,
    0.0000, 0.0000, -2.0834, -2.5021, -0.3178, -1.5616, 1.0715, 2.4802, 0.0000, 0.0000, 0.0000,
    0.0000, 0.4499, 0.9917, 0.5624, 0.4119, 0.7204, 0.4850, -0.0803, 1.2476, 0.5668, 0.3226,
    0.0136, 0.3826, 0.1041, 0.3132, 0.2131, 1.9074, 2.6827, 1.3293, -1.4910, -1.9825, -7.7084,
    -0.1706, 0.3741, 0.3049, -0.0557, 0.5219, -1.7042, 2.1778, -0.6672, 1.3924, 4.0152, 1.4237,
    -1.3104, 0.8277, 1.6732, 1.9605,
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
