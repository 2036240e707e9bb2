//! Legality: whether a move obeys its piece's movement rules, and whether it leaves the own king
//! safe. A per-position `Legality` summary lets the generator accept most moves with two bit
//! tests and look closer only at the few that could expose the king.

use super::attacks::{HORSE_ZONE, LINES_THROUGH};
use super::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, FILE_LINES, HORSE_ATTACKERS, HORSE_STEPS, KING_STEPS, Line,
    RANK_LINES, Steps, pawn_steps,
};
use crate::board::{Color, Move, Piece, PieceType, Position, Square, bit};

/// For each king square: the points from which a move may uncover or create an attack on the
/// king (its rank, its file, and the four horse-leg points diagonal to it). A move touching none
/// of them, by a piece other than the king, can never leave its own king attacked.
static SENSITIVE_FROM: [u128; 90] = build_sensitive(true);
/// Points where an arriving piece may become a cannon screen: the king's rank and file.
static SENSITIVE_TO: [u128; 90] = build_sensitive(false);

const fn build_sensitive(with_legs: bool) -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut k = 0;
    while k < 90 {
        let (kf, kr) = (k % 9, k / 9);
        let mut s = 0;
        while s < 90 {
            let (f, r) = (s % 9, s / 9);
            let line = f == kf || r == kr;
            let leg = (f as i32 - kf as i32).abs() == 1 && (r as i32 - kr as i32).abs() == 1;
            if line || (with_legs && leg) {
                t[k] |= 1u128 << s;
            }
            s += 1;
        }
        k += 1;
    }
    t
}

/// What one position says about the legality of its pseudo-legal moves.
#[derive(Clone, Copy, Debug)]
pub struct Legality {
    pub in_check: bool,
    king: Square,
    /// Own pieces whose leaving their point may uncover an attack on the king (pinned pieces,
    /// cannon screens, horse legs).
    danger_from: u128,
    /// Empty points where an arriving piece would become a screen for an enemy cannon.
    danger_to: u128,
}

impl Legality {
    /// Whether the pseudo-legal move `m` of `pos` (the position this summary was made for)
    /// leaves the own king safe.
    #[inline(always)]
    pub fn allows(&self, pos: &Position, m: Move) -> bool {
        if self.in_check || m.from() == self.king {
            return pos.is_legal_pseudo(m, self.in_check);
        }
        if (self.danger_from & bit(m.from())) | (self.danger_to & bit(m.to())) == 0 {
            return true;
        }
        pos.is_legal_pseudo(m, false)
    }
}

impl Position {
    /// Summarises the king's safety once, for filtering many moves (see `Legality::allows`).
    pub fn legality(&self) -> Legality {
        let us = self.side_to_move();
        let them = us.flip();
        let k = self.king_square(us);
        let (kf, kr) = (k.file(), k.rank());
        let mut l = Legality {
            in_check: false,
            king: k,
            danger_from: 0,
            danger_to: 0,
        };
        // Each part is skipped when no enemy piece that could act through it is near.
        let sliders = self.pieces(them, PieceType::Rook)
            | self.pieces(them, PieceType::Cannon)
            | self.pieces(them, PieceType::King);
        let rank = 0x1ffu128 << (9 * kr as u32);
        if sliders & rank != 0 {
            let e = &RANK_LINES[kf as usize][self.rank_bits(kr) as usize];
            let at_rank = |i: u8| Square::new(i, kr);
            self.scan_ray(&mut l, us, [e.lo1, e.lo2, e.lo3], kf, false, at_rank);
            self.scan_ray(&mut l, us, [e.hi1, e.hi2, e.hi3], kf, false, at_rank);
        }
        if sliders & LINES_THROUGH[k.index()] & !rank != 0 {
            let e = &FILE_LINES[kr as usize][self.file_bits(kf) as usize];
            let at_file = |i: u8| Square::new(kf, i);
            self.scan_ray(&mut l, us, [e.lo1, e.lo2, e.lo3], kr, true, at_file);
            self.scan_ray(&mut l, us, [e.hi1, e.hi2, e.hi3], kr, true, at_file);
        }
        if self.pieces(them, PieceType::Horse) & HORSE_ZONE[k.index()] != 0 {
            let horse = Piece::new(them, PieceType::Horse);
            for (h, leg) in HORSE_ATTACKERS[k.index()].iter() {
                if self.piece_at(h) == horse {
                    let p = self.piece_at(leg);
                    if p.is_none() {
                        l.in_check = true;
                    } else if p.color() == us {
                        l.danger_from |= bit(leg);
                    }
                }
            }
        }
        // Lines and horses are covered above; pawns are the last attackers.
        l.in_check |= self.mailbox().pawn_attacks_king(k, us);
        l
    }

    /// One ray from the king: `p` are the first three blockers (line indices), `k` the king's
    /// index on the line.
    #[inline(always)]
    fn scan_ray(
        &self,
        l: &mut Legality,
        us: Color,
        p: [u8; 3],
        k: u8,
        file: bool,
        at: impl Fn(u8) -> Square,
    ) {
        let them = us.flip();
        let piece = |i: u8| {
            if i == Line::NONE {
                Piece::NONE
            } else {
                self.piece_at(at(i))
            }
        };
        let (a, b, c) = (piece(p[0]), piece(p[1]), piece(p[2]));
        let rook = Piece::new(them, PieceType::Rook);
        let cannon = Piece::new(them, PieceType::Cannon);
        let king = Piece::new(them, PieceType::King);
        let slides_to_king = |x: Piece| x == rook || (file && x == king);
        if slides_to_king(a) || b == cannon {
            l.in_check = true;
            return;
        }
        let ours = |x: Piece| x.is_some() && x.color() == us;
        if ours(a) && (slides_to_king(b) || c == cannon) {
            l.danger_from |= bit(at(p[0]));
        }
        if ours(b) && c == cannon {
            l.danger_from |= bit(at(p[1]));
        }
        if a == cannon {
            let (lo, hi) = (k.min(p[0]), k.max(p[0]));
            for i in lo + 1..hi {
                l.danger_to |= bit(at(i));
            }
        }
    }

    /// Whether a move by the side to move, known to be pseudo-legal, leaves its king safe.
    /// `in_check` is whether the side to move is in check now (the caller knows it already).
    /// For many moves of one position, `Legality` is cheaper.
    #[inline]
    pub fn is_legal_pseudo(&self, m: Move, in_check: bool) -> bool {
        let us = self.side_to_move();
        let k = self.king_square(us);
        let (from, to) = (m.from(), m.to());
        if in_check || from == k {
            let mut trial = self.mailbox().clone();
            trial.shift(m);
            let king_to = if from == k { to } else { k };
            return !trial.king_attacked_at(king_to, us);
        }
        let from_bit = 1u128 << from.index();
        if SENSITIVE_FROM[k.index()] & from_bit == 0
            && SENSITIVE_TO[k.index()] & (1u128 << to.index()) == 0
        {
            return true;
        }
        // Not in check, so only what the move changes can attack the king: the occupancy of the
        // king's rank and file, and a horse leg the piece leaves.
        let them = us.flip();
        if self.line_attack_after(k, them, from, to, self.piece_at(from)) {
            return false;
        }
        let horse = Piece::new(them, PieceType::Horse);
        !HORSE_ATTACKERS[k.index()]
            .iter()
            .any(|(h, leg)| leg == from && h != to && self.piece_at(h) == horse)
    }

    /// Whether `m` is a legal move here (any 16-bit value accepted; for TT and killer moves).
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.is_legal_pseudo(m, self.in_check())
    }

    /// Whether `m` obeys the movement rules of the piece on its origin (ignoring own-king safety).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        if from.index() >= Square::COUNT || to.index() >= Square::COUNT || from == to {
            return false;
        }
        let p = self.piece_at(from);
        let us = self.side_to_move();
        if p.is_none() || p.color() != us {
            return false;
        }
        let target = self.piece_at(to);
        if target.is_some() && target.color() == us {
            return false;
        }
        let step = |t: &Steps, need_empty_block: bool| {
            t.iter()
                .any(|(s, b)| s == to && (!need_empty_block || self.piece_at(b).is_none()))
        };
        match p.kind() {
            PieceType::King => step(&KING_STEPS[from.index()], false),
            PieceType::Advisor => step(&ADVISOR_STEPS[from.index()], false),
            PieceType::Elephant => step(&ELEPHANT_STEPS[from.index()], true),
            PieceType::Horse => step(&HORSE_STEPS[from.index()], true),
            PieceType::Pawn => step(pawn_steps(us, from), false),
            kind @ (PieceType::Rook | PieceType::Cannon) => {
                let (e, idx) = if from.rank() == to.rank() {
                    (
                        &RANK_LINES[from.file() as usize][self.rank_bits(from.rank()) as usize],
                        to.file(),
                    )
                } else if from.file() == to.file() {
                    (
                        &FILE_LINES[from.rank() as usize][self.file_bits(from.file()) as usize],
                        to.rank(),
                    )
                } else {
                    return false;
                };
                if target.is_none() {
                    e.empty & (1 << idx) != 0
                } else if kind == PieceType::Rook {
                    idx == e.lo1 || idx == e.hi1
                } else {
                    idx == e.lo2 || idx == e.hi2
                }
            }
        }
    }
}
