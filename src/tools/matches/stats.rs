//! Match statistics: Elo from a score, its 95% interval and the likelihood of superiority,
//! estimated from the pentanomial counts of game pairs (or from W/D/L when games are unpaired).

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Logistic Elo difference that an expected score `s` (0 < s < 1) stands for.
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score of a side that is `elo` logistic Elo stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Standard normal cumulative distribution.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7): std has none.
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

/// Wins, draws and losses from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game (win 1, draw ½), `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }
}

/// Game pairs (one opening, colours swapped) counted by the points the engine took from the
/// pair: index 0 = 0 points (LL), 1 = ½ (LD), 2 = 1 (DD or WL), 3 = 1½ (WD), 4 = 2 (WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Adds a pair given the points of each of its games (0, ½ or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round() as usize;
        self.0[half_points.min(4)] += 1;
    }
}

/// A sample of match outcomes reduced to what every statistic here needs: the mean score per
/// game, the variance of one sample (a game or a pair of games, as per-game averages) and how
/// many samples there are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub variance: f64,
    pub samples: f64,
}

impl Estimate {
    /// From (value, count) outcomes; `None` with no sample.
    fn from_outcomes(outcomes: &[(f64, f64)]) -> Option<Estimate> {
        let samples: f64 = outcomes.iter().map(|o| o.1).sum();
        if samples <= 0.0 {
            return None;
        }
        let mean = outcomes.iter().map(|(v, c)| v * c).sum::<f64>() / samples;
        let variance = outcomes
            .iter()
            .map(|(v, c)| c * (v - mean).powi(2))
            .sum::<f64>()
            / samples;
        Some(Estimate {
            mean,
            variance,
            samples,
        })
    }

    /// Trinomial model: every game an independent sample.
    pub fn from_wdl(wdl: &Wdl) -> Option<Estimate> {
        Estimate::from_outcomes(&[
            (1.0, f64::from(wdl.wins)),
            (0.5, f64::from(wdl.draws)),
            (0.0, f64::from(wdl.losses)),
        ])
    }

    /// Pentanomial model: every pair a sample, valued at its points per game.
    pub fn from_pentanomial(p: &Pentanomial) -> Option<Estimate> {
        let outcomes: Vec<(f64, f64)> =
            p.0.iter()
                .enumerate()
                .map(|(i, &c)| (i as f64 / 4.0, f64::from(c)))
                .collect();
        Estimate::from_outcomes(&outcomes)
    }

    /// Standard error of the mean score.
    pub fn std_error(&self) -> f64 {
        (self.variance / self.samples).sqrt()
    }

    pub fn elo(&self) -> f64 {
        elo_from_score(self.mean)
    }

    /// 95% confidence interval of the Elo difference (infinite at the edges, 0% or 100%).
    pub fn elo_interval(&self) -> (f64, f64) {
        let d = Z95 * self.std_error();
        (
            elo_from_score((self.mean - d).max(0.0)),
            elo_from_score((self.mean + d).min(1.0)),
        )
    }

    /// Likelihood of superiority: probability that the true score exceeds ½.
    pub fn los(&self) -> f64 {
        let se = self.std_error();
        if se == 0.0 {
            return if self.mean > 0.5 {
                1.0
            } else if self.mean < 0.5 {
                0.0
            } else {
                0.5
            };
        }
        normal_cdf((self.mean - 0.5) / se)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_from_score_matches_hand_values() {
        // 75%: -400 log10(1/3) = 400 * 0.477121 = 190.8485.
        assert!(close(elo_from_score(0.75), 190.8485, 1e-3));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.25), -190.8485, 1e-3));
        assert!(close(score_from_elo(elo_from_score(0.6)), 0.6, 1e-12));
    }

    #[test]
    fn normal_cdf_matches_table() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(1.959964), 0.975, 1e-6));
        assert!(close(normal_cdf(-1.0), 0.158_655, 1e-6));
    }

    #[test]
    fn trinomial_interval_matches_hand_computation() {
        // 60 W, 20 D, 20 L: score 0.7, variance .6*.3² + .2*.2² + .2*.7² = 0.16,
        // std error sqrt(0.16/100) = 0.04, interval 0.7 ± 0.0784 = [0.6216, 0.7784].
        let e = Estimate::from_wdl(&Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        })
        .unwrap();
        assert!(close(e.mean, 0.7, 1e-12));
        assert!(close(e.variance, 0.16, 1e-12));
        assert!(close(e.std_error(), 0.04, 1e-12));
        let (lo, hi) = e.elo_interval();
        assert!(close(lo, 86.2250, 1e-3), "{lo}");
        assert!(close(hi, 218.2518, 1e-3), "{hi}");
    }

    #[test]
    fn pentanomial_estimate_matches_hand_computation() {
        // Pairs LL 1, LD 2, DD/WL 10, WD 5, WW 2 (20 pairs): mean (0 + .5 + 5 + 3.75 + 2)/20
        // = 0.5625; variance (1*.5625² + 2*.3125² + 10*.0625² + 5*.1875² + 2*.4375²)/20
        // = 0.05546875; std error sqrt(variance/20) = 0.0526634.
        let p = Pentanomial([1, 2, 10, 5, 2]);
        let e = Estimate::from_pentanomial(&p).unwrap();
        assert!(close(e.mean, 0.5625, 1e-12));
        assert!(close(e.variance, 0.055_468_75, 1e-12));
        assert!(close(e.std_error(), 0.052_663_4, 1e-6));
        assert!(close(e.elo(), 43.6578, 1e-3));
        let (lo, hi) = e.elo_interval();
        assert!(close(lo, -28.3569, 1e-3), "{lo}");
        assert!(close(hi, 119.6713, 1e-3), "{hi}");
        // LOS = Phi(0.0625 / 0.0526634) = Phi(1.18679) = 0.88234.
        assert!(close(e.los(), 0.882_343, 1e-5), "{}", e.los());
    }

    #[test]
    fn pairs_are_binned_by_points() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 0.0);
        p.add_pair(0.5, 0.5);
        p.add_pair(1.0, 0.5);
        p.add_pair(0.0, 0.5);
        p.add_pair(1.0, 1.0);
        assert_eq!(p.0, [0, 1, 2, 1, 1]);
    }

    #[test]
    fn los_is_certain_without_variance() {
        let e = Estimate::from_wdl(&Wdl {
            wins: 3,
            draws: 0,
            losses: 0,
        })
        .unwrap();
        assert_eq!(e.los(), 1.0);
        assert!(Estimate::from_wdl(&Wdl::default()).is_none());
    }
}
