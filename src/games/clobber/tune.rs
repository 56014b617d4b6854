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

/// Solver-labelled positions: from games of depth-2 `strong` alpha-beta with 25% random
/// moves on boards the region solver handles, every position from ply 4 to 18 that the
/// solver proves within `AGON_FIT_NODES` (default 300,000) solver nodes, with its exact
/// result for the side to move. Returns `(terms, side to move wins)`.
fn solved_positions(games: usize, seed: &mut u64) -> Vec<(Clobber, bool)> {
    use super::solve::Solver;
    let limit: u64 = std::env::var("AGON_FIT_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300_000);
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for game in 0..games {
        let (rows, cols) = [(5, 6), (6, 5), (5, 6), (4, 7), (6, 6)][game % 5];
        let plies = 1 + below(seed, 4);
        let Some(start) = opening(rows, cols, plies, seed) else {
            continue;
        };
        let (seen, _) = play(start, H::Strong, H::Strong, 2, 25, seed);
        let mut solver = Solver::new();
        solver.set_memory_limit(crate::memory::mib(1024));
        // Late positions first: their proofs fill the tables the earlier ones reuse.
        for pos in seen.iter().skip(4).take(15).rev() {
            solver.set_limits(None, Some(limit));
            if let Ok(wins) = solver.side_to_move_wins(pos, &stop) {
                out.push((pos.clone(), wins));
            }
        }
    }
    out
}

/// Refits the weights of `strong` to exact results: logistic regression (Texel's
/// method, [`crate::texel`]) of the side to move's proved result on its terms and the
/// tempo, from [`solved_positions`]. Prints the fit of the weights in eval.rs and of the
/// refitted ones, scaled so that the defended stone stays at 100, then a fit with each
/// side's terms apart and the mobile stones.
///
/// The weights in eval.rs: `AGON_FIT_GAMES=1500 AGON_FIT_NODES=1000000` (20,326 positions
/// of games played with the earlier weights, 3 min), loss 0.2335 -> 0.1986 from the earlier
/// weights (150, 100, 50, -20, 40) to safe 47, defended 100, continuing 165, hanging -328,
/// tempo 267; run again with these playing the games (20,081 positions) the fit stays
/// close (37, 100, 183, -358, 230). A 100-game match against OpenSpiel MCTS-5000 on 5x6
/// at 0.1 s a move could not tell them apart (seed 777: 94-0-6 each); over more games
/// 301 of 320 against 218 of 240 (issue 21, stop 30's note). They were kept on a sharper
/// measure: how often the move at 100 ms keeps a proved win at 25 to 27 stones
/// (`scripts/clobber-positions.py keep --moves 3,4,5`): 318 of 422 positions against 274.
/// A fit to 5x6 positions of 20 to 26 stones alone (11,990 positions) gave safe -22,
/// defended 100, continuing 281, hanging -593, tempo 457, and kept as many wins (229 of
/// 334 after 3 and 4 moves, these 229). Each side apart lowers the loss only to 0.187
/// (600 games; 0.1887 against 0.1974 with 1,500), and its weights kept fewer wins (308).
#[test]
#[ignore]
fn solved_fit() {
    use crate::texel::{best_scale, fit, loss, Sample};
    let games: usize = std::env::var("AGON_FIT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let clock = std::time::Instant::now();
    let mut seed = 4242;
    let positions = solved_positions(games, &mut seed);
    let wins = positions.iter().filter(|(_, w)| *w).count();
    println!(
        "{} proved positions from {games} games ({wins} won by the side to move) in {:.0?}",
        positions.len(),
        clock.elapsed()
    );
    let data: Vec<Sample> = positions
        .iter()
        .map(|(p, w)| Sample {
            x: strong_terms(p)
                .iter()
                .map(|&v| f64::from(v))
                .chain([1.0])
                .collect(),
            result: f64::from(u8::from(*w)),
        })
        .collect();
    let start: Vec<f64> = super::eval::STRONG.iter().map(|&w| f64::from(w)).collect();
    let scale = best_scale(&data, &start, 20.0);
    let fitted = fit(&data, &start, &[1], scale, 2.0, 3000);
    println!(
        "scale {scale}: loss of eval.rs {:.5}, refitted {:.5}",
        loss(&data, &start, scale),
        loss(&data, &fitted, scale)
    );
    for (name, (a, b)) in ["safe", "defended", "continuing", "hanging", "tempo"]
        .iter()
        .zip(start.iter().zip(&fitted))
    {
        println!("  {name:<12} {a:>7.1} -> {b:>7.1}");
    }

    // Each side's terms apart, and mobile stones: how much a richer linear form gains.
    let split: Vec<Sample> = positions
        .iter()
        .map(|(p, w)| Sample {
            x: super::eval::side_terms(p)
                .iter()
                .map(|&v| f64::from(v))
                .chain([1.0])
                .collect(),
            result: f64::from(u8::from(*w)),
        })
        .collect();
    let s0: Vec<f64> = [
        &fitted[..4],
        &fitted[..4].iter().map(|w| -w).collect::<Vec<_>>()[..],
        &[0.0, 0.0],
        &fitted[4..],
    ]
    .concat();
    let s1 = fit(&split, &s0, &[], scale, 2.0, 3000);
    println!("each side apart: loss {:.5}", loss(&split, &s1, scale));
    let names = ["safe", "defended", "continuing", "hanging"];
    for (i, w) in s1.iter().enumerate() {
        let name = match i {
            0..=3 => format!("own {}", names[i]),
            4..=7 => format!("their {}", names[i - 4]),
            8 => "own mobile".into(),
            9 => "their mobile".into(),
            _ => "tempo".into(),
        };
        println!("  {name:<18} {w:>7.1}");
    }
}
