//! UCI as xiangqi GUIs speak it: lines into `Command`s, engine reports into lines. Also serves
//! shell use (no handshake).

use crate::search::{BestMove, Bound, Score, SearchInfo};

use super::Dialect;
use super::command::{
    ClockSpec, Command, GoArgs, GoRequest, MAX_MATE, Notes, parse_clamped, parse_common,
    parse_param, parse_perft,
};
use super::options::{OptionSpec, declarations};
use super::output::quote;

pub fn parse(tokens: &[&str], notes: &mut Notes) -> Result<Command, String> {
    let Some((word, args)) = tokens.split_first() else {
        return Ok(Command::Nothing);
    };
    match word.to_ascii_lowercase().as_str() {
        "uci" => Ok(Command::Handshake),
        "ucinewgame" => Ok(Command::NewGame),
        "setoption" => parse_setoption(args, notes),
        "go" => parse_go(args, notes),
        "ponderhit" => Ok(Command::PonderHit {
            draw_offered: false,
        }),
        "debug" | "register" => Ok(Command::Nothing),
        "ucci" => Err("the protocol is chosen by the first command: restart to speak UCCI".into()),
        w => parse_common(w, args, tokens)
            .unwrap_or_else(|| Err(format!("unknown command '{}'", quote(word)))),
    }
}

fn parse_setoption(args: &[&str], notes: &mut Notes) -> Result<Command, String> {
    let Some((&"name", rest)) = args.split_first() else {
        return Err("setoption: expected 'setoption name <name> [value <value>]'".into());
    };
    let (name, value) = match rest.iter().position(|t| t.eq_ignore_ascii_case("value")) {
        Some(i) => (&rest[..i], rest[i + 1..].join(" ")),
        None => (rest, String::new()),
    };
    let name = name.join(" ");
    match OptionSpec::find(Dialect::Uci, &name) {
        Some(spec) => spec
            .parse_value(Dialect::Uci, &value, notes)
            .map(Command::SetOption),
        None => parse_param(&name, &value, notes).unwrap_or_else(|| {
            notes.push(format!("unknown option '{}' ignored", quote(&name)));
            Ok(Command::Nothing)
        }),
    }
}

fn is_go_key(word: &str) -> bool {
    matches!(
        word,
        "searchmoves"
            | "ponder"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "perft"
    )
}

fn parse_go(args: &[&str], notes: &mut Notes) -> Result<Command, String> {
    let mut go = GoRequest::default();
    let (mut time, mut inc, mut movestogo) = ([None; 2], [None; 2], None);
    let mut a = GoArgs::new(args);
    while let Some(key) = a.key() {
        match key {
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "wtime" => time[0] = Some(a.time(key, 1, notes)?),
            "btime" => time[1] = Some(a.time(key, 1, notes)?),
            "winc" => inc[0] = Some(a.time(key, 1, notes)?),
            "binc" => inc[1] = Some(a.time(key, 1, notes)?),
            "movestogo" => movestogo = Some(a.movestogo(key, notes)?),
            "movetime" => go.limits.movetime_ms = Some(a.time(key, 1, notes)?),
            "depth" => go.limits.depth = Some(a.depth(key, notes)?),
            "nodes" => go.limits.nodes = Some(a.nodes(key, notes)?),
            "mate" => {
                let m = parse_clamped(a.value(key)?, key, 1, u64::from(MAX_MATE), notes)?;
                go.limits.mate = Some(m as u32);
            }
            "searchmoves" => go.searchmoves = a.list(is_go_key),
            "perft" => return parse_perft(a.rest()),
            _ => notes.push(format!("go: unknown parameter '{}' ignored", quote(key))),
        }
    }
    if time.iter().chain(&inc).any(Option::is_some) || movestogo.is_some() {
        go.clock = Some(ClockSpec::ByColor {
            time,
            inc,
            movestogo,
        });
    }
    Ok(Command::Go(Box::new(go)))
}

pub fn handshake() -> Vec<String> {
    let mut lines = vec![
        format!("id name chuhan {}", env!("CARGO_PKG_VERSION")),
        "id author the chuhan authors".to_string(),
    ];
    lines.extend(declarations(Dialect::Uci));
    lines.push("uciok".to_string());
    lines
}

/// `show_wdl`: the win/draw/loss chances follow the score.
pub fn info(i: &SearchInfo, show_wdl: bool) -> Vec<String> {
    let score = match i.score {
        Score::Cp(x) => format!("cp {x}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let bound = match i.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let wdl = match i.wdl {
        Some([w, d, l]) if show_wdl => format!(" wdl {w} {d} {l}"),
        _ => String::new(),
    };
    let tbhits = i.tbhits.map_or(String::new(), |n| format!(" tbhits {n}"));
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {}{tbhits} hashfull {} time {}",
        i.depth, i.seldepth, i.multipv, i.nodes, i.nps, i.hashfull, i.time_ms
    );
    if !i.pv.is_empty() {
        line.push_str(" pv");
        for m in &i.pv {
            line.push_str(&format!(" {m}"));
        }
    }
    vec![line]
}

pub fn bestmove(b: &BestMove) -> Vec<String> {
    match b.best {
        // A mate score first, or adapters such as uci2wb call it a stalemate draw.
        None => vec![
            "info depth 0 score mate 0".to_string(),
            "bestmove (none)".to_string(),
        ],
        Some(m) => vec![match b.ponder {
            Some(p) => format!("bestmove {m} ponder {p}"),
            None => format!("bestmove {m}"),
        }],
    }
}

pub fn message(text: &str) -> String {
    format!("info string {text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> (Result<Command, String>, Notes) {
        let mut notes = Notes::new();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        (parse(&tokens, &mut notes), notes)
    }

    #[test]
    fn go_reads_clocks_by_colour_and_searchmoves() {
        let (cmd, notes) =
            go("go btime 1000 wtime 2000 winc 10 binc 20 searchmoves h2e2 b0c2 depth 5");
        let Ok(Command::Go(g)) = cmd else {
            panic!("not a go: {cmd:?}")
        };
        assert!(notes.is_empty());
        assert_eq!(g.limits.depth, Some(5));
        assert_eq!(g.searchmoves, ["h2e2", "b0c2"]);
        assert_eq!(
            g.clock,
            Some(ClockSpec::ByColor {
                time: [Some(2000), Some(1000)],
                inc: [Some(10), Some(20)],
                movestogo: None
            })
        );
    }

    #[test]
    fn absurd_numbers_are_clamped_and_garbage_refused() {
        let (cmd, notes) = go("go depth 99999 movetime -5");
        let Ok(Command::Go(g)) = cmd else {
            panic!("not a go: {cmd:?}")
        };
        assert_eq!(g.limits.depth, Some(super::super::command::MAX_DEPTH));
        assert_eq!(g.limits.movetime_ms, Some(0));
        assert_eq!(notes.len(), 2);
        assert!(go("go depth abc").0.is_err());
        assert!(go("go depth").0.is_err());
    }

    #[test]
    fn setoption_names_may_have_spaces() {
        let (cmd, _) = go("setoption name Move Overhead value 100");
        let Ok(Command::SetOption(c)) = cmd else {
            panic!("not a setoption: {cmd:?}")
        };
        assert_eq!(c.spec.uci, Some("Move Overhead"));
        assert_eq!(c.value, super::super::options::Value::Int(100));
        let (cmd, notes) = go("setoption name UCI_Variant value xiangqi");
        assert!(matches!(cmd, Ok(Command::Nothing)));
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn no_move_prints_a_mate_score_first() {
        let lines = bestmove(&BestMove {
            best: None,
            ponder: None,
            score: None,
        });
        assert_eq!(lines, ["info depth 0 score mate 0", "bestmove (none)"]);
    }
}
