//! The board: piece and square types, the position with make/unmake and Zobrist keys, FEN.

pub mod fen;
pub mod notation;
pub mod position;
pub mod types;
pub mod zobrist;

pub use fen::{FenError, START_FEN};
pub use notation::{Notation, NotationError};
pub use position::{Bitboard, Position, Squares, Undo, bit};
pub use types::{Color, Move, Piece, PieceType, Square};
