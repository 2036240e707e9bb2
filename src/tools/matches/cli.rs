//! The `chuhan match` command line (clap), turned into a `MatchConfig`.

use crate::tools::interrupt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Arg, ArgAction, ArgGroup, ArgMatches, Args, Command, FromArgMatches};

use crate::board::Position;
use crate::egtb::Tablebase;
use crate::rules::DEFAULT_MOVE_LIMIT;

use super::adjudication::{DrawRule, ResignRule};
use super::game::GameRules;
use super::limit::Limit;
use super::merge::merge;
use super::openings::{book_openings, load_openings};
use super::report::format_report;
use super::runner::{MatchConfig, run_match};
use super::spec::EngineSpec;
use super::sprt::Sprt;
use crate::book::Book;
use crate::rng::shuffle;
use crate::tools::clock::TimeControl;
use crate::tools::shard::Shard;

/// Every `--engine` occurrence with its words, kept apart: `--engine cmd=a name=x --engine
/// cmd=b`. Derive cannot group multi-word occurrences (`Vec<Vec<_>>` is unstable), hence the
/// hand-written parts.
#[derive(Debug, Clone, Default)]
struct EngineArgs(Vec<Vec<String>>);

impl FromArgMatches for EngineArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let groups = m
            .get_occurrences::<String>("engine")
            .map(|occ| occ.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineArgs(groups))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = EngineArgs::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for EngineArgs {
    fn augment_args(cmd: Command) -> Command {
        cmd.arg(
            Arg::new("engine")
                .long("engine")
                .required(true)
                .num_args(1..)
                .action(ArgAction::Append)
                .value_name("SETTING")
                .help(
                    "An engine (two or more, round robin): cmd=PATH [name=NAME] \
                     [proto=uci|ucci|auto] [dir=DIR] [arg=ARG]... [stderr=FILE] \
                     [ponder=on] [option.NAME=VALUE | NAME=VALUE]... (one shell word per \
                     setting; a value may hold spaces; ponder=on: thinks on the opponent's \
                     time in timed games, `go ponder` and `ponderhit`)",
                ),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        EngineArgs::augment_args(cmd)
    }
}

/// `chuhan match`: a match, or `merge` of shards' games.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchCli {
    #[command(subcommand)]
    command: Option<MatchCommand>,
    #[command(flatten)]
    args: MatchArgs,
}

/// The settings of a match (also those of `chuhan tune spsa`'s games).
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("limit").required(true).args(["tc", "movetime", "depth", "nodes"])))]
pub struct MatchArgs {
    #[command(flatten)]
    engines: EngineArgs,
    /// Games per pair of engines; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Clock per side: [moves/]seconds[+increment], e.g. 10+0.1.
    #[arg(long)]
    tc: Option<TimeControl>,
    /// Fixed time per move, ms.
    #[arg(long)]
    movetime: Option<u64>,
    /// Fixed search depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed node count per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// EPD/FEN file of opening positions (default: the start position only).
    #[arg(long, conflicts_with = "book")]
    openings: Option<PathBuf>,
    /// Draw the openings from this book (BOOK.DAT), walking it by weight to --book-plies.
    #[arg(long)]
    book: Option<PathBuf>,
    /// How deep the book openings go, in plies.
    #[arg(long, default_value_t = 8, requires = "book")]
    book_plies: usize,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write every game here.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Play only shard K of N (K from 1): the K-th of N contiguous parts of the openings, each
    /// with both its games, as the whole match plays them (`chuhan match merge` joins the
    /// shards' PGN files into one report).
    #[arg(long, value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Go on from the games already in the --pgn file, written by a run with the same settings
    /// that was cut off: they count, and only the rest are played.
    #[arg(long, requires = "pgn")]
    resume: bool,
    /// Stop when decided: elo0=E0,elo1=E1[,alpha=A,beta=B] (logistic Elo, two engines).
    #[arg(long)]
    sprt: Option<Sprt>,
    /// Adjudicate a loss by score: movecount=N,score=CP (off by default).
    #[arg(long)]
    resign: Option<ResignRule>,
    /// Adjudicate a draw by score: movenumber=M,movecount=N,score=CP (off by default).
    #[arg(long)]
    draw: Option<DrawRule>,
    /// Adjudicate the positions the endgame tables in DIR cover: a draw, or a mate that fits
    /// the move limit (cycles count as draws in the tables: see README, "Endgame tables").
    #[arg(long, value_name = "DIR")]
    egtb: Option<PathBuf>,
    /// Lag allowed past the flag before a move loses on time, ms.
    #[arg(long, default_value_t = 100)]
    time_margin: u64,
    /// Plies without capture before the game is drawn (0 = off).
    #[arg(long, default_value_t = DEFAULT_MOVE_LIMIT)]
    move_limit: u32,
    /// Longest wait for a --depth/--nodes move before the engine counts as hung, ms.
    #[arg(long, default_value_t = 60_000)]
    max_wait: u64,
    /// PGN Event tag.
    #[arg(long, default_value = "chuhan match")]
    event: String,
    /// Keep each engine's stderr in DIR/NAME.stderr (an engine's own stderr=FILE wins).
    #[arg(long)]
    log_dir: Option<PathBuf>,
}

#[derive(clap::Subcommand, Debug)]
pub enum MatchCommand {
    /// One report (W/D/L, Elo, pentanomial, SPRT, terminations) over the PGN files of a
    /// match's shards; a round found twice is refused.
    Merge {
        /// The shards' PGN files.
        #[arg(required = true)]
        pgn: Vec<PathBuf>,
        /// The SPRT to judge the union by: elo0=E0,elo1=E1[,alpha=A,beta=B].
        #[arg(long)]
        sprt: Option<Sprt>,
    },
}

impl MatchArgs {
    pub fn into_config(self) -> Result<MatchConfig, String> {
        // A shell word is one setting: a value with spaces or commas (a path) is quoted
        // before the words are joined.
        let quote = |w: &String| match w.split_once('=') {
            Some((k, v)) if v.contains([' ', ',']) && !v.starts_with('"') => format!("{k}=\"{v}\""),
            _ => w.clone(),
        };
        let mut engines = self
            .engines
            .0
            .iter()
            .map(|words| {
                let words: Vec<String> = words.iter().map(quote).collect();
                words.join(" ").parse::<EngineSpec>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(dir) = &self.log_dir {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            for e in engines.iter_mut().filter(|e| e.stderr.is_none()) {
                e.stderr = Some(dir.join(format!("{}.stderr", e.name)));
            }
        }
        let limit = match (self.tc, self.movetime, self.depth, self.nodes) {
            (Some(tc), ..) => Limit::Clock(tc),
            (_, Some(ms), ..) => Limit::MoveTime(ms),
            (_, _, Some(d), _) => Limit::Depth(d),
            (.., Some(n)) => Limit::Nodes(n),
            _ => return Err("give --tc, --movetime, --depth or --nodes".into()),
        };
        let mut openings = match (&self.openings, &self.book) {
            (Some(path), _) => load_openings(path)?,
            (None, Some(path)) => {
                let book = Book::load(path)?;
                let count = self.games.div_ceil(2) as usize;
                let walked = book_openings(&book, self.book_plies, count, self.seed.unwrap_or(0));
                if walked.is_empty() {
                    return Err(format!(
                        "{}: no line of the book is {} plies deep",
                        path.display(),
                        self.book_plies
                    ));
                }
                walked
            }
            (None, None) => vec![Position::startpos()],
        };
        if let (Some(seed), None) = (self.seed, &self.book) {
            shuffle(&mut openings, seed);
        }
        let egtb = match &self.egtb {
            None => None,
            Some(dir) => {
                let (tables, errors) = Tablebase::open(dir);
                for e in errors {
                    log::warn!("{e}");
                }
                if tables.is_empty() {
                    return Err(format!("--egtb {}: no endgame tables there", dir.display()));
                }
                Some(Arc::new(tables))
            }
        };
        Ok(MatchConfig {
            engines,
            games: self.games,
            rules: GameRules {
                limit,
                margin: Duration::from_millis(self.time_margin),
                move_limit: self.move_limit,
                untimed_wait: Duration::from_millis(self.max_wait),
                ready_timeout: Duration::from_secs(10),
                resign: self.resign,
                draw: self.draw,
                egtb,
            },
            openings,
            concurrency: self.concurrency.max(1),
            pgn: self.pgn,
            resume: self.resume,
            sprt: self.sprt,
            shard: self.shard,
            event: self.event,
            start_timeout: Duration::from_secs(10),
            progress: true,
        })
    }
}

/// Runs `chuhan match` and prints the report on stdout.
pub fn run_cli(cli: MatchCli) -> ExitCode {
    let MatchCli { command, args } = cli;
    if let Some(MatchCommand::Merge { pgn, sprt }) = &command {
        return match merge(pgn, *sprt) {
            Ok((result, limit)) => {
                print!("{}", format_report(&result, *sprt, &limit));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        };
    }
    interrupt::install();
    let result = args.into_config().and_then(|config| {
        let result = run_match(&config)?;
        let report = format_report(&result, config.sprt, &config.rules.limit.to_string());
        Ok((report, result.interrupted))
    });
    match result {
        Ok((report, interrupted)) => {
            print!("{report}");
            if interrupted {
                eprintln!(
                    "match interrupted: the report and the PGN hold the finished games \
                     (the same command with --resume plays the rest)"
                );
                return ExitCode::from(130);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
