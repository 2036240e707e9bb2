//! One search thread's state and its tree search: principal variation search with null-move
//! pruning, reverse futility, late move reductions and pruning, check extension, then
//! quiescence over captures (all evasions when in check).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::board::{Color, Move, PieceType, Position, Undo};
use crate::eval::nnue::accumulator::Accumulator;
use crate::eval::nnue::network::Network;
use crate::eval::nnue::simd::Kernel;
use crate::eval::{EvalState, nnue, piece_value};
use crate::rules::{GameRecord, SearchHistory};
use crate::tt::{TranspositionTable, TtBound, TtEntry};

use super::MAX_PLY;
use super::control::Control;
use super::correction::Correction;
use super::driver::SearchSetup;
use super::history::{Before, ContRows, Histories, cont_row};
use super::params::Params;
use super::picker::MovePicker;
use super::score::{DECISIVE, INFINITE, NO_EVAL, from_tt, mate_in, mated_in, rule_value, to_tt};
use super::see::see_ge;
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

/// The score of a table entry if its bound settles the node's window.
#[inline(always)]
fn tt_cutoff(e: TtEntry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = from_tt(e.score, ply);
    let cut = match e.bound {
        TtBound::Exact => true,
        TtBound::Lower => s >= beta,
        TtBound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

/// What the best score of a searched node is worth: a lower bound on a cutoff, exact when a PV
/// node raised alpha, else an upper bound.
#[inline(always)]
fn result_bound(best: i32, beta: i32, exact: bool) -> TtBound {
    if best >= beta {
        TtBound::Lower
    } else if exact {
        TtBound::Exact
    } else {
        TtBound::Upper
    }
}

/// Everything a search thread shares with the others for one `go`.
pub struct SearchContext<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    pub time: &'a TimeManager,
    /// Node counts each thread publishes as it polls.
    pub node_counts: &'a [AtomicU64],
    /// Stop after this many nodes (all threads together), `u64::MAX` for no limit.
    pub node_limit: u64,
    /// Plies without capture before a draw, 0 = off.
    pub move_limit: u32,
    /// Both sides' material at the root, for the win/draw/loss estimate of reported scores.
    pub root_material: u32,
}

impl SearchContext<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.node_counts
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }
}

#[derive(Clone, Copy)]
struct Frame {
    static_eval: i32,
    in_check: bool,
    /// Move played from this ply (null for a null move).
    mv: Move,
    /// Move left out by a singular-extension search of this node (null otherwise).
    excluded: Move,
    /// Continuation-history row of `mv` (0 for a null move).
    cont_row: usize,
}

pub struct Worker {
    pub(super) id: usize,
    pub(super) pos: Position,
    rules: SearchHistory,
    hist: Histories,
    corr: Correction,
    stack: [Frame; MAX_PLY + 2],
    /// Evaluation sums of the position at each ply.
    evals: [EvalState; MAX_PLY + 2],
    /// The net's feature sums at each ply (when a net evaluates).
    accs: Box<[Accumulator; MAX_PLY + 2]>,
    /// The net that evaluates, `None` for the hand-written evaluation.
    net: Option<Arc<Network>>,
    kernel: Kernel,
    pub(super) pv: [[Move; MAX_PLY + 1]; MAX_PLY + 1],
    pub(super) pv_len: [usize; MAX_PLY + 1],
    lmr: Reductions,
    /// The tunable numbers this search runs with (`lmr` is computed from them).
    params: Params,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    next_poll: u64,
    /// Set once a search has been told to stop; every node then returns at once.
    pub(super) aborted: bool,
    /// Whether this search may be aborted yet (the main thread first completes depth 1).
    pub(super) abortable: bool,
    pub(super) root_depth: i32,
    /// Plies without capture at which the evaluation has faded to nothing (twice the move
    /// limit), 0 when the game has no move limit.
    fade_plies: i32,
    /// A strength-limited search's evaluation noise.
    noise: Noise,
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
            accs: Box::new([Accumulator::ZERO; MAX_PLY + 2]),
            net: None,
            kernel: Kernel::best(),
            pv: [[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            lmr: reductions(&params),
            params,
            nodes: 0,
            seldepth: 0,
            next_poll: 0,
            aborted: false,
            abortable: true,
            root_depth: 0,
            fade_plies: 0,
            noise: Noise::default(),
        })
    }

    /// Ready to search the current position of the setup's game: its move limit, net and
    /// evaluation noise.
    pub fn prepare(&mut self, setup: &SearchSetup) {
        let game = &setup.game;
        self.fade_plies = 2 * setup.move_limit.min(u32::from(u16::MAX)) as i32;
        self.noise = setup.noise;
        if setup.params != self.params {
            self.params = setup.params;
            self.lmr = reductions(&self.params);
        }
        self.pos = game.position().clone();
        self.rules = SearchHistory::from_record(game);
        self.hist.new_search();
        self.stack[0].in_check = self.pos.in_check();
        self.evals[0] = EvalState::new(&self.pos);
        self.net = setup.net.clone();
        if let Some(net) = self.net.as_deref() {
            self.accs[0].refresh(self.kernel, net, &self.pos);
        }
        self.stack[0].mv = Move::NULL;
        self.nodes = 0;
        self.seldepth = 0;
        self.next_poll = 0;
        self.aborted = false;
        self.abortable = self.id != 0;
    }

    /// Counts a node and, every `POLL_INTERVAL` nodes, looks at the stop flag and (main thread)
    /// the limits. Returns whether the search must unwind.
    #[inline(always)]
    fn visit(&mut self, ctx: &SearchContext, ply: usize) -> bool {
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
        ctx.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
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
    fn can_pass(&self) -> bool {
        let us = self.pos.side_to_move();
        self.pos.count(us, PieceType::Rook) > 0
            || self.pos.count(us, PieceType::Horse) + self.pos.count(us, PieceType::Cannon) >= 2
    }

    /// Neither side has a piece that can cross the river: a draw.
    #[inline(always)]
    fn no_attacking_material(&self) -> bool {
        !self.pos.has_attacking_material(Color::Red)
            && !self.pos.has_attacking_material(Color::Black)
    }

    /// The static evaluation, faded as the plies without capture near the move limit: a lead
    /// that makes no progress is worth less than one that does.
    #[inline(always)]
    pub(super) fn evaluate(&self, ply: usize) -> i32 {
        let v = match self.net.as_deref() {
            Some(net) => nnue::evaluate(self.kernel, net, &self.accs[ply], self.pos.side_to_move()),
            None => self.evals[ply].value(&self.pos),
        };
        let v = if self.noise.size == 0 {
            v
        } else {
            v + noise(self.pos.key(), self.noise.seed, self.noise.size)
        };
        if self.fade_plies == 0 {
            return v;
        }
        let left = (self.fade_plies - i32::from(self.pos.halfmove_clock())).max(0);
        v * left / self.fade_plies
    }

    /// The static evaluation (the table's when it has one) and the same moved by what the
    /// search has learnt of its errors; `NO_EVAL` for both in check.
    #[inline(always)]
    fn static_evals(&self, tte: Option<TtEntry>, in_check: bool, ply: usize) -> (i32, i32) {
        if in_check {
            return (NO_EVAL, NO_EVAL);
        }
        let raw = match tte {
            Some(e) if e.eval != NO_EVAL => e.eval,
            _ => self.evaluate(ply),
        };
        let corrected = (raw + self.corr.value(&self.pos)).clamp(-DECISIVE + 1, DECISIVE - 1);
        (raw, corrected)
    }

    /// Plays `m` (legal), keeping the repetition history in step. Returns whether it checks.
    #[inline(always)]
    pub(super) fn make(&mut self, ctx: &SearchContext, m: Move, ply: usize) -> (Undo, bool) {
        ctx.tt.prefetch(self.pos.key_after(m));
        self.evals[ply + 1] = self.evals[ply].after_move(&self.pos, m);
        if let Some(net) = self.net.as_deref() {
            let (done, next) = self.accs.split_at_mut(ply + 1);
            next[0].update(self.kernel, net, &done[ply], &self.pos, m);
        }
        let may_check = self.pos.may_give_check(m);
        let undo = self.pos.do_move(m);
        let check = may_check && self.pos.in_check();
        self.rules.push(&self.pos, m, undo, check);
        self.stack[ply].mv = m;
        self.stack[ply].cont_row = cont_row(self.pos.piece_at(m.to()), m.to());
        self.stack[ply + 1].in_check = check;
        (undo, check)
    }

    #[inline(always)]
    pub(super) fn unmake(&mut self, m: Move, undo: Undo) {
        self.rules.pop();
        self.pos.undo_move(m, undo);
    }

    /// The continuation-history rows of the moves one and two plies before `ply`.
    #[inline(always)]
    fn cont_rows(&self, ply: usize) -> ContRows {
        let back = |n: usize| {
            if ply >= n {
                self.stack[ply - n].cont_row
            } else {
                0
            }
        };
        [back(1), back(2)]
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Alpha-beta search of a non-root node at `ply` (>= 1). `cut_node`: a zero-window node
    /// expected to fail high (the first child of an expected all-node, or a later move's
    /// reduced search).
    // Eight arguments: the window, depth and node kind are what each recursive call changes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
        &mut self,
        ctx: &SearchContext,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        null_ok: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(ctx, alpha, beta, ply);
        }
        let p = self.params;
        if self.visit(ctx, ply) {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        if let Some(r) = self.rules.judge(&self.pos) {
            return rule_value(r, ply);
        }
        if self.no_attacking_material() {
            return 0;
        }
        if ctx.move_limit > 0 && u32::from(self.pos.halfmove_clock()) >= ctx.move_limit {
            return if self.pos.has_no_legal_move() {
                mated_in(ply)
            } else {
                0
            };
        }
        let in_check = self.stack[ply].in_check;
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        // Mate distance pruning: no line from here beats a shorter mate already in reach.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let key = self.pos.key();
        // A search without one move must not meet (or leave) the table's verdict on the node.
        let excluded = self.stack[ply].excluded;
        let tte = if excluded.is_null() {
            ctx.tt.probe(key)
        } else {
            None
        };
        let mut tt_move = Move::NULL;
        if let Some(e) = tte {
            if self.pos.is_pseudo_legal(e.mv) {
                tt_move = e.mv;
            }
            if !pv_node
                && e.depth >= depth
                && let Some(s) = tt_cutoff(e, ply, alpha, beta)
            {
                return s;
            }
        }

        let (raw_eval, static_eval) = self.static_evals(tte, in_check, ply);
        // The table's score is a better guess than the static evaluation when its bound allows.
        let eval = match tte {
            Some(e) if !in_check => {
                let s = from_tt(e.score, ply);
                match e.bound {
                    TtBound::Exact => s,
                    TtBound::Lower if s > static_eval => s,
                    TtBound::Upper if s < static_eval => s,
                    _ => static_eval,
                }
            }
            _ => static_eval,
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;

        // Not when beta is a mated score: a static guess must not stand in for "not mated".
        if !pv_node && !in_check && excluded.is_null() && eval.abs() < DECISIVE && beta > -DECISIVE
        {
            // Reverse futility: far enough above beta that a quiet move will not drop below it.
            if depth <= p.rfp_depth && eval - p.rfp_margin * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Null move: if passing still fails high, a real move would too.
            if null_ok && depth >= 2 && eval >= beta && self.can_pass() {
                let r = p.nmp_base
                    + depth / p.nmp_depth_divisor
                    + ((eval - beta) / p.nmp_eval_divisor).min(p.nmp_eval_max);
                let undo = self.pos.do_null_move();
                // Recorded so that no repetition is looked for across the pass.
                self.rules.push(&self.pos, Move::NULL, undo, false);
                self.stack[ply].mv = Move::NULL;
                self.stack[ply].cont_row = 0;
                self.stack[ply + 1].in_check = false;
                self.evals[ply + 1] = self.evals[ply];
                if self.net.is_some() {
                    self.accs[ply + 1] = self.accs[ply];
                }
                let v = -self.search(
                    ctx,
                    -beta,
                    -beta + 1,
                    depth - 1 - r,
                    ply + 1,
                    false,
                    !cut_node,
                );
                self.rules.pop();
                self.pos.undo_null_move(undo);
                if self.aborted {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= DECISIVE { beta } else { v };
                    // Deep nodes verify with a normal reduced search (zugzwang).
                    if depth < p.nmp_verify_depth
                        || self.search(ctx, beta - 1, beta, depth - r, ply, false, false) >= beta
                    {
                        return v;
                    }
                }
            }
        }
        // Internal iterative reduction: without a hash move this node was never searched well.
        if tt_move.is_null() && excluded.is_null() && depth >= p.iir_depth {
            depth -= 1;
        }
        // Singular extension: if every other move falls well short of the hash move's score,
        // the hash move is forced and searched deeper. If even the others reach beta, cut.
        let mut singular = false;
        if let Some(e) = tte
            && depth >= p.singular_depth
            && e.mv == tt_move
            && !tt_move.is_null()
            && e.depth >= depth - 3
            && e.bound != TtBound::Upper
            && from_tt(e.score, ply).abs() < DECISIVE
            && (ply as i32) < 2 * self.root_depth
        {
            let singular_beta = from_tt(e.score, ply) - p.singular_margin * depth;
            self.stack[ply].excluded = tt_move;
            let v = self.search(
                ctx,
                singular_beta - 1,
                singular_beta,
                (depth - 1) / 2,
                ply,
                false,
                cut_node,
            );
            self.stack[ply].excluded = Move::NULL;
            if self.aborted {
                return 0;
            }
            if v < singular_beta {
                singular = true;
            } else if singular_beta >= beta {
                return singular_beta;
            }
        }

        let prev = if ply > 0 {
            self.stack[ply - 1].mv
        } else {
            Move::NULL
        };
        let killers = self.hist.killers(ply);
        let counter = self.hist.counter(&self.pos, prev);
        let cont_rows = self.cont_rows(ply);
        let mut picker = MovePicker::new(tt_move, false, killers, counter, cont_rows);
        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets = [Move::NULL; 64];
        let mut quiet_count = 0;
        let lmp_limit = (p.lmp_base + depth * depth) as usize / if improving { 1 } else { 2 };

        // Late move pruning and futility pruning of quiet moves at shallow depth: once the
        // test holds it holds for the rest of the node (searched, best and alpha only grow).
        let prune_quiets = !pv_node && !in_check && depth <= p.quiet_prune_depth;
        let futility = static_eval + p.futility_base + p.futility_per_ply * depth;
        // Quiet moves may be pruned here once one move is searched and no mate is being fended off.
        let may_prune_quiets =
            |searched: usize, best: i32| prune_quiets && searched > 0 && best > -DECISIVE;
        let quiets_pruned = |searched: usize, best: i32, alpha: i32| {
            may_prune_quiets(searched, best)
                && ((depth <= p.lmp_depth && searched >= lmp_limit) || futility <= alpha)
        };
        while let Some(m) = picker.next(&self.pos, &self.hist) {
            if m == excluded {
                continue;
            }
            let capture = self.pos.is_capture(m);
            // Decided before the move is played (or even tested for legality): only a check
            // saves a quiet move from pruning, and asking that costs less than playing it.
            if !capture && quiets_pruned(searched, best, alpha) && !self.pos.gives_check(m) {
                continue;
            }
            let quiet_killer = m == killers[0] || m == killers[1];
            let history = if capture {
                0
            } else {
                self.hist.quiet(&self.pos, m, cont_rows)
            };
            // History pruning: near the leaves, quiet moves that have failed again and again
            // in this context are not tried (checks and killers excepted). Decided before the
            // legality test, like the pruning above.
            if !capture
                && may_prune_quiets(searched, best)
                && !quiet_killer
                && depth <= p.history_prune_depth
                && history < -p.history_prune_per_ply * depth
                && !self.pos.gives_check(m)
            {
                continue;
            }
            if !self.pos.is_legal_pseudo(m, in_check) {
                continue;
            }
            // SEE pruning: near the leaves, captures that lose much material are not tried.
            if !pv_node
                && !in_check
                && capture
                && searched > 0
                && best > -DECISIVE
                && depth <= p.see_prune_depth
                && !see_ge(&self.pos, m, -p.see_capture_margin * depth)
            {
                continue;
            }
            let (undo, gives_check) = self.make(ctx, m, ply);
            let extension = i32::from(
                (gives_check || (singular && m == tt_move)) && (ply as i32) < 2 * self.root_depth,
            );
            let new_depth = depth - 1 + extension;
            let score = if searched == 0 {
                -self.search(
                    ctx,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    true,
                    !pv_node && !cut_node,
                )
            } else {
                let mut r = 0;
                if depth >= p.lmr_depth && !capture && !in_check && !gives_check {
                    r = i32::from(self.lmr[depth.min(63) as usize][searched.min(63)]);
                    r -= i32::from(pv_node) + i32::from(quiet_killer);
                    r += i32::from(!improving);
                    // Expected cut nodes fail high on an early move or not at all.
                    r += i32::from(cut_node);
                    // Moves that have often refuted siblings are reduced less, failures more.
                    r -= history / p.history_lmr_divisor;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s =
                    -self.search(ctx, -alpha - 1, -alpha, new_depth - r, ply + 1, true, true);
                if s > alpha && r > 0 {
                    s = -self.search(ctx, -alpha - 1, -alpha, new_depth, ply + 1, true, !cut_node);
                }
                if s > alpha && s < beta {
                    s = -self.search(ctx, -beta, -alpha, new_depth, ply + 1, true, false);
                }
                s
            };
            self.unmake(m, undo);
            if self.aborted {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if !capture {
                            self.hist.reward(
                                &self.pos,
                                ply,
                                Before {
                                    prev,
                                    rows: cont_rows,
                                },
                                m,
                                &quiets[..quiet_count],
                                (p.history_bonus_per_ply * depth - p.history_bonus_offset)
                                    .min(p.history_bonus_max),
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !capture && quiet_count < quiets.len() {
                quiets[quiet_count] = m;
                quiet_count += 1;
            }
            if quiets_pruned(searched, best, alpha) {
                picker.skip_quiets_without_check();
            }
        }
        if searched == 0 {
            // No legal move: mated or stalemated, a loss either way. (Without the excluded move
            // there may simply be nothing else.)
            return if excluded.is_null() {
                mated_in(ply)
            } else {
                alpha
            };
        }
        if !excluded.is_null() {
            return best;
        }
        let bound = result_bound(best, beta, pv_node && !best_move.is_null());
        // The static evaluation erred in a quiet position: learn by how much.
        if !in_check
            && (best_move.is_null() || !self.pos.is_capture(best_move))
            && best.abs() < DECISIVE
            && !(bound == TtBound::Lower && best <= static_eval)
            && !(bound == TtBound::Upper && best >= static_eval)
        {
            self.corr.update(&self.pos, depth, best, static_eval);
        }
        ctx.tt
            .store(key, best_move, to_tt(best, ply), raw_eval, depth, bound);
        best
    }

    /// Quiescence search: captures only, or every evasion when in check.
    pub(super) fn qsearch(
        &mut self,
        ctx: &SearchContext,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.visit(ctx, ply) {
            return 0;
        }
        if let Some(r) = self.rules.judge(&self.pos) {
            return rule_value(r, ply);
        }
        if self.no_attacking_material() {
            return 0;
        }
        let in_check = self.stack[ply].in_check;
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        let pv_node = beta - alpha > 1;
        let key = self.pos.key();
        let tte = ctx.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(e) = tte {
            if self.pos.is_pseudo_legal(e.mv) && (in_check || self.pos.is_capture(e.mv)) {
                tt_move = e.mv;
            }
            if !pv_node && let Some(s) = tt_cutoff(e, ply, alpha, beta) {
                return s;
            }
        }
        let (raw_eval, static_eval) = self.static_evals(tte, in_check, ply);
        let mut best;
        if in_check {
            best = -INFINITE;
        } else {
            best = static_eval;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let killers = if in_check {
            self.hist.killers(ply)
        } else {
            [Move::NULL; 2]
        };
        let cont_rows = self.cont_rows(ply);
        let mut picker = MovePicker::new(tt_move, !in_check, killers, Move::NULL, cont_rows);
        let mut best_move = Move::NULL;
        let mut any_legal = false;
        while let Some(m) = picker.next(&self.pos, &self.hist) {
            if !self.pos.is_legal_pseudo(m, in_check) {
                continue;
            }
            any_legal = true;
            if !in_check {
                // Delta pruning: even winning this piece for free would not reach alpha.
                let gain = piece_value(self.pos.piece_at(m.to()).kind());
                if static_eval + gain + self.params.delta_margin <= alpha {
                    continue;
                }
            }
            let (undo, _) = self.make(ctx, m, ply);
            let score = -self.qsearch(ctx, -beta, -alpha, ply + 1);
            self.unmake(m, undo);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && !any_legal {
            return mated_in(ply);
        }
        let bound = result_bound(best, beta, pv_node && !best_move.is_null());
        ctx.tt
            .store(key, best_move, to_tt(best, ply), raw_eval, 0, bound);
        best
    }
}
