//! `chuhan book`: build a BOOK.DAT from PGN collections, and show what a book offers.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::board::Position;
use crate::book::Book;
use crate::book::build::{BuildSettings, build};
use crate::rules::GameRecord;

use super::pgn::reader::read_games;

#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a book (ElephantEye's BOOK.DAT format) from PGN games.
    Build(BuildArgs),
    /// List the moves a book offers in a position, heaviest first.
    Show(ShowArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// PGN files (ICCS, WXF or Chinese moves).
    #[arg(long, num_args = 1.., required = true)]
    pgn: Vec<PathBuf>,
    /// Plies of each game taken.
    #[arg(long, default_value_t = 20)]
    max_ply: usize,
    /// Fewest games that must have played a move for it to enter.
    #[arg(long, default_value_t = 2)]
    min_games: u32,
    /// The book file to write.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args)]
pub struct ShowArgs {
    /// Book files.
    #[arg(long, num_args = 1.., required = true)]
    book: Vec<PathBuf>,
    /// Position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from it, in ICCS.
    #[arg(long, num_args = 0..)]
    moves: Vec<String>,
}

fn invalid(e: impl ToString) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string())
}

pub fn run(command: BookCommand) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    match command {
        BookCommand::Build(a) => {
            let mut games = Vec::new();
            for path in &a.pgn {
                let text = String::from_utf8_lossy(&std::fs::read(path)?).into_owned();
                let (read, problems) = read_games(&text);
                for p in problems {
                    log::warn!("{}: {p}", path.display());
                }
                games.extend(read);
            }
            let settings = BuildSettings {
                max_ply: a.max_ply,
                min_games: a.min_games,
            };
            let (book, report) = build(&games, settings);
            std::fs::write(&a.out, book.to_bytes())?;
            writeln!(
                out,
                "{} games ({} without a result, counted as draws): {} positions, {} moves written to {}",
                report.games,
                report.without_result,
                report.positions,
                report.entries,
                a.out.display()
            )
        }
        BookCommand::Show(a) => {
            let list: Vec<String> = a.book.iter().map(|p| p.display().to_string()).collect();
            let book = Book::load_all(&list.join(";")).map_err(invalid)?;
            let start = match a.fen {
                Some(f) => Position::from_fen(&f).map_err(invalid)?,
                None => Position::startpos(),
            };
            let record = GameRecord::from_moves(start, &a.moves).map_err(invalid)?;
            let moves = book.moves(record.position());
            let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
            for b in &moves {
                let share = 100.0 * f64::from(b.weight) / total.max(1) as f64;
                writeln!(out, "{} {} ({share:.1}%)", b.mv, b.weight)?;
            }
            if moves.is_empty() {
                writeln!(out, "not in the book")?;
            }
            Ok(())
        }
    }
}
