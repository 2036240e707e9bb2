//! The float net the trainer fits: the same shapes as the engine's (`eval::nnue`), its forward
//! and backward passes over the few active features of a position, and its quantisation into
//! the engine's integer file.

use crate::board::{PieceType, Square};
use crate::eval::nnue::features::{FEATURES, Frame, output_bucket};
use crate::eval::nnue::network::{
    DENSE_SCALE, DENSE1, DENSE1_SCALE, DENSE2, DENSE2_SCALE, Dense, Head, MAX_DENSE_BIAS,
    MAX_DENSE_WEIGHT, MAX_OUTPUT_WEIGHT, Network, QA, QB, QD, QD1, QFT, SCALE, head_len,
};
use crate::eval::nnue::simd::MAX_WIDTH;
use crate::rng::Rng;
use crate::tools::datagen::record::Record;

/// Weights are kept inside these so the quantised sums cannot overflow (see `Network`).
pub const FT_WEIGHT_CLIP: f32 = 0.9;
pub const BIAS_CLIP: f32 = 3.0;
pub const OUT_WEIGHT_CLIP: f32 = 0.49;
pub const DENSE_WEIGHT_CLIP: f32 = 1.98;
/// The first dense layer's 8-bit weights at `QD1`.
pub const FIRST_DENSE_WEIGHT_CLIP: f32 = 127.0 / QD1 as f32;
/// At most this many pieces on a board.
const MAX_ACTIVE: usize = 32;

/// The shape of a net: blocks of input features, hidden units, output layers, and whether
/// dense layers come before the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// 1, or `features::KING_BUCKETS`.
    pub king_buckets: usize,
    /// Hidden units a view: one of `simd::WIDTHS`.
    pub hidden: usize,
    /// 1, or `features::OUTPUT_BUCKETS`.
    pub out_buckets: usize,
    /// `hidden → DENSE1 → DENSE2 → 1` per output layer (the first on pairwise products of
    /// each view's halves) instead of `2 × hidden → 1`.
    pub dense: bool,
}

impl Shape {
    /// Rows of feature weights the trainer keeps: a block per king bucket and, in a bucketed
    /// net, one more block shared by all (the factor), which every block's feature also reads.
    /// The factor learns what a piece on a point is worth wherever the king stands, so that
    /// each bucket only learns its difference; the quantised net folds it into every block.
    pub const fn feature_rows(self) -> usize {
        (self.king_buckets + self.factored() as usize) * FEATURES
    }

    /// Whether the trainer keeps a factor block: in a king-bucketed net.
    pub const fn factored(self) -> bool {
        self.king_buckets > 1
    }

    /// The length of the parameters of a net of this shape.
    pub const fn param_count(self) -> usize {
        let h = self.hidden;
        let (weights, biases) = head_len(h, self.dense);
        self.feature_rows() * h + h + self.out_buckets * (weights + biases)
    }
}

/// Where one output layer's dense weights and biases start in the parameters.
#[derive(Clone, Copy)]
pub struct DenseAt {
    pub w1: usize,
    pub w2: usize,
    pub w3: usize,
    pub b1: usize,
    pub b2: usize,
    pub b3: usize,
}

/// Parameters (or their gradients, or Adam's moments) of a net of `shape`: one flat vector,
/// laid out as the net's file lays out its payload but for the factor block: the feature
/// weights (`Shape::feature_rows` rows of `hidden`, the factor's last), the hidden biases, the
/// head's weights for every output layer, then the head's biases (see `network`).
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
        self.shape.feature_rows() * self.shape.hidden
    }

    /// Where the factor block starts (the hidden biases' start in an unbucketed net).
    pub fn factor(&self) -> usize {
        self.shape.king_buckets * FEATURES * self.shape.hidden
    }

    /// Where the head's weights start.
    pub fn head(&self) -> usize {
        self.ft_bias() + self.shape.hidden
    }

    /// Where the head's biases start.
    pub fn head_bias(&self) -> usize {
        self.head() + self.shape.out_buckets * head_len(self.shape.hidden, self.shape.dense).0
    }

    /// Feature `f`'s row of hidden weights.
    fn row(&self, f: u16) -> std::ops::Range<usize> {
        let h = self.shape.hidden;
        f as usize * h..(f as usize + 1) * h
    }

    /// The rows feature `f` reads: its own and, in a bucketed net, the factor's.
    fn rows(&self, f: u16) -> impl Iterator<Item = std::ops::Range<usize>> {
        let shared = self
            .shape
            .factored()
            .then(|| self.row((self.shape.king_buckets * FEATURES + f as usize % FEATURES) as u16));
        std::iter::once(self.row(f)).chain(shared)
    }

    /// Where output layer `bucket`'s weights start, in a net without dense layers.
    fn out_layer(&self, bucket: usize) -> usize {
        self.head() + bucket * 2 * self.shape.hidden
    }

    /// Where output layer `bucket`'s dense weights and biases start.
    pub fn dense_at(&self, bucket: usize) -> DenseAt {
        let (ob, n1) = (self.shape.out_buckets, DENSE1 * self.shape.hidden);
        let (w, b) = (self.head(), self.head_bias());
        DenseAt {
            w1: w + bucket * n1,
            w2: w + ob * n1 + bucket * DENSE2 * DENSE1,
            w3: w + ob * (n1 + DENSE2 * DENSE1) + bucket * DENSE2,
            b1: b + bucket * DENSE1,
            b2: b + ob * DENSE1 + bucket * DENSE2,
            b3: b + ob * (DENSE1 + DENSE2) + bucket,
        }
    }

    /// Small random weights: the feature rows uniform in ±0.1, the output weights in ±0.05;
    /// dense layers' weights in ±0.25, ±0.5 and ±0.1 with biases of 0.25, so that their units
    /// start inside the activation's live range.
    pub fn random(seed: u64, shape: Shape) -> Params {
        let mut rng = Rng::new(seed);
        let mut uniform =
            |r: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * r - r;
        let mut p = Params::zeros(shape);
        let (factor, head, head_bias) = (p.factor(), p.head(), p.head_bias());
        // The factor starts at zero: each block's sums start as an unfactored net's.
        for w in &mut p.w[..factor] {
            *w = uniform(0.1);
        }
        if !shape.dense {
            for w in &mut p.w[head..head_bias] {
                *w = uniform(0.05);
            }
            return p;
        }
        // Each part's region over all output layers starts where output layer 0's does.
        let first = p.dense_at(0);
        for (from, to, r) in [
            (first.w1, first.w2, 0.25),
            (first.w2, first.w3, 0.5),
            (first.w3, head_bias, 0.1),
        ] {
            for w in &mut p.w[from..to] {
                *w = uniform(r);
            }
        }
        for b in &mut p.w[head_bias..first.b3] {
            *b = 0.25;
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

    /// Keeps the weights where the integer net can hold them: a block's weight plus the
    /// factor's, too.
    pub fn clip(&mut self) {
        let (factor, ft_bias, head, head_bias) =
            (self.factor(), self.ft_bias(), self.head(), self.head_bias());
        let head_clip = if self.shape.dense {
            DENSE_WEIGHT_CLIP
        } else {
            OUT_WEIGHT_CLIP
        };
        for w in &mut self.w[factor..ft_bias] {
            *w = w.clamp(-FT_WEIGHT_CLIP, FT_WEIGHT_CLIP);
        }
        let (blocks, shared) = self.w[..ft_bias].split_at_mut(factor);
        for (i, w) in blocks.iter_mut().enumerate() {
            let s = shared_weight(shared, i);
            *w = w.clamp(-FT_WEIGHT_CLIP - s, FT_WEIGHT_CLIP - s);
        }
        for b in &mut self.w[ft_bias..head] {
            *b = b.clamp(-BIAS_CLIP, BIAS_CLIP);
        }
        for w in &mut self.w[head..head_bias] {
            *w = w.clamp(-head_clip, head_clip);
        }
        if self.shape.dense {
            let first = self.dense_at(0);
            for w in &mut self.w[first.w1..first.w2] {
                *w = w.clamp(-FIRST_DENSE_WEIGHT_CLIP, FIRST_DENSE_WEIGHT_CLIP);
            }
        }
    }

    /// The engine's integer net.
    pub fn quantise(&self) -> Network {
        let q = |w: &f32, scale: i32, max: i32| {
            (w * scale as f32).round().clamp(-max as f32, max as f32) as i16
        };
        let (ft_bias, head, head_bias) = (self.ft_bias(), self.head(), self.head_bias());
        let words = |from: usize, to: usize, scale: i32, max: i16| -> Box<[i16]> {
            self.w[from..to]
                .iter()
                .map(|w| q(w, scale, max.into()))
                .collect()
        };
        let wides = |from: usize, to: usize, scale: f32, max: i32| -> Box<[i32]> {
            self.w[from..to]
                .iter()
                .map(|&b| (b * scale).round().clamp(-max as f32, max as f32) as i32)
                .collect()
        };
        let layers = if self.shape.dense {
            let first = self.dense_at(0);
            let bias = |from, to, scale| wides(from, to, scale, MAX_DENSE_BIAS);
            let h = self.shape.hidden;
            Head::Dense(Dense {
                w1: self.grouped(|d| d.w1, (DENSE1, h, 4), |w| q(&w, QD1, 127) as i8),
                w2: self.grouped(
                    |d| d.w2,
                    (DENSE2, DENSE1, 2),
                    |w| q(&w, QD, MAX_DENSE_WEIGHT.into()),
                ),
                w3: words(first.w3, head_bias, QD, MAX_DENSE_WEIGHT),
                b1: bias(first.b1, first.b2, DENSE1_SCALE),
                b2: bias(first.b2, first.b3, DENSE2_SCALE as f32),
                b3: bias(first.b3, self.w.len(), DENSE_SCALE as f32),
            })
        } else {
            Head::Linear {
                weights: words(head, head_bias, QB, MAX_OUTPUT_WEIGHT),
                bias: wides(head_bias, self.w.len(), (QA * QB) as f32, i32::MAX),
            }
        };
        // Every block's weights with the factor folded in.
        let (blocks, shared) = self.w[..ft_bias].split_at(self.factor());
        let ft_weights = blocks
            .iter()
            .enumerate()
            .map(|(i, w)| q(&(w + shared_weight(shared, i)), QFT, i16::MAX.into()))
            .collect();
        Network {
            buckets: self.shape.king_buckets,
            hidden: self.shape.hidden,
            ft_weights,
            ft_bias: words(ft_bias, head, QFT, i16::MAX),
            out_buckets: self.shape.out_buckets,
            head: layers,
        }
    }

    /// A dense layer's weights of every output layer in the net's order: rows of `inputs`
    /// weights here (from `at(bucket)`, `units` rows), by groups of `group` inputs there (each
    /// unit's group in turn; `network`), quantised by `q`.
    fn grouped<T>(
        &self,
        at: impl Fn(DenseAt) -> usize,
        (units, inputs, group): (usize, usize, usize),
        q: impl Fn(f32) -> T,
    ) -> Box<[T]> {
        let mut out = Vec::with_capacity(self.shape.out_buckets * units * inputs);
        for bucket in 0..self.shape.out_buckets {
            let rows = &self.w[at(self.dense_at(bucket))..][..units * inputs];
            for first in (0..inputs).step_by(group) {
                for row in rows.chunks_exact(inputs) {
                    out.extend(row[first..first + group].iter().map(|&w| q(w)));
                }
            }
        }
        out.into()
    }
}

/// The factor's weight that the `i`-th feature weight of any block reads (`shared`: the factor
/// block, empty in an unbucketed net, which reads none).
fn shared_weight(shared: &[f32], i: usize) -> f32 {
    if shared.is_empty() {
        0.0
    } else {
        shared[i % shared.len()]
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
    acc.copy_from_slice(&p.w[p.ft_bias()..p.head()]);
    for &f in features {
        for row in p.rows(f) {
            for (a, w) in acc.iter_mut().zip(&p.w[row]) {
                *a += w;
            }
        }
    }
}

/// Both views' feature sums, the side to move's first.
fn sums(p: &Params, a: &Active) -> [[f32; MAX_WIDTH]; 2] {
    let h = p.shape.hidden;
    let mut accs = [[0.0f32; MAX_WIDTH]; 2];
    for (acc, feats) in accs.iter_mut().zip(a.views()) {
        accumulate(p, feats, &mut acc[..h]);
    }
    accs
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The squared clipped ReLU's slope at `x`.
fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}

/// Σ f(xᵢ)·wᵢ in independent lanes: one running float sum must keep its order, so the
/// compiler cannot vectorise it, and each add waits for the one before.
fn weighted_sum(xs: &[f32], ws: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    const LANES: usize = 16;
    let (xc, wc) = (xs.chunks_exact(LANES), ws.chunks_exact(LANES));
    let tail: f32 = (xc.remainder().iter().zip(wc.remainder()))
        .map(|(&x, &w)| f(x) * w)
        .sum();
    let mut lanes = [0.0f32; LANES];
    for (x, w) in xc.zip(wc) {
        for ((l, &x), &w) in lanes.iter_mut().zip(x).zip(w) {
            *l += f(x) * w;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The output of a net without dense layers, before scaling.
fn linear_out(p: &Params, bucket: usize, accs: &[[f32; MAX_WIDTH]; 2]) -> f32 {
    let (out_w, h) = (p.out_layer(bucket), p.shape.hidden);
    let mut out = p.w[p.head_bias() + bucket];
    for (v, acc) in accs.iter().enumerate() {
        out += weighted_sum(&acc[..h], &p.w[out_w + v * h..out_w + (v + 1) * h], screlu);
    }
    out
}

/// The clipped ReLU.
fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// The clipped ReLU's slope at `x`.
fn crelu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 1.0 } else { 0.0 }
}

/// The dense layers' values on one position, kept for the backward pass.
struct DenseTrace {
    /// The first layer's inputs: each view's pairwise products, the side to move's first.
    s: [f32; MAX_WIDTH],
    z1: [f32; DENSE1],
    h1: [f32; DENSE1],
    z2: [f32; DENSE2],
    h2: [f32; DENSE2],
    out: f32,
}

fn dense_forward(p: &Params, at: DenseAt, accs: &[[f32; MAX_WIDTH]; 2]) -> DenseTrace {
    let h = p.shape.hidden;
    let mut t = DenseTrace {
        s: [0.0; MAX_WIDTH],
        z1: [0.0; DENSE1],
        h1: [0.0; DENSE1],
        z2: [0.0; DENSE2],
        h2: [0.0; DENSE2],
        out: p.w[at.b3],
    };
    let half = h / 2;
    for (v, acc) in accs.iter().enumerate() {
        let (lo, hi) = acc[..h].split_at(half);
        for ((s, &a), &b) in t.s[v * half..(v + 1) * half].iter_mut().zip(lo).zip(hi) {
            *s = crelu(a) * crelu(b);
        }
    }
    let s = &t.s[..h];
    for j in 0..DENSE1 {
        let row = &p.w[at.w1 + j * h..at.w1 + (j + 1) * h];
        t.z1[j] = p.w[at.b1 + j] + weighted_sum(s, row, |a| a);
        t.h1[j] = screlu(t.z1[j]);
    }
    for k in 0..DENSE2 {
        let row = &p.w[at.w2 + k * DENSE1..at.w2 + (k + 1) * DENSE1];
        t.z2[k] = p.w[at.b2 + k] + weighted_sum(&t.h1, row, |a| a);
        t.h2[k] = screlu(t.z2[k]);
        t.out += t.h2[k] * p.w[at.w3 + k];
    }
    t
}

/// The net's output before scaling, and the dense layers' values where it has them.
fn head_forward(
    p: &Params,
    bucket: usize,
    accs: &[[f32; MAX_WIDTH]; 2],
) -> (f32, Option<DenseTrace>) {
    if p.shape.dense {
        let t = dense_forward(p, p.dense_at(bucket), accs);
        (t.out, Some(t))
    } else {
        (linear_out(p, bucket, accs), None)
    }
}

/// The net's output in centipawns for the side to move.
pub fn forward(p: &Params, a: &Active) -> f32 {
    head_forward(p, a.out_bucket, &sums(p, a)).0 * SCALE as f32
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
    /// The same target with the game result's weight 1: a loss that compares runs of any
    /// `lambda`.
    pub fn results_alone(self) -> Target {
        Target {
            lambda: 1.0,
            ..self
        }
    }

    pub fn of(&self, r: &Record) -> f32 {
        self.lambda * r.stm_result() + (1.0 - self.lambda) * sigmoid(r.score() as f32 / self.k)
    }
}

/// Adds the gradient of one position's loss to `grad`; returns the loss,
/// (sigmoid(eval / k) − target)².
pub fn backward(p: &Params, a: &Active, target: f32, k: f32, grad: &mut Params) -> f32 {
    let accs = sums(p, a);
    let (out, trace) = head_forward(p, a.out_bucket, &accs);
    let scale = SCALE as f32 / k;
    let pred = sigmoid(out * scale);
    let err = pred - target;
    // d loss / d out.
    let g = 2.0 * err * pred * (1.0 - pred) * scale;
    // d loss / d the feature sums, both views.
    let mut dacc = [[0.0f32; MAX_WIDTH]; 2];
    match trace {
        None => linear_backward(p, a.out_bucket, &accs, g, grad, &mut dacc),
        Some(t) => dense_backward(p, p.dense_at(a.out_bucket), &accs, &t, g, grad, &mut dacc),
    }
    let (ft_bias, h) = (p.ft_bias(), p.shape.hidden);
    for (d, feats) in dacc.iter().zip(a.views()) {
        let d = &d[..h];
        for (b, d) in grad.w[ft_bias..ft_bias + h].iter_mut().zip(d) {
            *b += d;
        }
        for &f in feats {
            for row in p.rows(f) {
                for (r, d) in grad.w[row].iter_mut().zip(d) {
                    *r += d;
                }
            }
        }
    }
    err * err
}

fn linear_backward(
    p: &Params,
    bucket: usize,
    accs: &[[f32; MAX_WIDTH]; 2],
    g: f32,
    grad: &mut Params,
    dacc: &mut [[f32; MAX_WIDTH]; 2],
) {
    let (out_w, h) = (p.out_layer(bucket), p.shape.hidden);
    grad.w[p.head_bias() + bucket] += g;
    for (v, acc) in accs.iter().enumerate() {
        for j in 0..h {
            let (x, w) = (acc[j], p.w[out_w + v * h + j]);
            grad.w[out_w + v * h + j] += g * screlu(x);
            dacc[v][j] = g * w * screlu_slope(x);
        }
    }
}

fn dense_backward(
    p: &Params,
    at: DenseAt,
    accs: &[[f32; MAX_WIDTH]; 2],
    t: &DenseTrace,
    g: f32,
    grad: &mut Params,
    dacc: &mut [[f32; MAX_WIDTH]; 2],
) {
    let h = p.shape.hidden;
    grad.w[at.b3] += g;
    let mut dh1 = [0.0f32; DENSE1];
    for k in 0..DENSE2 {
        grad.w[at.w3 + k] += g * t.h2[k];
        let dz2 = g * p.w[at.w3 + k] * screlu_slope(t.z2[k]);
        grad.w[at.b2 + k] += dz2;
        for (j, d) in dh1.iter_mut().enumerate() {
            grad.w[at.w2 + k * DENSE1 + j] += dz2 * t.h1[j];
            *d += dz2 * p.w[at.w2 + k * DENSE1 + j];
        }
    }
    let mut ds = [0.0f32; MAX_WIDTH];
    let ds = &mut ds[..h];
    for (j, d) in dh1.iter().enumerate() {
        let dz1 = d * screlu_slope(t.z1[j]);
        if dz1 == 0.0 {
            continue;
        }
        grad.w[at.b1 + j] += dz1;
        let row = at.w1 + j * h..at.w1 + (j + 1) * h;
        for ((gw, w), (d, s)) in grad.w[row.clone()]
            .iter_mut()
            .zip(&p.w[row])
            .zip(ds.iter_mut().zip(&t.s[..h]))
        {
            *gw += dz1 * s;
            *d += dz1 * w;
        }
    }
    // Each product's slope reaches both of its units.
    let half = h / 2;
    for (v, acc) in accs.iter().enumerate() {
        for i in 0..half {
            let (a, b, d) = (acc[i], acc[i + half], ds[v * half + i]);
            dacc[v][i] = d * crelu(b) * crelu_slope(a);
            dacc[v][i + half] = d * crelu(a) * crelu_slope(b);
        }
    }
}

/// The loss of one position without its gradient.
pub fn loss(p: &Params, a: &Active, target: f32, k: f32) -> f32 {
    eval_loss(forward(p, a), target, k)
}

/// The loss of an evaluation `eval` in centipawns, (sigmoid(eval / k) − target)².
pub fn eval_loss(eval: f32, target: f32, k: f32) -> f32 {
    let e = sigmoid(eval / k) - target;
    e * e
}
