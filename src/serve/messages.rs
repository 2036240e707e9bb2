//! The page's WebSocket API: JSON text messages, one object each, told apart by `type`.
//! Scores and win/draw/loss chances are from Red's side, as the page draws them.

use serde::{Deserialize, Serialize};

/// What the page asks.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// A new game, from the opening position or a FEN.
    New { fen: Option<String> },
    /// Play a move (ICCS, Chinese or WXF notation).
    Move {
        #[serde(rename = "move")]
        mv: String,
    },
    /// Take back a move (in play: the engine's last move and yours).
    Undo,
    /// The game as PGN (answered by `pgn`).
    ExportPgn,
    /// A new game from the first game of a PGN text.
    Pgn { pgn: String },
    /// How the engine plays and analyses.
    Settings(Settings),
    /// The engine plays the side to move now (play mode).
    Go,
    /// Stops the engine's search.
    Stop,
    /// Sends the state again.
    State,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The person plays `side`, chuhan the other.
    Play,
    /// The person plays both sides; chuhan analyses every position.
    Analyze,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Red,
    Black,
}

/// The page's settings; every field is checked before it takes effect.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub mode: Mode,
    /// The person's side in play mode.
    pub side: Side,
    /// Play at this calibrated strength (`UCI_Elo`); `None`: full strength.
    pub elo: Option<u64>,
    /// Thinking time per move in play mode.
    pub movetime_ms: u64,
    /// Lines shown in analysis.
    pub multipv: usize,
}

/// One move of the game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PlayedMove {
    pub iccs: String,
    pub chinese: String,
}

/// How the game ended, as the referee says.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Ending {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    pub reason: String,
}

/// A search score: centipawns or mate in moves (negative: Red is mated).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ScoreView {
    Cp(i32),
    Mate(i32),
}

/// What the server says.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The whole game, after every change.
    State {
        fen: String,
        /// The first position of the game.
        start_fen: String,
        side_to_move: Side,
        in_check: bool,
        moves: Vec<PlayedMove>,
        /// The legal moves of the side to move, ICCS (none once the game is over).
        legal: Vec<String>,
        /// The game's end, when the referee has one.
        ending: Option<Ending>,
        /// Red's score in centipawns at each position searched so far (index: plies played).
        scores: Vec<Option<i32>>,
        settings: Settings,
        /// The engine is searching the current position.
        thinking: bool,
    },
    /// One line of a search under way.
    Info {
        /// The plies played before the searched position.
        ply: usize,
        depth: u32,
        seldepth: u32,
        multipv: u32,
        score: ScoreView,
        /// `lower`/`upper` for an aspiration window's bound, else `exact`.
        bound: String,
        /// Red win, draw, Black win, per mille.
        wdl: Option<[u32; 3]>,
        nodes: u64,
        nps: u64,
        time_ms: u64,
        pv: Vec<String>,
        pv_chinese: Vec<String>,
    },
    /// The engine played this move (play mode).
    EngineMove { iccs: String, chinese: String },
    /// The game as PGN, in Chinese notation.
    Pgn { pgn: String },
    /// A request was refused; nothing changed.
    Error { message: String },
}
