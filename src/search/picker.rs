//! Move ordering in stages, so that a cutoff early saves generating the rest: the hash move,
//! captures that do not lose material by most valuable victim / least valuable attacker and
//! capture history, the killers and the counter-move, the other quiet moves by history, then
//! the losing captures (in quiescence only those that check).

use crate::board::{Move, PieceType, Position};
use crate::eval::piece_value;
use crate::movegen::{GenKind, MoveList, generate::MAX_MOVES};

use super::history::{ContRows, Histories};
use super::see::see_ge;

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

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenCaptures,
    Captures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// Capture history over this moves a capture's order (at most about two horses' worth).
const CAPTURE_HISTORY_SCALE: i32 = 4;

/// Quiet moves handed out by picking the best before the rest are sorted.
const PICKED_QUIETS: usize = 7;

/// Score marking a capture that loses material (handed out after the quiet moves).
const BAD_CAPTURE: i32 = i32::MIN;

/// Which moves a picker hands out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Moves {
    /// Every move: the main search, and quiescence in check.
    All,
    /// The captures that do not lose material, then the losing ones that check: quiescence.
    Captures,
    /// Those and the quiet moves that give check: quiescence's first ply.
    CapturesAndQuietChecks,
}

pub struct MovePicker {
    tt_move: Move,
    stage: Stage,
    moves: Moves,
    /// Killers then the counter-move: quiet moves tried before the other quiets.
    specials: [Move; 3],
    /// The earlier moves whose continuation history orders the quiet moves.
    cont_rows: ContRows,
    list: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
    /// The captures occupy the list up to here; the quiet moves follow them.
    captures_end: usize,
    /// Set once the search prunes every quiet move that does not give check: those are then
    /// dropped here (the search would skip them anyway, after the picker sorted them out).
    quiet_checks_only: bool,
    /// Whether the quiet moves in the list have been through that filter.
    quiets_filtered: bool,
    /// Whether the quiet moves not yet handed out are sorted.
    quiets_sorted: bool,
}

impl MovePicker {
    /// `tt_move` must already be pseudo-legal here (or null).
    #[inline]
    pub fn new(
        tt_move: Move,
        moves: Moves,
        killers: [Move; 2],
        counter: Move,
        cont_rows: ContRows,
    ) -> Self {
        MovePicker {
            tt_move,
            stage: if tt_move.is_null() {
                Stage::GenCaptures
            } else {
                Stage::TtMove
            },
            moves,
            specials: [killers[0], killers[1], counter],
            cont_rows,
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
            captures_end: 0,
            quiet_checks_only: moves == Moves::CapturesAndQuietChecks,
            quiets_filtered: false,
            quiets_sorted: false,
        }
    }

    /// Hands out the best remaining move of the list by score.
    #[inline(always)]
    fn pick_best(&mut self) -> Option<Move> {
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
        self.next += 1;
        Some(moves[self.next - 1])
    }

    /// From now on, quiet moves that do not give check are of no use to the search.
    #[inline(always)]
    pub fn skip_quiets_without_check(&mut self) {
        self.quiet_checks_only = true;
    }

    /// Sorts the quiet moves not yet handed out best first, once. Their scores are distinct,
    /// so this gives the order that picking the best again and again gives.
    fn sort_quiets(&mut self) {
        self.quiets_sorted = true;
        let n = self.list.len();
        let (moves, scores) = (
            &mut self.list.as_mut_slice()[self.next..n],
            &mut self.scores[self.next..n],
        );
        for i in 1..moves.len() {
            let (m, s) = (moves[i], scores[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < s {
                moves[j] = moves[j - 1];
                scores[j] = scores[j - 1];
                j -= 1;
            }
            moves[j] = m;
            scores[j] = s;
        }
    }

    /// The next quiet move by score: the first few by picking the best (most nodes cut or
    /// prune before they want more), the rest from one sort, which costs less than picking
    /// when many are wanted.
    #[inline(always)]
    fn next_quiet(&mut self) -> Option<Move> {
        if self.quiets_sorted {
            self.take_next()
        } else if self.next - self.captures_end < PICKED_QUIETS {
            self.pick_best()
        } else {
            self.sort_quiets();
            self.take_next()
        }
    }

    /// Hands out the next move of the list in its order.
    #[inline(always)]
    fn take_next(&mut self) -> Option<Move> {
        let m = self.list.get(self.next).copied();
        self.next += usize::from(m.is_some());
        m
    }

    /// Drops the quiet moves not yet handed out that do not give check.
    fn drop_quiets_without_check(&mut self, pos: &Position) {
        self.quiets_filtered = true;
        let (first, scores) = (self.next, &mut self.scores);
        let (mut i, mut kept) = (0, 0);
        self.list.retain(|m| {
            let keep = i < first || pos.gives_check(m);
            if keep {
                scores[kept] = scores[i];
                kept += 1;
            }
            i += 1;
            keep
        });
    }

    /// Whether `m` was (or will be) handed out before the quiet stage.
    #[inline(always)]
    fn is_special(&self, m: Move) -> bool {
        m == self.tt_move || self.specials.contains(&m)
    }

    /// A killer or counter-move still to try: quiet, pseudo-legal here, and new.
    #[inline(always)]
    fn special(&self, pos: &Position, i: usize) -> Option<Move> {
        let m = self.specials[i];
        let fresh = m != self.tt_move && !self.specials[..i].contains(&m);
        (fresh && !m.is_null() && !pos.is_capture(m) && pos.is_pseudo_legal(m)).then_some(m)
    }

    /// The next pseudo-legal move, best first; the caller checks legality.
    #[inline]
    pub fn next(&mut self, pos: &Position, hist: &Histories) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    return Some(self.tt_move);
                }
                Stage::GenCaptures => {
                    pos.generate_pseudo(GenKind::Captures, &mut self.list);
                    for (i, &m) in self.list.iter().enumerate() {
                        self.scores[i] =
                            mvv_lva(pos, m) + hist.capture(pos, m) / CAPTURE_HISTORY_SCALE;
                    }
                    self.stage = Stage::Captures;
                }
                Stage::Captures => match self.pick_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) if !see_ge(pos, m, 0) => self.scores[self.next - 1] = BAD_CAPTURE,
                    Some(m) => return Some(m),
                    None => {
                        self.captures_end = self.list.len();
                        self.stage = if self.moves == Moves::Captures {
                            self.next = 0;
                            Stage::BadCaptures
                        } else {
                            Stage::Killer1
                        };
                    }
                },
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let i = self.stage as usize - Stage::Killer1 as usize;
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::GenQuiets,
                    };
                    if let Some(m) = self.special(pos, i) {
                        return Some(m);
                    }
                }
                Stage::GenQuiets => {
                    pos.generate_pseudo(GenKind::Quiets, &mut self.list);
                    if self.quiet_checks_only {
                        self.drop_quiets_without_check(pos);
                    }
                    // Best history first, ties in generation order: the index in the low bits
                    // makes every score distinct, so sorting by score gives that order.
                    let start = self.captures_end;
                    for i in start..self.list.len() {
                        let tie = 127 - (i - start) as i32;
                        self.scores[i] = hist.quiet(pos, self.list[i], self.cont_rows) << 7 | tie;
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.quiet_checks_only && !self.quiets_filtered {
                        self.drop_quiets_without_check(pos);
                    }
                    match self.next_quiet() {
                        Some(m) if self.is_special(m) => {}
                        Some(m) => return Some(m),
                        None => {
                            self.next = 0;
                            self.stage = Stage::BadCaptures;
                        }
                    }
                }
                Stage::BadCaptures => {
                    while self.next < self.captures_end {
                        self.next += 1;
                        let m = self.list[self.next - 1];
                        // Quiescence keeps only the losing captures that check: SEE counts a
                        // king's or a pinned piece's recapture that the rules forbid.
                        if self.scores[self.next - 1] == BAD_CAPTURE
                            && (self.moves == Moves::All || pos.gives_check(m))
                        {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picker without a hash move, killers, counter-move or earlier moves.
    fn plain_picker(moves: Moves) -> MovePicker {
        MovePicker::new(
            Move::NULL,
            moves,
            [Move::NULL; 2],
            Move::NULL,
            ContRows::default(),
        )
    }

    /// Capture history orders captures of the same victim by the same piece: the one that cut
    /// comes first, the one that failed after it.
    #[test]
    fn capture_history_reorders_equal_captures() {
        // The rook on e4 takes either pawn.
        let pos = Position::from_fen("3k5/9/9/9/9/2p1R1p2/9/9/9/4K4 w - - 0 1").unwrap();
        let order = |hist: &Histories| {
            let mut picker = plain_picker(Moves::Captures);
            let mut moves = Vec::new();
            while let Some(m) = picker.next(&pos, hist) {
                moves.push(m);
            }
            moves
        };
        let mut hist = Histories::new();
        let before = order(&hist);
        assert_eq!(before.len(), 2);
        hist.reward_captures(&pos, Some(before[1]), &before[..1], 1000);
        assert_eq!(order(&hist), [before[1], before[0]]);
    }

    /// Quiescence's captures are those that do not lose by SEE and those that check.
    #[test]
    fn quiescence_keeps_losing_captures_that_check() {
        // Rf6xf9 checks and loses the rook by SEE; Rc6xc7 loses it without a check.
        let pos =
            Position::from_fen("2r1kab2/4a4/2c1b4/p1R2R3/9/4C4/Pr2P2p1/1n1AB4/4A4/5KB2 w - - 0 1")
                .unwrap();
        let mut captures = MoveList::new();
        pos.generate_pseudo(GenKind::Captures, &mut captures);
        let losing = |m: &&Move| !see_ge(&pos, **m, 0);
        assert!(captures.iter().filter(losing).any(|&m| pos.gives_check(m)));
        assert!(captures.iter().filter(losing).any(|&m| !pos.gives_check(m)));
        for moves in [Moves::Captures, Moves::CapturesAndQuietChecks] {
            let mut picker = plain_picker(moves);
            let hist = Histories::new();
            let picked: Vec<Move> = std::iter::from_fn(|| picker.next(&pos, &hist))
                .filter(|&m| pos.is_capture(m))
                .collect();
            let kept = |m: &&Move| see_ge(&pos, **m, 0) || pos.gives_check(**m);
            assert_eq!(picked.len(), captures.iter().filter(kept).count());
            assert!(captures.iter().filter(kept).all(|m| picked.contains(m)));
            // The losing ones come last.
            let losing_kept = captures.iter().filter(losing).filter(kept).count();
            assert!(
                picked[picked.len() - losing_kept..]
                    .iter()
                    .all(|m| !see_ge(&pos, *m, 0))
            );
        }
    }

    /// Quiet moves come out by history, best first, equal histories in generation order.
    #[test]
    fn quiet_moves_come_out_by_history() {
        let pos = Position::from_fen(crate::board::START_FEN).unwrap();
        let mut generated = MoveList::new();
        pos.generate_pseudo(GenKind::Quiets, &mut generated);
        let mut hist = Histories::new();
        let before = crate::search::history::Before {
            prev: Move::NULL,
            rows: ContRows::default(),
        };
        // Every third move gains one of four bonuses, so some histories tie.
        for (i, &m) in generated.iter().enumerate().step_by(3) {
            hist.reward(&pos, 0, before, m, &[], 100 * (i % 4) as i32 - 150);
        }
        let mut expected: Vec<Move> = generated.to_vec();
        expected.sort_by_key(|&m| -hist.quiet(&pos, m, ContRows::default()));
        let mut picker = plain_picker(Moves::All);
        let picked: Vec<Move> = std::iter::from_fn(|| picker.next(&pos, &hist))
            .filter(|&m| !pos.is_capture(m))
            .collect();
        assert_ne!(picked, generated.to_vec(), "the bonuses change the order");
        assert_eq!(picked, expected);
    }
}
