//! Victory by continuous fours (VCF), the gomoku player's and engine's first proof: the
//! attacker plays only *fours* (moves after which one more stone makes `k` in a row),
//! each of which the defender must block on its one square, until a move makes two
//! fours at once (two squares to block) or `k` in a row. Every defence is forced, so a
//! VCF found is a proof of a win; not finding one proves nothing. Allis's threat-space
//! search (L. V. Allis, *Searching for Solutions in Games and Artificial Intelligence*,
//! 1994, chapter 6) is its generalisation to threes.
//!
//! The rules of the search, from the attacker's side:
//! - a window one stone short of `k` (a four) of the attacker on move wins at once;
//! - a four of the defender must be blocked first: the attacker's only move is its
//!   square, and only when that move is a four itself (two fours of the defender: no
//!   VCF);
//! - the defender answers a four on its square; a block that makes `k` in a row for the
//!   defender ends the line.
//!
//! Freestyle only (`k` or more in a row wins): under the exact rule a four's square may
//! make an overline, which the windows do not see.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use fxhash::FxHashMap;

use super::{Mnk, MnkMove};
use crate::game::{Game, Outcome};

/// Fours the attacker may play in a row at most (plies: twice as many).
pub const MAX_FOURS: u32 = 24;

/// A VCF search with its table of positions shown to have none.
pub struct Vcf {
    /// `hash -> fours`: no VCF of at most that many fours from the position (the side
    /// to move attacking).
    failed: FxHashMap<u64, u32>,
    /// `hash -> (threes, fours)`: no VCT within those ([`super::vct`]).
    pub(super) failed_vct: FxHashMap<u64, (u32, u32)>,
    pub(super) nodes: u64,
    pub(super) node_limit: Option<u64>,
    pub(super) deadline: Option<Instant>,
    pub(super) cut: bool,
}

/// Stones of `side` (0 or 1) in window `w` and of the other side.
#[inline]
fn counts(pos: &Mnk, w: usize, side: usize) -> (usize, usize) {
    let c = pos.counts[w];
    (c[side] as usize, c[1 - side] as usize)
}

/// The empty squares that would give `side` k in a row (its fours' squares), distinct,
/// at most `cap` of them.
pub(super) fn winning_squares(pos: &Mnk, side: usize, cap: usize, out: &mut Vec<u16>) {
    out.clear();
    if pos.threats(side) == 0 {
        return;
    }
    let windows = pos.geometry.windows.len() / pos.settings.k;
    gaps_of_fours(pos, 0..windows, side, cap, out);
}

/// The same among the windows through `cell`, at most 2: all of them when `side` had no
/// four before its stone on `cell`.
fn squares_through(pos: &Mnk, cell: u16, side: usize, out: &mut Vec<u16>) {
    out.clear();
    let g = &pos.geometry;
    let range = g.cell_start[cell as usize] as usize..g.cell_start[cell as usize + 1] as usize;
    gaps_of_fours(pos, g.cell_windows[range].iter().map(|&w| w as usize), side, 2, out);
}

/// Appends to `out` the distinct empty squares of those of `windows` that hold `k - 1`
/// stones of `side` and none of the other's, until it holds `cap`.
fn gaps_of_fours(
    pos: &Mnk,
    windows: impl Iterator<Item = usize>,
    side: usize,
    cap: usize,
    out: &mut Vec<u16>,
) {
    let k = pos.settings.k;
    for w in windows {
        let (own, other) = counts(pos, w, side);
        if own + 1 != k || other != 0 {
            continue;
        }
        let window = &pos.geometry.windows[w * k..(w + 1) * k];
        if let Some(&gap) = window.iter().find(|&&c| pos.cells[c as usize] == 0) {
            if !out.contains(&gap) {
                out.push(gap);
                if out.len() >= cap {
                    return;
                }
            }
        }
    }
}

impl Vcf {
    /// A search with an empty table.
    pub fn new() -> Vcf {
        Vcf {
            failed: FxHashMap::default(),
            failed_vct: FxHashMap::default(),
            nodes: 0,
            node_limit: None,
            deadline: None,
            cut: false,
        }
    }

    /// Nodes (positions with the attacker to move) searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last search ended at a limit (its "none found" then proves less).
    pub fn was_cut(&self) -> bool {
        self.cut
    }

    /// A move of the side to move that starts a VCF of at most `fours` fours, if one is
    /// found before the limits: `nodes` more nodes, the `deadline`, the `stop` flag.
    /// `None` for positions the search does not apply to (a finished game, the exact
    /// rule, `k` under 3).
    pub fn find(
        &mut self,
        pos: &Mnk,
        fours: u32,
        nodes: Option<u64>,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Option<MnkMove> {
        self.cut = false;
        if pos.outcome().is_some() || pos.settings.exact || pos.settings.k < 3 {
            return None;
        }
        self.node_limit = nodes.map(|n| self.nodes + n);
        self.deadline = deadline;
        if self.failed.len() > 1 << 20 {
            self.failed.clear();
        }
        let mut work = pos.clone();
        self.attack(&mut work, fours, stop).map(MnkMove)
    }

    /// Whether the side *not* to move has a VCF here (as if the side to move passed).
    pub fn threatened(
        &mut self,
        pos: &Mnk,
        fours: u32,
        nodes: Option<u64>,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> bool {
        let mut passed = pos.clone();
        passed.to_move = passed.to_move.other();
        passed.rehash();
        self.find(&passed, fours, nodes, deadline, stop).is_some()
    }

    pub(super) fn out_of_budget(&mut self, stop: &AtomicBool) -> bool {
        if self.cut {
            return true;
        }
        let over = self.node_limit.is_some_and(|n| self.nodes >= n)
            || (self.nodes.is_multiple_of(1024)
                && (stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d)));
        self.cut = over;
        over
    }

    /// The attacker's (side to move's) first move of a VCF of at most `fours` fours.
    fn attack(&mut self, pos: &mut Mnk, fours: u32, stop: &AtomicBool) -> Option<u16> {
        self.nodes += 1;
        let me = pos.to_move.index();
        let them = 1 - me;
        let mut squares = Vec::new();
        // k in a row now.
        winning_squares(pos, me, 1, &mut squares);
        if let Some(&c) = squares.first() {
            return Some(c);
        }
        if fours == 0 || self.out_of_budget(stop) {
            return None;
        }
        let hash = pos.hash();
        if self.failed.get(&hash).is_some_and(|&f| f >= fours) {
            return None;
        }
        // The defender's fours: one must be blocked by a four, two cannot be.
        winning_squares(pos, them, 2, &mut squares);
        let forced = match squares.as_slice() {
            [] => None,
            [one] => Some(*one),
            _ => {
                self.failed.insert(hash, fours);
                return None;
            }
        };
        let candidates = self.four_moves(pos, me, forced);
        let mut gaps = Vec::new();
        for c in candidates {
            let mv = MnkMove(c);
            pos.place(mv, false);
            // The attacker had no four before (it would have won), so its fours now
            // all run through the stone just played.
            squares_through(pos, c, me, &mut gaps);
            let found = match gaps.as_slice() {
                // Not a four after all (cannot happen: the candidates are fours).
                [] => false,
                // Two squares to block: the defender, with no four of its own (it was
                // blocked, or there was none), cannot.
                [_, _, ..] => true,
                [gap] => {
                    let block = MnkMove(*gap);
                    pos.place(block, false);
                    let found = match pos.outcome() {
                        Some(Outcome::Win(_)) => false,
                        Some(Outcome::Draw) => false,
                        None => self.attack(pos, fours - 1, stop).is_some(),
                    };
                    pos.take_back(block, false);
                    found
                }
            };
            pos.take_back(mv, false);
            if found {
                return Some(c);
            }
            if self.cut {
                return None;
            }
        }
        if !self.cut {
            self.failed.insert(hash, fours);
        }
        None
    }

    /// The attacker's fours: empty squares of windows holding `k - 2` of its stones and
    /// none of the defender's; only `forced` when the defender has a four to block. Those
    /// in two such windows (a double four, or a four and more) come first.
    fn four_moves(&self, pos: &Mnk, me: usize, forced: Option<u16>) -> Vec<u16> {
        let k = pos.settings.k;
        let mut list: Vec<(u16, u32)> = Vec::new();
        if !pos.two_short.is_empty() {
            // Counted by square already (`Mnk::two_short`).
            let mut list: Vec<(u16, u32)> = match forced {
                Some(f) => vec![(f, u32::from(pos.two_short[f as usize][me]))],
                None => (0..pos.cells.len() as u16).map(|c| (c, u32::from(pos.two_short[c as usize][me]))).collect(),
            };
            list.retain(|&(c, n)| n > 0 && pos.cells[c as usize] == 0);
            list.sort_unstable_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
            return list.into_iter().map(|(c, _)| c).collect();
        }
        for (w, window) in pos.geometry.windows.chunks_exact(k).enumerate() {
            let (own, other) = counts(pos, w, me);
            if own + 2 != k || other != 0 {
                continue;
            }
            for &c in window {
                if pos.cells[c as usize] == 0 && forced.is_none_or(|f| f == c) {
                    match list.iter_mut().find(|(square, _)| *square == c) {
                        Some((_, n)) => *n += 1,
                        None => list.push((c, 1)),
                    }
                }
            }
        }
        list.sort_unstable_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
        list.into_iter().map(|(c, _)| c).collect()
    }
}

impl Default for Vcf {
    fn default() -> Self {
        Vcf::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mnk::MnkSettings;

    /// A 15x15 position from its rows, given from row 15 (the top) down as positions
    /// are written; rows not named are empty.
    fn board(rows: &[(u32, &str)], to_move: char) -> Mnk {
        let mut lines = vec!["15".to_string(); 15];
        for &(row, text) in rows {
            lines[15 - row as usize] = text.to_string();
        }
        let text = format!("{} {to_move}", lines.join("/"));
        Mnk::parse_position(&MnkSettings::new(15, 15, 5), &text).unwrap()
    }

    fn find(pos: &Mnk) -> Option<String> {
        let stop = AtomicBool::new(false);
        Vcf::new()
            .find(pos, MAX_FOURS, Some(1_000_000), None, &stop)
            .map(|mv| pos.format_move(mv))
    }

    /// Plays a VCF out against every defence the rules leave (a four must be blocked on
    /// its square, unless the defender makes k in a row first, which must not be
    /// possible) and checks by the rules that the attacker wins.
    fn verify(start: &Mnk) {
        let stop = AtomicBool::new(false);
        let attacker = start.side_to_move();
        let (a, d) = (attacker.index(), 1 - attacker.index());
        let mut pos = start.clone();
        let mut gaps = Vec::new();
        for _ in 0..=MAX_FOURS {
            let mv = Vcf::new()
                .find(&pos, MAX_FOURS, Some(1_000_000), None, &stop)
                .unwrap_or_else(|| panic!("the VCF goes on: {}", pos.format_position()));
            pos.make_move(mv);
            if pos.outcome() == Some(Outcome::Win(attacker)) {
                return;
            }
            assert!(pos.outcome().is_none());
            winning_squares(&pos, d, 1, &mut gaps);
            assert!(gaps.is_empty(), "the defender wins first: {}", pos.format_position());
            winning_squares(&pos, a, 2, &mut gaps);
            match gaps.as_slice() {
                [one] => pos.make_move(MnkMove(*one)),
                [first, ..] => {
                    // Two squares: after either block the other wins.
                    pos.make_move(MnkMove(*first));
                    winning_squares(&pos, a, 1, &mut gaps);
                    assert!(!gaps.is_empty(), "a double four wins after any block");
                    return;
                }
                [] => panic!("a VCF move that is no four: {}", pos.format_position()),
            }
            assert!(pos.outcome().is_none(), "the block made five");
        }
        panic!("no win within {MAX_FOURS} fours");
    }

    #[test]
    fn a_four_wins_at_once_and_an_open_three_in_one_more() {
        // x: b1 c1 d1 e1, a four: a1 or f1 wins at once (o's own four on row 15 comes
        // too late).
        let pos = board(&[(1, "1xxxx10"), (15, "oooo11")], 'x');
        let mv = find(&pos).unwrap();
        assert!(mv == "a1" || mv == "f1", "{mv}");
        // x: h5 h6 h7, an open three: h4 or h8 makes an open four (two squares).
        let pos = board(&[(5, "7x7"), (6, "7x7"), (7, "7x7"), (15, "o1o1o10")], 'x');
        let mv = find(&pos).unwrap();
        assert!(["h4", "h8", "h3", "h9"].contains(&mv.as_str()), "{mv}");
        verify(&pos);
    }

    #[test]
    fn a_double_four_is_found_and_wins() {
        // x: c3 d3 e3 closed by o on b3, and f5 f6 f7 closed by o on f8. f3 is a four on
        // row 3 (g3) and on column f (f4) at once: o cannot block both. Found by hand.
        let pos = board(
            &[
                (3, "1oxxx10"),
                (5, "5x9"),
                (6, "5x9"),
                (7, "5x9"),
                (8, "5o9"),
                (15, "o1o1o1o8"),
            ],
            'x',
        );
        assert_eq!(find(&pos).as_deref(), Some("f3"));
        verify(&pos);
    }

    #[test]
    fn no_vcf_without_fours_or_past_a_defenders_four() {
        // A lone stone each: nothing.
        assert_eq!(find(&board(&[(8, "7x6o")], 'x')), None);
        // x has an open three, but o has a four that x must block with a move that is
        // no four of x's: no VCF.
        let pos = board(&[(3, "2xxx10"), (10, "oooo11"), (12, "x14")], 'x');
        assert_eq!(find(&pos), None);
        // Two fours of o: x cannot block both.
        let pos = board(
            &[
                (1, "x1x1x10"),
                (3, "2xxx10"),
                (10, "oooo11"),
                (12, "xx13"),
                (13, "5oooo6"),
            ],
            'x',
        );
        assert_eq!(find(&pos), None);
    }

    #[test]
    fn the_exact_rule_is_not_searched() {
        let s = MnkSettings {
            exact: true,
            ..MnkSettings::new(15, 15, 5)
        };
        let lines = ["15"; 14].join("/");
        let pos = Mnk::parse_position(&s, &format!("{lines}/1xxxx5oooo1 x")).unwrap();
        let stop = AtomicBool::new(false);
        assert_eq!(Vcf::new().find(&pos, MAX_FOURS, None, None, &stop), None);
    }

    /// Random games near the centre of 15x15: every VCF found is a win by the rules,
    /// and on 8x8 (small enough for the exact threat solver, an independent oracle)
    /// every position with a VCF is a proved win.
    #[test]
    fn every_vcf_found_is_a_win_by_the_rules_and_by_the_solver() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |bound: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % bound as u64) as usize
        };
        let stop = AtomicBool::new(false);
        let (mut found, mut solved) = (0, 0);
        for game in 0..40 {
            let found_before = found;
            let (size, centre) = if game % 2 == 0 { (15, 7) } else { (8, 0) };
            let s = MnkSettings::new(size, size, 5);
            let mut pos = Mnk::start(&s);
            for _ in 0..30 {
                if pos.outcome().is_some() {
                    break;
                }
                // Stones in the middle 7x7 on 15x15, anywhere on 8x8.
                let span = if size == 15 { 7 } else { 8 };
                let mv = loop {
                    let (r, c) = (centre / 2 + next(span), centre / 2 + next(span));
                    let cell = r * size + c;
                    if pos.cells[cell] == 0 {
                        break MnkMove(cell as u16);
                    }
                };
                pos.make_move(mv);
                if pos.outcome().is_some() {
                    break;
                }
                let Some(_) = Vcf::new().find(&pos, MAX_FOURS, Some(200_000), None, &stop) else {
                    continue;
                };
                found += 1;
                verify(&pos);
                if found - found_before >= 3 {
                    // Random play past a won position proves little more.
                    break;
                }
                if size == 8 {
                    use crate::games::mnk::solve::{Solver, Value};
                    let mut solver = Solver::<u64>::new(&pos).unwrap();
                    solver.set_memory_limit(crate::memory::mib(64));
                    let deadline = Instant::now() + std::time::Duration::from_millis(200);
                    solver.set_limits(Some(deadline), None);
                    if let Ok(solution) = solver.solve(&pos, &stop) {
                        assert_eq!(solution.value, Value::Win, "{}", pos.format_position());
                        solved += 1;
                    }
                }
            }
        }
        assert!(found >= 20, "only {found} positions with a VCF: the test proves little");
        assert!(solved >= 5, "only {solved} of them solved on 8x8");
    }
}
