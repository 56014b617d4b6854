//! m,n,k heuristics. Every window of k squares in a line that holds stones of one side
//! only is a potential line for that side; the more stones it holds, the more it is worth.

use super::{Mnk, MnkMove};
use crate::game::Side;

/// The named m,n,k heuristics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MnkHeuristic {
    /// Open windows counted by the stones they still miss (threats: one), a bonus for a
    /// threat with the move and for two threats, and a tempo; for five in a row with
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
pub const FEATURES: usize = 6;

/// What each feature counts, for one side (printed by the refit in `tune.rs`).
#[cfg_attr(not(test), allow(dead_code))]
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "open windows one short (threats)",
    "open windows two short",
    "open windows three short",
    "open windows four or more short",
    "a threat, to move",
    "two or more threats, not to move",
];

/// The k the weights of `threats` were fitted for; other k keep the hand-set weights
/// (fitted by missing stones, they lost 46.8% on 7x7 k = 4).
pub const FITTED_K: usize = 5;

/// The weights of `threats` for five in a row, fitted by `tune.rs` to self-play games on
/// 15x15 and 9x9. A threat with the move wins next move and two threats cannot both be
/// blocked: the search proves both ([`crate::game::Game::forced`]); these weights are for
/// the plain searchers and the leaves where the proof does not apply.
pub const THREATS_WEIGHTS: [i32; FEATURES] = [241, 123, 33, 4, 2802, 819];
/// Bonus of the side to move in `threats`.
pub const THREATS_TEMPO: i32 = 147;

/// The features of `side` (see [`FEATURE_NAMES`]); `to_move` when it is that side's turn.
pub fn side_features(pos: &Mnk, side: Side, to_move: bool) -> [i32; FEATURES] {
    let open = &pos.open[side.index()];
    let threats = open[1];
    [
        threats,
        open[2],
        open[3],
        open[4],
        i32::from(to_move && threats > 0),
        i32::from(!to_move && threats >= 2),
    ]
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

pub(super) fn order_hint(pos: &Mnk, mv: MnkMove) -> i32 {
    let cell = mv.0 as usize;
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

    #[test]
    fn incremental_line_statistics_match_a_full_scan() {
        for (m, n, k) in [(3, 3, 3), (5, 5, 4), (7, 6, 4), (4, 4, 1), (9, 9, 5)] {
            let mut pos = Mnk::start(&MnkSettings::new(m, n, k));
            let mut state = (m * 100 + n * 10 + k) as u64;
            let mut stack = Vec::new();
            loop {
                assert_eq!(scan_from_scratch(&pos), (pos.line_score, pos.open));
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
