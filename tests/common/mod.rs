//! Drives the built `chuhan` binary over pipes: lines are read by a thread into a channel, so
//! every wait has a timeout and nothing sleeps to synchronise.

#![allow(dead_code)] // each test file uses its own part of this harness

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// Generous bound for answers that should come at once (CI machines are slow and shared).
pub const PROMPT: Duration = Duration::from_secs(10);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for assertions over the whole session.
    pub seen: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chuhan");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            seen: Vec::new(),
        }
    }

    /// Starts and completes a handshake (`uci` or `ucci`).
    pub fn with_handshake(greeting: &str) -> Engine {
        let mut e = Engine::start();
        e.send(greeting);
        let ok = if greeting == "ucci" {
            "ucciok"
        } else {
            "uciok"
        };
        e.until(|l| l == ok, PROMPT);
        e
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` if none comes within `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                assert!(
                    line.len() < 1024,
                    "output line too long: {} bytes",
                    line.len()
                );
                self.seen.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one matching `done`; panics after `timeout`.
    pub fn until(&mut self, done: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next_line(left) else {
                panic!("timed out after {timeout:?}; lines so far: {got:#?}");
            };
            let finished = done(&line);
            got.push(line);
            if finished {
                return got;
            }
        }
    }

    /// Reads until the search reports `depth` or deeper, then syncs: no `bestmove` may come
    /// before `readyok` (pondering, infinite searches, long clocks). Events, not waits: the
    /// search has done the work after which a wrong `bestmove` would be printed.
    pub fn holds_bestmove(&mut self, depth: u64) {
        let mut lines = self.until(
            |l| l.starts_with("info ") && field(l, "depth").is_some_and(|d| d >= depth),
            PROMPT,
        );
        lines.extend(self.sync());
        assert!(
            !lines.iter().any(|l| is_bestmove(l)),
            "early bestmove: {lines:?}"
        );
    }

    /// Sends `isready` and returns everything up to `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(|l| l == "readyok", PROMPT)
    }

    /// Waits for the process to exit; true if it did within `timeout`.
    pub fn exits_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        // Draining stdout until it closes shows the process is gone (or closing).
        while self
            .next_line(deadline.saturating_duration_since(Instant::now()))
            .is_some()
        {}
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            thread::yield_now();
        }
        false
    }

    /// The FEN the `d` command shows.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until(|l| l.starts_with("Key: "), PROMPT);
        let fen = lines.iter().find_map(|l| l.strip_prefix("FEN: "));
        fen.expect("d shows the FEN").to_string()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn is_bestmove(line: &str) -> bool {
    line.starts_with("bestmove") || line == "nobestmove"
}

/// The number after the word `key` on a line (`nodes`, `hashfull`, …).
pub fn field(line: &str, key: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == key)?;
    words.get(i + 1)?.parse().ok()
}

/// The move after `bestmove`.
pub fn best_of(line: &str) -> &str {
    line.split_whitespace().nth(1).expect("bestmove has a move")
}

/// Mated and stalemated positions (side to move has no legal move; both lose in xiangqi).
pub const MATED_FEN: &str = "3k5/9/9/9/9/9/9/9/3R5/3RK4 b - - 0 1";
pub const STALEMATED_FEN: &str = "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1";
