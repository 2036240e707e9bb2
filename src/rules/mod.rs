//! The referee: one judge for the search, the protocol, the match runner and terminal play.
//!
//! SKELETON: the types and signatures here are the agreed interface; the rules work fills in
//! perpetual check and chase judging, which for now are reported as plain repetition draws.

pub mod record;
pub mod search_history;
pub mod verdict;

pub use record::GameRecord;
pub use search_history::{RuleScore, SearchHistory};
pub use verdict::{GameResult, Reason, Verdict};

/// Default move limit: 60 moves (120 plies) without a capture is a draw.
pub const DEFAULT_MOVE_LIMIT: u32 = 120;
