//! What bounds one search: the clock, fixed time, depth, nodes, mate, infinite, ponder.

use crate::board::Move;

/// Clock state for the side to move (all in milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_ms: u64,
    pub inc_ms: u64,
    /// Moves until the next time control, if any.
    pub movestogo: Option<u32>,
}

/// What bounds one search. All `None`/false means search until `stop`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub clock: Option<Clock>,
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// No new iteration once this many nodes are searched (`nodes` stays the hard limit): the
    /// nodes an unfinished last iteration would waste are saved.
    pub soft_nodes: Option<u64>,
    /// A lower `soft_nodes` for a root whose result training data does not keep (the side to
    /// move is in check, or the best move so far captures or gives check): datagen's nodes go
    /// to the labels it keeps.
    pub soft_nodes_unquiet: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    /// Pondering: no `BestMove` is reported before `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty = all).
    pub searchmoves: Vec<Move>,
}
