//! A fixed-width bitboard: one bit per square, square `row * cols + col`, row 0 at the
//! bottom. Neighbour sets are shifts by 1 (east/west, masked at the board's side edges)
//! and by `cols` (north/south).
//!
//! A position stores [`WORDS`] 64-bit words per colour, so boards of up to
//! [`MAX_SQUARES`] squares. The hot paths (move generation, the game-over test,
//! evaluation) are generic over the word count `N` and run on the first `N` words only,
//! chosen once per board size ([`words_for`]): one word up to 8x8, two up to 128
//! squares (11x11), four beyond. Measured in instructions (valgrind, perft 4 from the
//! 5x6 start / perft 3 from 8x8 / perft 3 from 10x10): four words everywhere 133M / 42M
//! / 168M, two words everywhere 102M / 34M / 136M, words chosen per size 71M / 23M /
//! 138M, a build with one word only (64 squares at most) 65M / 23M / -.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Number of 64-bit words in a bitboard.
pub const WORDS: usize = 4;
/// The most squares a board can have.
pub const MAX_SQUARES: usize = 64 * WORDS;

/// The number of words hot paths need for `squares` squares: 1, 2 or 4.
pub fn words_for(squares: usize) -> usize {
    match squares {
        0..=64 => 1,
        65..=128 => 2,
        _ => 4,
    }
}

/// A set of squares, in `N` words (the stored form has [`WORDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits<const N: usize = WORDS>(pub(crate) [u64; N]);

impl<const N: usize> Default for Bits<N> {
    fn default() -> Self {
        Bits([0; N])
    }
}

impl<const N: usize> Bits<N> {
    /// The empty set.
    pub const EMPTY: Bits<N> = Bits([0; N]);

    /// The first `M` words (`M <= N`): the same set when it lies in them.
    #[inline]
    pub fn narrow<const M: usize>(self) -> Bits<M> {
        let mut out = [0u64; M];
        out.copy_from_slice(&self.0[..M]);
        Bits(out)
    }

    /// The set holding only `square`.
    #[inline]
    pub fn square(square: usize) -> Bits<N> {
        let mut out = Bits::EMPTY;
        out.0[square / 64] = 1 << (square % 64);
        out
    }

    /// The first `n` squares (`n <= MAX_SQUARES`).
    pub fn first(n: usize) -> Bits<N> {
        let mut out = Bits::EMPTY;
        for (i, word) in out.0.iter_mut().enumerate() {
            let lo = 64 * i;
            *word = if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1u64 << (n - lo)) - 1
            } else {
                0
            };
        }
        out
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0.iter().fold(0, |acc, w| acc | w) == 0
    }

    /// Whether `square` is in the set.
    #[inline]
    pub fn has(self, square: usize) -> bool {
        self.0[square / 64] >> (square % 64) & 1 != 0
    }

    /// Adds `square` if absent, removes it if present.
    #[inline]
    pub fn toggle(&mut self, square: usize) {
        self.0[square / 64] ^= 1 << (square % 64);
    }

    /// Number of squares in the set.
    #[inline]
    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Every square moved up by `k` indices (`0 < k < 64`); squares past the end drop off.
    #[inline]
    pub fn shl(self, k: u32) -> Bits<N> {
        debug_assert!(k > 0 && k < 64);
        let w = self.0;
        let mut out = [0u64; N];
        out[0] = w[0] << k;
        for i in 1..N {
            out[i] = (w[i] << k) | (w[i - 1] >> (64 - k));
        }
        Bits(out)
    }

    /// Every square moved down by `k` indices (`0 < k < 64`); squares below 0 drop off.
    #[inline]
    pub fn shr(self, k: u32) -> Bits<N> {
        debug_assert!(k > 0 && k < 64);
        let w = self.0;
        let mut out = [0u64; N];
        for i in 0..N - 1 {
            out[i] = (w[i] >> k) | (w[i + 1] << (64 - k));
        }
        out[N - 1] = w[N - 1] >> k;
        Bits(out)
    }

    /// The squares of the set in increasing order.
    #[inline]
    pub fn iter(self) -> SquareIter<N> {
        SquareIter {
            words: self.0,
            index: 0,
        }
    }
}

/// Iterator over the squares of a [`Bits`], lowest first.
pub struct SquareIter<const N: usize> {
    words: [u64; N],
    index: usize,
}

impl<const N: usize> Iterator for SquareIter<N> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.index < N {
            let w = self.words[self.index];
            if w != 0 {
                self.words[self.index] = w & (w - 1);
                return Some(64 * self.index + w.trailing_zeros() as usize);
            }
            self.index += 1;
        }
        None
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $op:tt, $assign_trait:ident, $assign_method:ident, $assign:tt) => {
        impl<const N: usize> $trait for Bits<N> {
            type Output = Bits<N>;
            #[inline]
            fn $method(self, rhs: Bits<N>) -> Bits<N> {
                let mut out = self.0;
                for (a, b) in out.iter_mut().zip(rhs.0) {
                    *a $assign b;
                }
                Bits(out)
            }
        }
        impl<const N: usize> $assign_trait for Bits<N> {
            #[inline]
            fn $assign_method(&mut self, rhs: Bits<N>) {
                *self = *self $op rhs;
            }
        }
    };
}

bit_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign, &=);
bit_op!(BitOr, bitor, |, BitOrAssign, bitor_assign, |=);
bit_op!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign, ^=);

impl<const N: usize> Not for Bits<N> {
    type Output = Bits<N>;
    #[inline]
    fn not(self) -> Bits<N> {
        Bits(self.0.map(|w| !w))
    }
}

/// The masks of one board size, with the neighbour shifts that use them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry<const N: usize = WORDS> {
    /// Rows (height).
    pub rows: usize,
    /// Columns (width).
    pub cols: usize,
    /// Words the hot paths use ([`words_for`] of the square count).
    pub words: usize,
    /// Every square of the board.
    pub board: Bits<N>,
    /// Squares not in the leftmost column (`a`).
    pub not_left: Bits<N>,
    /// Squares not in the rightmost column.
    pub not_right: Bits<N>,
}

impl<const N: usize> Geometry<N> {
    /// The same geometry on the first `M` words (`M >= words`).
    #[inline]
    pub fn narrow<const M: usize>(&self) -> Geometry<M> {
        Geometry {
            rows: self.rows,
            cols: self.cols,
            words: self.words,
            board: self.board.narrow(),
            not_left: self.not_left.narrow(),
            not_right: self.not_right.narrow(),
        }
    }

    /// The geometry of a `rows` x `cols` board (`rows * cols <= MAX_SQUARES`, both >= 1).
    pub fn new(rows: usize, cols: usize) -> Geometry<N> {
        debug_assert!(rows >= 1 && cols >= 1 && rows * cols <= 64 * N);
        let board = Bits::first(rows * cols);
        let mut left = Bits::EMPTY;
        let mut right = Bits::EMPTY;
        for row in 0..rows {
            left |= Bits::square(row * cols);
            right |= Bits::square(row * cols + cols - 1);
        }
        Geometry {
            rows,
            cols,
            words: words_for(rows * cols),
            board,
            not_left: board & !left,
            not_right: board & !right,
        }
    }

    /// The squares north (one row up) of the squares of `x`, on the board.
    #[inline]
    pub fn north(&self, x: Bits<N>) -> Bits<N> {
        x.shl(self.cols as u32) & self.board
    }

    /// The squares south (one row down) of the squares of `x` (`x` on the board).
    #[inline]
    pub fn south(&self, x: Bits<N>) -> Bits<N> {
        x.shr(self.cols as u32)
    }

    /// The squares east (one column right) of the squares of `x`, on the board.
    #[inline]
    pub fn east(&self, x: Bits<N>) -> Bits<N> {
        x.shl(1) & self.not_left
    }

    /// The squares west (one column left) of the squares of `x`, on the board.
    #[inline]
    pub fn west(&self, x: Bits<N>) -> Bits<N> {
        x.shr(1) & self.not_right
    }

    /// The squares orthogonally adjacent to some square of `x`.
    #[inline]
    pub fn neighbours(&self, x: Bits<N>) -> Bits<N> {
        self.north(x) | self.south(x) | self.east(x) | self.west(x)
    }

    /// Squares of `x` that have at least one of `y` next to them.
    #[inline]
    pub fn touching(&self, x: Bits<N>, y: Bits<N>) -> Bits<N> {
        x & self.neighbours(y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_words_and_edges() {
        type B = Bits<4>;
        let b = B::square(63);
        assert_eq!(b.shl(1), B::square(64));
        assert_eq!(B::square(64).shr(1), b);
        assert_eq!(B::square(100).shr(37), B::square(63));
        assert!(B::square(MAX_SQUARES - 1).shl(1).is_empty());
        assert!(B::square(0).shr(1).is_empty());
        assert_eq!(B::first(MAX_SQUARES).count() as usize, MAX_SQUARES);
        assert_eq!(Bits::<2>::first(70).count(), 70);
        assert_eq!(Bits::<1>::first(0), Bits::EMPTY);
        assert_eq!(Bits::<1>::first(64).count(), 64);
        assert_eq!(B::square(70).narrow::<2>(), Bits::<2>::square(70));
        assert_eq!(
            [words_for(30), words_for(64), words_for(100), words_for(129)],
            [1, 1, 2, 4]
        );

        // 3 wide, 2 high: c1 (2) has no east neighbour, a2 (3) no west one.
        let g: Geometry<4> = Geometry::new(2, 3);
        let expected = Bits::<1>::square(0) | Bits::square(2) | Bits::square(4);
        assert_eq!(g.narrow::<1>().neighbours(Bits::square(1)), expected);
        assert!(g.east(B::square(2)).is_empty());
        assert!(g.west(B::square(3)).is_empty());
        assert!(g.north(B::square(4)).is_empty());
        assert_eq!(g.north(B::square(1)), B::square(4));
        assert_eq!(
            g.neighbours(B::square(1)).iter().collect::<Vec<_>>(),
            vec![0, 2, 4]
        );
        let all: Vec<usize> = g.board.iter().collect();
        assert_eq!(all, vec![0, 1, 2, 3, 4, 5]);
    }
}
