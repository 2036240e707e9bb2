//! The `chuhan` binary: with no subcommand it serves UCCI/UCI on stdin/stdout; subcommands run
//! the library's tools.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use chuhan::Position;
use chuhan::movegen::perft_report;

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
    /// Play engines against each other (UCI/UCCI), with statistics, SPRT and PGN.
    Match(Box<chuhan::tools::matches::MatchArgs>),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => ExitCode::SUCCESS,
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
    }
}
