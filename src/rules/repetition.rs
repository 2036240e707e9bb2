//! Judging a repetition by the Asian rules (`rules.md`): perpetual check, then perpetual chase of
//! one piece followed as it moves, else a draw.
//!
//! `rules.md` step 2 ("if any move in the cycle gave check: draw; checks mixed with chases are
//! allowed") is read per side, as the AXF rules and Fairy-Stockfish apply it: a side whose
//! checks alternate with idle moves or with chases of different pieces breaks no rule, but its
//! checks do not excuse the other side's perpetual chase, and a checking move that also chases
//! the piece keeps the chase going (AXF rule 32 and the diagrams of one check, one chase).

use crate::board::{Color, Move, Piece, Position, Square, Squares, Undo};

use super::chase::new_chases;
use super::verdict::Reason;

/// Judges the moves that led from an earlier occurrence of `end` back to `end`. `moves` yields
/// them last first, each with whether it gave check. No capture can lie between two occurrences
/// of a position, which lets the replay undo moves without their `Undo` records.
///
/// Returns `Reason::Repetition` for a draw, or the perpetual check or chase and who did it.
/// Works on stack copies of `end`; allocates nothing.
pub(crate) fn judge_cycle<I>(end: &Position, moves: I) -> Reason
where
    I: Iterator<Item = (Move, bool)> + Clone,
{
    // The last move was made by the side not to move at `end`; sides alternate going back.
    let last_mover = end.side_to_move().flip();
    let mut checks_all = [true; 2];
    let mut mover = last_mover;
    for (_, check) in moves.clone() {
        checks_all[mover.index()] &= check;
        mover = mover.flip();
    }
    match checks_all {
        [true, false] => return Reason::PerpetualCheck { by: Color::Red },
        [false, true] => return Reason::PerpetualCheck { by: Color::Black },
        [true, true] => return Reason::Repetition,
        _ => {}
    }

    // Follow each piece by its square in `end`: `id[s]` is where the piece now on `s` stands at
    // the end. Bit `i` of `chased[c]` says `c` newly chased the piece ending on square `i` with
    // every one of its moves so far.
    let mut id: [u8; Square::COUNT] = std::array::from_fn(|s| s as u8);
    let mut chased = [u128::MAX; 2];
    let mut pos = end.clone();
    let mut mover = last_mover;
    for (m, _) in moves {
        let after = pos.clone();
        let undo = Undo {
            captured: Piece::NONE,
            halfmove: pos.halfmove_clock().saturating_sub(1),
        };
        pos.undo_move(m, undo);
        id[m.from().index()] = id[m.to().index()];
        // Enemy pieces stand still during the mover's move, so `id` maps them in both positions.
        let mut ids = 0u128;
        for s in Squares(new_chases(&pos, m, &after)) {
            ids |= 1 << id[s.index()];
        }
        chased[mover.index()] &= ids;
        mover = mover.flip();
    }
    // One side chasing wins the judgement; both or neither draw.
    let chaser = match (chased[0] != 0, chased[1] != 0) {
        (true, false) => Color::Red,
        (false, true) => Color::Black,
        _ => return Reason::Repetition,
    };
    let square = Square::from_index(chased[chaser.index()].trailing_zeros() as usize);
    Reason::PerpetualChase {
        by: chaser,
        target: end.piece_at(square).kind(),
        square,
    }
}
