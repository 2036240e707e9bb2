//! The root node: the moves to search (legal, not banned, among `searchmoves`), each with its
//! score and line, searched by the node function's move loop (`node.rs`) in the order of the
//! last iteration and sorted by score after each search.

use crate::board::{Move, Position};
use crate::egtb::{Tablebase, Verdict};
use crate::tt::TranspositionTable;

use super::driver::SearchSetup;
use super::node::Node;
use super::node_kind::Root;
use super::picker::mvv_lva;
use super::score::{INFINITE, NO_EVAL};
use super::worker::{SearchContext, Worker};

#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    /// Score in the iteration under way (`-INFINITE` when it has not beaten alpha).
    pub(super) score: i32,
    /// Score from the last completed iteration.
    pub(super) prev_score: i32,
    pub(super) pv: Vec<Move>,
    /// Nodes its subtree took in this search, all iterations (for time management).
    pub(super) nodes: u64,
}

/// The moves to search at the root, the table's move first, then captures by victim and
/// attacker. `Err(true)` when the side to move is mated or stalemated, `Err(false)` when every
/// legal move is left out.
pub(super) fn root_moves(
    setup: &SearchSetup,
    tt: &TranspositionTable,
) -> Result<Vec<RootMove>, bool> {
    let (pos, limits) = (setup.game.position(), &setup.limits);
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(true);
    }
    let tt_move = tt.probe(pos.key()).map_or(Move::NULL, |e| e.mv);
    let mut moves: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| !setup.banmoves.contains(m))
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .collect();
    if moves.is_empty() {
        return Err(false);
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
    Ok(moves
        .iter()
        .map(|&mv| RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            pv: vec![mv],
            nodes: 0,
        })
        .collect())
}

/// Where the endgame tables call the root a draw, keeps the root moves that hold it (a move
/// that lets a table win go is not played) and returns true: the search then chooses among
/// them by its own evaluation, not by the tables' draws, all equal, so that it plays the draw
/// that leaves the opponent the most to find. Leaves `root` alone where no kept move would be
/// left (`searchmoves` asked for losing moves only).
pub(super) fn hold_table_draw(
    tables: &Tablebase,
    pos: &Position,
    root: &mut Vec<RootMove>,
) -> bool {
    if tables.covers(pos) != Some(Verdict::Draw) {
        return false;
    }
    let holding: Vec<RootMove> = root
        .iter()
        .filter(|rm| {
            let mut child = pos.clone();
            child.do_move(rm.mv);
            matches!(
                tables.covers(&child),
                Some(Verdict::Draw | Verdict::Loss(_))
            )
        })
        .cloned()
        .collect();
    if holding.is_empty() {
        return false;
    }
    *root = holding;
    true
}

impl Worker {
    /// Searches the root moves from `pv_idx` on (the earlier ones are other MultiPV lines):
    /// no table, no pruning, no reductions, every move exact or a bound. Sorts them by score
    /// and returns the best, or a bound outside (alpha, beta).
    pub(super) fn search_root(
        &mut self,
        ctx: &SearchContext,
        alpha: i32,
        beta: i32,
        depth: i32,
    ) -> i32 {
        self.nodes += 1;
        let first = self.pv_idx;
        for rm in self.root[first..].iter_mut() {
            rm.score = -INFINITE;
        }
        let node = Node {
            depth,
            ply: 0,
            in_check: self.stack[0].in_check,
            raw_eval: NO_EVAL,
            static_eval: NO_EVAL,
            improving: false,
            tt_move: Move::NULL,
            excluded: Move::NULL,
            singular: 0,
        };
        if self.search_moves::<Root>(ctx, &node, alpha, beta).is_some() {
            self.root[first..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        }
        // Moves that fell short of alpha kept -INFINITE: the best is the first one's score
        // or the first to beat alpha, not a zero-window bound of a later move.
        self.root[first].score
    }

    /// The next root move to search, from the cursor `next`.
    #[inline(always)]
    pub(super) fn next_root_move(&self, next: &mut usize) -> Option<Move> {
        let m = self.root.get(*next).map(|rm| rm.mv);
        *next += 1;
        m
    }

    /// Keeps the score and line of the root move at `index` when it is the first searched or
    /// beats alpha; otherwise it is only known to fall short. `nodes`: what its search took.
    #[inline(always)]
    pub(super) fn record_root_move(
        &mut self,
        index: usize,
        first: bool,
        score: i32,
        alpha: i32,
        nodes: u64,
    ) {
        let rm = &mut self.root[index];
        rm.nodes += nodes;
        if first || score > alpha {
            rm.score = score;
            rm.pv.clear();
            rm.pv.push(rm.mv);
            rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
        } else {
            rm.score = -INFINITE;
        }
    }
}
