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
    /// Checks every table of a folder: header, size and the checksum over every byte.
    Verify(VerifyArgs),
    /// The materials with at most two attacking pieces in total (and any advisors and
    /// elephants) up to a size, smallest first: names for `egtb build`.
    List(ListArgs),
    /// A Markdown table of the folder's tables (all, or those named): positions numbered and
    /// legal, file size, the stronger side's wins and draws with it to move, the longest win.
    Stats(StatsArgs),
}

#[derive(Args)]
pub struct ListArgs {
    /// The most positions a table may have.
    #[arg(long, default_value_t = 20_000_000)]
    max_positions: u64,
}

/// Every material with one or two attacking pieces in total and any defenders, each once.
fn two_attacker_materials() -> Vec<Material> {
    let attackers = [
        "", "R", "H", "C", "P", "RR", "RH", "RC", "RP", "HH", "HC", "HP", "CC", "CP", "PP",
    ];
    let defenders = ["", "E", "EE", "A", "AE", "AEE", "AA", "AAE", "AAEE"];
    let mut out = Vec::new();
    for a in attackers {
        for b in attackers {
            if !(1..=2).contains(&(a.len() + b.len())) {
                continue;
            }
            for d in defenders {
                for e in defenders {
                    let m = Material::parse(&format!("K{a}{d}K{b}{e}")).expect("a valid name");
                    if !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
    }
    out
}

#[derive(Args)]
pub struct StatsArgs {
    /// The folder of the tables.
    #[arg(long)]
    dir: PathBuf,
    /// Only these materials.
    #[arg(value_parser = Material::parse)]
    materials: Vec<Material>,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// The folder of the tables.
    #[arg(long)]
    dir: PathBuf,
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
            let (mut base, errors) = Tablebase::open(&a.out);
            for e in errors {
                eprintln!("{e}: built again");
            }
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
                drop(values);
                // The written file, mapped, is what the larger tables read: it is checked.
                let values = file::open(&a.out, material, layout.size()).map_err(failed)?;
                if !values.verify() {
                    return Err(failed(format!(
                        "{material}: the written file reads back wrong"
                    )));
                }
                base.insert(Table { layout, values });
            }
            Ok(())
        }
        EgtbCommand::Probe(a) => {
            let pos = Position::from_fen(&a.fen).map_err(failed)?;
            let (base, errors) = Tablebase::open(&a.dir);
            for e in errors {
                eprintln!("{e}");
            }
            let verdict = base.probe(&pos).map_err(failed)?;
            let mut out = std::io::stdout().lock();
            write!(out, "{verdict}")?;
            match base.best_move(&pos).map_err(failed)? {
                Some((m, _)) => writeln!(out, ", best move {m}"),
                None => writeln!(out),
            }
        }
        EgtbCommand::List(a) => {
            let mut sized: Vec<(u64, String)> = two_attacker_materials()
                .into_iter()
                .map(|m| (Layout::new(m).size(), m.to_string()))
                .filter(|&(size, _)| size <= a.max_positions)
                .collect();
            sized.sort();
            let mut out = std::io::stdout().lock();
            for (_, name) in sized {
                writeln!(out, "{name}")?;
            }
            Ok(())
        }
        EgtbCommand::Stats(a) => {
            let (base, errors) = Tablebase::open(&a.dir);
            for e in errors {
                eprintln!("{e}");
            }
            let mut tables: Vec<&Table> = base
                .tables()
                .filter(|t| a.materials.is_empty() || a.materials.contains(&t.layout.material))
                .collect();
            tables.sort_by_key(|t| (t.layout.size(), t.layout.material.to_string()));
            let mut out = std::io::stdout().lock();
            writeln!(
                out,
                "| material | positions | legal | file (bytes) | stronger side to move: won | \
                 drawn | longest win (plies) |\n|---|---|---|---|---|---|---|"
            )?;
            for t in tables {
                let s = t.summary();
                let bytes = std::fs::metadata(file::path(&a.dir, t.layout.material))?.len();
                writeln!(
                    out,
                    "| {} | {} | {} | {} | {:.1}% | {:.1}% | {} |",
                    t.layout.material,
                    t.layout.size(),
                    s.positions,
                    bytes,
                    s.won_percent(),
                    100.0 * s.drawn as f64 / (s.won + s.drawn + s.lost).max(1) as f64,
                    s.longest
                )?;
            }
            Ok(())
        }
        EgtbCommand::Verify(a) => {
            let (base, errors) = Tablebase::open(&a.dir);
            let mut bad = errors.len();
            for e in errors {
                eprintln!("{e}");
            }
            let mut tables: Vec<&Table> = base.tables().collect();
            tables.sort_by_key(|t| t.layout.material);
            for t in tables {
                if !t.values.verify() {
                    eprintln!("{}: checksum mismatch", t.layout.material);
                    bad += 1;
                }
            }
            if bad > 0 {
                return Err(failed(format!("{bad} bad tables in {}", a.dir.display())));
            }
            writeln!(std::io::stdout(), "{} tables, every one whole", base.len())
        }
    }
}
