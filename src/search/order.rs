//! Move ordering helpers.

use crate::game::Game;

/// Sorts `moves` by the game's ordering hint, best first (stable, so ties keep
/// generation order). `scratch` is a reusable buffer.
pub fn sort_by_hint<G: Game>(pos: &G, moves: &mut [G::Move], scratch: &mut Vec<i32>) {
    scratch.clear();
    scratch.extend(moves.iter().map(|&mv| pos.move_order_hint(mv)));
    // Insertion sort on (hint, move) pairs: move lists are short and mostly small.
    for i in 1..moves.len() {
        let (mv, hint) = (moves[i], scratch[i]);
        let mut j = i;
        while j > 0 && scratch[j - 1] < hint {
            moves[j] = moves[j - 1];
            scratch[j] = scratch[j - 1];
            j -= 1;
        }
        moves[j] = mv;
        scratch[j] = hint;
    }
}
