//! The tables of one folder, probed by position. Every file is mapped when the folder is
//! opened (`file::open` reads only headers), so a probe does no file IO beyond the pages it
//! touches. A position with no attacking piece on either side is a draw without a table.
//!
//! Verdicts count cycles as draws and know nothing of the move limit (`egtb` module doc): the
//! search trusts a win or loss only where its mate fits the plies the limit has left, and a
//! game's result is always the referee's.

use std::collections::HashMap;
use std::path::Path;

use crate::board::{Color, Move, Position};

use super::file::{self, Values};
use super::index::Layout;
use super::material::Material;
use super::verdict::Verdict;

/// One material's verdicts.
pub struct Table {
    pub layout: Layout,
    pub values: Values,
}

/// What a table holds, over the positions with its stronger side (Red) to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions that can arise, either side to move (a mirror image counted once).
    pub positions: u64,
    /// With the stronger side to move: won, drawn, lost.
    pub won: u64,
    pub drawn: u64,
    pub lost: u64,
    /// The longest win in the table, either side to move, in plies.
    pub longest: u16,
}

impl Summary {
    /// The share of the stronger side's positions it wins, in per cent.
    pub fn won_percent(&self) -> f64 {
        100.0 * self.won as f64 / (self.won + self.drawn + self.lost).max(1) as f64
    }
}

impl Table {
    /// Counts the table's verdicts (a scan of its bytes: no position is decoded).
    pub fn summary(&self) -> Summary {
        let half = self.values.len() / 2;
        let mut s = Summary::default();
        for (i, &b) in self.values.iter().enumerate() {
            let Some(v) = Verdict::from_byte(b) else {
                continue;
            };
            s.positions += 1;
            if let Verdict::Win(n) = v {
                s.longest = s.longest.max(n);
            }
            if i < half {
                match v {
                    Verdict::Win(_) => s.won += 1,
                    Verdict::Draw => s.drawn += 1,
                    Verdict::Loss(_) => s.lost += 1,
                }
            }
        }
        s
    }

    /// The verdict of `pos` (of this material; `flip` from `Material::of`), or `None` for a
    /// position that cannot arise.
    pub fn verdict(&self, pos: &Position, flip: bool) -> Option<Verdict> {
        Verdict::from_byte(self.values[self.layout.encode(pos, flip) as usize])
    }
}

#[derive(Default)]
pub struct Tablebase {
    tables: HashMap<Material, Table>,
    /// Most pieces (kings included) of any table: a quick test that a position has none.
    most_pieces: u32,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebase({} tables)", self.tables.len())
    }
}

impl Tablebase {
    /// Maps every table in `dir`; a file that cannot be used is left out, with the reason.
    pub fn open(dir: &Path) -> (Tablebase, Vec<String>) {
        let mut base = Tablebase::default();
        let mut errors = Vec::new();
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                e.file_name()
                    .to_str()?
                    .strip_suffix(".cht")
                    .map(String::from)
            })
            .collect();
        names.sort();
        for stem in names {
            match Material::parse(&stem) {
                Ok(m) if m.to_string() == stem => {
                    let layout = Layout::new(m);
                    match file::open(dir, m, layout.size()) {
                        Ok(values) => base.insert(Table { layout, values }),
                        Err(e) => errors.push(e),
                    }
                }
                _ => errors.push(format!("{stem}.cht: not a material's name")),
            }
        }
        (base, errors)
    }

    pub fn len(&self) -> usize {
        self.tables.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The tables, in no particular order.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.values()
    }

    /// The table of `material`, if there is one.
    pub fn table(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material)
    }

    pub fn has(&self, material: Material) -> bool {
        material.is_dead_draw() || self.tables.contains_key(&material)
    }

    /// Adds a table (one just built, so that larger ones built next can read it).
    pub fn insert(&mut self, table: Table) {
        let material = table.layout.material;
        self.most_pieces = self.most_pieces.max(material.pieces());
        self.tables.insert(material, table);
    }

    /// The verdict of `pos` from the side to move, `None` where no table covers it: the
    /// search's probe, quick to say no for a position with more pieces than any table.
    #[inline]
    pub fn covers(&self, pos: &Position) -> Option<Verdict> {
        if !Color::BOTH
            .into_iter()
            .any(|c| pos.has_attacking_material(c))
        {
            return Some(Verdict::Draw);
        }
        if self.tables.is_empty() || pos.occupied().count_ones() > self.most_pieces {
            return None;
        }
        let (material, flip) = Material::of(pos);
        self.tables.get(&material)?.verdict(pos, flip)
    }

    /// The verdict of `pos` from the side to move, or why there is none.
    pub fn probe(&self, pos: &Position) -> Result<Verdict, String> {
        self.covers(pos).ok_or_else(|| {
            let (material, _) = Material::of(pos);
            if self.has(material) {
                format!("{} cannot arise in a game", pos.to_fen())
            } else {
                format!("no {material} table")
            }
        })
    }

    /// The best of `moves` by the tables (the soonest win, else a draw, else the latest
    /// loss) and the verdict it keeps; `None` when there is none.
    pub fn best_of(
        &self,
        pos: &Position,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<Option<(Move, Verdict)>, String> {
        let mut best: Option<(Move, Verdict)> = None;
        for m in moves {
            let mut child = pos.clone();
            child.do_move(m);
            let v = self.probe(&child)?.before_move();
            if best.is_none_or(|(_, b)| b.better(v) != b) {
                best = Some((m, v));
            }
        }
        Ok(best)
    }

    /// The best legal move by the tables, as `best_of`.
    pub fn best_move(&self, pos: &Position) -> Result<Option<(Move, Verdict)>, String> {
        self.best_of(pos, pos.legal_moves().iter().copied())
    }
}
