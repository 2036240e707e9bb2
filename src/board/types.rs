//! Colours, piece kinds, squares and moves: the small value types everything else is built from.

use std::fmt;

/// The side of a piece or the side to move. Red moves first and sits on ranks 0–4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }
}

/// The seven kinds of xiangqi piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Rook = 4,
    Cannon = 5,
    Pawn = 6,
}

impl PieceType {
    pub const ALL: [PieceType; 7] = [
        PieceType::King,
        PieceType::Advisor,
        PieceType::Elephant,
        PieceType::Horse,
        PieceType::Rook,
        PieceType::Cannon,
        PieceType::Pawn,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many pieces of this kind each side starts with (and so may have at most).
    pub const fn max_count(self) -> u32 {
        match self {
            PieceType::King => 1,
            PieceType::Pawn => 5,
            _ => 2,
        }
    }

    /// FEN letter, upper case.
    pub const fn letter(self) -> char {
        match self {
            PieceType::King => 'K',
            PieceType::Advisor => 'A',
            PieceType::Elephant => 'B',
            PieceType::Horse => 'N',
            PieceType::Rook => 'R',
            PieceType::Cannon => 'C',
            PieceType::Pawn => 'P',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            PieceType::King => "king",
            PieceType::Advisor => "advisor",
            PieceType::Elephant => "elephant",
            PieceType::Horse => "horse",
            PieceType::Rook => "rook",
            PieceType::Cannon => "cannon",
            PieceType::Pawn => "pawn",
        }
    }

    /// Parses a FEN letter of either case; `E` and `H` are accepted for elephant and horse.
    pub fn from_letter(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceType::King,
            'A' => PieceType::Advisor,
            'B' | 'E' => PieceType::Elephant,
            'N' | 'H' => PieceType::Horse,
            'R' => PieceType::Rook,
            'C' => PieceType::Cannon,
            'P' => PieceType::Pawn,
            _ => return None,
        })
    }

    /// Pieces that can cross the river (the ones that keep a game alive).
    pub const fn can_cross_river(self) -> bool {
        matches!(
            self,
            PieceType::Horse | PieceType::Rook | PieceType::Cannon | PieceType::Pawn
        )
    }
}

/// A coloured piece, or no piece. Encoded as one byte: 0 = empty, else `1 + color * 7 + kind`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Piece(u8);

impl Piece {
    pub const NONE: Piece = Piece(0);
    /// Number of distinct codes, empty included (for table sizes).
    pub const CODES: usize = 15;

    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece(1 + color as u8 * 7 + kind as u8)
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// Colour of a real piece (must not be called on `NONE`).
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 >= 8 {
            Color::Black
        } else {
            Color::Red
        }
    }

    /// Kind of a real piece (must not be called on `NONE`).
    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        // A table, not `(code - 1) % 7`: this sits on the make/unmake path.
        const KINDS: [PieceType; Piece::CODES] = {
            let mut t = [PieceType::King; Piece::CODES];
            let mut c = 1;
            while c < Piece::CODES {
                t[c] = PieceType::ALL[(c - 1) % 7];
                c += 1;
            }
            t
        };
        KINDS[self.0 as usize]
    }

    #[inline(always)]
    pub const fn code(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn is(self, color: Color, kind: PieceType) -> bool {
        self.0 == Piece::new(color, kind).0
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub fn letter(self) -> char {
        if self.is_none() {
            return '.';
        }
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A point of the board, `rank * 9 + file`: file 0–8 = a–i from Red's left, rank 0–9 from Red's side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 90;

    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 9 + file)
    }

    /// From an index 0..90 (caller guarantees the range).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Square {
        Square(i as u8)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The point mirrored left to right (file a ↔ i), a symmetry of the game.
    #[inline(always)]
    pub const fn mirror_file(self) -> Square {
        Square::new(8 - self.file(), self.rank())
    }

    /// The same point seen from the other side (used for Black's piece-square tables).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square::new(self.file(), 9 - self.rank())
    }

    /// Whether the point is on `color`'s own half of the board.
    #[inline(always)]
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// Whether the point lies inside `color`'s palace.
    #[inline(always)]
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// Parses ICCS coordinates such as `h2`, either case.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].to_ascii_lowercase();
        let r = b[1];
        if !(b'a'..=b'i').contains(&f) || !r.is_ascii_digit() {
            return None;
        }
        Some(Square::new(f - b'a', r - b'0'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A move: origin and destination packed in 16 bits (`from | to << 7`). `Move::NULL` is `0000`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 7)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// Raw 16-bit form, for compact storage (e.g. in the transposition table).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from its raw form; `None` when the squares are off the board.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        let m = Move(raw);
        if raw >> 14 != 0 || m.from().0 >= 90 || m.to().0 >= 90 {
            return None;
        }
        Some(m)
    }

    /// Parses ICCS text such as `h2e2` (either case, optional `-` as in `H2-E2`).
    /// Only the syntax is checked; `Position::parse_move` checks legality.
    pub fn parse_coords(s: &str) -> Option<Move> {
        let s = s.trim();
        let (a, b) = if s.len() == 5 && s.as_bytes()[2] == b'-' {
            (&s[0..2], &s[3..5])
        } else if s.len() == 4 && s.is_ascii() {
            (&s[0..2], &s[2..4])
        } else {
            return None;
        };
        Some(Move::new(Square::parse(a)?, Square::parse(b)?))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip() {
        for c in Color::BOTH {
            for k in PieceType::ALL {
                let p = Piece::new(c, k);
                assert_eq!(p.color(), c);
                assert_eq!(p.kind(), k);
                assert!(p.code() < Piece::CODES);
            }
        }
    }

    #[test]
    fn squares_and_moves_print_iccs() {
        let m = Move::parse_coords("h2e2").unwrap();
        assert_eq!(m.from(), Square::new(7, 2));
        assert_eq!(m.to(), Square::new(4, 2));
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(Move::parse_coords("H2-E2"), Some(m));
        assert_eq!(Move::from_raw(m.raw()), Some(m));
        assert_eq!(Move::parse_coords("j2e2"), None);
        assert_eq!(Move::parse_coords("h2e"), None);
        assert_eq!(Move::NULL.to_string(), "0000");
    }

    #[test]
    fn palace_and_river() {
        assert!(Square::new(4, 0).in_palace(Color::Red));
        assert!(!Square::new(2, 0).in_palace(Color::Red));
        assert!(Square::new(3, 9).in_palace(Color::Black));
        assert!(Square::new(0, 4).on_own_side(Color::Red));
        assert!(!Square::new(0, 5).on_own_side(Color::Red));
    }
}
