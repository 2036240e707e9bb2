//! The search-facing repetition judge: a stack of what each ply did, pushed and popped as the
//! search walks the tree, allocated once.
//!
//! SKELETON: every repetition is a draw for now; the rules work adds perpetual check and chase.

use crate::board::{Move, Position, Undo};

use super::record::GameRecord;

/// What a repetition found at a search node means for the side to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleScore {
    Draw,
    /// The opponent broke the rules (perpetual check or chase): the side to move wins.
    Win,
    /// The side to move broke the rules: it loses.
    Loss,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Key of the position after the move.
    key: u64,
    mv: Move,
    undo: Undo,
    gave_check: bool,
}

/// Game history since the last capture plus the current search path.
#[derive(Clone, Debug)]
pub struct SearchHistory {
    entries: Vec<Entry>,
    /// Entries before this index come from the game, the rest from the search path.
    root: usize,
    /// Key of the position the first entry was played from.
    base_key: u64,
}

/// Search plies the history can hold beyond the game's moves (no reallocation below it).
const PATH_CAPACITY: usize = 256;

impl SearchHistory {
    /// History of the game so far, ready for a search from its current position.
    pub fn from_record(record: &GameRecord) -> SearchHistory {
        let moves = record.moves();
        let mut entries = Vec::with_capacity(moves.len() + PATH_CAPACITY);
        let mut pos = record.start().clone();
        let base_key = pos.key();
        for &m in moves {
            let undo = pos.do_move(m);
            entries.push(Entry {
                key: pos.key(),
                mv: m,
                undo,
                gave_check: pos.in_check(),
            });
        }
        SearchHistory {
            root: entries.len(),
            entries,
            base_key,
        }
    }

    /// Records a move the search just made; `pos` is the position after it.
    #[inline]
    pub fn push(&mut self, pos: &Position, m: Move, undo: Undo, gave_check: bool) {
        self.entries.push(Entry {
            key: pos.key(),
            mv: m,
            undo,
            gave_check,
        });
    }

    #[inline]
    pub fn pop(&mut self) {
        self.entries.pop();
    }

    /// Plies on the search path (since the root).
    #[inline]
    pub fn path_len(&self) -> usize {
        self.entries.len() - self.root
    }

    /// Judges the position `pos` (the one after the last pushed move) for repetition.
    #[inline]
    pub fn judge(&self, pos: &Position) -> Option<RuleScore> {
        let key = pos.key();
        let n = self.entries.len();
        let window = (pos.halfmove_clock() as usize).min(n);
        let mut i = 4;
        while i <= window {
            let k = if i == n {
                self.base_key
            } else {
                self.entries[n - 1 - i].key
            };
            if k == key {
                let _ = (
                    self.entries[n - 1].mv,
                    self.entries[n - 1].undo,
                    self.entries[n - 1].gave_check,
                );
                return Some(RuleScore::Draw);
            }
            i += 2;
        }
        None
    }
}
