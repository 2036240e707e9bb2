//! Games as PGN the way xiangqi software reads it (xqbase convention): the usual tags, `FEN`
//! when the game did not start from the opening position, moves in Chinese notation.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::board::START_FEN;
use crate::board::notation::{Notation, format_move};
use crate::rules::GameRecord;

/// Who played and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnHeader {
    pub event: String,
    pub red: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` while the game goes on.
    pub result: String,
    /// Why it ended, written as a comment after the last move.
    pub termination: Option<String>,
}

/// The whole game as PGN text.
pub fn game_pgn(record: &GameRecord, header: &PgnHeader) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", value.replace('"', "'")));
    };
    tag("Game", "Chinese Chess");
    tag("Event", &header.event);
    tag("Site", "?");
    tag("Date", &utc_date(SystemTime::now()));
    tag("Round", "-");
    tag("Red", &header.red);
    tag("Black", &header.black);
    tag("Result", &header.result);
    let start = record.start();
    if start.to_fen() != START_FEN {
        tag("FEN", &start.to_fen());
    }
    out.push('\n');
    out.push_str(&numbered_moves(record, Notation::Chinese).join("\n"));
    if let Some(t) = &header.termination {
        out.push_str(&format!(" {{{t}}}"));
    }
    out.push_str(&format!(" {}\n", header.result));
    out
}

/// The moves as numbered lines `1. 炮二平五 马8进7`; a game starting with Black to move begins
/// `1. ... 马8进7`.
pub fn numbered_moves(record: &GameRecord, notation: Notation) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let start = record.start();
    let first = start.fullmove_number().max(1) as usize;
    let black_first = start.side_to_move() == crate::board::Color::Black;
    for (i, &m) in record.moves().iter().enumerate() {
        let text = format_move(record.position_at(i), m, notation);
        let ply = i + usize::from(black_first);
        if ply % 2 == 0 {
            lines.push(format!("{}. {text}", first + ply / 2));
        } else if i == 0 {
            lines.push(format!("{}. ... {text}", first));
        } else if let Some(line) = lines.last_mut() {
            line.push(' ');
            line.push_str(&text);
        }
    }
    lines
}

/// `YYYY.MM.DD` in UTC (days-to-civil conversion, to avoid a date dependency).
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
    use crate::board::Position;
    use std::time::Duration;

    #[test]
    fn dates_are_civil() {
        let at = |secs: u64| utc_date(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970.01.01");
        assert_eq!(at(951_782_400), "2000.02.29");
        assert_eq!(at(1_795_996_800), "2026.11.30");
    }

    #[test]
    fn games_are_written_with_tags_and_numbered_moves() {
        let rec = GameRecord::from_moves(Position::startpos(), &["h2e2", "h9g7", "h0g2"]).unwrap();
        let header = PgnHeader {
            event: "test".into(),
            red: "Human".into(),
            black: "chuhan".into(),
            result: "*".into(),
            termination: None,
        };
        let pgn = game_pgn(&rec, &header);
        assert!(pgn.starts_with("[Game \"Chinese Chess\"]\n[Event \"test\"]\n"));
        assert!(pgn.contains("[Red \"Human\"]\n[Black \"chuhan\"]\n[Result \"*\"]\n"));
        assert!(!pgn.contains("[FEN"));
        assert!(pgn.ends_with("\n1. 炮二平五 马8进7\n2. 马二进三 *\n"));
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
}
