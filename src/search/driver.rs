//! One whole search: root moves, iterative deepening with aspiration windows and MultiPV,
//! Lazy SMP helper threads sharing the table, progress reports and the final best move.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::Instant;

use crate::board::Move;
use crate::eval::nnue::network::Network;
use crate::eval::wdl::{MODEL, material};
use crate::rules::GameRecord;
use crate::search::{BestMove, Bound, Limits, Report, Reporter, Score, SearchInfo};
use crate::tt::{TranspositionTable, TtBound};

use super::MAX_PLY;
use super::control::Control;
use super::params::Params;
use super::picker::mvv_lva;
use super::score::{DECISIVE, INFINITE, MATE, report, to_tt};
use super::strength::Noise;
use super::threads::Job;
use super::time::TimeManager;
use super::worker::{SearchContext, Worker};

/// Reports every iteration for this long, then at most one per `REPORT_INTERVAL_MS`.
const REPORT_ALL_MS: u64 = 1_000;
const REPORT_INTERVAL_MS: u64 = 250;
/// Aspiration fails are reported only in searches longer than this.
const BOUND_REPORT_MS: u64 = 3_000;

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
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    /// Score in the iteration under way (`-INFINITE` when it has not beaten alpha).
    score: i32,
    /// Score from the last completed iteration.
    prev_score: i32,
    pv: Vec<Move>,
}

/// One reported line: of a completed iteration, or a bound from a failed aspiration window.
#[derive(Clone, Debug)]
struct Line {
    depth: i32,
    score: i32,
    bound: Bound,
    pv: Vec<Move>,
}

/// What every thread of one search shares, owned so that parked helper threads can hold it.
struct Shared {
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    time: TimeManager,
    node_counts: Vec<AtomicU64>,
    node_limit: u64,
    move_limit: u32,
    root_material: u32,
    setup: Arc<SearchSetup>,
}

impl Shared {
    fn context(&self) -> SearchContext<'_> {
        SearchContext {
            tt: &self.tt,
            control: &self.control,
            time: &self.time,
            node_counts: &self.node_counts,
            node_limit: self.node_limit,
            move_limit: self.move_limit,
            root_material: self.root_material,
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
    let legal = pos.legal_moves();
    if legal.is_empty() {
        wait_for_release(control, limits);
        reporter.report(Report::Info(SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: Score::Mate(0),
            bound: Bound::Exact,
            wdl: Some([0, 0, 1000]),
            nodes: 0,
            nps: 0,
            hashfull: tt.hashfull(),
            time_ms: time.elapsed_ms(),
            pv: Vec::new(),
        }));
        reporter.report(Report::BestMove(BestMove {
            best: None,
            ponder: None,
            score: Some(Score::Mate(0)),
        }));
        return 0;
    }
    let tt_move = tt.probe(pos.key()).map_or(Move::NULL, |e| e.mv);
    let mut moves: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| !setup.banmoves.contains(m))
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .collect();
    if moves.is_empty() {
        wait_for_release(control, limits);
        reporter.report(Report::BestMove(BestMove {
            best: None,
            ponder: None,
            score: None,
        }));
        return 0;
    }
    moves.sort_by_key(|&m| {
        if m == tt_move {
            i32::MIN
        } else if pos.is_capture(m) {
            -mvv_lva(pos, m)
        } else {
            0
        }
    });
    let root: Vec<RootMove> = moves
        .iter()
        .map(|&mv| RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            pv: vec![mv],
        })
        .collect();

    tt.new_search();
    let shared = Arc::new(Shared {
        tt: Arc::clone(tt),
        control: Arc::clone(control),
        node_counts: (0..=helpers.len()).map(|_| AtomicU64::new(0)).collect(),
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        move_limit: setup.move_limit,
        root_material: material(pos),
        time,
        setup: Arc::clone(&setup),
    });
    let (done, finished) = channel::<()>();
    let mut running = 0;
    for h in helpers {
        let (shared, mut root, done) = (Arc::clone(&shared), root.clone(), done.clone());
        let job: Job = Box::new(move |w: &mut Box<Worker>| {
            w.prepare(&shared.setup);
            iterate(w, &shared.context(), &mut root, &shared.setup, None);
            let _ = done.send(());
        });
        // A helper whose thread is gone (a panic) is searched without.
        running += usize::from(h.send(job).is_ok());
    }
    drop(done);
    main.prepare(&setup);
    let ctx = shared.context();
    let mut root = root;
    let lines = iterate(main, &ctx, &mut root, &setup, Some(reporter));
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
        score: Some(report(best.score)),
    }));
    nodes
}

/// A pondering or infinite search holds its result until `ponderhit` or `stop`.
fn wait_for_release(control: &Control, limits: &Limits) {
    while !control.stopped() && (control.pondering() || limits.infinite) {
        std::thread::park();
    }
}

fn info(ctx: &SearchContext, main: &Worker, index: usize, line: &Line) -> SearchInfo {
    let nodes = ctx.total_nodes();
    let ms = ctx.time.elapsed_ms();
    let score = report(line.score);
    SearchInfo {
        depth: line.depth as u32,
        seldepth: main.seldepth.max(line.depth as usize) as u32,
        multipv: index as u32 + 1,
        score,
        bound: line.bound,
        wdl: Some(match score {
            Score::Cp(cp) => MODEL.permille(cp, ctx.root_material),
            Score::Mate(m) if m > 0 => [1000, 0, 0],
            Score::Mate(_) => [0, 0, 1000],
        }),
        nodes,
        nps: nodes * 1000 / ms.max(1),
        hashfull: ctx.tt.hashfull(),
        time_ms: ms,
        pv: line.pv.clone(),
    }
}

/// Iterative deepening on one thread. The main thread (with a reporter) reports and decides
/// when to stop; helpers search until told to. Returns the lines of the last completed
/// iteration (at least depth 1, which the main thread always completes).
fn iterate(
    w: &mut Worker,
    ctx: &SearchContext,
    root: &mut [RootMove],
    setup: &SearchSetup,
    reporter: Option<&dyn Reporter>,
) -> Vec<Line> {
    let limits = &setup.limits;
    let p = &setup.params;
    let is_main = reporter.is_some();
    let multipv = if is_main {
        setup.multipv.clamp(1, root.len())
    } else {
        1
    };
    let mut max_depth = MAX_PLY as i32 - 1;
    if let Some(d) = limits.depth {
        max_depth = max_depth.min(d.max(1) as i32);
    } else if let Some(n) = limits.mate
        && limits.clock.is_none()
        && limits.movetime_ms.is_none()
        && limits.nodes.is_none()
        && !limits.infinite
    {
        // Mate search alone: give up once deep enough to have seen any mate in `n`.
        max_depth = max_depth.min(2 * n.clamp(1, 60) as i32 + 10);
    }
    let mut lines: Vec<Line> = Vec::new();
    let mut instability = 0;
    let mut last_report = 0u64;
    let first_depth = 1 + (w.id as i32 & 1);
    for depth in first_depth..=max_depth {
        w.root_depth = depth;
        for pv_idx in 0..multipv {
            let prev = root[pv_idx].prev_score;
            let mut delta = p.aspiration;
            let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < DECISIVE {
                (prev - delta, prev + delta)
            } else {
                (-INFINITE, INFINITE)
            };
            loop {
                let s = search_root(w, ctx, root, alpha, beta, depth, pv_idx);
                if w.aborted {
                    break;
                }
                let bound = if s <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (s - delta).max(-INFINITE);
                    Bound::Upper
                } else if s >= beta {
                    beta = (s + delta).min(INFINITE);
                    Bound::Lower
                } else {
                    break;
                };
                // Long searches show the fail so that a GUI sees the score moving.
                let elapsed = ctx.time.elapsed_ms();
                if let Some(reporter) = reporter
                    && elapsed >= BOUND_REPORT_MS
                    && elapsed >= last_report + REPORT_INTERVAL_MS
                {
                    last_report = elapsed;
                    let line = Line {
                        depth,
                        score: s,
                        bound,
                        pv: root[pv_idx].pv.clone(),
                    };
                    reporter.report(Report::Info(info(ctx, w, pv_idx, &line)));
                }
                delta += delta * p.aspiration_growth / 100;
                if delta > p.aspiration_full {
                    (alpha, beta) = (-INFINITE, INFINITE);
                }
            }
            if w.aborted {
                break;
            }
        }
        if w.aborted {
            break;
        }
        // Lines searched later may have outscored earlier ones (search instability).
        root[..multipv].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        w.abortable = true;
        ctx.node_counts[w.id].store(w.nodes, Ordering::Relaxed);
        let changed = lines.first().is_some_and(|l| l.pv[0] != root[0].mv);
        instability = instability / 2 + if changed { p.stability_change } else { 0 };
        for rm in root.iter_mut() {
            rm.prev_score = rm.score;
        }
        lines = root[..multipv]
            .iter()
            .map(|rm| Line {
                depth,
                score: rm.score,
                bound: Bound::Exact,
                pv: rm.pv.clone(),
            })
            .collect();
        let Some(reporter) = reporter else {
            continue;
        };
        // The root's result, for the next search's move order and for `probe`.
        ctx.tt.store(
            w.pos.key(),
            root[0].mv,
            to_tt(root[0].score, 0),
            w.evaluate(0),
            depth,
            TtBound::Exact,
        );
        let elapsed = ctx.time.elapsed_ms();
        if elapsed < REPORT_ALL_MS || elapsed >= last_report + REPORT_INTERVAL_MS {
            last_report = elapsed;
            for (i, line) in lines.iter().enumerate() {
                reporter.report(Report::Info(info(ctx, w, i, line)));
            }
        }
        let best = lines[0].score;
        let mate_found = limits
            .mate
            .is_some_and(|n| best > MATE - 2 * n.min(1000) as i32);
        let only_move = root.len() == 1 && ctx.time.uses_clock();
        let stability = (p.stability_base + instability).min(p.stability_max);
        if mate_found
            || only_move
            || ctx
                .time
                .soft_limit_reached(ctx.control, stability, Instant::now())
        {
            break;
        }
    }
    ctx.node_counts[w.id].store(w.nodes, Ordering::Relaxed);
    lines
}

/// Searches the root moves from `pv_idx` on (the earlier ones are other MultiPV lines) and
/// sorts them by score. Returns the best score, or a bound outside (alpha, beta).
fn search_root(
    w: &mut Worker,
    ctx: &SearchContext,
    root: &mut [RootMove],
    mut alpha: i32,
    beta: i32,
    depth: i32,
    pv_idx: usize,
) -> i32 {
    w.nodes += 1;
    for rm in root[pv_idx..].iter_mut() {
        rm.score = -INFINITE;
    }
    let mut best = -INFINITE;
    for (i, rm) in root.iter_mut().enumerate().skip(pv_idx) {
        let m = rm.mv;
        let (undo, check) = w.make(ctx, m, 0);
        let new_depth = depth - 1 + i32::from(check);
        let score = if i == pv_idx {
            -w.search(ctx, -beta, -alpha, new_depth, 1, true, false)
        } else {
            let s = -w.search(ctx, -alpha - 1, -alpha, new_depth, 1, true, true);
            if s > alpha && s < beta {
                -w.search(ctx, -beta, -alpha, new_depth, 1, true, false)
            } else {
                s
            }
        };
        w.unmake(m, undo);
        if w.aborted {
            return best;
        }
        if i == pv_idx || score > alpha {
            rm.score = score;
            rm.pv.clear();
            rm.pv.push(m);
            rm.pv.extend_from_slice(&w.pv[1][1..w.pv_len[1]]);
            best = best.max(score);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        } else {
            rm.score = -INFINITE;
        }
    }
    root[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, Square};
    use crate::search::Report;
    use std::sync::Mutex;

    struct Collect(Mutex<Vec<Report>>);

    /// The reports of a one-thread, single-line search of `pos` to `depth` under `move_limit`.
    fn depth_search(
        pos: Position,
        depth: u32,
        move_limit: u32,
        tt: &Arc<TranspositionTable>,
    ) -> Vec<Report> {
        noisy_search(pos, depth, move_limit, tt, Noise::default())
    }

    fn noisy_search(
        pos: Position,
        depth: u32,
        move_limit: u32,
        tt: &Arc<TranspositionTable>,
        noise: Noise,
    ) -> Vec<Report> {
        let setup = SearchSetup {
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
            noise,
            params: Params::default(),
        };
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

    /// The score of a depth-`depth` search of `fen` under `move_limit`.
    fn searched_score(fen: &str, depth: u32, move_limit: u32) -> Score {
        let tt = Arc::new(TranspositionTable::new(1));
        let pos = Position::from_fen(fen).unwrap();
        depth_search(pos, depth, move_limit, &tt)
            .iter()
            .rev()
            .find_map(|r| match r {
                Report::Info(i) => Some(i.score),
                _ => None,
            })
            .unwrap()
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
}
