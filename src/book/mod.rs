//! Opening books in ElephantEye's BOOK.DAT format: reading, looking up, choosing, writing.
//!
//! A file is a run of 8-byte records sorted by lock: the position's 32-bit lock
//! ([`zobrist::lock`]), the move's 16-bit code and a 16-bit weight, all little-endian. A
//! position missing from the book is looked up mirrored left to right, with its moves mirrored
//! back. Locks collide, so every move found is checked for legality before it is offered.

pub mod build;
pub mod zobrist;

use std::path::Path;

use crate::board::{Move, Position};

/// One record of a book file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub lock: u32,
    /// The move's code ([`zobrist::encode`]).
    pub code: u16,
    pub weight: u16,
}

/// A move the book offers in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u16,
}

/// A loaded book: its records, sorted by lock.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

const RECORD: usize = 8;

impl Book {
    /// A book of these records (sorted here, so any order will do).
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by_key(|e| (e.lock, std::cmp::Reverse(e.weight), e.code));
        Book { entries }
    }

    /// Reads a BOOK.DAT file.
    pub fn load(path: &Path) -> Result<Book, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Book::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads the several files of a list (UCCI `bookfiles` separates them with `;`), as one book.
    pub fn load_all(list: &str) -> Result<Book, String> {
        let mut entries = Vec::new();
        for path in list.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            entries.extend(Book::load(Path::new(path))?.entries);
        }
        Ok(Book::from_entries(entries))
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if !bytes.len().is_multiple_of(RECORD) {
            return Err(format!(
                "{} bytes is not a whole number of {RECORD}-byte book records",
                bytes.len()
            ));
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(RECORD)
            .map(|r| Entry {
                lock: u32::from_le_bytes([r[0], r[1], r[2], r[3]]),
                code: u16::from_le_bytes([r[4], r[5]]),
                weight: u16::from_le_bytes([r[6], r[7]]),
            })
            .collect();
        if entries.windows(2).any(|w| w[0].lock > w[1].lock) {
            return Err("the records are not sorted by lock".to_string());
        }
        Ok(Book { entries })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() * RECORD);
        for e in &self.entries {
            out.extend_from_slice(&e.lock.to_le_bytes());
            out.extend_from_slice(&e.code.to_le_bytes());
            out.extend_from_slice(&e.weight.to_le_bytes());
        }
        out
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The records of one lock.
    fn records(&self, lock: u32) -> &[Entry] {
        let lo = self.entries.partition_point(|e| e.lock < lock);
        let hi = self.entries.partition_point(|e| e.lock <= lock);
        &self.entries[lo..hi]
    }

    /// The legal moves the book offers in `pos`, heaviest first: those stored for the position,
    /// or, if none is stored, those of its mirror image, mirrored. Zero weights are not offered.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        for mirrored in [false, true] {
            let records = self.records(zobrist::lock(pos, mirrored));
            if records.is_empty() {
                continue;
            }
            let mut moves: Vec<BookMove> = Vec::new();
            for r in records.iter().filter(|r| r.weight > 0) {
                let Some(mv) = zobrist::decode(r.code, mirrored) else {
                    continue;
                };
                if pos.is_legal(mv) && moves.iter().all(|b| b.mv != mv) {
                    moves.push(BookMove {
                        mv,
                        weight: r.weight,
                    });
                }
            }
            moves.sort_by_key(|b| std::cmp::Reverse(b.weight));
            return moves;
        }
        Vec::new()
    }

    /// A walk of up to `plies` book moves from `start`, each drawn in proportion to the
    /// weights (`draw` gives uniform random numbers); shorter where the book runs out.
    pub fn walk(&self, start: &Position, plies: usize, mut draw: impl FnMut() -> u64) -> Vec<Move> {
        let mut pos = start.clone();
        let mut line = Vec::new();
        while line.len() < plies
            && let Some(b) = choose(&self.moves(&pos), false, draw())
        {
            pos.do_move(b.mv);
            line.push(b.mv);
        }
        line
    }
}

/// Picks one of `moves` (heaviest first, as [`Book::moves`] gives them): the heaviest when
/// `best`, else at random in proportion to the weights, `draw` being a uniform random number.
pub fn choose(moves: &[BookMove], best: bool, draw: u64) -> Option<BookMove> {
    if best {
        return moves.first().copied();
    }
    let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
    if total == 0 {
        return None;
    }
    let mut left = draw % total;
    moves.iter().copied().find(|b| {
        let hit = left < u64::from(b.weight);
        left = left.saturating_sub(u64::from(b.weight));
        hit
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(pos: &Position, text: &str, weight: u16) -> Entry {
        Entry {
            lock: zobrist::lock(pos, false),
            code: zobrist::encode(pos.parse_move(text).unwrap()),
            weight,
        }
    }

    #[test]
    fn moves_come_back_heaviest_first_and_survive_the_file() {
        let start = Position::startpos();
        let book = Book::from_entries(vec![
            entry(&start, "b0c2", 10),
            entry(&start, "h2e2", 90),
            entry(&start, "c3c4", 0),
        ]);
        let again = Book::from_bytes(&book.to_bytes()).unwrap();
        assert_eq!(again, book);
        let moves: Vec<String> = again
            .moves(&start)
            .iter()
            .map(|b| format!("{} {}", b.mv, b.weight))
            .collect();
        assert_eq!(moves, ["h2e2 90", "b0c2 10"]);
    }

    #[test]
    fn a_walk_follows_the_book_by_weight_until_it_runs_out() {
        let start = Position::startpos();
        let mut after = start.clone();
        after.do_move(start.parse_move("h2e2").unwrap());
        let book = Book::from_entries(vec![
            entry(&start, "h2e2", 3),
            entry(&start, "b0c2", 1),
            entry(&after, "h9g7", 1),
        ]);
        // Draws below 3 of the 4 weights pick h2e2; the book ends after h9g7.
        let mut draws = [0u64, 0, 0].into_iter();
        let line: Vec<String> = book
            .walk(&start, 5, || draws.next().unwrap())
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(line, ["h2e2", "h9g7"]);
        let line = book.walk(&start, 5, || 3);
        assert_eq!(line.len(), 1);
        assert_eq!(line[0].to_string(), "b0c2");
        assert_eq!(book.walk(&start, 1, || 0).len(), 1, "no more than asked");
    }

    #[test]
    fn a_missing_position_is_found_mirrored() {
        let start = Position::startpos();
        let mut pos = start.clone();
        pos.do_move(start.parse_move("h2e2").unwrap());
        // Only the mirror image (after b2e2) is in the book, with Black's h9g7.
        let mut mirror = start.clone();
        mirror.do_move(start.parse_move("b2e2").unwrap());
        let book = Book::from_entries(vec![entry(&mirror, "h9g7", 5)]);
        let moves = book.moves(&pos);
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].mv.to_string(), "b9c7");
        // Where the position itself is stored, its own moves win.
        let both = Book::from_entries(vec![entry(&mirror, "h9g7", 5), entry(&pos, "h7e7", 3)]);
        assert_eq!(both.moves(&pos)[0].mv.to_string(), "h7e7");
    }

    #[test]
    fn illegal_and_off_board_codes_are_skipped() {
        let start = Position::startpos();
        let lock = zobrist::lock(&start, false);
        let book = Book::from_entries(vec![
            // A colliding position's move, illegal here: a0a5 jumps over the a3 pawn.
            Entry {
                lock,
                code: zobrist::encode(Move::new(
                    crate::board::Square::new(0, 0),
                    crate::board::Square::new(0, 5),
                )),
                weight: 50,
            },
            // A code off the board.
            Entry {
                lock,
                code: 0,
                weight: 50,
            },
            entry(&start, "h0g2", 1),
        ]);
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].mv.to_string(), "h0g2");
    }

    #[test]
    fn files_that_are_not_books_are_refused() {
        assert!(Book::from_bytes(&[0; 7]).is_err());
        let mut unsorted = Vec::new();
        for lock in [2u32, 1] {
            unsorted.extend_from_slice(&lock.to_le_bytes());
            unsorted.extend_from_slice(&[0; 4]);
        }
        assert!(Book::from_bytes(&unsorted).is_err());
    }

    #[test]
    fn choice_follows_the_weights() {
        let start = Position::startpos();
        let moves = [
            BookMove {
                mv: start.parse_move("h2e2").unwrap(),
                weight: 3,
            },
            BookMove {
                mv: start.parse_move("b0c2").unwrap(),
                weight: 1,
            },
        ];
        let picks: Vec<String> = (0..4)
            .map(|d| choose(&moves, false, d).unwrap().mv.to_string())
            .collect();
        assert_eq!(picks, ["h2e2", "h2e2", "h2e2", "b0c2"]);
        assert_eq!(choose(&moves, true, 3).unwrap().mv.to_string(), "h2e2");
        assert_eq!(choose(&[], false, 0), None);
    }
}
