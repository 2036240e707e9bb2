//! `chuhan match`: engine-against-engine matches between UCI and UCCI xiangqi engines, judged
//! by the rules library, with Elo statistics, SPRT and PGN.
//!
//! One file per concern: `spec` (how an engine is described), `process` (running one),
//! `dialect` (UCI/UCCI lines), `clock`, `game` (one refereed game), `adjudication`, `openings`
//! (reading) and `opening_book` (generating), `stats`, `sprt`, `pgn`, `runner` (the match),
//! `report` (progress and summary), `resume` (going on from a cut-off run's PGN), `merge` (one report over shards' PGN files),
//! `cli` (the command line).

pub mod adjudication;
pub mod cli;
pub mod dialect;
pub mod game;
pub mod limit;
pub mod merge;
pub mod opening_book;
pub mod openings;
pub mod pgn;
pub mod process;
pub mod report;
pub mod resume;
pub mod runner;
pub mod spec;
pub mod sprt;
pub mod stats;

pub use crate::tools::clock::TimeControl;
pub use cli::{MatchArgs, MatchCli, run_cli};
pub use game::{GameOutcome, GameRules, MoveRecord, Termination};
pub use limit::Limit;
pub use runner::{FinishedGame, MatchConfig, MatchResult, PairingStats, run_match};
pub use spec::{EngineSpec, Protocol};
pub use sprt::{Sprt, SprtDecision};
