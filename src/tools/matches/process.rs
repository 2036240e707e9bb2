//! One engine process: spawn, handshake (UCI, UCCI or detected), options, new game, and lines
//! in and out with deadlines. A reader thread turns stdout into a channel so that every read
//! can time out; a closed channel means the engine died or closed its pipe.

use crate::tools::interrupt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use crate::board::Move;

use super::dialect::{Dialect, parse_bestmove};
use super::spec::{EngineSpec, Protocol};

/// How long auto-detection waits for `uciok` before it tries `ucci`.
const AUTO_PROBE: Duration = Duration::from_millis(1500);
/// How often a wait for an engine looks for a stop request.
const INTERRUPT_POLL: Duration = Duration::from_millis(50);
/// How long a quitting engine may take before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// One read from the engine.
#[derive(Debug, PartialEq, Eq)]
pub enum Wait {
    Line(String),
    Timeout,
    /// The engine exited or closed stdout.
    Closed,
}

pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    dialect: Dialect,
    ponder: bool,
    /// The move a `go ponder` running now expects the opponent to play.
    pondering: Option<Move>,
}

/// Why a handshake failed.
enum HandshakeError {
    /// The engine exited on `uci` (ElephantEye quits on anything but `ucci`): try again fresh.
    ExitedOnUci,
    Failed(String),
}

impl From<String> for HandshakeError {
    fn from(e: String) -> Self {
        HandshakeError::Failed(e)
    }
}

impl EngineProcess {
    /// Spawns the engine and brings it to the ready state within `timeout`.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<EngineProcess, String> {
        let deadline = Instant::now() + timeout;
        let mut engine = EngineProcess::spawn(spec)?;
        match engine.handshake(spec.protocol, deadline) {
            Ok(()) => {}
            Err(HandshakeError::ExitedOnUci) => {
                engine = EngineProcess::spawn(spec)?;
                engine
                    .handshake(Protocol::Ucci, deadline)
                    .map_err(|e| match e {
                        HandshakeError::Failed(e) => e,
                        HandshakeError::ExitedOnUci => format!("{}: exited on ucci", spec.name),
                    })?;
            }
            Err(HandshakeError::Failed(e)) => return Err(e),
        }
        if spec.ponder {
            engine.send(&engine.dialect.ponder_option())?;
        }
        for (name, value) in &spec.options {
            engine.send(&engine.dialect.setoption(name, value))?;
        }
        engine.sync(deadline)?;
        Ok(engine)
    }

    fn spawn(spec: &EngineSpec) -> Result<EngineProcess, String> {
        // A relative path is found from `dir`, made absolute because std leaves relative
        // programs with a working directory platform-specific; a bare name is looked up in PATH.
        let program = match &spec.dir {
            Some(dir) if spec.cmd.is_relative() && spec.cmd.components().count() > 1 => {
                let joined = dir.join(&spec.cmd);
                std::path::absolute(&joined).unwrap_or(joined)
            }
            _ => spec.cmd.clone(),
        };
        let mut command = Command::new(&program);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match &spec.stderr {
                Some(path) => std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map(Stdio::from)
                    .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
                None => Stdio::null(),
            });
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", spec.cmd.display()))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            lines,
            dialect: Dialect::Uci,
            ponder: spec.ponder,
            pondering: None,
        })
    }

    /// Sends the handshake, settles the dialect and, for UCCI, switches on milliseconds when
    /// the engine offers them. Auto-detection sends `uci`, then `ucci` when no `uciok` came.
    fn handshake(&mut self, protocol: Protocol, deadline: Instant) -> Result<(), HandshakeError> {
        let first = match protocol {
            Protocol::Ucci => "ucci",
            Protocol::Uci | Protocol::Auto => "uci",
        };
        self.send(first)?;
        let probe_end = match protocol {
            Protocol::Auto => deadline.min(Instant::now() + AUTO_PROBE),
            _ => deadline,
        };
        let mut offers_millis = false;
        let mut retried = false;
        let acknowledged = loop {
            let until = if retried { deadline } else { probe_end };
            match self.recv(until) {
                Wait::Line(l) => {
                    let mut words = l.split_whitespace();
                    match (words.next(), words.next()) {
                        (Some("uciok"), _) => break Protocol::Uci,
                        (Some("ucciok"), _) => break Protocol::Ucci,
                        (Some("option"), Some("usemillisec")) => offers_millis = true,
                        _ => {}
                    }
                }
                Wait::Timeout if protocol == Protocol::Auto && !retried => {
                    retried = true;
                    self.send("ucci")?;
                }
                Wait::Timeout => {
                    return Err(format!("{}: no answer to the handshake", self.name).into());
                }
                Wait::Closed if protocol == Protocol::Auto && !retried => {
                    return Err(HandshakeError::ExitedOnUci);
                }
                Wait::Closed => {
                    return Err(format!("{}: exited during the handshake", self.name).into());
                }
            }
        };
        self.dialect = if acknowledged == Protocol::Uci {
            Dialect::Uci
        } else {
            if offers_millis {
                self.send("setoption usemillisec true")?;
            }
            Dialect::Ucci {
                millis: offers_millis,
            }
        };
        Ok(())
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        log::trace!("{} < {line}", self.name);
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("{}: cannot write: {e}", self.name))
    }

    /// The next line, waiting at most until `deadline` (a stop request cuts the wait short, as
    /// a timeout).
    pub fn recv(&mut self, deadline: Instant) -> Wait {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left.min(INTERRUPT_POLL)) {
                Ok(line) => {
                    log::trace!("{} > {line}", self.name);
                    return Wait::Line(line);
                }
                Err(RecvTimeoutError::Timeout)
                    if left > INTERRUPT_POLL && !interrupt::requested() => {}
                Err(RecvTimeoutError::Timeout) => return Wait::Timeout,
                Err(RecvTimeoutError::Disconnected) => return Wait::Closed,
            }
        }
    }

    /// `isready`, then waits for `readyok`, skipping anything else.
    pub fn sync(&mut self, deadline: Instant) -> Result<(), String> {
        self.send("isready")?;
        loop {
            match self.recv(deadline) {
                Wait::Line(l) if l.trim() == "readyok" => return Ok(()),
                Wait::Line(_) => {}
                Wait::Timeout => return Err(format!("{}: no readyok", self.name)),
                Wait::Closed => return Err(format!("{}: exited", self.name)),
            }
        }
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        self.stop_pondering(deadline)?;
        self.send(self.dialect.new_game())?;
        self.sync(deadline)
    }

    /// Whether the engine thinks on the opponent's time.
    pub fn ponders(&self) -> bool {
        self.ponder
    }

    /// Starts thinking on the opponent's time: `position` with the expected move `expected`
    /// already played, and the `go` line of the engine's next move as `go ponder`.
    pub fn start_pondering(
        &mut self,
        position: &str,
        go: &str,
        expected: Move,
    ) -> Result<(), String> {
        self.send(position)?;
        self.send(&Dialect::ponder(go))?;
        self.pondering = Some(expected);
        Ok(())
    }

    /// The opponent played `played`. When the engine expected it, `ponderhit` turns its search
    /// into the real one and this answers true; otherwise a search on the opponent's time (if
    /// any) is stopped and its answer read and dropped, so the engine is idle for a fresh `go`.
    /// A UCCI engine hears of the opponent's draw offer (`offered`) in `ponderhit draw`.
    pub fn ponder_reply(
        &mut self,
        played: Move,
        offered: bool,
        deadline: Instant,
    ) -> Result<bool, String> {
        if self.pondering == Some(played) {
            self.pondering = None;
            self.send(self.dialect.ponderhit(offered))?;
            return Ok(true);
        }
        self.stop_pondering(deadline)?;
        Ok(false)
    }

    /// Stops a `go ponder` under way and waits for its discarded `bestmove`.
    fn stop_pondering(&mut self, deadline: Instant) -> Result<(), String> {
        if self.pondering.take().is_none() {
            return Ok(());
        }
        self.send("stop")?;
        loop {
            match self.recv(deadline) {
                Wait::Line(l) if parse_bestmove(&l).is_some() => return Ok(()),
                Wait::Line(_) => {}
                Wait::Timeout => return Err(format!("{}: no bestmove after stop", self.name)),
                Wait::Closed => return Err(format!("{}: exited", self.name)),
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => thread::sleep(Duration::from_millis(5)),
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
