//! Chase detection, as `rules.md` defines it: which enemy pieces a move chases anew.
//!
//! "Newly attacks" is judged per attacker: a chase counts for a move when the attacking piece
//! did not attack its target before the move (it moved, or the move uncovered it: opened a
//! rook's line, gave a cannon its screen, freed a horse's leg or an elephant's eye). An attacker
//! that stood on its target all along chases anew only when the move took a guard away by
//! pinning it (the guard still bears on the target but may no longer answer legally), as
//! Fairy-Stockfish rules ("fake roots") and the AXF rules' pinned-defender diagrams do; a move
//! that merely blocks a guard's line does not count (AXF rule 19, diagrams 39 to 41: an attacker
//! that never moves does not chase). The rule books' appendix example, where blocking a guard
//! is called a chase, is the one source that reads otherwise.

use crate::board::{Bitboard, Color, Move, Piece, PieceType, Position, Square, bit};
use crate::movegen::{GenKind, MoveList};

/// `pos` with `side` to move (passing if needed), to ask what `side` could capture.
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

/// Whether a capture by `attacker` of `target` on `to` can be a chase at all: kings and pawns
/// never chase, a king is never chased (that is check), nor a pawn on its own side of the river.
fn may_chase(attacker: PieceType, target: Piece, to: Square) -> bool {
    let t = target.kind();
    !matches!(attacker, PieceType::King | PieceType::Pawn)
        && t != PieceType::King
        && !(t == PieceType::Pawn && to.on_own_side(target.color()))
}

/// The enemy pieces that keep a capture from being a chase: the target when it could take back
/// its own kind (an offer to exchange), and every piece that could recapture on its square.
#[derive(Clone, Copy, Debug, Default)]
struct Guards {
    /// Those whose answer would be legal.
    legal: Bitboard,
    /// Those whose answer obeys the movement rules, legal or not (a pinned guard is here only).
    bearing: Bitboard,
}

/// How a capture stands as a chase.
#[derive(Clone, Copy, Debug)]
enum Attack {
    /// A chase whatever guards the target.
    Always,
    /// A chase when no guard may legally answer.
    Guarded(Guards),
}

impl Attack {
    fn chases(self) -> bool {
        match self {
            Attack::Always => true,
            Attack::Guarded(g) => g.legal == 0,
        }
    }
}

/// The capture `m` by the side to move in `view` (pseudo-legal there; `defender` is the same
/// position with the other side to move) as a chase: `None` when it can never be one.
fn attack(view: &Position, defender: &Position, m: Move) -> Option<Attack> {
    let (from, to) = (m.from(), m.to());
    let (a, target) = (view.piece_at(from).kind(), view.piece_at(to));
    if !may_chase(a, target, to) {
        return None;
    }
    if always_chase(a, target.kind()) {
        return Some(Attack::Always);
    }
    let mut g = Guards::default();
    let back = Move::new(to, from);
    if a == target.kind() && exchanges(a) && defender.is_pseudo_legal(back) {
        g.bearing |= bit(to);
        if defender.is_legal(back) {
            g.legal |= bit(to);
        }
    }
    // Recaptures after the capture; a pinned guard does not protect.
    let mut taken = view.clone();
    taken.do_move(m);
    let in_check = taken.in_check();
    let mut answers = MoveList::new();
    taken.generate_pseudo(GenKind::Captures, &mut answers);
    for &r in answers.iter().filter(|r| r.to() == to) {
        g.bearing |= bit(r.from());
        if taken.is_legal_pseudo(r, in_check) {
            g.legal |= bit(r.from());
        }
    }
    Some(Attack::Guarded(g))
}

/// The enemy pieces chased anew by `m`, played from `before` to reach `after`: chased by an
/// attacker after it and new by the per-attacker reading above. Squares as they stand in
/// `after` (the mover's move does not move enemy pieces).
pub fn new_chases(before: &Position, m: Move, after: &Position) -> Bitboard {
    let mover = before.side_to_move();
    let view = with_side_to_move(after, mover);
    let defender_before = with_side_to_move(before, mover.flip());
    let mut chased = 0;
    for &c in view.generate_legal(GenKind::Captures).iter() {
        let (from, to) = (c.from(), c.to());
        if chased & bit(to) != 0 {
            continue;
        }
        let Some(now) = attack(&view, after, c).filter(|a| a.chases()) else {
            continue;
        };
        let earlier = Move::new(if from == m.to() { m.from() } else { from }, to);
        let new = !before.is_pseudo_legal(earlier)
            || match (now, attack(before, &defender_before, earlier)) {
                (Attack::Guarded(g), Some(Attack::Guarded(old))) => old.legal & g.bearing != 0,
                _ => false,
            };
        if new {
            chased |= bit(to);
        }
    }
    chased
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Squares `attacker` chases in `fen` (every chase, new or not), as text.
    fn chased(fen: &str, attacker: Color) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let view = with_side_to_move(&pos, attacker);
        let defender = with_side_to_move(&pos, attacker.flip());
        let mut squares: Vec<String> = view
            .generate_legal(GenKind::Captures)
            .iter()
            .filter(|&&m| attack(&view, &defender, m).is_some_and(Attack::chases))
            .map(|m| m.to().to_string())
            .collect();
        squares.sort();
        squares.dedup();
        squares
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
        let m = before.parse_move("h3g3").unwrap();
        let mut after = before.clone();
        after.do_move(m);
        assert_eq!(new_chases(&before, m, &after), bit(Square::new(6, 7)));
        // The Black horse stepping out of the attack chases nothing back.
        let escape = after.parse_move("g7h9").unwrap();
        let mut escaped = after.clone();
        escaped.do_move(escape);
        assert_eq!(new_chases(&after, escape, &escaped), 0);
    }
}
