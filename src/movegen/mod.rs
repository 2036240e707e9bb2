//! Legal move generation: attack tables, generators, attack queries and perft.

pub mod attacks;
pub mod generate;
pub mod legality;
pub mod perft;
pub mod tables;

pub use generate::GenKind;
pub use generate::{MoveError, MoveList};
pub use perft::{perft, perft_divide, perft_report};
