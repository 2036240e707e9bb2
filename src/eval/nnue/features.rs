//! The net's inputs: one feature per (piece kind, whose piece, point), seen from each side.
//!
//! From Red's view a point is itself; from Black's the board is flipped rank for rank, so each
//! side sees its own pieces from the bottom, and the two views of a position and of its
//! colour-swapped twin are the same. "Whose": 0 for the viewer's own pieces, 1 for the
//! other side's. 2 × 7 × 90 = 1260 features, at most 32 active per view.

use crate::board::{Color, Piece, Square};

pub const FEATURES: usize = 2 * 7 * Square::COUNT;

/// The feature of `piece` on `sq` as `view` sees it.
#[inline(always)]
pub fn index(view: Color, piece: Piece, sq: Square) -> usize {
    let (theirs, sq) = match view {
        Color::Red => (piece.color() != Color::Red, sq),
        Color::Black => (piece.color() != Color::Black, sq.flip_rank()),
    };
    (usize::from(theirs) * 7 + piece.kind().index()) * Square::COUNT + sq.index()
}

/// The feature of `piece` on `sq` after the board is mirrored left to right (a symmetry of the
/// game: the trainer uses it to double its data).
#[inline(always)]
pub fn mirrored_index(view: Color, piece: Piece, sq: Square) -> usize {
    index(view, piece, sq.mirror_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PieceType;

    #[test]
    fn every_feature_is_reached_once() {
        let mut seen = vec![0u32; FEATURES];
        for view in Color::BOTH {
            seen.iter_mut().for_each(|s| *s = 0);
            for c in Color::BOTH {
                for k in PieceType::ALL {
                    for s in 0..Square::COUNT {
                        seen[index(view, Piece::new(c, k), Square::from_index(s))] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&n| n == 1));
        }
        // A Red rook on a0 is to Red what a Black rook on a9 is to Black.
        let red = index(
            Color::Red,
            Piece::new(Color::Red, PieceType::Rook),
            Square::new(0, 0),
        );
        let black = index(
            Color::Black,
            Piece::new(Color::Black, PieceType::Rook),
            Square::new(0, 9),
        );
        assert_eq!(red, black);
    }
}
