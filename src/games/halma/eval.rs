//! Halma heuristics, from the side to move's point of view. Distances are Manhattan
//! distances to the far corner of the camp a side must fill (a standard Chinese-checkers
//! measure), kept incrementally per side, so the default evaluation is O(1).

use super::{count, for_each, Halma, HalmaMove};
use crate::game::Side;

/// The named Halma heuristics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalmaHeuristic {
    /// Distances plus squared distances (stragglers cost more), plus pieces in the target
    /// camp. The default.
    Distance,
    /// Sum of distances only (pure progress).
    Progress,
    /// Endgame filling: distance, with a large bonus per target-camp square held and per
    /// far-corner square filled, so the camp fills from the far corner outwards.
    Fill,
    /// Opening centre rush: progress, minus the distance of each piece from the long
    /// diagonal between the camps.
    Center,
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
];

fn side_value(pos: &Halma, side: Side, heuristic: HalmaHeuristic) -> i32 {
    let s = side.index();
    let in_target = || count(&super::and(&pos.pieces[s], pos.target(side))) as i32;
    match heuristic {
        HalmaHeuristic::Distance => -(10 * pos.dist_sum[s] + pos.dist_sq[s]) + 20 * in_target(),
        HalmaHeuristic::Progress => -10 * pos.dist_sum[s],
        HalmaHeuristic::Fill => {
            let mut deep = 0;
            for_each(&super::and(&pos.pieces[s], pos.target(side)), |sq| {
                deep += 8 - i32::from(pos.geo.dist[s][sq]).min(8);
            });
            -10 * pos.dist_sum[s] + 60 * in_target() + 10 * deep
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

pub(super) fn evaluate(pos: &Halma, heuristic: HalmaHeuristic) -> i32 {
    let me = pos.to_move;
    side_value(pos, me, heuristic) - side_value(pos, me.other(), heuristic)
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
