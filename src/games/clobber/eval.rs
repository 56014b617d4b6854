//! Clobber heuristics, from the side to move's point of view, in centi-units.
//!
//! Facts that shape them:
//! - Both sides always have the same number of moves: every white stone next to a black
//!   one is one move for each side. Counting moves therefore says nothing (a mobility
//!   difference counted in moves is always 0), so a side's *mobility* here is the number
//!   of its *mobile* stones, those that touch an opponent stone. A mobile stone can be
//!   captured, too: "can move" and "can be captured" are the same thing in Clobber.
//! - Stones never move into empty squares, so groups of orthogonally connected stones (of
//!   either colour) never merge; they only split, and each is an independent sub-game. A
//!   group holding one colour only is *dead*: nothing in it can ever move or be captured.
//!   The other stones are *live* (found by a flood fill from the mobile stones).
//! - Backing matters more than numbers at the front. In the line `w b b` the lone white
//!   stone loses whoever starts: if it captures, the second black stone recaptures; if
//!   Black captures first, White has nothing left (the line's game value is "down").
//!
//! Classification of the stones of one side, used below:
//! - *safe*: live, touching no opponent stone: cannot be captured next move, backs up its
//!   neighbours and can come into play later;
//! - *defended*: mobile, with a stone of its own colour next to it (a capture of it can be
//!   answered by a recapture);
//! - *hanging*: mobile, with no stone of its own colour next to it;
//! - *continuing captures*: captures whose captured stone has another stone of its colour
//!   next to it, so the capturing stone stays mobile.
//!
//! The weights of [`ClobberHeuristic::Strong`] come from a logistic regression of *proved*
//! results on these counts: 20,326 positions from ply 4 to 18 of 1,500 self-play games on
//! 5x6, 6x5, 4x7 and 6x6, each proved won or lost by the region solver (the `tune` test
//! `solved_fit`). The earlier weights (150, 100, 50, -20, 40), fitted to the results of
//! self-play games, kept a proved win at 25 to 27 stones on 5x6 in 274 of 422 positions
//! from games against OpenSpiel's MCTS (64.9%), these in 318 (75.4%;
//! `scripts/clobber-positions.py keep --moves 3,4,5`).

use super::bitboard::{Bits, Geometry};
use super::{Clobber, ClobberMove};

/// The named Clobber heuristics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClobberHeuristic {
    /// The default, the strongest in matches. Own minus opponent's counts of safe stones
    /// (47 each), defended stones (100 each), continuing captures (165 each) and hanging
    /// stones (-328 each), plus 267 for having the move; the terms are defined in the
    /// module doc.
    Strong,
    /// Own stones minus opponent stones, dead ones included (100 each).
    PieceDiff,
    /// Own mobile stones minus opponent mobile stones (100 each).
    MobilityDiff,
    /// Own mobile stones (100 each).
    OwnMobility,
    /// Minus the opponent's mobile stones (100 each).
    OppMobility,
    /// Own safe stones minus the opponent's (100 each): live stones touching no opponent
    /// stone. Dead stones are not counted: they are safe only because they are out of play.
    SafePieces,
    /// Centre control: 10 per step of centrality of every live stone, own minus the
    /// opponent's. A square's centrality is its distance to the nearest side edge plus its
    /// distance to the nearest top or bottom edge (0 in a corner).
    Center,
    /// By game phase, the fraction of squares still holding a stone: more than 2/3
    /// (opening) `center`; more than 1/3 (middle game) `safe-pieces`; else (endgame)
    /// `mobility-diff`.
    Adaptive,
}

/// Name table, default first.
pub(super) const HEURISTICS: &[(&str, ClobberHeuristic)] = &[
    ("strong", ClobberHeuristic::Strong),
    ("piece-diff", ClobberHeuristic::PieceDiff),
    ("mobility-diff", ClobberHeuristic::MobilityDiff),
    ("own-mobility", ClobberHeuristic::OwnMobility),
    ("opp-mobility", ClobberHeuristic::OppMobility),
    ("safe-pieces", ClobberHeuristic::SafePieces),
    ("center", ClobberHeuristic::Center),
    ("adaptive", ClobberHeuristic::Adaptive),
];

/// Weights of [`ClobberHeuristic::Strong`]: safe, defended, continuing, hanging, tempo.
pub(super) const STRONG: [i32; 5] = [47, 100, 165, -328, 267];

/// The stones of the side to move (`own`) and of the opponent on `N` words.
struct View<const N: usize> {
    g: Geometry<N>,
    own: Bits<N>,
    opp: Bits<N>,
}

impl<const N: usize> View<N> {
    fn of(pos: &Clobber) -> View<N> {
        let me = pos.to_move.index();
        View {
            g: pos.settings.geometry.narrow(),
            own: pos.stones[me].narrow(),
            opp: pos.stones[1 - me].narrow(),
        }
    }

    /// Stones of `x` that touch a stone of `y`.
    #[inline]
    fn mobile(&self, x: Bits<N>, y: Bits<N>) -> i32 {
        self.g.touching(x, y).count() as i32
    }

    /// Own mobile stones minus the opponent's.
    fn mobility_diff(&self) -> i32 {
        self.mobile(self.own, self.opp) - self.mobile(self.opp, self.own)
    }

    /// Live stones: those connected (through stones of either colour) to a mobile stone.
    fn live(&self) -> Bits<N> {
        let occupied = self.own | self.opp;
        let mut live = self.g.touching(self.own, self.opp) | self.g.touching(self.opp, self.own);
        loop {
            let grown = (live | self.g.neighbours(live)) & occupied;
            if grown == live {
                return live;
            }
            live = grown;
        }
    }

    /// Safe stones of `x` (against `y`) among `live`.
    fn safe(&self, x: Bits<N>, y: Bits<N>, live: Bits<N>) -> i32 {
        (x & live & !self.g.neighbours(y)).count() as i32
    }

    fn center(&self) -> i32 {
        let (rows, cols) = (self.g.rows, self.g.cols);
        let live = self.live();
        let sum =
            |x: Bits<N>| -> i32 { (x & live).iter().map(|s| centrality(rows, cols, s)).sum() };
        10 * (sum(self.own) - sum(self.opp))
    }
}

/// The terms of `strong` except safety, own minus opponent's: defended, continuing, hanging.
#[inline]
fn contact_terms<const N: usize>(g: &Geometry<N>, own: Bits<N>, opp: Bits<N>) -> [i32; 3] {
    let near_own = g.neighbours(own);
    let near_opp = g.neighbours(opp);
    let count = |x: Bits<N>| x.count() as i32;
    let defended = count(own & near_opp & near_own) - count(opp & near_own & near_opp);
    let hanging = count(own & near_opp & !near_own) - count(opp & near_own & !near_opp);
    // A capture by `x` of a `y` stone with another `y` next to it: one popcount per direction.
    let continuing = |x: Bits<N>, y: Bits<N>, near_y: Bits<N>| {
        let food = y & near_y;
        count(g.north(x) & food)
            + count(g.south(x) & food)
            + count(g.east(x) & food)
            + count(g.west(x) & food)
    };
    let cont = continuing(own, opp, near_opp) - continuing(opp, own, near_own);
    [defended, cont, hanging]
}

/// The raw terms of `strong` for the side to move: safe, defended, continuing, hanging.
#[cfg(test)]
pub(super) fn strong_terms(pos: &Clobber) -> [i32; 4] {
    by_words!(pos.settings.geometry.words, strong_terms_n(pos))
}

fn strong_terms_n<const N: usize>(pos: &Clobber) -> [i32; 4] {
    let v = View::<N>::of(pos);
    let live = v.live();
    let safe = v.safe(v.own, v.opp, live) - v.safe(v.opp, v.own, live);
    let [defended, cont, hanging] = contact_terms(&v.g, v.own, v.opp);
    [safe, defended, cont, hanging]
}

/// The terms of `strong` for each side apart (experiments): the side to move's safe,
/// defended, continuing and hanging counts, then the opponent's, then each side's mobile
/// stones.
#[cfg(test)]
pub(super) fn side_terms(pos: &Clobber) -> [i32; 10] {
    by_words!(pos.settings.geometry.words, side_terms_n(pos))
}

#[cfg(test)]
fn side_terms_n<const N: usize>(pos: &Clobber) -> [i32; 10] {
    let v = View::<N>::of(pos);
    let live = v.live();
    let g = &v.g;
    let one = |own: Bits<N>, opp: Bits<N>| -> [i32; 5] {
        let near_own = g.neighbours(own);
        let near_opp = g.neighbours(opp);
        let count = |x: Bits<N>| x.count() as i32;
        let food = opp & g.neighbours(opp);
        let cont = count(g.north(own) & food)
            + count(g.south(own) & food)
            + count(g.east(own) & food)
            + count(g.west(own) & food);
        [
            v.safe(own, opp, live),
            count(own & near_opp & near_own),
            cont,
            count(own & near_opp & !near_own),
            v.mobile(own, opp),
        ]
    };
    let a = one(v.own, v.opp);
    let b = one(v.opp, v.own);
    [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], a[4], b[4]]
}

pub(super) fn evaluate(pos: &Clobber, heuristic: ClobberHeuristic) -> i32 {
    by_words!(pos.settings.geometry.words, evaluate_n(pos, heuristic))
}

fn evaluate_n<const N: usize>(pos: &Clobber, heuristic: ClobberHeuristic) -> i32 {
    let v = View::<N>::of(pos);
    let (own, opp) = (v.own, v.opp);
    let squares = pos.settings.squares();
    let value = match heuristic {
        ClobberHeuristic::Strong => {
            let t = strong_terms_n::<N>(pos);
            (0..4).map(|i| STRONG[i] * t[i]).sum::<i32>() + STRONG[4]
        }
        ClobberHeuristic::PieceDiff => 100 * (own.count() as i32 - opp.count() as i32),
        ClobberHeuristic::MobilityDiff => 100 * v.mobility_diff(),
        ClobberHeuristic::OwnMobility => 100 * v.mobile(own, opp),
        ClobberHeuristic::OppMobility => -100 * v.mobile(opp, own),
        ClobberHeuristic::SafePieces => {
            let live = v.live();
            100 * (v.safe(own, opp, live) - v.safe(opp, own, live))
        }
        ClobberHeuristic::Center => v.center(),
        ClobberHeuristic::Adaptive => {
            let stones = (own | opp).count() as usize;
            if 3 * stones > 2 * squares {
                v.center()
            } else if 3 * stones > squares {
                let live = v.live();
                100 * (v.safe(own, opp, live) - v.safe(opp, own, live))
            } else {
                100 * v.mobility_diff()
            }
        }
    };
    // The clamp keeps the value of any board far inside the mate scores.
    value.clamp(-90_000, 90_000)
}

/// How central a square is: its distance to the nearest side edge plus to the nearest
/// top or bottom edge (0 in the corners).
fn centrality(rows: usize, cols: usize, square: usize) -> i32 {
    let (row, col) = (square / cols, square % cols);
    (row.min(rows - 1 - row) + col.min(cols - 1 - col)) as i32
}

/// Ordering hint for `mv`: the contact terms of `strong` (defended, continuing, hanging;
/// safety needs a flood fill and is left out) for the mover after the move, computed on
/// the moved bitboards without copying the position.
///
/// Measured on `agon bench` positions (5x6 start depth 7, a 5x6 middle game depth 9,
/// 8x8 depth 5, 10x10 depth 4): fixed-depth alpha-beta searches 4.3M nodes in 1.5 s with
/// it against 35M nodes in 3.5 s in generation order; PVS, which tries the table move,
/// killers and history first, searches about as many nodes with or without it (2.0M vs
/// 2.2M) and is faster without it (0.8 s vs 1.4 s). Cheaper hints tried were worse than
/// none for alpha-beta: neighbour counts of the target square (3.3M against 1.0M nodes
/// on smaller searches), the same terms without continuing captures (189M), continuing
/// captures alone (26M).
pub(super) fn order_hint(pos: &Clobber, mv: ClobberMove) -> i32 {
    by_words!(pos.settings.geometry.words, order_hint_n(pos, mv))
}

fn order_hint_n<const N: usize>(pos: &Clobber, mv: ClobberMove) -> i32 {
    let v = View::<N>::of(pos);
    let (from, to) = (Bits::square(mv.from as usize), Bits::square(mv.to as usize));
    let own = v.own ^ from ^ to;
    let opp = v.opp ^ to;
    let [defended, cont, hanging] = contact_terms(&v.g, own, opp);
    let near_opp = v.g.neighbours(opp);
    let near_own = v.g.neighbours(own);
    let safe = (own & !near_opp).count() as i32 - (opp & !near_own).count() as i32;
    STRONG[0] * safe + STRONG[1] * defended + STRONG[2] * cont + STRONG[3] * hanging
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::clobber::ClobberSettings;

    fn pos(rows: usize, cols: usize, text: &str) -> Clobber {
        Clobber::parse_position(&ClobberSettings::new(rows, cols).unwrap(), text).unwrap()
    }

    #[test]
    fn terms_by_hand() {
        // 2x4: top row a2 w, b2 b, c2 b, d2 empty; bottom row c1 w, d1 w.
        let p = pos(2, 4, "wbb1/2ww w");
        // White: a2 mobile (touches b2), no white neighbour -> hanging. c1 touches c2 (b)
        // and d1 (w) -> defended. d1 touches no black, live -> safe.
        // Black: b2 touches a2 (w) and c2 (b) -> defended; c2 touches c1 (w) and b2 -> defended.
        // Continuing: White a2xb2 (b2 has c2) and c1xc2 (c2 has b2): 2. Black b2xa2 (a2 has
        // no white neighbour): 0; c2xc1 (c1 has d1): 1. So 2 - 1 = 1.
        assert_eq!(strong_terms(&p), [1, 1 - 2, 1, 1]);
        assert_eq!(
            evaluate(&p, ClobberHeuristic::Strong),
            47 - 100 + 165 - 328 + 267
        );
        assert_eq!(evaluate(&p, ClobberHeuristic::PieceDiff), 100);
        assert_eq!(evaluate(&p, ClobberHeuristic::MobilityDiff), 0);
        assert_eq!(evaluate(&p, ClobberHeuristic::OwnMobility), 200);
        assert_eq!(evaluate(&p, ClobberHeuristic::OppMobility), -200);
        assert_eq!(evaluate(&p, ClobberHeuristic::SafePieces), 100);
        // Black to move: the same terms negated (tempo stays with the mover).
        let q = pos(2, 4, "wbb1/2ww b");
        assert_eq!(strong_terms(&q), [-1, 1, -1, -1]);
    }

    #[test]
    fn dead_stones_are_out_of_play() {
        // A white pair and a black pair far apart, plus one live w-b pair.
        let p = pos(3, 5, "ww1bb/5/wb3 w");
        assert_eq!(strong_terms(&p), [0, 0, 0, 0]);
        assert_eq!(evaluate(&p, ClobberHeuristic::SafePieces), 0);
        // A white stone behind the white front stone is live and safe.
        let p = pos(1, 4, "wwb1 w");
        assert_eq!(evaluate(&p, ClobberHeuristic::SafePieces), 100);
        // Centrality on one row: a1 0, b1 1, c1 1. White 0 + 1, Black 1.
        assert_eq!(evaluate(&p, ClobberHeuristic::Center), 0);
    }

    #[test]
    fn line_w_b_b_favours_black() {
        // `w b b` is lost for White whoever starts; `strong` agrees from both sides.
        let white = pos(1, 3, "wbb w");
        let black = pos(1, 3, "wbb b");
        assert!(evaluate(&white, ClobberHeuristic::Strong) < 0);
        assert!(evaluate(&black, ClobberHeuristic::Strong) > 0);
    }

    #[test]
    fn order_hint_matches_terms_after_the_move() {
        let p = pos(5, 6, "wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb w");
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        for mv in moves {
            let mut q = p.clone();
            q.make_move(mv);
            // Seen from the mover, safety counted over all stones (no dead ones here).
            let t = strong_terms(&q);
            let expected: i32 = -(0..4).map(|i| STRONG[i] * t[i]).sum::<i32>();
            assert_eq!(order_hint(&p, mv), expected, "{}", p.format_move(mv));
        }
    }
}
