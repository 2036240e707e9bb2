//! One whole search: the root moves (`root.rs`), Lazy SMP helper threads sharing the table
//! (each thread's iterative deepening is in `deepening.rs`), and the final report and best
//! move.

use std::sync::Arc;
use std::sync::mpsc::{Sender, channel};
use std::time::Instant;

use crate::board::Move;
use crate::egtb::Tablebase;
use crate::eval::nnue::network::Network;
use crate::eval::wdl::material;
use crate::rules::GameRecord;
use crate::search::{BestMove, Bound, Limits, Report, Reporter, Score, SearchInfo};
use crate::tt::TranspositionTable;

use super::control::Control;
use super::deepening::{info, iterate};
use super::params::Params;
use super::root::{hold_table_draw, root_moves};
use super::strength::Noise;
use super::threads::Job;
use super::time::TimeManager;
use super::worker::{Counts, SearchContext, Worker};

/// What one `go` searches and under which limits.
#[derive(Clone, Debug)]
pub struct SearchSetup {
    pub game: GameRecord,
    pub limits: Limits,
    pub banmoves: Vec<Move>,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub move_limit: u32,
    /// When the search was asked for: the clock runs from here, not from when the thread starts.
    pub start: Instant,
    /// The net that evaluates, `None` for the hand-written evaluation.
    pub net: Option<Arc<Network>>,
    /// Evaluation noise of a strength-limited search (size 0: none).
    pub noise: Noise,
    /// The tunable numbers of the search.
    pub params: Params,
    /// Endgame tables the search probes where they cover a position (`None`: none).
    pub tables: Option<Arc<Tablebase>>,
}

/// What every thread of one search shares, owned so that parked helper threads can hold it.
struct Shared {
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    time: TimeManager,
    counts: Vec<Counts>,
    node_limit: u64,
    move_limit: u32,
    root_material: u32,
    root_table_draw: bool,
    setup: Arc<SearchSetup>,
}

impl Shared {
    fn context(&self) -> SearchContext<'_> {
        SearchContext {
            tt: &self.tt,
            control: &self.control,
            time: &self.time,
            counts: &self.counts,
            node_limit: self.node_limit,
            move_limit: self.move_limit,
            root_material: self.root_material,
            tables: self.setup.tables.as_deref(),
            root_table_draw: self.root_table_draw,
        }
    }
}

/// Runs the search on the calling thread with `main`, handing each of `helpers` (the job
/// queues of parked search threads) a helper's iterative deepening, and reports through
/// `reporter`: infos, then exactly one best move, once every helper has stopped. Returns the
/// nodes searched.
pub fn run(
    main: &mut Worker,
    helpers: &[Sender<Job>],
    setup: Arc<SearchSetup>,
    tt: &Arc<TranspositionTable>,
    control: &Arc<Control>,
    reporter: &dyn Reporter,
) -> u64 {
    let limits = &setup.limits;
    let time = TimeManager::new(limits, setup.move_overhead_ms, setup.start, &setup.params);
    let pos = setup.game.position();
    let mut root = match root_moves(&setup, tt) {
        Ok(root) => root,
        Err(mated) => {
            wait_for_release(control, limits);
            if mated {
                reporter.report(Report::Info(mated_info(tt, &time)));
            }
            reporter.report(Report::BestMove(BestMove {
                best: None,
                ponder: None,
                score: mated.then_some(Score::Mate(0)),
            }));
            return 0;
        }
    };
    let root_table_draw = setup
        .tables
        .as_deref()
        .is_some_and(|t| hold_table_draw(t, pos, &mut root));
    if root_table_draw {
        reporter.report(Report::Message(format!(
            "endgame tables: a draw; choosing by search among the {} moves that hold it",
            root.len()
        )));
    }
    tt.new_search();
    let shared = Arc::new(Shared {
        tt: Arc::clone(tt),
        control: Arc::clone(control),
        counts: (0..=helpers.len()).map(|_| Counts::default()).collect(),
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        move_limit: setup.move_limit,
        root_material: material(pos),
        root_table_draw,
        time,
        setup: Arc::clone(&setup),
    });
    let (done, finished) = channel::<()>();
    let mut running = 0;
    for h in helpers {
        let (shared, root, done) = (Arc::clone(&shared), root.clone(), done.clone());
        let job: Job = Box::new(move |w: &mut Box<Worker>| {
            w.prepare(&shared.setup);
            iterate(w, &shared.context(), root, &shared.setup, None);
            let _ = done.send(());
        });
        // A helper whose thread is gone (a panic) is searched without.
        running += usize::from(h.send(job).is_ok());
    }
    drop(done);
    main.prepare(&setup);
    let ctx = shared.context();
    let lines = iterate(main, &ctx, root, &setup, Some(reporter));
    wait_for_release(control, limits);
    control.stop();
    for _ in 0..running {
        if finished.recv().is_err() {
            break;
        }
    }
    let nodes = ctx.total_nodes();
    let best = &lines[0];
    for (i, line) in lines.iter().enumerate() {
        reporter.report(Report::Info(info(&ctx, main, i, line)));
    }
    let ponder = best.pv.get(1).copied().or_else(|| {
        let mut p = pos.clone();
        p.do_move(best.pv[0]);
        tt.probe(p.key()).map(|e| e.mv).filter(|&m| p.is_legal(m))
    });
    reporter.report(Report::BestMove(BestMove {
        best: Some(best.pv[0]),
        ponder,
        score: Some(ctx.reported(best.score)),
    }));
    nodes
}

/// The one info of a search with no legal move: mated (a stalemate loses too).
fn mated_info(tt: &TranspositionTable, time: &TimeManager) -> SearchInfo {
    SearchInfo {
        depth: 0,
        seldepth: 0,
        multipv: 1,
        score: Score::Mate(0),
        bound: Bound::Exact,
        wdl: Some([0, 0, 1000]),
        nodes: 0,
        nps: 0,
        tbhits: None,
        hashfull: tt.hashfull(),
        time_ms: time.elapsed_ms(),
        pv: Vec::new(),
    }
}

/// A pondering or infinite search holds its result until `ponderhit` or `stop`.
fn wait_for_release(control: &Control, limits: &Limits) {
    while !control.stopped() && (control.pondering() || limits.infinite) {
        std::thread::park();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, Square};
    use crate::search::Report;
    use crate::search::score::MATE;
    use crate::tt::TtBound;
    use std::sync::Mutex;

    struct Collect(Mutex<Vec<Report>>);

    /// A one-thread, single-line search of `pos` to `depth` under `move_limit`.
    fn depth_setup(pos: Position, depth: u32, move_limit: u32) -> SearchSetup {
        SearchSetup {
            game: GameRecord::new(pos),
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            banmoves: Vec::new(),
            multipv: 1,
            move_overhead_ms: 0,
            move_limit,
            start: Instant::now(),
            net: None,
            noise: Noise::default(),
            params: Params::default(),
            tables: None,
        }
    }

    /// The reports of a one-thread search.
    fn search(setup: SearchSetup, tt: &Arc<TranspositionTable>) -> Vec<Report> {
        let reports = Collect(Mutex::new(Vec::new()));
        let control = Arc::new(Control::default());
        run(
            &mut Worker::new(0),
            &[],
            Arc::new(setup),
            tt,
            &control,
            &reports,
        );
        reports.0.into_inner().unwrap()
    }

    fn depth_search(
        pos: Position,
        depth: u32,
        move_limit: u32,
        tt: &Arc<TranspositionTable>,
    ) -> Vec<Report> {
        search(depth_setup(pos, depth, move_limit), tt)
    }

    fn noisy_search(
        pos: Position,
        depth: u32,
        move_limit: u32,
        tt: &Arc<TranspositionTable>,
        noise: Noise,
    ) -> Vec<Report> {
        let setup = SearchSetup {
            noise,
            ..depth_setup(pos, depth, move_limit)
        };
        search(setup, tt)
    }

    impl Reporter for Collect {
        fn report(&self, r: Report) {
            self.0.lock().unwrap().push(r);
        }
    }

    fn best_move(reports: &[Report]) -> Move {
        match reports.last() {
            Some(Report::BestMove(b)) => b.best.expect("a move"),
            other => panic!("no best move: {other:?}"),
        }
    }

    /// The strength limit's noise: one seed always plays the same, other seeds play otherwise.
    #[test]
    fn evaluation_noise_varies_the_move_by_seed_only() {
        let search = |seed| {
            let noise = Noise { size: 400, seed };
            let tt = Arc::new(TranspositionTable::new(1));
            best_move(&noisy_search(Position::startpos(), 3, 0, &tt, noise))
        };
        let moves: Vec<Move> = (1..=8).map(search).collect();
        assert_eq!(moves[0], search(1));
        assert!(moves.iter().any(|&m| m != moves[0]), "{moves:?}");
        let tt = Arc::new(TranspositionTable::new(1));
        let quiet = best_move(&depth_search(Position::startpos(), 3, 0, &tt));
        let tt = Arc::new(TranspositionTable::new(1));
        let zero = Noise { size: 0, seed: 5 };
        assert_eq!(
            best_move(&noisy_search(Position::startpos(), 3, 0, &tt, zero)),
            quiet
        );
    }

    /// Table entries with moves that are illegal where they are read (as after a key collision)
    /// must never be played.
    #[test]
    fn garbage_hash_moves_are_never_played() {
        let tt = Arc::new(TranspositionTable::new(1));
        let pos = Position::startpos();
        // Fill the table for the root and every child with moves illegal there.
        let junk = [
            Move::new(Square::new(0, 0), Square::new(0, 9)),
            Move::new(Square::new(4, 9), Square::new(4, 8)),
            Move::new(Square::new(1, 2), Square::new(1, 9)),
        ];
        let mut keys = vec![pos.key()];
        for m in pos.legal_moves().iter() {
            keys.push(pos.key_after(*m));
        }
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, junk[i % junk.len()], 0, 0, 20, TtBound::Lower);
        }
        let reports = depth_search(pos.clone(), 4, 120, &tt);
        for r in &reports {
            if let Report::Info(i) = r {
                let mut p = pos.clone();
                for &m in &i.pv {
                    assert!(p.is_legal(m), "illegal {m} in PV {:?}", i.pv);
                    p.do_move(m);
                }
            }
        }
        match reports.last() {
            Some(Report::BestMove(b)) => assert!(pos.is_legal(b.best.unwrap())),
            other => panic!("{other:?}"),
        }
    }

    /// The last search report's line.
    fn last_info(reports: &[Report]) -> &SearchInfo {
        reports
            .iter()
            .rev()
            .find_map(|r| match r {
                Report::Info(i) => Some(i),
                _ => None,
            })
            .unwrap()
    }

    /// The score of a depth-`depth` search of `fen` under `move_limit`.
    fn searched_score(fen: &str, depth: u32, move_limit: u32) -> Score {
        let tt = Arc::new(TranspositionTable::new(1));
        let pos = Position::from_fen(fen).unwrap();
        last_info(&depth_search(pos, depth, move_limit, &tt)).score
    }

    /// Each root move keeps the nodes its searches took: together they are all the main
    /// thread's nodes but the root's own visits (one per iteration and re-search).
    #[test]
    fn root_moves_keep_the_nodes_their_searches_took() {
        let depth = 9;
        let mut w = Worker::new(0);
        run(
            &mut w,
            &[],
            Arc::new(depth_setup(Position::startpos(), depth, 0)),
            &Arc::new(TranspositionTable::new(1)),
            &Arc::new(Control::default()),
            &Collect(Mutex::new(Vec::new())),
        );
        let spent: u64 = w.root.iter().map(|rm| rm.nodes).sum();
        let root_visits = w.nodes - spent;
        assert!(
            (u64::from(depth)..=u64::from(depth) * 8).contains(&root_visits),
            "{} nodes, {spent} under the root moves",
            w.nodes
        );
        assert!(w.root.iter().all(|rm| rm.nodes > 0));
    }

    /// Each option on trial reaches the search: turned on, it changes the nodes of a search.
    #[test]
    fn every_trial_option_changes_the_search() {
        let nodes = |params: Params| {
            let setup = SearchSetup {
                params,
                ..depth_setup(Position::startpos(), 11, 0)
            };
            last_info(&search(setup, &Arc::new(TranspositionTable::new(1)))).nodes
        };
        let base = nodes(Params::default());
        let d = Params::default;
        for (name, p) in [
            (
                "qs_checks",
                Params {
                    qs_checks: 1,
                    ..d()
                },
            ),
            (
                "capture_history_percent",
                Params {
                    capture_history_percent: 100,
                    ..d()
                },
            ),
            (
                "negext_cut",
                Params {
                    negext_cut: 2,
                    negext_low: 1,
                    ..d()
                },
            ),
            (
                "eval_history_per_cp",
                Params {
                    eval_history_per_cp: 16,
                    ..d()
                },
            ),
            (
                "cont_history_ply4",
                Params {
                    cont_history_ply4: 1,
                    ..d()
                },
            ),
            ("pv_iir", Params { pv_iir: 3, ..d() }),
            (
                "corr_moves_percent",
                Params {
                    corr_moves_percent: 100,
                    ..d()
                },
            ),
            (
                "iir_skip_all",
                Params {
                    iir_skip_all: 1,
                    ..d()
                },
            ),
            (
                "hindsight_reduction",
                Params {
                    hindsight_reduction: 3,
                    ..d()
                },
            ),
            (
                "lmr_deeper_margin",
                Params {
                    lmr_deeper_margin: 35,
                    ..d()
                },
            ),
            (
                "aspiration_fail_high_plies",
                Params {
                    aspiration_fail_high_plies: 1,
                    ..d()
                },
            ),
            (
                "see_spare_checks",
                Params {
                    see_spare_checks: 1,
                    ..d()
                },
            ),
        ] {
            assert_ne!(nodes(p), base, "{name}");
        }
    }

    /// Quiescence's quiet checks see at depth 1 a mate that the opponent threatens with a
    /// quiet move; captures alone do not.
    #[test]
    fn quiet_checks_in_quiescence_see_a_threatened_mate() {
        // Nothing stops a7e7: the rook on d8 holds the d-file, the facing kings the f-file.
        let pos = Position::from_fen("5k3/3r5/r8/9/9/9/8P/9/9/4K4 w - - 0 1").unwrap();
        let score = |qs_checks| {
            let setup = SearchSetup {
                params: Params {
                    qs_checks,
                    ..Params::default()
                },
                ..depth_setup(pos.clone(), 1, 0)
            };
            last_info(&search(setup, &Arc::new(TranspositionTable::new(1)))).score
        };
        assert_eq!(score(1), Score::Mate(-1));
        assert!(matches!(score(0), Score::Cp(_)), "{:?}", score(0));
    }

    /// Quiescence tries a capture that loses by SEE where it checks: here the rook's capture on
    /// f9 mates (the king may not take it into the facing kings, the advisor on e8 is pinned by
    /// the cannon), so the quiet rook move that threatens it mates in 2 in spite of a null move.
    #[test]
    fn quiescence_sees_a_losing_capture_that_mates() {
        let fen = "2r1kab2/4a4/2c1b4/p1R6/3R5/4C4/Pr2P2p1/1n1AB4/4A4/5KB2 w - - 0 1";
        assert_eq!(searched_score(fen, 8, 0), Score::Mate(2));
    }

    /// A lead that has gone long without a capture is worth less as the move limit nears, and
    /// only when there is a move limit.
    #[test]
    fn a_lead_fades_as_the_move_limit_nears() {
        let rook_up = |clock: u32| format!("3ak4/4a4/9/9/9/9/9/9/R8/3K5 w - - {clock} 1");
        let cp = |s: Score| match s {
            Score::Cp(v) => v,
            other => panic!("{other:?}"),
        };
        let fresh = cp(searched_score(&rook_up(0), 3, 100));
        let late = cp(searched_score(&rook_up(80), 3, 100));
        assert!(fresh > 300, "{fresh}");
        assert!(late < fresh * 7 / 10, "{late} against {fresh}");
        assert!(late > 0, "{late}");
        let unlimited = |clock| cp(searched_score(&rook_up(clock), 3, 0));
        assert_eq!(unlimited(0), unlimited(80));
    }

    /// The table keeps evaluations unfaded (its key leaves out the plies without capture):
    /// one kept at a fresh clock reads, at a late clock of the same position, as that node's
    /// own faded evaluation.
    #[test]
    fn the_tables_evaluation_fades_by_the_reading_nodes_clock() {
        let at = |clock: u32| {
            let fen = format!("3ak4/4a4/9/9/9/9/9/9/R8/3K5 w - - {clock} 1");
            let mut w = Worker::new(0);
            w.prepare(&depth_setup(Position::from_fen(&fen).unwrap(), 1, 100));
            w
        };
        let (mut fresh, mut late) = (at(0), at(80));
        assert_eq!(fresh.pos.key(), late.pos.key());
        let tt = TranspositionTable::new(1);
        let (kept, fresh_eval) = fresh.static_evals(None, false, 0);
        tt.store(fresh.pos.key(), Move::NULL, 0, kept, 1, TtBound::Upper);
        let entry = tt.probe(late.pos.key());
        assert!(entry.is_some_and(|e| e.eval == kept));
        let late_eval = late.static_evals(None, false, 0).1;
        assert_eq!(late.static_evals(entry, false, 0), (kept, late_eval));
        assert!(
            late_eval.abs() < fresh_eval.abs() * 7 / 10,
            "{late_eval} {fresh_eval}"
        );
    }

    /// MultiPV: each line searches the root moves the lines before it left out, so the final
    /// lines are distinct moves, best first, and the first is the move played.
    #[test]
    fn multipv_lines_are_distinct_root_moves_best_first() {
        let order = |s: Score| match s {
            Score::Cp(v) => v,
            Score::Mate(m) if m > 0 => MATE - m,
            Score::Mate(m) => -MATE - m,
        };
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            // Red mates or stalemates (a loss too) in many ways.
            "3k5/7R1/9/9/9/9/9/9/9/4K3R w - - 0 1",
        ] {
            let tt = Arc::new(TranspositionTable::new(1));
            let setup = SearchSetup {
                multipv: 4,
                ..depth_setup(Position::from_fen(fen).unwrap(), 5, 0)
            };
            let reports = search(setup, &tt);
            let infos: Vec<&SearchInfo> = reports
                .iter()
                .filter_map(|r| match r {
                    Report::Info(i) => Some(i),
                    _ => None,
                })
                .collect();
            let lines = &infos[infos.len() - 4..];
            assert!(
                lines
                    .iter()
                    .all(|i| i.depth == 5 && i.bound == Bound::Exact)
            );
            assert_eq!(
                lines.iter().map(|i| i.multipv).collect::<Vec<_>>(),
                [1, 2, 3, 4]
            );
            let firsts: Vec<Move> = lines.iter().map(|i| i.pv[0]).collect();
            for (k, m) in firsts.iter().enumerate() {
                assert!(!firsts[..k].contains(m), "{firsts:?}");
            }
            assert!(
                lines
                    .windows(2)
                    .all(|w| order(w[0].score) >= order(w[1].score)),
                "{:?}",
                lines.iter().map(|i| i.score).collect::<Vec<_>>()
            );
            assert_eq!(best_move(&reports), firsts[0]);
        }
    }
}
