//! The experiments behind the Clobber heuristics, move ordering and bitboard width, as
//! ignored tests (they take seconds to minutes and print tables rather than assert):
//!
//! ```text
//! cargo test --lib clobber::tune -- --ignored --nocapture --test-threads 1
//! ```
//!
//! `AGON_DUEL=rows,cols,depth,openings,plies` sets the match size of [`duels`].

use super::eval::strong_terms;
use super::*;
use crate::perft::perft;
use crate::search::{alphabeta::AlphaBeta, Control, Limits, Searcher};
use crate::zobrist::splitmix64;
use std::sync::atomic::AtomicBool;

use ClobberHeuristic as H;

/// A deterministic random number below `n`.
fn below(seed: &mut u64, n: usize) -> usize {
    let (next, r) = splitmix64(*seed);
    *seed = next;
    (r % n as u64) as usize
}

fn legal(pos: &Clobber) -> Vec<ClobberMove> {
    let mut out = Vec::new();
    pos.generate_moves(&mut out);
    out
}

/// A position after `plies` random moves from the start, or `None` if the game ended.
fn opening(rows: usize, cols: usize, plies: usize, seed: &mut u64) -> Option<Clobber> {
    let mut pos = Clobber::start(&ClobberSettings::new(rows, cols).ok()?);
    for _ in 0..plies {
        let moves = legal(&pos);
        if moves.is_empty() {
            return None;
        }
        pos.make_move(moves[below(seed, moves.len())]);
    }
    pos.outcome().is_none().then_some(pos)
}

/// Plays a game between two fixed-depth alpha-beta players (ordering on); `random`
/// is the chance in percent of a random move instead. Returns the positions met, with
/// the side to move, and the winner.
fn play(
    mut pos: Clobber,
    white: H,
    black: H,
    depth: u32,
    random: usize,
    seed: &mut u64,
) -> (Vec<Clobber>, Side) {
    let stop = AtomicBool::new(false);
    let mut players = [
        AlphaBeta::<Clobber>::new(white, true, 4),
        AlphaBeta::<Clobber>::new(black, true, 4),
    ];
    let mut seen = Vec::new();
    while pos.outcome().is_none() {
        seen.push(pos.clone());
        let moves = legal(&pos);
        let mv = if below(seed, 100) < random {
            moves[below(seed, moves.len())]
        } else {
            let player = &mut players[pos.side_to_move().index()];
            let limits = Limits::depth(depth);
            let result =
                player.search(&mut pos.clone(), &limits, &Control::new(&stop), &mut |_| {});
            result.best.expect("the game is not over")
        };
        pos.make_move(mv);
    }
    (seen, pos.side_to_move().other())
}

/// Wins of `a` against `b` over `openings` random openings, each played with both colours.
fn duel(a: H, b: H, config: [usize; 5]) -> (usize, usize) {
    let [rows, cols, depth, openings, plies] = config;
    let mut seed = 12345;
    let (mut wins, mut games) = (0, 0);
    for _ in 0..openings {
        let Some(start) = opening(rows, cols, plies, &mut seed) else {
            continue;
        };
        for a_side in Side::BOTH {
            let (white, black) = if a_side == Side::First {
                (a, b)
            } else {
                (b, a)
            };
            let (_, winner) = play(start.clone(), white, black, depth as u32, 0, &mut seed);
            games += 1;
            wins += (winner == a_side) as usize;
        }
    }
    (wins, games)
}

#[test]
#[ignore]
fn duels() {
    let config: Vec<usize> = std::env::var("AGON_DUEL")
        .unwrap_or_else(|_| "5,6,3,200,4".to_string())
        .split(',')
        .filter_map(|x| x.parse().ok())
        .collect();
    let config: [usize; 5] = config.try_into().expect("rows,cols,depth,openings,plies");
    println!("rows,cols,depth,openings,plies = {config:?}");
    for &(name, h) in &Clobber::heuristics()[1..] {
        let (wins, games) = duel(H::Strong, h, config);
        println!("strong vs {name:>13}: {wins}/{games}");
    }
    let (wins, games) = duel(H::Adaptive, H::MobilityDiff, config);
    println!("adaptive vs mobility-diff: {wins}/{games}");
}

/// Logistic regression of game results on the raw terms of `strong`, from games between
/// the simple heuristics (not `strong` itself) with 10% random moves for variety.
#[test]
#[ignore]
fn texel() {
    let players = [
        H::SafePieces,
        H::Center,
        H::MobilityDiff,
        H::PieceDiff,
        H::Adaptive,
    ];
    let mut seed = 777;
    let mut data: Vec<([f64; 4], f64)> = Vec::new();
    for game in 0..2500 {
        let (rows, cols) = [(5, 6), (6, 6), (6, 5), (8, 8), (7, 7)][game % 5];
        let depth = if rows * cols > 40 { 2 } else { 3 };
        let plies = 2 + below(&mut seed, 8);
        let Some(start) = opening(rows, cols, plies, &mut seed) else {
            continue;
        };
        let white = players[below(&mut seed, players.len())];
        let black = players[below(&mut seed, players.len())];
        let (seen, winner) = play(start, white, black, depth, 10, &mut seed);
        for pos in seen {
            let terms = strong_terms(&pos).map(f64::from);
            data.push((terms, (pos.side_to_move() == winner) as u8 as f64));
        }
    }
    // Gradient descent on the mean log loss; features are scaled by their spread.
    let n = data.len() as f64;
    let mut spread = [0.0f64; 4];
    for (x, _) in &data {
        for i in 0..4 {
            spread[i] += x[i] * x[i] / n;
        }
    }
    let spread = spread.map(|s| s.sqrt().max(1e-9));
    let (mut w, mut bias) = ([0.0f64; 4], 0.0f64);
    let predict = |w: &[f64; 4], bias: f64, x: &[f64; 4]| {
        let z = bias + (0..4).map(|i| w[i] * x[i] / spread[i]).sum::<f64>();
        1.0 / (1.0 + (-z).exp())
    };
    for _ in 0..2000 {
        let (mut gw, mut gb) = ([0.0f64; 4], 0.0f64);
        for (x, y) in &data {
            let err = predict(&w, bias, x) - y;
            for i in 0..4 {
                gw[i] += err * x[i] / spread[i] / n;
            }
            gb += err / n;
        }
        for i in 0..4 {
            w[i] -= gw[i];
        }
        bias -= gb;
    }
    let right = data
        .iter()
        .filter(|(x, y)| (predict(&w, bias, x) > 0.5) == (*y > 0.5))
        .count();
    println!(
        "{} positions, {:.1}% predicted, tempo {:+.4}",
        data.len(),
        100.0 * right as f64 / n,
        bias
    );
    for (i, name) in ["safe", "defended", "continuing", "hanging"]
        .iter()
        .enumerate()
    {
        println!("{name:>10}: {:+.4} per stone (logit)", w[i] / spread[i]);
    }
}

/// Nodes and time of fixed-depth alpha-beta with and without the ordering hint.
#[test]
#[ignore]
fn ordering() {
    let stop = AtomicBool::new(false);
    let mut seed = 99;
    let cases = [
        (5, 6, 0),
        (5, 6, 6),
        (5, 6, 10),
        (6, 6, 4),
        (8, 8, 0),
        (8, 8, 10),
        (5, 6, 14),
    ];
    let positions: Vec<Clobber> = cases
        .iter()
        .filter_map(|&(r, c, p)| opening(r, c, p, &mut seed))
        .collect();
    for ordered in [false, true] {
        let clock = std::time::Instant::now();
        let mut nodes = 0;
        for pos in &positions {
            let depth = if pos.settings.squares() > 40 { 5 } else { 6 };
            let mut searcher = AlphaBeta::<Clobber>::new(H::Strong, ordered, 4);
            let limits = Limits::depth(depth);
            nodes += searcher
                .search(&mut pos.clone(), &limits, &Control::new(&stop), &mut |_| {})
                .nodes;
        }
        println!("ordering {ordered}: {nodes} nodes in {:?}", clock.elapsed());
    }
}

/// Perft speed on the three competition boards (for the bitboard width measurements,
/// run under `valgrind --tool=cachegrind` for instruction counts).
#[test]
#[ignore]
fn perft_speed() {
    for (rows, cols, depth) in [(5, 6, 4), (8, 8, 3), (10, 10, 3)] {
        let mut pos = Clobber::start(&ClobberSettings::new(rows, cols).expect("fits"));
        let clock = std::time::Instant::now();
        let nodes = perft(&mut pos, depth);
        println!(
            "{rows}x{cols} perft {depth}: {nodes} in {:?}",
            clock.elapsed()
        );
    }
}
