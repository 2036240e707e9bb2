//! The project's random numbers, all reproducible from a seed but one: xorshift64* for
//! self-play openings and training (the data files' games depend on it), splitmix64 for
//! shuffles, book walks and draws (match openings depend on it), and a per-process seed for
//! what should differ from run to run.

/// A small, fixed pseudo-random generator (xorshift64*), so openings are reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// The generator of game `index` of a run seeded with `seed`.
    pub fn for_game(seed: u64, index: u64) -> Rng {
        Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }
}

/// A reproducible shuffle (splitmix64-driven Fisher-Yates), so `--seed` fixes the order.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed;
    for i in (1..items.len()).rev() {
        let j = (splitmix64(&mut state) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// The splitmix64 generator: small, fast and good enough for shuffles and sampling.
pub fn splitmix64(state: &mut u64) -> u64 {
    let (next, value) = splitmix64_step(*state);
    *state = next;
    value
}

/// One splitmix64 step as a `const fn` (the Zobrist keys are made with it at compile time):
/// the next state and the value drawn.
pub const fn splitmix64_step(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// A seed that differs from run to run (std's hasher keys are random per process and per call).
pub fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_is_a_reproducible_permutation() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        a.sort_unstable();
        assert_eq!(a, (0..50).collect::<Vec<_>>());
    }
}
