//! Static evaluation from the side to move's view: material and piece-square tables (summed
//! incrementally), positional terms (`terms`), tapered between middlegame and endgame by the
//! heavy pieces left, then scaled toward a draw for balances theory holds drawn (`endgame`).

pub mod endgame;
pub mod fade;
pub mod nnue;
pub mod terms;
pub mod wdl;
pub mod weights;

use crate::board::{Color, Move, Piece, PieceType, Position, Square, Squares};
use terms::{Sink, Term};
use weights::{MATERIAL_EG, MATERIAL_MG, PHASE_MAX, PHASE_WEIGHT, PST_EG, PST_MG, TEMPO, TERMS};

/// A middlegame and an endgame value packed in one integer, so one addition sums both.
pub const fn pack(mg: i32, eg: i32) -> i32 {
    (mg << 16) + eg
}

pub const fn mg_of(s: i32) -> i32 {
    (s + 0x8000) >> 16
}

pub const fn eg_of(s: i32) -> i32 {
    s as i16 as i32
}

/// The positional term weights, packed.
static PACKED_TERMS: [i32; Term::COUNT] = {
    let mut t = [0; Term::COUNT];
    let mut i = 0;
    while i < Term::COUNT {
        t[i] = pack(TERMS[i].0, TERMS[i].1);
        i += 1;
    }
    t
};

/// Sums the positional terms as one packed score.
struct Packed(i32);

impl Sink for Packed {
    #[inline(always)]
    fn add(&mut self, term: Term, n: i32) {
        self.0 += PACKED_TERMS[term as usize] * n;
    }
}

/// Index into the piece-square tables of a point seen from Red (the tables are written with
/// rank 9 as their first row).
#[inline(always)]
pub const fn pst_index(red_view: Square) -> usize {
    (9 - red_view.rank() as usize) * 9 + red_view.file() as usize
}

/// Packed value of every piece code on every point, from Red's view (Black's are negative).
static PSQ: [[i32; Square::COUNT]; Piece::CODES] = build_psq();

const fn build_psq() -> [[i32; Square::COUNT]; Piece::CODES] {
    let mut t = [[0; Square::COUNT]; Piece::CODES];
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::Red } else { Color::Black };
        let mut k = 0;
        while k < 7 {
            let code = Piece::new(color, PieceType::ALL[k]).code();
            let mut s = 0;
            while s < Square::COUNT {
                let sq = Square::from_index(s);
                let red_view = if c == 0 { sq } else { sq.flip_rank() };
                let i = pst_index(red_view);
                let v = pack(MATERIAL_MG[k] + PST_MG[k][i], MATERIAL_EG[k] + PST_EG[k][i]);
                t[code][s] = if c == 0 { v } else { -v };
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// The evaluation's running sums, updated move by move instead of recomputed at every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalState {
    /// Packed middlegame/endgame material and piece-square sum, from Red's view.
    psq: i32,
    /// Heavy material left (`PHASE_MAX` down to 0, before capping).
    phase: i32,
}

impl EvalState {
    /// The sums for `pos`, from scratch.
    pub fn new(pos: &Position) -> EvalState {
        let mut st = EvalState { psq: 0, phase: 0 };
        for sq in Squares(pos.occupied()) {
            let p = pos.piece_at(sq);
            st.psq += PSQ[p.code()][sq.index()];
            st.phase += PHASE_WEIGHT[p.kind().index()];
        }
        st
    }

    /// The sums after `m` (legal), given the position before it.
    #[inline(always)]
    pub fn after_move(self, pos: &Position, m: Move) -> EvalState {
        let p = pos.piece_at(m.from()).code();
        let cap = pos.piece_at(m.to());
        EvalState {
            psq: self.psq + PSQ[p][m.to().index()]
                - PSQ[p][m.from().index()]
                - PSQ[cap.code()][m.to().index()],
            phase: self.phase
                - if cap.is_some() {
                    PHASE_WEIGHT[cap.kind().index()]
                } else {
                    0
                },
        }
    }

    /// The game phase: `PHASE_MAX` for a full board down to 0 without heavy pieces.
    pub fn phase(self) -> i32 {
        self.phase.min(PHASE_MAX)
    }

    /// Material, piece squares and positional terms of `pos`, tapered, from Red's view, before
    /// endgame scaling.
    #[inline]
    pub fn tapered(self, pos: &Position) -> i32 {
        let mut sum = Packed(self.psq);
        terms::positional(pos, &mut sum);
        taper(sum.0, self.phase())
    }

    /// The evaluation of `pos` (the position these sums belong to) in centipawns for the side to
    /// move.
    #[inline]
    pub fn value(self, pos: &Position) -> i32 {
        let v = self.tapered(pos);
        let v = v * endgame::scale(pos, leader(v)) / endgame::FULL;
        let v = match pos.side_to_move() {
            Color::Red => v,
            Color::Black => -v,
        };
        v + TEMPO
    }
}

/// The side a Red-view score favours (Black on a level score).
#[inline(always)]
pub fn leader(v: i32) -> Color {
    if v > 0 { Color::Red } else { Color::Black }
}

/// Blends a packed score by the phase.
#[inline(always)]
pub fn taper(packed: i32, phase: i32) -> i32 {
    (mg_of(packed) * phase + eg_of(packed) * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The evaluation in centipawns from the side to move's view, from scratch.
pub fn evaluate(pos: &Position) -> i32 {
    EvalState::new(pos).value(pos)
}

/// Middlegame material value of a piece kind (for move ordering and pruning margins).
#[inline(always)]
pub fn piece_value(kind: PieceType) -> i32 {
    MATERIAL_MG[kind.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        let p = Position::startpos();
        assert_eq!(evaluate(&p), TEMPO);
    }

    #[test]
    fn mirrored_positions_evaluate_the_same_for_the_side_to_move() {
        for line in include_str!("../../tests/data/perft.epd").lines() {
            let fen = line.split(';').next().unwrap().trim();
            let p = Position::from_fen(fen).unwrap();
            // Swap colours and ranks: the same position seen from the other side.
            let mut fields = fen.split(' ');
            let board: Vec<String> = fields
                .next()
                .unwrap()
                .split('/')
                .rev()
                .map(|r| {
                    r.chars()
                        .map(|c| {
                            if c.is_ascii_uppercase() {
                                c.to_ascii_lowercase()
                            } else {
                                c.to_ascii_uppercase()
                            }
                        })
                        .collect()
                })
                .collect();
            let side = if fields.next() == Some("w") { "b" } else { "w" };
            let q = Position::from_fen(&format!("{} {side} - - 0 1", board.join("/"))).unwrap();
            assert_eq!(evaluate(&p), evaluate(&q), "{fen}");
        }
    }

    #[test]
    fn incremental_sums_match_a_fresh_count() {
        for line in include_str!("../../tests/data/perft.epd").lines() {
            let mut p = Position::from_fen(line.split(';').next().unwrap()).unwrap();
            let st = EvalState::new(&p);
            for m in p.legal_moves().iter().copied() {
                let next = st.after_move(&p, m);
                let undo = p.do_move(m);
                assert_eq!(next, EvalState::new(&p), "{line} {m}");
                p.undo_move(m, undo);
            }
        }
    }

    #[test]
    fn material_matters() {
        // Red is a rook up: good for Red to move, bad for Black to move.
        let red = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
        assert!(evaluate(&red) > 700);
        let black = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 b - - 0 1").unwrap();
        assert!(evaluate(&black) < -700);
        // A crossed pawn is worth more than one at home.
        let home = Position::from_fen("4k4/9/9/9/9/4P4/9/9/9/4K4 w - - 0 1").unwrap();
        let crossed = Position::from_fen("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert!(evaluate(&crossed) > evaluate(&home) + 30);
    }
}
