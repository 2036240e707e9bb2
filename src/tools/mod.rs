//! Offline tools built on the engine library (not used while playing).

pub mod tune;
