//! The search: iterative deepening alpha-beta over the board, with its move ordering,
//! histories, time management and the fixed-depth benchmark.

mod control;
mod correction;
mod deepening;
pub(crate) mod driver;
mod history;
pub mod limits;
mod node;
mod node_kind;
pub mod params;
mod picker;
mod quiescence;
pub mod report;
mod root;
pub(crate) mod score;
mod see;
pub mod stats;
pub mod strength;
pub(crate) mod threads;
mod time;
mod worker;

pub(crate) use control::Control;
pub(crate) use driver::{SearchSetup, run};
pub use limits::{Clock, Limits};
pub use report::{BestMove, Bound, Report, Reporter, Score, SearchInfo};
pub(crate) use worker::Worker;

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
