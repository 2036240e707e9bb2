//! `chuhan train`: fits the net to `chuhan datagen` data on every core of a CPU.
//!
//! Loss: (sigmoid(eval / K) − target)², target = λ · result + (1 − λ) · sigmoid(score / K),
//! both from the side to move's view. Adam on shuffled mini-batches (with decoupled weight
//! decay where asked: AdamW), the step size annealed by a cosine from `lr` to `final_lr`;
//! every position is seen mirrored left to right in every other epoch. Whole games are held out
//! (one in `holdout_every`, games told apart by the ply falling) and their loss printed each
//! epoch. Each epoch writes the float parameters (`last.params`, to resume with `--init`) and
//! the quantised net (`epoch-N.nnue`); the end writes the final net as `net.nnue` (also after
//! zero epochs: a checkpoint re-quantised).

pub mod model;

use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::rng::Rng;
use crate::tools::datagen::record::Record;
use model::{Active, Params, Shape, Target, backward, loss};

#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    pub final_lr: f32,
    /// Decoupled weight decay: each step shrinks every weight by this times the step size
    /// (0: plain Adam). Larger shapes overfit the data there is (nets/README.md).
    pub weight_decay: f32,
    pub target: Target,
    /// One game in this many is held out.
    pub holdout_every: usize,
    pub seed: u64,
    /// Blocks of input features (1, or `features::KING_BUCKETS` by the king's point) and
    /// output layers (1, or `features::OUTPUT_BUCKETS` by material).
    pub shape: Shape,
    /// Float parameters to start from (`last.params` of an earlier run of the same shape).
    pub init: Option<PathBuf>,
    pub out: PathBuf,
    pub progress: bool,
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub holdout_loss: f64,
    /// Held-out loss against the game results alone: comparable between runs of any `lambda`.
    pub holdout_result_loss: f64,
    pub positions_per_second: f64,
}

/// Splits records into training and held-out positions by whole games.
pub fn split_games(records: &[Record], holdout_every: usize) -> (Vec<Record>, Vec<Record>) {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut game = 0usize;
    let mut last_ply = None;
    for r in records {
        if last_ply.is_some_and(|p| r.ply() <= p) {
            game += 1;
        }
        last_ply = Some(r.ply());
        if holdout_every > 0 && game % holdout_every == holdout_every - 1 {
            held.push(*r);
        } else {
            train.push(*r);
        }
    }
    (train, held)
}

/// Mean loss over `records` of the hand-written evaluation, the baseline a net must beat.
pub fn hand_written_loss(records: &[Record], target: Target) -> f64 {
    if records.is_empty() {
        return 0.0;
    }
    let sum: f64 = records
        .par_iter()
        .map(|r| {
            let eval = crate::eval::evaluate(&r.position()) as f32;
            f64::from(model::eval_loss(eval, target.of(r), target.k))
        })
        .sum();
    sum / records.len() as f64
}

/// The quantised integer net over some positions: its mean absolute difference in
/// centipawns from the float net, and the mean loss against the target of both (of the
/// integer net also against the results alone): what the rounding costs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quantised {
    pub difference: f64,
    pub float_loss: f64,
    pub loss: f64,
    pub result_loss: f64,
}

/// `Quantised` for `p`'s integer net over `records`.
pub fn quantisation_error(p: &Params, records: &[Record], target: Target) -> Quantised {
    use crate::eval::nnue::{accumulator::Accumulator, evaluate, simd::Kernel};
    let net = p.quantise();
    if records.is_empty() {
        return Quantised::default();
    }
    let results = target.results_alone();
    let sum = records
        .par_iter()
        .map(|r| {
            let pos = r.position();
            let mut acc = Accumulator::ZERO;
            acc.refresh(Kernel::best(), &net, &pos);
            let int = evaluate(Kernel::best(), &net, &acc, &pos) as f32;
            let active = Active::of(r, false, p.shape);
            let float = model::forward(p, &active);
            let loss = |eval, t: Target| f64::from(model::eval_loss(eval, t.of(r), t.k));
            [
                f64::from((float - int).abs()),
                loss(float, target),
                loss(int, target),
                loss(int, results),
            ]
        })
        .reduce(|| [0.0; 4], |a, b| std::array::from_fn(|i| a[i] + b[i]));
    let n = records.len() as f64;
    Quantised {
        difference: sum[0] / n,
        float_loss: sum[1] / n,
        loss: sum[2] / n,
        result_loss: sum[3] / n,
    }
}

/// Mean loss over `records` (unmirrored).
pub fn mean_loss(p: &Params, records: &[Record], target: Target) -> f64 {
    if records.is_empty() {
        return 0.0;
    }
    let sum: f64 = records
        .par_iter()
        .map(|r| {
            let active = Active::of(r, false, p.shape);
            f64::from(loss(p, &active, target.of(r), target.k))
        })
        .sum();
    sum / records.len() as f64
}

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPS: f32 = 1e-8;

    fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }

    fn step(&mut self, p: &mut Params, g: &Params, lr: f32, weight_decay: f32) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        let step = lr * c2.sqrt() / c1;
        let keep = 1.0 - lr * weight_decay;
        p.w.par_iter_mut()
            .zip(self.m.par_iter_mut().zip(self.v.par_iter_mut()))
            .zip(g.w.par_iter())
            .for_each(|((w, (m, v)), &g)| {
                *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
                *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
                *w = *w * keep - step * *m / (v.sqrt() + Self::EPS);
            });
    }
}

/// One batch's mean gradient and summed loss.
fn batch_gradient(p: &Params, batch: &[Record], target: Target, mirror: bool) -> (Params, f64) {
    let threads = rayon::current_num_threads().max(1);
    let chunk = batch.len().div_ceil(threads).max(1);
    let shape = p.shape;
    let (mut g, loss) = batch
        .par_chunks(chunk)
        .map(|c| {
            let mut g = Params::zeros(shape);
            let mut l = 0.0f64;
            for r in c {
                l += f64::from(backward(
                    p,
                    &Active::of(r, mirror, shape),
                    target.of(r),
                    target.k,
                    &mut g,
                ));
            }
            (g, l)
        })
        .reduce(
            || (Params::zeros(shape), 0.0),
            |(mut a, la), (b, lb)| {
                a.w.iter_mut().zip(&b.w).for_each(|(x, y)| *x += y);
                (a, la + lb)
            },
        );
    let n = batch.len() as f32;
    g.w.iter_mut().for_each(|x| *x /= n);
    (g, loss)
}

fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(tmp, path)
}

/// Trains on `train`, reporting each epoch (also through `on_epoch`); returns the parameters.
pub fn train(
    cfg: &TrainConfig,
    mut train: Vec<Record>,
    holdout: &[Record],
    on_epoch: &mut dyn FnMut(&EpochReport),
) -> io::Result<Params> {
    std::fs::create_dir_all(&cfg.out)?;
    let mut p = match &cfg.init {
        Some(path) => Params::from_bytes(&std::fs::read(path)?, cfg.shape).ok_or_else(|| {
            io::Error::other(format!(
                "{} is no parameter file of a net of {} king buckets and {} output buckets",
                path.display(),
                cfg.shape.king_buckets,
                cfg.shape.out_buckets
            ))
        })?,
        None => Params::random(cfg.seed, cfg.shape),
    };
    let mut adam = Adam::new(p.w.len());
    let mut rng = Rng::new(cfg.seed);
    let batch = cfg.batch.max(1);
    let batches = train.len().div_ceil(batch);
    let bar = if cfg.progress {
        ProgressBar::new((batches * cfg.epochs) as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} batches  {msg}")
            .expect("valid template"),
    );
    for epoch in 1..=cfg.epochs {
        let began = Instant::now();
        // Fisher–Yates.
        for i in (1..train.len()).rev() {
            train.swap(i, rng.below(i + 1));
        }
        let progress = (epoch - 1) as f32 / cfg.epochs.max(1) as f32;
        let lr = cfg.final_lr
            + 0.5 * (cfg.lr - cfg.final_lr) * (1.0 + (std::f32::consts::PI * progress).cos());
        let mirror = epoch % 2 == 0;
        let mut sum = 0.0;
        for b in train.chunks(batch) {
            let (g, l) = batch_gradient(&p, b, cfg.target, mirror);
            adam.step(&mut p, &g, lr, cfg.weight_decay);
            p.clip();
            sum += l;
            bar.inc(1);
        }
        let report = EpochReport {
            epoch,
            train_loss: sum / train.len().max(1) as f64,
            holdout_loss: mean_loss(&p, holdout, cfg.target),
            holdout_result_loss: mean_loss(&p, holdout, cfg.target.results_alone()),
            positions_per_second: train.len() as f64 / began.elapsed().as_secs_f64().max(1e-9),
        };
        bar.set_message(format!(
            "epoch {epoch}: train {:.6} held-out {:.6}",
            report.train_loss, report.holdout_loss
        ));
        write_atomically(&cfg.out.join("last.params"), &p.to_bytes())?;
        write_atomically(
            &cfg.out.join(format!("epoch-{epoch}.nnue")),
            &p.quantise().to_bytes(),
        )?;
        bar.suspend(|| on_epoch(&report));
    }
    bar.finish_and_clear();
    write_atomically(&cfg.out.join("net.nnue"), &p.quantise().to_bytes())?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::nnue::accumulator::Accumulator;
    use crate::eval::nnue::features::{FEATURES, KING_BUCKETS, OUTPUT_BUCKETS};
    use crate::eval::nnue::simd::Kernel;
    use crate::rules::GameResult;

    /// Positions labelled by material: the side a rook up wins.
    fn toy_data() -> Vec<Record> {
        let mut out = Vec::new();
        let mut rng = Rng::new(9);
        for game in 0..60u32 {
            let mut pos = Position::startpos();
            for ply in 0..24 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = *moves.get(rng.below(moves.len())).unwrap();
                pos.do_move(m);
                let count = |c| pos.count(c, crate::board::PieceType::Rook) as i32;
                let diff = count(crate::Color::Red) - count(crate::Color::Black);
                let result = match diff.signum() {
                    1 => GameResult::RedWins,
                    -1 => GameResult::BlackWins,
                    _ => GameResult::Draw,
                };
                let stm = if pos.side_to_move() == crate::Color::Red {
                    1
                } else {
                    -1
                };
                out.push(Record::new(
                    &pos,
                    300 * diff * stm,
                    result,
                    10 + ply + game % 2,
                ));
            }
        }
        out
    }

    /// The shapes the trainer fits: plain, king-bucketed, by material, all three and wider,
    /// dense layers.
    fn shapes() -> [Shape; 5] {
        [
            (1, 256, 1, false),
            (KING_BUCKETS, 256, 1, false),
            (1, 256, OUTPUT_BUCKETS, false),
            (KING_BUCKETS, 512, OUTPUT_BUCKETS, false),
            (1, 256, OUTPUT_BUCKETS, true),
        ]
        .map(|(king_buckets, hidden, out_buckets, dense)| Shape {
            king_buckets,
            hidden,
            out_buckets,
            dense,
        })
    }

    #[test]
    fn training_lowers_the_held_out_loss() {
        for shape in shapes() {
            let (train_set, held) = split_games(&toy_data(), 5);
            assert!(!held.is_empty() && train_set.len() > 4 * held.len() / 2);
            let target = Target {
                lambda: 0.5,
                k: 400.0,
            };
            let dir = std::env::temp_dir().join(format!(
                "chuhan-train-{}-{}-{}",
                std::process::id(),
                shape.king_buckets,
                shape.out_buckets
            ));
            let cfg = TrainConfig {
                epochs: 6,
                batch: 64,
                lr: 0.01,
                final_lr: 0.001,
                weight_decay: 0.0,
                target,
                holdout_every: 5,
                seed: 1,
                shape,
                init: Some(dir.join("start.params")),
                out: dir.clone(),
                progress: false,
            };
            // A start 100 cp off everywhere (the output biases at a quarter): the held-out
            // positions here are level, where a random start may already read near zero.
            let mut start = Params::random(1, shape);
            let biases = if shape.dense {
                start.dense_at(0).b3
            } else {
                start.head_bias()
            };
            start.w[biases..].fill(0.25);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("start.params"), start.to_bytes()).unwrap();
            let before = mean_loss(&start, &held, target);
            let mut reports = Vec::new();
            let p = train(&cfg, train_set, &held, &mut |r| reports.push(*r)).unwrap();
            let after = mean_loss(&p, &held, target);
            assert!(after < before * 0.8, "{shape:?}: {before} -> {after}");
            assert_eq!(reports.len(), 6);
            // The checkpoint resumes to the same parameters, and only as a net of its
            // shape; the exported net loads with it.
            let bytes = std::fs::read(dir.join("last.params")).unwrap();
            assert_eq!(Params::from_bytes(&bytes, shape), Some(p));
            for other in shapes().into_iter().filter(|&o| o != shape) {
                assert_eq!(Params::from_bytes(&bytes, other), None);
            }
            let bytes = std::fs::read(dir.join("epoch-6.nnue")).unwrap();
            let net = crate::eval::nnue::network::Network::from_bytes(&bytes).unwrap();
            assert_eq!(
                (net.buckets, net.hidden, net.out_buckets),
                (shape.king_buckets, shape.hidden, shape.out_buckets)
            );
            std::fs::remove_dir_all(dir).unwrap();
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let k = 100.0;
        for shape in shapes() {
            let p = Params::random(7, shape);
            for r in toy_data().iter().step_by(41).take(3) {
                let a = Active::of(r, false, shape);
                // A won result, so that the loss is steep.
                let mut g = Params::zeros(shape);
                model::backward(&p, &a, 1.0, k, &mut g);
                let parts = [
                    0..p.ft_bias(),
                    p.ft_bias()..p.head(),
                    p.head()..p.head_bias(),
                    p.head_bias()..p.w.len(),
                ];
                // In each part of the parameters, the weight with the steepest slope.
                for part in parts {
                    let i = part
                        .max_by(|&i, &j| g.w[i].abs().total_cmp(&g.w[j].abs()))
                        .unwrap();
                    assert!(g.w[i] != 0.0, "{shape:?}: no slope before {i}");
                    let loss_at = |d: f32| {
                        let mut q = p.clone();
                        q.w[i] += d;
                        model::loss(&q, &a, 1.0, k)
                    };
                    // The clipped activations have kinks, and one may lie within a step: the
                    // slope must show at one of the steps.
                    let off = |h: f32| ((loss_at(h) - loss_at(-h)) / (2.0 * h) - g.w[i]).abs();
                    let nearest = [2e-3, 5e-4, 1e-4]
                        .map(off)
                        .into_iter()
                        .fold(f32::MAX, f32::min);
                    assert!(
                        nearest <= 0.03 * g.w[i].abs() + 2e-5,
                        "{shape:?}, weight {i}: backward {} is {nearest} off",
                        g.w[i]
                    );
                }
            }
        }
    }

    #[test]
    fn a_bucketed_net_keeps_each_block_plus_the_factor_within_the_clip() {
        let shape = shapes()[1];
        let mut p = Params::random(3, shape);
        let (factor, ft_bias) = (p.factor(), p.ft_bias());
        assert_eq!(ft_bias - factor, FEATURES * shape.hidden);
        p.w[factor..ft_bias].fill(0.8);
        p.w[..factor].fill(0.5);
        p.w[0] = -2.0;
        p.clip();
        let folded = |i: usize| p.w[i] + p.w[factor + i % (ft_bias - factor)];
        assert!((folded(1) - model::FT_WEIGHT_CLIP).abs() < 1e-6);
        assert!((folded(0) + model::FT_WEIGHT_CLIP).abs() < 1e-6);
        assert!((0..factor).all(|i| folded(i).abs() <= model::FT_WEIGHT_CLIP + 1e-6));
        let net = p.quantise();
        let top = (model::FT_WEIGHT_CLIP * crate::eval::nnue::network::QFT as f32).round() as i16;
        assert_eq!(net.ft_weights.len(), factor);
        assert_eq!((net.ft_weights[0], net.ft_weights[factor - 1]), (-top, top));
    }

    #[test]
    fn weight_decay_shrinks_every_weight_by_the_step_times_the_decay() {
        let shape = shapes()[0];
        let start = Params::random(5, shape);
        let zero = Params::zeros(shape);
        let (lr, decay) = (0.01, 2.0);
        // With no gradient, plain Adam leaves the weights alone and AdamW scales them.
        let mut plain = start.clone();
        Adam::new(plain.w.len()).step(&mut plain, &zero, lr, 0.0);
        assert_eq!(plain.w, start.w);
        let mut decayed = start.clone();
        Adam::new(decayed.w.len()).step(&mut decayed, &zero, lr, decay);
        let keep = 1.0 - lr * decay;
        assert!(start.w.iter().any(|&w| w != 0.0));
        for (d, s) in decayed.w.iter().zip(&start.w) {
            assert!((d - s * keep).abs() <= 1e-7 * s.abs().max(1.0));
        }
    }

    #[test]
    fn the_quantisation_report_measures_both_nets_on_the_same_target() {
        // A random start without dense layers reads a pawn or so, on positions level and not.
        let shape = shapes()[0];
        let p = Params::random(4, shape);
        let held = toy_data();
        let target = Target {
            lambda: 0.5,
            k: 400.0,
        };
        let q = quantisation_error(&p, &held, target);
        assert!((q.float_loss - mean_loss(&p, &held, target)).abs() < 1e-9);
        // The integer net is a rounding of the float net: near it, but not the same.
        assert!(q.difference > 0.0 && q.difference < 20.0, "{q:?}");
        assert!((q.loss - q.float_loss).abs() < 0.05 * q.float_loss, "{q:?}");
        let results = mean_loss(&p, &held, target.results_alone());
        assert!(results > 1.5 * q.float_loss, "{results} {q:?}");
        assert!((q.result_loss - results).abs() < 0.05 * results, "{q:?}");
    }

    #[test]
    fn the_quantised_net_matches_the_float_net() {
        for shape in shapes() {
            let mut p = Params::random(4, shape);
            let (ft_bias, head, head_bias) = (p.ft_bias(), p.head(), p.head_bias());
            // Larger biases, so that activations spread over the clipped range.
            let mut rng = Rng::new(2);
            for b in &mut p.w[ft_bias..head] {
                *b = (rng.below(1000) as f32 / 1000.0) * 0.5;
            }
            // A bucketed net's factor, which the quantised net folds into every block.
            let (factor, mut draw) = (p.factor(), Rng::new(3));
            for w in &mut p.w[factor..ft_bias] {
                *w = (draw.below(2001) as f32 / 1000.0 - 1.0) * 0.05;
            }
            // Output weights of a trained net's size, and output biases that tell the
            // layers apart. Dense layers keep their random start, whose units are live, with
            // output weights large enough for evaluations of a few pawns.
            let out_w = if shape.dense { p.dense_at(0).w3 } else { head };
            for w in &mut p.w[out_w..head_bias] {
                *w = (rng.below(2001) as f32 / 1000.0 - 1.0) * 0.45;
            }
            if !shape.dense {
                for b in &mut p.w[head_bias..] {
                    *b = rng.below(2001) as f32 / 1000.0 - 1.0;
                }
            }
            let net = p.quantise();
            let mut total = 0.0;
            let n = 30;
            // Rounding (1/2040 per feature weight, 1/512 per output weight) adds up over the
            // 2 × 256 units of this dense random net to a few centipawns, growing as the
            // square root of the units (independent roundings). Dense layers round their
            // weights to steps of 1/128 and their inputs once more: half as much again (measured: a
            // mean of 3.5 cp and at most 14 cp on these positions).
            let units = (shape.hidden as f32 / 256.0).sqrt() * if shape.dense { 1.5 } else { 1.0 };
            for fen in crate::bench::bench_fens().take(n) {
                let pos = Position::from_fen(fen).unwrap();
                let r = Record::new(&pos, 0, GameResult::Draw, 0);
                let float = model::forward(&p, &Active::of(&r, false, shape));
                let mut acc = Accumulator::ZERO;
                acc.refresh(Kernel::Portable, &net, &pos);
                let int = crate::eval::nnue::evaluate(Kernel::Portable, &net, &acc, &pos);
                let err = (float - int as f32).abs();
                assert!(err <= 15.0 * units, "{shape:?}, {fen}: {float} vs {int}");
                total += err;
            }
            let mean = total / n as f32;
            assert!(mean <= 4.0 * units, "{shape:?}: mean error {mean}");
        }
    }
}
