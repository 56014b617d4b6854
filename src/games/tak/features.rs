//! The features of Tak's fitted evaluation (`roads`): what each side has on the board and
//! in hand, its roads, and how near the game is to its end, counted the same way for
//! both sides. The evaluation is linear in them; the weights of every board size are
//! fitted to self-play games (`train.rs`) and kept in `weights.rs`.
//!
//! The game ends when the board is full or a player has placed every piece, so the
//! *endgame* measure `e` is how near the nearer of those is: 0 at the start, 1 at the end
//! (`1 - min(empty squares / squares, smaller reserve / full reserve)`). Terms that
//! matter more as the flat count nears (the flats themselves, komi, the tempo) come twice:
//! once plain and once times `e`, so their weight moves from one value to the other.
//!
//! Every other per-side term has a *tapered* copy too, times `e`, so its weight can also
//! move from an opening value to an endgame value (chess evaluations taper their tables
//! between game phases the same way, and Tiltak's has opening, middle-game and endgame
//! tables). The copies are fitted on 6x6 only; on 5x5 their weights are zero.
//!
//! A stack counts for what it can do as well as for what it holds: its *reach* is the
//! squares it can spread onto (per direction up to its carry, stopped by walls, capstones
//! and the edge), counted alone and times its supports. Tiltak's evaluation has mobility
//! terms for stacks, which its log credits with +114 Elo (github.com/MortenLohne/tiltak,
//! commit 6d41ccb); these two are our own, fitted like the rest.

use std::cell::RefCell;
use std::sync::OnceLock;

use super::bits::{
    group_spans_squared, neighbours, road_distance, road_threats, shifted, under_top,
};
use super::Tak;
use crate::game::Side;

/// Squares classes by symmetry (distance to the nearer edge across and up, in either
/// order): 6 on 5x5 and 6x6, 10 on 7x7 and 8x8.
pub const CLASSES: usize = 10;

/// Flats on top, by square class.
pub const FLAT_PST: usize = 0;
/// Capstones on top, by square class.
pub const CAP_PST: usize = FLAT_PST + CLASSES;
/// Flats on top times the endgame measure.
pub const FLATS_END: usize = CAP_PST + CLASSES;
/// Walls on top.
pub const WALLS: usize = FLATS_END + 1;
/// Walls on top times the endgame measure.
pub const WALLS_END: usize = WALLS + 1;
/// Own pieces under own tops (each stack at most the carry limit): under a flat, a wall,
/// a capstone.
pub const SUPPORTS: usize = WALLS_END + 1;
/// The opponent's pieces under own tops (each stack at most the carry limit), the same.
pub const CAPTIVES: usize = SUPPORTS + 3;
/// Capstones in hand.
pub const CAPS_IN_HAND: usize = CAPTIVES + 3;
/// Stones in hand times the endgame measure.
pub const STONES_END: usize = CAPS_IN_HAND + 1;
/// A road one placement away, the side to move (a win next move; not fitted).
pub const THREAT_TO_MOVE: usize = STONES_END + 1;
/// One placement away with one threat, not to move.
pub const THREAT_ONE: usize = THREAT_TO_MOVE + 1;
/// One placement away with two or more threats, not to move.
pub const THREAT_MANY: usize = THREAT_ONE + 1;
/// Two to seven placements from a road (one each).
pub const ROAD_DIST: usize = THREAT_MANY + 1;
/// Sum over groups of road pieces of the square of the rows or columns they span.
pub const SPANS: usize = ROAD_DIST + 6;
/// Rows and columns holding 2, 3, ..., 7 of the side's road pieces (one each).
pub const LINES: usize = SPANS + 1;
/// Capstones next to an opponent's stack of two or more.
pub const CAP_NEAR: usize = LINES + 6;
/// Over the side's stacks of two or more: the squares each can spread onto (in each
/// direction up to its carry, stopped by a wall, a capstone or the edge).
pub const STACK_REACH: usize = CAP_NEAR + 1;
/// The same, each stack's squares times its own pieces under the top (at most the carry
/// limit), over the board size.
pub const SUPPORT_REACH: usize = STACK_REACH + 1;
/// Empty squares with more of the side's road pieces next to them than the opponent's.
pub const INFLUENCE: usize = SUPPORT_REACH + 1;
/// Features counted per side.
pub const PER_SIDE: usize = INFLUENCE + 1;
/// The side to move: +1 White, -1 Black.
pub const TEMPO: usize = PER_SIDE;
/// The tempo times the endgame measure.
pub const TEMPO_END: usize = TEMPO + 1;
/// Black's komi in half points, negated (White's view).
pub const KOMI: usize = TEMPO_END + 1;
/// The komi times the endgame measure.
pub const KOMI_END: usize = KOMI + 1;
/// Every per-side feature again, times the endgame measure (those that are not already
/// such a product, and not the fixed threat to move; see [`tapered`]): each weight then
/// moves from its opening value to its endgame value as the game goes on, like the
/// phase-tapered tables of chess evaluations and of Tiltak's.
pub const TAPERED: usize = KOMI_END + 1;
/// All features.
pub const FEATURES: usize = TAPERED + PER_SIDE;

/// Whether the per-side feature `i` has a tapered copy at `TAPERED + i`.
#[cfg_attr(not(test), allow(dead_code))]
pub const fn tapered(i: usize) -> bool {
    i < PER_SIDE && i != FLATS_END && i != WALLS_END && i != STONES_END && i != THREAT_TO_MOVE
}

/// What each feature counts, for the fit's report.
#[cfg_attr(not(test), allow(dead_code))]
pub fn feature_name(i: usize) -> String {
    let named = [
        (FLAT_PST, CLASSES, "flat on class"),
        (CAP_PST, CLASSES, "capstone on class"),
        (FLATS_END, 1, "flats x endgame"),
        (WALLS, 1, "walls"),
        (WALLS_END, 1, "walls x endgame"),
        (SUPPORTS, 3, "supports under flat/wall/cap"),
        (CAPTIVES, 3, "captives under flat/wall/cap"),
        (CAPS_IN_HAND, 1, "capstones in hand"),
        (STONES_END, 1, "stones in hand x endgame"),
        (THREAT_TO_MOVE, 1, "road threat, to move"),
        (THREAT_ONE, 1, "one road threat"),
        (THREAT_MANY, 1, "two or more road threats"),
        (ROAD_DIST, 6, "road distance 2.."),
        (SPANS, 1, "group spans squared"),
        (LINES, 6, "lines with 2.. pieces"),
        (CAP_NEAR, 1, "capstone next to their stack"),
        (STACK_REACH, 1, "stack reach"),
        (SUPPORT_REACH, 1, "supports x reach"),
        (INFLUENCE, 1, "empty squares influenced"),
        (TEMPO, 1, "tempo"),
        (TEMPO_END, 1, "tempo x endgame"),
        (KOMI, 1, "komi"),
        (KOMI_END, 1, "komi x endgame"),
    ];
    if i >= TAPERED {
        return format!("{} x endgame", feature_name(i - TAPERED));
    }
    for (start, len, name) in named {
        if (start..start + len).contains(&i) {
            return if len > 1 {
                format!("{name} {}", i - start)
            } else {
                name.to_string()
            };
        }
    }
    format!("feature {i}")
}

/// Per board size: the squares of each class, and every row and column.
pub(super) struct Masks {
    pub(super) classes: [u64; CLASSES],
    /// Per square, the squares from it to the edge: east, north, west, south.
    pub(super) rays: Vec<[u64; 4]>,
    pub(super) lines: Vec<u64>,
    pub(super) rows: Vec<u64>,
    pub(super) cols: Vec<u64>,
}

pub(super) fn masks(n: usize) -> &'static Masks {
    static M: [OnceLock<Masks>; 9] = [const { OnceLock::new() }; 9];
    M[n].get_or_init(|| {
        let mut classes = [0u64; CLASSES];
        let mut lines = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let a = r.min(n - 1 - r);
                let b = c.min(n - 1 - c);
                let (lo, hi) = (a.min(b), a.max(b));
                classes[hi * (hi + 1) / 2 + lo] |= 1 << (r * n + c);
            }
        }
        let rows: Vec<u64> = (0..n)
            .map(|i| (0..n).map(|j| 1u64 << (i * n + j)).sum())
            .collect();
        let cols: Vec<u64> = (0..n)
            .map(|i| (0..n).map(|j| 1u64 << (j * n + i)).sum())
            .collect();
        lines.extend(&rows);
        lines.extend(&cols);
        let rays = (0..n * n)
            .map(|sq| {
                let (r, c) = (sq / n, sq % n);
                let bit = |r: usize, c: usize| 1u64 << (r * n + c);
                [
                    (c + 1..n).map(|cc| bit(r, cc)).sum(),
                    (r + 1..n).map(|rr| bit(rr, c)).sum(),
                    (0..c).map(|cc| bit(r, cc)).sum(),
                    (0..r).map(|rr| bit(rr, c)).sum(),
                ]
            })
            .collect();
        Masks {
            classes,
            rays,
            lines,
            rows,
            cols,
        }
    })
}

/// The endgame measure: 0 at the start, 1 when the board is full or a reserve is empty.
pub fn endgame(pos: &Tak) -> f32 {
    let g = pos.geo;
    let squares = (g.n * g.n) as f32;
    let empty = pos.empty_squares() as f32;
    let full = f32::from(pos.settings.stones() + pos.settings.caps());
    let reserve = |i: usize| f32::from(pos.stones_left[i] + pos.caps_left[i]);
    let left = (empty / squares).min(reserve(0).min(reserve(1)) / full);
    (1.0 - left).clamp(0.0, 1.0)
}

/// Adds `side`'s features, times `sign`, to `out`.
fn add_side(
    pos: &Tak,
    side: Side,
    to_move: bool,
    e: f32,
    tall_stacks: u64,
    sign: f32,
    out: &mut [f32; FEATURES],
) {
    let g = pos.geo;
    let n = g.n;
    let m = masks(n);
    let me = side.index();
    let tops = pos.tops[me];
    let flats = pos.flats(side);
    let caps = tops & pos.caps;
    let walls = tops & pos.walls;
    let road = pos.road_pieces(side);
    let mut add = |i: usize, v: f32| out[i] += sign * v;
    for (c, &mask) in m.classes.iter().enumerate() {
        if mask == 0 {
            continue;
        }
        add(FLAT_PST + c, (flats & mask).count_ones() as f32);
        add(CAP_PST + c, (caps & mask).count_ones() as f32);
    }
    let flat_count = flats.count_ones() as f32;
    add(FLATS_END, flat_count * e);
    let wall_count = walls.count_ones() as f32;
    add(WALLS, wall_count);
    add(WALLS_END, wall_count * e);
    let mut tall = tops & tall_stacks;
    while tall != 0 {
        let sq = tall.trailing_zeros() as usize;
        tall &= tall - 1;
        let (mine, theirs) = under_top(pos, sq, side);
        let kind = usize::from(pos.kind_at(sq));
        add(SUPPORTS + kind, mine.min(n) as f32);
        add(CAPTIVES + kind, theirs.min(n) as f32);
        let reach = stack_reach(pos, sq) as f32;
        add(STACK_REACH, reach);
        add(SUPPORT_REACH, reach * mine.min(n) as f32 / n as f32);
    }
    add(CAPS_IN_HAND, f32::from(pos.caps_left[me]));
    add(STONES_END, f32::from(pos.stones_left[me]) * e);
    match road_distance(pos, side) {
        Some(0) | None => {}
        Some(1) => {
            if to_move {
                add(THREAT_TO_MOVE, 1.0);
            } else if road_threats(pos, side).count_ones() >= 2 {
                add(THREAT_MANY, 1.0);
            } else {
                add(THREAT_ONE, 1.0);
            }
        }
        Some(d @ 2..=7) => add(ROAD_DIST + d as usize - 2, 1.0),
        Some(_) => {}
    }
    add(SPANS, memo::group_spans_squared(g, road) as f32);
    for &line in &m.lines {
        let k = (road & line).count_ones() as usize;
        if (2..n).contains(&k) {
            add(LINES + k - 2, 1.0);
        }
    }
    let their_tall = pos.tops[1 - me] & tall_stacks;
    let mut near = 0;
    let mut c = caps;
    while c != 0 {
        let bit = c & c.wrapping_neg();
        c &= c - 1;
        if neighbours(g, bit) & their_tall != 0 {
            near += 1;
        }
    }
    add(CAP_NEAR, near as f32);
}

/// The squares the stack on `sq` can spread onto: in each direction, up to as many
/// squares as it can carry (its height, at most the board size), stopped by a wall, a
/// capstone or the edge.
pub(super) fn stack_reach(pos: &Tak, sq: usize) -> u32 {
    let n = pos.geo.n;
    let carry = u32::from(pos.heights[sq]).min(n as u32);
    let blocked = pos.walls | pos.caps;
    let rays = &masks(n).rays[sq];
    let mut reach = 0;
    for (dir, &ray) in rays.iter().enumerate() {
        let stop = ray & blocked;
        // East and north go up in square index, west and south down.
        let free = if stop == 0 {
            ray.count_ones()
        } else if dir < 2 {
            (ray & ((1u64 << stop.trailing_zeros()) - 1)).count_ones()
        } else {
            (ray & !(u64::MAX >> stop.leading_zeros())).count_ones()
        };
        reach += free.min(carry);
    }
    reach
}

/// Squares holding two or more pieces.
fn tall_stacks(pos: &Tak) -> u64 {
    let mut occupied = pos.occupied();
    let mut tall = 0;
    while occupied != 0 {
        let sq = occupied.trailing_zeros() as usize;
        occupied &= occupied - 1;
        if pos.heights[sq] > 1 {
            tall |= 1 << sq;
        }
    }
    tall
}

/// Empty squares where each side's road pieces outnumber the other's among the four
/// neighbours.
pub(super) fn influence(pos: &Tak) -> [u32; 2] {
    let g = pos.geo;
    let empty = g.board & !pos.occupied();
    let w = neighbour_count(g, pos.road_pieces(Side::First));
    let b = neighbour_count(g, pos.road_pieces(Side::Second));
    [
        (greater(w, b) & empty).count_ones(),
        (greater(b, w) & empty).count_ones(),
    ]
}

/// Per square, how many of its four neighbours are in `x`: a number from 0 to 4 in three
/// bit planes (bit 0, bit 1, bit 2 of every square's count).
fn neighbour_count(g: &super::Geometry, x: u64) -> [u64; 3] {
    let [east, west, north, south] = shifted(g, x);
    // Two half adders, then their two-bit sums added.
    let (s1, c1) = (east ^ west, east & west);
    let (s2, c2) = (north ^ south, north & south);
    let carry = s1 & s2;
    [s1 ^ s2, c1 ^ c2 ^ carry, (c1 & c2) | (carry & (c1 ^ c2))]
}

/// The squares where the count `a` is larger than `b` (three bit planes each).
fn greater(a: [u64; 3], b: [u64; 3]) -> u64 {
    let above = |i: usize| a[i] & !b[i];
    let same = |i: usize| !(a[i] ^ b[i]);
    above(2) | (same(2) & (above(1) | (same(1) & above(0))))
}

/// The features of `pos` from White's point of view: White's minus Black's, then the
/// tempo and komi terms, then the tapered copies (the fit's inputs; the search uses
/// [`white_value`]).
#[cfg_attr(not(test), allow(dead_code))]
pub fn features(pos: &Tak) -> [f32; FEATURES] {
    let (mut out, e) = untapered(pos);
    for i in 0..PER_SIDE {
        if tapered(i) {
            out[TAPERED + i] = out[i] * e;
        }
    }
    out
}

/// The fitted evaluation from White's point of view, `weights` times [`features`],
/// computed without writing the tapered copies: they add `e` times the per-side features
/// against the copies' weights (a feature with no copy has a copy weight of zero, which
/// `tests.rs` checks of the fitted tables). The plain part is summed in order, as before
/// the copies existed, so where the copies' weights are zero (5x5) every value is the
/// same to the last bit.
pub fn white_value(pos: &Tak, weights: &[f32; FEATURES]) -> f32 {
    let (x, e) = untapered(pos);
    let plain: f32 = x[..TAPERED]
        .iter()
        .zip(&weights[..TAPERED])
        .map(|(a, b)| a * b)
        .sum();
    plain + e * dot(&x[..PER_SIDE], &weights[TAPERED..])
}

/// A dot product in eight independent sums: one running sum would make every addition
/// wait for the one before it.
pub(super) fn dot(x: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (xs, ws) = (x.chunks_exact(8), w.chunks_exact(8));
    let mut tail: f32 = xs
        .remainder()
        .iter()
        .zip(ws.remainder())
        .map(|(a, b)| a * b)
        .sum();
    for (a, b) in xs.zip(ws) {
        for k in 0..8 {
            lanes[k] += a[k] * b[k];
        }
    }
    tail += lanes.iter().sum::<f32>();
    tail
}

/// The features without their tapered copies (left at zero), and the endgame measure.
fn untapered(pos: &Tak) -> ([f32; FEATURES], f32) {
    let mut out = [0.0; FEATURES];
    let e = endgame(pos);
    let white_to_move = pos.to_move == Side::First;
    let tall = tall_stacks(pos);
    add_side(pos, Side::First, white_to_move, e, tall, 1.0, &mut out);
    add_side(pos, Side::Second, !white_to_move, e, tall, -1.0, &mut out);
    let [iw, ib] = influence(pos);
    out[INFLUENCE] = iw as f32 - ib as f32;
    let tempo = if white_to_move { 1.0 } else { -1.0 };
    out[TEMPO] = tempo;
    out[TEMPO_END] = tempo * e;
    let komi = -(pos.settings.half_komi as f32);
    out[KOMI] = komi;
    out[KOMI_END] = komi * e;
    (out, e)
}

/// Each side's per-side features counted apart, White's then Black's (both with sign +1,
/// the influence in each side's own slot; the slots past [`PER_SIDE`] are zero), and the
/// endgame measure: the network's inputs (`net.rs`).
pub fn sides(pos: &Tak) -> ([f32; FEATURES], [f32; FEATURES], f32) {
    let (mut white, mut black) = ([0.0; FEATURES], [0.0; FEATURES]);
    let e = endgame(pos);
    let white_to_move = pos.to_move == Side::First;
    let tall = tall_stacks(pos);
    add_side(pos, Side::First, white_to_move, e, tall, 1.0, &mut white);
    add_side(pos, Side::Second, !white_to_move, e, tall, 1.0, &mut black);
    let [iw, ib] = influence(pos);
    white[INFLUENCE] = iw as f32;
    black[INFLUENCE] = ib as f32;
    (white, black, e)
}

/// A memo of the group spans, by the road pieces they depend on: a side's road pieces
/// change only with its own moves and captures, so most positions a search evaluates
/// repeat another one's value (a direct-mapped table per thread, each entry checked
/// against its full key, so a value is always the function's own). In one 6x6 self-play
/// game at 20,000 nodes a move (callgrind), the spans took 239M of 2,338M instructions
/// without it and 40M with it, 2,172M in all. The same memo of the road distance, by
/// road pieces and occupied squares, saved only 5% of the distance's cost (284M ->
/// 270M): a placement anywhere changes its key. It was left out.
mod memo {
    use super::{group_spans_squared as spans_of, RefCell};
    use crate::games::tak::Geometry;

    const BITS: u32 = 12;

    thread_local! {
        /// (board size, road pieces, spans); a size of 0 is an empty entry.
        static SPANS: RefCell<Vec<(u64, u64, u32)>> = RefCell::new(vec![(0, 0, 0); 1 << BITS]);
    }

    /// The slot of `road` (on every board size: the entry says which).
    #[inline]
    fn slot(road: u64) -> usize {
        (road.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BITS)) as usize
    }

    /// [`spans_of`], remembered.
    pub(super) fn group_spans_squared(g: &Geometry, road: u64) -> u32 {
        let n = g.n as u64;
        SPANS.with(|t| {
            let e = &mut t.borrow_mut()[slot(road)];
            if e.0 == n && e.1 == road {
                return e.2;
            }
            let value = spans_of(g, road);
            *e = (n, road, value);
            value
        })
    }

    #[cfg(test)]
    mod tests {
        use super::{group_spans_squared, slot, spans_of};
        use crate::games::tak::geometry;

        /// A value comes from the memo only for its own key: road pieces that share a
        /// slot, and the same pieces on boards of two sizes (one slot), each get their
        /// own spans, asked in turn again and again.
        #[test]
        fn remembered_spans_are_each_keys_own() {
            let (g5, g6) = (geometry(5), geometry(6));
            let mut x: u64 = 0x2545_F491_4F6C_DD1D;
            let mut roads = Vec::new();
            while roads.len() < 400 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                roads.push(x & x.rotate_left(11) & g5.board);
            }
            // Pieces that share a slot, with other spans.
            let first = roads[0];
            let mut twins = vec![first];
            let mut y = first;
            while twins.len() < 3 {
                y = (y + 1) & g5.board;
                if slot(y) == slot(first) && spans_of(g6, y) != spans_of(g6, first) {
                    twins.push(y);
                }
            }
            roads.extend(&twins);
            for _ in 0..3 {
                for g in [g6, g5] {
                    for &road in roads.iter().chain(&twins) {
                        assert_eq!(group_spans_squared(g, road), spans_of(g, road));
                    }
                }
            }
            // The same pieces read on 5x5 and on 6x6 are different groups.
            assert!(roads.iter().any(|&r| spans_of(g5, r) != spans_of(g6, r)));
        }
    }
}
