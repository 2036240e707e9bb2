//! Users of the engine API: terminal play and the PGN writer it shares with other tools.

pub mod pgn;
pub mod play;
