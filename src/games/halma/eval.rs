//! Halma heuristics, from the side to move's point of view. Distances are Manhattan
//! distances to the far corner of the camp a side must fill (a standard Chinese-checkers
//! measure), kept incrementally per side, so the default evaluation is O(1).

use super::{count, for_each, Halma, HalmaMove, NONE};
use crate::game::Side;

/// The named Halma heuristics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalmaHeuristic {
    /// Distances and squared distances (stragglers cost more), pieces in the target camp
    /// and still at home, and a tempo, with weights fitted to self-play games
    /// ([`DISTANCE_WEIGHTS`]). The default.
    Distance,
    /// Sum of distances only (pure progress).
    Progress,
    /// Endgame filling: distance, with a large bonus per target-camp square held and per
    /// far-corner square filled, so the camp fills from the far corner outwards.
    Fill,
    /// Opening centre rush: progress, minus the distance of each piece from the long
    /// diagonal between the camps.
    Center,
    /// Progress plus a blocking chain on the long diagonal (the `a1` corner to the
    /// opposite corner, squares with row = column): +6 per own piece on a square within 1
    /// of that diagonal (|row - column| <= 1) that has an own piece on such a square among
    /// its 8 neighbours. At most 6 per piece against 10 per step of progress.
    Diagonal,
    /// Progress plus jump chances: per side, every (own piece, direction) with an adjacent
    /// piece of either colour and an empty square beyond (a jump possible now, the camp
    /// rule applied) counts 3 if the jump brings the piece nearer its goal, 1 if sideways,
    /// 0 if backwards; +2 per point. As the value is own minus opponent's, the opponent's
    /// chances count against the side.
    Careful,
    /// Endgame filling, every second row first: `fill`, plus 30 per own piece in the target
    /// camp on a row at an even distance from the far corner (the corner row, the third row,
    /// the fifth row), so those rows fill before the others.
    Rows,
    /// Per side, `center` while a piece is still in its home camp, `fill` once every
    /// piece is past the middle of the board (Manhattan distance to the goal at most the
    /// board size), `distance` between.
    Adaptive,
}

/// Name table, default first.
pub(super) const HEURISTICS: &[(&str, HalmaHeuristic)] = &[
    ("distance", HalmaHeuristic::Distance),
    ("progress", HalmaHeuristic::Progress),
    ("fill", HalmaHeuristic::Fill),
    ("center", HalmaHeuristic::Center),
    ("adaptive", HalmaHeuristic::Adaptive),
    ("diagonal", HalmaHeuristic::Diagonal),
    ("careful", HalmaHeuristic::Careful),
    ("rows", HalmaHeuristic::Rows),
];

/// The terms of `distance` for one side, each the count its weight in
/// [`DISTANCE_WEIGHTS`] multiplies (see [`FEATURE_NAMES`]).
pub const FEATURES: usize = 4;

/// What each feature counts, for one side (printed by the refit in `tune.rs`).
#[cfg_attr(not(test), allow(dead_code))]
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "minus the sum of distances",
    "minus the sum of squared distances",
    "pieces in the target camp",
    "pieces still in the home camp",
];

/// The weights of `distance`, fitted by `tune.rs` to Halma 8x8 self-play games. (Two
/// straggler features, the farthest piece's distance and the pieces more than 4 steps
/// behind the mean, fitted the same data better, squared error 0.203 -> 0.197, but lost
/// 83-117 against the hand weights where these four won 108-92.)
pub const DISTANCE_WEIGHTS: [i32; FEATURES] = [9, 1, 39, -18];
/// Bonus of the side to move in `distance`.
pub const DISTANCE_TEMPO: i32 = 50;

/// The features of `side` (see [`FEATURE_NAMES`]).
pub fn side_features(pos: &Halma, side: Side) -> [i32; FEATURES] {
    let s = side.index();
    [
        -pos.dist_sum[s],
        -pos.dist_sq[s],
        count(&super::and(&pos.pieces[s], pos.target(side))) as i32,
        count(&super::and(&pos.pieces[s], &pos.geo.camp[s])) as i32,
    ]
}

fn side_value(pos: &Halma, side: Side, heuristic: HalmaHeuristic) -> i32 {
    let s = side.index();
    match heuristic {
        HalmaHeuristic::Distance => {
            let f = side_features(pos, side);
            f.iter().zip(DISTANCE_WEIGHTS).map(|(x, w)| x * w).sum()
        }
        HalmaHeuristic::Progress => -10 * pos.dist_sum[s],
        HalmaHeuristic::Fill => fill(pos, side),
        HalmaHeuristic::Rows => {
            let n = pos.geo.n;
            let mut even = 0;
            for_each(&super::and(&pos.pieces[s], pos.target(side)), |sq| {
                let r = sq / n;
                // Rows counted from the far corner of the target camp.
                let from_corner = if side == Side::First { n - 1 - r } else { r };
                even += i32::from(from_corner % 2 == 0);
            });
            fill(pos, side) + 30 * even
        }
        HalmaHeuristic::Diagonal => {
            let n = pos.geo.n as i32;
            let near = |sq: usize| (sq as i32 / n - sq as i32 % n).abs() <= 1;
            let mut chained = 0;
            for_each(&pos.pieces[s], |sq| {
                if near(sq) {
                    let linked = pos.geo.step[sq].iter().any(|&t| {
                        t != NONE && usize::from(pos.cells[t as usize]) == s + 1 && near(t as usize)
                    });
                    chained += i32::from(linked);
                }
            });
            -10 * pos.dist_sum[s] + 6 * chained
        }
        HalmaHeuristic::Careful => {
            let target = pos.target(side);
            let mut chances = 0;
            for_each(&pos.pieces[s], |sq| {
                let in_camp = super::has(target, sq);
                let d0 = pos.geo.dist[s][sq];
                for d in 0..8 {
                    let land = pos.geo.jump[sq][d];
                    if land == NONE {
                        continue;
                    }
                    let (mid, land) = (pos.geo.step[sq][d] as usize, land as usize);
                    if pos.cells[mid] != 0
                        && pos.cells[land] == 0
                        && (!in_camp || super::has(target, land))
                    {
                        let d1 = pos.geo.dist[s][land];
                        chances += match d1.cmp(&d0) {
                            std::cmp::Ordering::Less => 3,
                            std::cmp::Ordering::Equal => 1,
                            std::cmp::Ordering::Greater => 0,
                        };
                    }
                }
            });
            -10 * pos.dist_sum[s] + 2 * chances
        }
        HalmaHeuristic::Center => {
            let n = pos.geo.n as i32;
            let mut off = 0;
            for_each(&pos.pieces[s], |sq| {
                let (r, c) = (sq as i32 / n, sq as i32 % n);
                off += (r - c).abs();
            });
            -10 * pos.dist_sum[s] - 4 * off
        }
        HalmaHeuristic::Adaptive => {
            let home = &pos.geo.camp[s];
            let phase = if !super::is_empty(&super::and(&pos.pieces[s], home)) {
                HalmaHeuristic::Center
            } else {
                let n = pos.geo.n as u8;
                let mut late = true;
                for_each(&pos.pieces[s], |sq| late &= pos.geo.dist[s][sq] <= n);
                if late {
                    HalmaHeuristic::Fill
                } else {
                    HalmaHeuristic::Distance
                }
            };
            side_value(pos, side, phase)
        }
    }
}

/// `fill` for one side: distance, 60 per target-camp square held, and 10 per step of
/// depth (8 minus the distance to the far corner, at least 0) of each piece there.
fn fill(pos: &Halma, side: Side) -> i32 {
    let s = side.index();
    let held = super::and(&pos.pieces[s], pos.target(side));
    let mut deep = 0;
    for_each(&held, |sq| {
        deep += 8 - i32::from(pos.geo.dist[s][sq]).min(8);
    });
    -10 * pos.dist_sum[s] + 60 * count(&held) as i32 + 10 * deep
}

pub(super) fn evaluate(pos: &Halma, heuristic: HalmaHeuristic) -> i32 {
    let me = pos.to_move;
    let tempo = if heuristic == HalmaHeuristic::Distance {
        DISTANCE_TEMPO
    } else {
        0
    };
    side_value(pos, me, heuristic) - side_value(pos, me.other(), heuristic) + tempo
}

/// Forward progress of the move for the mover (larger first), entering the camp first.
pub(super) fn order_hint(pos: &Halma, mv: HalmaMove) -> i32 {
    let s = pos.to_move.index();
    let (from, to) = (mv.from as usize, mv.to as usize);
    let gain = i32::from(pos.geo.dist[s][from]) - i32::from(pos.geo.dist[s][to]);
    let from_d = i32::from(pos.geo.dist[s][from]);
    // Among equal gains, moving a straggler (far from the goal) first.
    let entering =
        super::has(pos.target(pos.to_move), to) && !super::has(pos.target(pos.to_move), from);
    16 * gain + from_d / 4 + if entering { 8 } else { 0 }
}
