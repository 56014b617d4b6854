//! Move scores for ordering the search: a linear score of cheap features of each move
//! (what it places where, what a spread covers, uncovers and gains in flats, whether it
//! blocks a road the opponent threatens), fitted to the moves the engine's own deeper
//! search chose in self-play (`train.rs`, weights in `weights.rs`).
//!
//! The features of all moves of a position share what is computed once per position
//! ([`Context`]): both sides' road pieces, the opponent's road threats, the endgame
//! measure.

use super::bits::neighbours;
use super::features::{endgame, CLASSES};
use super::{Tak, TakMove, CAP, FLAT, WALL};

/// Ordering keys are the scores (natural logarithms of odds) times this.
pub const ORDER_SCALE: f32 = 100.0;

/// Placement kind (flat, wall, capstone): a bias each.
pub const P_KIND: usize = 0;
/// A flat placed on a square class.
pub const P_FLAT_CLASS: usize = P_KIND + 3;
/// A capstone placed on a square class.
pub const P_CAP_CLASS: usize = P_FLAT_CLASS + CLASSES;
/// Own road pieces next to the square, per kind placed.
pub const P_ADJ_OWN: usize = P_CAP_CLASS + CLASSES;
/// The opponent's road pieces next to the square, per kind placed.
pub const P_ADJ_THEIRS: usize = P_ADJ_OWN + 3;
/// The opponent's stacks (two or more pieces) next to the square, per kind placed.
pub const P_ADJ_STACKS: usize = P_ADJ_THEIRS + 3;
/// Own road pieces in the square's row and column, per kind placed.
pub const P_LINE_OWN: usize = P_ADJ_STACKS + 3;
/// The opponent's road pieces in the square's row and column, per kind placed.
pub const P_LINE_THEIRS: usize = P_LINE_OWN + 3;
/// The square completes a road the opponent threatens, per kind placed.
pub const P_BLOCK: usize = P_LINE_THEIRS + 3;
/// The kind placed times the endgame measure.
pub const P_KIND_END: usize = P_BLOCK + 3;
/// Spread: the moving top's kind (flat, wall, capstone).
pub const S_KIND: usize = P_KIND_END + 3;
/// Spread: pieces carried.
pub const S_CARRY: usize = S_KIND + 3;
/// Spread: the whole stack moves (the square is left empty).
pub const S_WHOLE: usize = S_CARRY + 1;
/// Spread: squares dropped on.
pub const S_SQUARES: usize = S_WHOLE + 1;
/// Spread: own flats on top minus the opponent's, after minus before.
pub const S_FCD: usize = S_SQUARES + 1;
/// Spread: the same times the endgame measure.
pub const S_FCD_END: usize = S_FCD + 1;
/// Spread: the opponent's flats covered.
pub const S_TAKES_FLATS: usize = S_FCD_END + 1;
/// Spread: a wall flattened.
pub const S_FLATTENS: usize = S_TAKES_FLATS + 1;
/// Spread: own flats covered.
pub const S_COVERS_OWN: usize = S_FLATTENS + 1;
/// Spread: the square left shows the opponent's piece on top.
pub const S_REVEALS: usize = S_COVERS_OWN + 1;
/// Spread: empty squares dropped on.
pub const S_EMPTIES: usize = S_REVEALS + 1;
/// Spread: squares of the opponent's road threats now topped by own flat, wall or capstone.
pub const S_BLOCKS: usize = S_EMPTIES + 1;
/// Spread: own pieces on top of the opponent's stacks (two or more) afterwards.
pub const S_TAKES_STACKS: usize = S_BLOCKS + 1;
/// All move features.
pub const MOVE_FEATURES: usize = S_TAKES_STACKS + 1;

/// What is shared by the features of all moves of one position.
pub struct Context {
    me: usize,
    own_road: u64,
    their_road: u64,
    their_stacks: u64,
    threats: u64,
    e: f32,
    classes: &'static [u64; CLASSES],
    rows: &'static [u64],
    cols: &'static [u64],
}

impl Context {
    /// The context of `pos` (side to move's view).
    pub fn new(pos: &Tak) -> Context {
        let me = pos.to_move;
        let them = me.other();
        let m = super::features::masks(pos.geo.n);
        let mut their_stacks = 0;
        let mut tops = pos.tops[them.index()];
        while tops != 0 {
            let sq = tops.trailing_zeros() as usize;
            tops &= tops - 1;
            if pos.heights[sq] > 1 {
                their_stacks |= 1 << sq;
            }
        }
        let threats = if pos.stones_left[them.index()] + pos.caps_left[them.index()] > 0 {
            super::bits::road_threats(pos, them)
        } else {
            0
        };
        Context {
            me: me.index(),
            own_road: pos.road_pieces(me),
            their_road: pos.road_pieces(them),
            their_stacks,
            threats,
            e: endgame(pos),
            classes: &m.classes,
            rows: &m.rows,
            cols: &m.cols,
        }
    }
}

/// Calls `f(feature, value)` for every non-zero feature of `mv` (legal in `pos`).
#[inline]
pub fn move_features(pos: &Tak, cx: &Context, mv: TakMove, mut f: impl FnMut(usize, f32)) {
    let g = pos.geo;
    let n = g.n;
    let sq = mv.square();
    let bit = 1u64 << sq;
    if mv.is_place() {
        let k = usize::from(mv.kind());
        f(P_KIND + k, 1.0);
        let class = cx.classes.iter().position(|&c| c & bit != 0).unwrap_or(0);
        match mv.kind() {
            FLAT => f(P_FLAT_CLASS + class, 1.0),
            CAP => f(P_CAP_CLASS + class, 1.0),
            _ => {}
        }
        let near = neighbours(g, bit);
        f(P_ADJ_OWN + k, (near & cx.own_road).count_ones() as f32);
        f(P_ADJ_THEIRS + k, (near & cx.their_road).count_ones() as f32);
        f(
            P_ADJ_STACKS + k,
            (near & cx.their_stacks).count_ones() as f32,
        );
        let line = cx.rows[sq / n] | cx.cols[sq % n];
        f(P_LINE_OWN + k, (line & cx.own_road).count_ones() as f32);
        f(
            P_LINE_THEIRS + k,
            (line & cx.their_road).count_ones() as f32,
        );
        if cx.threats & bit != 0 {
            f(P_BLOCK + k, 1.0);
        }
        f(P_KIND_END + k, cx.e);
        return;
    }
    // A spread: walk the drops, comparing each square's top before and after.
    let me_black = cx.me == 1;
    let h = pos.heights[sq] as u32;
    let count = mv.count();
    let kind = pos.kind_at(sq);
    f(S_KIND + usize::from(kind), 1.0);
    f(S_CARRY, count as f32);
    // The flat count difference (own flats on top minus the opponent's), after minus
    // before, square by square.
    let mut fcd = if kind == FLAT { -1 } else { 0 };
    if count == h {
        f(S_WHOLE, 1.0);
    } else {
        // The new top of the origin: the flat just below the carried pieces.
        let below_black = pos.colours[sq] >> (h - count - 1) & 1 == 1;
        if below_black != me_black {
            f(S_REVEALS, 1.0);
            fcd -= 1;
        } else {
            fcd += 1;
        }
    }
    let mut carried = pos.colours[sq] >> (h - count);
    let step = g.offset[mv.dir()];
    let mut at = sq as isize;
    let mut pat = u32::from(mv.pattern());
    let (mut takes, mut covers_own, mut empties, mut blocks, mut stacks) = (0, 0, 0, 0, 0);
    let mut squares = 0;
    while pat != 0 {
        let k = pat.trailing_zeros() + 1;
        pat >>= k;
        at += step;
        squares += 1;
        let t = at as usize;
        let tbit = 1u64 << t;
        let last = pat == 0;
        // The top dropped here: the last of the `k` pieces dropped.
        let top_black = carried >> (k - 1) & 1 == 1;
        carried >>= k;
        let top_mine = top_black == me_black;
        let top_kind = if last { kind } else { FLAT };
        match pos.top(t) {
            None => empties += 1,
            Some((owner, before)) => {
                let theirs = owner.index() != cx.me;
                if before == FLAT {
                    if theirs {
                        fcd += 1; // their flat is covered
                        if top_mine {
                            takes += 1;
                        }
                    } else {
                        fcd -= 1; // an own flat is covered
                        covers_own += 1;
                    }
                } else if before == WALL {
                    // Only a capstone alone drops on a wall: the wall is flattened.
                    f(S_FLATTENS, 1.0);
                }
                if theirs && pos.heights[t] > 1 && top_mine {
                    stacks += 1;
                }
            }
        }
        if top_kind == FLAT {
            fcd += if top_mine { 1 } else { -1 };
        }
        if top_mine && cx.threats & tbit != 0 {
            blocks += 1;
        }
    }
    f(S_SQUARES, squares as f32);
    f(S_FCD, fcd as f32);
    f(S_FCD_END, fcd as f32 * cx.e);
    f(S_TAKES_FLATS, takes as f32);
    f(S_COVERS_OWN, covers_own as f32);
    f(S_EMPTIES, empties as f32);
    f(S_BLOCKS, blocks as f32);
    f(S_TAKES_STACKS, stacks as f32);
}

/// The score of `mv`: the dot product of its features with `weights`.
#[inline]
pub fn move_score(pos: &Tak, cx: &Context, mv: TakMove, weights: &[f32; MOVE_FEATURES]) -> f32 {
    let mut s = 0.0;
    move_features(pos, cx, mv, |i, v| s += weights[i] * v);
    s
}
