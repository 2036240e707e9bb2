//! Win, draw and loss chances of a score: the score is read against the material left on the
//! board, since the same lead wins more surely with fewer pieces left to defend with.
//! P(win) = σ((cp − a(m)) / b(m)), P(loss) = σ((−cp − a(m)) / b(m)), the draw takes the rest,
//! where m is the material left as a fraction of the starting material and a, b are cubics.

use crate::board::{PieceType, Position, Squares};

/// Material weights of the model (half-pawns), kings left out.
const WEIGHTS: [u32; 7] = {
    let mut w = [0; 7];
    w[PieceType::Advisor as usize] = 4;
    w[PieceType::Elephant as usize] = 4;
    w[PieceType::Horse as usize] = 8;
    w[PieceType::Rook as usize] = 18;
    w[PieceType::Cannon as usize] = 9;
    w[PieceType::Pawn as usize] = 2;
    w
};
/// The material of the starting position under [`WEIGHTS`].
pub const START_MATERIAL: u32 = 2 * (2 * 4 + 2 * 4 + 2 * 8 + 2 * 18 + 2 * 9 + 5 * 2);

/// A piece's weight in the model's material count (a king's is 0).
pub fn weight(kind: PieceType) -> u32 {
    WEIGHTS[kind as usize]
}

/// Both sides' material, kings left out.
pub fn material(pos: &Position) -> u32 {
    Squares(pos.occupied())
        .map(|sq| weight(pos.piece_at(sq).kind()))
        .sum()
}

/// The model's coefficients: `a` and `b` as cubics in the material fraction, lowest power first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub a: [f64; 4],
    pub b: [f64; 4],
}

/// Fitted by `chuhan wdl-fit --data wdl-gen1.bin`: the first 7,030 games (770,201 positions,
/// 24,646,432 bytes) written by `chuhan datagen --eval nnue --out gen1.bin --games 200000
/// --threads 2 --seed 2 --adjudicate 3000,8` with net 1 (5,000 nodes a move), one game in ten
/// held out. Its calibration on those games is in STRENGTH.md, "Win/draw/loss model".
pub const MODEL: WdlModel = WdlModel {
    a: [1002.438, -1993.853, 1449.426, -315.073],
    b: [234.553, -481.216, 1279.027, -766.414],
};

fn cubic(c: &[f64; 4], m: f64) -> f64 {
    c[0] + m * (c[1] + m * (c[2] + m * c[3]))
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl WdlModel {
    /// `a` and `b` at material fraction `m`; `b` is kept positive.
    pub fn ab(&self, m: f64) -> (f64, f64) {
        (cubic(&self.a, m), cubic(&self.b, m).max(1.0))
    }

    /// Win, draw and loss probabilities of `cp` (side to move's view) at material fraction `m`.
    pub fn probabilities(&self, cp: f64, m: f64) -> [f64; 3] {
        let (a, b) = self.ab(m);
        let win = sigmoid((cp - a) / b);
        let loss = sigmoid((-cp - a) / b);
        [win, (1.0 - win - loss).max(0.0), loss]
    }

    /// Win, draw and loss per mille of `cp` with `material` on the board; sums to 1000.
    pub fn permille(&self, cp: i32, material: u32) -> [u32; 3] {
        let m = (f64::from(material) / f64::from(START_MATERIAL)).min(1.0);
        let [w, _, l] = self.probabilities(f64::from(cp), m);
        let (mut win, mut loss) = ((w * 1000.0).round() as u32, (l * 1000.0).round() as u32);
        // Rounding both up can pass 1000; take it from the larger, so -cp mirrors cp.
        if win + loss > 1000 {
            if win > loss {
                win = 1000 - loss;
            } else {
                loss = 1000 - win;
            }
        }
        [win, 1000 - win - loss, loss]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_material_is_the_start_positions() {
        assert_eq!(material(&Position::startpos()), START_MATERIAL);
    }

    #[test]
    fn chances_sum_to_1000_and_grow_with_the_score() {
        let mut last_win = 0;
        for cp in (-3000..=3000).step_by(50) {
            for material in [0, 40, 100, START_MATERIAL] {
                let p = MODEL.permille(cp, material);
                assert_eq!(p.iter().sum::<u32>(), 1000, "{cp} {material}");
            }
            let [win, _, loss] = MODEL.permille(cp, START_MATERIAL);
            assert!(win >= last_win, "{cp}");
            last_win = win;
            let mirrored = MODEL.permille(-cp, START_MATERIAL);
            assert_eq!((mirrored[0], mirrored[2]), (loss, win), "{cp}");
        }
        assert!(MODEL.permille(3000, 50)[0] > 950);
    }
}
