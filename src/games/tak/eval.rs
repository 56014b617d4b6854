//! Tak heuristics.
//!
//! `roads` (the default) knows what decides Tak games: how many placements each player
//! still needs for a road (a breadth-first search over bitboards, through the player's
//! flats and capstones at no cost and empty squares at cost 1), immediate road threats
//! ("tak") and double threats, the flat count with komi, capstones and walls, and the
//! pieces held under a player's stacks. `simple` is the formula simple student engines use:
//! centre control + the longest chain (largest connected group of road pieces) + material
//! (the flat count).

use super::bits::{group_spans_squared, grow, neighbours, road_distance, road_threats, under_top};
use super::{Geometry, Tak, TakMove, CAP, FLAT, WALL};
use crate::game::Side;

/// The named Tak heuristics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakHeuristic {
    /// The features of `features.rs` with the weights fitted to self-play for the board
    /// size (`weights.rs`); `roads` on sizes without fitted weights and in the line variant.
    Fitted,
    /// `fitted` plus a small network over both sides' features (`net.rs`), where one was
    /// trained for the board size; `fitted` elsewhere.
    Net,
    /// Road distance and threats, flats with komi, capstones, walls, stack control.
    Roads,
    /// Centre control + longest chain + flat count.
    Simple,
}

/// Name table, default first.
pub(super) const HEURISTICS: &[(&str, TakHeuristic)] = &[
    ("net", TakHeuristic::Net),
    ("fitted", TakHeuristic::Fitted),
    ("roads", TakHeuristic::Roads),
    ("simple", TakHeuristic::Simple),
];

/// Centrality of a square: 0 on the edge, rising to the middle.
#[inline]
fn centrality(n: usize, sq: usize) -> i32 {
    let (r, c) = ((sq / n) as i32, (sq % n) as i32);
    let last = n as i32 - 1;
    r.min(last - r) + c.min(last - c)
}

/// Size of the largest connected group of `road`.
fn largest_group(g: &Geometry, mut road: u64) -> u32 {
    let mut best = 0;
    while road != 0 {
        let seed = road & road.wrapping_neg();
        let group = grow(g, seed, road);
        best = best.max(group.count_ones());
        road &= !group;
    }
    best
}

/// The terms of `roads` for one side, each the count its weight in [`ROADS_WEIGHTS`]
/// multiplies (see [`FEATURE_NAMES`]).
pub const FEATURES: usize = 18;

/// What each feature counts (printed by the refit in `tune.rs`).
#[cfg_attr(not(test), allow(dead_code))]
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "flats on top",
    "walls on top",
    "capstones on top",
    "sum over road groups of span^2",
    "own pieces under own tops (each stack at most size)",
    "opponent pieces under own tops (each stack at most size)",
    "centrality of own tops",
    "capstones in hand",
    "road complete",
    "one placement from a road, to move",
    "one placement from a road, two or more threats, not to move",
    "one placement from a road, one threat, not to move",
    "two placements from a road",
    "three placements from a road",
    "four placements from a road",
    "five placements from a road",
    "six placements from a road",
    "seven placements from a road",
];

/// The weights of `roads`, in centi-units per unit of each feature, fitted in two rounds
/// by Texel's method in `src/games/tak/tune.rs` (`refit`); the finished road and the
/// threat with the move stay fixed.
///
/// Round 1: from the hand-set weights kept in `tune.rs`, on 600 self-play games of the
/// hand-set engine (10,639 positions): squared error 0.188 -> 0.165; the fitted engine
/// beat the hand-set one 174.5/200 (+334 ± 73 Elo) at 50 ms a move on 5x5. Flats 60 ->
/// 204, own pieces under own tops 12 -> 130, captives under own tops 8 -> -84, capstones
/// in hand 20 -> -109, the road-distance steps flattened (900/400/160/70 -> 227/67/66/50).
///
/// Round 2: from round 1's weights, on 1,400 self-play games of the round-1 engine
/// (24,308 positions, `tests/data/tak-selfplay.txt`): 0.1687 -> 0.1643; against round 1
/// at 50 ms a move on 5x5, 224.5/400 = 56.1% (+43 ± 34 Elo; seeds 11 and 12: 106.5 and
/// 118 of 200). The top-piece weights shrink by about a third (the scale of the fit
/// moved from 325 to 275), and the road-distance steps beyond two placements fall to
/// nearly nothing (five placements: -32).
pub const ROADS_WEIGHTS: [i32; FEATURES] = [
    145, 64, 121, 7, 149, -72, 17, -51, 10_000, 3_000, 131, 6, 22, 3, 2, -32, 5, 2,
];

/// Half-komi (Black's) in centi-units per half point, and the side to move's tempo.
const KOMI_WEIGHT: i32 = 30;
const TEMPO: i32 = 20;

/// The features of `side` (see [`FEATURE_NAMES`]); `to_move` when it is that side's turn.
pub fn side_features(pos: &Tak, side: Side, to_move: bool) -> [i32; FEATURES] {
    let g = pos.geo;
    let n = g.n;
    let me = side.index();
    let tops = pos.tops[me];
    let mut f = [0i32; FEATURES];
    f[0] = pos.flats(side).count_ones() as i32;
    f[1] = (tops & pos.walls).count_ones() as i32;
    f[2] = (tops & pos.caps).count_ones() as i32;
    f[3] = group_spans_squared(g, pos.road_pieces(side)) as i32;
    // Pieces held under a player's tops: own ones are reserves for spreads, the
    // opponent's are captives that cannot count for it.
    let mut own = tops;
    while own != 0 {
        let sq = own.trailing_zeros() as usize;
        own &= own - 1;
        let h = pos.height(sq);
        if h > 1 {
            let (mine, theirs) = under_top(pos, sq, side);
            f[4] += mine.min(n) as i32;
            f[5] += theirs.min(n) as i32;
        }
        f[6] += centrality(n, sq);
    }
    // Reserves in hand: a capstone not yet placed is still worth something.
    f[7] = i32::from(pos.caps_left[me]);
    match road_distance(pos, side) {
        Some(0) => f[8] = 1,
        Some(1) => {
            let threats = road_threats(pos, side).count_ones();
            // A threat with the move wins at once (if a flat is left to place).
            if to_move {
                f[9] = 1;
            } else if threats >= 2 {
                f[10] = 1;
            } else {
                f[11] = 1;
            }
        }
        Some(d @ 2..=7) => f[10 + d as usize] = 1,
        Some(_) | None => {}
    }
    f
}

fn side_score(pos: &Tak, side: Side, to_move: bool) -> i32 {
    let f = side_features(pos, side, to_move);
    f.iter().zip(ROADS_WEIGHTS).map(|(x, w)| x * w).sum()
}

pub(super) fn evaluate(pos: &Tak, heuristic: TakHeuristic) -> i32 {
    let me = pos.to_move;
    let them = me.other();
    match heuristic {
        TakHeuristic::Fitted => match super::weights::for_settings(&pos.settings) {
            Some(weights) => {
                let white = super::features::white_value(pos, weights);
                let value = if me == Side::First { white } else { -white };
                value.clamp(-100_000.0, 100_000.0) as i32
            }
            None => evaluate(pos, TakHeuristic::Roads),
        },
        TakHeuristic::Net => match (
            super::weights::for_settings(&pos.settings),
            super::net_weights::for_settings(&pos.settings),
        ) {
            (Some(weights), Some(net)) => {
                super::net::mover_value(pos, weights, net).clamp(-100_000.0, 100_000.0) as i32
            }
            _ => evaluate(pos, TakHeuristic::Fitted),
        },
        TakHeuristic::Roads => {
            let komi = pos.settings.half_komi * KOMI_WEIGHT;
            let white = side_score(pos, Side::First, me == Side::First);
            let black = side_score(pos, Side::Second, me == Side::Second) + komi;
            let value = white - black;
            // Tempo: the side to move places the next piece.
            (if me == Side::First { value } else { -value }) + TEMPO
        }
        TakHeuristic::Simple => {
            let g = pos.geo;
            let part = |side: Side| {
                let mut centre = 0;
                let mut tops = pos.tops[side.index()];
                while tops != 0 {
                    let sq = tops.trailing_zeros() as usize;
                    tops &= tops - 1;
                    centre += centrality(g.n, sq);
                }
                10 * centre
                    + 30 * largest_group(g, pos.road_pieces(side)) as i32
                    + 50 * pos.flats(side).count_ones() as i32
            };
            part(me) - part(them)
        }
    }
}

/// Move ordering hint: placements next to own road pieces and wall/capstone blocks next
/// to the opponent's, spreads that take over squares of the opponent.
pub(super) fn order_hint(pos: &Tak, mv: TakMove) -> i32 {
    let g = pos.geo;
    let me = pos.to_move;
    let sq = mv.square();
    let bit = 1u64 << sq;
    let near = neighbours(g, bit);
    let mine = (near & pos.road_pieces(me)).count_ones() as i32;
    let theirs = (near & pos.road_pieces(me.other())).count_ones() as i32;
    if mv.is_place() {
        return match mv.kind() {
            FLAT => 20 + 6 * mine + 2 * theirs + centrality(g.n, sq),
            CAP => 12 + 5 * theirs + 2 * mine,
            WALL => 4 + 5 * theirs,
            _ => 0,
        };
    }
    // Spreads: squares whose top changes hands to the mover.
    let mut gained = 0;
    let mut at = sq as isize;
    for _ in 0..mv.pattern().count_ones() {
        at += g.offset[mv.dir()];
        let t = at as usize;
        if let Some((owner, kind)) = pos.top(t) {
            if owner != me {
                gained += if kind == WALL { 3 } else { 2 };
            }
        } else {
            gained += 1;
        }
    }
    let cap_bonus = if pos.top(sq).map(|t| t.1) == Some(CAP) {
        1
    } else {
        0
    };
    8 * gained + cap_bonus - mv.count() as i32
}
