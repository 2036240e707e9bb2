//! `chuhan play`: a game against the engine in the terminal. Moves are typed in ICCS, Chinese or
//! WXF notation; the engine is driven only through the `Engine` API and the game is judged only
//! by the rules module.

mod render;

pub use render::{RenderOptions, render_board};

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::{Args, ValueEnum};

use crate::board::notation::{Notation, format_line, format_move, parse_move};
use crate::board::{Color, Move, Position};
use crate::engine::Engine;
use crate::rules::{DEFAULT_MOVE_LIMIT, GameRecord, GameResult};
use crate::search::{BestMove, Clock, Limits, Report, Reporter, Score, SearchInfo};

use super::clock::{Clock as GameClock, TimeControl};
use super::pgn::{PgnHeader, PgnWriter, numbered_moves, today};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    Red,
    Black,
}

#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    /// The side you play.
    #[arg(long, value_enum, default_value_t = Side::Red)]
    pub side: Side,
    /// Engine thinking time per move, in milliseconds.
    #[arg(long, conflicts_with_all = ["tc", "level"])]
    pub movetime: Option<u64>,
    /// Time control for both sides, minutes+increment in seconds (e.g. 5+3).
    #[arg(long, value_parser = TimeControl::parse_minutes, conflicts_with = "level")]
    pub tc: Option<TimeControl>,
    /// Start from this position instead of the opening one.
    #[arg(long)]
    pub fen: Option<String>,
    /// Engine strength: 1 (weakest) to 10, or easy, medium, hard, max [default: 6].
    #[arg(long, value_parser = Level::parse)]
    pub level: Option<Level>,
    /// Engine strength as an Elo rating (calibrated by games; see STRENGTH.md): a weaker,
    /// human-like player instead of a level.
    #[arg(long, conflicts_with = "level", value_parser = parse_elo)]
    pub elo: Option<u64>,
    /// No colours even on a terminal.
    #[arg(long)]
    pub no_color: bool,
    /// Pieces as FEN letters and ASCII lines.
    #[arg(long)]
    pub ascii: bool,
    /// Write the game as PGN to this file when it ends.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
}

/// Thinking time per move under `--elo` without a clock: the strength's node budget ends most
/// searches well before it.
const ELO_MOVETIME_MS: u64 = 1000;

fn parse_elo(s: &str) -> Result<u64, String> {
    use crate::search::strength::{MAX_ELO, MIN_ELO};
    match s.trim().parse::<u64>() {
        Ok(elo) if (MIN_ELO..=MAX_ELO).contains(&elo) => Ok(elo),
        _ => Err(format!("'{s}' is not an Elo from {MIN_ELO} to {MAX_ELO}")),
    }
}

/// Engine strength: the low levels cap the depth, the high ones give more time per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

impl Level {
    pub const DEFAULT: Level = Level(6);

    pub fn parse(s: &str) -> Result<Level, String> {
        let n = match s.trim().to_ascii_lowercase().as_str() {
            "easy" => 2,
            "medium" => 5,
            "hard" => 8,
            "max" => 10,
            t => t.parse().unwrap_or(0),
        };
        if (1..=10).contains(&n) {
            Ok(Level(n))
        } else {
            Err(format!(
                "'{s}' is not a level: 1 to 10, easy, medium, hard or max"
            ))
        }
    }

    pub fn limits(self) -> Limits {
        const DEPTHS: [u32; 4] = [1, 2, 3, 5];
        const MOVETIMES_MS: [u64; 6] = [300, 1000, 2000, 5000, 10_000, 20_000];
        let i = usize::from(self.0 - 1);
        match DEPTHS.get(i) {
            Some(&d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
            None => Limits {
                movetime_ms: Some(MOVETIMES_MS[i - DEPTHS.len()]),
                ..Limits::default()
            },
        }
    }
}

/// How long the engine may think.
#[derive(Clone, Copy, Debug)]
enum Pace {
    Fixed(Level),
    Movetime(u64),
    Clock(TimeControl),
}

/// How a game ended.
#[derive(Clone, Debug)]
struct Ending {
    result: GameResult,
    reason: String,
}

/// Forwards the engine's reports to the game loop.
struct ChannelReporter(mpsc::Sender<Report>);

impl Reporter for ChannelReporter {
    fn report(&self, report: Report) {
        // The loop waits for every search it starts, so the receiver outlives the search.
        let _ = self.0.send(report);
    }
}

/// Runs `chuhan play` on the process's stdin and stdout.
pub fn run(args: PlayArgs) -> ExitCode {
    let start = match &args.fen {
        Some(f) => match Position::from_fen(f) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        None => Position::startpos(),
    };
    let tty = io::stdout().is_terminal();
    let color = tty && !args.no_color && std::env::var_os("NO_COLOR").is_none();
    let mut session = Session::new(&args, start, tty, color);
    let result = session.play(&mut io::stdin().lock(), &mut io::stdout().lock());
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

const HELP: &str = "\
Type a move in any notation: h2e2 or H2-E2 (ICCS), 炮二平五 or 马8进7 (Chinese), C2.5 or H8+7 (WXF).
Commands:
  undo         take back the engine's last move and yours
  hint         ask the engine for a move
  flip         turn the board round
  fen          show the position as FEN
  moves        show the game so far in Chinese notation
  save [file]  write the game as PGN
  resign       give up this game
  new          start a new game
  help         this text
  quit         leave";

struct Session {
    start: Position,
    record: GameRecord,
    human: Color,
    view: RenderOptions,
    tty: bool,
    pace: Pace,
    /// Both colours' clocks, under a time control.
    clocks: Option<[GameClock; 2]>,
    ending: Option<Ending>,
    /// When the side to move began thinking: the human is charged for all of it, invalid
    /// input and hints included.
    turn_started: Instant,
    pgn_path: Option<PathBuf>,
    engine: Engine,
    reports: mpsc::Receiver<Report>,
}

impl Session {
    fn new(args: &PlayArgs, start: Position, tty: bool, color: bool) -> Session {
        let (tx, reports) = mpsc::channel();
        let human = match args.side {
            Side::Red => Color::Red,
            Side::Black => Color::Black,
        };
        let pace = match (args.tc, args.movetime) {
            (Some(tc), _) => Pace::Clock(tc),
            (None, Some(ms)) => Pace::Movetime(ms),
            (None, None) if args.elo.is_some() => Pace::Movetime(ELO_MOVETIME_MS),
            (None, None) => Pace::Fixed(args.level.unwrap_or(Level::DEFAULT)),
        };
        let mut options = crate::protocol::options::Settings::default().engine;
        if let Some(elo) = args.elo {
            options.limit_strength = true;
            options.elo = elo;
        }
        let mut s = Session {
            record: GameRecord::new(start.clone()),
            start,
            human,
            view: RenderOptions {
                flipped: human == Color::Black,
                color,
                ascii: args.ascii,
            },
            tty,
            pace,
            clocks: None,
            ending: None,
            turn_started: Instant::now(),
            pgn_path: args.pgn.clone(),
            engine: Engine::new(Arc::new(ChannelReporter(tx)), options),
            reports,
        };
        s.reset_clocks();
        s
    }

    fn reset_clocks(&mut self) {
        self.clocks = match self.pace {
            Pace::Clock(tc) => Some([GameClock::new(tc); 2]),
            _ => None,
        };
    }

    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "chuhan {}: type help for commands.",
            env!("CARGO_PKG_VERSION")
        )?;
        self.show(out)?;
        self.judge(out)?;
        loop {
            if self.ending.is_none() && self.position().side_to_move() != self.human {
                self.engine_turn(out)?;
                continue;
            }
            self.prompt(out)?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(());
            }
            let line = line.trim();
            let (command, arg) = line.split_once(' ').unwrap_or((line, ""));
            match command {
                "" => {}
                "quit" | "exit" => return Ok(()),
                "help" | "?" => writeln!(out, "{HELP}")?,
                "undo" => self.undo(out)?,
                "hint" => self.hint(out)?,
                "flip" => {
                    self.view.flipped = !self.view.flipped;
                    self.show(out)?;
                }
                "fen" => writeln!(out, "{}", self.position().to_fen())?,
                "moves" => self.list_moves(out)?,
                "save" => self.save(arg.trim(), out)?,
                "resign" => self.resign(out)?,
                "new" => self.new_game(out)?,
                _ => self.human_move(line, out)?,
            }
        }
    }

    fn position(&self) -> &Position {
        self.record.position()
    }

    fn prompt(&self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(c) = self.clocks {
            write!(
                out,
                "[Red {} | Black {}] ",
                clock_text(c[Color::Red.index()].remaining_ms()),
                clock_text(c[Color::Black.index()].remaining_ms())
            )?;
        }
        if self.ending.is_some() {
            write!(out, "game over > ")?;
        } else {
            write!(out, "you ({}) > ", self.human.name())?;
        }
        out.flush()
    }

    fn show(&self, out: &mut dyn Write) -> io::Result<()> {
        let pos = self.position();
        let last = self.record.moves().last().copied();
        write!(out, "\n{}", render_board(pos, last, self.view))?;
        let check = if pos.in_check() { ", in check" } else { "" };
        writeln!(out, "{} to move{check}", pos.side_to_move().name())
    }

    fn human_move(&mut self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        if let Some(e) = &self.ending {
            return writeln!(
                out,
                "The game is over ({}); type new, undo, save or quit.",
                e.reason
            );
        }
        let m = match parse_move(self.position(), text) {
            Ok(m) => m,
            Err(e) => return writeln!(out, "{e} (type help for commands)"),
        };
        if !self.charge_clock(self.human, self.turn_started.elapsed(), out)? {
            return Ok(());
        }
        self.play_move(m, "You play", out)
    }

    /// Takes `spent` off `side`'s clock and adds the increment; false (and the game lost)
    /// when the flag fell.
    fn charge_clock(
        &mut self,
        side: Color,
        spent: Duration,
        out: &mut dyn Write,
    ) -> io::Result<bool> {
        let Some(clocks) = &mut self.clocks else {
            return Ok(true);
        };
        let clock = &mut clocks[side.index()];
        if spent.as_millis() >= u128::from(clock.remaining_ms()) {
            self.finish(
                GameResult::win_for(side.flip()),
                format!("{} lost on time", side.name()),
                out,
            )?;
            return Ok(false);
        }
        clock.punch(spent);
        Ok(true)
    }

    fn play_move(&mut self, m: Move, who: &str, out: &mut dyn Write) -> io::Result<()> {
        let text = format_move(self.position(), m, Notation::Chinese);
        self.record.push(m);
        self.turn_started = Instant::now();
        self.show(out)?;
        writeln!(out, "{who} {text} ({m})")?;
        self.judge(out)
    }

    /// Asks the rules whether the game is over.
    fn judge(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(v) = self.record.verdict(DEFAULT_MOVE_LIMIT) {
            self.finish(v.result, v.reason.to_string(), out)?;
        }
        Ok(())
    }

    fn finish(
        &mut self,
        result: GameResult,
        reason: String,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let verdict = match result {
            GameResult::Draw => "draw",
            r if r == GameResult::win_for(self.human) => "you win",
            _ => "chuhan wins",
        };
        writeln!(out, "Game over: {} {reason} ({verdict})", result.pgn())?;
        self.ending = Some(Ending { result, reason });
        if let Some(path) = self.pgn_path.clone() {
            self.write_pgn(&path, out)?;
        }
        writeln!(
            out,
            "Type new for another game, undo to take back, save [file] or quit."
        )
    }

    fn engine_turn(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let side = self.position().side_to_move();
        let limits = match self.pace {
            Pace::Clock(tc) => {
                let c = self.clocks.map_or(GameClock::new(tc), |c| c[side.index()]);
                Limits {
                    clock: Some(Clock {
                        time_ms: c.remaining_ms(),
                        inc_ms: c.inc_ms(),
                        movestogo: c.moves_to_go(),
                    }),
                    ..Limits::default()
                }
            }
            Pace::Movetime(ms) => Limits {
                movetime_ms: Some(ms),
                ..Limits::default()
            },
            Pace::Fixed(level) => level.limits(),
        };
        let started = Instant::now();
        let best = self.think(limits, out)?;
        if !self.charge_clock(side, started.elapsed(), out)? {
            return Ok(());
        }
        match best.best {
            Some(m) => self.play_move(m, "chuhan plays", out),
            // Only reachable if the rules and the search disagree; end rather than loop.
            None => self.finish(
                GameResult::win_for(self.human),
                "chuhan found no move".into(),
                out,
            ),
        }
    }

    /// Runs one search on the current position, showing its progress on one line of a terminal.
    fn think(&mut self, limits: Limits, out: &mut dyn Write) -> io::Result<BestMove> {
        self.engine.set_game(self.record.clone());
        self.engine.go(limits);
        let pos = self.position().clone();
        let best = loop {
            match self.reports.recv() {
                Ok(Report::Info(info)) if self.tty => {
                    write!(out, "\r\x1b[2K{}", status_line(&pos, &info))?;
                    out.flush()?;
                }
                Ok(Report::Info(_)) => {}
                Ok(Report::Message(text)) => log::info!("{text}"),
                Ok(Report::BestMove(b)) => break b,
                Err(_) => {
                    return Err(io::Error::other("the engine stopped reporting"));
                }
            }
        };
        if self.tty {
            write!(out, "\r\x1b[2K")?;
        }
        self.engine.wait();
        Ok(best)
    }

    fn hint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.ending.is_some() {
            return writeln!(out, "The game is over; no hint.");
        }
        let limits = match self.pace {
            Pace::Fixed(level) => level.limits(),
            Pace::Movetime(ms) => Limits {
                movetime_ms: Some(ms),
                ..Limits::default()
            },
            Pace::Clock(_) => Level::DEFAULT.limits(),
        };
        let best = self.think(limits, out)?;
        match best.best {
            Some(m) => writeln!(
                out,
                "Hint: {} ({m})",
                format_move(self.position(), m, Notation::Chinese)
            ),
            None => writeln!(out, "No legal move."),
        }
    }

    /// Takes back to the human's previous turn: the engine's reply and the human's move.
    fn undo(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let plies = if self.position().side_to_move() == self.human {
            2
        } else {
            1
        };
        if self.record.moves().len() < plies {
            return writeln!(out, "Nothing of yours to take back.");
        }
        for _ in 0..plies {
            self.record.pop();
        }
        self.ending = None;
        self.turn_started = Instant::now();
        self.show(out)
    }

    fn list_moves(&self, out: &mut dyn Write) -> io::Result<()> {
        let lines = numbered_moves(&self.record, Notation::Chinese);
        if lines.is_empty() {
            return writeln!(out, "No moves yet.");
        }
        writeln!(out, "{}", lines.join("\n"))
    }

    fn resign(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.ending.is_some() {
            return writeln!(out, "The game is already over.");
        }
        let reason = format!("{} resigns", self.human.name());
        self.finish(GameResult::win_for(self.human.flip()), reason, out)
    }

    fn new_game(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.record = GameRecord::new(self.start.clone());
        self.ending = None;
        self.reset_clocks();
        self.turn_started = Instant::now();
        self.engine.new_game();
        self.show(out)?;
        self.judge(out)
    }

    fn save(&self, arg: &str, out: &mut dyn Write) -> io::Result<()> {
        let path = if arg.is_empty() {
            let secs = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            PathBuf::from(format!("chuhan-{secs}.pgn"))
        } else {
            PathBuf::from(arg)
        };
        self.write_pgn(&path, out)
    }

    fn write_pgn(&self, path: &std::path::Path, out: &mut dyn Write) -> io::Result<()> {
        let engine = format!("chuhan {}", env!("CARGO_PKG_VERSION"));
        let (red, black) = match self.human {
            Color::Red => ("Human".to_string(), engine),
            Color::Black => (engine, "Human".to_string()),
        };
        let header = PgnHeader {
            event: "chuhan play",
            date: &today(),
            round: "-",
            red: &red,
            black: &black,
            result: self.ending.as_ref().map_or("*", |e| e.result.pgn()),
        };
        let moves = self.record.moves().iter().map(|&m| (m, None));
        let ending = self.ending.as_ref().map(|e| e.reason.as_str());
        let pgn =
            PgnWriter::new(&header, self.record.start(), Notation::Chinese).finish(moves, ending);
        match std::fs::write(path, pgn) {
            Ok(()) => writeln!(out, "Game saved to {}", path.display()),
            Err(e) => writeln!(out, "Could not save to {}: {e}", path.display()),
        }
    }
}

/// `m:ss` for a clock.
fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

/// The live line while the engine thinks: depth, score, speed and as much of the best line in
/// Chinese as fits one 80-column terminal line.
fn status_line(pos: &Position, info: &SearchInfo) -> String {
    const WIDTH: usize = 79;
    let score = match info.score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n > 0 => format!("mate in {n}"),
        Score::Mate(n) => format!("mated in {}", -n),
    };
    let mut line = format!(
        "depth {}  score {score}  {} kN/s ",
        info.depth,
        info.nps / 1000
    );
    // Chinese characters take two columns.
    let width = |s: &str| {
        s.chars()
            .map(|c| if c.is_ascii() { 1 } else { 2 })
            .sum::<usize>()
    };
    let mut used = width(&line);
    for m in format_line(pos, &info.pv, Notation::Chinese) {
        used += 1 + width(&m);
        if used > WIDTH {
            break;
        }
        line.push(' ');
        line.push_str(&m);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Bound;

    #[test]
    fn levels_parse() {
        assert_eq!(Level::parse("1").unwrap().limits().depth, Some(1));
        assert_eq!(
            Level::parse("hard").unwrap().limits().movetime_ms,
            Some(5000)
        );
        assert_eq!(
            Level::parse("10").unwrap().limits().movetime_ms,
            Some(20_000)
        );
        assert!(Level::parse("11").is_err());
        // stronger levels never get less than weaker ones
        let effort = |n: u8| {
            let l = Level(n).limits();
            (
                l.movetime_ms.is_some(),
                l.movetime_ms.unwrap_or(0),
                l.depth.unwrap_or(0),
            )
        };
        assert!((1..10).all(|n| effort(n) < effort(n + 1)));
    }

    #[test]
    fn status_shows_depth_score_speed_and_line() {
        let pos = Position::startpos();
        let info = SearchInfo {
            depth: 7,
            seldepth: 9,
            multipv: 1,
            score: Score::Cp(35),
            bound: Bound::Exact,
            wdl: Some([300, 500, 200]),
            nodes: 1000,
            nps: 250_000,
            tbhits: None,
            hashfull: 0,
            time_ms: 4,
            pv: ["h2e2", "h9g7"]
                .map(|s| Move::parse_coords(s).unwrap())
                .to_vec(),
        };
        assert_eq!(
            status_line(&pos, &info),
            "depth 7  score +0.35  250 kN/s  炮二平五 马8进7"
        );
        // a long line is cut to fit one terminal line
        let mut long = info.clone();
        let mut p = pos.clone();
        long.pv.clear();
        for _ in 0..20 {
            let m = p.legal_moves()[0];
            long.pv.push(m);
            p.do_move(m);
        }
        long.score = Score::Mate(-3);
        let line = status_line(&pos, &long);
        assert!(
            line.starts_with("depth 7  score mated in 3  250 kN/s  "),
            "{line}"
        );
        let width: usize = line.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
        assert!((70..=79).contains(&width), "{width}: {line}");
    }

    fn session(extra: &[&str]) -> Session {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            play: PlayArgs,
        }
        let args = <Cli as clap::Parser>::parse_from(["play"].iter().chain(extra)).play;
        Session::new(&args, Position::startpos(), false, false)
    }

    #[test]
    fn a_fallen_flag_loses_and_the_increment_is_added_otherwise() {
        let mut s = session(&["--tc", "0.01+2"]);
        let mut out = Vec::new();
        assert!(
            s.charge_clock(Color::Red, Duration::from_millis(500), &mut out)
                .unwrap()
        );
        let left = s.clocks.map(|c| c.map(|c| c.remaining_ms()));
        assert_eq!(left, Some([600 - 500 + 2000, 600]));
        assert!(s.ending.is_none());
        assert!(
            !s.charge_clock(Color::Black, Duration::from_millis(600), &mut out)
                .unwrap()
        );
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("Game over: 1-0 Black lost on time (you win)"),
            "{text}"
        );
        assert_eq!(s.ending.map(|e| e.result), Some(GameResult::RedWins));
    }

    #[test]
    fn undo_returns_to_the_humans_turn() {
        let mut s = session(&["--side", "black"]);
        let mut out = Vec::new();
        for m in ["h2e2", "h9g7", "h0g2"] {
            s.record.push(Move::parse_coords(m).unwrap());
        }
        s.undo(&mut out).unwrap();
        assert_eq!(s.record.moves().len(), 1);
        s.undo(&mut out).unwrap();
        assert_eq!(s.record.moves().len(), 1);
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("Nothing of yours to take back.\n"), "{text}");
    }

    #[test]
    fn clocks_read_minutes_and_seconds() {
        assert_eq!(clock_text(299_500), "4:59");
        assert_eq!(clock_text(61_000), "1:01");
    }
}
