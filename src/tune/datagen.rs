//! Training data for the tuner: fast self-play games played in-process.
//!
//! Game `i` starts from a random opening of 4 to 8 legal plies from the start position, drawn
//! from a generator seeded with `seed` and `i`, then both sides search every move to a fixed
//! depth on one thread, with a fresh hash table and fresh histories per game, so the data
//! depend only on the engine, the seed, the depth and the game count (not on the thread count
//! or the machine). The game ends when `GameRecord::verdict` says so (mate, stalemate,
//! repetition, move limit, no attacking material), or as a draw after `MAX_PLIES`.
//!
//! Every position after the opening is kept if it is quiet: the side to move is not in check,
//! the searched best move is neither a capture nor a check, and the score is no mate. Each line
//! of the output is `<FEN> ; <result>` with the game's result from Red's view (1, 0.5 or 0).

use std::io::{self, Write};
use std::sync::Mutex;

use crate::board::Position;
use crate::engine::{Report, Reporter, Score};
use crate::rules::{DEFAULT_MOVE_LIMIT, GameRecord, GameResult};
use crate::search::driver::THREAD_STACK;
use crate::search::{Control, SearchSetup, Worker, run};
use crate::tt::TranspositionTable;

/// Games longer than this are scored as draws.
const MAX_PLIES: usize = 400;
/// Hash table per game thread.
const HASH_MB: usize = 8;

#[derive(Clone, Copy, Debug)]
pub struct GenConfig {
    pub games: usize,
    /// Fixed search depth of every move.
    pub depth: u32,
    pub seed: u64,
    /// Threads playing games at once (the output does not depend on it).
    pub threads: usize,
}

/// A small, fixed pseudo-random generator (xorshift64*), so openings are reproducible.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Keeps the last score and the best move of one search.
#[derive(Default)]
struct Outcome(Mutex<(Option<Score>, Option<crate::board::Move>)>);

impl Reporter for Outcome {
    fn report(&self, report: Report) {
        let mut o = self.0.lock().expect("reporter lock");
        match report {
            Report::Info(info) => o.0 = Some(info.score),
            Report::BestMove(b) => o.1 = b.best,
            Report::Message(_) => {}
        }
    }
}

/// A random opening of 4 to 8 plies that leaves a game still going.
fn opening(rng: &mut Rng) -> GameRecord {
    loop {
        let mut rec = GameRecord::new(Position::startpos());
        let plies = 4 + rng.below(5);
        for _ in 0..plies {
            let moves = rec.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            rec.push(
                moves
                    .iter()
                    .copied()
                    .nth(rng.below(moves.len()))
                    .expect("in range"),
            );
        }
        if rec.verdict(DEFAULT_MOVE_LIMIT).is_none() {
            return rec;
        }
    }
}

/// Plays game `index` and returns its quiet positions as output lines.
pub fn play_game(cfg: &GenConfig, index: usize) -> Vec<String> {
    let mut rng = Rng::new(cfg.seed ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut rec = opening(&mut rng);
    let tt = TranspositionTable::new(HASH_MB);
    let control = Control::default();
    let mut workers = [Worker::new(0)];
    let mut quiet = Vec::new();
    let result = loop {
        if let Some(v) = rec.verdict(DEFAULT_MOVE_LIMIT) {
            break v.result;
        }
        if rec.moves().len() >= MAX_PLIES {
            break GameResult::Draw;
        }
        let setup = SearchSetup::fixed_depth(rec.clone(), cfg.depth);
        control.reset(false);
        let outcome = Outcome::default();
        run(&mut workers, &setup, &tt, &control, &outcome);
        let (score, best) = *outcome.0.lock().expect("reporter lock");
        let Some(best) = best else {
            // No legal move: the verdict above would have ended the game.
            break GameResult::Draw;
        };
        let pos = rec.position();
        if !pos.in_check()
            && !pos.is_capture(best)
            && !pos.gives_check(best)
            && matches!(score, Some(Score::Cp(_)))
        {
            quiet.push(pos.to_fen());
        }
        rec.push(best);
    };
    let r = match result {
        GameResult::RedWins => "1",
        GameResult::BlackWins => "0",
        GameResult::Draw => "0.5",
    };
    quiet.into_iter().map(|f| format!("{f} ; {r}")).collect()
}

/// Plays `cfg.games` games and writes their quiet positions to `out`, in game order. Returns
/// the number of positions written. `progress` is called once per finished game.
pub fn generate(
    cfg: &GenConfig,
    out: &mut dyn Write,
    progress: &(dyn Fn() + Sync),
) -> io::Result<usize> {
    let threads = cfg.threads.clamp(1, cfg.games.max(1));
    let mut per_game: Vec<Vec<String>> = vec![Vec::new(); cfg.games];
    let next = Mutex::new(0usize);
    let done = Mutex::new(&mut per_game);
    std::thread::scope(|s| {
        for _ in 0..threads {
            std::thread::Builder::new()
                .stack_size(THREAD_STACK)
                .spawn_scoped(s, || {
                    loop {
                        let i = {
                            let mut n = next.lock().expect("game counter");
                            let i = *n;
                            *n += 1;
                            i
                        };
                        if i >= cfg.games {
                            break;
                        }
                        let lines = play_game(cfg, i);
                        done.lock().expect("results")[i] = lines;
                        progress();
                    }
                })
                .expect("spawn game thread");
        }
    });
    let mut n = 0;
    for lines in per_game {
        for l in lines {
            writeln!(out, "{l}")?;
            n += 1;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_reproducible_and_labels_quiet_positions() {
        let cfg = GenConfig {
            games: 2,
            depth: 1,
            seed: 7,
            threads: 2,
        };
        let run = || {
            let mut out = Vec::new();
            generate(&cfg, &mut out, &|| {}).unwrap();
            String::from_utf8(out).unwrap()
        };
        let a = run();
        assert_eq!(a, run());
        assert!(a.lines().count() > 10, "{a}");
        for line in a.lines() {
            let (fen, result) = line.split_once(" ; ").unwrap();
            let pos = Position::from_fen(fen).unwrap();
            assert!(!pos.in_check(), "{line}");
            assert!(["1", "0", "0.5"].contains(&result), "{line}");
        }
    }
}
