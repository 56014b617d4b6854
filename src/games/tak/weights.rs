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

/// 6x6: 1033815 positions of sp6k2-r0.txt, sp6k2-r1.txt, sp6k2-r2.txt, sp6k2-r3.txt, sp6k2-r4.txt (1500 steps), cross-entropy 0.56966.
pub const WEIGHTS_6: [f32; FEATURES] = [
    27.1,   // flat on class 0
    18.8,   // flat on class 1
    35.4,   // flat on class 2
    22.7,   // flat on class 3
    45.7,   // flat on class 4
    52.3,   // flat on class 5
    0.0,    // flat on class 6
    0.0,    // flat on class 7
    0.0,    // flat on class 8
    0.0,    // flat on class 9
    -2.2,   // capstone on class 0
    -11.6,  // capstone on class 1
    4.2,    // capstone on class 2
    6.9,    // capstone on class 3
    17.3,   // capstone on class 4
    42.7,   // capstone on class 5
    0.0,    // capstone on class 6
    0.0,    // capstone on class 7
    0.0,    // capstone on class 8
    0.0,    // capstone on class 9
    104.1,  // flats x endgame
    36.6,   // walls
    17.1,   // walls x endgame
    1.3,    // supports under flat/wall/cap 0
    15.1,   // supports under flat/wall/cap 1
    22.8,   // supports under flat/wall/cap 2
    -50.6,  // captives under flat/wall/cap 0
    1.2,    // captives under flat/wall/cap 1
    11.1,   // captives under flat/wall/cap 2
    -57.3,  // capstones in hand
    -126.1, // stones in hand x endgame
    3000.0, // road threat, to move
    35.4,   // one road threat
    30.5,   // two or more road threats
    19.8,   // road distance 2.. 0
    1.1,    // road distance 2.. 1
    -5.8,   // road distance 2.. 2
    -14.6,  // road distance 2.. 3
    -8.9,   // road distance 2.. 4
    0.0,    // road distance 2.. 5
    5.1,    // group spans squared
    1.3,    // lines with 2.. pieces 0
    7.3,    // lines with 2.. pieces 1
    17.8,   // lines with 2.. pieces 2
    30.0,   // lines with 2.. pieces 3
    0.0,    // lines with 2.. pieces 4
    0.0,    // lines with 2.. pieces 5
    21.2,   // capstone next to their stack
    -1.1,   // stack reach
    58.8,   // supports x reach
    2.0,    // empty squares influenced
    53.5,   // tempo
    76.9,   // tempo x endgame
    -12.4,  // komi
    75.6,   // komi x endgame
    22.7,   // flat on class 0 x endgame
    24.6,   // flat on class 1 x endgame
    21.1,   // flat on class 2 x endgame
    29.3,   // flat on class 3 x endgame
    6.9,    // flat on class 4 x endgame
    -0.5,   // flat on class 5 x endgame
    0.0,    // flat on class 6 x endgame
    0.0,    // flat on class 7 x endgame
    0.0,    // flat on class 8 x endgame
    0.0,    // flat on class 9 x endgame
    -1.3,   // capstone on class 0 x endgame
    -7.4,   // capstone on class 1 x endgame
    8.0,    // capstone on class 2 x endgame
    6.2,    // capstone on class 3 x endgame
    15.1,   // capstone on class 4 x endgame
    15.5,   // capstone on class 5 x endgame
    0.0,    // capstone on class 6 x endgame
    0.0,    // capstone on class 7 x endgame
    0.0,    // capstone on class 8 x endgame
    0.0,    // capstone on class 9 x endgame
    0.0,    // flats x endgame x endgame
    17.1,   // walls x endgame
    0.0,    // walls x endgame x endgame
    -5.7,   // supports under flat/wall/cap 0 x endgame
    0.9,    // supports under flat/wall/cap 1 x endgame
    2.0,    // supports under flat/wall/cap 2 x endgame
    16.9,   // captives under flat/wall/cap 0 x endgame
    11.6,   // captives under flat/wall/cap 1 x endgame
    -11.2,  // captives under flat/wall/cap 2 x endgame
    -36.1,  // capstones in hand x endgame
    0.0,    // stones in hand x endgame x endgame
    0.0,    // road threat, to move x endgame
    20.3,   // one road threat x endgame
    19.8,   // two or more road threats x endgame
    7.8,    // road distance 2.. 0 x endgame
    -0.2,   // road distance 2.. 1 x endgame
    -6.6,   // road distance 2.. 2 x endgame
    -0.3,   // road distance 2.. 3 x endgame
    -3.2,   // road distance 2.. 4 x endgame
    0.0,    // road distance 2.. 5 x endgame
    -1.8,   // group spans squared x endgame
    0.6,    // lines with 2.. pieces 0 x endgame
    0.5,    // lines with 2.. pieces 1 x endgame
    8.6,    // lines with 2.. pieces 2 x endgame
    19.3,   // lines with 2.. pieces 3 x endgame
    0.0,    // lines with 2.. pieces 4 x endgame
    0.0,    // lines with 2.. pieces 5 x endgame
    14.1,   // capstone next to their stack x endgame
    6.0,    // stack reach x endgame
    9.7,    // supports x reach x endgame
    -4.7,   // empty squares influenced x endgame
];

/// 6x6: the moves chosen in 1033815 positions of the same files (6 epochs), mean log-loss 3.1418, top-1 0.178.
pub const MOVE_WEIGHTS_6: [f32; MOVE_FEATURES] = [
    0.7279, -1.9907, 2.4156, -0.0544, -0.0298, 0.3471, 0.1614, 0.5548, 0.8325, 0.0000, 0.0000,
    0.0000, 0.0000, -3.0105, -3.1149, -0.7736, -2.1667, 0.8226, 2.7272, 0.0000, 0.0000, 0.0000,
    0.0000, 0.4177, 0.8153, 0.3647, 0.3812, 0.5776, 0.5151, 0.0018, 1.3586, 0.3687, 0.4075,
    -0.0128, 0.6052, 0.1720, 0.3386, 0.6767, 1.3976, 2.1982, 0.8667, -1.2431, -1.5235, -15.6132,
    -0.3645, 0.3576, 0.4129, -0.0487, 0.5395, -1.7626, 2.0782, -0.6888, 1.4044, 3.9018, 1.3859,
    -1.4504, 0.7739, 1.7355, 1.8084,
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
