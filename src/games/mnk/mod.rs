//! m,n,k games: `k` in a row (orthogonally or diagonally) on an `m` wide, `n` high
//! board wins; a full board without a line is a draw. Tic-tac-toe is `mnk m=3 n=3 k=3`.
//!
//! Rules: Wikipedia "m,n,k-game". The first player is X, the second O. Squares are named
//! by column letter (`a` at the left) and row number (`1` at the bottom), as on a chess board.
//!
//! With `exact=1` only a line of exactly `k` wins: a longer one (an *overline*) does not,
//! for either side, as in Gomocup's rule 1 ("exactly five in a row wins") and in
//! standard gomoku (Wikipedia "Gomoku", "Standard gomoku"). The threat solver and the
//! search's forced-result shortcut read lines as freestyle and stay off under this rule.

mod eval;
pub mod bits;
mod pairing;
mod notation;
pub mod psq;
pub mod solve;
pub mod vcf;
pub mod vct;
mod view;
#[cfg(test)]
mod tune;

use std::sync::Arc;

use crate::game::{Forced, Game, MoveError, Outcome, ParamSpec, PositionError, Side};
use crate::zobrist;

pub use eval::MnkHeuristic;

/// Largest width or height (one letter per column).
pub const MAX_SIZE: usize = 26;
const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

static KEYS: [u64; 2 * MAX_CELLS + 1] = zobrist::keys(0x6D6E_6B5F_6B65_7973);

#[inline]
fn piece_key(cell: usize, side: Side) -> u64 {
    KEYS[2 * cell + side.index()]
}
const SIDE_KEY: u64 = KEYS[2 * MAX_CELLS];

/// Board size and line length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MnkSettings {
    /// Width (columns).
    pub m: usize,
    /// Height (rows).
    pub n: usize,
    /// Stones in a row needed to win.
    pub k: usize,
    /// Only a line of exactly `k` wins (`exact=1`); longer lines do not.
    pub exact: bool,
}

impl MnkSettings {
    /// The freestyle game: `k` or more in a row wins.
    pub const fn new(m: usize, n: usize, k: usize) -> MnkSettings {
        MnkSettings {
            m,
            n,
            k,
            exact: false,
        }
    }
}

/// A move: the index of the square to fill, `row * m + column`, row 0 at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MnkMove(pub u16);

/// A position of an m,n,k game.
#[derive(Clone, Debug)]
pub struct Mnk {
    settings: MnkSettings,
    /// 0 empty, 1 first player, 2 second player.
    cells: Vec<u8>,
    to_move: Side,
    filled: usize,
    outcome: Option<Outcome>,
    /// Zobrist hash of the board seen through each symmetry of the board (8 on a square
    /// board, 4 otherwise); the position's hash is the smallest, so that symmetric
    /// positions share transposition-table entries.
    hashes: [u64; 8],
    /// Window geometry of this board size, shared by copies.
    geometry: Arc<Geometry>,
    /// Stones of each side in every window.
    counts: Vec<[u8; 2]>,
    /// Per side: sum of open-window weights (the `lines` heuristic).
    pub(super) line_score: [i32; 2],
    /// Per side: open windows (holding stones of that side only) by the stones they still
    /// miss, `open[side][missing.min(OPEN_BUCKETS - 1)]`; `[1]` are threats. `[0]` stays 0.
    pub(super) open: [[i32; eval::OPEN_BUCKETS]; 2],
    /// On boards of more than [`NEAR_ONLY_ABOVE`] squares (empty on the others): for each
    /// square, the stones within [`NEAR`] steps of it, so that [`Mnk::near_squares`] reads
    /// them instead of marking them again at every node.
    near: Vec<u8>,
    /// On the same boards: for each square and side, the windows through it that hold
    /// `k - 2` stones of that side and none of the other's (read by the open-four rule of
    /// `eval::keep_candidates`).
    pub(super) two_short: Vec<[u8; 2]>,
    /// Per side: the empty squares in two or more of its windows two short
    /// (`two_short[square][side] >= 2`), kept current on the boards with the tables.
    pub(super) double_four_squares: [i32; 2],
    /// On the same boards: for each square and side to move, the sum over the windows
    /// through it of [`WindowState::candidate`] (`eval::candidate_score`, kept current).
    pub(super) candidate: Vec<[i32; 2]>,
}

/// What a window counts for, by the stones of each side in it, per side (by index).
#[derive(Clone, Copy, Debug, Default)]
struct WindowState {
    /// Its weight in [`Mnk::line_score`].
    weight: [i32; 2],
    /// Its bucket in [`Mnk::open`] (0: not open for that side).
    bucket: [u8; 2],
    /// What it adds to `eval::candidate_score` of a square in it, that side to move.
    candidate: [i32; 2],
}

/// Every window of k squares in a line, and for each square the windows through it.
#[derive(Debug)]
struct Geometry {
    /// Windows, flattened: k squares each.
    windows: Vec<u16>,
    /// For each window, the squares just before its first and just after its last along
    /// its line ([`OFF_BOARD`] past the edge): an overline runs through one of them.
    ends: Vec<[u16; 2]>,
    /// `cell_windows[cell_start[c]..cell_start[c + 1]]` are the windows through square c.
    cell_start: Vec<u32>,
    cell_windows: Vec<u32>,
    /// `symmetry[cell][t]`: the image of `cell` under symmetry `t` (bit 0 mirrors the
    /// columns, bit 1 the rows, bit 2 transposes; only on square boards).
    symmetry: Vec<[u16; 8]>,
    /// Symmetries of the board: 8 when square, else 4.
    symmetries: usize,
    /// What a window holding `c0` first-player and `c1` second-player stones counts for,
    /// at `c0 * (k + 1) + c1`.
    states: Vec<WindowState>,
}

impl PartialEq for Mnk {
    fn eq(&self, other: &Self) -> bool {
        self.settings == other.settings
            && self.cells == other.cells
            && self.to_move == other.to_move
            && self.outcome == other.outcome
    }
}
impl Eq for Mnk {}

const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Boards of more squares than this search only the squares near the stones
/// ([`Game::search_moves`]); 64 keeps every board the threat solver takes whole.
const NEAR_ONLY_ABOVE: usize = 64;
/// How far from a stone a searched square may be.
const NEAR: usize = 2;

/// A square past the board's edge in [`Geometry::ends`].
const OFF_BOARD: u16 = u16::MAX;

fn build_geometry(s: MnkSettings) -> Arc<Geometry> {
    let (windows, ends) = build_windows(s);
    let cells = s.m * s.n;
    let mut lists = vec![Vec::new(); cells];
    for (w, window) in windows.chunks_exact(s.k).enumerate() {
        for &cell in window {
            lists[cell as usize].push(w as u32);
        }
    }
    let mut cell_start = Vec::with_capacity(cells + 1);
    let mut cell_windows = Vec::new();
    for list in lists {
        cell_start.push(cell_windows.len() as u32);
        cell_windows.extend(list);
    }
    cell_start.push(cell_windows.len() as u32);
    let stride = s.k + 1;
    let states = (0..stride * stride)
        .map(|i| {
            let c = [(i / stride) as u8, (i % stride) as u8];
            let mut state = WindowState::default();
            for side in 0..2 {
                let (weight, bucket) = contribution(c[side], c[1 - side], s.k);
                state.weight[side] = weight;
                state.bucket[side] = bucket as u8;
                state.candidate[side] =
                    eval::window_candidate_value(c[side] as usize, c[1 - side] as usize, s.k);
            }
            state
        })
        .collect();
    let (m, n) = (s.m, s.n);
    let symmetry = (0..m * n)
        .map(|cell| {
            let mut images = [0u16; 8];
            for (t, image) in images.iter_mut().enumerate() {
                let (mut r, mut c) = (cell / m, cell % m);
                if t & 1 == 1 {
                    c = m - 1 - c;
                }
                if t & 2 == 2 {
                    r = n - 1 - r;
                }
                if t & 4 == 4 && m == n {
                    std::mem::swap(&mut r, &mut c);
                }
                *image = (r * m + c) as u16;
            }
            images
        })
        .collect();
    Arc::new(Geometry {
        windows,
        ends,
        cell_start,
        cell_windows,
        symmetry,
        symmetries: if m == n { 8 } else { 4 },
        states,
    })
}

/// A window's contribution for a side with `own` stones in it against `opp`: its
/// weight, and its bucket in [`Mnk::open`] (0 when it is not open).
#[inline]
fn contribution(own: u8, opp: u8, k: usize) -> (i32, usize) {
    if own > 0 && opp == 0 {
        (
            eval::window_weight(own as usize),
            (k - own as usize).min(eval::OPEN_BUCKETS - 1),
        )
    } else {
        (0, 0)
    }
}

/// The windows, flattened, and the squares beyond each one's ends.
fn build_windows(s: MnkSettings) -> (Vec<u16>, Vec<[u16; 2]>) {
    let mut out = Vec::new();
    let mut ends = Vec::new();
    let square = |r: isize, c: isize| {
        if r < 0 || r >= s.n as isize || c < 0 || c >= s.m as isize {
            OFF_BOARD
        } else {
            (r * s.m as isize + c) as u16
        }
    };
    for row in 0..s.n as isize {
        for col in 0..s.m as isize {
            for (dr, dc) in DIRECTIONS {
                let end_r = row + dr * (s.k as isize - 1);
                let end_c = col + dc * (s.k as isize - 1);
                if end_r < 0 || end_r >= s.n as isize || end_c < 0 || end_c >= s.m as isize {
                    continue;
                }
                // Horizontal and vertical windows of a 1-long line would repeat; k = 1
                // keeps only one direction.
                if s.k == 1 && (dr, dc) != (0, 1) {
                    continue;
                }
                for i in 0..s.k as isize {
                    out.push(((row + dr * i) * s.m as isize + col + dc * i) as u16);
                }
                ends.push([square(row - dr, col - dc), square(end_r + dr, end_c + dc)]);
            }
        }
    }
    (out, ends)
}

impl Mnk {
    /// Adds or removes a stone of `side` on `cell` in every symmetric hash, and flips the
    /// side to move in them.
    #[inline]
    fn toggle(&mut self, cell: usize, side: Side) {
        let images = &self.geometry.symmetry[cell];
        let count = self.geometry.symmetries;
        for (h, &image) in self.hashes[..count].iter_mut().zip(&images[..count]) {
            *h ^= piece_key(image as usize, side) ^ SIDE_KEY;
        }
    }

    /// Sets the symmetric hashes from scratch (after building a position).
    pub(super) fn rehash(&mut self) {
        self.hashes = [0; 8];
        for t in 0..self.geometry.symmetries {
            let mut h = 0;
            for cell in 0..self.cells.len() {
                if let Some(side) = self.stone(cell) {
                    h ^= piece_key(self.geometry.symmetry[cell][t] as usize, side);
                }
            }
            if self.to_move == Side::Second {
                h ^= SIDE_KEY;
            }
            self.hashes[t] = h;
        }
    }

    /// The number of empty squares.
    pub fn empty_squares(&self) -> usize {
        self.cells.len() - self.filled
    }

    /// The stone on a square: `None` when empty.
    pub fn stone(&self, cell: usize) -> Option<Side> {
        match self.cells[cell] {
            1 => Some(Side::First),
            2 => Some(Side::Second),
            _ => None,
        }
    }

    fn code(side: Side) -> u8 {
        side.index() as u8 + 1
    }

    /// The sides that have a winning line somewhere (from scratch).
    fn lines_on_board(&self) -> [bool; 2] {
        let mut found = [false; 2];
        for (w, window) in self.geometry.windows.chunks_exact(self.settings.k).enumerate() {
            let first = self.cells[window[0] as usize];
            if first != 0
                && window.iter().all(|&c| self.cells[c as usize] == first)
                && !self.overline(w, first)
            {
                found[first as usize - 1] = true;
            }
        }
        found
    }

    /// Whether window `w`, full of stones `code`, is part of a longer line that does not
    /// win: always `false` in freestyle.
    #[inline]
    fn overline(&self, w: usize, code: u8) -> bool {
        self.settings.exact
            && self.geometry.ends[w]
                .iter()
                .any(|&c| c != OFF_BOARD && self.cells[c as usize] == code)
    }

    /// Whether a stone of `side` just put on `cell` made a winning line (a window through
    /// it is full; under the exact rule, one that is not part of an overline).
    fn wins_at(&self, cell: usize, side: Side) -> bool {
        let g = &self.geometry;
        let range = g.cell_start[cell] as usize..g.cell_start[cell + 1] as usize;
        g.cell_windows[range].iter().any(|&w| {
            self.counts[w as usize][side.index()] as usize == self.settings.k
                && !self.overline(w as usize, Mnk::code(side))
        })
    }

    fn empty(settings: MnkSettings) -> Mnk {
        let geometry = build_geometry(settings);
        Mnk {
            settings,
            cells: vec![0; settings.m * settings.n],
            to_move: Side::First,
            filled: 0,
            outcome: None,
            hashes: [0; 8],
            counts: vec![[0, 0]; geometry.windows.len() / settings.k],
            geometry,
            line_score: [0; 2],
            open: [[0; eval::OPEN_BUCKETS]; 2],
            near: Vec::new(),
            two_short: Vec::new(),
            double_four_squares: [0, 0],
            candidate: Vec::new(),
        }
        .with_square_tables()
    }

    /// Gives boards of more than [`NEAR_ONLY_ABOVE`] squares their per-square tables.
    fn with_square_tables(mut self) -> Mnk {
        let cells = self.cells.len();
        if cells > NEAR_ONLY_ABOVE {
            self.near = vec![0; cells];
            self.two_short = vec![[0, 0]; cells];
            self.candidate = vec![[0, 0]; cells];
            self.clear_square_tables();
        }
        self
    }

    /// Sets the per-square tables to those of the empty board.
    fn clear_square_tables(&mut self) {
        self.near.iter_mut().for_each(|c| *c = 0);
        self.two_short.iter_mut().for_each(|c| *c = [0, 0]);
        self.double_four_squares = [0, 0];
        let g = &self.geometry;
        let empty_window = g.states[0].candidate;
        for (cell, value) in self.candidate.iter_mut().enumerate() {
            let windows = (g.cell_start[cell + 1] - g.cell_start[cell]) as i32;
            *value = empty_window.map(|v| v * windows);
        }
    }

    /// Counts `cell`, just emptied (`add`) or about to be filled, in
    /// [`Mnk::double_four_squares`].
    #[inline]
    fn count_double_four_square(&mut self, cell: usize, add: bool) {
        if let Some(t) = self.two_short.get(cell) {
            for (count, &windows) in self.double_four_squares.iter_mut().zip(t) {
                if windows >= 2 {
                    *count += if add { 1 } else { -1 };
                }
            }
        }
    }

    /// Counts a stone on `cell` (`add`) or takes it off in [`Mnk::near`].
    #[inline]
    fn update_near(&mut self, cell: usize, add: bool) {
        if self.near.is_empty() {
            return;
        }
        let (m, n) = (self.settings.m, self.settings.n);
        let (row, col) = (cell / m, cell % m);
        for r in row.saturating_sub(NEAR)..=(row + NEAR).min(n - 1) {
            for near in &mut self.near[r * m + col.saturating_sub(NEAR)..=r * m + (col + NEAR).min(m - 1)] {
                if add {
                    *near += 1;
                } else {
                    *near -= 1;
                }
            }
        }
    }

    /// Adds (or removes) a stone of `side` on `cell` in every window through it, keeping
    /// the line statistics current. Returns whether a window is now full of `side`.
    #[inline]
    fn update_windows(&mut self, cell: usize, side: Side, add: bool, all_tables: bool) -> bool {
        let k = self.settings.k;
        let (me, them) = (side.index(), 1 - side.index());
        let geometry = &self.geometry;
        let range = geometry.cell_start[cell] as usize..geometry.cell_start[cell + 1] as usize;
        let mut complete = false;
        let stride = k + 1;
        let index = |c: [u8; 2]| c[0] as usize * stride + c[1] as usize;
        for &w in &geometry.cell_windows[range] {
            let c = &mut self.counts[w as usize];
            let before = geometry.states[index(*c)];
            if add {
                c[me] += 1;
                complete |= c[me] as usize == k;
            } else {
                c[me] -= 1;
            }
            let after = geometry.states[index(*c)];
            let window = &geometry.windows[w as usize * k..(w as usize + 1) * k];
            // A window that held both sides' stones adds nothing before or after.
            if all_tables && !self.candidate.is_empty() && before.candidate != after.candidate {
                let delta = [0, 1].map(|s| after.candidate[s] - before.candidate[s]);
                for &x in window {
                    let v = &mut self.candidate[x as usize];
                    v[0] += delta[0];
                    v[1] += delta[1];
                }
            }
            for side in [me, them] {
                self.line_score[side] += after.weight[side] - before.weight[side];
                let (b, a) = (before.bucket[side], after.bucket[side]);
                if b == a {
                    continue;
                }
                if b != 0 {
                    self.open[side][b as usize] -= 1;
                }
                if a != 0 {
                    self.open[side][a as usize] += 1;
                }
                if (b == 2) != (a == 2) && k > 2 && !self.two_short.is_empty() {
                    for &x in window {
                        let t = &mut self.two_short[x as usize][side];
                        if a == 2 {
                            *t += 1;
                        } else {
                            *t -= 1;
                        }
                        // Crossing 2 (up after a +1, down after a -1) on an empty square.
                        if *t == 1 + u8::from(a == 2) && self.cells[x as usize] == 0 {
                            self.double_four_squares[side] += if a == 2 { 1 } else { -1 };
                        }
                    }
                }
            }
        }
        complete
    }

    /// Open windows of side `side` (by index) one stone short of k.
    #[inline]
    pub(super) fn threats(&self, side: usize) -> i32 {
        self.open[side][1]
    }

    /// Appends the empty squares within two steps (across, down or diagonally) of a
    /// stone, in square order: a square that blocks or completes a line one stone short
    /// is always next to a stone of its line, and so is every empty square of a window
    /// two stones short.
    /// Boards of more than [`NEAR_ONLY_ABOVE`] squares only (none on the others).
    fn near_squares(&self, out: &mut Vec<MnkMove>) {
        out.extend(
            self.near
                .iter()
                .zip(&self.cells)
                .enumerate()
                .filter(|&(_, (&near, &c))| near > 0 && c == 0)
                .map(|(cell, _)| MnkMove(cell as u16)),
        );
    }

    /// Plays `mv`; `all_tables` false leaves [`Mnk::candidate`] and [`Mnk::near`] as they
    /// are, for the VCF, which reads neither and takes every stone back
    /// ([`Mnk::take_back`] with the same flag).
    pub(super) fn place(&mut self, mv: MnkMove, all_tables: bool) {
        let cell = mv.0 as usize;
        debug_assert!(self.cells[cell] == 0 && self.outcome.is_none());
        let side = self.to_move;
        self.count_double_four_square(cell, false);
        self.cells[cell] = Mnk::code(side);
        self.filled += 1;
        self.toggle(cell, side);
        if all_tables {
            self.update_near(cell, true);
        }
        self.to_move = side.other();
        if self.update_windows(cell, side, true, all_tables)
            && (!self.settings.exact || self.wins_at(cell, side))
        {
            self.outcome = Some(Outcome::Win(side));
        } else if self.filled == self.cells.len() {
            self.outcome = Some(Outcome::Draw);
        }
    }

    /// Takes back `mv`, the last move played by [`Mnk::place`] with the same `all_tables`.
    pub(super) fn take_back(&mut self, mv: MnkMove, all_tables: bool) {
        let cell = mv.0 as usize;
        let side = self.to_move.other();
        // The windows first, while the square is still filled (see
        // `count_double_four_square`).
        self.update_windows(cell, side, false, all_tables);
        self.cells[cell] = 0;
        self.count_double_four_square(cell, true);
        self.filled -= 1;
        self.toggle(cell, side);
        if all_tables {
            self.update_near(cell, false);
        }
        self.to_move = side;
        // Moves are only made while the game is on, so taking one back reopens it.
        self.outcome = None;
    }

    /// Rebuilds window counts and line statistics from the cells.
    pub(super) fn recompute_windows(&mut self) {
        self.counts.iter_mut().for_each(|c| *c = [0, 0]);
        self.line_score = [0; 2];
        self.open = [[0; eval::OPEN_BUCKETS]; 2];
        self.clear_square_tables();
        for cell in 0..self.cells.len() {
            if let Some(side) = self.stone(cell) {
                self.update_windows(cell, side, true, true);
                self.update_near(cell, true);
            }
        }
    }
}

impl Game for Mnk {
    /// The single-reply extension (on large boards the block of a four is often the one
    /// move [`Game::search_moves`] leaves), and late move reductions on large boards only
    /// ([`Game::inexact_pruning_here`]), so that the small boards stay exact to the
    /// search's depth.
    fn selectivity() -> crate::game::Selectivity {
        crate::game::Selectivity {
            single_reply: true,
            reductions: true,
            ..crate::game::Selectivity::NONE
        }
    }

    fn inexact_pruning_here(&self) -> bool {
        self.cells.len() > NEAR_ONLY_ABOVE
    }

    fn prover(memory: usize) -> Option<Box<dyn crate::prover::Prover<Self>>> {
        Some(Box::new(solve::ThreatProver::new(memory)))
    }

    type Move = MnkMove;
    type Undo = ();
    type Settings = MnkSettings;
    type Heuristic = MnkHeuristic;

    const NAME: &'static str = "mnk";

    fn params() -> &'static [ParamSpec] {
        &[
            ParamSpec {
                name: "m",
                min: 1,
                max: MAX_SIZE as i64,
                default: 3,
                doc: "board width (columns)",
                quiet_default: false,
            },
            ParamSpec {
                name: "n",
                min: 1,
                max: MAX_SIZE as i64,
                default: 3,
                doc: "board height (rows)",
                quiet_default: false,
            },
            ParamSpec {
                name: "k",
                min: 1,
                max: MAX_SIZE as i64,
                default: 3,
                doc: "stones in a row to win",
                quiet_default: false,
            },
            ParamSpec {
                name: "exact",
                min: 0,
                max: 1,
                default: 0,
                doc: "1: only exactly k in a row wins, a longer line does not (Gomocup rule 1)",
                quiet_default: true,
            },
        ]
    }

    fn settings(values: &[i64]) -> Result<MnkSettings, String> {
        let (m, n, k) = (values[0] as usize, values[1] as usize, values[2] as usize);
        let exact = values.get(3).is_some_and(|&e| e == 1);
        if k > m.max(n) {
            return Err(format!(
                "k={k} can never be reached on a board of width m={m} and height n={n}"
            ));
        }
        Ok(MnkSettings { m, n, k, exact })
    }

    fn param_values(s: &MnkSettings) -> Vec<i64> {
        vec![s.m as i64, s.n as i64, s.k as i64, i64::from(s.exact)]
    }

    fn start(settings: &MnkSettings) -> Mnk {
        Mnk::empty(*settings)
    }

    fn settings_of(&self) -> &MnkSettings {
        &self.settings
    }

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "x",
            Side::Second => "o",
        }
    }

    fn generate_moves(&self, out: &mut Vec<MnkMove>) {
        if self.outcome.is_some() {
            return;
        }
        out.extend(
            self.cells
                .iter()
                .enumerate()
                .filter(|(_, &c)| c == 0)
                .map(|(i, _)| MnkMove(i as u16)),
        );
    }

    fn make_move(&mut self, mv: MnkMove) {
        self.place(mv, true);
    }

    fn unmake_move(&mut self, mv: MnkMove, _undo: ()) {
        self.take_back(mv, true);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn hash(&self) -> u64 {
        self.hashes[..self.geometry.symmetries]
            .iter()
            .copied()
            .min()
            .unwrap_or(0)
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut copy = self.clone();
        copy.rehash();
        copy.hash()
    }
    fn parse_move(&self, text: &str) -> Result<MnkMove, MoveError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: MnkMove) -> String {
        notation::square_name(self.settings.m, mv.0 as usize)
    }

    fn parse_position(settings: &MnkSettings, text: &str) -> Result<Mnk, PositionError> {
        notation::parse_position(*settings, text)
    }

    fn format_position(&self) -> String {
        notation::format_position(self)
    }

    fn render(&self) -> Vec<String> {
        notation::render(self)
    }

    fn heuristics() -> &'static [(&'static str, MnkHeuristic)] {
        eval::HEURISTICS
    }

    fn evaluate(&self, heuristic: MnkHeuristic) -> i32 {
        eval::evaluate(self, heuristic)
    }

    fn bench_positions() -> &'static [(&'static str, &'static str, u32)] {
        &[
            ("m=3 n=3 k=3", "startpos", 9),
            ("m=4 n=4 k=4", "startpos", 8),
            ("m=5 n=5 k=4", "startpos", 6),
            ("m=5 n=5 k=4", "5/5/2x2/1o3/5 x", 7),
            (
                "m=15 n=15 k=5",
                "15/15/15/15/15/15/15/7x7/6o8/15/15/15/15/15/15 x",
                4,
            ),
        ]
    }

    fn move_order_hint(&self, mv: MnkMove) -> i32 {
        eval::order_hint(self, mv)
    }

    /// On boards of more than [`NEAR_ONLY_ABOVE`] squares, the empty squares within two
    /// steps of a stone ([`Mnk::near_squares`]), narrowed as gomoku engines do: a line's
    /// last square if there is one, else the blocks of the opponent's, else every answer
    /// to an open four in the making, else the 16 best of them by what they make and
    /// spoil (`eval::keep_candidates`). The empty board: every square.
    fn search_moves(&self, out: &mut Vec<MnkMove>) {
        let (m, n) = (self.settings.m, self.settings.n);
        if m * n <= NEAR_ONLY_ABOVE || self.filled == 0 || self.outcome.is_some() {
            return self.generate_moves(out);
        }
        let before = out.len();
        self.near_squares(out);
        if out.len() == before {
            return self.generate_moves(out);
        }
        eval::keep_candidates(self, out, before);
    }

    /// A window one stone short of k with its last square empty wins next move; two
    /// such windows of the opponent on different empty squares cannot both be blocked.
    /// (Also naming the one square to block when there is only one was measured: finding
    /// it costs a scan of every window at every node with a threat on the board, and
    /// gomoku lost 38% of its games, -85 +- 50 Elo, against this version.)
    fn forced(&self) -> Option<Forced> {
        if self.settings.exact {
            // A window one short may complete an overline: the shortcut would be wrong.
            return None;
        }
        let (me, them) = (self.to_move.index(), 1 - self.to_move.index());
        if self.threats(me) > 0 {
            return Some(Forced::WinNextMove);
        }
        if self.threats(them) < 2 {
            return None;
        }
        let k = self.settings.k;
        let mut first = None;
        for (w, window) in self.geometry.windows.chunks_exact(k).enumerate() {
            let c = self.counts[w];
            if c[them] as usize + 1 != k || c[me] != 0 {
                continue;
            }
            let gap = window
                .iter()
                .copied()
                .find(|&cell| self.cells[cell as usize] == 0)?;
            match first {
                None => first = Some(gap),
                Some(other) if other != gap => return Some(Forced::LossInTwo),
                Some(_) => {}
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ttt() -> Mnk {
        Mnk::start(&MnkSettings::new(3, 3, 3))
    }

    #[test]
    fn row_win_and_draw() {
        let mut g = ttt();
        for text in ["a1", "a2", "b1", "b2", "c1"] {
            let mv = g.parse_move(text).unwrap();
            g.make_move(mv);
        }
        assert_eq!(g.outcome(), Some(Outcome::Win(Side::First)));
        let mut moves = Vec::new();
        g.generate_moves(&mut moves);
        assert!(moves.is_empty());

        // x o x / x o o / o x x : full board, no line.
        let g = Mnk::parse_position(&MnkSettings::new(3, 3, 3), "xox/xoo/oxx o").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn anti_diagonal_win_on_rectangle() {
        // 4 wide, 3 high, k=3: O on d1, c2, b3 is a diagonal.
        let s = MnkSettings::new(4, 3, 3);
        let mut g = Mnk::start(&s);
        for text in ["a1", "d1", "a2", "c2", "d3", "b3"] {
            let mv = g.parse_move(text).unwrap();
            g.make_move(mv);
        }
        assert_eq!(g.outcome(), Some(Outcome::Win(Side::Second)));
    }

    #[test]
    fn unmake_reopens_and_restores_hash() {
        let mut g = ttt();
        let h0 = g.hash();
        let mv = g.parse_move("b2").unwrap();
        g.make_move(mv);
        assert_ne!(g.hash(), h0);
        g.unmake_move(mv, ());
        assert_eq!(g.hash(), h0);
        assert_eq!(g, ttt());
    }

    /// Hand-worked positions for [`Game::forced`].
    #[test]
    fn forced_results_are_seen_without_search() {
        let ttt = MnkSettings::new(3, 3, 3);
        let pos = |s: &MnkSettings, text: &str| Mnk::parse_position(s, text).unwrap();
        // x to move completes the bottom row.
        assert_eq!(pos(&ttt, "oo1/3/xx1 x").forced(), Some(Forced::WinNextMove));
        // o to move, one x threat only: o blocks it, nothing is forced.
        assert_eq!(pos(&ttt, "o2/3/xx1 o").forced(), None);
        // o to move with its own threat wins first, whatever x threatens.
        assert_eq!(
            pos(&ttt, "oo1/x2/xx1 o").forced(),
            Some(Forced::WinNextMove)
        );
        let five = MnkSettings::new(5, 5, 4);
        // An open three of x on the bottom row (a1 and e1 both complete four): o loses.
        assert_eq!(
            pos(&five, "5/5/5/oo3/1xxx1 o").forced(),
            Some(Forced::LossInTwo)
        );
        // Two x threats, a row and a column, that need the same square a1: o blocks both.
        assert_eq!(pos(&five, "o1o2/x4/x1o1o/x4/1xxxo o").forced(), None);
        // The same with x to move (one more o stone): x completes one of them.
        assert_eq!(
            pos(&five, "o1o2/x1o2/x1o1o/x4/1xxxo x").forced(),
            Some(Forced::WinNextMove)
        );
        // Nothing on the board: nothing forced.
        assert_eq!(pos(&five, "5/5/5/5/5 x").forced(), None);
    }

    /// Gomocup rule 1 (and standard gomoku): exactly five wins, six or more does not,
    /// for either side; an exact five in one direction wins beside an overline in another.
    #[test]
    fn exact_rule_refuses_overlines() {
        let exact = MnkSettings {
            exact: true,
            ..MnkSettings::new(9, 9, 5)
        };
        let free = MnkSettings::new(9, 9, 5);
        let play = |s: &MnkSettings, moves: &[&str]| {
            let mut g = Mnk::start(s);
            for text in moves {
                let mv = g.parse_move(text).unwrap();
                assert!(g.outcome().is_none(), "{text} after the end");
                g.make_move(mv);
            }
            g
        };
        // x: a1 b1 c1 d1 e1, exactly five.
        let five = ["a1", "a9", "b1", "b9", "c1", "c9", "d1", "d9", "e1"];
        assert_eq!(play(&exact, &five).outcome(), Some(Outcome::Win(Side::First)));
        // x: a1 b1 c1 d1 f1, then e1 joins them into six: a win in freestyle only.
        let six = ["a1", "a9", "b1", "b9", "c1", "c9", "d1", "d9", "f1", "i5", "e1"];
        assert_eq!(play(&free, &six).outcome(), Some(Outcome::Win(Side::First)));
        let g = play(&exact, &six);
        assert_eq!(g.outcome(), None);
        // Seven, closing a gap from the other end, is no win either.
        let mut seven = six.to_vec();
        seven.extend(["i6", "g1"]);
        assert_eq!(play(&exact, &seven).outcome(), None);
        // The same for o: o's six on row 9 after a wasted x move.
        let o_six = [
            "e5", "a9", "a1", "b9", "b1", "c9", "c1", "d9", "i1", "f9", "i3", "e9",
        ];
        assert_eq!(play(&exact, &o_six).outcome(), None);
        assert_eq!(play(&free, &o_six).outcome(), Some(Outcome::Win(Side::Second)));
        // e5 completes both an overline on row 5 (a5-d5, f5, g5) and an exact five on
        // column e (e1-e4): the five wins.
        let both = [
            "a5", "a9", "b5", "b9", "c5", "c9", "d5", "d9", "f5", "h9", "g5", "i8", "e1",
            "i7", "e2", "i6", "e3", "h8", "e4", "h7", "e5",
        ];
        let g = play(&exact, &both);
        assert_eq!(g.outcome(), Some(Outcome::Win(Side::First)));
        // The board names the five, not a piece of the overline.
        use crate::view::GameView;
        assert_eq!(g.ending().unwrap().squares, ["e1", "e2", "e3", "e4", "e5"]);
        // A position read whole sees the same: an overline alone is no result, and
        // taking the last stone back reopens the game as in freestyle.
        let text = "9/9/9/9/9/9/9/oooo1o3/xxxxxx3 o";
        assert_eq!(Mnk::parse_position(&exact, text).unwrap().outcome(), None);
        assert_eq!(
            Mnk::parse_position(&free, text).unwrap().outcome(),
            Some(Outcome::Win(Side::First))
        );
        let mut g = play(&exact, &five);
        g.unmake_move(Mnk::start(&exact).parse_move("e1").unwrap(), ());
        assert_eq!(g.outcome(), None);
        assert_eq!(g.forced(), None, "no shortcut under the exact rule");
    }

    #[test]
    fn gomoku_searches_the_squares_near_the_stones() {
        let gomoku = MnkSettings::new(15, 15, 5);
        let near = |pos: &Mnk| {
            let mut out = Vec::new();
            pos.near_squares(&mut out);
            out
        };
        let searched = |pos: &Mnk| {
            let mut out = Vec::new();
            pos.search_moves(&mut out);
            out
        };
        assert_eq!(searched(&Mnk::start(&gomoku)).len(), 225);
        let mut pos = Mnk::start(&gomoku);
        pos.make_move(pos.parse_move("h8").unwrap());
        assert_eq!(near(&pos).len(), 24, "5x5 around h8 but h8");
        pos.make_move(pos.parse_move("a1").unwrap());
        let around = near(&pos);
        assert_eq!(around.len(), 24 + 8, "and 3x3 around a1 in the corner, but a1");
        assert!(around.contains(&pos.parse_move("c3").unwrap()));
        assert!(!around.contains(&pos.parse_move("d4").unwrap()));
        // Nothing forced: the 16 best of them, every one near.
        let kept = searched(&pos);
        assert_eq!(kept.len(), 16);
        assert!(kept.iter().all(|mv| around.contains(mv)));
        // Next to the lone stone, on one of its lines, beats two steps off its lines.
        let rank = |text: &str| kept.iter().position(|&mv| mv == pos.parse_move(text).unwrap());
        assert!(rank("i8").unwrap() < rank("j9").unwrap_or(usize::MAX));
        // Boards the threat solver takes whole keep every move.
        let mut small = Mnk::start(&MnkSettings::new(8, 8, 5));
        small.make_move(small.parse_move("a1").unwrap());
        assert_eq!(searched(&small).len(), 63);
    }

    /// Plays `moves` (x first) on a 15x15 five-in-a-row board.
    fn gomoku_after(moves: &str) -> Mnk {
        let mut pos = Mnk::start(&MnkSettings::new(15, 15, 5));
        for text in moves.split_whitespace() {
            pos.make_move(pos.parse_move(text).unwrap());
        }
        pos
    }

    fn searched_names(pos: &Mnk) -> Vec<String> {
        let mut out = Vec::new();
        pos.search_moves(&mut out);
        let mut names: Vec<String> = out.iter().map(|&mv| pos.format_move(mv)).collect();
        names.sort();
        names
    }

    #[test]
    fn a_line_to_complete_or_to_block_is_all_that_is_searched() {
        // x: h8 i8 j8 k8, o to move with stones elsewhere: g8 and l8 both block, and o
        // loses either way, but nothing else is even a try.
        let pos = gomoku_after("h8 h10 i8 c3 j8 m12 k8");
        assert_eq!(searched_names(&pos), ["g8", "l8"]);
        // o also has four in a row (c3 c4 c5 c6): completing it wins, and comes first.
        let pos = gomoku_after("h8 c3 i8 c4 j8 c5 k8 c6 a15");
        assert_eq!(searched_names(&pos), ["c2", "c7"]);
        // Under the exact rule an overline wins nothing, so nothing is narrowed that way.
        let mut exact = MnkSettings::new(15, 15, 5);
        exact.exact = true;
        let mut pos = Mnk::start(&exact);
        for text in "h8 h10 i8 c3 j8 m12 k8".split_whitespace() {
            pos.make_move(pos.parse_move(text).unwrap());
        }
        let mut out = Vec::new();
        pos.search_moves(&mut out);
        assert_eq!(out.len(), 16);
    }

    /// The squares where `pos`'s side to move completes a line (by the rules: the move
    /// is made and the outcome read).
    fn winning_squares_by_rules(pos: &mut Mnk) -> Vec<MnkMove> {
        let mut near = Vec::new();
        pos.near_squares(&mut near);
        near.into_iter()
            .filter(|&mv| {
                pos.make_move(mv);
                let won = matches!(pos.outcome(), Some(Outcome::Win(_)));
                pos.unmake_move(mv, ());
                won
            })
            .collect()
    }

    /// Whether the side to move in `pos` wins within three plies whatever the other
    /// side does: at once, or by a move after which the opponent cannot complete a line
    /// and has two different squares of the side's to block. From the rules alone.
    fn wins_in_three_by_rules(pos: &mut Mnk) -> bool {
        if !winning_squares_by_rules(pos).is_empty() {
            return true;
        }
        let mut near = Vec::new();
        pos.near_squares(&mut near);
        near.into_iter().any(|mv| {
            pos.make_move(mv);
            let defender_wins = !winning_squares_by_rules(pos).is_empty();
            let mut passed = pos.clone();
            passed.to_move = passed.to_move.other();
            let threats = winning_squares_by_rules(&mut passed).len();
            pos.unmake_move(mv, ());
            !defender_wins && threats >= 2
        })
    }

    /// Every square that `search_moves` leaves out when the opponent can make an open
    /// four loses to it, by the rules: on random games, at every position where the
    /// narrowing applies, near squares left out (up to 12) are tried and the opponent is
    /// shown to win within three plies after each.
    #[test]
    fn the_squares_left_out_against_an_open_four_all_lose() {
        let mut state = 0x6f70_656e_u64;
        let mut checked = 0;
        for _game in 0..6 {
            let mut pos = Mnk::start(&MnkSettings::new(15, 15, 5));
            pos.make_move(pos.parse_move("h8").unwrap());
            for _ply in 0..40 {
                if pos.outcome().is_some() {
                    break;
                }
                let mut near = Vec::new();
                pos.near_squares(&mut near);
                if eval::open_four_answers_apply(&pos) {
                    let mut kept = Vec::new();
                    pos.search_moves(&mut kept);
                    assert!(!kept.is_empty());
                    for &mv in near.iter().filter(|mv| !kept.contains(mv)).take(12) {
                        pos.make_move(mv);
                        assert!(
                            wins_in_three_by_rules(&mut pos),
                            "{} {}: the opponent does not win in three",
                            pos.format_position(),
                            pos.format_move(mv)
                        );
                        pos.unmake_move(mv, ());
                        checked += 1;
                    }
                }
                let (next, r) = crate::zobrist::splitmix64(state);
                state = next;
                pos.make_move(near[(r % near.len() as u64) as usize]);
            }
        }
        assert!(checked > 50, "only {checked} squares left out were checked");
    }

    #[test]
    fn exact_is_written_only_when_set() {
        use crate::games::GameSpec;
        let plain = GameSpec::parse("gomoku").unwrap();
        assert_eq!(plain.to_string(), "mnk m=15 n=15 k=5");
        assert_eq!(plain.one_word(), "mnk:m=15,n=15,k=5");
        let exact = GameSpec::parse("gomoku exact=1").unwrap();
        assert_eq!(exact.to_string(), "mnk m=15 n=15 k=5 exact=1");
        assert_eq!(GameSpec::parse(&exact.one_word()).unwrap(), exact);
        assert!(exact.settings_of::<Mnk>().unwrap().exact);
        assert!(GameSpec::parse("gomoku exact=2").is_err());
    }

    #[test]
    fn k_larger_than_board_is_refused() {
        assert!(Mnk::settings(&[3, 3, 4]).is_err());
        assert!(Mnk::settings(&[5, 1, 5]).is_ok());
    }
}
