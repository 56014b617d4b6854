//! Fitting a heuristic's weights to game outcomes by Texel's method: least squares
//! between each position's result and a logistic curve of its evaluation (Peter Österlund
//! 2014, chessprogramming.org "Texel's Tuning Method"). Shared by the games' `tune`
//! modules, which say what the features are and keep the data in `tests/data`.
//!
//! A data file is text: `#` comment lines saying how the games were played, then one
//! position per line, `POSITION|RESULT`, the result for the first player (1, 0.5, 0).

use std::path::PathBuf;

use crate::game::{Game, Side};

/// One position: the first player's feature values minus the second player's, then the
/// tempo (+1 when the first player is to move, -1 otherwise) and a constant 1 (the first
/// player's advantage, fitted so that it does not leak into the other weights, but not
/// used by the engine: it adds the same to every leaf of a search), and the first player's
/// result.
pub struct Sample {
    /// Feature differences, in the order of the weights.
    pub x: Vec<f64>,
    /// 1, 0.5 or 0.
    pub result: f64,
}

impl Sample {
    /// A sample from both sides' integer features (the first player's, the second's), with
    /// the tempo and the constant appended.
    pub fn from_sides(first: &[i32], second: &[i32], first_to_move: bool, result: f64) -> Self {
        let mut x: Vec<f64> = first
            .iter()
            .zip(second)
            .map(|(a, b)| f64::from(a - b))
            .collect();
        x.push(if first_to_move { 1.0 } else { -1.0 });
        x.push(1.0);
        Sample { x, result }
    }
}

/// A sample of `pos` from a game's per-side features (`features(pos, side, to_move)`).
pub fn sample_of<G: Game, const N: usize>(
    pos: &G,
    result: f64,
    features: impl Fn(&G, Side, bool) -> [i32; N],
) -> Sample {
    let first = first_to_move(pos);
    Sample::from_sides(
        &features(pos, Side::First, first),
        &features(pos, Side::Second, !first),
        first,
        result,
    )
}

/// The first player's evaluation of a sample under `weights`.
pub fn eval(s: &Sample, weights: &[f64]) -> f64 {
    s.x.iter().zip(weights).map(|(x, w)| x * w).sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error between results and `sigmoid(eval / scale)`.
pub fn loss(data: &[Sample], weights: &[f64], scale: f64) -> f64 {
    data.iter()
        .map(|s| (s.result - sigmoid(eval(s, weights) / scale)).powi(2))
        .sum::<f64>()
        / data.len() as f64
}

/// The scale in `step, 2 step, ..., 60 step` that fits `weights` best, as Texel's method
/// prescribes before fitting the weights themselves.
pub fn best_scale(data: &[Sample], weights: &[f64], step: f64) -> f64 {
    (1..=60)
        .map(|i| f64::from(i) * step)
        .map(|scale| (scale, loss(data, weights, scale)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("scales")
        .0
}

/// Gradient descent (Adam, learning rate `lr` in weight units) on the weights not in
/// `fixed`, from `start`, at a fixed scale.
pub fn fit(
    data: &[Sample],
    start: &[f64],
    fixed: &[usize],
    scale: f64,
    lr: f64,
    steps: usize,
) -> Vec<f64> {
    let n = start.len();
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2) = (0.9, 0.999);
    for t in 1..=steps {
        let mut grad = vec![0.0; n];
        for s in data {
            let p = sigmoid(eval(s, &w) / scale);
            let g = -2.0 * (s.result - p) * p * (1.0 - p) / scale;
            for (gi, x) in grad.iter_mut().zip(&s.x) {
                *gi += g * x;
            }
        }
        for i in (0..n).filter(|i| !fixed.contains(i)) {
            let g = grad[i] / data.len() as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-9);
        }
    }
    w
}

/// The path of a data file under `tests/data`.
pub fn data_path(file: &str) -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file)
}

/// Reads a data file: each position through `sample` with its result.
pub fn load<G: Game>(
    file: &str,
    settings: &G::Settings,
    sample: impl Fn(&G, f64) -> Sample,
) -> Vec<Sample> {
    let path = data_path(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let (position, result) = line.rsplit_once('|').expect("POSITION|RESULT");
            let pos =
                G::parse_position(settings, position).unwrap_or_else(|e| panic!("{position}: {e}"));
            sample(&pos, result.trim().parse().expect("a result"))
        })
        .collect()
}

/// Builds a data file from arena journals of games of `settings`: every third position
/// from ply 6 on that is not over, with the game's result for the first player; `header`
/// (comment lines, each starting with `#`) says how the games were played. Returns the
/// number of positions written.
pub fn rebuild<G: Game>(
    journals: &[PathBuf],
    settings: &G::Settings,
    header: &str,
    file: &str,
) -> usize {
    let mut text = String::new();
    for journal in journals {
        text += &std::fs::read_to_string(journal)
            .unwrap_or_else(|e| panic!("{}: {e}", journal.display()));
    }
    let mut out = String::from(header);
    let mut count = 0;
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a journal line");
        let result = match record["result"].as_str() {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => continue,
        };
        let mut pos = match record["opening"]["position"].as_str() {
            Some(start) => G::parse_position(settings, start).expect("the start position"),
            None => G::start(settings),
        };
        let moves = record["moves"].as_array().expect("moves");
        for (ply, m) in moves.iter().enumerate() {
            let mv = pos
                .parse_move(m["mv"].as_str().expect("mv"))
                .expect("a legal move");
            pos.make_move(mv);
            if pos.outcome().is_some() {
                break;
            }
            if ply >= 5 && ply % 3 == 2 {
                out.push_str(&format!("{}|{result}\n", pos.format_position()));
                count += 1;
            }
        }
    }
    std::fs::write(data_path(file), out).expect("write the data");
    count
}

/// The journals named by the environment variable `var` (a path list, `:`-separated).
pub fn journals_from_env(var: &str) -> Vec<PathBuf> {
    let list = std::env::var_os(var).unwrap_or_else(|| panic!("{var}=<journal.jsonl>[:...]"));
    std::env::split_paths(&list).collect()
}

/// Names of the features `Sample::from_sides` appends.
pub const EXTRA_NAMES: [&str; 2] = ["tempo", "first player (fit only)"];

/// A game's weights as a fit starts from them: `weights`, the `tempo` and the first
/// player's advantage, 0.
pub fn start_weights(weights: &[i32], tempo: i32) -> Vec<f64> {
    weights
        .iter()
        .chain([&tempo, &0])
        .map(|&x| f64::from(x))
        .collect()
}

/// Whether the first player is to move in `pos`.
pub fn first_to_move<G: Game>(pos: &G) -> bool {
    pos.side_to_move() == Side::First
}

/// Asserts that `tuned` (the weights a game uses) fits `data` better than `hand` (the ones
/// it used before the fit), at the scale that fits `hand` best (scanned in steps of `step`).
pub fn assert_fits_better(data: &[Sample], hand: &[f64], tuned: &[f64], step: f64) {
    assert!(data.len() > 5000, "{} positions", data.len());
    let scale = best_scale(data, hand, step);
    let before = loss(data, hand, scale);
    let after = loss(data, tuned, scale);
    assert!(
        after < before,
        "the weights in eval.rs (loss {after:.5}) should fit better than the hand weights ({before:.5})"
    );
}

/// Fits from `start` (3000 steps of [`fit`], `fixed` kept) at the scale that fits `start`
/// best, and prints both fits with the weights.
pub fn refit(data: &[Sample], names: &[&str], start: &[f64], fixed: &[usize], step: f64, lr: f64) {
    let scale = best_scale(data, start, step);
    let fitted = fit(data, start, fixed, scale, lr, 3000);
    report(data, names, start, &fitted, scale);
}

/// Prints the fit of `start` and of the refitted weights, rounded, with their names.
pub fn report(data: &[Sample], names: &[&str], start: &[f64], fitted: &[f64], scale: f64) {
    let names: Vec<&str> = names.iter().chain(&EXTRA_NAMES).copied().collect();
    println!("{} positions, scale {scale}", data.len());
    println!("start:  loss {:.5}", loss(data, start, scale));
    println!("fitted: loss {:.5}", loss(data, fitted, scale));
    for ((name, a), b) in names.iter().zip(start).zip(fitted) {
        println!("  {name:<24} {a:>8.1} -> {b:>8.1}");
    }
}
