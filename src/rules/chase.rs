//! Chase detection, exactly as `rules.md` defines it: which enemy pieces a side's attacks chase,
//! and which of them a move chases anew.

use crate::board::{Bitboard, Color, Move, PieceType, Position, Square, bit};
use crate::movegen::GenKind;

/// `pos` with `side` to move (passing if needed), to ask what `side` could legally capture.
fn with_side_to_move(pos: &Position, side: Color) -> Position {
    let mut view = pos.clone();
    if view.side_to_move() != side {
        view.do_null_move();
    }
    view
}

/// Attacks that are chases whether or not the target is protected.
fn always_chase(attacker: PieceType, target: PieceType) -> bool {
    use PieceType::*;
    matches!(
        (attacker, target),
        (Horse | Cannon, Rook) | (Advisor | Elephant, Rook | Cannon | Horse)
    )
}

/// Kinds whose mutual attacks are offers to exchange.
fn exchanges(kind: PieceType) -> bool {
    matches!(kind, PieceType::Rook | PieceType::Cannon | PieceType::Horse)
}

/// Whether the side to move can legally capture on `sq`.
fn can_capture_on(pos: &Position, sq: Square) -> bool {
    pos.generate_legal(GenKind::Captures)
        .iter()
        .any(|m| m.to() == sq)
}

/// The enemy pieces that `attacker`'s pieces chase in `pos`, whoever is to move: the squares of
/// the targets of its legal captures that count as chases.
pub fn chased_by(pos: &Position, attacker: Color) -> Bitboard {
    let view = with_side_to_move(pos, attacker);
    let defender = with_side_to_move(pos, attacker.flip());
    let mut chased = 0;
    for &m in view.generate_legal(GenKind::Captures).iter() {
        let (from, to) = (m.from(), m.to());
        let a = view.piece_at(from).kind();
        let target = view.piece_at(to);
        let t = target.kind();
        let never = matches!(a, PieceType::King | PieceType::Pawn)
            || t == PieceType::King
            || (t == PieceType::Pawn && to.on_own_side(target.color()));
        if never || chased & bit(to) != 0 {
            continue;
        }
        let chase = always_chase(a, t) || {
            // A target that can legally take back its own kind is offered an exchange.
            let exchange_offer = a == t && exchanges(t) && defender.is_legal(Move::new(to, from));
            !exchange_offer && {
                let mut taken = view.clone();
                taken.do_move(m);
                !can_capture_on(&taken, to)
            }
        };
        if chase {
            chased |= bit(to);
        }
    }
    chased
}

/// The enemy pieces chased anew by the move from `before` to `after` (one move apart): chased
/// by the mover after it and not before. Squares as they stand in `after` (the mover's move
/// does not move enemy pieces).
pub fn new_chases(before: &Position, after: &Position) -> Bitboard {
    let mover = before.side_to_move();
    chased_by(after, mover) & !chased_by(before, mover)
}
