//! The front end: UCCI, UCI and shell use on a byte stream. One way through: line reader →
//! dialect adapter (`uci`, `ucci`) → `Command` → engine call; engine reports → adapter → the one
//! `Output`.

pub mod board_text;
pub mod command;
pub mod output;
pub mod reader;
pub mod session;
pub mod ucci;
pub mod uci;

use std::io::{BufReader, Read, Write};
use std::sync::Arc;

use crate::engine::{BestMove, EngineOptions, SearchInfo};

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

    pub fn handshake(self, defaults: &EngineOptions) -> Vec<String> {
        match self {
            Dialect::Uci => uci::handshake(defaults),
            Dialect::Ucci => ucci::handshake(defaults),
        }
    }

    pub fn info(self, info: &SearchInfo) -> Vec<String> {
        match self {
            Dialect::Uci => uci::info(info),
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
