//! Sequential probability ratio test on logistic Elo bounds, as fastchess does it: the
//! generalised SPRT (normal approximation of the log-likelihood ratio) over game pairs
//! (pentanomial) or, for unpaired games, single games (trinomial).

use std::fmt;
use std::str::FromStr;

use super::stats::{Estimate, Pentanomial, Wdl, score_from_elo};

/// Empty outcome classes count as this many samples, as fishtest does, so that a run of wins
/// alone (zero variance) still moves the ratio.
const REGULARISATION: f64 = 1e-3;

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

    /// LLR of H1 (elo1) against H0 (elo0): N (s1 − s0)(2 s̄ − s0 − s1) / (2 σ²).
    fn llr_of(&self, outcomes: &[(f64, f64)]) -> f64 {
        let regularised: Vec<(f64, f64)> = outcomes
            .iter()
            .map(|&(v, c)| (v, if c > 0.0 { c } else { REGULARISATION }))
            .collect();
        let (Some(e), true) = (
            Estimate::from_outcomes(&regularised),
            outcomes.iter().any(|o| o.1 > 0.0),
        ) else {
            return 0.0;
        };
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        e.samples * (s1 - s0) * (2.0 * e.mean - s0 - s1) / (2.0 * e.variance)
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

    #[test]
    fn trinomial_llr_matches_hand_computation() {
        // 60/20/20: s̄ = 0.7, σ² = 0.16, s0 = 0.5, s1 = 1/(1+10^(-5/400)) = 0.5071951;
        // LLR = 100 * 0.0071951 * (1.4 - 1.0071951) / 0.32 = 0.88321.
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(close(standard().llr_wdl(&w), 0.883_207, 1e-5));
    }

    #[test]
    fn pentanomial_llr_matches_hand_computation() {
        // [1,2,10,5,2]: s̄ = 0.5625, σ² = 0.05546875, 20 pairs;
        // LLR = 20 * 0.0071951 * (1.125 - 1.0071951) / 0.1109375 = 0.152810.
        let p = Pentanomial([1, 2, 10, 5, 2]);
        assert!(close(standard().llr_pentanomial(&p), 0.152_810, 1e-5));
    }

    #[test]
    fn decisions_follow_the_bounds() {
        let s = standard();
        assert_eq!(s.decide(0.0), SprtDecision::Continue);
        assert_eq!(s.decide(3.0), SprtDecision::H1);
        assert_eq!(s.decide(-3.0), SprtDecision::H0);
        // A clean sweep has no variance; regularisation still sends it past the upper bound.
        assert_eq!(
            s.decide(s.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 5]))),
            SprtDecision::H1
        );
        assert_eq!(
            s.decide(s.llr_pentanomial(&Pentanomial([5, 0, 0, 0, 0]))),
            SprtDecision::H0
        );
        assert_eq!(s.llr_pentanomial(&Pentanomial::default()), 0.0);
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
