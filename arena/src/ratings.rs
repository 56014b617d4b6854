//! Ratings of many engines fitted jointly: the Bradley-Terry model by maximum
//! likelihood, with error bars from the observed information and the likelihood of
//! superiority between any two engines.
//!
//! Model: engine `i` has rating `r_i` (Elo units); it scores against `j` with expected
//! score `p_ij = 1 / (1 + 10^((r_j - r_i) / 400))`. A draw counts as half a point on each
//! side (the "draws as half points" form: the log-likelihood of `s` points in `n` games is
//! `s ln p + (n - s) ln(1 - p)`), so two engines alone get exactly the Elo of their score,
//! as in every Elo formula. Ratings are centred on a mean of 0.
//!
//! Fitting: Newton's method on the concave log-likelihood (Hunter, "MM algorithms for
//! generalized Bradley-Terry models", Ann. Statist. 32, 2004, for existence: a finite
//! maximum exists iff the "scored points against" graph is strongly connected). When it
//! is not (someone won or lost every game), every played pairing gets one virtual drawn
//! game (BayesElo's prior; Coulom, bayeselo `CBradleyTerry`), and the result says so.
//!
//! Errors: the covariance of the centred ratings is the Moore-Penrose pseudo-inverse of
//! the observed information matrix `I` (a weighted graph Laplacian, null space = the
//! constant vector): `(I + 11ᵀ/n)^-1 - 11ᵀ/n`. The 95% error bar of an engine is
//! `1.96 sqrt(Var r_i)`; LOS of `i` over `j` is `Φ((r_i - r_j) / sqrt(Var(r_i - r_j)))`.

use serde::Serialize;

use crate::stats::{normal_cdf, Z95};

/// `ln 10 / 400`: natural-log units per Elo point.
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// Points scored in a pairing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairScore {
    /// Games played between the two.
    pub games: f64,
    /// Points of the row engine against the column engine.
    pub points: f64,
}

/// The fitted ratings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratings {
    /// Rating of each engine (mean 0), Elo.
    pub elo: Vec<f64>,
    /// Half-width of its 95% interval, Elo (relative to the mean of the field).
    pub error: Vec<f64>,
    /// `los[i][j]`: likelihood that `i` is stronger than `j`, 0..1.
    pub los: Vec<Vec<f64>>,
    /// Whether the virtual-draw prior was needed (no finite maximum otherwise).
    pub prior: bool,
}

/// Fits ratings to a square table: `table[i][j]` is what `i` scored against `j`
/// (games and points; `table[j][i].points` must be `games - table[i][j].points`).
/// Engines that played nobody get rating 0 and an infinite error.
pub fn fit(table: &[Vec<PairScore>]) -> Ratings {
    let n = table.len();
    if let Some(r) = newton(table, 0.0) {
        return finish(table, r, false, 0.0);
    }
    let r = newton(table, 1.0).unwrap_or_else(|| vec![0.0; n]);
    finish(table, r, true, 1.0)
}

/// Games and points with `virtual_draws` extra drawn games in every played pairing.
fn cell(table: &[Vec<PairScore>], i: usize, j: usize, virtual_draws: f64) -> (f64, f64) {
    let c = table[i][j];
    if c.games > 0.0 {
        (c.games + virtual_draws, c.points + virtual_draws / 2.0)
    } else {
        (0.0, 0.0)
    }
}

fn expected(ri: f64, rj: f64) -> f64 {
    1.0 / (1.0 + (-(ri - rj) * K).exp())
}

/// The information matrix (in natural units) at ratings `r`.
fn information(table: &[Vec<PairScore>], r: &[f64], virtual_draws: f64) -> Vec<Vec<f64>> {
    let n = table.len();
    let mut info = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let (games, _) = cell(table, i, j, virtual_draws);
            let p = expected(r[i], r[j]);
            let w = games * p * (1.0 - p);
            info[i][i] += w;
            info[i][j] -= w;
        }
    }
    info
}

/// Newton's method with the ratings' mean held at 0; `None` if it diverges.
fn newton(table: &[Vec<PairScore>], virtual_draws: f64) -> Option<Vec<f64>> {
    let n = table.len();
    let mut r = vec![0.0; n];
    for _ in 0..200 {
        let mut grad = vec![0.0; n];
        for (i, g) in grad.iter_mut().enumerate() {
            for j in 0..n {
                if i != j {
                    let (games, points) = cell(table, i, j, virtual_draws);
                    *g += points - games * expected(r[i], r[j]);
                }
            }
        }
        let info = information(table, &r, virtual_draws);
        let step = solve(centred(&info), grad.clone())?;
        let mut biggest: f64 = 0.0;
        for i in 0..n {
            // The step is in natural units; ratings are in Elo.
            let d = step[i] / K;
            r[i] += d;
            biggest = biggest.max(d.abs());
        }
        let mean = r.iter().sum::<f64>() / n as f64;
        r.iter_mut().for_each(|x| *x -= mean);
        if r.iter().any(|x| !x.is_finite() || x.abs() > 5000.0) {
            return None;
        }
        if biggest < 1e-9 {
            return Some(r);
        }
    }
    None
}

/// `I + 11ᵀ/n`: invertible when the pairings connect everyone.
fn centred(info: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = info.len() as f64;
    info.iter()
        .map(|row| row.iter().map(|x| x + 1.0 / n).collect())
        .collect()
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` if singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col].clone();
        for row in col + 1..n {
            let f = a[row][col] / pivot_row[col];
            for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

fn finish(table: &[Vec<PairScore>], elo: Vec<f64>, prior: bool, virtual_draws: f64) -> Ratings {
    let n = table.len();
    let info = information(table, &elo, virtual_draws);
    let a = centred(&info);
    // Covariance in Elo²: ((I + 11ᵀ/n)^-1 - 11ᵀ/n) / K², column by column.
    let mut cov = vec![vec![f64::INFINITY; n]; n];
    let mut ok = true;
    for c in 0..n {
        let mut e = vec![0.0; n];
        e[c] = 1.0;
        match solve(a.clone(), e) {
            Some(col) => {
                for r in 0..n {
                    cov[r][c] = (col[r] - 1.0 / n as f64) / (K * K);
                }
            }
            None => ok = false,
        }
    }
    let played = |i: usize| (0..n).any(|j| table[i][j].games > 0.0);
    let error = (0..n)
        .map(|i| {
            if ok && played(i) {
                Z95 * cov[i][i].max(0.0).sqrt()
            } else {
                f64::INFINITY
            }
        })
        .collect();
    let los = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let var = cov[i][i] + cov[j][j] - 2.0 * cov[i][j];
                    if i == j || !ok || !var.is_finite() || var <= 0.0 {
                        0.5
                    } else {
                        normal_cdf((elo[i] - elo[j]) / var.sqrt())
                    }
                })
                .collect()
        })
        .collect();
    Ratings {
        elo,
        error,
        los,
        prior,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::elo_of_score;

    fn table(points: &[&[(f64, f64)]]) -> Vec<Vec<PairScore>> {
        points
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&(games, points)| PairScore { games, points })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn two_players_get_the_elo_of_their_score() {
        // Closed form: with two players the maximum is at p = s, so r1 - r2 = Elo(s),
        // and Var(r1 - r2) = 1 / (n s (1 - s) K²).
        let t = table(&[&[(0.0, 0.0), (20.0, 13.0)], &[(20.0, 7.0), (0.0, 0.0)]]);
        let r = fit(&t);
        let diff = r.elo[0] - r.elo[1];
        assert!((diff - elo_of_score(0.65)).abs() < 1e-6, "{diff}");
        assert!((r.elo[0] + r.elo[1]).abs() < 1e-9);
        let sd_diff = 1.0 / (20.0 * 0.65 * 0.35_f64).sqrt() / K;
        // Each centred rating is half the difference: its sd is half of sd_diff.
        assert!((r.error[0] - Z95 * sd_diff / 2.0).abs() < 1e-6);
        assert!((r.los[0][1] - normal_cdf(diff / sd_diff)).abs() < 1e-9);
        assert!(!r.prior);
    }

    #[test]
    fn a_clean_sweep_needs_the_prior() {
        let t = table(&[&[(0.0, 0.0), (4.0, 4.0)], &[(4.0, 0.0), (0.0, 0.0)]]);
        let r = fit(&t);
        assert!(r.prior);
        // One virtual draw: 4.5 / 5 points.
        assert!((r.elo[0] - r.elo[1] - elo_of_score(0.9)).abs() < 1e-6);
    }

    #[test]
    fn matches_the_independent_python_fit() {
        // arena/tests/data/bt_reference.json comes from scripts/bradley_terry_reference.py:
        // Zermelo's iteration and a finite-difference Hessian, no code shared with this module.
        let v: serde_json::Value =
            serde_json::from_str(include_str!("../tests/data/bt_reference.json")).unwrap();
        let num = |x: &serde_json::Value| x.as_f64().unwrap();
        let games = v["games"].as_array().unwrap();
        let points = v["points"].as_array().unwrap();
        let t: Vec<Vec<PairScore>> = (0..games.len())
            .map(|i| {
                (0..games.len())
                    .map(|j| PairScore {
                        games: num(&games[i][j]),
                        points: num(&points[i][j]),
                    })
                    .collect()
            })
            .collect();
        let r = fit(&t);
        for i in 0..4 {
            let elo = num(&v["elo"][i]);
            let err = num(&v["error95"][i]);
            assert!(
                (r.elo[i] - elo).abs() < 1e-6,
                "elo {i}: {} vs {elo}",
                r.elo[i]
            );
            assert!(
                (r.error[i] - err).abs() < 1e-3,
                "error {i}: {} vs {err}",
                r.error[i]
            );
        }
        assert!((r.los[0][1] - num(&v["los_0_over_1"])).abs() < 1e-5);
        assert!(!r.prior);
    }
}
