//! The search: iterative deepening alpha-beta over the board, with its move ordering,
//! histories, time management and the fixed-depth benchmark.

pub mod bench;
pub mod control;
mod correction;
pub mod driver;
mod history;
mod picker;
pub mod score;
pub mod see;
pub mod strength;
pub mod time;
pub mod worker;

pub use control::Control;
pub use driver::{SearchSetup, run};
pub use worker::Worker;

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
