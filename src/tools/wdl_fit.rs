//! `chuhan wdl-fit`: fits the win/draw/loss model (`eval::wdl`) to datagen positions by maximum
//! likelihood, and checks it on held-out games: predicted against observed outcomes by score.

use crate::eval::wdl::{START_MATERIAL, WdlModel, weight};
use crate::tools::datagen::record::Record;

/// Scores are clamped to this for the fit: beyond it every game is decided anyway.
const MAX_CP: i32 = 2000;
/// Width of a score bin, in centipawns.
const BIN_CP: i32 = 10;
const BINS: usize = (2 * MAX_CP / BIN_CP + 1) as usize;
const MATERIALS: usize = START_MATERIAL as usize + 1;

/// Positions counted by outcome (from the side to move's view: win, draw, loss) per material
/// and score bin: the likelihood only depends on these counts.
pub struct Histogram {
    counts: Vec<[f64; 3]>,
    positions: usize,
}

/// The outcome from the side to move's view: 0 won, 1 drawn, 2 lost.
fn outcome(r: &Record) -> usize {
    match r.stm_result() {
        x if x > 0.75 => 0,
        x if x > 0.25 => 1,
        _ => 2,
    }
}

fn bin(cp: i32) -> usize {
    ((cp.clamp(-MAX_CP, MAX_CP) + MAX_CP + BIN_CP / 2) / BIN_CP) as usize
}

fn bin_cp(bin: usize) -> f64 {
    f64::from(bin as i32 * BIN_CP - MAX_CP)
}

/// The model's material count of a record, read from its pieces (no position is built).
fn material_of(r: &Record) -> u32 {
    r.pieces().map(|(_, p)| weight(p.kind())).sum()
}

impl Histogram {
    pub fn new(records: &[Record]) -> Histogram {
        let mut counts = vec![[0.0; 3]; MATERIALS * BINS];
        for r in records {
            let m = (material_of(r) as usize).min(MATERIALS - 1);
            counts[m * BINS + bin(r.score())][outcome(r)] += 1.0;
        }
        Histogram {
            counts,
            positions: records.len(),
        }
    }

    /// Mean negative log-likelihood per position, and its gradient in the coefficients.
    fn loss_and_gradient(&self, model: &WdlModel) -> (f64, [f64; 8]) {
        let (mut loss, mut grad) = (0.0, [0.0; 8]);
        for (cell, n) in self.counts.iter().enumerate() {
            if n.iter().sum::<f64>() == 0.0 {
                continue;
            }
            let m = (cell / BINS) as f64 / f64::from(START_MATERIAL);
            let cp = bin_cp(cell % BINS);
            let (a, b) = model.ab(m);
            let (u, v) = ((cp - a) / b, (-cp - a) / b);
            let [w, d, l] = model.probabilities(cp, m);
            let (w, d, l) = (w.max(1e-12), d.max(1e-12), l.max(1e-12));
            loss -= n[0] * w.ln() + n[1] * d.ln() + n[2] * l.ln();
            // Derivatives of win and loss in a and b; the draw's are minus their sum.
            let (dw_da, dl_da) = (-w * (1.0 - w) / b, -l * (1.0 - l) / b);
            let (dw_db, dl_db) = (dw_da * u, dl_da * v);
            let d_da = -(n[0] * dw_da / w + n[2] * dl_da / l - n[1] * (dw_da + dl_da) / d);
            let d_db = -(n[0] * dw_db / w + n[2] * dl_db / l - n[1] * (dw_db + dl_db) / d);
            let mut power = 1.0;
            for k in 0..4 {
                grad[k] += d_da * power;
                grad[4 + k] += d_db * power;
                power *= m;
            }
        }
        let n = self.positions.max(1) as f64;
        (loss / n, grad.map(|g| g / n))
    }

    /// Mean negative log-likelihood of the outcomes under `model`.
    pub fn loss(&self, model: &WdlModel) -> f64 {
        self.loss_and_gradient(model).0
    }
}

fn model_of(p: &[f64; 8]) -> WdlModel {
    WdlModel {
        a: [p[0], p[1], p[2], p[3]],
        b: [p[4], p[5], p[6], p[7]],
    }
}

/// Solves `m x = y` by Gaussian elimination with partial pivoting (`None` if singular).
fn solve(mut m: [[f64; 8]; 8], mut y: [f64; 8]) -> Option<[f64; 8]> {
    for col in 0..8 {
        let pivot = (col..8).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        y.swap(col, pivot);
        let pivot_row = m[col];
        for row in col + 1..8 {
            let f = m[row][col] / pivot_row[col];
            for (v, p) in m[row].iter_mut().zip(pivot_row).skip(col) {
                *v -= f * p;
            }
            y[row] -= f * y[col];
        }
    }
    let mut x = [0.0; 8];
    for row in (0..8).rev() {
        let tail: f64 = (row + 1..8).map(|k| m[row][k] * x[k]).sum();
        x[row] = (y[row] - tail) / m[row][row];
    }
    Some(x)
}

/// Fits the model by damped Newton steps (Levenberg–Marquardt) on the full histogram; the
/// Hessian comes from central differences of the exact gradient.
pub fn fit(h: &Histogram, iterations: usize) -> WdlModel {
    let mut p = [150.0, 0.0, 0.0, 0.0, 150.0, 0.0, 0.0, 0.0];
    let (mut loss, mut grad) = h.loss_and_gradient(&model_of(&p));
    let mut damping = 1e-3;
    for _ in 0..iterations {
        let mut hessian = [[0.0; 8]; 8];
        for j in 0..8 {
            let step = 1e-3 * p[j].abs().max(1.0);
            let (mut hi, mut lo) = (p, p);
            hi[j] += step;
            lo[j] -= step;
            let (gh, gl) = (
                h.loss_and_gradient(&model_of(&hi)).1,
                h.loss_and_gradient(&model_of(&lo)).1,
            );
            for i in 0..8 {
                hessian[i][j] = (gh[i] - gl[i]) / (2.0 * step);
            }
        }
        let symmetric: [[f64; 8]; 8] =
            std::array::from_fn(|i| std::array::from_fn(|j| (hessian[i][j] + hessian[j][i]) / 2.0));
        loop {
            let mut m = symmetric;
            for (i, row) in m.iter_mut().enumerate() {
                row[i] += damping * symmetric[i][i].abs().max(1e-12);
            }
            let Some(delta) = solve(m, grad.map(|g| -g)) else {
                damping *= 10.0;
                continue;
            };
            let mut q = p;
            for i in 0..8 {
                q[i] += delta[i];
            }
            let (l, g) = h.loss_and_gradient(&model_of(&q));
            if l <= loss {
                (p, loss, grad) = (q, l, g);
                damping = (damping / 10.0).max(1e-9);
                break;
            }
            damping *= 10.0;
            if damping > 1e12 {
                return model_of(&p);
            }
        }
    }
    model_of(&p)
}

/// Score buckets of the calibration table (side to move's view, centipawns).
const BUCKETS: [(i32, i32); 11] = [
    (i32::MIN, -600),
    (-600, -300),
    (-300, -150),
    (-150, -75),
    (-75, -25),
    (-25, 25),
    (25, 75),
    (75, 150),
    (150, 300),
    (300, 600),
    (600, i32::MAX),
];

/// Predicted against observed win/draw/loss, in per cent, by score bucket, as a markdown table.
pub fn calibration_table(model: &WdlModel, records: &[Record]) -> String {
    let mut out = String::from(
        "| score (cp) | positions | predicted W / D / L % | observed W / D / L % |\n\
         |---|---|---|---|\n",
    );
    for (lo, hi) in BUCKETS {
        let (mut n, mut predicted, mut observed) = (0usize, [0.0; 3], [0.0; 3]);
        for r in records.iter().filter(|r| (lo..hi).contains(&r.score())) {
            n += 1;
            let p = model.permille(r.score(), material_of(r));
            for k in 0..3 {
                predicted[k] += f64::from(p[k]) / 10.0;
            }
            observed[outcome(r)] += 100.0;
        }
        if n == 0 {
            continue;
        }
        let range = match (lo, hi) {
            (i32::MIN, hi) => format!("< {hi}"),
            (lo, i32::MAX) => format!("≥ {lo}"),
            (lo, hi) => format!("{lo} to {hi}"),
        };
        let pct = |x: [f64; 3]| {
            let k = n as f64;
            format!("{:.1} / {:.1} / {:.1}", x[0] / k, x[1] / k, x[2] / k)
        };
        out.push_str(&format!(
            "| {range} | {n} | {} | {} |\n",
            pct(predicted),
            pct(observed)
        ));
    }
    out
}

/// The model as the Rust constant `eval::wdl::MODEL` holds it.
pub fn as_rust(model: &WdlModel) -> String {
    let list = |c: &[f64; 4]| {
        c.iter()
            .map(|x| format!("{x:.3}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "pub const MODEL: WdlModel = WdlModel {{\n    a: [{}],\n    b: [{}],\n}};",
        list(&model.a),
        list(&model.b)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::rules::GameResult;

    /// Positions whose outcomes are drawn from a known model; the fit must find it again.
    #[test]
    fn the_fit_recovers_the_model_that_made_the_outcomes() {
        let truth = WdlModel {
            a: [220.0, 0.0, 0.0, 0.0],
            b: [90.0, 0.0, 0.0, 0.0],
        };
        let pos = Position::startpos();
        let mut records = Vec::new();
        let mut state = 1u64;
        for i in 0..40_000 {
            let cp = (i % 161) * 10 - 800;
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = (state >> 11) as f64 / (1u64 << 53) as f64;
            let [w, d, _] = truth.probabilities(f64::from(cp), 1.0);
            let result = if x < w {
                GameResult::RedWins
            } else if x < w + d {
                GameResult::Draw
            } else {
                GameResult::BlackWins
            };
            records.push(Record::new(&pos, cp, result, 0));
        }
        let h = Histogram::new(&records);
        let fitted = fit(&h, 30);
        assert!(h.loss(&fitted) <= h.loss(&truth) + 1e-4);
        let (a, b) = fitted.ab(1.0);
        assert!((a - 220.0).abs() < 15.0, "a {a}");
        assert!((b - 90.0).abs() < 10.0, "b {b}");
        let table = calibration_table(&fitted, &records);
        assert_eq!(table.lines().count(), 2 + BUCKETS.len(), "{table}");
    }
}
