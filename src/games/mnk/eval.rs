//! m,n,k heuristics. Every window of k squares in a line that holds stones of one side
//! only is a potential line for that side; the more stones it holds, the more it is worth.

use super::{Mnk, MnkMove};
use crate::game::Side;

/// The named m,n,k heuristics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MnkHeuristic {
    /// Open windows counted by the stones they still miss (threats: one), a bonus for a
    /// threat with the move and for two threats, the squares that would make two fours
    /// at once (with a bonus when the side to move has one and no four against it), and a
    /// tempo; for five in a row with
    /// weights fitted to self-play games ([`THREATS_WEIGHTS`]), else 4 to the power of
    /// the stones in the window. The default.
    Threats,
    /// Open windows weighted by stones only.
    Lines,
    /// Sum of squares' centrality for own stones minus the opponent's.
    Center,
}

/// Name table, default first.
pub(super) const HEURISTICS: &[(&str, MnkHeuristic)] = &[
    ("threats", MnkHeuristic::Threats),
    ("lines", MnkHeuristic::Lines),
    ("center", MnkHeuristic::Center),
];

/// Buckets of [`Mnk::open`]: open windows 1, 2, 3, and 4 or more stones short of k.
pub(super) const OPEN_BUCKETS: usize = 5;

/// The terms of `threats` for one side, each the count its weight in [`THREATS_WEIGHTS`]
/// multiplies (see [`FEATURE_NAMES`]).
pub const FEATURES: usize = 8;

/// What each feature counts, for one side (printed by the refit in `tune.rs`).
#[cfg_attr(not(test), allow(dead_code))]
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "open windows one short (threats)",
    "open windows two short",
    "open windows three short",
    "open windows four or more short",
    "a threat, to move",
    "two or more threats, not to move",
    "squares making two fours (<= 4)",
    "two fours to make, to move",
];

/// The k the weights of `threats` were fitted for; other k keep the hand-set weights
/// (fitted by missing stones, they lost 46.8% on 7x7 k = 4).
pub const FITTED_K: usize = 5;

/// The weights of `threats` for five in a row, fitted by `tune.rs` to self-play games on
/// 15x15 and 9x9. A threat with the move wins next move and two threats cannot both be
/// blocked: the search proves both ([`crate::game::Game::forced`]); these weights are for
/// the plain searchers and the leaves where the proof does not apply.
pub const THREATS_WEIGHTS: [i32; FEATURES] = [203, 137, 35, 4, 3050, 840, -42, 564];
/// Bonus of the side to move in `threats`.
pub const THREATS_TEMPO: i32 = 130;

/// The features of `side` (see [`FEATURE_NAMES`]); `to_move` when it is that side's turn.
pub fn side_features(pos: &Mnk, side: Side, to_move: bool) -> [i32; FEATURES] {
    let open = &pos.open[side.index()];
    let threats = open[1];
    let double = double_four_squares(pos, side.index());
    [
        threats,
        open[2],
        open[3],
        open[4],
        i32::from(to_move && threats > 0),
        i32::from(!to_move && threats >= 2),
        double,
        i32::from(to_move && double > 0 && pos.open[1 - side.index()][1] == 0),
    ]
}

/// The empty squares (at most 4) where a stone of `side` (by index) would be in two of its
/// windows two stones short ([`Mnk::double_four_squares`]): an open four or a double four
/// in the making, which wins unless the opponent can answer with fours of its own. (Two
/// such windows in one line sharing their other empty square make a single four; they
/// are counted too.) 0 on boards without the per-square tables.
fn double_four_squares(pos: &Mnk, side: usize) -> i32 {
    pos.double_four_squares[side].min(4)
}

/// Weight of an open window holding `stones` stones of one side (k-1 is a threat).
#[inline]
pub(super) fn window_weight(stones: usize) -> i32 {
    // 1, 4, 16, 64, ... capped so that the sum over all windows stays far below EVAL_LIMIT.
    1 << (2 * stones.min(7))
}

pub(super) fn evaluate(pos: &Mnk, heuristic: MnkHeuristic) -> i32 {
    let me = pos.to_move.index();
    let them = 1 - me;
    let value = match heuristic {
        MnkHeuristic::Lines => {
            let score = pos.line_score;
            score[me] - score[them]
        }
        MnkHeuristic::Threats if pos.settings.k != FITTED_K => {
            // The hand-set weights: 4 to the power of the stones in an open window, 50
            // more for a threat, and the two bonuses.
            let (score, threats) = (pos.line_score, [pos.threats(me), pos.threats(them)]);
            let mut bonus = 0;
            if threats[0] > 0 {
                bonus += 2000;
            }
            if threats[1] >= 2 {
                bonus -= 1000;
            }
            score[me] - score[them] + 50 * (threats[0] - threats[1]) + bonus
        }
        MnkHeuristic::Threats => {
            let f = side_features(pos, pos.to_move, true);
            let g = side_features(pos, pos.to_move.other(), false);
            let terms: i32 = f
                .iter()
                .zip(g)
                .zip(THREATS_WEIGHTS)
                .map(|((a, b), w)| (a - b) * w)
                .sum();
            terms + THREATS_TEMPO
        }
        MnkHeuristic::Center => {
            let mut total = 0;
            for cell in 0..pos.cells.len() {
                if let Some(side) = pos.stone(cell) {
                    let c = centrality(pos, cell);
                    total += if side.index() == me { c } else { -c };
                }
            }
            total
        }
    };
    value.clamp(-100_000, 100_000)
}

/// How central a square is: larger in the middle, 0 in the corners' reach.
fn centrality(pos: &Mnk, cell: usize) -> i32 {
    let (m, n) = (pos.settings.m as i32, pos.settings.n as i32);
    let (row, col) = (cell as i32 / m, cell as i32 % m);
    let dr = (2 * row - (n - 1)).abs();
    let dc = (2 * col - (m - 1)).abs();
    (m + n) - (dr + dc) / 2
}

/// What a stone on an empty square is worth to the side to move, through one window
/// holding stones of one side only, by the stones that window still misses after it
/// (`[0]`: the stone completes a line).
const ATTACK: [i32; 5] = [1_000_000, 2_000, 120, 12, 2];
/// The same for a window of the opponent's that the stone spoils: `[0]` blocks a line
/// one stone short.
const DEFEND: [i32; 5] = [500_000, 1_600, 90, 8, 1];

/// What one window adds to [`candidate_score`] for the side to move with `own` stones in
/// it against the opponent's `opp`: [`ATTACK`] by the stones it still misses when it holds
/// none of the opponent's, [`DEFEND`] by the stones the opponent misses when it holds none
/// of the side's, else nothing (nor for a full window, which no empty square is in).
pub(super) fn window_candidate_value(own: usize, opp: usize, k: usize) -> i32 {
    if own >= k || opp >= k {
        0
    } else if opp == 0 {
        ATTACK[(k - own - 1).min(ATTACK.len() - 1)]
    } else if own == 0 {
        DEFEND[(k - opp - 1).min(DEFEND.len() - 1)]
    } else {
        0
    }
}

/// How much a stone of the side to move on the empty square `cell` makes of its own
/// windows and spoils of the opponent's: the sum over the windows through it of
/// [`window_candidate_value`], kept current in [`Mnk::candidate`]. Boards that narrow
/// their moves only (over 64 squares).
fn candidate_score(pos: &Mnk, cell: usize) -> i32 {
    pos.candidate[cell][pos.to_move.index()]
}

/// Of the candidate squares `out[from..]`, keeps the ones worth searching, best first:
/// the squares that complete a line if there are any; else the squares that block the
/// opponent's lines one stone short if there are any (every other move loses at once);
/// else, when the opponent can make an open four, every square that meets it
/// ([`open_four_in_the_making`]); else the [`candidates`] squares of the highest
/// [`candidate_score`]. Inexact (the last): for the default search on large boards only.
pub(super) fn keep_candidates(pos: &Mnk, out: &mut Vec<MnkMove>, from: usize) {
    let mut scored: Vec<(i32, MnkMove)> = out[from..]
        .iter()
        .map(|&mv| (candidate_score(pos, mv.0 as usize), mv))
        .collect();
    let order = |&(score, mv): &(i32, MnkMove)| (std::cmp::Reverse(score), mv);
    // Under the exact rule a full window may be an overline, which wins nothing, and an
    // open four's square too: nothing is narrowed by lines there.
    let freestyle = !pos.settings.exact;
    let best = if freestyle { scored.iter().map(|&(s, _)| s).max().unwrap_or(0) } else { 0 };
    if best >= DEFEND[0] {
        let bar = if best >= ATTACK[0] { ATTACK[0] } else { DEFEND[0] };
        scored.retain(|&(s, _)| s >= bar);
    } else if freestyle && open_four_in_the_making(pos, &scored) {
        // Every answer: the others lose, and these are few.
        let (me, them) = (pos.to_move.index(), 1 - pos.to_move.index());
        scored.retain(|&(_, mv)| {
            let t = pos.two_short[mv.0 as usize];
            t[me] > 0 || t[them] > 0
        });
    } else if scored.len() > candidates() {
        scored.select_nth_unstable_by_key(candidates() - 1, order);
        scored.truncate(candidates());
    }
    scored.sort_unstable_by_key(order);
    out.truncate(from);
    out.extend(scored.iter().map(|&(_, mv)| mv));
}

/// Whether [`keep_candidates`] narrows `pos` to the answers to an open four: freestyle,
/// no line one stone short on the board, and an open four in the opponent's making.
#[cfg(test)]
pub(super) fn open_four_answers_apply(pos: &Mnk) -> bool {
    let (me, them) = (pos.to_move.index(), 1 - pos.to_move.index());
    let mut near = Vec::new();
    pos.near_squares(&mut near);
    let near: Vec<(i32, MnkMove)> = near.into_iter().map(|mv| (0, mv)).collect();
    !pos.settings.exact
        && pos.threats(me) == 0
        && pos.threats(them) == 0
        && open_four_in_the_making(pos, &near)
}

/// Whether the opponent (not to move, with no line one stone short) can make an *open
/// four* next move on one of the `near` squares (every square of a window two stones
/// short is near one of its stones): a stone after which two different squares complete
/// `k` in a row. Such a square is in two of the opponent's windows two stones short
/// whose other empty squares differ. Then the squares where a move does not lose to it
/// are those of the opponent's windows two stones short (only a stone there spoils one
/// of the fours it makes) and of the side to move's (a four of its own, which must be
/// answered first), counted by square in [`Mnk::two_short`]: any other move lets the
/// opponent make the open four, and the side to move, with no four, cannot complete a
/// line before it. False for `k` under 3. Freestyle only: under the exact rule a four's
/// square may make an overline.
fn open_four_in_the_making(pos: &Mnk, near: &[(i32, MnkMove)]) -> bool {
    let them = 1 - pos.to_move.index();
    near.iter().any(|&(_, mv)| makes_two_fours(pos, mv.0 as usize, them))
}

/// Whether a stone of `side` (by index) on the empty `square` would make two fours with
/// different squares to complete (an open four, or a double four): the square is in two
/// of `side`'s windows two stones short whose other empty squares differ
/// ([`Mnk::two_short`]). False on boards without the per-square tables and for `k`
/// under 3.
pub(super) fn makes_two_fours(pos: &Mnk, square: usize, side: usize) -> bool {
    let k = pos.settings.k;
    if k < 3 || pos.two_short.get(square).is_none_or(|t| t[side] < 2) {
        return false;
    }
    let g = &pos.geometry;
    // The other empty square of each of the side's windows two short through it.
    let mut first_gap = None;
    g.cell_windows[g.cell_start[square] as usize..g.cell_start[square + 1] as usize]
        .iter()
        .any(|&w| {
            let w = w as usize;
            let c = pos.counts[w];
            if c[side] as usize + 2 != k || c[1 - side] != 0 {
                return false;
            }
            let gap = g.windows[w * k..(w + 1) * k]
                .iter()
                .copied()
                .find(|&x| x as usize != square && pos.cells[x as usize] == 0);
            match first_gap {
                None => {
                    first_gap = gap;
                    false
                }
                Some(first) => gap.is_some_and(|gap| gap != first),
            }
        })
}

/// How many squares [`keep_candidates`] keeps when nothing is forced.
fn candidates() -> usize {
    static WIDTH: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *WIDTH.get_or_init(|| crate::search::knob("MNK_WIDTH", 16).max(1) as usize)
}

pub(super) fn order_hint(pos: &Mnk, mv: MnkMove) -> i32 {
    let cell = mv.0 as usize;
    if pos.cells.len() > super::NEAR_ONLY_ABOVE {
        return candidate_score(pos, cell);
    }
    let (m, n) = (pos.settings.m as isize, pos.settings.n as isize);
    let (row, col) = ((cell as isize) / m, (cell as isize) % m);
    let mut neighbours = 0;
    for dr in -1..=1 {
        for dc in -1..=1 {
            let (r, c) = (row + dr, col + dc);
            if (dr, dc) != (0, 0) && r >= 0 && r < n && c >= 0 && c < m {
                neighbours += (pos.cells[(r * m + c) as usize] != 0) as i32;
            }
        }
    }
    8 * neighbours + centrality(pos, cell)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts windows from scratch (the test oracle of the incremental counts): returns,
    /// per side, the sum of window weights and the open windows by stones missing.
    fn scan_from_scratch(pos: &Mnk) -> ([i32; 2], [[i32; OPEN_BUCKETS]; 2]) {
        let k = pos.settings.k;
        let mut score = [0i32; 2];
        let mut open = [[0i32; OPEN_BUCKETS]; 2];
        for window in pos.geometry.windows.chunks_exact(k) {
            let mut count = [0usize; 3];
            for &cell in window {
                count[pos.cells[cell as usize] as usize] += 1;
            }
            for side in 0..2 {
                let own = count[side + 1];
                if own > 0 && count[2 - side] == 0 {
                    score[side] += window_weight(own);
                    if own < k {
                        open[side][(k - own).min(OPEN_BUCKETS - 1)] += 1;
                    }
                }
            }
        }
        (score, open)
    }

    /// The per-square tables of the boards that narrow their moves, from scratch: stones
    /// within two steps (by the rules of the board, not by the windows), windows two
    /// short by side, and candidate scores summed over the windows.
    fn square_tables_from_scratch(pos: &Mnk) -> (Vec<u8>, Vec<[u8; 2]>, Vec<[i32; 2]>) {
        if pos.cells.len() <= super::super::NEAR_ONLY_ABOVE {
            return (Vec::new(), Vec::new(), Vec::new());
        }
        let (m, n, k) = (pos.settings.m, pos.settings.n, pos.settings.k);
        let near = (0..m * n)
            .map(|cell| {
                let (r, c) = ((cell / m) as isize, (cell % m) as isize);
                (0..m * n)
                    .filter(|&x| {
                        let (xr, xc) = ((x / m) as isize, (x % m) as isize);
                        pos.cells[x] != 0 && (xr - r).abs() <= 2 && (xc - c).abs() <= 2
                    })
                    .count() as u8
            })
            .collect();
        let mut two_short = vec![[0u8; 2]; m * n];
        let mut candidate = vec![[0i32; 2]; m * n];
        for window in pos.geometry.windows.chunks_exact(k) {
            let mut count = [0usize; 2];
            for &cell in window {
                if let Some(side) = pos.stone(cell as usize) {
                    count[side.index()] += 1;
                }
            }
            for &cell in window {
                for side in 0..2 {
                    if k > 2 && count[side] + 2 == k && count[1 - side] == 0 {
                        two_short[cell as usize][side] += 1;
                    }
                    candidate[cell as usize][side] +=
                        window_candidate_value(count[side], count[1 - side], k);
                }
            }
        }
        (near, two_short, candidate)
    }

    #[test]
    fn incremental_line_statistics_match_a_full_scan() {
        for (m, n, k) in [(3, 3, 3), (5, 5, 4), (7, 6, 4), (4, 4, 1), (9, 9, 5), (15, 15, 5)] {
            let mut pos = Mnk::start(&MnkSettings::new(m, n, k));
            let mut state = (m * 100 + n * 10 + k) as u64;
            let mut stack = Vec::new();
            let tables =
                |pos: &Mnk| (pos.near.clone(), pos.two_short.clone(), pos.candidate.clone());
            let doubles = |pos: &Mnk| {
                let t = pos.two_short.iter().zip(&pos.cells).filter(|&(_, &c)| c == 0);
                [0, 1].map(|side| t.clone().filter(|(t, _)| t[side] >= 2).count() as i32)
            };
            loop {
                assert_eq!(scan_from_scratch(&pos), (pos.line_score, pos.open));
                assert_eq!(square_tables_from_scratch(&pos), tables(&pos));
                assert_eq!(doubles(&pos), pos.double_four_squares);
                let mut moves = Vec::new();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let (next, r) = crate::zobrist::splitmix64(state);
                state = next;
                let mv = moves[(r % moves.len() as u64) as usize];
                pos.make_move(mv);
                stack.push(mv);
            }
            while let Some(mv) = stack.pop() {
                pos.unmake_move(mv, ());
                assert_eq!(scan_from_scratch(&pos), (pos.line_score, pos.open));
                assert_eq!(square_tables_from_scratch(&pos), tables(&pos));
                assert_eq!(doubles(&pos), pos.double_four_squares);
            }
        }
    }
    use crate::game::Game;
    use crate::games::mnk::MnkSettings;

    #[test]
    fn threats_favour_the_side_that_can_complete_them() {
        let s = MnkSettings::new(3, 3, 3);
        // x: a1 b1 (threat on c1); o: a3. o to move must block.
        let pos = Mnk::parse_position(&s, "o2/3/xx1 o").unwrap();
        assert!(evaluate(&pos, MnkHeuristic::Threats) < 0);
        // Both have a threat, x to move: x completes first.
        let pos = Mnk::parse_position(&s, "oo1/3/xx1 x").unwrap();
        assert!(evaluate(&pos, MnkHeuristic::Threats) > 0);
    }
}
