//! ElephantEye's position locks and move codes, which its BOOK.DAT files are keyed by.
//!
//! ElephantEye draws its Zobrist numbers from RC4 keyed with four zero bytes: first three 32-bit
//! words (little-endian, four stream bytes each) for the side to move, then three for each of
//! its 14 piece kinds (Red king, advisor, elephant, horse, rook, cannon, pawn, then Black's) on
//! each of the 256 points of its 16 × 16 board, in that order. A book entry is keyed by the third
//! word of each triple (its "lock 1"), XORed over the pieces, with the side word when Black is to
//! move. Points: x = file + 3, y = 12 − rank, index x + 16·y. Written from the description
//! of ElephantEye's source (`base/rc4prng.h`, `eleeye/pregen.cpp`, `eleeye/position.cpp`); the
//! tests check the stream against RC4's published test vector.

use std::sync::LazyLock;

use crate::board::{Color, Move, PieceType, Position, Square, Squares};

/// The RC4 stream cipher's keystream generator.
struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    fn new(key: &[u8]) -> Rc4 {
        let mut s: [u8; 256] = std::array::from_fn(|i| i as u8);
        let mut j = 0u8;
        for i in 0..256 {
            j = j.wrapping_add(s[i]).wrapping_add(key[i % key.len()]);
            s.swap(i, j as usize);
        }
        Rc4 { s, i: 0, j: 0 }
    }

    fn byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[self.i as usize]);
        self.s.swap(self.i as usize, self.j as usize);
        let k = self.s[self.i as usize].wrapping_add(self.s[self.j as usize]);
        self.s[k as usize]
    }

    fn word(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }
}

/// The lock words: the side to move's, and each piece kind's on each point.
struct Locks {
    black_to_move: u32,
    /// `[colour * 7 + kind][square]`.
    pieces: [[u32; Square::COUNT]; 14],
}

/// ElephantEye's board index of a point.
fn point(sq: Square) -> usize {
    (sq.file() as usize + 3) + 16 * (12 - sq.rank() as usize)
}

/// The point of an ElephantEye board index, if it lies on the board.
fn square_of(point: usize) -> Option<Square> {
    let (x, y) = (point % 16, point / 16);
    ((3..=11).contains(&x) && (3..=12).contains(&y)).then(|| Square::new(x as u8 - 3, 12 - y as u8))
}

static LOCKS: LazyLock<Locks> = LazyLock::new(|| {
    let mut rc4 = Rc4::new(&[0; 4]);
    // Each triple is (key, lock 0, lock 1); books use lock 1.
    let mut lock1 = || {
        rc4.word();
        rc4.word();
        rc4.word()
    };
    let black_to_move = lock1();
    let mut pieces = [[0; Square::COUNT]; 14];
    for kind in &mut pieces {
        for p in 0..256 {
            let word = lock1();
            if let Some(sq) = square_of(p) {
                kind[sq.index()] = word;
            }
        }
    }
    Locks {
        black_to_move,
        pieces,
    }
});

/// The lock of `pos`, or of its mirror image (left to right) when `mirrored`.
pub fn lock(pos: &Position, mirrored: bool) -> u32 {
    let locks = &*LOCKS;
    let mut lock = match pos.side_to_move() {
        Color::Red => 0,
        Color::Black => locks.black_to_move,
    };
    for c in Color::BOTH {
        for k in PieceType::ALL {
            let table = &locks.pieces[c.index() * 7 + k.index()];
            for sq in Squares(pos.pieces(c, k)) {
                let sq = if mirrored { sq.mirror_file() } else { sq };
                lock ^= table[sq.index()];
            }
        }
    }
    lock
}

/// A move as ElephantEye stores it: origin point + 256 × destination point.
pub fn encode(m: Move) -> u16 {
    (point(m.from()) + (point(m.to()) << 8)) as u16
}

/// The move of a code, mirrored left to right when `mirrored`; `None` off the board.
pub fn decode(code: u16, mirrored: bool) -> Option<Move> {
    let from = square_of(usize::from(code & 0xff))?;
    let to = square_of(usize::from(code >> 8))?;
    Some(if mirrored {
        Move::new(from.mirror_file(), to.mirror_file())
    } else {
        Move::new(from, to)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rc4_matches_its_published_test_vector() {
        // Key "Key", keystream EB 9F 77 81 B7 34 CA 72 A7 19 (RFC 6229's companion vectors).
        let mut rc4 = Rc4::new(b"Key");
        let stream: Vec<u8> = (0..10).map(|_| rc4.byte()).collect();
        assert_eq!(
            stream,
            [0xEB, 0x9F, 0x77, 0x81, 0xB7, 0x34, 0xCA, 0x72, 0xA7, 0x19]
        );
    }

    #[test]
    fn points_and_moves_round_trip() {
        for i in 0..Square::COUNT {
            let sq = Square::from_index(i);
            assert_eq!(square_of(point(sq)), Some(sq));
        }
        assert_eq!(square_of(0x33 - 1), None);
        let start = Position::startpos();
        for &m in start.legal_moves().iter() {
            assert_eq!(decode(encode(m), false), Some(m));
            let mirror = Move::new(m.from().mirror_file(), m.to().mirror_file());
            assert_eq!(decode(encode(m), true), Some(mirror));
        }
        // h2e2 (central cannon): from x = 10, y = 10; to x = 7, y = 10.
        let m = start.parse_move("h2e2").unwrap();
        assert_eq!(encode(m), 0xaa | 0xa7 << 8);
    }

    #[test]
    fn locks_match_elephanteyes_own_book() {
        // ElephantEye's BOOK.DAT (xqbase/eleeye, BOOK/BOOK.DAT) files b2e2 and h2e2 (weight
        // 1473 each) under the start position's lock, and b9c7 (weight 761) under the lock of
        // the position after b2e2: facts read from that file.
        let start = Position::startpos();
        assert_eq!(lock(&start, false), 0x0526_56d5);
        let mut b2e2 = start.clone();
        b2e2.do_move(start.parse_move("b2e2").unwrap());
        assert_eq!(lock(&b2e2, false), 0x5396_644f);
        // After h2e2 the book has only the mirror image.
        let mut h2e2 = start.clone();
        h2e2.do_move(start.parse_move("h2e2").unwrap());
        assert_eq!(lock(&h2e2, true), 0x5396_644f);
    }

    #[test]
    fn locks_follow_pieces_side_and_mirror() {
        let start = Position::startpos();
        // The start position is symmetric left to right.
        assert_eq!(lock(&start, false), lock(&start, true));
        let mut after = start.clone();
        after.do_move(start.parse_move("h2e2").unwrap());
        let mut mirror = start.clone();
        mirror.do_move(start.parse_move("b2e2").unwrap());
        assert_ne!(lock(&after, false), lock(&start, false));
        assert_eq!(lock(&after, true), lock(&mirror, false));
        // Moving a piece changes the lock by exactly its two words; the side word by its own.
        let locks = &*LOCKS;
        let cannon = &locks.pieces[PieceType::Cannon.index()];
        let (h2, e2) = (Square::new(7, 2), Square::new(4, 2));
        assert_eq!(
            lock(&after, false),
            lock(&start, false) ^ cannon[h2.index()] ^ cannon[e2.index()] ^ locks.black_to_move
        );
    }
}
