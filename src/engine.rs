//! The one API every front end uses: set the game, go with limits, stop, ponderhit, options.
//! Results flow out through a `Reporter`; nothing here knows which protocol is spoken.
//! The search runs on search threads created with the engine (`search::threads`), parked
//! between searches, each keeping its worker, so histories and the hash table persist from one
//! `go` to the next.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::time::Instant;

use crate::board::{Move, Position};
use crate::book::{Book, choose};
use crate::egtb::{Tablebase, Verdict};
use crate::eval::nnue::default_net;
use crate::eval::nnue::network::Network;
use crate::rng::{random_seed, splitmix64};
use crate::rules::GameRecord;
use crate::search::params::Params;
use crate::search::score::table_value;
use crate::search::stats::SearchStats;
use crate::search::strength::{MAX_ELO, Noise, Strength};
use crate::search::threads::{Job, SearchThreads};
use crate::search::{
    BestMove, Bound, Control, Limits, Report, Reporter, Score, SearchInfo, SearchSetup, Worker, run,
};
use crate::tt::{TranspositionTable, TtBound};

/// What the options set for searches; the defaults are the option table's
/// (`protocol::options::Settings::default()`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    /// Plies without capture before a draw, 0 = off.
    pub move_limit: u32,
    /// Evaluate with the net (else the hand-written evaluation).
    pub use_nnue: bool,
    /// Play at the strength `elo` (`search::strength`) instead of full strength.
    pub limit_strength: bool,
    pub elo: u64,
    /// Play from the opening book, when one is loaded.
    pub own_book: bool,
    /// From the book, always its heaviest move (else a random one in proportion to weight).
    pub best_book_move: bool,
    /// The search's tunable numbers (hidden options, `search::params`).
    pub params: Params,
}

/// What the hash table knows about a position (UCCI `probe` → `pophash`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashProbe {
    /// The stored move, if it is legal in the position.
    pub best: Option<Move>,
    pub score: Score,
    /// `Exact`, or which side of the true score `score` lies on.
    pub bound: Bound,
    pub depth: u32,
}

pub struct Engine {
    reporter: Arc<dyn Reporter>,
    options: EngineOptions,
    game: GameRecord,
    banmoves: Vec<Move>,
    control: Arc<Control>,
    tt: Arc<TranspositionTable>,
    /// The search threads, parked between searches, each with its worker.
    threads: SearchThreads,
    /// Signals the end of the running search (its main job), if one was started.
    done: Option<Receiver<()>>,
    searching: Arc<AtomicBool>,
    /// The net searches use when `use_nnue` is on: the embedded one or an `EvalFile`.
    net: Arc<Network>,
    /// Seeds a strength-limited game's evaluation noise and the book's choices; drawn again
    /// each new game.
    noise_seed: u64,
    /// The opening book (`Book File`), if one is loaded.
    book: Option<Book>,
    /// The endgame tables (`EGTB Path`), if a folder holds any.
    tables: Option<Arc<Tablebase>>,
}

/// Plies of a table's line reported with its move: enough to see the plan, few enough probes
/// that answering stays instant.
const TABLE_LINE_PLIES: usize = 32;

impl Engine {
    pub fn new(reporter: Arc<dyn Reporter>, options: EngineOptions) -> Engine {
        let threads = SearchThreads::new(options.threads);
        Engine {
            reporter,
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            options,
            game: GameRecord::new(Position::startpos()),
            banmoves: Vec::new(),
            control: Arc::new(Control::default()),
            threads,
            done: None,
            searching: Arc::new(AtomicBool::new(false)),
            net: default_net(),
            noise_seed: random_seed(),
            book: None,
            tables: None,
        }
    }

    /// An engine for searches a tool runs in-process (bench, self-play): one thread, one line,
    /// no move overhead, book or strength limit, evaluated by `net` (`None`: hand-written).
    pub fn in_process(
        reporter: Arc<dyn Reporter>,
        hash_mb: usize,
        move_limit: u32,
        net: Option<Arc<Network>>,
        params: Params,
    ) -> Engine {
        let options = EngineOptions {
            hash_mb,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 0,
            move_limit,
            use_nnue: net.is_some(),
            limit_strength: false,
            elo: MAX_ELO,
            own_book: false,
            best_book_move: false,
            params,
        };
        let mut engine = Engine::new(reporter, options);
        if let Some(net) = net {
            engine.net = net;
        }
        engine
    }

    /// Loads the book files of a `;`-separated list (empty: no book); on an error the current
    /// book stays. Returns how many records were read.
    pub fn load_book(&mut self, list: &str) -> Result<usize, String> {
        if list.trim().is_empty() {
            self.book = None;
            return Ok(0);
        }
        let book = Book::load_all(list).map_err(|e| format!("book {e}; the current book stays"))?;
        let records = book.len();
        self.book = Some(book);
        Ok(records)
    }

    /// The book's move for this `go`, if the book is on and has one: a finite search only (a
    /// ponder or infinite search waits for `stop`), legal, not banned, among `searchmoves`, and
    /// not back to a position of the game.
    fn book_move(&self, limits: &Limits) -> Option<(Vec<crate::book::BookMove>, Move)> {
        let book = self.book.as_ref().filter(|_| self.options.own_book)?;
        if limits.infinite || limits.ponder {
            return None;
        }
        let pos = self.game.position();
        let moves: Vec<_> = book
            .moves(pos)
            .into_iter()
            .filter(|b| self.may_play_at_once(limits, b.mv))
            .collect();
        let draw = splitmix64(&mut (self.noise_seed ^ pos.key()));
        let pick = choose(&moves, self.options.best_book_move, draw)?;
        Some((moves, pick.mv))
    }

    /// Whether a ready answer (the book's, the tables') may play `m` without a search: not
    /// banned, among `searchmoves`, and not back to a position of the game.
    fn may_play_at_once(&self, limits: &Limits, m: Move) -> bool {
        let key = self.game.position().key_after(m);
        !self.banmoves.contains(&m)
            && (limits.searchmoves.is_empty() || limits.searchmoves.contains(&m))
            && !(0..self.game.moves().len()).any(|i| self.game.position_at(i).key() == key)
    }

    /// Reports a ready answer's line: no nodes searched, no time taken.
    fn report_at_once(&self, depth: u32, score: Score, pv: Vec<Move>) {
        self.reporter.report(Report::Info(SearchInfo {
            depth,
            seldepth: depth,
            multipv: 1,
            score,
            bound: Bound::Exact,
            wdl: None,
            nodes: 0,
            nps: 0,
            tbhits: None,
            hashfull: self.tt.hashfull(),
            time_ms: 0,
            pv,
        }));
    }

    /// Opens the endgame tables of `dir` (empty: none) for later searches; returns how many
    /// there are and why any file was left out.
    pub fn load_tables(&mut self, dir: &str) -> (usize, Vec<String>) {
        self.stop_and_wait();
        if dir.trim().is_empty() {
            self.tables = None;
            return (0, Vec::new());
        }
        let (tables, mut errors) = Tablebase::open(std::path::Path::new(dir.trim()));
        let count = tables.len();
        if count == 0 && errors.is_empty() {
            errors.push(format!("EGTB Path {dir}: no tables there"));
        }
        self.tables = (count > 0).then(|| Arc::new(tables));
        (count, errors)
    }

    /// The tables' move for this `go`, when they settle the root: a finite full-strength
    /// single-line search, a win whose mate fits the plies the move limit leaves (or a loss
    /// that does), by a legal move that is not banned, among `searchmoves`, and not back to a
    /// position of the game. With it, the table's line (as far as `TABLE_LINE_PLIES`) and its
    /// verdict after the move.
    fn table_move(&self, limits: &Limits) -> Option<(Vec<Move>, Verdict)> {
        let tables = self.tables.as_ref()?;
        let o = &self.options;
        if limits.infinite || limits.ponder || o.limit_strength || o.multipv > 1 {
            return None;
        }
        let pos = self.game.position();
        let clock = u32::from(pos.halfmove_clock());
        let fits = |v: Verdict| v.plies().is_some() && v.within(o.move_limit, clock);
        if !fits(tables.covers(pos)?) {
            return None;
        }
        let legal = pos.legal_moves();
        let allowed = legal
            .iter()
            .copied()
            .filter(|&m| self.may_play_at_once(limits, m));
        let (first, verdict) = tables.best_of(pos, allowed).ok().flatten()?;
        if !fits(verdict) {
            return None;
        }
        let mut line = vec![first];
        let mut at = pos.clone();
        at.do_move(first);
        while line.len() < TABLE_LINE_PLIES
            && let Ok(Some((m, _))) = tables.best_move(&at)
        {
            line.push(m);
            at.do_move(m);
        }
        Some((line, verdict))
    }

    /// Loads a net file for later searches; on any error the current net stays.
    pub fn load_net(&mut self, path: &str) -> Result<(), String> {
        let bytes = std::fs::read(path)
            .map_err(|e| format!("EvalFile {path}: {e}; the current net stays"))?;
        let net = Network::from_bytes(&bytes)
            .map_err(|e| format!("EvalFile {path}: {e}; the current net stays"))?;
        self.set_net(Arc::new(net));
        Ok(())
    }

    /// The net searches evaluate with under the current options (`None`: hand-written).
    pub fn search_net(&self) -> Option<Arc<Network>> {
        self.options.use_nnue.then(|| Arc::clone(&self.net))
    }

    /// Evaluates later searches with `net` (when `use_nnue` is on).
    fn set_net(&mut self, net: Arc<Network>) {
        self.stop_and_wait();
        self.net = net;
    }

    /// Goes back to the net built into the binary.
    pub fn use_embedded_net(&mut self) {
        self.set_net(default_net());
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Replaces the options (resizes the hash table if its size changed). Stops a running search.
    pub fn set_options(&mut self, options: EngineOptions) {
        self.stop_and_wait();
        if options.threads.max(1) != self.threads.len() {
            self.threads = SearchThreads::new(options.threads);
        }
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

    /// Where the searches' nodes went since the workers were made (a new game makes them
    /// anew), summed over the threads; waits for a running search to end.
    pub fn search_stats(&mut self) -> SearchStats {
        self.wait();
        let (tx, rx) = channel();
        for i in 0..self.threads.len() {
            let tx = tx.clone();
            let job: Job = Box::new(move |w: &mut Box<Worker>| {
                let _ = tx.send(w.stats().clone());
            });
            let _ = self.threads.send(i, job);
        }
        drop(tx);
        let mut total = SearchStats::default();
        for s in rx {
            total.add(&s);
        }
        total
    }

    /// Forget everything learnt from earlier games (hash, histories).
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.threads.reset_workers();
        self.noise_seed = random_seed();
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

    /// The hash table's entry for `pos`, if any (safe during a search: entries are atomic).
    pub fn probe(&self, pos: &Position) -> Option<HashProbe> {
        let e = self.tt.probe(pos.key())?;
        Some(HashProbe {
            best: Some(e.mv).filter(|&m| pos.is_legal(m)),
            score: crate::search::score::report(e.score),
            bound: match e.bound {
                TtBound::Exact => Bound::Exact,
                TtBound::Lower => Bound::Lower,
                TtBound::Upper => Bound::Upper,
            },
            depth: e.depth.max(0) as u32,
        })
    }

    /// Moves the next search must not play at the root (UCCI `banmoves`).
    pub fn set_banmoves(&mut self, moves: Vec<Move>) {
        self.banmoves = moves;
    }

    /// Starts a search and returns at once; reports `Info`s then exactly one `BestMove`. A
    /// move from the book is reported at once, as ElephantEye does: one `Info` at depth 0 per
    /// book move (its weight as the score), then the choice.
    pub fn go(&mut self, mut limits: Limits) {
        self.stop_and_wait();
        if let Some((moves, best)) = self.book_move(&limits) {
            for b in &moves {
                self.report_at_once(0, Score::Cp(i32::from(b.weight)), vec![b.mv]);
            }
            let mut next = self.game.position().clone();
            next.do_move(best);
            let ponder = self
                .book
                .as_ref()
                .and_then(|b| b.moves(&next).first().map(|b| b.mv));
            self.reporter.report(Report::BestMove(BestMove {
                best: Some(best),
                ponder,
                score: None,
            }));
            return;
        }
        if let Some((line, verdict)) = self.table_move(&limits) {
            let score = crate::search::score::report(table_value(verdict, 0));
            self.report_at_once(line.len() as u32, score, line.clone());
            self.reporter.report(Report::BestMove(BestMove {
                best: Some(line[0]),
                ponder: line.get(1).copied(),
                score: Some(score),
            }));
            return;
        }
        let mut noise = Noise::default();
        if self.options.limit_strength {
            let s = Strength::of_elo(self.options.elo);
            limits.nodes = Some(limits.nodes.map_or(s.nodes, |n| n.min(s.nodes)));
            noise = Noise {
                size: s.noise_cp,
                seed: self.noise_seed,
            };
        }
        self.control.reset(limits.ponder);
        let setup = Arc::new(SearchSetup {
            game: self.game.clone(),
            limits,
            banmoves: self.banmoves.clone(),
            multipv: self.options.multipv.max(1),
            move_overhead_ms: self.options.move_overhead_ms,
            move_limit: self.options.move_limit,
            start: Instant::now(),
            net: self.search_net(),
            noise,
            params: self.options.params,
            tables: self.tables.clone().filter(|_| !self.options.limit_strength),
        });
        if !self.start(Arc::clone(&setup)) {
            // The main search thread is gone (a search panicked): fresh threads take over.
            self.threads = SearchThreads::new(self.options.threads);
            self.start(setup);
        }
    }

    /// Hands the search to the main search thread; false if that thread is gone.
    fn start(&mut self, setup: Arc<SearchSetup>) -> bool {
        let helpers = self.threads.helpers();
        let reporter = Arc::clone(&self.reporter);
        let control = Arc::clone(&self.control);
        let tt = Arc::clone(&self.tt);
        let searching = Arc::clone(&self.searching);
        let (done, finished) = channel();
        searching.store(true, Ordering::SeqCst);
        let job: Job = Box::new(move |w: &mut Box<Worker>| {
            run(w, &helpers, setup, &tt, &control, &*reporter);
            searching.store(false, Ordering::SeqCst);
            let _ = done.send(());
        });
        let started = self.threads.send(0, job).is_ok();
        self.done = started.then_some(finished);
        started
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

    /// Wakes a finished pondering or infinite search waiting for `stop` or `ponderhit` (an idle
    /// thread woken only looks at its job queue again).
    fn wake(&self) {
        self.threads.main_thread().unpark();
    }

    pub fn is_searching(&self) -> bool {
        self.searching.load(Ordering::SeqCst)
    }

    /// Blocks until the running search (if any) has reported its `BestMove`.
    pub fn wait(&mut self) {
        if let Some(finished) = self.done.take()
            && finished.recv().is_err()
        {
            // The search panicked: its thread is gone, fresh threads and workers replace them.
            self.searching.store(false, Ordering::SeqCst);
            self.threads = SearchThreads::new(self.options.threads);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;
    use std::sync::mpsc::{Receiver, Sender, channel};

    struct Chan(Sender<Report>);

    impl Reporter for Chan {
        fn report(&self, r: Report) {
            let _ = self.0.send(r);
        }
    }

    /// Engine tests run one at a time: the timing tests must not share the cores with the
    /// other searches.
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn serial() -> std::sync::MutexGuard<'static, ()> {
        SERIAL.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn engine_with(multipv: usize, threads: usize) -> (Engine, Receiver<Report>) {
        let (tx, rx) = channel();
        let options = EngineOptions {
            hash_mb: 8,
            multipv,
            threads,
            ..crate::protocol::options::Settings::default().engine
        };
        let e = Engine::new(Arc::new(Chan(tx)), options);
        (e, rx)
    }

    fn engine() -> (Engine, Receiver<Report>) {
        engine_with(1, 1)
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    fn set_fen(e: &mut Engine, fen: &str) {
        e.set_game(GameRecord::new(Position::from_fen(fen).unwrap()));
    }

    /// Reads reports up to the best move; checks that nothing follows it.
    fn finish(e: &mut Engine, rx: &Receiver<Report>) -> (Vec<SearchInfo>, BestMove) {
        let mut infos = Vec::new();
        for r in rx.iter() {
            match r {
                Report::Info(i) => infos.push(i),
                Report::BestMove(b) => {
                    e.wait();
                    assert!(rx.try_recv().is_err(), "reports after the best move");
                    return (infos, b);
                }
                Report::Message(_) => {}
            }
        }
        panic!("no best move");
    }

    fn search(
        e: &mut Engine,
        rx: &Receiver<Report>,
        limits: Limits,
    ) -> (Vec<SearchInfo>, BestMove) {
        e.go(limits);
        finish(e, rx)
    }

    /// Mates found by construction (random sparse positions searched deeply), each checked below
    /// by replaying the PV, by a brute-force solver that no shorter mate exists and, up to mate
    /// in 3, that the mate is forced.
    const MATES: [(&str, i32); 15] = [
        ("9/5k3/9/9/9/7R1/8C/9/9/4K4 w - - 0 1", 1),
        ("r8/9/b4k3/9/5N3/9/9/1p7/7C1/4K4 w - - 0 1", 1),
        ("5k3/9/9/9/9/3R5/6C2/9/3CK4/9 w - - 0 1", 1),
        ("6C2/5k3/9/9/9/9/9/1N1K5/9/4R4 w - - 0 1", 2),
        ("9/P2k5/8b/9/9/5R1p1/9/9/5K3/9 w - - 0 1", 2),
        ("9/4k4/b8/9/3N5/9/8R/9/7p1/3K5 w - - 0 1", 2),
        ("3ak4/9/3a2N2/9/9/9/6N2/9/3K5/6R2 w - - 0 1", 3),
        ("3a5/9/4k3b/9/9/9/6R2/2C3N2/5K3/9 w - - 0 1", 3),
        ("9/9/3kb4/9/2b6/9/9/4C3R/5K3/9 w - - 0 1", 3),
        ("9/5k3/9/8P/9/9/7p1/5N3/4K4/9 w - - 0 1", 4),
        ("1C7/2Nk5/4ba3/9/9/9/9/9/2p6/5KR2 w - - 0 1", 4),
        ("4k4/9/1N2b4/9/2b3R2/9/9/9/3K5/6C2 w - - 0 1", 4),
        ("5ab2/5k3/4b3R/9/9/9/9/9/9/4K4 w - - 0 1", 5),
        ("5k3/9/3ab4/9/9/2C2p3/4R4/4K4/9/9 w - - 0 1", 5),
        ("3k5/9/b3b4/9/9/3N5/1R7/9/4K4/9 w - - 0 1", 4),
    ];

    /// Whether the side to move can force mate within `n` of its moves (full width, no pruning).
    fn forced_mate(pos: &mut Position, n: u32) -> bool {
        if n == 0 {
            return false;
        }
        for m in pos.legal_moves().iter().copied() {
            let undo = pos.do_move(m);
            let replies = pos.legal_moves();
            let mated = replies.is_empty()
                || (n > 1
                    && replies.iter().all(|&r| {
                        let u = pos.do_move(r);
                        let ok = forced_mate(pos, n - 1);
                        pos.undo_move(r, u);
                        ok
                    }));
            pos.undo_move(m, undo);
            if mated {
                return true;
            }
        }
        false
    }

    /// A strength-limited search stops at its strength's node budget, whatever depth it is given,
    /// and a limited engine plays legal moves.
    #[test]
    fn limited_strength_searches_within_its_node_budget() {
        use crate::search::strength::{MIN_ELO, Strength};
        let _serial = serial();
        let (mut e, rx) = engine();
        let mut options = e.options().clone();
        options.limit_strength = true;
        options.elo = MIN_ELO;
        e.set_options(options);
        let (infos, best) = search(&mut e, &rx, depth(60));
        let budget = Strength::of_elo(MIN_ELO).nodes;
        let last = infos.last().unwrap();
        assert!(last.nodes <= budget + 64, "{} nodes", last.nodes);
        assert!(last.depth < 60);
        assert!(Position::startpos().is_legal(best.best.unwrap()));
    }

    #[test]
    fn mates_in_one_to_five_are_found() {
        let _serial = serial();
        let (mut e, rx) = engine();
        for (fen, n) in MATES {
            let mut pos = Position::from_fen(fen).unwrap();
            if n <= 3 {
                assert!(forced_mate(&mut pos, n as u32), "{fen}");
            }
            assert!(
                !forced_mate(&mut pos, n as u32 - 1),
                "{fen}: a shorter mate"
            );
            set_fen(&mut e, fen);
            let (infos, best) = search(
                &mut e,
                &rx,
                Limits {
                    mate: Some(n as u32),
                    ..Limits::default()
                },
            );
            let last = infos.last().unwrap();
            assert_eq!(last.score, Score::Mate(n), "{fen}");
            // Found soon after its length, well before the search would give up (2n + 10).
            let first = infos.iter().find(|i| i.score == Score::Mate(n)).unwrap();
            assert!(
                first.depth <= 2 * n as u32 + 4,
                "{fen}: first seen at depth {}",
                first.depth
            );
            assert_eq!(best.score, Some(Score::Mate(n)), "{fen}");
            assert_eq!(best.best, Some(last.pv[0]));
            assert_eq!(last.pv.len(), 2 * n as usize - 1, "{fen}");
            for &m in &last.pv {
                assert!(pos.is_legal(m), "{fen} {m}");
                pos.do_move(m);
            }
            assert!(pos.legal_moves().is_empty(), "{fen}: the PV does not mate");
        }
    }

    #[test]
    fn no_legal_move_reports_mate_zero_and_no_best_move() {
        let _serial = serial();
        let (mut e, rx) = engine();
        for fen in [
            "2b1ka3/4a4/4b4/9/9/6p2/9/2pA1A3/1r7/3K1r3 w - - 0 1",
            // Stalemate: no check, no move (a loss in xiangqi too).
            "4k4/5R3/9/9/9/P7P/9/4B4/4A4/2BK1A3 b - - 0 1",
        ] {
            set_fen(&mut e, fen);
            let (infos, best) = search(&mut e, &rx, Limits::default());
            assert_eq!(infos.len(), 1);
            assert_eq!((infos[0].depth, infos[0].score), (0, Score::Mate(0)));
            assert_eq!(best.best, None);
        }
    }

    #[test]
    fn probe_reports_what_the_search_stored() {
        let _serial = serial();
        let (mut e, rx) = engine();
        let start = Position::startpos();
        assert_eq!(e.probe(&start), None);
        let (infos, best) = search(&mut e, &rx, depth(5));
        let p = e.probe(&start).unwrap();
        assert_eq!(p.best, best.best);
        assert!(p.depth >= 4);
        assert_eq!(
            (p.bound, p.score),
            (Bound::Exact, infos.last().unwrap().score)
        );
    }

    #[test]
    fn no_attacking_material_is_a_draw() {
        let _serial = serial();
        let (mut e, rx) = engine();
        set_fen(&mut e, "3k5/4a4/9/9/9/9/9/9/9/2B1KA3 w - - 0 1");
        let (_, best) = search(&mut e, &rx, depth(4));
        assert_eq!(best.score, Some(Score::Cp(0)));
    }

    /// Timed searches end by themselves with the last line's move; how long they take is
    /// `search::time`'s tests (on a clock they set) and `scripts/protocol-timing.py`'s figures.
    #[test]
    fn timed_searches_end_with_the_last_lines_move() {
        let _serial = serial();
        let (mut e, rx) = engine();
        for t in [200, 1000] {
            let (infos, best) = search(
                &mut e,
                &rx,
                Limits {
                    movetime_ms: Some(t),
                    ..Limits::default()
                },
            );
            assert!(e.position().is_legal(best.best.unwrap()));
            assert_eq!(infos.last().unwrap().pv[0], best.best.unwrap());
        }
        let (infos, best) = search(
            &mut e,
            &rx,
            Limits {
                clock: Some(Clock {
                    time_ms: 2_000,
                    inc_ms: 0,
                    ..Clock::default()
                }),
                ..Limits::default()
            },
        );
        assert_eq!(infos.last().unwrap().pv[0], best.best.unwrap());
    }

    /// Searches run on threads made once: every search, before and after a new game, reports
    /// from the same (non-caller) thread; a new thread count makes new threads.
    #[test]
    fn searches_run_on_parked_threads_made_once() {
        struct Ids(std::sync::Mutex<Vec<std::thread::ThreadId>>);
        impl Reporter for Ids {
            fn report(&self, r: Report) {
                if let Report::BestMove(_) = r {
                    self.0.lock().unwrap().push(std::thread::current().id());
                }
            }
        }
        let _serial = serial();
        let ids = Arc::new(Ids(std::sync::Mutex::new(Vec::new())));
        let options = crate::protocol::options::Settings::default().engine;
        let mut e = Engine::new(ids.clone(), options.clone());
        for new_game in [false, false, true, false] {
            if new_game {
                e.new_game();
            }
            e.go(depth(2));
            e.wait();
        }
        let seen = ids.0.lock().unwrap().clone();
        assert_eq!(seen.len(), 4);
        assert!(seen.iter().all(|&id| id == seen[0]), "{seen:?}");
        assert_ne!(seen[0], std::thread::current().id());
        e.set_options(EngineOptions {
            threads: 2,
            ..options
        });
        e.go(depth(2));
        e.wait();
        let after = *ids.0.lock().unwrap().last().unwrap();
        assert_ne!(after, seen[0]);
    }

    #[test]
    fn node_limit_is_nearly_exact() {
        let _serial = serial();
        let (mut e, rx) = engine();
        let (infos, _) = search(
            &mut e,
            &rx,
            Limits {
                nodes: Some(20_000),
                ..Limits::default()
            },
        );
        let nodes = infos.last().unwrap().nodes;
        assert!((20_000..=20_000 + 20_000 / 32).contains(&nodes), "{nodes}");
    }

    /// The node counts at the ends of a search's completed iterations.
    fn iteration_nodes(infos: &[SearchInfo]) -> Vec<u64> {
        let mut done: Vec<u64> = infos
            .iter()
            .filter(|i| i.bound == Bound::Exact)
            .map(|i| i.nodes)
            .collect();
        // The search's final report repeats its last iteration.
        done.dedup();
        done
    }

    #[test]
    fn soft_node_limit_ends_the_search_after_the_iteration_that_passes_it() {
        let _serial = serial();
        let (mut e, rx) = engine();
        let (soft, hard) = (5_000, 1_000_000);
        let (infos, best) = search(
            &mut e,
            &rx,
            Limits {
                nodes: Some(hard),
                soft_nodes: Some(soft),
                ..Limits::default()
            },
        );
        let done = iteration_nodes(&infos);
        let (last, earlier) = done.split_last().unwrap();
        assert!(earlier.iter().all(|&n| n < soft), "{done:?}");
        assert!((soft..hard).contains(last), "{done:?}");
        assert!(best.best.is_some());
    }

    /// The lower soft limit ends a search whose best move captures or checks (a free rook, a
    /// king in reach here), and not one whose best move is quiet (the start position).
    #[test]
    fn unquiet_soft_limit_stops_only_a_search_whose_best_move_is_not_quiet() {
        let _serial = serial();
        let (mut e, rx) = engine();
        let (unquiet, soft, hard) = (2_000, 20_000, 1_000_000);
        let limits = Limits {
            nodes: Some(hard),
            soft_nodes: Some(soft),
            soft_nodes_unquiet: Some(unquiet),
            ..Limits::default()
        };
        set_fen(&mut e, "3k5/9/9/9/9/9/9/r8/9/R3K4 w - - 0 1");
        let (infos, best) = search(&mut e, &rx, limits.clone());
        assert!(!e.position().is_quiet_with(best.best.unwrap()));
        let done = iteration_nodes(&infos);
        let (last, earlier) = done.split_last().unwrap();
        assert!(earlier.iter().all(|&n| n < unquiet), "{done:?}");
        assert!((unquiet..soft).contains(last), "{done:?}");

        e.new_game();
        e.set_game(GameRecord::new(Position::startpos()));
        let (infos, best) = search(&mut e, &rx, limits);
        assert!(e.position().is_quiet_with(best.best.unwrap()));
        let done = iteration_nodes(&infos);
        assert!(done.last().unwrap() >= &soft, "{done:?}");
    }

    /// Waits for an info of `depth` (the search has reached it), then checks no best move came.
    fn reach_depth_without_best_move(e: &Engine, rx: &Receiver<Report>, depth: u32) {
        for r in rx.iter() {
            match r {
                Report::Info(i) if i.depth >= depth => break,
                Report::BestMove(_) => panic!("best move while pondering"),
                _ => {}
            }
        }
        assert!(e.is_searching());
    }

    #[test]
    fn ponder_holds_the_best_move_until_ponderhit_or_stop() {
        let _serial = serial();
        let (mut e, rx) = engine();
        // A finished pondering search waits for ponderhit or stop.
        for release in [Engine::ponderhit, Engine::stop] {
            e.go(Limits {
                depth: Some(3),
                ponder: true,
                ..Limits::default()
            });
            reach_depth_without_best_move(&e, &rx, 3);
            release(&e);
            assert!(finish(&mut e, &rx).1.best.is_some());
        }
        // After ponderhit a timed search ends by itself (from when, `search::time` tests).
        e.go(Limits {
            movetime_ms: Some(400),
            ponder: true,
            ..Limits::default()
        });
        reach_depth_without_best_move(&e, &rx, 2);
        e.ponderhit();
        assert!(finish(&mut e, &rx).1.best.is_some());
    }

    #[test]
    fn infinite_search_ends_on_stop() {
        let _serial = serial();
        let (mut e, rx) = engine();
        e.go(Limits {
            infinite: true,
            ..Limits::default()
        });
        reach_depth_without_best_move(&e, &rx, 4);
        e.stop();
        let (_, best) = finish(&mut e, &rx);
        assert!(best.best.is_some());
    }

    #[test]
    fn banmoves_and_searchmoves_restrict_the_root() {
        let _serial = serial();
        let (mut e, rx) = engine();
        let legal = e.position().legal_moves();
        let only = legal[7];
        e.set_banmoves(legal.iter().copied().filter(|&m| m != only).collect());
        let (_, best) = search(&mut e, &rx, depth(3));
        assert_eq!(best.best, Some(only));
        e.set_game(GameRecord::new(Position::startpos()));
        let pick = vec![legal[3], legal[11]];
        let (infos, best) = search(
            &mut e,
            &rx,
            Limits {
                depth: Some(4),
                searchmoves: pick.clone(),
                ..Limits::default()
            },
        );
        assert!(pick.contains(&best.best.unwrap()));
        assert!(infos.iter().all(|i| pick.contains(&i.pv[0])));
    }

    #[test]
    fn multipv_reports_distinct_lines_best_first() {
        let _serial = serial();
        let (mut e, rx) = engine_with(3, 1);
        let (infos, best) = search(&mut e, &rx, depth(5));
        let last: Vec<&SearchInfo> = infos.iter().rev().take(3).rev().collect();
        assert_eq!(
            last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert_eq!(last[0].pv[0], best.best.unwrap());
        assert!(last[0].pv[0] != last[1].pv[0] && last[1].pv[0] != last[2].pv[0]);
        let cp = |s: Score| match s {
            Score::Cp(v) => v,
            Score::Mate(_) => panic!("no mate here"),
        };
        assert!(cp(last[0].score) >= cp(last[1].score));
        assert!(cp(last[1].score) >= cp(last[2].score));
    }

    #[test]
    fn several_threads_search_together() {
        let _serial = serial();
        let (mut e, rx) = engine_with(1, 3);
        let (infos, best) = search(&mut e, &rx, depth(7));
        assert!(e.position().is_legal(best.best.unwrap()));
        assert_eq!(infos.last().unwrap().depth, 7);
        // State persists across searches and survives a new game.
        e.new_game();
        let (_, best) = search(&mut e, &rx, depth(4));
        assert!(best.best.is_some());
    }
}
