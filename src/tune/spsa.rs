//! SPSA tuning of the search parameters (`search::params`) by games: each iteration perturbs
//! every tuned parameter by ±c_k at random, plays the two resulting engines against each other
//! through the match runner, and moves the parameters toward the side that scored (Spall's
//! gains, with the end-of-run step and learning rate given per parameter as fishtest does).
//! Every iteration is appended to a log from which a stopped run resumes; the final values are
//! written back into the parameter table's source.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::rng::splitmix64;
use crate::search::params::{Param, TABLE, find};
use crate::tools::matches::merge::merge;
use crate::tools::matches::runner::{MatchConfig, MatchResult, run_match};

/// Spall's exponents for the learning rate and the perturbation.
const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// How one run is set up.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// Indices into `TABLE` of the parameters tuned.
    pub tuned: Vec<usize>,
    pub iterations: u32,
    /// Learning rate at the end of the run, in units of the step squared (fishtest's r_end).
    pub r_end: f64,
    pub seed: u64,
}

/// Where a run stands: the iterations done and every tuned parameter's value.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaState {
    pub done: u32,
    pub theta: Vec<f64>,
}

impl SpsaConfig {
    /// The perturbation and learning rate of iteration `k` (1-based) for a parameter.
    fn gains(&self, p: &Param, k: u32) -> (f64, f64) {
        let n = f64::from(self.iterations.max(1));
        let big_a = 0.1 * n;
        let c_end = f64::from(p.step);
        let c = c_end * n.powf(GAMMA);
        let a = self.r_end * c_end * c_end * (big_a + n).powf(ALPHA);
        let k = f64::from(k);
        (c / k.powf(GAMMA), a / (big_a + k).powf(ALPHA))
    }

    /// The random signs of iteration `k`, one per tuned parameter.
    fn signs(&self, k: u32) -> Vec<f64> {
        let mut s = self.seed ^ u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (0..self.tuned.len())
            .map(|_| {
                if splitmix64(&mut s) & 1 == 0 {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect()
    }

    /// The two engines' values for iteration `k`: θ + c_k Δ and θ − c_k Δ, rounded and
    /// clamped to the table's ranges.
    pub fn perturb(&self, state: &SpsaState, k: u32) -> (Vec<i32>, Vec<i32>) {
        let signs = self.signs(k);
        let side = |dir: f64| {
            self.tuned
                .iter()
                .zip(&state.theta)
                .zip(&signs)
                .map(|((&i, &t), &d)| {
                    let p = &TABLE[i];
                    let (c, _) = self.gains(p, k);
                    ((t + dir * c * d).round() as i32).clamp(p.min, p.max)
                })
                .collect()
        };
        (side(1.0), side(-1.0))
    }

    /// Moves θ after iteration `k`, in which the plus engine scored `result` more points
    /// than the minus one (wins minus losses).
    pub fn update(&self, state: &mut SpsaState, k: u32, result: f64) {
        let signs = self.signs(k);
        for ((&i, t), d) in self.tuned.iter().zip(state.theta.iter_mut()).zip(signs) {
            let p = &TABLE[i];
            let (c, a) = self.gains(p, k);
            *t = (*t + a * result / (c * d)).clamp(f64::from(p.min), f64::from(p.max));
        }
        state.done = k;
    }

    /// The state before the first iteration: the table's defaults.
    pub fn start(&self) -> SpsaState {
        SpsaState {
            done: 0,
            theta: self
                .tuned
                .iter()
                .map(|&i| f64::from(TABLE[i].default))
                .collect(),
        }
    }
}

/// A log line: `iteration K result R name=value …`.
pub fn format_line(config: &SpsaConfig, state: &SpsaState, result: f64) -> String {
    let mut line = format!("iteration {} result {result:+}", state.done);
    for (&i, t) in config.tuned.iter().zip(&state.theta) {
        let _ = write!(line, " {}={t:.4}", TABLE[i].name);
    }
    line
}

/// The state the log's last iteration line left, if it has one; the log's parameters must be
/// the ones tuned.
pub fn resume(config: &SpsaConfig, log: &str) -> Result<Option<SpsaState>, String> {
    let Some(line) = log.lines().rev().find(|l| l.starts_with("iteration ")) else {
        return Ok(None);
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let done = words
        .get(1)
        .and_then(|w| w.parse().ok())
        .ok_or_else(|| format!("bad log line: {line}"))?;
    let mut theta = config.start().theta;
    let mut seen = 0;
    for w in words.iter().skip(4) {
        let (name, value) = w
            .split_once('=')
            .ok_or_else(|| format!("bad log entry {w}"))?;
        let pos = find(name)
            .and_then(|i| config.tuned.iter().position(|&t| t == i))
            .ok_or_else(|| format!("the log tunes {name}, which this run does not"))?;
        theta[pos] = value.parse().map_err(|_| format!("bad log entry {w}"))?;
        seen += 1;
    }
    if seen != config.tuned.len() {
        return Err("the log tunes other parameters than this run".into());
    }
    Ok(Some(SpsaState { done, theta }))
}

/// The parameter table's source with the defaults of `values` (name, value) replaced.
pub fn write_back(source: &str, values: &[(&str, i32)]) -> Result<String, String> {
    let mut out = String::with_capacity(source.len());
    let mut found = vec![false; values.len()];
    for line in source.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let hit = values.iter().position(|(name, _)| {
            trimmed
                .strip_prefix(name)
                .is_some_and(|rest| rest.starts_with(": "))
        });
        match hit {
            Some(i) => {
                let indent = &line[..line.len() - trimmed.len()];
                let (_, rest) = trimmed.split_once(',').ok_or("bad table line")?;
                out.push_str(&format!("{indent}{}: {},{rest}", values[i].0, values[i].1));
                found[i] = true;
            }
            None => out.push_str(line),
        }
    }
    match found.iter().position(|f| !f) {
        Some(i) => Err(format!("{} is not in the table", values[i].0)),
        None => Ok(out),
    }
}

/// The state the log at `path` left (or the start), and the log open for appending.
fn open_log(config: &SpsaConfig, path: &Path) -> Result<(SpsaState, std::fs::File), String> {
    let log = std::fs::read_to_string(path).unwrap_or_default();
    let state = resume(config, &log)?.unwrap_or_else(|| config.start());
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    Ok((state, file))
}

/// The games of iteration `k`: copies of `base`'s one engine named `plus-k` and `minus-k`
/// (so that a shard's PGN says which iteration it played), with the perturbed values as hidden
/// options, from the iteration's openings, sharded as `base` is.
pub fn iteration_match(
    config: &SpsaConfig,
    base: &MatchConfig,
    state: &SpsaState,
) -> Result<MatchConfig, String> {
    let [engine] = base.engines.as_slice() else {
        return Err("give one engine to tune with --engine".into());
    };
    if base.sprt.is_some() {
        return Err("--sprt has no use in an SPSA run".into());
    }
    let k = state.done + 1;
    let (plus, minus) = config.perturb(state, k);
    let with = |side: &str, values: &[i32]| {
        let mut e = engine.clone();
        e.name = format!("{side}-{k}");
        for (&i, v) in config.tuned.iter().zip(values) {
            e.options.push((TABLE[i].name.to_string(), v.to_string()));
        }
        e
    };
    let pairs = base.games.div_ceil(2) as usize;
    let first = (k as usize - 1) * pairs;
    let openings = (0..pairs)
        .map(|j| base.openings[(first + j) % base.openings.len()].clone())
        .collect();
    Ok(MatchConfig {
        engines: vec![with("plus", &plus), with("minus", &minus)],
        openings,
        sprt: None,
        progress: false,
        ..base.clone()
    })
}

/// Points of the plus engine (the first) less the minus engine's.
fn plus_score(result: &MatchResult) -> f64 {
    let wdl = &result.pairings[0].wdl;
    f64::from(wdl.wins) - f64::from(wdl.losses)
}

/// Moves θ by iteration `state.done + 1`'s score and appends the iteration's log line.
fn advance(
    config: &SpsaConfig,
    state: &mut SpsaState,
    score: f64,
    file: &mut std::fs::File,
    log_path: &Path,
) -> Result<(), String> {
    config.update(state, state.done + 1, score);
    let line = format_line(config, state, score);
    writeln!(file, "{line}").map_err(|e| format!("writing {}: {e}", log_path.display()))?;
    eprintln!("{line}");
    Ok(())
}

/// Runs (or resumes) SPSA: `base` plays itself, the two copies set the tuned parameters as
/// hidden options. Each iteration plays `base.games` games from the next openings.
pub fn run(config: &SpsaConfig, base: &MatchConfig, log_path: &Path) -> Result<SpsaState, String> {
    if base.pgn.is_some() || base.shard.is_some() {
        return Err("--pgn and --shard belong to one shard of an iteration (with --shard)".into());
    }
    let (mut state, mut file) = open_log(config, log_path)?;
    while state.done < config.iterations && !crate::tools::interrupt::requested() {
        let result = run_match(&iteration_match(config, base, &state)?)?;
        if result.interrupted {
            break;
        }
        advance(config, &mut state, plus_score(&result), &mut file, log_path)?;
    }
    Ok(state)
}

/// Plays `base.shard` of the next iteration into `base.pgn` and leaves the log as it is (a
/// cluster plays the shards, `record` joins them); answers the iteration.
pub fn play_shard(config: &SpsaConfig, base: &MatchConfig, log_path: &Path) -> Result<u32, String> {
    if base.shard.is_none() || base.pgn.is_none() {
        return Err("one shard of an iteration needs --shard K/N and --pgn".into());
    }
    let (state, _) = open_log(config, log_path)?;
    if state.done >= config.iterations {
        return Err(format!("the log has all {} iterations", config.iterations));
    }
    let result = run_match(&iteration_match(config, base, &state)?)?;
    if result.interrupted {
        return Err("interrupted".into());
    }
    Ok(state.done + 1)
}

/// Takes the shards' PGN files of the next iteration as its games: they must be every game of
/// it, once; then moves θ and appends the log line.
pub fn record(
    config: &SpsaConfig,
    base: &MatchConfig,
    log_path: &Path,
    pgns: &[PathBuf],
) -> Result<SpsaState, String> {
    let (mut state, mut file) = open_log(config, log_path)?;
    let k = state.done + 1;
    let (result, _) = merge(pgns, None)?;
    let want = [format!("plus-{k}"), format!("minus-{k}")];
    if result.names != want {
        return Err(format!(
            "the games are of {}, not of iteration {k} ({} and {})",
            result.names.join(" and "),
            want[0],
            want[1]
        ));
    }
    let wdl = &result.pairings[0].wdl;
    let played = wdl.wins + wdl.draws + wdl.losses;
    if played != base.games {
        return Err(format!(
            "iteration {k} has {} games; the files hold {played}",
            base.games
        ));
    }
    advance(config, &mut state, plus_score(&result), &mut file, log_path)?;
    Ok(state)
}

/// The parameters named in `names` (comma-separated; empty: all of them).
pub fn parse_tuned(names: &[String]) -> Result<Vec<usize>, String> {
    if names.is_empty() {
        return Ok((0..TABLE.len()).collect());
    }
    names
        .iter()
        .map(|n| find(n).ok_or_else(|| format!("no search parameter named {n}")))
        .collect()
}

/// The tuned values rounded, with their names, for the write-back and the report.
pub fn rounded(config: &SpsaConfig, state: &SpsaState) -> Vec<(&'static str, i32)> {
    config
        .tuned
        .iter()
        .zip(&state.theta)
        .map(|(&i, &t)| (TABLE[i].name, t.round() as i32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parameters by name: the table's order changes as parameters are added.
    fn config(names: &[&str]) -> SpsaConfig {
        SpsaConfig {
            tuned: names.iter().map(|n| find(n).unwrap()).collect(),
            iterations: 1000,
            r_end: 0.002,
            seed: 7,
        }
    }

    #[test]
    fn gains_end_at_the_step_and_the_learning_rate() {
        let c = config(&["rfp_margin"]);
        let p = &TABLE[find("rfp_margin").unwrap()];
        let (c_end, a_end) = c.gains(p, 1000);
        assert!((c_end - f64::from(p.step)).abs() < 1e-9, "{c_end}");
        let r = a_end / (c_end * c_end);
        assert!((r - 0.002).abs() < 1e-9, "{r}");
        let (c_1, a_1) = c.gains(p, 1);
        assert!(c_1 > c_end && a_1 > a_end);
    }

    #[test]
    fn perturbations_are_symmetric_and_updates_follow_the_winner() {
        let c = config(&["rfp_margin", "quiet_prune_depth"]);
        let state = c.start();
        let (plus, minus) = c.perturb(&state, 3);
        let signs = c.signs(3);
        for j in 0..2 {
            let t = state.theta[j] as i32;
            assert_eq!(plus[j] - t, t - minus[j]);
            assert_eq!((plus[j] - t).signum() as f64, signs[j]);
        }
        // The plus side won: every parameter moves toward its plus value.
        let mut moved = state.clone();
        c.update(&mut moved, 3, 2.0);
        for (j, &sign) in signs.iter().enumerate() {
            assert_eq!((moved.theta[j] - state.theta[j]).signum(), sign);
        }
        assert_eq!(moved.done, 3);
        let mut back = state.clone();
        c.update(&mut back, 3, -2.0);
        assert_eq!((back.theta[0] - state.theta[0]).signum(), -signs[0]);
    }

    #[test]
    fn a_run_resumes_from_its_log() {
        let c = config(&["rfp_margin", "quiet_prune_depth"]);
        let mut s = c.start();
        c.update(&mut s, 1, 1.0);
        let one = format_line(&c, &s, 1.0);
        c.update(&mut s, 2, -1.0);
        let log = format!("{one}\n{}\n", format_line(&c, &s, -1.0));
        let back = resume(&c, &log).unwrap().unwrap();
        assert_eq!(back.done, 2);
        for (a, b) in back.theta.iter().zip(&s.theta) {
            assert!((a - b).abs() < 1e-4);
        }
        assert_eq!(resume(&c, "").unwrap(), None);
        assert!(resume(&config(&["rfp_margin"]), &log).is_err());
    }

    #[test]
    fn write_back_replaces_only_the_named_defaults() {
        let source = include_str!("../search/params.rs");
        let line =
            |p: &Param, v: i32| format!("    {}: {v}, {}, {}, {};\n", p.name, p.min, p.max, p.step);
        let (a, b) = (&TABLE[1], &TABLE[TABLE.len() - 1]);
        let out = write_back(source, &[(a.name, a.min), (b.name, b.max)]).unwrap();
        assert!(out.contains(&line(a, a.min)) && out.contains(&line(b, b.max)));
        assert!(out.contains(&line(&TABLE[0], TABLE[0].default)));
        let changed = source
            .lines()
            .zip(out.lines())
            .filter(|(x, y)| x != y)
            .count();
        assert_eq!(changed, 2);
        assert_eq!(source.lines().count(), out.lines().count());
        assert!(write_back(source, &[("nothing", 1)]).is_err());
    }
}
