//! Tools built on the engine and the rules: users of the library's API, never its insides.

pub mod matches;
