//! Where a search's nodes go: counts of the search's events (table probes and cutoffs, each
//! pruning, extension and reduction) and the nodes of each iteration, kept per worker and
//! summed by `chuhan bench --stats`. Counting is an add to the worker's own array: no atomics,
//! nothing shared.

/// One kind of event the search counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Nodes of the main search (depth > 0) and of quiescence.
    MainNode,
    QNode,
    /// Table probes of main-search nodes, those that found an entry, and entries that settled
    /// the node.
    TtProbe,
    TtHit,
    TtCutoff,
    /// Main-search nodes an endgame table settled.
    EgtbHit,
    /// Reverse futility pruning returned the evaluation.
    ReverseFutility,
    /// Null-move searches tried, those that failed high, and failed highs the verification
    /// search refuted.
    NullTry,
    NullCutoff,
    NullVerifyFail,
    /// Internal iterative reduction.
    Iir,
    /// Singular tests, the hash moves found singular, and the tests that cut the node.
    SingularTest,
    SingularExtension,
    SingularCutoff,
    /// Hash moves searched shallower because the singular test found them not forced.
    NegativeExtension,
    /// Moves extended because they check.
    CheckExtension,
    /// Quiet moves left out by late move or futility pruning, by history, by futility with
    /// their history and by SEE, and captures by SEE and by futility.
    QuietPruned,
    HistoryPruned,
    HistoryFutilityPruned,
    QuietSeePruned,
    SeePruned,
    CaptureFutilityPruned,
    /// Moves searched with a reduction, and reduced searches that had to be searched again.
    Reduced,
    ReducedResearch,
    /// Main-search nodes that failed high, and those whose first move did.
    BetaCutoff,
    FirstMoveCutoff,
    /// Quiescence: stand-pat cutoffs, captures left out by delta pruning, after the first
    /// few (`qs_move_limit`), and for not winning material far below alpha, and nodes in check
    /// that stopped after a few quiet evasions (`qs_quiet_evasions`).
    StandPat,
    DeltaPruned,
    LateCapturePruned,
    QsFutilityPruned,
    EvasionsCut,
}

impl Event {
    const ALL: [Event; 31] = [
        Event::MainNode,
        Event::QNode,
        Event::TtProbe,
        Event::TtHit,
        Event::TtCutoff,
        Event::EgtbHit,
        Event::ReverseFutility,
        Event::NullTry,
        Event::NullCutoff,
        Event::NullVerifyFail,
        Event::Iir,
        Event::SingularTest,
        Event::SingularExtension,
        Event::SingularCutoff,
        Event::NegativeExtension,
        Event::CheckExtension,
        Event::QuietPruned,
        Event::HistoryPruned,
        Event::HistoryFutilityPruned,
        Event::QuietSeePruned,
        Event::SeePruned,
        Event::CaptureFutilityPruned,
        Event::Reduced,
        Event::ReducedResearch,
        Event::BetaCutoff,
        Event::FirstMoveCutoff,
        Event::StandPat,
        Event::DeltaPruned,
        Event::LateCapturePruned,
        Event::QsFutilityPruned,
        Event::EvasionsCut,
    ];

    fn name(self) -> &'static str {
        match self {
            Event::MainNode => "main-search nodes",
            Event::QNode => "quiescence nodes",
            Event::TtProbe => "table probes",
            Event::TtHit => "table hits",
            Event::TtCutoff => "table cutoffs",
            Event::EgtbHit => "endgame table hits",
            Event::ReverseFutility => "reverse futility cutoffs",
            Event::NullTry => "null moves tried",
            Event::NullCutoff => "null-move cutoffs",
            Event::NullVerifyFail => "null-move verifications failed",
            Event::Iir => "internal iterative reductions",
            Event::SingularTest => "singular tests",
            Event::SingularExtension => "singular extensions",
            Event::SingularCutoff => "singular multi-cuts",
            Event::NegativeExtension => "negative extensions",
            Event::CheckExtension => "check extensions",
            Event::QuietPruned => "quiet moves pruned (late move, futility)",
            Event::HistoryPruned => "quiet moves pruned by history",
            Event::HistoryFutilityPruned => "quiet moves pruned by futility with history",
            Event::QuietSeePruned => "quiet moves pruned by SEE",
            Event::SeePruned => "captures pruned by SEE",
            Event::CaptureFutilityPruned => "captures pruned by futility",
            Event::Reduced => "moves reduced",
            Event::ReducedResearch => "reduced moves searched again",
            Event::BetaCutoff => "beta cutoffs",
            Event::FirstMoveCutoff => "cutoffs by the first move",
            Event::StandPat => "quiescence stand-pat cutoffs",
            Event::DeltaPruned => "captures pruned by delta",
            Event::LateCapturePruned => "captures pruned after the first few",
            Event::QsFutilityPruned => "captures pruned by quiescence futility",
            Event::EvasionsCut => "evasions cut after a few quiet ones",
        }
    }
}

/// Deepest iteration whose nodes are kept apart (deeper ones count in the last slot).
const DEPTHS: usize = 64;

#[derive(Clone, Debug)]
pub struct SearchStats {
    events: [u64; Event::ALL.len()],
    /// Nodes searched by each iteration (index: its depth).
    iteration_nodes: [u64; DEPTHS],
    /// Iterations completed at each depth (a search that stops early lacks its last ones).
    iterations: [u64; DEPTHS],
}

impl Default for SearchStats {
    fn default() -> SearchStats {
        SearchStats {
            events: [0; Event::ALL.len()],
            iteration_nodes: [0; DEPTHS],
            iterations: [0; DEPTHS],
        }
    }
}

impl SearchStats {
    #[inline(always)]
    pub fn count(&mut self, e: Event) {
        self.events[e as usize] += 1;
    }

    pub fn get(&self, e: Event) -> u64 {
        self.events[e as usize]
    }

    /// Nodes of the main search and quiescence.
    pub fn nodes(&self) -> u64 {
        self.get(Event::MainNode) + self.get(Event::QNode)
    }

    /// An iteration at `depth` completed after searching `nodes` nodes.
    pub fn iteration(&mut self, depth: i32, nodes: u64) {
        let d = (depth.max(0) as usize).min(DEPTHS - 1);
        self.iteration_nodes[d] += nodes;
        self.iterations[d] += 1;
    }

    pub fn add(&mut self, other: &SearchStats) {
        for (a, b) in self.events.iter_mut().zip(other.events) {
            *a += b;
        }
        for (a, b) in self.iteration_nodes.iter_mut().zip(other.iteration_nodes) {
            *a += b;
        }
        for (a, b) in self.iterations.iter_mut().zip(other.iterations) {
            *a += b;
        }
    }

    /// The effective branching factor: the geometric mean of the growth of an iteration's
    /// nodes over the one before, over the depths from 6 that every search completed.
    pub fn branching_factor(&self) -> Option<f64> {
        let all = self.iterations[1];
        let mut logs = Vec::new();
        for d in 6..DEPTHS {
            let (prev, cur) = (self.iteration_nodes[d - 1], self.iteration_nodes[d]);
            if self.iterations[d] < all || self.iterations[d - 1] < all || prev == 0 || cur == 0 {
                break;
            }
            logs.push((cur as f64 / prev as f64).ln());
        }
        (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp())
    }

    /// The report `chuhan bench --stats` prints: events, with the shares that say most, and
    /// the nodes of each depth.
    pub fn report(&self) -> String {
        let share = |a: Event, b: Event| 100.0 * self.get(a) as f64 / self.get(b).max(1) as f64;
        let nodes = self.nodes();
        let mut s = String::new();
        s += &format!(
            "quiescence share of nodes: {:.1}%\n",
            100.0 * self.get(Event::QNode) as f64 / nodes.max(1) as f64
        );
        s += &format!(
            "table: hits {:.1}% of probes, cutoffs {:.1}% of probes\n",
            share(Event::TtHit, Event::TtProbe),
            share(Event::TtCutoff, Event::TtProbe)
        );
        s += &format!(
            "move ordering: {:.1}% of cutoffs by the first move\n",
            share(Event::FirstMoveCutoff, Event::BetaCutoff)
        );
        s += &format!(
            "null move: {:.1}% of tries cut\n",
            share(Event::NullCutoff, Event::NullTry)
        );
        s += &format!(
            "reductions: {:.1}% of reduced moves searched again\n",
            share(Event::ReducedResearch, Event::Reduced)
        );
        if let Some(b) = self.branching_factor() {
            s += &format!("effective branching factor (depth 6 on): {b:.3}\n");
        }
        s += "events per 1000 main-search nodes:\n";
        let per = 1000.0 / self.get(Event::MainNode).max(1) as f64;
        for e in Event::ALL {
            s += &format!(
                "  {:<42} {:>12}  {:>8.2}\n",
                e.name(),
                self.get(e),
                self.get(e) as f64 * per
            );
        }
        s += "nodes per iteration (summed over the searches that completed it):\n";
        for d in 1..DEPTHS {
            if self.iterations[d] > 0 {
                s += &format!(
                    "  depth {d:>2}  searches {:>4}  nodes {:>12}\n",
                    self.iterations[d], self.iteration_nodes[d]
                );
            }
        }
        s.pop();
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_has_its_own_slot() {
        for (i, e) in Event::ALL.iter().enumerate() {
            assert_eq!(*e as usize, i);
        }
    }

    #[test]
    fn branching_factor_stops_at_the_first_depth_some_search_missed() {
        let mut s = SearchStats::default();
        for run in 0..2 {
            let mut n = 100;
            for d in 1..=10 {
                // The second search stops after depth 8.
                if run == 1 && d > 8 {
                    break;
                }
                s.iteration(d, n);
                n *= 2;
            }
        }
        let b = s.branching_factor().unwrap();
        assert!((b - 2.0).abs() < 1e-9, "{b}");
        let mut t = SearchStats::default();
        t.add(&s);
        t.add(&s);
        assert_eq!(t.iteration_nodes[3], 2 * s.iteration_nodes[3]);
        assert_eq!(SearchStats::default().branching_factor(), None);
    }
}
