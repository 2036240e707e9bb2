//! End-to-end: `Debug Log File` (UCI) and `debuglogfile` (UCCI) append every line in and out,
//! timestamped, with its direction; an empty name stops the log; a bad path gets one message.

mod common;

use common::{Engine, PROMPT, is_bestmove};

fn log_path(name: &str) -> String {
    let p = std::env::temp_dir().join(format!("chuhan debug {}-{name}.log", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p.to_str().unwrap().to_string()
}

/// The logged lines without their timestamps.
fn logged(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let (stamp, rest) = l.split_at(12);
            assert!(
                stamp.ends_with(|c: char| c.is_ascii_digit()) && stamp.contains('.'),
                "{l}"
            );
            rest.trim_start().to_string()
        })
        .collect()
}

fn check(greeting: &str, set: &str, unset: &str, ready: &str) {
    let path = log_path(greeting);
    let mut e = Engine::with_handshake(greeting);
    e.send(&format!("{set}{path}"));
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    let search = e.until(is_bestmove, PROMPT);
    e.send(unset);
    e.send("isready");
    e.until(|l| l == ready, PROMPT);
    let log = logged(&path);
    // The option line itself comes before the log opens; everything after is there, in order.
    assert_eq!(log[0], "<< position startpos moves h2e2", "{log:?}");
    assert_eq!(log[1], "<< go depth 3", "{log:?}");
    let out: Vec<String> = search.iter().map(|l| format!(">> {l}")).collect();
    assert_eq!(&log[2..2 + out.len()], &out[..], "{log:?}");
    assert_eq!(log[2 + out.len()], format!("<< {unset}"));
    assert_eq!(
        log.len(),
        3 + out.len(),
        "nothing after the log was switched off: {log:?}"
    );
    std::fs::remove_file(&path).unwrap();

    e.send(&format!("{set}/no/such/dir/chuhan.log"));
    let lines = e.sync();
    assert!(
        lines[0].contains("Debug Log File /no/such/dir/chuhan.log"),
        "{lines:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some(ready));
}

#[test]
fn uci_debug_log_file() {
    check(
        "uci",
        "setoption name Debug Log File value ",
        "setoption name Debug Log File value <empty>",
        "readyok",
    );
}

#[test]
fn ucci_debuglogfile() {
    check(
        "ucci",
        "setoption debuglogfile ",
        "setoption debuglogfile",
        "readyok",
    );
}
