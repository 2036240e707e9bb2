//! One thread's iterative deepening: depth after depth, each MultiPV line in an aspiration
//! window around its last score (the root's node is in `root.rs`); the main thread
//! reports and decides when to stop, helpers search until told to.

use std::time::Instant;

use crate::board::Move;
use crate::eval::wdl::MODEL;
use crate::search::{Bound, Limits, Report, Reporter, Score, SearchInfo};
use crate::tt::TtBound;

use super::MAX_PLY;
use super::driver::SearchSetup;
use super::root::RootMove;
use super::score::{DECISIVE, INFINITE, MATE, to_tt};
use super::time::effort_scaled;
use super::worker::{SearchContext, Worker};

/// Reports every iteration for this long, then at most one per `REPORT_INTERVAL_MS`.
const REPORT_ALL_MS: u64 = 1_000;
const REPORT_INTERVAL_MS: u64 = 250;
/// Aspiration fails are reported only in searches longer than this.
const BOUND_REPORT_MS: u64 = 3_000;

/// One reported line: of a completed iteration, or a bound from a failed aspiration window.
#[derive(Clone, Debug)]
pub(super) struct Line {
    pub(super) depth: i32,
    pub(super) score: i32,
    pub(super) bound: Bound,
    pub(super) pv: Vec<Move>,
}

pub(super) fn info(ctx: &SearchContext, main: &Worker, index: usize, line: &Line) -> SearchInfo {
    let nodes = ctx.total_nodes();
    let ms = ctx.time.elapsed_ms();
    let score = ctx.reported(line.score);
    SearchInfo {
        depth: line.depth as u32,
        seldepth: main.seldepth.max(line.depth as usize) as u32,
        multipv: index as u32 + 1,
        score,
        bound: line.bound,
        wdl: Some(match score {
            _ if ctx.holds_table_draw(line.score) => [0, 1000, 0],
            Score::Cp(cp) => MODEL.permille(cp, ctx.root_material),
            Score::Mate(m) if m > 0 => [1000, 0, 0],
            Score::Mate(_) => [0, 0, 1000],
        }),
        nodes,
        nps: nodes * 1000 / ms.max(1),
        tbhits: ctx.tables.map(|_| ctx.total_tb_hits()),
        hashfull: ctx.tt.hashfull(),
        time_ms: ms,
        pv: line.pv.clone(),
    }
}

/// The deepest iteration the limits allow.
fn max_depth(limits: &Limits) -> i32 {
    let deepest = MAX_PLY as i32 - 1;
    if let Some(d) = limits.depth {
        deepest.min(d.max(1) as i32)
    } else if let Some(n) = limits.mate
        && limits.clock.is_none()
        && limits.movetime_ms.is_none()
        && limits.nodes.is_none()
        && !limits.infinite
    {
        // Mate search alone: give up once deep enough to have seen any mate in `n`.
        deepest.min(2 * n.clamp(1, 60) as i32 + 10)
    } else {
        deepest
    }
}

/// Iterative deepening on one thread. The main thread (with a reporter) reports and decides
/// when to stop; helpers search until told to. Returns the lines of the last completed
/// iteration (at least depth 1, which the main thread always completes).
pub(super) fn iterate(
    w: &mut Worker,
    ctx: &SearchContext,
    root: Vec<RootMove>,
    setup: &SearchSetup,
    reporter: Option<&dyn Reporter>,
) -> Vec<Line> {
    w.root = root;
    let multipv = if reporter.is_some() {
        setup.multipv.clamp(1, w.root.len())
    } else {
        1
    };
    let mut deepening = Deepening {
        w,
        ctx,
        setup,
        reporter,
        last_report: 0,
        instability: 0,
    };
    let mut lines: Vec<Line> = Vec::new();
    let first_depth = 1 + (deepening.w.id as i32 & 1);
    for depth in first_depth..=max_depth(&setup.limits) {
        deepening.w.root_depth = depth;
        let nodes_before = deepening.w.nodes;
        for pv_idx in 0..multipv {
            deepening.aspiration(depth, pv_idx);
            if deepening.w.aborted {
                break;
            }
        }
        if deepening.w.aborted {
            break;
        }
        let nodes = deepening.w.nodes - nodes_before;
        deepening.w.stats.iteration(depth, nodes);
        lines = deepening.complete(depth, multipv, &lines);
        if deepening.finished(&lines, depth) {
            break;
        }
    }
    deepening.w.publish(ctx);
    lines
}

/// One thread's iterative deepening under way.
struct Deepening<'a, 'c> {
    w: &'a mut Worker,
    ctx: &'a SearchContext<'c>,
    setup: &'a SearchSetup,
    /// The main thread's; helpers have none.
    reporter: Option<&'a dyn Reporter>,
    /// When the last infos went out, ms into the search.
    last_report: u64,
    /// How often the best move changed lately, decaying: more time while it is high.
    instability: i32,
}

impl Deepening<'_, '_> {
    /// Searches line `pv_idx` at `depth` in a window around its last score, widening the window
    /// on the side that failed until the score lands inside (or the search is aborted).
    fn aspiration(&mut self, depth: i32, pv_idx: usize) {
        let p = &self.setup.params;
        let prev = self.w.root[pv_idx].prev_score;
        let mut delta = p.aspiration;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < DECISIVE {
            (prev - delta, prev + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        self.w.pv_idx = pv_idx;
        let mut fail_highs = 0;
        loop {
            let plies = (depth - fail_highs * p.aspiration_fail_high_plies).max(1);
            let s = self.w.search_root(self.ctx, alpha, beta, plies);
            if self.w.aborted {
                return;
            }
            let bound = if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INFINITE);
                fail_highs = 0;
                Bound::Upper
            } else if s >= beta {
                beta = (s + delta).min(INFINITE);
                fail_highs += 1;
                Bound::Lower
            } else {
                return;
            };
            self.report_bound(depth, pv_idx, s, bound);
            delta += delta * p.aspiration_growth / 100;
            if delta > p.aspiration_full {
                (alpha, beta) = (-INFINITE, INFINITE);
            }
        }
    }

    /// Long searches show an aspiration fail so that a GUI sees the score moving.
    fn report_bound(&mut self, depth: i32, pv_idx: usize, s: i32, bound: Bound) {
        let elapsed = self.ctx.time.elapsed_ms();
        if let Some(reporter) = self.reporter
            && elapsed >= BOUND_REPORT_MS
            && elapsed >= self.last_report + REPORT_INTERVAL_MS
        {
            self.last_report = elapsed;
            let line = Line {
                depth,
                score: s,
                bound,
                pv: self.w.root[pv_idx].pv.clone(),
            };
            reporter.report(Report::Info(info(self.ctx, self.w, pv_idx, &line)));
        }
    }

    /// Closes a completed iteration: the lines in score order, the best move's stability
    /// updated. Returns the iteration's lines.
    fn complete(&mut self, depth: i32, multipv: usize, previous: &[Line]) -> Vec<Line> {
        let root = &mut self.w.root;
        // Lines searched later may have outscored earlier ones (search instability).
        root[..multipv].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        let changed = previous.first().is_some_and(|l| l.pv[0] != root[0].mv);
        let change = if changed {
            self.setup.params.stability_change
        } else {
            0
        };
        self.instability = self.instability / 2 + change;
        for rm in root.iter_mut() {
            rm.prev_score = rm.score;
        }
        self.w.abortable = true;
        self.w.publish(self.ctx);
        self.w.root[..multipv]
            .iter()
            .map(|rm| Line {
                depth,
                score: rm.score,
                bound: Bound::Exact,
                pv: rm.pv.clone(),
            })
            .collect()
    }

    /// The main thread, after a completed iteration: stores the root's result, reports the
    /// lines (all of them early, then throttled) and says whether to stop: a mate asked for
    /// is found, the only move is known, or a soft limit (time or nodes, or the lower node
    /// limit of a position whose best move so far is not quiet) is reached.
    fn finished(&mut self, lines: &[Line], depth: i32) -> bool {
        let Some(reporter) = self.reporter else {
            return false;
        };
        let (ctx, p, limits) = (self.ctx, &self.setup.params, &self.setup.limits);
        // The root's result, for the next search's move order and for `probe`.
        let eval = self.w.unfaded_eval(0);
        let root = &self.w.root;
        ctx.tt.store(
            self.w.pos.key(),
            root[0].mv,
            to_tt(root[0].score, 0),
            eval,
            depth,
            TtBound::Exact,
        );
        let elapsed = ctx.time.elapsed_ms();
        if elapsed < REPORT_ALL_MS || elapsed >= self.last_report + REPORT_INTERVAL_MS {
            self.last_report = elapsed;
            for (i, line) in lines.iter().enumerate() {
                reporter.report(Report::Info(info(ctx, self.w, i, line)));
            }
        }
        let best = lines[0].score;
        let mate_found = limits
            .mate
            .is_some_and(|n| best > MATE - 2 * n.min(1000) as i32);
        let only_move = root.len() == 1 && ctx.time.uses_clock();
        let stability = effort_scaled(
            (p.stability_base + self.instability).min(p.stability_max),
            root[0].nodes * 100 / self.w.nodes.max(1),
            depth,
            p,
        );
        mate_found
            || only_move
            || limits.soft_nodes.is_some_and(|n| ctx.total_nodes() >= n)
            || limits
                .soft_nodes_unquiet
                .is_some_and(|n| ctx.total_nodes() >= n && !self.w.pos.is_quiet_with(root[0].mv))
            || ctx
                .time
                .soft_limit_reached(ctx.control, stability, Instant::now())
    }
}
