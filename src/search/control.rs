//! Signals from the engine's caller to a running search: stop, and the end of pondering. Plain
//! atomics, so `stop` and `ponderhit` return at once on the caller's thread.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Microseconds from `epoch` to the ponderhit, `u64::MAX` before it.
    ponderhit_us: AtomicU64,
    epoch: Instant,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            ponderhit_us: AtomicU64::new(u64::MAX),
            epoch: Instant::now(),
        }
    }
}

impl Control {
    /// Ready for a new search (pondering or not).
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        self.ponderhit_us.store(u64::MAX, Ordering::SeqCst);
    }

    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    #[inline(always)]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The pondered move was played: from now on the clock runs.
    pub fn ponderhit(&self) {
        let us = self.epoch.elapsed().as_micros() as u64;
        self.ponderhit_us.store(us, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// When the ponderhit came, if it has.
    pub fn ponderhit_at(&self) -> Option<Instant> {
        match self.ponderhit_us.load(Ordering::SeqCst) {
            u64::MAX => None,
            us => Some(self.epoch + Duration::from_micros(us)),
        }
    }
}
