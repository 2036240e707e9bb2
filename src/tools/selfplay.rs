//! One self-play game played in-process, for training data (`chuhan tune gen`, `chuhan
//! datagen`): a random opening drawn from a seeded generator, then both sides search every
//! move on one thread under a fixed depth or node budget, with a fresh hash table and fresh
//! histories per game, the referee ending the game. A game depends only on the engine, its
//! seed and the settings, not on the thread that plays it or the machine.

use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex};

use crate::board::{Move, Position};
use crate::engine::{Limits, Report, Reporter, Score};
use crate::eval::nnue::network::Network;
use crate::rules::{GameRecord, GameResult, Reason};
use crate::search::{Control, SearchSetup, Worker, run};
use crate::tt::TranspositionTable;

/// Hash table per game.
const HASH_MB: usize = 8;

/// A small, fixed pseudo-random generator (xorshift64*), so openings are reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// The generator of game `index` of a run seeded with `seed`.
    pub fn for_game(seed: u64, index: u64) -> Rng {
        Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }
}

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

/// One engine instance for a game: a hash table and a search thread's state.
struct Player {
    tt: TranspositionTable,
    control: Control,
    workers: [Box<Worker>; 1],
}

impl Player {
    fn new() -> Player {
        Player {
            tt: TranspositionTable::new(HASH_MB),
            control: Control::default(),
            workers: [Worker::new(0)],
        }
    }

    /// Searches the current position of `rec` under `limits`: the best move and its score.
    fn search(
        &mut self,
        rec: &GameRecord,
        limits: &Limits,
        cfg: &SelfPlayConfig,
    ) -> (Option<Move>, Option<Score>) {
        let mut setup = SearchSetup::fixed_depth(rec.clone(), 1);
        setup.limits = limits.clone();
        setup.move_limit = cfg.search_move_limit;
        setup.net = cfg.net.clone();
        self.control.reset(false);
        let outcome = Outcome::default();
        run(&mut self.workers, &setup, &self.tt, &self.control, &outcome);
        let (score, best) = *outcome.0.lock().expect("reporter lock");
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
            player.tt.clear();
            match player.search(&rec, &limits, cfg).1 {
                Some(Score::Cp(cp)) if cp.abs() <= max_cp => {}
                _ => continue,
            }
            player.tt.clear();
        }
        return rec;
    }
}

/// Plays game `index` of a run seeded with `seed`.
pub fn play_game(cfg: &SelfPlayConfig, seed: u64, index: u64) -> PlayedGame {
    let mut rng = Rng::for_game(seed, index);
    let mut player = Player::new();
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
        let (best, score) = player.search(&rec, &cfg.limits, cfg);
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
