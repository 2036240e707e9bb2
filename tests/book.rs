//! Opening books end to end: `chuhan book build` from PGN, then both dialects playing from it.

mod common;

use std::path::PathBuf;

use assert_cmd::Command;
use common::{Engine, PROMPT, best_of, is_bestmove};

/// Red opens h2e2 in two won games and a lost one, and c3c4 in a drawn game; Black answers h2e2
/// with h9g7 (two games, lost) or b9c7 (one, won).
const GAMES: &str = "\
[Result \"1-0\"]
1. h2e2 h9g7 2. h0g2 1-0
[Result \"1-0\"]
1. h2e2 h9g7 2. b0c2 1-0
[Result \"0-1\"]
1. h2e2 b9c7 2. h0g2 0-1
[Result \"1/2-1/2\"]
1. c3c4 g6g5 1/2-1/2
";

/// Writes the games and builds a book from them in a fresh folder; returns the book's path.
fn book(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-book-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let out = dir.join("BOOK.DAT");
    let run = Command::cargo_bin("chuhan")
        .unwrap()
        .args([
            "book",
            "build",
            "--min-games",
            "1",
            "--max-ply",
            "3",
            "--pgn",
        ])
        .arg(&pgn)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8(run.stdout).unwrap();
    assert!(said.starts_with("4 games"), "{said}");
    out
}

fn show(book: &PathBuf, moves: &[&str]) -> String {
    let out = Command::cargo_bin("chuhan")
        .unwrap()
        .args(["book", "show", "--book"])
        .arg(book)
        .arg("--moves")
        .args(moves)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_built_book_reads_back_by_weight() {
    let b = book("show");
    // h2e2: two wins and a loss, 4 half-points; c3c4: one draw, 1.
    assert_eq!(show(&b, &[]), "h2e2 4 (80.0%)\nc3c4 1 (20.0%)\n");
    // Black: b9c7 won once (2); h9g7 only lost and is left out.
    assert_eq!(show(&b, &["h2e2"]), "b9c7 2 (100.0%)\n");
    // The mirror image of h2e2 (b2e2) finds the same answer, mirrored.
    assert_eq!(show(&b, &["b2e2"]), "h9g7 2 (100.0%)\n");
    assert_eq!(show(&b, &["h0g2"]), "not in the book\n");
}

#[test]
fn uci_plays_book_moves_announced_at_depth_0() {
    let b = book("uci");
    let mut e = Engine::with_handshake("uci");
    e.send(&format!("setoption name Book File value {}", b.display()));
    e.send("setoption name Best Book Move value true");
    e.send("position startpos");
    e.send("go movetime 5000");
    let lines = e.until(is_bestmove, PROMPT);
    assert_eq!(best_of(lines.last().unwrap()), "h2e2", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 0 ")
            && l.contains("score cp 4 ")
            && l.ends_with("pv h2e2")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.ends_with("pv c3c4")), "{lines:?}");
    // The book's answer to h2e2 is offered as the ponder move.
    assert!(lines.last().unwrap().ends_with("ponder b9c7"), "{lines:?}");
    // Out of the book the search takes over.
    e.send("position startpos moves h2e2 b9c7 h0g2");
    e.send("go depth 3");
    let lines = e.until(is_bestmove, PROMPT);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    // OwnBook off: the search again.
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until(is_bestmove, PROMPT);
    assert!(
        lines.iter().all(|l| !l.starts_with("info depth 0 ")),
        "{lines:?}"
    );
    e.send("quit");
}

#[test]
fn ucci_uses_bookfiles_and_respects_banmoves() {
    let b = book("ucci");
    let mut e = Engine::with_handshake("ucci");
    e.send(&format!("setoption bookfiles {}", b.display()));
    e.send("setoption usebook true");
    e.send("setoption bestbookmove true");
    e.send("position startpos");
    e.send("go time 5");
    let lines = e.until(is_bestmove, PROMPT);
    assert_eq!(best_of(lines.last().unwrap()), "h2e2", "{lines:?}");
    assert!(
        lines.contains(&"info depth 0 score 4 pv h2e2".to_string()),
        "{lines:?}"
    );
    // Banning the heaviest move leaves the other book move.
    e.send("position startpos");
    e.send("banmoves h2e2");
    e.send("go time 5");
    let lines = e.until(is_bestmove, PROMPT);
    assert_eq!(best_of(lines.last().unwrap()), "c3c4", "{lines:?}");
    e.send("quit");
}

#[test]
fn weighted_choice_plays_every_book_move_over_new_games() {
    let b = book("random");
    let mut e = Engine::with_handshake("uci");
    e.send(&format!("setoption name Book File value {}", b.display()));
    let mut played = std::collections::BTreeSet::new();
    // c3c4 has weight 1 in 5: some of 60 new games choose it (the chance that none does is
    // (4/5)^60, below 1e-5), and nothing outside the book is played.
    for _ in 0..60 {
        e.send("ucinewgame");
        e.send("position startpos");
        e.send("go movetime 5000");
        let lines = e.until(is_bestmove, PROMPT);
        played.insert(best_of(lines.last().unwrap()).to_string());
    }
    assert_eq!(played.into_iter().collect::<Vec<_>>(), ["c3c4", "h2e2"]);
    e.send("quit");
}

#[test]
fn a_bad_book_file_gets_one_message_and_the_book_stays() {
    let b = book("bad");
    let bad = b.with_file_name("odd.dat");
    std::fs::write(&bad, [1, 2, 3]).unwrap();
    let mut e = Engine::with_handshake("uci");
    e.send(&format!("setoption name Book File value {}", b.display()));
    e.send(&format!("setoption name Book File value {}", bad.display()));
    let lines = e.sync();
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("the current book stays"))
            .count(),
        1,
        "{lines:?}"
    );
    e.send("setoption name Best Book Move value true");
    e.send("position startpos");
    e.send("go movetime 5000");
    let lines = e.until(is_bestmove, PROMPT);
    assert_eq!(best_of(lines.last().unwrap()), "h2e2", "{lines:?}");
    e.send("quit");
}
