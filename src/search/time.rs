//! Time management: how long one search may run. A hard limit that the search checks while it
//! runs and never passes, and a soft limit checked between iterations, stretched when the best
//! move keeps changing and shrunk when it is stable.

use std::time::Instant;

use crate::search::Limits;

use super::control::Control;
use super::params::Params;

/// Share of the remaining time (after overhead) one move may take at most.
const MAX_SHARE_PERCENT: u64 = 40;
/// The same when this is the last move before the time control.
const LAST_MOVE_SHARE_PERCENT: u64 = 80;
/// A fixed move time keeps this fraction (1/n) of itself in reserve.
const MOVETIME_MARGIN_DIVISOR: u64 = 16;
/// The best move's share of the nodes shortens the time only from this depth: before it the
/// shares are a few thousand nodes, too few to say much.
const EFFORT_DEPTH: i32 = 10;

/// The soft limit's percent `stability` after iteration `depth`, lowered to
/// `time_effort_percent` of itself where the best move took `share` percent or more of the
/// nodes searched (`time_effort_share`; 0 is off).
pub(super) fn effort_scaled(stability: i32, share: u64, depth: i32, p: &Params) -> i32 {
    if p.time_effort_share > 0 && depth >= EFFORT_DEPTH && share >= p.time_effort_share as u64 {
        stability * p.time_effort_percent / 100
    } else {
        stability
    }
}

#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Target for a normal move (checked after each iteration), in ms.
    soft_ms: Option<u64>,
    /// Never exceeded (checked during the search), in ms.
    hard_ms: Option<u64>,
}

impl TimeManager {
    /// Budgets for a search started at `start` with these limits; `overhead_ms` is what the
    /// move costs on top of our own thinking (transmission, GUI); `params` share the clock out.
    pub fn new(limits: &Limits, overhead_ms: u64, start: Instant, params: &Params) -> TimeManager {
        let mut tm = TimeManager {
            start,
            soft_ms: None,
            hard_ms: None,
        };
        if let Some(t) = limits.movetime_ms {
            // Besides the overhead, a margin for a busy machine that runs us late.
            let reserve = overhead_ms + t / MOVETIME_MARGIN_DIVISOR;
            let hard = if t > 2 * reserve { t - reserve } else { t / 2 };
            tm.hard_ms = Some(hard.max(1));
        } else if let Some(c) = limits.clock {
            let mtg = c.movestogo.map_or(params.time_moves_to_go as u64, |m| {
                u64::from(m.clamp(1, 50))
            });
            let avail = c.time_ms.saturating_sub(overhead_ms).max(c.time_ms / 4);
            let share = if mtg == 1 {
                LAST_MOVE_SHARE_PERCENT
            } else {
                MAX_SHARE_PERCENT
            };
            let hard = (avail * share / 100).max(1);
            let soft = (avail / mtg + c.inc_ms * params.time_inc_percent as u64 / 100).min(hard);
            tm.soft_ms = Some(soft.max(1));
            tm.hard_ms = Some(
                hard.min(soft * params.time_hard_percent as u64 / 100)
                    .max(1),
            );
        }
        tm
    }

    /// Whether the search has a clock to share out (not a fixed move time).
    pub fn uses_clock(&self) -> bool {
        self.soft_ms.is_some()
    }

    /// Milliseconds since the search started (for reports).
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds the clock has run for this move at `now`: from the ponderhit when
    /// pondering.
    fn budget_elapsed_ms(&self, control: &Control, now: Instant) -> u64 {
        let from = control.ponderhit_at().unwrap_or(self.start).max(self.start);
        now.saturating_duration_since(from).as_millis() as u64
    }

    /// Must the search stop at `now`? (Checked every few thousand nodes.) The time is the
    /// caller's, so that tests can set it.
    #[inline]
    pub fn hard_limit_reached(&self, control: &Control, now: Instant) -> bool {
        match self.hard_ms {
            Some(h) if !control.pondering() => self.budget_elapsed_ms(control, now) >= h,
            _ => false,
        }
    }

    /// Should another iteration start at `now`? `stability` in percent: 100 normal, lower when
    /// the best move has been stable, higher when it keeps changing.
    pub fn soft_limit_reached(&self, control: &Control, stability: i32, now: Instant) -> bool {
        if control.pondering() {
            return false;
        }
        match self.soft_ms {
            Some(s) => self.budget_elapsed_ms(control, now) >= s * stability.max(0) as u64 / 100,
            None => self.hard_limit_reached(control, now),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    fn budgets(limits: Limits) -> (Option<u64>, Option<u64>) {
        let tm = TimeManager::new(&limits, 30, Instant::now(), &Params::default());
        (tm.soft_ms, tm.hard_ms)
    }

    #[test]
    fn movetime_leaves_the_overhead() {
        let l = Limits {
            movetime_ms: Some(1000),
            ..Limits::default()
        };
        // The overhead and a sixteenth of the move time are kept back.
        assert_eq!(budgets(l), (None, Some(1000 - 30 - 1000 / 16)));
        let l = Limits {
            movetime_ms: Some(40),
            ..Limits::default()
        };
        assert_eq!(budgets(l), (None, Some(20)));
    }

    #[test]
    fn clock_budgets_never_flag() {
        for (time_ms, inc_ms, movestogo) in [
            (60_000, 0, None),
            (60_000, 1_000, None),
            (5_000, 100, Some(1)),
            (100, 0, None),
            (10, 0, Some(3)),
            (300_000, 0, Some(40)),
        ] {
            let l = Limits {
                clock: Some(Clock {
                    time_ms,
                    inc_ms,
                    movestogo,
                }),
                ..Limits::default()
            };
            let (soft, hard) = budgets(l);
            let (soft, hard) = (soft.unwrap(), hard.unwrap());
            assert!(soft <= hard, "{time_ms} {inc_ms}");
            assert!(hard < time_ms, "{time_ms} {inc_ms} {hard}");
            if time_ms >= 1000 {
                assert!(hard <= time_ms * 80 / 100, "{time_ms} {hard}");
                assert!(soft >= time_ms / 60, "{time_ms} {soft}");
            }
        }
    }

    /// The limits read the time they are given: the hard one from the start (from the
    /// ponderhit when pondering, never while pondering), the soft one scaled by stability.
    #[test]
    fn limits_fall_at_their_budgets_on_the_callers_clock() {
        let start = Instant::now();
        let ms = |n: u64| start + std::time::Duration::from_millis(n);
        let clock = Limits {
            clock: Some(Clock {
                time_ms: 60_000,
                inc_ms: 0,
                movestogo: None,
            }),
            ..Limits::default()
        };
        let tm = TimeManager::new(&clock, 30, start, &Params::default());
        let (soft, hard) = (tm.soft_ms.unwrap(), tm.hard_ms.unwrap());
        let control = Control::default();
        assert!(!tm.hard_limit_reached(&control, ms(hard - 1)));
        assert!(tm.hard_limit_reached(&control, ms(hard)));
        assert!(!tm.soft_limit_reached(&control, 100, ms(soft - 1)));
        assert!(tm.soft_limit_reached(&control, 100, ms(soft)));
        assert!(tm.soft_limit_reached(&control, 50, ms(soft / 2)));
        assert!(!tm.soft_limit_reached(&control, 200, ms(soft)));

        control.reset(true);
        assert!(!tm.hard_limit_reached(&control, ms(10 * hard)));
        assert!(!tm.soft_limit_reached(&control, 100, ms(10 * hard)));
        control.ponderhit();
        let hit = control.ponderhit_at().unwrap();
        let after = |n: u64| hit + std::time::Duration::from_millis(n);
        assert!(!tm.hard_limit_reached(&control, after(hard - 1)));
        assert!(tm.hard_limit_reached(&control, after(hard)));
        assert!(tm.soft_limit_reached(&control, 100, after(soft)));

        let fixed = Limits {
            movetime_ms: Some(400),
            ..Limits::default()
        };
        let tm = TimeManager::new(&fixed, 30, start, &Params::default());
        let control = Control::default();
        let hard = tm.hard_ms.unwrap();
        assert!(hard < 400);
        // A fixed move time has no soft limit: an iteration starts until the hard one falls.
        assert!(!tm.soft_limit_reached(&control, 100, ms(hard - 1)));
        assert!(tm.soft_limit_reached(&control, 100, ms(hard)));
    }

    #[test]
    fn a_best_move_that_takes_most_nodes_shortens_the_soft_limit() {
        let on = Params {
            time_effort_share: 90,
            time_effort_percent: 75,
            ..Params::default()
        };
        assert_eq!(effort_scaled(120, 95, 12, &on), 90);
        assert_eq!(effort_scaled(120, 90, 10, &on), 90);
        // Below the share, or before the depth, the limit stands.
        assert_eq!(effort_scaled(120, 89, 12, &on), 120);
        assert_eq!(effort_scaled(120, 99, 9, &on), 120);
        // Off by default.
        assert_eq!(effort_scaled(120, 100, 20, &Params::default()), 120);
    }

    #[test]
    fn no_time_limit_without_clock_or_movetime() {
        let l = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(budgets(l), (None, None));
        assert_eq!(budgets(Limits::default()), (None, None));
    }
}
