//! m,n,k games: `k` in a row (orthogonally or diagonally) on an `m` wide, `n` high
//! board wins; a full board without a line is a draw. Tic-tac-toe is `mnk m=3 n=3 k=3`.
//!
//! Rules: Wikipedia "m,n,k-game". The first player is X, the second O. Squares are named
//! by column letter (`a` at the left) and row number (`1` at the bottom), as on a chess board.

mod eval;
mod notation;
pub mod solve;
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
}

/// Every window of k squares in a line, and for each square the windows through it.
#[derive(Debug)]
struct Geometry {
    /// Windows, flattened: k squares each.
    windows: Vec<u16>,
    /// `cell_windows[cell_start[c]..cell_start[c + 1]]` are the windows through square c.
    cell_start: Vec<u32>,
    cell_windows: Vec<u32>,
    /// `symmetry[cell][t]`: the image of `cell` under symmetry `t` (bit 0 mirrors the
    /// columns, bit 1 the rows, bit 2 transposes; only on square boards).
    symmetry: Vec<[u16; 8]>,
    /// Symmetries of the board: 8 when square, else 4.
    symmetries: usize,
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

fn build_geometry(s: MnkSettings) -> Arc<Geometry> {
    let windows = build_windows(s);
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
        cell_start,
        cell_windows,
        symmetry,
        symmetries: if m == n { 8 } else { 4 },
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

fn build_windows(s: MnkSettings) -> Vec<u16> {
    let mut out = Vec::new();
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
            }
        }
    }
    out
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

    /// The sides that have k in a row somewhere (from scratch).
    fn lines_on_board(&self) -> [bool; 2] {
        let mut found = [false; 2];
        for window in self.geometry.windows.chunks_exact(self.settings.k) {
            let first = self.cells[window[0] as usize];
            if first != 0 && window.iter().all(|&c| self.cells[c as usize] == first) {
                found[first as usize - 1] = true;
            }
        }
        found
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
        }
    }

    /// Adds (or removes) a stone of `side` on `cell` in every window through it, keeping
    /// the line statistics current. Returns whether a window is now full of `side`.
    #[inline]
    fn update_windows(&mut self, cell: usize, side: Side, add: bool) -> bool {
        let k = self.settings.k;
        let (me, them) = (side.index(), 1 - side.index());
        let geometry = &self.geometry;
        let range = geometry.cell_start[cell] as usize..geometry.cell_start[cell + 1] as usize;
        let mut complete = false;
        for &w in &geometry.cell_windows[range] {
            let c = &mut self.counts[w as usize];
            let (before_me, before_them) = (
                contribution(c[me], c[them], k),
                contribution(c[them], c[me], k),
            );
            if add {
                c[me] += 1;
                complete |= c[me] as usize == k;
            } else {
                c[me] -= 1;
            }
            let (after_me, after_them) = (
                contribution(c[me], c[them], k),
                contribution(c[them], c[me], k),
            );
            self.line_score[me] += after_me.0 - before_me.0;
            self.line_score[them] += after_them.0 - before_them.0;
            for (side, before, after) in
                [(me, before_me, after_me), (them, before_them, after_them)]
            {
                if before.1 != after.1 {
                    if before.1 != 0 {
                        self.open[side][before.1] -= 1;
                    }
                    if after.1 != 0 {
                        self.open[side][after.1] += 1;
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

    /// Rebuilds window counts and line statistics from the cells.
    pub(super) fn recompute_windows(&mut self) {
        self.counts.iter_mut().for_each(|c| *c = [0, 0]);
        self.line_score = [0; 2];
        self.open = [[0; eval::OPEN_BUCKETS]; 2];
        for cell in 0..self.cells.len() {
            if let Some(side) = self.stone(cell) {
                self.update_windows(cell, side, true);
            }
        }
    }
}

impl Game for Mnk {
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
            },
            ParamSpec {
                name: "n",
                min: 1,
                max: MAX_SIZE as i64,
                default: 3,
                doc: "board height (rows)",
            },
            ParamSpec {
                name: "k",
                min: 1,
                max: MAX_SIZE as i64,
                default: 3,
                doc: "stones in a row to win",
            },
        ]
    }

    fn settings(values: &[i64]) -> Result<MnkSettings, String> {
        let (m, n, k) = (values[0] as usize, values[1] as usize, values[2] as usize);
        if k > m.max(n) {
            return Err(format!(
                "k={k} can never be reached on a board of width m={m} and height n={n}"
            ));
        }
        Ok(MnkSettings { m, n, k })
    }

    fn param_values(s: &MnkSettings) -> Vec<i64> {
        vec![s.m as i64, s.n as i64, s.k as i64]
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
        let cell = mv.0 as usize;
        debug_assert!(self.cells[cell] == 0 && self.outcome.is_none());
        let side = self.to_move;
        self.cells[cell] = Mnk::code(side);
        self.filled += 1;
        self.toggle(cell, side);
        self.to_move = side.other();
        if self.update_windows(cell, side, true) {
            self.outcome = Some(Outcome::Win(side));
        } else if self.filled == self.cells.len() {
            self.outcome = Some(Outcome::Draw);
        }
    }

    fn unmake_move(&mut self, mv: MnkMove, _undo: ()) {
        let cell = mv.0 as usize;
        let side = self.to_move.other();
        self.cells[cell] = 0;
        self.filled -= 1;
        self.toggle(cell, side);
        self.to_move = side;
        self.update_windows(cell, side, false);
        // Moves are only made while the game is on, so taking one back reopens it.
        self.outcome = None;
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

    /// A window one stone short of k with its last square empty wins next move; two
    /// such windows of the opponent on different empty squares cannot both be blocked.
    /// (Also naming the one square to block when there is only one was measured: finding
    /// it costs a scan of every window at every node with a threat on the board, and
    /// gomoku lost 38% of its games, -85 +- 50 Elo, against this version.)
    fn forced(&self) -> Option<Forced> {
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
        Mnk::start(&MnkSettings { m: 3, n: 3, k: 3 })
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
        let g = Mnk::parse_position(&MnkSettings { m: 3, n: 3, k: 3 }, "xox/xoo/oxx o").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn anti_diagonal_win_on_rectangle() {
        // 4 wide, 3 high, k=3: O on d1, c2, b3 is a diagonal.
        let s = MnkSettings { m: 4, n: 3, k: 3 };
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
        let ttt = MnkSettings { m: 3, n: 3, k: 3 };
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
        let five = MnkSettings { m: 5, n: 5, k: 4 };
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

    #[test]
    fn k_larger_than_board_is_refused() {
        assert!(Mnk::settings(&[3, 3, 4]).is_err());
        assert!(Mnk::settings(&[5, 1, 5]).is_ok());
    }
}
