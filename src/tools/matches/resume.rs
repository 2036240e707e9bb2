//! `--resume`: a match cut off (a signal, a session's end) goes on from its own PGN. The games
//! already there count once each, checked against the schedule the same settings make (players,
//! colours and opening of every round), and only the rest are played. A last record cut off
//! while it was written is dropped and played again.

use std::collections::HashSet;
use std::path::Path;

use crate::board::Position;
use crate::rules::GameResult;
use crate::tools::pgn::reader::read_games;

use super::game::Termination;

/// A game of an earlier run, as far as the statistics need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    pub round: u32,
    pub red: usize,
    pub black: usize,
    pub result: GameResult,
    pub termination: &'static str,
}

/// What a game of the schedule must be: its players by index and its start.
pub struct Scheduled<'a> {
    pub red: usize,
    pub black: usize,
    pub start: &'a Position,
}

/// The earlier run's games, and how many bytes of its file are whole records.
#[derive(Debug)]
pub struct Resumed {
    pub games: Vec<PlayedGame>,
    pub whole_len: usize,
}

/// Byte offset where the text's last record starts (its first tag line).
fn last_record_start(text: &str) -> usize {
    let (mut start, mut offset, mut in_tags) = (0, 0, false);
    for line in text.split_inclusive('\n') {
        let tag = line.trim_start().starts_with('[');
        if tag && !in_tags {
            start = offset;
        }
        if !line.trim().is_empty() {
            in_tags = tag;
        }
        offset += line.len();
    }
    start
}

/// Whether the text ends with a game's result token, as a whole record does.
fn ends_whole(text: &str) -> bool {
    matches!(
        text.split_whitespace().next_back(),
        None | Some("1-0" | "0-1" | "1/2-1/2" | "*")
    )
}

/// Reads the games of `text` (the PGN at `path`) and checks each against `schedule(round)`;
/// `names` are the engines' names by index.
pub fn read_played<'a>(
    path: &Path,
    text: &str,
    names: &[String],
    schedule: impl Fn(u32) -> Option<Scheduled<'a>>,
) -> Result<Resumed, String> {
    let whole_len = if ends_whole(text) {
        text.len()
    } else {
        last_record_start(text)
    };
    let where_ = path.display();
    let (records, problems) = read_games(&text[..whole_len]);
    if let Some(p) = problems.first() {
        return Err(format!("{where_}: {p}"));
    }
    let mut games: Vec<PlayedGame> = Vec::with_capacity(records.len());
    let mut seen = HashSet::new();
    for (i, g) in records.iter().enumerate() {
        let n = i + 1;
        let tag = |name| {
            g.tag(name)
                .ok_or_else(|| format!("{where_}: game {n} has no [{name}] tag"))
        };
        let round: u32 = tag("Round")?
            .parse()
            .map_err(|_| format!("{where_}: game {n}: bad [Round]"))?;
        let result = g
            .result
            .ok_or_else(|| format!("{where_}: round {round} has no result"))?;
        let label = tag("Termination")?;
        let termination = Termination::category_of(label)
            .ok_or_else(|| format!("{where_}: round {round}: unknown termination '{label}'"))?;
        let expected = schedule(round).ok_or_else(|| {
            format!("{where_}: round {round} is past the end of this match's schedule")
        })?;
        let (red, black) = (tag("Red")?, tag("Black")?);
        let want = (
            names[expected.red].as_str(),
            names[expected.black].as_str(),
            expected.start.to_fen(),
        );
        if (red, black, g.start.to_fen()) != want {
            return Err(format!(
                "{where_}: round {round} is {red} against {black} from {}, but this match \
                 plays {} against {} from {} there: resume with the settings that wrote it",
                g.start.to_fen(),
                want.0,
                want.1,
                want.2
            ));
        }
        if !seen.insert(round) {
            return Err(format!("{where_}: round {round} is there twice"));
        }
        games.push(PlayedGame {
            round,
            red: expected.red,
            black: expected.black,
            result,
            termination,
        });
    }
    Ok(Resumed { games, whole_len })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "[Event \"t\"]\n[Round \"R\"]\n[Red \"a\"]\n[Black \"b\"]\n\
        [Result \"1-0\"]\n[Termination \"checkmate\"]\n\n1. H2-E2 {0.1s} 1-0\n\n";

    fn game(round: u32) -> String {
        GAME.replace("\"R\"", &format!("\"{round}\""))
    }

    fn names() -> Vec<String> {
        vec!["a".into(), "b".into()]
    }

    fn read(text: &str, start: &Position) -> Result<Resumed, String> {
        // Round r: a has Red in odd rounds.
        read_played(Path::new("m.pgn"), text, &names(), |r| {
            (r <= 4).then(|| Scheduled {
                red: usize::from(r % 2 == 0),
                black: usize::from(r % 2 == 1),
                start,
            })
        })
    }

    #[test]
    fn whole_records_count_and_a_cut_one_is_dropped() {
        let start = Position::startpos();
        let text = game(1) + &game(3);
        let r = read(&text, &start).unwrap();
        assert_eq!(r.whole_len, text.len());
        assert_eq!(r.games.len(), 2);
        assert_eq!(r.games[1].round, 3);
        assert_eq!(r.games[0].termination, "checkmate");
        assert_eq!(r.games[0].result, GameResult::RedWins);
        for cut in [20, game(5).find("\n\n1.").unwrap() + 1, game(5).len() - 6] {
            let torn = text.clone() + &game(5)[..cut];
            let r = read(&torn, &start).unwrap();
            assert_eq!(r.whole_len, text.len(), "cut at {cut}");
            assert_eq!(r.games.len(), 2);
        }
    }

    #[test]
    fn games_of_another_schedule_are_refused() {
        let start = Position::startpos();
        let swapped = game(2);
        assert!(
            read(&swapped, &start)
                .unwrap_err()
                .contains("round 2 is a against b")
        );
        let mut other = Position::startpos();
        other.do_move(other.parse_move("h2e2").unwrap());
        assert!(
            read(&game(1), &other)
                .unwrap_err()
                .contains("resume with the settings")
        );
        assert!(read(&game(7), &start).unwrap_err().contains("past the end"));
        let twice = game(1) + &game(1);
        assert!(read(&twice, &start).unwrap_err().contains("twice"));
        let odd = game(1).replace("checkmate", "tea time");
        assert!(
            read(&odd, &start)
                .unwrap_err()
                .contains("unknown termination")
        );
    }
}
