//! The net and its file format.
//!
//! A file is a 48-byte header, then the payload, all little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 0–3 | magic `CHNN` |
//! | 4–7 | format version (4) |
//! | 8–11 | input features of one block (1260) |
//! | 12–15 | king buckets: blocks of features (1, or 6 by the king's point; `features`) |
//! | 16–19 | hidden units per view (256 or 512) |
//! | 20–23 | output buckets: output layers (1, or 8 by material; `features`) |
//! | 24–27 | output scale (centipawns per unit of the net's output) |
//! | 28–31, 32–35, 36–39 | QFT, QA, QB |
//! | 40–43 | payload length in bytes |
//! | 44–47 | FNV-1a (32-bit) checksum of the payload |
//!
//! Version 3 is version 4 without bytes 20–23, always one output layer (net 2's file and the
//! first nets of generation 3); it is still read. Version 2 was version 3 without bytes 12–15.
//!
//! Payload: the feature weights (`i16`, one row of hidden weights per feature of every block),
//! the hidden biases (`i16`), the output weights (`i16`, per output layer the side to move's
//! view first), the output biases (`i32`, one per output layer). Feature weights and biases
//! carry QFT (= 4 · QA: finer than the activations, as the rounding of small weights adds up
//! over many units), activations QA, output weights QB, the output biases QA · QB.

use std::fmt;

use crate::checksum::fnv1a;

use super::features::{FEATURES, KING_BUCKETS, OUTPUT_BUCKETS};
use super::simd::WIDTHS;

/// Quantisation of the feature weights and sums; activations drop `FT_SHIFT` bits of it.
pub const QFT: i32 = QA << FT_SHIFT;
pub const FT_SHIFT: u32 = 2;
/// Quantisation of the activations (an activation of 1.0 is QA).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 256;
/// Centipawns per unit of the net's output.
pub const SCALE: i32 = 400;
pub const MAGIC: [u8; 4] = *b"CHNN";
pub const VERSION: u32 = 4;
/// The version before output buckets, still read.
const VERSION_ONE_OUTPUT: u32 = 3;
const HEADER_BYTES: usize = 48;

/// The payload's length for a net of `buckets` blocks, `hidden` units a view and
/// `out_buckets` output layers.
const fn payload_bytes(buckets: usize, hidden: usize, out_buckets: usize) -> usize {
    2 * (buckets * FEATURES * hidden + hidden + out_buckets * 2 * hidden) + 4 * out_buckets
}
/// Output weights beyond this would overflow the activation products.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

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
    /// Per output layer, the side to move's view, then the other's.
    pub out_weights: Box<[i16]>,
    /// One per output layer.
    pub out_bias: Box<[i32]>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({}×{FEATURES}→{}×2→{}×1, checksum {:08x})",
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
            } => write!(
                f,
                "net shape {buckets}×{features}→{hidden}→{out_buckets} output layers, this build \
                 reads 1 or {KING_BUCKETS} blocks of {FEATURES}→{WIDTHS:?}→1 or {OUTPUT_BUCKETS}"
            ),
            NetError::Quantisation { scale, qft, qa, qb } => write!(
                f,
                "quantisation scale {scale} QFT {qft} QA {qa} QB {qb}, this build needs {SCALE} {QFT} {QA} {QB}"
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

impl Network {
    fn payload(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(payload_bytes(self.buckets, self.hidden, self.out_buckets));
        for w in self.ft_weights.iter().chain(self.ft_bias.iter()) {
            p.extend_from_slice(&w.to_le_bytes());
        }
        for w in self.out_weights.iter() {
            p.extend_from_slice(&w.to_le_bytes());
        }
        for b in self.out_bias.iter() {
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
        let mut b = Vec::with_capacity(HEADER_BYTES + payload.len());
        b.extend_from_slice(&MAGIC);
        for v in [
            VERSION,
            FEATURES as u32,
            self.buckets as u32,
            self.hidden as u32,
            self.out_buckets as u32,
            SCALE as u32,
            QFT as u32,
            QA as u32,
            QB as u32,
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
        if b.len() < HEADER_BYTES {
            return Err(NetError::Truncated {
                len: b.len(),
                expected: HEADER_BYTES,
            });
        }
        if b[..4] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let version = u32_at(b, 4);
        // Version 3 has no output-bucket field: the fields after it sit 4 bytes earlier.
        let (header, out_buckets, rest) = match version {
            VERSION => (HEADER_BYTES, u32_at(b, 20), 24),
            VERSION_ONE_OUTPUT => (HEADER_BYTES - 4, 1, 20),
            v => return Err(NetError::Version(v)),
        };
        let (features, buckets, hidden) = (u32_at(b, 8), u32_at(b, 12), u32_at(b, 16));
        if features as usize != FEATURES
            || !WIDTHS.contains(&(hidden as usize))
            || ![1, KING_BUCKETS].contains(&(buckets as usize))
            || ![1, OUTPUT_BUCKETS].contains(&(out_buckets as usize))
        {
            return Err(NetError::Shape {
                features,
                buckets,
                hidden,
                out_buckets,
            });
        }
        let (buckets, hidden, out_buckets) =
            (buckets as usize, hidden as usize, out_buckets as usize);
        let payload_len = payload_bytes(buckets, hidden, out_buckets);
        let expected = header + payload_len;
        let (scale, qft) = (u32_at(b, rest), u32_at(b, rest + 4));
        let (qa, qb) = (u32_at(b, rest + 8), u32_at(b, rest + 12));
        if (scale as i32, qft as i32, qa as i32, qb as i32) != (SCALE, QFT, QA, QB) {
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
        let mut words = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let ft_weights: Box<[i16]> = words.by_ref().take(buckets * FEATURES * hidden).collect();
        let ft_bias: Box<[i16]> = words.by_ref().take(hidden).collect();
        let out_weights: Box<[i16]> = words.by_ref().take(out_buckets * 2 * hidden).collect();
        let out_bias: Box<[i32]> = payload[payload_len - 4 * out_buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        let net = Network {
            buckets,
            hidden,
            ft_weights,
            ft_bias,
            out_buckets,
            out_weights,
            out_bias,
        };
        if !net.in_range() {
            return Err(NetError::OutOfRange);
        }
        Ok(net)
    }

    /// Whether no accumulator (bias plus 32 features, and the rounding of the shift) can
    /// overflow `i16` and no output weight the activation products.
    fn in_range(&self) -> bool {
        let max_w = self.ft_weights.iter().map(|w| i32::from(*w).abs()).max();
        let max_b = self.ft_bias.iter().map(|w| i32::from(*w).abs()).max();
        max_b.unwrap_or(0) + 32 * max_w.unwrap_or(0) + (1 << FT_SHIFT) <= i32::from(i16::MAX)
            && self
                .out_weights
                .iter()
                .all(|w| w.abs() <= MAX_OUTPUT_WEIGHT)
    }

    /// The hidden weights of one feature.
    #[inline(always)]
    pub fn row(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The weights of output layer `bucket`: the side to move's view, then the other's.
    #[inline(always)]
    pub fn output(&self, bucket: usize) -> &[i16] {
        let h = self.hidden;
        &self.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h]
    }
}

/// A net of `buckets` blocks, `hidden` units a view, `out_buckets` output layers and
/// pseudo-random weights within range (for tests).
#[cfg(test)]
pub fn random_net(seed: u64, buckets: usize, hidden: usize, out_buckets: usize) -> Network {
    let mut rng = crate::rng::Rng::new(seed);
    let mut w = |range: i32| (rng.below(2 * range as usize + 1) as i32 - range) as i16;
    Network {
        buckets,
        hidden,
        ft_weights: (0..buckets * FEATURES * hidden).map(|_| w(800)).collect(),
        ft_bias: (0..hidden).map(|_| w(3000)).collect(),
        out_buckets,
        out_weights: (0..out_buckets * 2 * hidden).map(|_| w(127)).collect(),
        out_bias: (0..out_buckets).map(|_| i32::from(w(10_000))).collect(),
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
        let bucketed = random_net(6, KING_BUCKETS, 512, OUTPUT_BUCKETS).to_bytes();
        let back = Network::from_bytes(&bucketed).unwrap();
        assert_eq!(
            (back.buckets, back.hidden, back.out_buckets, back.to_bytes()),
            (KING_BUCKETS, 512, OUTPUT_BUCKETS, bucketed)
        );
        let net = random_net(5, 1, 256, 1);
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
        // One block's header on six blocks' payload, or a width on another's: the length
        // gives it away.
        assert!(matches!(
            Network::from_bytes(&with_field(&bytes, 12, KING_BUCKETS as u32)),
            Err(NetError::Truncated { .. })
        ));
        assert!(matches!(
            Network::from_bytes(&with_field(&bytes, 16, 512)),
            Err(NetError::Truncated { .. })
        ));
    }

    #[test]
    fn a_version_3_file_reads_as_one_output_layer() {
        let net = random_net(7, KING_BUCKETS, 256, 1);
        let v4 = net.to_bytes();
        // Version 3: no output-bucket field, the rest the same.
        let mut v3 = with_field(&v4[..20], 4, 3);
        v3.extend_from_slice(&v4[24..]);
        let back = Network::from_bytes(&v3).unwrap();
        assert_eq!((back.out_buckets, back.to_bytes()), (1, v4));
        assert_eq!(
            Network::from_bytes(&with_field(&v3, 4, 5)).err(),
            Some(NetError::Version(5))
        );
    }
}
