//! The node function: one alpha-beta node of the principal variation search, step by step
//! (the rules' verdicts, the table, the static evaluation, pruning before the moves, the
//! singular-extension test, the move loop, the store). The node's kind is a type
//! (`node_kind.rs`); the root (`root.rs`) shares the move loop; quiescence is in
//! `quiescence.rs`.

use crate::board::{Move, Position};
use crate::egtb::Verdict;
use crate::eval::piece_value;
use crate::tt::{TtBound, TtEntry};

use super::history::Before;
use super::node_kind::{All, Cut, NodeKind, Pv};
use super::params::Params;
use super::picker::{MovePicker, Moves};
use super::score::{DECISIVE, INFINITE, NO_EVAL, from_tt, mate_in, mated_in, table_value, to_tt};
use super::see::see_ge;
use super::stats::Event;
use super::worker::{SearchContext, Worker};

/// The score of a table entry if its bound settles the node's window.
#[inline(always)]
pub(super) fn tt_cutoff(e: TtEntry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
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
pub(super) fn result_bound(best: i32, beta: i32, exact: bool) -> TtBound {
    if best >= beta {
        TtBound::Lower
    } else if exact {
        TtBound::Exact
    } else {
        TtBound::Upper
    }
}

/// The table's score where its bound makes it a better guess than the static evaluation.
#[inline(always)]
fn refined_eval(tte: Option<TtEntry>, in_check: bool, static_eval: i32, ply: usize) -> i32 {
    match tte {
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
    }
}

/// The history bonus of a quiet move by the static evaluations before it (`mover_eval`, its
/// mover's) and after it (`reply_eval`, the other side's): both are from their own side to
/// move, so their sum is what the move lost at once.
#[inline(always)]
fn eval_history_bonus(p: &Params, mover_eval: i32, reply_eval: i32) -> i32 {
    (-p.eval_history_per_cp * (mover_eval + reply_eval))
        .clamp(-p.eval_history_max, p.eval_history_max)
}

/// What a node's steps share once its table entry and static evaluation are known.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) depth: i32,
    pub(super) ply: usize,
    pub(super) in_check: bool,
    /// The evaluation as the table stores it (before correction).
    pub(super) raw_eval: i32,
    /// The corrected static evaluation (`NO_EVAL` in check).
    pub(super) static_eval: i32,
    /// Better than two plies ago.
    pub(super) improving: bool,
    pub(super) tt_move: Move,
    /// The move a singular-extension test of this node leaves out (null otherwise).
    pub(super) excluded: Move,
    /// Plies the hash move is searched deeper for being singular (0 when it is not, negative
    /// when the test found it is not forced).
    pub(super) singular: i32,
}

/// A node's pruning of moves near the leaves, set up once per node.
struct Pruning {
    /// A zero-window node out of check: moves may be pruned.
    zero_window: bool,
    /// Late move pruning: quiet moves from this count on are not tried.
    lmp_limit: usize,
    /// Futility pruning: quiet moves are not tried once alpha reaches this plus
    /// `futility_per_ply` per ply of the move's predicted depth, up to `futility_depth`.
    futility: i32,
    futility_per_ply: i32,
    futility_depth: i32,
    /// The node's depth, and its row of the late move reductions by move number.
    depth: i32,
    reductions: [u8; 64],
    /// History pruning: quiet moves with a history below this are not tried (`i32::MIN`: off).
    history_floor: i32,
    /// Futility pruning one quiet move at a time, its margin moved by its history over this
    /// (0: off).
    futility_history_divisor: i32,
    /// Futility pruning of captures: at predicted depths below `capture_futility_depth`, a
    /// capture is not tried once alpha reaches this plus the victim's value plus
    /// `capture_futility_per_ply` per ply.
    capture_futility: i32,
    capture_futility_per_ply: i32,
    capture_futility_depth: i32,
    /// SEE pruning of captures is on.
    see: bool,
    /// Captures that lose more than this much material are not tried.
    see_threshold: i32,
    /// SEE pruning of quiet moves: the loss allowed per predicted ply squared (0: off) and
    /// per predicted ply.
    quiet_see_per_ply2: i32,
    quiet_see_per_ply: i32,
}

impl Pruning {
    #[inline(always)]
    fn new<K: NodeKind>(p: &Params, node: &Node, reductions: &[u8; 64]) -> Pruning {
        let (depth, zero_window) = (node.depth, !K::PV && !node.in_check);
        let lmp_limit = if depth <= p.lmp_depth {
            let worse = if node.improving {
                100
            } else {
                p.lmp_worse_percent
            };
            ((p.lmp_base + depth * depth) * 100 / worse) as usize
        } else {
            usize::MAX
        };
        Pruning {
            zero_window,
            lmp_limit,
            futility: node.static_eval + p.futility_base,
            futility_per_ply: p.futility_per_ply,
            futility_depth: p.quiet_prune_depth,
            depth,
            reductions: *reductions,
            history_floor: if depth <= p.history_prune_depth {
                -p.history_prune_per_ply * depth
            } else {
                i32::MIN
            },
            futility_history_divisor: p.futility_history_divisor,
            capture_futility: node.static_eval + p.capture_futility_base,
            capture_futility_per_ply: p.capture_futility_per_ply,
            capture_futility_depth: p.capture_futility_depth,
            see: zero_window && depth <= p.see_prune_depth,
            see_threshold: -p.see_capture_margin * depth,
            quiet_see_per_ply2: p.quiet_see_per_ply2,
            quiet_see_per_ply: p.quiet_see_per_ply,
        }
    }

    /// The depth the next quiet move, the `searched + 1`th, will likely be searched to: one
    /// ply less, less its late move reduction by the table alone.
    #[inline(always)]
    fn predicted_depth(&self, searched: usize) -> i32 {
        (self.depth - 1 - i32::from(self.reductions[(searched + 1).min(63)])).max(0)
    }

    /// Moves may be pruned once one move is searched and no mate is being fended off.
    #[inline(always)]
    fn may_prune(&self, searched: usize, best: i32) -> bool {
        self.zero_window && searched > 0 && best > -DECISIVE
    }

    /// Late move and futility pruning of the node's quiet moves: once it holds it holds for the
    /// rest of the node (searched, best and alpha only grow, the predicted depth only falls).
    #[inline(always)]
    fn quiets(&self, searched: usize, best: i32, alpha: i32) -> bool {
        if !self.may_prune(searched, best) {
            return false;
        }
        searched >= self.lmp_limit || self.futile(self.predicted_depth(searched), alpha, 0)
    }

    /// Futility of a quiet move at predicted depth `d` whose margin moves by `shift`.
    #[inline(always)]
    fn futile(&self, d: i32, alpha: i32, shift: i32) -> bool {
        d <= self.futility_depth && self.futility + self.futility_per_ply * d + shift <= alpha
    }

    /// History pruning of a quiet move that has failed again and again in this context.
    #[inline(always)]
    fn by_history(&self, searched: usize, best: i32, history: i32) -> bool {
        self.may_prune(searched, best) && history < self.history_floor
    }

    /// Futility pruning of one quiet move, its margin moved by its history: a move that has
    /// often failed here needs less to be hopeless.
    #[inline(always)]
    fn by_history_futility(&self, searched: usize, best: i32, alpha: i32, history: i32) -> bool {
        if self.futility_history_divisor == 0 || !self.may_prune(searched, best) {
            return false;
        }
        self.futile(
            self.predicted_depth(searched),
            alpha,
            history / self.futility_history_divisor,
        )
    }

    /// Futility pruning of the capture `m`: even its victim's whole value leaves the node below
    /// alpha. The victim is looked up only where the depth allows the pruning.
    #[inline(always)]
    fn capture_futile(
        &self,
        searched: usize,
        best: i32,
        alpha: i32,
        pos: &Position,
        m: Move,
    ) -> bool {
        if !self.may_prune(searched, best) {
            return false;
        }
        let d = self.predicted_depth(searched);
        d < self.capture_futility_depth
            && self.capture_futility
                + piece_value(pos.piece_at(m.to()).kind())
                + self.capture_futility_per_ply * d
                <= alpha
    }

    /// SEE pruning of a quiet move that loses more material than its predicted depth allows.
    #[inline(always)]
    fn quiet_loses(&self, searched: usize, best: i32, pos: &Position, m: Move) -> bool {
        if self.quiet_see_per_ply2 == 0 || !self.may_prune(searched, best) {
            return false;
        }
        let d = self.predicted_depth(searched);
        !see_ge(
            pos,
            m,
            -(self.quiet_see_per_ply2 * d * d + self.quiet_see_per_ply * d),
        )
    }

    /// SEE pruning of losing captures is allowed here.
    #[inline(always)]
    fn by_see(&self, searched: usize, best: i32) -> bool {
        self.see && searched > 0 && best > -DECISIVE
    }
}

/// What a node's moves are ordered and judged by: the moves that led to it and its killers.
struct Known {
    before: Before,
    killers: [Move; 2],
}

/// A move the loop searches, with what its reduction and the histories read.
struct Candidate {
    mv: Move,
    capture: bool,
    quiet_killer: bool,
    history: i32,
}

/// The move loop's state: the window's lower edge, the best so far, the quiet moves tried.
struct Progress {
    alpha: i32,
    best: i32,
    best_move: Move,
    searched: usize,
    quiets: [Move; 64],
    quiet_count: usize,
    captures: [Move; 32],
    capture_count: usize,
}

/// What the singular-extension test found.
enum Singular {
    No,
    /// The hash move is forced: searched this many plies deeper (shallower when negative).
    Extend(i32),
    /// The node's result (0 once the search is aborted).
    Cut(i32),
}

impl Worker {
    /// Alpha-beta search of a non-root node of kind `K` at `ply` (>= 1).
    pub(super) fn search<K: NodeKind>(
        &mut self,
        ctx: &SearchContext,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(ctx, alpha, beta, ply, self.params.qs_checks > 0);
        }
        if let Some(v) = self.verdict(ctx, ply) {
            return v;
        }
        // Mate distance pruning: no line from here beats a shorter mate already in reach.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let excluded = self.stack[ply].excluded;
        let (tte, tt_move) = self.probe(ctx, excluded);
        if !K::PV
            && let Some(e) = tte
            && e.depth >= depth
            && let Some(s) = tt_cutoff(e, ply, alpha, beta)
        {
            self.stats.count(Event::TtCutoff);
            return s;
        }
        // Not stored: the verdict depends on the move limit's clock, which the key leaves out.
        if excluded.is_null()
            && let Some(s) = self.egtb_score(ctx, ply)
        {
            return s;
        }

        let in_check = self.stack[ply].in_check;
        let (raw_eval, static_eval) = self.static_evals(tte, in_check, ply);
        let eval = refined_eval(tte, in_check, static_eval, ply);
        self.stack[ply].static_eval = static_eval;
        if excluded.is_null() {
            self.learn_from_evals(ply, static_eval);
            depth += i32::from(self.hindsight(in_check, static_eval, ply));
        }
        let mut node = Node {
            depth,
            ply,
            in_check,
            raw_eval,
            static_eval,
            improving: self.improving(in_check, static_eval, ply),
            tt_move,
            excluded,
            singular: 0,
        };
        if let Some(v) = self.prune_early::<K>(ctx, &node, eval, beta) {
            return v;
        }
        let pv_iir = self.params.pv_iir;
        if K::PV && pv_iir > 0 && excluded.is_null() {
            // A PV node the table knows only shallowly, or not at all, is searched shallower:
            // its line is not settled, and the search that follows it will look again.
            let known = tte.map_or(0, |e| e.depth);
            let r = if tt_move.is_null() {
                pv_iir
            } else {
                ((depth - known) / 2).clamp(0, pv_iir + 2)
            };
            if r > 0 {
                self.stats.count(Event::Iir);
            }
            node.depth -= r;
            if node.depth <= 0 {
                return self.qsearch(ctx, alpha, beta, ply, self.params.qs_checks > 0);
            }
        } else if tt_move.is_null()
            && excluded.is_null()
            && depth >= self.params.iir_depth
            && (K::PV || K::CUT || self.params.iir_skip_all == 0)
        {
            // Internal iterative reduction: without a hash move this node was never searched well.
            self.stats.count(Event::Iir);
            node.depth -= 1;
        }
        match self.singular::<K>(ctx, &node, tte, alpha, beta) {
            Singular::Cut(v) => return v,
            Singular::Extend(plies) => node.singular = plies,
            Singular::No => {}
        }
        let Some((best, best_move, searched)) = self.search_moves::<K>(ctx, &node, alpha, beta)
        else {
            return 0;
        };
        if searched == 0 {
            // No legal move: mated or stalemated, a loss either way. (Without the excluded move
            // there may simply be nothing else.)
            return if excluded.is_null() {
                mated_in(ply)
            } else {
                alpha
            };
        }
        if excluded.is_null() {
            self.store(
                ctx,
                &node,
                best,
                best_move,
                result_bound(best, beta, K::PV && !best_move.is_null()),
            );
        }
        best
    }

    /// Whether the static evaluation is better than two plies ago; where that node was in
    /// check (no evaluation), than four plies ago, and without either, yes.
    #[inline(always)]
    fn improving(&self, in_check: bool, static_eval: i32, ply: usize) -> bool {
        if in_check || ply < 2 {
            return false;
        }
        let back2 = self.stack[ply - 2].static_eval;
        if back2 != NO_EVAL || self.params.improving_far == 0 || ply < 4 {
            return static_eval > back2;
        }
        let back4 = self.stack[ply - 4].static_eval;
        back4 == NO_EVAL || static_eval > back4
    }

    /// Whether the move that led here was reduced by at least `hindsight_reduction` plies
    /// while the opponent's evaluation did not worsen over it (both out of check): the
    /// reduction bet on a quiet reply, and the evaluation says otherwise.
    #[inline(always)]
    fn hindsight(&self, in_check: bool, static_eval: i32, ply: usize) -> bool {
        let least = self.params.hindsight_reduction;
        let parent = &self.stack[ply - 1];
        least > 0
            && parent.reduction >= least
            && !in_check
            && !parent.in_check
            && static_eval <= -parent.static_eval
    }

    /// The quiet move that led here learns from the static evaluations before and after it:
    /// a move that made its mover's position worse at once is a worse move to try first.
    #[inline(always)]
    fn learn_from_evals(&mut self, ply: usize, static_eval: i32) {
        let before = self.stack[ply - 1];
        if static_eval == NO_EVAL
            || before.static_eval == NO_EVAL
            || before.mv.is_null()
            || self.pos.halfmove_clock() == 0
        {
            return;
        }
        // Off (or nothing lost or gained): no write to the table.
        let bonus = eval_history_bonus(&self.params, before.static_eval, static_eval);
        if bonus != 0 {
            self.hist.learn_mover(&self.pos, before.mv, bonus);
        }
    }

    /// A node settled before its table is read: by the rules, by the move limit's draw or at
    /// the deepest ply; 0 once the search is aborted.
    #[inline(always)]
    fn verdict(&mut self, ctx: &SearchContext, ply: usize) -> Option<i32> {
        if self.visit(ctx, ply) {
            return Some(0);
        }
        self.stats.count(Event::MainNode);
        if let Some(v) = self.decided(ply) {
            return Some(v);
        }
        if ctx.move_limit > 0 && u32::from(self.pos.halfmove_clock()) >= ctx.move_limit {
            return Some(if self.pos.has_no_legal_move() {
                mated_in(ply)
            } else {
                0
            });
        }
        self.horizon(ply)
    }

    /// The endgame tables' score of the node where they cover it: a draw, or a mate that fits
    /// the plies the move limit has left (a longer one may be a draw by that rule). Not where
    /// the position repeats an earlier one: the tables count cycles as draws, and the search
    /// must see the repetition through to the rules' verdict (perpetual check or chase loses).
    /// Not a draw below a root the tables call a draw: there the evaluation chooses among the
    /// draws (`root::hold_table_draw`).
    #[inline(always)]
    fn egtb_score(&mut self, ctx: &SearchContext, ply: usize) -> Option<i32> {
        let v = ctx.tables?.covers(&self.pos)?;
        if (ctx.root_table_draw && v == Verdict::Draw)
            || !v.within(ctx.move_limit, u32::from(self.pos.halfmove_clock()))
            || self.rules.repeats(&self.pos)
        {
            return None;
        }
        self.stats.count(Event::EgtbHit);
        self.tb_hits += 1;
        Some(table_value(v, ply))
    }

    /// The table's entry for the node and its move where that is pseudo-legal here. A search
    /// without one move must not meet (or leave) the table's verdict on the node: no entry.
    #[inline(always)]
    fn probe(&mut self, ctx: &SearchContext, excluded: Move) -> (Option<TtEntry>, Move) {
        let tte = if excluded.is_null() {
            self.stats.count(Event::TtProbe);
            ctx.tt.probe(self.pos.key())
        } else {
            None
        };
        if tte.is_some() {
            self.stats.count(Event::TtHit);
        }
        let tt_move = match tte {
            Some(e) if self.pos.is_pseudo_legal(e.mv) => e.mv,
            _ => Move::NULL,
        };
        (tte, tt_move)
    }

    /// Reverse futility and null-move pruning of a zero-window node: its result without
    /// searching its moves, when its evaluation (or passing) stays above beta.
    fn prune_early<K: NodeKind>(
        &mut self,
        ctx: &SearchContext,
        node: &Node,
        eval: i32,
        beta: i32,
    ) -> Option<i32> {
        // Not when beta is a mated score: a static guess must not stand in for "not mated".
        if K::PV
            || node.in_check
            || !node.excluded.is_null()
            || eval.abs() >= DECISIVE
            || beta <= -DECISIVE
        {
            return None;
        }
        let p = &self.params;
        // Reverse futility: far enough above beta that a quiet move will not drop below it.
        let prior = match p.rfp_prior_history_divisor {
            0 => 0,
            d => self.stack[node.ply - 1].history / d,
        };
        if node.depth <= p.rfp_depth
            && eval - p.rfp_margin * (node.depth - i32::from(node.improving)) - prior >= beta
        {
            self.stats.count(Event::ReverseFutility);
            return Some(eval);
        }
        if node.depth >= 2
            && eval >= beta
            && self.null_move_promising(node, eval, beta)
            && self.null_allowed(node.ply)
            && self.can_pass()
        {
            return self.null_move::<K>(ctx, node, eval, beta);
        }
        None
    }

    /// The null move's conditions on trial (each off at 0): the static evaluation itself near
    /// beta, not only a table bound; the table's evaluation not below the static one; the
    /// move that led here not one the history trusts (it may carry a threat).
    #[inline(always)]
    fn null_move_promising(&self, node: &Node, eval: i32, beta: i32) -> bool {
        let p = &self.params;
        (p.nmp_static_base == 0
            || node.static_eval >= beta - p.nmp_static_per_ply * node.depth + p.nmp_static_base)
            && (p.nmp_eval_over_static == 0 || eval >= node.static_eval)
            && (p.nmp_prior_history_max == 0
                || self.stack[node.ply - 1].history < p.nmp_prior_history_max)
    }

    /// A null move here: not right after another, nor in the verification of one.
    #[inline(always)]
    fn null_allowed(&self, ply: usize) -> bool {
        !self.stack[ply - 1].mv.is_null() && !self.stack[ply].verifying_null
    }

    /// Null move: if passing still fails high, a real move would too.
    fn null_move<K: NodeKind>(
        &mut self,
        ctx: &SearchContext,
        node: &Node,
        eval: i32,
        beta: i32,
    ) -> Option<i32> {
        let p = &self.params;
        let (depth, ply) = (node.depth, node.ply);
        let r = p.nmp_base
            + depth / p.nmp_depth_divisor
            + ((eval - beta) / p.nmp_eval_divisor).min(p.nmp_eval_max);
        let verify_depth = p.nmp_verify_depth;
        self.stats.count(Event::NullTry);
        let undo = self.make_null(ply);
        let v = -self.search::<K::Child>(ctx, -beta, -beta + 1, depth - 1 - r, ply + 1);
        self.unmake_null(undo);
        if self.aborted {
            return Some(0);
        }
        if v < beta {
            return None;
        }
        let v = if v >= DECISIVE { beta } else { v };
        // Deep nodes verify with a normal reduced search (zugzwang).
        if depth >= verify_depth {
            self.stack[ply].verifying_null = true;
            let verified = self.search::<All>(ctx, beta - 1, beta, depth - r, ply) >= beta;
            self.stack[ply].verifying_null = false;
            if !verified {
                self.stats.count(Event::NullVerifyFail);
                return None;
            }
        }
        self.stats.count(Event::NullCutoff);
        Some(v)
    }

    /// Singular extension: if every other move falls well short of the hash move's score,
    /// the hash move is forced and searched deeper. If even the others reach beta, cut. If
    /// others come close, the hash move is searched shallower where its own score already
    /// settles the node's window either way.
    fn singular<K: NodeKind>(
        &mut self,
        ctx: &SearchContext,
        node: &Node,
        tte: Option<TtEntry>,
        alpha: i32,
        beta: i32,
    ) -> Singular {
        let Some(e) = tte else {
            return Singular::No;
        };
        let (depth, ply) = (node.depth, node.ply);
        let score = from_tt(e.score, ply);
        if depth < self.params.singular_depth
            || e.mv != node.tt_move
            || node.tt_move.is_null()
            || e.depth < depth - 3
            || e.bound == TtBound::Upper
            || score.abs() >= DECISIVE
            || ply as i32 >= 2 * self.root_depth
        {
            return Singular::No;
        }
        let singular_beta = score - self.params.singular_margin * depth;
        self.stats.count(Event::SingularTest);
        self.stack[ply].excluded = node.tt_move;
        let v = self.search::<K::ZeroWindow>(
            ctx,
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
        );
        self.stack[ply].excluded = Move::NULL;
        if self.aborted {
            Singular::Cut(0)
        } else if v < singular_beta {
            self.stats.count(Event::SingularExtension);
            // Far below the hash move, outside the principal variation: two plies.
            Singular::Extend(
                if !K::PV && v < singular_beta - self.params.double_ext_margin {
                    2
                } else {
                    1
                },
            )
        } else if singular_beta >= beta {
            self.stats.count(Event::SingularCutoff);
            Singular::Cut(singular_beta)
        } else {
            // Other moves come close: where the hash move's score already settles the window
            // (it cuts, or it fails low and the others do no worse), less depth will do.
            let plies = if score >= beta {
                self.params.negext_cut
            } else if score <= alpha && score <= v {
                self.params.negext_low
            } else {
                0
            };
            if plies > 0 {
                self.stats.count(Event::NegativeExtension);
                Singular::Extend(-plies)
            } else {
                Singular::No
            }
        }
    }

    /// The move loop: the node's moves best first (the root's in its list's order), the
    /// hopeless ones near the leaves pruned. Returns the best score, its move (null when none
    /// raised alpha) and how many moves were searched; `None` once the search is aborted.
    #[inline(always)]
    pub(super) fn search_moves<K: NodeKind>(
        &mut self,
        ctx: &SearchContext,
        node: &Node,
        alpha: i32,
        beta: i32,
    ) -> Option<(i32, Move, usize)> {
        let ply = node.ply;
        let prev = if K::ROOT {
            Move::NULL
        } else {
            self.stack[ply - 1].mv
        };
        let known = Known {
            before: Before {
                prev,
                rows: self.cont_rows(ply),
            },
            killers: self.hist.killers(ply),
        };
        let counter = self.hist.counter(&self.pos, prev);
        let (tt_move, killers, rows) = (node.tt_move, known.killers, known.before.rows);
        let mut picker = MovePicker::new(tt_move, Moves::All, killers, counter, rows);
        let pruning = Pruning::new::<K>(&self.params, node, &self.lmr[node.depth.min(63) as usize]);
        let mut done = Progress {
            alpha,
            best: -INFINITE,
            best_move: Move::NULL,
            searched: 0,
            quiets: [Move::NULL; 64],
            quiet_count: 0,
            captures: [Move::NULL; 32],
            capture_count: 0,
        };
        let mut next_root = self.pv_idx;
        loop {
            let next = if K::ROOT {
                self.next_root_move(&mut next_root)
            } else {
                picker.next(&self.pos, &self.hist)
            };
            let Some(m) = next else {
                break;
            };
            let Some(c) = self.candidate::<K>(m, node, &pruning, &known, &done) else {
                continue;
            };
            let nodes_before = self.nodes;
            let score = self.search_move::<K>(ctx, node, &c, &done, beta);
            if self.aborted {
                return None;
            }
            if K::ROOT {
                let nodes = self.nodes - nodes_before;
                self.record_root_move(next_root - 1, done.searched == 0, score, done.alpha, nodes);
            }
            done.searched += 1;
            if self.take_score::<K>(node, &c, score, beta, &known, &mut done) {
                break;
            }
            if pruning.quiets(done.searched, done.best, done.alpha) {
                picker.skip_quiets_without_check();
            }
        }
        Some((done.best, done.best_move, done.searched))
    }

    /// The move `m` as the loop will search it, or `None` when it is left out: the excluded
    /// move, an illegal one, or one pruned near the leaves. Decided before the move is played
    /// (quiet moves even before the legality test): only a check saves a quiet move from
    /// pruning, and asking that costs less than playing it.
    #[inline(always)]
    fn candidate<K: NodeKind>(
        &mut self,
        m: Move,
        node: &Node,
        pruning: &Pruning,
        known: &Known,
        done: &Progress,
    ) -> Option<Candidate> {
        let (searched, best) = (done.searched, done.best);
        if m == node.excluded {
            return None;
        }
        let capture = self.pos.is_capture(m);
        if !capture && pruning.quiets(searched, best, done.alpha) && !self.pos.gives_check(m) {
            self.stats.count(Event::QuietPruned);
            return None;
        }
        let quiet_killer = m == known.killers[0] || m == known.killers[1];
        let history = if capture {
            0
        } else {
            self.hist.quiet(&self.pos, m, known.before.rows)
        };
        // History pruning: quiet moves that have failed again and again in this context
        // (killers excepted), alone or together with futility.
        if !capture && !quiet_killer {
            let event = if pruning.by_history(searched, best, history) {
                Some(Event::HistoryPruned)
            } else if pruning.by_history_futility(searched, best, done.alpha, history) {
                Some(Event::HistoryFutilityPruned)
            } else {
                None
            };
            if let Some(event) = event
                && !self.pos.gives_check(m)
            {
                self.stats.count(event);
                return None;
            }
        }
        if capture
            && pruning.capture_futile(searched, best, done.alpha, &self.pos, m)
            && !self.pos.gives_check(m)
        {
            self.stats.count(Event::CaptureFutilityPruned);
            return None;
        }
        // The root's list holds legal moves only.
        if !K::ROOT && !self.pos.is_legal_pseudo(m, node.in_check) {
            return None;
        }
        // SEE pruning: captures that lose much material.
        if capture
            && pruning.by_see(searched, best)
            && !see_ge(&self.pos, m, pruning.see_threshold)
            && (self.params.see_spare_checks == 0 || !self.pos.gives_check(m))
        {
            self.stats.count(Event::SeePruned);
            return None;
        }
        if !capture && pruning.quiet_loses(searched, best, &self.pos, m) && !self.pos.gives_check(m)
        {
            self.stats.count(Event::QuietSeePruned);
            return None;
        }
        Some(Candidate {
            mv: m,
            capture,
            quiet_killer,
            history,
        })
    }

    /// Plays and searches one move (extended when it checks or is singular; a later one
    /// reduced), then takes it back. Returns its score from this node's side.
    #[inline(always)]
    fn search_move<K: NodeKind>(
        &mut self,
        ctx: &SearchContext,
        node: &Node,
        c: &Candidate,
        done: &Progress,
        beta: i32,
    ) -> i32 {
        let (m, depth, ply, alpha) = (c.mv, node.depth, node.ply, done.alpha);
        let may_extend_check =
            (ply as i32) < 2 * self.root_depth && depth >= self.params.check_ext_depth;
        // Only a check that does not lose material is extended, at a deep enough node; SEE only
        // where a check may be.
        let safe_check = may_extend_check
            && self.pos.may_give_check(m)
            && see_ge(&self.pos, m, self.params.check_ext_see);
        let (undo, gives_check) = self.make(ctx, m, ply);
        self.stack[ply].history = c.history;
        self.stack[ply].searched_before = u16::try_from(done.searched).unwrap_or(u16::MAX);
        let check_extension = gives_check && safe_check;
        if check_extension {
            self.stats.count(Event::CheckExtension);
        }
        // The singular test ran only where extensions are allowed (0 elsewhere).
        let singular = if m == node.tt_move { node.singular } else { 0 };
        // The singular test's verdict, where it gave one, stands over the check's.
        let extension = if singular != 0 {
            singular
        } else {
            i32::from(check_extension)
        };
        let new_depth = depth - 1 + extension;
        let score = if done.searched == 0 {
            -self.search::<K::FirstChild>(ctx, -beta, -alpha, new_depth, ply + 1)
        } else {
            // The root's moves are all searched to full depth.
            let r = if !K::ROOT
                && depth >= self.params.lmr_depth
                && !c.capture
                && !node.in_check
                && !gives_check
            {
                self.reduction::<K>(node, done.searched, c.quiet_killer, c.history, new_depth)
            } else {
                0
            };
            if r > 0 {
                self.stats.count(Event::Reduced);
            }
            self.search_later::<K>(ctx, done, beta, new_depth, r, ply)
        };
        self.unmake(m, undo);
        score
    }

    /// Takes a searched move's score into the loop's state: a new best, a new alpha and PV,
    /// and on a cutoff the histories taught. Returns whether the move cuts.
    #[inline(always)]
    fn take_score<K: NodeKind>(
        &mut self,
        node: &Node,
        c: &Candidate,
        score: i32,
        beta: i32,
        known: &Known,
        done: &mut Progress,
    ) -> bool {
        let m = c.mv;
        if score > done.best {
            done.best = score;
            if score > done.alpha {
                done.best_move = m;
                self.update_pv(node.ply, m);
                if score >= beta {
                    if !K::ROOT {
                        self.stats.count(Event::BetaCutoff);
                        if done.searched == 1 {
                            self.stats.count(Event::FirstMoveCutoff);
                        }
                    }
                    // A cutoff at the root is an aspiration fail, not a refutation.
                    if !K::ROOT {
                        let p = &self.params;
                        let bonus = (p.history_bonus_per_ply * node.depth - p.history_bonus_offset)
                            .min(p.history_bonus_max);
                        if !c.capture {
                            let failed = &done.quiets[..done.quiet_count];
                            self.hist
                                .reward(&self.pos, node.ply, known.before, m, failed, bonus);
                        }
                        if p.capture_history_percent > 0 {
                            let failed = &done.captures[..done.capture_count];
                            let bonus = bonus * p.capture_history_percent / 100;
                            let best = c.capture.then_some(m);
                            self.hist.reward_captures(&self.pos, best, failed, bonus);
                        }
                    }
                    return true;
                }
                done.alpha = score;
            }
        }
        if !c.capture && done.quiet_count < done.quiets.len() {
            done.quiets[done.quiet_count] = m;
            done.quiet_count += 1;
        } else if c.capture && done.capture_count < done.captures.len() {
            done.captures[done.capture_count] = m;
            done.capture_count += 1;
        }
        false
    }

    /// Late move reduction of a later quiet move: plies less than `new_depth`.
    #[inline(always)]
    fn reduction<K: NodeKind>(
        &self,
        node: &Node,
        searched: usize,
        quiet_killer: bool,
        history: i32,
        new_depth: i32,
    ) -> i32 {
        let mut r = i32::from(self.lmr[node.depth.min(63) as usize][searched.min(63)]);
        r -= i32::from(K::PV) + i32::from(quiet_killer);
        r += i32::from(!node.improving);
        // Expected cut nodes fail high on an early move or not at all.
        if K::CUT {
            r += self.params.lmr_cut_node;
        }
        // Moves that have often refuted siblings are reduced less, failures more.
        r -= history / self.params.history_lmr_divisor;
        // A node reached by a late move of its parent is less likely to fail low at once.
        let prior_moves = self.params.lmr_prior_moves;
        if prior_moves > 0 && i32::from(self.stack[node.ply - 1].searched_before) >= prior_moves {
            r -= 1;
        }
        r.clamp(0, new_depth - 1)
    }

    /// The search of a later move, made at `ply`: a zero window at `new_depth - r`, again at
    /// full depth when a reduced search beat alpha (deeper or shallower by how far it beat it,
    /// where `lmr_deeper_margin` is on), then (PV nodes) the full window when the score lands
    /// inside it. The root searches its later moves the same way, unreduced.
    #[inline(always)]
    fn search_later<K: NodeKind>(
        &mut self,
        ctx: &SearchContext,
        done: &Progress,
        beta: i32,
        new_depth: i32,
        r: i32,
        ply: usize,
    ) -> i32 {
        let (alpha, best) = (done.alpha, done.best);
        self.stack[ply].reduction = r;
        let mut s = -self.search::<Cut>(ctx, -alpha - 1, -alpha, new_depth - r, ply + 1);
        self.stack[ply].reduction = 0;
        let mut full = new_depth;
        if s > alpha && r > 0 {
            let p = &self.params;
            if p.lmr_deeper_margin > 0 {
                full += i32::from(s > alpha + p.lmr_deeper_margin + p.lmr_deeper_per_ply * r)
                    - i32::from(s < best + new_depth);
            }
            if full > new_depth - r {
                self.stats.count(Event::ReducedResearch);
                s = -self.search::<K::Child>(ctx, -alpha - 1, -alpha, full, ply + 1);
            }
        }
        if K::PV && s > alpha && s < beta {
            s = -self.search::<Pv>(ctx, -beta, -alpha, full, ply + 1);
        }
        s
    }

    /// Stores the node's result, first teaching the correction history by how much the static
    /// evaluation of a quiet position erred.
    fn store(
        &mut self,
        ctx: &SearchContext,
        node: &Node,
        best: i32,
        best_move: Move,
        bound: TtBound,
    ) {
        if !node.in_check
            && (best_move.is_null() || !self.pos.is_capture(best_move))
            && best.abs() < DECISIVE
            && !(bound == TtBound::Lower && best <= node.static_eval)
            && !(bound == TtBound::Upper && best >= node.static_eval)
        {
            let moves = self.correction_moves(node.ply);
            self.corr
                .update(&self.pos, moves, node.depth, best, node.static_eval);
        }
        let score = to_tt(best, node.ply);
        ctx.tt.store(
            self.pos.key(),
            best_move,
            score,
            node.raw_eval,
            node.depth,
            bound,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_that_loses_at_once_earns_a_negative_history_bonus() {
        let p = Params {
            eval_history_per_cp: 16,
            ..Params::default()
        };
        // The mover stood +50; after the move the other side stands +100: 150 lost.
        assert_eq!(
            eval_history_bonus(&p, 50, 100),
            (-150 * p.eval_history_per_cp).max(-p.eval_history_max)
        );
        // +50 before, the other side at -80 after: 30 gained.
        assert_eq!(eval_history_bonus(&p, 50, -80), 30 * p.eval_history_per_cp);
        assert_eq!(eval_history_bonus(&p, 50, -50), 0);
        assert_eq!(eval_history_bonus(&p, -3000, -3000), p.eval_history_max);
        // Off by default: no bonus either way.
        assert_eq!(eval_history_bonus(&Params::default(), 50, 100), 0);
    }
}
