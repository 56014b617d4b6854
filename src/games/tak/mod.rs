//! Tak on 3x3 to 8x8 boards, and the 4x4 "line of four" variant.
//!
//! Rules (research/rules.md section 1; the Cheapass Games rulebook; Tiltak's conventions
//! where the rulebook is silent):
//! - Reserves per player, stones/capstones: 3x3 10/0, 4x4 15/0, 5x5 21/1, 6x6 30/1,
//!   7x7 40/2, 8x8 50/2. A stone is placed flat or standing (a wall).
//! - First turn: each player places one flat of the opponent's colour (White places a black
//!   flat, then Black a white one), taken from the opponent's reserve; nothing else.
//! - A turn places a piece from the reserve on an empty square, or moves a stack whose top
//!   is the mover's: pick up 1 to min(height, size) pieces from the top, move in one
//!   orthogonal direction and drop at least one piece on every square passed, from the
//!   bottom of the carried pile. Nothing drops on a wall or a capstone, except that a
//!   capstone moving alone (as the last piece of a move) flattens a wall.
//! - A road is an orthogonally connected chain of squares topped by a player's flats or
//!   capstones joining two opposite edges. A road wins at once; a move that completes roads
//!   for both players wins for the mover; a move completing only the opponent's road is
//!   legal and loses.
//! - When the board is full, or either player has placed every piece, the player with more
//!   flats on top wins, with komi: White wins when `2 * (white - black) > halfkomi`, Black
//!   when it is below, a draw when equal (Tiltak's half-komi convention).
//! - A position (board and side to move) seen for the third time since the last placement
//!   is a draw (Tiltak's convention; placements make earlier positions unreachable).
//!
//! The line variant (`line=1`, 4x4 only, protocol.md "Tak"): 15 stones each, no capstones,
//! no opening swap (each player places their own pieces from the first move); four of a
//! player's flats on top in a row, a column or either main diagonal win (the mover when
//! both). Roads do not exist in the variant, the board-full and last-piece endings remain.
//!
//! Representation: `u64` bitboards (square `row * size + col`, row 0 = rank 1) for the
//! top piece's colour, walls and capstones; each stack is its height and a `u128` of piece
//! colours, bottom first (`1` = Black), so every legal stack (at most 104 pieces) fits.
//! A spread is a square, a direction and a drop pattern: bit `i` set when carried piece `i`
//! (counted from the bottom of the carried pile) is the last one dropped on its square.

mod bits;
mod eval;
mod features;
mod net;
#[cfg(test)]
mod net_train;
mod net_weights;
mod notation;
mod policy;
mod ptn;
mod view;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod train;
#[cfg(test)]
mod tune;
mod weights;

use std::sync::OnceLock;

use crate::game::{Forced, Game, MoveError, Outcome, ParamSpec, PositionError, Selectivity, Side};
use crate::zobrist;

pub use eval::TakHeuristic;
pub use notation::{result_code, square_name, stack_text, MIDGAME_6};
pub use ptn::{komi_text, PtnGame, PtnMove};

/// Squares of the largest board.
const MAX_SQ: usize = 64;
/// Pieces in hand (each side) and empty squares below which the search may not pass.
const NULL_MIN_RESERVE: u32 = 3;

/// Directions in PTN order of their offsets: north `+`, east `>`, south `-`, west `<`.
pub const DIR_CHARS: [char; 4] = ['+', '>', '-', '<'];

/// Piece kinds of a placement (and of a stack's top).
pub const FLAT: u8 = 0;
/// A standing stone.
pub const WALL: u8 = 1;
/// A capstone.
pub const CAP: u8 = 2;

static KEYS: [u64; 2 * MAX_SQ + 1] = zobrist::keys(0x5461_6B5F_5A6F_6272);
const SIDE_KEY: u64 = KEYS[2 * MAX_SQ];

/// The SplitMix64 finaliser: a bijective mix of 64 bits.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The hash contribution of one non-empty square: its colours, height and top kind.
#[inline]
fn square_key(sq: usize, colours: u128, height: u8, kind: u8) -> u64 {
    let hi = (colours >> 64) as u64 | u64::from(height) << 48 | u64::from(kind) << 56;
    mix(mix(hi ^ KEYS[2 * sq + 1]) ^ colours as u64 ^ KEYS[2 * sq])
}

#[inline]
fn low_mask(n: u32) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// Drop patterns by number of carried pieces, sorted by the number of squares they cover.
struct Patterns {
    /// `list[c]`: every pattern of `c` pieces (highest bit `c - 1` set), fewest squares first.
    list: [Vec<u8>; 9],
    /// `upto[c][d]`: how many patterns of `c` pieces cover at most `d` squares.
    upto: [[u16; 9]; 9],
    /// `total[m][d]`: patterns of 1..=m pieces covering at most `d` squares.
    total: [[u16; 9]; 9],
    /// `flatten[c][d]`: patterns of `c` pieces covering exactly `d` squares whose last drop
    /// is one piece (a capstone alone, flattening the wall on square `d`).
    flatten: [[Vec<u8>; 9]; 9],
    /// `flatten_total[m][d]`: those of 1..=m pieces.
    flatten_total: [[u16; 9]; 9],
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        let mut p = Patterns {
            list: Default::default(),
            upto: [[0; 9]; 9],
            total: [[0; 9]; 9],
            flatten: Default::default(),
            flatten_total: [[0; 9]; 9],
        };
        for c in 1..=8usize {
            let mut all: Vec<u8> = (0u16..1 << c)
                .filter(|&b| b >> (c - 1) & 1 == 1)
                .map(|b| b as u8)
                .collect();
            all.sort_by_key(|b| (b.count_ones(), *b));
            for d in 0..=8usize {
                p.upto[c][d] = all.iter().filter(|b| b.count_ones() as usize <= d).count() as u16;
                p.flatten[c][d] = all
                    .iter()
                    .copied()
                    .filter(|&b| b.count_ones() as usize == d && (c == 1 || b >> (c - 2) & 1 == 1))
                    .collect();
            }
            p.list[c] = all;
        }
        for m in 1..=8usize {
            for d in 0..=8usize {
                p.total[m][d] = p.total[m - 1][d] + p.upto[m][d];
                p.flatten_total[m][d] = p.flatten_total[m - 1][d] + p.flatten[m][d].len() as u16;
            }
        }
        p
    })
}

/// Board tables of one size.
#[derive(Debug)]
pub(crate) struct Geometry {
    pub(crate) n: usize,
    pub(crate) board: u64,
    pub(crate) col_first: u64,
    pub(crate) col_last: u64,
    pub(crate) row_first: u64,
    pub(crate) row_last: u64,
    /// `ray[sq][dir]`: the squares from `sq` (excluded) to the edge in direction `dir`.
    pub(crate) ray: [[u64; 4]; MAX_SQ],
    /// Square offsets of the four directions.
    pub(crate) offset: [isize; 4],
    /// The line variant's lines of four (rows, columns, both diagonals) on 4x4.
    pub(crate) lines: Vec<u64>,
}

fn build_geometry(n: usize) -> Geometry {
    let sq = |r: usize, c: usize| r * n + c;
    let mut g = Geometry {
        n,
        board: if n * n == 64 {
            u64::MAX
        } else {
            (1u64 << (n * n)) - 1
        },
        col_first: 0,
        col_last: 0,
        row_first: 0,
        row_last: 0,
        ray: [[0; 4]; MAX_SQ],
        offset: [n as isize, 1, -(n as isize), -1],
        lines: Vec::new(),
    };
    for i in 0..n {
        g.col_first |= 1 << sq(i, 0);
        g.col_last |= 1 << sq(i, n - 1);
        g.row_first |= 1 << sq(0, i);
        g.row_last |= 1 << sq(n - 1, i);
    }
    for r in 0..n {
        for c in 0..n {
            let s = sq(r, c);
            for rr in r + 1..n {
                g.ray[s][0] |= 1 << sq(rr, c);
            }
            for cc in c + 1..n {
                g.ray[s][1] |= 1 << sq(r, cc);
            }
            for rr in 0..r {
                g.ray[s][2] |= 1 << sq(rr, c);
            }
            for cc in 0..c {
                g.ray[s][3] |= 1 << sq(r, cc);
            }
        }
    }
    if n == 4 {
        for i in 0..4 {
            g.lines.push((0..4).map(|j| 1u64 << sq(i, j)).sum());
            g.lines.push((0..4).map(|j| 1u64 << sq(j, i)).sum());
        }
        g.lines.push((0..4).map(|j| 1u64 << sq(j, j)).sum());
        g.lines.push((0..4).map(|j| 1u64 << sq(j, 3 - j)).sum());
    }
    g
}

pub(crate) fn geometry(n: usize) -> &'static Geometry {
    static G: [OnceLock<Geometry>; 9] = [const { OnceLock::new() }; 9];
    G[n].get_or_init(|| build_geometry(n))
}

/// Board size, komi and variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TakSettings {
    /// Board width and height, 3 to 8.
    pub size: usize,
    /// Twice the komi given to Black (Tiltak's `HalfKomi`).
    pub half_komi: i32,
    /// The 4x4 line-of-four variant.
    pub line: bool,
}

impl TakSettings {
    /// Stones (flats or walls) per player at the start.
    pub fn stones(&self) -> u8 {
        [0, 0, 0, 10, 15, 21, 30, 40, 50][self.size]
    }

    /// Capstones per player at the start.
    pub fn caps(&self) -> u8 {
        if self.line {
            0
        } else {
            [0, 0, 0, 0, 0, 1, 1, 2, 2][self.size]
        }
    }

    /// Whether the first turn places the opponent's flat.
    pub fn swap_opening(&self) -> bool {
        !self.line
    }
}

/// How a finished game ended (for the PTN result code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndKind {
    /// A road (or, in the line variant, a line of four).
    Road,
    /// Flat count after a full board or a player's last piece.
    Flats,
    /// The third occurrence of a position.
    Repetition,
}

/// A move: a placement (square and kind) or a spread (square, direction, drop pattern).
///
/// Bits 0-5 square, 6-7 kind or direction, 8-15 the drop pattern (0 for a placement).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TakMove(u16);

impl TakMove {
    /// Placing a piece of `kind` ([`FLAT`], [`WALL`], [`CAP`]) on `sq`.
    #[inline]
    pub fn place(sq: usize, kind: u8) -> TakMove {
        TakMove(sq as u16 | u16::from(kind) << 6)
    }

    /// Moving pieces from `sq` towards `dir` (0 `+`, 1 `>`, 2 `-`, 3 `<`) with a drop pattern.
    #[inline]
    pub fn spread(sq: usize, dir: usize, pattern: u8) -> TakMove {
        debug_assert!(pattern != 0);
        TakMove(sq as u16 | (dir as u16) << 6 | u16::from(pattern) << 8)
    }

    /// The square placed on or moved from.
    #[inline]
    pub fn square(self) -> usize {
        (self.0 & 63) as usize
    }

    /// Whether this is a placement.
    #[inline]
    pub fn is_place(self) -> bool {
        self.0 >> 8 == 0
    }

    /// The placed kind (placements only).
    #[inline]
    pub fn kind(self) -> u8 {
        (self.0 >> 6 & 3) as u8
    }

    /// The direction (spreads only).
    #[inline]
    pub fn dir(self) -> usize {
        (self.0 >> 6 & 3) as usize
    }

    /// The drop pattern (spreads only).
    #[inline]
    pub fn pattern(self) -> u8 {
        (self.0 >> 8) as u8
    }

    /// Pieces carried (spreads only).
    #[inline]
    pub fn count(self) -> u32 {
        8 - self.pattern().leading_zeros()
    }

    /// The number of pieces dropped on each square, in order (spreads only).
    pub fn drops(self) -> Vec<u32> {
        let mut out = Vec::new();
        let mut p = u32::from(self.pattern());
        while p != 0 {
            let k = p.trailing_zeros() + 1;
            out.push(k);
            p >>= k;
        }
        out
    }
}

impl std::fmt::Debug for TakMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_place() {
            write!(
                f,
                "Place({}, {})",
                self.square(),
                ["F", "S", "C", "?"][self.kind() as usize]
            )
        } else {
            write!(
                f,
                "Spread({}, {}, {:?})",
                self.square(),
                DIR_CHARS[self.dir()],
                self.drops()
            )
        }
    }
}

/// What `unmake_move` needs.
#[derive(Clone, Copy, Debug)]
pub struct TakUndo {
    hash: u64,
    history_start: u32,
    flattened: bool,
}

/// A Tak position with its repetition history.
#[derive(Clone, Debug)]
pub struct Tak {
    settings: TakSettings,
    geo: &'static Geometry,
    /// Colours of each stack, bottom first (1 = Black).
    colours: [u128; MAX_SQ],
    heights: [u8; MAX_SQ],
    /// Squares whose top piece is White's, Black's.
    tops: [u64; 2],
    walls: u64,
    caps: u64,
    stones_left: [u8; 2],
    caps_left: [u8; 2],
    to_move: Side,
    ply: u32,
    hash: u64,
    finish: Option<(Outcome, EndKind)>,
    /// Hashes of earlier positions since the last placement (the current one excluded).
    history: Vec<u64>,
    history_start: usize,
}

impl PartialEq for Tak {
    fn eq(&self, other: &Self) -> bool {
        self.settings == other.settings
            && self.colours == other.colours
            && self.heights == other.heights
            && self.tops == other.tops
            && self.walls == other.walls
            && self.caps == other.caps
            && self.stones_left == other.stones_left
            && self.caps_left == other.caps_left
            && self.to_move == other.to_move
            && self.ply == other.ply
            && self.finish == other.finish
    }
}
impl Eq for Tak {}

impl Tak {
    fn empty(settings: TakSettings) -> Tak {
        Tak {
            settings,
            geo: geometry(settings.size),
            colours: [0; MAX_SQ],
            heights: [0; MAX_SQ],
            tops: [0; 2],
            walls: 0,
            caps: 0,
            stones_left: [settings.stones(); 2],
            caps_left: [settings.caps(); 2],
            to_move: Side::First,
            ply: 0,
            hash: 0,
            finish: None,
            history: Vec::new(),
            history_start: 0,
        }
    }

    /// Board width.
    #[inline]
    pub fn size(&self) -> usize {
        self.settings.size
    }

    /// Height of the stack on `sq`.
    #[inline]
    pub fn height(&self, sq: usize) -> usize {
        self.heights[sq] as usize
    }

    /// The colour of the piece at `level` (0 = bottom) of the stack on `sq`.
    #[inline]
    pub fn colour_at(&self, sq: usize, level: usize) -> Side {
        if self.colours[sq] >> level & 1 == 1 {
            Side::Second
        } else {
            Side::First
        }
    }

    /// The top piece of `sq`: its owner and kind.
    #[inline]
    pub fn top(&self, sq: usize) -> Option<(Side, u8)> {
        let bit = 1u64 << sq;
        let side = if self.tops[0] & bit != 0 {
            Side::First
        } else if self.tops[1] & bit != 0 {
            Side::Second
        } else {
            return None;
        };
        Some((side, self.kind_at(sq)))
    }

    #[inline]
    fn kind_at(&self, sq: usize) -> u8 {
        let bit = 1u64 << sq;
        if self.walls & bit != 0 {
            WALL
        } else if self.caps & bit != 0 {
            CAP
        } else {
            FLAT
        }
    }

    /// Stones and capstones `side` has left to place.
    pub fn reserves(&self, side: Side) -> (u8, u8) {
        (self.stones_left[side.index()], self.caps_left[side.index()])
    }

    /// Plies played (from the position's move number).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// How the game ended, with the kind of ending.
    pub fn finish(&self) -> Option<(Outcome, EndKind)> {
        self.finish
    }

    #[inline]
    fn occupied(&self) -> u64 {
        self.tops[0] | self.tops[1]
    }

    /// The number of empty squares.
    #[inline]
    pub(crate) fn empty_squares(&self) -> u32 {
        (self.geo.board & !self.occupied()).count_ones()
    }

    /// Squares whose top piece counts for `side`'s roads (flats and capstones).
    #[inline]
    pub(crate) fn road_pieces(&self, side: Side) -> u64 {
        self.tops[side.index()] & !self.walls
    }

    /// Squares topped by `side`'s flats.
    #[inline]
    pub(crate) fn flats(&self, side: Side) -> u64 {
        self.tops[side.index()] & !self.walls & !self.caps
    }

    #[inline]
    fn key_of(&self, sq: usize) -> u64 {
        if self.heights[sq] == 0 {
            0
        } else {
            square_key(sq, self.colours[sq], self.heights[sq], self.kind_at(sq))
        }
    }

    /// Sets the top bitboards of `sq` from its stack (the kind bits are left alone).
    #[inline]
    fn refresh_top(&mut self, sq: usize) {
        let bit = 1u64 << sq;
        self.tops[0] &= !bit;
        self.tops[1] &= !bit;
        let h = self.heights[sq];
        if h > 0 {
            let c = (self.colours[sq] >> (h - 1) & 1) as usize;
            self.tops[c] |= bit;
        }
    }

    /// The squares reached by flooding `road` from `seed`.
    #[inline]
    fn flood(&self, seed: u64, road: u64) -> u64 {
        let g = self.geo;
        let n = g.n;
        let mut r = seed & road;
        loop {
            let next =
                (r | ((r << 1) & !g.col_first) | ((r >> 1) & !g.col_last) | (r << n) | (r >> n))
                    & road;
            if next == r {
                return r;
            }
            r = next;
        }
    }

    /// Whether `side` has a road.
    pub fn has_road(&self, side: Side) -> bool {
        self.road_in(self.road_pieces(side))
    }

    /// Whether the squares `road` join two opposite edges.
    #[inline]
    fn road_in(&self, road: u64) -> bool {
        let g = self.geo;
        if (road.count_ones() as usize) < g.n {
            return false;
        }
        if road & g.col_first != 0
            && road & g.col_last != 0
            && self.flood(road & g.col_first, road) & g.col_last != 0
        {
            return true;
        }
        road & g.row_first != 0
            && road & g.row_last != 0
            && self.flood(road & g.row_first, road) & g.row_last != 0
    }

    /// Whether `side` has four flats in a line (the line variant).
    pub fn has_line(&self, side: Side) -> bool {
        let flats = self.flats(side);
        let complete = |line: &u64| flats & line == *line;
        self.geo.lines.iter().any(complete)
    }

    fn wins_by_road(&self, side: Side) -> bool {
        if self.settings.line {
            self.has_line(side)
        } else {
            self.has_road(side)
        }
    }

    /// Result of the flat count with komi.
    fn flat_result(&self) -> Outcome {
        let w = self.flats(Side::First).count_ones() as i32;
        let b = self.flats(Side::Second).count_ones() as i32;
        match (2 * (w - b) - self.settings.half_komi).signum() {
            1 => Outcome::Win(Side::First),
            -1 => Outcome::Win(Side::Second),
            _ => Outcome::Draw,
        }
    }

    /// Whether the board is full or a player has placed every piece.
    #[inline]
    fn out_of_room(&self) -> bool {
        self.occupied() == self.geo.board
            || (self.stones_left[0] == 0 && self.caps_left[0] == 0)
            || (self.stones_left[1] == 0 && self.caps_left[1] == 0)
    }

    fn repetitions(&self) -> usize {
        self.history[self.history_start..]
            .iter()
            .filter(|&&h| h == self.hash)
            .count()
    }

    /// The ending after `mover` moved (`spread`: the move was a spread), or of a parsed
    /// position (`mover` = the side not to move).
    fn compute_finish(&self, mover: Side, spread: bool) -> Option<(Outcome, EndKind)> {
        if spread && self.repetitions() >= 2 {
            return Some((Outcome::Draw, EndKind::Repetition));
        }
        if self.wins_by_road(mover) {
            return Some((Outcome::Win(mover), EndKind::Road));
        }
        if spread && self.wins_by_road(mover.other()) {
            return Some((Outcome::Win(mover.other()), EndKind::Road));
        }
        if self.out_of_room() {
            return Some((self.flat_result(), EndKind::Flats));
        }
        None
    }

    /// Distance a spread from `sq` towards `dir` can travel (squares before the edge or a
    /// wall or capstone), and whether the square stopping it is a wall.
    #[inline]
    fn reach(&self, sq: usize, dir: usize) -> (usize, bool) {
        let ray = self.geo.ray[sq][dir];
        let blockers = ray & (self.walls | self.caps);
        if blockers == 0 {
            return (ray.count_ones() as usize, false);
        }
        let (first, before) = if dir < 2 {
            let f = blockers.trailing_zeros();
            (f, ray & ((1u64 << f) - 1))
        } else {
            let f = 63 - blockers.leading_zeros();
            (f, ray >> (f + 1))
        };
        (before.count_ones() as usize, self.walls >> first & 1 == 1)
    }

    /// Whether the side to move can end the game with a placement (its last piece, or
    /// on the last empty square) and win the flat count with it (a flat when it has a
    /// stone left, else its capstone).
    fn wins_on_flats_by_placing(&self) -> bool {
        let me = self.to_move;
        let (stones, caps) = self.reserves(me);
        let empty = self.empty_squares();
        if empty == 0 || (stones + caps != 1 && empty != 1) {
            return false;
        }
        let mine = self.flats(me).count_ones() as i32 + i32::from(stones > 0);
        let theirs = self.flats(me.other()).count_ones() as i32;
        let white_lead = if me == Side::First {
            mine - theirs
        } else {
            theirs - mine
        };
        let white_margin = 2 * white_lead - self.settings.half_komi;
        if me == Side::First {
            white_margin > 0
        } else {
            white_margin < 0
        }
    }

    /// Whether the side to move can complete a road with a spread, without generating
    /// the moves (`completions`: the squares that would complete its road,
    /// [`bits::road_completions`]). Two kinds are looked for:
    /// - one flat stepping onto a square of `completions` topped by a stack or the
    ///   opponent's flat, when the road does not need the square it leaves (a step onto an
    ///   empty square of `completions` is a placement's win too);
    /// - a spread from a stack of two or more topped by a flat or a capstone, or from a
    ///   capstone, that leaves one of the mover's pieces on top of every square it drops
    ///   on, or a capstone alone ending the spread on a wall and flattening it.
    ///
    /// Sound: a `true` is a legal move after which the mover has a road, and so wins (the
    /// mover's road wins even when the spread makes one for the opponent too). Not
    /// complete: a road through a square the spread leaves under the opponent's piece, or
    /// made by a wall-topped stack, is not looked for (10 such positions against 211 found
    /// in the random play of the test
    /// `winning_spreads_found_without_generating_them_are_real`).
    ///
    /// Carried pieces are `b1..bk` from the bottom, `bk` the mover's top. Dropped on `j`
    /// squares, a square's top is the last piece of its group, so every square can get an
    /// own top exactly when `j - 1` of `b1..b(k-1)` are the mover's (the ends of the
    /// groups); the square left keeps an own top when the piece under the carried ones is
    /// the mover's. With a flat or capstone on top, more squares covered only add road
    /// pieces, so each direction needs at most two tries: the most squares with an own top
    /// left behind, and the most over all carries.
    fn wins_by_spreading(&self, completions: u64) -> bool {
        let g = self.geo;
        let me = self.to_move.index();
        let road = self.road_pieces(self.to_move);
        let mut steps = completions & self.occupied() & !self.walls & !self.caps & !road;
        while steps != 0 {
            let t = steps.trailing_zeros() as usize;
            steps &= steps - 1;
            let mut from = bits::neighbours(g, 1 << t) & self.flats(self.to_move);
            while from != 0 {
                let sq = from.trailing_zeros() as usize;
                from &= from - 1;
                if self.heights[sq] == 1 && self.road_in((road & !(1 << sq)) | 1 << t) {
                    return true;
                }
            }
        }
        // The first `j` squares of a ray, nearest first.
        let first = |ray: u64, dir: usize, j: usize| -> u64 {
            if j == 0 {
                0
            } else if dir < 2 {
                let mut r = ray;
                for _ in 0..j {
                    r &= r - 1;
                }
                ray & !r
            } else {
                let mut r = ray;
                for _ in 0..j {
                    r &= !(1u64 << (63 - r.leading_zeros()));
                }
                ray & !r
            }
        };
        let mut stacks = self.tops[me];
        // Every square some spread could put an own top on: if even all of them together
        // make no road, no spread does.
        let mut reachable = 0;
        let mut candidates = 0u64;
        while stacks != 0 {
            let sq = stacks.trailing_zeros() as usize;
            stacks &= stacks - 1;
            let h = self.heights[sq] as usize;
            let cap = self.caps >> sq & 1 == 1;
            if (h < 2 && !cap) || self.walls >> sq & 1 == 1 {
                continue;
            }
            candidates |= 1 << sq;
            let carry = h.min(g.n);
            for dir in 0..4 {
                let (dist, wall) = self.reach(sq, dir);
                let ray = g.ray[sq][dir];
                reachable |= first(ray, dir, dist.min(carry));
                if cap && wall && carry > dist {
                    reachable |= first(ray, dir, dist + 1);
                }
            }
        }
        if candidates == 0 || !self.road_in(road | reachable | candidates) {
            return false;
        }
        let own = |sq: usize, level: usize| (self.colours[sq] >> level & 1) as usize == me;
        while candidates != 0 {
            let sq = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let h = self.heights[sq] as usize;
            let bit = 1u64 << sq;
            let cap = self.caps & bit != 0;
            let carry = h.min(g.n);
            for dir in 0..4 {
                let (dist, wall) = self.reach(sq, dir);
                let ray = g.ray[sq][dir];
                // The most squares covered with own tops, over the carries that leave
                // an own piece on the square left and over all carries; and whether the
                // capstone can end on the wall.
                let (mut keep, mut any, mut flatten) = (0, 0, None);
                // Own pieces among b1..b(k-1), for k = 1, 2, ...
                let mut own_below_top = 0;
                for k in 1..=carry {
                    if k >= 2 && own(sq, h - k) {
                        own_below_top += 1;
                    }
                    let stays = h > k && own(sq, h - k - 1);
                    let j = k.min(dist).min(own_below_top + 1);
                    any = any.max(j);
                    if stays {
                        keep = keep.max(j);
                    }
                    if cap
                        && wall
                        && k == dist + 1
                        && own_below_top >= dist
                        && (k == 1 || own(sq, h - 2))
                    {
                        flatten = Some(stays);
                    }
                }
                if keep > 0 && self.road_in(road | bit | first(ray, dir, keep)) {
                    return true;
                }
                if any > keep && self.road_in((road & !bit) | first(ray, dir, any)) {
                    return true;
                }
                if let Some(stays) = flatten {
                    let origin = if stays { road | bit } else { road & !bit };
                    if self.road_in(origin | first(ray, dir, dist + 1)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the opening rule applies to the side to move (it places the opponent's flat).
    #[inline]
    fn opening(&self) -> bool {
        self.ply < 2 && self.settings.swap_opening()
    }

    /// The number of legal moves, counted without generating them.
    pub fn count_legal(&self) -> u64 {
        if self.finish.is_some() {
            return 0;
        }
        let me = self.to_move.index();
        let empties = u64::from(self.empty_squares());
        if self.opening() {
            return empties;
        }
        let mut count = 0;
        if self.stones_left[me] > 0 {
            count += 2 * empties;
        }
        if self.caps_left[me] > 0 {
            count += empties;
        }
        let p = patterns();
        self.spread_rays(|_, _, carry, cap, dist, wall| {
            count += u64::from(p.total[carry][dist]);
            if cap && wall {
                count += u64::from(p.flatten_total[carry][dist + 1]);
            }
        });
        count
    }

    /// Calls `f(square, direction, carry, capstone on top, reach, stopped by a wall)` for
    /// every direction of every stack the side to move controls.
    #[inline]
    fn spread_rays(&self, mut f: impl FnMut(usize, usize, usize, bool, usize, bool)) {
        let mut own = self.tops[self.to_move.index()];
        while own != 0 {
            let sq = own.trailing_zeros() as usize;
            own &= own - 1;
            let carry = (self.heights[sq] as usize).min(self.geo.n);
            let cap = self.caps >> sq & 1 == 1;
            for dir in 0..4 {
                let (dist, wall) = self.reach(sq, dir);
                f(sq, dir, carry, cap, dist, wall);
            }
        }
    }

    /// Puts a stack on an empty square (setup only; hashes are computed afterwards).
    fn put_stack(&mut self, sq: usize, colours: u128, height: u8, kind: u8) {
        self.colours[sq] = colours;
        self.heights[sq] = height;
        self.refresh_top(sq);
        match kind {
            WALL => self.walls |= 1 << sq,
            CAP => self.caps |= 1 << sq,
            _ => {}
        }
    }

    /// Finishes a position built with [`Tak::put_stack`]: reserves, hash and the ending.
    fn finish_setup(&mut self) -> Result<(), String> {
        let s = self.settings;
        let mut stones = [0u32; 2];
        let mut caps = [0u32; 2];
        for sq in 0..s.size * s.size {
            let h = self.heights[sq] as usize;
            for level in 0..h {
                let c = self.colour_at(sq, level).index();
                if level + 1 == h && self.kind_at(sq) == CAP {
                    caps[c] += 1;
                } else {
                    stones[c] += 1;
                }
            }
        }
        for side in Side::BOTH {
            let (i, name) = (side.index(), Self::side_name(side));
            if caps[i] > u32::from(s.caps()) {
                return Err(format!(
                    "{name} has {} capstones on the board; {}x{}{} allows {}",
                    caps[i],
                    s.size,
                    s.size,
                    if s.line { " (line variant)" } else { "" },
                    s.caps()
                ));
            }
            if stones[i] > u32::from(s.stones()) {
                return Err(format!(
                    "{name} has {} stones on the board; {}x{} allows {}",
                    stones[i],
                    s.size,
                    s.size,
                    s.stones()
                ));
            }
            self.stones_left[i] = s.stones() - stones[i] as u8;
            self.caps_left[i] = s.caps() - caps[i] as u8;
        }
        self.hash = self.hash_from_scratch();
        self.finish = self.compute_finish(self.to_move.other(), true);
        Ok(())
    }

    /// The reason `mv` (well formed for this board) is not legal here, if it is not.
    pub(crate) fn illegal_reason(&self, mv: TakMove) -> Option<String> {
        if let Some((outcome, _)) = self.finish {
            return Some(format!("the game is over ({})", outcome.protocol_name()));
        }
        let n = self.geo.n;
        let me = self.to_move;
        let sq = mv.square();
        let name = notation::square_name(n, sq);
        let (stones, caps) = self.reserves(me);
        if mv.is_place() {
            if self.heights[sq] > 0 {
                return Some(format!("{name} is not empty"));
            }
            if self.opening() && mv.kind() != FLAT {
                return Some(
                    "the first move of each player places a flat of the opponent's colour"
                        .to_string(),
                );
            }
            let who = Self::side_name(me);
            return match mv.kind() {
                CAP if self.settings.caps() == 0 => Some(format!(
                    "there are no capstones in this game ({}x{}{})",
                    n,
                    n,
                    if self.settings.line {
                        ", line variant"
                    } else {
                        ""
                    }
                )),
                CAP if caps == 0 => Some(format!("{who} has no capstone left")),
                FLAT | WALL if stones == 0 && !self.opening() => {
                    Some(format!("{who} has no stone left"))
                }
                _ => None,
            };
        }
        if self.opening() {
            return Some(
                "the first move of each player places a flat of the opponent's colour; no stack may move yet"
                    .to_string(),
            );
        }
        let Some((owner, kind)) = self.top(sq) else {
            return Some(format!("{name} is empty"));
        };
        if owner != me {
            return Some(format!(
                "the stack on {name} is topped by {}, not {}",
                Self::side_name(owner),
                Self::side_name(me)
            ));
        }
        let count = mv.count() as usize;
        if count > n {
            return Some(format!("carry {count} exceeds the carry limit {n}"));
        }
        if count > self.height(sq) {
            return Some(format!(
                "carry {count} exceeds the stack's height {} on {name}",
                self.height(sq)
            ));
        }
        let drops = mv.drops();
        let ray = self.geo.ray[sq][mv.dir()];
        if drops.len() > ray.count_ones() as usize {
            return Some(format!(
                "{} squares {} from {name} leave the board",
                drops.len(),
                DIR_CHARS[mv.dir()]
            ));
        }
        let mut at = sq as isize;
        for (i, &k) in drops.iter().enumerate() {
            at += self.geo.offset[mv.dir()];
            let t = at as usize;
            let tname = notation::square_name(n, t);
            match self.top(t) {
                Some((_, CAP)) => return Some(format!("{tname}: cannot drop onto a capstone")),
                Some((_, WALL)) => {
                    let last = i + 1 == drops.len();
                    if !(last && k == 1 && kind == CAP) {
                        return Some(format!(
                            "{tname}: cannot drop onto a wall (only a capstone moving alone flattens it)"
                        ));
                    }
                }
                _ => {}
            }
        }
        None
    }
}

impl Game for Tak {
    type Move = TakMove;
    type Undo = TakUndo;
    type Settings = TakSettings;
    type Heuristic = TakHeuristic;

    const NAME: &'static str = "tak";

    fn params() -> &'static [ParamSpec] {
        &[
            ParamSpec {
                name: "size",
                min: 3,
                max: 8,
                default: 5,
                doc: "board width and height",
                quiet_default: false,
            },
            ParamSpec {
                name: "halfkomi",
                min: -10,
                max: 10,
                default: 0,
                doc: "twice the komi Black gets in a flat count (4 = komi 2)",
                quiet_default: false,
            },
            ParamSpec {
                name: "line",
                min: 0,
                max: 1,
                default: 0,
                doc: "1: the 4x4 line-of-four variant (size=4 only)",
                quiet_default: false,
            },
        ]
    }

    fn settings(values: &[i64]) -> Result<TakSettings, String> {
        let settings = TakSettings {
            size: values[0] as usize,
            half_komi: values[1] as i32,
            line: values[2] == 1,
        };
        if settings.line && settings.size != 4 {
            return Err(format!(
                "line=1 (the line-of-four variant) is played on 4x4 only, not size={}",
                settings.size
            ));
        }
        Ok(settings)
    }

    fn param_values(s: &TakSettings) -> Vec<i64> {
        vec![s.size as i64, i64::from(s.half_komi), i64::from(s.line)]
    }

    fn start(settings: &TakSettings) -> Tak {
        let mut pos = Tak::empty(*settings);
        pos.hash = pos.hash_from_scratch();
        pos
    }

    fn settings_of(&self) -> &TakSettings {
        &self.settings
    }

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "white",
            Side::Second => "black",
        }
    }

    fn generate_moves(&self, out: &mut Vec<TakMove>) {
        if self.finish.is_some() {
            return;
        }
        let me = self.to_move.index();
        let mut empties = self.geo.board & !self.occupied();
        if self.opening() {
            while empties != 0 {
                out.push(TakMove::place(empties.trailing_zeros() as usize, FLAT));
                empties &= empties - 1;
            }
            return;
        }
        let (stones, caps) = (self.stones_left[me] > 0, self.caps_left[me] > 0);
        while empties != 0 {
            let sq = empties.trailing_zeros() as usize;
            empties &= empties - 1;
            if stones {
                out.push(TakMove::place(sq, FLAT));
                out.push(TakMove::place(sq, WALL));
            }
            if caps {
                out.push(TakMove::place(sq, CAP));
            }
        }
        let p = patterns();
        self.spread_rays(|sq, dir, carry, cap, dist, wall| {
            for c in 1..=carry {
                let list = &p.list[c][..p.upto[c][dist] as usize];
                out.extend(list.iter().map(|&pat| TakMove::spread(sq, dir, pat)));
                if cap && wall {
                    out.extend(
                        p.flatten[c][dist + 1]
                            .iter()
                            .map(|&pat| TakMove::spread(sq, dir, pat)),
                    );
                }
            }
        });
    }

    fn count_moves(&self, _buffer: &mut Vec<TakMove>) -> u64 {
        self.count_legal()
    }

    fn make_move(&mut self, mv: TakMove) -> TakUndo {
        debug_assert!(self.finish.is_none());
        let mover = self.to_move;
        let mut undo = TakUndo {
            hash: self.hash,
            history_start: self.history_start as u32,
            flattened: false,
        };
        self.history.push(self.hash);
        let sq = mv.square();
        let spread = !mv.is_place();
        if !spread {
            let kind = mv.kind();
            let colour = if self.opening() { mover.other() } else { mover };
            let c = colour.index();
            if kind == CAP {
                self.caps_left[c] -= 1;
            } else {
                self.stones_left[c] -= 1;
            }
            self.put_stack(sq, c as u128, 1, kind);
            self.hash ^= square_key(sq, c as u128, 1, kind);
            self.history_start = self.history.len();
        } else {
            let count = mv.count();
            let h = u32::from(self.heights[sq]);
            let kind = self.kind_at(sq);
            let bit = 1u64 << sq;
            self.hash ^= self.key_of(sq);
            let mut carried = self.colours[sq] >> (h - count);
            self.colours[sq] &= low_mask(h - count);
            self.heights[sq] = (h - count) as u8;
            self.walls &= !bit;
            self.caps &= !bit;
            self.refresh_top(sq);
            self.hash ^= self.key_of(sq);
            let step = self.geo.offset[mv.dir()];
            let mut at = sq as isize;
            let mut pat = u32::from(mv.pattern());
            while pat != 0 {
                let k = pat.trailing_zeros() + 1;
                pat >>= k;
                at += step;
                let t = at as usize;
                let tbit = 1u64 << t;
                self.hash ^= self.key_of(t);
                if self.walls & tbit != 0 {
                    undo.flattened = true;
                    self.walls &= !tbit;
                }
                let th = u32::from(self.heights[t]);
                self.colours[t] |= (carried & low_mask(k)) << th;
                self.heights[t] = (th + k) as u8;
                carried >>= k;
                if pat == 0 {
                    match kind {
                        WALL => self.walls |= tbit,
                        CAP => self.caps |= tbit,
                        _ => {}
                    }
                }
                self.refresh_top(t);
                self.hash ^= self.key_of(t);
            }
        }
        self.hash ^= SIDE_KEY;
        self.to_move = mover.other();
        self.ply += 1;
        self.finish = self.compute_finish(mover, spread);
        undo
    }

    fn unmake_move(&mut self, mv: TakMove, undo: TakUndo) {
        self.to_move = self.to_move.other();
        self.ply -= 1;
        self.finish = None;
        self.hash = undo.hash;
        self.history.pop();
        self.history_start = undo.history_start as usize;
        let sq = mv.square();
        let bit = 1u64 << sq;
        if mv.is_place() {
            let c = self.colours[sq] as usize & 1;
            if self.caps & bit != 0 {
                self.caps_left[c] += 1;
            } else {
                self.stones_left[c] += 1;
            }
            self.colours[sq] = 0;
            self.heights[sq] = 0;
            self.walls &= !bit;
            self.caps &= !bit;
            self.refresh_top(sq);
            return;
        }
        let drops = mv.pattern();
        let segments = drops.count_ones() as isize;
        let step = self.geo.offset[mv.dir()];
        let last = (sq as isize + segments * step) as usize;
        let kind = self.kind_at(last);
        let lbit = 1u64 << last;
        self.walls &= !lbit;
        self.caps &= !lbit;
        if undo.flattened {
            self.walls |= lbit;
        }
        // Walk back from the last square, taking each square's dropped pieces off its top
        // and gathering them (bottom of the carried pile first) in `carried`.
        let mut carried: u128 = 0;
        let mut lengths = [0u32; 8];
        let mut pat = u32::from(drops);
        let mut i = 0;
        while pat != 0 {
            let k = pat.trailing_zeros() + 1;
            pat >>= k;
            lengths[i] = k;
            i += 1;
        }
        let mut at = last as isize;
        for &k in lengths[..i].iter().rev() {
            let t = at as usize;
            let th = u32::from(self.heights[t]) - k;
            carried = carried << k | (self.colours[t] >> th & low_mask(k));
            self.colours[t] &= low_mask(th);
            self.heights[t] = th as u8;
            self.refresh_top(t);
            at -= step;
        }
        let count = mv.count();
        let h = u32::from(self.heights[sq]);
        self.colours[sq] |= carried << h;
        self.heights[sq] = (h + count) as u8;
        match kind {
            WALL => self.walls |= bit,
            CAP => self.caps |= bit,
            _ => {}
        }
        self.refresh_top(sq);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.finish.map(|f| f.0)
    }

    fn result_detail(&self) -> Option<String> {
        self.finish
            .map(|(outcome, kind)| notation::result_code(outcome, kind).to_string())
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for sq in 0..self.settings.size * self.settings.size {
            h ^= self.key_of(sq);
        }
        if self.to_move == Side::Second {
            h ^= SIDE_KEY;
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<TakMove, MoveError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: TakMove) -> String {
        notation::format_move(self.geo.n, mv)
    }

    fn parse_position(settings: &TakSettings, text: &str) -> Result<Tak, PositionError> {
        notation::parse_position(*settings, text)
    }

    fn format_position(&self) -> String {
        notation::format_tps(self)
    }

    fn read_position_file(
        settings: &TakSettings,
        text: &str,
    ) -> Result<(TakSettings, String), PositionError> {
        notation::read_position_file(*settings, text)
    }

    fn render(&self) -> Vec<String> {
        notation::render(self)
    }

    fn heuristics() -> &'static [(&'static str, TakHeuristic)] {
        eval::HEURISTICS
    }

    fn evaluate(&self, heuristic: TakHeuristic) -> i32 {
        eval::evaluate(self, heuristic)
    }

    fn bench_positions() -> &'static [(&'static str, &'static str, u32)] {
        &[
            ("size=5", "startpos", 5),
            ("size=5", "x5/x5/x2,2,x2/x,1,1,2,x/x5 1 4", 5),
            ("size=6", notation::MIDGAME_6, 5),
        ]
    }

    fn move_order_hint(&self, mv: TakMove) -> i32 {
        eval::order_hint(self, mv)
    }

    fn selectivity() -> Selectivity {
        Selectivity {
            reductions: true,
            late_pruning: true,
            null_move: true,
            futility: true,
            single_reply: false,
        }
    }

    /// On 5x5 only. Against Tiltak at fixed nodes (agon 20,000, Tiltak 4,000 visits, 600
    /// games) 56.3% with it against 51.7% without; on 6x6 komi 2, 30.3% against 42.3% (300
    /// games), so not there; other sizes not measured.
    fn history_malus(&self) -> bool {
        self.settings.size == 5 && !self.settings.line
    }

    /// The game ends when a player has placed every piece or the board is full, so the
    /// moves left follow the pieces in hand: `4 + 1.5 x` the smaller reserve (or the
    /// empty squares, if fewer), the half of the moves that are not placements being
    /// spreads. Fitted to 80 games against Tiltak on 6x6 komi 2 (10 s + 0.1 s and 0.28 s a
    /// move, 3,500 positions): the median number of plies left was 3 x the smaller
    /// reserve + 8 at every reserve from 30 down to 3.
    fn moves_left(&self) -> Option<u32> {
        let reserve = |i: usize| u32::from(self.stones_left[i] + self.caps_left[i]);
        let placements = reserve(0).min(reserve(1)).min(self.empty_squares());
        Some(4 + placements * 3 / 2)
    }

    /// A pass is allowed where it cannot flip the game's end: not in the opening, and
    /// only while both sides have at least [`NULL_MIN_RESERVE`] pieces in hand and the
    /// board at least as many empty squares (near the flat count, passing is a move that
    /// Tak does not have, and the evaluation would be fooled by it).
    fn make_null(&mut self) -> bool {
        let in_hand = |side: Side| {
            let (stones, caps) = self.reserves(side);
            u32::from(stones + caps)
        };
        if self.finish.is_some()
            || self.opening()
            || in_hand(Side::First) < NULL_MIN_RESERVE
            || in_hand(Side::Second) < NULL_MIN_RESERVE
            || self.empty_squares() < NULL_MIN_RESERVE
        {
            return false;
        }
        self.hash ^= SIDE_KEY;
        self.to_move = self.to_move.other();
        true
    }

    fn unmake_null(&mut self) {
        self.hash ^= SIDE_KEY;
        self.to_move = self.to_move.other();
    }

    /// The fitted move scores where the board size has them, else the hand-made hint.
    fn order_scores(&self, moves: &[TakMove], scores: &mut Vec<i32>) {
        scores.clear();
        match weights::move_weights_for(&self.settings) {
            Some(w) => {
                let cx = policy::Context::new(self);
                scores.extend(moves.iter().map(|&mv| {
                    (policy::move_score(self, &cx, mv, w) * policy::ORDER_SCALE) as i32
                }));
            }
            None => scores.extend(moves.iter().map(|&mv| eval::order_hint(self, mv))),
        }
    }

    /// A win with the next move that the position shows without search: a flat placed on
    /// a square that completes a road, or a spread that completes one
    /// ([`Tak::wins_by_spreading`]; roads only: not in the line variant, nor in the
    /// opening), or a placement that ends the game (the mover's last piece, or the last
    /// empty square) with the mover ahead on flats, komi counted.
    fn forced(&self) -> Option<Forced> {
        let (stones, caps) = self.reserves(self.to_move);
        if self.finish.is_some() || self.opening() || stones + caps == 0 {
            return None;
        }
        if self.wins_on_flats_by_placing() {
            return Some(Forced::WinNextMove);
        }
        if self.settings.line {
            return None;
        }
        let completions = bits::road_completions(self, self.to_move);
        let empty = self.geo.board & !self.occupied();
        (completions & empty != 0 || self.wins_by_spreading(completions))
            .then_some(Forced::WinNextMove)
    }
}
