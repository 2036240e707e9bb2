//! Opening positions for a match, read from an EPD or FEN file (one position per line, `#`
//! comments and blank lines skipped; fields after the side to move, EPD opcodes and counters,
//! are ignored, so every game starts with a fresh move counter) or walked out of a book.

use std::collections::HashSet;
use std::path::Path;

use crate::board::Position;
use crate::book::Book;
use crate::rng::splitmix64;

/// Reads every position of `path`, refusing the file at the first bad line.
pub fn load_openings(path: &Path) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_openings(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn parse_openings(text: &str) -> Result<Vec<Position>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let placement = fields.next().unwrap_or_default();
        let side = fields.next().unwrap_or("w");
        let pos = Position::from_fen(&format!("{placement} {side}"))
            .map_err(|e| format!("line {}: {e}", n + 1))?;
        if pos.has_no_legal_move() {
            return Err(format!("line {}: the game is already over", n + 1));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err("no positions".into());
    }
    Ok(out)
}

/// Up to `count` distinct positions `plies` deep in `book`: walks from the start position,
/// each move drawn by weight (seeded), a walk that leaves the book early dropped.
pub fn book_openings(book: &Book, plies: usize, count: usize, seed: u64) -> Vec<Position> {
    let mut state = seed;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    // Enough walks to find `count` distinct lines when the book holds them.
    for _ in 0..count.saturating_mul(50).max(100) {
        if out.len() == count {
            break;
        }
        let mut pos = Position::startpos();
        let line = book.walk(&pos, plies, || splitmix64(&mut state));
        for &m in &line {
            pos.do_move(m);
        }
        if line.len() == plies && !pos.has_no_legal_move() && seen.insert(pos.key()) {
            out.push(pos);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::START_FEN;

    #[test]
    fn reads_epd_and_fen_lines() {
        let text = format!(
            "# header\n\n{START_FEN}\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - c0 \"central cannon\";\n"
        );
        let v = parse_openings(&text).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].to_fen(), Position::startpos().to_fen());
        assert_eq!(v[1].side_to_move(), crate::Color::Black);
        assert!(parse_openings("# nothing\n").is_err());
        assert!(parse_openings("rnbakabnr/9 w\n").is_err());
    }

    #[test]
    fn book_walks_give_distinct_positions_at_the_depth() {
        use crate::book::Entry;
        use crate::book::zobrist::{encode, lock};
        let start = Position::startpos();
        let mut entries = Vec::new();
        let mut add = |pos: &Position, text: &str| {
            entries.push(Entry {
                lock: lock(pos, false),
                code: encode(pos.parse_move(text).unwrap()),
                weight: 1,
            });
        };
        for first in ["h2e2", "c3c4"] {
            add(&start, first);
            let mut p = start.clone();
            p.do_move(start.parse_move(first).unwrap());
            add(&p, "h9g7");
            add(&p, "b9c7");
        }
        let book = Book::from_entries(entries);
        let walked = book_openings(&book, 2, 10, 1);
        // Two first moves times two answers: four lines, each once, each two plies deep.
        assert_eq!(walked.len(), 4);
        let keys: HashSet<u64> = walked.iter().map(Position::key).collect();
        assert_eq!(keys.len(), 4);
        assert!(walked.iter().all(|p| p.side_to_move() == crate::Color::Red));
        assert_eq!(book_openings(&book, 2, 10, 1).len(), 4);
        // Three plies leave this book: no opening is that deep.
        assert!(book_openings(&book, 3, 10, 1).is_empty());
        assert_eq!(book_openings(&book, 1, 1, 5).len(), 1);
    }
}
