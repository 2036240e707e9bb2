//! SPSA tuning of the search parameters (`search::params`) by games: each iteration perturbs
//! every tuned parameter by ±c_k at random, plays the two resulting engines against each other
//! through the match runner, and moves the parameters toward the side that scored (Spall's
//! gains, with the end-of-run step and learning rate given per parameter as fishtest does).
//! Every iteration is appended to a log from which a stopped run resumes; the final values are
//! written back into the parameter table's source.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use crate::board::Color;
use crate::rng::splitmix64;
use crate::rules::GameResult;
use crate::search::params::{Param, TABLE, find};
use crate::tools::matches::runner::{MatchConfig, run_match};

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

/// Runs (or resumes) SPSA: `base` plays itself, the two copies set the tuned parameters as
/// hidden options. Each iteration plays `base.games` games from the next openings.
pub fn run(config: &SpsaConfig, base: &MatchConfig, log_path: &Path) -> Result<SpsaState, String> {
    let [engine] = base.engines.as_slice() else {
        return Err("give one engine to tune with --engine".into());
    };
    if base.pgn.is_some() || base.sprt.is_some() {
        return Err("--pgn and --sprt have no use in an SPSA run".into());
    }
    let log = std::fs::read_to_string(log_path).unwrap_or_default();
    let mut state = resume(config, &log)?.unwrap_or_else(|| config.start());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log_path)
        .map_err(|e| format!("cannot open {}: {e}", log_path.display()))?;
    let pairs = base.games.div_ceil(2) as usize;
    while state.done < config.iterations && !crate::tools::interrupt::requested() {
        let k = state.done + 1;
        let (plus, minus) = config.perturb(&state, k);
        let with = |name: &str, values: &[i32]| {
            let mut e = engine.clone();
            e.name = name.to_string();
            for (&i, v) in config.tuned.iter().zip(values) {
                e.options.push((TABLE[i].name.to_string(), v.to_string()));
            }
            e
        };
        let first = (k as usize - 1) * pairs;
        let openings = (0..pairs)
            .map(|j| base.openings[(first + j) % base.openings.len()].clone())
            .collect();
        let games = MatchConfig {
            engines: vec![with("plus", &plus), with("minus", &minus)],
            games: base.games,
            rules: base.rules,
            openings,
            concurrency: base.concurrency,
            pgn: None,
            resume: false,
            sprt: None,
            shard: None,
            event: base.event.clone(),
            start_timeout: base.start_timeout,
            progress: false,
        };
        let result = run_match(&games)?;
        if result.interrupted {
            break;
        }
        // Points of the plus engine (index 0) less the minus engine's.
        let score: f64 = result
            .games
            .iter()
            .map(|g| {
                let plus = if g.red == 0 { Color::Red } else { Color::Black };
                match g.outcome.result {
                    GameResult::Draw => 0.0,
                    r if r == GameResult::win_for(plus) => 1.0,
                    _ => -1.0,
                }
            })
            .sum();
        config.update(&mut state, k, score);
        writeln!(file, "{}", format_line(config, &state, score))
            .map_err(|e| format!("writing {}: {e}", log_path.display()))?;
        eprintln!("{}", format_line(config, &state, score));
    }
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

    fn config(tuned: Vec<usize>) -> SpsaConfig {
        SpsaConfig {
            tuned,
            iterations: 1000,
            r_end: 0.002,
            seed: 7,
        }
    }

    #[test]
    fn gains_end_at_the_step_and_the_learning_rate() {
        let c = config(vec![1]);
        let p = &TABLE[1];
        let (c_end, a_end) = c.gains(p, 1000);
        assert!((c_end - f64::from(p.step)).abs() < 1e-9, "{c_end}");
        let r = a_end / (c_end * c_end);
        assert!((r - 0.002).abs() < 1e-9, "{r}");
        let (c_1, a_1) = c.gains(p, 1);
        assert!(c_1 > c_end && a_1 > a_end);
    }

    #[test]
    fn perturbations_are_symmetric_and_updates_follow_the_winner() {
        let c = config(vec![1, 13]);
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
        let c = config(vec![1, 13]);
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
        assert!(resume(&config(vec![1]), &log).is_err());
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
