//! Move ordering helpers.

use crate::game::Game;

/// Sorts `moves` by the game's ordering hint, best first. The sort is stable, so ties
/// keep generation order. `scratch` is a reusable buffer.
pub fn sort_by_hint<G: Game>(pos: &G, moves: &mut [G::Move], scratch: &mut Vec<(i32, G::Move)>) {
    scratch.clear();
    scratch.extend(moves.iter().map(|&mv| (pos.move_order_hint(mv), mv)));
    scratch.sort_by_key(|entry| std::cmp::Reverse(entry.0));
    for (slot, (_, mv)) in moves.iter_mut().zip(scratch.iter()) {
        *slot = *mv;
    }
}

/// Sorts the next few of `keys[done..]` into place (the smallest first) and returns them:
/// one key at first, then up to the 4th, the 16th, and then all of them. A node that
/// stops after its first moves (a cutoff, or late move pruning) never pays for sorting
/// the rest; the keys taken in turn are exactly those of a full sort.
pub fn sort_next(keys: &mut [u64], done: usize) -> &[u64] {
    let end = match done {
        0 => 1,
        1..=3 => 4,
        4..=15 => 16,
        _ => keys.len(),
    }
    .min(keys.len());
    let rest = &mut keys[done..];
    let k = end - done;
    if k < rest.len() {
        rest.select_nth_unstable(k - 1);
    }
    rest[..k].sort_unstable();
    &keys[done..end]
}

#[cfg(test)]
mod tests {
    use super::sort_next;

    /// Keys taken a few at a time come out exactly as one full sort puts them, for
    /// every length around the steps (1, 4, 16) and with repeated keys.
    #[test]
    fn keys_taken_in_steps_are_those_of_a_full_sort() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for len in 1..=40 {
            let keys: Vec<u64> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x % 9
                })
                .collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            let mut work = keys.clone();
            let mut taken = Vec::new();
            let mut steps = 0;
            while taken.len() < len {
                let next = sort_next(&mut work, taken.len());
                assert!(!next.is_empty());
                taken.extend_from_slice(next);
                steps += 1;
            }
            assert_eq!(taken, sorted, "length {len}");
            assert!(steps <= 4, "length {len}: {steps} steps");
        }
    }
}
