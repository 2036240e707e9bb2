//! Attack queries: is a king attacked, does a move give check.

use super::tables::{FILE_LINES, HORSE_ATTACKERS, Line, RANK_LINES};
use crate::board::position::Mailbox;
use crate::board::{Color, Move, Piece, PieceType, Position, Square};

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

        self.pawn_attacks_king(k, us)
    }

    /// Enemy pawns attack a king from the point in front of it and from beside it.
    #[inline(always)]
    pub(crate) fn pawn_attacks_king(&self, k: Square, us: Color) -> bool {
        let (f, r) = (k.file(), k.rank());
        let pawn = Piece::new(us.flip(), PieceType::Pawn);
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

    /// Whether the move, known to be legal, gives check to the opponent.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut scratch = self.mailbox().clone();
        scratch.shift(m);
        let them = self.side_to_move().flip();
        scratch.king_attacked_at(self.king_square(them), them)
    }
}
