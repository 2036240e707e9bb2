//! Mate-in-N positions (tests/data/mate.epd, `FEN; mate N`): first proved to be forced mates
//! by a small checks-only solver here, then solved by the engine through UCI. Quiet mates
//! (tests/data/quiet-mate.epd, positions from chuhan's match games): mates in 2 that need a move
//! without check, proved by the same solver searching every move.

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

/// The side to move mates in at most `n` moves (a proof, not a search for the shortest mate):
/// with every move, or only with checks at every move. No legal move is a loss, so a quiet
/// move that leaves the opponent nothing also mates.
fn mates(pos: &mut Position, n: u32, checks_only: bool) -> bool {
    n > 0
        && pos.legal_moves().iter().any(|&m| {
            if checks_only && !pos.gives_check(m) {
                return false;
            }
            let undo = pos.do_move(m);
            let mated = pos.legal_moves().iter().all(|&r| {
                let u = pos.do_move(r);
                let ok = mates(pos, n - 1, checks_only);
                pos.undo_move(r, u);
                ok
            });
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
        assert!(mates(&mut pos, *n, true), "{fen} is not mate in {n}");
        if *n > 1 {
            assert!(
                !mates(&mut pos, n - 1, true),
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
        let mate = reported_mate(&lines);
        if !matches!(mate, Some(k) if k >= 1 && k <= n as i32) {
            failures.push(format!("{fen}: mate in {n}, engine said {mate:?}, {best}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

fn quiet_mates() -> Vec<String> {
    include_str!("data/quiet-mate.epd")
        .lines()
        .map(str::to_string)
        .collect()
}

/// The mate length of the last scored `info` line, if it is a mate score.
fn reported_mate(lines: &[String]) -> Option<i32> {
    lines
        .iter()
        .rev()
        .find(|l| l.contains(" score "))
        .and_then(|l| l.split(" score mate ").nth(1))
        .and_then(|s| s.split_whitespace().next())
        .and_then(|k| k.parse().ok())
}

#[test]
fn quiet_mates_are_mates_in_two_that_need_a_quiet_move() {
    let all = quiet_mates();
    assert!(all.len() >= 50);
    for fen in &all {
        let mut pos = Position::from_fen(fen).unwrap();
        assert!(mates(&mut pos, 2, false), "{fen} is not mate in 2");
        assert!(!mates(&mut pos, 1, false), "{fen} is mate in 1");
        assert!(!mates(&mut pos, 2, true), "{fen} mates in 2 by checks");
    }
}

/// Pruning may hide a quiet mate from a shallow search, but a mate the hand-written
/// evaluation's search does report is the shortest (no static guess stands in for "not mated"
/// against a mate score), and a deep enough search finds them all. With the net, a reported
/// mate is never shorter than the true one and depth 12 finds them all; a shallower search may
/// report a longer mate first (one position of the suite at depth 8: a known gap, see
/// STRENGTH.md).
fn shortest_mates(use_nnue: bool) -> Vec<String> {
    let mut e = Engine::with_handshake("uci");
    e.send(&format!("setoption name Use NNUE value {use_nnue}"));
    let mut failures = Vec::new();
    for fen in quiet_mates() {
        for depth in [6, 8, 10, 12] {
            e.send("ucinewgame");
            e.send(&format!("position fen {fen}"));
            e.send(&format!("go depth {depth}"));
            let lines = e.until(is_bestmove, PROMPT);
            let mate = reported_mate(&lines);
            let wrong = match mate {
                Some(k) if use_nnue && depth < 12 => k < 2,
                Some(k) => k != 2,
                None => depth == 12,
            };
            if wrong {
                failures.push(format!("{fen}: depth {depth}, engine said mate {mate:?}"));
            }
        }
    }
    failures
}

#[test]
fn the_hand_written_evaluation_reports_the_shortest_quiet_mate() {
    let failures = shortest_mates(false);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_net_finds_every_quiet_mate_and_never_a_shorter_one() {
    let failures = shortest_mates(true);
    assert!(failures.is_empty(), "{failures:#?}");
}
