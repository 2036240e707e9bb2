//! What the search learns about moves: killers per ply, butterfly history per side, the
//! counter-move that answered each previous move, continuation history (how a quiet move
//! fared after each piece-to move one, two and optionally four plies before it), structure
//! history (how it fared with the same pawns on the board; by option) and capture history
//! (how each piece fared taking each kind of piece on each point).

use crate::board::{Color, Move, Piece, PieceType, Position, Square};

use super::MAX_PLY;
use super::correction::hash;

/// History values stay within ±HISTORY_MAX (the gravity update below keeps them there).
const HISTORY_MAX: i32 = 16_384;

pub struct Histories {
    butterfly: [[[i16; Square::COUNT]; Square::COUNT]; 2],
    killers: [[Move; 2]; MAX_PLY + 1],
    /// Indexed by the piece that made the previous move and its destination.
    counters: [[Move; Square::COUNT]; Piece::CODES],
    /// Rows of `CONT_ROW` entries, one per earlier (piece, destination), see [`cont_row`];
    /// row 0 (no piece) stands for "no earlier move" and is never written.
    continuation: Box<[i16]>,
    /// Indexed by the capturing piece, the point and the kind taken; see [`capture_index`].
    captures: Box<[i16]>,
    /// Rows of `CONT_ROW` entries, one per pawn placement (hashed, see [`structure_row`]);
    /// row 0 stands for "off" and is never written.
    structure: Box<[i16]>,
}

/// Pawn placements the structure history tells apart.
const STRUCTURES: usize = 512;

/// Kinds of piece a capture can take (the king's slot stays unused).
const KINDS: usize = 7;

/// Entries per continuation-history row: one per (piece, destination) of the quiet move.
pub(super) const CONT_ROW: usize = Piece::CODES * Square::COUNT;

/// Where a node's quiet moves read their histories beyond the butterfly table: the
/// continuation-history rows of the moves one, two and four plies back, and the structure
/// history's row of its pawns (0: none or off).
#[derive(Clone, Copy, Default)]
pub struct ContRows {
    pub moves: [usize; 3],
    pub structure: usize,
}

/// What led to a node: the last move (whose counter-move is learnt) and where its quiet
/// moves' histories are.
#[derive(Clone, Copy)]
pub struct Before {
    pub prev: Move,
    pub rows: ContRows,
}

/// The structure history's row of `pos`'s pawns (never row 0).
#[inline(always)]
pub fn structure_row(pos: &Position) -> usize {
    let pawns = |c| pos.pieces(c, PieceType::Pawn);
    let h = hash([pawns(Color::Red), pawns(Color::Black)]);
    ((h >> 40) as usize % STRUCTURES + 1) * CONT_ROW
}

/// Index of a (piece, destination) pair: a row number, and an entry within a row.
#[inline(always)]
fn piece_to(piece: Piece, to: Square) -> usize {
    piece.code() * Square::COUNT + to.index()
}

/// The continuation-history row of a move made by `piece` to `to` (0 for no move).
#[inline(always)]
pub fn cont_row(piece: Piece, to: Square) -> usize {
    piece_to(piece, to) * CONT_ROW
}

#[inline(always)]
fn cont_index(pos: &Position, m: Move) -> usize {
    piece_to(pos.piece_at(m.from()), m.to())
}

/// The capture history's entry of the capture `m` (not yet played in `pos`).
#[inline(always)]
fn capture_index(pos: &Position, m: Move) -> usize {
    cont_index(pos, m) * KINDS + pos.piece_at(m.to()).kind().index()
}

/// Gravity update: values approach ±HISTORY_MAX more slowly the closer they are.
#[inline(always)]
fn update(h: &mut i16, bonus: i32) {
    let v = i32::from(*h);
    *h = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
}

impl Histories {
    pub fn new() -> Histories {
        Histories {
            butterfly: [[[0; Square::COUNT]; Square::COUNT]; 2],
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            counters: [[Move::NULL; Square::COUNT]; Piece::CODES],
            continuation: vec![0; CONT_ROW * CONT_ROW].into_boxed_slice(),
            captures: vec![0; CONT_ROW * KINDS].into_boxed_slice(),
            structure: vec![0; (STRUCTURES + 1) * CONT_ROW].into_boxed_slice(),
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

    /// Butterfly, continuation and structure history of a quiet move in the context `rows`.
    #[inline(always)]
    pub fn quiet(&self, pos: &Position, m: Move, rows: ContRows) -> i32 {
        let i = cont_index(pos, m);
        i32::from(self.butterfly[pos.side_to_move().index()][m.from().index()][m.to().index()])
            + i32::from(self.continuation[rows.moves[0] + i])
            + i32::from(self.continuation[rows.moves[1] + i])
            + i32::from(self.continuation[rows.moves[2] + i])
            + i32::from(self.structure[rows.structure + i])
    }

    /// Capture history of the capture `m`.
    #[inline(always)]
    pub fn capture(&self, pos: &Position, m: Move) -> i32 {
        i32::from(self.captures[capture_index(pos, m)])
    }

    /// A node was cut after the captures `tried` failed: `bonus` to `best` when it is a
    /// capture, as much off each of them.
    pub fn reward_captures(
        &mut self,
        pos: &Position,
        best: Option<Move>,
        tried: &[Move],
        bonus: i32,
    ) {
        if let Some(m) = best {
            update(&mut self.captures[capture_index(pos, m)], bonus);
        }
        for &m in tried {
            update(&mut self.captures[capture_index(pos, m)], -bonus);
        }
    }

    /// The stored answer to `prev` (played before reaching `pos`).
    #[inline(always)]
    pub fn counter(&self, pos: &Position, prev: Move) -> Move {
        if prev.is_null() {
            return Move::NULL;
        }
        self.counters[pos.piece_at(prev.to()).code()][prev.to().index()]
    }

    /// A quiet move caused a cutoff after `tried` other quiet moves failed: `bonus` to it, as
    /// much off each of them.
    pub fn reward(
        &mut self,
        pos: &Position,
        ply: usize,
        before: Before,
        best: Move,
        tried: &[Move],
        bonus: i32,
    ) {
        if self.killers[ply][0] != best {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best;
        }
        let Before { prev, rows } = before;
        if !prev.is_null() {
            self.counters[pos.piece_at(prev.to()).code()][prev.to().index()] = best;
        }
        self.credit(pos, rows, best, bonus);
        for &m in tried {
            self.credit(pos, rows, m, -bonus);
        }
    }

    /// The butterfly history of `m`, just played by the side not to move in `pos`, moves by
    /// `bonus`.
    #[inline(always)]
    pub fn learn_mover(&mut self, pos: &Position, m: Move, bonus: i32) {
        let mover = pos.side_to_move().flip().index();
        update(
            &mut self.butterfly[mover][m.from().index()][m.to().index()],
            bonus,
        );
    }

    #[inline(always)]
    fn credit(&mut self, pos: &Position, rows: ContRows, m: Move, bonus: i32) {
        let side = pos.side_to_move().index();
        update(
            &mut self.butterfly[side][m.from().index()][m.to().index()],
            bonus,
        );
        let i = cont_index(pos, m);
        for row in rows.moves {
            if row != 0 {
                update(&mut self.continuation[row + i], bonus);
            }
        }
        if rows.structure != 0 {
            update(&mut self.structure[rows.structure + i], bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::parse_coords(s).unwrap()
    }

    /// The context of these continuation rows, without structure history.
    fn on(moves: [usize; 3]) -> ContRows {
        ContRows {
            moves,
            structure: 0,
        }
    }

    #[test]
    fn continuation_history_credits_a_move_only_after_the_moves_that_preceded_it() {
        let pos = Position::startpos();
        let mut hist = Histories::new();
        // Rows of two earlier moves: a red cannon to e2, a red horse to c2.
        let cannon = pos.piece_at(Square::parse("h2").unwrap());
        let horse = pos.piece_at(Square::parse("b0").unwrap());
        let after_cannon = cont_row(cannon, Square::parse("e2").unwrap());
        let after_horse = cont_row(horse, Square::parse("c2").unwrap());
        let (best, tried) = (mv("h0g2"), mv("a0a1"));
        let before = Before {
            prev: Move::NULL,
            rows: on([after_cannon, 0, 0]),
        };
        hist.reward(&pos, 3, before, best, &[tried], 1_550);

        // The butterfly part is the same under any rows; the difference is continuation only.
        let gain = hist.quiet(&pos, best, on([after_cannon, 0, 0]))
            - hist.quiet(&pos, best, on([0, 0, 0]));
        assert!(gain > 0, "{gain}");
        assert_eq!(
            hist.quiet(&pos, best, on([after_horse, 0, 0])),
            hist.quiet(&pos, best, on([0, 0, 0]))
        );
        assert!(
            hist.quiet(&pos, tried, on([after_cannon, 0, 0]))
                < hist.quiet(&pos, tried, on([0, 0, 0]))
        );
        // The same earlier move counts two or four plies back as one ply back.
        assert_eq!(
            hist.quiet(&pos, best, on([0, after_cannon, 0])),
            hist.quiet(&pos, best, on([after_cannon, 0, 0]))
        );
        assert_eq!(
            hist.quiet(&pos, best, on([0, 0, after_cannon])),
            hist.quiet(&pos, best, on([after_cannon, 0, 0]))
        );
    }

    #[test]
    fn the_evaluations_around_a_move_teach_its_movers_history() {
        let mut pos = Position::startpos();
        let mut hist = Histories::new();
        let m = mv("h2e2");
        let undo = pos.do_move(m);
        // Black to move now: the bonus is red's, whose move it was.
        hist.learn_mover(&pos, m, -1_000);
        pos.undo_move(m, undo);
        assert!(hist.quiet(&pos, m, on([0, 0, 0])) < 0);
        let mut black = Position::startpos();
        black.do_null_move();
        assert_eq!(hist.quiet(&black, mv("h7e7"), on([0, 0, 0])), 0);
        assert_eq!(hist.butterfly[1][m.from().index()][m.to().index()], 0);
    }

    #[test]
    fn no_earlier_move_leaves_continuation_history_untouched() {
        let pos = Position::startpos();
        let mut hist = Histories::new();
        let before = Before {
            prev: Move::NULL,
            rows: on([0, 0, 0]),
        };
        hist.reward(&pos, 1, before, mv("h0g2"), &[mv("a0a1")], 2_150);
        assert!(hist.continuation.iter().all(|&v| v == 0));
        assert!(hist.quiet(&pos, mv("h0g2"), on([0, 0, 0])) > 0);
    }

    #[test]
    fn structure_history_credits_a_move_only_with_the_same_pawns() {
        let pos = Position::startpos();
        let mut pushed = pos.clone();
        pushed.do_move(mv("c3c4"));
        pushed.do_null_move();
        let (here, there) = (structure_row(&pos), structure_row(&pushed));
        assert_ne!(here, there);
        assert_eq!(structure_row(&pos.clone()), here);
        let mut hist = Histories::new();
        let context = |structure| ContRows {
            moves: [0; 3],
            structure,
        };
        let before = Before {
            prev: Move::NULL,
            rows: context(here),
        };
        let best = mv("h0g2");
        hist.reward(&pos, 1, before, best, &[], 2_000);
        let plain = hist.quiet(&pos, best, context(0));
        assert!(plain > 0, "{plain}");
        assert!(hist.quiet(&pos, best, context(here)) > plain);
        assert_eq!(hist.quiet(&pos, best, context(there)), plain);
        // Off (row 0), nothing is written there.
        hist.reward(
            &pos,
            1,
            Before {
                prev: Move::NULL,
                rows: context(0),
            },
            best,
            &[],
            2_000,
        );
        assert!(hist.structure[..CONT_ROW].iter().all(|&v| v == 0));
    }
}
