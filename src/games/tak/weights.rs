//! The weights of Tak's fitted evaluation and move scores, per board size (see
//! `features.rs` and `policy.rs` for what they multiply and `train.rs` for how they were
//! fitted).

use super::features::FEATURES;
use super::policy::MOVE_FEATURES;
use super::TakSettings;

/// fitted
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

/// fitted
pub const MOVE_WEIGHTS_5: [f32; MOVE_FEATURES] = [
    0.9528, -2.5158, 1.3816, -0.2271, 0.1088, 0.6575, 0.5278, 1.0377, 0.7888, 0.0000, 0.0000,
    0.0000, 0.0000, -2.3610, -2.5814, -0.7800, -2.2534, 1.1273, 3.4863, 0.0000, 0.0000, 0.0000,
    0.0000, 0.3326, 0.8981, 0.3421, 0.3107, 0.6348, 0.3706, -0.0897, 1.3344, 0.1934, 0.2746,
    -0.1055, 0.9077, 0.1514, 0.3498, 0.4362, 1.4974, 2.5807, 4.0821, -0.3298, -0.7498, 1.9178,
    0.0137, 0.2991, 0.2886, -0.0431, 0.3863, -1.3687, 1.8510, -0.3971, 1.3888, 3.3897, 1.0201,
    -1.3028, 0.4800, 1.6772, 1.7582,
];

/// The evaluation weights for `settings`, where they were fitted.
pub fn for_settings(settings: &TakSettings) -> Option<&'static [f32; FEATURES]> {
    match (settings.line, settings.size) {
        (false, 5) => Some(&WEIGHTS_5),
        _ => None,
    }
}

/// The move weights for `settings`, where they were fitted.
pub fn move_weights_for(settings: &TakSettings) -> Option<&'static [f32; MOVE_FEATURES]> {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *OFF.get_or_init(|| std::env::var("AGON_KNOB_POLICY").is_ok_and(|v| v == "0")) {
        return None;
    }
    match (settings.line, settings.size) {
        (false, 5) => Some(&MOVE_WEIGHTS_5),
        _ => None,
    }
}
