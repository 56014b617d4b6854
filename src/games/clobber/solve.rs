//! An exact Clobber solver that treats a position as a sum of independent regions.
//!
//! # Why regions
//! A Clobber stone only ever moves onto an orthogonally adjacent stone, so the groups of
//! orthogonally connected stones never merge: a position is the *disjunctive sum* of its
//! groups (Albert, Grossman, Nowakowski, Wolfe, "An introduction to Clobber", Integers 5
//! (2005)). Combinatorial game theory then gives exact shortcuts that a plain search
//! does not have (Siegel, *Combinatorial Game Theory*, AMS 2013, ch. I and II):
//!
//! - a group without stones of both colours side by side has no moves for either
//!   player: its value is 0 and it is dropped;
//! - a group whose **outcome class** is P (the player to move loses, whoever that is)
//!   has value 0, and `G + 0 = G`: it is dropped from the sum;
//! - a group and its colour-swapped copy (up to symmetry) are negatives of each other,
//!   `G + (-G) = 0`: the pair is dropped;
//! - a sum of groups that are all positive (class L, Left wins whoever starts) is
//!   positive, and likewise for negative (class R) groups: the sum is decided without
//!   search;
//! - a group equal to another up to rotation or reflection is the same game, so every
//!   group is stored in a canonical orientation and a transposition table keyed by the
//!   multiset of groups shares work between transposed, mirrored and reassembled sums.
//!
//! The outcome class of a group is found by solving it alone, once, for both players
//! moving first (and cached): solving two groups of 8 stones separately is far cheaper
//! than solving their sum with a search that interleaves their moves. What remains is a
//! boolean negamax over the simplified sum (Clobber has no draws: the player who cannot
//! move loses).
//!
//! White, the first player, is Left; Black is Right.
//!
//! Boards of up to 64 squares are supported (every group then fits a 64-bit frame).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use fxhash::FxHashMap;

use super::Clobber;
use crate::cgt::{GameId, Games, ZERO};
use crate::game::{Game, Side};
use crate::memory::{make_room, map_bytes, Budget};

/// The largest board the solver takes, in squares.
pub const MAX_SOLVE_SQUARES: usize = 64;

/// One group of stones in its own bounding box: `h` rows of `w` squares, bit
/// `row * w + col`, in the canonical one of its eight orientations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Region {
    h: u8,
    w: u8,
    left: u64,
    right: u64,
}

/// Outcome class of a game (who wins with each player moving first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// The second player wins: the value is 0.
    P,
    /// Left (White) wins whoever starts: the value is positive.
    L,
    /// Right (Black) wins whoever starts: the value is negative.
    R,
    /// The first player wins: the value is fuzzy with 0.
    N,
}

/// Why a solve did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The board has more than [`MAX_SOLVE_SQUARES`] squares.
    TooLarge,
    /// The stop flag was raised.
    Stopped,
    /// [`Solver::distance`] was given a result that is not the position's.
    NotProved,
    /// The tables reached the memory budget ([`Solver::set_memory_limit`]).
    OutOfMemory,
}

/// The proved result of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Whether the side to move wins.
    pub side_to_move_wins: bool,
    /// A winning move for the side to move, when it wins.
    pub winning_move: Option<super::ClobberMove>,
    /// Positions (sums) the solver visited.
    pub nodes: u64,
}

/// Masks of a `h` x `w` frame.
#[derive(Clone, Copy)]
struct Frame {
    w: u32,
    all: u64,
    /// Every square but the first column.
    not_first_col: u64,
    /// Every square but the last column.
    not_last_col: u64,
}

impl Frame {
    fn new(h: u8, w: u8) -> Frame {
        let (h, w) = (u32::from(h), u32::from(w));
        let n = h * w;
        let all = low_bits(n);
        let mut first_col = 0u64;
        for r in 0..h {
            first_col |= 1 << (r * w);
        }
        let last_col = first_col << (w - 1);
        Frame {
            w,
            all,
            not_first_col: all & !first_col,
            not_last_col: all & !last_col,
        }
    }

    /// The squares orthogonally next to a square of `x`.
    #[inline]
    fn neighbours(&self, x: u64) -> u64 {
        let east = (x & self.not_last_col) << 1;
        let west = (x & self.not_first_col) >> 1;
        let north = (x << self.w) & self.all;
        let south = x >> self.w;
        east | west | north | south
    }
}

impl Region {
    /// The colour-swapped group: its negative.
    fn negative(self) -> Region {
        canonical(self.h, self.w, self.right, self.left)
    }

    /// Number of stones in the group.
    fn stones(self) -> u32 {
        (self.left | self.right).count_ones()
    }

    /// Two independent 64-bit hashes of the group, for the table key.
    fn hashes(self) -> (u64, u64) {
        let a = splitmix(
            self.left ^ splitmix(self.right ^ (u64::from(self.h) << 8 | u64::from(self.w))),
        );
        let b = splitmix(
            self.right.rotate_left(17)
                ^ splitmix(
                    self.left.rotate_left(29) ^ (u64::from(self.w) << 8 | u64::from(self.h)),
                )
                ^ 0x9E37_79B9_7F4A_7C15,
        );
        (a, b)
    }
}

/// The SplitMix64 finaliser (Steele, Lea, Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014).
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// For every frame `h` x `w` of at most 64 squares and each of the eight symmetries,
/// where each square goes; the image frame is `w` x `h` for the last four.
struct Symmetries {
    /// Indexed by `(h - 1) * 64 + (w - 1)`; empty for frames over 64 squares.
    maps: Vec<[[u8; 64]; 8]>,
}

fn symmetries() -> &'static Symmetries {
    static TABLE: std::sync::OnceLock<Symmetries> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut maps = Vec::with_capacity(64 * 64);
        for h in 1..=64u32 {
            for w in 1..=64u32 {
                let mut map = [[0u8; 64]; 8];
                if h * w <= 64 {
                    for (t, image) in map.iter_mut().enumerate() {
                        let transposed = t & 4 != 0;
                        let image_w = if transposed { h } else { w };
                        for sq in 0..h * w {
                            let (mut r, mut c) = (sq / w, sq % w);
                            if t & 1 != 0 {
                                r = h - 1 - r;
                            }
                            if t & 2 != 0 {
                                c = w - 1 - c;
                            }
                            if transposed {
                                std::mem::swap(&mut r, &mut c);
                            }
                            image[sq as usize] = (r * image_w + c) as u8;
                        }
                    }
                }
                maps.push(map);
            }
        }
        Symmetries { maps }
    })
}

/// `bits` moved square by square through `map`.
#[inline]
fn permute(bits: u64, map: &[u8; 64]) -> u64 {
    let mut out = 0u64;
    let mut rest = bits;
    while rest != 0 {
        out |= 1 << map[rest.trailing_zeros() as usize];
        rest &= rest - 1;
    }
    out
}

/// The group `left`/`right` of a `h` x `w` frame, in its canonical orientation: the
/// least of its eight images under rotation and reflection.
fn canonical(h: u8, w: u8, left: u64, right: u64) -> Region {
    if h <= 8 && w <= 8 {
        canonical8(h, w, to_stride8(left, h, w), to_stride8(right, h, w))
    } else {
        canonical_by_maps(h, w, left, right)
    }
}

/// [`canonical`] square by square through the tables of [`symmetries`] (any frame).
fn canonical_by_maps(h: u8, w: u8, left: u64, right: u64) -> Region {
    let maps = &symmetries().maps[(usize::from(h) - 1) * 64 + usize::from(w) - 1];
    // Square frames have all eight images; others only the four that keep the shape
    // and the four that transpose it, and the least shape wins first.
    let transpose_first = w < h;
    let mut best = Region { h, w, left, right };
    if transpose_first {
        best = Region {
            h: w,
            w: h,
            left: permute(left, &maps[4]),
            right: permute(right, &maps[4]),
        };
    }
    let range = if h == w {
        0..8
    } else if transpose_first {
        4..8
    } else {
        0..4
    };
    for t in range {
        let (ih, iw) = if t >= 4 { (w, h) } else { (h, w) };
        // Regions order by shape, then Left's stones, then Right's: Right's image is
        // only needed when the rest does not already decide.
        let image_left = permute(left, &maps[t]);
        if (ih, iw, image_left) > (best.h, best.w, best.left) {
            continue;
        }
        let image = Region {
            h: ih,
            w: iw,
            left: image_left,
            right: permute(right, &maps[t]),
        };
        if image < best {
            best = image;
        }
    }
    best
}

/// Splits the stones `left`/`right` of frame `h` x `w` into their live groups, each in
/// canonical form, appended to `out`. Groups where nobody can move are dropped.
fn split_into(h: u8, w: u8, left: u64, right: u64, out: &mut Vec<Region>) {
    let frame = Frame::new(h, w);
    let mut occupied = left | right;
    while occupied != 0 {
        let mut group = occupied & occupied.wrapping_neg();
        loop {
            let grown = (group | frame.neighbours(group)) & occupied;
            if grown == group {
                break;
            }
            group = grown;
        }
        occupied &= !group;
        let (l, r) = (left & group, right & group);
        if frame.neighbours(l) & r == 0 {
            continue;
        }
        out.push(crop(w, l, r));
    }
}

/// The group `l`/`r` cut to its bounding box, in canonical form.
fn crop(w: u8, l: u64, r: u64) -> Region {
    let w32 = u32::from(w);
    let all = l | r;
    let (r0, r1) = (all.trailing_zeros() / w32, (63 - all.leading_zeros()) / w32);
    let row_mask = low_bits(w32);
    let mut cols = 0u64;
    for row in r0..=r1 {
        cols |= (all >> (row * w32)) & row_mask;
    }
    let (c0, c1) = (cols.trailing_zeros(), 63 - cols.leading_zeros());
    let (nh, nw) = (r1 - r0 + 1, c1 - c0 + 1);
    // Row by row into the box; a box of at most 8 x 8 goes into a frame of stride 8,
    // where the symmetries are a few word operations (`canonical8`).
    let small = nh <= 8 && nw <= 8;
    let stride = if small { 8 } else { nw };
    let keep = low_bits(nw);
    let (mut nl, mut nr) = (0u64, 0u64);
    for row in r0..=r1 {
        let shift = row * w32 + c0;
        let at = stride * (row - r0);
        nl |= ((l >> shift) & keep) << at;
        nr |= ((r >> shift) & keep) << at;
    }
    if small {
        canonical8(nh as u8, nw as u8, nl, nr)
    } else {
        canonical_by_maps(nh as u8, nw as u8, nl, nr)
    }
}

/// The lowest `n` bits set (`n` <= 64).
#[inline]
fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The squares `bits` of a `h` x `w` frame (stride `w`, both at most 8) in a frame of
/// stride 8: square (row, col) at bit `8 * row + col`.
#[inline]
fn to_stride8(bits: u64, h: u8, w: u8) -> u64 {
    let (h, w) = (u32::from(h), u32::from(w));
    let keep = low_bits(w);
    (0..h).fold(0, |out, row| {
        out | ((bits >> (row * w)) & keep) << (8 * row)
    })
}

/// The inverse of [`to_stride8`].
#[inline]
fn from_stride8(bits: u64, h: u8, w: u8) -> u64 {
    let (h, w) = (u32::from(h), u32::from(w));
    let keep = low_bits(w);
    (0..h).fold(0, |out, row| {
        out | ((bits >> (8 * row)) & keep) << (row * w)
    })
}

/// Rows reversed in a stride-8 frame of `h` rows.
#[inline]
fn flip_rows8(x: u64, h: u8) -> u64 {
    x.swap_bytes() >> (8 * (8 - u32::from(h)))
}

/// Columns reversed in a stride-8 frame of `w` columns: each byte's bits reversed
/// (three swaps of 1, 2 and 4 bits), then moved down to the frame.
#[inline]
fn flip_cols8(mut x: u64, w: u8) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    x = ((x >> 4) & K4) | ((x & K4) << 4);
    x >> (8 - u32::from(w))
}

/// Rows and columns swapped in a stride-8 frame (the 8 x 8 bit matrix transposed by
/// three delta swaps; Warren, *Hacker's Delight*, 2nd ed., section 7-3).
#[inline]
fn transpose8(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// [`canonical`] of a group given in a stride-8 frame of `h` x `w` (both at most 8).
/// Comparing two images of the same shape as integers compares their highest differing
/// square, (row, col) in reading order, whatever the stride: the least image here is
/// the least one of [`canonical_by_maps`], so both give the same group.
fn canonical8(h: u8, w: u8, l8: u64, r8: u64) -> Region {
    // Square frames have all eight images; others only the four of the least shape.
    let (transposed, square) = (w < h, h == w);
    let (mut best_h, mut best_w, mut best_l, mut best_r) = (h, w, l8, r8);
    if transposed {
        (best_h, best_w, best_l, best_r) = (w, h, transpose8(l8), transpose8(r8));
    }
    let mut consider = |ih: u8, iw: u8, il: u64, ir: u64| {
        if (il, ir) < (best_l, best_r) {
            (best_h, best_w, best_l, best_r) = (ih, iw, il, ir);
        }
    };
    let flips = |l: u64, r: u64, fh: u8, fw: u8| {
        let (vl, vr) = (flip_rows8(l, fh), flip_rows8(r, fh));
        [
            (vl, vr),
            (flip_cols8(l, fw), flip_cols8(r, fw)),
            (flip_cols8(vl, fw), flip_cols8(vr, fw)),
        ]
    };
    if !transposed || square {
        for (il, ir) in flips(l8, r8, h, w) {
            consider(h, w, il, ir);
        }
    }
    if transposed || square {
        let (tl, tr) = (transpose8(l8), transpose8(r8));
        consider(w, h, tl, tr);
        for (il, ir) in flips(tl, tr, w, h) {
            consider(w, h, il, ir);
        }
    }
    Region {
        h: best_h,
        w: best_w,
        left: from_stride8(best_l, best_h, best_w),
        right: from_stride8(best_r, best_h, best_w),
    }
}

/// A move inside a group: the frame squares it goes from and to.
#[derive(Clone, Copy, Debug)]
struct LocalMove {
    from: u32,
    to: u32,
}

/// The moves of `side` in `region`.
fn local_moves(region: Region, side: Side, out: &mut Vec<LocalMove>) {
    let frame = Frame::new(region.h, region.w);
    let (own, theirs) = match side {
        Side::First => (region.left, region.right),
        Side::Second => (region.right, region.left),
    };
    let w = frame.w;
    let dirs: [(u64, i32); 4] = [
        ((own & frame.not_last_col) << 1 & theirs, 1),
        ((own & frame.not_first_col) >> 1 & theirs, -1),
        ((own << w) & frame.all & theirs, w as i32),
        ((own >> w) & theirs, -(w as i32)),
    ];
    for (targets, delta) in dirs {
        let mut rest = targets;
        while rest != 0 {
            let to = rest.trailing_zeros();
            rest &= rest - 1;
            out.push(LocalMove {
                from: (to as i32 - delta) as u32,
                to,
            });
        }
    }
}

/// The number of moves `side` has in `region`.
fn mobility(region: Region, side: Side) -> i32 {
    let frame = Frame::new(region.h, region.w);
    let (own, theirs) = match side {
        Side::First => (region.left, region.right),
        Side::Second => (region.right, region.left),
    };
    let w = frame.w;
    let n = ((own & frame.not_last_col) << 1 & theirs).count_ones()
        + ((own & frame.not_first_col) >> 1 & theirs).count_ones()
        + ((own << w) & frame.all & theirs).count_ones()
        + ((own >> w) & theirs).count_ones();
    n as i32
}

/// The solver's order of the children of a node, least first: fewest moves left for the
/// opponent in the large groups of the sum (`replies`; in Clobber both sides have the same
/// number of moves in a group, so this is also the mover's own count; small groups, whose
/// values are added up, do not count: counting them made the proofs 20% larger), less
/// the mover's backing in the groups the move left (`parts`: defended stones over the
/// opponent's, hanging ones under; [`backing`]), a reply weighing 16 units of backing,
/// so that backing mostly breaks ties (8 and 12 did as well). A caller comparing moves of
/// different groups adds the moved group's own backing, so that the key orders by the
/// change.
///
/// Measured on 4x6 from the start: 2.87M nodes against 11.3M in generation order, with
/// `replies` alone. With backing, on 30 positions of 26 stones from games against
/// OpenSpiel's MCTS on 5x6 (`tests/data/clobber-5x6-positions.txt`): 15.7M nodes against
/// 16.5M (14.8M with the root ordered by replies alone and the moved group's own backing
/// left out; kept as measured in time, below). Preferring children whose small-group value favours the mover saved 9%
/// of the nodes on 4x6 but cost more time in comparisons (5.4 s against 3.9 s); trying the
/// small groups' moves first made the proofs larger (18.2M nodes); so did a first pass
/// over the children with a budget of 100 to 2,000 nodes each (26M to 33M).
fn order_key(replies: i32, parts: &[Region], mover: Side) -> i32 {
    16 * replies - parts.iter().map(|&g| backing(g, mover)).sum::<i32>()
}

/// Twice `side`'s defended stones (mobile, with a stone of their own next to them) less
/// the opponent's, less `side`'s hanging stones (mobile, none of their own next to them)
/// over the opponent's: the terms of the default heuristic (`eval.rs`) in one group.
fn backing(region: Region, side: Side) -> i32 {
    let frame = Frame::new(region.h, region.w);
    let (own, theirs) = match side {
        Side::First => (region.left, region.right),
        Side::Second => (region.right, region.left),
    };
    let (near_own, near_opp) = (frame.neighbours(own), frame.neighbours(theirs));
    let count = |x: u64| x.count_ones() as i32;
    let defended = count(own & near_opp & near_own) - count(theirs & near_own & near_opp);
    let hanging = count(own & near_opp & !near_own) - count(theirs & near_own & !near_opp);
    2 * defended - hanging
}

/// The groups left after `side` plays `mv` in `region`.
fn play_local(region: Region, side: Side, mv: LocalMove, out: &mut Vec<Region>) {
    let (from, to) = (1u64 << mv.from, 1u64 << mv.to);
    let (mut l, mut r) = (region.left, region.right);
    match side {
        Side::First => {
            l = (l & !from) | to;
            r &= !to;
        }
        Side::Second => {
            r = (r & !from) | to;
            l &= !to;
        }
    }
    split_into(region.h, region.w, l, r, out);
}

/// The solver: its tables live as long as it does, so solving related positions one
/// after another shares work.
pub struct Solver {
    /// Sum (multiset of large groups + value of the small ones + side to move) ->
    /// whether the side to move wins.
    table: FxHashMap<u128, bool>,
    /// Outcome class of each large group met alone.
    classes: FxHashMap<Region, Class>,
    /// Ply budgets for the distance search: sum of all groups (no values) and side to
    /// move, with the question asked -> (least budget known enough, least budget not
    /// known too small).
    bounded: FxHashMap<u128, (u32, u32)>,
    /// Canonical value of each small group.
    values: FxHashMap<Region, GameId>,
    games: Games,
    /// Groups of at most this many stones are replaced by their canonical value.
    small: u32,
    nodes: u64,
    /// Bytes the tables may take.
    budget: Budget,
    /// A deadline for the current solve (read with the stop flag).
    deadline: Option<Instant>,
    /// The node count at which the current solve stops.
    node_limit: u64,
    pools: Pools,
    /// The root moves the last solve proved losing.
    refuted: Vec<super::ClobberMove>,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

/// Marks the distance table's "loses within" questions apart from "wins within".
const LOSE_KEY: u128 = 0x6A09_E667_F3BC_C908_B2FB_1366_EA95_7D3E;

/// How often the stop flag and the deadline are read, in nodes: a node of a large sum
/// makes and canonicalises every child (tens of microseconds on 5x6 with 28 stones; every
/// 1024 nodes overran a 40 ms deadline by 160 ms).
const STOP_CHECK: u64 = 16;

/// Default for [`Solver::with_small_groups`]. Smaller thresholds search more sums but
/// spend less on adding values: measured from the 4x6 start (median of 5 solves, release
/// build), 8 stones 5.4 s (2,867,314 nodes), 7 about 4.3 s, 6 4.0 s (3,767,457 nodes),
/// 5 and 4 slower again (4.0 s, 5.5 s for one run each); 3x9: 6 stones 3.0-3.3 s, 8
/// stones 4.3-5.1 s.
pub const SMALL_GROUP_STONES: u32 = 6;

impl Solver {
    /// The root moves the last [`Solver::solve_from`] proved losing for the side to
    /// move, in the order it tried them (every move when it proved the position lost).
    pub fn refuted(&self) -> &[super::ClobberMove] {
        &self.refuted
    }

    /// Positions (sums) visited so far, over all solves.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A solver with empty tables that adds up groups of up to [`SMALL_GROUP_STONES`]
    /// stones by their values.
    pub fn new() -> Solver {
        Solver::with_small_groups(SMALL_GROUP_STONES)
    }

    /// A solver that replaces groups of at most `stones` stones by their canonical
    /// values (0: never, a plain search over groups and classes).
    pub fn with_small_groups(stones: u32) -> Solver {
        Solver {
            table: FxHashMap::default(),
            classes: FxHashMap::default(),
            bounded: FxHashMap::default(),
            values: FxHashMap::default(),
            games: Games::new(),
            small: stones,
            nodes: 0,
            budget: Budget::MAX,
            deadline: None,
            node_limit: u64::MAX,
            pools: Pools::default(),
            refuted: Vec::new(),
        }
    }

    /// Limits the next solves: they stop (as if the stop flag were raised) at `deadline`
    /// or after `nodes` more nodes. `None` lifts a limit.
    pub fn set_limits(&mut self, deadline: Option<Instant>, nodes: Option<u64>) {
        self.deadline = deadline;
        self.node_limit = nodes.map_or(u64::MAX, |n| self.nodes.saturating_add(n));
    }

    /// Whether the current solve must stop: the node limit, or (every [`STOP_CHECK`]
    /// nodes) the stop flag or the deadline.
    #[inline]
    fn halted(&self, stop: &AtomicBool) -> bool {
        self.nodes >= self.node_limit
            || (self.nodes.is_multiple_of(STOP_CHECK)
                && (stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d)))
    }

    /// Whether the side to move wins `pos`, without looking for a winning move (what
    /// the search asks inside its tree).
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn side_to_move_wins(
        &mut self,
        pos: &Clobber,
        stop: &AtomicBool,
    ) -> Result<bool, SolveError> {
        let settings = pos.settings_of();
        if settings.rows() * settings.cols() > MAX_SOLVE_SQUARES {
            return Err(SolveError::TooLarge);
        }
        let (big, value) = self.fold(sum_of(pos), ZERO);
        self.wins(big, value, pos.side_to_move(), stop)
    }

    /// Bounds the tables to `bytes` (unbounded by default): a proof that needs more ends
    /// with [`SolveError::OutOfMemory`]. Everything stored before stays good, so the
    /// solver may be asked again.
    pub fn set_memory_limit(&mut self, bytes: Budget) {
        self.budget = bytes;
    }

    /// About the bytes the tables hold.
    pub fn memory_used(&self) -> usize {
        map_bytes(&self.table)
            + map_bytes(&self.classes)
            + map_bytes(&self.bounded)
            + map_bytes(&self.values)
            + self.games.memory_bytes()
    }

    /// Room for one more entry in the table of proved sums.
    fn room_in_table(&mut self) -> Result<(), SolveError> {
        // The common case first: the table has room and grows not (adding up every
        // table's bytes at each insert was 5% of the solver's time).
        if self.table.len() < self.table.capacity() {
            return Ok(());
        }
        let used = self.memory_used();
        make_room(&mut self.table, used, self.budget).map_err(|_| SolveError::OutOfMemory)
    }

    /// Proves whether the side to move wins `pos`, and finds a winning move if so.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] for boards over [`MAX_SOLVE_SQUARES`] squares,
    /// [`SolveError::Stopped`] when `stop` is raised before the proof is complete,
    /// [`SolveError::OutOfMemory`] when the tables reach their budget first.
    pub fn solve(&mut self, pos: &Clobber, stop: &AtomicBool) -> Result<Solution, SolveError> {
        self.solve_from(pos, None, stop)
    }

    /// [`Solver::solve`] trying `first` (a legal move) before the others. The root moves
    /// proved losing on the way are kept ([`Solver::refuted`]), also when it stops early.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve_from(
        &mut self,
        pos: &Clobber,
        first: Option<super::ClobberMove>,
        stop: &AtomicBool,
    ) -> Result<Solution, SolveError> {
        self.refuted.clear();
        let settings = pos.settings_of();
        if settings.rows() * settings.cols() > MAX_SOLVE_SQUARES {
            return Err(SolveError::TooLarge);
        }
        let start_nodes = self.nodes;
        let mover = pos.side_to_move();
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut winning_move = None;
        // Root: try each move so the winning one can be named, `first` first, then by a
        // short heuristic search ([`lookahead_scores`]), then in the order of the search
        // inside ([`order_key`]). The root is where the order pays most: the first move
        // proved winning ends the proof, and a winning move costs three times as much
        // to prove as a losing one to refute (median 79 ms against 25 ms over the moves
        // of 161 won positions of 26 stones from games on 5x6, each move's child solved
        // alone). Adding up those times in each order, the first winning move is proved
        // within 76 ms (the solver's share of a 100 ms move) in 52 positions by
        // `order_key` alone; after a lookahead of 1, 2, 3 or 4 plies in 52, 61, 68 and
        // 67; trying the cheapest winning move first would give 128. Run for real
        // (`scripts/clobber-positions.py bench --moves 4`, 275 positions of 26 stones, a
        // fresh engine each): 59 proved within 76 ms against 53. Before the lookahead, in
        // generation order 119 positions of 26 stones took 72.6 s, against 55.9 s ordered
        // by replies; with backing too, the 395 positions of 26 and 25 stones of
        // `tests/data/clobber-5x6-positions.txt` 142.0 s against 187.5 s for generation
        // order and replies alone inside.
        let ahead = lookahead_scores(pos, &moves);
        let mut children: Vec<_> = moves
            .into_iter()
            .zip(ahead)
            .map(|(mv, ahead)| {
                let mut child = pos.clone();
                child.make_move(mv);
                let parts = sum_of(&child);
                let mut big = Vec::with_capacity(parts.len());
                let value = self.fold_into(&parts, ZERO, &mut big);
                let replies = big.iter().map(|&g| mobility(g, mover.other())).sum();
                let key = (Some(mv) != first, -ahead, order_key(replies, &parts, mover));
                (key, mv, big, value)
            })
            .collect();
        children.sort_by_key(|c| c.0);
        for (_, mv, big, value) in children {
            if self.wins(big, value, mover.other(), stop)? {
                self.refuted.push(mv);
            } else {
                winning_move = Some(mv);
                break;
            }
        }
        Ok(Solution {
            side_to_move_wins: winning_move.is_some(),
            winning_move,
            nodes: self.nodes - start_nodes,
        })
    }

    /// The length of the game with best play: the number of plies it lasts when the
    /// winner wins as fast as it can and the loser holds out as long as it can (odd when
    /// the side to move wins), and a move that keeps to it (a fastest win, or a longest
    /// defence; none when the side to move has no move).
    ///
    /// `mover_wins` is the result [`Solver::solve`] proved. Values of groups say nothing
    /// about the length of play, so this is a plain search over the sum of all the groups
    /// (canonical, symmetric ones merged), asking "does the winner win within `d`
    /// plies?" for `d` = 1, 3, 5, ... (or whether the side to move loses within 0, 2,
    /// 4, ...), each answer kept as a bound for the next `d`, and a child already known
    /// to decide ending a node at once (on 3x8: 6.0M nodes against 10.7M). It costs far
    /// more than the proof: 4x5 0.6M nodes, 1.4 s; 3x8 6.0M nodes, 13 s.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`], [`SolveError::Stopped`] and [`SolveError::OutOfMemory`]
    /// as for [`Solver::solve`];
    /// [`SolveError::NotProved`] when `mover_wins` is not the position's result.
    pub fn distance(
        &mut self,
        pos: &Clobber,
        mover_wins: bool,
        stop: &AtomicBool,
    ) -> Result<(u32, Option<super::ClobberMove>), SolveError> {
        let settings = pos.settings_of();
        if settings.rows() * settings.cols() > MAX_SOLVE_SQUARES {
            return Err(SolveError::TooLarge);
        }
        let mover = pos.side_to_move();
        let mut groups = sum_of(pos);
        groups.sort_unstable();
        // Only budgets of the proved result's parity can hold: measured on 3x8, asking
        // every budget cost 16.7M nodes against 10.7M.
        let mut budget = u32::from(mover_wins);
        while !self.within(&groups, mover, budget, !mover_wins, stop)? {
            budget += 2;
            if budget > MAX_SOLVE_SQUARES as u32 {
                // Every move takes a stone, so no game lasts this long: `mover_wins` was
                // not the proved result.
                return Err(SolveError::NotProved);
            }
        }
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        for mv in moves {
            let mut child = pos.clone();
            child.make_move(mv);
            let mut groups = sum_of(&child);
            groups.sort_unstable();
            // A fastest win leaves the loser lost within budget - 1; a longest defence
            // leaves a winner who cannot win within budget - 3.
            let keeps = if mover_wins {
                self.within(&groups, mover.other(), budget - 1, true, stop)?
            } else {
                budget < 3 || !self.within(&groups, mover.other(), budget - 3, false, stop)?
            };
            if keeps {
                return Ok((budget, Some(mv)));
            }
        }
        Ok((budget, None))
    }

    /// Whether `mover` wins the sum of `groups` (sorted) within `budget` plies, or, when
    /// `lose`, whether `mover` loses it within `budget` plies.
    fn within(
        &mut self,
        groups: &[Region],
        mover: Side,
        budget: u32,
        lose: bool,
        stop: &AtomicBool,
    ) -> Result<bool, SolveError> {
        self.nodes += 1;
        if self.halted(stop) {
            return Err(SolveError::Stopped);
        }
        // Only groups with a move for both sides are kept (`split_into`): no group, no
        // move.
        if groups.is_empty() {
            return Ok(lose);
        }
        // A win takes at least this ply; a loss, this ply and the winner's reply.
        if budget < if lose { 2 } else { 1 } {
            return Ok(false);
        }
        let total_hash = hash_of(groups);
        let key = key_of(total_hash, ZERO, mover) ^ if lose { LOSE_KEY } else { 0 };
        let (enough, too_small) = self.bounded.get(&key).copied().unwrap_or((u32::MAX, 0));
        if budget >= enough {
            return Ok(true);
        }
        if budget < too_small {
            return Ok(false);
        }
        let other = mover.other();
        let mut moves = Vec::new();
        let mut parts = Vec::new();
        let mut children: Vec<(i32, Vec<Region>)> = Vec::new();
        for (i, &group) in groups.iter().enumerate() {
            moves.clear();
            local_moves(group, mover, &mut moves);
            for &mv in &moves {
                parts.clear();
                play_local(group, mover, mv, &mut parts);
                let mut child = Vec::with_capacity(parts.len() + groups.len() - 1);
                child.extend_from_slice(&parts);
                child.extend_from_slice(&groups[..i]);
                child.extend_from_slice(&groups[i + 1..]);
                child.sort_unstable();
                // A child already known to decide ends the search at once.
                let child_hash = hash_add(hash_sub(total_hash, group.hashes()), hash_of(&parts));
                let child_key = key_of(child_hash, ZERO, other) ^ if lose { 0 } else { LOSE_KEY };
                if let Some(&(enough, too_small)) = self.bounded.get(&child_key) {
                    let decided = if lose {
                        budget - 1 < too_small
                    } else {
                        budget > enough
                    };
                    if decided {
                        self.bound(key, budget, !lose)?;
                        return Ok(!lose);
                    }
                }
                let replies: i32 = child.iter().map(|&g| mobility(g, other)).sum();
                children.push((replies, child));
            }
        }
        // Fewest replies first: for a win the child most likely lost for the opponent,
        // for a loss the one most likely to refute it.
        children.sort_by_key(|c| c.0);
        // A win needs one child the opponent loses in time; a loss, every child won in
        // time by the opponent.
        let mut result = lose;
        for (_, child) in &children {
            if self.within(child, other, budget - 1, !lose, stop)? != lose {
                result = !lose;
                break;
            }
        }
        self.bound(key, budget, result)?;
        Ok(result)
    }

    /// Records in the distance table that the question `key` is answered `result` for
    /// `budget` plies.
    fn bound(&mut self, key: u128, budget: u32, result: bool) -> Result<(), SolveError> {
        let used = self.memory_used();
        make_room(&mut self.bounded, used, self.budget).map_err(|_| SolveError::OutOfMemory)?;
        let entry = self.bounded.entry(key).or_insert((u32::MAX, 0));
        if result {
            entry.0 = entry.0.min(budget);
        } else {
            entry.1 = entry.1.max(budget + 1);
        }
        Ok(())
    }

    /// Splits `regions` into the large ones and the sum of `value` and the small ones'
    /// values.
    fn fold(&mut self, regions: Vec<Region>, value: GameId) -> (Vec<Region>, GameId) {
        let mut big = Vec::with_capacity(regions.len());
        let value = self.fold_into(&regions, value, &mut big);
        (big, value)
    }

    /// Appends the large groups of `regions` to `big` and returns `value` plus the
    /// small ones' values.
    fn fold_into(
        &mut self,
        regions: &[Region],
        mut value: GameId,
        big: &mut Vec<Region>,
    ) -> GameId {
        for &region in regions {
            if region.stones() <= self.small {
                let v = self.value(region);
                value = self.games.add(value, v);
            } else {
                big.push(region);
            }
        }
        value
    }

    /// The canonical value of a small group.
    fn value(&mut self, region: Region) -> GameId {
        if let Some(&v) = self.values.get(&region) {
            return v;
        }
        let mut options = [Vec::new(), Vec::new()];
        let mut moves = Vec::new();
        let mut parts = Vec::new();
        for side in Side::BOTH {
            moves.clear();
            local_moves(region, side, &mut moves);
            for &mv in &moves {
                parts.clear();
                play_local(region, side, mv, &mut parts);
                let mut sum = ZERO;
                for &part in &parts {
                    let v = self.value(part);
                    sum = self.games.add(sum, v);
                }
                options[side.index()].push(sum);
            }
        }
        let [left, right] = options;
        let v = self.games.game(left, right);
        self.values.insert(region, v);
        v
    }

    /// Whether `mover` wins the sum of the large groups `big` and the game `value` when
    /// moving first.
    fn wins(
        &mut self,
        mut big: Vec<Region>,
        value: GameId,
        mover: Side,
        stop: &AtomicBool,
    ) -> Result<bool, SolveError> {
        big.sort_unstable();
        let key = sum_key(&big, value, mover);
        self.wins_sorted(big, value, mover, key, stop)
    }

    /// [`Solver::wins`] for groups already sorted, with their table key.
    fn wins_sorted(
        &mut self,
        big: Vec<Region>,
        value: GameId,
        mover: Side,
        key: u128,
        stop: &AtomicBool,
    ) -> Result<bool, SolveError> {
        self.nodes += 1;
        if self.halted(stop) {
            return Err(SolveError::Stopped);
        }
        let result = if big.is_empty() {
            match mover {
                Side::First => self.games.left_first_wins(value),
                Side::Second => self.games.right_first_wins(value),
            }
        } else if let Some(&known) = self.table.get(&key) {
            known
        } else {
            // Classes pay off only between large groups: one large group plus a value
            // is searched directly (4x6: 2.6M nodes, 6 s, against 4.2M nodes, 11 s with
            // classes).
            let result = if big.len() > 1 {
                self.wins_sum(&big, value, mover, stop)?
            } else {
                self.search(&big, value, mover, stop)?
            };
            self.room_in_table()?;
            self.table.insert(key, result);
            result
        };
        self.pools.give_groups(big);
        Ok(result)
    }

    /// A sum of two or more games: simplify with the large groups' classes, then search.
    fn wins_sum(
        &mut self,
        big: &[Region],
        value: GameId,
        mover: Side,
        stop: &AtomicBool,
    ) -> Result<bool, SolveError> {
        let mut kept = self.pools.take_groups();
        let (mut positive, mut negative, mut fuzzy) = (0, 0, 0);
        for &region in big {
            match self.class(region, stop)? {
                Class::P => continue,
                Class::L => positive += 1,
                Class::R => negative += 1,
                Class::N => fuzzy += 1,
            }
            kept.push(region);
        }
        // A sum of positive games (and a value >= 0) is positive, and so on.
        // (`value >= 0` iff Right moving first loses it, Siegel II.1.)
        if fuzzy == 0 && negative == 0 && positive > 0 && !self.games.right_first_wins(value) {
            self.pools.give_groups(kept);
            return Ok(mover == Side::First);
        }
        if fuzzy == 0 && positive == 0 && negative > 0 && !self.games.left_first_wins(value) {
            self.pools.give_groups(kept);
            return Ok(mover == Side::Second);
        }
        // Cancel each group against its negative.
        let mut i = 0;
        while i < kept.len() {
            let neg = kept[i].negative();
            if let Some(j) = (0..kept.len()).find(|&j| j != i && kept[j] == neg) {
                let (a, b) = (i.max(j), i.min(j));
                kept.swap_remove(a);
                kept.swap_remove(b);
                i = 0;
            } else {
                i += 1;
            }
        }
        if kept.len() < big.len() {
            return self.wins(kept, value, mover, stop);
        }
        let result = self.search(&kept, value, mover, stop);
        self.pools.give_groups(kept);
        result
    }

    /// The outcome class of one large group, solved alone for both players and cached.
    fn class(&mut self, region: Region, stop: &AtomicBool) -> Result<Class, SolveError> {
        if let Some(&class) = self.classes.get(&region) {
            return Ok(class);
        }
        let left_first = self.wins(vec![region], ZERO, Side::First, stop)?;
        let right_first = self.wins(vec![region], ZERO, Side::Second, stop)?;
        let class = match (left_first, right_first) {
            (true, true) => Class::N,
            (true, false) => Class::L,
            (false, true) => Class::R,
            (false, false) => Class::P,
        };
        for (group, class) in [(region, class), (region.negative(), negated(class))] {
            let used = self.memory_used();
            make_room(&mut self.classes, used, self.budget).map_err(|_| SolveError::OutOfMemory)?;
            self.classes.insert(group, class);
        }
        Ok(class)
    }

    /// Negamax over the moves of every large group and of the value.
    fn search(
        &mut self,
        big: &[Region],
        value: GameId,
        mover: Side,
        stop: &AtomicBool,
    ) -> Result<bool, SolveError> {
        // Every child, with a cheap estimate for ordering; a child already known lost
        // for the opponent ends the search at once (enhanced transposition cutoff).
        // The estimate and the table key are sums over the groups, so the untouched
        // groups' share is taken from the totals rather than summed again per child.
        // The lists come from the solver's pools: a node of a large sum makes dozens of
        // them, and allocating each took a sixth of the time.
        let other = mover.other();
        let total_mobility: i32 = big.iter().map(|&r| mobility(r, other)).sum();
        let total_hash = hash_of(big);
        let mut moves = self.pools.moves.pop().unwrap_or_default();
        let mut parts = self.pools.take_groups();
        let mut children = self.pools.children.pop().unwrap_or_default();
        let mut won = false;
        'groups: for (i, &region) in big.iter().enumerate() {
            let (own_mobility, own_hash) = (mobility(region, other), region.hashes());
            let own_backing = backing(region, mover);
            moves.clear();
            local_moves(region, mover, &mut moves);
            for &mv in &moves {
                parts.clear();
                play_local(region, mover, mv, &mut parts);
                let mut child = self.pools.take_groups();
                let child_value = self.fold_into(&parts, value, &mut child);
                let reply_mobility = total_mobility - own_mobility
                    + child.iter().map(|&g| mobility(g, other)).sum::<i32>();
                let order = order_key(reply_mobility, &parts, mover) + own_backing;
                let hash = hash_add(hash_sub(total_hash, own_hash), hash_of(&child));
                let key = key_of(hash, child_value, other);
                if self.table.get(&key) == Some(&false) {
                    self.pools.give_groups(child);
                    won = true;
                    break 'groups;
                }
                child.extend_from_slice(&big[..i]);
                child.extend_from_slice(&big[i + 1..]);
                child.sort_unstable();
                children.push(Child {
                    order,
                    big: child,
                    value: child_value,
                    key,
                });
            }
        }
        self.pools.moves.push(moves);
        self.pools.give_groups(parts);
        if !won {
            children.sort_by_key(|c| c.order);
            let mut rest = children.drain(..);
            for c in rest.by_ref() {
                match self.wins_sorted(c.big, c.value, other, c.key, stop) {
                    Ok(true) => {}
                    Ok(false) => {
                        won = true;
                        break;
                    }
                    Err(e) => return Err(e),
                }
            }
            for c in rest {
                self.pools.give_groups(c.big);
            }
        }
        for c in children.drain(..) {
            self.pools.give_groups(c.big);
        }
        self.pools.children.push(children);
        if won {
            return Ok(true);
        }
        let options: Vec<GameId> = match mover {
            Side::First => self.games.left_options(value).to_vec(),
            Side::Second => self.games.right_options(value).to_vec(),
        };
        for option in options {
            let mut same = self.pools.take_groups();
            same.extend_from_slice(big);
            if !self.wins(same, option, other, stop)? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// A child of a node in [`Solver::search`]: its order key, large groups (sorted), the
/// value of its small ones and its table key.
struct Child {
    order: i32,
    big: Vec<Region>,
    value: GameId,
    key: u128,
}

/// Lists kept between nodes of [`Solver::search`], so that a node allocates nothing.
#[derive(Default)]
struct Pools {
    groups: Vec<Vec<Region>>,
    moves: Vec<Vec<LocalMove>>,
    children: Vec<Vec<Child>>,
}

impl Pools {
    fn take_groups(&mut self) -> Vec<Region> {
        self.groups.pop().unwrap_or_default()
    }

    fn give_groups(&mut self, mut list: Vec<Region>) {
        list.clear();
        self.groups.push(list);
    }
}

/// Live stones at most, for a position met inside the search to be handed to the
/// solver (see [`RegionProver`]).
pub const IN_SEARCH_STONES: usize = 14;

/// Live stones at most, for a root proved lost to have its defences ranked by the
/// opponent's winning replies (see [`crate::prover::Prover::ranks_defences`]).
pub const DEFENCE_STONES: usize = 26;

/// Whether `pos` is on a board the solver takes and has at most `stones` live stones.
fn within(pos: &Clobber, stones: usize) -> bool {
    pos.settings_of().squares() <= MAX_SOLVE_SQUARES
        && pos.stone_count(Side::First) + pos.stone_count(Side::Second) <= stones
}

/// Solver nodes a proof inside the search may take.
pub const IN_SEARCH_NODES: u64 = 2_000;

/// The region solver as the search's prover ([`crate::prover`]): at the root it proves
/// who wins and a winning move; inside the search, positions of at most
/// [`IN_SEARCH_STONES`] stones (small groups, often each with a known value) within
/// [`IN_SEARCH_NODES`] nodes. It proves no distances: the search scores its proofs
/// with the bound of [`crate::prover::Prover::max_plies`], the stones left (each move
/// takes one).
pub struct RegionProver {
    solver: Solver,
    memory: Budget,
}

impl RegionProver {
    /// A prover whose tables take at most `memory` bytes (they are emptied when full).
    pub fn new(memory: Budget) -> RegionProver {
        let mut solver = Solver::new();
        solver.set_memory_limit(memory);
        RegionProver { solver, memory }
    }

    fn attempt(
        &mut self,
        limits: &crate::prover::ProofLimits<'_>,
        run: impl FnOnce(&mut Solver) -> Result<crate::prover::Proof<super::ClobberMove>, SolveError>,
    ) -> Option<crate::prover::Proof<super::ClobberMove>> {
        self.solver.set_limits(limits.deadline, limits.nodes);
        match run(&mut self.solver) {
            Ok(proof) => Some(proof),
            Err(SolveError::OutOfMemory) => {
                crate::prover::Prover::<Clobber>::clear(self);
                None
            }
            Err(_) => None,
        }
    }
}

impl crate::prover::Prover<Clobber> for RegionProver {
    fn prove_root(
        &mut self,
        pos: &Clobber,
        first: Option<super::ClobberMove>,
        limits: &crate::prover::ProofLimits<'_>,
    ) -> Option<crate::prover::Proof<super::ClobberMove>> {
        use crate::prover::Proof;
        match super::book::lookup(pos) {
            Some(super::book::BookResult::Win(mv)) => {
                return Some(Proof::Win {
                    mv: Some(mv),
                    plies: None,
                })
            }
            Some(super::book::BookResult::Loss) => return Some(Proof::Loss { plies: None }),
            None => {}
        }
        self.attempt(limits, |solver| {
            let solution = solver.solve_from(pos, first, limits.stop)?;
            Ok(if solution.side_to_move_wins {
                Proof::Win {
                    mv: solution.winning_move,
                    plies: None,
                }
            } else {
                Proof::Loss { plies: None }
            })
        })
    }

    fn prove_node(
        &mut self,
        pos: &Clobber,
        limits: &crate::prover::ProofLimits<'_>,
    ) -> Option<crate::prover::Proof<super::ClobberMove>> {
        use crate::prover::Proof;
        self.attempt(limits, |solver| {
            Ok(if solver.side_to_move_wins(pos, limits.stop)? {
                Proof::Win {
                    mv: None,
                    plies: None,
                }
            } else {
                Proof::Loss { plies: None }
            })
        })
    }

    fn refuted(&self) -> Vec<super::ClobberMove> {
        self.solver.refuted().to_vec()
    }

    fn root_share(&self, pos: &Clobber) -> f64 {
        // Measured on 5x6 against OpenSpiel's MCTS (5000 simulations, 40 games at 100 ms
        // a move, half of the move's time to the solver at every root): 9 of agon's 13
        // losses came from positions of 25 or 26 stones, at ply 5 or 6, that the solver
        // proves won in 60 ms to 1.1 s; the game is decided there. What a proof that runs
        // out of time has proved of the position's groups stays in the tables, so the
        // next move's attempt goes further: from 27 stones down the solver gets most of
        // every move, at 28 and 29 a share that fills its tables, at the start little.
        match pos.stone_count(Side::First) + pos.stone_count(Side::Second) {
            0..=27 => 0.8,
            28..=29 => 0.3,
            _ => 0.05,
        }
    }

    fn ranks_defences(&self, pos: &Clobber) -> bool {
        within(pos, DEFENCE_STONES)
    }

    fn in_search(&self, pos: &Clobber) -> Option<u64> {
        within(pos, IN_SEARCH_STONES).then_some(IN_SEARCH_NODES)
    }

    fn max_plies(&self, pos: &Clobber) -> u32 {
        // Every move takes a stone, and the last stone standing takes none.
        let stones = pos.stone_count(Side::First) + pos.stone_count(Side::Second);
        stones.saturating_sub(1) as u32
    }

    fn nodes(&self) -> u64 {
        self.solver.nodes()
    }

    fn clear(&mut self) {
        let nodes = self.solver.nodes;
        self.solver = Solver::new();
        self.solver.set_memory_limit(self.memory);
        self.solver.nodes = nodes;
    }
}

/// Root moves up to which [`lookahead_scores`] looks [`LOOKAHEAD_PLIES`] plies ahead;
/// beyond, one ply (3 plies cost about 5 ms over the 25 to 30 moves of 5x6 at 26
/// stones, and grow with the cube of the moves: 8x8's start has 112).
const LOOKAHEAD_MOVES: usize = 40;

/// Plies of the lookahead that orders the root's moves for the proof (see
/// [`Solver::solve_from`]).
const LOOKAHEAD_PLIES: u32 = 3;

/// Each of `moves`' score for the side to move of `pos`: an alpha-beta search of the
/// default heuristic ([`super::ClobberHeuristic::Strong`]) [`LOOKAHEAD_PLIES`] plies deep
/// (one ply for roots of more than [`LOOKAHEAD_MOVES`] moves).
fn lookahead_scores(pos: &Clobber, moves: &[super::ClobberMove]) -> Vec<i32> {
    let plies = if moves.len() <= LOOKAHEAD_MOVES {
        LOOKAHEAD_PLIES
    } else {
        1
    };
    let mut work = pos.clone();
    let mut buffers = vec![Vec::new(); plies as usize];
    moves
        .iter()
        .map(|&mv| {
            work.make_move(mv);
            let score = -lookahead(
                &mut work,
                plies - 1,
                -LOOKAHEAD_WIN,
                LOOKAHEAD_WIN,
                &mut buffers,
            );
            work.unmake_move(mv, ());
            score
        })
        .collect()
}

/// A score beyond any heuristic value: the side to move has no move and has lost.
const LOOKAHEAD_WIN: i32 = 1_000_000;

/// Negamax with alpha-beta over `plies` plies of the default heuristic, `buffers` one
/// move list per ply left.
fn lookahead(
    pos: &mut Clobber,
    plies: u32,
    mut alpha: i32,
    beta: i32,
    buffers: &mut [Vec<super::ClobberMove>],
) -> i32 {
    if pos.outcome().is_some() {
        // No move: lost (the heuristic would score the tempo).
        return -LOOKAHEAD_WIN;
    }
    if plies == 0 {
        return pos.evaluate(super::ClobberHeuristic::Strong);
    }
    let (moves, deeper) = buffers.split_first_mut().expect("a buffer per ply");
    moves.clear();
    pos.generate_moves(moves);
    let mut best = -LOOKAHEAD_WIN;
    for &mv in moves.iter() {
        pos.make_move(mv);
        let score = -lookahead(pos, plies - 1, -beta, -alpha, deeper);
        pos.unmake_move(mv, ());
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn negated(class: Class) -> Class {
    match class {
        Class::L => Class::R,
        Class::R => Class::L,
        other => other,
    }
}

/// The live groups of a position.
fn sum_of(pos: &Clobber) -> Vec<Region> {
    let settings = pos.settings_of();
    let (rows, cols) = (settings.rows(), settings.cols());
    let (mut left, mut right) = (0u64, 0u64);
    for sq in 0..rows * cols {
        match pos.stone(sq) {
            Some(Side::First) => left |= 1 << sq,
            Some(Side::Second) => right |= 1 << sq,
            None => {}
        }
    }
    let mut out = Vec::new();
    split_into(rows as u8, cols as u8, left, right, &mut out);
    out
}

/// The table key of a multiset of groups with the side to move.
fn sum_key(regions: &[Region], value: GameId, mover: Side) -> u128 {
    key_of(hash_of(regions), value, mover)
}

/// The sums of the groups' two hashes: a multiset's hash, whatever the order, that a
/// child's can be made from by [`hash_sub`] of the group played in and [`hash_add`] of
/// what it split into.
fn hash_of(regions: &[Region]) -> (u64, u64) {
    regions.iter().fold((0, 0), |h, r| hash_add(h, r.hashes()))
}

fn hash_add(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0.wrapping_add(b.0), a.1.wrapping_add(b.1))
}

fn hash_sub(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0.wrapping_sub(b.0), a.1.wrapping_sub(b.1))
}

/// The table key from the sums of the groups' two hashes (so the order of the groups
/// does not matter), the value of the small ones and the side to move.
fn key_of(hash: (u64, u64), value: GameId, mover: Side) -> u128 {
    let mut a = splitmix(u64::from(value)).wrapping_add(hash.0);
    let mut b = splitmix(u64::from(value) ^ 0xA076_1D64_78BD_642F).wrapping_add(hash.1);
    if mover == Side::Second {
        a = !a;
        b = b.rotate_left(1) ^ 0x5851_F42D_4C95_7F2D;
    }
    (u128::from(a) << 64) | u128::from(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_is_the_same_for_all_orientations() {
        // An L-shaped group: w at (0,0),(1,0); b at (1,1) in a 2x2 frame.
        let a = canonical(2, 2, 0b0101, 0b1000);
        let mirrored = canonical(2, 2, 0b1010, 0b0100);
        let flipped = canonical(2, 2, 0b0101, 0b0010);
        assert_eq!(a, mirrored);
        assert_eq!(a, flipped);
    }

    #[test]
    fn word_symmetries_choose_what_the_square_tables_choose() {
        // Every frame of up to 8 x 8, random groups of every density (splitmix as the
        // generator): the fast path and the square-by-square tables agree, and so do
        // all eight images of a group.
        let mut seed = 7u64;
        let mut next = || {
            seed = splitmix(seed);
            seed
        };
        for h in 1..=8u8 {
            for w in 1..=8u8 {
                let all = low_bits(u32::from(h) * u32::from(w));
                for _ in 0..200 {
                    let occupied = next() & next() & all | next() & all;
                    let left = occupied & next();
                    let right = occupied & !left;
                    let slow = canonical_by_maps(h, w, left, right);
                    assert_eq!(
                        canonical(h, w, left, right),
                        slow,
                        "{h}x{w} {left:#x} {right:#x}"
                    );
                    let maps = &symmetries().maps[(usize::from(h) - 1) * 64 + usize::from(w) - 1];
                    for (t, map) in maps.iter().enumerate() {
                        let (ih, iw) = if t >= 4 { (w, h) } else { (h, w) };
                        let image = canonical(ih, iw, permute(left, map), permute(right, map));
                        assert_eq!(image, slow, "{h}x{w} image {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn cropping_moves_a_group_to_the_corner_of_its_frame() {
        // One w-b pair in the middle of a 5x6 board, and the same pair alone.
        let (l, r) = (1u64 << (2 * 6 + 3), 1u64 << (2 * 6 + 4));
        assert_eq!(crop(6, l, r), canonical(1, 2, 0b01, 0b10));
        // A 1x10 row (wider than 8): the tables' path.
        let row = crop(12, 0b01_0101_0101 << 1, 0b10_1010_1010 << 1);
        assert_eq!((row.h, row.w), (1, 10));
        assert_eq!(
            row,
            canonical_by_maps(1, 10, 0b01_0101_0101, 0b10_1010_1010)
        );
    }

    #[test]
    fn single_pair_is_fuzzy_and_its_negative_is_itself() {
        // wb: whoever moves first wins (value *).
        let r = canonical(1, 2, 0b01, 0b10);
        assert_eq!(r.negative(), r);
        let mut s = Solver::with_small_groups(0);
        let stop = AtomicBool::new(false);
        assert_eq!(s.class(r, &stop).unwrap(), Class::N);
        let mut s = Solver::new();
        let star = s.value(r);
        assert_eq!(s.games.describe(star), "{0|0}");
    }
}
