//! The evaluation as a dot product: for one position, the coefficient of every tunable weight
//! plus the fixed part (tempo), from Red's view.

use crate::board::{Color, PieceType, Position, Squares};
use crate::eval::endgame::{self, FULL};
use crate::eval::terms::{self, Sink, Term};
use crate::eval::weights::{MATERIAL_EG, MATERIAL_MG, PHASE_MAX, PST_EG, PST_MG, TEMPO, TERMS};
use crate::eval::{EvalState, leader, pst_index};

/// Tunable kinds of material: all but the king, which has none.
pub const MATERIAL_KINDS: &[PieceType] = PieceType::ALL.split_at(1).1;

/// Piece-square cells per kind: the tables are tuned left-right symmetric, so a cell is a rank
/// and a file counted from the nearer edge.
pub const PST_CELLS: usize = 50;

/// Number of tunable weights: a middlegame and an endgame value per term, material kind and
/// piece-square cell.
pub const PARAMS: usize = 2 * (Term::COUNT + MATERIAL_KINDS.len() + 7 * PST_CELLS);

/// Parameter index of a term's middlegame weight (its endgame weight follows).
pub const fn term_param(t: usize) -> usize {
    2 * t
}

/// Parameter index of a material kind's middlegame value (`i` into `MATERIAL_KINDS`).
pub const fn material_param(i: usize) -> usize {
    2 * (Term::COUNT + i)
}

/// The piece-square cell of a table index (see `eval::pst_index`).
pub const fn pst_cell(i: usize) -> usize {
    let (row, file) = (i / 9, i % 9);
    let file = if file > 4 { 8 - file } else { file };
    row * 5 + file
}

/// Parameter index of a kind's middlegame piece-square value in `cell` (the endgame follows).
pub const fn pst_param(kind: usize, cell: usize) -> usize {
    2 * (Term::COUNT + MATERIAL_KINDS.len() + kind * PST_CELLS + cell)
}

/// The weights in the evaluation now, in parameter order.
pub fn current_weights() -> Vec<f64> {
    let mut w = vec![0.0; PARAMS];
    for (t, &(mg, eg)) in TERMS.iter().enumerate() {
        w[term_param(t)] = mg as f64;
        w[term_param(t) + 1] = eg as f64;
    }
    for (i, k) in MATERIAL_KINDS.iter().enumerate() {
        w[material_param(i)] = MATERIAL_MG[k.index()] as f64;
        w[material_param(i) + 1] = MATERIAL_EG[k.index()] as f64;
    }
    for k in 0..7 {
        for i in 0..90 {
            w[pst_param(k, pst_cell(i))] = PST_MG[k][i] as f64;
            w[pst_param(k, pst_cell(i)) + 1] = PST_EG[k][i] as f64;
        }
    }
    w
}

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Game result from Red's view: 1, 0.5 or 0.
    pub result: f64,
    /// The evaluation's part that is not tuned (tempo), from Red's view.
    pub fixed: f64,
    /// Nonzero coefficients: (parameter index, coefficient).
    pub coefs: Vec<(u16, f64)>,
}

impl Sample {
    /// The evaluation from Red's view under weights `w`.
    pub fn eval(&self, w: &[f64]) -> f64 {
        self.fixed
            + self
                .coefs
                .iter()
                .map(|&(i, c)| w[i as usize] * c)
                .sum::<f64>()
    }
}

struct Counts([i32; Term::COUNT]);

impl Sink for Counts {
    fn add(&mut self, term: Term, n: i32) {
        self.0[term as usize] += n;
    }
}

/// The feature vector of `pos`, with the game result from Red's view.
pub fn sample(pos: &Position, result: f64) -> Sample {
    let st = EvalState::new(pos);
    let phase = st.phase();
    let mg = phase as f64 / PHASE_MAX as f64;
    // The endgame scale is taken as it is under the current weights.
    let scale = endgame::scale(pos, leader(st.tapered(pos))) as f64 / FULL as f64;
    let mut coefs = Vec::new();
    let mut push = |param: usize, n: i32| {
        if n != 0 {
            coefs.push((param as u16, n as f64 * mg * scale));
            coefs.push((param as u16 + 1, n as f64 * (1.0 - mg) * scale));
        }
    };
    let mut counts = Counts([0; Term::COUNT]);
    terms::positional(pos, &mut counts);
    for (t, &n) in counts.0.iter().enumerate() {
        push(term_param(t), n);
    }
    for (i, &k) in MATERIAL_KINDS.iter().enumerate() {
        let n = pos.count(Color::Red, k) as i32 - pos.count(Color::Black, k) as i32;
        push(material_param(i), n);
    }
    let mut cells = [0i32; 7 * PST_CELLS];
    for sq in Squares(pos.occupied()) {
        let p = pos.piece_at(sq);
        let (red_view, n) = match p.color() {
            Color::Red => (sq, 1),
            Color::Black => (sq.flip_rank(), -1),
        };
        cells[p.kind().index() * PST_CELLS + pst_cell(pst_index(red_view))] += n;
    }
    for (c, &n) in cells.iter().enumerate() {
        push(pst_param(c / PST_CELLS, c % PST_CELLS), n);
    }
    let tempo = match pos.side_to_move() {
        Color::Red => TEMPO,
        Color::Black => -TEMPO,
    };
    Sample {
        result,
        fixed: tempo as f64,
        coefs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;

    #[test]
    fn dot_product_matches_the_evaluation() {
        for line in include_str!("../../tests/data/perft.epd").lines() {
            let pos = Position::from_fen(line.split(';').next().unwrap()).unwrap();
            let s = sample(&pos, 0.5);
            let red = match pos.side_to_move() {
                Color::Red => evaluate(&pos),
                Color::Black => -evaluate(&pos),
            };
            // The engine rounds the taper and the scale to whole centipawns.
            assert!(
                (s.eval(&current_weights()) - red as f64).abs() <= 2.0,
                "{line}"
            );
        }
    }
}
