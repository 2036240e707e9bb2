//! The feature layer's sums for both views, kept move by move: a move takes the moved piece
//! off its point and puts it on the target, and takes any captured piece off. In a
//! king-bucketed net a king's move changes its own view's block: that view starts from the
//! sums it last had in the new block (`RefreshCache`) and changes the points that differ.
//! Room for the widest hidden layer; a net uses the first `hidden` sums of each view.

use crate::board::{Color, Move, Piece, PieceType, Position, Square, Squares};

use super::features::{FRAMES, Frame};
use super::network::Network;
use super::simd::{self, Kernel, MAX_WIDTH};

#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Indexed by the viewing colour.
    pub views: [[i16; MAX_WIDTH]; 2],
}

impl Accumulator {
    pub const ZERO: Accumulator = Accumulator {
        views: [[0; MAX_WIDTH]; 2],
    };

    /// `view`'s sums in a net of `hidden` units.
    #[inline(always)]
    pub fn view(&self, view: Color, hidden: usize) -> &[i16] {
        &self.views[view.index()][..hidden]
    }

    #[inline(always)]
    fn view_mut(&mut self, view: Color, hidden: usize) -> &mut [i16] {
        &mut self.views[view.index()][..hidden]
    }

    /// The sums of `pos`, from scratch.
    pub fn refresh(&mut self, k: Kernel, net: &Network, pos: &Position) {
        for view in Color::BOTH {
            let frame = Frame::of(view, pos.king_square(view), net.buckets);
            let dst = self.view_mut(view, net.hidden);
            dst.copy_from_slice(&net.ft_bias);
            for sq in Squares(pos.occupied()) {
                simd::add(k, dst, net.row(frame.index(view, pos.piece_at(sq), sq)));
            }
        }
    }

    /// The sums after `m` (legal in `pos`, the position before it), written into `self`.
    /// `cache` serves a king-bucketed net's view whose king moves (it must be `net`'s).
    #[inline(always)]
    pub fn update(
        &mut self,
        k: Kernel,
        net: &Network,
        parent: &Accumulator,
        pos: &Position,
        m: Move,
        cache: &mut RefreshCache,
    ) {
        let (from, to) = (m.from(), m.to());
        let piece = pos.piece_at(from);
        let captured = pos.piece_at(to);
        for view in Color::BOTH {
            let dst = self.view_mut(view, net.hidden);
            if net.buckets > 1 && piece.kind() == PieceType::King && piece.color() == view {
                cache.sums_after_king_move(k, net, dst, view, pos, m);
                continue;
            }
            let frame = Frame::of(view, pos.king_square(view), net.buckets);
            let src = parent.view(view, net.hidden);
            let off = net.row(frame.index(view, piece, from));
            let on = net.row(frame.index(view, piece, to));
            if captured.is_some() {
                let gone = net.row(frame.index(view, captured, to));
                simd::sub_sub_add(k, dst, src, off, gone, on);
            } else {
                simd::sub_add(k, dst, src, off, on);
            }
        }
    }
}

/// One view's sums in one frame, and the board they are the sums of.
#[derive(Clone, Copy)]
struct CachedSums {
    sums: [i16; MAX_WIDTH],
    board: [Piece; Square::COUNT],
}

/// For each view and frame of a king-bucketed net, the sums the view last had in it (Stockfish's
/// "Finny tables"): a king that changes bucket leaves its view's sums useless, but the sums
/// this view had the last time its king stood in the new bucket differ from the ones wanted
/// only where the board has changed since, a few points against some thirty pieces.
pub struct RefreshCache {
    entries: Box<[[CachedSums; FRAMES]; 2]>,
}

/// Entries for no net yet: `reset` before use.
impl Default for RefreshCache {
    fn default() -> RefreshCache {
        RefreshCache {
            entries: Box::new(
                [[CachedSums {
                    sums: [0; MAX_WIDTH],
                    board: [Piece::NONE; Square::COUNT],
                }; FRAMES]; 2],
            ),
        }
    }
}

impl RefreshCache {
    /// Makes every entry the empty board's (each view's biases) for `net`; each search starts
    /// so, since the net may have changed since the last.
    pub fn reset(&mut self, net: &Network) {
        for e in self.entries.iter_mut().flatten() {
            e.sums[..net.hidden].copy_from_slice(&net.ft_bias);
            e.board = [Piece::NONE; Square::COUNT];
        }
    }

    /// `view`'s sums after its own king's move `m` in `pos`, into `dst`: the new frame's entry
    /// brought up to the board after the move.
    #[cold]
    fn sums_after_king_move(
        &mut self,
        k: Kernel,
        net: &Network,
        dst: &mut [i16],
        view: Color,
        pos: &Position,
        m: Move,
    ) {
        let (from, to) = (m.from(), m.to());
        let frame = Frame::of(view, to, net.buckets);
        let e = &mut self.entries[view.index()][frame.slot()];
        let sums = &mut e.sums[..net.hidden];
        let king = pos.piece_at(from);
        for (i, was) in e.board.iter_mut().enumerate() {
            let sq = Square::from_index(i);
            let now = match sq {
                s if s == from => Piece::NONE,
                s if s == to => king,
                s => pos.piece_at(s),
            };
            if now == *was {
                continue;
            }
            if was.is_some() {
                simd::sub(k, sums, net.row(frame.index(view, *was, sq)));
            }
            if now.is_some() {
                simd::add(k, sums, net.row(frame.index(view, now, sq)));
            }
            *was = now;
        }
        dst.copy_from_slice(sums);
    }
}
