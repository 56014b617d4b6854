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

/// 6x6: 1442465 positions of sp6k2-r0.txt, sp6k2-r1.txt, sp6k2-r2.txt, sp6k2-r3.txt, sp6k2-r4.txt, sp6k2-r5.txt (1500 steps), cross-entropy 0.57016.
pub const WEIGHTS_6: [f32; FEATURES] = [
    24.0,   // flat on class 0
    18.2,   // flat on class 1
    34.0,   // flat on class 2
    19.2,   // flat on class 3
    44.7,   // flat on class 4
    51.2,   // flat on class 5
    0.0,    // flat on class 6
    0.0,    // flat on class 7
    0.0,    // flat on class 8
    0.0,    // flat on class 9
    -5.3,   // capstone on class 0
    -3.0,   // capstone on class 1
    3.6,    // capstone on class 2
    6.5,    // capstone on class 3
    16.3,   // capstone on class 4
    41.5,   // capstone on class 5
    0.0,    // capstone on class 6
    0.0,    // capstone on class 7
    0.0,    // capstone on class 8
    0.0,    // capstone on class 9
    106.5,  // flats x endgame
    39.0,   // walls
    17.2,   // walls x endgame
    -2.1,   // supports under flat/wall/cap 0
    11.5,   // supports under flat/wall/cap 1
    24.8,   // supports under flat/wall/cap 2
    -53.7,  // captives under flat/wall/cap 0
    2.5,    // captives under flat/wall/cap 1
    7.7,    // captives under flat/wall/cap 2
    -59.6,  // capstones in hand
    -126.6, // stones in hand x endgame
    3000.0, // road threat, to move
    35.2,   // one road threat
    30.8,   // two or more road threats
    19.2,   // road distance 2.. 0
    2.4,    // road distance 2.. 1
    -6.5,   // road distance 2.. 2
    -16.5,  // road distance 2.. 3
    -9.9,   // road distance 2.. 4
    0.0,    // road distance 2.. 5
    4.5,    // group spans squared
    1.4,    // lines with 2.. pieces 0
    7.8,    // lines with 2.. pieces 1
    16.9,   // lines with 2.. pieces 2
    33.1,   // lines with 2.. pieces 3
    0.0,    // lines with 2.. pieces 4
    0.0,    // lines with 2.. pieces 5
    20.1,   // capstone next to their stack
    -0.4,   // stack reach
    60.4,   // supports x reach
    3.2,    // empty squares influenced
    55.9,   // tempo
    78.0,   // tempo x endgame
    -12.2,  // komi
    77.0,   // komi x endgame
    21.7,   // flat on class 0 x endgame
    27.3,   // flat on class 1 x endgame
    21.4,   // flat on class 2 x endgame
    30.6,   // flat on class 3 x endgame
    6.5,    // flat on class 4 x endgame
    -1.0,   // flat on class 5 x endgame
    0.0,    // flat on class 6 x endgame
    0.0,    // flat on class 7 x endgame
    0.0,    // flat on class 8 x endgame
    0.0,    // flat on class 9 x endgame
    -3.9,   // capstone on class 0 x endgame
    -1.1,   // capstone on class 1 x endgame
    7.3,    // capstone on class 2 x endgame
    6.7,    // capstone on class 3 x endgame
    12.6,   // capstone on class 4 x endgame
    17.2,   // capstone on class 5 x endgame
    0.0,    // capstone on class 6 x endgame
    0.0,    // capstone on class 7 x endgame
    0.0,    // capstone on class 8 x endgame
    0.0,    // capstone on class 9 x endgame
    0.0,    // flats x endgame x endgame
    17.2,   // walls x endgame
    0.0,    // walls x endgame x endgame
    -5.2,   // supports under flat/wall/cap 0 x endgame
    1.9,    // supports under flat/wall/cap 1 x endgame
    -0.6,   // supports under flat/wall/cap 2 x endgame
    19.2,   // captives under flat/wall/cap 0 x endgame
    10.5,   // captives under flat/wall/cap 1 x endgame
    -9.3,   // captives under flat/wall/cap 2 x endgame
    -38.9,  // capstones in hand x endgame
    0.0,    // stones in hand x endgame x endgame
    0.0,    // road threat, to move x endgame
    20.6,   // one road threat x endgame
    20.0,   // two or more road threats x endgame
    7.9,    // road distance 2.. 0 x endgame
    -1.0,   // road distance 2.. 1 x endgame
    -5.7,   // road distance 2.. 2 x endgame
    -3.4,   // road distance 2.. 3 x endgame
    -3.9,   // road distance 2.. 4 x endgame
    0.0,    // road distance 2.. 5 x endgame
    -0.6,   // group spans squared x endgame
    0.9,    // lines with 2.. pieces 0 x endgame
    1.7,    // lines with 2.. pieces 1 x endgame
    11.7,   // lines with 2.. pieces 2 x endgame
    22.8,   // lines with 2.. pieces 3 x endgame
    0.0,    // lines with 2.. pieces 4 x endgame
    0.0,    // lines with 2.. pieces 5 x endgame
    13.9,   // capstone next to their stack x endgame
    4.8,    // stack reach x endgame
    14.2,   // supports x reach x endgame
    -5.5,   // empty squares influenced x endgame
];

/// 6x6: the moves chosen in 1442465 positions of the same files (6 epochs), mean log-loss 3.1577, top-1 0.173.
pub const MOVE_WEIGHTS_6: [f32; MOVE_FEATURES] = [
    0.7599, -2.0753, 2.2902, -0.0005, -0.0621, 0.4218, 0.1892, 0.6641, 0.7910, 0.0000, 0.0000,
    0.0000, 0.0000, -2.8938, -3.0440, -0.7791, -1.7827, 0.6485, 2.7300, 0.0000, 0.0000, 0.0000,
    0.0000, 0.3488, 0.8545, 0.3145, 0.3669, 0.5208, 0.4325, -0.0213, 1.3754, 0.6105, 0.4269,
    0.0258, 0.7262, 0.1988, 0.3208, 0.6648, 1.3646, 2.3554, 2.1530, -1.3565, -1.3186, -14.9607,
    -0.3639, 0.3537, 0.3134, -0.0913, 0.5357, -1.7574, 2.0247, -0.6427, 1.3920, 3.9142, 1.3170,
    -1.3947, 0.7700, 1.7715, 1.7655,
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
