//! The position: a mailbox board plus per-kind bitboards, rank/file occupancy masks for the
//! slider lookups, the king squares and an incrementally kept Zobrist key.

use super::types::{Color, Move, Piece, PieceType, Square};
use super::zobrist;

/// A set of squares as bits `1 << square`.
pub type Bitboard = u128;

/// Iterates the squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let s = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Square::from_index(s))
    }
}

#[inline(always)]
pub const fn bit(s: Square) -> Bitboard {
    1u128 << s.index()
}

/// What `do_move` changed that `undo_move` cannot recompute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    pub captured: Piece,
    pub halfmove: u16,
}

/// The part of the position that attack tests read: small enough to copy for a trial move.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Mailbox {
    pub board: [Piece; Square::COUNT],
    /// Bit `file` set in `rank_bits[rank]` when that point is occupied.
    pub rank_bits: [u16; 10],
    /// Bit `rank` set in `file_bits[file]` when that point is occupied.
    pub file_bits: [u16; 9],
}

impl Mailbox {
    #[inline(always)]
    pub fn piece_at(&self, s: Square) -> Piece {
        self.board[s.index()]
    }

    /// Moves the piece of `m` (capturing whatever stands on the target) without any bookkeeping
    /// beyond what attack tests read.
    #[inline(always)]
    pub fn shift(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        if self.board[to.index()].is_none() {
            self.rank_bits[to.rank() as usize] |= 1 << to.file();
            self.file_bits[to.file() as usize] |= 1 << to.rank();
        }
        self.board[to.index()] = self.board[from.index()];
        self.board[from.index()] = Piece::NONE;
        self.rank_bits[from.rank() as usize] &= !(1 << from.file());
        self.file_bits[from.file() as usize] &= !(1 << from.rank());
    }
}

#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    mb: Mailbox,
    pieces: [[Bitboard; 7]; 2],
    colors: [Bitboard; 2],
    kings: [Square; 2],
    side: Color,
    key: u64,
    /// Plies since the last capture (the FEN halfmove field).
    halfmove: u16,
    fullmove: u16,
}

impl Position {
    /// An empty board, Red to move. Only for building positions piece by piece (FEN parsing,
    /// endgame tables).
    pub(crate) fn empty() -> Position {
        Position {
            mb: Mailbox {
                board: [Piece::NONE; Square::COUNT],
                rank_bits: [0; 10],
                file_bits: [0; 9],
            },
            pieces: [[0; 7]; 2],
            colors: [0; 2],
            kings: [Square::new(4, 0), Square::new(4, 9)],
            side: Color::Red,
            key: 0,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(super::fen::START_FEN).expect("start FEN is valid")
    }

    #[inline(always)]
    pub fn piece_at(&self, s: Square) -> Piece {
        self.mb.board[s.index()]
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist key of pieces and side to move.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.kings[c.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceType) -> Bitboard {
        self.pieces[c.index()][k.index()]
    }

    #[inline(always)]
    pub fn color_bits(&self, c: Color) -> Bitboard {
        self.colors[c.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    #[inline(always)]
    pub fn count(&self, c: Color, k: PieceType) -> u32 {
        self.pieces(c, k).count_ones()
    }

    /// The attack-test view of the board.
    #[inline(always)]
    pub(crate) fn mailbox(&self) -> &Mailbox {
        &self.mb
    }

    #[inline(always)]
    pub(crate) fn rank_bits(&self, rank: u8) -> u16 {
        self.mb.rank_bits[rank as usize]
    }

    #[inline(always)]
    pub(crate) fn file_bits(&self, file: u8) -> u16 {
        self.mb.file_bits[file as usize]
    }

    /// Plies since the last capture.
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    pub(crate) fn set_counters(&mut self, halfmove: u16, fullmove: u16) {
        self.halfmove = halfmove;
        self.fullmove = fullmove.max(1);
    }

    pub(crate) fn set_side(&mut self, c: Color) {
        if c != self.side {
            self.key ^= zobrist::SIDE_KEY;
            self.side = c;
        }
    }

    /// Puts a piece on an empty point, keeping every view and the key in step.
    #[inline(always)]
    pub(crate) fn put(&mut self, p: Piece, s: Square) {
        debug_assert!(self.mb.board[s.index()].is_none());
        let (c, k) = (p.color(), p.kind());
        self.mb.board[s.index()] = p;
        self.pieces[c.index()][k.index()] |= bit(s);
        self.colors[c.index()] |= bit(s);
        self.mb.rank_bits[s.rank() as usize] |= 1 << s.file();
        self.mb.file_bits[s.file() as usize] |= 1 << s.rank();
        self.key ^= zobrist::piece_key(p, s);
        if k == PieceType::King {
            self.kings[c.index()] = s;
        }
    }

    /// Moves piece `p` from `from` to the empty point `to`, keeping every view and the key.
    #[inline(always)]
    fn shift(&mut self, p: Piece, from: Square, to: Square) {
        let (c, k) = (p.color().index(), p.kind().index());
        let both = bit(from) | bit(to);
        self.pieces[c][k] ^= both;
        self.colors[c] ^= both;
        self.mb.board[from.index()] = Piece::NONE;
        self.mb.board[to.index()] = p;
        let (ff, fr, tf, tr) = (from.file(), from.rank(), to.file(), to.rank());
        self.mb.rank_bits[fr as usize] ^= 1 << ff;
        self.mb.file_bits[ff as usize] ^= 1 << fr;
        self.mb.rank_bits[tr as usize] |= 1 << tf;
        self.mb.file_bits[tf as usize] |= 1 << tr;
        self.key ^= zobrist::piece_key(p, from) ^ zobrist::piece_key(p, to);
        if k == PieceType::King.index() {
            self.kings[c] = to;
        }
    }

    /// Takes a captured piece off the bitboards and the key; its point's occupancy bits stay
    /// set, as the capturer arrives there.
    #[inline(always)]
    fn lift_captured(&mut self, p: Piece, s: Square) {
        let (c, k) = (p.color().index(), p.kind().index());
        self.pieces[c][k] ^= bit(s);
        self.colors[c] ^= bit(s);
        self.key ^= zobrist::piece_key(p, s);
    }

    /// Plays a move known to be legal (or at least pseudo-legal) for the side to move.
    #[inline]
    pub fn do_move(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from(), m.to());
        let captured = self.mb.board[to.index()];
        let undo = Undo {
            captured,
            halfmove: self.halfmove,
        };
        if captured.is_some() {
            self.lift_captured(captured, to);
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        self.shift(self.mb.board[from.index()], from, to);
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.key ^= zobrist::SIDE_KEY;
        undo
    }

    /// Takes back `m`, given what `do_move(m)` returned.
    #[inline]
    pub fn undo_move(&mut self, m: Move, undo: Undo) {
        let (from, to) = (m.from(), m.to());
        self.side = self.side.flip();
        self.key ^= zobrist::SIDE_KEY;
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.shift(self.mb.board[to.index()], to, from);
        if undo.captured.is_some() {
            // `shift` cleared the target's occupancy bits; the captured piece puts them back.
            self.put(undo.captured, to);
        }
        self.halfmove = undo.halfmove;
    }

    /// Passes the move (for null-move pruning). Undo with `undo_null_move`.
    #[inline]
    pub fn do_null_move(&mut self) -> Undo {
        let undo = Undo {
            captured: Piece::NONE,
            halfmove: self.halfmove,
        };
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = self.side.flip();
        self.key ^= zobrist::SIDE_KEY;
        undo
    }

    #[inline]
    pub fn undo_null_move(&mut self, undo: Undo) {
        self.side = self.side.flip();
        self.key ^= zobrist::SIDE_KEY;
        self.halfmove = undo.halfmove;
    }

    /// The key recomputed from scratch (to check the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut k = zobrist::side_key(self.side);
        for s in 0..Square::COUNT {
            let sq = Square::from_index(s);
            k ^= zobrist::piece_key(self.mb.board[s], sq);
        }
        k
    }

    /// Key after `m` without playing it (for TT prefetch and repetition look-ahead).
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let p = self.mb.board[m.from().index()];
        let cap = self.mb.board[m.to().index()];
        self.key
            ^ zobrist::SIDE_KEY
            ^ zobrist::piece_key(p, m.from())
            ^ zobrist::piece_key(p, m.to())
            ^ zobrist::piece_key(cap, m.to())
    }

    /// Whether any piece that can cross the river remains for `c`.
    pub fn has_attacking_material(&self, c: Color) -> bool {
        PieceType::ALL
            .iter()
            .any(|&k| k.can_cross_river() && self.pieces(c, k) != 0)
    }

    /// Whether the move captures.
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        self.mb.board[m.to().index()].is_some()
    }

    /// Board as text, rank 9 at the top, with FEN and key below (the protocol `d` command).
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        for r in (0..10u8).rev() {
            s.push_str(&format!("{r} "));
            for f in 0..9u8 {
                let p = self.piece_at(Square::new(f, r));
                s.push(' ');
                s.push(p.letter());
            }
            s.push('\n');
        }
        s.push_str("   a b c d e f g h i\n");
        s.push_str(&format!("FEN: {}\nKey: {:016X}\n", self.to_fen(), self.key));
        s
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
