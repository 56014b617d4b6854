//! Short partizan games in canonical form: the arithmetic of combinatorial game theory
//! that the Clobber solver uses to add up small independent regions exactly.
//!
//! Definitions follow Siegel, *Combinatorial Game Theory* (AMS, 2013), ch. II:
//! a game is `{ left options | right options }`;
//! `G <= H` iff no `G^L >= H` and no `H^R <= G`;
//! `G + H = { G^L + H, G + H^L | G^R + H, G + H^R }`;
//! the canonical form removes dominated options and bypasses reversible ones, and two
//! games are equal iff their canonical forms are identical. Every game here is interned
//! once in a [`Games`] table and named by a [`GameId`], so equality of canonical games is
//! equality of ids, and comparisons and sums are memoised.

use fxhash::FxHashMap;

/// A game in a [`Games`] table.
pub type GameId = u32;

/// The game `0 = { | }`.
pub const ZERO: GameId = 0;

/// A game form as interned: sorted Left options, sorted Right options.
type Form = (Box<[GameId]>, Box<[GameId]>);

/// A table of games: every form built through it, each once.
pub struct Games {
    left: Vec<Box<[GameId]>>,
    right: Vec<Box<[GameId]>>,
    intern: FxHashMap<Form, GameId>,
    le_memo: FxHashMap<(GameId, GameId), bool>,
    sum_memo: FxHashMap<(GameId, GameId), GameId>,
    /// Per game, who wins moving first, once known: `[Left, Right]`. The solver asks
    /// this at every leaf; an index here is far cheaper than the `le` memo's hashing.
    first_wins: Vec<[Option<bool>; 2]>,
    /// Bytes of the interned option lists (each held twice: in `left`/`right` and as
    /// the key of `intern`).
    option_bytes: usize,
}

impl Default for Games {
    fn default() -> Games {
        Games::new()
    }
}

impl Games {
    /// A table holding only `0`.
    pub fn new() -> Games {
        let mut games = Games {
            left: Vec::new(),
            right: Vec::new(),
            intern: FxHashMap::default(),
            le_memo: FxHashMap::default(),
            sum_memo: FxHashMap::default(),
            first_wins: Vec::new(),
            option_bytes: 0,
        };
        let zero = games.raw(Vec::new(), Vec::new());
        debug_assert_eq!(zero, ZERO);
        games
    }

    /// Number of games in the table.
    pub fn len(&self) -> usize {
        self.left.len()
    }

    /// Whether the table holds only `0`.
    pub fn is_empty(&self) -> bool {
        self.len() <= 1
    }

    /// About the bytes the table holds: its maps, vectors and option lists (for the
    /// solvers' memory bound, [`crate::memory`]).
    pub fn memory_bytes(&self) -> usize {
        use crate::memory::map_bytes;
        let vectors = (self.left.capacity() + self.right.capacity())
            * std::mem::size_of::<Box<[GameId]>>()
            + self.first_wins.capacity() * std::mem::size_of::<[Option<bool>; 2]>();
        map_bytes(&self.intern)
            + map_bytes(&self.le_memo)
            + map_bytes(&self.sum_memo)
            + vectors
            + self.option_bytes
    }

    /// Left's options of `g`.
    pub fn left_options(&self, g: GameId) -> &[GameId] {
        &self.left[g as usize]
    }

    /// Right's options of `g`.
    pub fn right_options(&self, g: GameId) -> &[GameId] {
        &self.right[g as usize]
    }

    /// Interns the form `{ left | right }` as given (sorted and deduplicated).
    fn raw(&mut self, mut left: Vec<GameId>, mut right: Vec<GameId>) -> GameId {
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        let key = (left.into_boxed_slice(), right.into_boxed_slice());
        if let Some(&id) = self.intern.get(&key) {
            return id;
        }
        let id = GameId::try_from(self.left.len()).expect("fewer than 2^32 games");
        self.option_bytes += 2 * (key.0.len() + key.1.len()) * std::mem::size_of::<GameId>();
        self.left.push(key.0.clone());
        self.right.push(key.1.clone());
        self.first_wins.push([None, None]);
        self.intern.insert(key, id);
        id
    }

    /// `g <= h`.
    pub fn le(&mut self, g: GameId, h: GameId) -> bool {
        if g == h {
            return true;
        }
        if let Some(&known) = self.le_memo.get(&(g, h)) {
            return known;
        }
        let mut result = true;
        for i in 0..self.left[g as usize].len() {
            let gl = self.left[g as usize][i];
            if self.le(h, gl) {
                result = false;
                break;
            }
        }
        if result {
            for i in 0..self.right[h as usize].len() {
                let hr = self.right[h as usize][i];
                if self.le(hr, g) {
                    result = false;
                    break;
                }
            }
        }
        self.le_memo.insert((g, h), result);
        result
    }

    /// Whether Left, moving first in `g`, wins: some `g^L >= 0`.
    pub fn left_first_wins(&mut self, g: GameId) -> bool {
        if let Some(known) = self.first_wins[g as usize][0] {
            return known;
        }
        let wins = (0..self.left[g as usize].len()).any(|i| {
            let gl = self.left[g as usize][i];
            self.le(ZERO, gl)
        });
        self.first_wins[g as usize][0] = Some(wins);
        wins
    }

    /// Whether Right, moving first in `g`, wins: some `g^R <= 0`.
    pub fn right_first_wins(&mut self, g: GameId) -> bool {
        if let Some(known) = self.first_wins[g as usize][1] {
            return known;
        }
        let wins = (0..self.right[g as usize].len()).any(|i| {
            let gr = self.right[g as usize][i];
            self.le(gr, ZERO)
        });
        self.first_wins[g as usize][1] = Some(wins);
        wins
    }

    /// The canonical form of `{ left | right }`, whose options must be canonical.
    pub fn game(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> GameId {
        let (mut left, mut right) = (left, right);
        loop {
            left.sort_unstable();
            left.dedup();
            right.sort_unstable();
            right.dedup();
            // Dominated options: Left keeps maximal options, Right minimal ones.
            left = self.undominated(&left, true);
            right = self.undominated(&right, false);
            let g = self.raw(left.clone(), right.clone());
            // Reversible options, bypassed one at a time until none is left.
            let mut changed = false;
            let mut new_left = Vec::with_capacity(left.len());
            for &a in &left {
                let reverse = self.right[a as usize]
                    .clone()
                    .iter()
                    .copied()
                    .find(|&ar| self.le(ar, g));
                match reverse {
                    Some(ar) => {
                        changed = true;
                        new_left.extend_from_slice(&self.left[ar as usize].clone());
                    }
                    None => new_left.push(a),
                }
            }
            let mut new_right = Vec::with_capacity(right.len());
            for &b in &right {
                let reverse = self.left[b as usize]
                    .clone()
                    .iter()
                    .copied()
                    .find(|&bl| self.le(g, bl));
                match reverse {
                    Some(bl) => {
                        changed = true;
                        new_right.extend_from_slice(&self.right[bl as usize].clone());
                    }
                    None => new_right.push(b),
                }
            }
            if !changed {
                return g;
            }
            left = new_left;
            right = new_right;
        }
    }

    /// The options of `options` that no other option dominates (for Left: is at least
    /// as large as; for Right: at most as large as).
    fn undominated(&mut self, options: &[GameId], for_left: bool) -> Vec<GameId> {
        let mut kept = Vec::with_capacity(options.len());
        for (i, &a) in options.iter().enumerate() {
            let dominated = options.iter().enumerate().any(|(j, &b)| {
                j != i
                    && if for_left {
                        self.le(a, b)
                    } else {
                        self.le(b, a)
                    }
            });
            if !dominated {
                kept.push(a);
            }
        }
        kept
    }

    /// The canonical form of `g + h` (both canonical).
    pub fn add(&mut self, g: GameId, h: GameId) -> GameId {
        if g == ZERO {
            return h;
        }
        if h == ZERO {
            return g;
        }
        let key = (g.min(h), g.max(h));
        if let Some(&known) = self.sum_memo.get(&key) {
            return known;
        }
        let mut left = Vec::new();
        let mut right = Vec::new();
        for gl in self.left[g as usize].clone().iter() {
            left.push(self.add(*gl, h));
        }
        for hl in self.left[h as usize].clone().iter() {
            left.push(self.add(g, *hl));
        }
        for gr in self.right[g as usize].clone().iter() {
            right.push(self.add(*gr, h));
        }
        for hr in self.right[h as usize].clone().iter() {
            right.push(self.add(g, *hr));
        }
        let sum = self.game(left, right);
        self.sum_memo.insert(key, sum);
        sum
    }

    /// A short description: `0`, `*`, `{a|b}` with nested options (for tests and logs).
    pub fn describe(&self, g: GameId) -> String {
        if g == ZERO {
            return "0".into();
        }
        let side = |opts: &[GameId]| {
            opts.iter()
                .map(|&o| self.describe(o))
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{{{}|{}}}",
            side(&self.left[g as usize]),
            side(&self.right[g as usize])
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-checked facts from Siegel (2013), ch. II: `* + * = 0`, `1 + -1 = 0`,
    /// `{0|0} = *`, `↑ = {0|*}` is positive yet smaller than every positive number,
    /// `↑ + ↓ = 0`, `↑ + ↑ + *` is positive, `{1|-1}` is fuzzy with 0 and `1/2 + 1/2 = 1`.
    #[test]
    fn textbook_identities() {
        let mut g = Games::new();
        let one = g.game(vec![ZERO], vec![]);
        let minus_one = g.game(vec![], vec![ZERO]);
        let star = g.game(vec![ZERO], vec![ZERO]);
        assert_eq!(g.add(star, star), ZERO);
        assert_eq!(g.add(one, minus_one), ZERO);
        let up = g.game(vec![ZERO], vec![star]);
        let down = g.game(vec![star], vec![ZERO]);
        assert_eq!(g.add(up, down), ZERO);
        assert!(g.le(ZERO, up) && !g.le(up, ZERO), "up > 0");
        let half = g.game(vec![ZERO], vec![one]);
        assert!(g.le(up, half) && !g.le(half, up), "up < 1/2");
        assert_eq!(g.add(half, half), one);
        let up_up_star = {
            let uu = g.add(up, up);
            g.add(uu, star)
        };
        assert!(g.le(ZERO, up_up_star) && !g.le(up_up_star, ZERO));
        let switch = g.game(vec![one], vec![minus_one]);
        assert!(
            !g.le(ZERO, switch) && !g.le(switch, ZERO),
            "{{1|-1}} is fuzzy"
        );
        assert!(g.left_first_wins(switch) && g.right_first_wins(switch));
        // Up + star is fuzzy (first player wins): Left moves to up, Right to star.
        let up_star = g.add(up, star);
        assert!(g.left_first_wins(up_star) && g.right_first_wins(up_star));
        // `{0, *|} = 1`: the option `*` reverses through its Right option 0 <= G.
        let f = g.game(vec![ZERO, star], vec![]);
        assert_eq!(f, one);
    }
}
