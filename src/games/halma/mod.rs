//! Halma for two players on 8x8, 10x10 and 16x16 boards.
//!
//! Rules (research/rules.md section 4; Wikipedia "Halma", "Play sequence"; camp shapes from
//! http://www.lots-of-kids-games.com/halma.html): each side starts in a corner camp, rows
//! counted from the corner of 5, 5, 4, 3, 2 squares (16x16, 19 pieces), 5, 4, 3, 2, 1
//! (10x10, 15) or 4, 3, 2, 1 (8x8, 10). White (`w`, [`Side::First`]) starts in the corner at
//! `a1` and moves first; Black (`b`) starts in the opposite corner. A move is one step to an
//! empty neighbour (8 directions) or a chain of jumps over an adjacent piece of either colour
//! to the empty square beyond; jumped pieces stay. A move is its start and end square; a
//! chain back to its start is no move. A piece in the opposing camp may not end a move
//! outside it.
//!
//! Winning: after a move, the mover wins when every square of the opposing camp is occupied
//! and (rule `strict=0`, David Parlett's) at least one holds a piece of the mover, or
//! (`strict=1`) all hold pieces of the mover. Draws: `limit` plies played; the same
//! position (board and side to move) for the third time; a side to move with no legal move
//! (not seen in practice; it would need every piece boxed in).
//!
//! Move generation: a mailbox of 256 squares with precomputed step and jump tables and
//! 4 x u64 bitboards for occupancy and camps; jump chains use a fixed stack and a visited
//! bitset, and destinations collect in a bitset (deduplicated, no allocation).

mod eval;
mod notation;
mod view;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tune;

use std::sync::OnceLock;

use crate::game::{Game, MoveError, Outcome, ParamSpec, PositionError, Side};
use crate::zobrist;

pub use eval::HalmaHeuristic;

/// Squares of the largest board.
const MAX_CELLS: usize = 256;
/// No square (a `u16`, as `u8::MAX` is the square `p16` of the 16x16 board).
const NONE: u16 = u16::MAX;
/// Slots of the repetition counter (indexed by the low hash bits).
const REP_SLOTS: usize = 4096;

static KEYS: [u64; 2 * MAX_CELLS + 1] = zobrist::keys(0x4861_6C6D_615F_6B65);
const SIDE_KEY: u64 = KEYS[2 * MAX_CELLS];

#[inline]
fn piece_key(sq: usize, side: Side) -> u64 {
    KEYS[2 * sq + side.index()]
}

/// A 256-square bitboard.
pub(crate) type Bits = [u64; 4];

#[inline]
fn has(b: &Bits, sq: usize) -> bool {
    b[sq >> 6] >> (sq & 63) & 1 != 0
}
#[inline]
fn set(b: &mut Bits, sq: usize) {
    b[sq >> 6] |= 1 << (sq & 63);
}
#[inline]
fn clear(b: &mut Bits, sq: usize) {
    b[sq >> 6] &= !(1 << (sq & 63));
}
#[inline]
fn is_empty(b: &Bits) -> bool {
    (b[0] | b[1] | b[2] | b[3]) == 0
}
#[inline]
fn and(a: &Bits, b: &Bits) -> Bits {
    [a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]]
}
pub(crate) fn count(b: &Bits) -> u32 {
    b.iter().map(|w| w.count_ones()).sum()
}
/// Calls `f` with every set square, lowest first.
#[inline]
pub(crate) fn for_each(b: &Bits, mut f: impl FnMut(usize)) {
    for (i, &word) in b.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            f(i * 64 + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
}

/// Board tables of one size.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Board width and height.
    pub(crate) n: usize,
    /// Neighbour in each of 8 directions, or `NONE`.
    step: [[u16; 8]; MAX_CELLS],
    /// Square two steps away in each direction, or `NONE`.
    jump: [[u16; 8]; MAX_CELLS],
    /// Home camp of each side.
    pub(crate) camp: [Bits; 2],
    /// Squares per camp.
    pub(crate) camp_size: u32,
    /// Per side: Manhattan distance of a square to the far corner of that side's target.
    pub(crate) dist: [[u8; MAX_CELLS]; 2],
}

const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

fn camp_rows(n: usize) -> &'static [usize] {
    match n {
        8 => &[4, 3, 2, 1],
        10 => &[5, 4, 3, 2, 1],
        _ => &[5, 5, 4, 3, 2],
    }
}

/// The squares of `side`'s home camp on a `size` x `size` board as (file, rank), both
/// from 0 at `a1`: White's camp is the corner at `a1`, Black's the opposite one. For
/// frontends that draw the camps.
pub fn camp_squares(size: usize, side: Side) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (rank, &width) in camp_rows(size).iter().enumerate() {
        for file in 0..width {
            out.push(match side {
                Side::First => (file, rank),
                Side::Second => (size - 1 - file, size - 1 - rank),
            });
        }
    }
    out
}

fn build_geometry(n: usize) -> Geometry {
    let mut g = Geometry {
        n,
        step: [[NONE; 8]; MAX_CELLS],
        jump: [[NONE; 8]; MAX_CELLS],
        camp: [[0; 4]; 2],
        camp_size: camp_rows(n).iter().sum::<usize>() as u32,
        dist: [[0; MAX_CELLS]; 2],
    };
    let on = |r: i32, c: i32| r >= 0 && c >= 0 && r < n as i32 && c < n as i32;
    for r in 0..n as i32 {
        for c in 0..n as i32 {
            let sq = (r * n as i32 + c) as usize;
            for (d, (dr, dc)) in DIRS.iter().enumerate() {
                if on(r + dr, c + dc) {
                    g.step[sq][d] = ((r + dr) * n as i32 + c + dc) as u16;
                }
                if on(r + 2 * dr, c + 2 * dc) {
                    g.jump[sq][d] = ((r + 2 * dr) * n as i32 + c + 2 * dc) as u16;
                }
            }
            let far = n as i32 - 1;
            g.dist[0][sq] = ((far - r) + (far - c)) as u8;
            g.dist[1][sq] = (r + c) as u8;
        }
    }
    for side in [Side::First, Side::Second] {
        for (file, rank) in camp_squares(n, side) {
            set(&mut g.camp[side.index()], rank * n + file);
        }
    }
    g
}

fn geometry(n: usize) -> &'static Geometry {
    static G8: OnceLock<Geometry> = OnceLock::new();
    static G10: OnceLock<Geometry> = OnceLock::new();
    static G16: OnceLock<Geometry> = OnceLock::new();
    match n {
        8 => G8.get_or_init(|| build_geometry(8)),
        10 => G10.get_or_init(|| build_geometry(10)),
        _ => G16.get_or_init(|| build_geometry(16)),
    }
}

/// Board size, win rule and move limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalmaSettings {
    /// Board width and height: 8, 10 or 16.
    pub size: usize,
    /// Win only with every square of the opposing camp held by one's own pieces.
    pub strict: bool,
    /// Plies after which the game is a draw.
    pub limit: u32,
}

/// A move: start and end square (`row * size + column`, row 0 at the bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HalmaMove {
    /// Start square.
    pub from: u8,
    /// End square.
    pub to: u8,
}

/// A Halma position with its hash history (for the repetition rule).
#[derive(Clone, Debug)]
pub struct Halma {
    settings: HalmaSettings,
    geo: &'static Geometry,
    /// 0 empty, 1 White, 2 Black.
    cells: [u8; MAX_CELLS],
    pieces: [Bits; 2],
    occupied: Bits,
    to_move: Side,
    /// Plies played (counts towards the limit; part of the position string).
    ply: u32,
    hash: u64,
    outcome: Option<Outcome>,
    /// Hash of every position since the start or the parsed position, current last.
    history: Vec<u64>,
    /// How many entries of `history` fall in each slot (a filter before the exact scan).
    rep_slots: Vec<u8>,
    /// Per side: sum of the pieces' distances to the far corner, and of their squares.
    pub(crate) dist_sum: [i32; 2],
    pub(crate) dist_sq: [i32; 2],
}

impl PartialEq for Halma {
    fn eq(&self, other: &Self) -> bool {
        self.settings == other.settings
            && self.cells == other.cells
            && self.to_move == other.to_move
            && self.ply == other.ply
            && self.outcome == other.outcome
    }
}
impl Eq for Halma {}

impl Halma {
    fn empty(settings: HalmaSettings) -> Halma {
        Halma {
            settings,
            geo: geometry(settings.size),
            cells: [0; MAX_CELLS],
            pieces: [[0; 4]; 2],
            occupied: [0; 4],
            to_move: Side::First,
            ply: 0,
            hash: 0,
            outcome: None,
            history: Vec::new(),
            rep_slots: vec![0; REP_SLOTS],
            dist_sum: [0; 2],
            dist_sq: [0; 2],
        }
    }

    /// The piece on a square.
    pub fn piece(&self, sq: usize) -> Option<Side> {
        match self.cells[sq] {
            1 => Some(Side::First),
            2 => Some(Side::Second),
            _ => None,
        }
    }

    /// Puts a piece on an empty square (setup only: hash and history are not updated).
    fn put(&mut self, sq: usize, side: Side) {
        self.cells[sq] = side.index() as u8 + 1;
        set(&mut self.pieces[side.index()], sq);
        set(&mut self.occupied, sq);
        let d = i32::from(self.geo.dist[side.index()][sq]);
        self.dist_sum[side.index()] += d;
        self.dist_sq[side.index()] += d * d;
    }

    #[inline]
    fn move_piece(&mut self, side: Side, from: usize, to: usize) {
        let s = side.index();
        self.cells[to] = self.cells[from];
        self.cells[from] = 0;
        clear(&mut self.pieces[s], from);
        set(&mut self.pieces[s], to);
        clear(&mut self.occupied, from);
        set(&mut self.occupied, to);
        let (df, dt) = (
            i32::from(self.geo.dist[s][from]),
            i32::from(self.geo.dist[s][to]),
        );
        self.dist_sum[s] += dt - df;
        self.dist_sq[s] += dt * dt - df * df;
        self.hash ^= piece_key(from, side) ^ piece_key(to, side);
    }

    /// The camp `side` must fill.
    #[inline]
    pub(crate) fn target(&self, side: Side) -> &Bits {
        &self.geo.camp[side.other().index()]
    }

    /// Whether `side` meets the win condition now.
    pub fn has_won(&self, side: Side) -> bool {
        let target = self.target(side);
        if and(&self.occupied, target) != *target {
            return false;
        }
        let own = and(&self.pieces[side.index()], target);
        if self.settings.strict {
            own == *target
        } else {
            !is_empty(&own)
        }
    }

    /// Every square the piece on `from` can end a move on (steps and jump chains,
    /// deduplicated, the camp rule applied).
    #[inline]
    pub(crate) fn destinations(&self, from: usize, side: Side) -> Bits {
        let geo = self.geo;
        let mut dest: Bits = [0; 4];
        for d in 0..8 {
            let t = geo.step[from][d];
            if t != NONE && self.cells[t as usize] == 0 {
                set(&mut dest, t as usize);
            }
        }
        let mut visited: Bits = [0; 4];
        set(&mut visited, from);
        let mut stack = [0u8; MAX_CELLS];
        stack[0] = from as u8;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let sq = stack[top] as usize;
            for d in 0..8 {
                let land = geo.jump[sq][d];
                if land == NONE {
                    continue;
                }
                let (mid, land) = (geo.step[sq][d] as usize, land as usize);
                // The moving piece has left `from`: it cannot be jumped over.
                if self.cells[mid] != 0
                    && mid != from
                    && self.cells[land] == 0
                    && !has(&visited, land)
                {
                    set(&mut visited, land);
                    set(&mut dest, land);
                    stack[top] = land as u8;
                    top += 1;
                }
            }
        }
        let target = self.target(side);
        if has(target, from) {
            dest = and(&dest, target);
        }
        dest
    }

    fn has_any_move(&self) -> bool {
        let side = self.to_move;
        let mut found = false;
        for_each(&self.pieces[side.index()], |sq| {
            if !found && !is_empty(&self.destinations(sq, side)) {
                found = true;
            }
        });
        found
    }

    /// Occurrences of the current hash in the history (the current position included).
    fn repetitions(&self) -> usize {
        let slot = (self.hash as usize) & (REP_SLOTS - 1);
        if self.rep_slots[slot] < 3 {
            return self.rep_slots[slot] as usize;
        }
        self.history.iter().filter(|&&h| h == self.hash).count()
    }

    fn push_history(&mut self) {
        self.history.push(self.hash);
        let slot = (self.hash as usize) & (REP_SLOTS - 1);
        self.rep_slots[slot] = self.rep_slots[slot].saturating_add(1);
    }

    /// The outcome of the position after `mover` moved (or as parsed).
    fn compute_outcome(&self, mover: Side) -> Option<Outcome> {
        if self.has_won(mover) {
            Some(Outcome::Win(mover))
        } else if self.ply >= self.settings.limit || self.repetitions() >= 3 || !self.has_any_move()
        {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }
}

impl Game for Halma {
    type Move = HalmaMove;
    type Undo = ();
    type Settings = HalmaSettings;
    type Heuristic = HalmaHeuristic;

    const NAME: &'static str = "halma";

    fn params() -> &'static [ParamSpec] {
        &[
            ParamSpec {
                name: "size",
                min: 8,
                max: 16,
                default: 16,
                doc: "board size: 8 (10-piece camps), 10 (15) or 16 (19)",
                quiet_default: false,
            },
            ParamSpec {
                name: "strict",
                min: 0,
                max: 1,
                default: 0,
                doc: "1: win only with the whole opposing camp held by own pieces; 0: camp full, one own piece suffices",
                quiet_default: false,
            },
            ParamSpec {
                name: "limit",
                min: 20,
                max: 100_000,
                default: 600,
                doc: "plies after which the game is drawn",
                quiet_default: false,
            },
        ]
    }

    fn settings(values: &[i64]) -> Result<HalmaSettings, String> {
        let size = values[0] as usize;
        if ![8, 10, 16].contains(&size) {
            return Err(format!(
                "size={size}: the board is 8, 10 or 16 squares wide"
            ));
        }
        Ok(HalmaSettings {
            size,
            strict: values[1] == 1,
            limit: values[2] as u32,
        })
    }

    fn param_values(s: &HalmaSettings) -> Vec<i64> {
        vec![s.size as i64, i64::from(s.strict), i64::from(s.limit)]
    }

    fn start(settings: &HalmaSettings) -> Halma {
        let mut pos = Halma::empty(*settings);
        for side in Side::BOTH {
            let camp = pos.geo.camp[side.index()];
            for_each(&camp, |sq| pos.put(sq, side));
        }
        pos.hash = pos.hash_from_scratch();
        pos.push_history();
        pos
    }

    fn settings_of(&self) -> &HalmaSettings {
        &self.settings
    }

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "w",
            Side::Second => "b",
        }
    }

    fn generate_moves(&self, out: &mut Vec<HalmaMove>) {
        if self.outcome.is_some() {
            return;
        }
        let side = self.to_move;
        for_each(&self.pieces[side.index()], |from| {
            let dest = self.destinations(from, side);
            for_each(&dest, |to| {
                out.push(HalmaMove {
                    from: from as u8,
                    to: to as u8,
                })
            });
        });
    }

    fn make_move(&mut self, mv: HalmaMove) {
        debug_assert!(self.outcome.is_none());
        let side = self.to_move;
        self.move_piece(side, mv.from as usize, mv.to as usize);
        self.hash ^= SIDE_KEY;
        self.to_move = side.other();
        self.ply += 1;
        self.push_history();
        self.outcome = self.compute_outcome(side);
    }

    fn unmake_move(&mut self, mv: HalmaMove, _undo: ()) {
        let slot = (self.hash as usize) & (REP_SLOTS - 1);
        self.rep_slots[slot] -= 1;
        self.history.pop();
        let side = self.to_move.other();
        self.move_piece(side, mv.to as usize, mv.from as usize);
        self.hash ^= SIDE_KEY;
        self.to_move = side;
        self.ply -= 1;
        // Moves are only made while the game is on.
        self.outcome = None;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for sq in 0..self.settings.size * self.settings.size {
            if let Some(side) = self.piece(sq) {
                h ^= piece_key(sq, side);
            }
        }
        if self.to_move == Side::Second {
            h ^= SIDE_KEY;
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<HalmaMove, MoveError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: HalmaMove) -> String {
        let n = self.settings.size;
        format!(
            "{}-{}",
            notation::square_name(n, mv.from as usize),
            notation::square_name(n, mv.to as usize)
        )
    }

    fn parse_position(settings: &HalmaSettings, text: &str) -> Result<Halma, PositionError> {
        notation::parse_position(*settings, text)
    }

    fn format_position(&self) -> String {
        notation::format_position(self)
    }

    fn render(&self) -> Vec<String> {
        notation::render(self)
    }

    fn heuristics() -> &'static [(&'static str, HalmaHeuristic)] {
        eval::HEURISTICS
    }

    fn evaluate(&self, heuristic: HalmaHeuristic) -> i32 {
        eval::evaluate(self, heuristic)
    }

    fn bench_positions() -> &'static [(&'static str, &'static str, u32)] {
        &[
            ("size=8", "startpos", 6),
            ("size=10", "startpos", 5),
            ("size=16", "startpos", 5),
            ("size=16", notation::MIDGAME_16, 4),
        ]
    }

    fn move_order_hint(&self, mv: HalmaMove) -> i32 {
        eval::order_hint(self, mv)
    }
}
