//! The move-limit fading of an evaluation: a lead that makes no progress is worth less as the
//! plies without capture near the game's move limit, and nothing at twice the limit.

/// How evaluations fade under one game's move limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fade {
    /// Plies without capture at which an evaluation has faded to nothing (twice the move
    /// limit); 0 when the game has no move limit.
    plies: i32,
}

impl Fade {
    /// The fading under a move limit in plies without capture (0: none).
    pub fn for_move_limit(move_limit: u32) -> Fade {
        Fade {
            plies: 2 * move_limit.min(u32::from(u16::MAX)) as i32,
        }
    }

    /// `v` after `halfmove_clock` plies without capture.
    #[inline(always)]
    pub fn apply(self, v: i32, halfmove_clock: u16) -> i32 {
        if self.plies == 0 {
            return v;
        }
        let left = (self.plies - i32::from(halfmove_clock)).max(0);
        v * left / self.plies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lead_fades_linearly_to_nothing_at_twice_the_limit() {
        let fade = Fade::for_move_limit(120);
        assert_eq!(fade.apply(300, 0), 300);
        assert_eq!(fade.apply(300, 120), 150);
        assert_eq!(fade.apply(-300, 60), -225);
        assert_eq!(fade.apply(300, 240), 0);
        assert_eq!(fade.apply(300, 400), 0);
        let none = Fade::for_move_limit(0);
        assert_eq!(none.apply(300, 400), 300);
        assert_eq!(none, Fade::default());
    }
}
