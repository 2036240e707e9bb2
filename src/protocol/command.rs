//! What a protocol line asks for, independent of the dialect that said it, and the parsing both
//! dialects share: positions, numbers, and the commands spelt the same in UCI and UCCI.

use crate::bench::DEFAULT_BENCH_DEPTH;
use crate::board::{Move, Position};
use crate::rules::GameRecord;
use crate::search::params;
use crate::search::{Clock, Limits};

use super::options::OptionChange;
use super::output::quote;

/// Deepest search a `go depth` may ask for.
pub const MAX_DEPTH: u32 = 128;
/// Longest mate a `go mate` may ask for, in moves.
pub const MAX_MATE: u32 = 100;
/// Deepest `bench` the protocol runs; deeper ones take hours.
const MAX_BENCH_DEPTH: u32 = 30;

/// Deepest `perft` the protocol runs; deeper ones take hours.
pub const MAX_PERFT: u32 = 7;
/// Largest time accepted, in ms (about 116 days); larger values are clamped to it.
pub const MAX_TIME_MS: u64 = 10_000_000_000;
pub const MOVES_TO_GO: (u64, u64) = (1, 1000);

#[derive(Clone, Debug)]
pub enum Command {
    /// `uci` / `ucci`: print identity and options.
    Handshake,
    IsReady,
    SetOption(OptionChange),
    /// A hidden option: the `index`th search parameter (`search::params::TABLE`).
    SetParam {
        index: usize,
        value: i32,
    },
    NewGame,
    Position(GameRecord),
    /// UCCI `banmoves`: checked against the current position when executed.
    BanMoves(Vec<String>),
    Go(Box<GoRequest>),
    Stop,
    PonderHit {
        draw_offered: bool,
    },
    /// UCCI `probe`: what the hash table knows about a position.
    Probe(GameRecord),
    Display {
        chinese: bool,
    },
    Perft(u32),
    /// Search the benchmark positions to this depth.
    Bench(u32),
    Quit,
    /// Empty line, or a command the dialect accepts and ignores (UCI `debug`).
    Nothing,
}

/// Clocks as the protocol gives them; the side to move picks its own when the command runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockSpec {
    /// UCI: times by colour (`[Red, Black]`, ms).
    ByColor {
        time: [Option<u64>; 2],
        inc: [Option<u64>; 2],
        movestogo: Option<u32>,
    },
    /// UCCI: the mover's clock first, the opponent's after.
    Relative(Clock),
}

/// A parsed `go`: `limits` without the clock and root moves, which need the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoRequest {
    pub limits: Limits,
    pub clock: Option<ClockSpec>,
    pub searchmoves: Vec<String>,
    /// UCCI `go draw`: the opponent offers a draw.
    pub draw_offered: bool,
}

/// Warnings collected while parsing a line that is still carried out (clamped values).
pub type Notes = Vec<String>;

/// An integer in decimal, any length (saturating), with an optional sign.
pub fn parse_int(text: &str, what: &str) -> Result<i128, String> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what}: '{}' is not a number", quote(text)));
    }
    let value = digits.bytes().fold(0i128, |v, b| {
        v.saturating_mul(10).saturating_add(i128::from(b - b'0'))
    });
    Ok(if negative { -value } else { value })
}

/// An integer clamped into `lo..=hi`, with a note when it had to be.
pub fn parse_clamped(
    text: &str,
    what: &str,
    lo: u64,
    hi: u64,
    notes: &mut Notes,
) -> Result<u64, String> {
    let v = parse_int(text, what)?;
    let clamped = v.clamp(i128::from(lo), i128::from(hi)) as u64;
    if i128::from(clamped) != v {
        notes.push(format!(
            "{what} {} out of range {lo}..{hi}, using {clamped}",
            quote(text)
        ));
    }
    Ok(clamped)
}

/// `setoption` of a search parameter (hidden options, for tuning), if `name` is one.
pub fn parse_param(name: &str, value: &str, notes: &mut Notes) -> Option<Result<Command, String>> {
    let index = params::find(name)?;
    let p = params::TABLE[index];
    let text = value.trim();
    let parsed = parse_int(text, p.name).map(|v| {
        let clamped = v.clamp(i128::from(p.min), i128::from(p.max));
        if clamped != v {
            notes.push(format!(
                "{} {} out of range {}..{}, using {clamped}",
                p.name,
                quote(text),
                p.min,
                p.max
            ));
        }
        Command::SetParam {
            index,
            value: clamped as i32,
        }
    });
    Some(parsed)
}

/// A time in ms from text in `unit_ms` units (1 or 1000); fractions allowed (`0.5` seconds).
pub fn parse_time(text: &str, what: &str, unit_ms: u64, notes: &mut Notes) -> Result<u64, String> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let whole = if whole.is_empty() || whole == "-" || whole == "+" {
        format!("{whole}0")
    } else {
        whole.to_string()
    };
    let int = parse_int(&whole, what)?;
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what}: '{}' is not a number", quote(text)));
    }
    // Thousandths of the unit from the first three fraction digits.
    let milli = frac
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0i128, |v, b| v * 10 + i128::from(b - b'0'));
    let sign = if whole.starts_with('-') { -1 } else { 1 };
    let ms = int
        .saturating_mul(i128::from(unit_ms))
        .saturating_add(sign * milli * i128::from(unit_ms) / 1000);
    let clamped = ms.clamp(0, i128::from(MAX_TIME_MS)) as u64;
    if i128::from(clamped) != ms {
        notes.push(format!(
            "{what} {} out of range, using {clamped} ms",
            quote(text)
        ));
    }
    Ok(clamped)
}

/// Walks the `key [value]` pairs of a `go` line.
pub struct GoArgs<'a> {
    args: &'a [&'a str],
    next: usize,
}

impl<'a> GoArgs<'a> {
    pub fn new(args: &'a [&'a str]) -> GoArgs<'a> {
        GoArgs { args, next: 0 }
    }

    /// The next keyword, if any.
    pub fn key(&mut self) -> Option<&'a str> {
        let k = self.args.get(self.next)?;
        self.next += 1;
        Some(k)
    }

    /// The value after `key`.
    pub fn value(&mut self, key: &str) -> Result<&'a str, String> {
        let v = self
            .args
            .get(self.next)
            .ok_or_else(|| format!("go {key}: missing value"))?;
        self.next += 1;
        Ok(v)
    }

    /// Everything up to the next word `is_key` accepts (a move list).
    pub fn list(&mut self, is_key: impl Fn(&str) -> bool) -> Vec<String> {
        let start = self.next;
        while self.next < self.args.len() && !is_key(self.args[self.next]) {
            self.next += 1;
        }
        self.args[start..self.next]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    /// The words not yet read.
    pub fn rest(&self) -> &'a [&'a str] {
        &self.args[self.next..]
    }

    pub fn depth(&mut self, key: &str, notes: &mut Notes) -> Result<u32, String> {
        parse_clamped(self.value(key)?, key, 1, u64::from(MAX_DEPTH), notes).map(|d| d as u32)
    }

    pub fn nodes(&mut self, key: &str, notes: &mut Notes) -> Result<u64, String> {
        parse_clamped(self.value(key)?, key, 1, u64::MAX, notes)
    }

    pub fn movestogo(&mut self, key: &str, notes: &mut Notes) -> Result<u32, String> {
        let (lo, hi) = MOVES_TO_GO;
        parse_clamped(self.value(key)?, key, lo, hi, notes).map(|n| n as u32)
    }

    pub fn time(&mut self, key: &str, unit_ms: u64, notes: &mut Notes) -> Result<u64, String> {
        parse_time(self.value(key)?, key, unit_ms, notes)
    }
}

/// `on`/`true`/`1` or `off`/`false`/`0`.
pub fn parse_bool(text: &str, what: &str) -> Result<bool, String> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(format!("{what}: '{}' is not true or false", quote(text))),
    }
}

/// `startpos [moves …]` or `fen <FEN> [moves …]`; the whole position is refused at the first
/// illegal move.
pub fn parse_position(tokens: &[&str]) -> Result<GameRecord, String> {
    let (start, rest) = match tokens.first().copied() {
        Some("startpos") => (Position::startpos(), &tokens[1..]),
        Some("fen") => {
            let end = tokens
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(tokens.len());
            let fen = tokens[1..end].join(" ");
            let pos = Position::from_fen(&fen)
                .map_err(|e| format!("position refused: bad FEN '{}': {e}", quote(&fen)))?;
            (pos, &tokens[end..])
        }
        Some(other) => {
            return Err(format!(
                "position refused: expected startpos or fen, got '{}'",
                quote(other)
            ));
        }
        None => return Err("position refused: expected startpos or fen".to_string()),
    };
    let moves = match rest.split_first() {
        None => &[][..],
        Some((&"moves", moves)) => moves,
        Some((other, _)) => {
            return Err(format!(
                "position refused: expected moves, got '{}'",
                quote(other)
            ));
        }
    };
    GameRecord::from_moves(start, moves).map_err(|e| format!("position refused: {e}"))
}

/// Moves by their ICCS text, legal in `pos`; a note for each one that is not.
pub fn legal_moves_from(
    pos: &Position,
    texts: &[String],
    what: &str,
    notes: &mut Notes,
) -> Vec<Move> {
    texts
        .iter()
        .filter_map(|t| match pos.parse_move(t) {
            Ok(m) => Some(m),
            Err(e) => {
                notes.push(format!("{what}: {e}, ignored"));
                None
            }
        })
        .collect()
}

/// Commands spelt the same in both dialects; `None` when `word` is not one of them.
pub fn parse_common(word: &str, args: &[&str], tokens: &[&str]) -> Option<Result<Command, String>> {
    let cmd = match word {
        "isready" => Ok(Command::IsReady),
        "stop" => Ok(Command::Stop),
        "quit" | "exit" => Ok(Command::Quit),
        "position" => parse_position(args).map(Command::Position),
        // GUIs that drop the `position` keyword.
        "fen" | "startpos" => parse_position(tokens).map(Command::Position),
        "d" => Ok(Command::Display {
            chinese: matches!(args.first(), Some(&("cn" | "zh" | "chinese"))),
        }),
        "perft" => parse_perft(args),
        "bench" => parse_bench(args),
        _ => return None,
    };
    Some(cmd)
}

/// `perft <depth>` (also `go perft <depth>`).
pub fn parse_perft(args: &[&str]) -> Result<Command, String> {
    let depth = args.first().ok_or("perft needs a depth")?;
    let mut notes = Notes::new();
    let depth = parse_clamped(depth, "perft depth", 0, u64::from(MAX_PERFT), &mut notes)?;
    match notes.pop() {
        Some(note) => Err(format!("{note}; refused")),
        None => Ok(Command::Perft(depth as u32)),
    }
}

/// `bench [depth]`.
fn parse_bench(args: &[&str]) -> Result<Command, String> {
    let Some(depth) = args.first() else {
        return Ok(Command::Bench(DEFAULT_BENCH_DEPTH));
    };
    let mut notes = Notes::new();
    let depth = parse_clamped(
        depth,
        "bench depth",
        1,
        u64::from(MAX_BENCH_DEPTH),
        &mut notes,
    )?;
    match notes.pop() {
        Some(note) => Err(format!("{note}; refused")),
        None => Ok(Command::Bench(depth as u32)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_saturate_and_clamp_with_a_note() {
        assert_eq!(parse_int("-5", "x"), Ok(-5));
        assert_eq!(
            parse_int("123456789012345678901234567890123456789012", "x"),
            Ok(i128::MAX)
        );
        assert!(parse_int("12a", "x").is_err());
        assert!(parse_int("", "x").is_err());
        let mut notes = Notes::new();
        assert_eq!(parse_clamped("99999", "depth", 1, 128, &mut notes), Ok(128));
        assert_eq!(notes.len(), 1);
        assert_eq!(parse_clamped("7", "depth", 1, 128, &mut notes), Ok(7));
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn times_in_seconds_and_milliseconds() {
        let mut notes = Notes::new();
        assert_eq!(parse_time("3", "time", 1000, &mut notes), Ok(3000));
        assert_eq!(parse_time("1.25", "time", 1000, &mut notes), Ok(1250));
        assert_eq!(parse_time("250", "time", 1, &mut notes), Ok(250));
        assert!(notes.is_empty());
        assert_eq!(parse_time("-5", "movetime", 1, &mut notes), Ok(0));
        assert_eq!(
            parse_time("99999999999999999999", "time", 1, &mut notes),
            Ok(MAX_TIME_MS)
        );
        assert_eq!(notes.len(), 2);
        assert!(parse_time("1.x", "time", 1, &mut notes).is_err());
    }

    #[test]
    fn positions_refuse_bad_fens_and_illegal_moves_whole() {
        let rec = parse_position(&["startpos", "moves", "h2e2", "h9g7"]).unwrap();
        assert_eq!(rec.moves().len(), 2);
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r";
        let tokens: Vec<&str> = ["fen"].into_iter().chain(fen.split(' ')).collect();
        assert!(parse_position(&tokens).is_ok());
        assert!(parse_position(&["startpos", "moves", "h2e2", "h2e2"]).is_err());
        assert!(parse_position(&["fen", "9/9/9"]).is_err());
        assert!(parse_position(&["startpos", "junk"]).is_err());
        assert!(parse_position(&[]).is_err());
    }
}
