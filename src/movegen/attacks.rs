//! Attack queries: is a king attacked, does a move give check.

use super::tables::{FILE_LINES, HORSE_ATTACKERS, Line, RANK_LINES};
use crate::board::position::Mailbox;
use crate::board::{Color, Move, Piece, PieceType, Position, Square};

/// Points on the rank and the file through each point.
pub(crate) static LINES_THROUGH: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut k = 0;
    while k < 90 {
        let mut s = 0;
        while s < 90 {
            if s % 9 == k % 9 || s / 9 == k / 9 {
                t[k] |= 1u128 << s;
            }
            s += 1;
        }
        k += 1;
    }
    t
};

/// Points from which a horse could attack each point (legs aside).
pub(crate) static HORSE_ZONE: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut k = 0;
    while k < 90 {
        let st = &HORSE_ATTACKERS[k];
        let mut i = 0;
        while i < st.len as usize {
            t[k] |= 1u128 << st.to[i];
            i += 1;
        }
        k += 1;
    }
    t
};

/// Points from which an enemy pawn could attack a king of the indexed colour on each point.
static PAWN_ZONE: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 90 {
            let (f, r) = (k % 9, k / 9);
            // Enemy pawns come from the far side: above a Red king, below a Black one.
            if c == 0 && r < 9 {
                t[c][k] |= 1u128 << (k + 9);
            }
            if c == 1 && r > 0 {
                t[c][k] |= 1u128 << (k - 9);
            }
            if f > 0 {
                t[c][k] |= 1u128 << (k - 1);
            }
            if f < 8 {
                t[c][k] |= 1u128 << (k + 1);
            }
            k += 1;
        }
        c += 1;
    }
    t
};

impl Mailbox {
    /// Whether a king of colour `us` standing on `k` would be attacked, given the board as it is.
    #[inline]
    pub(crate) fn king_attacked_at(&self, k: Square, us: Color) -> bool {
        self.line_attacks_king(k, us)
            || self.horse_attacks_king(k, us)
            || self.pawn_attacks_king(k, us)
    }

    /// Rooks and cannons on the king's rank and file, and the facing enemy king.
    #[inline(always)]
    pub(crate) fn line_attacks_king(&self, k: Square, us: Color) -> bool {
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
        (e.lo2 != Line::NONE && at_file(e.lo2) == cannon)
            || (e.hi2 != Line::NONE && at_file(e.hi2) == cannon)
    }

    /// Enemy horses whose leg is free.
    #[inline(always)]
    pub(crate) fn horse_attacks_king(&self, k: Square, us: Color) -> bool {
        let horse = Piece::new(us.flip(), PieceType::Horse);
        HORSE_ATTACKERS[k.index()]
            .iter()
            .any(|(from, leg)| self.piece_at(from) == horse && self.piece_at(leg).is_none())
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
    /// Whether `us`'s king is attacked (including by the facing enemy king). Bitboards first
    /// rule out the attacker kinds that stand nowhere near the king, most of the time all.
    #[inline]
    pub fn is_attacked_king(&self, us: Color) -> bool {
        let them = us.flip();
        let k = self.king_square(us);
        let mb = self.mailbox();
        let sliders = self.pieces(them, PieceType::Rook)
            | self.pieces(them, PieceType::Cannon)
            | self.pieces(them, PieceType::King);
        (sliders & LINES_THROUGH[k.index()] != 0 && mb.line_attacks_king(k, us))
            || (self.pieces(them, PieceType::Horse) & HORSE_ZONE[k.index()] != 0
                && mb.horse_attacks_king(k, us))
            || (self.pieces(them, PieceType::Pawn) & PAWN_ZONE[us.index()][k.index()] != 0
                && mb.pawn_attacks_king(k, us))
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
