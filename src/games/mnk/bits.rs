//! Square sets of the m,n,k solver: one bit a square, in a `u64` for boards of up to 64
//! squares and a `u128` up to 128 (9x9, 10x10, 11x11). The solver and its pairing search
//! are written once over [`Bits`]; each width is compiled apart, so the 64-square boards
//! pay nothing for the wider ones.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Shl, Shr};

/// A set of squares as the bits of an unsigned integer.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// Every square of the width.
    const ALL: Self;
    /// Squares the width holds.
    const SQUARES: u32;
    /// Room for one key per square ([`super::solve`]'s move order), on the stack.
    type Keys: AsRef<[u64]> + AsMut<[u64]>;

    /// The set of square `c` alone.
    #[inline]
    fn bit(c: u32) -> Self {
        Self::from_low(1) << c
    }
    /// The set of the bits of `x` (the first 64 squares).
    fn from_low(x: u64) -> Self;
    /// The squares `0 .. n`.
    #[inline]
    fn low(n: u32) -> Self {
        if n >= Self::SQUARES {
            Self::ALL
        } else {
            Self::bit(n).minus_one()
        }
    }
    /// Whether square `c` is in the set.
    #[inline]
    fn has(self, c: u32) -> bool {
        self & Self::bit(c) != Self::ZERO
    }
    /// How many squares.
    fn count(self) -> u32;
    /// The lowest square (the set must not be empty).
    fn first(self) -> u32;
    /// The set less its lowest square.
    fn without_first(self) -> Self;
    /// The set of its lowest square alone (empty for the empty set).
    fn lowest(self) -> Self;
    /// The set as a number, less one (for [`Bits::low`]).
    fn minus_one(self) -> Self;
    /// The squares `8 * chunk .. 8 * chunk + 8` as a byte.
    fn byte(self, chunk: usize) -> usize;
    /// An empty key array.
    fn keys() -> Self::Keys;
    /// The squares, lowest first.
    #[inline]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// The squares of a set, lowest first ([`Bits::squares`]).
pub struct Squares<B>(B);

impl<B: Bits> Iterator for Squares<B> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        (self.0 != B::ZERO).then(|| {
            let c = self.0.first();
            self.0 = self.0.without_first();
            c
        })
    }
}

macro_rules! bits {
    ($t:ty, $n:expr) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const ALL: Self = <$t>::MAX;
            const SQUARES: u32 = <$t>::BITS;
            type Keys = [u64; $n];

            #[inline]
            fn from_low(x: u64) -> Self {
                Self::from(x)
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn first(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn without_first(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline]
            fn minus_one(self) -> Self {
                self.wrapping_sub(1)
            }
            #[inline]
            fn byte(self, chunk: usize) -> usize {
                (self >> (8 * chunk) & 0xFF) as usize
            }
            #[inline]
            fn keys() -> Self::Keys {
                [0; $n]
            }
        }
    };
}

bits!(u64, 64);
bits!(u128, 128);

#[cfg(test)]
mod tests {
    use super::*;

    fn laws<B: Bits>() {
        let x = B::bit(3) | B::bit(40) | B::bit(B::SQUARES - 1);
        assert_eq!(x.count(), 3);
        assert_eq!(x.squares().collect::<Vec<_>>(), vec![3, 40, B::SQUARES - 1]);
        assert_eq!(x.lowest(), B::bit(3));
        assert!(x.has(40) && !x.has(41));
        assert_eq!(B::low(5).count(), 5);
        assert_eq!(B::low(B::SQUARES), B::ALL);
        assert_eq!(x.byte(5), 1, "square 40 is bit 0 of byte 5");
    }

    #[test]
    fn both_widths_keep_the_set_laws() {
        laws::<u64>();
        laws::<u128>();
    }
}
