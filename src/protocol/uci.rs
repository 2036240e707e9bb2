//! UCI as xiangqi GUIs speak it: lines into `Command`s, engine reports into lines. Also serves
//! shell use (no handshake).

use crate::engine::{BestMove, Bound, EngineOptions, Score, SearchInfo};

use super::command::{
    ClockSpec, Command, EMBEDDED_NET, GoArgs, GoRequest, HASH_MB, MAX_MATE, MOVE_LIMIT,
    MOVE_OVERHEAD_MS, MULTI_PV, Notes, OptionChange, THREADS, parse_bool, parse_clamped,
    parse_common, parse_perft,
};
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
    let text = value.clone();
    let text_for_log = value.replace("<empty>", "");
    let value = || {
        if value.is_empty() {
            Err(format!("setoption {}: missing value", quote(&name)))
        } else {
            Ok(value.as_str())
        }
    };
    let spin = |range: (u64, u64), notes: &mut Notes| {
        parse_clamped(value()?, &name, range.0, range.1, notes)
    };
    let change = match name.to_ascii_lowercase().as_str() {
        "hash" => OptionChange::HashMb(spin(HASH_MB, notes)? as usize),
        "threads" => OptionChange::Threads(spin(THREADS, notes)? as usize),
        "multipv" => OptionChange::MultiPv(spin(MULTI_PV, notes)? as usize),
        "ponder" => OptionChange::Ponder(parse_bool(value()?, &name)?),
        "move overhead" => OptionChange::MoveOverheadMs(spin(MOVE_OVERHEAD_MS, notes)?),
        "move limit" => OptionChange::MoveLimit(spin(MOVE_LIMIT, notes)? as u32),
        "clear hash" => OptionChange::ClearHash,
        "use nnue" => OptionChange::UseNnue(parse_bool(value()?, &name)?),
        "evalfile" => OptionChange::EvalFile(text),
        "debug log file" => OptionChange::DebugLogFile(text_for_log),
        _ => {
            notes.push(format!("unknown option '{}' ignored", quote(&name)));
            OptionChange::Ignored
        }
    };
    Ok(Command::SetOption(change))
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

pub fn handshake(defaults: &EngineOptions) -> Vec<String> {
    let spin = |name: &str, default: u64, (lo, hi): (u64, u64)| {
        format!("option name {name} type spin default {default} min {lo} max {hi}")
    };
    vec![
        format!("id name chuhan {}", env!("CARGO_PKG_VERSION")),
        "id author the chuhan authors".to_string(),
        spin("Hash", defaults.hash_mb as u64, HASH_MB),
        spin("Threads", defaults.threads as u64, THREADS),
        spin("MultiPV", defaults.multipv as u64, MULTI_PV),
        format!("option name Ponder type check default {}", defaults.ponder),
        spin("Move Overhead", defaults.move_overhead_ms, MOVE_OVERHEAD_MS),
        "option name Clear Hash type button".to_string(),
        spin("Move Limit", u64::from(defaults.move_limit), MOVE_LIMIT),
        format!(
            "option name Use NNUE type check default {}",
            defaults.use_nnue
        ),
        format!("option name EvalFile type string default {EMBEDDED_NET}"),
        "option name Debug Log File type string default <empty>".to_string(),
        "uciok".to_string(),
    ]
}

pub fn info(i: &SearchInfo) -> Vec<String> {
    let score = match i.score {
        Score::Cp(x) => format!("cp {x}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let bound = match i.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} time {}",
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
        assert!(matches!(
            cmd,
            Ok(Command::SetOption(OptionChange::MoveOverheadMs(100)))
        ));
        let (cmd, notes) = go("setoption name UCI_Variant value xiangqi");
        assert!(matches!(cmd, Ok(Command::SetOption(OptionChange::Ignored))));
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
