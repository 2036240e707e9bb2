//! Users of the engine API and the rules, never their insides: terminal play, the match runner
//! and the PGN writer they share.

pub mod book;
pub mod clock;
pub mod datagen;
pub mod egtb;
pub mod interrupt;
pub mod matches;
pub mod pgn;
pub mod play;
pub mod selfplay;
pub mod shard;
pub mod train;
pub mod wdl_fit;
