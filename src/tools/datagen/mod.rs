//! `chuhan datagen`: self-play training data for the net.
//!
//! Games run on N threads, one game per thread and each game single-threaded, so a game depends
//! only on the run's seed and its index (`tools::selfplay`). Positions are written in game
//! order in the 32-byte format of `record`, appended to the output file. Kept: every searched
//! position that is quiet (not in check, best move neither a capture nor a check) with a
//! centipawn score (`--soft-nodes-unquiet` spends fewer nodes on the others). A run can stop
//! at any time and go on: `<out>.progress` records the seed, the settings, the games written
//! and the file length after them; a run with the same seed and settings cuts any partial game
//! off and goes on from there, one with another seed appends after what is there.
//!
//! A run can be split over machines: `--shard K/N` plays the K-th of N contiguous ranges of the
//! run's games (the same seeds, so the same games), and [`merge`] joins the shards' files, in
//! order, into the file the whole run would have written, byte for byte.

pub mod record;

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use crate::rules::GameResult;
use crate::search::threads::THREAD_STACK;
use crate::tools::selfplay::{PlayedGame, SelfPlayConfig, play_game};
pub use crate::tools::shard::Shard;
use record::{RECORD_BYTES, Record};

#[derive(Clone, Debug)]
pub struct DatagenConfig {
    pub games: u64,
    /// Play only this share of the games.
    pub shard: Option<Shard>,
    pub seed: u64,
    pub threads: usize,
    pub selfplay: SelfPlayConfig,
    pub out: PathBuf,
    pub progress: bool,
}

/// How often a run whose stderr is not a terminal logs its progress.
const LOG_EVERY_GAMES: u64 = 100;

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct DatagenSummary {
    /// Games and positions this run wrote.
    pub games: u64,
    pub positions: u64,
    /// Positions searched, kept or not.
    pub searched: u64,
    /// The depths of the written positions' searches, added up.
    pub depths: u64,
    pub seconds: f64,
    /// Red wins, draws, Black wins.
    pub results: [u64; 3],
    pub endings: BTreeMap<String, u64>,
    /// Games of this seed in the file, counting earlier runs.
    pub games_in_file: u64,
}

impl DatagenSummary {
    pub fn report(&self) -> String {
        let mut s = format!(
            "{} games, {} positions ({:.1}% of {} searched) in {:.0} s ({:.0} positions/s, searched to depth {:.2} on average); this seed now has {} games in the file\n",
            self.games,
            self.positions,
            100.0 * self.positions as f64 / self.searched.max(1) as f64,
            self.searched,
            self.seconds,
            self.positions as f64 / self.seconds.max(1e-9),
            self.depths as f64 / self.positions.max(1) as f64,
            self.games_in_file
        );
        let pct = |n: u64| 100.0 * n as f64 / self.games.max(1) as f64;
        s += &format!(
            "results: Red {} ({:.1}%), draw {} ({:.1}%), Black {} ({:.1}%)\n",
            self.results[0],
            pct(self.results[0]),
            self.results[1],
            pct(self.results[1]),
            self.results[2],
            pct(self.results[2])
        );
        s += "endings:";
        for (name, n) in &self.endings {
            s += &format!(" {name} {n} ({:.1}%),", pct(*n));
        }
        s.pop();
        s
    }
}

/// The settings a resumed run must share with the run it continues.
fn settings_key(cfg: &DatagenConfig) -> String {
    let sp = &cfg.selfplay;
    format!(
        "nodes={:?}{}{} depth={:?}{} opening={}-{} check={:?} adjudication={:?} move_limit={} search_move_limit={} max_plies={}{}",
        sp.limits.nodes,
        // Runs without a soft limit keep the key earlier runs wrote.
        sp.limits
            .soft_nodes
            .map_or(String::new(), |n| format!(" soft_nodes={n}")),
        // Runs without it keep the key earlier runs wrote.
        sp.limits
            .soft_nodes_unquiet
            .map_or(String::new(), |n| format!(" soft_nodes_unquiet={n}")),
        sp.limits.depth,
        // Runs without a book keep the key earlier runs wrote.
        sp.book.as_ref().map_or(String::new(), |w| format!(
            " book={:016x}/{}",
            w.id, w.plies
        )),
        sp.opening_plies.start(),
        sp.opening_plies.end(),
        sp.opening_check,
        sp.adjudication,
        sp.move_limit,
        sp.search_move_limit,
        sp.max_plies,
        // Hand-written runs keep the key earlier runs wrote.
        sp.net
            .as_ref()
            .map_or(String::new(), |n| format!(" net={:08x}", n.checksum()))
    )
}

fn progress_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".progress");
    PathBuf::from(p)
}

/// Where an earlier run of this seed and these settings stopped: (games, file length).
fn resume_point(cfg: &DatagenConfig, settings: &str) -> io::Result<Option<(u64, u64)>> {
    let Ok(text) = std::fs::read_to_string(progress_path(&cfg.out)) else {
        return Ok(None);
    };
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
    };
    let shard = cfg.shard.map(|s| (s.to_string(), cfg.games.to_string()));
    if field("seed=") != Some(&cfg.seed.to_string())
        || field("settings=") != Some(settings)
        || field("shard=").zip(field("total=")) != shard.as_ref().map(|(s, t)| (&s[..], &t[..]))
    {
        return Ok(None);
    }
    let num = |name: &str| field(name).and_then(|v| v.parse::<u64>().ok());
    match (num("games="), num("bytes=")) {
        (Some(g), Some(b)) => Ok(Some((g, b))),
        _ => Err(io::Error::other("unreadable progress file")),
    }
}

fn write_progress(cfg: &DatagenConfig, settings: &str, games: u64, bytes: u64) -> io::Result<()> {
    let path = progress_path(&cfg.out);
    let tmp = path.with_extension("progress.tmp");
    std::fs::write(
        &tmp,
        format!(
            "seed={}\nsettings={}\n{}games={games}\nbytes={bytes}\n",
            cfg.seed,
            settings,
            cfg.shard.map_or(String::new(), |s| format!(
                "shard={s}\ntotal={}\n",
                cfg.games
            ))
        ),
    )?;
    std::fs::rename(tmp, path)
}

/// The records a finished game contributes, and their searches' depths added up.
fn game_records(game: &PlayedGame) -> (Vec<Record>, u64) {
    let kept = game
        .positions
        .iter()
        .filter(|p| p.quiet && p.score.is_some());
    let depths = kept.clone().map(|p| u64::from(p.depth)).sum();
    let records = kept
        .filter_map(|p| Some(Record::new(&p.pos, p.score?, game.result, p.ply)))
        .collect();
    (records, depths)
}

/// Plays games `start..cfg.games` of the seed (of the shard's range) and appends their
/// positions to `cfg.out`.
/// Stops early, after the games under way, when `stop` is set.
pub fn run(cfg: &DatagenConfig, stop: &AtomicBool) -> io::Result<DatagenSummary> {
    // Computed once: it hashes the net.
    let settings = settings_key(cfg);
    let games = cfg.shard.map_or(0..cfg.games, |s| s.part(cfg.games));
    let (start, keep) = match resume_point(cfg, &settings)? {
        Some(p) => p,
        None => (
            games.start,
            std::fs::metadata(&cfg.out).map(|m| m.len()).unwrap_or(0),
        ),
    };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.out)?;
    // Drops a partial game (or record) an interrupted run left behind.
    file.set_len(keep - keep % RECORD_BYTES as u64)?;
    let mut bytes = file.metadata()?.len();
    let mut out = BufWriter::new(file);
    write_progress(cfg, &settings, start, bytes)?;

    let todo = games.end.saturating_sub(start);
    let log_lines = cfg.progress && !io::stderr().is_terminal();
    let bar = if cfg.progress {
        ProgressBar::new(todo)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
            .expect("valid template"),
    );
    let mut summary = DatagenSummary::default();
    let began = Instant::now();
    let next = AtomicU64::new(start);
    let threads = cfg.threads.clamp(1, todo.max(1) as usize);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| -> io::Result<()> {
        for _ in 0..threads {
            let tx = tx.clone();
            let next = &next;
            std::thread::Builder::new()
                .stack_size(THREAD_STACK)
                .spawn_scoped(s, move || {
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= games.end {
                            break;
                        }
                        let game = play_game(&cfg.selfplay, cfg.seed, i);
                        if tx.send((i, game)).is_err() {
                            break;
                        }
                    }
                })
                .expect("spawn game thread");
        }
        drop(tx);
        // Games finish out of order; they are written in order.
        let mut waiting = BTreeMap::new();
        let mut written = start;
        for (i, game) in rx {
            waiting.insert(i, game);
            while let Some(game) = waiting.remove(&written) {
                let (recs, depths) = game_records(&game);
                for r in &recs {
                    out.write_all(&r.0)?;
                }
                out.flush()?;
                bytes += (recs.len() * RECORD_BYTES) as u64;
                written += 1;
                write_progress(cfg, &settings, written, bytes)?;
                summary.games += 1;
                summary.positions += recs.len() as u64;
                summary.depths += depths;
                summary.searched += game.positions.len() as u64;
                summary.results[match game.result {
                    GameResult::RedWins => 0,
                    GameResult::Draw => 1,
                    GameResult::BlackWins => 2,
                }] += 1;
                *summary.endings.entry(game.ending.name()).or_default() += 1;
                bar.inc(1);
                let secs = began.elapsed().as_secs_f64();
                let status = format!(
                    "{} positions, {:.0}/s",
                    summary.positions,
                    summary.positions as f64 / secs.max(1e-9)
                );
                // A run in the background (stderr a file) logs a line now and then instead.
                if log_lines && summary.games.is_multiple_of(LOG_EVERY_GAMES) {
                    eprintln!("{written} games of the seed written, {status}");
                }
                bar.set_message(status);
            }
        }
        summary.games_in_file = written;
        Ok(())
    })?;
    bar.finish_and_clear();
    summary.seconds = began.elapsed().as_secs_f64();
    Ok(summary)
}

/// What a shard's progress file says.
struct ShardState {
    seed: String,
    settings: String,
    shard: Shard,
    total: u64,
    games: u64,
    bytes: u64,
}

fn shard_state(file: &Path) -> io::Result<ShardState> {
    let bad = |what: &str| io::Error::other(format!("{}: {what}", file.display()));
    let text = std::fs::read_to_string(progress_path(file))
        .map_err(|e| bad(&format!("no progress file beside it ({e})")))?;
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().to_string())
            .ok_or_else(|| bad(&format!("its progress file has no {name}")))
    };
    let num = |name: &str| {
        field(name)?
            .parse::<u64>()
            .map_err(|_| bad(&format!("its progress file's {name} is not a number")))
    };
    Ok(ShardState {
        seed: field("seed=")?,
        settings: field("settings=")?,
        shard: Shard::parse(&field("shard=")?).map_err(|e| bad(&e))?,
        total: num("total=")?,
        games: num("games=")?,
        bytes: num("bytes=")?,
    })
}

/// Joins the files of every shard of one run, in shard order, into `out` (which must not
/// exist), with a progress file as the whole run would have left: the same command without
/// `--shard` goes on from it. Refuses shards of different runs, a shard given twice, a missing
/// or unfinished shard. Returns the games and bytes written.
pub fn merge(shards: &[PathBuf], out: &Path) -> io::Result<(u64, u64)> {
    let mut states = shards
        .iter()
        .map(|f| Ok((shard_state(f)?, f)))
        .collect::<io::Result<Vec<_>>>()?;
    states.sort_by_key(|(s, _)| s.shard.index);
    let Some((first, _)) = states.first() else {
        return Err(io::Error::other("no shard to merge"));
    };
    let (seed, settings, count, total) = (
        first.seed.clone(),
        first.settings.clone(),
        first.shard.count,
        first.total,
    );
    for (i, (s, file)) in states.iter().enumerate() {
        let name = file.display();
        if s.seed != seed || s.settings != settings || s.shard.count != count || s.total != total {
            return Err(io::Error::other(format!(
                "{name} is a shard of another run (seed, settings or split differ)"
            )));
        }
        if i > 0 && states[i - 1].0.shard.index == s.shard.index {
            return Err(io::Error::other(format!(
                "shard {} is given twice ({} and {name})",
                s.shard,
                states[i - 1].1.display()
            )));
        }
        let games = s.shard.part(total);
        if s.games != games.end || std::fs::metadata(file)?.len() != s.bytes {
            return Err(io::Error::other(format!(
                "{name}: shard {} is not finished ({} of games {}..{} written)",
                s.shard,
                s.games.saturating_sub(games.start),
                games.start,
                games.end
            )));
        }
    }
    if states.len() as u64 != count {
        let have: Vec<u64> = states.iter().map(|(s, _)| s.shard.index).collect();
        let missing: Vec<String> = (1..=count)
            .filter(|k| !have.contains(k))
            .map(|k| format!("{k}/{count}"))
            .collect();
        return Err(io::Error::other(format!(
            "shards missing: {}",
            missing.join(", ")
        )));
    }
    let mut joined = BufWriter::new(OpenOptions::new().write(true).create_new(true).open(out)?);
    let mut bytes = 0;
    for (_, file) in &states {
        bytes += io::copy(&mut std::fs::File::open(file)?, &mut joined)?;
    }
    joined.flush()?;
    let progress = format!("seed={seed}\nsettings={settings}\ngames={total}\nbytes={bytes}\n");
    std::fs::write(progress_path(out), progress)?;
    Ok((total, bytes))
}

/// Reads a whole data file.
pub fn read_records(path: &Path) -> io::Result<Vec<Record>> {
    let bytes = std::fs::read(path)?;
    Ok(record::records(&bytes).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    fn config(out: PathBuf, games: u64) -> DatagenConfig {
        DatagenConfig {
            games,
            shard: None,
            seed: 3,
            threads: 2,
            selfplay: SelfPlayConfig {
                limits: Limits {
                    nodes: Some(400),
                    ..Limits::default()
                },
                book: None,
                opening_plies: 4..=6,
                opening_check: Some((200, 400)),
                adjudication: Some(crate::tools::selfplay::Adjudication { cp: 1500, plies: 4 }),
                move_limit: 60,
                search_move_limit: 0,
                max_plies: 200,
                net: None,
            },
            out,
            progress: false,
        }
    }

    fn temp(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("chuhan-datagen-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        let _ = std::fs::remove_file(progress_path(&p));
        p
    }

    #[test]
    fn a_resumed_run_writes_what_one_run_writes() {
        let (whole, parts) = (temp("whole"), temp("parts"));
        let never = AtomicBool::new(false);
        let one = run(&config(whole.clone(), 4), &never).unwrap();
        assert_eq!(one.games, 4);
        run(&config(parts.clone(), 2), &never).unwrap();
        // An interrupted write leaves half a record behind; the next run cuts it off.
        OpenOptions::new()
            .append(true)
            .open(&parts)
            .unwrap()
            .write_all(&[7; 13])
            .unwrap();
        let rest = run(&config(parts.clone(), 4), &never).unwrap();
        assert_eq!((rest.games, rest.games_in_file), (2, 4));
        let (a, b) = (
            std::fs::read(&whole).unwrap(),
            std::fs::read(&parts).unwrap(),
        );
        assert_eq!(a, b);
        assert_eq!(a.len() as u64, one.positions * RECORD_BYTES as u64);
        // Every record is a legal quiet position with a centipawn score.
        for r in record::records(&a) {
            let pos = r.position();
            assert!(!pos.in_check());
            assert!(r.score().abs() < crate::search::score::DECISIVE);
        }
        // Another seed appends after what is there.
        let mut other = config(parts.clone(), 1);
        other.seed = 4;
        let more = run(&other, &never).unwrap();
        let grown = std::fs::read(&parts).unwrap();
        assert_eq!(&grown[..a.len()], &a[..]);
        assert_eq!(
            grown.len() - a.len(),
            more.positions as usize * RECORD_BYTES
        );
        for p in [whole, parts] {
            let _ = std::fs::remove_file(progress_path(&p));
            let _ = std::fs::remove_file(p);
        }
    }

    #[test]
    fn a_stopped_run_plays_no_more_games() {
        let out = temp("stopped");
        let stop = AtomicBool::new(true);
        let s = run(&config(out.clone(), 3), &stop).unwrap();
        assert_eq!((s.games, s.games_in_file), (0, 0));
        assert_eq!(std::fs::metadata(&out).unwrap().len(), 0);
        let _ = std::fs::remove_file(progress_path(&out));
        let _ = std::fs::remove_file(out);
    }

    #[test]
    fn merged_shards_are_the_whole_run_and_merge_refuses_what_is_not_one_run() {
        let never = AtomicBool::new(false);
        let whole = temp("shard-whole");
        run(&config(whole.clone(), 5), &never).unwrap();
        let shard = |k: u64, name: &str| {
            let out = temp(name);
            let mut cfg = config(out.clone(), 5);
            cfg.shard = Some(Shard { index: k, count: 3 });
            let s = run(&cfg, &never).unwrap();
            assert_eq!(s.games, Shard { index: k, count: 3 }.part(5).count() as u64);
            out
        };
        let files = [
            shard(3, "shard-3"),
            shard(1, "shard-1"),
            shard(2, "shard-2"),
        ];
        let joined = temp("shard-joined");
        let (games, _) = merge(&files, &joined).unwrap();
        assert_eq!(games, 5);
        assert_eq!(
            std::fs::read(&joined).unwrap(),
            std::fs::read(&whole).unwrap()
        );
        // The joined file goes on as the whole run would: nothing left to play for 5 games.
        let more = run(&config(joined.clone(), 5), &never).unwrap();
        assert_eq!((more.games, more.games_in_file), (0, 5));

        let again = temp("shard-again");
        let twice = [files[0].clone(), files[1].clone(), files[1].clone()];
        let e = merge(&twice, &again).unwrap_err().to_string();
        assert!(e.contains("given twice"), "{e}");
        let e = merge(&files[..2], &again).unwrap_err().to_string();
        assert!(e.contains("missing: 2/3"), "{e}");
        // A shard of another seed.
        let other = temp("shard-other");
        let mut cfg = config(other.clone(), 5);
        cfg.shard = Some(Shard { index: 2, count: 3 });
        cfg.seed = 4;
        run(&cfg, &never).unwrap();
        let mixed = [files[0].clone(), files[1].clone(), other.clone()];
        let e = merge(&mixed, &again).unwrap_err().to_string();
        assert!(e.contains("another run"), "{e}");
        // An unfinished shard: its last game cut off.
        std::fs::write(progress_path(&files[2]), {
            let t = std::fs::read_to_string(progress_path(&files[2])).unwrap();
            t.replace("games=3", "games=2")
        })
        .unwrap();
        let e = merge(&files, &again).unwrap_err().to_string();
        assert!(e.contains("not finished"), "{e}");
        assert!(!again.exists(), "nothing is written when merge refuses");
        for f in files.iter().chain([&whole, &joined, &other]) {
            let _ = std::fs::remove_file(progress_path(f));
            let _ = std::fs::remove_file(f);
        }
    }
}
