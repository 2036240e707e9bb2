//! What the referee says when a game is over.

use std::fmt;

use crate::board::{Color, PieceType, Square};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    RedWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// The result as PGN writes it.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// A win for `c`.
    pub fn win_for(c: Color) -> GameResult {
        match c {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Checkmate,
    Stalemate,
    /// The side that checked every move of the cycle (it loses).
    PerpetualCheck {
        by: Color,
    },
    /// The side that chased one piece every move of the cycle (it loses); the chased piece and
    /// where it stood when the cycle closed.
    PerpetualChase {
        by: Color,
        target: PieceType,
        square: Square,
    },
    Repetition,
    MoveLimit,
    NoAttackingMaterial,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub result: GameResult,
    pub reason: Reason,
}

impl Reason {
    /// The side that lost by breaking the repetition rules, if any.
    pub fn rule_breaker(self) -> Option<Color> {
        match self {
            Reason::PerpetualCheck { by } | Reason::PerpetualChase { by, .. } => Some(by),
            _ => None,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Checkmate => write!(f, "checkmate"),
            Reason::Stalemate => write!(f, "stalemate"),
            Reason::PerpetualCheck { by } => write!(f, "perpetual check by {}", by.name()),
            Reason::PerpetualChase { by, target, square } => write!(
                f,
                "perpetual chase by {} ({} on {square})",
                by.name(),
                target.name()
            ),
            Reason::Repetition => write!(f, "repetition"),
            Reason::MoveLimit => write!(f, "move limit"),
            Reason::NoAttackingMaterial => write!(f, "no attacking material"),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result.pgn(), self.reason)
    }
}
