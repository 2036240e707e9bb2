//! What the match runner puts in a game's PGN record, written by [`crate::tools::pgn`]: ICCS
//! moves (`H2-E2`) with a `{score/depth time}` comment each, `[White]` repeating the Red
//! player for chess rating tools that read only White/Black, and `TimeControl`, `PlyCount` and
//! `Termination` tags.

use std::fmt::Write as _;

use crate::board::Position;
use crate::board::notation::Notation;
use crate::search::Score;
use crate::tools::pgn::{PgnHeader, PgnWriter};

use super::game::{GameOutcome, MoveRecord};

/// Everything a match's PGN record shows beyond the game itself.
pub struct MatchTags<'a> {
    pub event: &'a str,
    pub round: u32,
    pub date: &'a str,
    pub red: &'a str,
    pub black: &'a str,
    pub time_control: &'a str,
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
pub fn format_game(t: &MatchTags, start: &Position, outcome: &GameOutcome) -> String {
    let header = PgnHeader {
        event: t.event,
        date: t.date,
        round: &t.round.to_string(),
        red: t.red,
        black: t.black,
        result: outcome.result.pgn(),
    };
    let mut pgn = PgnWriter::new(&header, start, Notation::Iccs);
    pgn.tag("White", t.red)
        .tag("TimeControl", t.time_control)
        .tag("PlyCount", &outcome.moves.len().to_string())
        .tag("Termination", &outcome.termination.to_string());
    pgn.finish(outcome.moves.iter().map(|r| (r.mv, Some(comment(r)))), None)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::board::Color;
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

    fn header() -> MatchTags<'static> {
        MatchTags {
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
}
