//! PGN of a finished game, in the xiangqi dialect of PGN (as xqbase writes it): `[Game "Chinese
//! Chess"]`, `[Red]`/`[Black]`, `[Format "ICCS"]` moves like `H2-E2`, `[FEN]` when the game
//! does not start from the start position, and a `{score/depth time}` comment per move.
//! `[White]` repeats the Red player for chess rating tools that read only White/Black.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::board::{Color, Move, Position};
use crate::engine::Score;

use super::game::{GameOutcome, MoveRecord};

/// Everything a PGN record shows beyond the game itself.
pub struct PgnHeader<'a> {
    pub event: &'a str,
    pub round: u32,
    pub date: &'a str,
    pub red: &'a str,
    pub black: &'a str,
    pub time_control: &'a str,
}

/// Today (UTC) as PGN writes dates, `YYYY.MM.DD`.
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Days since 1970-01-01 to a civil date (H. Hinnant's algorithm).
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

/// ICCS as PGN writes it: `H2-E2`.
fn iccs(m: Move) -> String {
    let t = m.to_string().to_ascii_uppercase();
    format!("{}-{}", &t[..2], &t[2..])
}

fn comment(r: &MoveRecord) -> String {
    let mut c = String::new();
    if let Some(score) = r.score {
        match score {
            Score::Cp(cp) => write!(c, "{:+.2}", f64::from(cp) / 100.0),
            Score::Mate(m) if m >= 0 => write!(c, "+M{m}"),
            Score::Mate(m) => write!(c, "-M{}", -m),
        }
        .expect("string");
        if let Some(d) = r.depth {
            write!(c, "/{d}").expect("string");
        }
        c.push(' ');
    }
    write!(c, "{:.3}s", r.time.as_secs_f64()).expect("string");
    c
}

/// The game as one PGN record, blank line included.
pub fn format_game(h: &PgnHeader, start: &Position, outcome: &GameOutcome) -> String {
    let result = outcome.result.pgn();
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        writeln!(out, "[{name} \"{value}\"]").expect("string");
    };
    tag("Game", "Chinese Chess");
    tag("Event", h.event);
    tag("Site", "?");
    tag("Date", h.date);
    tag("Round", &h.round.to_string());
    tag("Red", h.red);
    tag("Black", h.black);
    tag("White", h.red);
    tag("Result", result);
    let fen = start.to_fen();
    if fen != Position::startpos().to_fen() {
        tag("FEN", &fen);
    }
    tag("Format", "ICCS");
    tag("TimeControl", h.time_control);
    tag("PlyCount", &outcome.moves.len().to_string());
    tag("Termination", &outcome.termination.to_string());
    out.push('\n');

    let mut text = String::new();
    let mut number = start.fullmove_number().max(1);
    let mut side = start.side_to_move();
    for (i, r) in outcome.moves.iter().enumerate() {
        if side == Color::Red {
            write!(text, "{number}. ").expect("string");
        } else if i == 0 {
            write!(text, "{number}... ").expect("string");
        }
        write!(text, "{} {{{}}} ", iccs(r.mv), comment(r)).expect("string");
        if side == Color::Black {
            number += 1;
        }
        side = side.flip();
    }
    text.push_str(result);
    wrap_into(&mut out, &text, 79);
    out.push_str("\n\n");
    out
}

/// Appends `text` broken at spaces into lines of at most `width` characters (PGN asks < 80).
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::rules::{GameResult, Reason};
    use crate::tools::matches::game::Termination;

    fn record(pos: &Position, text: &str, score: Option<Score>, ms: u64) -> MoveRecord {
        MoveRecord {
            mv: pos.parse_move(text).unwrap(),
            score,
            depth: score.map(|_| 7),
            time: Duration::from_millis(ms),
        }
    }

    fn header() -> PgnHeader<'static> {
        PgnHeader {
            event: "test",
            round: 3,
            date: "2026.11.29",
            red: "new",
            black: "base",
            time_control: "10+0.1",
        }
    }

    #[test]
    fn start_position_game_has_tags_moves_and_comments() {
        let mut pos = Position::startpos();
        let a = record(&pos, "h2e2", Some(Score::Cp(35)), 1234);
        pos.do_move(a.mv);
        let b = record(&pos, "h9g7", Some(Score::Mate(-4)), 20);
        pos.do_move(b.mv);
        let c = record(&pos, "h0g2", None, 5);
        let outcome = GameOutcome {
            result: GameResult::BlackWins,
            termination: Termination::Rules(Reason::PerpetualCheck { by: Color::Red }),
            moves: vec![a, b, c],
            restart: [false; 2],
        };
        let text = format_game(&header(), &Position::startpos(), &outcome);
        for needle in [
            "[Game \"Chinese Chess\"]",
            "[Round \"3\"]",
            "[Red \"new\"]",
            "[Black \"base\"]",
            "[Result \"0-1\"]",
            "[TimeControl \"10+0.1\"]",
            "[Termination \"perpetual check by Red\"]",
            "1. H2-E2 {+0.35/7 1.234s} H9-G7 {-M4/7 0.020s} 2. H0-G2 {0.005s} 0-1",
        ] {
            assert!(text.contains(needle), "{needle} missing in\n{text}");
        }
        assert!(!text.contains("[FEN"));
    }

    #[test]
    fn game_from_a_black_to_move_position_has_fen_and_ellipsis() {
        let mut pos = Position::startpos();
        pos.do_move(pos.parse_move("h2e2").unwrap());
        let m = record(&pos, "h7e7", None, 1);
        let outcome = GameOutcome {
            result: GameResult::Draw,
            termination: Termination::AdjudicatedDraw,
            moves: vec![m],
            restart: [false; 2],
        };
        let text = format_game(&header(), &pos, &outcome);
        assert!(text.contains(&format!("[FEN \"{}\"]", pos.to_fen())));
        assert!(text.contains("1... H7-E7 {0.001s} 1/2-1/2"), "{text}");
        assert!(text.lines().all(|l| l.len() < 80));
    }

    #[test]
    fn date_is_well_formed() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20") && &d[4..5] == "." && &d[7..8] == ".");
    }
}
