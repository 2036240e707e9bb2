//! A position's verdict from the side to move, with its distance to mate in plies, and the
//! byte a table keeps it in: 0 a draw, 1..=127 a win in 1, 3, … 253 plies, 128..=253 a loss in
//! 0, 2, … 250 plies (0: mated or stalemated now), 255 no position (two pieces on one point,
//! or the side not to move in check).

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Mates in this many plies (odd) against any defence.
    Win(u16),
    /// Is mated in this many plies (even) against the best play.
    Loss(u16),
    /// Neither side can force mate (cycles count as draws).
    Draw,
}

pub const NO_POSITION: u8 = 255;
/// Longest win a byte holds.
const MAX_WIN: u16 = 253;
/// Longest loss a byte holds.
pub const MAX_LOSS: u16 = 250;

impl Verdict {
    pub fn to_byte(self) -> u8 {
        match self {
            Verdict::Draw => 0,
            Verdict::Win(n) => {
                assert!(n % 2 == 1 && n <= MAX_WIN, "win in {n} plies");
                n.div_ceil(2) as u8
            }
            Verdict::Loss(n) => {
                assert!(n.is_multiple_of(2) && n <= MAX_LOSS, "loss in {n} plies");
                128 + (n / 2) as u8
            }
        }
    }

    /// `None` for `NO_POSITION` (and for 254, which no table holds).
    pub fn from_byte(b: u8) -> Option<Verdict> {
        match b {
            0 => Some(Verdict::Draw),
            1..=127 => Some(Verdict::Win(2 * u16::from(b) - 1)),
            128..=253 => Some(Verdict::Loss(2 * u16::from(b - 128))),
            _ => None,
        }
    }

    /// The verdict of the position before a move that led here, for the side that made it.
    pub fn before_move(self) -> Verdict {
        match self {
            Verdict::Loss(n) => Verdict::Win(n + 1),
            Verdict::Win(n) => Verdict::Loss(n + 1),
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// How the side to move likes it: sooner wins, then draws, then later losses.
    fn preference(self) -> i32 {
        match self {
            Verdict::Win(n) => 1000 - i32::from(n),
            Verdict::Draw => 0,
            Verdict::Loss(n) => -1000 + i32::from(n),
        }
    }

    /// The better of two verdicts for the side to move.
    pub fn better(self, other: Verdict) -> Verdict {
        if other.preference() > self.preference() {
            other
        } else {
            self
        }
    }

    /// Whether the verdict holds under a move limit of `move_limit` plies without a capture
    /// (0: none) with `clock` of them played: a draw, or a mate that comes by the limit.
    pub fn within(self, move_limit: u32, clock: u32) -> bool {
        match self.plies() {
            Some(n) if move_limit > 0 => clock + u32::from(n) <= move_limit,
            _ => true,
        }
    }

    /// Plies to mate, when there is one.
    pub fn plies(self) -> Option<u16> {
        match self {
            Verdict::Win(n) | Verdict::Loss(n) => Some(n),
            Verdict::Draw => None,
        }
    }
}

impl fmt::Display for Verdict {
    /// `win in N`, `loss in N` (moves of the side to move, as a GUI says mate in N) or `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plies = |n: u16| if n == 1 { "ply" } else { "plies" };
        match *self {
            Verdict::Win(n) => write!(f, "win in {} ({n} {})", n.div_ceil(2), plies(n)),
            Verdict::Loss(n) => write!(f, "loss in {} ({n} {})", n / 2, plies(n)),
            Verdict::Draw => write!(f, "draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verdict_fits_a_byte_and_reads_back() {
        let all = (0..=MAX_WIN / 2)
            .map(|k| Verdict::Win(2 * k + 1))
            .chain((0..=MAX_LOSS / 2).map(|k| Verdict::Loss(2 * k)))
            .chain([Verdict::Draw]);
        let mut bytes = std::collections::HashSet::new();
        for v in all {
            let b = v.to_byte();
            assert_ne!(b, NO_POSITION);
            assert!(bytes.insert(b));
            assert_eq!(Verdict::from_byte(b), Some(v));
        }
        assert_eq!(Verdict::from_byte(NO_POSITION), None);
    }

    #[test]
    fn sooner_wins_and_later_losses_are_better() {
        assert_eq!(Verdict::Win(3).better(Verdict::Win(5)), Verdict::Win(3));
        assert_eq!(Verdict::Loss(2).better(Verdict::Loss(8)), Verdict::Loss(8));
        assert_eq!(Verdict::Loss(8).better(Verdict::Draw), Verdict::Draw);
        assert_eq!(Verdict::Loss(0).before_move(), Verdict::Win(1));
        assert_eq!(Verdict::Win(1).before_move(), Verdict::Loss(2));
    }

    #[test]
    fn a_mate_holds_only_when_it_comes_by_the_move_limit() {
        assert!(Verdict::Win(9).within(120, 111));
        assert!(!Verdict::Win(9).within(120, 112));
        assert!(!Verdict::Loss(10).within(120, 111));
        assert!(Verdict::Draw.within(120, 119));
        assert!(Verdict::Win(253).within(0, 500));
    }
}
