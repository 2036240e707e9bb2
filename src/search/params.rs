//! Every tunable number of the search and its time management, declared once: name, default,
//! range and SPSA step. The engine accepts each as a hidden option (`setoption name
//! rfp_margin value 95`, the same in UCCI), `chuhan tune spsa` moves them by games and writes
//! the result back into this table, and `chuhan tune params` lists them.

/// One tunable number: its SPSA step is the perturbation at the end of a run (`c_end`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: i32,
}

macro_rules! params {
    ($($(#[doc = $doc:literal])* $name:ident: $default:literal, $min:literal, $max:literal, $step:literal;)*) => {
        /// The values one search runs with.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: i32,)*
        }

        impl Default for Params {
            fn default() -> Params {
                Params { $($name: $default,)* }
            }
        }

        /// The table, in declaration order.
        pub const TABLE: &[Param] = &[
            $(Param { name: stringify!($name), default: $default, min: $min, max: $max, step: $step },)*
        ];

        impl Params {
            /// The value of the `index`th parameter of [`TABLE`].
            pub fn get(&self, index: usize) -> i32 {
                let values = [$(self.$name,)*];
                values[index]
            }

            /// Sets the `index`th parameter of [`TABLE`], clamped to its range.
            pub fn set(&mut self, index: usize, value: i32) {
                let p = TABLE[index];
                let value = value.clamp(p.min, p.max);
                let mut i = 0;
                $(
                    if i == index {
                        self.$name = value;
                    }
                    i += 1;
                )*
                debug_assert_eq!(i, TABLE.len());
            }
        }
    };
}

params! {
    /// Reverse futility pruning: deepest node, and margin per ply of depth.
    rfp_depth: 7, 3, 12, 1;
    rfp_margin: 90, 40, 200, 8;
    /// Reverse futility's margin grows by the history of the move that led here over this: a
    /// reply the history trusts may hold a threat the evaluation misses (0: off; on trial).
    rfp_prior_history_divisor: 0, 0, 1000, 20;
    /// Null move: reduction base, plies of depth per extra ply of reduction, centipawns above
    /// beta per extra ply and their most, and the depth from which a fail-high is verified.
    nmp_base: 3, 1, 6, 1;
    nmp_depth_divisor: 4, 2, 8, 1;
    nmp_eval_divisor: 200, 80, 400, 20;
    nmp_eval_max: 3, 1, 6, 1;
    nmp_verify_depth: 10, 6, 16, 1;
    /// Null move only where the static evaluation is at least beta less `nmp_static_per_ply`
    /// per ply of depth plus `nmp_static_base` (0: off; on trial, STRENGTH.md).
    nmp_static_base: 0, 0, 400, 20;
    nmp_static_per_ply: 7, 0, 40, 1;
    /// Null move only where the table's refined evaluation is not below the static one (1; 0:
    /// off; on trial, STRENGTH.md).
    nmp_eval_over_static: 0, 0, 1, 1;
    /// Null move only where the move that led here has a history below this: a reply the
    /// history trusts may be a threat (0: off; Stockfish's statScore bound; on trial).
    nmp_prior_history_max: 0, 0, 65536, 2000;
    /// A node whose ancestor two plies back was in check compares its evaluation with the one
    /// four plies back to judge whether it is improving (1; 0: it always counts as improving;
    /// on trial, STRENGTH.md).
    improving_far: 0, 0, 1, 1;
    /// Internal iterative reduction: least depth, and whether expected fail-low nodes are
    /// left out (1; 0: every kind; on trial, Stockfish's and Pikafish-HCE's kinds): a node
    /// that will fail low gains little from a shallower first look.
    iir_depth: 4, 2, 8, 1;
    iir_skip_all: 0, 0, 1, 1;
    /// A node whose parent reduced the move to it by at least this many plies, and whose
    /// opponent's evaluation did not worsen over that move, is searched a ply deeper (0: off;
    /// on trial, Stockfish's hindsight extension): the reduction was likely too much.
    hindsight_reduction: 0, 0, 6, 1;
    /// PV nodes below the root: plies less without a hash move, and with one, half the plies
    /// by which the table's entry is shallower, at most two more (0: off; on trial,
    /// STRENGTH.md).
    pv_iir: 0, 0, 4, 1;
    /// Singular extension: least depth, and the margin below the hash score per ply.
    singular_depth: 8, 5, 12, 1;
    singular_margin: 2, 1, 5, 1;
    /// Double extension: how far below the singular test's bound a non-PV hash move's
    /// alternatives must stay for it to be searched two plies deeper.
    double_ext_margin: 20, 0, 100, 5;
    /// Check extension: the least SEE of a checking move that is extended (a check that
    /// loses more material only spends depth), and the least depth of a node whose checks
    /// are extended.
    check_ext_see: 0, -300, 300, 25;
    check_ext_depth: 10, 0, 16, 1;
    /// Negative extensions of a hash move the singular test found not forced: plies less when
    /// its table score cuts, and when it fails low (0: off; on trial, STRENGTH.md).
    negext_cut: 0, 0, 3, 1;
    negext_low: 0, 0, 2, 1;
    /// Futility pruning's deepest predicted depth of a quiet move (its node's depth less one
    /// and its reduction); late move pruning's deepest node and its move count base
    /// (`base + depth²`, divided by `lmp_worse_percent` / 100 when not improving).
    quiet_prune_depth: 6, 3, 9, 1;
    lmp_depth: 5, 3, 8, 1;
    lmp_base: 3, 1, 8, 1;
    lmp_worse_percent: 200, 100, 600, 25;
    /// Futility pruning of quiet moves: margin at depth 0 and per ply; and one move at a
    /// time, the margin moved by its history over this divisor (0: off; on trial).
    futility_base: 100, 30, 250, 10;
    futility_per_ply: 90, 40, 200, 8;
    futility_history_divisor: 0, 0, 400, 10;
    /// Futility pruning of captures: predicted depths below this (0: off; on trial), margin
    /// above the victim's value at depth 0 and per ply.
    capture_futility_depth: 0, 0, 12, 1;
    capture_futility_base: 100, 0, 400, 15;
    capture_futility_per_ply: 150, 50, 400, 15;
    /// History pruning: deepest node, and the history per ply below which a quiet move goes.
    history_prune_depth: 4, 2, 7, 1;
    history_prune_per_ply: 3000, 1000, 6000, 250;
    /// SEE pruning of captures: deepest node, and the loss allowed per ply.
    see_prune_depth: 6, 3, 9, 1;
    see_capture_margin: 120, 50, 250, 10;
    /// SEE pruning spares the captures that give check (1; 0: off; on trial): SEE counts
    /// recaptures that the flying general or a pin forbid, so a mating capture can look lost.
    see_spare_checks: 0, 0, 1, 1;
    /// SEE pruning of quiet moves (no checks): a move that loses more than `per_ply2` d² +
    /// `per_ply` d in SEE, d its predicted depth, is not tried (0: off; on trial).
    quiet_see_per_ply2: 0, 0, 60, 2;
    quiet_see_per_ply: 32, 0, 150, 5;
    /// Late move reductions: least depth, the table's `base + ln(depth) ln(moves) / divisor`
    /// in hundredths, and the history worth one ply.
    lmr_depth: 3, 2, 5, 1;
    lmr_base: 50, 0, 150, 10;
    lmr_divisor: 220, 150, 350, 10;
    history_lmr_divisor: 8000, 4000, 16000, 500;
    /// One ply less of reduction where the parent had searched at least this many moves
    /// before the one that led here (Pikafish-HCE's `(ss-1)->moveCount > 6`; 0: off; on trial).
    lmr_prior_moves: 0, 0, 32, 1;
    /// Late move reductions: plies more at an expected cut node.
    lmr_cut_node: 1, 0, 4, 1;
    /// A reduced move that beats alpha is searched again one ply deeper when it beat alpha by
    /// this plus `lmr_deeper_per_ply` per ply of its reduction, one ply shallower when it
    /// stays within a centipawn per ply of the best score (0: off; on trial, STRENGTH.md).
    lmr_deeper_margin: 0, 0, 200, 5;
    lmr_deeper_per_ply: 4, 0, 20, 1;
    /// Quiescence delta pruning margin, and the margin above the static evaluation below
    /// which only captures that win material are tried.
    delta_margin: 150, 50, 400, 15;
    qs_futility_margin: 45, 0, 200, 10;
    /// Quiescence out of check: moves tried before the later captures are pruned (recaptures
    /// and checks excepted); in check: quiet evasions tried before the rest are cut, once a
    /// line is not mated.
    qs_move_limit: 2, 1, 64, 1;
    qs_quiet_evasions: 2, 1, 64, 1;
    /// Quiescence's first ply also tries the quiet checks that keep their piece (0: off; on
    /// trial, STRENGTH.md).
    qs_checks: 0, 0, 1, 1;
    /// History bonus of a cutoff: per ply of depth, less an offset, at most this.
    history_bonus_per_ply: 300, 100, 600, 25;
    history_bonus_offset: 250, 0, 600, 25;
    history_bonus_max: 2500, 1000, 5000, 200;
    /// Continuation history also four plies back (0: off; on trial, STRENGTH.md).
    cont_history_ply4: 0, 0, 1, 1;
    /// Structure history: quiet moves also judged by how they fared with the same pawns on
    /// the board (0: off; on trial, Stockfish's pawn history).
    structure_history: 0, 0, 1, 1;
    /// Correction history of the last two moves' (piece, destination), in percent of each of
    /// the structure's and the attackers' (0: off; on trial, Stockfish's continuation
    /// correction).
    corr_moves_percent: 0, 0, 200, 10;
    /// Capture history's bonus in percent of the quiet moves' (0: off; on trial, STRENGTH.md).
    capture_history_percent: 0, 0, 200, 10;
    /// Butterfly history of the last quiet move by the evaluations around it: per centipawn
    /// its mover lost (0: off; on trial, STRENGTH.md), at most this.
    eval_history_per_cp: 0, 0, 40, 2;
    eval_history_max: 2000, 500, 4000, 250;
    /// Aspiration window: first half-width, its growth per fail in percent, and the width
    /// from which the window opens fully.
    aspiration: 25, 10, 60, 3;
    aspiration_growth: 50, 25, 100, 5;
    aspiration_full: 1000, 300, 3000, 100;
    /// Plies less for each fail high in a row of the root's aspiration search (0: off; on
    /// trial, STRENGTH.md): a move that beats the window is confirmed more cheaply.
    aspiration_fail_high_plies: 0, 0, 2, 1;
    /// Time: moves the clock is spread over when the control does not say, the share of the
    /// increment spent per move (percent) and the hard limit in percent of the soft one.
    time_moves_to_go: 30, 15, 50, 2;
    time_inc_percent: 75, 40, 100, 5;
    time_hard_percent: 500, 200, 800, 25;
    /// Time: the soft limit in percent when the best move is stable, what each change of the
    /// best move adds (halving every iteration) and the most it reaches.
    stability_base: 70, 40, 100, 5;
    stability_change: 100, 50, 200, 10;
    stability_max: 200, 120, 300, 10;
    /// Time: the soft limit in percent where the best move has taken at least
    /// `time_effort_share` percent of the main thread's nodes, from depth 10 (0: off; on
    /// trial, Stockfish's node effort): a move the search hardly questions needs less time.
    time_effort_share: 0, 0, 100, 2;
    time_effort_percent: 75, 40, 100, 5;
}

impl Params {
    /// The numbers of a search asked for a mate (`go mate`): no reverse futility, and no
    /// quiet move pruned by late move, futility or history pruning. Those judge a node or a
    /// move by its static evaluation and its past, which cannot see a quiet mate, and in a won
    /// position they hid mates in three until depth 16 (STRENGTH.md, thirty-seventh session).
    /// Checks are extended at every depth, as before the clock showed that extending them
    /// only from depth 10 plays better (STRENGTH.md, thirty-ninth session): a mate is a line
    /// of checks more often than not. Reductions, the null move and the rest stay.
    pub fn for_mate_search(self) -> Params {
        Params {
            rfp_depth: 0,
            check_ext_depth: 0,
            lmp_depth: 0,
            quiet_prune_depth: -1,
            history_prune_depth: 0,
            futility_history_divisor: 0,
            ..self
        }
    }
}

/// The index in [`TABLE`] of the parameter named `name` (any case).
pub fn find(name: &str) -> Option<usize> {
    TABLE.iter().position(|p| p.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_with_positive_steps() {
        let d = Params::default();
        for (i, p) in TABLE.iter().enumerate() {
            assert_eq!(d.get(i), p.default, "{}", p.name);
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(p.step > 0 && p.step <= p.max - p.min, "{p:?}");
        }
        let mut names: Vec<_> = TABLE.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TABLE.len());
    }

    #[test]
    fn set_reaches_only_its_own_field_and_clamps() {
        for (i, param) in TABLE.iter().enumerate() {
            let mut p = Params::default();
            p.set(i, param.max + 1000);
            assert_eq!(p.get(i), param.max);
            for (j, other) in TABLE.iter().enumerate().filter(|&(j, _)| j != i) {
                assert_eq!(
                    p.get(j),
                    other.default,
                    "{} moved {}",
                    param.name,
                    other.name
                );
            }
            p.set(i, param.min - 1000);
            assert_eq!(p.get(i), param.min);
        }
        assert_eq!(find("RFP_MARGIN"), Some(1));
        assert_eq!(find("no such"), None);
    }
}
