//! Perft: counting the leaves of the legal move tree, the standard test of move generation.
//!
//! Convention (as Tiltak's): `perft(0) = 1`; a finished game at depth > 0 counts 0.

use crate::game::Game;

/// Number of move sequences of exactly `depth` plies from `pos` (which is restored).
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..=depth).map(|_| Vec::new()).collect();
    perft_inner(pos, depth, &mut buffers)
}

fn perft_inner<G: Game>(pos: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (this, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return pos.count_moves(this);
    }
    this.clear();
    pos.generate_moves(this);
    let mut total = 0;
    for &mv in this.iter() {
        let undo = pos.make_move(mv);
        total += perft_inner(pos, depth - 1, rest);
        pos.unmake_move(mv, undo);
    }
    total
}

/// Perft split by first move: `(canonical move, count)` in generation order.
pub fn divide<G: Game>(pos: &mut G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if depth == 0 {
        return Vec::new();
    }
    moves
        .into_iter()
        .map(|mv| {
            let text = pos.format_move(mv);
            let undo = pos.make_move(mv);
            let count = perft(pos, depth - 1);
            pos.unmake_move(mv, undo);
            (text, count)
        })
        .collect()
}
