//! The training-data format: one position in 32 bytes, little-endian, records back to back.
//!
//! | bytes | what |
//! |---|---|
//! | 0–11  | occupancy: bit `s` set when point `s` (`rank * 9 + file`, a1 = 0) holds a piece; bits 90–95 zero |
//! | 12–27 | the pieces in point order, one nibble each (low nibble first): piece code − 1, so Red king … pawn = 0–6, Black king … pawn = 7–13 (kinds in `PieceType::ALL` order); unused nibbles zero |
//! | 28–29 | search score, `i16`, centipawns from **the side to move's** view |
//! | 30–31 | `u16`: bits 0–12 the ply of the game (0 = start position), bit 13 the side to move (1 = Black), bits 14–15 the result from **Red's** view (0 = Black won, 1 = draw, 2 = Red won) |
//!
//! A position holds at most 32 pieces, so the 16 piece bytes always suffice.

use crate::board::{Color, Piece, PieceType, Position, Square, Squares};
use crate::rules::GameResult;

pub const RECORD_BYTES: usize = 32;
const MAX_PLY: u32 = (1 << 13) - 1;

/// One packed position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record(pub [u8; RECORD_BYTES]);

impl Record {
    /// Packs `pos` with its search score (side to move's view), the game's result and the ply.
    pub fn new(pos: &Position, score: i32, result: GameResult, ply: u32) -> Record {
        let mut b = [0u8; RECORD_BYTES];
        let occ = pos.occupied();
        b[..12].copy_from_slice(&occ.to_le_bytes()[..12]);
        for (i, sq) in Squares(occ).enumerate() {
            let nibble = (pos.piece_at(sq).code() - 1) as u8;
            b[12 + i / 2] |= nibble << (4 * (i % 2));
        }
        let score = score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
        b[28..30].copy_from_slice(&score.to_le_bytes());
        let result = match result {
            GameResult::BlackWins => 0u16,
            GameResult::Draw => 1,
            GameResult::RedWins => 2,
        };
        let black = u16::from(pos.side_to_move() == Color::Black);
        let meta = ply.min(MAX_PLY) as u16 | black << 13 | result << 14;
        b[30..32].copy_from_slice(&meta.to_le_bytes());
        Record(b)
    }

    fn meta(&self) -> u16 {
        u16::from_le_bytes([self.0[30], self.0[31]])
    }

    /// The pieces and their points, in point order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut occ = [0u8; 16];
        occ[..12].copy_from_slice(&self.0[..12]);
        Squares(u128::from_le_bytes(occ))
            .enumerate()
            .map(|(i, sq)| {
                let nibble = (self.0[12 + i / 2] >> (4 * (i % 2))) & 15;
                let color = if nibble >= 7 {
                    Color::Black
                } else {
                    Color::Red
                };
                let kind = PieceType::ALL[usize::from(nibble % 7)];
                (sq, Piece::new(color, kind))
            })
    }

    pub fn side_to_move(&self) -> Color {
        if self.meta() >> 13 & 1 == 1 {
            Color::Black
        } else {
            Color::Red
        }
    }

    /// Search score in centipawns, side to move's view.
    pub fn score(&self) -> i32 {
        i16::from_le_bytes([self.0[28], self.0[29]]).into()
    }

    pub fn result(&self) -> GameResult {
        match self.meta() >> 14 {
            0 => GameResult::BlackWins,
            1 => GameResult::Draw,
            _ => GameResult::RedWins,
        }
    }

    /// The game result from the side to move's view: 1 won, 0.5 drawn, 0 lost.
    pub fn stm_result(&self) -> f32 {
        let red = match self.result() {
            GameResult::RedWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        };
        match self.side_to_move() {
            Color::Red => red,
            Color::Black => 1.0 - red,
        }
    }

    pub fn ply(&self) -> u32 {
        u32::from(self.meta() & MAX_PLY as u16)
    }

    /// The position (counters unknown: halfmove 0, fullmove from the ply).
    pub fn position(&self) -> Position {
        let mut pos = Position::empty();
        for (sq, p) in self.pieces() {
            pos.put(p, sq);
        }
        pos.set_side(self.side_to_move());
        pos.set_counters(0, (self.ply() / 2 + 1) as u16);
        pos
    }
}

/// Splits a byte buffer into records (a trailing partial record is ignored).
pub fn records(bytes: &[u8]) -> impl Iterator<Item = Record> + '_ {
    bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| Record(c.try_into().expect("exact chunk")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let fens = [
            crate::board::START_FEN,
            "3akab2/9/4b3n/p3p1p1p/2p6/9/P1P1P1P1P/1C2C3N/9/1NBAKAB2 b - - 0 12",
            "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1",
        ];
        for (i, fen) in fens.iter().enumerate() {
            let pos = Position::from_fen(fen).unwrap();
            for (score, result, ply) in [
                (-37, GameResult::RedWins, 0),
                (32767, GameResult::Draw, 8191),
                (-32768, GameResult::BlackWins, 411 + i as u32),
            ] {
                let r = Record::new(&pos, score, result, ply);
                let back = r.position();
                assert_eq!(back.key(), pos.key(), "{fen}");
                assert_eq!(back.to_fen().split(' ').next(), fen.split(' ').next());
                assert_eq!(r.side_to_move(), pos.side_to_move());
                assert_eq!((r.score(), r.result(), r.ply()), (score, result, ply));
                assert_eq!(records(&r.0).next(), Some(r));
            }
        }
        // Scores beyond i16 saturate; plies beyond 13 bits too.
        let pos = Position::startpos();
        let r = Record::new(&pos, 100_000, GameResult::Draw, 20_000);
        assert_eq!((r.score(), r.ply()), (32767, 8191));
        assert_eq!(r.stm_result(), 0.5);
        let black = Position::from_fen(fens[1]).unwrap();
        let r = Record::new(&black, 0, GameResult::RedWins, 3);
        assert_eq!(r.stm_result(), 0.0);
    }
}
