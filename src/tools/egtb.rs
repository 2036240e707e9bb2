//! `chuhan egtb`: build endgame tables into a folder, and probe a position with them.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use crate::board::Position;
use crate::egtb::build::build;
use crate::egtb::index::Layout;
use crate::egtb::tablebase::Table;
use crate::egtb::{Material, Tablebase, file, plan};

#[derive(Subcommand)]
pub enum EgtbCommand {
    /// Build the tables of the materials named (e.g. KRKAA, the stronger side first) and of
    /// every smaller material their captures lead to; tables already in the folder are kept.
    Build(BuildArgs),
    /// The verdict of a position from the side to move (`win in N`, `draw`, `loss in N`) and
    /// the tables' best move.
    Probe(ProbeArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// The folder the tables are written to (one `<MATERIAL>.cht` file each).
    #[arg(long)]
    out: PathBuf,
    /// Materials such as KRKAA.
    #[arg(required = true, value_parser = Material::parse)]
    materials: Vec<Material>,
}

#[derive(Args)]
pub struct ProbeArgs {
    /// The folder of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// The position.
    #[arg(long)]
    fen: String,
}

fn failed(e: impl ToString) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

pub fn run(command: EgtbCommand) -> std::io::Result<()> {
    match command {
        EgtbCommand::Build(a) => {
            std::fs::create_dir_all(&a.out)?;
            let mut base = Tablebase::open(&a.out);
            for material in plan(&a.materials) {
                if base.has(material) {
                    eprintln!("{material}: kept");
                    continue;
                }
                let layout = Layout::new(material);
                let bar = ProgressBar::new(layout.size()).with_style(
                    ProgressStyle::with_template("{msg:>16} [{bar:30}] {pos}/{len} {elapsed}")
                        .expect("valid template"),
                );
                bar.set_message(material.to_string());
                let started = Instant::now();
                let values = build(&layout, &base, &mut |d, decided| {
                    bar.set_message(format!("{material} d{d}"));
                    bar.set_position(decided);
                })
                .map_err(failed)?;
                bar.finish_and_clear();
                file::write(&a.out, material, &values)?;
                eprintln!(
                    "{material}: {} positions in {:.1} s",
                    values.len(),
                    started.elapsed().as_secs_f64()
                );
                base.insert(Table { layout, values });
            }
            Ok(())
        }
        EgtbCommand::Probe(a) => {
            let pos = Position::from_fen(&a.fen).map_err(failed)?;
            let base = Tablebase::open(&a.dir);
            let verdict = base.probe(&pos).map_err(failed)?;
            let mut out = std::io::stdout().lock();
            write!(out, "{verdict}")?;
            match base.best_move(&pos).map_err(failed)? {
                Some((m, _)) => writeln!(out, ", best move {m}"),
                None => writeln!(out),
            }
        }
    }
}
