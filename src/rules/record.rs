//! A game record: the start position and the moves played, with what repetition judging needs.

use crate::board::{Move, Position};
use crate::movegen::MoveError;

use super::repetition::judge_cycle;
use super::verdict::{GameResult, Reason, Verdict};

#[derive(Clone, Debug)]
pub struct GameRecord {
    start: Position,
    moves: Vec<Move>,
    /// Position before each move, then the current one (`positions.len() == moves.len() + 1`).
    positions: Vec<Position>,
}

impl GameRecord {
    pub fn new(start: Position) -> GameRecord {
        GameRecord {
            positions: vec![start.clone()],
            start,
            moves: Vec::new(),
        }
    }

    /// Plays ICCS moves from `start`, refusing the whole list at the first illegal one.
    pub fn from_moves<S: AsRef<str>>(
        start: Position,
        moves: &[S],
    ) -> Result<GameRecord, MoveError> {
        let mut rec = GameRecord::new(start);
        for text in moves {
            let m = rec.position().parse_move(text.as_ref())?;
            rec.push(m);
        }
        Ok(rec)
    }

    /// Plays a move already known to be legal.
    pub fn push(&mut self, m: Move) {
        let mut next = self.position().clone();
        next.do_move(m);
        self.moves.push(m);
        self.positions.push(next);
    }

    /// Checks legality, then plays.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        if !self.position().is_legal(m) {
            return Err(MoveError::Illegal(m.to_string()));
        }
        self.push(m);
        Ok(())
    }

    /// Takes back the last move.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Position before move `i` (`i == moves().len()` gives the current position).
    pub fn position_at(&self, i: usize) -> &Position {
        &self.positions[i]
    }

    pub fn position(&self) -> &Position {
        self.positions.last().expect("never empty")
    }

    /// Whether the game is over, and why, checked in this order: no legal move (checkmate or
    /// stalemate, a loss for the side to move, even on the last ply the move limit allows), the
    /// third occurrence of the position (judged by perpetual check and chase), the move limit
    /// (plies without capture, 0 = off), no attacking material on either side.
    pub fn verdict(&self, move_limit: u32) -> Option<Verdict> {
        let pos = self.position();
        let side = pos.side_to_move();
        if pos.has_no_legal_move() {
            let reason = if pos.in_check() {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Some(Verdict {
                result: GameResult::win_for(side.flip()),
                reason,
            });
        }
        if let Some(reason) = self.repetition() {
            let result = reason
                .rule_breaker()
                .map_or(GameResult::Draw, |c| GameResult::win_for(c.flip()));
            return Some(Verdict { result, reason });
        }
        if move_limit > 0 && u32::from(pos.halfmove_clock()) >= move_limit {
            return Some(Verdict {
                result: GameResult::Draw,
                reason: Reason::MoveLimit,
            });
        }
        if !pos.has_attacking_material(side) && !pos.has_attacking_material(side.flip()) {
            return Some(Verdict {
                result: GameResult::Draw,
                reason: Reason::NoAttackingMaterial,
            });
        }
        None
    }

    /// When the current position stands for the third time, the judgement of the moves since
    /// the first of those occurrences.
    fn repetition(&self) -> Option<Reason> {
        let key = self.position().key();
        let n = self.moves.len();
        // The key holds the side to move, and equal keys mean equal material: no capture between.
        let mut earlier = (0..n).rev().filter(|&i| self.positions[i].key() == key);
        earlier.next()?;
        let first = earlier.next()?;
        let cycle = (first..n)
            .rev()
            .map(|i| (self.moves[i], self.positions[i + 1].in_check()));
        Some(judge_cycle(self.position(), cycle))
    }
}
