//! Shell use without a handshake, and bad input of every kind: the engine answers each with one
//! `info string` and serves on.

mod common;

use std::time::Duration;

use common::{Engine, PROMPT, is_bestmove};

/// Sends `line`, then `isready`: exactly one `info string` must come before `readyok`.
fn one_complaint(e: &mut Engine, line: &[u8]) -> String {
    e.send_raw(line);
    e.send_raw(b"\n");
    let reply = e.sync();
    assert_eq!(
        reply.len(),
        2,
        "{:?}: {reply:?}",
        String::from_utf8_lossy(&line[..line.len().min(80)])
    );
    assert!(reply[0].starts_with("info string "), "{reply:?}");
    reply[0].clone()
}

#[test]
fn shell_use_needs_no_handshake() {
    let mut e = Engine::start();
    e.send("startpos moves h2e2");
    assert!(e.fen().contains("1C2C4"));
    e.send("fen 3k5/9/9/9/9/9/9/9/9/4K4 w");
    assert_eq!(e.fen(), "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    e.send("go depth 1");
    assert!(
        e.until(is_bestmove, PROMPT)
            .pop()
            .unwrap()
            .starts_with("bestmove ")
    );
    e.send("uci");
    e.until(|l| l == "uciok", PROMPT);
}

#[test]
fn bad_commands_fens_and_moves() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos moves h2e2");
    let kept = e.fen();
    for bad in [
        "frobnicate",
        "position",
        "position fen",
        "position fen rnbakabnr/9/1c5c1",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
        "position startpos moves h2e2 h9g7 e2e9",
        "position startpos moves zz99",
        "position startpos banana",
        "setoption name Hash value lots",
        "setoption",
        "go depth abc",
        "go movetime",
        "go wtime 1e9",
    ] {
        one_complaint(&mut e, bad.as_bytes());
        assert_eq!(e.fen(), kept, "position changed by {bad}");
    }
}

#[test]
fn absurd_numbers_are_clamped_and_the_search_still_ends() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos");
    e.send("go movetime -5");
    let lines = e.until(is_bestmove, PROMPT);
    assert!(lines[0].starts_with("info string movetime"), "{lines:?}");
    for go in [
        "go depth 99999",
        "go nodes 99999999999999999999",
        "go wtime 123456789012345678901 btime 5",
    ] {
        e.send(go);
        let note = e.until(|l| l.starts_with("info string"), PROMPT);
        assert_eq!(note.len(), 1, "{go}: {note:?}");
        e.send("stop");
        e.until(is_bestmove, PROMPT);
    }
    one_complaint(
        &mut e,
        b"setoption name MultiPV value 100000000000000000000000",
    );
}

#[test]
fn huge_lines_and_binary_garbage() {
    let mut e = Engine::with_handshake("uci");
    let complaint = one_complaint(&mut e, &vec![b'x'; 100_000]);
    assert!(complaint.len() < 200, "the reply quotes too much");
    // Over the reader's limit: skipped without being stored.
    one_complaint(&mut e, &vec![b'y'; 2_000_000]);
    // Pseudo-random bytes, newlines excluded, one complaint per line at most.
    let mut state = 0x2545F4914F6CDD1Du64;
    for _ in 0..50 {
        let line: Vec<u8> = (0..200)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .filter(|&b| b != b'\n')
            .collect();
        e.send_raw(&line);
        e.send_raw(b"\n");
        let reply = e.sync();
        assert!(reply.len() <= 2, "{reply:?}");
    }
    e.send_raw(b"\xff\xfe\x00\r\n");
    e.sync();
    e.send("go depth 1");
    e.until(is_bestmove, PROMPT);
}

#[test]
fn last_line_without_newline_then_end_of_input() {
    let mut e = Engine::start();
    e.send_raw(b"isready");
    e.close_stdin();
    e.until(|l| l == "readyok", PROMPT);
    assert!(e.exits_within(Duration::from_secs(2)));
}

#[test]
fn end_of_input_during_a_search_quits() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos");
    e.send("go infinite");
    e.sync();
    e.close_stdin();
    assert!(e.exits_within(Duration::from_secs(2)));
}
