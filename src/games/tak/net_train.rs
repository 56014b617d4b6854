//! Training Tak's network evaluation (`net.rs`) on the kept self-play games.
//!
//! The samples and targets are the linear fit's (`train.rs`: every position past the
//! random opening that is not over and not forced, its target the mean of the game's
//! result and the searched score as a probability), turned to the mover's view. The
//! network learns the residual: the prediction is `sigmoid((linear + net) / SCALE)` with
//! the linear evaluation fixed at the shipped weights, and the loss is the cross-entropy
//! against the target. One game in [`HOLD_OUT`] of every file is held out: the report
//! gives the held-out loss of the linear evaluation alone and with the network, and the
//! weights kept are those of the epoch with the lowest held-out loss. Minibatch Adam, the
//! dense inputs normalised by the training samples' means and spreads, each sample's
//! board seen under a random one of the board's eight symmetries each epoch (the features
//! are symmetric already), a fixed seed: the same weights every run on the same data.
//!
//! `cargo test --release --lib tak::net_train::train_net -- --ignored --nocapture`
//! rewrites `src/games/tak/net_weights.rs` (`scripts/train-tak.sh net` runs it).
//! Environment: `AGON_NET_EPOCHS` (default 12), `AGON_NET_LR` (default 0.002).

use super::net::{self, Net, BOARD, HIDDEN, INPUTS};
use super::MAX_SQ;
use super::train::{env_number, for_each_sample, kept_files, sigmoid, SCALE};
use super::weights;

/// One game in this many of each file is held out of the fit.
const HOLD_OUT: usize = 20;
/// Samples per step.
const BATCH: usize = 1024;
/// Pull of every weight towards zero, per step.
const L2: f32 = 1e-6;

/// One sample: the network's inputs, the linear evaluation and the target, both the
/// mover's view (the linear value in logit units).
struct NetSample {
    z: [f32; INPUTS],
    board: Vec<u16>,
    linear: f32,
    target: f32,
}

/// The parameters in one vector: `w1` (row by row), `b1`, `wb` (column by column), `w2`,
/// `b2`.
const W1: usize = 0;
const B1: usize = W1 + HIDDEN * INPUTS;
const WB: usize = B1 + HIDDEN;
const W2: usize = WB + BOARD * HIDDEN;
const B2: usize = W2 + HIDDEN;
const PARAMS: usize = B2 + 1;

/// The square maps of the eight symmetries of the `n`x`n` board (the first is the
/// identity).
fn symmetries(n: usize) -> [[u16; MAX_SQ]; 8] {
    let mut out = [[0u16; MAX_SQ]; 8];
    let last = n - 1;
    for (r, c) in (0..n).flat_map(|r| (0..n).map(move |c| (r, c))) {
        let sq = r * n + c;
        let images = [
            (r, c),
            (c, r),
            (last - r, c),
            (r, last - c),
            (last - r, last - c),
            (c, last - r),
            (last - c, r),
            (last - c, last - r),
        ];
        for (k, (r2, c2)) in images.into_iter().enumerate() {
            out[k][sq] = (r2 * n + c2) as u16;
        }
    }
    out
}

/// A board input seen under the square map `sym`.
fn mapped(k: u16, sym: &[u16; MAX_SQ]) -> usize {
    let (plane, sq) = (usize::from(k) / MAX_SQ, usize::from(k) % MAX_SQ);
    plane * MAX_SQ + usize::from(sym[sq])
}

/// The network's output (logit units) on normalised inputs, the board under `sym`, and
/// the hidden activations.
fn forward(p: &[f32], s: &NetSample, sym: &[u16; MAX_SQ], h: &mut [f32; HIDDEN]) -> f32 {
    h.copy_from_slice(&p[B1..B1 + HIDDEN]);
    for &k in &s.board {
        let col = WB + mapped(k, sym) * HIDDEN;
        for (a, b) in h.iter_mut().zip(&p[col..col + HIDDEN]) {
            *a += b;
        }
    }
    let mut out = p[B2];
    for j in 0..HIDDEN {
        let row = &p[W1 + j * INPUTS..W1 + (j + 1) * INPUTS];
        let pre = h[j] + row.iter().zip(&s.z).map(|(a, b)| a * b).sum::<f32>();
        h[j] = pre.max(0.0);
        out += p[W2 + j] * h[j];
    }
    out
}

/// Mean cross-entropy of `data` (normalised) under `p`, or of the linear evaluation
/// alone when `p` is `None`.
fn loss(data: &[NetSample], p: Option<&[f32]>) -> f64 {
    let mut h = [0f32; HIDDEN];
    let identity: [u16; MAX_SQ] = std::array::from_fn(|i| i as u16);
    let eps = 1e-6;
    data.iter()
        .map(|s| {
            let r = p.map_or(0.0, |p| forward(p, s, &identity, &mut h));
            let q = f64::from(sigmoid(s.linear + r)).clamp(eps, 1.0 - eps);
            let t = f64::from(s.target);
            -(t * q.ln() + (1.0 - t) * (1.0 - q).ln())
        })
        .sum::<f64>()
        / data.len().max(1) as f64
}

/// The gradient of the summed cross-entropy over `batch`, added to `g`, each sample's
/// board under the symmetry `syms[which(i)]`.
fn gradient(p: &[f32], batch: &[(usize, &NetSample)], syms: &[[u16; MAX_SQ]; 8], g: &mut [f32]) {
    let mut h = [0f32; HIDDEN];
    for &(which, s) in batch {
        let sym = &syms[which];
        let r = forward(p, s, sym, &mut h);
        let d = sigmoid(s.linear + r) - s.target;
        g[B2] += d;
        let mut back = [0f32; HIDDEN];
        for j in 0..HIDDEN {
            if h[j] <= 0.0 {
                continue;
            }
            g[W2 + j] += d * h[j];
            back[j] = d * p[W2 + j];
            g[B1 + j] += back[j];
            let row = &mut g[W1 + j * INPUTS..W1 + (j + 1) * INPUTS];
            for (gi, &x) in row.iter_mut().zip(&s.z) {
                *gi += back[j] * x;
            }
        }
        for &k in &s.board {
            let col = WB + mapped(k, sym) * HIDDEN;
            for (gi, b) in g[col..col + HIDDEN].iter_mut().zip(&back) {
                *gi += b;
            }
        }
    }
}

/// Fits a network to `train` (normalised), keeping the epoch best on `held`.
fn fit(
    train: &mut [NetSample],
    held: &[NetSample],
    n: usize,
    epochs: usize,
    lr: f32,
) -> Vec<f32> {
    let syms = symmetries(n);
    let mut rng = 0x7a4b_u64;
    let mut next = || {
        let (state, r) = crate::zobrist::splitmix64(rng);
        rng = state;
        r
    };
    // He initialisation of the first layer, small output weights.
    let mut p = vec![0f32; PARAMS];
    let spread = (2.0 / INPUTS as f32).sqrt();
    let board_spread = (2.0 / INPUTS as f32).sqrt() * 0.5;
    for x in &mut p[WB..W2] {
        let u: f32 = (0..4).map(|_| (next() >> 40) as f32 / (1u64 << 24) as f32).sum();
        *x = (u - 2.0) * board_spread * 1.73;
    }
    for x in &mut p[W1..B1] {
        // A sum of uniforms, near normal, of spread `spread`.
        let u: f32 = (0..4).map(|_| (next() >> 40) as f32 / (1u64 << 24) as f32).sum();
        *x = (u - 2.0) * spread * 1.73;
    }
    for x in &mut p[W2..B2] {
        *x = ((next() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.02;
    }
    let (mut m, mut v) = (vec![0f32; PARAMS], vec![0f32; PARAMS]);
    let (b1, b2) = (0.9f32, 0.999f32);
    let mut t = 0;
    let mut best = (loss(held, Some(&p)), p.clone());
    for epoch in 0..epochs {
        for i in (1..train.len()).rev() {
            train.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        // The last epochs at a lower rate.
        let rate = if epoch * 3 >= epochs * 2 { lr / 4.0 } else { lr };
        for chunk in train.chunks(BATCH) {
            let batch: Vec<(usize, &NetSample)> =
                chunk.iter().map(|s| ((next() % 8) as usize, s)).collect();
            let half = batch.len() / 2;
            let (mut ga, mut gb) = (vec![0f32; PARAMS], vec![0f32; PARAMS]);
            std::thread::scope(|scope| {
                let (pa, ga, syms, first) = (&p, &mut ga, &syms, &batch[..half]);
                scope.spawn(move || gradient(pa, first, syms, ga));
                gradient(&p, &batch[half..], syms, &mut gb);
            });
            t += 1;
            let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
            for k in 0..PARAMS {
                let gk = (ga[k] + gb[k]) / batch.len() as f32 + L2 * p[k];
                m[k] = b1 * m[k] + (1.0 - b1) * gk;
                v[k] = b2 * v[k] + (1.0 - b2) * gk * gk;
                p[k] -= rate * (m[k] / c1) / ((v[k] / c2).sqrt() + 1e-8);
            }
        }
        let held_loss = loss(held, Some(&p));
        eprintln!(
            "epoch {epoch}: train {:.5}, held out {held_loss:.5}",
            loss(&train[..train.len().min(100_000)], Some(&p))
        );
        if held_loss < best.0 {
            best = (held_loss, p.clone());
        }
    }
    best.1
}

/// The shipped network of normalised parameters `p`: the normalisation folded into the
/// first layer, the output scaled to centi-units.
fn fold(p: &[f32], mean: &[f32; INPUTS], spread: &[f32; INPUTS]) -> Net {
    let mut out = Net {
        w1: [[0.0; HIDDEN]; INPUTS],
        b1: [0.0; HIDDEN],
        wb: [[0.0; HIDDEN]; BOARD],
        w2: [0.0; HIDDEN],
        b2: SCALE * p[B2],
    };
    for j in 0..HIDDEN {
        let mut bias = p[B1 + j];
        for i in 0..INPUTS {
            let w = p[W1 + j * INPUTS + i] / spread[i];
            out.w1[i][j] = w;
            bias -= w * mean[i];
        }
        out.b1[j] = bias;
        out.w2[j] = SCALE * p[W2 + j];
    }
    for (k, col) in out.wb.iter_mut().enumerate() {
        col.copy_from_slice(&p[WB + k * HIDDEN..WB + (k + 1) * HIDDEN]);
    }
    out
}

/// The Rust text of one network.
fn net_text(name: &str, doc: &str, net: &Net) -> String {
    // Weights of inputs that never vary (the unused square classes of the smaller
    // boards) decay to near zero: written as zero, never as subnormal numbers, which
    // are slow to multiply.
    let num = |x: f32| if x.abs() < 1e-9 { "0.0".to_string() } else { format!("{x:e}") };
    let mut out = String::new();
    for line in doc.lines() {
        out.push_str(&format!("/// {line}\n"));
    }
    out.push_str(&format!("pub const {name}: Net = Net {{\n    w1: [\n"));
    for row in &net.w1 {
        let cells: Vec<String> = row.iter().map(|&x| num(x)).collect();
        out.push_str(&format!("        [{}],\n", cells.join(", ")));
    }
    let list = |xs: &[f32]| xs.iter().map(|&x| num(x)).collect::<Vec<_>>().join(", ");
    out.push_str(&format!("    ],\n    b1: [{}],\n    wb: [\n", list(&net.b1)));
    for col in &net.wb {
        out.push_str(&format!("        [{}],\n", list(col)));
    }
    out.push_str(&format!(
        "    ],\n    w2: [{}],\n    b2: {},\n}};\n",
        list(&net.w2),
        num(net.b2)
    ));
    out
}

/// Trains the networks of 5x5 and 6x6 on the kept data and rewrites
/// `src/games/tak/net_weights.rs`.
#[test]
#[ignore]
fn train_net() {
    let epochs = env_number("AGON_NET_EPOCHS", 12);
    let lr = env_number("AGON_NET_LR", 0.002f32);
    let mut tables = String::new();
    for size in [5usize, 6] {
        let files = kept_files(size);
        let (mut train, mut held) = (Vec::new(), Vec::new());
        for (_, settings, text) in &files {
            let w = weights::for_settings(settings).expect("fitted weights for the size");
            for_each_sample(settings, text, |pos, target, game| {
                let i = net::inputs(pos, w);
                let white = pos.to_move == crate::game::Side::First;
                let sample = NetSample {
                    z: i.z,
                    board: i.board[..i.pieces].to_vec(),
                    linear: i.linear / SCALE,
                    target: if white { target } else { 1.0 - target },
                };
                if game % HOLD_OUT == 0 {
                    held.push(sample);
                } else {
                    train.push(sample);
                }
            });
        }
        let n = train.len() as f64;
        let mut mean = [0f32; INPUTS];
        let mut spread = [0f32; INPUTS];
        for i in 0..INPUTS {
            let mu = train.iter().map(|s| f64::from(s.z[i])).sum::<f64>() / n;
            let var = train
                .iter()
                .map(|s| (f64::from(s.z[i]) - mu).powi(2))
                .sum::<f64>()
                / n;
            mean[i] = mu as f32;
            spread[i] = if var > 1e-8 { var.sqrt() as f32 } else { 1.0 };
        }
        for s in train.iter_mut().chain(held.iter_mut()) {
            for i in 0..INPUTS {
                s.z[i] = (s.z[i] - mean[i]) / spread[i];
            }
        }
        let linear_loss = loss(&held, None);
        eprintln!(
            "{size}x{size}: {} samples, {} held out; held-out loss of the linear evaluation {linear_loss:.5}",
            train.len(),
            held.len()
        );
        let p = fit(&mut train, &held, size, epochs, lr);
        let net_loss = loss(&held, Some(&p));
        eprintln!("{size}x{size}: held-out loss with the network {net_loss:.5}");
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        tables += &net_text(
            &format!("NET_{size}"),
            &format!(
                "{size}x{size}: {} positions of {} ({epochs} epochs, rate {lr}); held-out\n\
                 cross-entropy {net_loss:.5} (the linear evaluation alone: {linear_loss:.5}).",
                train.len(),
                names.join(", ")
            ),
            &fold(&p, &mean, &spread),
        );
        tables += "\n";
    }
    let text = format!(
        "//! The networks of Tak's `net` evaluation, per board size (see `net.rs`). Written by\n\
         //! `net_train.rs` (`train_net`) from the self-play games in `tests/data/tak-train/`;\n\
         //! do not edit by hand.\n\n\
         use super::net::Net;\n\
         use super::TakSettings;\n\n\
         {tables}\
         /// The network for `settings`, where one was trained.\n\
         pub fn for_settings(settings: &TakSettings) -> Option<&'static Net> {{\n\
         \x20   match (settings.line, settings.size) {{\n\
         \x20       (false, 5) => Some(&NET_5),\n\
         \x20       (false, 6) => Some(&NET_6),\n\
         \x20       _ => None,\n\
         \x20   }}\n\
         }}\n"
    );
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/tak/net_weights.rs");
    std::fs::write(&path, text).expect("write net_weights.rs");
    println!("wrote {}", path.display());
}

/// The shipped network computes what the trained one does: random parameters, random
/// inputs with their means and spreads, the board under the identity; the folded
/// network on the raw inputs agrees with the training forward pass on the normalised
/// ones.
#[test]
fn the_folded_network_computes_the_trained_one() {
    let mut rng = 0x1234_u64;
    let mut uniform = || {
        let (state, r) = crate::zobrist::splitmix64(rng);
        rng = state;
        (r >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    let p: Vec<f32> = (0..PARAMS).map(|_| uniform()).collect();
    let mean: [f32; INPUTS] = std::array::from_fn(|_| 3.0 * uniform());
    let spread: [f32; INPUTS] = std::array::from_fn(|_| 0.5 + uniform().abs() * 4.0);
    let net = fold(&p, &mean, &spread);
    let identity: [u16; MAX_SQ] = std::array::from_fn(|i| i as u16);
    let mut h = [0f32; HIDDEN];
    for trial in 0..50 {
        let mut raw = [0f32; INPUTS];
        for (i, x) in raw.iter_mut().enumerate() {
            // Some inputs zero, as in play (the folded network skips them).
            if (i + trial) % 3 != 0 {
                *x = (4.0 * uniform()).round();
            }
        }
        let pieces: Vec<u16> = (0..(trial % 20) as u16)
            .map(|k| k * 17 % BOARD as u16)
            .collect();
        let sample = NetSample {
            z: std::array::from_fn(|i| (raw[i] - mean[i]) / spread[i]),
            board: pieces.clone(),
            linear: 0.0,
            target: 0.5,
        };
        let want = SCALE * forward(&p, &sample, &identity, &mut h);
        let mut board = [0u16; MAX_SQ];
        board[..pieces.len()].copy_from_slice(&pieces);
        let got = net.forward(&net::Inputs {
            z: raw,
            board,
            pieces: pieces.len(),
            linear: 0.0,
        });
        assert!(
            (got - want).abs() <= 1e-3 * want.abs().max(1.0),
            "trial {trial}: {got} against {want}"
        );
    }
}
