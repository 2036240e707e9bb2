//! UCCI end to end: the built binary driven over pipes as the xqbase referee or a GUI would.

mod common;

use std::time::Duration;

use chuhan::Position;
use common::{Engine, MATED_FEN, PROMPT, STALEMATED_FEN, best_of, is_bestmove};

#[test]
fn handshake_advertises_the_standard_options() {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.until(|l| l == "ucciok", PROMPT);
    for id in [
        "id name ",
        "id version ",
        "id copyright ",
        "id author ",
        "id user ",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(id)), "missing {id}");
    }
    for option in [
        "usemillisec",
        "hashsize",
        "threads",
        "ponder",
        "newgame",
        "batch",
        "debug",
        "limitstrength",
        "elo",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option {option} type "))),
            "missing option {option}"
        );
    }
}

#[test]
fn referee_setup_and_unknown_options_are_silent() {
    let mut e = Engine::with_handshake("ucci");
    for line in [
        "setoption promotion false",
        "setoption ponder false",
        "setoption newgame",
        "setoption usemillisec true",
        "setoption hashsize 16",
        "setoption threads 1",
        "setoption style risky",
    ] {
        e.send(line);
    }
    assert_eq!(e.sync(), ["readyok"]);
    // A book file that is not there is worth one message.
    e.send("setoption bookfiles /no/such/book");
    let lines = e.sync();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("info message book /no/such/book"),
        "{lines:?}"
    );
}

#[test]
fn stop_while_idle_is_nobestmove_and_quit_is_bye() {
    let mut e = Engine::with_handshake("ucci");
    e.send("stop");
    e.until(|l| l == "nobestmove", PROMPT);
    e.send("quit");
    e.until(|l| l == "bye", PROMPT);
    assert!(e.exits_within(Duration::from_secs(2)));
}

#[test]
fn go_depth_gives_ucci_info_and_a_legal_move() {
    let mut e = Engine::with_handshake("ucci");
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2");
    e.send("go depth 3");
    let lines = e.until(is_bestmove, PROMPT);
    let best = lines.last().unwrap();
    let mut pos = Position::startpos();
    pos.do_move(pos.parse_move("h2e2").unwrap());
    assert!(pos.parse_move(best_of(best)).is_ok(), "{best}");
    let depth_line = lines
        .iter()
        .rfind(|l| l.starts_with("info depth "))
        .expect("an info depth line");
    let words: Vec<&str> = depth_line.split_whitespace().collect();
    assert_eq!(words[3], "score", "{depth_line}");
    assert!(
        words[4].parse::<i32>().is_ok(),
        "UCCI score has no cp: {depth_line}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info time ") && l.contains(" nodes "))
    );
}

#[test]
fn times_are_seconds_unless_usemillisec() {
    let mut e = Engine::with_handshake("ucci");
    e.send("position startpos");
    // 300 seconds on the clock: still thinking at depth 10 (300 ms would have ended the
    // search long before).
    e.send("go time 300 increment 0");
    e.holds_bestmove(10);
    e.send("stop");
    e.until(is_bestmove, PROMPT);
    // 300 milliseconds on the clock: the search ends by itself (300 seconds would not within
    // the prompt's wait).
    e.send("setoption usemillisec true");
    e.send("go time 300 increment 0 opptime 300 oppincrement 0");
    e.until(is_bestmove, PROMPT);
}

#[test]
fn banmoves_are_honoured_and_cleared_by_position() {
    let mut e = Engine::with_handshake("ucci");
    let pos = Position::startpos();
    let keep = "i3i4";
    let banned: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .filter(|m| m != keep)
        .collect();
    e.send("position startpos");
    e.send(&format!("banmoves {}", banned.join(" ")));
    e.send("go depth 3");
    let best = e.until(is_bestmove, PROMPT).pop().unwrap();
    assert_eq!(best_of(&best), keep);
    // A new position clears the bans: with only i3i4 banned, another move is possible.
    e.send("position startpos");
    e.send(&format!("banmoves {keep}"));
    e.send("go depth 2");
    let best = e.until(is_bestmove, PROMPT).pop().unwrap();
    assert_ne!(best_of(&best), keep);
}

#[test]
fn ponder_then_ponderhit_draw() {
    let mut e = Engine::with_handshake("ucci");
    e.send("setoption ponder true");
    e.send("setoption usemillisec true");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder time 2000 increment 0");
    e.holds_bestmove(3);
    e.send("ponderhit draw");
    let best = e.until(is_bestmove, PROMPT).pop().unwrap();
    assert!(best.starts_with("bestmove "), "{best}");
}

#[test]
fn draw_offer_is_accepted_in_a_level_position() {
    // Kings and one advisor each: nothing can cross the river, the score is exactly level.
    let mut e = Engine::with_handshake("ucci");
    e.send("position fen 4k4/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1");
    e.send("go draw depth 3");
    let best = e.until(is_bestmove, PROMPT).pop().unwrap();
    assert!(best.ends_with(" draw"), "{best}");
    e.send("go depth 3");
    let best = e.until(is_bestmove, PROMPT).pop().unwrap();
    assert!(
        !best.ends_with(" draw") && !best.ends_with(" resign"),
        "{best}"
    );
}

#[test]
fn draw_offer_is_refused_a_rook_up() {
    let mut e = Engine::with_handshake("ucci");
    e.send("position fen 4k4/4a4/9/9/9/9/9/9/4A4/R3K4 w - - 0 1");
    e.send("go draw depth 3");
    let best = e.until(is_bestmove, PROMPT).pop().unwrap();
    assert!(
        best.starts_with("bestmove ") && !best.ends_with(" draw"),
        "{best}"
    );
}

#[test]
fn no_legal_move_is_nobestmove() {
    for fen in [MATED_FEN, STALEMATED_FEN] {
        let mut e = Engine::with_handshake("ucci");
        e.send(&format!("position fen {fen}"));
        e.send("go depth 3");
        assert_eq!(e.until(is_bestmove, PROMPT).pop().unwrap(), "nobestmove");
    }
}

#[test]
fn probe_answers_pophash() {
    let mut e = Engine::with_handshake("ucci");
    e.send("probe startpos moves h2e2");
    let line = e.until(|l| l.starts_with("pophash"), PROMPT).pop().unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    // pophash [bestmove m] [lowerbound v depth d] [upperbound v depth d]
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "bestmove" => i += 2,
            "lowerbound" | "upperbound" => {
                assert_eq!(words[i + 2], "depth", "{line}");
                i += 4;
            }
            other => panic!("unexpected '{other}' in {line}"),
        }
    }
    e.send("probe fen 9/9/9");
    let reply = e.sync();
    assert!(reply[0].starts_with("info message "), "{reply:?}");

    // After a search the table knows the root: its best move and a bound at the searched depth.
    e.send("position startpos");
    e.send("go depth 6");
    let best = e.until(is_bestmove, PROMPT).pop().unwrap();
    let best = best_of(&best).to_string();
    e.send("probe startpos");
    let line = e.until(|l| l.starts_with("pophash"), PROMPT).pop().unwrap();
    assert!(
        line.starts_with(&format!("pophash bestmove {best} ")),
        "{line}"
    );
    assert!(line.contains(" depth 6"), "{line}");
}

#[test]
fn batch_mode_reads_on_only_after_the_search() {
    let mut e = Engine::with_handshake("ucci");
    e.send("setoption batch true");
    e.send("position startpos");
    e.send_raw(b"go depth 4\nisready\n");
    let lines = e.until(|l| l == "readyok", PROMPT);
    let best = lines.iter().position(|l| is_bestmove(l));
    assert_eq!(best, Some(lines.len() - 2), "{lines:?}");
}

#[test]
fn bad_lines_get_info_message() {
    let mut e = Engine::with_handshake("ucci");
    for bad in [
        "frobnicate",
        "position fen xyz",
        "position startpos moves e0e5",
        "go depth abc",
        "setoption hashsize lots",
    ] {
        e.send(bad);
        let reply = e.sync();
        assert_eq!(reply.len(), 2, "{bad}: {reply:?}");
        assert!(reply[0].starts_with("info message "), "{bad}: {reply:?}");
    }
}

/// `isready` is answered while a search runs and `stop` ends it (latencies:
/// `scripts/protocol-timing.py`).
#[test]
fn isready_and_stop_are_answered_while_thinking() {
    let mut e = Engine::with_handshake("ucci");
    e.send("position startpos");
    e.send("go infinite");
    e.holds_bestmove(4);
    e.send("stop");
    e.until(is_bestmove, PROMPT);
}
