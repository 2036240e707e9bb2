//! The one stdout writer. The input thread and the search thread's reporter both write through
//! it; the lock is held for one write of whole lines, never across a search.

use std::io::Write;
use std::sync::Mutex;

/// Longest line written, in bytes: GUIs and adapters (uci2wb) cut lines at 1024 with the newline.
pub const MAX_LINE_LEN: usize = 1023;

pub struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
}

impl Output {
    pub fn new(sink: impl Write + Send + 'static) -> Output {
        Output {
            sink: Mutex::new(Box::new(sink)),
        }
    }

    /// Writes lines together, each capped to `MAX_LINE_LEN`, and flushes.
    pub fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        let mut text = String::new();
        for line in lines {
            for part in line.as_ref().lines() {
                text.push_str(fit(part));
                text.push('\n');
            }
        }
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        // A write error means the GUI is gone; end of input follows and ends the session.
        let _ = sink.write_all(text.as_bytes()).and_then(|()| sink.flush());
    }

    pub fn line(&self, line: &str) {
        self.lines(&[line]);
    }
}

/// Cuts a line to `MAX_LINE_LEN` bytes, at a space when there is one (so a PV loses whole moves).
pub fn fit(line: &str) -> &str {
    if line.len() <= MAX_LINE_LEN {
        return line;
    }
    let mut end = MAX_LINE_LEN;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let cut = &line[..end];
    match cut.rfind(' ') {
        Some(space) if space > 0 => cut[..space].trim_end(),
        _ => cut,
    }
}

/// User text quoted in a reply: one line, printable, short.
pub fn quote(text: &str) -> String {
    const MAX_QUOTE: usize = 60;
    let mut s: String = text
        .chars()
        .take(MAX_QUOTE)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() > MAX_QUOTE {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_at_a_space_below_the_limit() {
        let pv = "info depth 9 pv".to_string() + &" h2e2".repeat(400);
        let cut = fit(&pv);
        assert!(cut.len() <= MAX_LINE_LEN);
        assert!(cut.ends_with("h2e2"));
        let no_space = "é".repeat(1000);
        assert!(fit(&no_space).len() <= MAX_LINE_LEN);
    }

    #[test]
    fn quotes_are_single_printable_lines() {
        let q = quote("a\rb\u{0}c");
        assert_eq!(q, "a?b?c");
        assert!(quote(&"x".repeat(500)).chars().count() <= 61);
    }
}
