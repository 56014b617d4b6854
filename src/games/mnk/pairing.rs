//! Pairing strategies of the defender in m,n,k games, found line by line.
//!
//! A pairing strategy is a set of disjoint pairs of empty squares such that every window
//! free of defender stones holds a whole pair. Answering each attacker stone on a pair
//! with the other square of the pair (and any other stone anywhere), the defender leaves
//! a stone in every such window, so the attacker never completes one (Hales and Jewett,
//! 1963; Beck, "Combinatorial Games: Tic-Tac-Toe Theory", 2008, chapter 1).
//!
//! Two squares lie on one line only, so a pair serves windows of one line, and of one
//! *segment* of it: a run of squares free of defender stones (a window across a defender
//! stone is dead). The problem falls apart into units, the segments of k squares or more,
//! each needing pairs of its own that hit all its windows, with no square used twice.
//! The search picks, for each unit, one *cover*: a set of pairs inside the segment that
//! hits every window of it, of the fewest pairs or one more. A cover holding another's
//! squares is dropped (the smaller one always serves as well). Each node narrows the
//! covers until no unit can lose one more (see [`search`]); the unit with the fewest
//! covers left is branched on, its covers of squares in the fewest windows first; units
//! that can share no square are searched apart.
//!
//! The search is not exhaustive: it keeps only covers of the fewest pairs and one more,
//! and stops after a budget of steps. A pairing it returns is always a true one.

use fxhash::FxHashMap;

use super::bits::Bits;

/// Units a search takes, at most (more: no pairing is looked for).
const MAX_UNITS: usize = 256;
/// Covers kept per unit, at most; a unit with more keeps the first found.
const MAX_COVERS: usize = 64;
/// Steps of the cover enumeration of one unit before it gives up (and the search with it).
const MAX_COVER_WORK: u32 = 4096;
/// Segments whose covers are kept, at most; past it the cache starts again empty (the
/// 8x8 board has about 280,000 segments with their attacker stones; a long line has far
/// more).
const MAX_KNOWN: usize = 1 << 20;

/// The lines of a board and the search's scratch space.
pub(super) struct Pairing<B> {
    /// Every line of the board holding a window, its squares in order.
    lines: Vec<Vec<u8>>,
    k: usize,
    /// The covers of every segment met so far (each a set of squares), segment after
    /// segment: they depend only on the segment and where the attacker's stones lie in
    /// it, so each is enumerated once.
    covers: Vec<B>,
    /// Where each segment's covers are in `covers`: keyed by the line, the segment's
    /// first square and length on it, and the attacker's stones in it (as bits from the
    /// segment's start). An empty range: the segment has a window with fewer than two
    /// empty squares, or no cover.
    known: FxHashMap<(u32, u64), (u32, u32)>,
    /// Scratch: each unit's covers, `covers[start..end]`.
    units: Vec<(u32, u32)>,
    /// The search's working space.
    frames: Frames<B>,
    /// The windows through each square: a cover of squares in fewer windows is tried
    /// first, as other units want its squares less.
    crowd: Vec<u8>,
}

impl<B: Bits> Pairing<B> {
    /// The lines of a board whose windows are `windows` (flattened, `k` squares each, in
    /// order along their line) with `ends[w]`, the squares just before and after window
    /// `w` on its line (`off_board` past the edge).
    pub(super) fn new(windows: &[u16], ends: &[[u16; 2]], k: usize, off_board: u16) -> Pairing<B> {
        let mut lines = Vec::new();
        if k >= 2 {
            let start_of: std::collections::HashMap<(u16, u16), usize> = windows
                .chunks_exact(k)
                .enumerate()
                .map(|(w, cells)| ((cells[0], cells[1]), w))
                .collect();
            for (w, cells) in windows.chunks_exact(k).enumerate() {
                if ends[w][0] != off_board {
                    continue;
                }
                // The first window of its line: walk on past its far end.
                let mut line: Vec<u8> = cells.iter().map(|&c| c as u8).collect();
                let mut at = w;
                while ends[at][1] != off_board {
                    let next = if k >= 3 {
                        (windows[at * k + 1], windows[at * k + 2])
                    } else {
                        (windows[at * k + 1], ends[at][1])
                    };
                    line.push(ends[at][1] as u8);
                    at = start_of[&next];
                }
                lines.push(line);
            }
        }
        let mut crowd = vec![0u8; B::SQUARES as usize];
        for &c in windows {
            crowd[usize::from(c)] = crowd[usize::from(c)].saturating_add(1);
        }
        Pairing {
            frames: Frames::default(),
            crowd,
            lines,
            k,
            covers: Vec::new(),
            known: FxHashMap::default(),
            units: Vec::new(),
        }
    }

    /// A pairing strategy of the defender (stones `d`) with `empty` the empty squares:
    /// the paired squares, or `None` when none is found within `steps`; and the steps
    /// taken.
    pub(super) fn find(&mut self, d: B, empty: B, steps: u32) -> (Option<B>, u32) {
        if !self.collect_units(d, empty) {
            return (None, 0);
        }
        let frames = &mut self.frames;
        frames.list.clear();
        frames.list.extend(0..self.units.len() as u16);
        frames.own.clear();
        frames.reach.clear();
        frames.left.clear();
        frames.chosen.clear();
        let mut left = steps;
        let all = 0..self.units.len();
        let found = search(&self.units, &self.covers, frames, all, B::ZERO, &mut left);
        (found, steps - left)
    }

    /// After [`Pairing::find`] found a pairing: the covers it is made of, one per unit
    /// (each the squares of one or more pairs on one line).
    #[cfg(test)]
    fn chosen(&self) -> &[B] {
        &self.frames.chosen
    }

    /// Fills `units` for the position; false when some unit has a window with fewer
    /// than two empty squares or no cover (no pairing exists), or there are more units
    /// than the search takes.
    fn collect_units(&mut self, d: B, empty: B) -> bool {
        self.units.clear();
        if self.k < 2 {
            return false;
        }
        if self.known.len() >= MAX_KNOWN {
            self.known.clear();
            self.covers.clear();
        }
        for (index, line) in self.lines.iter().enumerate() {
            let mut first = 0;
            for segment in line.split(|&c| d.has(u32::from(c))) {
                let at = first;
                first += segment.len() + 1;
                if segment.len() < self.k {
                    continue;
                }
                let stones = segment
                    .iter()
                    .enumerate()
                    .fold(0u64, |acc, (i, &c)| acc | u64::from(!empty.has(u32::from(c))) << i);
                let key = ((index as u32) << 16 | (at as u32) << 8 | segment.len() as u32, stones);
                let range = match self.known.get(&key) {
                    Some(&range) => range,
                    None => {
                        let range =
                            segment_covers(segment, empty, self.k, &self.crowd, &mut self.covers);
                        self.known.insert(key, range);
                        range
                    }
                };
                if range.0 == range.1 || self.units.len() == MAX_UNITS {
                    return false;
                }
                self.units.push(range);
            }
        }
        true
    }

    /// Bytes the cover cache holds.
    pub(super) fn memory_used(&self) -> usize {
        crate::memory::map_bytes(&self.known) + self.covers.capacity() * std::mem::size_of::<B>()
    }
}

/// Appends to `covers` the covers of `segment` (with `empty` its empty squares): the sets
/// of fewest pairs, and of one pair more, hitting all its windows; their range, empty
/// when a window has fewer than two empty squares or the enumeration gives up.
fn segment_covers<B: Bits>(
    segment: &[u8],
    empty: B,
    k: usize,
    crowd: &[u8],
    covers: &mut Vec<B>,
) -> (u32, u32) {
    let start = covers.len();
    let free = |i: usize| empty.has(u32::from(segment[i]));
    let mut in_window = (0..k).filter(|&i| free(i)).count();
    for p in 0..=segment.len() - k {
        if p > 0 {
            in_window += usize::from(free(p + k - 1));
            in_window -= usize::from(free(p - 1));
        }
        if in_window < 2 {
            return (start as u32, start as u32);
        }
    }
    let last = segment.len() - k;
    let least = (last + 1).div_ceil(k - 1) as u32;
    let mut work = 0;
    let mut fewest = None;
    for pairs in least..least + 3 {
        if fewest.is_some_and(|f| pairs > f + 1) || work >= MAX_COVER_WORK {
            break;
        }
        self::covers(segment, empty, k, 0, pairs, B::ZERO, covers, start, &mut work);
        if covers.len() > start && fewest.is_none() {
            fewest = Some(pairs);
        }
    }
    if work >= MAX_COVER_WORK {
        covers.truncate(start);
    }
    // Fewest squares first, then those in the fewest windows.
    let crowding = |c: B| -> u32 { c.squares().map(|i| u32::from(crowd[i as usize])).sum() };
    covers[start..].sort_unstable_by_key(|&c| (c.count(), crowding(c), c));
    // A cover holding all the squares of another is never needed: where it fits, the
    // smaller one fits and leaves more squares to the other units. The sort puts the
    // smaller first, so each cover is checked against those kept before it.
    let mut kept = start;
    for i in start..covers.len() {
        let c = covers[i];
        if covers[start..kept].iter().all(|&smaller| smaller & !c != B::ZERO) {
            covers[kept] = c;
            kept += 1;
        }
    }
    covers.truncate(kept);
    (start as u32, kept as u32)
}

/// Appends to `out` (past `start`, at most [`MAX_COVERS`]) the sets of `pairs` pairs of
/// empty squares of `segment`, none in `taken`, that hit every window of the segment
/// starting at `p` or later (each pair inside one window).
#[allow(clippy::too_many_arguments)]
fn covers<B: Bits>(
    segment: &[u8],
    empty: B,
    k: usize,
    p: usize,
    pairs: u32,
    taken: B,
    out: &mut Vec<B>,
    start: usize,
    work: &mut u32,
) {
    let last = segment.len() - k;
    if p > last {
        out.push(taken);
        return;
    }
    // A pair hits at most k - 1 windows of a line.
    let need = (last + 1 - p).div_ceil(k - 1) as u32;
    if need > pairs || out.len() - start >= MAX_COVERS || *work >= MAX_COVER_WORK {
        return;
    }
    *work += 1;
    let usable = |i: usize| {
        let bit = B::bit(u32::from(segment[i]));
        empty & bit != B::ZERO && taken & bit == B::ZERO
    };
    // The pair (i, j) lies in the window at p, which is the first one not hit yet: it
    // hits every window from p to i.
    for i in (p..p + k - 1).filter(|&i| usable(i)) {
        for j in (i + 1..p + k).filter(|&j| usable(j)) {
            let pair = B::bit(u32::from(segment[i])) | B::bit(u32::from(segment[j]));
            covers(segment, empty, k, i.min(last) + 1, pairs - 1, taken | pair, out, start, work);
        }
    }
}

/// The search's working space: one frame after another, each frame's units with their
/// squares of their own and covers left, so no frame allocates or clears memory.
struct Frames<B> {
    /// Units (by index).
    list: Vec<u16>,
    /// The squares common to a unit's covers left.
    own: Vec<B>,
    /// The squares of a unit's covers left.
    reach: Vec<B>,
    /// Covers left.
    left: Vec<u32>,
    /// The covers taken on the current branch, one per unit settled.
    chosen: Vec<B>,
}

impl<B> Default for Frames<B> {
    fn default() -> Self {
        Frames {
            list: Vec::new(),
            own: Vec::new(),
            reach: Vec::new(),
            left: Vec::new(),
            chosen: Vec::new(),
        }
    }
}

/// One cover for every unit of `frames.list[open]`, no square used twice nor in `used`:
/// all the squares used, or `None` when there is none or the `steps` (counted down, one
/// for each cover tried) run out.
///
/// Before it branches, each node narrows the units' covers to a fixed point: the squares
/// common to all covers a unit has left are its own, so no other unit's cover may use
/// them, which may leave that unit fewer covers and more squares of its own; a unit with
/// one cover left takes it. Two units that need one square, or a unit with no cover
/// left, end the branch. Then units whose covers left can meet fall into groups that
/// share no square: each group is searched alone (a failure in one is not tried again
/// for every choice in another), and the branching is on the unit of a group with the
/// fewest covers left.
fn search<B: Bits>(
    units: &[(u32, u32)],
    covers: &[B],
    frames: &mut Frames<B>,
    open: std::ops::Range<usize>,
    used: B,
    steps: &mut u32,
) -> Option<B> {
    let base = frames.list.len();
    frames.list.extend_from_within(open.clone());
    let n = open.len();
    frames.own.resize(base + n, B::ZERO);
    frames.reach.resize(base + n, B::ZERO);
    frames.left.resize(base + n, 0);
    let taken = frames.chosen.len();
    let found = search_frame(units, covers, frames, base, n, used, steps);
    if found.is_none() {
        frames.chosen.truncate(taken);
    }
    frames.list.truncate(base);
    frames.own.truncate(base);
    frames.reach.truncate(base);
    frames.left.truncate(base);
    found
}

/// [`search`] on the frame of `n` units from `base`.
fn search_frame<B: Bits>(
    units: &[(u32, u32)],
    covers: &[B],
    frames: &mut Frames<B>,
    base: usize,
    mut n: usize,
    mut used: B,
    steps: &mut u32,
) -> Option<B> {
    loop {
        let end = base + n;
        let mut claimed = B::ZERO;
        for &mine in &frames.own[base..end] {
            if claimed & mine != B::ZERO {
                return None;
            }
            claimed |= mine;
        }
        let mut changed = false;
        for i in base..end {
            let (start, stop) = units[usize::from(frames.list[i])];
            let blocked = used | (claimed & !frames.own[i]);
            let mut common = B::ALL;
            let mut reach = B::ZERO;
            let mut count = 0;
            for &c in &covers[start as usize..stop as usize] {
                if c & blocked == B::ZERO {
                    common &= c;
                    reach |= c;
                    count += 1;
                }
            }
            if count == 0 {
                return None;
            }
            frames.left[i] = count;
            frames.reach[i] = reach;
            if common != frames.own[i] {
                frames.own[i] = common;
                changed = true;
            }
        }
        // A unit with one cover left takes it.
        let mut kept = base;
        for i in base..end {
            if frames.left[i] == 1 {
                // Two units narrowed to one cover each in this pass may share a square.
                if used & frames.own[i] != B::ZERO {
                    return None;
                }
                used |= frames.own[i];
                frames.chosen.push(frames.own[i]);
            } else {
                frames.list[kept] = frames.list[i];
                frames.own[kept] = frames.own[i];
                frames.reach[kept] = frames.reach[i];
                frames.left[kept] = frames.left[i];
                kept += 1;
            }
        }
        let settled = kept < end;
        n = kept - base;
        if !changed && !settled {
            break;
        }
    }
    if n == 0 {
        return Some(used);
    }
    let end = base + n;
    // The group of the first unit: every unit whose covers left can meet it, or meet
    // one that can, and so on. Its units are moved to the front of the frame.
    let mut group = frames.reach[base];
    let mut size = 1;
    loop {
        let before = size;
        for i in base + size..end {
            if frames.reach[i] & group != B::ZERO {
                group |= frames.reach[i];
                swap_units(frames, base + size, i);
                size += 1;
            }
        }
        if size == before {
            break;
        }
    }
    if size < n {
        // This group, then the others, each on its own. The squares of their own that
        // the units of one group have stay barred to the other: they are in every cover
        // those units have left, so in the other group's answer too.
        let own = |range: std::ops::Range<usize>| frames.own[range].iter().fold(B::ZERO, |a, &o| a | o);
        let (first, rest) = (own(base..base + size), own(base + size..end));
        let mine = search(units, covers, frames, base..base + size, used | rest, steps)?;
        let others = search(units, covers, frames, base + size..end, used | first, steps)?;
        return Some(mine | others);
    }
    // The unit with the fewest covers left goes to the end of the frame; the branches
    // search the rest.
    let b = (base..end).min_by_key(|&i| frames.left[i]).expect("n > 0");
    swap_units(frames, b, end - 1);
    let claimed = frames.own[base..end - 1].iter().fold(B::ZERO, |acc, &o| acc | o);
    let (start, stop) = units[usize::from(frames.list[end - 1])];
    for &cover in &covers[start as usize..stop as usize] {
        if cover & (used | claimed) != B::ZERO {
            continue;
        }
        if *steps == 0 {
            return None;
        }
        *steps -= 1;
        frames.chosen.push(cover);
        if let Some(all) = search(units, covers, frames, base..end - 1, used | cover, steps) {
            return Some(all);
        }
        frames.chosen.pop();
    }
    None
}

/// Swaps two units of the frames.
fn swap_units<B>(frames: &mut Frames<B>, i: usize, j: usize) {
    frames.list.swap(i, j);
    frames.own.swap(i, j);
    frames.reach.swap(i, j);
    frames.left.swap(i, j);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::mnk::{Mnk, MnkMove, MnkSettings};

    /// Every window of k squares in a line of an m x n board (rows of m), worked out
    /// here from coordinates, apart from the game's own geometry.
    fn windows(m: usize, n: usize, k: usize) -> Vec<Vec<(usize, usize)>> {
        let mut out = Vec::new();
        for r in 0..n as isize {
            for c in 0..m as isize {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let cells: Vec<(isize, isize)> =
                        (0..k as isize).map(|i| (r + i * dr, c + i * dc)).collect();
                    if cells.iter().all(|&(y, x)| y >= 0 && x >= 0 && y < n as isize && x < m as isize) {
                        out.push(cells.iter().map(|&(y, x)| (y as usize, x as usize)).collect());
                    }
                }
            }
        }
        out
    }

    /// The ways to split `squares` (an even number) into pairs.
    fn matchings(squares: &[usize]) -> Vec<Vec<(usize, usize)>> {
        let Some((&first, rest)) = squares.split_first() else {
            return vec![Vec::new()];
        };
        let mut out = Vec::new();
        for (i, &other) in rest.iter().enumerate() {
            let left: Vec<usize> = rest.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &s)| s).collect();
            for mut tail in matchings(&left) {
                tail.push((first, other));
                out.push(tail);
            }
        }
        out
    }

    /// Checks by the definition that `covers` (from a search on the position `d`, with
    /// `empty` its empty squares) make a pairing strategy: disjoint sets of empty squares
    /// that split into pairs so that every window free of defender stones holds a pair.
    fn check(m: usize, n: usize, k: usize, d: u64, empty: u64, covers: &[u64]) {
        let bit = |(r, c): (usize, usize)| 1u64 << (r * m + c);
        let live: Vec<u64> = windows(m, n, k)
            .iter()
            .map(|w| w.iter().fold(0, |acc, &rc| acc | bit(rc)))
            .filter(|w| w & d == 0)
            .collect();
        let mut seen = 0u64;
        let mut pairs = Vec::new();
        for &cover in covers {
            assert_eq!(cover & seen, 0, "covers share a square: {m}x{n} k={k} d={d:#x} empty={empty:#x} {covers:x?}");
            assert_eq!(cover & !empty, 0, "a cover takes an occupied square");
            seen |= cover;
            let squares: Vec<usize> = (0..64).filter(|&i| cover >> i & 1 == 1).collect();
            assert!(squares.len().is_multiple_of(2) && !squares.is_empty());
            // The windows this cover's squares lie in must each hold one of its pairs,
            // for some way of splitting it (the other covers' squares are elsewhere).
            let touched: Vec<u64> = live.iter().copied().filter(|w| w & cover != 0 && (w & cover).count_ones() >= 2).collect();
            let split = matchings(&squares).into_iter().find(|split| {
                touched.iter().all(|w| split.iter().any(|&(x, y)| w >> x & 1 == 1 && w >> y & 1 == 1))
            });
            pairs.extend(split.unwrap_or_default());
        }
        for w in &live {
            assert!(
                pairs.iter().any(|&(x, y)| w >> x & 1 == 1 && w >> y & 1 == 1),
                "a live window {w:#x} holds no pair of {covers:x?}"
            );
        }
    }

    /// On random positions of boards up to 64 squares, every pairing the search returns is
    /// one by the definition, checked with windows of the test's own.
    #[test]
    fn every_pairing_found_is_a_pairing() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        let mut found = 0;
        for &(m, n, k) in &[(7, 7, 5), (8, 8, 5), (8, 6, 5), (6, 6, 4), (9, 7, 5), (5, 5, 4), (4, 4, 3), (16, 4, 5)] {
            let settings = MnkSettings::new(m, n, k);
            let start = Mnk::start(&settings);
            let g = &start.geometry;
            let mut pairing = Pairing::new(&g.windows, &g.ends, k, super::super::OFF_BOARD);
            for game in 0..60 {
                let mut pos = start.clone();
                let (mut x, mut o) = (0u64, 0u64);
                for ply in 0..(game % 24) + 2 {
                    let free: Vec<usize> = (0..m * n).filter(|&c| (x | o) >> c & 1 == 0).collect();
                    let c = free[next(free.len())];
                    pos.make_move(MnkMove(c as u16));
                    if pos.outcome().is_some() {
                        break;
                    }
                    if ply % 2 == 0 { x |= 1 << c } else { o |= 1 << c }
                    // The defender is o, the attacker x.
                    let empty = !(x | o) & if m * n == 64 { u64::MAX } else { (1u64 << (m * n)) - 1 };
                    if let (Some(squares), _) = pairing.find(o, empty, 1 << 12) {
                        let covers = pairing.chosen().to_vec();
                        assert_eq!(covers.iter().fold(0, |a, &c| a | c), squares);
                        check(m, n, k, o, empty, &covers);
                        found += 1;
                    }
                }
            }
        }
        assert!(found > 200, "only {found} pairings found");
    }
}
