//! The tables of one folder, probed by position: each file is read whole on its first probe.
//! A position whose material has no table there (or whose file is bad) gets an error, and
//! one with no attacking piece on either side is a draw without one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::board::{Move, Position};

use super::file;
use super::index::Layout;
use super::material::Material;
use super::verdict::Verdict;

/// One material's verdicts.
pub struct Table {
    pub layout: Layout,
    pub values: Vec<u8>,
}

impl Table {
    /// The verdict of `pos` (of this material; `flip` from `Material::of`), or `None` for a
    /// position that cannot arise.
    pub fn verdict(&self, pos: &Position, flip: bool) -> Option<Verdict> {
        Verdict::from_byte(self.values[self.layout.encode(pos, flip) as usize])
    }
}

pub struct Tablebase {
    dir: PathBuf,
    tables: HashMap<Material, OnceLock<Result<Table, String>>>,
}

impl Tablebase {
    /// The tables whose files `dir` holds (none yet read); an unreadable folder has none.
    pub fn open(dir: &Path) -> Tablebase {
        let mut tables = HashMap::new();
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let name = entry.file_name();
            let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".cht")) else {
                continue;
            };
            if let Ok(m) = Material::parse(stem)
                && m.to_string() == stem
            {
                tables.insert(m, OnceLock::new());
            }
        }
        Tablebase {
            dir: dir.to_path_buf(),
            tables,
        }
    }

    pub fn has(&self, material: Material) -> bool {
        material.is_dead_draw() || self.tables.contains_key(&material)
    }

    /// Adds a table just built, so that larger ones built next can read it.
    pub fn insert(&mut self, table: Table) {
        let cell = OnceLock::new();
        let material = table.layout.material;
        let _ = cell.set(Ok(table));
        self.tables.insert(material, cell);
    }

    /// The verdict of `pos` from the side to move.
    pub fn probe(&self, pos: &Position) -> Result<Verdict, String> {
        let (material, flip) = Material::of(pos);
        if material.is_dead_draw() {
            return Ok(Verdict::Draw);
        }
        let cell = self
            .tables
            .get(&material)
            .ok_or_else(|| format!("no {material} table in {}", self.dir.display()))?;
        let table = cell.get_or_init(|| {
            let layout = Layout::new(material);
            let values = file::read(&self.dir, material, layout.size())?;
            Ok(Table { layout, values })
        });
        let table = table.as_ref().map_err(Clone::clone)?;
        table
            .verdict(pos, flip)
            .ok_or_else(|| format!("{} cannot arise in a game", pos.to_fen()))
    }

    /// The best legal move by the tables (the soonest win, else a draw, else the latest
    /// loss) and the verdict it keeps; `None` when there is no legal move.
    pub fn best_move(&self, pos: &Position) -> Result<Option<(Move, Verdict)>, String> {
        let mut best: Option<(Move, Verdict)> = None;
        for m in pos.legal_moves().iter().copied() {
            let mut child = pos.clone();
            child.do_move(m);
            let v = self.probe(&child)?.before_move();
            if best.is_none_or(|(_, b)| b.better(v) != b) {
                best = Some((m, v));
            }
        }
        Ok(best)
    }
}
