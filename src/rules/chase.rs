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

#[cfg(test)]
mod tests {
    use super::*;

    /// Squares `attacker` chases in `fen`, as text.
    fn chased(fen: &str, attacker: Color) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        crate::board::Squares(chased_by(&pos, attacker))
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn horses_offer_an_exchange_unless_the_target_is_lame() {
        // Red horse c3 and Black horse d5 attack each other (legs c4 and d4 empty).
        let mutual = "3k5/9/9/9/3n5/9/2N6/9/9/4K4 w - - 0 1";
        assert!(chased(mutual, Color::Red).is_empty());
        assert!(chased(mutual, Color::Black).is_empty());
        // A Black pawn on d4 lames the d5 horse: it cannot take back, so Red chases it.
        let lame = "3k5/9/9/9/3n5/3p5/2N6/9/9/4K4 w - - 0 1";
        assert_eq!(chased(lame, Color::Red), ["d5"]);
        assert!(chased(lame, Color::Black).is_empty());
    }

    #[test]
    fn a_rook_that_cannot_take_back_is_chased() {
        // The a5 rook attacks the e5 rook, which the e1 rook pins to the e9 king: it may not
        // take back on a5, so the attack is a chase (e1 against e5 stays an exchange offer).
        let pinned = "4k4/9/9/9/R3r4/9/9/9/4R4/3K5 w - - 0 1";
        assert_eq!(chased(pinned, Color::Red), ["e5"]);
        // With the second rook on i1 the e5 rook could take back: an exchange offer.
        let free = "4k4/9/9/9/R3r4/9/9/9/8R/3K5 w - - 0 1";
        assert!(chased(free, Color::Red).is_empty());
    }

    #[test]
    fn cannons_offer_an_exchange() {
        // a5 and e5 cannons see each other over the c5 pawn.
        let fen = "4k4/9/9/9/C1p1c4/9/9/9/9/3K5 w - - 0 1";
        assert!(chased(fen, Color::Red).is_empty());
        assert!(chased(fen, Color::Black).is_empty());
    }

    #[test]
    fn advisors_and_elephants_chase_protected_pieces() {
        // The e1 advisor attacks the d2 rook, which the d7 rook protects.
        assert_eq!(
            chased("4k4/9/3r5/9/9/9/9/3r5/4A4/5K3 w - - 0 1", Color::Red),
            ["d2"]
        );
        // The e2 elephant attacks the c4 horse, which the c8 rook protects.
        assert_eq!(
            chased("4k4/2r6/9/9/9/2n6/9/4B4/9/3K5 w - - 0 1", Color::Red),
            ["c4"]
        );
    }

    #[test]
    fn the_chasing_capture_must_be_legal() {
        // The e3 rook attacks the a3 horse but is pinned to the e0 king by the e7 rook.
        let pinned = "3k5/9/4r4/9/9/9/n3R4/9/9/4K4 w - - 0 1";
        assert!(chased(pinned, Color::Red).is_empty());
        let free = "3k5/9/8r/9/9/9/n3R4/9/9/4K4 w - - 0 1";
        assert_eq!(chased(free, Color::Red), ["a3"]);
    }

    #[test]
    fn pawns_count_once_across_the_river() {
        // The c3 rook attacks a pawn on c6 (not crossed) and one on c4 (crossed).
        assert!(chased("4k4/9/9/2p6/9/9/2R6/9/9/3K5 w - - 0 1", Color::Red).is_empty());
        assert_eq!(
            chased("4k4/9/9/9/9/2p6/2R6/9/9/3K5 w - - 0 1", Color::Red),
            ["c4"]
        );
    }

    #[test]
    fn kings_are_neither_chased_nor_chasers() {
        // The e1 rook checks the king: that is no chase.
        assert!(chased("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1", Color::Red).is_empty());
        // The e1 king attacks the unprotected d1 cannon: no chase, but a d0 rook attacking it is.
        assert!(chased("4k4/4a4/9/9/9/9/9/9/3cK4/9 w - - 0 1", Color::Red).is_empty());
        assert_eq!(
            chased("4k4/4a4/9/9/9/9/9/9/3cK4/3R5 w - - 0 1", Color::Red),
            ["d1"]
        );
    }

    #[test]
    fn new_chases_are_the_ones_a_move_adds() {
        // h3g3 attacks the unprotected g7 horse.
        let before = Position::from_fen("4k4/9/6n2/9/9/9/7R1/9/9/3K5 w - - 0 1").unwrap();
        let mut after = before.clone();
        after.do_move(before.parse_move("h3g3").unwrap());
        assert_eq!(new_chases(&before, &after), bit(Square::new(6, 7)));
        // The Black horse stepping out of the attack chases nothing back.
        let mut escaped = after.clone();
        escaped.do_move(after.parse_move("g7h9").unwrap());
        assert_eq!(new_chases(&after, &escaped), 0);
    }
}
