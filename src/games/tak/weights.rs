//! The weights of Tak's fitted evaluation and move scores, per board size (see
//! `features.rs` and `policy.rs` for what they multiply). Written by `train.rs`
//! (`train_all`, run by `scripts/train-tak.sh`) from the self-play games in
//! `tests/data/tak-train/`; do not edit by hand.

use super::features::FEATURES;
use super::policy::MOVE_FEATURES;
use super::TakSettings;

/// 5x5: 213283 positions of sp5-r0.txt, sp5-r1.txt (1500 steps), cross-entropy 0.50065.
pub const WEIGHTS_5: [f32; FEATURES] = [
    46.2,   // flat on class 0
    43.2,   // flat on class 1
    49.0,   // flat on class 2
    41.8,   // flat on class 3
    65.4,   // flat on class 4
    46.8,   // flat on class 5
    0.0,    // flat on class 6
    0.0,    // flat on class 7
    0.0,    // flat on class 8
    0.0,    // flat on class 9
    -20.2,  // capstone on class 0
    -5.4,   // capstone on class 1
    23.3,   // capstone on class 2
    -11.3,  // capstone on class 3
    50.2,   // capstone on class 4
    103.0,  // capstone on class 5
    0.0,    // capstone on class 6
    0.0,    // capstone on class 7
    0.0,    // capstone on class 8
    0.0,    // capstone on class 9
    150.2,  // flats x endgame
    62.4,   // walls
    13.6,   // walls x endgame
    -6.7,   // supports under flat/wall/cap 0
    26.1,   // supports under flat/wall/cap 1
    45.9,   // supports under flat/wall/cap 2
    -51.0,  // captives under flat/wall/cap 0
    4.4,    // captives under flat/wall/cap 1
    -8.4,   // captives under flat/wall/cap 2
    -139.5, // capstones in hand
    -130.4, // stones in hand x endgame
    3000.0, // road threat, to move
    57.4,   // one road threat
    51.2,   // two or more road threats
    13.0,   // road distance 2.. 0
    -17.4,  // road distance 2.. 1
    -35.0,  // road distance 2.. 2
    -30.6,  // road distance 2.. 3
    0.0,    // road distance 2.. 4
    0.0,    // road distance 2.. 5
    10.1,   // group spans squared
    12.5,   // lines with 2.. pieces 0
    41.6,   // lines with 2.. pieces 1
    66.8,   // lines with 2.. pieces 2
    0.0,    // lines with 2.. pieces 3
    0.0,    // lines with 2.. pieces 4
    0.0,    // lines with 2.. pieces 5
    37.4,   // capstone next to their stack
    2.7,    // stack reach
    89.0,   // supports x reach
    7.9,    // empty squares influenced
    106.5,  // tempo
    64.0,   // tempo x endgame
    0.0,    // komi
    0.0,    // komi x endgame
];

/// 5x5: the moves chosen in 213283 positions of the same files (6 epochs), mean log-loss 2.8467, top-1 0.210.
pub const MOVE_WEIGHTS_5: [f32; MOVE_FEATURES] = [
    0.9768, -2.4497, 2.7497, -0.0947, 0.1702, 0.6849, 0.2866, 1.0330, 0.4719, 0.0000, 0.0000,
    0.0000, 0.0000, -2.0509, -1.7868, 0.5430, -1.3132, 1.7050, 3.7410, 0.0000, 0.0000, 0.0000,
    0.0000, 0.2424, 0.8884, 0.1988, 0.3165, 0.4951, 0.2258, -0.1316, 1.2353, 0.6815, 0.3782,
    -0.1021, 0.6836, 0.1825, 0.3507, 0.4570, 1.4562, 2.4522, 1.8093, -0.9670, -0.8214, -10.7112,
    -0.2369, 0.1379, 0.0599, -0.0038, 0.4222, -1.5760, 2.1145, -0.7470, 1.5880, 3.7002, 1.2710,
    -1.3054, 0.6788, 1.5871, 1.6582,
];

/// 6x6: 630806 positions of sp6k2-r0.txt, sp6k2-r1.txt, sp6k2-r2.txt, sp6k2-r3.txt (1500 steps), cross-entropy 0.57352.
pub const WEIGHTS_6: [f32; FEATURES] = [
    36.4,   // flat on class 0
    27.2,   // flat on class 1
    38.1,   // flat on class 2
    35.0,   // flat on class 3
    40.2,   // flat on class 4
    46.4,   // flat on class 5
    0.0,    // flat on class 6
    0.0,    // flat on class 7
    0.0,    // flat on class 8
    0.0,    // flat on class 9
    -8.8,   // capstone on class 0
    -11.9,  // capstone on class 1
    5.2,    // capstone on class 2
    11.9,   // capstone on class 3
    34.2,   // capstone on class 4
    51.7,   // capstone on class 5
    0.0,    // capstone on class 6
    0.0,    // capstone on class 7
    0.0,    // capstone on class 8
    0.0,    // capstone on class 9
    119.5,  // flats x endgame
    37.6,   // walls
    41.3,   // walls x endgame
    6.6,    // supports under flat/wall/cap 0
    23.9,   // supports under flat/wall/cap 1
    30.4,   // supports under flat/wall/cap 2
    -42.1,  // captives under flat/wall/cap 0
    1.2,    // captives under flat/wall/cap 1
    -8.0,   // captives under flat/wall/cap 2
    -82.2,  // capstones in hand
    -110.1, // stones in hand x endgame
    3000.0, // road threat, to move
    40.4,   // one road threat
    34.7,   // two or more road threats
    22.2,   // road distance 2.. 0
    -0.5,   // road distance 2.. 1
    -9.2,   // road distance 2.. 2
    -16.5,  // road distance 2.. 3
    -3.7,   // road distance 2.. 4
    0.0,    // road distance 2.. 5
    4.0,    // group spans squared
    1.4,    // lines with 2.. pieces 0
    9.3,    // lines with 2.. pieces 1
    22.9,   // lines with 2.. pieces 2
    41.1,   // lines with 2.. pieces 3
    0.0,    // lines with 2.. pieces 4
    0.0,    // lines with 2.. pieces 5
    25.9,   // capstone next to their stack
    3.2,    // stack reach
    59.8,   // supports x reach
    -0.2,   // empty squares influenced
    51.2,   // tempo
    69.6,   // tempo x endgame
    -14.1,  // komi
    71.5,   // komi x endgame
];

/// 6x6: the moves chosen in 630806 positions of the same files (6 epochs), mean log-loss 3.1334, top-1 0.184.
pub const MOVE_WEIGHTS_6: [f32; MOVE_FEATURES] = [
    0.7611, -1.9055, 1.8499, -0.2467, 0.0241, 0.4076, 0.2166, 0.5911, 0.8685, 0.0000, 0.0000,
    0.0000, 0.0000, -2.5829, -2.8053, -0.3981, -1.7949, 0.9566, 2.6412, 0.0000, 0.0000, 0.0000,
    0.0000, 0.4253, 0.8308, 0.4373, 0.3769, 0.6293, 0.4985, -0.0308, 1.3331, 0.6072, 0.3946,
    0.0197, 0.5804, 0.1719, 0.3450, 0.5716, 1.5578, 2.4177, 0.9657, -1.2066, -1.7898, -13.4990,
    -0.2325, 0.4033, 0.3707, -0.0670, 0.5265, -1.7374, 2.1633, -0.6976, 1.3893, 3.9683, 1.4227,
    -1.3373, 0.7943, 1.7365, 1.8617,
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
