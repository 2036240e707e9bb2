//! The float net the trainer fits: the same shapes as the engine's (`eval::nnue`), its forward
//! and backward passes over the few active features of a position, and its quantisation into
//! the engine's integer file.

use crate::board::{PieceType, Square};
use crate::eval::nnue::features::{FEATURES, Frame, output_bucket};
use crate::eval::nnue::network::{MAX_OUTPUT_WEIGHT, Network, QA, QB, QFT, SCALE};
use crate::eval::nnue::simd::MAX_WIDTH;
use crate::rng::Rng;
use crate::tools::datagen::record::Record;

/// Weights are kept inside these so the quantised sums cannot overflow (see `Network`).
pub const FT_WEIGHT_CLIP: f32 = 0.9;
pub const BIAS_CLIP: f32 = 3.0;
pub const OUT_WEIGHT_CLIP: f32 = 0.49;
/// At most this many pieces on a board.
const MAX_ACTIVE: usize = 32;

/// The shape of a net: blocks of input features, hidden units and output layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// 1, or `features::KING_BUCKETS`.
    pub king_buckets: usize,
    /// Hidden units a view: one of `simd::WIDTHS`.
    pub hidden: usize,
    /// 1, or `features::OUTPUT_BUCKETS`.
    pub out_buckets: usize,
}

impl Shape {
    /// The length of the parameters of a net of this shape.
    pub const fn param_count(self) -> usize {
        let h = self.hidden;
        self.king_buckets * FEATURES * h + h + self.out_buckets * (2 * h + 1)
    }
}

/// Parameters (or their gradients, or Adam's moments) of a net of `shape`: one flat vector,
/// laid out as the feature weights (`king_buckets × FEATURES` rows of `hidden`), the hidden
/// biases, the output weights (per output layer, the side to move's view first), the output
/// biases.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub w: Vec<f32>,
    pub shape: Shape,
}

impl Params {
    pub fn zeros(shape: Shape) -> Params {
        Params {
            w: vec![0.0; shape.param_count()],
            shape,
        }
    }

    /// Where the hidden biases start.
    pub fn ft_bias(&self) -> usize {
        self.shape.king_buckets * FEATURES * self.shape.hidden
    }

    /// Feature `f`'s row of hidden weights.
    fn row(&self, f: u16) -> std::ops::Range<usize> {
        let h = self.shape.hidden;
        f as usize * h..(f as usize + 1) * h
    }

    /// Where the output weights start.
    pub fn out_w(&self) -> usize {
        self.ft_bias() + self.shape.hidden
    }

    /// Where the output biases start.
    pub fn out_b(&self) -> usize {
        self.out_w() + self.shape.out_buckets * 2 * self.shape.hidden
    }

    /// Where output layer `bucket`'s weights start.
    fn out_layer(&self, bucket: usize) -> usize {
        self.out_w() + bucket * 2 * self.shape.hidden
    }

    /// Small random weights: the feature rows uniform in ±0.1, the output weights in ±0.05.
    pub fn random(seed: u64, shape: Shape) -> Params {
        let mut rng = Rng::new(seed);
        let mut uniform =
            |r: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * r - r;
        let mut p = Params::zeros(shape);
        let (ft_bias, out_w, out_b) = (p.ft_bias(), p.out_w(), p.out_b());
        for w in &mut p.w[..ft_bias] {
            *w = uniform(0.1);
        }
        for w in &mut p.w[out_w..out_b] {
            *w = uniform(0.05);
        }
        p
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        self.w.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The parameters of a net of `shape` from their file.
    pub fn from_bytes(b: &[u8], shape: Shape) -> Option<Params> {
        (b.len() == shape.param_count() * 4).then(|| Params {
            w: b.chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect(),
            shape,
        })
    }

    /// Keeps the weights where the integer net can hold them.
    pub fn clip(&mut self) {
        let (ft_bias, out_w, out_b) = (self.ft_bias(), self.out_w(), self.out_b());
        for w in &mut self.w[..ft_bias] {
            *w = w.clamp(-FT_WEIGHT_CLIP, FT_WEIGHT_CLIP);
        }
        for w in &mut self.w[out_w..out_b] {
            *w = w.clamp(-OUT_WEIGHT_CLIP, OUT_WEIGHT_CLIP);
        }
        for b in &mut self.w[ft_bias..out_w] {
            *b = b.clamp(-BIAS_CLIP, BIAS_CLIP);
        }
    }

    /// The engine's integer net.
    pub fn quantise(&self) -> Network {
        let q = |w: f32, scale: i32, max: i32| {
            (w * scale as f32).round().clamp(-max as f32, max as f32) as i16
        };
        let (ft_bias, out_w, out_b) = (self.ft_bias(), self.out_w(), self.out_b());
        let biases: Vec<i16> = self.w[ft_bias..out_w]
            .iter()
            .map(|&w| q(w, QFT, i16::MAX.into()))
            .collect();
        Network {
            buckets: self.shape.king_buckets,
            hidden: self.shape.hidden,
            ft_weights: self.w[..ft_bias]
                .iter()
                .map(|&w| q(w, QFT, i16::MAX.into()))
                .collect(),
            ft_bias: biases.into_boxed_slice(),
            out_buckets: self.shape.out_buckets,
            out_weights: self.w[out_w..out_b]
                .iter()
                .map(|&w| q(w, QB, MAX_OUTPUT_WEIGHT.into()))
                .collect(),
            out_bias: self.w[out_b..]
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }
}

/// The active features of a record for the side to move's view and the other's, and the
/// output layer that reads them, in a net of `shape`, the board mirrored left to right when
/// asked.
pub struct Active {
    pub us: [u16; MAX_ACTIVE],
    pub them: [u16; MAX_ACTIVE],
    pub len: usize,
    pub out_bucket: usize,
}

impl Active {
    pub fn of(r: &Record, mirror: bool, shape: Shape) -> Active {
        let stm = r.side_to_move();
        let mut a = Active {
            us: [0; MAX_ACTIVE],
            them: [0; MAX_ACTIVE],
            len: 0,
            out_bucket: 0,
        };
        let place = |sq: Square| if mirror { sq.mirror_file() } else { sq };
        let mut kings = [Square::from_index(0); 2];
        for (sq, p) in r.pieces() {
            if p.kind() == PieceType::King {
                kings[p.color().index()] = place(sq);
            }
        }
        let frames = [stm, stm.flip()].map(|v| Frame::of(v, kings[v.index()], shape.king_buckets));
        for (sq, p) in r.pieces().take(MAX_ACTIVE) {
            a.us[a.len] = frames[0].index(stm, p, place(sq)) as u16;
            a.them[a.len] = frames[1].index(stm.flip(), p, place(sq)) as u16;
            a.len += 1;
        }
        a.out_bucket = output_bucket(a.len as u32, shape.out_buckets);
        a
    }

    fn views(&self) -> [&[u16]; 2] {
        [&self.us[..self.len], &self.them[..self.len]]
    }
}

/// The feature-layer sums of one view (`acc`: the net's hidden units).
fn accumulate(p: &Params, features: &[u16], acc: &mut [f32]) {
    acc.copy_from_slice(&p.w[p.ft_bias()..p.out_w()]);
    for &f in features {
        for (a, w) in acc.iter_mut().zip(&p.w[p.row(f)]) {
            *a += w;
        }
    }
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The net's output in centipawns for the side to move.
pub fn forward(p: &Params, a: &Active) -> f32 {
    let (out_w, h) = (p.out_layer(a.out_bucket), p.shape.hidden);
    let mut out = p.w[p.out_b() + a.out_bucket];
    let mut acc = [0.0f32; MAX_WIDTH];
    let acc = &mut acc[..h];
    for (v, feats) in a.views().into_iter().enumerate() {
        accumulate(p, feats, acc);
        let w = &p.w[out_w + v * h..out_w + (v + 1) * h];
        out += acc.iter().zip(w).map(|(&x, &w)| screlu(x) * w).sum::<f32>();
    }
    out * SCALE as f32
}

/// What the loss compares against.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Weight of the game result against the search score, 0 to 1.
    pub lambda: f32,
    /// Centipawns per unit of the sigmoid's input.
    pub k: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Target {
    pub fn of(&self, r: &Record) -> f32 {
        self.lambda * r.stm_result() + (1.0 - self.lambda) * sigmoid(r.score() as f32 / self.k)
    }
}

/// Adds the gradient of one position's loss to `grad`; returns the loss,
/// (sigmoid(eval / k) − target)².
pub fn backward(p: &Params, a: &Active, target: f32, k: f32, grad: &mut Params) -> f32 {
    let (ft_bias, out_w) = (p.ft_bias(), p.out_layer(a.out_bucket));
    let (out_b, h) = (p.out_b() + a.out_bucket, p.shape.hidden);
    let mut accs = [[0.0f32; MAX_WIDTH]; 2];
    let mut out = p.w[out_b];
    for (v, feats) in a.views().into_iter().enumerate() {
        accumulate(p, feats, &mut accs[v][..h]);
        let w = &p.w[out_w + v * h..out_w + (v + 1) * h];
        out += accs[v][..h]
            .iter()
            .zip(w)
            .map(|(&x, &w)| screlu(x) * w)
            .sum::<f32>();
    }
    let scale = SCALE as f32 / k;
    let pred = sigmoid(out * scale);
    let err = pred - target;
    // d loss / d out.
    let g = 2.0 * err * pred * (1.0 - pred) * scale;
    grad.w[out_b] += g;
    for (v, feats) in a.views().into_iter().enumerate() {
        let mut dacc = [0.0f32; MAX_WIDTH];
        let dacc = &mut dacc[..h];
        for j in 0..h {
            let x = accs[v][j];
            let w = p.w[out_w + v * h + j];
            grad.w[out_w + v * h + j] += g * screlu(x);
            if x > 0.0 && x < 1.0 {
                dacc[j] = g * w * 2.0 * x;
            }
        }
        for (b, d) in grad.w[ft_bias..ft_bias + h].iter_mut().zip(dacc.iter()) {
            *b += d;
        }
        for &f in feats {
            let row = p.row(f);
            for (r, d) in grad.w[row].iter_mut().zip(dacc.iter()) {
                *r += d;
            }
        }
    }
    err * err
}

/// The loss of one position without its gradient.
pub fn loss(p: &Params, a: &Active, target: f32, k: f32) -> f32 {
    let e = sigmoid(forward(p, a) / k) - target;
    e * e
}
