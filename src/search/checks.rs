//! Which moves may give check: a table test that clears most moves before the exact test (a
//! trial move and a full attack scan) has to run.

use crate::board::{Bitboard, Move, Position, bit};

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

static ZONES: [Zone; 90] = {
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

/// False when `m` cannot give check; true when it may.
#[inline(always)]
pub fn may_give_check(pos: &Position, m: Move) -> bool {
    let z = &ZONES[pos.king_square(pos.side_to_move().flip()).index()];
    (z.from & bit(m.from())) | (z.to & bit(m.to())) != 0
}

/// Whether the legal move `m` gives check, with the exact test only where the table allows one.
#[inline(always)]
pub fn gives_check(pos: &Position, m: Move) -> bool {
    may_give_check(pos, m) && pos.gives_check(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bench::bench_fens;

    /// Every checking move passes the table test, in the bench positions and one ply on, and
    /// the table clears a good share of the moves.
    #[test]
    fn no_check_is_missed() {
        let (mut moves, mut cleared) = (0, 0);
        let mut check = |p: &Position| {
            for &m in p.legal_moves().iter() {
                let exact = p.gives_check(m);
                assert!(!exact || may_give_check(p, m), "{p:?} {m}");
                assert_eq!(gives_check(p, m), exact, "{p:?} {m}");
                moves += 1;
                cleared += usize::from(!may_give_check(p, m));
            }
        };
        for fen in bench_fens() {
            let mut p = Position::from_fen(fen).unwrap();
            check(&p);
            for &m in p.clone().legal_moves().iter() {
                let undo = p.do_move(m);
                check(&p);
                p.undo_move(m, undo);
            }
        }
        assert!(cleared * 2 > moves, "{cleared} of {moves}");
    }
}
