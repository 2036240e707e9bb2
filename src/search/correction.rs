//! Correction history: how far the search's results have strayed from the static evaluation
//! in positions that share a structure (pawns, advisors, elephants and kings) or a placement
//! of the attacking pieces (rooks, horses and cannons). The static evaluation is moved by the
//! average error of its kind before the search prunes on it.

use crate::board::{Bitboard, Color, PieceType, Position};

/// Entries per side and table (a power of two).
const SIZE: usize = 16_384;
/// Entries stay within ±LIMIT; a correction of one centipawn is `GRAIN` units.
const LIMIT: i32 = 1_024;
const GRAIN: i32 = 8;

pub struct Correction {
    structure: [[i16; SIZE]; 2],
    attackers: [[i16; SIZE]; 2],
}

/// A cheap hash of some bitboards to a table index.
#[inline(always)]
fn index<const N: usize>(boards: [Bitboard; N]) -> usize {
    let mut h = 0u64;
    for b in boards {
        h = (h ^ b as u64 ^ ((b >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    (h >> 40) as usize & (SIZE - 1)
}

/// The side to move and its two table indices in `pos`.
#[inline(always)]
fn keys(pos: &Position) -> (usize, usize, usize) {
    let p = |c, k| pos.pieces(c, k);
    let (r, b) = (Color::Red, Color::Black);
    let structure = index([
        p(r, PieceType::Pawn),
        p(b, PieceType::Pawn),
        p(r, PieceType::Advisor) | p(b, PieceType::Advisor),
        p(r, PieceType::Elephant) | p(b, PieceType::Elephant),
        p(r, PieceType::King) | p(b, PieceType::King),
    ]);
    let attackers = index([
        p(r, PieceType::Rook),
        p(b, PieceType::Rook),
        p(r, PieceType::Horse),
        p(b, PieceType::Horse),
        p(r, PieceType::Cannon),
        p(b, PieceType::Cannon),
    ]);
    (pos.side_to_move().index(), structure, attackers)
}

impl Correction {
    pub fn new() -> Correction {
        Correction {
            structure: [[0; SIZE]; 2],
            attackers: [[0; SIZE]; 2],
        }
    }

    /// The correction to add to the static evaluation of `pos`, in centipawns.
    #[inline]
    pub fn value(&self, pos: &Position) -> i32 {
        let (side, s, a) = keys(pos);
        (i32::from(self.structure[side][s]) + i32::from(self.attackers[side][a])) / (2 * GRAIN)
    }

    /// A search of `depth` found `result` where the corrected static evaluation said `eval`.
    #[inline]
    pub fn update(&mut self, pos: &Position, depth: i32, result: i32, eval: i32) {
        let bonus = ((result - eval) * depth / 8 * GRAIN).clamp(-LIMIT / 4, LIMIT / 4);
        let (side, s, a) = keys(pos);
        for h in [&mut self.structure[side][s], &mut self.attackers[side][a]] {
            let v = i32::from(*h);
            *h = (v + bonus - v * bonus.abs() / LIMIT) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_of_one_sign_move_the_correction_that_way_within_its_bound() {
        let pos = Position::startpos();
        let mut c = Correction::new();
        assert_eq!(c.value(&pos), 0);
        c.update(&pos, 8, 40, 0);
        let first = c.value(&pos);
        assert!(first > 0, "{first}");
        for _ in 0..1000 {
            c.update(&pos, 20, 5_000, 0);
        }
        let high = c.value(&pos);
        assert!(high > first && high <= LIMIT / GRAIN, "{high}");
        for _ in 0..1000 {
            c.update(&pos, 20, -5_000, 0);
        }
        assert!(c.value(&pos) < 0);
        // The other side to move reads its own entries.
        let mut other = pos.clone();
        other.set_side(Color::Black);
        assert_eq!(c.value(&other), 0);
    }
}
