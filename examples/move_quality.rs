//! How good are datagen's moves under two node budgets? Plays self-play games as datagen does
//! (under budget A, datagen's default openings and `--adjudicate 3000,8`), then replays every searched position of each game, in order, under budget
//! A and under budget B, each with one table for the whole game as datagen's player has. Where
//! the two moves differ, a deep reference search of both positions after them says which move
//! was better. Prints per budget the nodes a search and how often its search was a label
//! datagen keeps, then how often the moves differ and the mean win chance (K = 400, the
//! mover's view) that B's moves lose against A's, with its standard error.
//!
//!     cargo run --release --example move_quality -- [--games N] [--seed S] [--reference NODES] [--book BOOK.DAT] A B
//!
//! A budget is `HARD/SOFT` or `HARD/SOFT/UNQUIET` nodes: datagen's `--nodes`, `--soft-nodes`
//! and `--soft-nodes-unquiet`. Games open with up to 12 book plies (with `--book`) and 2–6
//! random plies, as generation 4's do; the embedded net plays and judges.

use std::sync::{Arc, Mutex};

use chuhan::Move;
use chuhan::engine::Engine;
use chuhan::eval::nnue::default_net;
use chuhan::rules::GameRecord;
use chuhan::search::params::Params;
use chuhan::search::{Limits, Report, Reporter, Score};
use chuhan::tools::selfplay::{Adjudication, BookWalk, SelfPlayConfig, play_game};

#[derive(Clone, Copy, Default)]
struct Found {
    score: i32,
    best: Option<Move>,
    nodes: u64,
}

#[derive(Default)]
struct Keep(Mutex<Found>);

impl Reporter for Keep {
    fn report(&self, r: Report) {
        let mut f = self.0.lock().unwrap();
        match r {
            Report::Info(i) if i.multipv == 1 => {
                f.nodes = i.nodes;
                f.score = match i.score {
                    Score::Cp(cp) => cp.clamp(-2000, 2000),
                    Score::Mate(n) => 2000 * n.signum(),
                };
            }
            Report::BestMove(b) => f.best = b.best,
            _ => {}
        }
    }
}

/// One engine and what its searches report.
struct Searcher {
    engine: Engine,
    keep: Arc<Keep>,
}

impl Searcher {
    fn new() -> Searcher {
        let keep = Arc::new(Keep::default());
        let engine = Engine::in_process(keep.clone(), 8, 0, Some(default_net()), Params::default());
        Searcher { engine, keep }
    }

    fn search(&mut self, rec: &GameRecord, limits: &Limits) -> Found {
        *self.keep.0.lock().unwrap() = Found::default();
        self.engine.set_game(rec.clone());
        self.engine.go(limits.clone());
        self.engine.wait();
        *self.keep.0.lock().unwrap()
    }
}

fn win_chance(cp: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(cp) / 400.0).exp())
}

fn budget(text: &str) -> Limits {
    let n: Vec<u64> = text
        .split('/')
        .map(|s| s.parse().expect("a budget: HARD/SOFT[/UNQUIET]"))
        .collect();
    Limits {
        nodes: Some(n[0]),
        soft_nodes: n.get(1).copied(),
        soft_nodes_unquiet: n.get(2).copied(),
        ..Limits::default()
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut flag = |name: &str| {
        let i = args.iter().position(|a| a == name)?;
        let v = args.get(i + 1).cloned().expect("a value after the flag");
        args.drain(i..i + 2);
        Some(v)
    };
    let games: u64 = flag("--games").map_or(20, |s| s.parse().expect("games"));
    let seed: u64 = flag("--seed").map_or(1, |s| s.parse().expect("seed"));
    let reference: u64 = flag("--reference").map_or(100_000, |s| s.parse().expect("nodes"));
    let book = flag("--book").map(|p| BookWalk {
        book: Arc::new(
            chuhan::book::Book::from_bytes(&std::fs::read(&p).expect("the book")).expect("a book"),
        ),
        plies: 12,
        id: 0,
    });
    let [a, b] = &args[..] else {
        eprintln!(
            "usage: move_quality [--games N] [--seed S] [--reference NODES] [--book BOOK.DAT] A B"
        );
        std::process::exit(2);
    };
    let budgets = [budget(a), budget(b)];
    let cfg = SelfPlayConfig {
        limits: budgets[0].clone(),
        book,
        opening_plies: 2..=6,
        opening_check: Some((2_000, 300)),
        adjudication: Some(Adjudication { cp: 3000, plies: 8 }),
        move_limit: chuhan::rules::DEFAULT_MOVE_LIMIT,
        search_move_limit: 0,
        max_plies: 400,
        net: Some(default_net()),
    };

    let mut judge = Searcher::new();
    let deep = Limits {
        nodes: Some(reference),
        ..Limits::default()
    };
    let (mut positions, mut differ) = (0u64, 0u64);
    let mut nodes = [0u64; 2];
    let mut labels = [0u64; 2];
    // Per position, the win chance B's move loses against A's (0 where they agree).
    let mut losses = Vec::new();
    for index in 0..games {
        let game = play_game(&cfg, seed, index);
        let Some(first) = game.positions.first() else {
            continue;
        };
        let mut players = [Searcher::new(), Searcher::new()];
        let mut rec = GameRecord::new(first.pos.clone());
        for searched in &game.positions {
            let pos = rec.position().clone();
            let found: Vec<Found> = players
                .iter_mut()
                .zip(&budgets)
                .map(|(p, l)| p.search(&rec, l))
                .collect();
            positions += 1;
            let mut loss = 0.0;
            for (k, f) in found.iter().enumerate() {
                nodes[k] += f.nodes;
                labels[k] += u64::from(f.best.is_some_and(|m| pos.is_quiet_with(m)));
            }
            if let (Some(ma), Some(mb)) = (found[0].best, found[1].best)
                && ma != mb
            {
                differ += 1;
                // The opponent's view after each move: lower is better for the mover.
                let mut after = |m: Move| {
                    let mut r = rec.clone();
                    r.push(m);
                    judge.engine.clear_hash();
                    win_chance(judge.search(&r, &deep).score)
                };
                loss = after(mb) - after(ma);
            }
            losses.push(loss);
            rec.push(searched.best);
        }
        eprintln!("game {index}: {positions} positions so far, {differ} moves differ");
    }
    let n = positions.max(1) as f64;
    let mean = losses.iter().sum::<f64>() / n;
    let var = losses.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    println!("{positions} positions of {games} games (seed {seed}), reference {reference} nodes");
    for (k, name) in [a, b].iter().enumerate() {
        println!(
            "{name:<16} nodes {:>6.0}  labels kept {:>5.1}%",
            nodes[k] as f64 / n,
            100.0 * labels[k] as f64 / n
        );
    }
    println!(
        "moves differ {:.1}%; win chance B's moves lose against A's: {mean:+.4} ({:.4})",
        100.0 * differ as f64 / n,
        (var / n).sqrt()
    );
}
