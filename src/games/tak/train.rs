//! Fitting the weights of Tak's evaluation (`features.rs`) to the engine's own games.
//!
//! Data: self-play files written by `agon selfplay` (`selfplay.rs`: every move's searched
//! score and the game's result), kept in `tests/data/tak-train/`. Every position from the
//! end of the random opening on that is not over and where the side to move has no road
//! one placement away (the search proves those without the evaluation) is a sample. Its
//! target is the mean of the game's result and the searched score mapped to a
//! probability, `1 / (1 + exp(-score / SCALE))`: the result alone is a noisy target, the
//! score alone would teach the evaluation only what the search already thinks.
//!
//! The fit is logistic regression (cross-entropy of `sigmoid(w . x / SCALE)` against
//! the target) by full-batch Adam with a little L2 pull towards zero, from zero weights;
//! the tempo-free "road threat to move" weight stays fixed. `scripts/train-tak.sh` plays
//! the games and runs the fit; the fit alone, on the kept data, of both sizes:
//! `cargo test --release --lib tak::train::train_all -- --ignored --nocapture`, which
//! rewrites `src/games/tak/weights.rs`.

use super::features::{self, FEATURES, THREAT_TO_MOVE};
use super::policy::{self, Context, MOVE_FEATURES};
use super::{Tak, TakSettings};
use crate::game::Game;
use crate::selfplay::read_games;

/// Centi-units per unit of logit, of the evaluation and of the searched scores.
pub const SCALE: f32 = 300.0;
/// The weight of a road threat with the move (a win next move), not fitted.
pub const THREAT_WEIGHT: f32 = 3000.0;
/// Plies drawn at random at the start of the self-play games (not samples).
const OPENING_PLIES: usize = 4;
/// The share of the game result in a target (the rest is the searched score).
const RESULT_SHARE: f32 = 0.5;

/// One position: its features (White's view) and the target (White's expected result).
pub struct Sample {
    x: [f32; FEATURES],
    target: f32,
}

pub fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// Calls `visit` with every sample position of a self-play file of `settings`, its
/// target (White's expected result) and the game's index in the file.
pub fn for_each_sample(settings: &TakSettings, text: &str, mut visit: impl FnMut(&Tak, f32, usize)) {
    let games = read_games(text).expect("a self-play file");
    for (index, game) in games.into_iter().enumerate() {
        let mut pos = Tak::start(settings);
        for (ply, (mv, score)) in game.moves.iter().zip(&game.scores).enumerate() {
            if ply >= OPENING_PLIES && pos.outcome().is_none() && pos.forced().is_none() {
                if let Some(score) = score {
                    let white = if pos.side_to_move() == crate::game::Side::First {
                        *score as f32
                    } else {
                        -(*score as f32)
                    };
                    let searched = sigmoid(white.clamp(-3000.0, 3000.0) / SCALE);
                    let target =
                        RESULT_SHARE * game.result as f32 + (1.0 - RESULT_SHARE) * searched;
                    visit(&pos, target, index);
                }
            }
            let mv = pos.parse_move(mv).expect("a legal move");
            pos.make_move(mv);
        }
    }
}

/// The samples of every game of a self-play file of `settings`.
pub fn samples(settings: &TakSettings, text: &str) -> Vec<Sample> {
    let mut out = Vec::new();
    for_each_sample(settings, text, |pos, target, _| {
        out.push(Sample {
            x: features::features(pos),
            target,
        })
    });
    out
}

/// Mean cross-entropy of the samples under `w`.
pub fn loss(data: &[Sample], w: &[f32; FEATURES]) -> f64 {
    let eps = 1e-6;
    data.iter()
        .map(|s| {
            let p = f64::from(sigmoid(dot(&s.x, w) / SCALE)).clamp(eps, 1.0 - eps);
            let t = f64::from(s.target);
            -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / data.len() as f64
}

fn dot(x: &[f32; FEATURES], w: &[f32; FEATURES]) -> f32 {
    x.iter().zip(w).map(|(a, b)| a * b).sum()
}

/// The gradient of the mean cross-entropy (in weight units), over two threads.
fn gradient(data: &[Sample], w: &[f32; FEATURES]) -> [f64; FEATURES] {
    let half = data.len() / 2;
    let part = |chunk: &[Sample]| {
        let mut g = [0f64; FEATURES];
        for s in chunk {
            let d = f64::from(sigmoid(dot(&s.x, w) / SCALE) - s.target);
            for (gi, &x) in g.iter_mut().zip(&s.x) {
                *gi += d * f64::from(x);
            }
        }
        g
    };
    let (a, b) = std::thread::scope(|scope| {
        let h = scope.spawn(|| part(&data[..half]));
        let b = part(&data[half..]);
        (h.join().expect("gradient thread"), b)
    });
    let mut g = [0f64; FEATURES];
    for i in 0..FEATURES {
        g[i] = (a[i] + b[i]) / data.len() as f64 / f64::from(SCALE);
    }
    g
}

/// Features kept at zero in the fit (experiments only): the environment's
/// `AGON_TAK_FREEZE`, comma-separated beginnings of feature names (`stack reach,supports
/// x reach`). To measure what a feature is worth, fit without it.
fn frozen() -> [bool; FEATURES] {
    let list = std::env::var("AGON_TAK_FREEZE").unwrap_or_default();
    let prefixes: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    std::array::from_fn(|i| {
        let name = features::feature_name(i);
        prefixes.iter().any(|p| name.starts_with(p))
    })
}

/// Fits the weights by Adam from zero (the threat weight fixed, and the features
/// `frozen` at zero), `steps` full batches.
pub fn fit(
    data: &[Sample],
    steps: usize,
    lr: f64,
    l2: f64,
    frozen: [bool; FEATURES],
) -> [f32; FEATURES] {
    let mut w = [0f32; FEATURES];
    w[THREAT_TO_MOVE] = THREAT_WEIGHT;
    let (mut m, mut v) = ([0f64; FEATURES], [0f64; FEATURES]);
    let (b1, b2) = (0.9, 0.999);
    for t in 1..=steps {
        let g = gradient(data, &w);
        for i in 0..FEATURES {
            if i == THREAT_TO_MOVE || frozen[i] {
                continue;
            }
            let gi = g[i] + l2 * f64::from(w[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= (lr * mh / (vh.sqrt() + 1e-12)) as f32;
        }
        if t % 200 == 0 {
            eprintln!("step {t}: loss {:.5}", loss(data, &w));
        }
    }
    w
}

/// The Rust text of one weight table.
pub fn weights_text(name: &str, doc: &str, w: &[f32; FEATURES]) -> String {
    let mut out = String::new();
    for line in doc.lines() {
        out.push_str(&format!("/// {line}\n"));
    }
    out.push_str(&format!("pub const {name}: [f32; FEATURES] = [\n"));
    for (i, x) in w.iter().enumerate() {
        out.push_str(&format!("    {x:.1}, // {}\n", features::feature_name(i)));
    }
    out.push_str("];\n");
    out
}

/// One position for the move scores: the position and the move its search chose.
pub struct Choice {
    pos: Tak,
    chosen: super::TakMove,
}

/// The searched positions of a self-play file, with the moves chosen.
pub fn choices(settings: &TakSettings, text: &str) -> Vec<Choice> {
    let games = read_games(text).expect("a self-play file");
    let mut out = Vec::new();
    for game in games {
        let mut pos = Tak::start(settings);
        for (ply, (mv, score)) in game.moves.iter().zip(&game.scores).enumerate() {
            let mv = pos.parse_move(mv).expect("a legal move");
            if ply >= OPENING_PLIES && score.is_some() && pos.forced().is_none() {
                out.push(Choice {
                    pos: pos.clone(),
                    chosen: mv,
                });
            }
            pos.make_move(mv);
        }
    }
    out
}

/// Mean negative log-likelihood of the chosen moves under the softmax of the scores, and
/// how often the chosen move scores highest.
pub fn policy_loss(data: &[Choice], w: &[f32; MOVE_FEATURES]) -> (f64, f64) {
    let mut moves = Vec::new();
    let (mut nll, mut top) = (0.0, 0usize);
    for c in data {
        moves.clear();
        c.pos.generate_moves(&mut moves);
        let cx = Context::new(&c.pos);
        let scores: Vec<f32> = moves
            .iter()
            .map(|&m| policy::move_score(&c.pos, &cx, m, w))
            .collect();
        let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum: f64 = scores.iter().map(|&s| f64::from(s - max).exp()).sum();
        let chosen = moves.iter().position(|&m| m == c.chosen).expect("legal");
        nll += sum.ln() - f64::from(scores[chosen] - max);
        if scores[chosen] >= max {
            top += 1;
        }
    }
    (nll / data.len() as f64, top as f64 / data.len() as f64)
}

/// Fits the move weights by minibatch Adam on the softmax likelihood of the chosen moves.
pub fn fit_policy(data: &[Choice], epochs: usize, lr: f64) -> [f32; MOVE_FEATURES] {
    let mut w = [0f32; MOVE_FEATURES];
    let (mut m, mut v) = ([0f64; MOVE_FEATURES], [0f64; MOVE_FEATURES]);
    let (b1, b2) = (0.9, 0.999);
    let batch = 256;
    let mut order: Vec<usize> = (0..data.len()).collect();
    let mut rng = 0x5eed_u64;
    let mut t = 0;
    let mut moves = Vec::new();
    let mut feats: Vec<Vec<(usize, f32)>> = Vec::new();
    for epoch in 0..epochs {
        // Fisher-Yates with the seed: the same fit every run.
        for i in (1..order.len()).rev() {
            let (next, r) = crate::zobrist::splitmix64(rng);
            rng = next;
            order.swap(i, (r % (i as u64 + 1)) as usize);
        }
        for chunk in order.chunks(batch) {
            let mut g = [0f64; MOVE_FEATURES];
            for &idx in chunk {
                let c = &data[idx];
                moves.clear();
                c.pos.generate_moves(&mut moves);
                let cx = Context::new(&c.pos);
                feats.resize_with(moves.len(), Vec::new);
                let mut scores = Vec::with_capacity(moves.len());
                for (j, &mv) in moves.iter().enumerate() {
                    feats[j].clear();
                    policy::move_features(&c.pos, &cx, mv, |i, x| feats[j].push((i, x)));
                    scores.push(feats[j].iter().map(|&(i, x)| w[i] * x).sum::<f32>());
                }
                let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let exps: Vec<f64> = scores.iter().map(|&s| f64::from(s - max).exp()).collect();
                let sum: f64 = exps.iter().sum();
                for (j, &mv) in moves.iter().enumerate() {
                    let p = exps[j] / sum - if mv == c.chosen { 1.0 } else { 0.0 };
                    for &(i, x) in &feats[j] {
                        g[i] += p * f64::from(x);
                    }
                }
            }
            t += 1;
            for i in 0..MOVE_FEATURES {
                let gi = g[i] / chunk.len() as f64;
                m[i] = b1 * m[i] + (1.0 - b1) * gi;
                v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
                let mh = m[i] / (1.0 - b1.powi(t));
                let vh = v[i] / (1.0 - b2.powi(t));
                w[i] -= (lr * mh / (vh.sqrt() + 1e-12)) as f32;
            }
        }
        let (nll, top) = policy_loss(&data[..data.len().min(5000)], &w);
        eprintln!("epoch {epoch}: loss {nll:.4}, top-1 {top:.3}");
    }
    w
}

/// The Rust text of one table of move weights.
pub fn policy_weights_text(name: &str, doc: &str, w: &[f32; MOVE_FEATURES]) -> String {
    let mut out = String::new();
    for line in doc.lines() {
        out.push_str(&format!("/// {line}\n"));
    }
    out.push_str(&format!("pub const {name}: [f32; MOVE_FEATURES] = [\n"));
    for x in w {
        out.push_str(&format!("    {x:.4},\n"));
    }
    out.push_str("];\n");
    out
}

pub fn env_number<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The kept self-play files for `size`: every `tests/data/tak-train/*.txt` whose game is
/// Tak of that size, in name order, with their settings.
pub fn kept_files(size: usize) -> Vec<(String, TakSettings, String)> {
    let dir = crate::texel::data_path("tak-train");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/data/tak-train")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    names
        .into_iter()
        .filter_map(|name| {
            let text = std::fs::read_to_string(dir.join(&name)).expect("a data file");
            let spec_text = text
                .lines()
                .find(|l| l.starts_with("# Made by:"))
                .and_then(|l| l.split('"').nth(1))
                .expect("a '# Made by:' line with the quoted game spec")
                .to_string();
            let settings = crate::games::GameSpec::parse(&spec_text)
                .expect("a game spec")
                .settings::<Tak>();
            (settings.size == size).then_some((name, settings, text))
        })
        .collect()
}

/// Fits the evaluation and the move scores of 5x5 and 6x6 on the kept data and rewrites
/// `src/games/tak/weights.rs` (`scripts/train-tak.sh` runs it):
/// `cargo test --release --lib tak::train::train_all -- --ignored --nocapture`.
#[test]
#[ignore]
fn train_all() {
    let steps = env_number("AGON_TAK_STEPS", 1500);
    let epochs = env_number("AGON_TAK_EPOCHS", 6);
    let mut tables = String::new();
    for size in [5usize, 6] {
        let files = kept_files(size);
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        let mut data = Vec::new();
        let mut choice_data = Vec::new();
        for (_, settings, text) in &files {
            data.extend(samples(settings, text));
            choice_data.extend(choices(settings, text));
        }
        eprintln!(
            "{size}x{size}: {} samples, {} choices",
            data.len(),
            choice_data.len()
        );
        // The tapered copies are fitted on 6x6 only: 5x5's weights stay those measured
        // against Tiltak before the copies existed (the fit is deterministic, so a frozen
        // feature leaves the rest exactly as they were).
        let mut frozen = frozen();
        if size == 5 {
            frozen[features::TAPERED..].fill(true);
        }
        let w = fit(&data, steps, 2.0, 1e-7, frozen);
        let value_loss = loss(&data, &w);
        let m = fit_policy(&choice_data, epochs, 0.01);
        let (nll, top) = policy_loss(&choice_data, &m);
        tables += &weights_text(
            &format!("WEIGHTS_{size}"),
            &format!(
                "{size}x{size}: {} positions of {} ({steps} steps), cross-entropy {value_loss:.5}.",
                data.len(),
                names.join(", ")
            ),
            &w,
        );
        tables += "\n";
        tables += &policy_weights_text(
            &format!("MOVE_WEIGHTS_{size}"),
            &format!(
                "{size}x{size}: the moves chosen in {} positions of the same files ({epochs} \
                 epochs), mean log-loss {nll:.4}, top-1 {top:.3}.",
                choice_data.len()
            ),
            &m,
        );
        tables += "\n";
    }
    let text = format!(
        "//! The weights of Tak's fitted evaluation and move scores, per board size (see\n\
         //! `features.rs` and `policy.rs` for what they multiply). Written by `train.rs`\n\
         //! (`train_all`, run by `scripts/train-tak.sh`) from the self-play games in\n\
         //! `tests/data/tak-train/`; do not edit by hand.\n\n\
         use super::features::FEATURES;\n\
         use super::policy::MOVE_FEATURES;\n\
         use super::TakSettings;\n\n\
         {tables}\
         /// The evaluation weights for `settings`, where they were fitted.\n\
         pub fn for_settings(settings: &TakSettings) -> Option<&'static [f32; FEATURES]> {{\n\
         \x20   match (settings.line, settings.size) {{\n\
         \x20       (false, 5) => Some(&WEIGHTS_5),\n\
         \x20       (false, 6) => Some(&WEIGHTS_6),\n\
         \x20       _ => None,\n\
         \x20   }}\n\
         }}\n\n\
         /// The move weights for `settings`, where they were fitted.\n\
         pub fn move_weights_for(settings: &TakSettings) -> Option<&'static [f32; MOVE_FEATURES]> {{\n\
         \x20   match (settings.line, settings.size) {{\n\
         \x20       (false, 5) => Some(&MOVE_WEIGHTS_5),\n\
         \x20       (false, 6) => Some(&MOVE_WEIGHTS_6),\n\
         \x20       _ => None,\n\
         \x20   }}\n\
         }}\n"
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/tak/weights.rs");
    std::fs::write(&path, text).expect("write weights.rs");
    println!("wrote {}", path.display());
}
