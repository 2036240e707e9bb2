//! A table's positions as numbers: the kings' pair, then each group of like pieces as a
//! combination of the points it may stand on (advisors and elephants on their points, pawns
//! where a pawn can be, the kings in the palace), then the side to move. The board's
//! left-right mirror changes no verdict, so the Red king stands on the d or e file (and, on
//! the e file, the Black king too): 45 king pairs instead of 81.

use crate::board::fen::reachable;
use crate::board::{Color, Piece, PieceType, Position, Square};

use super::material::Material;

/// One group of like pieces: the points they may stand on and how many combinations.
#[derive(Clone, Debug)]
struct Group {
    piece: Piece,
    count: u8,
    domain: Vec<Square>,
    /// `domain.index(square)`, or `u8::MAX` where the piece cannot stand.
    slot: [u8; Square::COUNT],
    span: u64,
}

/// The numbering of one material's positions.
#[derive(Clone, Debug)]
pub struct Layout {
    pub material: Material,
    kings: Vec<(Square, Square)>,
    king_slot: [[u16; 9]; 9],
    groups: Vec<Group>,
    /// Placements per side to move.
    placements: u64,
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

fn palace(c: Color) -> Vec<Square> {
    (0..Square::COUNT)
        .map(Square::from_index)
        .filter(|&s| reachable(c, PieceType::King, s))
        .collect()
}

/// Index of a palace point among the nine (file 3..5, rank within the palace).
fn palace_index(s: Square) -> usize {
    let r = if s.rank() >= 7 {
        s.rank() - 7
    } else {
        s.rank()
    };
    usize::from(r) * 3 + usize::from(s.file() - 3)
}

/// Whether the kings stand as the mirror keeps them: Red on the d or e file, and Black on
/// the d or e file when Red is on the e file.
fn canonical_kings(red: Square, black: Square) -> bool {
    red.file() < 4 || (red.file() == 4 && black.file() <= 4)
}

impl Layout {
    pub fn new(material: Material) -> Layout {
        let mut kings = Vec::new();
        let mut king_slot = [[u16::MAX; 9]; 9];
        for &r in &palace(Color::Red) {
            for &b in &palace(Color::Black) {
                if canonical_kings(r, b) {
                    king_slot[palace_index(r)][palace_index(b)] = kings.len() as u16;
                    kings.push((r, b));
                }
            }
        }
        let groups: Vec<Group> = material
            .groups()
            .map(|(side, kind, count)| {
                let color = if side == 0 { Color::Red } else { Color::Black };
                let domain: Vec<Square> = (0..Square::COUNT)
                    .map(Square::from_index)
                    .filter(|&s| reachable(color, kind, s))
                    .collect();
                let mut slot = [u8::MAX; Square::COUNT];
                for (i, s) in domain.iter().enumerate() {
                    slot[s.index()] = i as u8;
                }
                Group {
                    piece: Piece::new(color, kind),
                    count,
                    span: binomial(domain.len() as u64, u64::from(count)),
                    domain,
                    slot,
                }
            })
            .collect();
        let placements = groups.iter().map(|g| g.span).product::<u64>() * kings.len() as u64;
        Layout {
            material,
            kings,
            king_slot,
            groups,
            placements,
        }
    }

    /// Numbers in the table: placements times two sides to move.
    pub fn size(&self) -> u64 {
        2 * self.placements
    }

    /// The position numbered `index`, or `None` where two pieces would share a point. The
    /// position may still be illegal (the side not to move in check), or, with both kings on
    /// the e file, the mirror image of the one `encode` numbers so (`encode` tells).
    pub fn decode(&self, index: u64) -> Option<Position> {
        let side = if index >= self.placements {
            Color::Black
        } else {
            Color::Red
        };
        let mut rest = index % self.placements;
        let mut pos = Position::empty();
        let put = |pos: &mut Position, p: Piece, s: Square| -> Option<()> {
            if pos.occupied() & crate::board::bit(s) != 0 {
                return None;
            }
            pos.put(p, s);
            Some(())
        };
        for g in self.groups.iter().rev() {
            let mut rank = rest % g.span;
            rest /= g.span;
            // Combinatorial number system: the largest slot first.
            let mut n = g.domain.len() as u64;
            for k in (1..=u64::from(g.count)).rev() {
                n -= 1;
                while binomial(n, k) > rank {
                    n -= 1;
                }
                rank -= binomial(n, k);
                put(&mut pos, g.piece, g.domain[n as usize])?;
            }
        }
        let (r, b) = self.kings[rest as usize];
        put(&mut pos, Piece::new(Color::Red, PieceType::King), r)?;
        put(&mut pos, Piece::new(Color::Black, PieceType::King), b)?;
        pos.set_side(side);
        Some(pos)
    }

    /// The number of `pos`, which must have this table's material with the stronger side as
    /// Red (`Material::of` says when to turn the board over first: `flip`). A position and its
    /// mirror image share a number: with both kings on the e file, the smaller of the two.
    pub fn encode(&self, pos: &Position, flip: bool) -> u64 {
        let view = |s: Square| if flip { s.flip_rank() } else { s };
        let colour = |c: Color| if flip { c.flip() } else { c };
        let (r, b) = (
            pos.king_square(colour(Color::Red)),
            pos.king_square(colour(Color::Black)),
        );
        let number = |mirror: bool| {
            let place = |s: Square| {
                let s = view(s);
                if mirror { s.mirror_file() } else { s }
            };
            let (r, b) = (place(r), place(b));
            let mut index = u64::from(self.king_slot[palace_index(r)][palace_index(b)]);
            for g in &self.groups {
                let own = colour(g.piece.color());
                let mut slots = [0u64; 5];
                let mut n = 0;
                for s in crate::board::Squares(pos.pieces(own, g.piece.kind())) {
                    slots[n] = u64::from(g.slot[place(s).index()]);
                    n += 1;
                }
                let slots = &mut slots[..n];
                slots.sort_unstable();
                let rank: u64 = slots
                    .iter()
                    .enumerate()
                    .map(|(i, &k)| binomial(k, i as u64 + 1))
                    .sum();
                index = index * g.span + rank;
            }
            index
        };
        let (vr, vb) = (view(r), view(b));
        let index = if vr.file() == 4 && vb.file() == 4 {
            number(false).min(number(true))
        } else {
            number(!canonical_kings(vr, vb))
        };
        let side = colour(pos.side_to_move());
        index
            + if side == Color::Black {
                self.placements
            } else {
                0
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forty_five_king_pairs_and_groups_as_combinations() {
        let l = Layout::new(Material::parse("KRKAA").unwrap());
        // 45 king pairs, 90 rook points, C(5, 2) advisor pairs, two sides to move.
        assert_eq!(l.size(), 2 * 45 * 90 * 10);
        let l = Layout::new(Material::parse("KPPKEE").unwrap());
        assert_eq!(l.size(), 2 * 45 * binomial(55, 2) * binomial(7, 2));
    }

    #[test]
    fn every_placement_decodes_and_encodes_back() {
        for name in ["KRKAA", "KPPKE", "KHKAE"] {
            let l = Layout::new(Material::parse(name).unwrap());
            let mut decoded = 0;
            for i in 0..l.size() {
                if let Some(pos) = l.decode(i) {
                    let j = l.encode(&pos, false);
                    let e_file = pos.king_square(Color::Red).file() == 4
                        && pos.king_square(Color::Black).file() == 4;
                    if j == i {
                        decoded += 1;
                    } else {
                        // Only the larger of a mirror pair with both kings on the e file.
                        assert!(e_file && j < i, "{name} {}", pos.to_fen());
                        assert_eq!(l.decode(j).map(|p| l.encode(&p, false)), Some(j));
                    }
                }
            }
            assert!(decoded > l.size() / 2, "{name}");
        }
    }

    #[test]
    fn a_mirrored_or_turned_position_has_the_same_number() {
        let l = Layout::new(Material::parse("KRKAA").unwrap());
        let pos = Position::from_fen("3ak4/4a4/9/9/9/9/9/9/9/R2K5 w").unwrap();
        let mirrored = Position::from_fen("4ka3/4a4/9/9/9/9/9/9/9/5K2R w").unwrap();
        let turned = Position::from_fen("r2k5/9/9/9/9/9/9/9/4A4/3AK4 b").unwrap();
        let i = l.encode(&pos, false);
        assert_eq!(l.encode(&mirrored, false), i);
        assert_eq!(l.encode(&turned, true), i);
    }
}
