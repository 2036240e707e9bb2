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
        let change = Change::of(pos, m);
        for view in Color::BOTH {
            let dst = self.view_mut(view, net.hidden);
            if change.moves_frame(net) && change.piece.color() == view {
                cache.sums_after_king_move(k, net, dst, view, pos, m);
            } else {
                let frame = Frame::of(view, pos.king_square(view), net.buckets);
                change.apply(k, net, frame, view, dst, parent.view(view, net.hidden));
            }
        }
    }

    /// The sums after `change` (not one that moves a frame), from `parent`'s, in the frames of
    /// `pos`'s kings: the kings' points when it was played, as no frame has moved since.
    #[inline(always)]
    fn apply(
        &mut self,
        k: Kernel,
        net: &Network,
        parent: &Accumulator,
        change: Change,
        pos: &Position,
    ) {
        for view in Color::BOTH {
            let frame = Frame::of(view, pos.king_square(view), net.buckets);
            let dst = self.view_mut(view, net.hidden);
            change.apply(k, net, frame, view, dst, parent.view(view, net.hidden));
        }
    }
}

/// What one move changes on the board, as the sums see it.
#[derive(Clone, Copy)]
struct Change {
    piece: Piece,
    from: Square,
    to: Square,
    captured: Piece,
}

impl Change {
    /// What `m` (legal in `pos`, the position before it) changes.
    #[inline(always)]
    fn of(pos: &Position, m: Move) -> Change {
        Change {
            piece: pos.piece_at(m.from()),
            from: m.from(),
            to: m.to(),
            captured: pos.piece_at(m.to()),
        }
    }

    /// A king's move in a king-bucketed net: its own view's frame may change.
    #[inline(always)]
    fn moves_frame(self, net: &Network) -> bool {
        net.buckets > 1 && self.piece.kind() == PieceType::King
    }

    /// `view`'s sums after the change in `frame`, from `src` into `dst`.
    #[inline(always)]
    fn apply(
        self,
        k: Kernel,
        net: &Network,
        frame: Frame,
        view: Color,
        dst: &mut [i16],
        src: &[i16],
    ) {
        let off = net.row(frame.index(view, self.piece, self.from));
        let on = net.row(frame.index(view, self.piece, self.to));
        if self.captured.is_some() {
            let gone = net.row(frame.index(view, self.captured, self.to));
            simd::sub_sub_add(k, dst, src, off, gone, on);
        } else {
            simd::sub_add(k, dst, src, off, on);
        }
    }
}

/// How a ply's sums stand.
#[derive(Clone, Copy)]
enum Step {
    Computed,
    /// Owed: the parent's sums changed by this move.
    Move(Change),
    /// Owed: the parent's sums (a null move).
    Pass,
}

/// The sums of every ply of a search line, computed only when an evaluation asks for them
/// (Stockfish's lazy accumulators): a node settled by the table, by its stored evaluation or
/// by the rules needs none, and neither do the moves into it. A king's move in a bucketed net
/// is brought up to date at once, through the refresh cache, so an owed chain never crosses a
/// frame's change.
pub struct AccumulatorStack {
    sums: Box<[Accumulator]>,
    steps: Box<[Step]>,
}

impl AccumulatorStack {
    /// Room for plies 0 to `plies - 1`.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            sums: vec![Accumulator::ZERO; plies].into_boxed_slice(),
            steps: vec![Step::Computed; plies].into_boxed_slice(),
        }
    }

    /// Ply 0 holds `pos`'s sums, from scratch.
    pub fn set_root(&mut self, k: Kernel, net: &Network, pos: &Position) {
        self.sums[0].refresh(k, net, pos);
        self.steps[0] = Step::Computed;
    }

    /// `m`, legal in `pos` at `ply`, leads to `ply + 1`: its sums are owed, or (a king's move in
    /// a bucketed net) computed now.
    #[inline(always)]
    pub fn push(
        &mut self,
        k: Kernel,
        net: &Network,
        ply: usize,
        pos: &Position,
        m: Move,
        cache: &mut RefreshCache,
    ) {
        let change = Change::of(pos, m);
        if change.moves_frame(net) {
            self.compute(k, net, ply, pos);
            let (done, next) = self.sums.split_at_mut(ply + 1);
            next[0].update(k, net, &done[ply], pos, m, cache);
            self.steps[ply + 1] = Step::Computed;
        } else {
            self.steps[ply + 1] = Step::Move(change);
        }
    }

    /// A null move at `ply` leads to `ply + 1`, with the same sums.
    #[inline(always)]
    pub fn push_pass(&mut self, ply: usize) {
        self.steps[ply + 1] = Step::Pass;
    }

    /// The sums at `ply`, whose position is `pos`.
    #[inline(always)]
    pub fn get(&mut self, k: Kernel, net: &Network, ply: usize, pos: &Position) -> &Accumulator {
        self.compute(k, net, ply, pos);
        &self.sums[ply]
    }

    /// Pays what `ply`'s sums owe, from the last computed ply before it.
    #[inline(always)]
    fn compute(&mut self, k: Kernel, net: &Network, ply: usize, pos: &Position) {
        let mut first = ply;
        while !matches!(self.steps[first], Step::Computed) {
            first -= 1;
        }
        for i in first + 1..=ply {
            let (done, next) = self.sums.split_at_mut(i);
            let (parent, dst) = (&done[i - 1], &mut next[0]);
            match self.steps[i] {
                Step::Move(change) => dst.apply(k, net, parent, change, pos),
                Step::Pass => {
                    for view in Color::BOTH {
                        dst.view_mut(view, net.hidden)
                            .copy_from_slice(parent.view(view, net.hidden));
                    }
                }
                Step::Computed => unreachable!("computed plies end the owed chain"),
            }
            self.steps[i] = Step::Computed;
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
