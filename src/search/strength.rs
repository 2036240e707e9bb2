//! Playing strength limited for people (`UCI_LimitStrength`, `UCI_Elo`, `chuhan play --elo`):
//! a weaker player sees less and judges worse, so the search gets fewer nodes (shallower, deep
//! tactics missed) and a noisier evaluation. The noise is fixed per position for a game, so the
//! search stays consistent with itself, and drawn afresh each game, so games vary.
//!
//! One skill number from 0 to [`MAX_SKILL`] sets both; the Elo scale maps onto skill through
//! the games in [`CALIBRATION`].

/// The strongest limited skill; above it the engine plays at full strength.
pub const MAX_SKILL: f64 = 20.0;

/// Skills whose Elo was measured by games, weakest first: (skill, Elo), on a scale where
/// ElephantEye 3.31 at full strength, book off, at 10+0.1 is 2000 (STRENGTH.md, "Strength
/// limiting", has the matches and the intervals; `scripts/strength-ladder.sh` reruns them).
/// Skills 0 to 8 measured below 0 on that scale with net 1: they play close to random moves and
/// are not offered.
pub const CALIBRATION: [(f64, f64); 10] = [
    (9.0, 918.0),
    (10.0, 1090.0),
    (11.0, 1270.0),
    (12.0, 1382.0),
    (13.0, 1487.0),
    (14.0, 1682.0),
    (15.0, 1813.0),
    (16.0, 1951.0),
    (18.0, 2187.0),
    (20.0, 2431.0),
];

/// The Elo range `UCI_Elo` accepts: the calibrated one.
pub const MIN_ELO: u64 = CALIBRATION[0].1 as u64;
pub const MAX_ELO: u64 = CALIBRATION[CALIBRATION.len() - 1].1 as u64;

/// Noise added to the evaluation: up to `size` centipawns, fixed per position by `seed`
/// (size 0: none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Noise {
    pub size: i32,
    pub seed: u64,
}

/// How a limited search is weakened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// Nodes searched per move at most.
    pub nodes: u64,
    /// The evaluation noise's largest size, centipawns.
    pub noise_cp: i32,
}

impl Strength {
    /// The weakening of a skill (clamped to 0..=`MAX_SKILL`).
    pub fn of_skill(skill: f64) -> Strength {
        let s = skill.clamp(0.0, MAX_SKILL);
        let weak = 1.0 - s / MAX_SKILL;
        Strength {
            nodes: 2f64.powf(5.0 + 0.6 * s).round() as u64,
            noise_cp: (400.0 * weak * weak).round() as i32,
        }
    }

    /// The weakening whose measured Elo is `elo` (interpolated between calibrated skills).
    pub fn of_elo(elo: u64) -> Strength {
        Strength::of_skill(skill_of_elo(elo as f64))
    }
}

/// The skill of an Elo, linear between the calibrated points and clamped to their range.
pub fn skill_of_elo(elo: f64) -> f64 {
    let (first, last) = (CALIBRATION[0], CALIBRATION[CALIBRATION.len() - 1]);
    if elo <= first.1 {
        return first.0;
    }
    CALIBRATION
        .windows(2)
        .find(|w| elo <= w[1].1)
        .map_or(last.0, |w| {
            let ((s0, e0), (s1, e1)) = (w[0], w[1]);
            s0 + (s1 - s0) * (elo - e0) / (e1 - e0)
        })
}

/// The evaluation noise of a position: a triangular spread in `-size..=size`, fixed by the key
/// and the game's seed.
#[inline]
pub fn noise(key: u64, seed: u64, size: i32) -> i32 {
    // SplitMix64's finaliser: every key bit moves every output bit.
    let mut z = key ^ seed;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    let span = 2 * size as u64 + 1;
    let (a, b) = ((z & 0xffff_ffff) % span, (z >> 32) % span);
    ((a + b) as i32 - 2 * size) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_skill_means_more_nodes_and_less_noise() {
        let mut last = Strength::of_skill(0.0);
        for s in 1..=20 {
            let st = Strength::of_skill(f64::from(s));
            assert!(st.nodes > last.nodes && st.noise_cp <= last.noise_cp, "{s}");
            last = st;
        }
        assert_eq!(last.noise_cp, 0);
    }

    #[test]
    fn elo_maps_onto_the_calibrated_skills() {
        for (skill, elo) in CALIBRATION {
            assert!((skill_of_elo(elo) - skill).abs() < 1e-9);
        }
        assert!(
            CALIBRATION
                .windows(2)
                .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1)
        );
        assert_eq!(CALIBRATION[CALIBRATION.len() - 1].0, MAX_SKILL);
        assert_eq!(skill_of_elo(0.0), CALIBRATION[0].0);
        assert_eq!(skill_of_elo(1e9), MAX_SKILL);
        let mid = (CALIBRATION[1].1 + CALIBRATION[2].1) / 2.0;
        let s = skill_of_elo(mid);
        assert!(s > CALIBRATION[1].0 && s < CALIBRATION[2].0);
    }

    #[test]
    fn noise_is_bounded_centred_and_fixed_by_key_and_seed() {
        let size = 100;
        let (mut sum, mut extreme) = (0i64, 0);
        for key in 0..20_000u64 {
            let n = noise(key.wrapping_mul(0x9e37_79b9_7f4a_7c15), 7, size);
            assert!((-size..=size).contains(&n));
            assert_eq!(n, noise(key.wrapping_mul(0x9e37_79b9_7f4a_7c15), 7, size));
            sum += i64::from(n);
            extreme = extreme.max(n.abs());
        }
        assert!(sum.abs() < 20_000 * 3, "mean {}", sum / 20_000);
        assert!(extreme > size * 9 / 10);
        assert_ne!(
            (0..64).map(|k| noise(k, 1, size)).collect::<Vec<_>>(),
            (0..64).map(|k| noise(k, 2, size)).collect::<Vec<_>>()
        );
        assert_eq!(noise(12345, 6, 0), 0);
    }
}
