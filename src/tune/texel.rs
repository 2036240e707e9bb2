//! Texel tuning: fit the logistic scale K to the data under the current weights, then move the
//! weights down the gradient of the mean squared error between results and predicted scores.

use super::features::Sample;

/// Expected score from Red's view of a Red-view evaluation.
fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Mean squared error of the predictions under weights `w` and scale `k`.
pub fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = s.result - sigmoid(k, s.eval(w));
            d * d
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The K in `0.05..=4` that minimises the error under `w` (golden-section search).
pub fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut a, mut b) = (0.05f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(samples, w, c) < error(samples, w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// How a descent runs.
#[derive(Clone, Copy, Debug)]
pub struct Descent {
    pub iterations: usize,
    /// Adam step size, centipawns.
    pub rate: f64,
    /// Penalty per squared centipawn a weight moves from its start: keeps weights that few
    /// positions inform (rare piece squares) near their old values instead of fitting noise.
    pub l2: f64,
}

/// Minimises the error plus the L2 penalty by full-batch Adam steps from `w`, moving only the
/// weights marked in `free`. Returns the new weights.
pub fn descend(samples: &[Sample], w: &[f64], free: &[bool], k: f64, run: Descent) -> Vec<f64> {
    let w0 = w;
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut w = w.to_vec();
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let mut grad = vec![0.0; w.len()];
    let c = k * std::f64::consts::LN_10 / 400.0;
    for t in 1..=run.iterations {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for s in samples {
            let p = sigmoid(k, s.eval(&w));
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * c;
            for &(i, x) in &s.coefs {
                grad[i as usize] += d * x;
            }
        }
        let n = samples.len().max(1) as f64;
        for i in (0..w.len()).filter(|&i| free[i]) {
            let g = grad[i] / n + 2.0 * run.l2 * (w[i] - w0[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= run.rate * mh / (vh.sqrt() + eps);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions whose only feature predicts the result: descent must grow its weight and cut
    /// the error.
    #[test]
    fn descent_learns_a_predictive_feature() {
        let samples: Vec<Sample> = (0..200)
            .map(|i| {
                let x = if i % 2 == 0 { 1.0 } else { -1.0 };
                Sample {
                    result: if i % 2 == 0 { 1.0 } else { 0.0 },
                    fixed: 0.0,
                    coefs: vec![(0, x)],
                }
            })
            .collect();
        let w = vec![10.0];
        let k = 1.0;
        let run = Descent {
            iterations: 200,
            rate: 5.0,
            l2: 0.0,
        };
        let tuned = descend(&samples, &w, &[true], k, run);
        assert_eq!(descend(&samples, &w, &[false], k, run), w);
        assert!(tuned[0] > 100.0, "{tuned:?}");
        assert!(error(&samples, &tuned, k) < error(&samples, &w, k));
        // A penalty on moving holds the weight nearer its start.
        let held = descend(&samples, &w, &[true], k, Descent { l2: 1e-5, ..run });
        assert!(held[0] > w[0] && held[0] < tuned[0], "{held:?} {tuned:?}");
    }

    #[test]
    fn k_fits_the_data_scale() {
        // Nine wins in ten at +400: the best prediction is 0.9, so K = log10(9).
        let samples: Vec<Sample> = (0..100)
            .map(|i| Sample {
                result: if i % 10 == 0 { 0.0 } else { 1.0 },
                fixed: 400.0,
                coefs: Vec::new(),
            })
            .collect();
        let k = fit_k(&samples, &[]);
        assert!((k - 9f64.log10()).abs() < 0.01, "{k}");
    }
}
