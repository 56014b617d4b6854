//! Victory by continuous threats (VCT): the VCF ([`super::vcf`]) with *threes* as well,
//! Allis's threat-space search (L. V. Allis, *Searching for Solutions in Games and
//! Artificial Intelligence*, 1994, chapter 6) as gomoku engines play it. A *three* here
//! is a move after which the attacker, with no four on the board, can make two fours at
//! once next move (an open four, or a double four: see `eval::makes_two_fours`).
//!
//! The defences, from the rules alone:
//! - against a four, its one square (a four of the defender's own ends the search: the
//!   defender would complete it first);
//! - against a three, with no four on the board, every square of the attacker's windows
//!   two stones short (the only squares that spoil one of the fours to come) and of the
//!   defender's (a four of its own, which the attacker must answer first); any other
//!   move lets the attacker make its two fours, which win. The same rule narrows the
//!   default search's moves (test `the_squares_left_out_against_an_open_four_all_lose`).
//!
//! A VCT is found only if it wins against every one of those defences, so it is a proof
//! of a win; not finding one proves nothing. Freestyle boards with the per-square tables
//! (over 64 squares) only.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::eval::makes_two_fours;
use super::vcf::{winning_squares, Vcf, MAX_FOURS};
use super::{Mnk, MnkMove};
use crate::game::{Game, Outcome};

/// Threes the attacker may play in one line at most.
pub const MAX_THREES: u32 = 3;

impl Vcf {
    /// A move of the side to move that starts a VCT of at most `threes` threes (and
    /// [`MAX_FOURS`] fours), if one is found before the limits (as [`Vcf::find`]). `None`
    /// for positions the search does not apply to: a finished game, the exact rule, a
    /// board without the per-square tables.
    pub fn find_vct(
        &mut self,
        pos: &Mnk,
        threes: u32,
        nodes: Option<u64>,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Option<MnkMove> {
        self.cut = false;
        if pos.outcome().is_some() || pos.settings.exact || pos.two_short.is_empty() {
            return None;
        }
        self.node_limit = nodes.map(|n| self.nodes + n);
        self.deadline = deadline;
        if self.failed_vct.len() > 1 << 20 {
            self.failed_vct.clear();
        }
        let mut work = pos.clone();
        self.vct_attack(&mut work, threes, MAX_FOURS, stop).map(MnkMove)
    }

    /// Whether the side *not* to move has a VCT here (as if the side to move passed).
    pub fn vct_threatened(
        &mut self,
        pos: &Mnk,
        threes: u32,
        nodes: Option<u64>,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> bool {
        let mut passed = pos.clone();
        passed.to_move = passed.to_move.other();
        passed.rehash();
        self.find_vct(&passed, threes, nodes, deadline, stop).is_some()
    }

    /// The attacker's (side to move's) first move of a VCT.
    fn vct_attack(&mut self, pos: &mut Mnk, threes: u32, fours: u32, stop: &AtomicBool) -> Option<u16> {
        self.nodes += 1;
        let me = pos.to_move.index();
        let mut squares = Vec::new();
        winning_squares(pos, me, 1, &mut squares);
        if let Some(&c) = squares.first() {
            return Some(c);
        }
        if fours == 0 || self.out_of_budget(stop) {
            return None;
        }
        let hash = pos.hash();
        if self.failed_vct.get(&hash).is_some_and(|&(t, f)| t >= threes && f >= fours) {
            return None;
        }
        // The defender's fours: one must be blocked, two cannot be.
        winning_squares(pos, 1 - me, 2, &mut squares);
        let candidates = match squares.as_slice() {
            [] => threat_moves(pos, me, threes > 0),
            [one] => vec![*one],
            _ => {
                self.failed_vct.insert(hash, (threes, fours));
                return None;
            }
        };
        for c in candidates {
            pos.place(MnkMove(c), false);
            let won = self.vct_defend(pos, threes, fours, stop);
            pos.take_back(MnkMove(c), false);
            if won {
                return Some(c);
            }
            if self.cut {
                return None;
            }
        }
        if !self.cut {
            self.failed_vct.insert(hash, (threes, fours));
        }
        None
    }

    /// Whether the attacker, who just moved, wins against every defence the rules leave
    /// (see the module doc); the defender is to move.
    fn vct_defend(&mut self, pos: &mut Mnk, threes: u32, fours: u32, stop: &AtomicBool) -> bool {
        match pos.outcome() {
            Some(Outcome::Win(_)) => return true,
            Some(Outcome::Draw) => return false,
            None => {}
        }
        let defender = pos.to_move.index();
        let attacker = 1 - defender;
        let mut squares = Vec::new();
        winning_squares(pos, defender, 1, &mut squares);
        if !squares.is_empty() {
            return false;
        }
        winning_squares(pos, attacker, 2, &mut squares);
        let defences: Vec<u16> = match squares.as_slice() {
            [_, _, ..] => return true,
            [one] => vec![*one],
            [] if threes == 0 => return false,
            [] => {
                let empty = |x: usize| pos.cells[x] == 0;
                if !(0..pos.cells.len()).any(|x| empty(x) && makes_two_fours(pos, x, attacker)) {
                    return false;
                }
                (0..pos.cells.len())
                    .filter(|&x| {
                        let t = pos.two_short[x];
                        empty(x) && (t[attacker] > 0 || t[defender] > 0)
                    })
                    .map(|x| x as u16)
                    .collect()
            }
        };
        // Against a four the block costs a four; against a three, a three.
        let (threes, fours) = if squares.is_empty() { (threes - 1, fours) } else { (threes, fours - 1) };
        for d in defences {
            pos.place(MnkMove(d), false);
            let won = pos.outcome().is_none() && self.vct_attack(pos, threes, fours, stop).is_some();
            pos.take_back(MnkMove(d), false);
            if !won {
                return false;
            }
        }
        true
    }
}

/// The attacker's threats, fours first (the squares of its windows two stones short, in
/// two or more such windows first), then, with `threes`, the squares of its windows three
/// stones short after which it can make two fours at once.
fn threat_moves(pos: &mut Mnk, me: usize, threes: bool) -> Vec<u16> {
    let k = pos.settings.k;
    let cells = pos.cells.len();
    let mut fours: Vec<(u16, u8)> = (0..cells)
        .filter(|&c| pos.cells[c] == 0 && pos.two_short[c][me] > 0)
        .map(|c| (c as u16, pos.two_short[c][me]))
        .collect();
    fours.sort_unstable_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
    let mut moves: Vec<u16> = fours.into_iter().map(|(c, _)| c).collect();
    if !threes || k < 4 {
        return moves;
    }
    // Squares of windows holding k - 3 of the attacker's stones and none of the other's,
    // by how many such windows they are in.
    let mut seen = vec![0u8; cells];
    for (w, window) in pos.geometry.windows.chunks_exact(k).enumerate() {
        let c = pos.counts[w];
        if c[me] as usize + 3 == k && c[1 - me] == 0 {
            for &x in window {
                if pos.cells[x as usize] == 0 && pos.two_short[x as usize][me] == 0 {
                    seen[x as usize] = seen[x as usize].saturating_add(1);
                }
            }
        }
    }
    let mut three_moves: Vec<(u16, u8)> = Vec::new();
    for (c, &n) in seen.iter().enumerate() {
        if n == 0 {
            continue;
        }
        pos.place(MnkMove(c as u16), false);
        let threat = (0..cells).any(|x| pos.cells[x] == 0 && makes_two_fours(pos, x, me));
        pos.take_back(MnkMove(c as u16), false);
        if threat {
            three_moves.push((c as u16, n));
        }
    }
    three_moves.sort_unstable_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
    moves.extend(three_moves.into_iter().map(|(c, _)| c));
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mnk::MnkSettings;

    fn vct(pos: &Mnk, threes: u32) -> Option<MnkMove> {
        let stop = AtomicBool::new(false);
        Vcf::new().find_vct(pos, threes, Some(200_000), None, &stop)
    }

    /// Plays the VCT found in `pos` (attacker to move) against *every* legal reply, by the
    /// rules of the game alone, and checks that each line ends with the attacker's line:
    /// the defender's moves are not narrowed by the rule the search uses.
    fn wins_against_every_reply(pos: &mut Mnk, threes: u32, plies: u32) {
        assert!(plies > 0, "the line is too long: {}", pos.format_position());
        let attacker = pos.side_to_move();
        let mv = vct(pos, threes).unwrap_or_else(|| panic!("the VCT goes on: {}", pos.format_position()));
        pos.make_move(mv);
        match pos.outcome() {
            Some(Outcome::Win(side)) => assert_eq!(side, attacker),
            Some(Outcome::Draw) => panic!("a draw: {}", pos.format_position()),
            None => {
                let mut replies = Vec::new();
                pos.generate_moves(&mut replies);
                for reply in replies {
                    pos.make_move(reply);
                    assert!(pos.outcome().is_none(), "the defender wins: {}", pos.format_position());
                    wins_against_every_reply(pos, threes, plies - 1);
                    pos.unmake_move(reply, ());
                }
            }
        }
        pos.unmake_move(mv, ());
    }

    #[test]
    fn a_double_three_is_a_vct_of_one_three_and_not_a_vcf() {
        // x: d5 e5 and f3 f4 on 9x9; f5 makes two open threes, which one move cannot
        // both stop. No four can be made: no VCF.
        let s = MnkSettings::new(9, 9, 5);
        let pos = Mnk::parse_position(&s, "o7o/9/9/9/3xx4/5x3/5x3/9/o7o x").unwrap();
        let stop = AtomicBool::new(false);
        assert_eq!(Vcf::new().find(&pos, MAX_FOURS, None, None, &stop), None);
        let mv = vct(&pos, 1).expect("a double three");
        assert_eq!(pos.format_move(mv), "f5");
        wins_against_every_reply(&mut pos.clone(), 1, 10);
        // With o on c5 and f6 neither three is open: no VCT of one three.
        let pos = Mnk::parse_position(&s, "o8/9/9/5o3/2oxx4/5x3/5x3/9/o8 x").unwrap();
        assert_eq!(vct(&pos, 1), None);
    }

    /// Random 9x9 games: every VCT found where there is no VCF wins against every reply
    /// by the rules, and the exact threat solver (an independent oracle) proves each one
    /// it can solve in 200 ms a win.
    #[test]
    fn every_vct_found_wins_against_every_reply_and_by_the_solver() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |bound: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % bound as u64) as usize
        };
        let stop = AtomicBool::new(false);
        let (mut found, mut solved) = (0, 0);
        let s = MnkSettings::new(9, 9, 5);
        for _game in 0..60 {
            let mut pos = Mnk::start(&s);
            for _ in 0..24 {
                // Stones in the middle 7x7.
                let mv = loop {
                    let cell = (1 + next(7)) * 9 + 1 + next(7);
                    if pos.cells[cell] == 0 {
                        break MnkMove(cell as u16);
                    }
                };
                pos.make_move(mv);
                if pos.outcome().is_some() {
                    break;
                }
                if Vcf::new().find(&pos, MAX_FOURS, Some(200_000), None, &stop).is_some()
                    || vct(&pos, 2).is_none()
                {
                    continue;
                }
                found += 1;
                wins_against_every_reply(&mut pos.clone(), 2, 40);
                use crate::games::mnk::solve::{Solver, Value};
                let mut solver = Solver::<u128>::of_width(&pos).unwrap();
                solver.set_memory_limit(crate::memory::mib(64));
                let deadline = Instant::now() + std::time::Duration::from_millis(200);
                solver.set_limits(Some(deadline), None);
                if let Ok(solution) = solver.solve(&pos, &stop) {
                    assert_eq!(solution.value, Value::Win, "{}", pos.format_position());
                    solved += 1;
                }
                break;
            }
        }
        assert!(found >= 10, "only {found} positions with a VCT and no VCF: the test proves little");
        assert!(solved >= 3, "only {solved} of them solved");
        println!("{found} VCTs checked, {solved} solved");
    }
}
