//! Building a book from games: every move of the first plies of each game, weighted by how the
//! games went for the side that played it.

use std::collections::HashMap;

use crate::board::{Color, Move};
use crate::rules::GameResult;
use crate::tools::pgn::reader::PgnGame;

use super::{Book, Entry, zobrist};

/// What goes into the book.
#[derive(Clone, Copy, Debug)]
pub struct BuildSettings {
    /// Plies of each game taken (from its start).
    pub max_ply: usize,
    /// A move enters only if at least this many games played it in its position.
    pub min_games: u32,
}

/// What the build did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    pub games: usize,
    /// Games without a result (they count as draws).
    pub without_result: usize,
    pub positions: usize,
    pub entries: usize,
}

/// The half-points a move earns: 2 for a win of its side, 1 for a draw or an unknown result,
/// 0 for a loss. The weight of a move is its sum over the games.
fn half_points(result: Option<GameResult>, mover: Color) -> u32 {
    match result {
        Some(r) if r == GameResult::win_for(mover) => 2,
        Some(GameResult::Draw) | None => 1,
        Some(_) => 0,
    }
}

#[derive(Clone, Copy, Default)]
struct Tally {
    games: u32,
    half_points: u32,
}

/// The book of `games`. Moves that earned nothing (played only in lost games) are left out.
pub fn build(games: &[PgnGame], settings: BuildSettings) -> (Book, BuildReport) {
    let mut report = BuildReport::default();
    // Keyed by chuhan's 64-bit key, so that positions whose 32-bit locks collide stay apart.
    let mut tallies: HashMap<(u64, Move), Tally> = HashMap::new();
    let mut locks: HashMap<u64, u32> = HashMap::new();
    for g in games {
        report.games += 1;
        report.without_result += usize::from(g.result.is_none());
        let mut pos = g.start.clone();
        for &m in g.moves.iter().take(settings.max_ply) {
            let key = pos.key();
            locks
                .entry(key)
                .or_insert_with(|| zobrist::lock(&pos, false));
            let t = tallies.entry((key, m)).or_default();
            t.games += 1;
            t.half_points += half_points(g.result, pos.side_to_move());
            pos.do_move(m);
        }
    }
    let entries: Vec<Entry> = tallies
        .iter()
        .filter(|(_, t)| t.games >= settings.min_games && t.half_points > 0)
        .map(|(&(key, m), t)| Entry {
            lock: locks[&key],
            code: zobrist::encode(m),
            weight: t.half_points.min(u32::from(u16::MAX)) as u16,
        })
        .collect();
    let mut positions: Vec<u32> = entries.iter().map(|e| e.lock).collect();
    positions.sort_unstable();
    positions.dedup();
    report.positions = positions.len();
    report.entries = entries.len();
    (Book::from_entries(entries), report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::tools::pgn::reader::read_games;

    const GAMES: &str = "\
[Result \"1-0\"]
1. h2e2 h9g7 2. h0g2 i9h9 1-0
[Result \"1-0\"]
1. h2e2 h9g7 2. b0c2 1-0
[Result \"0-1\"]
1. h2e2 b9c7 0-1
[Result \"1/2-1/2\"]
1. c3c4 g6g5 1/2-1/2
[Result \"0-1\"]
1. b0c2 0-1
";

    fn offered(book: &Book, pos: &Position) -> Vec<String> {
        book.moves(pos)
            .iter()
            .map(|b| format!("{} {}", b.mv, b.weight))
            .collect()
    }

    #[test]
    fn moves_are_weighted_by_their_results() {
        let (games, problems) = read_games(GAMES);
        assert!(problems.is_empty());
        let settings = BuildSettings {
            max_ply: 2,
            min_games: 1,
        };
        let (book, report) = build(&games, settings);
        let start = Position::startpos();
        // h2e2: two wins and a loss for Red (4 half-points); c3c4 a draw; b0c2 only lost.
        assert_eq!(offered(&book, &start), ["h2e2 4", "c3c4 1"]);
        let mut after = start.clone();
        after.do_move(start.parse_move("h2e2").unwrap());
        // Black's h9g7 lost twice (nothing), b9c7 won once.
        assert_eq!(offered(&book, &after), ["b9c7 2"]);
        // Ply 3 (h0g2) is beyond max_ply.
        let mut deeper = after.clone();
        deeper.do_move(after.parse_move("h9g7").unwrap());
        assert!(book.moves(&deeper).is_empty());
        assert_eq!(report.games, 5);
        assert_eq!(report.positions, 3);
        // The book survives its file and reads back the same moves.
        let again = Book::from_bytes(&book.to_bytes()).unwrap();
        assert_eq!(offered(&again, &start), ["h2e2 4", "c3c4 1"]);
    }

    #[test]
    fn rare_moves_are_left_out() {
        let (games, _) = read_games(GAMES);
        let settings = BuildSettings {
            max_ply: 4,
            min_games: 2,
        };
        let (book, _) = build(&games, settings);
        let start = Position::startpos();
        assert_eq!(offered(&book, &start), ["h2e2 4"]);
        let mut after = start.clone();
        after.do_move(start.parse_move("h2e2").unwrap());
        // h9g7 was played twice but lost both: no weight.
        assert!(book.moves(&after).is_empty());
    }
}
