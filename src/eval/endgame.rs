//! Endgame knowledge: material balances that theory holds drawn (or hard to win) however far
//! ahead the material count looks. The evaluation is scaled toward zero for them.

use crate::board::{Color, PieceType, Position, Squares};

/// The full scale: the evaluation counts as it is.
pub const FULL: i32 = 16;

/// How much of its lead `strong` can hope to convert, in sixteenths (`FULL` = all of it).
pub fn scale(pos: &Position, strong: Color) -> i32 {
    let weak = strong.flip();
    let n = |c: Color, k: PieceType| pos.count(c, k) as i32;
    let (rooks, horses, cannons) = (
        n(strong, PieceType::Rook),
        n(strong, PieceType::Horse),
        n(strong, PieceType::Cannon),
    );
    if rooks + horses + cannons > 2 {
        return FULL;
    }
    // A pawn on the enemy back rank cannot help to mate on its own.
    let pawns = Squares(pos.pieces(strong, PieceType::Pawn))
        .filter(|s| match strong {
            Color::Red => s.rank() < 9,
            Color::Black => s.rank() > 0,
        })
        .count() as i32;
    let defenders = n(weak, PieceType::Advisor) + n(weak, PieceType::Elephant);
    let weak_rooks = n(weak, PieceType::Rook);
    let weak_pieces = weak_rooks + n(weak, PieceType::Horse) + n(weak, PieceType::Cannon);
    let own_screens = n(strong, PieceType::Advisor) + n(strong, PieceType::Elephant);
    match (rooks, horses, cannons, pawns) {
        // Nothing left that can give mate.
        (0, 0, 0, 0) => 0,
        // A lone cannon needs a screen of its own and a bare king to mate.
        (0, 0, 1, 0) if defenders > 0 || own_screens == 0 || weak_pieces > 0 => 1,
        // A lone horse beats a bare king, not a full defence.
        (0, 1, 0, 0) if defenders >= 3 || weak_pieces > 0 => 2,
        (0, 1, 0, 0) if defenders >= 1 => 8,
        // A single pawn is held by any two defenders.
        (0, 0, 0, 1) if defenders >= 2 || weak_pieces > 0 => 2,
        // Rook against advisors and elephants, or against a minor piece with a full defence.
        (1, 0, 0, 0) if weak_pieces == 0 && defenders == 4 => 5,
        (1, 0, 0, 0) if weak_pieces == 1 && weak_rooks == 0 && defenders == 4 => 6,
        // Rook against rook: extra advisors and elephants do not win, nor does one pawn
        // against two defenders, nor a minor piece against a full defence.
        (1, 0, 0, 0) if weak_rooks > 0 => 2,
        (1, 0, 0, 1) if weak_rooks > 0 && defenders >= 2 => 6,
        (1, 1, 0, 0) | (1, 0, 1, 0) if weak_rooks > 0 && defenders == 4 => 6,
        // A minor piece and one pawn against a full defence is hard, against a defended piece
        // harder.
        (0, 1, 0, 1) | (0, 0, 1, 1) if weak_pieces > 0 && defenders >= 2 => 6,
        (0, 1, 0, 1) | (0, 0, 1, 1) if defenders == 4 => 10,
        _ => FULL,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scale_of(fen: &str) -> i32 {
        scale(&Position::from_fen(fen).unwrap(), Color::Red)
    }

    #[test]
    fn drawn_balances_are_scaled_down() {
        // Rook against a full defence.
        assert_eq!(scale_of("2bak4/4a4/4b4/9/9/9/9/9/4R4/4K4 w - - 0 1"), 5);
        // Lone horse against a full defence, and against a bare king.
        assert_eq!(scale_of("2bak4/4a4/4b4/9/9/9/9/9/4N4/4K4 w - - 0 1"), 2);
        assert_eq!(scale_of("4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1"), FULL);
        // A lone cannon without a screen of its own.
        assert_eq!(scale_of("4k4/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1"), 1);
        // Rook against rook, with a pawn, with a horse; a pawn on the last rank does not count.
        assert_eq!(scale_of("3k5/9/9/9/9/9/9/r8/4R4/2BAKAB2 w - - 0 1"), 2);
        assert_eq!(scale_of("3k1P3/9/9/9/9/9/9/r8/4R4/2BAKAB2 w - - 0 1"), 2);
        assert_eq!(scale_of("3ak4/4a4/9/4P4/9/9/9/r8/4R4/2BAKAB2 w - - 0 1"), 6);
        assert_eq!(scale_of("2bak4/4a4/4b4/9/9/9/9/r8/3NR4/4K4 w - - 0 1"), 6);
        // Horse and pawn against a cannon and two advisors.
        assert_eq!(
            scale_of("3k5/4a4/5a3/4P4/9/9/9/c8/4N4/2BAKAB2 w - - 0 1"),
            6
        );
        // A pawn too deep to matter.
        assert_eq!(scale_of("P2k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"), 0);
    }

    #[test]
    fn winning_material_keeps_its_value() {
        // Two attacking pieces, or a rook against a broken defence.
        assert_eq!(scale_of("2bak4/4a4/4b4/9/9/9/9/9/3RR4/4K4 w - - 0 1"), FULL);
        assert_eq!(scale_of("3ak4/4a4/9/9/9/9/9/9/4R4/4K4 w - - 0 1"), FULL);
        // Rook and pawn against a bare rook; rook and horse against a broken defence; three
        // attacking pieces.
        assert_eq!(scale_of("3k5/9/9/4P4/9/9/9/r8/4R4/4K4 w - - 0 1"), FULL);
        assert_eq!(scale_of("3ak4/4a4/9/9/9/9/9/r8/3NR4/4K4 w - - 0 1"), FULL);
        assert_eq!(
            scale_of("2bak4/4a4/4b4/9/9/9/9/r8/2CNR4/4K4 w - - 0 1"),
            FULL
        );
    }
}
