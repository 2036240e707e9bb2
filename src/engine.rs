//! The one API every front end uses: set the game, go with limits, stop, ponderhit, options.
//! Results flow out through a `Reporter`; nothing here knows which protocol is spoken.
//! The search runs on a worker thread that owns the per-thread search state while it runs and
//! hands it back when it ends, so histories and the hash table persist from one `go` to the next.

use std::sync::Arc;
use std::thread::JoinHandle;

use crate::board::{Move, Position};
use crate::rules::{DEFAULT_MOVE_LIMIT, GameRecord};
use crate::search::driver::THREAD_STACK;
use crate::search::{Control, SearchSetup, Worker, run};
use crate::tt::TranspositionTable;

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns, where 100 is about a pawn that has crossed the river.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

/// Whether a reported score is exact or a bound from a failed aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One progress report of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number when MultiPV > 1.
    pub multipv: u32,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// The end of a search: exactly one per `go`, after its last `Info`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// `None` when the side to move has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    /// Score of the best move, for draw-offer and resign decisions in the front end.
    pub score: Option<Score>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    Info(SearchInfo),
    BestMove(BestMove),
    /// Free text for the user (`info string` / `info message`).
    Message(String),
}

/// Receives reports from the search thread(s), in order.
pub trait Reporter: Send + Sync + 'static {
    fn report(&self, report: Report);
}

/// Clock state for the side to move (all in milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_ms: u64,
    pub inc_ms: u64,
    /// Moves until the next time control, if any.
    pub movestogo: Option<u32>,
    pub opp_time_ms: Option<u64>,
    pub opp_inc_ms: Option<u64>,
}

/// What bounds one search. All `None`/false means search until `stop`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub clock: Option<Clock>,
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    /// Pondering: no `BestMove` is reported before `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty = all).
    pub searchmoves: Vec<Move>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    /// Plies without capture before a draw, 0 = off.
    pub move_limit: u32,
    pub ponder: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            move_limit: DEFAULT_MOVE_LIMIT,
            ponder: false,
        }
    }
}

pub struct Engine {
    reporter: Arc<dyn Reporter>,
    options: EngineOptions,
    game: GameRecord,
    banmoves: Vec<Move>,
    control: Arc<Control>,
    tt: Arc<TranspositionTable>,
    /// Per-thread search state while idle (the running search holds it otherwise).
    workers: Vec<Box<Worker>>,
    worker: Option<JoinHandle<Vec<Box<Worker>>>>,
}

impl Engine {
    pub fn new(reporter: Arc<dyn Reporter>) -> Engine {
        let options = EngineOptions::default();
        Engine {
            reporter,
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            options,
            game: GameRecord::new(Position::startpos()),
            banmoves: Vec::new(),
            control: Arc::new(Control::default()),
            workers: Vec::new(),
            worker: None,
        }
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Replaces the options (resizes the hash table if its size changed). Stops a running search.
    pub fn set_options(&mut self, options: EngineOptions) {
        self.stop_and_wait();
        if options.hash_mb != self.options.hash_mb {
            // Free the old table before allocating the new one.
            self.tt = Arc::new(TranspositionTable::new(1));
            self.tt = Arc::new(TranspositionTable::new(options.hash_mb));
        }
        self.options = options;
    }

    pub fn clear_hash(&mut self) {
        self.stop_and_wait();
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            None => self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb)),
        }
    }

    /// Forget everything learnt from earlier games (hash, histories).
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.workers.clear();
    }

    /// Sets the game to search from; clears `banmoves`. Stops a running search.
    pub fn set_game(&mut self, game: GameRecord) {
        self.stop_and_wait();
        self.game = game;
        self.banmoves.clear();
    }

    pub fn game(&self) -> &GameRecord {
        &self.game
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Moves the next search must not play at the root (UCCI `banmoves`).
    pub fn set_banmoves(&mut self, moves: Vec<Move>) {
        self.banmoves = moves;
    }

    /// Starts a search and returns at once; reports `Info`s then exactly one `BestMove`.
    pub fn go(&mut self, limits: Limits) {
        self.stop_and_wait();
        self.control.reset(limits.ponder);
        let threads = self.options.threads.max(1);
        let mut workers = std::mem::take(&mut self.workers);
        workers.truncate(threads);
        while workers.len() < threads {
            workers.push(Worker::new(workers.len()));
        }
        let setup = SearchSetup {
            game: self.game.clone(),
            limits,
            banmoves: self.banmoves.clone(),
            multipv: self.options.multipv.max(1),
            move_overhead_ms: self.options.move_overhead_ms,
            move_limit: self.options.move_limit,
        };
        let reporter = Arc::clone(&self.reporter);
        let control = Arc::clone(&self.control);
        let tt = Arc::clone(&self.tt);
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(THREAD_STACK)
            .spawn(move || {
                run(&mut workers, &setup, &tt, &control, &*reporter);
                workers
            })
            .expect("spawn the search thread");
        self.worker = Some(handle);
    }

    /// Asks the search to finish now; it still reports its `BestMove`.
    pub fn stop(&self) {
        self.control.stop();
        self.wake();
    }

    /// The opponent played the pondered move: the search goes on under normal time control.
    pub fn ponderhit(&self) {
        self.control.ponderhit();
        self.wake();
    }

    /// Wakes a finished pondering or infinite search waiting for `stop` or `ponderhit`.
    fn wake(&self) {
        if let Some(w) = &self.worker {
            w.thread().unpark();
        }
    }

    pub fn is_searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Blocks until the running search (if any) has reported its `BestMove`.
    pub fn wait(&mut self) {
        if let Some(w) = self.worker.take() {
            // A search thread that panicked loses its state; fresh workers replace it.
            if let Ok(workers) = w.join() {
                self.workers = workers;
            }
        }
    }

    fn stop_and_wait(&mut self) {
        self.stop();
        self.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}
