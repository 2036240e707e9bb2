//! The `chuhan` binary: with no subcommand it serves UCCI/UCI on stdin/stdout; subcommands run
//! the library's tools.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use chuhan::Position;
use chuhan::movegen::perft_report;
use chuhan::search::bench::{DEFAULT_BENCH_DEPTH, bench, bench_report};

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
    /// Play a game against chuhan in the terminal.
    Play(chuhan::tools::play::PlayArgs),
    /// Judge a game: prints `ongoing`, or the result and why (e.g. `1-0 checkmate`).
    Adjudicate {
        /// Start position (default: the standard one).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from it, in ICCS (h2e2).
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        /// Plies without capture before a draw, 0 = off.
        #[arg(long, default_value_t = chuhan::rules::DEFAULT_MOVE_LIMIT)]
        move_limit: u32,
    },
    /// Search the benchmark positions to a fixed depth; prints the node count and speed.
    Bench {
        /// Search depth (default: the standard bench depth).
        depth: Option<u32>,
    },
    /// Play engines against each other (UCI/UCCI), with statistics, SPRT and PGN.
    Match(Box<chuhan::tools::matches::MatchArgs>),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            chuhan::protocol::serve(std::io::stdin().lock(), std::io::stdout());
            ExitCode::SUCCESS
        }
        Some(Command::Play(args)) => chuhan::tools::play::run(args),
        Some(Command::Bench { depth }) => {
            let r = bench(depth.unwrap_or(DEFAULT_BENCH_DEPTH));
            println!("{}", bench_report(&r));
            ExitCode::SUCCESS
        }
        Some(Command::Match(args)) => chuhan::tools::matches::run_cli(*args),
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
        Some(Command::Adjudicate {
            fen,
            moves,
            move_limit,
        }) => match chuhan::rules::adjudicate(fen.as_deref(), &moves, move_limit) {
            Ok(verdict) => {
                println!(
                    "{}",
                    verdict.map_or("ongoing".to_string(), |v| v.to_string())
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
    }
}
