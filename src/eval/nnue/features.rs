//! The net's inputs: one feature per (piece kind, whose piece, point), seen from each side,
//! in one block per point of the viewer's king (king buckets).
//!
//! From Red's view a point is itself; from Black's the board is flipped rank for rank, so each
//! side sees its own pieces from the bottom, and the two views of a position and of its
//! colour-swapped twin are the same. "Whose": 0 for the viewer's own pieces, 1 for the
//! other side's. 2 × 7 × 90 = 1260 features a block, at most 32 active per view.
//!
//! A net of one block reads every position alike. A net of `KING_BUCKETS` blocks picks the
//! block by its own king's point in the palace, and where that king stands on the right-hand
//! file the view is mirrored left to right (a symmetry of the game), so the nine palace points
//! make six blocks and the same block learns both wings.

use crate::board::{Color, Piece, Square};

/// Features of one block.
pub const FEATURES: usize = 2 * 7 * Square::COUNT;
/// Blocks of a king-bucketed net: the palace's three ranks times the middle file and one side
/// file (the other side file mirrored onto it).
pub const KING_BUCKETS: usize = 6;
/// Frames a view can be read in: each king bucket, mirrored or not.
pub const FRAMES: usize = 2 * KING_BUCKETS;

/// Output layers of a net with one per material: by the number of pieces on the board.
pub const OUTPUT_BUCKETS: usize = 8;

/// The output layer that reads a position of `pieces` pieces (kings included) in a net of
/// `buckets` output layers (1 or `OUTPUT_BUCKETS`): four pieces more, one layer up.
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    if buckets == 1 {
        0
    } else {
        ((pieces.saturating_sub(2) / 4) as usize).min(OUTPUT_BUCKETS - 1)
    }
}

/// How one view reads the board: the first feature of its block, and whether it mirrors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    base: usize,
    mirror: bool,
}

impl Frame {
    /// The frame of `view`, whose king stands on `king`, in a net of `buckets` blocks (1 or
    /// `KING_BUCKETS`).
    #[inline(always)]
    pub fn of(view: Color, king: Square, buckets: usize) -> Frame {
        if buckets == 1 {
            return Frame {
                base: 0,
                mirror: false,
            };
        }
        let own = match view {
            Color::Red => king,
            Color::Black => king.flip_rank(),
        };
        // The palace: files d–f (3–5), ranks 0–2 from the viewer's side.
        let (file, rank) = (usize::from(own.file()), usize::from(own.rank()));
        let mirror = file == 5;
        let column = if file == 4 { 1 } else { 0 };
        Frame {
            base: (rank * 2 + column) * FEATURES,
            mirror,
        }
    }

    /// This frame's place among `FRAMES`: its block, and whether it mirrors.
    #[inline(always)]
    pub fn slot(self) -> usize {
        self.base / FEATURES * 2 + usize::from(self.mirror)
    }

    /// The feature of `piece` on `sq` as `view` sees it in this frame.
    #[inline(always)]
    pub fn index(self, view: Color, piece: Piece, sq: Square) -> usize {
        let sq = if self.mirror { sq.mirror_file() } else { sq };
        let (theirs, sq) = match view {
            Color::Red => (piece.color() != Color::Red, sq),
            Color::Black => (piece.color() != Color::Black, sq.flip_rank()),
        };
        self.base + (usize::from(theirs) * 7 + piece.kind().index()) * Square::COUNT + sq.index()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PieceType;

    fn every_feature_once(view: Color, frame: Frame) -> Vec<u32> {
        let mut seen = vec![0u32; KING_BUCKETS * FEATURES];
        for c in Color::BOTH {
            for k in PieceType::ALL {
                for s in 0..Square::COUNT {
                    seen[frame.index(view, Piece::new(c, k), Square::from_index(s))] += 1;
                }
            }
        }
        seen
    }

    #[test]
    fn each_block_is_reached_once_and_the_palace_makes_six() {
        for view in Color::BOTH {
            let mut blocks = std::collections::BTreeSet::new();
            for file in 3..=5u8 {
                for rank in 0..=2u8 {
                    let own = Square::new(file, rank);
                    let king = if view == Color::Red {
                        own
                    } else {
                        own.flip_rank()
                    };
                    let frame = Frame::of(view, king, KING_BUCKETS);
                    let seen = every_feature_once(view, frame);
                    let block = &seen[frame.base..frame.base + FEATURES];
                    assert!(block.iter().all(|&n| n == 1));
                    assert_eq!(seen.iter().sum::<u32>() as usize, FEATURES);
                    blocks.insert(frame.base / FEATURES);
                    // The king on the right-hand file reads its board mirrored.
                    assert_eq!(frame.mirror, file == 5);
                }
            }
            assert_eq!(blocks.len(), KING_BUCKETS);
        }
    }

    #[test]
    fn one_block_is_the_plain_net_and_the_views_agree() {
        let king = Square::new(5, 1);
        assert_eq!(
            Frame::of(Color::Red, king, 1),
            Frame {
                base: 0,
                mirror: false
            }
        );
        // A Red rook on a0 is to Red what a Black rook on a9 is to Black.
        let rook = |c| Piece::new(c, PieceType::Rook);
        let red = Frame::of(Color::Red, Square::new(4, 0), 1).index(
            Color::Red,
            rook(Color::Red),
            Square::new(0, 0),
        );
        let black = Frame::of(Color::Black, Square::new(4, 9), 1).index(
            Color::Black,
            rook(Color::Black),
            Square::new(0, 9),
        );
        assert_eq!(red, black);
        // Kings on d0 and f0 share a block: a rook on a0 beside the one is a rook on i0 beside
        // the other.
        let d = Frame::of(Color::Red, Square::new(3, 0), KING_BUCKETS);
        let f = Frame::of(Color::Red, Square::new(5, 0), KING_BUCKETS);
        assert_eq!(
            d.index(Color::Red, rook(Color::Red), Square::new(0, 0)),
            f.index(Color::Red, rook(Color::Red), Square::new(8, 0))
        );
    }

    #[test]
    fn output_layers_climb_with_material_and_each_is_reached() {
        let layers: Vec<usize> = (2..=32).map(|n| output_bucket(n, OUTPUT_BUCKETS)).collect();
        assert!(layers.windows(2).all(|w| w[0] <= w[1] && w[1] <= w[0] + 1));
        assert_eq!((layers[0], layers[30]), (0, OUTPUT_BUCKETS - 1));
        assert!((2..=32).all(|n| output_bucket(n, 1) == 0));
    }
}
