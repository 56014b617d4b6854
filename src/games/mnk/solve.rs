//! A proof solver for m,n,k games on boards of up to 128 squares (one square set a
//! [`Bits`] width: `u64` up to 64 squares, `u128` past them): an AND/OR search of
//! "can this player force a win?", exact at every step, with the pruning that makes
//! positional games small:
//!
//! - **No live line**: a window (k squares in a line) holding an opponent stone is dead;
//!   when every live window of the attacker needs more stones than the attacker has moves
//!   left, the attacker cannot win.
//! - **Threats**: a live window one stone short is a threat. The side to move completes
//!   its own threat and wins; facing two threat squares of the opponent it loses; facing
//!   one it must play there (every other move loses at once).
//! - **Dead squares**: a square in no live window of either side is worth nothing, and
//!   playing it is a pass, which is never better than playing a live square (an extra
//!   stone never hurts its owner in a game where k *or more* in a row wins: Hales-Jewett
//!   style strategy stealing, see Beck, "Combinatorial Games: Tic-Tac-Toe Theory", 2008).
//!   So only live squares are searched, for both sides.
//! - **Symmetry**: positions are stored under the smallest image of the board's 8 (or 4)
//!   symmetries, exactly (both bitboards, no hash collisions).
//!
//! The value: the side to move wins if it can force a win; else it loses if the opponent
//! can; else it is a draw. A proof of "can win" is not a shortest one, so the distance of
//! a win or a loss is found afterwards by the same search with a budget of winner's moves
//! ("can the winner force a win with at most `b` more stones?"), for `b = 1, 2, ...`: the
//! first budget that suffices is the length of the shortest win against the longest
//! defence. The rules above keep that length: a dead square or a move that ignores a
//! threat never makes a win longer than the best live defence does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use fxhash::FxHashMap;

use super::bits::Bits;
use super::Mnk;
use crate::game::Game;
use crate::memory::{make_room, map_bytes, Budget};

/// Largest board (squares) the solver takes: [`Solver<u64>`] up to 64 squares,
/// [`WideSolver`] up to this.
pub const MAX_SQUARES: usize = 128;

/// The solver for boards of 65 to [`MAX_SQUARES`] squares.
pub type WideSolver = Solver<u128>;

/// The budget of a search for any win, however long.
const UNBOUNDED: u32 = u32::MAX;

/// The proved value of a position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move can force a win.
    Win,
    /// The opponent can force a win.
    Loss,
    /// Neither can.
    Draw,
}

/// A finished proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The value.
    pub value: Value,
    /// A winning move when the side to move wins (a square index): one of the shortest
    /// wins when the distance was asked for.
    pub winning_move: Option<usize>,
    /// Plies to the end of the game, with the winner winning as fast as it can and the
    /// loser holding out as long as it can; `None` for a draw, when not asked for, or
    /// when the distance search was cut (`cut`).
    pub plies: Option<u32>,
    /// Why the distance search ended before finding the distance of a proved win or
    /// loss ([`Solver::solve_with_distance`]); the value stands.
    pub cut: Option<SolveError>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Why no proof came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The board has more squares than the solver's width holds (64 for `Solver<u64>`,
    /// [`MAX_SQUARES`] for [`WideSolver`]).
    TooLarge,
    /// The game is played under the exact rule, which the solver's lines do not know.
    ExactRule,
    /// The stop flag was raised.
    Stopped,
    /// The tables reached the memory budget ([`Solver::set_memory_limit`]).
    OutOfMemory,
}

/// The solver: board geometry and the table of proved positions.
pub struct Solver<B: Bits = u64> {
    settings: super::MnkSettings,
    k: u32,
    full: B,
    windows: Vec<B>,
    /// `cell_windows[c]`: the windows through square `c`.
    cell_windows: Vec<Vec<u32>>,
    /// `images[t][chunk][byte]`: the image under symmetry `t` of the squares
    /// `8 * chunk .. 8 * chunk + 8` set as in `byte`.
    images: Vec<Vec<[B; 256]>>,
    /// `inverse[t]`: the symmetry that undoes symmetry `t`.
    inverse: Vec<usize>,
    /// Proved results: (attacker stones, defender stones, attacker to move) in canonical
    /// orientation → whether the attacker wins, and when it does not, the relevance zone
    /// of the defender's proof (in the same orientation; see [`Solver::prove`]).
    table: FxHashMap<(B, B, bool), Proved<B>>,
    /// Bounds proved with a budget, same keys: (the smallest budget known to win, the
    /// largest budget known not to; `u8::MAX` and 0 when unknown).
    bounded: FxHashMap<(B, B, bool), (u8, u8)>,
    nodes: u64,
    /// The search was cut (stop flag or memory): nothing it computes is kept.
    stopped: bool,
    /// The cut came from the memory budget.
    out_of_memory: bool,
    /// Bytes the tables may take.
    budget: Budget,
    /// A deadline for the current solve (read with the stop flag).
    deadline: Option<Instant>,
    /// The node count at which the current solve stops.
    node_limit: u64,
    /// The pairing search and its scratch space.
    pairs: super::pairing::Pairing<B>,
    /// Steps of the pairing search (see [`Solver::pairing`]), and the searches.
    pairing_steps: u64,
    pairing_searches: u64,
    /// Nodes of [`Solver::prove`] open on the stack, and when the solver was made: for
    /// the progress log.
    depth: u32,
    started: Instant,
    /// Times the table of proved results was full and dropped its cheaper half.
    evictions: u64,
    /// Positions proved held by a pairing strategy.
    pairings: u64,
    /// Attacker moves left unsearched because they lie outside a relevance zone.
    pruned: u64,
    /// The next node's pairing strategy was looked for already (by its parent, with as
    /// many steps): the node skips it.
    paired_already: bool,
}

impl Solver {
    /// A solver for the board of `pos`, of up to 64 squares.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] above 64 squares (see [`WideSolver`]),
    /// [`SolveError::ExactRule`] under the exact rule.
    pub fn new(pos: &Mnk) -> Result<Solver, SolveError> {
        Solver::of_width(pos)
    }
}

impl<B: Bits> Solver<B> {
    /// A solver of width `B` for the board of `pos`.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] above the width's squares, [`SolveError::ExactRule`]
    /// under the exact rule.
    pub fn of_width(pos: &Mnk) -> Result<Solver<B>, SolveError> {
        let s = pos.settings;
        let cells = s.m * s.n;
        if cells > B::SQUARES as usize {
            return Err(SolveError::TooLarge);
        }
        if s.exact {
            return Err(SolveError::ExactRule);
        }
        let g = &pos.geometry;
        let windows: Vec<B> = g
            .windows
            .chunks_exact(s.k)
            .map(|w| w.iter().fold(B::ZERO, |acc, &c| acc | B::bit(u32::from(c))))
            .collect();
        let mut cell_windows = vec![Vec::new(); cells];
        for (i, w) in windows.iter().enumerate() {
            for (c, list) in cell_windows.iter_mut().enumerate() {
                if w.has(c as u32) {
                    list.push(i as u32);
                }
            }
        }
        let chunks = cells.div_ceil(8);
        let images = (0..g.symmetries)
            .map(|t| {
                (0..chunks)
                    .map(|chunk| {
                        let mut table = [B::ZERO; 256];
                        for (byte, image) in table.iter_mut().enumerate() {
                            for bit in 0..8 {
                                let c = chunk * 8 + bit;
                                if byte >> bit & 1 == 1 && c < cells {
                                    *image |= B::bit(u32::from(g.symmetry[c][t]));
                                }
                            }
                        }
                        table
                    })
                    .collect()
            })
            .collect();
        let inverse = (0..g.symmetries)
            .map(|t| {
                (0..g.symmetries)
                    .find(|&u| {
                        (0..cells).all(|c| usize::from(g.symmetry[usize::from(g.symmetry[c][t])][u]) == c)
                    })
                    .expect("a symmetry group has inverses")
            })
            .collect();
        Ok(Solver {
            settings: s,
            k: s.k as u32,
            full: B::low(cells as u32),
            windows,
            cell_windows,
            images,
            inverse,
            table: FxHashMap::default(),
            bounded: FxHashMap::default(),
            nodes: 0,
            stopped: false,
            out_of_memory: false,
            budget: Budget::MAX,
            deadline: None,
            node_limit: u64::MAX,
            pairs: super::pairing::Pairing::new(&g.windows, &g.ends, s.k, super::OFF_BOARD),
            pairing_steps: 0,
            pairing_searches: 0,
            evictions: 0,
            depth: 0,
            started: Instant::now(),
            pairings: 0,
            pruned: 0,
            paired_already: false,
        })
    }

    /// Limits the next solves: they stop (as if the stop flag were raised) at `deadline`
    /// or after `nodes` more nodes. `None` lifts a limit.
    pub fn set_limits(&mut self, deadline: Option<Instant>, nodes: Option<u64>) {
        self.deadline = deadline;
        self.node_limit = nodes.map_or(u64::MAX, |n| self.nodes.saturating_add(n));
    }

    /// Whether `pos` is a board of the solver's size.
    pub fn fits(&self, pos: &Mnk) -> bool {
        pos.settings == self.settings
    }

    /// Whether the side to move can force a win in `pos` (not finished), without
    /// naming a move.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn side_to_move_wins(&mut self, pos: &Mnk, stop: &AtomicBool) -> Result<bool, SolveError> {
        self.stopped = false;
        self.out_of_memory = false;
        let (mine, theirs) = self.stones(pos);
        let wins = self.wins(mine, theirs, true, stop);
        if self.stopped {
            return Err(self.cut());
        }
        Ok(wins)
    }

    /// Whether the opponent of the side to move can force a win in `pos` (not finished).
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn side_to_move_loses(&mut self, pos: &Mnk, stop: &AtomicBool) -> Result<bool, SolveError> {
        self.stopped = false;
        self.out_of_memory = false;
        let (mine, theirs) = self.stones(pos);
        let loses = self.wins(theirs, mine, false, stop);
        if self.stopped {
            return Err(self.cut());
        }
        Ok(loses)
    }

    /// Bounds the tables to `bytes` (unbounded by default): a proof that needs more
    /// ends with [`SolveError::OutOfMemory`].
    pub fn set_memory_limit(&mut self, bytes: Budget) {
        self.budget = bytes;
    }

    /// About the bytes the tables hold.
    pub fn memory_used(&self) -> usize {
        map_bytes(&self.table) + map_bytes(&self.bounded) + self.pairs.memory_used()
    }

    /// Why the search was cut.
    fn cut(&self) -> SolveError {
        if self.out_of_memory {
            SolveError::OutOfMemory
        } else {
            SolveError::Stopped
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Proves the value of `pos` (which must not be finished).
    ///
    /// # Errors
    /// [`SolveError::Stopped`] when `stop` is raised first.
    pub fn solve(&mut self, pos: &Mnk, stop: &AtomicBool) -> Result<Solution, SolveError> {
        // A cut search stored nothing it had not proved, so the tables stay good.
        self.stopped = false;
        self.out_of_memory = false;
        let (mine, theirs) = self.stones(pos);
        // Who wins first, as one proof (the zones of a held root prune its moves); then
        // with which move, the root's moves one by one (their proofs are in the table).
        let root_wins = self.wins(mine, theirs, true, stop);
        if self.stopped {
            return Err(self.cut());
        }
        log::debug!(
            "threat solver: the side to move {} after {} nodes",
            if root_wins { "wins" } else { "cannot win" },
            self.nodes
        );
        let mut winning_move = None;
        if root_wins {
            for c in self.moves(mine, theirs, true) {
                let won = self.immediate(mine | B::bit(c));
                if won || self.wins(mine | B::bit(c), theirs, false, stop) {
                    winning_move = Some(c);
                    break;
                }
                if self.stopped {
                    return Err(self.cut());
                }
            }
        }
        let value = if winning_move.is_some() {
            Value::Win
        } else if self.wins(theirs, mine, false, stop) {
            Value::Loss
        } else {
            Value::Draw
        };
        if self.stopped {
            return Err(self.cut());
        }
        log::debug!(
            "threat solver: {} nodes, {} held by pairings ({} pairing searches, {} steps), {} attacker moves outside zones, {} positions stored, the table emptied by half {} times",
            self.nodes,
            self.pairings,
            self.pairing_searches,
            self.pairing_steps,
            self.pruned,
            self.table.len(),
            self.evictions
        );
        Ok(Solution {
            value,
            winning_move: winning_move.map(|c| c as usize),
            plies: None,
            cut: None,
            nodes: self.nodes,
        })
    }

    /// [`Self::solve`], then the distance of a win or a loss (see the module doc), and a
    /// winning move of the shortest win. When the distance search is cut (stop flag,
    /// memory), the proved value comes without `plies` and with the reason in `cut`.
    ///
    /// # Errors
    /// [`SolveError::Stopped`] when `stop` is raised before the value is proved,
    /// [`SolveError::OutOfMemory`] when the tables reach their budget first.
    pub fn solve_with_distance(
        &mut self,
        pos: &Mnk,
        stop: &AtomicBool,
    ) -> Result<Solution, SolveError> {
        let mut solution = self.solve(pos, stop)?;
        let (mine, theirs) = self.stones(pos);
        let free = (self.full & !(mine | theirs)).count();
        match solution.value {
            Value::Draw => {}
            Value::Win => {
                let moves = self.moves(mine, theirs, true);
                'budgets: for budget in 1..=free.div_ceil(2) {
                    for &c in &moves {
                        let a = mine | B::bit(c);
                        if self.immediate(a) || self.wins_within(a, theirs, false, budget - 1, stop)
                        {
                            solution.winning_move = Some(c as usize);
                            solution.plies = Some(2 * budget - 1);
                            break 'budgets;
                        }
                    }
                    if self.stopped {
                        break;
                    }
                }
            }
            Value::Loss => {
                for budget in 1..=free / 2 {
                    if self.wins_within(theirs, mine, false, budget, stop) {
                        solution.plies = Some(2 * budget);
                        break;
                    }
                    if self.stopped {
                        break;
                    }
                }
            }
        }
        if self.stopped {
            // What was proved stands: the value, and a winning move of the first proof.
            solution.plies = None;
            solution.cut = Some(self.cut());
        }
        solution.nodes = self.nodes;
        Ok(solution)
    }

    /// The stones of the side to move and of the other side.
    fn stones(&self, pos: &Mnk) -> (B, B) {
        let (mut mine, mut theirs) = (B::ZERO, B::ZERO);
        let me = pos.side_to_move();
        for c in 0..pos.settings.m * pos.settings.n {
            match pos.stone(c) {
                Some(side) if side == me => mine |= B::bit(c as u32),
                Some(_) => theirs |= B::bit(c as u32),
                None => {}
            }
        }
        (mine, theirs)
    }

    /// Whether `stones` hold a whole window.
    fn immediate(&self, stones: B) -> bool {
        self.windows.iter().any(|&w| w & !stones == B::ZERO)
    }

    /// The squares worth playing for the side to move (`a_to_move`: the attacker) as the
    /// search would try them, best first; see [`Self::wins`] for the rules.
    fn moves(&self, a: B, d: B, a_to_move: bool) -> Vec<u32> {
        let empty = self.full & !(a | d);
        let mut live = B::ZERO;
        for &w in &self.windows {
            if w & d == B::ZERO || w & a == B::ZERO {
                live |= w & empty;
            }
        }
        self.ordered(live, a, d, a_to_move).iter().collect()
    }

    /// The squares of `candidates`, the most useful to the side to move first (see
    /// [`Self::square_weight`]), ties by square.
    fn ordered(&self, candidates: B, a: B, d: B, a_to_move: bool) -> Order<B> {
        let (own, opp) = if a_to_move { (a, d) } else { (d, a) };
        let mut order: Order<B> = Order {
            keys: B::keys(),
            len: 0,
        };
        for c in candidates.squares() {
            let weight = u64::from(self.square_weight(c, own, opp));
            order.keys.as_mut()[order.len] = weight << 8 | u64::from(255 - c);
            order.len += 1;
        }
        order.keys.as_mut()[..order.len].sort_unstable_by(|x, y| y.cmp(x));
        order
    }

    /// How much a stone on `c` does for its owner: its live windows weighted by the
    /// stones already in them, plus the opponent's live windows it kills.
    fn square_weight(&self, c: u32, own: B, opp: B) -> u32 {
        let mut score = 0;
        for &w in &self.cell_windows[c as usize] {
            let w = self.windows[w as usize];
            if w & opp == B::ZERO {
                score += 1 << (2 * (w & own).count());
            }
            if w & own == B::ZERO {
                score += 1 << (2 * (w & opp).count());
            }
        }
        score
    }

    /// The image of the squares `x` under symmetry `t`.
    fn image(&self, t: usize, x: B) -> B {
        self.images[t]
            .iter()
            .enumerate()
            .fold(B::ZERO, |acc, (chunk, table)| acc | table[x.byte(chunk)])
    }

    /// The smallest image of the position under the board's symmetries, and the symmetry
    /// that gives it.
    fn canonical(&self, a: B, d: B) -> (B, B, usize) {
        (0..self.images.len())
            .map(|t| (self.image(t, a), self.image(t, d), t))
            .min()
            .expect("at least the identity")
    }

    /// Empty squares added to `zone` until every window free of defender stones has at
    /// least `need` of its empty squares in the zone (the middle ones first): the
    /// attacker given every empty square outside the zone then has no more than it has
    /// now of a whole window (`need` 1) or of a threat (`need` 2).
    fn cover(&self, mut zone: B, d: B, empty: B, need: u32) -> B {
        for &w in &self.windows {
            if w & d != B::ZERO {
                continue;
            }
            let free = w & empty;
            let mut have = (free & zone).count();
            let mut rest = free & !zone;
            while have < need && rest != B::ZERO {
                // The middle square of what is left: it lies in the most windows.
                let c = rest
                    .squares()
                    .nth(rest.count() as usize / 2)
                    .expect("a square is left");
                zone |= B::bit(c);
                rest &= !B::bit(c);
                have += 1;
            }
        }
        zone
    }

    /// A pairing strategy of the defender (see [`super::pairing`]): the paired squares, or
    /// `None` when the search finds none within `steps`.
    fn pairing(&mut self, d: B, empty: B, steps: u32) -> Option<B> {
        let (found, taken) = self.pairs.find(d, empty, steps);
        self.pairing_steps += u64::from(taken);
        self.pairing_searches += 1;
        found
    }

    /// Whether the attacker (stones `a`) can force a win against the defender (`d`), with
    /// the attacker to move when `a_to_move`. Neither side has a whole window yet.
    fn wins(&mut self, a: B, d: B, a_to_move: bool, stop: &AtomicBool) -> bool {
        self.prove(a, d, a_to_move, stop).is_none()
    }

    /// Makes room for one more entry in the table of proved results, or with `bounded`
    /// in the table of bounds. When the memory budget has none, the table of proved
    /// results drops its cheaper half ([`Solver::evict`]); the table of bounds stops the
    /// search as out of memory and returns false.
    fn room(&mut self, bounded: bool) -> bool {
        let used = self.memory_used();
        let room = if bounded {
            make_room(&mut self.bounded, used, self.budget)
        } else {
            make_room(&mut self.table, used, self.budget).or_else(|full| {
                self.evict();
                if self.table.len() < self.table.capacity() {
                    Ok(())
                } else {
                    Err(full)
                }
            })
        };
        if room.is_err() {
            self.stopped = true;
            self.out_of_memory = true;
        }
        room.is_ok()
    }

    /// Drops about half of the proved results, those that took the fewest nodes to prove
    /// (the cheapest to prove again). Only proved results are stored, so dropping any of
    /// them costs time, never correctness.
    fn evict(&mut self) {
        let mut sample: Vec<u32> = self.table.values().take(EVICTION_SAMPLE).map(|p| p.work).collect();
        if sample.is_empty() {
            return;
        }
        let middle = sample.len() / 2;
        let (_, &mut median, _) = sample.select_nth_unstable(middle);
        let before = self.table.len();
        self.table.retain(|_, p| p.work > median);
        self.evictions += 1;
        log::debug!(
            "threat solver: table full at {before} positions, {} kept (more than {median} nodes each)",
            self.table.len()
        );
    }

    /// What a node needs to know of its windows.
    fn scan(&self, a: B, d: B, a_to_move: bool) -> Scan<B> {
        let empty = self.full & !(a | d);
        let free = empty.count();
        let mut scan = Scan {
            empty,
            a_moves: if a_to_move {
                free.div_ceil(2)
            } else {
                free / 2
            },
            a_threats: B::ZERO,
            d_threats: B::ZERO,
            live: B::ZERO,
            min_need: u32::MAX,
        };
        for &w in &self.windows {
            if w & d == B::ZERO {
                let need = self.k - (w & a).count();
                scan.min_need = scan.min_need.min(need);
                if need == 1 {
                    scan.a_threats |= w & empty;
                }
                scan.live |= w & empty;
            }
            if w & a == B::ZERO {
                if self.k - (w & d).count() == 1 {
                    scan.d_threats |= w & empty;
                }
                scan.live |= w & empty;
            }
        }
        scan
    }

    /// Counts a node and reads the stop flag, the deadline and the node limit; whether
    /// the search must stop.
    fn tick(&mut self, stop: &AtomicBool) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes & 0xFF == 0
                && (stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether the attacker (stones `a`) can force a win against the defender (`d`), with
    /// the attacker to move when `a_to_move`: `None` when it can, else `Some(zone)`, a
    /// **relevance zone** of the defender's proof: a set of empty squares such that the
    /// attacker still cannot win when it is given, besides its stones, every empty square
    /// outside the zone. (An extra stone never hurts its owner, so the zone's position
    /// holding means every position between it and this one holds.)
    ///
    /// Zones prune the attacker's moves. With the attacker to move, the search first
    /// lets it pass: if the defender holds the position after the pass with a zone `Z`,
    /// then an attacker move outside `Z` is one of the stones the zone gives away, so
    /// it holds too, and only the moves inside `Z` are searched. The zone of the whole
    /// node is the union of `Z`, the moves searched and their zones; a defender's move
    /// adds itself to its child's zone (see Hsu, Ko, Chen, Wei, Hsueh and Wu, "On
    /// solving the 7,7,5-game and the 8,8,5-game", Theoretical Computer Science 815,
    /// 2020, for relevance zones in m,n,k games). The leaves' zones: a pairing strategy's
    /// pairs; squares enough that no window free of defender stones gets closer to
    /// whole (see [`Solver::cover`]) beside a defender's threats; every empty square when
    /// the attacker has too few moves left.
    ///
    /// Neither side has a whole window yet. A stopped search returns anything; the
    /// caller reads `stopped`.
    fn prove(&mut self, a: B, d: B, a_to_move: bool, stop: &AtomicBool) -> Option<B> {
        let paired_already = std::mem::take(&mut self.paired_already);
        if self.tick(stop) {
            return None;
        }
        let Scan {
            empty,
            a_moves,
            a_threats,
            d_threats,
            live,
            min_need,
        } = self.scan(a, d, a_to_move);
        if min_need == u32::MAX {
            // Every window holds a defender stone: no stone given to the attacker helps.
            return Some(B::ZERO);
        }
        if min_need > a_moves {
            return Some(empty);
        }
        if a_to_move {
            if a_threats != B::ZERO {
                return None;
            }
            if d_threats.count() >= 2 {
                // The attacker blocks one threat, the defender completes another.
                let two = d_threats.without_first().lowest() | d_threats.lowest();
                return Some(self.cover(two, d, empty, 2));
            }
        } else {
            if d_threats != B::ZERO {
                let one = d_threats.lowest();
                return Some(self.cover(one, d, empty, 1));
            }
            if a_threats.count() >= 2 {
                return None;
            }
        }
        let (ca, cd, t) = self.canonical(a, d);
        let key = (ca, cd, a_to_move);
        if let Some(&Proved { win, zone, .. }) = self.table.get(&key) {
            return if win {
                None
            } else {
                Some(self.image(self.inverse[t], zone))
            };
        }
        let nodes_before = self.nodes;
        self.depth += 1;
        let result = if a_to_move {
            self.attacker_node(a, d, live, d_threats, paired_already, stop)
        } else {
            // The defender blocks the attacker's one threat, or tries its live squares.
            let candidates = if a_threats != B::ZERO { a_threats } else { live };
            let mut held = None;
            let order = self.ordered(candidates, a, d, false);
            // A reply after which the defender has a pairing strategy, before any
            // deeper search (each reply's search its own steps: measured on 7,7,5,
            // 12,126 nodes; one search for a reply and pairs together, 346,890).
            for c in order.iter().take(PAIRED_REPLIES) {
                let after = empty & !B::bit(c);
                if let Some(pairs) = self.pairing(d | B::bit(c), after, PAIRING_STEPS) {
                    self.pairings += 1;
                    held = Some(pairs | B::bit(c));
                    break;
                }
            }
            for (i, c) in order.iter().enumerate().filter(|_| held.is_none()) {
                self.paired_already = i < PAIRED_REPLIES;
                if let Some(zone) = self.prove(a, d | B::bit(c), true, stop) {
                    held = Some(zone | B::bit(c));
                    break;
                }
                if self.stopped {
                    break;
                }
            }
            held
        };
        self.depth -= 1;
        if self.stopped {
            return result;
        }
        if self.depth < PROGRESS_DEPTH {
            log::info!(
                "threat solver: {} at depth {} ({} stones) proved {} in {} nodes; {} nodes in all, {} positions stored, {:.1} s",
                if a_to_move { "attacker to move" } else { "defender to move" },
                self.depth,
                (a | d).count(),
                if result.is_none() { "won" } else { "held" },
                self.nodes - nodes_before,
                self.nodes,
                self.table.len(),
                self.started.elapsed().as_secs_f64()
            );
        }
        if !self.room(false) {
            return result;
        }
        let zone = result.map_or(B::ZERO, |zone| self.image(t, zone));
        let work = u32::try_from(self.nodes - nodes_before).unwrap_or(u32::MAX);
        let win = result.is_none();
        self.table.insert(key, Proved { win, work, zone });
        result
    }

    /// [`Solver::prove`] with the attacker to move, past the leaves: `d_threats` is the
    /// defender's threat square if it has one, `live` the squares worth playing.
    fn attacker_node(
        &mut self,
        a: B,
        d: B,
        live: B,
        d_threats: B,
        paired_already: bool,
        stop: &AtomicBool,
    ) -> Option<B> {
        let empty = self.full & !(a | d);
        if d_threats != B::ZERO {
            // Forced: every other move lets the defender complete its window. The zone
            // keeps the attacker from a threat of its own in the zone's position, so the
            // block stays forced there too.
            let zone = self.prove(a | d_threats, d, false, stop)?;
            return Some(self.cover(zone | d_threats, d, empty, 2));
        }
        if !paired_already {
            if let Some(pairs) = self.pairing(d, empty, PAIRING_STEPS) {
                self.pairings += 1;
                return Some(pairs);
            }
        }
        let order = self.ordered(live, a, d, true);
        let mut rest = order.iter();
        let Some(first) = rest.next() else {
            return Some(empty);
        };
        // The move the ordering likes best first: when the attacker wins, it usually
        // wins with it, and the pass below is not needed.
        let mut zone = self.prove(a | B::bit(first), d, false, stop)? | B::bit(first);
        if self.stopped {
            return None;
        }
        // The pass: moves outside its zone hold as it does.
        let inside = match self.prove(a, d, false, stop) {
            Some(pass) => {
                zone |= pass;
                pass
            }
            None => B::ALL,
        };
        if self.stopped {
            return None;
        }
        for c in rest {
            if !inside.has(c) {
                self.pruned += 1;
                continue;
            }
            zone |= self.prove(a | B::bit(c), d, false, stop)? | B::bit(c);
            if self.stopped {
                return None;
            }
        }
        Some(zone)
    }

    /// Whether the attacker can force a win placing at most `budget` more stones (the
    /// winning one included); [`UNBOUNDED`] for any number.
    fn wins_within(
        &mut self,
        a: B,
        d: B,
        a_to_move: bool,
        budget: u32,
        stop: &AtomicBool,
    ) -> bool {
        if budget == UNBOUNDED {
            return self.wins(a, d, a_to_move, stop);
        }
        if self.tick(stop) {
            return false;
        }
        let Scan {
            empty: _,
            a_moves,
            a_threats,
            d_threats,
            live,
            min_need,
        } = self.scan(a, d, a_to_move);
        if min_need > a_moves.min(budget) {
            return false;
        }
        let candidates = if a_to_move {
            if a_threats != B::ZERO {
                return true;
            }
            if d_threats.count() >= 2 {
                return false;
            }
            if d_threats != B::ZERO {
                d_threats
            } else {
                live
            }
        } else {
            if d_threats != B::ZERO {
                return false;
            }
            if a_threats.count() >= 2 {
                return true;
            }
            if a_threats != B::ZERO {
                a_threats
            } else {
                live
            }
        };
        if candidates == B::ZERO {
            return false;
        }
        let (ca, cd, _) = self.canonical(a, d);
        let key = (ca, cd, a_to_move);
        if let Some(Proved { win: false, .. }) = self.table.get(&key) {
            // No win at all, so none within the budget.
            return false;
        }
        if let Some(&(win_at, fail_at)) = self.bounded.get(&key) {
            if u32::from(win_at) <= budget {
                return true;
            }
            if u32::from(fail_at) >= budget {
                return false;
            }
        }
        let order = self.ordered(candidates, a, d, a_to_move);
        let result = if a_to_move {
            // `budget >= 1` here: `min_need` is at least 1.
            order
                .iter()
                .any(|c| self.wins_within(a | B::bit(c), d, false, budget - 1, stop))
        } else {
            order
                .iter()
                .all(|c| self.wins_within(a, d | B::bit(c), true, budget, stop))
        };
        if self.stopped {
            return result;
        }
        if !self.room(true) {
            return result;
        }
        let entry = self.bounded.entry(key).or_insert((u8::MAX, 0));
        let b = budget as u8;
        if result {
            entry.0 = entry.0.min(b);
        } else {
            entry.1 = entry.1.max(b);
        }
        result
    }
}

/// The threat solver as the search's prover ([`crate::prover`]), for boards of up to
/// 64 squares: at the root it proves win, loss or draw and a winning move.
/// On larger boards (gomoku), freestyle, a VCF search ([`super::vcf`]) takes its place:
/// a VCF of the side to move is a proved win; when the opponent has one, the root moves
/// after which it still has one are proved losing ([`crate::prover::Prover::refuted`]),
/// and all of them a proved loss. It proves no distances: the search scores its proofs
/// with the bound of [`crate::prover::Prover::max_plies`], the empty squares. Inside the
/// search it takes the VCF boards' nodes only, with a small VCF (see `in_search`).
pub struct ThreatProver {
    solver: Option<Solver>,
    memory: Budget,
    vcf: super::vcf::Vcf,
    refuted: Vec<super::MnkMove>,
}

impl ThreatProver {
    /// A prover whose tables take at most `memory` bytes (they are emptied when full).
    pub fn new(memory: Budget) -> ThreatProver {
        ThreatProver {
            solver: None,
            memory,
            vcf: super::vcf::Vcf::new(),
            refuted: Vec::new(),
        }
    }

    /// Whether `pos` is for the VCF search rather than the solver.
    fn for_vcf(pos: &Mnk) -> bool {
        let s = pos.settings;
        s.m * s.n > <u64 as Bits>::SQUARES as usize && !s.exact && s.k >= 4
    }

    /// The VCF search at the root: a win, or the root moves that leave the opponent a
    /// VCF (a loss when that is every move).
    fn vcf_root(
        &mut self,
        pos: &Mnk,
        limits: &crate::prover::ProofLimits<'_>,
    ) -> Option<crate::prover::Proof<super::MnkMove>> {
        use crate::prover::Proof;
        let fours = super::vcf::MAX_FOURS;
        let (deadline, stop) = (limits.deadline, limits.stop);
        if let Some(mv) = self.vcf.find(pos, fours, limits.nodes, deadline, stop) {
            return Some(Proof::Win { mv: Some(mv), plies: None });
        }
        if self.vcf.was_cut() {
            return None;
        }
        if !self.vcf.threatened(pos, fours, limits.nodes, deadline, stop) {
            return if self.vcf.was_cut() { None } else { self.vct_root(pos, limits) };
        }
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut after = pos.clone();
        for &mv in &moves {
            after.make_move(mv);
            let lost = after.outcome().is_none()
                && self.vcf.find(&after, fours, limits.nodes, deadline, stop).is_some();
            after.unmake_move(mv, ());
            if self.vcf.was_cut() {
                return None;
            }
            if lost {
                self.refuted.push(mv);
            }
        }
        (self.refuted.len() == moves.len()).then_some(Proof::Loss { plies: None })
    }

    /// The VCT search at the root ([`super::vct`]), where the opponent has no VCF: a
    /// win, or, when the opponent has a VCT, the moves of the search
    /// ([`Game::search_moves`]) after which it still has one (each proved losing; the
    /// others are not all tried, so no loss is claimed).
    fn vct_root(
        &mut self,
        pos: &Mnk,
        limits: &crate::prover::ProofLimits<'_>,
    ) -> Option<crate::prover::Proof<super::MnkMove>> {
        let threes = super::vct::MAX_THREES;
        let nodes = Some(limits.nodes.unwrap_or(u64::MAX).min(vct_nodes()));
        let (deadline, stop) = (limits.deadline, limits.stop);
        if let Some(mv) = self.vcf.find_vct(pos, threes, nodes, deadline, stop) {
            return Some(crate::prover::Proof::Win { mv: Some(mv), plies: None });
        }
        if !self.vcf.vct_threatened(pos, threes, nodes, deadline, stop) {
            return None;
        }
        let mut moves = Vec::new();
        pos.search_moves(&mut moves);
        let mut after = pos.clone();
        for &mv in &moves {
            after.make_move(mv);
            if after.outcome().is_none()
                && self.vcf.find_vct(&after, threes, nodes, deadline, stop).is_some()
            {
                self.refuted.push(mv);
            }
            after.unmake_move(mv, ());
            if stop.load(std::sync::atomic::Ordering::Relaxed)
                || deadline.is_some_and(|d| std::time::Instant::now() >= d)
            {
                break;
            }
        }
        None
    }

    /// The solver for `pos`'s board, made on first use.
    fn solver_for(&mut self, pos: &Mnk) -> Option<&mut Solver> {
        if !self.solver.as_ref().is_some_and(|s| s.fits(pos)) {
            let mut solver = Solver::new(pos).ok()?;
            solver.set_memory_limit(self.memory);
            self.solver = Some(solver);
        }
        self.solver.as_mut()
    }

    fn attempt(
        &mut self,
        pos: &Mnk,
        limits: &crate::prover::ProofLimits<'_>,
        run: impl FnOnce(&mut Solver) -> Result<crate::prover::Proof<super::MnkMove>, SolveError>,
    ) -> Option<crate::prover::Proof<super::MnkMove>> {
        let solver = self.solver_for(pos)?;
        solver.set_limits(limits.deadline, limits.nodes);
        match run(solver) {
            Ok(proof) => Some(proof),
            Err(SolveError::OutOfMemory) => {
                self.solver = None;
                None
            }
            Err(_) => None,
        }
    }
}

impl crate::prover::Prover<Mnk> for ThreatProver {
    fn prove_root(
        &mut self,
        pos: &Mnk,
        _first: Option<super::MnkMove>,
        limits: &crate::prover::ProofLimits<'_>,
    ) -> Option<crate::prover::Proof<super::MnkMove>> {
        use crate::prover::Proof;
        self.refuted.clear();
        if ThreatProver::for_vcf(pos) {
            return self.vcf_root(pos, limits);
        }
        self.attempt(pos, limits, |solver| {
            let solution = solver.solve(pos, limits.stop)?;
            Ok(match solution.value {
                Value::Win => Proof::Win {
                    mv: solution.winning_move.map(|c| super::MnkMove(c as u16)),
                    plies: None,
                },
                Value::Loss => Proof::Loss { plies: None },
                Value::Draw => Proof::Draw,
            })
        })
    }

    fn prove_node(
        &mut self,
        pos: &Mnk,
        limits: &crate::prover::ProofLimits<'_>,
    ) -> Option<crate::prover::Proof<super::MnkMove>> {
        use crate::prover::Proof;
        if ThreatProver::for_vcf(pos) {
            let fours = super::vcf::MAX_FOURS;
            return self
                .vcf
                .find(pos, fours, limits.nodes, limits.deadline, limits.stop)
                .map(|_| Proof::Win {
                    mv: None,
                    plies: None,
                });
        }
        self.attempt(pos, limits, |solver| {
            Ok(if solver.side_to_move_wins(pos, limits.stop)? {
                Proof::Win {
                    mv: None,
                    plies: None,
                }
            } else if solver.side_to_move_loses(pos, limits.stop)? {
                Proof::Loss { plies: None }
            } else {
                Proof::Draw
            })
        })
    }

    fn root_share(&self, pos: &Mnk) -> f64 {
        // Measured on 7x7 k=4 at 100 ms a move: half of every move's time cost 63 Elo
        // against the plain engine (41%, 100 games), proofs being rare before the board
        // fills; a tenth early and a quarter late keeps most of the search's time.
        let squares = pos.settings_of().m * pos.settings_of().n;
        if pos.empty_squares() * 2 > squares {
            0.1
        } else {
            0.25
        }
    }

    /// On the VCF boards, a VCF of the side to move of at most [`vcf_in_search`] nodes,
    /// where it has a window two stones short to make a four of (a VCF found is a won
    /// leaf; none found proves nothing, and the node is searched). Elsewhere none: the
    /// solver inside the search measured worse.
    fn in_search(&self, pos: &Mnk) -> Option<u64> {
        (ThreatProver::for_vcf(pos) && pos.open[pos.to_move.index()][2] > 0)
            .then(vcf_in_search)
    }

    fn max_plies(&self, pos: &Mnk) -> u32 {
        pos.empty_squares() as u32
    }

    fn nodes(&self) -> u64 {
        self.solver.as_ref().map_or(0, Solver::nodes) + self.vcf.nodes()
    }

    fn clear(&mut self) {
        self.solver = None;
        self.vcf = super::vcf::Vcf::new();
        self.refuted.clear();
    }

    fn refuted(&self) -> Vec<super::MnkMove> {
        self.refuted.clone()
    }
}

/// The node budget of each VCT search at the root (see [`ThreatProver::vct_root`]); 0,
/// none, unless `AGON_KNOB_VCT_NODES` says otherwise. Measured against Pela 7.9 (15x15
/// freestyle, balanced openings, 200 games, 0.1 s a move): 20,000 nodes scored 46.2%
/// where none scored 50.7%; the root's share of the time goes to VCTs that are rarely
/// there to find.
fn vct_nodes() -> u64 {
    static NODES: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *NODES.get_or_init(|| crate::search::knob("VCT_NODES", 0).max(0) as u64)
}

/// The node budget of a VCF inside the search (see [`ThreatProver::in_search`]).
fn vcf_in_search() -> u64 {
    static NODES: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *NODES.get_or_init(|| crate::search::knob("VCF_NODES", 64).max(1) as u64)
}

/// Steps a pairing search may take before it gives up (a step: one cover tried where a
/// unit has a choice, see [`super::pairing`]), and the defender's replies (in the
/// search's order) whose pairing strategies are looked for before any of them is
/// searched. Measured on the empty 8,7,5 board (a draw), in seconds (nodes): 32 steps
/// and 16 replies, 11.8 (459,795); 16 and 16, 12.2 (551,638); 64 and 16, 14.4; 256 and
/// 16, 43 (368,706, beside another run); 32 and 8, 19.2 (824,555); 64 and 4, 34.5; 256
/// steps and every reply, 55 (354,423, beside another run).
const PAIRING_STEPS: u32 = 32;
const PAIRED_REPLIES: usize = 16;

/// Nodes this close to the root log their result at level info (`RUST_LOG=info`).
const PROGRESS_DEPTH: u32 = 3;

/// Entries of the table of proved results read to choose which to drop when it is full.
const EVICTION_SAMPLE: usize = 4096;

/// A proved result of the table.
#[derive(Clone, Copy)]
struct Proved<B> {
    /// Whether the attacker wins.
    win: bool,
    /// Nodes its proof took (at most `u32::MAX`): what dropping it would cost.
    work: u32,
    /// When the attacker does not win, the relevance zone of the defender's proof (see
    /// [`Solver::prove`]), in the table's orientation.
    zone: B,
}

/// A node's windows, read once ([`Solver::scan`]).
struct Scan<B> {
    /// The empty squares.
    empty: B,
    /// The stones the attacker has left to place.
    a_moves: u32,
    /// The squares that complete a window of the attacker (of the defender).
    a_threats: B,
    d_threats: B,
    /// The empty squares of windows one side can still fill.
    live: B,
    /// The fewest stones the attacker lacks in a window free of defender stones
    /// (`u32::MAX` when there is none).
    min_need: u32,
}

/// Squares in the order a node searches them, without a heap allocation: each key is
/// the square's weight above its square (as `255 - square`), largest first.
struct Order<B: Bits> {
    keys: B::Keys,
    len: usize,
}

impl<B: Bits> Order<B> {
    /// The squares, in order.
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.keys.as_ref()[..self.len]
            .iter()
            .map(|&key| 255 - (key & 0xFF) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::mnk::MnkSettings;

    fn solve(m: usize, n: usize, k: usize, position: Option<&str>) -> Solution {
        let settings = MnkSettings::new(m, n, k);
        let pos = match position {
            Some(p) => Mnk::parse_position(&settings, p).unwrap(),
            None => Mnk::start(&settings),
        };
        Solver::<u64>::new(&pos)
            .unwrap()
            .solve(&pos, &AtomicBool::new(false))
            .unwrap()
    }

    // Known values (Wikipedia "m,n,k-game", Uiterwijk & van den Herik 2000): 3,3,3 draw;
    // 4,4,4 draw; 4,3,3 and 4,4,3 first-player wins; 5,5,4 draw; 2,2,2 first-player win.
    #[test]
    fn known_values_of_small_boards() {
        assert_eq!(solve(3, 3, 3, None).value, Value::Draw);
        assert_eq!(solve(2, 2, 2, None).value, Value::Win);
        assert_eq!(solve(4, 3, 3, None).value, Value::Win);
        assert_eq!(solve(4, 4, 3, None).value, Value::Win);
        assert_eq!(solve(4, 4, 4, None).value, Value::Draw);
    }

    #[test]
    fn hand_worked_tictactoe_positions() {
        // X (a3, b2) to move completes the diagonal a3-b2-c1.
        let s = solve(3, 3, 3, Some("x1o/1x1/o2 x"));
        assert_eq!(s.value, Value::Win);
        // O to move completes the top row at b3 (index 7), its only winning move: any
        // other move lets X complete the bottom row a1-b1-c1.
        let s = solve(3, 3, 3, Some("o1o/1x1/x1x o"));
        assert_eq!(s.value, Value::Win);
        assert_eq!(s.winning_move, Some(7));
        // X to move (b2 c2 b1) has no threat; O (a3 b3 a2) threatens c3 and a1: X loses.
        let s = solve(3, 3, 3, Some("oo1/oxx/1x1 x"));
        assert_eq!(s.value, Value::Loss);
        assert_eq!(s.winning_move, None);
    }

    /// An oracle sharing nothing with the solver: plain minimax over every empty square,
    /// with its own line check, memoised on the two stone sets.
    struct Brute {
        m: usize,
        n: usize,
        k: usize,
        memo: std::collections::HashMap<(u64, u64), i8>,
    }

    impl Brute {
        /// Whether `stones` hold k in a row.
        fn line(&self, stones: u64) -> bool {
            let at = |r: isize, c: isize| {
                r >= 0
                    && c >= 0
                    && (r as usize) < self.n
                    && (c as usize) < self.m
                    && stones >> (r as usize * self.m + c as usize) & 1 == 1
            };
            (0..self.n as isize).any(|r| {
                (0..self.m as isize).any(|c| {
                    [(0, 1), (1, 0), (1, 1), (1, -1)]
                        .iter()
                        .any(|&(dr, dc)| (0..self.k as isize).all(|i| at(r + i * dr, c + i * dc)))
                })
            })
        }

        /// +1 when the side to move (stones `me`) wins, -1 when it loses, 0 for a draw.
        fn value(&mut self, me: u64, them: u64) -> i8 {
            if let Some(&v) = self.memo.get(&(me, them)) {
                return v;
            }
            let cells = self.m * self.n;
            let mut best = if (me | them).count_ones() as usize == cells { 0 } else { -1 };
            for c in 0..cells {
                if (me | them) >> c & 1 == 1 {
                    continue;
                }
                let mine = me | 1 << c;
                let v = if self.line(mine) { 1 } else { -self.value(them, mine) };
                best = best.max(v);
                if best == 1 {
                    break;
                }
            }
            self.memo.insert((me, them), best);
            best
        }
    }

    /// The relevance zones and pairing strategies prune the attacker's moves; on random
    /// positions of small boards every value and winning move must be the oracle's.
    #[test]
    fn solver_agrees_with_plain_minimax_on_random_positions() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        let mut checked = [0usize; 3];
        let (mut pairings, mut pruned) = (0, 0);
        for &(m, n, k, stones, count) in &[
            (3, 3, 3, 0, 1),
            (4, 4, 3, 4, 30),
            (4, 4, 4, 4, 40),
            (5, 4, 4, 8, 40),
            (5, 5, 4, 13, 40),
            (5, 5, 5, 13, 30),
            (6, 5, 4, 18, 30),
        ] {
            let settings = MnkSettings::new(m, n, k);
            let mut brute = Brute { m, n, k, memo: Default::default() };
            let mut made = 0;
            while made < count {
                let mut pos = Mnk::start(&settings);
                let (mut first, mut second) = (0u64, 0u64);
                let mut finished = false;
                for ply in 0..stones {
                    let free: Vec<usize> =
                        (0..m * n).filter(|&c| (first | second) >> c & 1 == 0).collect();
                    let c = free[next(free.len())];
                    pos.make_move(crate::games::mnk::MnkMove(c as u16));
                    let own = if ply % 2 == 0 { &mut first } else { &mut second };
                    *own |= 1 << c;
                    finished |= brute.line(*own);
                }
                if finished {
                    continue;
                }
                made += 1;
                let (me, them) = if stones % 2 == 0 { (first, second) } else { (second, first) };
                let truth = brute.value(me, them);
                let mut solver = Solver::<u64>::new(&pos).unwrap();
                let got = solver.solve(&pos, &AtomicBool::new(false)).unwrap();
                // The 128-square width is the same search, node for node.
                let wide = WideSolver::of_width(&pos).unwrap().solve(&pos, &AtomicBool::new(false));
                assert_eq!(wide, Ok(got), "{m},{n},{k}: the widths disagree");
                pairings += solver.pairings;
                pruned += solver.pruned;
                let expected = match truth {
                    1 => Value::Win,
                    -1 => Value::Loss,
                    _ => Value::Draw,
                };
                assert_eq!(got.value, expected, "{m},{n},{k} after {stones} stones: {me:#x} {them:#x}");
                checked[(truth + 1) as usize] += 1;
                if let Some(c) = got.winning_move {
                    let mine = me | 1 << c;
                    assert!(
                        brute.line(mine) || brute.value(them, mine) == -1,
                        "{m},{n},{k}: {c} does not win in {me:#x} {them:#x}"
                    );
                }
            }
        }
        // The positions are not all of one kind: each value comes up.
        assert!(checked.iter().all(|&c| c >= 10), "losses, draws, wins: {checked:?}");
        // And the proofs used what is under test.
        assert!(pairings > 100 && pruned > 100, "{pairings} pairings, {pruned} pruned");
    }

    /// Boards past 64 squares: the narrow width refuses them, the wide one takes them.
    /// Hand-worked 9x9 five-in-a-row positions: x's open four in the middle row (both ends
    /// free) wins for x to move and loses for o to move (o blocks one end, x fills the
    /// other); boards of up to 128 squares are taken, larger ones refused.
    #[test]
    fn boards_past_64_squares_are_solved_by_the_wide_width() {
        let settings = MnkSettings::new(9, 9, 5);
        let start = Mnk::start(&settings);
        assert_eq!(Solver::<u64>::new(&start).err(), Some(SolveError::TooLarge));
        assert!(WideSolver::of_width(&start).is_ok());
        let solve = |text: &str| {
            let pos = Mnk::parse_position(&settings, text).unwrap();
            WideSolver::of_width(&pos).unwrap().solve(&pos, &AtomicBool::new(false)).unwrap()
        };
        // x: c5 d5 e5 f5 (an open four in the middle row), o: four stones away from it.
        let won = solve("9/9/9/oo7/2xxxx3/9/9/oo7/9 x");
        assert_eq!(won.value, Value::Win);
        // o to move with x's open four: o blocks one end, x completes at the other.
        let lost = solve("9/9/9/oo7/2xxxx3/9/9/o8/9 o");
        assert_eq!(lost.value, Value::Loss);
        let ten = MnkSettings::new(11, 11, 5);
        let pos = Mnk::start(&ten);
        assert!(WideSolver::of_width(&pos).is_ok(), "121 squares fit");
        let twelve = MnkSettings::new(12, 11, 5);
        assert_eq!(WideSolver::of_width(&Mnk::start(&twelve)).err(), Some(SolveError::TooLarge));
    }
}
