//! The referee: one judge for the search, the protocol, the match runner and terminal play.

pub mod adjudicate;
pub mod chase;
pub mod record;
mod repetition;
pub mod search_history;
pub mod verdict;

#[cfg(test)]
mod tests;

pub use adjudicate::{AdjudicateError, adjudicate};
pub use record::GameRecord;
pub use search_history::{RuleScore, SearchHistory};
pub use verdict::{GameResult, Reason, Verdict};

/// Default move limit: 60 moves (120 plies) without a capture is a draw.
pub const DEFAULT_MOVE_LIMIT: u32 = 120;
