//! The transposition table: a fixed array of entries indexed by hash bits, each
//! verified by its full key, replaced by depth and age.
//!
//! Win and loss scores are stored relative to the node (distance from the node, not
//! from the root) and re-based on the way out, as Stockfish's `value_to_tt` does,
//! so a stored "win in 3" stays correct wherever the position is met again.

use super::WIN_THRESHOLD;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// The value is at least the score (a beta cut-off).
    Lower,
    /// The value is at most the score (no move raised alpha).
    Upper,
}

/// Depth stored for a result that no search horizon limited: valid at any depth.
pub const DEPTH_EXACT: u8 = u8::MAX;

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry<Move> {
    /// The full hash of the position.
    pub key: u64,
    /// Best or refuting move, if any.
    pub mv: Option<Move>,
    /// Score, node-relative for wins and losses.
    score: i32,
    /// Remaining depth searched ([`DEPTH_EXACT`] for a horizon-free result).
    pub depth: u8,
    /// What the score means.
    pub bound: Bound,
    /// The search generation that wrote it.
    generation: u8,
}

impl<Move: Copy> Entry<Move> {
    /// The score re-based to `ply` plies from the root.
    #[inline]
    pub fn score(&self, ply: u32) -> i32 {
        from_tt(self.score, ply)
    }
}

/// Converts a root-relative score to a node-relative one for storing.
#[inline]
pub fn to_tt(score: i32, ply: u32) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply as i32
    } else if score <= -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a stored node-relative score to a root-relative one.
#[inline]
pub fn from_tt(score: i32, ply: u32) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply as i32
    } else if score <= -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

/// A transposition table for moves of type `Move`.
pub struct Table<Move> {
    entries: Vec<Option<Entry<Move>>>,
    generation: u8,
}

impl<Move: Copy> Table<Move> {
    /// A table of about `megabytes` MiB (at least one entry).
    pub fn new(megabytes: usize) -> Self {
        let size = std::mem::size_of::<Option<Entry<Move>>>().max(1);
        let count = (megabytes.max(1) * 1024 * 1024 / size).max(1);
        Table {
            entries: vec![None; count],
            generation: 0,
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Multiply-high maps the key uniformly onto any table length (Lemire's reduction).
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<Move>> {
        self.entries[self.index(key)].filter(|e| e.key == key)
    }

    /// Stores a result, replacing the slot's entry if it is for the same position, from an
    /// older search, or shallower.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        ply: u32,
        depth: u8,
        bound: Bound,
    ) {
        let index = self.index(key);
        let generation = self.generation;
        let slot = &mut self.entries[index];
        let replace = match slot {
            None => true,
            Some(old) => {
                old.key == key
                    || old.generation != generation
                    || depth >= old.depth
                    || (bound == Bound::Exact && old.bound != Bound::Exact)
            }
        };
        if replace {
            // Keep an older best move when the new result has none for the same position.
            let mv = match (mv, &*slot) {
                (None, Some(old)) if old.key == key => old.mv,
                _ => mv,
            };
            *slot = Some(Entry {
                key,
                mv,
                score: to_tt(score, ply),
                depth,
                bound,
                generation,
            });
        }
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
        self.generation = 0;
    }

    /// Permill of the first thousand slots written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| e.is_some_and(|e| e.generation == self.generation))
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;

    #[test]
    fn win_scores_are_rebased_by_ply() {
        let mut t: Table<u16> = Table::new(1);
        // At ply 3 the side to move wins in 5 plies from the root: WIN - 5.
        t.store(42, Some(7), WIN - 5, 3, 4, Bound::Exact);
        let e = t.probe(42).unwrap();
        // Met again at ply 1, the same win is 2 plies closer to the root.
        assert_eq!(e.score(1), WIN - 3);
        assert_eq!(e.score(3), WIN - 5);
        assert_eq!(e.mv, Some(7));
        assert!(t.probe(43).is_none());
    }

    #[test]
    fn deeper_entries_of_the_same_search_survive_shallower_ones() {
        let mut t: Table<u16> = Table::new(1);
        // Small keys all map to slot 0 (key * len < 2^64).
        let (k1, k2) = (5u64, 10u64);
        assert_eq!(t.index(k1), t.index(k2));
        t.store(k1, None, 10, 0, 8, Bound::Lower);
        t.store(k2, None, 20, 0, 2, Bound::Lower);
        assert!(t.probe(k1).is_some());
        t.new_search();
        t.store(k2, None, 20, 0, 2, Bound::Lower);
        assert!(t.probe(k2).is_some());
    }
}
