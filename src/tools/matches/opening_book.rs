//! Generates the match openings (`bench-positions/openings.epd`) reproducibly: named opening
//! families fix the first 2–4 plies (their main lines), then a seeded random walk adds
//! developing moves that do not hang material, up to 4–10 plies, and a pluggable balance
//! filter keeps only roughly level positions. Until the search can judge positions, the filter
//! is a material-after-captures plus mobility test; a search-based one plugs in later.
//!
//! Regenerate with `cargo run --release --example gen_openings > bench-positions/openings.epd`;
//! a test checks the file matches.

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::board::{Color, Move, PieceType, Position};
use crate::movegen::GenKind;

use crate::rng::splitmix64;

/// Decides which generated positions are level enough to start games from.
pub trait BalanceFilter {
    fn is_balanced(&self, pos: &Position) -> bool;
    /// One line for the file header: what was checked.
    fn describe(&self) -> String;
}

/// Level material after the captures available (a small capture search on material alone)
/// and a similar number of legal moves for both sides; never in check.
#[derive(Clone, Copy, Debug)]
pub struct MaterialMobility {
    /// Largest material edge (centipawns, pawn = 100) after the capture search.
    pub max_material: i32,
    /// Largest difference between the two sides' legal move counts.
    pub max_mobility_gap: usize,
}

impl Default for MaterialMobility {
    fn default() -> Self {
        MaterialMobility {
            max_material: 50,
            max_mobility_gap: 12,
        }
    }
}

fn piece_value(k: PieceType) -> i32 {
    match k {
        PieceType::King => 0,
        PieceType::Advisor | PieceType::Elephant => 200,
        PieceType::Horse => 400,
        PieceType::Cannon => 450,
        PieceType::Rook => 900,
        PieceType::Pawn => 100,
    }
}

/// Material from the side to move's view.
fn material(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    PieceType::ALL
        .iter()
        .map(|&k| piece_value(k) * (pos.count(us, k) as i32 - pos.count(us.flip(), k) as i32))
        .sum()
}

/// Material after the best sequence of captures (stand pat allowed), side to move's view.
fn capture_search(pos: &mut Position, mut alpha: i32, beta: i32, plies: u32) -> i32 {
    let stand = material(pos);
    if stand >= beta || plies == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    for &m in pos.generate_legal(GenKind::Captures).iter() {
        let undo = pos.do_move(m);
        let score = -capture_search(pos, -beta, -alpha, plies - 1);
        pos.undo_move(m, undo);
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    alpha
}

/// Material outcome of the position for the side to move, after captures.
fn settled_material(pos: &Position) -> i32 {
    capture_search(&mut pos.clone(), -100_000, 100_000, 6)
}

impl BalanceFilter for MaterialMobility {
    fn is_balanced(&self, pos: &Position) -> bool {
        if pos.in_check() || settled_material(pos).abs() > self.max_material {
            return false;
        }
        let mut p = pos.clone();
        let ours = p.legal_moves().len();
        let undo = p.do_null_move();
        let theirs = p.legal_moves().len();
        p.undo_null_move(undo);
        ours.abs_diff(theirs) <= self.max_mobility_gap
    }

    fn describe(&self) -> String {
        format!(
            "material level within {} cp (pawn 100, advisor/elephant 200, horse 400, cannon 450, \
             rook 900) after a 6-ply capture search, legal move counts within {}, not in check",
            self.max_material, self.max_mobility_gap
        )
    }
}

/// An opening family: its main lines' first plies (every line is used in turn).
struct Family {
    name: &'static str,
    lines: &'static [&'static str],
}

const FAMILIES: &[Family] = &[
    Family {
        name: "central cannon vs screen horses",
        lines: &[
            "h2e2 h9g7 h0g2 b9c7",
            "h2e2 h9g7 h0g2 i9h9",
            "b2e2 b9c7 b0c2 h9g7",
            "h2e2 b9c7 h0g2 h9g7",
        ],
    },
    Family {
        name: "central cannon vs same-direction cannon",
        lines: &["h2e2 h7e7 h0g2 h9g7", "h2e2 h7e7 h0g2 b9c7", "b2e2 b7e7"],
    },
    Family {
        name: "central cannon vs opposite-direction cannon",
        lines: &["h2e2 b7e7 h0g2 b9c7", "h2e2 b7e7", "b2e2 h7e7 b0c2"],
    },
    Family {
        name: "central cannon vs three-step tiger",
        lines: &["h2e2 h9g7 h0g2 h7i7", "b2e2 b9c7 b0c2 b7a7"],
    },
    Family {
        name: "central cannon vs reverse palace horse",
        lines: &["h2e2 b9c7 h0g2 h7f7", "h2e2 h9g7 h0g2 b7d7"],
    },
    Family {
        name: "central cannon vs elephant or pawn defence",
        lines: &["h2e2 c9e7", "h2e2 g9e7", "h2e2 c6c5", "h2e2 g6g5 h0g2"],
    },
    Family {
        name: "pawn opening",
        lines: &[
            "c3c4 g6g5",
            "c3c4 b7c7",
            "c3c4 h7e7",
            "c3c4 c9e7",
            "g3g4 c6c5",
            "g3g4 h7g7",
        ],
    },
    Family {
        name: "elephant opening",
        lines: &[
            "c0e2 g6g5",
            "g0e2 h7e7",
            "c0e2 h9g7",
            "g0e2 c6c5",
            "c0e2 b7f7",
            "g0e2 b9c7",
        ],
    },
    Family {
        name: "horse opening",
        lines: &[
            "h0g2 g6g5",
            "b0c2 c6c5",
            "h0g2 h7e7",
            "b0c2 b9c7",
            "h0g2 h9g7",
        ],
    },
    Family {
        name: "palace-crossing cannon",
        lines: &["h2d2 h7e7", "h2d2 h9g7", "b2f2 b9c7", "b2f2 b7e7"],
    },
    Family {
        name: "advisor-corner cannon",
        lines: &["b2d2 h7e7", "b2d2 b9c7", "h2f2 h9g7", "h2f2 g6g5"],
    },
    Family {
        name: "advisor opening",
        lines: &["f0e1 h7e7", "d0e1 h9g7", "f0e1 c6c5"],
    },
];

/// Seed of the random walks; changing it changes the book.
pub const BOOK_SEED: u64 = 0x6368_7568_616e; // "chuhan" in ASCII
/// Positions per family (the book holds `FAMILIES.len()` times this).
pub const PER_FAMILY: usize = 20;

/// A move that develops: no king move, nothing backwards (towards the mover's own back rank),
/// and no quiet move across the river, so walks look like openings rather than raids.
fn develops(pos: &Position, m: Move) -> bool {
    let piece = pos.piece_at(m.from());
    if piece.kind() == PieceType::King {
        return false;
    }
    let (from, to) = (m.from().rank(), m.to().rank());
    let forward_or_sideways = match piece.color() {
        Color::Red => to >= from,
        Color::Black => to <= from,
    };
    forward_or_sideways && (pos.is_capture(m) || m.to().on_own_side(piece.color()))
}

/// Whether the side that just moved (not to move in `pos`) can lose material by force.
fn hangs_material(pos: &Position) -> bool {
    settled_material(pos) > 50
}

/// One generated opening.
pub struct BookLine {
    pub family: &'static str,
    pub moves: Vec<Move>,
    pub position: Position,
}

/// Random walk to `plies` plies after the main line's moves; `None` when it got stuck.
fn walk(line: &str, plies: usize, rng: &mut u64) -> Option<(Vec<Move>, Position)> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for text in line.split_whitespace() {
        let m = pos.parse_move(text).ok()?;
        pos.do_move(m);
        moves.push(m);
    }
    while moves.len() < plies {
        let mut candidates: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| develops(&pos, m))
            .collect();
        loop {
            if candidates.is_empty() {
                return None;
            }
            let i = (splitmix64(rng) % candidates.len() as u64) as usize;
            let m = candidates.swap_remove(i);
            let undo = pos.do_move(m);
            if !hangs_material(&pos) {
                moves.push(m);
                break;
            }
            pos.undo_move(m, undo);
        }
    }
    Some((moves, pos))
}

/// The whole book: `PER_FAMILY` distinct balanced positions per family, 4–10 plies deep.
pub fn generate_book(filter: &dyn BalanceFilter) -> Vec<BookLine> {
    let mut rng = BOOK_SEED;
    let mut seen = HashSet::new();
    let mut book = Vec::new();
    for family in FAMILIES {
        let mut found = 0;
        let mut attempts = 0;
        while found < PER_FAMILY && attempts < PER_FAMILY * 200 {
            attempts += 1;
            let line = family.lines[attempts % family.lines.len()];
            let plies = 4 + (splitmix64(&mut rng) % 7) as usize;
            let Some((moves, position)) = walk(line, plies, &mut rng) else {
                continue;
            };
            if filter.is_balanced(&position) && seen.insert(position.key()) {
                found += 1;
                book.push(BookLine {
                    family: family.name,
                    moves,
                    position,
                });
            }
        }
    }
    book
}

/// The book as an EPD file with a header saying how it was made.
pub fn book_epd(filter: &dyn BalanceFilter) -> String {
    let book = generate_book(filter);
    let mut out = String::new();
    let names: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
    writeln!(
        out,
        "# chuhan match openings: {} positions, 4 to 10 plies from the start.\n\
         # Made by src/tools/matches/opening_book.rs, regenerated with\n\
         #   cargo run --release --example gen_openings > bench-positions/openings.epd\n\
         # (a test fails when this file and the generator disagree). Each opening family has\n\
         # main lines of 2-4 plies, taken in turn; a random walk (splitmix64, seed\n\
         # {BOOK_SEED:#x}) then adds developing moves (no king moves, nothing backwards, no quiet\n\
         # move across the river) that do not hang material, to 4-10 plies in all. A position\n\
         # is kept when it is new and passes the balance filter: {}.\n\
         # Families: {}.\n\
         # Fields: FEN board and side, then c0 = family, c1 = the moves from the start.",
        book.len(),
        filter.describe(),
        names.join("; ")
    )
    .expect("string");
    for line in &book {
        let fen = line.position.to_fen();
        let mut fields = fen.split_whitespace();
        let (board, side) = (fields.next().unwrap_or(""), fields.next().unwrap_or("w"));
        let moves: Vec<String> = line.moves.iter().map(|m| m.to_string()).collect();
        writeln!(
            out,
            "{board} {side} - - c0 \"{}\"; c1 \"{}\";",
            line.family,
            moves.join(" ")
        )
        .expect("string");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::matches::openings::parse_openings;

    #[test]
    fn checked_in_book_is_what_the_generator_makes() {
        let generated = book_epd(&MaterialMobility::default());
        let file = include_str!("../../../bench-positions/openings.epd");
        assert!(
            generated == file,
            "bench-positions/openings.epd is stale: regenerate it (see its header)"
        );
    }

    #[test]
    fn book_has_200_distinct_balanced_positions_of_4_to_10_plies() {
        let filter = MaterialMobility::default();
        let book = generate_book(&filter);
        assert!(book.len() >= 200, "{}", book.len());
        let keys: HashSet<u64> = book.iter().map(|l| l.position.key()).collect();
        assert_eq!(keys.len(), book.len());
        for line in &book {
            assert!((4..=10).contains(&line.moves.len()));
            assert!(filter.is_balanced(&line.position));
            let mut p = Position::startpos();
            for &m in &line.moves {
                assert!(p.is_legal(m));
                p.do_move(m);
            }
            assert_eq!(p.key(), line.position.key());
        }
        for family in FAMILIES {
            assert!(
                book.iter().any(|l| l.family == family.name),
                "{}",
                family.name
            );
        }
        let parsed = parse_openings(&book_epd(&filter)).unwrap();
        assert_eq!(parsed.len(), book.len());
    }

    #[test]
    fn filter_rejects_a_hanging_pawn() {
        let filter = MaterialMobility::default();
        assert!(filter.is_balanced(&Position::startpos()));
        let mut p = Position::startpos();
        for m in ["h2e2", "g6g5"] {
            p.do_move(p.parse_move(m).unwrap());
        }
        // The central cannon takes e6 over its own pawn and nothing can take back.
        assert_eq!(settled_material(&p), 100);
        assert!(!filter.is_balanced(&p));
        p.do_move(p.parse_move("e2e6").unwrap());
        assert!(hangs_material(&p) || settled_material(&p) == -100);
    }
}
