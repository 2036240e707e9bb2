//! One page's game: the record, the page's settings and an engine that plays and analyses,
//! driven through the `Engine` API as the protocols drive it. A session runs on its own thread;
//! the page's messages and the engine's reports reach it on one channel, in the order they
//! happened, so a report is always judged against the game as it was when the search began.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

use crate::board::notation::{Notation, format_line, format_move, parse_move};
use crate::board::{Color, Move, Position};
use crate::engine::Engine;
use crate::rules::{DEFAULT_MOVE_LIMIT, GameRecord, Verdict};
use crate::search::strength::{MAX_ELO, MIN_ELO};
use crate::search::{BestMove, Bound, Limits, Report, Reporter, Score, SearchInfo};
use crate::tools::pgn::reader::read_games;
use crate::tools::pgn::{PgnHeader, PgnWriter, today};

use super::messages::{
    ClientMessage, Ending, Mode, PlayedMove, ScoreView, ServerMessage, Settings, Side,
};
use super::slots::{Slot, Slots};

/// The largest message a page may send (a long PGN fits); larger ones are refused unread.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// Lines of analysis at most.
pub const MAX_MULTIPV: usize = 8;
/// Thinking time per move, in milliseconds, that a page may ask for.
pub const MOVETIME_RANGE: std::ops::RangeInclusive<u64> = 50..=600_000;
/// A mate's place on the score graph, in centipawns.
const GRAPH_MATE_CP: i32 = 2000;

/// What a session receives.
pub enum Input {
    /// A text message from the page.
    Text(String),
    /// A binary message: the API is text only.
    Binary,
    Engine(Report),
    /// The page went away: stop searching and end.
    Closed,
}

/// What a session needs from the server.
#[derive(Clone)]
pub struct SessionConfig {
    /// Searches running at once, over all pages.
    pub searches: Arc<Slots>,
    pub hash_mb: usize,
}

/// Forwards the engine's reports into the session's channel.
struct ToSession(Sender<Input>);

impl Reporter for ToSession {
    fn report(&self, report: Report) {
        // The session waits for its searches before it ends, so it is there to receive.
        let _ = self.0.send(Input::Engine(report));
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// The engine's move in play mode.
    Play,
    /// Analysis of the position until something changes.
    Analyze,
}

/// A search handed to the engine whose `BestMove` has not arrived yet.
struct Search {
    purpose: Purpose,
    /// Plies played when it began.
    ply: usize,
    /// Held while the search runs; dropped once it is stopped or over.
    slot: Option<Slot>,
}

pub struct Session {
    record: GameRecord,
    settings: Settings,
    /// Red's score at each position, from the searches that reached it.
    scores: Vec<Option<i32>>,
    engine: Engine,
    searches: Arc<Slots>,
    /// Searches in the order they were started; the engine finishes them in that order.
    in_flight: VecDeque<Search>,
    out: Box<dyn FnMut(ServerMessage) + Send>,
}

/// The settings of a new page: play Red against chuhan at full strength, 2 s a move.
pub const DEFAULT_SETTINGS: Settings = Settings {
    mode: Mode::Play,
    side: Side::Red,
    elo: None,
    movetime_ms: 2000,
    multipv: 3,
};

/// Starts a session on its own thread; it sends the page its state at once. `held` (the
/// page's connection slot, say) is released when the session ends.
pub fn spawn<H: Send + 'static>(
    config: SessionConfig,
    held: H,
    out: impl FnMut(ServerMessage) + Send + 'static,
) -> (Sender<Input>, JoinHandle<()>) {
    let (tx, rx) = channel();
    let reporter = ToSession(tx.clone());
    let thread = std::thread::Builder::new()
        .name("serve-session".into())
        .spawn(move || {
            let session = Session::new(config, reporter, Box::new(out));
            session.run(rx);
            drop(held);
        })
        .expect("spawn a session thread");
    (tx, thread)
}

impl Session {
    fn new(
        config: SessionConfig,
        reporter: ToSession,
        out: Box<dyn FnMut(ServerMessage) + Send>,
    ) -> Session {
        let mut options = crate::protocol::options::Settings::default().engine;
        options.hash_mb = config.hash_mb;
        options.threads = 1;
        Session {
            record: GameRecord::new(Position::startpos()),
            settings: DEFAULT_SETTINGS,
            scores: vec![None],
            engine: Engine::new(Arc::new(reporter), options),
            searches: config.searches,
            in_flight: VecDeque::new(),
            out,
        }
    }

    fn run(mut self, input: Receiver<Input>) {
        self.send_state();
        for message in input {
            match message {
                Input::Text(text) => self.text(&text),
                Input::Binary => self.error("binary messages are not understood; send JSON text"),
                Input::Engine(report) => self.report(report),
                Input::Closed => break,
            }
        }
        self.stop_search();
    }

    fn send(&mut self, m: ServerMessage) {
        (self.out)(m);
    }

    fn error(&mut self, message: impl Into<String>) {
        self.send(ServerMessage::Error {
            message: message.into(),
        });
    }

    fn position(&self) -> &Position {
        self.record.position()
    }

    fn human(&self) -> Color {
        match self.settings.side {
            Side::Red => Color::Red,
            Side::Black => Color::Black,
        }
    }

    fn verdict(&self) -> Option<Verdict> {
        self.record.verdict(DEFAULT_MOVE_LIMIT)
    }

    /// A page's message: anything refused leaves the game as it was and says why.
    fn text(&mut self, text: &str) {
        if text.len() > MAX_MESSAGE_BYTES {
            let n = text.len();
            return self.error(format!(
                "a message of {n} bytes is over the limit of {MAX_MESSAGE_BYTES}; nothing changed"
            ));
        }
        let message = match serde_json::from_str::<ClientMessage>(text) {
            Ok(m) => m,
            Err(e) => {
                return self.error(format!(
                    "not a message of this page's API ({e}); nothing changed"
                ));
            }
        };
        if let Err(e) = self.handle(message) {
            self.error(e);
        }
    }

    fn handle(&mut self, message: ClientMessage) -> Result<(), String> {
        match message {
            ClientMessage::New { fen } => {
                let start = match fen {
                    Some(f) => Position::from_fen(&f)
                        .map_err(|e| format!("bad FEN '{f}': {e}; the game stays as it was"))?,
                    None => Position::startpos(),
                };
                self.new_game(GameRecord::new(start));
            }
            ClientMessage::Move { mv } => self.human_move(&mv)?,
            ClientMessage::Undo => self.undo()?,
            ClientMessage::ExportPgn => {
                let pgn = self.pgn();
                self.send(ServerMessage::Pgn { pgn });
                return Ok(());
            }
            ClientMessage::Pgn { pgn } => self.load_pgn(&pgn)?,
            ClientMessage::Settings(s) => self.set_settings(s)?,
            ClientMessage::Go => {
                if self.verdict().is_some() {
                    return Err("the game is over; undo or start a new game".into());
                }
                if self.settings.mode == Mode::Play {
                    // chuhan takes the side to move: the person plays the other.
                    self.settings.side = match self.position().side_to_move() {
                        Color::Red => Side::Black,
                        Color::Black => Side::Red,
                    };
                }
                self.after_change();
            }
            ClientMessage::Stop => {
                // In play the search's move is played when its BestMove comes (move now).
                self.engine.stop();
                return Ok(());
            }
            ClientMessage::State => {}
        }
        self.send_state();
        Ok(())
    }

    fn new_game(&mut self, record: GameRecord) {
        self.stop_search();
        self.engine.new_game();
        self.record = record;
        self.scores.clear();
        self.after_change();
    }

    fn human_move(&mut self, text: &str) -> Result<(), String> {
        if let Some(v) = self.verdict() {
            return Err(format!("the game is over ({v}); undo or start a new game"));
        }
        if self.settings.mode == Mode::Play && self.position().side_to_move() != self.human() {
            return Err("it is chuhan's turn: wait for its move, or stop it to move now".into());
        }
        let m = parse_move(self.position(), text).map_err(|e| e.to_string())?;
        self.record.push(m);
        self.after_change();
        Ok(())
    }

    fn undo(&mut self) -> Result<(), String> {
        if self.record.moves().is_empty() {
            return Err("no move to take back".into());
        }
        self.record.pop();
        if self.settings.mode == Mode::Play {
            while self.position().side_to_move() != self.human() && self.record.pop().is_some() {}
        }
        self.after_change();
        Ok(())
    }

    fn load_pgn(&mut self, text: &str) -> Result<(), String> {
        let (games, problems) = read_games(text);
        if let Some(p) = problems.first() {
            return Err(format!("bad PGN ({p}); the game stays as it was"));
        }
        let Some(game) = games.into_iter().next() else {
            return Err("no game in the PGN text; the game stays as it was".into());
        };
        let mut record = GameRecord::new(game.start);
        for m in game.moves {
            record.push(m);
        }
        self.new_game(record);
        Ok(())
    }

    fn set_settings(&mut self, s: Settings) -> Result<(), String> {
        if let Some(elo) = s.elo
            && !(MIN_ELO..=MAX_ELO).contains(&elo)
        {
            return Err(format!("Elo {elo} is outside {MIN_ELO}..{MAX_ELO}"));
        }
        if !MOVETIME_RANGE.contains(&s.movetime_ms) {
            return Err(format!(
                "time per move {} ms is outside {}..{} ms",
                s.movetime_ms,
                MOVETIME_RANGE.start(),
                MOVETIME_RANGE.end()
            ));
        }
        if !(1..=MAX_MULTIPV).contains(&s.multipv) {
            return Err(format!("{} lines is outside 1..{MAX_MULTIPV}", s.multipv));
        }
        if s != self.settings {
            self.settings = s;
            self.after_change();
        }
        Ok(())
    }

    /// After the game or the settings changed: the search under way (for the old game or
    /// settings) ends, then the engine plays, analyses or rests.
    fn after_change(&mut self) {
        self.scores.resize(self.record.moves().len() + 1, None);
        if self.verdict().is_some() {
            self.stop_search();
            return;
        }
        match self.settings.mode {
            Mode::Play if self.position().side_to_move() != self.human() => {
                self.start(Purpose::Play)
            }
            Mode::Play => self.stop_search(),
            Mode::Analyze => self.start(Purpose::Analyze),
        }
    }

    /// Ends the running search and waits for it; its reports still arrive, and are ignored.
    fn stop_search(&mut self) {
        self.engine.stop();
        self.engine.wait();
        for s in &mut self.in_flight {
            s.slot = None;
        }
    }

    fn start(&mut self, purpose: Purpose) {
        self.stop_search();
        let Some(slot) = self.searches.try_take() else {
            let max = self.searches.max();
            return self.error(format!(
                "the server is busy: {max} searches are running, its limit; try again later"
            ));
        };
        let mut options = self.engine.options().clone();
        (options.multipv, options.limit_strength) = match purpose {
            Purpose::Play => (1, self.settings.elo.is_some()),
            Purpose::Analyze => (self.settings.multipv, false),
        };
        if let Some(elo) = self.settings.elo {
            options.elo = elo;
        }
        if options != *self.engine.options() {
            self.engine.set_options(options);
        }
        self.engine.set_game(self.record.clone());
        self.engine.go(match purpose {
            Purpose::Play => Limits {
                movetime_ms: Some(self.settings.movetime_ms),
                ..Limits::default()
            },
            Purpose::Analyze => Limits {
                infinite: true,
                ..Limits::default()
            },
        });
        self.in_flight.push_back(Search {
            purpose,
            ply: self.record.moves().len(),
            slot: Some(slot),
        });
    }

    fn report(&mut self, report: Report) {
        match report {
            Report::Info(info) => {
                // Only the newest search's lines are shown; older ones are finishing.
                if self.in_flight.len() == 1
                    && let Some(s) = self.in_flight.front()
                    && s.ply == self.record.moves().len()
                {
                    self.info(&info);
                }
            }
            Report::BestMove(best) => self.best_move(best),
            Report::Message(_) => {}
        }
    }

    fn info(&mut self, info: &SearchInfo) {
        let pos = self.position();
        let red = pos.side_to_move() == Color::Red;
        let (score, graph) = match info.score {
            Score::Cp(cp) => {
                let cp = if red { cp } else { -cp };
                (ScoreView::Cp(cp), cp)
            }
            Score::Mate(n) => {
                let n = if red { n } else { -n };
                (ScoreView::Mate(n), GRAPH_MATE_CP * n.signum())
            }
        };
        let wdl = info
            .wdl
            .map(|[w, d, l]| if red { [w, d, l] } else { [l, d, w] });
        let message = ServerMessage::Info {
            ply: self.record.moves().len(),
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            score,
            bound: match info.bound {
                Bound::Exact => "exact",
                Bound::Lower => "lower",
                Bound::Upper => "upper",
            }
            .into(),
            wdl,
            nodes: info.nodes,
            nps: info.nps,
            time_ms: info.time_ms,
            pv: info.pv.iter().map(Move::to_string).collect(),
            pv_chinese: format_line(pos, &info.pv, Notation::Chinese),
        };
        if info.multipv == 1 && info.bound == Bound::Exact {
            let ply = self.record.moves().len();
            self.scores[ply] = Some(graph);
        }
        self.send(message);
    }

    fn best_move(&mut self, best: BestMove) {
        let Some(search) = self.in_flight.pop_front() else {
            return;
        };
        let newest = self.in_flight.is_empty();
        let played = newest
            && search.slot.is_some()
            && search.purpose == Purpose::Play
            && search.ply == self.record.moves().len();
        drop(search);
        if !newest {
            return;
        }
        if played && let Some(m) = best.best.filter(|&m| self.position().is_legal(m)) {
            let chinese = format_move(self.position(), m, Notation::Chinese);
            self.record.push(m);
            self.send(ServerMessage::EngineMove {
                iccs: m.to_string(),
                chinese,
            });
            self.after_change();
        }
        self.send_state();
    }

    /// Whether the engine is searching the current position.
    fn thinking(&self) -> bool {
        self.in_flight.back().is_some_and(|s| s.slot.is_some())
    }

    fn send_state(&mut self) {
        let pos = self.position();
        let ending = self.verdict().map(|v| Ending {
            result: v.result.pgn().into(),
            reason: v.reason.to_string(),
        });
        let legal = if ending.is_some() {
            Vec::new()
        } else {
            pos.legal_moves().iter().map(Move::to_string).collect()
        };
        let moves = (0..self.record.moves().len())
            .map(|i| {
                let m = self.record.moves()[i];
                PlayedMove {
                    iccs: m.to_string(),
                    chinese: format_move(self.record.position_at(i), m, Notation::Chinese),
                }
            })
            .collect();
        let state = ServerMessage::State {
            fen: pos.to_fen(),
            start_fen: self.record.start().to_fen(),
            side_to_move: match pos.side_to_move() {
                Color::Red => Side::Red,
                Color::Black => Side::Black,
            },
            in_check: pos.in_check(),
            moves,
            legal,
            ending,
            scores: self.scores.clone(),
            settings: self.settings,
            thinking: self.thinking(),
        };
        self.send(state);
    }

    /// The game as PGN in Chinese notation, with the referee's verdict if it is over.
    fn pgn(&self) -> String {
        let verdict = self.verdict();
        let (red, black) = match (self.settings.mode, self.settings.side) {
            (Mode::Analyze, _) => ("?", "?"),
            (Mode::Play, Side::Red) => ("You", "chuhan"),
            (Mode::Play, Side::Black) => ("chuhan", "You"),
        };
        let date = today();
        let header = PgnHeader {
            event: "chuhan serve",
            date: &date,
            round: "1",
            red,
            black,
            result: verdict.map_or("*", |v| v.result.pgn()),
        };
        let reason = verdict.map(|v| v.reason.to_string());
        PgnWriter::new(&header, self.record.start(), Notation::Chinese).finish(
            self.record.moves().iter().map(|&m| (m, None)),
            reason.as_deref(),
        )
    }
}
