//! Memory bounds for the tables of the proof solvers.
//!
//! A proof search remembers every position it proves, and a hard one (8x8 five in a
//! row) would remember positions until the machine runs out: measured before this bound,
//! `solve` on 8x8 k=5 grew from 105 MB to 578 MB in 20 s and then aborted on an
//! allocation failure under a 1 GiB address-space limit. The solvers now check, before a
//! table grows, that the grown table still fits their budget (the `Hash` option of the
//! protocol, `--hash` on the command line), and ask the allocator for it fallibly; when
//! either fails the proof ends as *out of memory* and `solve` answers `unknown`.
//!
//! The tables are hashbrown maps (std's `HashMap`): `buckets` slots of the entry's size
//! plus one control byte each (and a group of 16 more), with `buckets` a power of two of
//! which 7/8 may be filled. A map grows by doubling its buckets, and for the time of the
//! move both the old and the new allocation are held: that peak is what is checked.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};

/// The bytes a solver may use for its tables.
pub type Budget = usize;

/// A budget of `mib` MiB.
pub fn mib(mib: usize) -> Budget {
    mib.saturating_mul(1 << 20)
}

/// A table could not grow within its budget (or the allocator refused it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfMemory;

/// Buckets of a hashbrown table that can hold `capacity` entries without growing.
fn buckets(capacity: usize) -> usize {
    match capacity {
        0 => 0,
        c if c < 8 => (c + 1).next_power_of_two(),
        c => (c * 8 / 7).next_power_of_two(),
    }
}

/// The bytes of a table of `buckets` buckets of entries of `entry` bytes.
fn table_bytes(buckets: usize, entry: usize) -> usize {
    if buckets == 0 {
        0
    } else {
        buckets * (entry + 1) + 16
    }
}

/// The bytes `map` holds now (its allocation, not counting what its values point to).
pub fn map_bytes<K, V, S>(map: &HashMap<K, V, S>) -> usize {
    table_bytes(buckets(map.capacity()), std::mem::size_of::<(K, V)>())
}

/// Makes room for one more entry in `map` when `used` bytes (every table of the solver,
/// `map` included) leave room for it under `budget`: a map that is full grows first,
/// which holds its old and its new allocation at once.
///
/// # Errors
/// [`OutOfMemory`] when the grown map would take the solver over its budget, or the
/// allocator refuses the memory.
pub fn make_room<K: Eq + Hash, V, S: BuildHasher>(
    map: &mut HashMap<K, V, S>,
    used: usize,
    budget: Budget,
) -> Result<(), OutOfMemory> {
    if map.len() < map.capacity() {
        return Ok(());
    }
    let grown = table_bytes(
        buckets(map.capacity()).max(2) * 2,
        std::mem::size_of::<(K, V)>(),
    );
    if used.saturating_add(grown) > budget {
        return Err(OutOfMemory);
    }
    map.try_reserve(1).map_err(|_| OutOfMemory)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_follows_the_maps_growth_and_the_budget_holds() {
        let mut map: HashMap<u64, u64> = HashMap::new();
        assert_eq!(map_bytes(&map), 0);
        // A budget of 128 KiB (131,072 bytes) for 16-byte entries (17 bytes a bucket with
        // its control byte): growing from 2048 buckets to 4096 holds 34,832 + 69,648 =
        // 104,480 bytes at once, which fits; growing on to 8192 would hold 69,648 +
        // 139,280, which does not, so the map stops at 4096 buckets, 7/8 of them filled.
        let budget = 128 * 1024;
        let mut refused = None;
        for i in 0..10_000u64 {
            let used = map_bytes(&map);
            match make_room(&mut map, used, budget) {
                Ok(()) => {
                    map.insert(i, i);
                }
                Err(OutOfMemory) => {
                    refused = Some(i);
                    break;
                }
            }
            assert!(map_bytes(&map) <= budget);
        }
        assert_eq!(refused, Some(3584));
        assert_eq!(map.capacity(), 3584);
        assert_eq!(map_bytes(&map), 4096 * 17 + 16);
    }
}
