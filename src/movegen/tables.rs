//! Precomputed move and attack tables, built at compile time.
//!
//! Short-range pieces get per-square target lists (with the horse leg or elephant eye that can
//! block them). Rooks and cannons use rank/file occupancy masks: one lookup gives the empty
//! squares a slider can reach and the first and second blockers in each direction.

use crate::board::{Color, Square};

/// Up to eight targets from one square, each with the square that must be empty for the move
/// (horse leg, elephant eye; unused for other pieces).
#[derive(Clone, Copy)]
pub struct Steps {
    pub len: u8,
    pub to: [u8; 8],
    pub block: [u8; 8],
}

impl Steps {
    const EMPTY: Steps = Steps {
        len: 0,
        to: [0; 8],
        block: [0; 8],
    };

    const fn push(mut self, to: i32, block: i32) -> Steps {
        self.to[self.len as usize] = to as u8;
        self.block[self.len as usize] = block as u8;
        self.len += 1;
        self
    }

    /// The targets as a bitboard.
    pub const fn targets(&self) -> u128 {
        let mut m = 0;
        let mut i = 0;
        while i < self.len as usize {
            m |= 1u128 << self.to[i];
            i += 1;
        }
        m
    }

    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        (0..self.len as usize).map(move |i| {
            (
                Square::from_index(self.to[i] as usize),
                Square::from_index(self.block[i] as usize),
            )
        })
    }
}

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn sq(f: i32, r: i32) -> i32 {
    r * 9 + f
}

const fn in_palace(f: i32, r: i32) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// One step in each of `dirs`, staying inside the same palace (king: orthogonal, advisor:
/// diagonal).
const fn build_palace_steps(dirs: [(i32, i32); 4]) -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        if in_palace(f, r) {
            let mut i = 0;
            while i < 4 {
                let (nf, nr) = (f + dirs[i].0, r + dirs[i].1);
                // Same palace: ranks must stay on the same side.
                if on_board(nf, nr) && in_palace(nf, nr) && (nr <= 2) == (r <= 2) {
                    t[s as usize] = t[s as usize].push(sq(nf, nr), 0);
                }
                i += 1;
            }
        }
        s += 1;
    }
    t
}

const fn build_elephant() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        let mut i = 0;
        while i < 4 {
            let (nf, nr) = (f + 2 * DIAG[i].0, r + 2 * DIAG[i].1);
            // Never across the river: both ends on the same half.
            if on_board(nf, nr) && (nr <= 4) == (r <= 4) {
                t[s as usize] = t[s as usize].push(sq(nf, nr), sq(f + DIAG[i].0, r + DIAG[i].1));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn build_horse() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        let mut i = 0;
        while i < 4 {
            let (lf, lr) = (f + ORTHO[i].0, r + ORTHO[i].1);
            if on_board(lf, lr) {
                // Two targets per leg: continue the leg's direction and turn either way.
                let mut j = 0;
                while j < 2 {
                    let side = if j == 0 { 1 } else { -1 };
                    let (nf, nr) = if ORTHO[i].0 != 0 {
                        (lf + ORTHO[i].0, lr + side)
                    } else {
                        (lf + side, lr + ORTHO[i].1)
                    };
                    if on_board(nf, nr) {
                        t[s as usize] = t[s as usize].push(sq(nf, nr), sq(lf, lr));
                    }
                    j += 1;
                }
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// The same steps seen from their targets: for each point, the points a piece moving by
/// `steps` could reach it from, each with the point that must then be empty. They come slot by
/// slot (all first steps, then all second ones...), so a pawn in front of a point comes before
/// those beside it (exchange evaluation takes the first attacker it finds).
const fn invert(steps: &[Steps; 90]) -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut slot = 0;
    while slot < 8 {
        let mut from = 0;
        while from < 90 {
            let st = steps[from];
            if slot < st.len as usize {
                let to = st.to[slot] as usize;
                t[to] = t[to].push(from as i32, st.block[slot] as i32);
            }
            from += 1;
        }
        slot += 1;
    }
    t
}

const fn build_pawn(red: bool) -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let fwd = if red { 1 } else { -1 };
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        if on_board(f, r + fwd) {
            t[s as usize] = t[s as usize].push(sq(f, r + fwd), 0);
        }
        let crossed = if red { r >= 5 } else { r <= 4 };
        if crossed {
            if f > 0 {
                t[s as usize] = t[s as usize].push(sq(f - 1, r), 0);
            }
            if f < 8 {
                t[s as usize] = t[s as usize].push(sq(f + 1, r), 0);
            }
        }
        s += 1;
    }
    t
}

pub static KING_STEPS: [Steps; 90] = build_palace_steps(ORTHO);
pub static ADVISOR_STEPS: [Steps; 90] = build_palace_steps(DIAG);
pub static ELEPHANT_STEPS: [Steps; 90] = build_elephant();
pub static HORSE_STEPS: [Steps; 90] = build_horse();
/// For a target point: the points a horse could attack it from, each with its leg.
pub static HORSE_ATTACKERS: [Steps; 90] = invert(&build_horse());
pub static PAWN_STEPS: [[Steps; 90]; 2] = [build_pawn(true), build_pawn(false)];
/// For a target point: the points a pawn of each colour could attack it from. (King, advisor
/// and elephant steps are their own inverses: the same tables serve.)
pub static PAWN_ATTACKERS: [[Steps; 90]; 2] =
    [invert(&build_pawn(true)), invert(&build_pawn(false))];

/// Slider view along one line (a rank or a file) from one point, for one occupancy.
/// `empty` holds the reachable empty points as a bitmask of line indices; `lo1..lo3` and
/// `hi1..hi3` the first, second and third blocker towards the low and the high end, `NONE` if
/// absent (the third one tells whether a piece stands between a cannon and its screen).
#[derive(Clone, Copy)]
pub struct Line {
    pub empty: u16,
    pub lo1: u8,
    pub lo2: u8,
    pub lo3: u8,
    pub hi1: u8,
    pub hi2: u8,
    pub hi3: u8,
}

impl Line {
    pub const NONE: u8 = 0xff;
    const EMPTY: Line = Line {
        empty: 0,
        lo1: Line::NONE,
        lo2: Line::NONE,
        lo3: Line::NONE,
        hi1: Line::NONE,
        hi2: Line::NONE,
        hi3: Line::NONE,
    };
}

const fn line_entry(pos: usize, occ: usize, len: usize) -> Line {
    let mut e = Line::EMPTY;
    let mut i = pos as i32 - 1;
    let mut found = 0;
    while i >= 0 {
        if occ & (1 << i) != 0 {
            if found == 0 {
                e.lo1 = i as u8;
            } else if found == 1 {
                e.lo2 = i as u8;
            } else {
                e.lo3 = i as u8;
                break;
            }
            found += 1;
        } else if found == 0 {
            e.empty |= 1 << i;
        }
        i -= 1;
    }
    let mut i = pos + 1;
    let mut found = 0;
    while i < len {
        if occ & (1 << i) != 0 {
            if found == 0 {
                e.hi1 = i as u8;
            } else if found == 1 {
                e.hi2 = i as u8;
            } else {
                e.hi3 = i as u8;
                break;
            }
            found += 1;
        } else if found == 0 {
            e.empty |= 1 << i;
        }
        i += 1;
    }
    e
}

const fn build_rank_lines() -> [[Line; 512]; 9] {
    let mut t = [[Line::EMPTY; 512]; 9];
    let mut p = 0;
    while p < 9 {
        let mut o = 0;
        while o < 512 {
            t[p][o] = line_entry(p, o, 9);
            o += 1;
        }
        p += 1;
    }
    t
}

const fn build_file_lines() -> [[Line; 1024]; 10] {
    let mut t = [[Line::EMPTY; 1024]; 10];
    let mut p = 0;
    while p < 10 {
        let mut o = 0;
        while o < 1024 {
            t[p][o] = line_entry(p, o, 10);
            o += 1;
        }
        p += 1;
    }
    t
}

/// `RANK_LINES[file][rank occupancy]`: indices are files.
pub static RANK_LINES: [[Line; 512]; 9] = build_rank_lines();
/// `FILE_LINES[rank][file occupancy]`: indices are ranks.
pub static FILE_LINES: [[Line; 1024]; 10] = build_file_lines();

/// Pawn steps for a colour.
#[inline(always)]
pub fn pawn_steps(c: Color, s: Square) -> &'static Steps {
    &PAWN_STEPS[c.index()][s.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_range_counts() {
        let count = |t: &[Steps; 90]| t.iter().map(|s| s.len as usize).sum::<usize>();
        // King: 4 corners x2 + 4 edges x3 + centre x4 = 24 per palace.
        assert_eq!(count(&KING_STEPS), 48);
        assert_eq!(ADVISOR_STEPS[Square::new(4, 1).index()].len, 4);
        assert_eq!(ADVISOR_STEPS[Square::new(3, 9).index()].len, 1);
        assert_eq!(ADVISOR_STEPS[Square::new(2, 9).index()].len, 0);
        assert_eq!(HORSE_STEPS[Square::new(4, 4).index()].len, 8);
        assert_eq!(HORSE_STEPS[Square::new(0, 0).index()].len, 2);
        assert_eq!(ELEPHANT_STEPS[Square::new(2, 4).index()].len, 2);
        assert_eq!(pawn_steps(Color::Red, Square::new(0, 3)).len, 1);
        assert_eq!(pawn_steps(Color::Red, Square::new(4, 5)).len, 3);
        assert_eq!(pawn_steps(Color::Black, Square::new(4, 4)).len, 3);
        assert_eq!(pawn_steps(Color::Red, Square::new(4, 9)).len, 2);
    }

    fn pairs(st: &Steps) -> Vec<(u8, u8)> {
        (0..st.len as usize)
            .map(|i| (st.to[i], st.block[i]))
            .collect()
    }

    /// Exchange evaluation reads king, advisor and elephant steps as their own attackers: a
    /// step and its reverse must have the same block point.
    #[test]
    fn symmetric_steps_are_their_own_inverses() {
        for t in [&KING_STEPS, &ADVISOR_STEPS, &ELEPHANT_STEPS] {
            let inv = invert(t);
            for s in 0..90 {
                let mut a = pairs(&t[s]);
                let mut b = pairs(&inv[s]);
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "point {s}");
            }
        }
    }

    /// `inv` holds exactly the steps of `forward`, seen from their targets.
    fn assert_inverse(forward: &[Steps; 90], inv: &[Steps; 90]) {
        for (from, steps) in forward.iter().enumerate() {
            for (to, block) in steps.iter() {
                let back = (Square::from_index(from), block);
                assert!(inv[to.index()].iter().any(|s| s == back), "{from} to {to}");
            }
        }
        let count = |t: &[Steps; 90]| t.iter().map(|s| s.len as usize).sum::<usize>();
        assert_eq!(count(forward), count(inv));
    }

    /// The pawn and horse attacker tables invert the step tables, and a pawn in front of a
    /// point comes first.
    #[test]
    fn attackers_invert_the_steps() {
        assert_inverse(&HORSE_STEPS, &HORSE_ATTACKERS);
        assert_inverse(&PAWN_STEPS[0], &PAWN_ATTACKERS[0]);
        assert_inverse(&PAWN_STEPS[1], &PAWN_ATTACKERS[1]);
        // A Red pawn below the point, then the crossed ones beside it; a Black one above.
        let e6 = Square::new(4, 6).index();
        let red: Vec<Square> = PAWN_ATTACKERS[0][e6].iter().map(|(f, _)| f).collect();
        assert_eq!(red.len(), 3);
        assert_eq!(red[0], Square::new(4, 5));
        let e3 = Square::new(4, 3).index();
        let black: Vec<Square> = PAWN_ATTACKERS[1][e3].iter().map(|(f, _)| f).collect();
        assert_eq!(black.len(), 3);
        assert_eq!(black[0], Square::new(4, 4));
    }

    #[test]
    fn line_lookup_finds_blockers() {
        // Rank occupancy: files 1, 3, 6, 8; slider on file 4.
        let e = RANK_LINES[4][(1 << 0) | (1 << 1) | (1 << 3) | (1 << 6) | (1 << 8)];
        assert_eq!((e.lo1, e.lo2, e.lo3), (3, 1, 0));
        assert_eq!((e.hi1, e.hi2, e.hi3), (6, 8, Line::NONE));
        assert_eq!(e.empty, 1 << 5);
        let e = FILE_LINES[0][1 << 9];
        assert_eq!((e.lo1, e.hi1, e.hi2), (Line::NONE, 9, Line::NONE));
        assert_eq!(e.empty, 0b01_1111_1110);
    }
}
