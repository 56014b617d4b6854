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

/// 6x6: 225054 positions of sp6k2-r0.txt, sp6k2-r1.txt (1500 steps), cross-entropy 0.57360.
pub const WEIGHTS_6: [f32; FEATURES] = [
    26.4,   // flat on class 0
    31.6,   // flat on class 1
    39.4,   // flat on class 2
    36.7,   // flat on class 3
    43.2,   // flat on class 4
    52.2,   // flat on class 5
    0.0,    // flat on class 6
    0.0,    // flat on class 7
    0.0,    // flat on class 8
    0.0,    // flat on class 9
    -17.9,  // capstone on class 0
    -11.4,  // capstone on class 1
    22.3,   // capstone on class 2
    7.2,    // capstone on class 3
    47.5,   // capstone on class 4
    60.4,   // capstone on class 5
    0.0,    // capstone on class 6
    0.0,    // capstone on class 7
    0.0,    // capstone on class 8
    0.0,    // capstone on class 9
    105.5,  // flats x endgame
    43.4,   // walls
    44.1,   // walls x endgame
    20.4,   // supports under flat/wall/cap 0
    36.2,   // supports under flat/wall/cap 1
    36.9,   // supports under flat/wall/cap 2
    -40.5,  // captives under flat/wall/cap 0
    -8.6,   // captives under flat/wall/cap 1
    -12.3,  // captives under flat/wall/cap 2
    -108.1, // capstones in hand
    -94.1,  // stones in hand x endgame
    3000.0, // road threat, to move
    27.6,   // one road threat
    35.0,   // two or more road threats
    22.8,   // road distance 2.. 0
    -5.3,   // road distance 2.. 1
    -14.0,  // road distance 2.. 2
    -13.7,  // road distance 2.. 3
    -2.0,   // road distance 2.. 4
    0.0,    // road distance 2.. 5
    3.9,    // group spans squared
    3.1,    // lines with 2.. pieces 0
    11.6,   // lines with 2.. pieces 1
    29.2,   // lines with 2.. pieces 2
    47.6,   // lines with 2.. pieces 3
    0.0,    // lines with 2.. pieces 4
    0.0,    // lines with 2.. pieces 5
    34.1,   // capstone next to their stack
    3.8,    // stack reach
    42.2,   // supports x reach
    -1.4,   // empty squares influenced
    37.2,   // tempo
    54.4,   // tempo x endgame
    -16.4,  // komi
    68.5,   // komi x endgame
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
