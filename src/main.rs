//! The `chuhan` binary: with no subcommand it serves UCCI/UCI on stdin/stdout; subcommands run
//! the library's tools.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use chuhan::Position;
use chuhan::movegen::perft_report;
use chuhan::search::bench::{DEFAULT_BENCH_DEPTH, bench};

#[derive(Parser)]
#[command(
    name = "chuhan",
    version,
    about = "A xiangqi engine speaking UCCI and UCI"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree, per root move.
    Perft {
        depth: u32,
        /// Position to start from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Search the benchmark positions to a fixed depth; prints the node count and speed.
    Bench {
        /// Search depth (default: the standard bench depth).
        depth: Option<u32>,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => ExitCode::SUCCESS,
        Some(Command::Bench { depth }) => {
            let r = bench(depth.unwrap_or(DEFAULT_BENCH_DEPTH));
            println!("Time (ms): {}", r.ms);
            println!("Nodes searched: {}", r.nodes);
            println!("Nodes/second: {}", r.nps);
            ExitCode::SUCCESS
        }
        Some(Command::Perft { depth, fen }) => {
            let pos = match fen {
                Some(f) => Position::from_fen(&f),
                None => Ok(Position::startpos()),
            };
            match pos {
                Ok(mut p) => {
                    print!("{}", perft_report(&mut p, depth));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}
