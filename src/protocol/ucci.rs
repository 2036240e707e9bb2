//! UCCI 3.0 (ElephantEye, xqbase): lines into `Command`s, engine reports into lines.

use crate::engine::HashProbe;
use crate::search::{BestMove, Bound, Score, SearchInfo};

use super::Dialect;
use super::command::{
    ClockSpec, Command, GoArgs, GoRequest, Notes, parse_common, parse_param, parse_perft,
    parse_position,
};
use super::options::{OptionSpec, declarations};
use super::output::quote;

/// UCCI has no mate notation: a mate is this minus its distance in plies (ElephantEye's scale).
const MATE_SCORE: i32 = 10_000;
/// An offered draw is accepted unless we stand better than this (centipawns).
const DRAW_ACCEPT_CP: i32 = 50;

/// `millisec`: whether the GUI switched times to milliseconds (`setoption usemillisec true`).
pub fn parse(tokens: &[&str], millisec: bool, notes: &mut Notes) -> Result<Command, String> {
    let Some((word, args)) = tokens.split_first() else {
        return Ok(Command::Nothing);
    };
    match word.to_ascii_lowercase().as_str() {
        "ucci" => Ok(Command::Handshake),
        "setoption" => parse_setoption(args, notes),
        "go" => parse_go(args, if millisec { 1 } else { 1000 }, notes),
        "ponderhit" => Ok(Command::PonderHit {
            draw_offered: args.first() == Some(&"draw"),
        }),
        "banmoves" => Ok(Command::BanMoves(
            args.iter().map(|s| s.to_string()).collect(),
        )),
        "probe" => parse_position(args).map(Command::Probe),
        w => parse_common(w, args, tokens)
            .unwrap_or_else(|| Err(format!("unknown command '{}'", quote(word)))),
    }
}

/// `setoption <name> [<value>]`; names never advertised are accepted silently, as GUIs send them
/// blindly.
fn parse_setoption(args: &[&str], notes: &mut Notes) -> Result<Command, String> {
    let Some((name, rest)) = args.split_first() else {
        return Err("setoption: expected 'setoption <name> [<value>]'".into());
    };
    match OptionSpec::find(Dialect::Ucci, name) {
        Some(spec) => spec
            .parse_value(Dialect::Ucci, &rest.join(" "), notes)
            .map(Command::SetOption),
        None => parse_param(name, &rest.join(" "), notes).unwrap_or(Ok(Command::Nothing)),
    }
}

/// `go [ponder|draw] depth d | nodes n | infinite | time t [movestogo n | increment i]
/// [opptime t [oppmovestogo n | oppincrement i]]`, times in `unit_ms` milliseconds.
fn parse_go(args: &[&str], unit_ms: u64, notes: &mut Notes) -> Result<Command, String> {
    let mut go = GoRequest::default();
    let (mut time, mut inc, mut movestogo) = (None, 0, None);
    let mut a = GoArgs::new(args);
    while let Some(key) = a.key() {
        match key {
            "ponder" => go.limits.ponder = true,
            "draw" => go.draw_offered = true,
            "infinite" => go.limits.infinite = true,
            "depth" => go.limits.depth = Some(a.depth(key, notes)?),
            "nodes" => go.limits.nodes = Some(a.nodes(key, notes)?),
            "time" => time = Some(a.time(key, unit_ms, notes)?),
            "increment" => inc = a.time(key, unit_ms, notes)?,
            "movestogo" => movestogo = Some(a.movestogo(key, notes)?),
            // The engine's clock model uses its own clock only: the opponent's is read, checked
            // and left.
            "opptime" | "oppincrement" => drop(a.time(key, unit_ms, notes)?),
            "oppmovestogo" => drop(a.movestogo(key, notes)?),
            "perft" => return parse_perft(a.rest()),
            _ => notes.push(format!("go: unknown parameter '{}' ignored", quote(key))),
        }
    }
    if let Some(time_ms) = time {
        go.clock = Some(ClockSpec::Relative(crate::search::Clock {
            time_ms,
            inc_ms: inc,
            movestogo,
        }));
    }
    Ok(Command::Go(Box::new(go)))
}

pub fn handshake() -> Vec<String> {
    let version = env!("CARGO_PKG_VERSION");
    let mut lines = vec![
        "id name chuhan".to_string(),
        format!("id version {version}"),
        "id copyright the chuhan authors, GPL-3.0-or-later".to_string(),
        "id author the chuhan authors".to_string(),
        "id user unknown".to_string(),
    ];
    lines.extend(declarations(Dialect::Ucci));
    lines.push("ucciok".to_string());
    lines
}

fn score_value(score: Score) -> i32 {
    match score {
        Score::Cp(x) => x,
        Score::Mate(m) if m > 0 => MATE_SCORE - (2 * m - 1),
        Score::Mate(m) => -(MATE_SCORE + 2 * m),
    }
}

pub fn info(i: &SearchInfo) -> Vec<String> {
    let mut line = format!("info depth {} score {}", i.depth, score_value(i.score));
    if !i.pv.is_empty() {
        line.push_str(" pv");
        for m in &i.pv {
            line.push_str(&format!(" {m}"));
        }
    }
    if i.nodes == 0 {
        // Nothing was searched (a book move, no legal move): ElephantEye's one line.
        return vec![line];
    }
    vec![line, format!("info time {} nodes {}", i.time_ms, i.nodes)]
}

/// The `pophash` answer to `probe`: the stored move and the bounds the hash table knows, or a
/// bare `pophash` when it knows nothing.
pub fn pophash(probe: Option<&HashProbe>) -> String {
    let mut line = "pophash".to_string();
    if let Some(p) = probe {
        if let Some(m) = p.best {
            line.push_str(&format!(" bestmove {m}"));
        }
        let v = score_value(p.score);
        if p.bound != Bound::Upper {
            line.push_str(&format!(" lowerbound {v} depth {}", p.depth));
        }
        if p.bound != Bound::Lower {
            line.push_str(&format!(" upperbound {v} depth {}", p.depth));
        }
    }
    line
}

/// Accept an offered draw unless clearly ahead; resign only when mated whatever we play.
fn verdict(score: Option<Score>, draw_offered: bool) -> Option<&'static str> {
    match score? {
        Score::Cp(x) if draw_offered && x <= DRAW_ACCEPT_CP => Some("draw"),
        Score::Mate(m) if m < 0 => Some(if draw_offered { "draw" } else { "resign" }),
        _ => None,
    }
}

pub fn bestmove(b: &BestMove, draw_offered: bool) -> Vec<String> {
    let Some(m) = b.best else {
        return vec!["nobestmove".to_string()];
    };
    let mut line = format!("bestmove {m}");
    if let Some(p) = b.ponder {
        line.push_str(&format!(" ponder {p}"));
    }
    if let Some(word) = verdict(b.score, draw_offered) {
        line.push(' ');
        line.push_str(word);
    }
    vec![line]
}

pub fn message(text: &str) -> String {
    format!("info message {text}")
}

#[cfg(test)]
mod tests {
    use super::super::options::{Action, Kind, Value};
    use super::*;
    use crate::search::Clock;

    fn parse_line(line: &str, millisec: bool) -> Result<Command, String> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        parse(&tokens, millisec, &mut Notes::new())
    }

    #[test]
    fn go_times_are_seconds_unless_millisec() {
        let line = "go draw time 60 increment 2 opptime 30 oppincrement 1";
        for (millisec, unit) in [(false, 1000), (true, 1)] {
            let Ok(Command::Go(g)) = parse_line(line, millisec) else {
                panic!("not a go")
            };
            assert!(g.draw_offered);
            assert_eq!(
                g.clock,
                Some(ClockSpec::Relative(Clock {
                    time_ms: 60 * unit,
                    inc_ms: 2 * unit,
                    movestogo: None,
                }))
            );
        }
    }

    #[test]
    fn unknown_options_are_silent_and_newgame_is_a_command() {
        let mut notes = Notes::new();
        let cmd = parse(&["setoption", "promotion", "false"], false, &mut notes);
        assert!(matches!(cmd, Ok(Command::Nothing)));
        assert!(notes.is_empty());
        let Ok(Command::SetOption(c)) = parse_line("setoption newgame", false) else {
            panic!("not a setoption")
        };
        assert!(matches!(c.spec.kind, Kind::Button(Action::NewGame)));
        let Ok(Command::SetOption(c)) = parse_line("setoption hashsize 0", false) else {
            panic!("not a setoption")
        };
        assert_eq!(c.value, Value::Int(64));
    }

    #[test]
    fn mate_scores_and_draw_resign_flags() {
        assert_eq!(score_value(Score::Mate(1)), 9999);
        assert_eq!(score_value(Score::Mate(-2)), -9996);
        let m = crate::board::Move::parse_coords("h2e2");
        let b = |score| BestMove {
            best: m,
            ponder: None,
            score: Some(score),
        };
        assert_eq!(bestmove(&b(Score::Cp(10)), true), ["bestmove h2e2 draw"]);
        assert_eq!(bestmove(&b(Score::Cp(300)), true), ["bestmove h2e2"]);
        assert_eq!(bestmove(&b(Score::Cp(-300)), false), ["bestmove h2e2"]);
        assert_eq!(
            bestmove(&b(Score::Mate(-3)), false),
            ["bestmove h2e2 resign"]
        );
        let none = BestMove {
            best: None,
            ponder: None,
            score: None,
        };
        assert_eq!(bestmove(&none, false), ["nobestmove"]);
    }
}
