//! `chuhan play` end to end: scripted games through stdin, judged by what the binary prints.

use assert_cmd::Command;
use chuhan::search::strength::MIN_ELO;

/// Black's king alone on f9, Red's rooks on a8 and i0: `R1+9` mates at once; after the quiet
/// `i0i1` Black's only legal move is `f9e9`, and `i1i9` mates.
const ROOKS: &str = "5k3/R8/9/9/9/9/9/9/9/3K4R w - - 0 1";

fn play(args: &[&str], stdin: &str) -> (String, bool) {
    let mut with_level = vec!["--level", "1"];
    with_level.extend_from_slice(args);
    play_as_given(&with_level, stdin)
}

fn play_as_given(args: &[&str], stdin: &str) -> (String, bool) {
    let out = Command::cargo_bin("chuhan")
        .unwrap()
        .arg("play")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.success())
}

#[test]
fn mate_in_one_typed_in_wxf_ends_the_game() {
    let (out, ok) = play(&["--fen", ROOKS], "R1+9\nquit\n");
    assert!(ok);
    assert!(out.contains("You play 车一进九 (i0i9)"), "{out}");
    assert!(out.contains("Game over: 1-0 checkmate (you win)"), "{out}");
}

#[test]
fn forced_sequence_against_the_engine_ends_in_mate() {
    let (out, ok) = play(
        &["--fen", ROOKS, "--ascii"],
        "i0i1\n车一进八\nmoves\nquit\n",
    );
    assert!(ok);
    assert!(out.contains("chuhan plays 将6平5 (f9e9)"), "{out}");
    assert!(out.contains("Game over: 1-0 checkmate (you win)"), "{out}");
    assert!(out.contains("1. 车一进一 将6平5\n2. 车一进八\n"), "{out}");
    // the final board marks the mating rook and the mated king
    assert!(
        out.contains("9  +---+---+---+--[k]--+---+---+--(R) 9"),
        "{out}"
    );
}

#[test]
fn illegal_input_is_explained_undo_takes_back_and_resigning_saves_the_game() {
    let pgn = std::env::temp_dir().join(format!("chuhan-play-test-{}.pgn", std::process::id()));
    let (out, ok) = play(
        &["--fen", ROOKS, "--pgn", pgn.to_str().unwrap()],
        "i0i1\nundo\nh2e2\n炮二平五\nfen\nresign\nquit\n",
    );
    assert!(ok);
    assert!(out.contains("'h2e2' is not legal here; legal: "), "{out}");
    assert!(
        out.contains("'炮二平五' is not legal here; legal: "),
        "{out}"
    );
    // after undo the start position is back, Red to move
    assert!(out.contains(&format!(
        "\n{}",
        "you (Red) > 5k3/R8/9/9/9/9/9/9/9/3K4R w - - 0 1"
    )));
    assert!(
        out.contains("Game over: 0-1 Red resigns (chuhan wins)"),
        "{out}"
    );
    let saved = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_file(&pgn).unwrap();
    assert!(saved.contains("[Result \"0-1\"]"), "{saved}");
    assert!(saved.contains("[FEN \"5k3/R8/9/9/9/9/9/9/9/3K4R w - - 0 1\"]"));
    assert!(saved.trim_end().ends_with("{Red resigns} 0-1"), "{saved}");
}

#[test]
fn playing_black_the_engine_opens_and_the_board_is_turned() {
    let (out, ok) = play(&["--side", "black"], "undo\nflip\nquit\n");
    assert!(ok);
    assert!(out.contains("chuhan plays "), "{out}");
    assert!(out.contains("Nothing of yours to take back."), "{out}");
    let coordinates: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("   a") || l.starts_with("   i"))
        .collect();
    assert!(coordinates[0].starts_with("   i   h"), "{out}");
    assert!(coordinates.last().unwrap().starts_with("   a   b"), "{out}");
}

#[test]
fn bad_options_are_refused() {
    let (_, ok) = play(&["--fen", "not a fen"], "");
    assert!(!ok);
    let (_, ok) = play(&["--movetime", "100"], "");
    assert!(!ok, "--movetime and --level conflict");
}

#[test]
fn an_elo_plays_a_limited_engine_and_is_range_checked() {
    // The weakest calibrated strength: the range moves with each recalibration.
    let weakest = MIN_ELO.to_string();
    let (out, ok) = play_as_given(&["--elo", &weakest, "--fen", ROOKS], "i0i1\nquit\n");
    assert!(ok);
    assert!(out.contains("chuhan plays 将6平5 (f9e9)"), "{out}");
    assert!(
        !play_as_given(&["--elo", "5"], "").1,
        "below the calibrated range"
    );
    assert!(
        !play_as_given(&["--elo", &weakest, "--level", "3"], "").1,
        "--elo and --level conflict"
    );
}
