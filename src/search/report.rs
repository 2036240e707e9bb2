//! What a search tells its caller: progress lines, the best move, messages, through a
//! `Reporter` the front end supplies.

use crate::board::Move;

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns, where 100 is about a pawn that has crossed the river.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

/// Whether a reported score is exact or a bound from a failed aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One progress report of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number when MultiPV > 1.
    pub multipv: u32,
    pub score: Score,
    pub bound: Bound,
    /// Win, draw and loss chances of `score`, per mille (`eval::wdl`); `None` for a book
    /// move, whose score is its weight.
    pub wdl: Option<[u32; 3]>,
    pub nodes: u64,
    pub nps: u64,
    /// Positions the endgame tables answered; `None` without tables.
    pub tbhits: Option<u64>,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// The end of a search: exactly one per `go`, after its last `Info`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// `None` when the side to move has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    /// Score of the best move, for draw-offer and resign decisions in the front end.
    pub score: Option<Score>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    Info(SearchInfo),
    BestMove(BestMove),
    /// Free text for the user (`info string` / `info message`).
    Message(String),
}

/// Receives reports from the search thread(s), in order.
pub trait Reporter: Send + Sync + 'static {
    fn report(&self, report: Report);
}
