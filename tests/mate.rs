//! Mate-in-N positions (tests/data/mate.epd, `FEN; mate N`): first proved to be forced mates
//! by a small checks-only solver here, then solved by the engine through UCI.

mod common;

use chuhan::Position;
use common::{Engine, PROMPT, best_of, is_bestmove};

fn positions() -> Vec<(String, u32)> {
    include_str!("data/mate.epd")
        .lines()
        .map(|line| {
            let (fen, n) = line.split_once("; mate ").expect("FEN; mate N");
            (fen.to_string(), n.parse().expect("mate length"))
        })
        .collect()
}

/// The side to move mates in at most `n` moves, checking at every move (a proof, not a search
/// for the shortest mate).
fn mates_with_checks(pos: &mut Position, n: u32) -> bool {
    n > 0
        && pos.legal_moves().iter().any(|&m| {
            if !pos.gives_check(m) {
                return false;
            }
            let undo = pos.do_move(m);
            let replies = pos.legal_moves();
            let mated = if replies.is_empty() {
                pos.in_check()
            } else {
                replies.iter().all(|&r| {
                    let u = pos.do_move(r);
                    let ok = mates_with_checks(pos, n - 1);
                    pos.undo_move(r, u);
                    ok
                })
            };
            pos.undo_move(m, undo);
            mated
        })
}

#[test]
fn test_positions_are_forced_mates() {
    let all = positions();
    assert!(all.len() >= 10);
    for n in 1..=5 {
        assert!(all.iter().any(|p| p.1 == n), "no mate in {n}");
    }
    for (fen, n) in &all {
        let mut pos = Position::from_fen(fen).unwrap();
        assert!(mates_with_checks(&mut pos, *n), "{fen} is not mate in {n}");
        if *n > 1 {
            assert!(
                !mates_with_checks(&mut pos, n - 1),
                "{fen} mates sooner by checks"
            );
        }
    }
}

#[test]
fn engine_finds_every_mate() {
    let mut e = Engine::with_handshake("uci");
    let mut failures = Vec::new();
    for (fen, n) in positions() {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        e.send(&format!("go depth {}", 2 * n + 2));
        let lines = e.until(is_bestmove, PROMPT);
        let best = lines.last().unwrap();
        let pos = Position::from_fen(&fen).unwrap();
        assert!(pos.parse_move(best_of(best)).is_ok(), "{fen}: {best}");
        let mate = lines
            .iter()
            .rev()
            .find(|l| l.contains(" score "))
            .and_then(|l| l.split(" score mate ").nth(1))
            .and_then(|s| s.split_whitespace().next())
            .and_then(|k| k.parse::<i32>().ok());
        if !matches!(mate, Some(k) if k >= 1 && k <= n as i32) {
            failures.push(format!("{fen}: mate in {n}, engine said {mate:?}, {best}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
