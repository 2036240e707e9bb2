//! Time management: how long one search may run. A hard limit that the search checks while it
//! runs and never passes, and a soft limit checked between iterations, stretched when the best
//! move keeps changing and shrunk when it is stable.

use std::time::Instant;

use crate::engine::Limits;

use super::control::Control;

/// Share of the remaining time (after overhead) one move may take at most.
const MAX_SHARE_PERCENT: u64 = 40;
/// The same when this is the last move before the time control.
const LAST_MOVE_SHARE_PERCENT: u64 = 80;
/// A fixed move time keeps this fraction (1/n) of itself in reserve.
const MOVETIME_MARGIN_DIVISOR: u64 = 16;
/// Moves the remaining time is spread over when the control does not say.
const DEFAULT_MOVES_TO_GO: u64 = 30;

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
    /// move costs on top of our own thinking (transmission, GUI).
    pub fn new(limits: &Limits, overhead_ms: u64, start: Instant) -> TimeManager {
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
            let mtg = c
                .movestogo
                .map_or(DEFAULT_MOVES_TO_GO, |m| u64::from(m.clamp(1, 50)));
            let avail = c.time_ms.saturating_sub(overhead_ms).max(c.time_ms / 4);
            let share = if mtg == 1 {
                LAST_MOVE_SHARE_PERCENT
            } else {
                MAX_SHARE_PERCENT
            };
            let hard = (avail * share / 100).max(1);
            let soft = (avail / mtg + c.inc_ms * 3 / 4).min(hard);
            tm.soft_ms = Some(soft.max(1));
            tm.hard_ms = Some(hard.min(soft * 5).max(1));
        }
        tm
    }

    /// Whether a clock or a move time bounds this search.
    pub fn is_timed(&self) -> bool {
        self.hard_ms.is_some()
    }

    /// Whether the search has a clock to share out (not a fixed move time).
    pub fn uses_clock(&self) -> bool {
        self.soft_ms.is_some()
    }

    /// Milliseconds since the search started (for reports).
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds the clock has run for this move: from the ponderhit when pondering.
    fn budget_elapsed_ms(&self, control: &Control) -> u64 {
        let from = control.ponderhit_at().unwrap_or(self.start).max(self.start);
        from.elapsed().as_millis() as u64
    }

    /// Must the search stop now? (Checked every few thousand nodes.)
    #[inline]
    pub fn hard_limit_reached(&self, control: &Control) -> bool {
        match self.hard_ms {
            Some(h) if !control.pondering() => self.budget_elapsed_ms(control) >= h,
            _ => false,
        }
    }

    /// Should another iteration start? `stability` in percent: 100 normal, lower when the best
    /// move has been stable, higher when it keeps changing.
    pub fn soft_limit_reached(&self, control: &Control, stability: u64) -> bool {
        if control.pondering() {
            return false;
        }
        match self.soft_ms {
            Some(s) => self.budget_elapsed_ms(control) >= s * stability / 100,
            None => self.hard_limit_reached(control),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Clock;

    fn budgets(limits: Limits) -> (Option<u64>, Option<u64>) {
        let tm = TimeManager::new(&limits, 30, Instant::now());
        (tm.soft_ms, tm.hard_ms)
    }

    #[test]
    fn movetime_leaves_the_overhead() {
        let l = Limits {
            movetime_ms: Some(1000),
            ..Limits::default()
        };
        assert_eq!(budgets(l), (None, Some(908)));
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

    #[test]
    fn no_time_limit_without_clock_or_movetime() {
        let l = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(budgets(l), (None, None));
        assert!(!TimeManager::new(&Limits::default(), 30, Instant::now()).is_timed());
    }
}
