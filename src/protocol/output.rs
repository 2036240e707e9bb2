//! The one stdout writer. The input thread and the search thread's reporter both write through
//! it; the lock is held for one write of whole lines, never across a search. It also keeps the
//! `Debug Log File`: every line in and out, timestamped, appended to a file the user names.

use std::fs::File;
use std::io::Write;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// Longest line written, in bytes: GUIs and adapters (uci2wb) cut lines at 1024 with the newline.
pub const MAX_LINE_LEN: usize = 1023;

pub struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
    /// The debug log, when one is named.
    log: Mutex<Option<File>>,
}

/// Which way a logged line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the GUI to the engine.
    In,
    /// From the engine to the GUI.
    Out,
}

/// `HH:MM:SS.mmm` (UTC) of now.
fn timestamp() -> String {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let (s, ms) = (ms / 1000, ms % 1000);
    format!(
        "{:02}:{:02}:{:02}.{ms:03}",
        s / 3600 % 24,
        s / 60 % 60,
        s % 60
    )
}

impl Output {
    pub fn new(sink: impl Write + Send + 'static) -> Output {
        Output {
            sink: Mutex::new(Box::new(sink)),
            log: Mutex::new(None),
        }
    }

    /// Starts appending every line to `path`, or stops logging when it is empty.
    pub fn set_log(&self, path: &str) -> Result<(), String> {
        let file = if path.is_empty() {
            None
        } else {
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("Debug Log File {path}: {e}; not logging"))?;
            Some(f)
        };
        *self.log.lock().unwrap_or_else(|e| e.into_inner()) = file;
        Ok(())
    }

    /// Appends lines to the debug log, if there is one: `HH:MM:SS.mmm << line` for input,
    /// `>>` for output.
    pub fn log(&self, direction: Direction, text: &str) {
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        let Some(file) = log.as_mut() else {
            return;
        };
        let arrow = match direction {
            Direction::In => "<<",
            Direction::Out => ">>",
        };
        let stamp = timestamp();
        let mut logged = String::new();
        for line in text.lines() {
            logged.push_str(&format!("{stamp} {arrow} {line}\n"));
        }
        // A log that cannot be written is dropped rather than disturbing the protocol.
        if file.write_all(logged.as_bytes()).is_err() {
            *log = None;
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
        // Logged under the sink's lock and before the GUI can see the lines, so the log keeps
        // the order of the output and of the input that answers it.
        self.log(Direction::Out, &text);
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
    fn the_debug_log_holds_every_line_with_its_direction() {
        let path = std::env::temp_dir().join(format!("chuhan-log-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let out = Output::new(std::io::sink());
        out.line("not logged");
        out.set_log(path.to_str().unwrap()).unwrap();
        out.log(Direction::In, "uci");
        out.lines(&["id name chuhan", "uciok"]);
        out.set_log("").unwrap();
        out.line("not logged either");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        for (line, want) in lines
            .iter()
            .zip([" << uci", " >> id name chuhan", " >> uciok"])
        {
            // HH:MM:SS.mmm
            let (stamp, rest) = line.split_at(12);
            assert_eq!(rest, want);
            assert_eq!(stamp.as_bytes()[2], b':');
            assert_eq!(stamp.as_bytes()[8], b'.');
        }
        assert!(out.set_log("/no/such/dir/log").is_err());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn quotes_are_single_printable_lines() {
        let q = quote("a\rb\u{0}c");
        assert_eq!(q, "a?b?c");
        assert!(quote(&"x".repeat(500)).chars().count() <= 61);
    }
}
