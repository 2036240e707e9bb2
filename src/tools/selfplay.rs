//! One self-play game played in-process, for training data (`chuhan tune gen`, `chuhan
//! datagen`): a random opening drawn from a seeded generator, then both sides search every
//! move on one thread under a fixed depth or node budget, with a fresh hash table and fresh
//! histories per game, the referee ending the game. A game depends only on the engine, its
//! seed and the settings, not on the thread that plays it or the machine.

use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex};

use crate::board::{Move, Position};
use crate::book::Book;
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

/// Openings walked out of a book before the random plies.
#[derive(Clone, Debug)]
pub struct BookWalk {
    pub book: Arc<Book>,
    /// Book moves at most; fewer where the book runs out.
    pub plies: u32,
    /// Names the book's contents (a hash of its file), for datagen's settings.
    pub id: u64,
}

#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// The limit of every move's search: a depth or a node count.
    pub limits: Limits,
    /// A walk out of a book from the start position, drawn by weight, before the random plies.
    pub book: Option<BookWalk>,
    /// Random legal plies played (after the book's) before the searches take over.
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
    /// The depth of the search's last completed iteration.
    pub depth: u32,
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

/// What one search found.
#[derive(Clone, Copy, Default)]
struct Found {
    best: Option<Move>,
    score: Option<Score>,
    /// The last completed iteration's depth.
    depth: u32,
}

/// Keeps what one search found.
#[derive(Default)]
struct Outcome(Mutex<Found>);

impl Reporter for Outcome {
    fn report(&self, report: Report) {
        let mut found = self.0.lock().expect("reporter lock");
        match report {
            Report::Info(i) if i.multipv == 1 => found.depth = i.depth,
            Report::BestMove(b) => (found.score, found.best) = (b.score, b.best),
            _ => {}
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

    /// Searches the current position of `rec` under `limits`.
    fn search(&mut self, rec: &GameRecord, limits: &Limits) -> Found {
        *self.outcome.0.lock().expect("reporter lock") = Found::default();
        self.engine.set_game(rec.clone());
        self.engine.go(limits.clone());
        self.engine.wait();
        *self.outcome.0.lock().expect("reporter lock")
    }
}

/// A random opening that leaves a game going (and, with `opening_check`, not already lost).
fn opening(cfg: &SelfPlayConfig, rng: &mut Rng, player: &mut Player) -> GameRecord {
    let (lo, hi) = (*cfg.opening_plies.start(), *cfg.opening_plies.end());
    loop {
        let mut rec = GameRecord::new(Position::startpos());
        if let Some(w) = &cfg.book {
            for m in w
                .book
                .walk(rec.position(), w.plies as usize, || rng.next_u64())
            {
                rec.push(m);
            }
        }
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
            match player.search(&rec, &limits).score {
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
        let Found { best, score, depth } = player.search(&rec, &cfg.limits);
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
            depth,
            best,
            quiet: pos.is_quiet_with(best),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{Entry, zobrist};

    #[test]
    fn games_open_with_a_walk_out_of_the_book() {
        let start = Position::startpos();
        let h2e2 = start.parse_move("h2e2").unwrap();
        let mut after = start.clone();
        after.do_move(h2e2);
        let entry = |pos: &Position, mv: Move| Entry {
            lock: zobrist::lock(pos, false),
            code: zobrist::encode(mv),
            weight: 1,
        };
        let h9g7 = after.parse_move("h9g7").unwrap();
        let book = Book::from_entries(vec![entry(&start, h2e2), entry(&after, h9g7)]);
        let cfg = SelfPlayConfig {
            limits: Limits {
                nodes: Some(200),
                ..Limits::default()
            },
            book: Some(BookWalk {
                book: Arc::new(book),
                plies: 8,
                id: 0,
            }),
            opening_plies: 0..=0,
            opening_check: None,
            adjudication: None,
            move_limit: 0,
            search_move_limit: 0,
            max_plies: 4,
            net: None,
        };
        for index in 0..3 {
            let game = play_game(&cfg, 7, index);
            let mut expected = after.clone();
            expected.do_move(h9g7);
            assert_eq!(game.positions[0].pos.key(), expected.key());
            assert_eq!(game.positions[0].ply, 2);
        }
    }
}
