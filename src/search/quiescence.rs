//! Quiescence search: captures (all evasions when in check; at its first ply, optionally the
//! quiet checks too) below the main search's horizon, standing pat on the static evaluation.

use crate::board::Move;
use crate::eval::piece_value;

use super::node::{result_bound, tt_cutoff};
use super::picker::{MovePicker, Moves};
use super::score::{DECISIVE, INFINITE, mated_in, to_tt};
use super::see::see_ge;
use super::stats::Event;
use super::worker::{SearchContext, Worker};

impl Worker {
    /// Quiescence search: captures, or every evasion when in check; with `checks`, the quiet
    /// checks that do not lose material as well, so a mating attack shows at the horizon.
    pub(super) fn qsearch(
        &mut self,
        ctx: &SearchContext,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.visit(ctx, ply) {
            return 0;
        }
        self.stats.count(Event::QNode);
        if let Some(v) = self.decided(ply).or_else(|| self.horizon(ply)) {
            return v;
        }
        let in_check = self.stack[ply].in_check;
        let checks = checks && !in_check;
        let pv_node = beta - alpha > 1;
        let key = self.pos.key();
        let tte = ctx.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(e) = tte {
            let wanted =
                |m| in_check || self.pos.is_capture(m) || checks && self.pos.gives_check(m);
            if self.pos.is_pseudo_legal(e.mv) && wanted(e.mv) {
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
                self.stats.count(Event::StandPat);
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
        let moves = match (in_check, checks) {
            (true, _) => Moves::All,
            (false, true) => Moves::CapturesAndQuietChecks,
            (false, false) => Moves::Captures,
        };
        let mut picker = MovePicker::new(tt_move, moves, killers, Move::NULL, cont_rows);
        let mut best_move = Move::NULL;
        let (mut legal, mut quiet_evasions) = (0i32, 0i32);
        // A recapture on the last move's square is never pruned.
        let last = self.stack[ply - 1].mv;
        let last_to = (!last.is_null()).then(|| last.to());
        let futility_base = static_eval + self.params.qs_futility_margin;
        while let Some(m) = picker.next(&self.pos, &self.hist) {
            if !self.pos.is_legal_pseudo(m, in_check) {
                continue;
            }
            legal += 1;
            if in_check {
                // Enough quiet evasions tried and not mated: the rest will not do better.
                if best > -DECISIVE && quiet_evasions >= self.params.qs_quiet_evasions {
                    self.stats.count(Event::EvasionsCut);
                    break;
                }
                quiet_evasions += i32::from(!self.pos.is_capture(m));
            } else if best > -DECISIVE && Some(m.to()) != last_to && !self.pos.gives_check(m) {
                // Only the first few captures by order, but recaptures and checks.
                if legal > self.params.qs_move_limit {
                    self.stats.count(Event::LateCapturePruned);
                    continue;
                }
                // Delta pruning: even winning this piece for free would not reach alpha.
                let gain = piece_value(self.pos.piece_at(m.to()).kind());
                if static_eval + gain + self.params.delta_margin <= alpha {
                    self.stats.count(Event::DeltaPruned);
                    continue;
                }
                // Standing pat is well short of alpha: only captures that win material.
                if futility_base <= alpha && !see_ge(&self.pos, m, 1) {
                    self.stats.count(Event::QsFutilityPruned);
                    best = best.max(futility_base);
                    continue;
                }
            } else if best > -DECISIVE
                && checks
                && !self.pos.is_capture(m)
                && !see_ge(&self.pos, m, 0)
            {
                // A quiet check that hangs its piece.
                continue;
            }
            let (undo, _) = self.make(ctx, m, ply);
            let score = -self.qsearch(ctx, -beta, -alpha, ply + 1, false);
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
        if in_check && legal == 0 {
            return mated_in(ply);
        }
        let bound = result_bound(best, beta, pv_node && !best_move.is_null());
        ctx.tt
            .store(key, best_move, to_tt(best, ply), raw_eval, 0, bound);
        best
    }
}
