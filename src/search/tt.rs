//! The transposition table: a fixed array of entries indexed by hash bits, each
//! verified by its full key, replaced by depth and age.
//!
//! Win and loss scores are stored relative to the node (distance from the node, not
//! from the root) and re-based on the way out, as Stockfish's `value_to_tt` does,
//! so a stored "win in 3" stays correct wherever the position is met again.

use std::mem::MaybeUninit;

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

/// One slot of a [`Table`]: an [`Entry`] spelled out, with `bound` 0 for an empty slot.
///
/// All-zero bytes are a valid empty slot (the move is a `MaybeUninit`, which holds any
/// bytes, and is read only from a filled slot), so a table is allocated zeroed: the
/// system hands out zero pages lazily, and a table of 4 GiB costs no time until its
/// entries are written (see [`Table::new`]). The slot is as large as an
/// `Option<Entry>` was (24 bytes for every game's move), so a table of a given size holds
/// as many entries as before and the bench node counts are unchanged.
struct Slot<Move> {
    key: u64,
    score: i32,
    depth: u8,
    /// 0: empty; 1, 2, 3: [`Bound::Exact`], [`Bound::Lower`], [`Bound::Upper`].
    bound: u8,
    generation: u8,
    mv: MaybeUninit<Option<Move>>,
}

impl<Move: Copy> Slot<Move> {
    #[inline]
    fn get(&self) -> Option<Entry<Move>> {
        let bound = match self.bound {
            0 => return None,
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            key: self.key,
            // SAFETY: `bound` is non-zero only after `set`, which writes the move too.
            mv: unsafe { self.mv.assume_init() },
            score: self.score,
            depth: self.depth,
            bound,
            generation: self.generation,
        })
    }

    #[inline]
    fn set(&mut self, entry: Entry<Move>) {
        self.key = entry.key;
        self.mv = MaybeUninit::new(entry.mv);
        self.score = entry.score;
        self.depth = entry.depth;
        self.generation = entry.generation;
        self.bound = match entry.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
    }
}

/// `count` empty slots, allocated zeroed (lazily by the system: zero pages are mapped on
/// first write), or `None` when the allocation fails.
fn zeroed_slots<Move>(count: usize) -> Option<Box<[Slot<Move>]>> {
    let layout = std::alloc::Layout::array::<Slot<Move>>(count).ok()?;
    if layout.size() == 0 {
        return Some(Box::new([]));
    }
    // SAFETY: the layout has a non-zero size. An all-zero `Slot` is a valid value (an
    // empty slot: integers, and a `MaybeUninit` that accepts any bytes), so the zeroed
    // block is `count` initialised slots; it was allocated by the global allocator with
    // the layout of `[Slot<Move>; count]`, which is what `Box<[Slot<Move>]>` frees with.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<Slot<Move>>();
        if ptr.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
            ptr, count,
        )))
    }
}

/// A transposition table for moves of type `Move`.
pub struct Table<Move> {
    entries: Box<[Slot<Move>]>,
    generation: u8,
}

impl<Move: Copy> Table<Move> {
    /// A table of about `megabytes` MiB (at least one entry).
    ///
    /// The memory comes zeroed from the system and is mapped only where entries are
    /// written, so even the largest table is ready at once: `setoption name Hash value
    /// 4096` then `isready` answers `readyok` in 0.1-0.2 ms, against 2.2 s (up to 14 s on
    /// a loaded machine) when every entry was written up front. The zeroing moves into
    /// the searches that first write the pages: the first `go depth 8` of Clobber 5x6
    /// (2.4 GB of the table written) took 3.4 s against 1.8 s (measured, release build).
    /// Two ways to win that back were measured and dropped: huge pages (`MADV_HUGEPAGE`:
    /// 7.7 to 12.4 s, the kernel compacting memory for them) and a thread mapping the
    /// pages ahead (`MADV_POPULATE_WRITE`: 3.4 to 5.1 s, and a depth-3 tic-tac-toe search
    /// beside it took 104 ms instead of under 1 ms).
    ///
    /// When the system refuses that much memory, the table halves its size until it gets
    /// it (and says so in the log).
    pub fn new(megabytes: usize) -> Self {
        Table::with_kib(megabytes.max(1) * 1024)
    }

    /// A table of about `kib` KiB (at least one entry).
    fn with_kib(kib: usize) -> Self {
        Table {
            entries: Self::allocate(kib),
            generation: 0,
        }
    }

    /// Empty slots filling about `kib` KiB, fewer if the system refuses that much.
    fn allocate(kib: usize) -> Box<[Slot<Move>]> {
        let size = std::mem::size_of::<Slot<Move>>().max(1);
        let mut count = (kib.saturating_mul(1024) / size).max(1);
        loop {
            if let Some(slots) = zeroed_slots(count) {
                return slots;
            }
            log::warn!(
                "transposition table: cannot allocate {} KiB; trying half",
                count * size / 1024
            );
            if count == 1 {
                // Not even one entry: the allocator is out of memory altogether.
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<Slot<Move>>());
            }
            count /= 2;
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Multiply-high maps the key uniformly onto any table length (Lemire's reduction).
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// Asks the processor to bring `key`'s slot into the cache, so that a probe a little
    /// later does not wait for memory (the table is far larger than the caches, and the
    /// wait was most of the time of a probe).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const Slot<Move> = &self.entries[self.index(key)];
            // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault, and the
            // pointer is to a live slot of the table.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    slot.cast::<i8>(),
                )
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<Move>> {
        self.entries[self.index(key)].get().filter(|e| e.key == key)
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
        let old = slot.get();
        let replace = match &old {
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
            let mv = match (mv, old) {
                (None, Some(old)) if old.key == key => old.mv,
                _ => mv,
            };
            slot.set(Entry {
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

    /// Empties the table: a fresh zeroed allocation of the same size (the old one is
    /// freed first), so clearing a large table costs no time either.
    pub fn clear(&mut self) {
        let kib = self.entries.len() * std::mem::size_of::<Slot<Move>>() / 1024;
        self.entries = Box::new([]);
        self.entries = Self::allocate(kib.max(1));
        self.generation = 0;
    }

    /// Permill of the first thousand slots written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| e.get().is_some_and(|e| e.generation == self.generation))
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
    /// Starts bringing `key`'s slot into the cache ([`Table::prefetch`]); a hint only.
    fn prefetch(&self, _key: u64) {}
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
    fn prefetch(&self, key: u64) {
        self.0.borrow().prefetch(key);
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
    fn slots_are_as_small_as_optional_entries() {
        use crate::games::{clobber::ClobberMove, halma::HalmaMove, mnk::MnkMove, tak::TakMove};
        fn same<M: Copy>() {
            assert_eq!(
                std::mem::size_of::<Slot<M>>(),
                std::mem::size_of::<Option<Entry<M>>>()
            );
        }
        same::<MnkMove>();
        same::<ClobberMove>();
        same::<HalmaMove>();
        same::<TakMove>();
    }

    #[test]
    fn a_large_table_is_ready_at_once_and_clears_at_once() {
        // 2 GiB of table: writing every entry up front took about a second; zeroed pages
        // from the system take no time until they are written.
        let start = std::time::Instant::now();
        let mut t: Table<u16> = Table::new(2048);
        t.store(42, Some(7), 5, 0, 3, Bound::Lower);
        assert_eq!(t.probe(42).unwrap().mv, Some(7));
        t.clear();
        assert!(t.probe(42).is_none());
        let took = start.elapsed();
        assert!(took < std::time::Duration::from_millis(200), "{took:?}");
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
