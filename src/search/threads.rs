//! The search threads: created once (per thread count), each owning its `Worker` for the
//! engine's life, parked on a job channel between searches. A job is a closure run on the
//! thread with its worker; thread 0 runs the search's main line and hands helpers their jobs.

use std::sync::mpsc::{Sender, channel};
use std::thread::{JoinHandle, Thread};

use super::worker::Worker;

/// Stack size of search threads (the recursion keeps a move list per ply).
pub const THREAD_STACK: usize = 16 << 20;

/// Work for one search thread, run with its worker (which it may replace).
pub type Job = Box<dyn FnOnce(&mut Box<Worker>) + Send + 'static>;

struct Slot {
    jobs: Sender<Job>,
    handle: JoinHandle<()>,
}

pub struct SearchThreads {
    slots: Vec<Slot>,
}

impl SearchThreads {
    /// `n` (at least one) threads with fresh workers, waiting for work.
    pub fn new(n: usize) -> SearchThreads {
        let slots = (0..n.max(1))
            .map(|id| {
                let (jobs, inbox) = channel::<Job>();
                let handle = std::thread::Builder::new()
                    .name(format!("search {id}"))
                    .stack_size(THREAD_STACK)
                    .spawn(move || {
                        let mut worker = Worker::new(id);
                        for job in inbox {
                            job(&mut worker);
                        }
                    })
                    .expect("spawn a search thread");
                Slot { jobs, handle }
            })
            .collect();
        SearchThreads { slots }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Runs `job` on thread `i`; `Err` when that thread is gone (a search panicked).
    pub fn send(&self, i: usize, job: Job) -> Result<(), Job> {
        self.slots[i].jobs.send(job).map_err(|e| e.0)
    }

    /// The helpers' job queues, for the main thread to hand out a search's helper work.
    pub fn helpers(&self) -> Vec<Sender<Job>> {
        self.slots[1..].iter().map(|s| s.jobs.clone()).collect()
    }

    /// The main search thread, to wake a search parked until `stop` or `ponderhit`.
    pub fn main_thread(&self) -> &Thread {
        self.slots[0].handle.thread()
    }

    /// Fresh workers on every thread (a new game forgets histories), after any work queued.
    pub fn reset_workers(&self) {
        for (id, s) in self.slots.iter().enumerate() {
            let _ = s
                .jobs
                .send(Box::new(move |w: &mut Box<Worker>| *w = Worker::new(id)));
        }
    }
}

impl Drop for SearchThreads {
    /// Closes the job queues and waits for every thread to finish its work.
    fn drop(&mut self) {
        for s in std::mem::take(&mut self.slots) {
            drop(s.jobs);
            let _ = s.handle.join();
        }
    }
}
