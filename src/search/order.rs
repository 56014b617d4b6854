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
