//! A run split over machines: shard K of N plays the K-th of N contiguous parts of the run's
//! games (datagen's games, a match's opening pairs), the same games the whole run plays.

use std::fmt;
use std::ops::Range;

/// Shard `index` (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Reads `K/N`, 1 ≤ K ≤ N.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not a shard K/N with 1 <= K <= N");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard's part of `0..items`: contiguous, so the shards in order are the whole.
    pub fn part(self, items: u64) -> Range<u64> {
        let at = |i: u64| (u128::from(items) * u128::from(i) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_games_into_contiguous_ranges() {
        let parts: Vec<_> = (1..=3)
            .map(|k| Shard { index: k, count: 3 }.part(10))
            .collect();
        assert_eq!(parts, [0..3, 3..6, 6..10]);
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
