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
    0.0,    // flat on class 0 x endgame
    0.0,    // flat on class 1 x endgame
    0.0,    // flat on class 2 x endgame
    0.0,    // flat on class 3 x endgame
    0.0,    // flat on class 4 x endgame
    0.0,    // flat on class 5 x endgame
    0.0,    // flat on class 6 x endgame
    0.0,    // flat on class 7 x endgame
    0.0,    // flat on class 8 x endgame
    0.0,    // flat on class 9 x endgame
    0.0,    // capstone on class 0 x endgame
    0.0,    // capstone on class 1 x endgame
    0.0,    // capstone on class 2 x endgame
    0.0,    // capstone on class 3 x endgame
    0.0,    // capstone on class 4 x endgame
    0.0,    // capstone on class 5 x endgame
    0.0,    // capstone on class 6 x endgame
    0.0,    // capstone on class 7 x endgame
    0.0,    // capstone on class 8 x endgame
    0.0,    // capstone on class 9 x endgame
    0.0,    // flats x endgame x endgame
    0.0,    // walls x endgame
    0.0,    // walls x endgame x endgame
    0.0,    // supports under flat/wall/cap 0 x endgame
    0.0,    // supports under flat/wall/cap 1 x endgame
    0.0,    // supports under flat/wall/cap 2 x endgame
    0.0,    // captives under flat/wall/cap 0 x endgame
    0.0,    // captives under flat/wall/cap 1 x endgame
    0.0,    // captives under flat/wall/cap 2 x endgame
    0.0,    // capstones in hand x endgame
    0.0,    // stones in hand x endgame x endgame
    0.0,    // road threat, to move x endgame
    0.0,    // one road threat x endgame
    0.0,    // two or more road threats x endgame
    0.0,    // road distance 2.. 0 x endgame
    0.0,    // road distance 2.. 1 x endgame
    0.0,    // road distance 2.. 2 x endgame
    0.0,    // road distance 2.. 3 x endgame
    0.0,    // road distance 2.. 4 x endgame
    0.0,    // road distance 2.. 5 x endgame
    0.0,    // group spans squared x endgame
    0.0,    // lines with 2.. pieces 0 x endgame
    0.0,    // lines with 2.. pieces 1 x endgame
    0.0,    // lines with 2.. pieces 2 x endgame
    0.0,    // lines with 2.. pieces 3 x endgame
    0.0,    // lines with 2.. pieces 4 x endgame
    0.0,    // lines with 2.. pieces 5 x endgame
    0.0,    // capstone next to their stack x endgame
    0.0,    // stack reach x endgame
    0.0,    // supports x reach x endgame
    0.0,    // empty squares influenced x endgame
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

/// 6x6: 1848938 positions of sp6k2-r0.txt, sp6k2-r1.txt, sp6k2-r2.txt, sp6k2-r3.txt, sp6k2-r4.txt, sp6k2-r5.txt, sp6k2-r6.txt (1500 steps), cross-entropy 0.56955.
pub const WEIGHTS_6: [f32; FEATURES] = [
    23.5,   // flat on class 0
    19.2,   // flat on class 1
    34.0,   // flat on class 2
    19.4,   // flat on class 3
    44.0,   // flat on class 4
    49.6,   // flat on class 5
    0.0,    // flat on class 6
    0.0,    // flat on class 7
    0.0,    // flat on class 8
    0.0,    // flat on class 9
    -3.0,   // capstone on class 0
    -5.1,   // capstone on class 1
    6.1,    // capstone on class 2
    4.4,    // capstone on class 3
    16.4,   // capstone on class 4
    42.9,   // capstone on class 5
    0.0,    // capstone on class 6
    0.0,    // capstone on class 7
    0.0,    // capstone on class 8
    0.0,    // capstone on class 9
    107.9,  // flats x endgame
    40.2,   // walls
    17.0,   // walls x endgame
    -4.0,   // supports under flat/wall/cap 0
    10.4,   // supports under flat/wall/cap 1
    23.4,   // supports under flat/wall/cap 2
    -55.1,  // captives under flat/wall/cap 0
    5.2,    // captives under flat/wall/cap 1
    8.5,    // captives under flat/wall/cap 2
    -61.7,  // capstones in hand
    -127.6, // stones in hand x endgame
    3000.0, // road threat, to move
    35.0,   // one road threat
    31.1,   // two or more road threats
    17.4,   // road distance 2.. 0
    1.7,    // road distance 2.. 1
    -6.3,   // road distance 2.. 2
    -15.1,  // road distance 2.. 3
    -10.6,  // road distance 2.. 4
    0.0,    // road distance 2.. 5
    5.1,    // group spans squared
    1.3,    // lines with 2.. pieces 0
    7.8,    // lines with 2.. pieces 1
    17.5,   // lines with 2.. pieces 2
    33.3,   // lines with 2.. pieces 3
    0.0,    // lines with 2.. pieces 4
    0.0,    // lines with 2.. pieces 5
    21.0,   // capstone next to their stack
    -0.7,   // stack reach
    62.9,   // supports x reach
    3.8,    // empty squares influenced
    57.6,   // tempo
    78.2,   // tempo x endgame
    -13.1,  // komi
    79.7,   // komi x endgame
    22.3,   // flat on class 0 x endgame
    26.0,   // flat on class 1 x endgame
    20.3,   // flat on class 2 x endgame
    29.6,   // flat on class 3 x endgame
    8.0,    // flat on class 4 x endgame
    1.7,    // flat on class 5 x endgame
    0.0,    // flat on class 6 x endgame
    0.0,    // flat on class 7 x endgame
    0.0,    // flat on class 8 x endgame
    0.0,    // flat on class 9 x endgame
    -1.7,   // capstone on class 0 x endgame
    -2.4,   // capstone on class 1 x endgame
    9.3,    // capstone on class 2 x endgame
    4.2,    // capstone on class 3 x endgame
    14.9,   // capstone on class 4 x endgame
    16.1,   // capstone on class 5 x endgame
    0.0,    // capstone on class 6 x endgame
    0.0,    // capstone on class 7 x endgame
    0.0,    // capstone on class 8 x endgame
    0.0,    // capstone on class 9 x endgame
    0.0,    // flats x endgame x endgame
    17.0,   // walls x endgame
    0.0,    // walls x endgame x endgame
    -7.2,   // supports under flat/wall/cap 0 x endgame
    -0.2,   // supports under flat/wall/cap 1 x endgame
    1.0,    // supports under flat/wall/cap 2 x endgame
    21.4,   // captives under flat/wall/cap 0 x endgame
    9.2,    // captives under flat/wall/cap 1 x endgame
    -11.3,  // captives under flat/wall/cap 2 x endgame
    -40.5,  // capstones in hand x endgame
    0.0,    // stones in hand x endgame x endgame
    0.0,    // road threat, to move x endgame
    20.9,   // one road threat x endgame
    19.9,   // two or more road threats x endgame
    6.6,    // road distance 2.. 0 x endgame
    -2.2,   // road distance 2.. 1 x endgame
    -5.6,   // road distance 2.. 2 x endgame
    -1.3,   // road distance 2.. 3 x endgame
    -4.7,   // road distance 2.. 4 x endgame
    0.0,    // road distance 2.. 5 x endgame
    -1.2,   // group spans squared x endgame
    2.3,    // lines with 2.. pieces 0 x endgame
    3.6,    // lines with 2.. pieces 1 x endgame
    12.1,   // lines with 2.. pieces 2 x endgame
    22.5,   // lines with 2.. pieces 3 x endgame
    0.0,    // lines with 2.. pieces 4 x endgame
    0.0,    // lines with 2.. pieces 5 x endgame
    12.9,   // capstone next to their stack x endgame
    4.5,    // stack reach x endgame
    16.1,   // supports x reach x endgame
    -5.1,   // empty squares influenced x endgame
];

/// 6x6: the moves chosen in 1848938 positions of the same files (6 epochs), mean log-loss 3.1626, top-1 0.174.
pub const MOVE_WEIGHTS_6: [f32; MOVE_FEATURES] = [
    0.7506, -2.1749, 2.2740, 0.0080, -0.0218, 0.4858, 0.1708, 0.6595, 0.7001, 0.0000, 0.0000,
    0.0000, 0.0000, -2.8298, -2.8310, -0.6148, -1.9407, 0.5490, 2.7873, 0.0000, 0.0000, 0.0000,
    0.0000, 0.3560, 0.8493, 0.3494, 0.3551, 0.5207, 0.4748, -0.0598, 1.3591, 0.8278, 0.4130,
    0.0547, 0.6339, 0.1868, 0.2889, 0.5686, 1.3747, 2.4453, 2.5122, -1.4108, -1.2260, -14.4835,
    -0.3618, 0.3077, 0.3703, -0.0675, 0.5866, -1.7551, 2.0019, -0.6345, 1.3754, 3.8466, 1.3981,
    -1.5175, 0.8563, 1.7207, 1.7460,
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
