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
        Table::with_kib(megabytes.max(1) * 1024)
    }

    /// A table of about `kib` KiB (at least one entry).
    fn with_kib(kib: usize) -> Self {
        let size = std::mem::size_of::<Option<Entry<Move>>>().max(1);
        let count = (kib * 1024 / size).max(1);
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

/// A transposition table as the search uses it: through `&self`, so that one type is a
/// table of one thread ([`LocalTable`]) and another is shared by the threads of a Lazy SMP
/// search ([`SharedTable`]).
pub trait TtAccess<Move>: Send {
    /// The entry stored for `key`, if any.
    fn probe(&self, key: u64) -> Option<Entry<Move>>;
    /// Stores a result (see [`Table::store`]).
    fn store(&self, key: u64, mv: Option<Move>, score: i32, ply: u32, depth: u8, bound: Bound);
    /// Marks the start of a new search.
    fn new_search(&self);
    /// Empties the table.
    fn clear(&self);
    /// Permill of sampled slots written in the current search.
    fn hashfull(&self) -> u32;
}

/// The table of a single-threaded search.
pub struct LocalTable<Move>(std::cell::RefCell<Table<Move>>);

impl<Move: Copy> LocalTable<Move> {
    /// A table of about `megabytes` MiB.
    pub fn new(megabytes: usize) -> Self {
        LocalTable(std::cell::RefCell::new(Table::new(megabytes)))
    }
}

impl<Move: Copy + Send> TtAccess<Move> for LocalTable<Move> {
    #[inline]
    fn probe(&self, key: u64) -> Option<Entry<Move>> {
        self.0.borrow().probe(key)
    }
    #[inline]
    fn store(&self, key: u64, mv: Option<Move>, score: i32, ply: u32, depth: u8, bound: Bound) {
        self.0.borrow_mut().store(key, mv, score, ply, depth, bound);
    }
    fn new_search(&self) {
        self.0.borrow_mut().new_search();
    }
    fn clear(&self) {
        self.0.borrow_mut().clear();
    }
    fn hashfull(&self) -> u32 {
        self.0.borrow().hashfull()
    }
}

/// Shards of a table shared by several search threads, each behind its own lock (the key's
/// low bits pick the shard; the shard's own index uses the high bits, so both are uniform).
pub struct SharedTable<Move> {
    shards: Vec<std::sync::Mutex<Table<Move>>>,
}

/// Shards of a shared table: enough that two to a few dozen threads rarely meet.
const SHARDS: usize = 256;

impl<Move: Copy> SharedTable<Move> {
    /// A table of about `megabytes` MiB in all.
    pub fn new(megabytes: usize) -> Self {
        let per_shard_kib = (megabytes.max(1) * 1024 / SHARDS).max(1);
        SharedTable {
            shards: (0..SHARDS)
                .map(|_| std::sync::Mutex::new(Table::with_kib(per_shard_kib)))
                .collect(),
        }
    }

    #[inline]
    fn shard(&self, key: u64) -> std::sync::MutexGuard<'_, Table<Move>> {
        self.shards[(key as usize) % SHARDS]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}

impl<Move: Copy + Send> TtAccess<Move> for std::sync::Arc<SharedTable<Move>> {
    #[inline]
    fn probe(&self, key: u64) -> Option<Entry<Move>> {
        self.shard(key).probe(key)
    }
    #[inline]
    fn store(&self, key: u64, mv: Option<Move>, score: i32, ply: u32, depth: u8, bound: Bound) {
        self.shard(key).store(key, mv, score, ply, depth, bound);
    }
    fn new_search(&self) {
        for s in &self.shards {
            s.lock().unwrap_or_else(|e| e.into_inner()).new_search();
        }
    }
    fn clear(&self) {
        for s in &self.shards {
            s.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }
    fn hashfull(&self) -> u32 {
        self.shards[0]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .hashfull()
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
