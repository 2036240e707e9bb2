//! The match: schedules every game of every pairing (each opening twice, colours swapped),
//! plays them on worker threads that each keep their own engine processes (restarted after a
//! crash or hang), and gathers results, statistics, PGN and the SPRT verdict in one place.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

use crate::board::{Color, Position};
use crate::rules::GameResult;

use super::game::{GameOutcome, GameRules, Termination, play_game};
use super::pgn::{MatchTags, format_game};
use super::process::EngineProcess;
use super::report::Progress;
use super::resume::{PlayedGame, Scheduled, read_played};
use super::spec::EngineSpec;
use super::sprt::{Sprt, SprtDecision};
use super::stats::{Pentanomial, Wdl};
use crate::tools::interrupt;
use crate::tools::pgn::today;
use crate::tools::shard::Shard;

#[derive(Clone)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    /// Games per pairing of engines.
    pub games: u32,
    pub rules: GameRules,
    /// Played in this order, each for two games in a row with colours swapped.
    pub openings: Vec<Position>,
    pub concurrency: usize,
    pub pgn: Option<PathBuf>,
    /// Go on from the games already in `pgn` (played by the same settings) instead of
    /// starting it anew.
    pub resume: bool,
    /// Only with two engines: stop as soon as it decides.
    pub sprt: Option<Sprt>,
    /// Play only this part of the match's opening pairs (each opening's two games together).
    pub shard: Option<Shard>,
    pub event: String,
    /// Longest wait for an engine to start and answer its handshake.
    pub start_timeout: Duration,
    /// Draw the live progress bar (on stderr, when it is a terminal).
    pub progress: bool,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug)]
struct Job {
    round: u32,
    pairing: usize,
    /// Index of the game within its pairing: its pair is `game / 2`.
    game: u32,
}

#[derive(Clone, Debug)]
pub struct FinishedGame {
    pub round: u32,
    pub red: usize,
    pub black: usize,
    pub start: Position,
    pub outcome: GameOutcome,
}

/// Results of two engines against each other, from `first`'s point of view.
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    pub first: usize,
    pub second: usize,
    pub wdl: Wdl,
    pub pentanomial: Pentanomial,
    /// First game's points of pairs still waiting for their second game.
    pub(super) open_pairs: HashMap<u32, f64>,
}

impl PairingStats {
    pub(super) fn add(&mut self, red: usize, result: GameResult, pair: u32) {
        let first_color = if red == self.first {
            Color::Red
        } else {
            Color::Black
        };
        let points = match result {
            GameResult::Draw => {
                self.wdl.draws += 1;
                0.5
            }
            r if r == GameResult::win_for(first_color) => {
                self.wdl.wins += 1;
                1.0
            }
            _ => {
                self.wdl.losses += 1;
                0.0
            }
        };
        match self.open_pairs.remove(&pair) {
            Some(other) => self.pentanomial.add_pair(other, points),
            None => {
                self.open_pairs.insert(pair, points);
            }
        }
    }
}

pub struct MatchResult {
    pub names: Vec<String>,
    pub pairings: Vec<PairingStats>,
    /// Termination category to count.
    pub terminations: BTreeMap<&'static str, u32>,
    /// Played by this run, in the order they finished.
    pub games: Vec<FinishedGame>,
    /// Games of an earlier run counted by `--resume`.
    pub resumed: usize,
    /// Final LLR and decision when an SPRT ran.
    pub sprt: Option<(f64, SprtDecision)>,
    /// A stop request (signal, panic) ended the match early; games under way were dropped.
    pub interrupted: bool,
}

/// Every pairing of `n` engines, in the order the schedule plays them.
pub(super) fn round_robin(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

impl MatchResult {
    /// No game yet between the `pairs` of `names`.
    pub(super) fn new(names: Vec<String>, pairs: &[(usize, usize)]) -> MatchResult {
        MatchResult {
            names,
            pairings: pairs
                .iter()
                .map(|&(first, second)| PairingStats {
                    first,
                    second,
                    ..PairingStats::default()
                })
                .collect(),
            terminations: BTreeMap::new(),
            games: Vec::new(),
            resumed: 0,
            sprt: None,
            interrupted: false,
        }
    }

    /// The SPRT's current LLR and decision, from the only pairing.
    pub(super) fn sprt_state(
        sprt: Option<Sprt>,
        pairings: &[PairingStats],
    ) -> Option<(f64, SprtDecision)> {
        let s = sprt?;
        let llr = s.llr_pentanomial(&pairings.first()?.pentanomial);
        Some((llr, s.decide(llr)))
    }
}

/// Brings up an engine for a game, or says why it would not start.
fn ensure_started(
    slot: &mut Option<EngineProcess>,
    spec: &EngineSpec,
    timeout: Duration,
) -> Result<(), String> {
    if slot.is_none() {
        *slot = Some(EngineProcess::start(spec, timeout)?);
    }
    Ok(())
}

/// The job's players (Red, Black) and opening.
fn schedule<'a>(
    config: &'a MatchConfig,
    pairs: &[(usize, usize)],
    job: Job,
) -> (usize, usize, &'a Position) {
    let (a, b) = pairs[job.pairing];
    let start = &config.openings[(job.game / 2) as usize % config.openings.len()];
    if job.game.is_multiple_of(2) {
        (a, b, start)
    } else {
        (b, a, start)
    }
}

/// Plays one job with this worker's engine processes.
fn play_job(
    config: &MatchConfig,
    pairs: &[(usize, usize)],
    procs: &mut [Option<EngineProcess>],
    job: Job,
) -> FinishedGame {
    let (red, black, start) = schedule(config, pairs, job);
    let start = start.clone();
    let finished = |outcome| FinishedGame {
        round: job.round,
        red,
        black,
        start: start.clone(),
        outcome,
    };
    for (color, idx) in [(Color::Red, red), (Color::Black, black)] {
        if let Err(detail) =
            ensure_started(&mut procs[idx], &config.engines[idx], config.start_timeout)
        {
            return finished(GameOutcome {
                result: GameResult::win_for(color.flip()),
                termination: Termination::Crash { by: color, detail },
                moves: Vec::new(),
                restart: [false; 2],
            });
        }
    }
    let mut red_proc = procs[red].take().expect("started");
    let mut black_proc = procs[black].take().expect("started");
    let outcome = play_game([&mut red_proc, &mut black_proc], &start, &config.rules);
    // An engine that crashed or hung is dropped (killed) here and restarted for its next game.
    if !outcome.restart[Color::Red.index()] {
        procs[red] = Some(red_proc);
    }
    if !outcome.restart[Color::Black.index()] {
        procs[black] = Some(black_proc);
    }
    finished(outcome)
}

/// Runs the whole match. Fails only before the first game: too few engines, an engine that
/// does not start, a PGN file that cannot be created.
pub fn run_match(config: &MatchConfig) -> Result<MatchResult, String> {
    let n = config.engines.len();
    if n < 2 {
        return Err("a match needs at least two engines".into());
    }
    if config.sprt.is_some() && n != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    if config.openings.is_empty() {
        return Err("no opening positions".into());
    }
    for spec in &config.engines {
        EngineProcess::start(spec, config.start_timeout)?;
    }
    let pairs = round_robin(n);
    let jobs: Vec<Job> = (0..config.games)
        .flat_map(|game| (0..pairs.len()).map(move |pairing| (game, pairing)))
        .enumerate()
        .map(|(i, (game, pairing))| Job {
            round: i as u32 + 1,
            pairing,
            game,
        })
        .collect();
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let (mut pgn, played) = open_pgn(config, &pairs, &jobs, &names)?;
    let mut result = MatchResult::new(names.clone(), &pairs);
    result.resumed = played.len();
    let opening_pairs = u64::from(config.games.div_ceil(2));
    let share = config
        .shard
        .map_or(0..opening_pairs, |s| s.part(opening_pairs));
    let in_share = |j: &Job| share.contains(&u64::from(j.game / 2));
    let progress = Progress::new(
        config.progress,
        jobs.iter().filter(|j| in_share(j)).count() as u64,
    );
    for game in &played {
        let job = jobs[game.round as usize - 1];
        result.pairings[job.pairing].add(game.red, game.result, job.game / 2);
        *result.terminations.entry(game.termination).or_default() += 1;
    }
    result.sprt = MatchResult::sprt_state(config.sprt, &result.pairings);
    let decided = matches!(result.sprt, Some((_, d)) if d != SprtDecision::Continue);
    let done: HashSet<u32> = played.iter().map(|g| g.round).collect();
    let jobs: Vec<Job> = jobs
        .into_iter()
        .filter(|j| !done.contains(&j.round) && in_share(j))
        .collect();
    progress.update(&result, config.sprt);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(decided);
    let date = today();
    let time_control = config.rules.limit.to_string();
    let mut pgn_error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = channel::<(Job, FinishedGame)>();
        for _ in 0..config.concurrency.clamp(1, jobs.len().max(1)) {
            let tx = tx.clone();
            let (jobs, pairs, next, stop) = (&jobs, &pairs, &next, &stop);
            scope.spawn(move || {
                let mut procs: Vec<Option<EngineProcess>> = (0..n).map(|_| None).collect();
                while !stop.load(Ordering::Relaxed) && !interrupt::requested() {
                    let Some(&job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let game = play_job(config, pairs, &mut procs, job);
                    if tx.send((job, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (job, game) in rx {
            if game.outcome.termination == Termination::Interrupted {
                result.interrupted = true;
                continue;
            }
            result.pairings[job.pairing].add(game.red, game.outcome.result, job.game / 2);
            *result
                .terminations
                .entry(game.outcome.termination.category())
                .or_default() += 1;
            if let Some(file) = pgn.as_mut() {
                let header = MatchTags {
                    event: &config.event,
                    round: game.round,
                    date: &date,
                    red: &names[game.red],
                    black: &names[game.black],
                    time_control: &time_control,
                };
                if let Err(e) =
                    file.write_all(format_game(&header, &game.start, &game.outcome).as_bytes())
                {
                    pgn_error.get_or_insert(e);
                }
            }
            result.sprt = MatchResult::sprt_state(config.sprt, &result.pairings);
            if matches!(result.sprt, Some((_, d)) if d != SprtDecision::Continue) {
                stop.store(true, Ordering::Relaxed);
            }
            result.games.push(game);
            progress.update(&result, config.sprt);
        }
    });
    progress.finish();
    result.interrupted |= interrupt::requested();
    if let Some(e) = pgn_error {
        log::error!("writing the PGN failed: {e}");
    }
    Ok(result)
}

/// The PGN file to append the games to, and the games an earlier run left in it when
/// resuming (its torn last record, if any, cut off).
fn open_pgn(
    config: &MatchConfig,
    pairs: &[(usize, usize)],
    jobs: &[Job],
    names: &[String],
) -> Result<(Option<std::fs::File>, Vec<PlayedGame>), String> {
    let Some(path) = &config.pgn else {
        return match config.resume {
            true => Err("--resume needs the --pgn file of the run it goes on from".into()),
            false => Ok((None, Vec::new())),
        };
    };
    let cannot = |e: std::io::Error| format!("cannot open {}: {e}", path.display());
    if !config.resume || !path.exists() {
        return Ok((
            Some(std::fs::File::create(path).map_err(cannot)?),
            Vec::new(),
        ));
    }
    let text = std::fs::read_to_string(path).map_err(cannot)?;
    let resumed = read_played(path, &text, names, |round| {
        let &job = jobs.get((round as usize).checked_sub(1)?)?;
        let (red, black, start) = schedule(config, pairs, job);
        Some(Scheduled { red, black, start })
    })?;
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(cannot)?;
    if resumed.whole_len < text.len() {
        log::warn!(
            "{}: its last record was cut off; that game is played again",
            path.display()
        );
        file.set_len(resumed.whole_len as u64).map_err(cannot)?;
    }
    Ok((Some(file), resumed.games))
}
