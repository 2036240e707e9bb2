//! The learned evaluation: a (1260 → 256 or 512) × 2 → 1 net with a squared clipped ReLU,
//! or with two small dense layers before the output (each view's halves multiplied pairwise,
//! → 16 → 32 → 1; `network::Head`), its
//! inputs in one block or in six by the king's point, its output layer one or one of eight by
//! material (`features`), the feature layer kept incrementally (`accumulator`), integer
//! kernels for AVX-512, AVX2 and portable code, for each width (`simd`). The default net is
//! built into the binary.

pub mod accumulator;
pub mod features;
pub mod network;
pub mod simd;

use std::sync::{Arc, LazyLock};

use crate::board::Position;
use accumulator::Accumulator;
use features::output_bucket;
use network::{DENSE_SCALE, Head, Network, QA, QB, SCALE};
use simd::Kernel;

/// The net `cargo build` embeds (see `nets/README.md`).
static DEFAULT_BYTES: &[u8] = include_bytes!("../../../nets/default.nnue");

/// The embedded net.
pub fn default_net() -> Arc<Network> {
    static NET: LazyLock<Arc<Network>> = LazyLock::new(|| {
        Arc::new(Network::from_bytes(DEFAULT_BYTES).expect("the embedded net is valid"))
    });
    NET.clone()
}

/// The net's evaluation of `pos` in centipawns for the side to move, from its accumulated sums.
#[inline(always)]
pub fn evaluate(k: Kernel, net: &Network, acc: &Accumulator, pos: &Position) -> i32 {
    let side = pos.side_to_move();
    let h = net.hidden;
    let (us, them) = (acc.view(side, h), acc.view(side.flip(), h));
    let bucket = output_bucket(pos.occupied().count_ones(), net.out_buckets);
    match &net.head {
        Head::Linear { weights, bias } => {
            let w = &weights[bucket * 2 * h..(bucket + 1) * 2 * h];
            let sum = simd::screlu_dot(k, us, &w[..h]) + simd::screlu_dot(k, them, &w[h..]);
            let out = sum / i64::from(QA) + i64::from(bias[bucket]);
            (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
        }
        Head::Dense(d) => {
            let out = simd::dense(k, us, them, d.layers(bucket, h));
            (i64::from(out) * i64::from(SCALE) / i64::from(DENSE_SCALE)) as i32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PieceType;
    use accumulator::RefreshCache;
    use features::{KING_BUCKETS, OUTPUT_BUCKETS};
    use network::random_net;
    use proptest::prelude::*;

    /// One of `moves` (legal in `pos`, not empty) at random, a king's move one time in
    /// `king_odds` where there is one: each changes its view's block in a bucketed net.
    fn random_move(
        rng: &mut crate::rng::Rng,
        pos: &Position,
        moves: &[crate::board::Move],
        king_odds: usize,
    ) -> crate::board::Move {
        let kings: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.from()).kind() == PieceType::King)
            .collect();
        if !kings.is_empty() && rng.below(king_odds) == 0 {
            kings[rng.below(kings.len())]
        } else {
            moves[rng.below(moves.len())]
        }
    }

    fn fresh(k: Kernel, net: &Network, pos: &Position) -> Accumulator {
        let mut a = Accumulator::ZERO;
        a.refresh(k, net, pos);
        a
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Random games, king moves favoured (each changes its view's block in a bucketed
        /// net, whose sums then come from the refresh cache): the sums kept move by move equal
        /// a fresh count, on every kernel, and every kernel evaluates alike, for plain and
        /// king-bucketed nets of every width, with dense layers and without.
        #[test]
        fn incremental_sums_match_a_refresh(
            seed in any::<u64>(),
            plies in 1usize..120,
            bucketed in any::<bool>(),
            by_material in any::<bool>(),
            width in proptest::sample::select(simd::WIDTHS.to_vec()),
            dense in any::<bool>(),
        ) {
            let net = random_net(
                11,
                if bucketed { KING_BUCKETS } else { 1 },
                width,
                if by_material { OUTPUT_BUCKETS } else { 1 },
                dense,
            );
            let kernels = Kernel::available();
            let mut rng = crate::rng::Rng::new(seed);
            let mut pos = Position::startpos();
            let mut accs: Vec<Accumulator> =
                kernels.iter().map(|&k| fresh(k, &net, &pos)).collect();
            let mut caches: Vec<RefreshCache> = kernels
                .iter()
                .map(|_| {
                    let mut c = RefreshCache::default();
                    c.reset(&net);
                    c
                })
                .collect();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = random_move(&mut rng, &pos, &moves, 3);
                for ((a, &k), cache) in accs.iter_mut().zip(&kernels).zip(&mut caches) {
                    let parent = *a;
                    a.update(k, &net, &parent, &pos, m, cache);
                }
                pos.do_move(m);
                let want = fresh(Kernel::Portable, &net, &pos);
                let v = evaluate(Kernel::Portable, &net, &want, &pos);
                for (a, &k) in accs.iter().zip(&kernels) {
                    for c in crate::board::Color::BOTH {
                        prop_assert_eq!(a.view(c, width), want.view(c, width), "{:?} after {}", k, m);
                    }
                    prop_assert_eq!(evaluate(k, &net, a, &pos), v);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// A search's walk (moves, null moves and takebacks, king moves favoured), the sums
        /// asked for now and then: the lazily kept sums equal a fresh count wherever they are
        /// asked for, however many plies they owe, for plain and king-bucketed nets.
        #[test]
        fn lazy_sums_match_a_refresh(
            seed in any::<u64>(),
            steps in 1usize..200,
            bucketed in any::<bool>(),
            width in proptest::sample::select(simd::WIDTHS.to_vec()),
        ) {
            let net = random_net(5, if bucketed { KING_BUCKETS } else { 1 }, width, 1, false);
            let k = Kernel::best();
            let mut rng = crate::rng::Rng::new(seed);
            let mut line = vec![Position::startpos()];
            let mut stack = accumulator::AccumulatorStack::new(64);
            stack.set_root(k, &net, &line[0]);
            let mut cache = RefreshCache::default();
            cache.reset(&net);
            for _ in 0..steps {
                let ply = line.len() - 1;
                let pos = line[ply].clone();
                let moves = pos.legal_moves();
                match rng.below(8) {
                    0 | 1 if ply > 0 => {
                        line.pop();
                    }
                    2 => {
                        let want = fresh(Kernel::Portable, &net, &pos);
                        let got = stack.get(k, &net, ply, &pos);
                        for c in crate::board::Color::BOTH {
                            prop_assert_eq!(got.view(c, width), want.view(c, width), "ply {}", ply);
                        }
                    }
                    3 if ply < 62 && !pos.in_check() => {
                        let mut next = pos.clone();
                        next.do_null_move();
                        stack.push_pass(ply);
                        line.push(next);
                    }
                    _ if ply < 62 && !moves.is_empty() => {
                        let m = random_move(&mut rng, &pos, &moves, 2);
                        stack.push(k, &net, ply, &pos, m, &mut cache);
                        let mut next = pos.clone();
                        next.do_move(m);
                        line.push(next);
                    }
                    _ => {}
                }
            }
        }
    }

    fn eval_of(net: &Network, fen: &str) -> i32 {
        let k = Kernel::Portable;
        let p = Position::from_fen(fen).unwrap();
        evaluate(k, net, &fresh(k, net, &p), &p)
    }

    #[test]
    fn the_two_views_of_mirrored_colours_agree() {
        // The same position with colours and ranks swapped evaluates the same for the mover.
        for (buckets, width, dense) in [(1, 256, false), (KING_BUCKETS, 512, true)] {
            let net = random_net(3, buckets, width, OUTPUT_BUCKETS, dense);
            assert_eq!(
                eval_of(
                    &net,
                    "3akab2/9/4b3n/p3p1p1p/2p6/9/P1P1P1P1P/1C2C3N/9/1NBAKAB2 b - - 0 12"
                ),
                eval_of(
                    &net,
                    "1nbakab2/9/1c2c3n/p1p1p1p1p/9/2P6/P3P1P1P/4B3N/9/3AKAB2 w - - 0 12"
                )
            );
        }
    }

    #[test]
    fn a_bucketed_net_reads_a_wing_and_its_mirror_alike() {
        // Both kings off the middle file: mirroring the board left to right mirrors both
        // views' frames, so a bucketed net sees the same features; a plain net does not.
        let (left, right) = (
            "5k3/4a4/2n1b4/p3p1p1p/2p6/9/P1P1P1P1P/1C2C3N/4A4/3K5 w - - 0 30",
            "3k5/4a4/4b1n2/p1p1p3p/6p2/9/P1P1P1P1P/N3C2C1/4A4/5K3 w - - 0 30",
        );
        let bucketed = random_net(8, KING_BUCKETS, 256, 1, false);
        assert_eq!(eval_of(&bucketed, left), eval_of(&bucketed, right));
        let plain = random_net(8, 1, 256, 1, false);
        assert_ne!(eval_of(&plain, left), eval_of(&plain, right));
    }

    #[test]
    fn the_embedded_net_loads() {
        let net = default_net();
        let pos = Position::startpos();
        let v = evaluate(
            Kernel::best(),
            &net,
            &fresh(Kernel::best(), &net, &pos),
            &pos,
        );
        assert!(v.abs() < 200, "{v}");
    }
}
