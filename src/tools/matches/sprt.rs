//! Sequential probability ratio test on logistic Elo bounds, as fastchess and fishtest do it:
//! the generalised SPRT over game pairs (pentanomial) or single games (trinomial). For each
//! hypothesis the outcome distribution closest to the observed one (maximum likelihood) with
//! the hypothesis' expected score is found; the LLR compares the two. Empty outcome classes
//! count as 0.001 of a sample (regularisation), so a clean sweep is no division by zero.

use std::fmt;
use std::str::FromStr;

use super::stats::{Pentanomial, Wdl, score_from_elo};

/// Weight given to outcome classes never seen.
const REGULARISATION: f64 = 1e-3;

/// The distribution of largest likelihood for observed frequencies `probs` (over outcome
/// values `scores`) among those with mean `s`: p_i = probs_i / (1 + θ (a_i − s)), where θ
/// solves Σ probs_i (a_i − s) / (1 + θ (a_i − s)) = 0. That sum falls as θ grows, on the
/// interval where every 1 + θ (a_i − s) is positive, so bisection finds θ.
fn closest_with_mean(scores: &[f64], probs: &[f64], s: f64) -> Vec<f64> {
    let dev: Vec<f64> = scores.iter().map(|a| a - s).collect();
    let max = dev.iter().copied().fold(f64::MIN, f64::max);
    let min = dev.iter().copied().fold(f64::MAX, f64::min);
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        let slope: f64 = probs
            .iter()
            .zip(&dev)
            .map(|(p, d)| p * d / (1.0 + mid * d))
            .sum();
        if slope > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    probs
        .iter()
        .zip(&dev)
        .map(|(p, d)| p / (1.0 + theta * d))
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound reached yet.
    Continue,
    /// LLR at or below the lower bound: the change is not worth elo1 (H0 accepted).
    H0,
    /// LLR at or above the upper bound: the change gains at least elo0 (H1 accepted).
    H1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::Continue => "undecided",
            SprtDecision::H0 => "H0 accepted (fail)",
            SprtDecision::H1 => "H1 accepted (pass)",
        })
    }
}

impl Sprt {
    /// (lower, upper) LLR bounds: ln(β/(1−α)) and ln((1−β)/α).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// LLR of H1 (elo1) against H0 (elo0) for (outcome value, count) samples; 0 before any.
    fn llr_of(&self, outcomes: &[(f64, f64)]) -> f64 {
        if outcomes.iter().all(|o| o.1 <= 0.0) {
            return 0.0;
        }
        let counts: Vec<f64> = outcomes.iter().map(|o| o.1.max(REGULARISATION)).collect();
        let total: f64 = counts.iter().sum();
        let probs: Vec<f64> = counts.iter().map(|c| c / total).collect();
        let scores: Vec<f64> = outcomes.iter().map(|o| o.0).collect();
        let p0 = closest_with_mean(&scores, &probs, score_from_elo(self.elo0));
        let p1 = closest_with_mean(&scores, &probs, score_from_elo(self.elo1));
        total
            * probs
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(p, (a, b))| p * (b.ln() - a.ln()))
                .sum::<f64>()
    }

    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        let outcomes: Vec<(f64, f64)> =
            p.0.iter()
                .enumerate()
                .map(|(i, &c)| (i as f64 / 4.0, f64::from(c)))
                .collect();
        self.llr_of(&outcomes)
    }

    pub fn llr_wdl(&self, w: &Wdl) -> f64 {
        self.llr_of(&[
            (1.0, f64::from(w.wins)),
            (0.5, f64::from(w.draws)),
            (0.0, f64::from(w.losses)),
        ])
    }

    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

impl FromStr for Sprt {
    type Err = String;

    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05`; alpha and beta default to 0.05.
    fn from_str(s: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in s.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}' is not key=value"))?;
            let v: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("'{value}' is not a number"))?;
            match key.trim() {
                "elo0" => sprt.elo0 = v,
                "elo1" => sprt.elo1 = v,
                "alpha" => sprt.alpha = v,
                "beta" => sprt.beta = v,
                other => return Err(format!("unknown SPRT parameter '{other}'")),
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("SPRT needs elo0 and elo1".into());
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err("SPRT needs elo0 < elo1".into());
        }
        if !(0.0 < sprt.alpha && sprt.alpha < 0.5 && 0.0 < sprt.beta && sprt.beta < 0.5) {
            return Err("SPRT alpha and beta must lie in (0, 0.5)".into());
        }
        Ok(sprt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    fn standard() -> Sprt {
        "elo0=0,elo1=5,alpha=0.05,beta=0.05".parse().unwrap()
    }

    #[test]
    fn bounds_are_log_ratios() {
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439.
        let (lo, hi) = standard().bounds();
        assert!(close(lo, -2.944_439, 1e-6));
        assert!(close(hi, 2.944_439, 1e-6));
    }

    // Reference values below come from an independent script of the same definition
    // (fishtest's regularised logistic GSPRT: exact MLE by bisection, then N Σ p ln(p1/p0)).

    #[test]
    fn trinomial_llr_matches_reference() {
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(
            close(standard().llr_wdl(&w), 0.707_247, 1e-5),
            "{}",
            standard().llr_wdl(&w)
        );
    }

    #[test]
    fn pentanomial_llr_matches_reference_and_the_normal_approximation() {
        let p = Pentanomial([1, 2, 10, 5, 2]);
        let llr = standard().llr_pentanomial(&p);
        assert!(close(llr, 0.136_965, 1e-5), "{llr}");
        // For small effects the GSPRT is close to its normal approximation
        // N (s1 − s0)(2 s̄ − s0 − s1) / (2 σ²) = 20 * 0.0071951 * 0.1178049 / 0.1109375 = 0.15281.
        assert!((llr / 0.152_810 - 1.0).abs() < 0.15);
    }

    #[test]
    fn decisions_follow_the_bounds() {
        let s = standard();
        assert_eq!(s.decide(0.0), SprtDecision::Continue);
        assert_eq!(s.decide(3.0), SprtDecision::H1);
        assert_eq!(s.decide(-3.0), SprtDecision::H0);
        assert_eq!(s.llr_pentanomial(&Pentanomial::default()), 0.0);
        // Two even pairs say little: no near-infinite ratio from a zero variance.
        let even = Pentanomial([0, 0, 2, 0, 0]);
        assert!(close(s.llr_pentanomial(&even), -0.025_082, 1e-5));
        // Clean sweeps decide a wide test in a few pairs, in either direction.
        let wide: Sprt = "elo0=0,elo1=300".parse().unwrap();
        assert!(close(
            wide.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 5])),
            2.647_763,
            1e-4
        ));
        assert_eq!(
            wide.decide(wide.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 6]))),
            SprtDecision::H1
        );
        assert_eq!(
            wide.decide(wide.llr_pentanomial(&Pentanomial([3, 0, 0, 0, 0]))),
            SprtDecision::H0
        );
    }

    #[test]
    fn parse_rejects_nonsense() {
        assert!("elo0=5,elo1=0".parse::<Sprt>().is_err());
        assert!("elo1=5".parse::<Sprt>().is_err());
        assert!("elo0=0,elo1=5,gamma=1".parse::<Sprt>().is_err());
        let s: Sprt = "elo0=-1.5,elo1=3".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.5, 3.0, 0.05, 0.05));
    }
}
