//! Zobrist keys, generated at compile time from a fixed seed so every build hashes alike.

use super::types::{Color, Piece, Square};
use crate::rng::splitmix64_step;

/// The keys' SplitMix64 seed: arbitrary, but it must never change (opening books and test
/// expectations may depend on the keys).
const SEED: u64 = 0x6368_7568_616e_2121; // "chuhan!!"

const fn build() -> ([[u64; Square::COUNT]; Piece::CODES], u64) {
    let mut keys = [[0u64; Square::COUNT]; Piece::CODES];
    let mut state = SEED;
    let mut p = 1;
    while p < Piece::CODES {
        let mut s = 0;
        while s < Square::COUNT {
            let (ns, v) = splitmix64_step(state);
            state = ns;
            keys[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64_step(state);
    (keys, side)
}

const TABLES: ([[u64; Square::COUNT]; Piece::CODES], u64) = build();

/// Key of a piece standing on a square (zero for no piece).
#[inline(always)]
pub fn piece_key(p: Piece, sq: Square) -> u64 {
    TABLES.0[p.code()][sq.index()]
}

/// XORed in when Black is to move.
pub const SIDE_KEY: u64 = TABLES.1;

/// The key contribution of the side to move.
#[inline(always)]
pub fn side_key(c: Color) -> u64 {
    match c {
        Color::Red => 0,
        Color::Black => SIDE_KEY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::types::PieceType;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all = vec![SIDE_KEY];
        for c in Color::BOTH {
            for k in PieceType::ALL {
                for s in 0..Square::COUNT {
                    all.push(piece_key(Piece::new(c, k), Square::from_index(s)));
                }
            }
        }
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert!(all.iter().all(|&k| k != 0));
        assert_eq!(piece_key(Piece::NONE, Square::from_index(5)), 0);
    }
}
