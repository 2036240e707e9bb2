//! What the search learns about quiet moves: killers per ply, butterfly history per side, and
//! the counter-move that answered each previous move.

use crate::board::{Move, Piece, Position, Square};

use super::MAX_PLY;

/// History values stay within ±HISTORY_MAX (the gravity update below keeps them there).
const HISTORY_MAX: i32 = 16_384;

pub struct Histories {
    butterfly: [[[i16; Square::COUNT]; Square::COUNT]; 2],
    killers: [[Move; 2]; MAX_PLY + 1],
    /// Indexed by the piece that made the previous move and its destination.
    counters: [[Move; Square::COUNT]; Piece::CODES],
}

impl Histories {
    pub fn new() -> Histories {
        Histories {
            butterfly: [[[0; Square::COUNT]; Square::COUNT]; 2],
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            counters: [[Move::NULL; Square::COUNT]; Piece::CODES],
        }
    }

    /// Killers belong to one search; history and counter-moves carry over to the next.
    pub fn new_search(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
    }

    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    #[inline(always)]
    pub fn quiet(&self, pos: &Position, m: Move) -> i32 {
        i32::from(self.butterfly[pos.side_to_move().index()][m.from().index()][m.to().index()])
    }

    /// The stored answer to `prev` (played before reaching `pos`).
    #[inline(always)]
    pub fn counter(&self, pos: &Position, prev: Move) -> Move {
        if prev.is_null() {
            return Move::NULL;
        }
        self.counters[pos.piece_at(prev.to()).code()][prev.to().index()]
    }

    /// A quiet move caused a cutoff after `tried` other quiet moves failed.
    pub fn reward(
        &mut self,
        pos: &Position,
        ply: usize,
        prev: Move,
        best: Move,
        tried: &[Move],
        depth: i32,
    ) {
        if self.killers[ply][0] != best {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best;
        }
        if !prev.is_null() {
            self.counters[pos.piece_at(prev.to()).code()][prev.to().index()] = best;
        }
        let bonus = (300 * depth - 250).min(2_500);
        let side = pos.side_to_move().index();
        let update = |h: &mut i16, b: i32| {
            let v = i32::from(*h);
            *h = (v + b - v * b.abs() / HISTORY_MAX) as i16;
        };
        update(
            &mut self.butterfly[side][best.from().index()][best.to().index()],
            bonus,
        );
        for &m in tried {
            update(
                &mut self.butterfly[side][m.from().index()][m.to().index()],
                -bonus,
            );
        }
    }
}
