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

use crate::rules::{DEFAULT_MOVE_LIMIT, GameResult};
use crate::search::Limits;
use crate::search::threads::THREAD_STACK;
use crate::tools::selfplay::{SelfPlayConfig, play_game as play};

/// Games longer than this are scored as draws.
const MAX_PLIES: usize = 400;

#[derive(Clone, Copy, Debug)]
pub struct GenConfig {
    pub games: usize,
    /// Fixed search depth of every move.
    pub depth: u32,
    pub seed: u64,
    /// Threads playing games at once (the output does not depend on it).
    pub threads: usize,
}

/// Plays game `index` and returns its quiet positions as output lines.
pub fn play_game(cfg: &GenConfig, index: usize) -> Vec<String> {
    let selfplay = SelfPlayConfig {
        limits: Limits {
            depth: Some(cfg.depth.max(1)),
            ..Limits::default()
        },
        book: None,
        opening_plies: 4..=8,
        opening_check: None,
        adjudication: None,
        move_limit: DEFAULT_MOVE_LIMIT,
        search_move_limit: DEFAULT_MOVE_LIMIT,
        max_plies: MAX_PLIES,
        net: Some(crate::eval::nnue::default_net()),
    };
    let game = play(&selfplay, cfg.seed, index as u64);
    let r = match game.result {
        GameResult::RedWins => "1",
        GameResult::BlackWins => "0",
        GameResult::Draw => "0.5",
    };
    game.positions
        .iter()
        .filter(|p| p.quiet && p.score.is_some())
        .map(|p| format!("{} ; {r}", p.pos.to_fen()))
        .collect()
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
    use crate::board::Position;

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
