//! chuhan: a xiangqi (Chinese chess) engine.
//!
//! The library holds the whole engine; the `chuhan` binary is a thin front end over it.

pub mod bench;
pub mod board;
pub mod book;
pub mod checksum;
pub mod egtb;
pub mod engine;
pub mod eval;
pub mod movegen;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod search;
pub mod serve;
pub mod tools;
pub mod tt;
pub mod tune;

pub use board::{Color, FenError, Move, Piece, PieceType, Position, START_FEN, Square};
pub use movegen::MoveList;
