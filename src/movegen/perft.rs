//! Perft: counts the leaves of the legal move tree, the standard check of a move generator.

use crate::board::{Move, Position};

/// Leaf count `depth` plies deep, counting the last ply in bulk.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let moves = pos.legal_moves();
            let mut n = 0;
            for &m in moves.iter() {
                let u = pos.do_move(m);
                n += perft(pos, depth - 1);
                pos.undo_move(m, u);
            }
            n
        }
    }
}

/// Per root move leaf counts, in generation order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let u = pos.do_move(m);
            let n = perft(pos, depth - 1);
            pos.undo_move(m, u);
            (m, n)
        })
        .collect()
}

/// The text the `perft` commands print: one `move: count` line per root move, a blank line,
/// then `Nodes searched: N`.
pub fn perft_report(pos: &mut Position, depth: u32) -> String {
    let rows = perft_divide(pos, depth);
    let mut s = String::new();
    for (m, n) in &rows {
        s.push_str(&format!("{m}: {n}\n"));
    }
    let total: u64 = if depth == 0 {
        1
    } else {
        rows.iter().map(|r| r.1).sum()
    };
    s.push_str(&format!("\nNodes searched: {total}\n"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_start_counts() {
        let mut p = Position::startpos();
        assert_eq!(perft(&mut p, 1), 44);
        assert_eq!(perft(&mut p, 2), 1920);
        assert_eq!(perft(&mut p, 3), 79666);
        let report = perft_report(&mut p, 2);
        assert!(report.ends_with("\nNodes searched: 1920\n"));
        assert_eq!(report.lines().filter(|l| l.contains(": ")).count(), 45);
    }
}
