//! The net and its file format.
//!
//! A file is a 56-byte header, then the payload, all little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 0–3 | magic `CHNN` |
//! | 4–7 | format version (6) |
//! | 8–11 | input features of one block (1260) |
//! | 12–15 | king buckets: blocks of features (1, or 6 by the king's point; `features`) |
//! | 16–19 | hidden units per view (256 or 512) |
//! | 20–23 | output buckets: output layers (1, or 8 by material; `features`) |
//! | 24–27, 28–31 | units of the two dense layers (0, 0 for none; else `DENSE1`, `DENSE2`) |
//! | 32–35 | output scale (centipawns per unit of the net's output) |
//! | 36–39, 40–43, 44–47 | QFT, QA, QB (QB: `QD` where the net has dense layers) |
//! | 48–51 | payload length in bytes |
//! | 52–55 | FNV-1a (32-bit) checksum of the payload |
//!
//! Version 5 is version 6 whose dense layers read squared activations; its nets without dense
//! layers are still read, as are versions 4 (version 5 without bytes 24–31) and 3 (version 4
//! without bytes 20–23: one output layer). Version 2 was version 3 without bytes 12–15.
//!
//! Payload: the feature weights (`i16`, one row of hidden weights per feature of every block),
//! the hidden biases (`i16`), then the head, each part for every output layer in turn.
//! Without dense layers: the output weights (`i16`, the side to move's view first), the output
//! biases (`i32`). With them: the first dense layer's weights (`i8`, by groups of four inputs:
//! each of the `DENSE1` units' four weights in turn; its inputs are the products of each
//! view's two halves, the side to move's view first), the second's (`i16`, by pairs of inputs:
//! each of the `DENSE2` units' two weights in turn), the output weights (`i16`, `DENSE2`),
//! then the three layers' biases (`i32`).
//! Feature weights and biases carry QFT (= 4 · QA: finer than the activations, as the rounding
//! of small weights adds up over many units), activations QA, output weights QB and their
//! biases QA · QB; the first dense layer's weights QD1, the others' QD, and dense biases their
//! layer's scale (`Dense`).

use std::fmt;

use crate::checksum::fnv1a;

use super::features::{FEATURES, KING_BUCKETS, OUTPUT_BUCKETS};
use super::simd::WIDTHS;

/// Quantisation of the feature weights and sums; activations drop `FT_SHIFT` bits of it.
pub const QFT: i32 = QA << FT_SHIFT;
pub const FT_SHIFT: u32 = 2;
/// Quantisation of the activations (an activation of 1.0 is QA).
pub const QA: i32 = 255;
/// Quantisation of the output weights of a net without dense layers.
pub const QB: i32 = 256;
/// Quantisation of the second dense layer's weights and the output's after it.
pub const QD: i32 = 128;
/// Quantisation of the first dense layer's (8-bit) weights: weights within ±127/128, which
/// trained nets keep (their largest are about 0.65), at twice the steps of 64.
pub const QD1: i32 = 128;
/// A product of two activations (QA²) less this many bits is a first-dense-layer input: at
/// most 127, so that pairs of its products with 8-bit weights fit `i16`.
pub const PAIR_SHIFT: u32 = 9;
/// The scale of the first dense layer's sums: QA² · QD1 less `PAIR_SHIFT` bits (not whole).
pub const DENSE1_SCALE: f32 = (QA * QA * QD1) as f32 / (1 << PAIR_SHIFT) as f32;
/// The second dense layer reads the first's squared activations (QA²) less this many bits:
/// within `i16`.
pub const DENSE2_IN_SHIFT: u32 = 2;
/// The scale of the second dense layer's sums: QA² · QD less `DENSE2_IN_SHIFT` bits.
pub const DENSE2_SCALE: i32 = (QA * QA * QD) >> DENSE2_IN_SHIFT;
/// The scale of the output after dense layers: squared activations times weights, QA² · QD.
pub const DENSE_SCALE: i32 = QA * QA * QD;
/// Units of the two dense layers, where a net has them.
pub const DENSE1: usize = 16;
pub const DENSE2: usize = 32;
/// Centipawns per unit of the net's output.
pub const SCALE: i32 = 400;
pub const MAGIC: [u8; 4] = *b"CHNN";
pub const VERSION: u32 = 6;
/// The version of squared dense inputs (read without dense layers only), the one before dense
/// layers, and the one before output buckets.
const VERSION_SQUARED: u32 = 5;
const VERSION_LINEAR: u32 = 4;
const VERSION_ONE_OUTPUT: u32 = 3;
const HEADER_BYTES: usize = 56;
/// Output weights beyond this would overflow the activation products.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
/// Dense weights after the first layer beyond this could overflow a layer's sum (see
/// `MAX_DENSE_BIAS`).
pub const MAX_DENSE_WEIGHT: i16 = 254;
/// Dense biases beyond this could overflow a layer's `i32` sum (next to it at most 512
/// products of 127 × 127, or 32 of 255² × 254).
pub const MAX_DENSE_BIAS: i32 = 1 << 28;

/// The layers after the feature layer, one set per output layer (`Network::out_buckets`).
pub enum Head {
    /// The activations straight to the output: `2 × hidden` weights (QB) and a bias (QA · QB)
    /// per output layer.
    Linear {
        weights: Box<[i16]>,
        bias: Box<[i32]>,
    },
    /// Two small dense layers, then the output.
    Dense(Dense),
}

/// Dense layers: `hidden → DENSE1 → DENSE2 → 1` per output layer. The first reads, in each
/// view, the product of unit i's clipped activation and unit i + hidden / 2's (Stockfish's
/// pairwise product: half the inputs, 8 bits each), with weights QD1; the others read squared
/// clipped activations, with weights QD. Biases at their layer's sums' scale
/// (`DENSE1_SCALE` rounded for the first, `DENSE2_SCALE` and `DENSE_SCALE` for the others).
pub struct Dense {
    pub w1: Box<[i8]>,
    pub w2: Box<[i16]>,
    pub w3: Box<[i16]>,
    pub b1: Box<[i32]>,
    pub b2: Box<[i32]>,
    pub b3: Box<[i32]>,
}

/// One output layer's dense weights.
#[derive(Clone, Copy)]
pub struct DenseLayers<'a> {
    pub w1: &'a [i8],
    pub b1: &'a [i32],
    pub w2: &'a [i16],
    pub b2: &'a [i32],
    pub w3: &'a [i16],
    pub b3: i32,
}

impl Dense {
    /// Output layer `bucket`'s weights, in a net of `hidden` units a view.
    #[inline(always)]
    pub fn layers(&self, bucket: usize, hidden: usize) -> DenseLayers<'_> {
        let n1 = DENSE1 * hidden;
        DenseLayers {
            w1: &self.w1[bucket * n1..(bucket + 1) * n1],
            b1: &self.b1[bucket * DENSE1..(bucket + 1) * DENSE1],
            w2: &self.w2[bucket * DENSE2 * DENSE1..(bucket + 1) * DENSE2 * DENSE1],
            b2: &self.b2[bucket * DENSE2..(bucket + 1) * DENSE2],
            w3: &self.w3[bucket * DENSE2..(bucket + 1) * DENSE2],
            b3: self.b3[bucket],
        }
    }
}

/// The weights and the biases of one output layer's head in a net of `hidden` units a view,
/// with dense layers or without.
pub const fn head_len(hidden: usize, dense: bool) -> (usize, usize) {
    if dense {
        (
            DENSE1 * hidden + DENSE2 * DENSE1 + DENSE2,
            DENSE1 + DENSE2 + 1,
        )
    } else {
        (2 * hidden, 1)
    }
}

/// The payload's length for a net of `buckets` blocks, `hidden` units a view and
/// `out_buckets` output layers, with dense layers or without (whose first layer's weights
/// take a byte each, the other weights two).
const fn payload_bytes(buckets: usize, hidden: usize, out_buckets: usize, dense: bool) -> usize {
    let (weights, biases) = head_len(hidden, dense);
    let bytes = if dense { DENSE1 * hidden } else { 0 };
    2 * (buckets * FEATURES * hidden + hidden)
        + out_buckets * (bytes + 2 * (weights - bytes) + 4 * biases)
}

pub struct Network {
    /// Blocks of features: 1, or `KING_BUCKETS` (see `features`).
    pub buckets: usize,
    /// Hidden units a view: one of `simd::WIDTHS`.
    pub hidden: usize,
    /// `buckets × FEATURES` rows of `hidden`.
    pub ft_weights: Box<[i16]>,
    /// `hidden` of them.
    pub ft_bias: Box<[i16]>,
    /// Output layers: 1, or `OUTPUT_BUCKETS` (see `features::output_bucket`).
    pub out_buckets: usize,
    pub head: Head,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dense = match self.head {
            Head::Linear { .. } => String::new(),
            Head::Dense(_) => format!("→{DENSE1}→{DENSE2}"),
        };
        write!(
            f,
            "Network({}×{FEATURES}→{}×2{dense}→{}×1, checksum {:08x})",
            self.buckets,
            self.hidden,
            self.out_buckets,
            self.checksum()
        )
    }
}

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    Truncated {
        len: usize,
        expected: usize,
    },
    BadMagic,
    Version(u32),
    Shape {
        features: u32,
        buckets: u32,
        hidden: u32,
        out_buckets: u32,
        dense: [u32; 2],
    },
    Quantisation {
        scale: u32,
        qft: u32,
        qa: u32,
        qb: u32,
    },
    Checksum {
        stored: u32,
        computed: u32,
    },
    /// Weights so large the integer arithmetic would overflow.
    OutOfRange,
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Truncated { len, expected } => {
                write!(
                    f,
                    "truncated or oversized: {len} bytes, expected {expected}"
                )
            }
            NetError::BadMagic => write!(f, "not a chuhan net (bad magic)"),
            NetError::Version(v) => write!(f, "format version {v}, this build reads {VERSION}"),
            NetError::Shape {
                features,
                buckets,
                hidden,
                out_buckets,
                dense,
            } => write!(
                f,
                "net shape {buckets}×{features}→{hidden}→{dense:?}→{out_buckets} output layers, \
                 this build reads 1 or {KING_BUCKETS} blocks of {FEATURES}→{WIDTHS:?}→[0, 0] or \
                 [{DENSE1}, {DENSE2}]→1 or {OUTPUT_BUCKETS}"
            ),
            NetError::Quantisation { scale, qft, qa, qb } => write!(
                f,
                "quantisation scale {scale} QFT {qft} QA {qa} QB {qb}, this build needs {SCALE} \
                 {QFT} {QA} {QB} (or QB {QD} with dense layers)"
            ),
            NetError::Checksum { stored, computed } => {
                write!(
                    f,
                    "checksum {computed:08x} does not match the stored {stored:08x}"
                )
            }
            NetError::OutOfRange => write!(f, "weights out of the range the arithmetic allows"),
        }
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// Reads little-endian words of a payload in order.
struct Words<'a>(&'a [u8]);

impl Words<'_> {
    fn i16s(&mut self, n: usize) -> Box<[i16]> {
        let (now, rest) = self.0.split_at(2 * n);
        self.0 = rest;
        now.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect()
    }

    fn i8s(&mut self, n: usize) -> Box<[i8]> {
        let (now, rest) = self.0.split_at(n);
        self.0 = rest;
        now.iter().map(|&b| b as i8).collect()
    }

    fn i32s(&mut self, n: usize) -> Box<[i32]> {
        let (now, rest) = self.0.split_at(4 * n);
        self.0 = rest;
        now.chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect()
    }
}

impl Network {
    fn is_dense(&self) -> bool {
        matches!(self.head, Head::Dense(_))
    }

    fn payload(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(payload_bytes(
            self.buckets,
            self.hidden,
            self.out_buckets,
            self.is_dense(),
        ));
        let (bytes, words, wides): (&[i8], Vec<&[i16]>, Vec<&[i32]>) = match &self.head {
            Head::Linear { weights, bias } => (&[], vec![weights], vec![bias]),
            Head::Dense(d) => (&d.w1, vec![&d.w2, &d.w3], vec![&d.b1, &d.b2, &d.b3]),
        };
        let ft = [&self.ft_weights[..], &self.ft_bias[..]];
        for w in ft.into_iter().flatten() {
            p.extend_from_slice(&w.to_le_bytes());
        }
        p.extend(bytes.iter().map(|&b| b as u8));
        for w in words.into_iter().flatten() {
            p.extend_from_slice(&w.to_le_bytes());
        }
        for b in wides.into_iter().flatten() {
            p.extend_from_slice(&b.to_le_bytes());
        }
        p
    }

    pub fn checksum(&self) -> u32 {
        fnv1a(&self.payload())
    }

    /// The file bytes of this net.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = self.payload();
        let (dense, qb) = if self.is_dense() {
            ([DENSE1 as u32, DENSE2 as u32], QD)
        } else {
            ([0, 0], QB)
        };
        let mut b = Vec::with_capacity(HEADER_BYTES + payload.len());
        b.extend_from_slice(&MAGIC);
        for v in [
            VERSION,
            FEATURES as u32,
            self.buckets as u32,
            self.hidden as u32,
            self.out_buckets as u32,
            dense[0],
            dense[1],
            SCALE as u32,
            QFT as u32,
            QA as u32,
            qb as u32,
            payload.len() as u32,
            fnv1a(&payload),
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&payload);
        b
    }

    /// Reads and checks a net file.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        if b.len() < 8 {
            return Err(NetError::Truncated {
                len: b.len(),
                expected: HEADER_BYTES,
            });
        }
        if b[..4] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let version = u32_at(b, 4);
        // Older versions lack fields: the fields after them sit earlier.
        let header = match version {
            VERSION | VERSION_SQUARED => HEADER_BYTES,
            VERSION_LINEAR => HEADER_BYTES - 8,
            VERSION_ONE_OUTPUT => HEADER_BYTES - 12,
            v => return Err(NetError::Version(v)),
        };
        if b.len() < header {
            return Err(NetError::Truncated {
                len: b.len(),
                expected: header,
            });
        }
        let (out_buckets, dense, rest) = match version {
            VERSION | VERSION_SQUARED => (u32_at(b, 20), [u32_at(b, 24), u32_at(b, 28)], 32),
            VERSION_LINEAR => (u32_at(b, 20), [0, 0], 24),
            _ => (1, [0, 0], 20),
        };
        let (features, buckets, hidden) = (u32_at(b, 8), u32_at(b, 12), u32_at(b, 16));
        let is_dense = dense == [DENSE1 as u32, DENSE2 as u32];
        if is_dense && version == VERSION_SQUARED {
            return Err(NetError::Version(version));
        }
        if features as usize != FEATURES
            || !WIDTHS.contains(&(hidden as usize))
            || ![1, KING_BUCKETS].contains(&(buckets as usize))
            || ![1, OUTPUT_BUCKETS].contains(&(out_buckets as usize))
            || !(is_dense || dense == [0, 0])
        {
            return Err(NetError::Shape {
                features,
                buckets,
                hidden,
                out_buckets,
                dense,
            });
        }
        let (buckets, hidden, out_buckets) =
            (buckets as usize, hidden as usize, out_buckets as usize);
        let payload_len = payload_bytes(buckets, hidden, out_buckets, is_dense);
        let expected = header + payload_len;
        let (scale, qft) = (u32_at(b, rest), u32_at(b, rest + 4));
        let (qa, qb) = (u32_at(b, rest + 8), u32_at(b, rest + 12));
        let head_q = if is_dense { QD } else { QB };
        if (scale as i32, qft as i32, qa as i32, qb as i32) != (SCALE, QFT, QA, head_q) {
            return Err(NetError::Quantisation { scale, qft, qa, qb });
        }
        if b.len() != expected || u32_at(b, rest + 16) as usize != payload_len {
            return Err(NetError::Truncated {
                len: b.len(),
                expected,
            });
        }
        let payload = &b[header..];
        let (stored, computed) = (u32_at(b, rest + 20), fnv1a(payload));
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let mut words = Words(payload);
        let ft_weights = words.i16s(buckets * FEATURES * hidden);
        let ft_bias = words.i16s(hidden);
        let head = if is_dense {
            let w1 = words.i8s(out_buckets * DENSE1 * hidden);
            let w2 = words.i16s(out_buckets * DENSE2 * DENSE1);
            let w3 = words.i16s(out_buckets * DENSE2);
            Head::Dense(Dense {
                w1,
                w2,
                w3,
                b1: words.i32s(out_buckets * DENSE1),
                b2: words.i32s(out_buckets * DENSE2),
                b3: words.i32s(out_buckets),
            })
        } else {
            let weights = words.i16s(out_buckets * 2 * hidden);
            Head::Linear {
                weights,
                bias: words.i32s(out_buckets),
            }
        };
        let net = Network {
            buckets,
            hidden,
            ft_weights,
            ft_bias,
            out_buckets,
            head,
        };
        if !net.in_range() {
            return Err(NetError::OutOfRange);
        }
        Ok(net)
    }

    /// Whether no accumulator (bias plus 32 features, and the rounding of the shift) can
    /// overflow `i16`, no output or dense weight the activation products, and no dense bias
    /// a layer's sum (8-bit weights are always in range).
    fn in_range(&self) -> bool {
        let max_w = self.ft_weights.iter().map(|w| i32::from(*w).abs()).max();
        let max_b = self.ft_bias.iter().map(|w| i32::from(*w).abs()).max();
        let small = |w: &[i16], max: i16| w.iter().all(|w| w.abs() <= max);
        let head = match &self.head {
            Head::Linear { weights, .. } => small(weights, MAX_OUTPUT_WEIGHT),
            Head::Dense(d) => {
                [&d.w2, &d.w3]
                    .into_iter()
                    .all(|w| small(w, MAX_DENSE_WEIGHT))
                    && [&d.b1, &d.b2, &d.b3]
                        .into_iter()
                        .flat_map(|b| b.iter())
                        .all(|b| b.abs() <= MAX_DENSE_BIAS)
            }
        };
        max_b.unwrap_or(0) + 32 * max_w.unwrap_or(0) + (1 << FT_SHIFT) <= i32::from(i16::MAX)
            && head
    }

    /// The hidden weights of one feature.
    #[inline(always)]
    pub fn row(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }
}

/// A net of `buckets` blocks, `hidden` units a view, `out_buckets` output layers, dense layers
/// or not, and pseudo-random weights within range (for tests).
#[cfg(test)]
pub fn random_net(
    seed: u64,
    buckets: usize,
    hidden: usize,
    out_buckets: usize,
    dense: bool,
) -> Network {
    let mut rng = crate::rng::Rng::new(seed);
    let mut w = |range: i32| (rng.below(2 * range as usize + 1) as i32 - range) as i16;
    let ft_weights = (0..buckets * FEATURES * hidden).map(|_| w(800)).collect();
    let ft_bias = (0..hidden).map(|_| w(3000)).collect();
    let mut words = |n: usize, range: i32| -> Box<[i16]> { (0..n).map(|_| w(range)).collect() };
    let head = if dense {
        let w1 = words(out_buckets * DENSE1 * hidden, 128)
            .iter()
            .map(|&w| w.clamp(-128, 127) as i8)
            .collect();
        let w2 = words(out_buckets * DENSE2 * DENSE1, 127);
        let w3 = words(out_buckets * DENSE2, 127);
        // Biases of a few activations' worth, so that some units are on and some off.
        let mut bias = |n: usize| -> Box<[i32]> {
            words(n, 1000).iter().map(|&b| i32::from(b) * 100).collect()
        };
        Head::Dense(Dense {
            w1,
            w2,
            w3,
            b1: bias(out_buckets * DENSE1),
            b2: bias(out_buckets * DENSE2),
            b3: bias(out_buckets),
        })
    } else {
        let weights = words(out_buckets * 2 * hidden, 127);
        Head::Linear {
            weights,
            bias: words(out_buckets, 10_000)
                .iter()
                .map(|&b| i32::from(b))
                .collect(),
        }
    };
    Network {
        buckets,
        hidden,
        ft_weights,
        ft_bias,
        out_buckets,
        head,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` with the header's 32-bit field at `at` set to `v`.
    fn with_field(bytes: &[u8], at: usize, v: u32) -> Vec<u8> {
        let mut b = bytes.to_vec();
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        b
    }

    #[test]
    fn a_net_round_trips_and_damage_is_refused() {
        for dense in [false, true] {
            let bucketed = random_net(6, KING_BUCKETS, 512, OUTPUT_BUCKETS, dense).to_bytes();
            let back = Network::from_bytes(&bucketed).unwrap();
            assert_eq!(
                (back.buckets, back.hidden, back.out_buckets, back.is_dense()),
                (KING_BUCKETS, 512, OUTPUT_BUCKETS, dense)
            );
            assert_eq!(back.to_bytes(), bucketed);
        }
        let net = random_net(5, 1, 256, 1, false);
        let bytes = net.to_bytes();
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Truncated { .. })
        ));
        assert!(matches!(
            Network::from_bytes(&bytes[..10]),
            Err(NetError::Truncated { .. })
        ));
        let mut flipped = bytes.clone();
        flipped[1000] ^= 1;
        assert!(matches!(
            Network::from_bytes(&flipped),
            Err(NetError::Checksum { .. })
        ));
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(Network::from_bytes(&magic).err(), Some(NetError::BadMagic));
        assert!(matches!(
            Network::from_bytes(&with_field(&bytes, 16, 128)),
            Err(NetError::Shape { hidden: 128, .. })
        ));
        assert!(matches!(
            Network::from_bytes(&with_field(&bytes, 12, 3)),
            Err(NetError::Shape { buckets: 3, .. })
        ));
        assert!(matches!(
            Network::from_bytes(&with_field(&bytes, 20, 5)),
            Err(NetError::Shape { out_buckets: 5, .. })
        ));
        assert!(matches!(
            Network::from_bytes(&with_field(&bytes, 24, 8)),
            Err(NetError::Shape { dense: [8, 0], .. })
        ));
        // One block's header on six blocks' payload, a width on another's, dense layers on a
        // payload without them: the length gives it away.
        assert!(matches!(
            Network::from_bytes(&with_field(&bytes, 12, KING_BUCKETS as u32)),
            Err(NetError::Truncated { .. })
        ));
        assert!(matches!(
            Network::from_bytes(&with_field(&bytes, 16, 512)),
            Err(NetError::Truncated { .. })
        ));
        let dense = with_field(&with_field(&bytes, 24, DENSE1 as u32), 28, DENSE2 as u32);
        assert!(matches!(
            Network::from_bytes(&with_field(&dense, 44, QD as u32)),
            Err(NetError::Truncated { .. })
        ));
        // Dense layers want their own quantisation.
        assert!(matches!(
            Network::from_bytes(&dense),
            Err(NetError::Quantisation { .. })
        ));
    }

    #[test]
    fn versions_3_and_4_read_as_nets_without_dense_layers() {
        let net = random_net(7, KING_BUCKETS, 256, OUTPUT_BUCKETS, false);
        let v6 = net.to_bytes();
        // Version 4: no dense-layer fields, the rest the same.
        let mut v4 = with_field(&v6[..24], 4, 4);
        v4.extend_from_slice(&v6[32..]);
        let back = Network::from_bytes(&v4).unwrap();
        assert_eq!((back.out_buckets, back.to_bytes()), (OUTPUT_BUCKETS, v6));
        // Version 3: no output-bucket field either, always one output layer.
        let net = random_net(7, KING_BUCKETS, 256, 1, false);
        let v6 = net.to_bytes();
        let mut v3 = with_field(&v6[..20], 4, 3);
        v3.extend_from_slice(&v6[32..]);
        let back = Network::from_bytes(&v3).unwrap();
        assert_eq!((back.out_buckets, back.to_bytes()), (1, v6));
        assert_eq!(
            Network::from_bytes(&with_field(&v3, 4, 7)).err(),
            Some(NetError::Version(7))
        );
    }

    #[test]
    fn version_5_reads_only_without_dense_layers() {
        let linear = random_net(9, 1, 256, OUTPUT_BUCKETS, false).to_bytes();
        let back = Network::from_bytes(&with_field(&linear, 4, 5)).unwrap();
        assert_eq!(back.to_bytes(), linear);
        // Its dense layers read squared activations, which this build no longer computes.
        let dense = random_net(9, 1, 256, OUTPUT_BUCKETS, true).to_bytes();
        assert!(Network::from_bytes(&dense).is_ok());
        assert_eq!(
            Network::from_bytes(&with_field(&dense, 4, 5)).err(),
            Some(NetError::Version(5))
        );
    }
}
