//! Move ordering: the hash move first (before any generation), then the rest best-first by
//! score: captures by most valuable victim / least valuable attacker, killers, the counter-move,
//! then quiet moves by history.

use crate::board::{Move, PieceType, Position};
use crate::eval::piece_value;
use crate::movegen::{GenKind, MoveList, generate::MAX_MOVES};

use super::history::Histories;

const CAPTURE: i32 = 1 << 24;
const KILLER: i32 = 1 << 22;
const COUNTER: i32 = KILLER - 2;

/// Attacker order for MVV-LVA: cheap attackers first.
#[inline(always)]
fn attacker_rank(kind: PieceType) -> i32 {
    match kind {
        PieceType::Pawn => 0,
        PieceType::Advisor | PieceType::Elephant => 1,
        PieceType::Horse | PieceType::Cannon => 2,
        PieceType::Rook => 3,
        PieceType::King => 4,
    }
}

/// Ordering score of a capture.
#[inline(always)]
pub fn mvv_lva(pos: &Position, m: Move) -> i32 {
    piece_value(pos.piece_at(m.to()).kind()) * 8 - attacker_rank(pos.piece_at(m.from()).kind())
}

pub struct MovePicker {
    tt_move: Move,
    /// 0: hash move next; 1: generate; 2: hand out the list.
    stage: u8,
    captures_only: bool,
    killers: [Move; 2],
    counter: Move,
    list: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl MovePicker {
    /// `tt_move` must already be pseudo-legal here (or null). `captures_only` leaves out quiets.
    #[inline]
    pub fn new(tt_move: Move, captures_only: bool, killers: [Move; 2], counter: Move) -> Self {
        MovePicker {
            tt_move,
            stage: if tt_move.is_null() { 1 } else { 0 },
            captures_only,
            killers,
            counter,
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
        }
    }

    /// The next pseudo-legal move, best first; the caller checks legality.
    #[inline]
    pub fn next(&mut self, pos: &Position, hist: &Histories) -> Option<Move> {
        if self.stage == 0 {
            self.stage = 1;
            return Some(self.tt_move);
        }
        if self.stage == 1 {
            self.stage = 2;
            let kind = if self.captures_only {
                GenKind::Captures
            } else {
                GenKind::All
            };
            pos.generate_pseudo(kind, &mut self.list);
            for (i, &m) in self.list.iter().enumerate() {
                self.scores[i] = if pos.is_capture(m) {
                    CAPTURE + mvv_lva(pos, m)
                } else if m == self.killers[0] {
                    KILLER
                } else if m == self.killers[1] {
                    KILLER - 1
                } else if m == self.counter {
                    COUNTER
                } else {
                    hist.quiet(pos, m)
                };
            }
        }
        loop {
            let n = self.list.len();
            if self.next >= n {
                return None;
            }
            let mut best = self.next;
            for i in self.next + 1..n {
                if self.scores[i] > self.scores[best] {
                    best = i;
                }
            }
            let moves = self.list.as_mut_slice();
            moves.swap(self.next, best);
            self.scores.swap(self.next, best);
            let m = moves[self.next];
            self.next += 1;
            if m != self.tt_move {
                return Some(m);
            }
        }
    }
}
