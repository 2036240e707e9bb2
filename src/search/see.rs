//! Static exchange evaluation: the material balance of the capture sequence on one point when
//! both sides always recapture with their least valuable attacker (pins ignored, but a king
//! does not recapture into the enemy king's open file). Attackers are
//! found anew after each capture, so cannon screens and x-rays appearing or vanishing count.

use crate::board::{Bitboard, Color, Move, Piece, PieceType, Position, Square, bit};
use crate::eval::weights::SEE_VALUE;
use crate::movegen::attacks::{HORSE_ZONE, LINES_THROUGH};
use crate::movegen::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, FILE_LINES, HORSE_ATTACKERS, KING_STEPS, Line, PAWN_ATTACKERS,
    RANK_LINES, Steps,
};

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

/// For one target: the points from which a pawn, advisor, king or elephant could attack it,
/// by the move generator's tables (horses: `HORSE_ZONE`). A king, advisor or elephant only ever
/// stands on its own side, so one mask serves both colours.
struct Reach {
    pawn: [Bitboard; 2],
    advisor: Bitboard,
    king: Bitboard,
    elephant: Bitboard,
}

static REACH: [Reach; Square::COUNT] = {
    let mut t = [const {
        Reach {
            pawn: [0; 2],
            advisor: 0,
            king: 0,
            elephant: 0,
        }
    }; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        t[i] = Reach {
            pawn: [
                PAWN_ATTACKERS[0][i].targets(),
                PAWN_ATTACKERS[1][i].targets(),
            ],
            advisor: ADVISOR_STEPS[i].targets(),
            king: KING_STEPS[i].targets(),
            elephant: ELEPHANT_STEPS[i].targets(),
        };
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

    /// The first point of `steps` (towards the target) that is in `candidates` and, for a
    /// `blockable` piece, whose block point is empty.
    #[inline(always)]
    fn first(&self, candidates: Bitboard, steps: &Steps, blockable: bool) -> Option<Square> {
        if candidates == 0 {
            None
        } else if !blockable && candidates & (candidates - 1) == 0 {
            Some(Square::from_index(candidates.trailing_zeros() as usize))
        } else {
            self.first_in_order(candidates, steps, blockable)
        }
    }

    /// `first` when more than one point must be looked at (kept out of line, so that the
    /// single-candidate test stays small where it is inlined).
    #[inline(never)]
    fn first_in_order(
        &self,
        candidates: Bitboard,
        steps: &Steps,
        blockable: bool,
    ) -> Option<Square> {
        steps
            .iter()
            .find(|&(from, block)| {
                candidates & bit(from) != 0 && !(blockable && self.occupied & bit(block) != 0)
            })
            .map(|(from, _)| from)
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
        let (r, i) = (self.reach, self.to.index());
        match kind {
            PieceType::Pawn => {
                self.first(bb & r.pawn[c.index()], &PAWN_ATTACKERS[c.index()][i], false)
            }
            PieceType::Advisor => self.first(bb & r.advisor, &ADVISOR_STEPS[i], false),
            PieceType::King => {
                let s = self.first(bb & r.king, &KING_STEPS[i], false)?;
                (!self.faces_king(c, s)).then_some(s)
            }
            PieceType::Elephant => self.first(bb & r.elephant, &ELEPHANT_STEPS[i], true),
            PieceType::Horse => self.first(bb & HORSE_ZONE[i], &HORSE_ATTACKERS[i], true),
            // Rooks: the first piece along a line; cannons: the piece after one screen.
            PieceType::Rook | PieceType::Cannon => {
                if bb & LINES_THROUGH[i] == 0 {
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
