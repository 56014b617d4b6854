//! Tak's network evaluation (`net`): the fitted linear evaluation plus a small network
//! over both sides' features, trained on the rest (`net_train.rs`).
//!
//! The linear evaluation (`features.rs`) sees only White's features minus Black's, so it
//! cannot say that flats count more when the mover also has a road threat, or that a
//! capstone in hand is worth less once the opponent's reserve is nearly empty. The network
//! sees each side's features apart, from the mover's point of view: the mover's
//! [`PER_SIDE`] features, the opponent's, the endgame measure, whether the mover is White
//! and the komi from the mover's side; and the board itself, the top of every square as
//! one of six pieces (the mover's or the opponent's flat, wall or capstone; [`BOARD`]
//! inputs, of which only the occupied squares are ever nonzero, so they are added as a
//! sparse sum). One hidden layer of [`HIDDEN`] rectified units; one output in centi-units
//! added to the linear value. It is fitted to what the linear evaluation misses (its
//! residual), so that where it has learnt nothing it adds nothing. Its weights are about
//! 15,700 numbers per board size (`net_weights.rs`, 12,288 of them for the board's
//! squares), compiled into the binary; the inputs are normalised by the training data's
//! means and spreads, folded into the first layer's weights. The network is evaluated
//! afresh at every leaf (no incremental update yet): 0.75x the linear evaluation's nodes
//! a second on a 6x6 middle game.

use super::features::{self, FEATURES, KOMI, KOMI_END, PER_SIDE, TAPERED, TEMPO, TEMPO_END};
use super::{Tak, MAX_SQ};
use crate::game::Side;

/// Inputs: the mover's per-side features, the opponent's, the endgame measure, 1 if the
/// mover is White (else 0), and the komi in half points from the mover's side (negative
/// for White).
pub const INPUTS: usize = 2 * PER_SIDE + 3;
/// Hidden units.
pub const HIDDEN: usize = 32;

/// The endgame measure's input.
pub const IN_ENDGAME: usize = 2 * PER_SIDE;
/// The mover-is-White input.
pub const IN_WHITE: usize = IN_ENDGAME + 1;
/// The komi input.
pub const IN_KOMI: usize = IN_WHITE + 1;

/// The board's inputs: six planes of [`MAX_SQ`] squares (the mover's flat, wall and
/// capstone tops, then the opponent's).
pub const BOARD: usize = 6 * MAX_SQ;

/// One network: `out = b2 + w2 . relu(b1 + sum of z[i] w1[i] + sum of wb[k] over the
/// board's pieces k)`, in centi-units, the mover's view. The first layer is kept by
/// columns, one per input, and summed over the inputs that are not zero (most are, in any
/// one position: the square classes, the road distances, the threats), each column a few
/// vector additions with no horizontal sums.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// First layer, the dense inputs: one column of hidden weights per input.
    pub w1: [[f32; HIDDEN]; INPUTS],
    /// First layer biases.
    pub b1: [f32; HIDDEN],
    /// First layer, the board's inputs: one column per piece on a square.
    pub wb: [[f32; HIDDEN]; BOARD],
    /// Output weights.
    pub w2: [f32; HIDDEN],
    /// Output bias.
    pub b2: f32,
}

impl Net {
    /// The network's output for the inputs.
    pub fn forward(&self, i: &Inputs) -> f32 {
        let mut h = self.b1;
        for &k in &i.board[..i.pieces] {
            for (a, b) in h.iter_mut().zip(&self.wb[usize::from(k)]) {
                *a += b;
            }
        }
        for (&x, col) in i.z.iter().zip(&self.w1) {
            if x != 0.0 {
                for (a, b) in h.iter_mut().zip(col) {
                    *a += x * b;
                }
            }
        }
        let mut out = self.b2;
        for (&h, &w) in h.iter().zip(&self.w2) {
            out += w * h.max(0.0);
        }
        out
    }
}

/// What the network and the linear evaluation read of one position.
pub struct Inputs {
    /// The network's dense inputs.
    pub z: [f32; INPUTS],
    /// The board's inputs that are 1, `pieces` of them (the rest are 0).
    pub board: [u16; MAX_SQ],
    /// How many of `board` are set.
    pub pieces: usize,
    /// The linear evaluation, the mover's view.
    pub linear: f32,
}

/// The inputs of `pos`, with the linear evaluation under `weights` (the same sum as
/// [`features::white_value`], taken from the two sides' features: equal to it up to
/// rounding, which `tests.rs` checks).
pub fn inputs(pos: &Tak, weights: &[f32; FEATURES]) -> Inputs {
    let (white, black, e) = features::sides(pos);
    let mut diff = [0f32; PER_SIDE];
    for (d, (w, b)) in diff.iter_mut().zip(white.iter().zip(&black)) {
        *d = w - b;
    }
    let white_to_move = pos.to_move == Side::First;
    let tempo = if white_to_move { 1.0 } else { -1.0 };
    let komi = -(pos.settings.half_komi as f32);
    let linear_white = features::dot(&diff, &weights[..PER_SIDE])
        + tempo * (weights[TEMPO] + e * weights[TEMPO_END])
        + komi * (weights[KOMI] + e * weights[KOMI_END])
        + e * features::dot(&diff, &weights[TAPERED..]);
    let (mine, theirs) = if white_to_move {
        (&white, &black)
    } else {
        (&black, &white)
    };
    let mut z = [0f32; INPUTS];
    z[..PER_SIDE].copy_from_slice(&mine[..PER_SIDE]);
    z[PER_SIDE..2 * PER_SIDE].copy_from_slice(&theirs[..PER_SIDE]);
    z[IN_ENDGAME] = e;
    z[IN_WHITE] = if white_to_move { 1.0 } else { 0.0 };
    z[IN_KOMI] = if white_to_move { komi } else { -komi };
    let mut board = [0u16; MAX_SQ];
    let mut pieces = 0;
    let walls_caps = pos.walls | pos.caps;
    let mover = pos.to_move.index();
    for (side, base) in [(mover, 0), (1 - mover, 3)] {
        let tops = pos.tops[side];
        for (kind, mut set) in [tops & !walls_caps, tops & pos.walls, tops & pos.caps]
            .into_iter()
            .enumerate()
        {
            while set != 0 {
                let sq = set.trailing_zeros() as usize;
                set &= set - 1;
                board[pieces] = ((base + kind) * MAX_SQ + sq) as u16;
                pieces += 1;
            }
        }
    }
    Inputs {
        z,
        board,
        pieces,
        linear: if white_to_move {
            linear_white
        } else {
            -linear_white
        },
    }
}

/// The evaluation: linear plus network, the mover's view, in centi-units.
pub fn mover_value(pos: &Tak, weights: &[f32; FEATURES], net: &Net) -> f32 {
    let i = inputs(pos, weights);
    i.linear + net.forward(&i)
}
