//! Retrograde moves: the positions one move before a given one, for the moves that captured
//! nothing (a capture leaves the table: its positions come from the smaller tables). A move's
//! reverse is the same step for kings, advisors and elephants, the horse's with the leg next
//! to where it came from, the pawn's backwards, and a slide over empty points for rooks and
//! cannons (a cannon that captured nothing slid like a rook).

use crate::board::fen::reachable;
use crate::board::{Move, PieceType, Position, Square, Squares, bit};
use crate::movegen::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_ATTACKERS, KING_STEPS, PAWN_ATTACKERS, Steps,
};

const SLIDES: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

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
    let sliders = pos.pieces(mover, PieceType::Rook) | pos.pieces(mover, PieceType::Cannon);
    for y in Squares(sliders) {
        for (df, dr) in SLIDES {
            let (mut file, mut rank) = (y.file() as i8 + df, y.rank() as i8 + dr);
            while (0..9).contains(&file) && (0..10).contains(&rank) {
                let x = Square::new(file as u8, rank as u8);
                if bit(x) & empty == 0 {
                    break;
                }
                from(y, x);
                file += df;
                rank += dr;
            }
        }
    }
}
