//! Clobber on any rectangle of up to [`MAX_SQUARES`] squares (up to 26 columns).
//!
//! # Rules
//! Albert, Grossman and Nowakowski (2001); OpenSpiel's `clobber` game is the reference
//! implementation (`research/rules.md` section 2). The board starts full, colours
//! alternating, with White on `a1` (the bottom-left square). White (the first player,
//! `w`) moves first, Black (`b`) second. A move takes one of your stones onto an
//! orthogonally adjacent opponent stone, which is removed. A player with no legal move
//! loses; there are no draws. A move exists for one side iff one exists for the other
//! (both need a white stone next to a black one), so a position is over exactly when no
//! white stone touches a black one, and then the side to move has lost.
//!
//! # Notation
//! A square is its column letter (`a` at the left) and row number (`1` at the bottom):
//! `a1`, `f5`, `c12`. A move is `from-to`, `a1-b1`; on input `a1b1` (OpenSpiel's form)
//! and capitals are accepted too. A position string gives the rows from the top down,
//! separated by `/`, with `w` and `b` for stones and a number for a run of empty squares
//! (`.` also stands for one empty square on input), then the side to move, `w` or `b`:
//! the 5x6 start is `wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb w`. Any arrangement of stones is
//! accepted. OpenSpiel's custom board string (`0` or `1` for the side to move, then one
//! of `o` white, `x` black or `.` per square, row by row from the top-left) is read too.
//!
//! # Board files
//! [`parse_board_file`] reads a board whose size is not known in advance (the engine's
//! `--position-file`): either one position string as above, or a grid of one line per
//! row from the top, cells `W`, `B`, `_` or `.` in any case, separated by spaces or not
//! (the format of the students' `board.txt`), optionally followed by a line naming the
//! side to move. Details are on the function.
//!
//! # Representation
//! One bitboard per colour ([`MAX_SQUARES`] = 256 bits, so 16x16, 10x25 or 9x26 fit;
//! columns are limited to 26 by the letters), neighbours by shifts and edge masks. Move
//! generation, the game-over test and the heuristics run on 1, 2 or 4 words according
//! to the board size (one word up to 64 squares, so 5x6 and 8x8 pay nothing for the
//! larger boards); the measurements are in the `bitboard` module doc. A move is two
//! square indices; make and unmake flip three bits and update the Zobrist hash.
//!
//! # Heuristics
//! `strong` (the default), `piece-diff`, `mobility-diff`, `own-mobility`,
//! `opp-mobility`, `safe-pieces`, `center` and `adaptive`: see [`ClobberHeuristic`].

/// Runs `f::<N>(args)` with `N` the word count hot paths use on this board (1, 2 or 4).
macro_rules! by_words {
    ($words:expr, $f:ident($($arg:expr),*)) => {
        match $words {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            _ => $f::<4>($($arg),*),
        }
    };
}

mod bitboard;
pub mod book;
mod eval;
mod notation;
pub mod solve;
mod view;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tune;

use crate::game::{Game, MoveError, Outcome, ParamSpec, PositionError, Side};
use crate::zobrist;

pub use bitboard::MAX_SQUARES;
use bitboard::{Bits, Geometry};
pub use eval::ClobberHeuristic;
pub use notation::{parse_board_file, square_name};

/// Most columns: one letter each.
pub const MAX_COLS: usize = 26;

static KEYS: [u64; 2 * MAX_SQUARES + 1] = zobrist::keys(0x636C_6F62_6265_7221);

#[inline]
fn stone_key(square: usize, side: Side) -> u64 {
    KEYS[2 * square + side.index()]
}
const SIDE_KEY: u64 = KEYS[2 * MAX_SQUARES];

/// Board size: `rows` high, `cols` wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClobberSettings {
    geometry: Geometry,
}

impl ClobberSettings {
    /// Settings for a board `rows` high and `cols` wide.
    ///
    /// # Errors
    /// A message when a side is 0, there are more than [`MAX_COLS`] columns or more than
    /// [`MAX_SQUARES`] squares.
    pub fn new(rows: usize, cols: usize) -> Result<ClobberSettings, String> {
        if rows == 0 || cols == 0 {
            return Err(format!("a {rows}x{cols} board has no squares"));
        }
        if cols > MAX_COLS {
            return Err(format!(
                "cols={cols}: at most {MAX_COLS} columns (one letter each)"
            ));
        }
        if rows * cols > MAX_SQUARES {
            return Err(format!(
                "rows={rows} x cols={cols} = {} squares: at most {MAX_SQUARES}",
                rows * cols
            ));
        }
        Ok(ClobberSettings {
            geometry: Geometry::new(rows, cols),
        })
    }

    /// Height of the board.
    pub fn rows(&self) -> usize {
        self.geometry.rows
    }

    /// Width of the board.
    pub fn cols(&self) -> usize {
        self.geometry.cols
    }

    /// Number of squares.
    pub fn squares(&self) -> usize {
        self.geometry.rows * self.geometry.cols
    }
}

/// A move: the square the stone leaves and the square of the captured stone, each
/// `row * cols + col` with row 0 at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClobberMove {
    /// The square the moving stone stands on.
    pub from: u8,
    /// The adjacent square of the stone it captures.
    pub to: u8,
}

/// A Clobber position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clobber {
    settings: ClobberSettings,
    /// Stones of White (index 0) and Black (index 1).
    stones: [Bits; 2],
    to_move: Side,
    hash: u64,
}

impl Clobber {
    /// An empty board with White to move (hash set).
    fn empty(settings: ClobberSettings) -> Clobber {
        let mut pos = Clobber {
            settings,
            stones: [Bits::EMPTY; 2],
            to_move: Side::First,
            hash: 0,
        };
        pos.hash = pos.hash_from_scratch();
        pos
    }

    /// The stone on `square` (`row * cols + col`), `None` when empty or off the board.
    pub fn stone(&self, square: usize) -> Option<Side> {
        if square >= self.settings.squares() {
            None
        } else if self.stones[0].has(square) {
            Some(Side::First)
        } else if self.stones[1].has(square) {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// Number of stones of `side`.
    pub fn stone_count(&self, side: Side) -> usize {
        self.stones[side.index()].count() as usize
    }

    /// Puts a stone (or nothing) on a square; keeps the hash right. For builders.
    fn put(&mut self, square: usize, stone: Option<Side>) {
        for side in Side::BOTH {
            if self.stones[side.index()].has(square) {
                self.stones[side.index()] ^= Bits::square(square);
                self.hash ^= stone_key(square, side);
            }
        }
        if let Some(side) = stone {
            self.stones[side.index()] |= Bits::square(square);
            self.hash ^= stone_key(square, side);
        }
    }

    /// Sets the side to move; keeps the hash right. For builders.
    fn set_to_move(&mut self, side: Side) {
        if side != self.to_move {
            self.hash ^= SIDE_KEY;
            self.to_move = side;
        }
    }

    #[inline]
    fn geometry(&self) -> &Geometry {
        &self.settings.geometry
    }

    /// Whether some white stone touches a black one (then both sides have moves).
    #[inline]
    pub fn has_moves(&self) -> bool {
        by_words!(self.geometry().words, has_moves_n(self))
    }
}

#[inline]
fn has_moves_n<const N: usize>(pos: &Clobber) -> bool {
    let g = pos.geometry().narrow::<N>();
    !g.touching(pos.stones[0].narrow(), pos.stones[1].narrow())
        .is_empty()
}

#[inline]
fn generate_n<const N: usize>(pos: &Clobber, out: &mut Vec<ClobberMove>) {
    let g = pos.geometry().narrow::<N>();
    let own: Bits<N> = pos.stones[pos.to_move.index()].narrow();
    let opp: Bits<N> = pos.stones[1 - pos.to_move.index()].narrow();
    let up = own & g.south(opp);
    let right = own & g.west(opp);
    let down = own & g.north(opp);
    let left = own & g.east(opp);
    let cols = g.cols;
    for from in (up | right | down | left).iter() {
        let mv = |to: usize| ClobberMove {
            from: from as u8,
            to: to as u8,
        };
        if up.has(from) {
            out.push(mv(from + cols));
        }
        if right.has(from) {
            out.push(mv(from + 1));
        }
        if down.has(from) {
            out.push(mv(from - cols));
        }
        if left.has(from) {
            out.push(mv(from - 1));
        }
    }
}

impl Game for Clobber {
    fn prover(memory: usize) -> Option<Box<dyn crate::prover::Prover<Self>>> {
        Some(Box::new(solve::RegionProver::new(memory)))
    }

    type Move = ClobberMove;
    type Undo = ();
    type Settings = ClobberSettings;
    type Heuristic = ClobberHeuristic;

    const NAME: &'static str = "clobber";

    fn params() -> &'static [ParamSpec] {
        &[
            ParamSpec {
                name: "rows",
                min: 1,
                max: MAX_SQUARES as i64,
                default: 5,
                doc: "board height (rows x cols at most 256 squares)",
                quiet_default: false,
            },
            ParamSpec {
                name: "cols",
                min: 1,
                max: MAX_COLS as i64,
                default: 6,
                doc: "board width (at most 26 columns, a to z)",
                quiet_default: false,
            },
        ]
    }

    fn settings(values: &[i64]) -> Result<ClobberSettings, String> {
        match values {
            [rows, cols] if *rows >= 1 && *cols >= 1 => {
                ClobberSettings::new(*rows as usize, *cols as usize)
            }
            _ => Err(format!("expected rows and cols >= 1, got {values:?}")),
        }
    }

    fn param_values(settings: &ClobberSettings) -> Vec<i64> {
        vec![settings.rows() as i64, settings.cols() as i64]
    }

    fn start(settings: &ClobberSettings) -> Clobber {
        let mut pos = Clobber::empty(*settings);
        let cols = settings.cols();
        for square in 0..settings.squares() {
            let (row, col) = (square / cols, square % cols);
            // a1 (row 0, column 0) is White; colours alternate like a chequerboard.
            let side = if (row + col) % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            pos.put(square, Some(side));
        }
        pos
    }

    fn settings_of(&self) -> &ClobberSettings {
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

    /// Moves in increasing order of the from-square (`a1`, `b1`, ... then row 2), and
    /// for each square in OpenSpiel's direction order: up, right, down, left.
    fn generate_moves(&self, out: &mut Vec<ClobberMove>) {
        by_words!(self.geometry().words, generate_n(self, out))
    }

    #[inline]
    fn make_move(&mut self, mv: ClobberMove) {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let me = self.to_move;
        let them = me.other();
        debug_assert!(self.stones[me.index()].has(from) && self.stones[them.index()].has(to));
        self.stones[me.index()].toggle(from);
        self.stones[me.index()].toggle(to);
        self.stones[them.index()].toggle(to);
        self.hash ^= stone_key(from, me) ^ stone_key(to, me) ^ stone_key(to, them) ^ SIDE_KEY;
        self.to_move = them;
    }

    #[inline]
    fn unmake_move(&mut self, mv: ClobberMove, _undo: ()) {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let them = self.to_move;
        let me = them.other();
        self.stones[me.index()].toggle(from);
        self.stones[me.index()].toggle(to);
        self.stones[them.index()].toggle(to);
        self.hash ^= stone_key(from, me) ^ stone_key(to, me) ^ stone_key(to, them) ^ SIDE_KEY;
        self.to_move = me;
    }

    /// Over when the side to move has no move: the other side has won.
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if self.has_moves() {
            None
        } else {
            Some(Outcome::Win(self.to_move.other()))
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for side in Side::BOTH {
            for square in self.stones[side.index()].iter() {
                h ^= stone_key(square, side);
            }
        }
        if self.to_move == Side::Second {
            h ^= SIDE_KEY;
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<ClobberMove, MoveError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: ClobberMove) -> String {
        let cols = self.settings.cols();
        format!(
            "{}-{}",
            square_name(cols, mv.from as usize),
            square_name(cols, mv.to as usize)
        )
    }

    fn parse_position(settings: &ClobberSettings, text: &str) -> Result<Clobber, PositionError> {
        notation::parse_position(settings, text)
    }

    fn format_position(&self) -> String {
        notation::format_position(self)
    }

    fn render(&self) -> Vec<String> {
        notation::render(self)
    }

    fn heuristics() -> &'static [(&'static str, ClobberHeuristic)] {
        eval::HEURISTICS
    }

    fn evaluate(&self, heuristic: ClobberHeuristic) -> i32 {
        eval::evaluate(self, heuristic)
    }

    fn move_order_hint(&self, mv: ClobberMove) -> i32 {
        eval::order_hint(self, mv)
    }

    /// Reads the file with [`parse_board_file`]: a grid or position string sets its own
    /// board size; `settings` only sizes an OpenSpiel board string.
    fn read_position_file(
        settings: &ClobberSettings,
        text: &str,
    ) -> Result<(ClobberSettings, String), PositionError> {
        let pos = parse_board_file(text, Some(settings))?;
        Ok((pos.settings, pos.format_position()))
    }

    fn bench_positions() -> &'static [(&'static str, &'static str, u32)] {
        &[
            ("rows=5 cols=6", "startpos", 7),
            // OpenSpiel reference position (tests/data/clobber_moves.txt), 8 plies in.
            ("rows=5 cols=6", "1bwbwb/w1bw1b/wwb2w/b1bw1b/wwwbb1 w", 9),
            ("rows=8 cols=8", "startpos", 5),
            ("rows=10 cols=10", "startpos", 4),
        ]
    }
}
