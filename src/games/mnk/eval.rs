//! m,n,k heuristics. Every window of k squares in a line that holds stones of one side
//! only is a potential line for that side; the more stones it holds, the more it is worth.

use super::{Mnk, MnkMove, MAX_CELLS};
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

/// What a stone on an empty square is worth to the side to move, through one window
/// holding stones of one side only, by the stones that window still misses after it
/// (`[0]`: the stone completes a line).
const ATTACK: [i32; 5] = [1_000_000, 2_000, 120, 12, 2];
/// The same for a window of the opponent's that the stone spoils: `[0]` blocks a line
/// one stone short.
const DEFEND: [i32; 5] = [500_000, 1_600, 90, 8, 1];

/// How much a stone of the side to move on the empty square `cell` makes of its own
/// windows and spoils of the opponent's: the sum over the windows through it of
/// [`ATTACK`] and [`DEFEND`] by the stones each still misses. A window with both
/// sides' stones counts nothing.
fn candidate_score(pos: &Mnk, cell: usize) -> i32 {
    let (me, them) = (pos.to_move.index(), 1 - pos.to_move.index());
    let k = pos.settings.k;
    let g = &pos.geometry;
    let mut score = 0;
    for &w in &g.cell_windows[g.cell_start[cell] as usize..g.cell_start[cell + 1] as usize] {
        let c = pos.counts[w as usize];
        let (own, opp) = (c[me] as usize, c[them] as usize);
        if opp == 0 {
            score += ATTACK[(k - own - 1).min(ATTACK.len() - 1)];
        } else if own == 0 {
            score += DEFEND[(k - opp - 1).min(DEFEND.len() - 1)];
        }
    }
    score
}

/// Of the candidate squares `out[from..]`, keeps the ones worth searching, best first:
/// the squares that complete a line if there are any; else the squares that block the
/// opponent's lines one stone short if there are any (every other move loses at once);
/// else, when the opponent can make an open four, every square that meets it
/// ([`open_four_answers`]); else the [`candidates`] squares of the highest
/// [`candidate_score`]. Inexact (the last): for the default search on large boards only.
pub(super) fn keep_candidates(pos: &Mnk, out: &mut Vec<MnkMove>, from: usize) {
    let mut scored: Vec<(i32, MnkMove)> = out[from..]
        .iter()
        .map(|&mv| (candidate_score(pos, mv.0 as usize), mv))
        .collect();
    scored.sort_by_key(|&(score, mv)| (std::cmp::Reverse(score), mv));
    // Under the exact rule a full window may be an overline, which wins nothing, and an
    // open four's square too: nothing is narrowed by lines there.
    let freestyle = !pos.settings.exact;
    let best = if freestyle { scored.first().map_or(0, |&(s, _)| s) } else { 0 };
    let keep = if best >= ATTACK[0] {
        scored.iter().take_while(|&&(s, _)| s >= ATTACK[0]).count()
    } else if best >= DEFEND[0] {
        scored.iter().take_while(|&&(s, _)| s >= DEFEND[0]).count()
    } else if let Some(answers) = open_four_answers(pos).filter(|_| freestyle) {
        // Every answer: the others lose, and these are few.
        scored.retain(|&(_, mv)| answers[mv.0 as usize]);
        scored.len()
    } else {
        candidates().min(scored.len())
    };
    out.truncate(from);
    out.extend(scored[..keep].iter().map(|&(_, mv)| mv));
}

/// Whether [`keep_candidates`] narrows `pos` to the answers to an open four: freestyle,
/// no line one stone short on the board, and an open four in the opponent's making.
#[cfg(test)]
pub(super) fn open_four_answers_apply(pos: &Mnk) -> bool {
    let (me, them) = (pos.to_move.index(), 1 - pos.to_move.index());
    !pos.settings.exact
        && pos.threats(me) == 0
        && pos.threats(them) == 0
        && open_four_answers(pos).is_some()
}

/// When the opponent (not to move, with no line one stone short) can make an *open
/// four* next move (a stone after which two different squares complete `k` in a row),
/// the squares where a move does not lose to it, marked by square: those of the
/// opponent's windows two stones short (only a stone there spoils one of the fours it
/// makes) and of the side to move's (a four of its own, which must be answered first).
/// Any other move lets the opponent make the open four, and the side to move, with no
/// four, cannot complete a line before it. `None` when the opponent has no such square
/// (and for `k` under 3). Freestyle only: under the exact rule a four's square may make
/// an overline.
fn open_four_answers(pos: &Mnk) -> Option<[bool; MAX_CELLS]> {
    let (me, them) = (pos.to_move.index(), 1 - pos.to_move.index());
    let k = pos.settings.k;
    if k < 3 {
        return None;
    }
    // The opponent's squares seen in its windows two short, with the other empty square
    // of the first such window.
    let mut seen: Vec<(u16, u16)> = Vec::new();
    let mut open_four = false;
    let mut answers = [false; MAX_CELLS];
    for (w, window) in pos.geometry.windows.chunks_exact(k).enumerate() {
        let c = pos.counts[w];
        let side = if c[them] as usize + 2 == k && c[me] == 0 {
            them
        } else if c[me] as usize + 2 == k && c[them] == 0 {
            me
        } else {
            continue;
        };
        let mut empty = window.iter().copied().filter(|&x| pos.cells[x as usize] == 0);
        let (Some(a), Some(b)) = (empty.next(), empty.next()) else {
            continue;
        };
        answers[a as usize] = true;
        answers[b as usize] = true;
        if side == them && !open_four {
            for (square, gap) in [(a, b), (b, a)] {
                match seen.iter().find(|&&(s, _)| s == square) {
                    None => seen.push((square, gap)),
                    Some(&(_, first)) => open_four |= first != gap,
                }
            }
        }
    }
    open_four.then_some(answers)
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
