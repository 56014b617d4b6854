//! The groups of a Clobber sum: a group of stones in its own frame, in the canonical one of
//! its eight orientations, the moves inside it, and the terms that order the solver's
//! children. Pure bit work on one group; the search over sums is in the parent module.

use crate::game::Side;

/// One group of stones in its own bounding box: `h` rows of `w` squares, bit
/// `row * w + col`, in the canonical one of its eight orientations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Region {
    pub(super) h: u8,
    pub(super) w: u8,
    pub(super) left: u64,
    pub(super) right: u64,
}

/// Masks of a `h` x `w` frame.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) w: u32,
    pub(super) all: u64,
    /// Every square but the first column.
    pub(super) not_first_col: u64,
    /// Every square but the last column.
    pub(super) not_last_col: u64,
}

impl Frame {
    pub(super) fn new(h: u8, w: u8) -> Frame {
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
    pub(super) fn neighbours(&self, x: u64) -> u64 {
        let east = (x & self.not_last_col) << 1;
        let west = (x & self.not_first_col) >> 1;
        let north = (x << self.w) & self.all;
        let south = x >> self.w;
        east | west | north | south
    }
}

impl Region {
    /// The colour-swapped group: its negative.
    pub(super) fn negative(self) -> Region {
        canonical(self.h, self.w, self.right, self.left)
    }

    /// Number of stones in the group.
    pub(super) fn stones(self) -> u32 {
        (self.left | self.right).count_ones()
    }

    /// Two independent 64-bit hashes of the group, for the table key.
    pub(super) fn hashes(self) -> (u64, u64) {
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
pub(super) fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// For every frame `h` x `w` of at most 64 squares and each of the eight symmetries,
/// where each square goes; the image frame is `w` x `h` for the last four.
pub(super) struct Symmetries {
    /// Indexed by `(h - 1) * 64 + (w - 1)`; empty for frames over 64 squares.
    pub(super) maps: Vec<[[u8; 64]; 8]>,
}

pub(super) fn symmetries() -> &'static Symmetries {
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
pub(super) fn permute(bits: u64, map: &[u8; 64]) -> u64 {
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
pub(super) fn canonical(h: u8, w: u8, left: u64, right: u64) -> Region {
    if h <= 8 && w <= 8 {
        canonical8(h, w, to_stride8(left, h, w), to_stride8(right, h, w))
    } else {
        canonical_by_maps(h, w, left, right)
    }
}

/// [`canonical`] square by square through the tables of [`symmetries`] (any frame).
pub(super) fn canonical_by_maps(h: u8, w: u8, left: u64, right: u64) -> Region {
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
pub(super) fn split_into(h: u8, w: u8, left: u64, right: u64, out: &mut Vec<Region>) {
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
pub(super) fn crop(w: u8, l: u64, r: u64) -> Region {
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
pub(super) fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The squares `bits` of a `h` x `w` frame (stride `w`, both at most 8) in a frame of
/// stride 8: square (row, col) at bit `8 * row + col`.
#[inline]
pub(super) fn to_stride8(bits: u64, h: u8, w: u8) -> u64 {
    let (h, w) = (u32::from(h), u32::from(w));
    let keep = low_bits(w);
    (0..h).fold(0, |out, row| {
        out | ((bits >> (row * w)) & keep) << (8 * row)
    })
}

/// The inverse of [`to_stride8`].
#[inline]
pub(super) fn from_stride8(bits: u64, h: u8, w: u8) -> u64 {
    let (h, w) = (u32::from(h), u32::from(w));
    let keep = low_bits(w);
    (0..h).fold(0, |out, row| {
        out | ((bits >> (8 * row)) & keep) << (row * w)
    })
}

/// Rows reversed in a stride-8 frame of `h` rows.
#[inline]
pub(super) fn flip_rows8(x: u64, h: u8) -> u64 {
    x.swap_bytes() >> (8 * (8 - u32::from(h)))
}

/// Columns reversed in a stride-8 frame of `w` columns: each byte's bits reversed
/// (three swaps of 1, 2 and 4 bits), then moved down to the frame.
#[inline]
pub(super) fn flip_cols8(mut x: u64, w: u8) -> u64 {
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
pub(super) fn transpose8(mut x: u64) -> u64 {
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
pub(super) fn canonical8(h: u8, w: u8, l8: u64, r8: u64) -> Region {
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
pub(super) struct LocalMove {
    pub(super) from: u32,
    pub(super) to: u32,
}

/// The moves of `side` in `region`.
pub(super) fn local_moves(region: Region, side: Side, out: &mut Vec<LocalMove>) {
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
pub(super) fn mobility(region: Region, side: Side) -> i32 {
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

/// Twice `side`'s defended stones (mobile, with a stone of their own next to them) less
/// the opponent's, less `side`'s hanging stones (mobile, none of their own next to them)
/// over the opponent's: the terms of the default heuristic (`eval.rs`) in one group.
pub(super) fn backing(region: Region, side: Side) -> i32 {
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
pub(super) fn play_local(region: Region, side: Side, mv: LocalMove, out: &mut Vec<Region>) {
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
}
