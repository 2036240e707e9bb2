//! The search-facing repetition judge: a stack of what each ply did, pushed and popped as the
//! search walks the tree, allocated once. Repetitions are found by key; only then is the cycle
//! replayed (on a stack copy of the position) to tell perpetual check and chase from a draw.

use crate::board::{Move, Position, Undo};

use super::record::GameRecord;
use super::repetition::judge_cycle;

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
    gave_check: bool,
    /// How many plies back from the position after the move a repetition may lie: the plies
    /// since the last capture or null move.
    reach: u16,
}

/// Game history plus the current search path.
#[derive(Clone, Debug)]
pub struct SearchHistory {
    entries: Vec<Entry>,
    /// Entries before this index come from the game, the rest from the search path.
    root: usize,
    /// Key of the position the first entry was played from.
    base_key: u64,
}

/// Search plies the history holds beyond the game's moves without reallocating.
pub const PATH_CAPACITY: usize = 256;

impl SearchHistory {
    /// History of the game so far, ready for a search from its current position.
    pub fn from_record(record: &GameRecord) -> SearchHistory {
        let moves = record.moves();
        let mut history = SearchHistory {
            entries: Vec::with_capacity(moves.len() + PATH_CAPACITY),
            root: 0,
            base_key: record.start().key(),
        };
        for (i, &m) in moves.iter().enumerate() {
            let before = record.position_at(i);
            let after = record.position_at(i + 1);
            let undo = Undo {
                captured: before.piece_at(m.to()),
                halfmove: before.halfmove_clock(),
            };
            history.push(after, m, undo, after.in_check());
        }
        history.root = history.entries.len();
        history
    }

    /// Records a move the search just made; `pos` is the position after it. A null move
    /// (`Move::NULL`, with the `Undo` of `do_null_move`) is recorded too: no repetition is
    /// looked for across it.
    #[inline]
    pub fn push(&mut self, pos: &Position, m: Move, undo: Undo, gave_check: bool) {
        let reach = if m.is_null() || undo.captured.is_some() {
            0
        } else {
            self.entries.last().map_or(0, |e| e.reach).saturating_add(1)
        };
        self.entries.push(Entry {
            key: pos.key(),
            mv: m,
            gave_check,
            reach,
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

    /// Key of the position `back` plies before the current one (`back <= entries.len()`).
    #[inline]
    fn key_back(&self, back: usize) -> u64 {
        let n = self.entries.len();
        if back == n {
            self.base_key
        } else {
            self.entries[n - 1 - back].key
        }
    }

    /// Judges `pos` (the position after the last pushed move; call it below the root only) for
    /// repetition: `None` when it is not one yet. A repetition counts at its second occurrence
    /// when the earlier one lies on the search path after the root, else at its third
    /// (counting the game's history). Its moves are judged by `rules.md`: perpetual check or
    /// chase loses, anything else draws. No allocation.
    #[inline]
    pub fn judge(&self, pos: &Position) -> Option<RuleScore> {
        let reach = self.entries.last()?.reach as usize;
        let key = pos.key();
        let mut seen_at_or_before_root = false;
        let mut back = 4;
        while back <= reach {
            if self.key_back(back) == key {
                if back < self.path_len() || seen_at_or_before_root {
                    return Some(self.judge_span(pos, back));
                }
                seen_at_or_before_root = true;
            }
            back += 2;
        }
        None
    }

    /// Whether `pos` (the position after the last pushed move) stood on the board before, in
    /// the game or on the search path, since the last irreversible move: a repetition
    /// `judge` may not rule on yet.
    #[inline]
    pub fn repeats(&self, pos: &Position) -> bool {
        let Some(last) = self.entries.last() else {
            return false;
        };
        let key = pos.key();
        (4..=last.reach as usize)
            .step_by(2)
            .any(|back| self.key_back(back) == key)
    }

    /// Judges the last `plies` moves, which led from an earlier occurrence of `pos` to it.
    #[cold]
    fn judge_span(&self, pos: &Position, plies: usize) -> RuleScore {
        let n = self.entries.len();
        let moves = self.entries[n - plies..]
            .iter()
            .rev()
            .map(|e| (e.mv, e.gave_check));
        match judge_cycle(pos, moves).rule_breaker() {
            None => RuleScore::Draw,
            Some(c) if c == pos.side_to_move() => RuleScore::Loss,
            Some(_) => RuleScore::Win,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    use super::*;

    thread_local! {
        static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    }

    /// Counts this thread's allocations (tests run on parallel threads).
    struct Counting;

    // SAFETY: every call goes unchanged to the system allocator, which upholds the contract;
    // counting only touches a const-initialised thread-local `Cell`, which never allocates.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
            // SAFETY: forwarded with the caller's guarantees.
            unsafe { System.alloc(layout) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: forwarded with the caller's guarantees.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    #[test]
    fn a_position_of_the_game_repeats_before_it_is_judged() {
        // A rook chasing a horse, two plies played in the game and two searched: the search
        // returns to the game's first position, which `judge` rules on only at its third
        // occurrence.
        let start = Position::from_fen("4k4/9/6n2/9/9/9/7R1/9/9/3K5 w - - 0 1").unwrap();
        let record = GameRecord::from_moves(start, &["h3g3", "g7h9"]).unwrap();
        let mut history = SearchHistory::from_record(&record);
        let mut pos = record.position().clone();
        let mut seen = Vec::new();
        for text in ["g3h3", "h9g7"] {
            let m = pos.parse_move(text).unwrap();
            let check = pos.gives_check(m);
            let undo = pos.do_move(m);
            history.push(&pos, m, undo, check);
            seen.push((history.repeats(&pos), history.judge(&pos)));
        }
        assert_eq!(seen, [(false, None), (true, None)]);
    }

    #[test]
    fn push_judge_and_pop_do_not_allocate() {
        // A rook chasing a horse: the last judgement replays the cycle to find the chase.
        let start = Position::from_fen("4k4/9/6n2/9/9/9/7R1/9/9/3K5 w - - 0 1").unwrap();
        let texts = ["h3g3", "g7h9", "g3h3", "h9g7"];
        let record = GameRecord::from_moves(start, &texts).unwrap();
        let mut pos = record.position().clone();
        let mut history = SearchHistory::from_record(&record);
        let mut moves = [Move::NULL; 4];
        let mut p = pos.clone();
        for (m, t) in moves.iter_mut().zip(texts) {
            *m = p.parse_move(t).unwrap();
            p.do_move(*m);
        }

        let before = ALLOCATIONS.with(Cell::get);
        let mut last = None;
        for _ in 0..3 {
            let mut undos = [None; 4];
            for (u, &m) in undos.iter_mut().zip(&moves) {
                let check = pos.gives_check(m);
                let undo = pos.do_move(m);
                history.push(&pos, m, undo, check);
                last = history.judge(&pos);
                *u = Some(undo);
            }
            for (u, &m) in undos.iter().zip(&moves).rev() {
                history.pop();
                pos.undo_move(m, u.unwrap());
            }
        }
        let after = ALLOCATIONS.with(Cell::get);

        assert_eq!(
            last,
            Some(RuleScore::Loss),
            "Red to move chased perpetually"
        );
        assert_eq!(after - before, 0);
    }
}
