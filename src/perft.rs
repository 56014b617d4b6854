//! Perft: counting the leaves of the legal move tree, the standard test of move generation.
//!
//! Convention (as Tiltak's): `perft(0) = 1`; a finished game at depth > 0 counts 0.
//!
//! A count can run for ever (`perft 50` on gomoku), so [`perft_until`] and
//! [`divide_until`] take a stop flag, read at every inner node of the tree: raised, they
//! return within microseconds with what they counted so far.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::Game;

/// Number of move sequences of exactly `depth` plies from `pos` (which is restored).
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    match perft_until(pos, depth, &AtomicBool::new(false)) {
        Ok(n) | Err(n) => n,
    }
}

/// [`perft`], giving up as soon as `stop` is raised.
///
/// # Errors
/// The leaves counted before the stop, when `stop` was raised before the count was done.
pub fn perft_until<G: Game>(pos: &mut G, depth: u32, stop: &AtomicBool) -> Result<u64, u64> {
    let mut buffers: Vec<Vec<G::Move>> = (0..=depth).map(|_| Vec::new()).collect();
    let mut count = Count {
        stop,
        stopped: false,
    };
    let nodes = count.inner(pos, depth, &mut buffers);
    if count.stopped {
        Err(nodes)
    } else {
        Ok(nodes)
    }
}

/// One count and whether it was stopped.
struct Count<'a> {
    stop: &'a AtomicBool,
    stopped: bool,
}

impl Count<'_> {
    fn inner<G: Game>(&mut self, pos: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (this, rest) = buffers.split_first_mut().expect("one buffer per ply");
        if depth == 1 {
            return pos.count_moves(this);
        }
        if self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return 0;
        }
        this.clear();
        pos.generate_moves(this);
        let mut total = 0;
        for &mv in this.iter() {
            let undo = pos.make_move(mv);
            total += self.inner(pos, depth - 1, rest);
            pos.unmake_move(mv, undo);
            if self.stopped {
                break;
            }
        }
        total
    }
}

/// The counts of root moves: `(canonical move, count)` in generation order.
pub type Divided = Vec<(String, u64)>;

/// Perft split by first move: `(canonical move, count)` in generation order.
pub fn divide<G: Game>(pos: &mut G, depth: u32) -> Vec<(String, u64)> {
    match divide_until(pos, depth, &AtomicBool::new(false), &mut |_, _| {}) {
        Ok(lines) | Err(lines) => lines,
    }
}

/// [`divide`], giving each root move's count to `each` as soon as it is known, and
/// giving up as soon as `stop` is raised.
///
/// # Errors
/// The root moves counted completely before the stop, when `stop` was raised first.
pub fn divide_until<G: Game>(
    pos: &mut G,
    depth: u32,
    stop: &AtomicBool,
    each: &mut dyn FnMut(&str, u64),
) -> Result<Divided, Divided> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut lines = Vec::with_capacity(moves.len());
    for mv in moves {
        let text = pos.format_move(mv);
        let undo = pos.make_move(mv);
        let counted = perft_until(pos, depth - 1, stop);
        pos.unmake_move(mv, undo);
        match counted {
            Ok(count) => {
                each(&text, count);
                lines.push((text, count));
            }
            Err(_) => return Err(lines),
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mnk::{Mnk, MnkSettings};

    #[test]
    fn a_raised_flag_stops_at_once_and_a_lowered_one_counts_everything() {
        let settings = MnkSettings::new(3, 3, 3);
        let mut pos = Mnk::start(&settings);
        // Tic-tac-toe, 4 plies: 9 * 8 * 7 * 6 (no game ends before ply 5).
        assert_eq!(perft_until(&mut pos, 4, &AtomicBool::new(false)), Ok(3024));
        assert_eq!(perft_until(&mut pos, 4, &AtomicBool::new(true)), Err(0));
        let stop = AtomicBool::new(true);
        let mut seen = 0;
        assert_eq!(
            divide_until(&mut pos, 3, &stop, &mut |_, _| seen += 1),
            Err(Vec::new())
        );
        assert_eq!(seen, 0);
        // Depth 1 needs no inner node: a count of the moves, stopped or not.
        assert_eq!(perft_until(&mut pos, 1, &stop), Ok(9));
        assert_eq!(pos.format_position(), "3/3/3 x");
    }
}
