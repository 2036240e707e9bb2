//! FEN reading and writing: tolerant of the wild variants (`w`/`r`/`b`, `E`/`H` letters, missing
//! counters), strict about positions that cannot arise in a game.

use std::fmt;

use super::position::Position;
use super::types::{Color, Piece, PieceType, Square};

pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was refused. Ranks are named by their board number (9 = Black's back rank).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    RankCount(usize),
    FileCount {
        rank: u8,
        files: usize,
    },
    UnknownLetter {
        rank: u8,
        letter: char,
    },
    TooMany {
        color: Color,
        kind: PieceType,
        count: u32,
    },
    BadSquare {
        color: Color,
        kind: PieceType,
        square: Square,
    },
    NoKing(Color),
    KingsFacing,
    SideNotToMoveInCheck(Color),
    BadSide(String),
    BadCounter(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => write!(f, "FEN has {n} ranks, expected 10"),
            FenError::FileCount { rank, files } => {
                write!(f, "rank {rank} has {files} files, expected 9")
            }
            FenError::UnknownLetter { rank, letter } => {
                write!(f, "unknown piece letter '{letter}' on rank {rank}")
            }
            FenError::TooMany { color, kind, count } => write!(
                f,
                "{} has {count} {}s, at most {} allowed",
                color.name(),
                kind.name(),
                kind.max_count()
            ),
            FenError::BadSquare {
                color,
                kind,
                square,
            } => write!(
                f,
                "{} {} on {square} is on a point it can never reach",
                color.name(),
                kind.name()
            ),
            FenError::NoKing(c) => write!(f, "{} has no king", c.name()),
            FenError::KingsFacing => write!(f, "the kings face each other on an open file"),
            FenError::SideNotToMoveInCheck(c) => {
                write!(f, "{} is in check but it is not their move", c.name())
            }
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not w, r or b"),
            FenError::BadCounter(s) => write!(f, "move counter '{s}' is not a number"),
        }
    }
}

impl std::error::Error for FenError {}

/// Whether a piece of this colour and kind can ever stand on this point.
pub fn reachable(c: Color, k: PieceType, s: Square) -> bool {
    // Work from Red's view: Black's points mirror across the river.
    let s = match c {
        Color::Red => s,
        Color::Black => s.flip_rank(),
    };
    let (f, r) = (s.file(), s.rank());
    match k {
        PieceType::King => s.in_palace(Color::Red),
        PieceType::Advisor => s.in_palace(Color::Red) && (f + r) % 2 == 1,
        PieceType::Elephant => matches!(
            (f, r),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        // Before the river a pawn only moves forward, so it stays on its start file.
        PieceType::Pawn => r >= 5 || (r >= 3 && f % 2 == 0),
        PieceType::Horse | PieceType::Rook | PieceType::Cannon => true,
    }
}

impl Position {
    /// Parses a FEN; the side and counters may be missing (Red to move, `0 1`).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut pos = Position::empty();
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    file += d as usize;
                    continue;
                }
                let kind = PieceType::from_letter(ch)
                    .ok_or(FenError::UnknownLetter { rank, letter: ch })?;
                if file >= 9 {
                    file += 1;
                    continue; // counted below as too many files
                }
                let color = if ch.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                let square = Square::new(file as u8, rank);
                if !reachable(color, kind, square) {
                    return Err(FenError::BadSquare {
                        color,
                        kind,
                        square,
                    });
                }
                let count = pos.count(color, kind) + 1;
                if count > kind.max_count() {
                    return Err(FenError::TooMany { color, kind, count });
                }
                pos.put(Piece::new(color, kind), square);
                file += 1;
            }
            if file != 9 {
                return Err(FenError::FileCount { rank, files: file });
            }
        }
        for c in Color::BOTH {
            if pos.count(c, PieceType::King) == 0 {
                return Err(FenError::NoKing(c));
            }
        }
        let side = match fields.next() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.to_string())),
        };
        pos.set_side(side);
        // Two unused fields, then the counters; any of them may be missing.
        let rest: Vec<&str> = fields.collect();
        let counters: Vec<&str> = rest.iter().skip(2).copied().collect();
        let number = |s: Option<&&str>, default: u16| -> Result<u16, FenError> {
            match s {
                None => Ok(default),
                Some(t) if *t == "-" => Ok(default),
                Some(t) => t
                    .parse::<u32>()
                    .map(|v| v.min(u16::MAX as u32) as u16)
                    .map_err(|_| FenError::BadCounter(t.to_string())),
            }
        };
        let halfmove = number(counters.first(), 0)?;
        let fullmove = number(counters.get(1), 1)?;
        pos.set_counters(halfmove, fullmove);

        let (rk, bk) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
        if rk.file() == bk.file() {
            let between = pos.file_bits(rk.file()) & !(1 << rk.rank()) & !(1 << bk.rank());
            let lo = rk.rank().min(bk.rank());
            let hi = rk.rank().max(bk.rank());
            let mask = ((1u16 << hi) - 1) & !((1u16 << (lo + 1)) - 1);
            if between & mask == 0 {
                return Err(FenError::KingsFacing);
            }
        }
        if pos.is_attacked_king(side.flip()) {
            return Err(FenError::SideNotToMoveInCheck(side.flip()));
        }
        Ok(pos)
    }

    /// The FEN of this position, with `w`/`b` and both counters.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for r in (0..10u8).rev() {
            let mut gap = 0;
            for f in 0..9u8 {
                let p = self.piece_at(Square::new(f, r));
                if p.is_none() {
                    gap += 1;
                } else {
                    if gap > 0 {
                        s.push(char::from(b'0' + gap));
                        gap = 0;
                    }
                    s.push(p.letter());
                }
            }
            if gap > 0 {
                s.push(char::from(b'0' + gap));
            }
            if r > 0 {
                s.push('/');
            }
        }
        let side = match self.side_to_move() {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        format!(
            "{s} {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> FenError {
        Position::from_fen(fen).unwrap_err()
    }

    #[test]
    fn start_round_trips() {
        let p = Position::from_fen(START_FEN).unwrap();
        assert_eq!(p.to_fen(), START_FEN);
        assert_eq!(p.key(), p.compute_key());
    }

    #[test]
    fn perft_positions_round_trip() {
        for line in include_str!("../../tests/data/perft.epd").lines() {
            let fen = line.split(';').next().unwrap().trim();
            let p = Position::from_fen(fen).unwrap();
            assert_eq!(p.to_fen(), fen);
            assert_eq!(Position::from_fen(&p.to_fen()).unwrap(), p);
        }
    }

    #[test]
    fn tolerant_forms() {
        let base = Position::from_fen(START_FEN).unwrap();
        let aliases = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR";
        assert_eq!(
            Position::from_fen(&format!("{aliases} r")).unwrap(),
            base,
            "r side and E/H letters"
        );
        assert_eq!(Position::from_fen(aliases).unwrap(), base, "no side");
        let p = Position::from_fen(&format!("{aliases} b - - 7")).unwrap();
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(p.halfmove_clock(), 7);
        assert_eq!(p.fullmove_number(), 1);
    }

    #[test]
    fn every_error_names_the_problem() {
        let cases: &[(&str, FenError, &str)] = &[
            ("", FenError::Empty, "empty FEN"),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
                FenError::RankCount(9),
                "9 ranks",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C2/9/RNBAKABNR w",
                FenError::FileCount { rank: 2, files: 10 },
                "rank 2 has 10 files",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C/9/RNBAKABNR w",
                FenError::FileCount { rank: 2, files: 8 },
                "rank 2 has 8 files",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5X1/9/RNBAKABNR w",
                FenError::UnknownLetter {
                    rank: 2,
                    letter: 'X',
                },
                "unknown piece letter 'X' on rank 2",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w",
                FenError::TooMany {
                    color: Color::Red,
                    kind: PieceType::Rook,
                    count: 3,
                },
                "Red has 3 rooks",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/A8/RNB1KABNR w",
                FenError::BadSquare {
                    color: Color::Red,
                    kind: PieceType::Advisor,
                    square: Square::new(0, 1),
                },
                "Red advisor on a1",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C1B3C1/9/RN1AKABNR w",
                FenError::BadSquare {
                    color: Color::Red,
                    kind: PieceType::Elephant,
                    square: Square::new(3, 2),
                },
                "Red elephant on d2",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/P8/RNBAKABNR w",
                FenError::BadSquare {
                    color: Color::Red,
                    kind: PieceType::Pawn,
                    square: Square::new(0, 1),
                },
                "Red pawn on a1 is on a point it can never reach",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
                FenError::NoKing(Color::Red),
                "Red has no king",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w",
                FenError::TooMany {
                    color: Color::Red,
                    kind: PieceType::King,
                    count: 2,
                },
                "Red has 2 kings",
            ),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", FenError::KingsFacing, "face"),
            (
                "3k5/9/9/9/9/9/9/9/9/3RK4 w",
                FenError::SideNotToMoveInCheck(Color::Black),
                "Black is in check",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 x",
                FenError::BadSide("x".into()),
                "side to move 'x'",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - x 1",
                FenError::BadCounter("x".into()),
                "'x' is not a number",
            ),
        ];
        for (fen, want, text) in cases {
            let e = err(fen);
            assert_eq!(&e, want, "{fen}");
            assert!(e.to_string().contains(text), "{e} lacks {text}");
        }
    }

    #[test]
    fn unreachable_points() {
        // Elephant on its seven points only; pawns before the river only on even files.
        assert!(reachable(
            Color::Red,
            PieceType::Elephant,
            Square::new(4, 2)
        ));
        assert!(!reachable(
            Color::Red,
            PieceType::Elephant,
            Square::new(4, 0)
        ));
        assert!(reachable(
            Color::Black,
            PieceType::Elephant,
            Square::new(2, 9)
        ));
        assert!(!reachable(Color::Red, PieceType::Pawn, Square::new(1, 3)));
        assert!(reachable(Color::Red, PieceType::Pawn, Square::new(1, 5)));
        assert!(!reachable(Color::Black, PieceType::Pawn, Square::new(0, 7)));
        assert!(!reachable(Color::Black, PieceType::King, Square::new(4, 2)));
        assert!(!reachable(
            Color::Black,
            PieceType::Advisor,
            Square::new(4, 1)
        ));
    }
}
