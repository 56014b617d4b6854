//! Fitting the weights of the `roads` heuristic to game outcomes (Texel's method: least
//! squares between the result and a logistic curve of the evaluation, Peter Österlund
//! 2014, chessprogramming.org "Texel's Tuning Method").
//!
//! Data: `tests/data/tak-selfplay.txt`, positions of self-play games with their results
//! (its header says how the games were played). The ignored tests below rebuild the data
//! from an arena journal and refit the weights; the ordinary test checks that the weights
//! in `eval.rs` fit the kept data better than the hand-set ones they replaced.

use super::eval::{side_features, FEATURES, ROADS_WEIGHTS};
use super::{Tak, TakSettings};
use crate::game::{Game, Side};

/// The weights before fitting (set by hand, checked in matches).
const HAND_WEIGHTS: [i32; FEATURES] = [
    60, 25, 50, 10, 12, 8, 8, 20, 10_000, 3_000, 900, 400, 160, 70, 30, 12, 5, 2,
];
/// Features whose weight stays as set: a finished road, a road threat with the move (a
/// win next ply): the search proves those, the fit should not trade them off.
const FIXED: [usize; 2] = [8, 9];
/// Tempo of the side to move, as in `evaluate`.
const TEMPO: f64 = 20.0;

const DATA: &str = "tests/data/tak-selfplay.txt";

/// One position: White's features minus Black's, whether White is to move, and White's
/// result (1, ½, 0).
struct Sample {
    diff: [f64; FEATURES],
    white_to_move: bool,
    result: f64,
}

fn sample(pos: &Tak, result: f64) -> Sample {
    let white_to_move = pos.side_to_move() == Side::First;
    let w = side_features(pos, Side::First, white_to_move);
    let b = side_features(pos, Side::Second, !white_to_move);
    let mut diff = [0.0; FEATURES];
    for ((d, w), b) in diff.iter_mut().zip(w).zip(b) {
        *d = f64::from(w - b);
    }
    Sample {
        diff,
        white_to_move,
        result,
    }
}

fn load() -> Vec<Sample> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DATA);
    let text = std::fs::read_to_string(&path).expect("tak self-play data");
    let settings = TakSettings {
        size: 5,
        half_komi: 0,
        line: false,
    };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let (tps, result) = line.rsplit_once('|').expect("TPS|result");
            let pos = Tak::parse_position(&settings, tps).expect("a TPS");
            sample(&pos, result.trim().parse().expect("a result"))
        })
        .collect()
}

/// White's evaluation of a sample under `weights`.
fn white_eval(s: &Sample, weights: &[f64; FEATURES]) -> f64 {
    let v: f64 = s.diff.iter().zip(weights).map(|(x, w)| x * w).sum();
    v + if s.white_to_move { TEMPO } else { -TEMPO }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error between results and `sigmoid(eval / scale)`.
fn loss(data: &[Sample], weights: &[f64; FEATURES], scale: f64) -> f64 {
    data.iter()
        .map(|s| (s.result - sigmoid(white_eval(s, weights) / scale)).powi(2))
        .sum::<f64>()
        / data.len() as f64
}

fn as_f64(w: &[i32; FEATURES]) -> [f64; FEATURES] {
    w.map(f64::from)
}

/// The scale that fits `weights` best (a scan), as Texel's method prescribes before
/// fitting the weights themselves.
fn best_scale(data: &[Sample], weights: &[f64; FEATURES]) -> f64 {
    (1..=60)
        .map(|i| f64::from(i) * 25.0)
        .min_by(|a, b| {
            loss(data, weights, *a)
                .partial_cmp(&loss(data, weights, *b))
                .expect("finite")
        })
        .expect("scales")
}

/// Gradient descent (Adam) on the free weights from `start`, at a fixed scale.
fn fit(data: &[Sample], start: &[f64; FEATURES], scale: f64, steps: usize) -> [f64; FEATURES] {
    let mut w = *start;
    let (mut m, mut v) = ([0.0; FEATURES], [0.0; FEATURES]);
    let (lr, b1, b2) = (2.0, 0.9, 0.999);
    for t in 1..=steps {
        let mut grad = [0.0; FEATURES];
        for s in data {
            let p = sigmoid(white_eval(s, &w) / scale);
            let g = -2.0 * (s.result - p) * p * (1.0 - p) / scale;
            for (gi, x) in grad.iter_mut().zip(s.diff) {
                *gi += g * x;
            }
        }
        for i in 0..FEATURES {
            if FIXED.contains(&i) {
                continue;
            }
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

#[test]
fn tuned_weights_fit_the_kept_games_better_than_the_hand_weights() {
    let data = load();
    assert!(data.len() > 5000, "{} positions", data.len());
    let hand = as_f64(&HAND_WEIGHTS);
    let scale = best_scale(&data, &hand);
    let before = loss(&data, &hand, scale);
    let after = loss(&data, &as_f64(&ROADS_WEIGHTS), scale);
    assert!(
        after < before,
        "the weights in eval.rs (loss {after:.5}) should fit better than the hand weights ({before:.5})"
    );
}

/// Rebuilds the data from a journal of Tak 5x5 games: `AGON_TAK_JOURNAL=path cargo test
/// --release --lib tak::tune::rebuild_data -- --ignored`. Every third position from ply 6
/// on, with the game's result for White.
#[test]
#[ignore]
fn rebuild_data() {
    let journal = std::env::var("AGON_TAK_JOURNAL").expect("AGON_TAK_JOURNAL=<journal.jsonl>");
    let text = std::fs::read_to_string(&journal).expect("journal");
    let settings = TakSettings {
        size: 5,
        half_komi: 0,
        line: false,
    };
    let mut out = String::from(
        "# Positions of Tak 5x5 self-play games with White's result (1, 0.5, 0): TPS|result.\n\
         # Games: arena match --game \"tak size=5\" --games 600 --openings random:4 --seed 21\n\
         #   --max-plies 300 with agon against itself at st=0.02 (MoveOverhead 20 ms, so\n\
         #   about 1 ms a move), commit a68b3bd; every third position from ply 6 on.\n\
         # Rebuilt by src/games/tak/tune.rs (rebuild_data).\n",
    );
    let mut count = 0;
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a journal line");
        let result = match record["result"].as_str() {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => continue,
        };
        let mut pos = Tak::start(&settings);
        for (ply, m) in record["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .enumerate()
        {
            let mv = pos
                .parse_move(m["mv"].as_str().expect("mv"))
                .expect("legal");
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
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DATA);
    std::fs::write(&path, out).expect("write the data");
    println!("{count} positions -> {}", path.display());
}

/// Refits the weights on the kept data and prints them with the losses:
/// `cargo test --release --lib tak::tune::refit -- --ignored --nocapture`.
#[test]
#[ignore]
fn refit() {
    let data = load();
    let hand = as_f64(&HAND_WEIGHTS);
    let scale = best_scale(&data, &hand);
    println!("{} positions, scale {scale}", data.len());
    println!("hand weights: loss {:.5}", loss(&data, &hand, scale));
    let fitted = fit(&data, &hand, scale, 3000);
    println!("fitted: loss {:.5}", loss(&data, &fitted, scale));
    let rounded: Vec<i32> = fitted.iter().map(|w| w.round() as i32).collect();
    println!(
        "weights: {rounded:?}\nnames: {:?}",
        super::eval::FEATURE_NAMES
    );
}
