//! Correction history: how far the search's results have strayed from the static evaluation
//! in positions that share a structure (pawns, advisors, elephants and kings), a placement
//! of the attacking pieces (rooks, horses and cannons) or (by option) the last two moves. The
//! static evaluation is moved by the average error of its kind before the search prunes on it.

use crate::board::{Bitboard, Color, PieceType, Position};

use super::history::CONT_ROW;

/// Entries per side and table (a power of two).
const SIZE: usize = 16_384;
/// Entries stay within ±LIMIT; a correction of one centipawn is `GRAIN` units.
const LIMIT: i32 = 1_024;
const GRAIN: i32 = 8;

pub struct Correction {
    structure: [[i16; SIZE]; 2],
    attackers: [[i16; SIZE]; 2],
    /// Indexed by the (piece, destination) of the last two moves, see [`Correction::moves`];
    /// the pieces' colours tell the side to move.
    moves: Box<[i16]>,
}

/// A cheap hash of some bitboards; its high bits are the well mixed ones.
#[inline(always)]
pub(super) fn hash<const N: usize>(boards: [Bitboard; N]) -> u64 {
    let mut h = 0u64;
    for b in boards {
        h = (h ^ b as u64 ^ ((b >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    h
}

/// A table index from some bitboards.
#[inline(always)]
fn index<const N: usize>(boards: [Bitboard; N]) -> usize {
    (hash(boards) >> 40) as usize & (SIZE - 1)
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
            moves: vec![0; CONT_ROW * CONT_ROW].into_boxed_slice(),
        }
    }

    /// The index of the last two moves' entry, from their continuation-history rows (see
    /// `history::cont_row`; 0 for none): `None` after a null move.
    #[inline(always)]
    pub fn moves(before_last: usize, last: usize) -> Option<usize> {
        (last != 0).then_some(before_last + last / CONT_ROW)
    }

    /// The correction to add to the static evaluation of `pos`, in centipawns; the entry of
    /// the last two moves, where given, counts `percent` of the others.
    #[inline]
    pub fn value(&self, pos: &Position, moves: Option<usize>, percent: i32) -> i32 {
        let (side, s, a) = keys(pos);
        let m = moves.map_or(0, |i| i32::from(self.moves[i]) * percent / 100);
        (i32::from(self.structure[side][s]) + i32::from(self.attackers[side][a]) + m) / (2 * GRAIN)
    }

    /// A search of `depth` found `result` where the corrected static evaluation said `eval`.
    #[inline]
    pub fn update(
        &mut self,
        pos: &Position,
        moves: Option<usize>,
        depth: i32,
        result: i32,
        eval: i32,
    ) {
        let bonus = ((result - eval) * depth / 8 * GRAIN).clamp(-LIMIT / 4, LIMIT / 4);
        let (side, s, a) = keys(pos);
        let learn = |h: &mut i16| {
            let v = i32::from(*h);
            *h = (v + bonus - v * bonus.abs() / LIMIT) as i16;
        };
        learn(&mut self.structure[side][s]);
        learn(&mut self.attackers[side][a]);
        if let Some(i) = moves {
            learn(&mut self.moves[i]);
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
        let value = |c: &Correction, pos| c.value(pos, None, 0);
        assert_eq!(value(&c, &pos), 0);
        c.update(&pos, None, 8, 40, 0);
        let first = value(&c, &pos);
        assert!(first > 0, "{first}");
        for _ in 0..1000 {
            c.update(&pos, None, 20, 5_000, 0);
        }
        let high = value(&c, &pos);
        assert!(high > first && high <= LIMIT / GRAIN, "{high}");
        for _ in 0..1000 {
            c.update(&pos, None, 20, -5_000, 0);
        }
        assert!(value(&c, &pos) < 0);
        // The other side to move reads its own entries.
        let mut other = pos.clone();
        other.set_side(Color::Black);
        assert_eq!(value(&c, &other), 0);
    }

    /// The last two moves' entry learns only where given, and counts by its weight.
    #[test]
    fn the_last_two_moves_entry_counts_by_its_weight() {
        let pos = Position::startpos();
        let mut c = Correction::new();
        let (a, b) = (3 * CONT_ROW, 7 * CONT_ROW);
        assert_eq!(Correction::moves(a, 0), None);
        let here = Correction::moves(a, b);
        let there = Correction::moves(b, a);
        assert_ne!(here, there);
        for _ in 0..1000 {
            c.update(&pos, here, 20, 5_000, 0);
        }
        // Structure, attackers and the moves' entry near their bound alike.
        let both = c.value(&pos, None, 0);
        assert_eq!(c.value(&pos, here, 0), both);
        assert_eq!(c.value(&pos, there, 100), both);
        assert!(c.value(&pos, here, 100) > both);
        assert!(c.value(&pos, here, 50) < c.value(&pos, here, 100));
    }
}
