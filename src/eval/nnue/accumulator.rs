//! The feature layer's sums for both views, kept move by move: a move takes the moved piece
//! off its point and puts it on the target, and takes any captured piece off. In a
//! king-bucketed net a king's move changes its own view's block: that view is summed afresh.
//! Room for the widest hidden layer; a net uses the first `hidden` sums of each view.

use crate::board::{Color, Move, Piece, PieceType, Position, Square, Squares};

use super::features::Frame;
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
            let pieces = Squares(pos.occupied()).map(|sq| (sq, pos.piece_at(sq)));
            sum_view(k, net, self.view_mut(view, net.hidden), view, frame, pieces);
        }
    }

    /// The sums after `m` (legal in `pos`, the position before it), written into `self`.
    #[inline(always)]
    pub fn update(
        &mut self,
        k: Kernel,
        net: &Network,
        parent: &Accumulator,
        pos: &Position,
        m: Move,
    ) {
        let (from, to) = (m.from(), m.to());
        let piece = pos.piece_at(from);
        let captured = pos.piece_at(to);
        for view in Color::BOTH {
            let dst = self.view_mut(view, net.hidden);
            if net.buckets > 1 && piece.kind() == PieceType::King && piece.color() == view {
                sum_after_king_move(k, net, dst, view, pos, from, to);
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

/// One view's sums from scratch: the biases and the rows of `pieces` in `frame`.
fn sum_view(
    k: Kernel,
    net: &Network,
    dst: &mut [i16],
    view: Color,
    frame: Frame,
    pieces: impl Iterator<Item = (Square, Piece)>,
) {
    dst.copy_from_slice(&net.ft_bias);
    for (sq, piece) in pieces {
        simd::add(k, dst, net.row(frame.index(view, piece, sq)));
    }
}

/// `view`'s sums from scratch after its own king moves from `from` to `to` in `pos`: every
/// piece in the new block but the king's old point and anything taken on its new one.
#[cold]
fn sum_after_king_move(
    k: Kernel,
    net: &Network,
    dst: &mut [i16],
    view: Color,
    pos: &Position,
    from: Square,
    to: Square,
) {
    let others = Squares(pos.occupied())
        .filter(|&sq| sq != from && sq != to)
        .map(|sq| (sq, pos.piece_at(sq)));
    let pieces = others.chain(std::iter::once((to, pos.piece_at(from))));
    sum_view(k, net, dst, view, Frame::of(view, to, net.buckets), pieces);
}
