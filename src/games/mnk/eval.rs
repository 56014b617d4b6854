//! m,n,k heuristics. Every window of k squares in a line that holds stones of one side
//! only is a potential line for that side; the more stones it holds, the more it is worth.

use super::{Mnk, MnkMove};

/// The named m,n,k heuristics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MnkHeuristic {
    /// Open windows weighted by stones, with extra weight for threats (k-1 in an open
    /// window) and a bonus for the side to move, which completes its threat first.
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
        MnkHeuristic::Threats => {
            let (score, threats) = (pos.line_score, pos.threats);
            let base = score[me] - score[them];
            // The side to move with a threat wins next move; two enemy threats cannot
            // both be blocked. Neither is proven here (search will), so these are bonuses.
            let mut bonus = 0;
            if threats[me] > 0 {
                bonus += 2000;
            }
            if threats[them] >= 2 {
                bonus -= 1000;
            }
            base + 50 * (threats[me] - threats[them]) + bonus
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

    /// Counts windows from scratch (the test oracle of the incremental counts): returns, per side, the sum of window weights and the number of threats.
    fn scan_from_scratch(pos: &Mnk) -> ([i32; 2], [i32; 2]) {
        let k = pos.settings.k;
        let mut score = [0i32; 2];
        let mut threats = [0i32; 2];
        for window in pos.geometry.windows.chunks_exact(k) {
            let mut count = [0usize; 3];
            for &cell in window {
                count[pos.cells[cell as usize] as usize] += 1;
            }
            for side in 0..2 {
                let own = count[side + 1];
                if own > 0 && count[2 - side] == 0 {
                    score[side] += window_weight(own);
                    if own + 1 == k {
                        threats[side] += 1;
                    }
                }
            }
        }
        (score, threats)
    }

    #[test]
    fn incremental_line_statistics_match_a_full_scan() {
        for (m, n, k) in [(3, 3, 3), (5, 5, 4), (7, 6, 4), (4, 4, 1), (9, 9, 5)] {
            let mut pos = Mnk::start(&MnkSettings { m, n, k });
            let mut state = (m * 100 + n * 10 + k) as u64;
            let mut stack = Vec::new();
            loop {
                assert_eq!(scan_from_scratch(&pos), (pos.line_score, pos.threats));
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
                assert_eq!(scan_from_scratch(&pos), (pos.line_score, pos.threats));
            }
        }
    }
    use crate::game::Game;
    use crate::games::mnk::MnkSettings;

    #[test]
    fn threats_favour_the_side_that_can_complete_them() {
        let s = MnkSettings { m: 3, n: 3, k: 3 };
        // x: a1 b1 (threat on c1); o: a3. o to move must block.
        let pos = Mnk::parse_position(&s, "o2/3/xx1 o").unwrap();
        assert!(evaluate(&pos, MnkHeuristic::Threats) < 0);
        // Both have a threat, x to move: x completes first.
        let pos = Mnk::parse_position(&s, "oo1/3/xx1 x").unwrap();
        assert!(evaluate(&pos, MnkHeuristic::Threats) > 0);
    }
}
