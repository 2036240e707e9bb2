//! Games as PGN the way xiangqi software reads it (xqbase convention), for terminal play and
//! the match runner: `[Game "Chinese Chess"]`, `[Red]`/`[Black]`, `[FEN]` when the game did
//! not start from the opening position, `[Format]` naming the move notation (ICCS moves are
//! written `H2-E2`), a comment after any move, movetext wrapped under 80 columns. Reading is in
//! [`reader`].

pub mod reader;

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::board::notation::{Notation, format_move};
use crate::board::{Color, Move, Position, START_FEN};
use crate::rules::GameRecord;

/// The tags every record has.
pub struct PgnHeader<'a> {
    pub event: &'a str,
    /// `YYYY.MM.DD`, see [`today`].
    pub date: &'a str,
    pub round: &'a str,
    pub red: &'a str,
    pub black: &'a str,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` while the game goes on.
    pub result: &'a str,
}

/// One PGN record being written: [`PgnWriter::new`] writes the usual tags, [`PgnWriter::tag`]
/// adds more, [`PgnWriter::finish`] writes the moves and the result.
pub struct PgnWriter<'a> {
    out: String,
    start: &'a Position,
    notation: Notation,
    result: &'a str,
}

impl<'a> PgnWriter<'a> {
    /// Starts the record of a game from `start` whose moves are written in `notation`.
    pub fn new(h: &PgnHeader<'a>, start: &'a Position, notation: Notation) -> Self {
        let mut w = PgnWriter {
            out: String::new(),
            start,
            notation,
            result: h.result,
        };
        w.tag("Game", "Chinese Chess");
        w.tag("Event", h.event);
        w.tag("Site", "?");
        w.tag("Date", h.date);
        w.tag("Round", h.round);
        w.tag("Red", h.red);
        w.tag("Black", h.black);
        w.tag("Result", h.result);
        let fen = start.to_fen();
        if fen != START_FEN {
            w.tag("FEN", &fen);
        }
        let format = match notation {
            Notation::Iccs => "ICCS",
            Notation::Chinese => "Chinese",
            Notation::Wxf => "WXF",
        };
        w.tag("Format", format);
        w
    }

    /// Adds a tag; `\` and `"` in the value are escaped as PGN asks.
    pub fn tag(&mut self, name: &str, value: &str) -> &mut Self {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        writeln!(self.out, "[{name} \"{value}\"]").expect("string");
        self
    }

    /// The whole record: the tags, a blank line, the moves (each with its comment, if any),
    /// `last_comment` (why the game ended, say), the result, and a blank line ending it.
    pub fn finish(
        mut self,
        moves: impl IntoIterator<Item = (Move, Option<String>)>,
        last_comment: Option<&str>,
    ) -> String {
        let mut text = String::new();
        let mut pos = self.start.clone();
        for (i, (m, comment)) in moves.into_iter().enumerate() {
            match move_number(self.start, i) {
                (n, Color::Red) => write!(text, "{n}. "),
                (n, Color::Black) if i == 0 => write!(text, "{n}... "),
                _ => Ok(()),
            }
            .expect("string");
            write!(text, "{} ", pgn_move(&pos, m, self.notation)).expect("string");
            if let Some(c) = comment {
                write!(text, "{{{c}}} ").expect("string");
            }
            pos.do_move(m);
        }
        if let Some(c) = last_comment {
            write!(text, "{{{c}}} ").expect("string");
        }
        text.push_str(self.result);
        self.out.push('\n');
        wrap_into(&mut self.out, &text, 79);
        self.out.push_str("\n\n");
        self.out
    }
}

/// One move in `notation`; ICCS as PGN writes it: `H2-E2`.
fn pgn_move(pos: &Position, m: Move, notation: Notation) -> String {
    let text = format_move(pos, m, notation);
    if notation != Notation::Iccs {
        return text;
    }
    let t = text.to_ascii_uppercase();
    format!("{}-{}", &t[..2], &t[2..])
}

/// The full-move number of the `i`-th move played from `start`, and who plays it.
fn move_number(start: &Position, i: usize) -> (usize, Color) {
    let ply = i + usize::from(start.side_to_move() == Color::Black);
    let number = usize::from(start.fullmove_number().max(1)) + ply / 2;
    let side = if ply.is_multiple_of(2) {
        Color::Red
    } else {
        Color::Black
    };
    (number, side)
}

/// Appends `text` broken at spaces into lines of at most `width` bytes (PGN asks for fewer
/// than 80 columns; a Chinese character takes 3 bytes and 2 columns, so bytes bound columns).
fn wrap_into(out: &mut String, text: &str, width: usize) {
    let mut line_len = 0;
    for word in text.split(' ') {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
}

/// The moves as numbered lines `1. 炮二平五 马8进7`, one per move pair, for the terminal; a
/// game starting with Black to move begins `1. ... 马8进7`.
pub fn numbered_moves(record: &GameRecord, notation: Notation) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for (i, &m) in record.moves().iter().enumerate() {
        let text = format_move(record.position_at(i), m, notation);
        match move_number(record.start(), i) {
            (n, Color::Red) => lines.push(format!("{n}. {text}")),
            (n, Color::Black) if i == 0 => lines.push(format!("{n}. ... {text}")),
            _ => {
                if let Some(line) = lines.last_mut() {
                    line.push(' ');
                    line.push_str(&text);
                }
            }
        }
    }
    lines
}

/// Today (UTC) as PGN writes dates, `YYYY.MM.DD`.
pub fn today() -> String {
    utc_date(SystemTime::now())
}

/// `YYYY.MM.DD` in UTC (H. Hinnant's days-to-civil conversion, to avoid a date dependency).
fn utc_date(now: SystemTime) -> String {
    let days = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn header(result: &str) -> PgnHeader<'_> {
        PgnHeader {
            event: "test",
            date: "2026.11.29",
            round: "-",
            red: "Human",
            black: "chuhan",
            result,
        }
    }

    #[test]
    fn dates_are_civil() {
        let at = |secs: u64| utc_date(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970.01.01");
        assert_eq!(at(951_782_400), "2000.02.29");
        assert_eq!(at(1_795_996_800), "2026.11.30");
    }

    #[test]
    fn date_is_well_formed() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20") && &d[4..5] == "." && &d[7..8] == ".");
    }

    #[test]
    fn games_are_written_with_tags_and_numbered_moves() {
        let rec = GameRecord::from_moves(Position::startpos(), &["h2e2", "h9g7", "h0g2"]).unwrap();
        let moves = rec.moves().iter().map(|&m| (m, None));
        let pgn = PgnWriter::new(&header("*"), rec.start(), Notation::Chinese).finish(moves, None);
        assert!(pgn.starts_with("[Game \"Chinese Chess\"]\n[Event \"test\"]\n"));
        assert!(pgn.contains("[Red \"Human\"]\n[Black \"chuhan\"]\n[Result \"*\"]\n"));
        assert!(pgn.contains("[Format \"Chinese\"]\n"));
        assert!(!pgn.contains("[FEN"));
        assert!(
            pgn.ends_with("\n\n1. 炮二平五 马8进7 2. 马二进三 *\n\n"),
            "{pgn}"
        );
        let from_black = GameRecord::from_moves(
            Position::from_fen("5k3/R8/9/9/9/9/9/9/9/3K4R b - - 0 7").unwrap(),
            &["f9e9", "i0i9"],
        )
        .unwrap();
        assert_eq!(
            numbered_moves(&from_black, Notation::Wxf),
            ["7. ... K6.5", "8. R1+9"]
        );
    }

    #[test]
    fn iccs_moves_comments_and_ending_are_written_from_a_black_to_move_start() {
        let start = Position::from_fen("5k3/R8/9/9/9/9/9/9/9/3K4R b - - 0 7").unwrap();
        let rec = GameRecord::from_moves(start.clone(), &["f9e9", "i0i9"]).unwrap();
        let moves = rec
            .moves()
            .iter()
            .map(|&m| (m, Some("+0.35/7 1.234s".into())));
        let mut w = PgnWriter::new(&header("1-0"), &start, Notation::Iccs);
        w.tag("Termination", "say \"mate\" \\o/");
        let pgn = w.finish(moves, Some("Black is mated"));
        assert!(pgn.contains(&format!("[FEN \"{}\"]\n", start.to_fen())));
        assert!(pgn.contains("[Format \"ICCS\"]\n[Termination \"say \\\"mate\\\" \\\\o/\"]\n"));
        assert!(
            pgn.ends_with(
                "7... F9-E9 {+0.35/7 1.234s} 8. I0-I9 {+0.35/7 1.234s} {Black is mated} 1-0\n\n"
            ),
            "{pgn}"
        );
    }

    #[test]
    fn long_games_wrap_under_80_columns() {
        let mut rec = GameRecord::new(Position::startpos());
        for _ in 0..20 {
            for m in ["h2e2", "h7e7", "e2h2", "e7h7"] {
                rec.push(rec.position().parse_move(m).unwrap());
            }
        }
        let moves = rec.moves().iter().map(|&m| (m, None));
        let pgn = PgnWriter::new(&header("*"), rec.start(), Notation::Chinese).finish(moves, None);
        assert!(pgn.lines().count() > 12, "{pgn}");
        let columns = |l: &str| {
            l.chars()
                .map(|c| if c.is_ascii() { 1 } else { 2 })
                .sum::<usize>()
        };
        assert!(pgn.lines().all(|l| columns(l) < 80), "{pgn}");
        let movetext = pgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert!(movetext.starts_with("1. 炮二平五 炮8平5 2. 炮五平二 炮5平8 3. "));
        assert!(movetext.ends_with(" 40. 炮五平二 炮5平8 *"), "{movetext}");
    }
}
