//! Protocol lines from a byte stream that may carry anything: any length, invalid UTF-8, `\r\n`,
//! no newline before end of input.

use std::io::{BufRead, ErrorKind};

/// Longest line kept. A GUI's `position` with a thousand moves is about 5 kB; beyond this a line
/// is garbage, counted and skipped without being stored.
pub const MAX_LINE: usize = 1 << 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The line without its terminator; invalid UTF-8 replaced by U+FFFD.
    Text(String),
    /// A line longer than `MAX_LINE`, with its length in bytes.
    TooLong(usize),
}

pub struct LineReader<R> {
    input: R,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> LineReader<R> {
        LineReader {
            input,
            buf: Vec::new(),
        }
    }

    /// The next line, or `None` at end of input. A read error counts as end of input: the other
    /// side is gone.
    pub fn next_line(&mut self) -> Option<Line> {
        self.buf.clear();
        let mut total = 0usize;
        let mut read_any = false;
        loop {
            let (used, finished) = match self.input.fill_buf() {
                Ok([]) => break,
                Ok(chunk) => {
                    read_any = true;
                    let newline = chunk.iter().position(|&b| b == b'\n');
                    let part = &chunk[..newline.unwrap_or(chunk.len())];
                    total += part.len();
                    let room = MAX_LINE.saturating_sub(self.buf.len());
                    self.buf.extend_from_slice(&part[..part.len().min(room)]);
                    (newline.map_or(chunk.len(), |i| i + 1), newline.is_some())
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            self.input.consume(used);
            if finished {
                break;
            }
        }
        if !read_any {
            return None;
        }
        if total > MAX_LINE {
            return Some(Line::TooLong(total));
        }
        let text = String::from_utf8_lossy(&self.buf);
        Some(Line::Text(text.trim_end_matches('\r').to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Line> {
        let mut r = LineReader::new(bytes);
        std::iter::from_fn(|| r.next_line()).collect()
    }

    #[test]
    fn splits_lines_and_keeps_a_last_line_without_newline() {
        let got = lines(b"uci\r\n\nisready");
        let want = ["uci", "", "isready"].map(|s| Line::Text(s.to_string()));
        assert_eq!(got, want);
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        let got = lines(b"go\xff\xfe depth 3\n");
        assert_eq!(got, [Line::Text("go\u{fffd}\u{fffd} depth 3".to_string())]);
    }

    #[test]
    fn overlong_line_is_reported_and_the_next_line_still_read() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nisready\n");
        let got = lines(&input);
        assert_eq!(
            got,
            [
                Line::TooLong(MAX_LINE + 10),
                Line::Text("isready".to_string())
            ]
        );
    }
}
