//! Attack queries: is a king attacked, is a move legal, does a move give check.

use super::tables::{FILE_LINES, HORSE_ATTACKERS, Line, RANK_LINES};
use crate::board::position::Mailbox;
use crate::board::{Color, Move, Piece, PieceType, Position, Square};

/// For each king square: the points from which a move may uncover or create an attack on the
/// king (its rank, its file, and the four horse-leg points diagonal to it). A move touching none
/// of them, by a piece other than the king, can never leave its own king attacked.
static SENSITIVE_FROM: [u128; 90] = build_sensitive(true);
/// Points where an arriving piece may become a cannon screen: the king's rank and file.
static SENSITIVE_TO: [u128; 90] = build_sensitive(false);

const fn build_sensitive(with_legs: bool) -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut k = 0;
    while k < 90 {
        let (kf, kr) = (k % 9, k / 9);
        let mut s = 0;
        while s < 90 {
            let (f, r) = (s % 9, s / 9);
            let line = f == kf || r == kr;
            let leg = (f as i32 - kf as i32).abs() == 1 && (r as i32 - kr as i32).abs() == 1;
            if line || (with_legs && leg) {
                t[k] |= 1u128 << s;
            }
            s += 1;
        }
        k += 1;
    }
    t
}

impl Mailbox {
    /// Whether a king of colour `us` standing on `k` would be attacked, given the board as it is.
    #[inline]
    pub(crate) fn king_attacked_at(&self, k: Square, us: Color) -> bool {
        let them = us.flip();
        let (f, r) = (k.file(), k.rank());
        let rook = Piece::new(them, PieceType::Rook);
        let cannon = Piece::new(them, PieceType::Cannon);
        let king = Piece::new(them, PieceType::King);

        let e = &RANK_LINES[f as usize][self.rank_bits[r as usize] as usize];
        let at_rank = |file: u8| self.piece_at(Square::new(file, r));
        if (e.lo1 != Line::NONE && at_rank(e.lo1) == rook)
            || (e.hi1 != Line::NONE && at_rank(e.hi1) == rook)
            || (e.lo2 != Line::NONE && at_rank(e.lo2) == cannon)
            || (e.hi2 != Line::NONE && at_rank(e.hi2) == cannon)
        {
            return true;
        }
        let e = &FILE_LINES[r as usize][self.file_bits[f as usize] as usize];
        let at_file = |rank: u8| self.piece_at(Square::new(f, rank));
        for near in [e.lo1, e.hi1] {
            if near != Line::NONE {
                let p = at_file(near);
                if p == rook || p == king {
                    return true;
                }
            }
        }
        if (e.lo2 != Line::NONE && at_file(e.lo2) == cannon)
            || (e.hi2 != Line::NONE && at_file(e.hi2) == cannon)
        {
            return true;
        }

        let horse = Piece::new(them, PieceType::Horse);
        for (from, leg) in HORSE_ATTACKERS[k.index()].iter() {
            if self.piece_at(from) == horse && self.piece_at(leg).is_none() {
                return true;
            }
        }

        // Enemy pawns attack from the point in front of the king and from beside it.
        let pawn = Piece::new(them, PieceType::Pawn);
        let front = match us {
            Color::Red => r + 1,
            Color::Black => r.wrapping_sub(1),
        };
        (front < 10 && self.piece_at(Square::new(f, front)) == pawn)
            || (f > 0 && self.piece_at(Square::new(f - 1, r)) == pawn)
            || (f < 8 && self.piece_at(Square::new(f + 1, r)) == pawn)
    }
}

impl Position {
    /// Whether `us`'s king is attacked (including by the facing enemy king).
    #[inline]
    pub fn is_attacked_king(&self, us: Color) -> bool {
        self.mailbox().king_attacked_at(self.king_square(us), us)
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_attacked_king(self.side_to_move())
    }

    /// Whether a move by the side to move, known to be pseudo-legal, leaves its king safe.
    /// `in_check` is whether the side to move is in check now (the caller knows it already).
    #[inline]
    pub(crate) fn is_legal_pseudo(&self, m: Move, in_check: bool) -> bool {
        let us = self.side_to_move();
        let k = self.king_square(us);
        let from_bit = 1u128 << m.from().index();
        let to_bit = 1u128 << m.to().index();
        if !in_check
            && m.from() != k
            && SENSITIVE_FROM[k.index()] & from_bit == 0
            && SENSITIVE_TO[k.index()] & to_bit == 0
        {
            return true;
        }
        let mut scratch = self.mailbox().clone();
        let king_to = if m.from() == k { m.to() } else { k };
        scratch.shift(m);
        !scratch.king_attacked_at(king_to, us)
    }

    /// Whether the move, known to be legal, gives check to the opponent.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut scratch = self.mailbox().clone();
        scratch.shift(m);
        let them = self.side_to_move().flip();
        scratch.king_attacked_at(self.king_square(them), them)
    }

    /// Whether `m` is a legal move here (any 16-bit value accepted; for TT and killer moves).
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.is_legal_pseudo(m, self.in_check())
    }

    /// Whether `m` obeys the movement rules of the piece on its origin (ignoring own-king safety).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        if from.index() >= Square::COUNT || to.index() >= Square::COUNT || from == to {
            return false;
        }
        let p = self.piece_at(from);
        let us = self.side_to_move();
        if p.is_none() || p.color() != us {
            return false;
        }
        let target = self.piece_at(to);
        if target.is_some() && target.color() == us {
            return false;
        }
        use super::tables::*;
        let step = |t: &Steps, need_empty_block: bool| {
            t.iter()
                .any(|(s, b)| s == to && (!need_empty_block || self.piece_at(b).is_none()))
        };
        match p.kind() {
            PieceType::King => step(&KING_STEPS[from.index()], false),
            PieceType::Advisor => step(&ADVISOR_STEPS[from.index()], false),
            PieceType::Elephant => step(&ELEPHANT_STEPS[from.index()], true),
            PieceType::Horse => step(&HORSE_STEPS[from.index()], true),
            PieceType::Pawn => step(pawn_steps(us, from), false),
            kind @ (PieceType::Rook | PieceType::Cannon) => {
                let (e, idx) = if from.rank() == to.rank() {
                    (
                        &RANK_LINES[from.file() as usize][self.rank_bits(from.rank()) as usize],
                        to.file(),
                    )
                } else if from.file() == to.file() {
                    (
                        &FILE_LINES[from.rank() as usize][self.file_bits(from.file()) as usize],
                        to.rank(),
                    )
                } else {
                    return false;
                };
                if target.is_none() {
                    e.empty & (1 << idx) != 0
                } else if kind == PieceType::Rook {
                    idx == e.lo1 || idx == e.hi1
                } else {
                    idx == e.lo2 || idx == e.hi2
                }
            }
        }
    }
}
