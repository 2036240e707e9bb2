//! What limits each search of a match: a chess clock, a fixed time per move, a fixed depth or
//! a node count.

use std::fmt;

use crate::tools::clock::TimeControl;

/// How each search is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Clock(TimeControl),
    MoveTime(u64),
    Depth(u32),
    Nodes(u64),
}

impl fmt::Display for Limit {
    /// The PGN `TimeControl` value (`-` for untimed games) or a note of the fixed limit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Clock(tc) => write!(f, "{tc}"),
            Limit::MoveTime(ms) => write!(f, "{}/move", *ms as f64 / 1000.0),
            Limit::Depth(d) => write!(f, "depth {d}"),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}
