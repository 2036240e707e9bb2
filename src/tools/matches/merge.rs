//! `chuhan match merge`: one report over the PGN files of a match's shards (or of any runs of
//! one match). The players' order and each game's pairing and opening pair follow from its
//! round, as the runner numbers rounds: round 1 is the first engine's Red game against the
//! second, the pairings of one game index follow each other.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::rules::GameResult;
use crate::tools::pgn::reader::read_games;

use super::game::Termination;
use super::runner::{MatchResult, round_robin};
use super::sprt::Sprt;

/// One game as its record gives it.
struct Recorded {
    round: u32,
    red: String,
    black: String,
    result: GameResult,
    termination: &'static str,
    time_control: String,
}

fn read(path: &PathBuf) -> Result<Vec<Recorded>, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let (games, problems) = read_games(&text);
    if let Some(p) = problems.first() {
        return Err(format!("{name}: {p}"));
    }
    games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let tag = |t| {
                g.tag(t)
                    .map(str::to_string)
                    .ok_or_else(|| format!("{name}: game {} has no [{t}] tag", i + 1))
            };
            let round = tag("Round")?
                .parse()
                .map_err(|_| format!("{name}: game {}: bad [Round]", i + 1))?;
            let label = tag("Termination")?;
            Ok(Recorded {
                round,
                red: tag("Red")?,
                black: tag("Black")?,
                result: g
                    .result
                    .ok_or_else(|| format!("{name}: round {round} has no result"))?,
                termination: Termination::category_of(&label).ok_or_else(|| {
                    format!("{name}: round {round}: unknown termination '{label}'")
                })?,
                time_control: tag("TimeControl").unwrap_or_default(),
            })
        })
        .collect()
}

/// The report's figures over every game of `files`, and the time control they were played at.
/// Refuses a round found twice and games that do not fit one match's schedule.
pub fn merge(files: &[PathBuf], sprt: Option<Sprt>) -> Result<(MatchResult, String), String> {
    let mut games: Vec<(Recorded, &PathBuf)> = Vec::new();
    for f in files {
        games.extend(read(f)?.into_iter().map(|g| (g, f)));
    }
    games.sort_by_key(|(g, _)| g.round);
    for w in games.windows(2) {
        if w[0].0.round == w[1].0.round {
            return Err(format!(
                "round {} is in {} and in {}: a shard given twice?",
                w[0].0.round,
                w[0].1.display(),
                w[1].1.display()
            ));
        }
    }
    let Some((first, _)) = games.first() else {
        return Err("no games in the PGN files".into());
    };
    let time_control = first.time_control.clone();
    // Players in the order the schedule brings them in: round by round, Red first.
    let mut names: Vec<String> = Vec::new();
    for (g, _) in &games {
        for n in [&g.red, &g.black] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    let n = names.len();
    let pairs = round_robin(n);
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    let mut result = MatchResult::new(names.clone(), &pairs);
    for (g, file) in &games {
        let job = (g.round as usize).saturating_sub(1);
        let (pairing, game) = (job % pairs.len(), job / pairs.len());
        let (a, b) = pairs[pairing];
        let (red, black) = (index[g.red.as_str()], index[g.black.as_str()]);
        let expected = if game % 2 == 0 { (a, b) } else { (b, a) };
        if (red, black) != expected || g.time_control != time_control {
            return Err(format!(
                "{}: round {} ({} against {} at {}) does not fit the match the other games make",
                file.display(),
                g.round,
                g.red,
                g.black,
                g.time_control
            ));
        }
        result.pairings[pairing].add(red, g.result, (game / 2) as u32);
        *result.terminations.entry(g.termination).or_default() += 1;
    }
    result.sprt = MatchResult::sprt_state(sprt, &result.pairings);
    Ok((result, time_control))
}
