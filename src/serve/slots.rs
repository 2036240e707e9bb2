//! Counted slots: the limits on open pages and on searches running at once. A slot is held by
//! a guard and freed when the guard drops; the lock is held only to count.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

pub struct Slots {
    max: usize,
    used: Mutex<usize>,
    freed: Condvar,
}

/// One taken slot.
pub struct Slot(Arc<Slots>);

impl Slots {
    pub fn new(max: usize) -> Arc<Slots> {
        Arc::new(Slots {
            max,
            used: Mutex::new(0),
            freed: Condvar::new(),
        })
    }

    pub fn max(&self) -> usize {
        self.max
    }

    /// A slot if one is free.
    pub fn try_take(self: &Arc<Self>) -> Option<Slot> {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        if *used >= self.max {
            return None;
        }
        *used += 1;
        Some(Slot(Arc::clone(self)))
    }

    pub fn used(&self) -> usize {
        *self.used.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until at most `n` slots are taken; false if `timeout` passed first.
    pub fn wait_at_most(&self, n: usize, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used > n {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            used = self
                .freed
                .wait_timeout(used, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut used = self.0.used.lock().unwrap_or_else(|e| e.into_inner());
        *used -= 1;
        self.0.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_limited_and_freed_by_dropping_the_guard() {
        let s = Slots::new(2);
        let a = s.try_take().expect("first");
        let b = s.try_take().expect("second");
        assert!(s.try_take().is_none());
        assert_eq!(s.used(), 2);
        drop(a);
        assert!(s.wait_at_most(1, Duration::ZERO));
        let c = s.try_take().expect("freed");
        assert!(!s.wait_at_most(1, Duration::ZERO));
        drop((b, c));
        assert_eq!(s.used(), 0);
    }
}
