//! The lines the runner writes and reads, in UCI and in UCCI: options, new game, position, go
//! with clocks in the engine's unit, and the `info`/`bestmove` replies.

use crate::board::{Color, Move};
use crate::search::Score;

use super::limit::Limit;
use crate::tools::clock::Clock;

/// The protocol settled by the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    /// `millis`: the engine advertised `usemillisec` and we switched it on.
    Ucci {
        millis: bool,
    },
}

/// The engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `bestmove <text> [ponder <move>]`, with UCCI's trailing `resign` / `draw` flags.
    Move {
        text: String,
        ponder: Option<String>,
        resign: bool,
        draw: bool,
    },
    /// `nobestmove` (UCCI) or `bestmove (none)` (UCI): the engine gives up.
    NoMove,
}

/// What an `info` line said about the search, when it carried a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InfoScore {
    pub depth: Option<u32>,
    pub score: Score,
}

impl Dialect {
    pub fn setoption(self, name: &str, value: &str) -> String {
        match self {
            Dialect::Uci => format!("setoption name {name} value {value}"),
            Dialect::Ucci { .. } => format!("setoption {name} {value}"),
        }
    }

    pub fn new_game(self) -> &'static str {
        match self {
            Dialect::Uci => "ucinewgame",
            Dialect::Ucci { .. } => "setoption newgame",
        }
    }

    /// The option that lets the engine think on the opponent's time.
    pub fn ponder_option(self) -> String {
        match self {
            Dialect::Uci => self.setoption("Ponder", "true"),
            Dialect::Ucci { .. } => self.setoption("ponder", "true"),
        }
    }

    /// A `go` line turned into the same search on the opponent's time (`go ponder …`, in
    /// both dialects).
    pub fn ponder(go: &str) -> String {
        match go.strip_prefix("go ") {
            Some(rest) => format!("go ponder {rest}"),
            None => go.to_string(),
        }
    }

    /// The move the engine pondered came: a UCCI engine also hears of a draw offer here.
    pub fn ponderhit(self, offered: bool) -> &'static str {
        match self {
            Dialect::Ucci { .. } if offered => "ponderhit draw",
            _ => "ponderhit",
        }
    }

    /// Tells a UCCI engine, in its `go` line, that the opponent offers a draw (UCI has no way).
    pub fn with_draw_offer(self, go: String) -> String {
        match (self, go.strip_prefix("go ")) {
            (Dialect::Ucci { .. }, Some(rest)) => format!("go draw {rest}"),
            _ => go,
        }
    }

    /// Milliseconds in the engine's time unit (UCCI without `usemillisec`: whole seconds).
    fn time(self, ms: u64) -> u64 {
        match self {
            Dialect::Ucci { millis: false } => ms / 1000,
            _ => ms,
        }
    }

    /// The `go` line for `side` to move, given both clocks (indexed by colour) when timed.
    pub fn go(self, limit: &Limit, side: Color, clocks: &[Clock; 2]) -> String {
        match (limit, self) {
            (Limit::Depth(d), _) => format!("go depth {d}"),
            (Limit::Nodes(n), _) => format!("go nodes {n}"),
            (Limit::MoveTime(ms), Dialect::Uci) => format!("go movetime {ms}"),
            (Limit::MoveTime(ms), Dialect::Ucci { .. }) => {
                format!("go time {} movestogo 1", self.time(*ms))
            }
            (Limit::Clock(_), Dialect::Uci) => {
                let [red, black] = clocks;
                let mut line = format!(
                    "go wtime {} btime {} winc {} binc {}",
                    red.remaining_ms(),
                    black.remaining_ms(),
                    red.inc_ms(),
                    black.inc_ms()
                );
                if let Some(n) = clocks[side.index()].moves_to_go() {
                    line += &format!(" movestogo {n}");
                }
                line
            }
            (Limit::Clock(_), Dialect::Ucci { .. }) => {
                let own = &clocks[side.index()];
                let opp = &clocks[side.flip().index()];
                let mut line = format!("go time {}", self.time(own.remaining_ms()));
                match own.moves_to_go() {
                    Some(n) => line += &format!(" movestogo {n}"),
                    None => line += &format!(" increment {}", self.time(own.inc_ms())),
                }
                line += &format!(" opptime {}", self.time(opp.remaining_ms()));
                match opp.moves_to_go() {
                    Some(n) => line += &format!(" oppmovestogo {n}"),
                    None => line += &format!(" oppincrement {}", self.time(opp.inc_ms())),
                }
                line
            }
        }
    }
}

/// `position fen <start> moves ...`: always from the game's start, so the engine sees every
/// repetition.
pub fn position_line(start_fen: &str, moves: &[Move]) -> String {
    let mut line = format!("position fen {start_fen}");
    if !moves.is_empty() {
        line.push_str(" moves");
        for m in moves {
            line.push(' ');
            line.push_str(&m.to_string());
        }
    }
    line
}

/// The score and depth of an `info` line (UCI `score cp|mate x`, UCCI `score x`).
pub fn parse_info(line: &str) -> Option<InfoScore> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut depth = None;
    let mut score = None;
    while let Some(w) = words.next() {
        match w {
            "string" | "message" => break,
            "depth" => depth = words.next().and_then(|d| d.parse().ok()),
            "score" => {
                score = match words.next() {
                    Some("cp") => words.next().and_then(|v| v.parse().ok()).map(Score::Cp),
                    Some("mate") => words.next().and_then(|v| v.parse().ok()).map(Score::Mate),
                    Some(v) => v.parse().ok().map(Score::Cp),
                    None => None,
                }
            }
            "pv" => break,
            _ => {}
        }
    }
    score.map(|score| InfoScore { depth, score })
}

/// The reply that ends a search, if `line` is one.
pub fn parse_bestmove(line: &str) -> Option<Reply> {
    let mut words = line.split_whitespace();
    match words.next()? {
        "nobestmove" => Some(Reply::NoMove),
        "bestmove" => {
            let text = words.next().unwrap_or("").to_string();
            if text == "(none)" {
                return Some(Reply::NoMove);
            }
            let rest: Vec<&str> = words.collect();
            let ponder = rest
                .iter()
                .position(|&w| w == "ponder")
                .and_then(|i| rest.get(i + 1))
                .map(|p| p.to_string());
            Some(Reply::Move {
                text,
                ponder,
                resign: rest.contains(&"resign"),
                draw: rest.contains(&"draw"),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::clock::TimeControl;

    fn clocks(tc: &str) -> [Clock; 2] {
        let tc: TimeControl = tc.parse().unwrap();
        [Clock::new(tc), Clock::new(tc)]
    }

    #[test]
    fn uci_go_gives_both_clocks_in_ms() {
        let mut c = clocks("10+0.1");
        c[1].punch(std::time::Duration::from_millis(2500));
        let limit = Limit::Clock("10+0.1".parse().unwrap());
        assert_eq!(
            Dialect::Uci.go(&limit, Color::Black, &c),
            "go wtime 10000 btime 7600 winc 100 binc 100"
        );
        assert_eq!(
            Dialect::Uci.go(&Limit::Depth(7), Color::Red, &c),
            "go depth 7"
        );
    }

    #[test]
    fn ucci_go_uses_the_unit_the_engine_asked_for() {
        let mut c = clocks("10+0.1");
        c[0].punch(std::time::Duration::from_millis(2500));
        let limit = Limit::Clock("10+0.1".parse().unwrap());
        assert_eq!(
            Dialect::Ucci { millis: true }.go(&limit, Color::Red, &c),
            "go time 7600 increment 100 opptime 10000 oppincrement 100"
        );
        assert_eq!(
            Dialect::Ucci { millis: false }.go(&limit, Color::Red, &c),
            "go time 7 increment 0 opptime 10 oppincrement 0"
        );
        assert_eq!(
            Dialect::Ucci { millis: true }.go(&Limit::MoveTime(1500), Color::Red, &c),
            "go time 1500 movestogo 1"
        );
        let periods = clocks("40/60");
        assert_eq!(
            Dialect::Ucci { millis: true }.go(
                &Limit::Clock("40/60".parse().unwrap()),
                Color::Black,
                &periods
            ),
            "go time 60000 movestogo 40 opptime 60000 oppmovestogo 40"
        );
    }

    #[test]
    fn draw_offers_reach_ucci_engines_only() {
        let ucci = Dialect::Ucci { millis: true };
        assert_eq!(ucci.with_draw_offer("go depth 3".into()), "go draw depth 3");
        assert_eq!(
            Dialect::Uci.with_draw_offer("go depth 3".into()),
            "go depth 3"
        );
    }

    #[test]
    fn options_and_positions_are_spelled_per_dialect() {
        assert_eq!(
            Dialect::Uci.setoption("Hash", "64"),
            "setoption name Hash value 64"
        );
        assert_eq!(
            Dialect::Ucci { millis: false }.setoption("hashsize", "64"),
            "setoption hashsize 64"
        );
        let m = Move::parse_coords("h2e2").unwrap();
        assert_eq!(position_line("F", &[]), "position fen F");
        assert_eq!(
            position_line("F", &[m, m]),
            "position fen F moves h2e2 h2e2"
        );
    }

    #[test]
    fn info_lines_yield_score_and_depth() {
        assert_eq!(
            parse_info("info depth 12 seldepth 20 score cp -35 nodes 5 pv h2e2"),
            Some(InfoScore {
                depth: Some(12),
                score: Score::Cp(-35)
            })
        );
        assert_eq!(
            parse_info("info depth 3 score mate -2 upperbound"),
            Some(InfoScore {
                depth: Some(3),
                score: Score::Mate(-2)
            })
        );
        assert_eq!(
            parse_info("info depth 5 score 40 pv h2e2").map(|i| i.score),
            Some(Score::Cp(40))
        );
        assert_eq!(parse_info("info string score cp 5"), None);
        assert_eq!(parse_info("info time 5 nodes 100"), None);
    }

    #[test]
    fn bestmove_replies() {
        assert_eq!(
            parse_bestmove("bestmove h2e2 ponder h9g7"),
            Some(Reply::Move {
                text: "h2e2".into(),
                ponder: Some("h9g7".into()),
                resign: false,
                draw: false
            })
        );
        assert_eq!(
            parse_bestmove("bestmove h2e2 resign"),
            Some(Reply::Move {
                text: "h2e2".into(),
                ponder: None,
                resign: true,
                draw: false
            })
        );
        assert_eq!(
            Dialect::ponder("go wtime 1 btime 2"),
            "go ponder wtime 1 btime 2"
        );
        assert_eq!(parse_bestmove("bestmove (none)"), Some(Reply::NoMove));
        assert_eq!(parse_bestmove("nobestmove"), Some(Reply::NoMove));
        assert_eq!(parse_bestmove("info depth 1"), None);
    }
}
