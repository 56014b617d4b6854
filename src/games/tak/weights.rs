//! The weights of Tak's fitted evaluation and move scores, per board size (see
//! `features.rs` and `policy.rs` for what they multiply and `train.rs` for how they were
//! fitted).

use super::features::FEATURES;
use super::policy::MOVE_FEATURES;
use super::TakSettings;

/// 5x5: 108,575 positions of sp5-r0.txt (1500 steps).
pub const WEIGHTS_5: [f32; FEATURES] = [
    36.4,   // flat on class 0
    42.8,   // flat on class 1
    47.4,   // flat on class 2
    31.4,   // flat on class 3
    62.5,   // flat on class 4
    47.6,   // flat on class 5
    0.0,    // flat on class 6
    0.0,    // flat on class 7
    0.0,    // flat on class 8
    0.0,    // flat on class 9
    -15.0,  // capstone on class 0
    -9.6,   // capstone on class 1
    16.8,   // capstone on class 2
    -29.2,  // capstone on class 3
    35.1,   // capstone on class 4
    89.4,   // capstone on class 5
    0.0,    // capstone on class 6
    0.0,    // capstone on class 7
    0.0,    // capstone on class 8
    0.0,    // capstone on class 9
    120.9,  // flats x endgame
    57.2,   // walls
    11.2,   // walls x endgame
    54.1,   // supports under flat/wall/cap 0
    84.1,   // supports under flat/wall/cap 1
    98.8,   // supports under flat/wall/cap 2
    -7.1,   // captives under flat/wall/cap 0
    29.5,   // captives under flat/wall/cap 1
    14.4,   // captives under flat/wall/cap 2
    -87.5,  // capstones in hand
    -141.5, // stones in hand x endgame
    3000.0, // road threat, to move
    53.3,   // one road threat
    46.3,   // two or more road threats
    12.8,   // road distance 2.. 0
    -13.9,  // road distance 2.. 1
    -34.2,  // road distance 2.. 2
    -32.9,  // road distance 2.. 3
    0.0,    // road distance 2.. 4
    0.0,    // road distance 2.. 5
    9.6,    // group spans squared
    4.2,    // lines with 2.. pieces 0
    28.5,   // lines with 2.. pieces 1
    40.5,   // lines with 2.. pieces 2
    0.0,    // lines with 2.. pieces 3
    0.0,    // lines with 2.. pieces 4
    0.0,    // lines with 2.. pieces 5
    44.6,   // capstone next to their stack
    6.7,    // empty squares influenced
    90.9,   // tempo
    66.7,   // tempo x endgame
    0.0,    // komi
    0.0,    // komi x endgame
];

/// 5x5: the moves chosen in the same positions (6 epochs), top-1 0.222.
pub const MOVE_WEIGHTS_5: [f32; MOVE_FEATURES] = [
    0.9528, -2.5158, 1.3816, -0.2271, 0.1088, 0.6575, 0.5278, 1.0377, 0.7888, 0.0000, 0.0000,
    0.0000, 0.0000, -2.3610, -2.5814, -0.7800, -2.2534, 1.1273, 3.4863, 0.0000, 0.0000, 0.0000,
    0.0000, 0.3326, 0.8981, 0.3421, 0.3107, 0.6348, 0.3706, -0.0897, 1.3344, 0.1934, 0.2746,
    -0.1055, 0.9077, 0.1514, 0.3498, 0.4362, 1.4974, 2.5807, 4.0821, -0.3298, -0.7498, 1.9178,
    0.0137, 0.2991, 0.2886, -0.0431, 0.3863, -1.3687, 1.8510, -0.3971, 1.3888, 3.3897, 1.0201,
    -1.3028, 0.4800, 1.6772, 1.7582,
];

/// 6x6 komi 2: the positions of sp6k2-r0.txt (1500 steps).
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

/// 6x6 komi 2: the moves chosen in the same positions (6 epochs), top-1 0.211.
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
