//! Retrograde moves: the positions one move before a given one, for the moves that captured
//! nothing (a capture leaves the table: its positions come from the smaller tables). A move's
//! reverse is the same step for kings, advisors and elephants, the horse's with the leg next
//! to where it came from, the pawn's backwards, and a slide over empty points for rooks and
//! cannons (a cannon that captured nothing slid like a rook).

use crate::board::fen::reachable;
use crate::board::{Move, PieceType, Position, Square, Squares, bit};
use crate::movegen::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, FILE_LINES, HORSE_ATTACKERS, KING_STEPS, PAWN_ATTACKERS,
    RANK_LINES, Steps,
};

/// Calls `f` with every legal position from which the side not to move in `pos` reached it
/// by a move that captured nothing.
pub fn predecessors(pos: &Position, mut f: impl FnMut(&Position)) {
    let mover = pos.side_to_move().flip();
    let empty = !pos.occupied();
    let mut from = |y: Square, x: Square| {
        let mut q = pos.clone();
        q.do_move(Move::new(y, x));
        // In the earlier position the side that did not move then must not be in check.
        if !q.is_attacked_king(mover.flip()) {
            f(&q);
        }
    };
    // Steps whose table names a point that must be empty (an elephant's eye, a horse's leg).
    let mut steps = |kind: PieceType, blocked: bool, table: &dyn Fn(Square) -> &'static Steps| {
        for y in Squares(pos.pieces(mover, kind)) {
            for (x, block) in table(y).iter() {
                let open = !blocked || bit(block) & empty != 0;
                if bit(x) & empty != 0 && open && reachable(mover, kind, x) {
                    from(y, x);
                }
            }
        }
    };
    steps(PieceType::King, false, &|y| &KING_STEPS[y.index()]);
    steps(PieceType::Advisor, false, &|y| &ADVISOR_STEPS[y.index()]);
    steps(PieceType::Elephant, true, &|y| &ELEPHANT_STEPS[y.index()]);
    steps(PieceType::Horse, true, &|y| &HORSE_ATTACKERS[y.index()]);
    steps(PieceType::Pawn, false, &|y| {
        &PAWN_ATTACKERS[mover.index()][y.index()]
    });
    // A slide that captured nothing crossed only empty points: the lines' empty reach.
    let sliders = pos.pieces(mover, PieceType::Rook) | pos.pieces(mover, PieceType::Cannon);
    for y in Squares(sliders) {
        let (f, r) = (y.file(), y.rank());
        let mut along = |mut reach: u16, at: &dyn Fn(u8) -> Square| {
            while reach != 0 {
                from(y, at(reach.trailing_zeros() as u8));
                reach &= reach - 1;
            }
        };
        along(
            RANK_LINES[f as usize][pos.rank_bits(r) as usize].empty,
            &|i| Square::new(i, r),
        );
        along(
            FILE_LINES[r as usize][pos.file_bits(f) as usize].empty,
            &|i| Square::new(f, i),
        );
    }
}
