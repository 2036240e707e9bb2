//! How good are datagen's labels under a node budget? Searches positions of a datagen file
//! under each budget and under a deep reference search, and prints per budget the nodes spent,
//! the depth reached and how far the scores lie from the reference's (centipawns and win
//! chance at the trainer's scale, K = 400), and how often the best move agrees.
//!
//!     cargo run --release --example label_quality -- [--warm N] DATA.bin [POSITIONS] [REFERENCE_NODES] [BUDGET…]
//!
//! A budget is `HARD` or `HARD/SOFT` nodes (datagen's `--nodes` and `--soft-nodes`); the
//! defaults are 300 positions, 200,000 reference nodes and 5000 5000/3000 5000/2500 5000/2000.
//! Each search starts from an empty table, unless `--warm N`: then the table first holds the
//! searches, under the same budget, of the up to N positions the file keeps before it from the
//! same game, as a datagen game's table holds its earlier moves' searches.

use std::sync::{Arc, Mutex};

use chuhan::Move;
use chuhan::engine::Engine;
use chuhan::eval::nnue::default_net;
use chuhan::rules::GameRecord;
use chuhan::search::params::Params;
use chuhan::search::{Limits, Report, Reporter, Score};
use chuhan::tools::datagen::read_records;

#[derive(Clone, Copy, Default)]
struct Found {
    score: i32,
    best: Option<Move>,
    depth: u32,
    nodes: u64,
}

#[derive(Default)]
struct Keep(Mutex<Found>);

impl Reporter for Keep {
    fn report(&self, r: Report) {
        let mut f = self.0.lock().unwrap();
        match r {
            Report::Info(i) if i.multipv == 1 => {
                f.depth = i.depth;
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

fn win_chance(cp: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(cp) / 400.0).exp())
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let warm: usize = match args.iter().position(|a| a == "--warm") {
        Some(i) => {
            let n = args
                .get(i + 1)
                .and_then(|s| s.parse().ok())
                .expect("--warm N");
            args.drain(i..i + 2);
            n
        }
        None => 0,
    };
    let Some(path) = args.first() else {
        eprintln!(
            "usage: label_quality [--warm N] DATA.bin [POSITIONS] [REFERENCE_NODES] [BUDGET…]"
        );
        std::process::exit(2);
    };
    let count: usize = args.get(1).map_or(300, |s| s.parse().expect("positions"));
    let reference: u64 = args.get(2).map_or(200_000, |s| s.parse().expect("nodes"));
    let budgets: Vec<(u64, Option<u64>)> = if args.len() > 3 {
        args[3..]
            .iter()
            .map(|b| match b.split_once('/') {
                Some((h, s)) => (h.parse().unwrap(), Some(s.parse().unwrap())),
                None => (b.parse().unwrap(), None),
            })
            .collect()
    } else {
        vec![
            (5000, None),
            (5000, Some(3000)),
            (5000, Some(2500)),
            (5000, Some(2000)),
        ]
    };
    let records = read_records(path.as_ref()).expect("a datagen file");
    let step = (records.len() / count.max(1)).max(1);
    // Each position with the positions its game kept before it (up to `warm`), oldest first.
    let positions: Vec<Vec<chuhan::Position>> = (0..records.len())
        .step_by(step)
        .take(count)
        .map(|i| {
            let mut first = i;
            while first > 0
                && i - first < warm
                && records[first - 1].ply() < records[first].ply()
                && records[first - 1].ply() + 4 >= records[first].ply()
            {
                first -= 1;
            }
            records[first..=i].iter().map(|r| r.position()).collect()
        })
        .collect();

    let keep = Arc::new(Keep::default());
    let mut engine = Engine::in_process(keep.clone(), 8, 0, Some(default_net()), Params::default());
    let mut search = |pos: &chuhan::Position, limits: Limits, clear: bool| {
        if clear {
            engine.clear_hash();
        }
        *keep.0.lock().unwrap() = Found::default();
        engine.set_game(GameRecord::new(pos.clone()));
        engine.go(limits);
        engine.wait();
        *keep.0.lock().unwrap()
    };
    // Per budget: nodes, depth, |cp error|, |win chance error|, best move agreement.
    let mut sums = vec![[0f64; 5]; budgets.len()];
    // Per position and budget, the win chance error: for paired comparisons with the first.
    let mut errors: Vec<Vec<f64>> = vec![Vec::new(); budgets.len()];
    for line in &positions {
        let pos = line.last().expect("a position");
        let truth = search(
            pos,
            Limits {
                nodes: Some(reference),
                ..Limits::default()
            },
            true,
        );
        for ((sum, errs), &(hard, soft)) in sums.iter_mut().zip(&mut errors).zip(&budgets) {
            let limits = Limits {
                nodes: Some(hard),
                soft_nodes: soft,
                ..Limits::default()
            };
            // The game's earlier positions warm the table; the last search is the label's.
            let mut f = Found::default();
            for (k, p) in line.iter().enumerate() {
                f = search(p, limits.clone(), k == 0);
            }
            sum[0] += f.nodes as f64;
            sum[1] += f64::from(f.depth);
            sum[2] += f64::from((f.score - truth.score).abs());
            let err = (win_chance(f.score) - win_chance(truth.score)).abs();
            sum[3] += err;
            sum[4] += f64::from(u8::from(f.best == truth.best));
            errs.push(err);
        }
    }
    let n = positions.len() as f64;
    println!(
        "{} positions of {path}, reference {reference} nodes, warmed by up to {warm} earlier positions",
        positions.len()
    );
    println!("budget        nodes   depth  |cp err|  |win err|  same move  win err - first's (SE)");
    for ((sum, errs), (hard, soft)) in sums.iter().zip(&errors).zip(&budgets) {
        let name = soft.map_or(hard.to_string(), |s| format!("{hard}/{s}"));
        let diffs: Vec<f64> = errs.iter().zip(&errors[0]).map(|(a, b)| a - b).collect();
        let mean = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        println!(
            "{name:<12} {:>6.0}  {:>6.2}  {:>8.1}  {:>9.4}  {:>8.1}%  {:+.4} ({:.4})",
            sum[0] / n,
            sum[1] / n,
            sum[2] / n,
            sum[3] / n,
            100.0 * sum[4] / n,
            mean,
            (var / n).sqrt()
        );
    }
}
