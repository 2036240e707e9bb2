//! End-to-end tests of `chuhan adjudicate`.

use assert_cmd::Command;

fn adjudicate(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("chuhan")
        .unwrap()
        .arg("adjudicate")
        .args(args)
        .assert()
}

#[test]
fn prints_ongoing_for_the_start_position() {
    adjudicate(&[]).success().stdout("ongoing\n");
    adjudicate(&["--moves", "h2e2", "h9g7"])
        .success()
        .stdout("ongoing\n");
}

#[test]
fn prints_result_and_reason() {
    // Rook checks on ranks 9 and 8, the king steps between e9 and e8: the third occurrence.
    let check = "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9";
    adjudicate(&[
        "--fen",
        "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "--moves",
        check,
    ])
    .success()
    .stdout("0-1 perpetual check by Red\n");
    // The rook follows the unprotected g7 horse (moves given one per argument).
    let fen = "4k4/9/6n2/9/9/9/7R1/9/9/3K5 w - - 0 1";
    let chase = [
        "h3g3", "g7h9", "g3h3", "h9g7", "h3g3", "g7h9", "g3h3", "h9g7",
    ];
    adjudicate(&[&["--fen", fen, "--moves"][..], &chase[..]].concat())
        .success()
        .stdout("0-1 perpetual chase by Red (horse on g7)\n");
    // a5f5 mates on the 120th ply without capture.
    let mate = "5k3/9/9/9/R8/9/9/9/9/4K4 w - - 119 60";
    adjudicate(&["--fen", mate, "--moves", "a5f5"])
        .success()
        .stdout("1-0 checkmate\n");
    adjudicate(&["--fen", mate, "--moves", "a5a6"])
        .success()
        .stdout("1/2-1/2 move limit\n");
    adjudicate(&["--fen", mate, "--moves", "a5a6", "--move-limit", "0"])
        .success()
        .stdout("ongoing\n");
}

/// Runs a command that must fail with status 2 and no output; returns its error message.
fn refused(args: &[&str]) -> String {
    let out = adjudicate(args).code(2).stdout("").get_output().clone();
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn refuses_bad_input_with_status_2() {
    assert!(refused(&["--fen", "4k4/9/9 w"]).contains("FEN"));
    // The second h2e2 finds no cannon on h2.
    assert!(refused(&["--moves", "h2e2", "h2e2"]).contains("ply 2"));
    assert!(refused(&["--moves", "xyzzy"]).contains("xyzzy"));
}
