//! Attack queries: is a king attacked, does a move give check.

use super::tables::{FILE_LINES, HORSE_ATTACKERS, Line, RANK_LINES};
use crate::board::position::Mailbox;
use crate::board::{Bitboard, Color, Move, Piece, PieceType, Position, Square, bit};

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
        t[k] = HORSE_ATTACKERS[k].targets();
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

/// For one king point: the points a move must leave or reach to be able to check that king.
/// Leaving the king's rank or file can uncover a rook, a cannon or the facing king, or take one
/// of a cannon's two screens away; leaving a point diagonal to the king can free a horse's leg.
/// Arriving on the rank or file can attack along it (pawns too: they strike from next to the
/// king) or give a cannon its screen; arriving a horse's jump away can attack as a horse.
#[derive(Clone, Copy)]
struct Zone {
    from: Bitboard,
    to: Bitboard,
}

static CHECK_ZONES: [Zone; 90] = {
    let mut t = [Zone { from: 0, to: 0 }; 90];
    let mut k = 0;
    while k < 90 {
        let (kf, kr) = ((k % 9) as i32, (k / 9) as i32);
        let mut s: i32 = 0;
        while s < 90 {
            let (df, dr) = (s % 9 - kf, s / 9 - kr);
            let line = (df == 0) != (dr == 0);
            let diagonal = df.abs() == 1 && dr.abs() == 1;
            let jump = df.abs() * dr.abs() == 2;
            if line || diagonal {
                t[k].from |= 1 << s;
            }
            if line || jump {
                t[k].to |= 1 << s;
            }
            s += 1;
        }
        k += 1;
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

    /// False when `m` cannot give check; true when it may (a table test, no trial move).
    #[inline(always)]
    pub fn may_give_check(&self, m: Move) -> bool {
        let z = &CHECK_ZONES[self.king_square(self.side_to_move().flip()).index()];
        (z.from & bit(m.from())) | (z.to & bit(m.to())) != 0
    }

    /// Whether the side to move is out of check and `m` (legal) neither captures nor gives
    /// check: a quiet position and move, whose search score is a training label.
    #[inline]
    pub fn is_quiet_with(&self, m: Move) -> bool {
        !self.in_check() && !self.is_capture(m) && !self.gives_check(m)
    }

    /// Whether the pseudo-legal move `m` gives check to the opponent (or, where it is illegal,
    /// leaves our king facing theirs): the table test first, then what the move changes.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        self.may_give_check(m) && self.checks_by_change(m)
    }

    /// The opponent's king is not attacked before the move (a position never has the side not
    /// to move in check), so only what the move changes can attack it: a line through the king
    /// that the move leaves or reaches, a horse's leg it frees, the moved piece as a horse or a
    /// pawn. The same answer as playing the move on a copy of the board, for less work.
    fn checks_by_change(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let k = self.king_square(us.flip());
        let (from, to) = (m.from(), m.to());
        let mover = self.piece_at(from);
        if self.line_attack_after(k, us, from, to, mover) {
            return true;
        }
        let attackers = &HORSE_ATTACKERS[k.index()];
        let direct = match mover.kind() {
            // The leg of a horse on `to` is beside it: neither `from` nor `to`.
            PieceType::Horse => attackers
                .iter()
                .any(|(h, leg)| h == to && self.piece_at(leg).is_none()),
            PieceType::Pawn => PAWN_ZONE[us.flip().index()][k.index()] & bit(to) != 0,
            _ => false,
        };
        if direct {
            return true;
        }
        let horse = Piece::new(us, PieceType::Horse);
        attackers
            .iter()
            .any(|(h, leg)| leg == from && self.piece_at(h) == horse)
    }

    /// Whether `attacker`'s rook (or, along the file, king) is nearest to `k` on its rank or
    /// file, or its cannon second nearest, once the move from `from` to `to` has left `mover`
    /// on `to`. Only the lines through `k` that the move leaves or reaches are read: the caller
    /// knows the others do not attack `k`.
    #[inline(always)]
    pub(crate) fn line_attack_after(
        &self,
        k: Square,
        attacker: Color,
        from: Square,
        to: Square,
        mover: Piece,
    ) -> bool {
        let after = |s: Square| {
            if s == to {
                mover
            } else if s == from {
                Piece::NONE
            } else {
                self.piece_at(s)
            }
        };
        let (kf, kr) = (k.file(), k.rank());
        if from.rank() == kr || to.rank() == kr {
            let mut occ = self.rank_bits(kr);
            if from.rank() == kr {
                occ &= !(1 << from.file());
            }
            if to.rank() == kr {
                occ |= 1 << to.file();
            }
            let e = &RANK_LINES[kf as usize][occ as usize];
            if line_checks(e, attacker, false, |i| after(Square::new(i, kr))) {
                return true;
            }
        }
        if from.file() == kf || to.file() == kf {
            let mut occ = self.file_bits(kf);
            if from.file() == kf {
                occ &= !(1 << from.rank());
            }
            if to.file() == kf {
                occ |= 1 << to.rank();
            }
            let e = &FILE_LINES[kr as usize][occ as usize];
            if line_checks(e, attacker, true, |i| after(Square::new(kf, i))) {
                return true;
            }
        }
        false
    }

    /// The board on a copy with the move played: the reference `checks_by_change` must match.
    #[cfg(test)]
    fn gives_check_by_trial(&self, m: Move) -> bool {
        let mut scratch = self.mailbox().clone();
        scratch.shift(m);
        let them = self.side_to_move().flip();
        scratch.king_attacked_at(self.king_square(them), them)
    }
}

/// Whether `us`'s rook (or, along a file, king) is nearest to the enemy king on the line entry
/// `e`, or `us`'s cannon second nearest, with `at` reading the board.
#[inline(always)]
fn line_checks(e: &Line, us: Color, file: bool, at: impl Fn(u8) -> Piece) -> bool {
    let rook = Piece::new(us, PieceType::Rook);
    let cannon = Piece::new(us, PieceType::Cannon);
    let king = Piece::new(us, PieceType::King);
    let near = |i: u8| {
        i != Line::NONE && {
            let p = at(i);
            p == rook || (file && p == king)
        }
    };
    let far = |i: u8| i != Line::NONE && at(i) == cannon;
    near(e.lo1) || near(e.hi1) || far(e.lo2) || far(e.hi2)
}

#[cfg(test)]
mod tests {
    use crate::bench::bench_fens;
    use crate::board::Position;
    use crate::movegen::{GenKind, MoveList};
    use crate::rng::Rng;

    /// The table test misses no check, and what the move changes gives the answer of playing
    /// it on a copy, for every pseudo-legal move (the search asks before the legality test):
    /// in the bench positions and along random games from them. The table clears a good share
    /// of the moves, and the walk meets many checks.
    #[test]
    fn checks_by_change_match_the_trial_move() {
        let (mut moves, mut cleared, mut checks) = (0, 0, 0);
        let mut check = |p: &Position| {
            let mut list = MoveList::new();
            p.generate_pseudo(GenKind::All, &mut list);
            for &m in list.iter() {
                let exact = p.gives_check_by_trial(m);
                assert!(!exact || p.may_give_check(m), "{p:?} {m}");
                assert_eq!(p.gives_check(m), exact, "{p:?} {m}");
                moves += 1;
                cleared += usize::from(!p.may_give_check(m));
                checks += usize::from(exact);
            }
        };
        let mut rng = Rng::new(37);
        for fen in bench_fens() {
            let mut p = Position::from_fen(fen).unwrap();
            for _ in 0..60 {
                check(&p);
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                p.do_move(legal[rng.below(legal.len())]);
            }
        }
        assert!(cleared * 2 > moves, "{cleared} of {moves}");
        assert!(checks > 1000, "{checks} checks in {moves} moves");
    }

    /// Each way a move can check, and moves beside them that do not: the move alone (a horse,
    /// a pawn), a line it opens (a rook, a cannon with one screen left, a horse's leg), a line
    /// it closes (a cannon's new screen), and the facing kings of an illegal king move.
    #[test]
    fn each_kind_of_check_is_seen() {
        let cases = [
            // The pawn frees the horse's leg; beside the king or below it, it checks itself.
            ("4k4/3P5/3N5/9/9/9/9/9/9/3K5 w - - 0 1", "d8c8", true),
            ("4k4/3P5/3N5/9/9/9/9/9/9/3K5 w - - 0 1", "d8e8", true),
            // The cannon's second screen leaves, or stays on the file.
            ("4k4/4a4/9/4P4/4C4/9/9/9/9/3K5 w - - 0 1", "e6d6", true),
            ("4k4/4a4/9/4P4/4C4/9/9/9/9/3K5 w - - 0 1", "e6e7", false),
            // The horse becomes the cannon's screen.
            ("4k4/9/9/2N6/4C4/9/9/9/9/3K5 w - - 0 1", "c6e7", true),
            // The horse leaves the rook's file.
            ("4k4/9/4N4/9/4R4/9/9/9/9/3K5 w - - 0 1", "e7g8", true),
            // The horse jumps to a point that attacks the king, or to one that does not.
            ("4k4/9/9/1N7/9/9/9/9/9/3K5 w - - 0 1", "b6c8", true),
            ("4k4/9/9/1N7/9/9/9/9/9/3K5 w - - 0 1", "b6a8", false),
            // The king steps onto the open file of the other (illegal), or along its own.
            ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0e0", true),
            ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0d1", false),
        ];
        for (fen, text, checks) in cases {
            let p = Position::from_fen(fen).unwrap();
            let m = crate::board::Move::parse_coords(text).unwrap();
            assert!(p.is_pseudo_legal(m), "{fen} {text}");
            assert_eq!(p.gives_check_by_trial(m), checks, "{fen} {text}: the trial");
            assert_eq!(p.gives_check(m), checks, "{fen} {text}");
        }
    }
}
