//! Ctrl-C and SIGTERM for the long-running tools (match runner, data generation): the first
//! signal, or a panic, asks them to wind down (end their engines, keep what is finished); a
//! second signal exits at once.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Whether a stop was asked for.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// The flag itself, for code that takes a stop flag.
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}

/// Asks for a stop (as a signal would).
pub fn request() {
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Installs the signal handler and a panic hook that both ask for a stop (once per process).
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let handler = ctrlc::set_handler(|| {
            if REQUESTED.swap(true, Ordering::Relaxed) {
                std::process::exit(130);
            }
            eprintln!("stopping: finishing what is under way (signal again to quit at once)");
        });
        if let Err(e) = handler {
            log::warn!("no signal handler: {e}");
        }
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            request();
            default(info);
        }));
    });
}
