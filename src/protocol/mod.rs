//! The front end: UCCI, UCI and shell use on a byte stream. One way through: line reader →
//! dialect adapter (`uci`, `ucci`) → `Command` → engine call; engine reports → adapter → the one
//! `Output`.

pub mod board_text;
pub mod command;
pub mod options;
pub mod output;
pub mod reader;
pub mod session;
pub mod ucci;
pub mod uci;

use std::io::{BufReader, Read, Write};
use std::sync::Arc;

use crate::search::{BestMove, SearchInfo};

use command::{Command, Notes};
use output::Output;
use reader::{Line, LineReader};
pub use session::{Flow, Session};

/// The protocol of a session, fixed by its first command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI, and shell use without a handshake.
    Uci,
    Ucci,
}

impl Dialect {
    /// `ucci` first selects UCCI; `uci` or anything else is UCI-style.
    pub fn from_first_line(line: &str) -> Dialect {
        match line.split_whitespace().next() {
            Some(w) if w.eq_ignore_ascii_case("ucci") => Dialect::Ucci,
            _ => Dialect::Uci,
        }
    }

    pub fn parse(
        self,
        tokens: &[&str],
        millisec: bool,
        notes: &mut Notes,
    ) -> Result<Command, String> {
        match self {
            Dialect::Uci => uci::parse(tokens, notes),
            Dialect::Ucci => ucci::parse(tokens, millisec, notes),
        }
    }

    pub fn handshake(self) -> Vec<String> {
        match self {
            Dialect::Uci => uci::handshake(),
            Dialect::Ucci => ucci::handshake(),
        }
    }

    /// `show_wdl`: UCI adds the win/draw/loss chances (UCCI has no place for them).
    pub fn info(self, info: &SearchInfo, show_wdl: bool) -> Vec<String> {
        match self {
            Dialect::Uci => uci::info(info, show_wdl),
            Dialect::Ucci => ucci::info(info),
        }
    }

    pub fn bestmove(self, best: &BestMove, draw_offered: bool) -> Vec<String> {
        match self {
            Dialect::Uci => uci::bestmove(best),
            Dialect::Ucci => ucci::bestmove(best, draw_offered),
        }
    }

    pub fn message(self, text: &str) -> String {
        match self {
            Dialect::Uci => uci::message(text),
            Dialect::Ucci => ucci::message(text),
        }
    }
}

/// Serves the protocol until `quit` or end of input.
pub fn serve(input: impl Read, output: impl Write + Send + 'static) {
    let out = Arc::new(Output::new(output));
    let mut reader = LineReader::new(BufReader::new(input));
    let mut session: Option<Session> = None;
    while let Some(line) = reader.next_line() {
        let text = match &line {
            Line::Text(t) if session.is_none() && t.trim().is_empty() => continue,
            Line::Text(t) => t.as_str(),
            Line::TooLong(_) => "",
        };
        let s = session
            .get_or_insert_with(|| Session::new(Dialect::from_first_line(text), Arc::clone(&out)));
        if let Line::TooLong(len) = line {
            s.tell(&[format!("line of {len} bytes is too long, ignored")]);
        } else if s.handle(text) == Flow::Quit {
            return;
        }
    }
    if let Some(mut s) = session {
        s.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    use std::sync::Mutex;

    /// An output the test can read back.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        fn text_from(&self, start: usize) -> String {
            String::from_utf8_lossy(&self.0.lock().unwrap()[start..]).into_owned()
        }
        fn len(&self) -> usize {
            self.0.lock().unwrap().len()
        }
    }

    const TEMPLATES: &[&str] = &[
        "uci",
        "ucci",
        "isready",
        "ucinewgame",
        "setoption name MultiPV value 2",
        "setoption name Move Overhead value 10",
        "setoption name Ponder value true",
        "setoption usemillisec true",
        "setoption newgame",
        "position startpos moves h2e2 h9g7 h0g2",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b0c2",
        "fen 3k5/R8/9/9/9/9/9/9/9/4K4 b",
        "startpos moves c3c4",
        "banmoves h2e2 b0c2",
        "go depth 2",
        "go movetime 5",
        "go wtime 100 btime 100 winc 0 binc 0 movestogo 3",
        "go time 1 increment 0 opptime 1 oppincrement 0",
        "go nodes 2000 searchmoves h2e2 a3a4",
        "go ponder depth 1",
        "go infinite",
        "go draw depth 1",
        "ponderhit",
        "ponderhit draw",
        "stop",
        "probe startpos moves h2e2",
        "d",
        "d cn",
    ];

    /// Valid lines with tokens replaced, dropped or duplicated, characters inserted, and raw noise.
    fn line() -> impl Strategy<Value = String> {
        let token = prop_oneof![
            "-?[0-9]{1,25}",
            "[a-i][0-9][a-i][0-9]",
            "[a-z]{1,8}",
            any::<String>(),
        ];
        let mutated = (
            proptest::sample::select(TEMPLATES),
            proptest::collection::vec((any::<prop::sample::Index>(), 0..3u8, token), 0..3),
        )
            .prop_map(|(template, edits)| {
                let mut words: Vec<String> = template.split(' ').map(String::from).collect();
                for (at, kind, token) in edits {
                    let i = at.index(words.len());
                    match kind {
                        0 => words[i] = token,
                        1 => words.insert(i, token),
                        _ => drop(words.remove(i).len()),
                    }
                    if words.is_empty() {
                        words.push(String::new());
                    }
                }
                words.join(" ")
            });
        let noise = proptest::collection::vec(any::<u8>(), 0..300)
            .prop_map(|b| String::from_utf8_lossy(&b).replace('\n', " "));
        prop_oneof![6 => mutated, 1 => noise]
    }

    /// Words that would make a case slow rather than wrong: deep perft, huge hash or thread
    /// counts, batch mode (which waits for a possibly endless search).
    fn slow(line: &str) -> bool {
        let l = line.to_ascii_lowercase();
        ["perft", "hash", "thread", "batch"]
            .iter()
            .any(|w| l.contains(w))
    }

    #[test]
    fn random_and_mutated_lines_never_break_a_session() {
        let out = Captured::default();
        let output = Arc::new(Output::new(out.clone()));
        let sessions = [Dialect::Uci, Dialect::Ucci]
            .map(|d| std::cell::RefCell::new(Session::new(d, Arc::clone(&output))));
        let mut runner = TestRunner::new(Config {
            cases: 1000,
            failure_persistence: None,
            ..Config::default()
        });
        let strategy = (any::<bool>(), proptest::collection::vec(line(), 1..12));
        runner
            .run(&strategy, |(ucci, lines)| {
                let dialect = if ucci { Dialect::Ucci } else { Dialect::Uci };
                let mut session = sessions[usize::from(ucci)].borrow_mut();
                for l in lines.iter().filter(|l| !slow(l)) {
                    if session.handle(l) == Flow::Quit {
                        *session = Session::new(dialect, Arc::clone(&output));
                    }
                }
                let start = out.len();
                session.handle("isready");
                let reply = out.text_from(start);
                prop_assert!(reply.lines().any(|l| l == "readyok"), "no readyok: {reply}");
                prop_assert!(reply.lines().all(|l| l.len() < 1024));
                Ok(())
            })
            .unwrap();
        for s in &sessions {
            s.borrow_mut().finish();
        }
        let all = out.text_from(0);
        assert!(all.lines().all(|l| l.len() < 1024));
        assert!(all.lines().filter(|l| *l == "readyok").count() >= 1000);
    }
}
