//! The feature layer's sums for both views, kept move by move: a move takes the moved piece
//! off its point and puts it on the target, and takes any captured piece off.

use crate::board::{Color, Move, Position, Squares};

use super::features::index;
use super::network::{HIDDEN, Network};
use super::simd::{self, Kernel};

#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Indexed by the viewing colour.
    pub views: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    pub const ZERO: Accumulator = Accumulator {
        views: [[0; HIDDEN]; 2],
    };

    /// The sums of `pos`, from scratch.
    pub fn refresh(&mut self, k: Kernel, net: &Network, pos: &Position) {
        for view in Color::BOTH {
            let acc = &mut self.views[view.index()];
            *acc = *net.ft_bias;
            for sq in Squares(pos.occupied()) {
                simd::add(k, acc, net.row(index(view, pos.piece_at(sq), sq)));
            }
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
            let (dst, src) = (&mut self.views[view.index()], &parent.views[view.index()]);
            let off = net.row(index(view, piece, from));
            let on = net.row(index(view, piece, to));
            if captured.is_some() {
                let gone = net.row(index(view, captured, to));
                simd::sub_sub_add(k, dst, src, off, gone, on);
            } else {
                simd::sub_add(k, dst, src, off, on);
            }
        }
    }
}
