//! Static exchange evaluation: the material balance of the capture sequence on one point when
//! both sides always recapture with their least valuable attacker (pins ignored). Attackers are
//! found anew after each capture, so cannon screens and x-rays appearing or vanishing count.

use crate::board::{Color, Move, Piece, PieceType, Position, Square};
use crate::eval::weights::SEE_VALUE;

type Board = [Piece; Square::COUNT];

#[inline(always)]
fn value(p: Piece) -> i32 {
    SEE_VALUE[p.kind().index()]
}

#[inline(always)]
fn at(board: &Board, f: i32, r: i32) -> Option<Piece> {
    ((0..9).contains(&f) && (0..10).contains(&r))
        .then(|| board[Square::new(f as u8, r as u8).index()])
}

/// The least valuable piece of `c` attacking `to` on `board`: its square and value.
fn least_attacker(board: &Board, to: Square, c: Color) -> Option<(Square, i32)> {
    let (tf, tr) = (i32::from(to.file()), i32::from(to.rank()));
    let mut best: Option<(Square, i32)> = None;
    let mut consider = |f: i32, r: i32, kind: PieceType| {
        let s = Square::new(f as u8, r as u8);
        let v = SEE_VALUE[kind.index()];
        if best.is_none_or(|(_, bv)| v < bv) {
            best = Some((s, v));
        }
    };
    let ours = |p: Piece, kind: PieceType| p.is_some() && p.is(c, kind);
    // Pawns: forward, and sideways once across the river.
    let forward = if c == Color::Red { 1 } else { -1 };
    if let Some(p) = at(board, tf, tr - forward)
        && ours(p, PieceType::Pawn)
    {
        consider(tf, tr - forward, PieceType::Pawn);
    }
    if !to.on_own_side(c) {
        for df in [-1, 1] {
            if let Some(p) = at(board, tf + df, tr)
                && ours(p, PieceType::Pawn)
            {
                consider(tf + df, tr, PieceType::Pawn);
            }
        }
    }
    if to.in_palace(c) {
        for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            if let Some(p) = at(board, tf + df, tr + dr)
                && ours(p, PieceType::Advisor)
            {
                consider(tf + df, tr + dr, PieceType::Advisor);
            }
        }
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            if let Some(p) = at(board, tf + df, tr + dr)
                && ours(p, PieceType::King)
            {
                consider(tf + df, tr + dr, PieceType::King);
            }
        }
    }
    if to.on_own_side(c) {
        for (df, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
            if let (Some(p), Some(eye)) = (
                at(board, tf + df, tr + dr),
                at(board, tf + df / 2, tr + dr / 2),
            ) && ours(p, PieceType::Elephant)
                && eye.is_none()
            {
                consider(tf + df, tr + dr, PieceType::Elephant);
            }
        }
    }
    // Horses: the leg is the point next to the horse, toward the long side of its jump.
    for (df, dr) in [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ] {
        let (hf, hr) = (tf - df, tr - dr);
        let (lf, lr) = (
            hf + if df.abs() == 2 { df / 2 } else { 0 },
            hr + if dr.abs() == 2 { dr / 2 } else { 0 },
        );
        if let (Some(p), Some(leg)) = (at(board, hf, hr), at(board, lf, lr))
            && ours(p, PieceType::Horse)
            && leg.is_none()
        {
            consider(hf, hr, PieceType::Horse);
        }
    }
    // Rooks (first piece along a line) and cannons (the piece after one screen).
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let (mut f, mut r) = (tf + df, tr + dr);
        let mut screens = 0;
        while let Some(p) = at(board, f, r) {
            if p.is_some() {
                if screens == 0 && ours(p, PieceType::Rook) {
                    consider(f, r, PieceType::Rook);
                }
                if screens == 1 && ours(p, PieceType::Cannon) {
                    consider(f, r, PieceType::Cannon);
                }
                screens += 1;
                if screens == 2 {
                    break;
                }
            }
            f += df;
            r += dr;
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
    let mut board: Board = std::array::from_fn(|i| pos.piece_at(Square::from_index(i)));
    board[to.index()] = board[from.index()];
    board[from.index()] = Piece::NONE;
    // gain[d]: what the side that made capture d has won if the exchange stops after it.
    let mut gain = [0i32; 40];
    gain[0] = first;
    let mut on_square = mover;
    let mut side = pos.side_to_move().flip();
    let mut d = 0;
    while d + 1 < gain.len() {
        let Some((s, v)) = least_attacker(&board, to, side) else {
            break;
        };
        d += 1;
        gain[d] = on_square - gain[d - 1];
        // Neither side can do better by going on: stop early.
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        board[to.index()] = board[s.index()];
        board[s.index()] = Piece::NONE;
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
            let board: Board = std::array::from_fn(|i| p.piece_at(Square::from_index(i)));
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
                let found = least_attacker(&board, to, us);
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
