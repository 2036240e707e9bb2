//! The net and its file format.
//!
//! A file is a 44-byte header, then the payload, all little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 0–3 | magic `CHNN` |
//! | 4–7 | format version (3) |
//! | 8–11 | input features of one block (1260) |
//! | 12–15 | king buckets: blocks of features (1, or 6 by the king's point; `features`) |
//! | 16–19 | hidden units per view |
//! | 20–23 | output scale (centipawns per unit of the net's output) |
//! | 24–27, 28–31, 32–35 | QFT, QA, QB |
//! | 36–39 | payload length in bytes |
//! | 40–43 | FNV-1a (32-bit) checksum of the payload |
//!
//! Version 2 was version 3 without bytes 12–15, always one block: net 2's file gained them
//! unchanged otherwise.
//!
//! Payload: the feature weights (`i16`, one row of hidden weights per feature of every block), the hidden
//! biases (`i16`), the output weights (`i16`, the side to move's view first), the output bias
//! (`i32`). Feature weights and biases carry QFT (= 4 · QA: finer than the activations, as the
//! rounding of small weights adds up over many units), activations QA, output weights QB, the
//! output bias QA · QB.

use std::fmt;

use crate::checksum::fnv1a;

use super::features::{FEATURES, KING_BUCKETS};

pub const HIDDEN: usize = 256;
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
pub const VERSION: u32 = 3;
const HEADER_BYTES: usize = 44;

/// The payload's length for a net of `buckets` blocks.
const fn payload_bytes(buckets: usize) -> usize {
    2 * (buckets * FEATURES * HIDDEN + HIDDEN + 2 * HIDDEN) + 4
}
/// Output weights beyond this would overflow the activation products.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

pub struct Network {
    /// Blocks of features: 1, or `KING_BUCKETS` (see `features`).
    pub buckets: usize,
    /// `buckets × FEATURES` rows of `HIDDEN`.
    pub ft_weights: Box<[i16]>,
    pub ft_bias: Box<[i16; HIDDEN]>,
    /// The side to move's view, then the other's.
    pub out_weights: Box<[i16]>,
    pub out_bias: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({}×{FEATURES}→{HIDDEN}×2→1, checksum {:08x})",
            self.buckets,
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
            } => write!(
                f,
                "net shape {buckets}×{features}→{hidden}, this build reads 1×{FEATURES}→{HIDDEN} \
                 or {KING_BUCKETS}×{FEATURES}→{HIDDEN}"
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
        let mut p = Vec::with_capacity(payload_bytes(self.buckets));
        for w in self.ft_weights.iter().chain(self.ft_bias.iter()) {
            p.extend_from_slice(&w.to_le_bytes());
        }
        for w in self.out_weights.iter() {
            p.extend_from_slice(&w.to_le_bytes());
        }
        p.extend_from_slice(&self.out_bias.to_le_bytes());
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
            HIDDEN as u32,
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
        if version != VERSION {
            return Err(NetError::Version(version));
        }
        let (features, buckets, hidden) = (u32_at(b, 8), u32_at(b, 12), u32_at(b, 16));
        if features as usize != FEATURES
            || hidden as usize != HIDDEN
            || ![1, KING_BUCKETS].contains(&(buckets as usize))
        {
            return Err(NetError::Shape {
                features,
                buckets,
                hidden,
            });
        }
        let buckets = buckets as usize;
        let payload_len = payload_bytes(buckets);
        let expected = HEADER_BYTES + payload_len;
        let (scale, qft) = (u32_at(b, 20), u32_at(b, 24));
        let (qa, qb) = (u32_at(b, 28), u32_at(b, 32));
        if (scale as i32, qft as i32, qa as i32, qb as i32) != (SCALE, QFT, QA, QB) {
            return Err(NetError::Quantisation { scale, qft, qa, qb });
        }
        if b.len() != expected || u32_at(b, 36) as usize != payload_len {
            return Err(NetError::Truncated {
                len: b.len(),
                expected,
            });
        }
        let payload = &b[HEADER_BYTES..];
        let (stored, computed) = (u32_at(b, 40), fnv1a(payload));
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let mut words = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let ft_weights: Box<[i16]> = words.by_ref().take(buckets * FEATURES * HIDDEN).collect();
        let ft_bias: Vec<i16> = words.by_ref().take(HIDDEN).collect();
        let out_weights: Box<[i16]> = words.by_ref().take(2 * HIDDEN).collect();
        let out_bias = i32::from_le_bytes(payload[payload_len - 4..].try_into().expect("4"));
        let net = Network {
            buckets,
            ft_weights,
            ft_bias: ft_bias
                .into_boxed_slice()
                .try_into()
                .expect("HIDDEN biases"),
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
        &self.ft_weights[feature * HIDDEN..(feature + 1) * HIDDEN]
    }
}

/// A net of `buckets` blocks and pseudo-random weights within range (for tests).
#[cfg(test)]
pub fn random_net(seed: u64, buckets: usize) -> Network {
    let mut rng = crate::rng::Rng::new(seed);
    let mut w = |range: i32| (rng.below(2 * range as usize + 1) as i32 - range) as i16;
    Network {
        buckets,
        ft_weights: (0..buckets * FEATURES * HIDDEN).map(|_| w(800)).collect(),
        ft_bias: Box::new([0; HIDDEN].map(|_: i16| w(3000))),
        out_weights: (0..2 * HIDDEN).map(|_| w(127)).collect(),
        out_bias: i32::from(w(10_000)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_net_round_trips_and_damage_is_refused() {
        let bucketed = random_net(6, KING_BUCKETS).to_bytes();
        let back = Network::from_bytes(&bucketed).unwrap();
        assert_eq!((back.buckets, back.to_bytes()), (KING_BUCKETS, bucketed));
        let net = random_net(5, 1);
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
        let mut shape = bytes.clone();
        shape[16..20].copy_from_slice(&128u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&shape),
            Err(NetError::Shape { hidden: 128, .. })
        ));
        let mut blocks = bytes.clone();
        blocks[12..16].copy_from_slice(&3u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&blocks),
            Err(NetError::Shape { buckets: 3, .. })
        ));
        // One block's header on six blocks' payload: the length gives it away.
        let mut six = bytes.clone();
        six[12..16].copy_from_slice(&(KING_BUCKETS as u32).to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&six),
            Err(NetError::Truncated { .. })
        ));
    }
}
