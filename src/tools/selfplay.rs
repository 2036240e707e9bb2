//! One self-play game played in-process, for training data (`chuhan tune gen`, `chuhan
//! datagen`): a random opening drawn from a seeded generator, then both sides search every
//! move on one thread under a fixed depth or node budget, with a fresh hash table and fresh
//! histories per game, the referee ending the game. A game depends only on the engine, its
//! seed and the settings, not on the thread that plays it or the machine.

use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex};

use crate::board::{Move, Position};
use crate::engine::Engine;
use crate::eval::nnue::network::Network;
use crate::rng::Rng;
use crate::rules::{GameRecord, GameResult, Reason};
use crate::search::params::Params;
use crate::search::{Limits, Report, Reporter, Score};

/// Hash table per game.
const HASH_MB: usize = 8;

/// Ends a game whose score stays decisive: after `plies` plies in a row whose searches all
/// scored at least `cp` for the same side, that side wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    pub cp: i32,
    pub plies: u32,
}

#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// The limit of every move's search: a depth or a node count.
    pub limits: Limits,
    /// Random legal plies played from the start position before the searches take over.
    pub opening_plies: RangeInclusive<u32>,
    /// Openings whose short search (this many nodes) scores beyond `max_opening_cp` for either
    /// side are drawn again; `None` keeps every opening.
    pub opening_check: Option<(u64, i32)>,
    pub adjudication: Option<Adjudication>,
    /// Plies without capture before the referee draws, 0 = off.
    pub move_limit: u32,
    /// The move limit the searches are told (it fades their evaluation; 0 = none, for scores
    /// that do not depend on the plies without capture).
    pub search_move_limit: u32,
    /// Games longer than this are drawn.
    pub max_plies: usize,
    /// The net that evaluates, `None` for the hand-written evaluation.
    pub net: Option<Arc<Network>>,
}

/// A searched position of a game: its score (centipawns, side to move's view; `None` for a
/// mate score), the move played and whether it was quiet (neither in check nor a capture or a
/// check played).
#[derive(Clone, Debug)]
pub struct Searched {
    pub pos: Position,
    pub ply: u32,
    pub score: Option<i32>,
    pub best: Move,
    pub quiet: bool,
}

/// Why a self-play game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Rules(Reason),
    Adjudicated,
    MaxPlies,
}

impl Ending {
    pub fn name(self) -> String {
        match self {
            Ending::Rules(r) => match r {
                Reason::PerpetualCheck { .. } => "perpetual check".into(),
                Reason::PerpetualChase { .. } => "perpetual chase".into(),
                other => other.to_string(),
            },
            Ending::Adjudicated => "adjudicated".into(),
            Ending::MaxPlies => "ply cap".into(),
        }
    }
}

pub struct PlayedGame {
    pub positions: Vec<Searched>,
    pub result: GameResult,
    pub ending: Ending,
}

/// Keeps the best move and its score of one search.
#[derive(Default)]
struct Outcome(Mutex<(Option<Score>, Option<Move>)>);

impl Reporter for Outcome {
    fn report(&self, report: Report) {
        if let Report::BestMove(b) = report {
            *self.0.lock().expect("reporter lock") = (b.score, b.best);
        }
    }
}

/// One engine for a game, on one thread: its hash table and histories last the game.
struct Player {
    engine: Engine,
    outcome: Arc<Outcome>,
}

impl Player {
    fn new(cfg: &SelfPlayConfig) -> Player {
        let outcome = Arc::new(Outcome::default());
        let engine = Engine::in_process(
            outcome.clone(),
            HASH_MB,
            cfg.search_move_limit,
            cfg.net.clone(),
            Params::default(),
        );
        Player { engine, outcome }
    }

    /// Searches the current position of `rec` under `limits`: the best move and its score.
    fn search(&mut self, rec: &GameRecord, limits: &Limits) -> (Option<Move>, Option<Score>) {
        self.engine.set_game(rec.clone());
        self.engine.go(limits.clone());
        self.engine.wait();
        let (score, best) = *self.outcome.0.lock().expect("reporter lock");
        (best, score)
    }
}

/// A random opening that leaves a game going (and, with `opening_check`, not already lost).
fn opening(cfg: &SelfPlayConfig, rng: &mut Rng, player: &mut Player) -> GameRecord {
    let (lo, hi) = (*cfg.opening_plies.start(), *cfg.opening_plies.end());
    loop {
        let mut rec = GameRecord::new(Position::startpos());
        let plies = lo + rng.below((hi.saturating_sub(lo) + 1) as usize) as u32;
        for _ in 0..plies {
            let moves = rec.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.iter().copied().nth(rng.below(moves.len()));
            rec.push(m.expect("in range"));
        }
        if rec.verdict(cfg.move_limit).is_some() {
            continue;
        }
        if let Some((nodes, max_cp)) = cfg.opening_check {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            player.engine.clear_hash();
            match player.search(&rec, &limits).1 {
                Some(Score::Cp(cp)) if cp.abs() <= max_cp => {}
                _ => continue,
            }
            player.engine.clear_hash();
        }
        return rec;
    }
}

/// Plays game `index` of a run seeded with `seed`.
pub fn play_game(cfg: &SelfPlayConfig, seed: u64, index: u64) -> PlayedGame {
    let mut rng = Rng::for_game(seed, index);
    let mut player = Player::new(cfg);
    let mut rec = opening(cfg, &mut rng, &mut player);
    let mut positions = Vec::new();
    // The side whose win every recent score agreed on, and for how many plies.
    let mut decisive: (Option<crate::Color>, u32) = (None, 0);
    let (result, ending) = loop {
        if let Some(v) = rec.verdict(cfg.move_limit) {
            break (v.result, Ending::Rules(v.reason));
        }
        if rec.moves().len() >= cfg.max_plies {
            break (GameResult::Draw, Ending::MaxPlies);
        }
        let (best, score) = player.search(&rec, &cfg.limits);
        let Some(best) = best else {
            // No legal move: the verdict above would have ended the game.
            break (GameResult::Draw, Ending::MaxPlies);
        };
        let pos = rec.position();
        let us = pos.side_to_move();
        if let Some(adj) = cfg.adjudication {
            let winner = match score {
                Some(Score::Cp(cp)) if cp >= adj.cp => Some(us),
                Some(Score::Cp(cp)) if cp <= -adj.cp => Some(us.flip()),
                Some(Score::Mate(n)) if n > 0 => Some(us),
                Some(Score::Mate(_)) => Some(us.flip()),
                _ => None,
            };
            decisive = match (winner, decisive) {
                (Some(w), (Some(d), n)) if w == d => (Some(w), n + 1),
                (Some(w), _) => (Some(w), 1),
                (None, _) => (None, 0),
            };
            if let (Some(w), n) = decisive
                && n >= adj.plies
            {
                break (GameResult::win_for(w), Ending::Adjudicated);
            }
        }
        positions.push(Searched {
            ply: rec.moves().len() as u32,
            score: match score {
                Some(Score::Cp(cp)) => Some(cp),
                _ => None,
            },
            best,
            quiet: !pos.in_check() && !pos.is_capture(best) && !pos.gives_check(best),
            pos: pos.clone(),
        });
        rec.push(best);
    };
    PlayedGame {
        positions,
        result,
        ending,
    }
}
