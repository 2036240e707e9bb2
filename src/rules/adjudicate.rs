//! The `adjudicate` command: judge a game given as a FEN and moves.

use std::fmt;

use crate::board::{FenError, Position};
use crate::movegen::MoveError;

use super::record::GameRecord;
use super::verdict::Verdict;

/// Why a game could not be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdjudicateError {
    Fen(FenError),
    /// The move at this 1-based ply was refused.
    Move {
        ply: usize,
        error: MoveError,
    },
}

impl fmt::Display for AdjudicateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdjudicateError::Fen(e) => write!(f, "bad FEN: {e}"),
            AdjudicateError::Move { ply, error } => write!(f, "ply {ply}: {error}"),
        }
    }
}

impl std::error::Error for AdjudicateError {}

/// Plays `moves` (ICCS, each argument may hold several separated by spaces) from `fen` (default:
/// the start position) and judges the game: `None` while it goes on.
pub fn adjudicate<S: AsRef<str>>(
    fen: Option<&str>,
    moves: &[S],
    move_limit: u32,
) -> Result<Option<Verdict>, AdjudicateError> {
    let start = match fen {
        Some(f) => Position::from_fen(f).map_err(AdjudicateError::Fen)?,
        None => Position::startpos(),
    };
    let mut record = GameRecord::new(start);
    let texts = moves.iter().flat_map(|m| m.as_ref().split_whitespace());
    for (i, text) in texts.enumerate() {
        let m = record
            .position()
            .parse_move(text)
            .map_err(|error| AdjudicateError::Move { ply: i + 1, error })?;
        record.push(m);
    }
    Ok(record.verdict(move_limit))
}
