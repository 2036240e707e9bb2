//! One protocol session: carries out parsed commands on the engine, and prints the engine's
//! reports in the session's dialect.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::bench::{bench, bench_report};
use crate::board::Color;
use crate::engine::Engine;
use crate::movegen::perft_report;
use crate::search::{Clock, Report, Reporter};

use super::Dialect;
use super::board_text::board_text;
use super::command::{ClockSpec, Command, GoRequest, Notes, legal_moves_from};
use super::options::{Action, EMBEDDED_NET, OptionChange, Settings};
use super::output::{Direction, Output};

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// State the input thread and the search thread's reporter share.
#[derive(Default)]
struct Shared {
    /// From `go` until its `bestmove` is printed (UCCI `stop` while idle answers `nobestmove`).
    thinking: AtomicBool,
    /// The opponent offers a draw (UCCI `go draw`, `ponderhit draw`).
    draw_offered: AtomicBool,
    /// `UCI_ShowWDL`.
    show_wdl: AtomicBool,
}

struct ProtocolReporter {
    dialect: Dialect,
    out: Arc<Output>,
    shared: Arc<Shared>,
}

impl Reporter for ProtocolReporter {
    fn report(&self, report: Report) {
        match report {
            Report::Info(info) => {
                let wdl = self.shared.show_wdl.load(Ordering::SeqCst);
                self.out.lines(&self.dialect.info(&info, wdl));
            }
            Report::Message(text) => self.out.line(&self.dialect.message(&text)),
            Report::BestMove(best) => {
                let draw = self.shared.draw_offered.load(Ordering::SeqCst);
                self.out.lines(&self.dialect.bestmove(&best, draw));
                self.shared.thinking.store(false, Ordering::SeqCst);
            }
        }
    }
}

pub struct Session {
    dialect: Dialect,
    out: Arc<Output>,
    engine: Engine,
    shared: Arc<Shared>,
    settings: Settings,
}

impl Session {
    pub fn new(dialect: Dialect, out: Arc<Output>) -> Session {
        let settings = Settings::default();
        let shared = Arc::new(Shared {
            show_wdl: AtomicBool::new(settings.show_wdl),
            ..Shared::default()
        });
        let reporter = ProtocolReporter {
            dialect,
            out: Arc::clone(&out),
            shared: Arc::clone(&shared),
        };
        Session {
            dialect,
            out,
            engine: Engine::new(Arc::new(reporter), settings.engine.clone()),
            shared,
            settings,
        }
    }

    /// Carries out one input line.
    pub fn handle(&mut self, line: &str) -> Flow {
        self.out.log(Direction::In, line);
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let mut notes = Notes::new();
        let parsed = self
            .dialect
            .parse(&tokens, self.settings.millisec, &mut notes);
        self.tell(&notes);
        match parsed {
            Ok(command) => self.execute(command),
            Err(problem) => {
                self.tell(&[problem]);
                Flow::Continue
            }
        }
    }

    /// Prints a problem or remark for the user, one line each.
    pub fn tell<S: AsRef<str>>(&self, texts: &[S]) {
        let lines: Vec<String> = texts
            .iter()
            .map(|t| self.dialect.message(t.as_ref()))
            .collect();
        self.out.lines(&lines);
    }

    /// End of input: as `quit`, without a reply.
    pub fn finish(&mut self) {
        self.engine.stop();
        self.engine.wait();
    }

    fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::Nothing => {}
            Command::Handshake => self.out.lines(&self.dialect.handshake()),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption(change) => self.set_option(change),
            Command::SetParam { index, value } => {
                self.settings.engine.params.set(index, value);
                self.engine.set_options(self.settings.engine.clone());
            }
            Command::NewGame => self.engine.new_game(),
            Command::Position(game) => self.engine.set_game(game),
            Command::BanMoves(texts) => {
                let mut notes = Notes::new();
                let moves =
                    legal_moves_from(self.engine.position(), &texts, "banmoves", &mut notes);
                self.tell(&notes);
                self.engine.set_banmoves(moves);
            }
            Command::Go(request) => self.go(*request),
            Command::Stop => {
                if self.shared.thinking.load(Ordering::SeqCst) {
                    self.engine.stop();
                } else if self.dialect == Dialect::Ucci {
                    self.out.line("nobestmove");
                }
            }
            Command::PonderHit { draw_offered } => {
                if draw_offered {
                    self.shared.draw_offered.store(true, Ordering::SeqCst);
                }
                self.engine.ponderhit();
            }
            Command::Probe(game) => {
                let probe = self.engine.probe(game.position());
                self.out.line(&super::ucci::pophash(probe.as_ref()));
            }
            Command::Display { chinese } => {
                self.out.line(&board_text(self.engine.position(), chinese));
            }
            Command::Perft(depth) => {
                let mut pos = self.engine.position().clone();
                self.out.line(&perft_report(&mut pos, depth));
            }
            Command::Bench(depth) => {
                let r = bench(depth, self.engine.search_net(), self.settings.engine.params);
                self.out.line(&bench_report(&r));
            }
            Command::Quit => {
                self.finish();
                if self.dialect == Dialect::Ucci {
                    self.out.line("bye");
                }
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn set_option(&mut self, change: OptionChange) {
        let mut settings = self.settings.clone();
        let action = change.apply(&mut settings);
        if settings.engine != *self.engine.options() {
            self.engine.set_options(settings.engine.clone());
        }
        self.shared
            .show_wdl
            .store(settings.show_wdl, Ordering::SeqCst);
        self.settings = settings;
        match action {
            None => {}
            Some((Action::ClearHash, _)) => self.engine.clear_hash(),
            Some((Action::NewGame, _)) => self.engine.new_game(),
            Some((Action::DebugLog, path)) => {
                if let Err(e) = self.out.set_log(path) {
                    self.tell(&[e]);
                }
            }
            Some((Action::LoadBook, list)) => match self.engine.load_book(list) {
                Ok(0) => {}
                Ok(n) => self.tell(&[format!("book: {n} records")]),
                Err(e) => self.tell(&[e]),
            },
            Some((Action::LoadTables, dir)) => {
                let (count, mut errors) = self.engine.load_tables(dir);
                if count > 0 {
                    errors.push(format!("EGTB Path: {count} tables"));
                }
                self.tell(&errors);
            }
            Some((Action::LoadNet, path)) => {
                if path.is_empty() || path == EMBEDDED_NET {
                    self.engine.use_embedded_net();
                } else if let Err(e) = self.engine.load_net(path) {
                    self.tell(&[e]);
                }
            }
        }
    }

    fn go(&mut self, request: GoRequest) {
        let pos = self.engine.position().clone();
        let mut notes = Notes::new();
        let mut limits = request.limits;
        limits.searchmoves =
            legal_moves_from(&pos, &request.searchmoves, "searchmoves", &mut notes);
        if !request.searchmoves.is_empty() && limits.searchmoves.is_empty() {
            notes.push("no legal move among searchmoves: searching all moves".to_string());
        }
        limits.clock = request
            .clock
            .and_then(|spec| own_clock(spec, pos.side_to_move(), &mut notes));
        self.tell(&notes);
        // The previous search prints its bestmove before this one is marked as thinking.
        self.engine.stop();
        self.engine.wait();
        let finite = !limits.infinite && !limits.ponder;
        self.shared
            .draw_offered
            .store(request.draw_offered, Ordering::SeqCst);
        self.shared.thinking.store(true, Ordering::SeqCst);
        self.engine.go(limits);
        if self.settings.batch && finite {
            self.engine.wait();
        }
    }
}

/// The clock of the side to move, from clocks given by colour or already relative.
fn own_clock(spec: ClockSpec, side: Color, notes: &mut Notes) -> Option<Clock> {
    match spec {
        ClockSpec::Relative(clock) => Some(clock),
        ClockSpec::ByColor {
            time,
            inc,
            movestogo,
        } => {
            let us = side.index();
            let Some(time_ms) = time[us] else {
                notes.push(format!("go: no time given for {}", side.name()));
                return None;
            };
            Some(Clock {
                time_ms,
                inc_ms: inc[us].unwrap_or(0),
                movestogo,
            })
        }
    }
}
