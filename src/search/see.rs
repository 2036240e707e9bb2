//! Static exchange evaluation: the material balance of the capture sequence on one point when
//! both sides always recapture with their least valuable attacker (pins ignored). Attackers are
//! found anew after each capture, so cannon screens and x-rays appearing or vanishing count.

use crate::board::position::Mailbox;
use crate::board::{Color, Move, Piece, PieceType, Position, Square};
use crate::eval::weights::SEE_VALUE;
use crate::movegen::tables::{FILE_LINES, Line, RANK_LINES};

#[inline(always)]
fn value(p: Piece) -> i32 {
    SEE_VALUE[p.kind().index()]
}

#[inline(always)]
fn at(mb: &Mailbox, f: i32, r: i32) -> Option<Piece> {
    ((0..9).contains(&f) && (0..10).contains(&r))
        .then(|| mb.piece_at(Square::new(f as u8, r as u8)))
}

/// The least valuable piece of `c` attacking `to` on the board `mb`: its square and value.
fn least_attacker(mb: &Mailbox, to: Square, c: Color) -> Option<(Square, i32)> {
    let (tf, tr) = (i32::from(to.file()), i32::from(to.rank()));
    let mut best: Option<(Square, i32)> = None;
    let mut consider = |s: Square, kind: PieceType| {
        let v = SEE_VALUE[kind.index()];
        if best.is_none_or(|(_, bv)| v < bv) {
            best = Some((s, v));
        }
    };
    let ours = |p: Piece, kind: PieceType| p.is_some() && p.is(c, kind);
    let mut step = |df: i32, dr: i32, kind: PieceType| {
        if let Some(p) = at(mb, tf + df, tr + dr)
            && ours(p, kind)
        {
            consider(Square::new((tf + df) as u8, (tr + dr) as u8), kind);
        }
    };
    // Pawns: forward, and sideways once across the river.
    step(0, if c == Color::Red { -1 } else { 1 }, PieceType::Pawn);
    if !to.on_own_side(c) {
        step(-1, 0, PieceType::Pawn);
        step(1, 0, PieceType::Pawn);
    }
    if to.in_palace(c) {
        for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            step(df, dr, PieceType::Advisor);
        }
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            step(df, dr, PieceType::King);
        }
    }
    if to.on_own_side(c) {
        for (df, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
            if at(mb, tf + df / 2, tr + dr / 2).is_some_and(|eye| eye.is_none()) {
                step(df, dr, PieceType::Elephant);
            }
        }
    }
    // Horses: the leg is the point next to the horse, toward the long side of its jump.
    for (df, dr) in [
        (1i32, 2i32),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ] {
        let (lf, lr) = (
            -df + if df.abs() == 2 { df / 2 } else { 0 },
            -dr + if dr.abs() == 2 { dr / 2 } else { 0 },
        );
        if at(mb, tf + lf, tr + lr).is_some_and(|leg| leg.is_none()) {
            step(-df, -dr, PieceType::Horse);
        }
    }
    // Rooks (the first piece along a line) and cannons (the piece after one screen).
    let rank = &RANK_LINES[tf as usize][mb.rank_bits[tr as usize] as usize];
    let file = &FILE_LINES[tr as usize][mb.file_bits[tf as usize] as usize];
    for (e, along_rank) in [(rank, true), (file, false)] {
        for (i, kind) in [
            (e.lo1, PieceType::Rook),
            (e.hi1, PieceType::Rook),
            (e.lo2, PieceType::Cannon),
            (e.hi2, PieceType::Cannon),
        ] {
            if i == Line::NONE {
                continue;
            }
            let s = if along_rank {
                Square::new(i, tr as u8)
            } else {
                Square::new(tf as u8, i)
            };
            if ours(mb.piece_at(s), kind) {
                consider(s, kind);
            }
        }
    }
    best
}

/// Whether the exchange that `m` (a capture or quiet move) starts gains at least `threshold`
/// for the side making it.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from(), m.to());
    let victim = pos.piece_at(to);
    let first = if victim.is_some() { value(victim) } else { 0 };
    let mover = value(pos.piece_at(from));
    // Even losing the moving piece afterwards keeps the threshold.
    if first - mover >= threshold {
        return true;
    }
    if first < threshold {
        return false;
    }
    let mut mb = pos.mailbox().clone();
    mb.shift(m);
    // gain[d]: what the side that made capture d has won if the exchange stops after it.
    let mut gain = [0i32; 40];
    gain[0] = first;
    let mut on_square = mover;
    let mut side = pos.side_to_move().flip();
    let mut d = 0;
    while d + 1 < gain.len() {
        let Some((s, v)) = least_attacker(&mb, to, side) else {
            break;
        };
        d += 1;
        gain[d] = on_square - gain[d - 1];
        // Neither side can do better by going on: stop early.
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        mb.shift(Move::new(s, to));
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
                let found = least_attacker(p.mailbox(), to, us);
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
        assert!(see_ge(
            &Position::from_fen("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1").unwrap(),
            Move::parse_coords("e1e5").unwrap(),
            400
        ));
    }
}
