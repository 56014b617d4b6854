//! Bitboard helpers over a Tak board's [`Geometry`]: neighbours, flood fills, road
//! distance and road threats, groups, and what lies under a stack's top. The evaluation,
//! the feature set and the move policy all build on these (a chain, not a circle: bits,
//! then features and policy, then weights, then eval).

use super::{Geometry, Tak};
use crate::game::Side;

/// Every square next to a square of `b`.
#[inline]
pub(super) fn neighbours(g: &Geometry, b: u64) -> u64 {
    let [east, west, north, south] = shifted(g, b);
    east | west | north | south
}

/// The squares of `b` each moved one step east, west, north and south (those that stay
/// on the board).
#[inline]
pub(super) fn shifted(g: &Geometry, b: u64) -> [u64; 4] {
    [
        (b << 1) & !g.col_first & g.board,
        (b >> 1) & !g.col_last & g.board,
        (b << g.n) & g.board,
        (b >> g.n) & g.board,
    ]
}

/// Grows `seed` through `mask` (the seed itself is kept).
#[inline]
pub(super) fn grow(g: &Geometry, seed: u64, mask: u64) -> u64 {
    let mut r = seed;
    loop {
        let next = r | (neighbours(g, r) & mask);
        if next == r {
            return r;
        }
        r = next;
    }
}

/// Fewest empty squares `side` must fill to join `from` to `to` through its road pieces,
/// if that is at most `limit` (None when it is more, or when walls, capstones and the
/// opponent's pieces cut every path).
fn distance_between(
    g: &Geometry,
    road: u64,
    empty: u64,
    from: u64,
    to: u64,
    limit: u32,
) -> Option<u32> {
    let mut reach = grow(g, from & road, road);
    let mut cost = 0;
    loop {
        if reach & to != 0 {
            return Some(cost);
        }
        if cost >= limit {
            return None;
        }
        let next = grow(g, reach | ((neighbours(g, reach) | from) & empty), road);
        if next == reach {
            return None;
        }
        reach = next;
        cost += 1;
    }
}

/// Fewest placements `side` needs for a road, either direction (None beyond the board
/// size, or when every path is cut). The second direction is searched only for a
/// shorter road than the first's.
pub(crate) fn road_distance(pos: &Tak, side: Side) -> Option<u32> {
    let g = pos.geo;
    let road = pos.road_pieces(side);
    let empty = g.board & !pos.occupied();
    let n = g.n as u32;
    match distance_between(g, road, empty, g.col_first, g.col_last, n) {
        Some(0) => Some(0),
        Some(a) => distance_between(g, road, empty, g.row_first, g.row_last, a - 1).or(Some(a)),
        None => distance_between(g, road, empty, g.row_first, g.row_last, n),
    }
}

/// Empty squares on which a flat of `side` would complete a road at once.
///
/// A flat on an empty square `s` joins `s` to the groups of road pieces next to it, so it
/// completes a road between two opposite edges exactly when `s` is on or next to the
/// part connected to the one edge and on or next to the part connected to the other (no
/// road exists yet: the game would be over). Two floods per direction, whatever the
/// number of candidate squares.
pub(crate) fn road_threats(pos: &Tak, side: Side) -> u64 {
    road_completions(pos, side) & !pos.occupied()
}

/// Squares that would complete a road of `side` if they were its road pieces, the rest
/// unchanged: on or next to the part connected to one edge and on or next to the part
/// connected to the opposite edge (the empty ones are [`road_threats`]).
pub(crate) fn road_completions(pos: &Tak, side: Side) -> u64 {
    let g = pos.geo;
    let road = pos.road_pieces(side);
    let reach = |edge: u64| edge | neighbours(g, grow(g, road & edge, road));
    let across = reach(g.col_first) & reach(g.col_last);
    let up = reach(g.row_first) & reach(g.row_last);
    (across | up) & g.board
}

/// The same squares found one at a time: a flat tried on each candidate square and the
/// road looked for (the reference for [`road_threats`] in the tests).
#[cfg(test)]
pub(crate) fn road_threats_by_trial(pos: &Tak, side: Side) -> u64 {
    let g = pos.geo;
    let road = pos.road_pieces(side);
    let mut candidates = g.board & !pos.occupied();
    let mut threats = 0;
    let joins = |r: u64| {
        (grow(g, r & g.col_first, r) & g.col_last != 0)
            || (grow(g, r & g.row_first, r) & g.row_last != 0)
    };
    while candidates != 0 {
        let sq = candidates & candidates.wrapping_neg();
        candidates &= candidates - 1;
        if joins(road | sq) {
            threats |= sq;
        }
    }
    threats
}

/// Each group of road pieces in `road` by the rows or columns it spans (the square of
/// the larger), summed: a measure of road potential that also counts groups the distance
/// search ignores.
pub(super) fn group_spans_squared(g: &Geometry, mut road: u64) -> u32 {
    let row = (1u64 << g.n) - 1;
    let mut total = 0;
    while road != 0 {
        let seed = road & road.wrapping_neg();
        let group = grow(g, seed, road);
        road &= !group;
        // The group's rows, and its columns folded onto one row.
        let (mut rows, mut cols) = (0u32, 0u64);
        for r in 0..g.n {
            let line = (group >> (r * g.n)) & row;
            rows += u32::from(line != 0);
            cols |= line;
        }
        let span = rows.max(cols.count_ones());
        total += span * span;
    }
    total
}

/// The pieces under the top of the stack on `sq`: `side`'s own and the opponent's.
pub(super) fn under_top(pos: &Tak, sq: usize, side: Side) -> (usize, usize) {
    let h = pos.height(sq);
    // Colour bits below the top: 1 = Black.
    let below = pos.colours[sq] & ((1u128 << (h - 1)) - 1);
    let black = below.count_ones() as usize;
    let theirs = if side == Side::First {
        black
    } else {
        h - 1 - black
    };
    (h - 1 - theirs, theirs)
}
