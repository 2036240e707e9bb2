//! Reading PGN game collections: tags, a `[FEN]` start, moves in ICCS (`h2e2` or xqbase's
//! `H2-E2`), WXF or Chinese notation, the result from the `[Result]` tag or the movetext.
//! Comments (`{…}`, `;…`), variations (`(…)`), move numbers and NAGs are skipped.

use crate::board::notation::parse_move;
use crate::board::{Move, Position};
use crate::rules::GameResult;

/// One game of a collection.
#[derive(Clone, Debug)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<Move>,
    /// `None` when the record gives none (`*` or nothing).
    pub result: Option<GameResult>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Every game of a PGN text. A game whose start or moves cannot be read is kept up to its last
/// good move, and what went wrong is listed in the second part (game number from 1).
pub fn read_games(text: &str) -> (Vec<PgnGame>, Vec<String>) {
    let mut games = Vec::new();
    let mut problems = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut finish = |tags: &mut Vec<(String, String)>, movetext: &mut String| {
        if tags.is_empty() && movetext.trim().is_empty() {
            return;
        }
        let n = games.len() + 1;
        match game(std::mem::take(tags), &std::mem::take(movetext)) {
            (Some(g), problem) => {
                if let Some(p) = problem {
                    problems.push(format!("game {n}: {p}"));
                }
                games.push(g);
            }
            (None, problem) => problems.push(format!("game {n}: {}", problem.unwrap_or_default())),
        }
    };
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if !movetext.trim().is_empty() {
                finish(&mut tags, &mut movetext);
            }
            if let Some((name, value)) = tag.split_once(' ') {
                let value = value.trim().trim_matches('"');
                tags.push((name.to_string(), value.to_string()));
            }
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    finish(&mut tags, &mut movetext);
    (games, problems)
}

fn result_of(text: &str) -> Option<GameResult> {
    match text {
        "1-0" => Some(GameResult::RedWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// Movetext without comments and variations.
fn strip(movetext: &str) -> String {
    let mut out = String::with_capacity(movetext.len());
    let (mut brace, mut paren, mut semicolon) = (false, 0u32, false);
    for ch in movetext.chars() {
        match ch {
            '\n' if semicolon => semicolon = false,
            _ if semicolon => {}
            '{' if !brace => brace = true,
            '}' if brace => brace = false,
            _ if brace => {}
            ';' => semicolon = true,
            '(' => paren += 1,
            ')' if paren > 0 => paren -= 1,
            _ if paren > 0 => {}
            _ => out.push(ch),
        }
        if ch == '\n' || ch == '}' || ch == ')' {
            out.push(' ');
        }
    }
    out
}

/// A move token as the notation reader takes it: move numbers and annotation marks removed,
/// xqbase's `H2-E2` as `h2e2`. `None` for tokens that are not moves.
fn move_token(token: &str) -> Option<String> {
    let token = token.rsplit('.').next()?;
    let token = token.trim_end_matches(['+', '#', '!', '?']);
    if token.is_empty() || token.starts_with('$') || result_of(token).is_some() || token == "*" {
        return None;
    }
    let b = token.as_bytes();
    if b.len() == 5 && b[2] == b'-' && b[0].is_ascii_alphabetic() && b[3].is_ascii_alphabetic() {
        return Some(format!("{}{}", &token[..2], &token[3..]).to_ascii_lowercase());
    }
    Some(token.to_string())
}

fn game(tags: Vec<(String, String)>, movetext: &str) -> (Option<PgnGame>, Option<String>) {
    let fen = tags
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("FEN"))
        .map(|(_, v)| v.clone());
    let start = match fen {
        Some(f) => match Position::from_fen(&f) {
            Ok(p) => p,
            Err(e) => return (None, Some(format!("FEN {f}: {e}"))),
        },
        None => Position::startpos(),
    };
    let text = strip(movetext);
    let mut result = tags
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("Result"))
        .and_then(|(_, v)| result_of(v));
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut problem = None;
    for token in text.split_whitespace() {
        if let Some(r) = result_of(token) {
            result = result.or(Some(r));
            continue;
        }
        let Some(t) = move_token(token) else {
            continue;
        };
        match parse_move(&pos, &t) {
            Ok(m) => {
                pos.do_move(m);
                moves.push(m);
            }
            Err(e) => {
                problem = Some(format!("move {} ({token}): {e}", moves.len() + 1));
                break;
            }
        }
    }
    let g = PgnGame {
        tags,
        start,
        moves,
        result,
    };
    (Some(g), problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_moves_comments_and_results_are_read() {
        let text = r#"[Event "one"]
[Red "A"]
[Result "1-0"]

1. h2e2 {central cannon} h9g7 2. H0-G2 (2. b0c2 b9c7) i9h9 $1 3. i0h0 ; a remark
b9c7 1-0

[Event "two"]
[FEN "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1"]
1. ... e9e8 2. d0d1 *
"#;
        let (games, problems) = read_games(text);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(games.len(), 2);
        let moves: Vec<String> = games[0].moves.iter().map(Move::to_string).collect();
        assert_eq!(moves, ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]);
        assert_eq!(games[0].result, Some(GameResult::RedWins));
        assert_eq!(games[0].tag("red"), Some("A"));
        assert_eq!(games[1].moves.len(), 2);
        assert_eq!(games[1].result, None);
        assert_eq!(
            games[1].start.to_fen(),
            "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1"
        );
    }

    #[test]
    fn chinese_notation_is_read() {
        let (games, problems) = read_games("1. 炮二平五 马8进7 2. 马二进三 0-1\n");
        assert!(problems.is_empty(), "{problems:?}");
        let moves: Vec<String> = games[0].moves.iter().map(Move::to_string).collect();
        assert_eq!(moves, ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(games[0].result, Some(GameResult::BlackWins));
    }

    #[test]
    fn a_bad_move_ends_the_game_there_and_is_reported() {
        let (games, problems) = read_games("[Event \"x\"]\n1. h2e2 h9h5 2. b0c2\n");
        assert_eq!(games[0].moves.len(), 1);
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].starts_with("game 1: move 2 (h9h5)"),
            "{problems:?}"
        );
    }
}
