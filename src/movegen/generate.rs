//! Move generation: pseudo-legal moves by piece kind, filtered to legal moves with a cheap test
//! that only does a trial move when the king could be exposed.

use std::fmt;
use std::ops::Deref;

use super::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, FILE_LINES, HORSE_STEPS, KING_STEPS, Line, RANK_LINES, Steps,
    pawn_steps,
};
use crate::board::{Bitboard, Move, PieceType, Position, Square, Squares, bit};

/// More than the most moves any xiangqi position allows (the pseudo-legal bound is 119).
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves, kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = m;
        self.len += 1;
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the moves for which `keep` is true, in their order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Which pseudo-legal moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    All,
    Captures,
    Quiets,
}

/// Why a move given as text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    Syntax(String),
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => {
                write!(f, "'{s}' is not a move in ICCS coordinates (like h2e2)")
            }
            MoveError::Illegal(s) => write!(f, "move {s} is illegal in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Generates into `list`; `CAP` and `QUIET` pick capture and non-capture moves.
struct Gen<'a, const CAP: bool, const QUIET: bool> {
    pos: &'a Position,
    them: Bitboard,
    list: &'a mut MoveList,
}

impl<const CAP: bool, const QUIET: bool> Gen<'_, CAP, QUIET> {
    #[inline(always)]
    fn add(&mut self, from: Square, to: Square) {
        let tb = bit(to);
        let capture = self.them & tb != 0;
        if (capture && CAP) || (QUIET && self.pos.piece_at(to).is_none()) {
            self.list.push(Move::new(from, to));
        }
    }

    #[inline(always)]
    fn steps(&mut self, from: Square, t: &Steps, blockable: bool) {
        for (to, block) in t.iter() {
            if !blockable || self.pos.piece_at(block).is_none() {
                self.add(from, to);
            }
        }
    }

    /// Rook and cannon along one rank and one file.
    #[inline(always)]
    fn slider(&mut self, from: Square, cannon: bool) {
        let (f, r) = (from.file(), from.rank());
        let e = &RANK_LINES[f as usize][self.pos.rank_bits(r) as usize];
        self.line(from, e, cannon, |i| Square::new(i, r));
        let e = &FILE_LINES[r as usize][self.pos.file_bits(f) as usize];
        self.line(from, e, cannon, |i| Square::new(f, i));
    }

    #[inline(always)]
    fn line(&mut self, from: Square, e: &Line, cannon: bool, at: impl Fn(u8) -> Square) {
        if QUIET {
            let mut empty = e.empty;
            while empty != 0 {
                let i = empty.trailing_zeros() as u8;
                empty &= empty - 1;
                self.list.push(Move::new(from, at(i)));
            }
        }
        if CAP {
            let (a, b) = if cannon {
                (e.lo2, e.hi2)
            } else {
                (e.lo1, e.hi1)
            };
            for i in [a, b] {
                if i != Line::NONE {
                    let to = at(i);
                    if self.them & bit(to) != 0 {
                        self.list.push(Move::new(from, to));
                    }
                }
            }
        }
    }

    fn run(&mut self) {
        let pos = self.pos;
        let us = pos.side_to_move();
        let k = pos.king_square(us);
        self.steps(k, &KING_STEPS[k.index()], false);
        for s in Squares(pos.pieces(us, PieceType::Rook)) {
            self.slider(s, false);
        }
        for s in Squares(pos.pieces(us, PieceType::Cannon)) {
            self.slider(s, true);
        }
        for s in Squares(pos.pieces(us, PieceType::Horse)) {
            self.steps(s, &HORSE_STEPS[s.index()], true);
        }
        for s in Squares(pos.pieces(us, PieceType::Pawn)) {
            self.steps(s, pawn_steps(us, s), false);
        }
        for s in Squares(pos.pieces(us, PieceType::Advisor)) {
            self.steps(s, &ADVISOR_STEPS[s.index()], false);
        }
        for s in Squares(pos.pieces(us, PieceType::Elephant)) {
            self.steps(s, &ELEPHANT_STEPS[s.index()], true);
        }
    }
}

impl Position {
    /// Appends the pseudo-legal moves of the given kind (own king's safety not yet checked).
    pub fn generate_pseudo(&self, kind: GenKind, list: &mut MoveList) {
        let them = self.color_bits(self.side_to_move().flip());
        match kind {
            GenKind::All => Gen::<true, true> {
                pos: self,
                them,
                list,
            }
            .run(),
            GenKind::Captures => Gen::<true, false> {
                pos: self,
                them,
                list,
            }
            .run(),
            GenKind::Quiets => Gen::<false, true> {
                pos: self,
                them,
                list,
            }
            .run(),
        }
    }

    /// Legal moves of the given kind.
    #[inline]
    pub fn generate_legal(&self, kind: GenKind) -> MoveList {
        let mut list = MoveList::new();
        self.generate_pseudo(kind, &mut list);
        let legality = self.legality();
        list.retain(|m| legality.allows(self, m));
        list
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.generate_legal(GenKind::All)
    }

    /// Moves for quiescence search: every legal move when in check (evasions), else legal captures.
    pub fn quiescence_moves(&self) -> MoveList {
        if self.in_check() {
            self.legal_moves()
        } else {
            self.generate_legal(GenKind::Captures)
        }
    }

    /// Number of legal moves (perft's bulk count at the last ply).
    #[inline]
    pub fn count_legal(&self) -> usize {
        let mut list = MoveList::new();
        self.generate_pseudo(GenKind::All, &mut list);
        let legality = self.legality();
        list.iter().filter(|&&m| legality.allows(self, m)).count()
    }

    /// Whether the side to move has no legal move (mated or stalemated: either way it has lost).
    pub fn has_no_legal_move(&self) -> bool {
        self.count_legal() == 0
    }

    /// Parses an ICCS move and checks that it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = Move::parse_coords(text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(m.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_44_moves() {
        let p = Position::startpos();
        assert_eq!(p.legal_moves().len(), 44);
        assert_eq!(p.generate_legal(GenKind::Captures).len(), 2); // cannons take horses
        let quiets = p.generate_legal(GenKind::Quiets);
        assert_eq!(quiets.len(), 42);
    }

    #[test]
    fn generated_moves_agree_with_is_legal() {
        for line in include_str!("../../tests/data/perft.epd").lines() {
            let fen = line.split(';').next().unwrap();
            let p = Position::from_fen(fen).unwrap();
            let legal = p.legal_moves();
            for from in 0..90 {
                for to in 0..90 {
                    let m = Move::new(Square::from_index(from), Square::from_index(to));
                    assert_eq!(p.is_legal(m), legal.contains(&m), "{fen} {m}");
                }
            }
        }
    }

    #[test]
    fn parse_move_checks_legality() {
        let p = Position::startpos();
        assert_eq!(p.parse_move("h2e2").unwrap().to_string(), "h2e2");
        assert!(matches!(p.parse_move("h2h8"), Err(MoveError::Illegal(_))));
        assert!(matches!(p.parse_move("e0e2"), Err(MoveError::Illegal(_))));
        assert!(matches!(p.parse_move("zz"), Err(MoveError::Syntax(_))));
        assert!(
            p.parse_move("h2h8")
                .unwrap_err()
                .to_string()
                .contains("illegal")
        );
    }
}
