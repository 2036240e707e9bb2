//! What a table holds: the pieces of each side, named as `KRKAA`. The stronger side comes
//! first and stands as Red in the table; a position whose Black is the stronger side is probed
//! with its colours swapped (the board turned over).

use std::fmt;

use crate::board::{Color, PieceType, Position};

/// The kinds a name may hold after each `K`, in the order names and indices give them.
pub const KINDS: [PieceType; 6] = [
    PieceType::Rook,
    PieceType::Horse,
    PieceType::Cannon,
    PieceType::Pawn,
    PieceType::Advisor,
    PieceType::Elephant,
];

/// Piece counts of the two sides: `[0]` the stronger (Red in the table), `[1]` the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    counts: [[u8; 6]; 2],
}

fn letter(k: PieceType) -> char {
    match k {
        PieceType::Rook => 'R',
        PieceType::Horse => 'H',
        PieceType::Cannon => 'C',
        PieceType::Pawn => 'P',
        PieceType::Advisor => 'A',
        PieceType::Elephant => 'E',
        PieceType::King => 'K',
    }
}

/// How much a side's pieces can attack with: what orders the sides (rook, cannon, horse,
/// pawn, then the defenders).
fn weight(counts: &[u8; 6]) -> [u8; 6] {
    [
        counts[0], counts[2], counts[1], counts[3], counts[4], counts[5],
    ]
}

impl Material {
    /// Parses `KRKAA` (also accepts the sides in either order: the stronger goes first).
    pub fn parse(name: &str) -> Result<Material, String> {
        let bad =
            || format!("'{name}' is not a material such as KRKAA (K, then R H C P A E, twice)");
        let rest = name.strip_prefix('K').ok_or_else(bad)?;
        let (a, b) = rest.split_once('K').ok_or_else(bad)?;
        let mut counts = [[0u8; 6]; 2];
        for (side, text) in [a, b].into_iter().enumerate() {
            let mut last = 0;
            for ch in text.chars() {
                let i = KINDS
                    .iter()
                    .position(|&k| letter(k) == ch)
                    .ok_or_else(bad)?;
                if i < last {
                    return Err(format!("'{name}': name pieces in the order R H C P A E"));
                }
                last = i;
                counts[side][i] += 1;
                if u32::from(counts[side][i]) > KINDS[i].max_count() {
                    return Err(format!("'{name}': too many {}s", KINDS[i].name()));
                }
            }
        }
        Ok(Material::canonical(counts).0)
    }

    /// The sides ordered stronger first; true when that swapped them.
    fn canonical(counts: [[u8; 6]; 2]) -> (Material, bool) {
        if weight(&counts[1]) > weight(&counts[0]) {
            (
                Material {
                    counts: [counts[1], counts[0]],
                },
                true,
            )
        } else {
            (Material { counts }, false)
        }
    }

    /// The material of a position, and whether its Black is the table's Red.
    pub fn of(pos: &Position) -> (Material, bool) {
        let mut counts = [[0u8; 6]; 2];
        for c in Color::BOTH {
            for (i, &k) in KINDS.iter().enumerate() {
                counts[c.index()][i] = pos.count(c, k) as u8;
            }
        }
        Material::canonical(counts)
    }

    /// Whether `side` has a rook, horse, cannon or pawn.
    pub fn attacks(&self, side: usize) -> bool {
        self.counts[side][..4].iter().any(|&n| n > 0)
    }

    /// Pieces on the board, kings included.
    pub fn pieces(&self) -> u32 {
        2 + self
            .counts
            .iter()
            .flatten()
            .map(|&n| u32::from(n))
            .sum::<u32>()
    }

    /// Neither side can ever mate: a draw, with no table.
    pub fn is_dead_draw(&self) -> bool {
        !self.attacks(0) && !self.attacks(1)
    }

    /// Every material one capture leads to (either side losing one piece), in canonical form.
    pub fn captures(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for side in 0..2 {
            for i in 0..6 {
                if self.counts[side][i] > 0 {
                    let mut c = self.counts;
                    c[side][i] -= 1;
                    let m = Material::canonical(c).0;
                    if !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// The pieces of both sides besides the kings, as (side, kind, count), in index order.
    pub fn groups(&self) -> impl Iterator<Item = (usize, PieceType, u8)> + '_ {
        (0..2).flat_map(move |side| {
            KINDS
                .iter()
                .enumerate()
                .filter(move |&(i, _)| self.counts[side][i] > 0)
                .map(move |(i, &k)| (side, k, self.counts[side][i]))
        })
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for side in 0..2 {
            write!(f, "K")?;
            for (i, &k) in KINDS.iter().enumerate() {
                for _ in 0..self.counts[side][i] {
                    write!(f, "{}", letter(k))?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_with_the_stronger_side_first() {
        for name in ["KRKAA", "KHPKAE", "KCKAAEE", "KRRK", "KPKP", "KK"] {
            assert_eq!(Material::parse(name).unwrap().to_string(), name);
        }
        assert_eq!(Material::parse("KAAKR").unwrap().to_string(), "KRKAA");
        for bad in ["RKA", "KRA", "KARK", "KRRRK", "KXK", "KAAAK"] {
            assert!(Material::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn captures_lead_to_smaller_materials_in_canonical_form() {
        let m = Material::parse("KRKHA").unwrap();
        let names: Vec<String> = m.captures().iter().map(|m| m.to_string()).collect();
        assert_eq!(
            names,
            ["KHAK", "KRKA", "KRKH"].map(|s| Material::parse(s).unwrap().to_string())
        );
        assert!(Material::parse("KAKE").unwrap().is_dead_draw());
        assert!(!Material::parse("KPK").unwrap().is_dead_draw());
    }

    #[test]
    fn a_position_whose_black_is_stronger_is_swapped() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/3AK1r2 w").unwrap();
        let (m, swapped) = Material::of(&pos);
        assert_eq!((m.to_string().as_str(), swapped), ("KRKAA", true));
    }
}
