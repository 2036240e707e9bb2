//! The fixed-depth benchmark: every position of `bench-positions/bench.epd` searched to one
//! depth on one thread from a fresh state. Its node count is the signature of the search and
//! evaluation (the same on every run and machine); its speed is the nodes per second.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::board::Position;
use crate::engine::Engine;
use crate::eval::nnue::network::Network;
use crate::rules::{DEFAULT_MOVE_LIMIT, GameRecord};
use crate::search::params::Params;
use crate::search::stats::SearchStats;
use crate::search::{Limits, Report, Reporter};

/// Depth `chuhan bench` uses when none is given (a few seconds on one core).
pub const DEFAULT_BENCH_DEPTH: u32 = 12;
/// Hash table size for the benchmark (fixed, so the node count does not depend on options).
const BENCH_HASH_MB: usize = 16;

const BENCH_EPD: &str = include_str!("../bench-positions/bench.epd");

/// The benchmark positions as FEN strings (the text before any `;` on each line).
pub fn bench_fens() -> impl Iterator<Item = &'static str> {
    BENCH_EPD
        .lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

#[derive(Clone, Debug)]
pub struct BenchResult {
    pub nodes: u64,
    pub nps: u64,
    pub ms: u64,
    /// Where the nodes went, summed over the positions.
    pub stats: SearchStats,
}

/// The lines `bench` prints, node count and speed last (tools read the last two lines).
pub fn bench_report(r: &BenchResult) -> String {
    format!(
        "Time (ms): {}\nNodes searched: {}\nNodes/second: {}",
        r.ms, r.nodes, r.nps
    )
}

/// Keeps the node count of the last report of each search.
#[derive(Default)]
struct LastNodes(AtomicU64);

impl Reporter for LastNodes {
    fn report(&self, r: Report) {
        if let Report::Info(i) = r {
            self.0.store(i.nodes, Ordering::Relaxed);
        }
    }
}

/// Searches every benchmark position to `depth`, evaluated by `net` (`None`: the hand-written
/// evaluation), with the search parameters `params`: through the engine, as `go depth` does,
/// on one thread and after a new game for each position.
pub fn bench(depth: u32, net: Option<Arc<Network>>, params: Params) -> BenchResult {
    let nodes_of = Arc::new(LastNodes::default());
    let mut engine = Engine::in_process(
        nodes_of.clone(),
        BENCH_HASH_MB,
        DEFAULT_MOVE_LIMIT,
        net,
        params,
    );
    let (mut us, mut nodes) = (0, 0);
    let mut stats = SearchStats::default();
    for fen in bench_fens() {
        let pos = Position::from_fen(fen).expect("bench positions are valid FEN");
        engine.new_game();
        engine.set_game(GameRecord::new(pos));
        // Only the searches are timed, not clearing the table between them.
        let start = Instant::now();
        engine.go(Limits {
            depth: Some(depth.max(1)),
            ..Limits::default()
        });
        engine.wait();
        us += start.elapsed().as_micros() as u64;
        nodes += nodes_of.0.load(Ordering::Relaxed);
        stats.add(&engine.search_stats());
    }
    let ms = us / 1000;
    BenchResult {
        nodes,
        nps: nodes * 1000 / ms.max(1),
        ms,
        stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_is_deterministic() {
        let net = Some(crate::eval::nnue::default_net());
        let a = bench(4, net.clone(), Params::default());
        let b = bench(4, net, Params::default());
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 1000);
        let hce = bench(4, None, Params::default());
        assert_eq!(hce.nodes, bench(4, None, Params::default()).nodes);
    }

    #[test]
    fn bench_stats_account_for_every_node() {
        use crate::search::stats::Event;
        let r = bench(5, Some(crate::eval::nnue::default_net()), Params::default());
        let s = &r.stats;
        // Every node the search reports is a main-search or a quiescence node; the root's
        // visits are counted by neither.
        let counted = s.get(Event::MainNode) + s.get(Event::QNode);
        assert!(
            counted <= r.nodes && counted + 100 * 45 >= r.nodes,
            "{counted} {}",
            r.nodes
        );
        assert!(s.get(Event::TtHit) <= s.get(Event::TtProbe));
        assert!(s.get(Event::TtCutoff) <= s.get(Event::TtHit));
        assert!(s.get(Event::FirstMoveCutoff) <= s.get(Event::BetaCutoff));
        assert!(s.get(Event::NullCutoff) + s.get(Event::NullVerifyFail) <= s.get(Event::NullTry));
        assert!(s.get(Event::ReducedResearch) <= s.get(Event::Reduced));
        assert!(s.get(Event::QNode) > 0 && s.get(Event::BetaCutoff) > 0);
    }

    /// The bench at `depth` with the embedded net under `params`, then under the defaults.
    fn against_default(depth: u32, params: Params) -> (BenchResult, BenchResult) {
        let net = Some(crate::eval::nnue::default_net());
        (
            bench(depth, net.clone(), params),
            bench(depth, net, Params::default()),
        )
    }

    #[test]
    fn quiescence_prunings_follow_their_parameters() {
        use crate::search::stats::Event;
        let (off, on) = against_default(
            8,
            Params {
                qs_move_limit: 64,
                qs_quiet_evasions: 64,
                ..Params::default()
            },
        );
        let (a, b) = (&on.stats, &off.stats);
        assert!(a.get(Event::LateCapturePruned) > 0 && a.get(Event::EvasionsCut) > 0);
        assert_eq!(
            b.get(Event::LateCapturePruned) + b.get(Event::EvasionsCut),
            0
        );
        // The limits change the search (how many quiescence nodes it takes either way depends
        // on the net: with g9w at depth 8 the limits' tree has slightly more).
        assert_ne!(off.nodes, on.nodes);
    }

    #[test]
    fn quiet_see_pruning_follows_its_parameters() {
        use crate::search::stats::Event;
        let (on, off) = against_default(
            10,
            Params {
                quiet_see_per_ply2: 18,
                ..Params::default()
            },
        );
        assert!(on.stats.get(Event::QuietSeePruned) > 0);
        assert_eq!(off.stats.get(Event::QuietSeePruned), 0);
        assert_ne!(on.nodes, off.nodes);
    }

    #[test]
    fn pruning_conditions_and_reductions_follow_their_parameters() {
        use crate::search::stats::Event;
        let trials = [
            ("nmp_static_base", 80),
            ("nmp_eval_over_static", 1),
            ("nmp_prior_history_max", 12_000),
            ("improving_far", 1),
            ("rfp_prior_history_divisor", 186),
            ("lmr_prior_moves", 6),
        ];
        let net = Some(crate::eval::nnue::default_net());
        let off = bench(10, net.clone(), Params::default());
        assert!(off.stats.get(Event::NullTry) > 0);
        for (name, value) in trials {
            let mut params = Params::default();
            params.set(crate::search::params::find(name).unwrap(), value);
            let on = bench(10, net.clone(), params);
            assert_ne!(on.nodes, off.nodes, "{name} {value}");
        }
    }

    #[test]
    fn negative_extensions_follow_their_parameters() {
        use crate::search::stats::Event;
        let (on, off) = against_default(
            10,
            Params {
                negext_cut: 2,
                negext_low: 1,
                ..Params::default()
            },
        );
        assert!(on.stats.get(Event::NegativeExtension) > 0);
        assert_eq!(off.stats.get(Event::NegativeExtension), 0);
        assert!(off.stats.get(Event::SingularTest) > 0);
        assert_ne!(on.nodes, off.nodes);
    }

    #[test]
    fn futility_with_history_and_of_captures_follow_their_parameters() {
        use crate::search::stats::Event;
        let (on, off) = against_default(
            10,
            Params {
                futility_history_divisor: 60,
                capture_futility_depth: 9,
                ..Params::default()
            },
        );
        let (a, b) = (&on.stats, &off.stats);
        assert!(a.get(Event::HistoryFutilityPruned) > 0 && a.get(Event::CaptureFutilityPruned) > 0);
        assert_eq!(
            b.get(Event::HistoryFutilityPruned) + b.get(Event::CaptureFutilityPruned),
            0
        );
        assert_ne!(on.nodes, off.nodes);
    }

    #[test]
    fn bench_positions_are_valid_and_playable() {
        let mut n = 0;
        for fen in bench_fens() {
            let p = Position::from_fen(fen).unwrap();
            assert!(!p.legal_moves().is_empty(), "{fen}");
            n += 1;
        }
        assert!(n >= 40, "{n}");
    }
}
