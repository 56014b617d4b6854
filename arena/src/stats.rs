//! Match statistics with fastchess's formulas: Elo difference with its 95% error,
//! normalized Elo, likelihood of superiority and draw ratio, from game counts
//! (trinomial) and from colour-swapped pairs (pentanomial).
//!
//! Sources: `Disservin/fastchess:app/src/matchmaking/elo/elo_wdl.cpp` (trinomial) and
//! `…/elo/elo_pentanomial.cpp` (pentanomial), as summarised with worked examples in
//! `shared/research/arenas.md` section 4. Every number is from the first engine's view.

/// `z` of the two-sided 95% interval (fastchess uses this exact constant).
pub const Z95: f64 = 1.959_963_984_540_054;

/// `800 / ln 10`: the slope that turns a normalized score into Elo units.
pub const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// The Elo difference that gives expected score `score` (0 < score < 1).
/// Returns ±infinity at 1 and 0.
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The standard normal cumulative distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function, to about 1e-12 (series for small |x|, continued fraction beyond).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // Maclaurin series: erf x = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)).
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
            if n > 200.0 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // Continued fraction for erfc (Lentz), converges fast for x >= 2.5.
        1.0 - erfc_cf(x)
    }
}

fn erfc_cf(x: f64) -> f64 {
    // erfc x = exp(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + 2/(x + ...)))))
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..200 {
        let a = k as f64 / 2.0;
        d = x + a * d;
        d = if d == 0.0 { 1e-300 } else { 1.0 / d };
        c = x + a / c;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score of the first engine (0..1).
    pub score: f64,
    /// Elo difference (first engine minus second); infinite at a 0% or 100% score.
    pub elo: f64,
    /// Half-width of the 95% interval, `(Elo(s+) - Elo(s-)) / 2` (fastchess's printed error).
    pub error: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// 95% error of the normalized Elo.
    pub nelo_error: f64,
    /// Likelihood of superiority of the first engine, 0..1.
    pub los: f64,
}

fn estimate(score: f64, variance: f64, samples: f64, nelo_denominator: f64) -> EloEstimate {
    let se = (variance / samples).sqrt();
    let lower_score = score - Z95 * se;
    let upper_score = score + Z95 * se;
    let lower = elo_of_score(lower_score.clamp(0.0, 1.0));
    let upper = elo_of_score(upper_score.clamp(0.0, 1.0));
    let los = if se > 0.0 {
        normal_cdf((score - 0.5) / se)
    } else if score > 0.5 {
        1.0
    } else if score < 0.5 {
        0.0
    } else {
        0.5
    };
    let (nelo, nelo_error) = if nelo_denominator > 0.0 {
        (
            (score - 0.5) / nelo_denominator * NELO_SCALE,
            Z95 * se / nelo_denominator * NELO_SCALE,
        )
    } else if score == 0.5 {
        (0.0, 0.0)
    } else {
        // No spread at all (every game the same non-even result): unbounded.
        (f64::INFINITY.copysign(score - 0.5), f64::NAN)
    };
    EloEstimate {
        score,
        elo: elo_of_score(score),
        error: (upper - lower) / 2.0,
        lower,
        upper,
        nelo,
        nelo_error,
        los,
    }
}

/// Game counts from the first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won by the first engine.
    pub wins: u64,
    /// Games lost by the first engine.
    pub losses: u64,
    /// Drawn games.
    pub draws: u64,
}

impl Trinomial {
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Share of drawn games, 0..1 (0 with no games).
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }

    /// Points of the first engine (a draw is half a point).
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The Elo estimate, or `None` with no games
    /// (`Disservin/fastchess:app/src/matchmaking/elo/elo_wdl.cpp`).
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        let s = w + d / 2.0;
        let variance = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        Some(estimate(s, variance, n, variance.sqrt()))
    }
}

/// Colour-swapped pair outcomes from the first engine's view, by pair score:
/// `[LL, LD, WL+DD, WD, WW]` (scores 0, ¼, ½, ¾, 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pair counts by pair score 0, ¼, ½, ¾, 1.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds one pair given the first engine's points in its two games (0, ½ or 1 each).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let quarters = ((first + second) * 2.0).round() as usize;
        self.counts[quarters.min(4)] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The Elo estimate, or `None` with no pairs
    /// (`Disservin/fastchess:app/src/matchmaking/elo/elo_pentanomial.cpp`).
    pub fn elo(&self) -> Option<EloEstimate> {
        let p = self.pairs() as f64;
        if p == 0.0 {
            return None;
        }
        let probs: Vec<f64> = self.counts.iter().map(|&c| c as f64 / p).collect();
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let s: f64 = probs.iter().zip(values).map(|(pi, a)| pi * a).sum();
        let variance: f64 = probs
            .iter()
            .zip(values)
            .map(|(pi, a)| pi * (a - s).powi(2))
            .sum();
        Some(estimate(s, variance, p, (2.0 * variance).sqrt()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    fn tri(wins: u64, losses: u64, draws: u64) -> EloEstimate {
        Trinomial {
            wins,
            losses,
            draws,
        }
        .elo()
        .unwrap()
    }

    // Vectors from shared/research/arenas.md section 4 ("Worked examples"), which were
    // re-derived there independently of fastchess and match its tests to ±0.01.
    #[test]
    fn trinomial_100_80_20() {
        let e = tri(100, 80, 20);
        close(e.score, 0.55, 1e-12);
        close(e.elo, 34.86, 0.005);
        close(e.error, 46.16, 0.005);
        close(e.lower, -10.69, 0.005);
        close(e.upper, 81.64, 0.005);
        close(e.nelo, 36.83, 0.005);
        close(e.nelo_error, 48.15, 0.005);
        close(e.los * 100.0, 93.31, 0.005);
    }

    #[test]
    fn trinomial_60_40_100() {
        let e = tri(60, 40, 100);
        close(e.elo, 34.86, 0.005);
        close(e.error, 34.16, 0.005);
        close(e.lower, 1.04, 0.005);
        close(e.upper, 69.36, 0.005);
        close(e.nelo, 49.63, 0.005);
        close(e.nelo_error, 48.15, 0.005);
        close(e.los * 100.0, 97.83, 0.005);
    }

    #[test]
    fn trinomial_fastchess_136_96_111() {
        let e = tri(136, 96, 111);
        close(e.elo, 40.70, 0.005);
        close(e.error, 30.43, 0.005);
        close(e.nelo, 49.77, 0.005);
        close(e.nelo_error, 36.77, 0.005);
        close(e.los * 100.0, 99.60, 0.005);
    }

    #[test]
    fn pentanomial_5_20_40_25_10() {
        let e = Pentanomial {
            counts: [5, 20, 40, 25, 10],
        }
        .elo()
        .unwrap();
        close(e.score, 0.5375, 1e-12);
        close(e.elo, 26.11, 0.005);
        close(e.error, 34.83, 0.005);
        close(e.lower, -8.46, 0.005);
        close(e.upper, 61.20, 0.005);
        close(e.nelo, 36.35, 0.005);
        close(e.nelo_error, 48.15, 0.005);
        close(e.los * 100.0, 93.05, 0.005);
    }

    // Derived by hand: the swapped counts mirror the estimate.
    #[test]
    fn symmetry_and_even_score() {
        let a = tri(100, 80, 20);
        let b = tri(80, 100, 20);
        close(a.elo, -b.elo, 1e-9);
        close(a.error, b.error, 1e-9);
        close(a.los + b.los, 1.0, 1e-12);
        let even = tri(10, 10, 5);
        close(even.elo, 0.0, 1e-9);
        close(even.los, 0.5, 1e-12);
    }

    #[test]
    fn degenerate_counts() {
        assert!(Trinomial::default().elo().is_none());
        let all_draws = tri(0, 0, 10);
        close(all_draws.elo, 0.0, 1e-12);
        close(all_draws.error, 0.0, 1e-12);
        close(all_draws.los, 0.5, 1e-12);
        let all_wins = tri(4, 0, 0);
        assert!(all_wins.elo.is_infinite() && all_wins.elo > 0.0);
        assert!(all_wins.nelo.is_infinite() && all_wins.nelo > 0.0);
        close(all_wins.los, 1.0, 1e-12);
        // nElo error is z * C / sqrt(N) for trinomial: 680.96 / sqrt(200) = 48.15.
        close(Z95 * NELO_SCALE, 680.96, 0.005);
    }

    #[test]
    fn pair_bucketing() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 0.0); // WL
        p.add_pair(0.5, 0.5); // DD
        p.add_pair(1.0, 0.5); // WD
        p.add_pair(0.0, 0.0); // LL
        p.add_pair(0.0, 0.5); // LD
        p.add_pair(1.0, 1.0); // WW
        assert_eq!(p.counts, [1, 1, 2, 1, 1]);
    }

    #[test]
    fn erf_known_values() {
        // Abramowitz & Stegun table 7.1.
        close(erf(0.5), 0.520_499_877_8, 1e-10);
        close(erf(1.0), 0.842_700_792_9, 1e-10);
        close(erf(2.0), 0.995_322_265_0, 1e-10);
        close(erf(3.0), 0.999_977_909_5, 1e-10);
        close(normal_cdf(Z95), 0.975, 1e-12);
    }
}
