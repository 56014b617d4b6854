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

mod certificate;
mod order;
mod prover;
mod region;
mod split;

pub use certificate::{CertificateError, CertificateStats};
pub use split::{solve_split, SplitError, SplitOptions, SplitSolution};

pub use prover::{RegionProver, DEFENCE_STONES, IN_SEARCH_NODES, IN_SEARCH_STONES};
use order::{lookahead_scores, order_key};
use region::*;

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
        let children = self.ordered_children(pos, moves, first);
        for (mv, big, value) in children {
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

    /// The legal moves of `pos` in the order [`Solver::solve_from`] tries them (`first`
    /// first).
    pub fn ordered_moves(
        &mut self,
        pos: &Clobber,
        first: Option<super::ClobberMove>,
    ) -> Vec<super::ClobberMove> {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let children = self.ordered_children(pos, moves, first);
        children.into_iter().map(|c| c.0).collect()
    }

    /// `moves` of `pos` with their children's large groups and small groups' value, in
    /// the root's order (see [`Solver::solve_from`]).
    fn ordered_children(
        &mut self,
        pos: &Clobber,
        moves: Vec<super::ClobberMove>,
        first: Option<super::ClobberMove>,
    ) -> Vec<(super::ClobberMove, Vec<Region>, GameId)> {
        let mover = pos.side_to_move();
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
        children.into_iter().map(|(_, mv, big, value)| (mv, big, value)).collect()
    }

    /// Empties the table of proved sums and the distance table, keeping the groups'
    /// classes and values (what a run of related proofs shares most).
    pub fn forget_sums(&mut self) {
        self.table = FxHashMap::default();
        self.bounded = FxHashMap::default();
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
