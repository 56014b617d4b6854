//! The sequential probability ratio test as fastchess runs it: a generalized SPRT
//! (GSPRT) whose log-likelihood ratio compares the maximum-likelihood result
//! distributions under H0 (`elo = elo0`) and H1 (`elo = elo1`).
//!
//! Sources (formulas only, summarised with worked examples in
//! `shared/research/arenas.md` section 4): `Disservin/fastchess:app/src/matchmaking/sprt/sprt.cpp`,
//! and M. Van den Bergh, "Normalized Elo: practical" section 4.1 for the constrained
//! maximum-likelihood distribution.
//!
//! - Bounds: `ln(β/(1-α))` and `ln((1-β)/α)`.
//! - Counts of 0 become 0.001 before anything else.
//! - `LLR = n Σ p̂ᵢ (ln p1ᵢ - ln p0ᵢ)`, `n` games (trinomial: scores 0, ½, 1) or pairs
//!   (pentanomial: 0, ¼, ½, ¾, 1), `p̂` the observed frequencies.
//! - Normalized Elo model (fastchess's default): H_k says `(μ-½)/σ = t_k` with
//!   `t_k = elo_k / C` for games and `√2 elo_k / C` for pairs, `C = 800 / ln 10`.
//! - Logistic model: H_k says the mean score is `1 / (1 + 10^(-elo_k/400))`.

use crate::stats::{Pentanomial, Trinomial, NELO_SCALE};

/// How elo0 and elo1 are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Normalized Elo (fastchess's default).
    Normalized,
    /// Logistic (ordinary) Elo.
    Logistic,
}

/// The test's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// The Elo model.
    pub model: Model,
}

/// What the test says after some games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// LLR at or above the upper bound: the first engine is at least elo1 stronger.
    AcceptH1,
    /// LLR at or below the lower bound: it is not (elo <= elo0).
    AcceptH0,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic]`
    /// (words may also come as one string).
    ///
    /// # Errors
    /// A message naming the bad or missing word.
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: Model::Normalized,
        };
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{word}' is not KEY=VALUE"))?;
            let number = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("--sprt: {key}='{value}' is not a number"))
            };
            match key {
                "elo0" => sprt.elo0 = number()?,
                "elo1" => sprt.elo1 = number()?,
                "alpha" => sprt.alpha = number()?,
                "beta" => sprt.beta = number()?,
                "model" => {
                    sprt.model = match value {
                        "normalized" => Model::Normalized,
                        "logistic" => Model::Logistic,
                        _ => {
                            return Err(format!(
                                "--sprt: model '{value}': use normalized or logistic"
                            ))
                        }
                    }
                }
                _ => {
                    return Err(format!(
                        "--sprt: unknown key '{key}' (elo0, elo1, alpha, beta, model)"
                    ))
                }
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("--sprt needs elo0=... and elo1=...".into());
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err("--sprt: elo0 must be below elo1".into());
        }
        for (name, v) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("--sprt: {name}={v} must be between 0 and 0.5"));
            }
        }
        Ok(sprt)
    }

    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision for an LLR, if it crossed a bound.
    pub fn decide(&self, llr: f64) -> Option<Decision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Decision::AcceptH1)
        } else if llr <= lower {
            Some(Decision::AcceptH0)
        } else {
            None
        }
    }

    /// The LLR of game counts (trinomial).
    pub fn llr_trinomial(&self, t: &Trinomial) -> f64 {
        let counts = [t.losses as f64, t.draws as f64, t.wins as f64];
        self.llr(&counts, &[0.0, 0.5, 1.0], 1.0)
    }

    /// The LLR of pair counts (pentanomial).
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        let counts = p.counts.map(|c| c as f64);
        self.llr(
            &counts,
            &[0.0, 0.25, 0.5, 0.75, 1.0],
            std::f64::consts::SQRT_2,
        )
    }

    fn llr(&self, counts: &[f64], scores: &[f64], nelo_factor: f64) -> f64 {
        if counts.iter().all(|&c| c == 0.0) {
            return 0.0;
        }
        let counts: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0.0 { 1e-3 } else { c })
            .collect();
        let n: f64 = counts.iter().sum();
        let observed: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let fit = |elo: f64| match self.model {
            Model::Normalized => normalized_mle(&observed, scores, nelo_factor * elo / NELO_SCALE),
            Model::Logistic => {
                let s = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
                let phi: Vec<f64> = scores.iter().map(|a| a - s).collect();
                project(&observed, &phi)
            }
        };
        let (p0, p1) = (fit(self.elo0), fit(self.elo1));
        n * observed
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(o, (a, b))| o * (b.ln() - a.ln()))
            .sum::<f64>()
    }
}

/// The distribution closest to `observed` (maximum likelihood) with `Σ pᵢ φᵢ = 0`:
/// `pᵢ = p̂ᵢ / (1 + θ φᵢ)` where `θ` solves `Σ p̂ᵢ φᵢ / (1 + θ φᵢ) = 0` (a decreasing
/// function of `θ` on `(-1/max φ, -1/min φ)`, found by bisection).
fn project(observed: &[f64], phi: &[f64]) -> Vec<f64> {
    let max = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = phi.iter().copied().fold(f64::INFINITY, f64::min);
    if max <= 0.0 || min >= 0.0 {
        // The constraint cannot hold with these outcomes; keep the observation.
        return observed.to_vec();
    }
    let f = |theta: f64| -> f64 {
        observed
            .iter()
            .zip(phi)
            .map(|(o, p)| o * p / (1.0 + theta * p))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    observed
        .iter()
        .zip(phi)
        .map(|(o, p)| o / (1.0 + theta * p))
        .collect()
}

/// The maximum-likelihood distribution with normalized score `(μ - ½)/σ = t`
/// (Van den Bergh's fixed-point iteration, at most 10 rounds, as fastchess).
fn normalized_mle(observed: &[f64], scores: &[f64], t: f64) -> Vec<f64> {
    let mut p = vec![1.0 / scores.len() as f64; scores.len()];
    for _ in 0..10 {
        let mu: f64 = p.iter().zip(scores).map(|(p, a)| p * a).sum();
        let var: f64 = p
            .iter()
            .zip(scores)
            .map(|(p, a)| p * (a - mu).powi(2))
            .sum();
        let sigma = var.sqrt();
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
            .collect();
        let next = project(observed, &phi);
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-4 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64, model: Model) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    fn tri(wins: u64, losses: u64, draws: u64) -> Trinomial {
        Trinomial {
            wins,
            losses,
            draws,
        }
    }

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    #[test]
    fn bounds() {
        // shared/research/arenas.md section 4.
        let (l, u) = sprt(0.0, 5.0, Model::Normalized).bounds();
        close(l, -2.944, 0.0005);
        close(u, 2.944, 0.0005);
        let s = Sprt {
            beta: 0.10,
            ..sprt(0.0, 5.0, Model::Normalized)
        };
        let (l, u) = s.bounds();
        close(l, -2.251, 0.0005);
        close(u, 2.890, 0.0005);
    }

    #[test]
    fn fastchess_test_vectors() {
        // Every non-Bayesian case of fastchess's own unit tests
        // (Disservin/fastchess:tests/sprt_test.cpp, alpha = beta = 0.05, expected values
        // given there to 2 decimals). Its constructors are Stats(wins, losses, draws) and
        // Stats(LL, LD, WL, DD, WD, WW); WL and DD share the pair score 1/2, so one bucket.
        let check = |llr: f64, expected: f64| close(llr, expected, 0.006);
        let t = |elo0, elo1, model, w, l, d| sprt(elo0, elo1, model).llr_trinomial(&tri(w, l, d));
        let p = |elo0, elo1, model, c: [u64; 6]| {
            sprt(elo0, elo1, model).llr_pentanomial(&Pentanomial {
                counts: [c[0], c[1], c[2] + c[3], c[4], c[5]],
            })
        };
        use Model::{Logistic as L, Normalized as N};
        check(t(0.0, 2.0, N, 36433, 36027, 68692), 0.92);
        check(t(-1.75, 0.25, N, 10871, 10650, 20431), 2.30);
        check(t(0.5, 2.5, L, 21404, 21184, 40708), -1.57);
        check(t(0.0, 2.0, L, 57433, 57030, 106593), -2.59);
        check(p(0.0, 2.0, N, [365, 16618, 36029, 200, 16974, 390]), 2.25);
        check(p(-1.75, 0.25, N, [127, 4883, 10311, 401, 5150, 104]), 3.01);
        check(p(0.5, 2.5, L, [223, 9863, 20279, 1000, 10037, 246]), -3.07);
        check(p(0.0, 2.0, L, [871, 26175, 55003, 980, 26678, 821]), -4.98);
    }

    #[test]
    fn worked_examples() {
        // The worked examples table of arenas.md §4 (re-derived there to 3 decimals).
        let n10 = sprt(0.0, 10.0, Model::Normalized);
        let l10 = sprt(0.0, 10.0, Model::Logistic);
        close(n10.llr_trinomial(&tri(100, 80, 20)), 0.524, 0.0015);
        close(
            sprt(0.0, 5.0, Model::Normalized).llr_trinomial(&tri(100, 80, 20)),
            0.283,
            0.0015,
        );
        close(l10.llr_trinomial(&tri(100, 80, 20)), 0.548, 0.0015);
        close(n10.llr_trinomial(&tri(60, 40, 100)), 0.732, 0.0015);
        close(l10.llr_trinomial(&tri(60, 40, 100)), 0.988, 0.0015);
        let p = Pentanomial {
            counts: [5, 20, 40, 25, 10],
        };
        close(n10.llr_pentanomial(&p), 0.516, 0.0015);
        close(l10.llr_pentanomial(&p), 0.672, 0.0015);
    }

    #[test]
    fn decisions_and_parsing() {
        let s = Sprt::parse(&["elo0=0 elo1=5".to_string(), "alpha=0.05".to_string()]).unwrap();
        assert_eq!(s, sprt(0.0, 5.0, Model::Normalized));
        assert_eq!(s.decide(3.0), Some(Decision::AcceptH1));
        assert_eq!(s.decide(-3.0), Some(Decision::AcceptH0));
        assert_eq!(s.decide(0.0), None);
        assert!(Sprt::parse(&["elo0=5 elo1=0".into()]).is_err());
        assert!(Sprt::parse(&["elo0=0".into()]).is_err());
        assert!(Sprt::parse(&["elo0=0 elo1=5 gamma=1".into()]).is_err());
        assert!(Sprt::parse(&["elo0=0 elo1=x".into()]).is_err());
        // No games: no evidence either way.
        assert_eq!(s.llr_trinomial(&Trinomial::default()), 0.0);
    }
}
