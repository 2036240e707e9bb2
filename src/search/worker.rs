//! One search thread's state: the position with its frames per ply (evaluation sums, the
//! net's accumulators, the principal variation), histories, node counting and polling, and
//! making and unmaking moves. The node function is in `node.rs`, quiescence in
//! `quiescence.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::board::{Color, Move, PieceType, Position, Undo};
use crate::egtb::Tablebase;
use crate::eval::fade::Fade;
use crate::eval::nnue::accumulator::{AccumulatorStack, RefreshCache};
use crate::eval::nnue::network::Network;
use crate::eval::nnue::simd::Kernel;
use crate::eval::{EvalState, nnue};
use crate::rules::{GameRecord, SearchHistory};
use crate::search::Score;
use crate::tt::{TranspositionTable, TtEntry};

use super::MAX_PLY;
use super::control::Control;
use super::correction::Correction;
use super::driver::SearchSetup;
use super::history::{ContRows, Histories, cont_row, structure_row};
use super::params::Params;
use super::root::RootMove;
use super::score::{DECISIVE, NO_EVAL, report, rule_value};
use super::stats::SearchStats;
use super::strength::{Noise, noise};
use super::time::TimeManager;

/// Nodes between two looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 2048;

/// Late move reductions by depth and move number.
type Reductions = [[u8; 64]; 64];

fn reductions(p: &Params) -> Reductions {
    let (base, divisor) = (
        f64::from(p.lmr_base) / 100.0,
        f64::from(p.lmr_divisor) / 100.0,
    );
    let mut lmr = [[0u8; 64]; 64];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (n as f64).ln() / divisor) as u8;
        }
    }
    lmr
}

/// Everything a search thread shares with the others for one `go`.
pub struct SearchContext<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    pub time: &'a TimeManager,
    /// What each thread publishes as it polls.
    pub counts: &'a [Counts],
    /// Stop after this many nodes (all threads together), `u64::MAX` for no limit.
    pub node_limit: u64,
    /// Plies without capture before a draw, 0 = off.
    pub move_limit: u32,
    /// Both sides' material at the root, for the win/draw/loss estimate of reported scores.
    pub root_material: u32,
    /// Endgame tables to probe, if any.
    pub tables: Option<&'a Tablebase>,
    /// The tables call the root a draw (`root::hold_table_draw`): their draws below it are
    /// not scores, and what the search reports short of a mate is that draw.
    pub root_table_draw: bool,
}

/// One thread's published counts of its current search.
#[derive(Default)]
pub struct Counts {
    pub nodes: AtomicU64,
    /// Positions the endgame tables answered.
    pub tb_hits: AtomicU64,
}

impl SearchContext<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.counts
            .iter()
            .map(|c| c.nodes.load(Ordering::Relaxed))
            .sum()
    }

    /// A root score as reported: the tables' draw where they call the root one, unless the
    /// search found a mate (by the rules on repetition, which the tables leave out).
    pub fn reported(&self, score: i32) -> Score {
        if self.holds_table_draw(score) {
            Score::Cp(0)
        } else {
            report(score)
        }
    }

    /// Whether the tables' draw stands for this root score.
    pub fn holds_table_draw(&self, score: i32) -> bool {
        self.root_table_draw && score.abs() < DECISIVE
    }

    pub fn total_tb_hits(&self) -> u64 {
        self.counts
            .iter()
            .map(|c| c.tb_hits.load(Ordering::Relaxed))
            .sum()
    }
}

#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) static_eval: i32,
    pub(super) in_check: bool,
    /// Move played from this ply (null for a null move).
    pub(super) mv: Move,
    /// Move left out by a singular-extension search of this node (null otherwise).
    pub(super) excluded: Move,
    /// Continuation-history row of `mv` (0 for a null move).
    cont_row: usize,
    /// A null move's verification search is under way at this node: no second pass.
    pub(super) verifying_null: bool,
    /// History of `mv` where the main search's move loop played it as a quiet move, else 0.
    pub(super) history: i32,
    /// Moves the main search's move loop had searched from this ply before `mv`, else 0.
    pub(super) searched_before: u16,
    /// Plies by which the move loop's reduced search of `mv` is under way, else 0 (set and
    /// cleared around that search alone).
    pub(super) reduction: i32,
}

pub struct Worker {
    pub(super) id: usize,
    pub(super) pos: Position,
    pub(super) rules: SearchHistory,
    pub(super) hist: Histories,
    pub(super) corr: Correction,
    pub(super) stack: [Frame; MAX_PLY + 2],
    /// Evaluation sums of the position at each ply.
    evals: [EvalState; MAX_PLY + 2],
    /// The net's feature sums at each ply (when a net evaluates), computed when asked for.
    accs: AccumulatorStack,
    /// Sums of the king-bucketed views by frame, for the king's moves.
    refresh: RefreshCache,
    /// The net that evaluates, `None` for the hand-written evaluation.
    net: Option<Arc<Network>>,
    kernel: Kernel,
    pub(super) pv: [[Move; MAX_PLY + 1]; MAX_PLY + 1],
    pub(super) pv_len: [usize; MAX_PLY + 1],
    pub(super) lmr: Reductions,
    /// The tunable numbers this search runs with (`lmr` is computed from them).
    pub(super) params: Params,
    pub(super) nodes: u64,
    /// Positions of this search the endgame tables answered.
    pub(super) tb_hits: u64,
    pub(super) seldepth: usize,
    next_poll: u64,
    /// Set once a search has been told to stop; every node then returns at once.
    pub(super) aborted: bool,
    /// Whether this search may be aborted yet (the main thread first completes depth 1).
    pub(super) abortable: bool,
    pub(super) root_depth: i32,
    /// The root's moves, best first after each iteration.
    pub(super) root: Vec<RootMove>,
    /// The MultiPV line under way: the root moves before it are the better lines.
    pub(super) pv_idx: usize,
    /// The move-limit fading of the evaluation.
    fade: Fade,
    /// A strength-limited search's evaluation noise.
    noise: Noise,
    /// Where this worker's nodes went, over its life (`chuhan bench --stats`).
    pub(super) stats: SearchStats,
}

impl Worker {
    pub fn new(id: usize) -> Box<Worker> {
        let params = Params::default();
        let frame = Frame {
            static_eval: NO_EVAL,
            in_check: false,
            mv: Move::NULL,
            excluded: Move::NULL,
            cont_row: 0,
            verifying_null: false,
            history: 0,
            searched_before: 0,
            reduction: 0,
        };
        let start = GameRecord::new(Position::startpos());
        Box::new(Worker {
            id,
            rules: SearchHistory::from_record(&start),
            pos: start.position().clone(),
            hist: Histories::new(),
            corr: Correction::new(),
            stack: [frame; MAX_PLY + 2],
            evals: [EvalState::new(start.position()); MAX_PLY + 2],
            accs: AccumulatorStack::new(MAX_PLY + 2),
            refresh: RefreshCache::default(),
            net: None,
            kernel: Kernel::best(),
            pv: [[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            lmr: reductions(&params),
            params,
            nodes: 0,
            tb_hits: 0,
            seldepth: 0,
            next_poll: 0,
            aborted: false,
            abortable: true,
            root_depth: 0,
            root: Vec::new(),
            pv_idx: 0,
            fade: Fade::default(),
            noise: Noise::default(),
            stats: SearchStats::default(),
        })
    }

    /// Where this worker's nodes went since it was made.
    pub fn stats(&self) -> &SearchStats {
        &self.stats
    }

    /// Ready to search the current position of the setup's game: its move limit, net and
    /// evaluation noise.
    pub fn prepare(&mut self, setup: &SearchSetup) {
        let game = &setup.game;
        self.fade = Fade::for_move_limit(setup.move_limit);
        self.noise = setup.noise;
        // A mate search is the search's own business, like its give-up depth (deepening.rs).
        let params = if setup.limits.mate.is_some() {
            setup.params.for_mate_search()
        } else {
            setup.params
        };
        if params != self.params {
            self.params = params;
            self.lmr = reductions(&self.params);
        }
        self.pos = game.position().clone();
        self.rules = SearchHistory::from_record(game);
        self.hist.new_search();
        self.stack[0].in_check = self.pos.in_check();
        self.evals[0] = EvalState::new(&self.pos);
        self.net = setup.net.clone();
        if let Some(net) = self.net.as_deref() {
            self.accs.set_root(self.kernel, net, &self.pos);
            self.refresh.reset(net);
        }
        self.stack[0].mv = Move::NULL;
        self.nodes = 0;
        self.tb_hits = 0;
        self.seldepth = 0;
        self.next_poll = 0;
        self.aborted = false;
        self.abortable = self.id != 0;
    }

    /// Publishes this thread's counts for the others and the reports.
    pub(super) fn publish(&self, ctx: &SearchContext) {
        let c = &ctx.counts[self.id];
        c.nodes.store(self.nodes, Ordering::Relaxed);
        c.tb_hits.store(self.tb_hits, Ordering::Relaxed);
    }

    /// Counts a node and, every `POLL_INTERVAL` nodes, looks at the stop flag and (main thread)
    /// the limits. Returns whether the search must unwind.
    #[inline(always)]
    pub(super) fn visit(&mut self, ctx: &SearchContext, ply: usize) -> bool {
        self.nodes += 1;
        if ply + 1 > self.seldepth {
            self.seldepth = ply + 1;
        }
        if self.nodes >= self.next_poll {
            self.poll(ctx);
        }
        self.aborted
    }

    #[cold]
    fn poll(&mut self, ctx: &SearchContext) {
        let interval = POLL_INTERVAL.min(ctx.node_limit / 64 + 1);
        self.next_poll = self.nodes + interval;
        self.publish(ctx);
        if !self.abortable {
            return;
        }
        if self.id == 0
            && (ctx.time.hard_limit_reached(ctx.control, Instant::now())
                || ctx.total_nodes() >= ctx.node_limit)
        {
            ctx.control.stop();
        }
        if ctx.control.stopped() {
            self.aborted = true;
        }
    }

    /// Whether the side to move has pieces enough that passing is unlikely to be its best move
    /// (guards null-move pruning against zugzwang).
    pub(super) fn can_pass(&self) -> bool {
        let us = self.pos.side_to_move();
        self.pos.count(us, PieceType::Rook) > 0
            || self.pos.count(us, PieceType::Horse) + self.pos.count(us, PieceType::Cannon) >= 2
    }

    /// The rules' verdict on the position, or a draw when neither side has a piece that can
    /// cross the river.
    #[inline(always)]
    pub(super) fn decided(&self, ply: usize) -> Option<i32> {
        if let Some(r) = self.rules.judge(&self.pos) {
            return Some(rule_value(r, ply));
        }
        let drawn = !self.pos.has_attacking_material(Color::Red)
            && !self.pos.has_attacking_material(Color::Black);
        drawn.then_some(0)
    }

    /// At the deepest ply the line ends on the static evaluation (a draw in check).
    #[inline(always)]
    pub(super) fn horizon(&mut self, ply: usize) -> Option<i32> {
        (ply >= MAX_PLY).then(|| {
            if self.stack[ply].in_check {
                0
            } else {
                self.evaluate(ply)
            }
        })
    }

    /// The static evaluation (the net's or the hand-written one), with a strength-limited
    /// search's noise, faded under the move limit (`eval::fade`).
    #[inline(always)]
    pub(super) fn evaluate(&mut self, ply: usize) -> i32 {
        self.fade
            .apply(self.unfaded_eval(ply), self.pos.halfmove_clock())
    }

    /// The static evaluation before the move-limit fading: what the table keeps, since its key
    /// leaves out the plies without capture that the fading reads.
    #[inline(always)]
    pub(super) fn unfaded_eval(&mut self, ply: usize) -> i32 {
        let v = match self.net.as_deref() {
            Some(net) => {
                let acc = self.accs.get(self.kernel, net, ply, &self.pos);
                nnue::evaluate(self.kernel, net, acc, &self.pos)
            }
            None => self.evals[ply].value(&self.pos),
        };
        if self.noise.size == 0 {
            v
        } else {
            v + noise(self.pos.key(), self.noise.seed, self.noise.size)
        }
    }

    /// The static evaluation as the table keeps it (its own when it has one), and the same
    /// faded and moved by what the search has learnt of its errors; `NO_EVAL` for both in
    /// check.
    #[inline(always)]
    pub(super) fn static_evals(
        &mut self,
        tte: Option<TtEntry>,
        in_check: bool,
        ply: usize,
    ) -> (i32, i32) {
        if in_check {
            return (NO_EVAL, NO_EVAL);
        }
        let raw = match tte {
            Some(e) if e.eval != NO_EVAL => e.eval,
            _ => self.unfaded_eval(ply),
        };
        let faded = self.fade.apply(raw, self.pos.halfmove_clock());
        let moves = self.correction_moves(ply);
        let correction = self
            .corr
            .value(&self.pos, moves, self.params.corr_moves_percent);
        let corrected = (faded + correction).clamp(-DECISIVE + 1, DECISIVE - 1);
        (raw, corrected)
    }

    /// Plays `m` (legal), keeping the repetition history in step. Returns whether it checks.
    #[inline(always)]
    pub(super) fn make(&mut self, ctx: &SearchContext, m: Move, ply: usize) -> (Undo, bool) {
        ctx.tt.prefetch(self.pos.key_after(m));
        self.evals[ply + 1] = self.evals[ply].after_move(&self.pos, m);
        if let Some(net) = self.net.as_deref() {
            self.accs
                .push(self.kernel, net, ply, &self.pos, m, &mut self.refresh);
        }
        let may_check = self.pos.may_give_check(m);
        let undo = self.pos.do_move(m);
        let check = may_check && self.pos.in_check();
        self.rules.push(&self.pos, m, undo, check);
        self.stack[ply].mv = m;
        self.stack[ply].cont_row = cont_row(self.pos.piece_at(m.to()), m.to());
        self.stack[ply].history = 0;
        self.stack[ply].searched_before = 0;
        self.stack[ply + 1].in_check = check;
        (undo, check)
    }

    #[inline(always)]
    pub(super) fn unmake(&mut self, m: Move, undo: Undo) {
        self.rules.pop();
        self.pos.undo_move(m, undo);
    }

    /// Passes at `ply` (a null move), keeping the frames and the repetition history in step.
    #[inline(always)]
    pub(super) fn make_null(&mut self, ply: usize) -> Undo {
        let undo = self.pos.do_null_move();
        // Recorded so that no repetition is looked for across the pass.
        self.rules.push(&self.pos, Move::NULL, undo, false);
        self.stack[ply].mv = Move::NULL;
        self.stack[ply].cont_row = 0;
        self.stack[ply].history = 0;
        self.stack[ply].searched_before = 0;
        self.stack[ply + 1].in_check = false;
        self.evals[ply + 1] = self.evals[ply];
        if self.net.is_some() {
            self.accs.push_pass(ply);
        }
        undo
    }

    #[inline(always)]
    pub(super) fn unmake_null(&mut self, undo: Undo) {
        self.rules.pop();
        self.pos.undo_null_move(undo);
    }

    /// The correction history's entry of the two moves before `ply`, where it is on and the
    /// last move is not a null move.
    #[inline(always)]
    pub(super) fn correction_moves(&self, ply: usize) -> Option<usize> {
        if self.params.corr_moves_percent == 0 || ply == 0 {
            return None;
        }
        let [last, before_last, _] = self.move_rows(ply);
        Correction::moves(before_last, last)
    }

    /// Where the quiet moves at `ply` read their histories: the moves before it and (by
    /// option) its pawns.
    #[inline(always)]
    pub(super) fn cont_rows(&self, ply: usize) -> ContRows {
        let structure = if self.params.structure_history > 0 {
            structure_row(&self.pos)
        } else {
            0
        };
        ContRows {
            moves: self.move_rows(ply),
            structure,
        }
    }

    /// The continuation-history rows of the moves one, two and (by option) four plies before
    /// `ply`.
    #[inline(always)]
    fn move_rows(&self, ply: usize) -> [usize; 3] {
        let back = |n: usize| {
            if ply >= n {
                self.stack[ply - n].cont_row
            } else {
                0
            }
        };
        let four = if self.params.cont_history_ply4 > 0 {
            back(4)
        } else {
            0
        };
        [back(1), back(2), four]
    }

    #[inline(always)]
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}
