//! Static exchange evaluation: the material balance of the capture sequence on one point when
//! both sides always recapture with their least valuable attacker (pins ignored, but a king
//! does not recapture into the enemy king's open file). Attackers are
//! found anew after each capture, so cannon screens and x-rays appearing or vanishing count.

use crate::board::{Bitboard, Color, Move, Piece, PieceType, Position, Square, bit};
use crate::eval::weights::SEE_VALUE;
use crate::movegen::tables::{FILE_LINES, Line, RANK_LINES};

/// `SEE_VALUE` by piece code (0 for an empty point), saving the code-to-kind division.
const VALUE_OF_CODE: [i32; Piece::CODES] = {
    let mut t = [0; Piece::CODES];
    let mut i = 0;
    while i < PieceType::ALL.len() {
        let k = PieceType::ALL[i];
        t[Piece::new(Color::Red, k).code()] = SEE_VALUE[k as usize];
        t[Piece::new(Color::Black, k).code()] = SEE_VALUE[k as usize];
        i += 1;
    }
    t
};

#[inline(always)]
fn value(p: Piece) -> i32 {
    VALUE_OF_CODE[p.code()]
}

/// Piece kinds from the least to the most valuable (checked below); a tie goes to the kind
/// listed first.
const BY_VALUE: [PieceType; 7] = [
    PieceType::Pawn,
    PieceType::Advisor,
    PieceType::Elephant,
    PieceType::Horse,
    PieceType::Cannon,
    PieceType::Rook,
    PieceType::King,
];
const _: () = {
    let mut i = 1;
    while i < BY_VALUE.len() {
        assert!(
            SEE_VALUE[BY_VALUE[i - 1] as usize] <= SEE_VALUE[BY_VALUE[i] as usize],
            "BY_VALUE must follow SEE_VALUE"
        );
        i += 1;
    }
};

/// Offsets (in square indices) from a target to the points attackers of one kind strike from,
/// in the order that settles ties between two such attackers, and for blockable pieces the
/// offsets of the point that must be empty (elephant eye, horse leg).
const RED_PAWN_FROM: [i32; 3] = [-9, -1, 1];
const BLACK_PAWN_FROM: [i32; 3] = [9, -1, 1];
const ADVISOR_FROM: [i32; 4] = [10, -8, 8, -10];
const KING_FROM: [i32; 4] = [1, -1, 9, -9];
const ELEPHANT_FROM: [i32; 4] = [20, -16, 16, -20];
const ELEPHANT_EYES: [i32; 4] = [10, -8, 8, -10];
const HORSE_FROM: [i32; 8] = [-19, -11, 7, 17, 19, 11, -7, -17];
const HORSE_LEGS: [i32; 8] = [-10, -10, 8, 8, 10, 10, -8, -8];

/// For one target: the points from which a piece of each short-range kind could attack it
/// (board edges, palaces and the river applied), and its rank and file.
#[derive(Clone, Copy)]
struct Reach {
    pawn: [Bitboard; 2],
    advisor: [Bitboard; 2],
    king: [Bitboard; 2],
    elephant: [Bitboard; 2],
    horse: Bitboard,
    lines: Bitboard,
}

/// The points at (file, rank) offsets `offsets` from (`f`, `r`) that are on the board.
const fn offsets_mask(f: i32, r: i32, offsets: &[(i32, i32)]) -> Bitboard {
    let mut m = 0;
    let mut i = 0;
    while i < offsets.len() {
        let (nf, nr) = (f + offsets[i].0, r + offsets[i].1);
        if nf >= 0 && nf < 9 && nr >= 0 && nr < 10 {
            m |= 1u128 << (nr * 9 + nf);
        }
        i += 1;
    }
    m
}

const REACH: [Reach; Square::COUNT] = {
    let mut t = [Reach {
        pawn: [0; 2],
        advisor: [0; 2],
        king: [0; 2],
        elephant: [0; 2],
        horse: 0,
        lines: 0,
    }; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let palace_file = f >= 3 && f <= 5;
        // Index 0 Red, 1 Black: Red's half is ranks 0-4, its palace ranks 0-2.
        let mut c = 0;
        while c < 2 {
            let red = c == 0;
            let own_half = if red { r <= 4 } else { r >= 5 };
            let palace = palace_file && if red { r <= 2 } else { r >= 7 };
            let fwd = if red { -1 } else { 1 };
            t[i].pawn[c] = if own_half {
                offsets_mask(f, r, &[(0, fwd)])
            } else {
                offsets_mask(f, r, &[(0, fwd), (-1, 0), (1, 0)])
            };
            if palace {
                t[i].advisor[c] = offsets_mask(f, r, &[(1, 1), (1, -1), (-1, 1), (-1, -1)]);
                t[i].king[c] = offsets_mask(f, r, &[(1, 0), (-1, 0), (0, 1), (0, -1)]);
            }
            if own_half {
                t[i].elephant[c] = offsets_mask(f, r, &[(2, 2), (2, -2), (-2, 2), (-2, -2)]);
            }
            c += 1;
        }
        t[i].horse = offsets_mask(
            f,
            r,
            &[
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
            ],
        );
        let mut j = 0;
        while j < Square::COUNT {
            if (j % 9) as i32 == f || (j / 9) as i32 == r {
                t[i].lines |= 1u128 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The board as an exchange on one point leaves it: the position's pieces, less those that have
/// since moved onto the target (their points are empty in `occupied`).
struct Exchange<'a> {
    pos: &'a Position,
    to: Square,
    reach: &'static Reach,
    occupied: Bitboard,
    /// Occupancy of the target's rank (by file) and file (by rank), for the slider lookups.
    rank_bits: u16,
    file_bits: u16,
}

impl<'a> Exchange<'a> {
    #[inline(always)]
    fn new(pos: &'a Position, to: Square) -> Self {
        Exchange {
            pos,
            to,
            reach: &REACH[to.index()],
            occupied: pos.occupied() | bit(to),
            rank_bits: pos.rank_bits(to.rank()) | 1 << to.file(),
            file_bits: pos.file_bits(to.file()) | 1 << to.rank(),
        }
    }

    /// The piece on `from` moves onto the target.
    #[inline(always)]
    fn remove(&mut self, from: Square) {
        self.occupied &= !bit(from);
        if from.rank() == self.to.rank() {
            self.rank_bits &= !(1 << from.file());
        }
        if from.file() == self.to.file() {
            self.file_bits &= !(1 << from.rank());
        }
    }

    /// The first of the points `from` (offsets from the target) that is in `candidates` and,
    /// where `blocks` are given, whose block point is empty.
    #[inline(always)]
    fn first(&self, candidates: Bitboard, from: &[i32], blocks: &[i32]) -> Option<Square> {
        if candidates == 0 {
            None
        } else if blocks.is_empty() && candidates & (candidates - 1) == 0 {
            Some(Square::from_index(candidates.trailing_zeros() as usize))
        } else {
            self.first_in_order(candidates, from, blocks)
        }
    }

    /// `first` when more than one point must be looked at (kept out of line: inlined, its
    /// per-offset masks get computed up front on every call).
    #[inline(never)]
    fn first_in_order(&self, candidates: Bitboard, from: &[i32], blocks: &[i32]) -> Option<Square> {
        let t = self.to.index() as i32;
        // Offsets are distinct, so a point of `candidates` is met only at its true offset.
        (0..from.len()).find_map(|i| {
            let s = t + from[i];
            let found = (0..Square::COUNT as i32).contains(&s)
                && candidates & (1 << s) != 0
                && (blocks.is_empty() || self.occupied & (1 << (t + blocks[i])) == 0);
            found.then(|| Square::from_index(s as usize))
        })
    }

    /// The first standing `p` on the line points `rank_ends` (files on the target's rank), then
    /// `file_ends` (ranks on its file).
    #[inline(always)]
    fn first_on_lines(&self, p: Piece, rank_ends: [u8; 2], file_ends: [u8; 2]) -> Option<Square> {
        let (tf, tr) = (self.to.file(), self.to.rank());
        let on_rank = rank_ends
            .into_iter()
            .filter(|&i| i != Line::NONE)
            .map(|i| Square::new(i, tr));
        let on_file = file_ends
            .into_iter()
            .filter(|&i| i != Line::NONE)
            .map(|i| Square::new(tf, i));
        on_rank.chain(on_file).find(|&s| self.pos.piece_at(s) == p)
    }

    /// Whether `c`'s king, moving from `from` onto the target, would face the enemy king on an
    /// open file (the flying general): such a recapture is illegal.
    #[inline(always)]
    fn faces_king(&self, c: Color, from: Square) -> bool {
        let enemy = self.pos.king_square(c.flip());
        let (to, file) = (self.to, self.to.file());
        if enemy.file() != file || self.occupied & bit(enemy) == 0 {
            return false;
        }
        let mut on_file = self.file_bits;
        if from.file() == file {
            on_file &= !(1 << from.rank());
        }
        let (lo, hi) = (enemy.rank().min(to.rank()), enemy.rank().max(to.rank()));
        let between = ((1u16 << hi) - 1) & !((2u16 << lo) - 1);
        on_file & between == 0
    }

    /// A standing piece of `c` and `kind` attacking the target, the first in a fixed order.
    #[inline(always)]
    fn attacker(&self, c: Color, kind: PieceType) -> Option<Square> {
        let bb = self.pos.pieces(c, kind) & self.occupied;
        let r = self.reach;
        let ci = c.index();
        match kind {
            PieceType::Pawn => {
                let from = if c == Color::Red {
                    &RED_PAWN_FROM
                } else {
                    &BLACK_PAWN_FROM
                };
                self.first(bb & r.pawn[ci], from, &[])
            }
            PieceType::Advisor => self.first(bb & r.advisor[ci], &ADVISOR_FROM, &[]),
            PieceType::King => {
                let s = self.first(bb & r.king[ci], &KING_FROM, &[])?;
                (!self.faces_king(c, s)).then_some(s)
            }
            PieceType::Elephant => self.first(bb & r.elephant[ci], &ELEPHANT_FROM, &ELEPHANT_EYES),
            PieceType::Horse => self.first(bb & r.horse, &HORSE_FROM, &HORSE_LEGS),
            // Rooks: the first piece along a line; cannons: the piece after one screen.
            PieceType::Rook | PieceType::Cannon => {
                if bb & r.lines == 0 {
                    return None;
                }
                let rank = &RANK_LINES[self.to.file() as usize][self.rank_bits as usize];
                let file = &FILE_LINES[self.to.rank() as usize][self.file_bits as usize];
                let p = Piece::new(c, kind);
                if kind == PieceType::Rook {
                    self.first_on_lines(p, [rank.lo1, rank.hi1], [file.lo1, file.hi1])
                } else {
                    self.first_on_lines(p, [rank.lo2, rank.hi2], [file.lo2, file.hi2])
                }
            }
        }
    }

    /// The least valuable piece of `c` attacking the target: its square and value.
    #[inline(always)]
    fn least_attacker(&self, c: Color) -> Option<(Square, i32)> {
        let of = |k: PieceType| Some((self.attacker(c, k)?, SEE_VALUE[k.index()]));
        // Written out rather than looped, so that each kind's test is compiled for that kind.
        of(BY_VALUE[0])
            .or_else(|| of(BY_VALUE[1]))
            .or_else(|| of(BY_VALUE[2]))
            .or_else(|| of(BY_VALUE[3]))
            .or_else(|| of(BY_VALUE[4]))
            .or_else(|| of(BY_VALUE[5]))
            .or_else(|| of(BY_VALUE[6]))
    }
}

/// Whether the exchange that `m` (a capture or quiet move) starts gains at least `threshold`
/// for the side making it.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from(), m.to());
    let first = value(pos.piece_at(to));
    let mover = value(pos.piece_at(from));
    // Even losing the moving piece afterwards keeps the threshold.
    if first - mover >= threshold {
        return true;
    }
    if first < threshold {
        return false;
    }
    let mut board = Exchange::new(pos, to);
    board.remove(from);
    // gain[d]: what the side that made capture d has won if the exchange stops after it.
    let mut gain = [0i32; 40];
    gain[0] = first;
    let mut on_square = mover;
    let mut side = pos.side_to_move().flip();
    let mut d = 0;
    while d + 1 < gain.len() {
        let Some((s, v)) = board.least_attacker(side) else {
            break;
        };
        d += 1;
        gain[d] = on_square - gain[d - 1];
        // Neither side can do better by going on: stop early.
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        board.remove(s);
        on_square = v;
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0] >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see0(fen: &str, mv: &str) -> bool {
        let p = Position::from_fen(fen).unwrap();
        let m = p.parse_move(mv).unwrap();
        see_ge(&p, m, 0)
    }

    #[test]
    fn rook_takes_pawn_depends_on_defenders() {
        // Undefended pawn.
        assert!(see0("4k4/9/9/9/4p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"));
        // Defended by a rook along the rank.
        assert!(!see0("4k4/9/9/9/r3p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"));
        // Defended by a cannon through a screen; without the screen it is not.
        assert!(!see0("4k4/4c4/9/4n4/4p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"));
        assert!(see0("4k4/4c4/9/9/4p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"));
        // Defended by a horse whose leg is free; a blocked leg does not defend.
        assert!(!see0("4k4/9/3n5/9/4p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"));
        assert!(see0("4k4/9/3n5/3n5/4p4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"));
    }

    /// The attacker search agrees with move generation: for every enemy piece, the least
    /// valuable piece that can capture it is found, and only when one can.
    #[test]
    fn least_attacker_matches_generated_captures() {
        let fens = include_str!("../../bench-positions/bench.epd");
        for fen in fens.lines().map(|l| l.split(';').next().unwrap().trim()) {
            let p = Position::from_fen(fen).unwrap();
            let mut caps = crate::movegen::MoveList::new();
            p.generate_pseudo(crate::movegen::GenKind::Captures, &mut caps);
            let us = p.side_to_move();
            for i in 0..Square::COUNT {
                let to = Square::from_index(i);
                let t = p.piece_at(to);
                if t.is_none() || t.color() == us {
                    continue;
                }
                let cheapest = caps
                    .iter()
                    .filter(|m| m.to() == to)
                    .map(|m| value(p.piece_at(m.from())))
                    .min();
                let found = Exchange::new(&p, to).least_attacker(us);
                assert_eq!(found.map(|(_, v)| v), cheapest, "{fen} {to}");
                if let Some((s, _)) = found {
                    assert!(caps.contains(&Move::new(s, to)), "{fen} {s}{to}");
                }
            }
        }
    }

    #[test]
    fn exchanges_count_every_recapture() {
        // Pawn takes a defended rook: wins anyway.
        assert!(see0("4k4/9/9/r3r4/4P4/9/9/9/9/3K5 w - - 0 1", "e5e6"));
        // Rook takes a horse defended by a pawn, but a second rook backs it up: still loses.
        assert!(!see0("4k4/9/9/4p4/4n4/9/9/9/4R4/3KR4 w - - 0 1", "e1e5"));
        // Rook takes an advisor that only the king guards, but the enemy king faces that
        // point down an open file, so the king may not recapture (the flying general).
        assert!(see0("3k5/9/9/9/9/9/9/3r5/9/3AK4 b - - 0 1", "d2d0"));
        assert!(!see0("5k3/9/9/9/9/9/9/3r5/9/3AK4 b - - 0 1", "d2d0"));
        assert!(!see0("3k5/9/9/9/3N5/9/9/3r5/9/3AK4 b - - 0 1", "d2d0"));
        assert!(see_ge(
            &Position::from_fen("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1").unwrap(),
            Move::parse_coords("e1e5").unwrap(),
            400
        ));
    }
}
