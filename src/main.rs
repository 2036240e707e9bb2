//! The `chuhan` binary: with no subcommand it serves UCCI/UCI on stdin/stdout; subcommands run
//! the library's tools.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use chuhan::Position;
use chuhan::bench::{DEFAULT_BENCH_DEPTH, bench, bench_report};
use chuhan::eval::terms::Term;
use chuhan::movegen::perft_report;
use chuhan::search::params::Params;
use chuhan::tune::datagen::{GenConfig, generate};
use chuhan::tune::features::term_param;
use chuhan::tune::texel::Descent;
use chuhan::tune::writer::render;
use chuhan::tune::{fit, read_samples};
use indicatif::ProgressBar;

#[derive(Parser)]
#[command(
    name = "chuhan",
    version,
    about = "A xiangqi engine speaking UCCI and UCI"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree, per root move.
    Perft {
        depth: u32,
        /// Position to start from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Play a game against chuhan in the terminal.
    Play(chuhan::tools::play::PlayArgs),
    /// Judge a game: prints `ongoing`, or the result and why (e.g. `1-0 checkmate`).
    Adjudicate {
        /// Start position (default: the standard one).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from it, in ICCS (h2e2).
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        /// Plies without capture before a draw, 0 = off.
        #[arg(long, default_value_t = chuhan::rules::DEFAULT_MOVE_LIMIT)]
        move_limit: u32,
    },
    /// Search the benchmark positions to a fixed depth; prints the node count and speed.
    Bench {
        /// Search depth (default: the standard bench depth).
        depth: Option<u32>,
        /// The evaluation: `nnue` (the embedded net), `hce` (hand-written), `both` (one run
        /// each, speeds compared) or a net file.
        #[arg(long, default_value = "nnue")]
        eval: String,
        /// Also print where the nodes went: branching factor, nodes per depth, quiescence
        /// share, the table's hit and cutoff rates, how often each pruning fired.
        #[arg(long)]
        stats: bool,
    },
    /// Play engines against each other (UCI/UCCI), with statistics, SPRT and PGN.
    Match(Box<chuhan::tools::matches::MatchCli>),
    /// Tune the evaluation weights to self-play results (Texel's method).
    #[command(subcommand)]
    Tune(Tune),
    /// Play self-play games and append their quiet positions to a training-data file.
    Datagen(DatagenArgs),
    /// Train the net on datagen files; writes checkpoints and quantised nets each epoch.
    Train(TrainArgs),
    /// Fit the win/draw/loss model to datagen files; prints it and its held-out calibration.
    WdlFit(WdlFitArgs),
    /// Opening books: build one from PGN games, or show what one offers.
    #[command(subcommand)]
    Book(chuhan::tools::book::BookCommand),
    /// Serve a board in the browser for play and analysis (http://127.0.0.1:8080/).
    Serve(chuhan::serve::ServeArgs),
    /// Endgame tables: build them by retrograde analysis, or probe a position.
    #[command(subcommand)]
    Egtb(chuhan::tools::egtb::EgtbCommand),
}

#[derive(clap::Args)]
struct WdlFitArgs {
    /// Data files written by `chuhan datagen`.
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// Hold out one game in this many for the calibration table.
    #[arg(long, default_value_t = 10)]
    holdout_every: usize,
    /// Newton steps of the fit.
    #[arg(long, default_value_t = 50)]
    iterations: usize,
}

fn wdl_fit(a: WdlFitArgs) -> std::io::Result<()> {
    use chuhan::eval::wdl::MODEL;
    use chuhan::tools::wdl_fit::{Histogram, as_rust, calibration_table, fit};
    let mut records = Vec::new();
    for path in &a.data {
        records.extend(chuhan::tools::datagen::read_records(path)?);
    }
    let (train_set, holdout) = chuhan::tools::train::split_games(&records, a.holdout_every);
    let model = fit(&Histogram::new(&train_set), a.iterations);
    let held = Histogram::new(&holdout);
    // Written, not printed: a closed pipe (`| head`) is an error to report, not a panic.
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} positions fitted, {} held out; held-out loss {:.5} (the model in the code: {:.5})",
        train_set.len(),
        holdout.len(),
        held.loss(&model),
        held.loss(&MODEL)
    )?;
    writeln!(out, "{}\n", as_rust(&model))?;
    write!(out, "{}", calibration_table(&model, &holdout))
}

#[derive(clap::Args)]
struct TrainArgs {
    /// Data files written by `chuhan datagen`.
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// Folder for `last.params` and `epoch-N.nnue`.
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Adam's step size, annealed by a cosine to `--final-lr`.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    #[arg(long, default_value_t = 0.00005)]
    final_lr: f32,
    /// Decoupled weight decay (AdamW): each step shrinks every weight by this times the step
    /// size; 0 is plain Adam.
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// Weight of the game result in the target (the rest is the search score). 0.2 since the
    /// fortieth session (0.5 before): on the same data about +75 Elo at 60,000 nodes a move
    /// (how datagen plays), +18 at 10+0.1 (undecided).
    #[arg(long, default_value_t = 0.2)]
    lambda: f32,
    /// Centipawns per unit of the sigmoid's input.
    #[arg(long, default_value_t = 400.0)]
    scale: f32,
    /// Hold out one game in this many.
    #[arg(long, default_value_t = 20)]
    holdout_every: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Blocks of input features: 1 (net 2's shape), or 6 chosen by the king's point in the
    /// palace (the right-hand file mirrored onto the left).
    #[arg(long, default_value_t = 1, value_parser = king_buckets)]
    king_buckets: usize,
    /// Hidden units a view: 256 (net 2's shape) or 512.
    #[arg(long, default_value_t = 256, value_parser = hidden)]
    hidden: usize,
    /// Output layers: 1 (net 2's shape), or 8 chosen by the pieces on the board.
    #[arg(long, default_value_t = 1, value_parser = output_buckets)]
    output_buckets: usize,
    /// Two small dense layers (16 and 32 units) between the hidden layer and the output, the
    /// first on the products of each view's two halves.
    #[arg(long)]
    dense: bool,
    /// Float parameters to start from (a run's `last.params`, of the same shape).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
}

/// `--king-buckets`: a net reads its inputs in 1 block or in 6.
fn king_buckets(s: &str) -> Result<usize, String> {
    use chuhan::eval::nnue::features::KING_BUCKETS;
    match s.parse() {
        Ok(n) if n == 1 || n == KING_BUCKETS => Ok(n),
        _ => Err(format!("1 or {KING_BUCKETS}")),
    }
}

/// `--hidden`: a width the engine's kernels are compiled for.
fn hidden(s: &str) -> Result<usize, String> {
    use chuhan::eval::nnue::simd::WIDTHS;
    match s.parse() {
        Ok(n) if WIDTHS.contains(&n) => Ok(n),
        _ => Err(format!("one of {WIDTHS:?}")),
    }
}

/// `--output-buckets`: a net has 1 output layer or 8.
fn output_buckets(s: &str) -> Result<usize, String> {
    use chuhan::eval::nnue::features::OUTPUT_BUCKETS;
    match s.parse() {
        Ok(n) if n == 1 || n == OUTPUT_BUCKETS => Ok(n),
        _ => Err(format!("1 or {OUTPUT_BUCKETS}")),
    }
}

fn train(a: TrainArgs) -> std::io::Result<()> {
    use chuhan::tools::train::{
        TrainConfig, hand_written_loss,
        model::{Shape, Target},
        quantisation_error, split_games, train,
    };
    if let Some(n) = a.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(std::io::Error::other)?;
    }
    let mut records = Vec::new();
    for path in &a.data {
        records.extend(chuhan::tools::datagen::read_records(path)?);
    }
    let (train_set, holdout) = split_games(&records, a.holdout_every);
    eprintln!(
        "{} training positions, {} held out",
        train_set.len(),
        holdout.len()
    );
    let cfg = TrainConfig {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        final_lr: a.final_lr,
        weight_decay: a.weight_decay,
        target: Target {
            lambda: a.lambda,
            k: a.scale,
        },
        holdout_every: a.holdout_every,
        seed: a.seed,
        shape: Shape {
            king_buckets: a.king_buckets,
            hidden: a.hidden,
            out_buckets: a.output_buckets,
            dense: a.dense,
        },
        init: a.init,
        out: a.out,
        progress: true,
    };
    eprintln!(
        "held-out loss of the hand-written evaluation: {:.6} (results alone {:.6})",
        hand_written_loss(&holdout, cfg.target),
        hand_written_loss(&holdout, cfg.target.results_alone())
    );
    let p = train(&cfg, train_set, &holdout, &mut |r| {
        eprintln!(
            "epoch {:3}  train loss {:.6}  held-out loss {:.6} (results alone {:.6})  {:.0} positions/s",
            r.epoch, r.train_loss, r.holdout_loss, r.holdout_result_loss, r.positions_per_second
        )
    })?;
    let q = quantisation_error(&p, &holdout, cfg.target);
    eprintln!(
        "quantised net against the float net on the held-out positions: {:.2} cp mean absolute difference; held-out loss {:.6} against the float net's {:.6} (results alone {:.6})",
        q.difference, q.loss, q.float_loss, q.result_loss
    );
    Ok(())
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct DatagenArgs {
    #[command(subcommand)]
    command: Option<DatagenCommand>,
    /// Data file to append to (`<out>.progress` beside it lets a run go on where it stopped).
    #[arg(long, required = true)]
    out: Option<PathBuf>,
    /// Play only shard K of N (K from 1) of the run's games: contiguous ranges, so `chuhan
    /// datagen merge` of all N shard files is the file of the whole run.
    #[arg(long, value_parser = chuhan::tools::shard::Shard::parse)]
    shard: Option<chuhan::tools::shard::Shard>,
    /// Games of this seed to reach (counting games earlier runs of it wrote).
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once, one thread each (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// No new iteration once a search has this many nodes (`--nodes` stays the hard limit):
    /// the nodes of an iteration that would not finish are saved (default: off).
    #[arg(long)]
    soft_nodes: Option<u64>,
    /// A lower soft limit for the positions the data does not keep (in check, or a capture or a
    /// check found best) (default: off).
    #[arg(long)]
    soft_nodes_unquiet: Option<u64>,
    /// Openings walked out of this book (ElephantEye's BOOK.DAT format, `chuhan book build`)
    /// by weight before the random plies.
    #[arg(long)]
    book: Option<PathBuf>,
    /// Book moves at most in an opening's walk.
    #[arg(long, default_value_t = 16, requires = "book")]
    book_plies: u32,
    /// Random plies (after the book's) before the searches take over: `N` or `LO-HI`.
    #[arg(long, default_value = "6-10", value_parser = parse_ply_range)]
    random_plies: (u32, u32),
    /// Openings a search of this many nodes scores beyond `--opening-max-cp` are drawn again
    /// (0 = keep every opening).
    #[arg(long, default_value_t = 2_000)]
    opening_nodes: u64,
    #[arg(long, default_value_t = 300)]
    opening_max_cp: i32,
    /// Adjudicate a game won once every search scores at least CP for one side for PLIES plies
    /// in a row: `CP,PLIES` (default: off, the referee ends every game).
    #[arg(long, value_parser = parse_adjudication)]
    adjudicate: Option<chuhan::tools::selfplay::Adjudication>,
    /// Plies without capture before the referee draws, 0 = off.
    #[arg(long, default_value_t = chuhan::rules::DEFAULT_MOVE_LIMIT)]
    move_limit: u32,
    /// The evaluation: `nnue` (the embedded net), `hce` (hand-written) or a net file.
    #[arg(long, default_value = "nnue")]
    eval: String,
}

/// The net an `--eval` argument names: `None` for the hand-written evaluation.
fn eval_choice(
    eval: &str,
) -> std::io::Result<Option<std::sync::Arc<chuhan::eval::nnue::network::Network>>> {
    match eval {
        "hce" => Ok(None),
        "nnue" => Ok(Some(chuhan::eval::nnue::default_net())),
        path => {
            let net = chuhan::eval::nnue::network::Network::from_bytes(&std::fs::read(path)?)
                .map_err(|e| std::io::Error::other(format!("{path}: {e}")))?;
            Ok(Some(std::sync::Arc::new(net)))
        }
    }
}

fn parse_ply_range(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected N or LO-HI, got {s}");
    let (lo, hi) = s.split_once('-').unwrap_or((s, s));
    let (lo, hi): (u32, u32) = (
        lo.trim().parse().map_err(|_| bad())?,
        hi.trim().parse().map_err(|_| bad())?,
    );
    if lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

fn parse_adjudication(s: &str) -> Result<chuhan::tools::selfplay::Adjudication, String> {
    let bad = || format!("expected CP,PLIES, got {s}");
    let (cp, plies) = s.split_once(',').ok_or_else(bad)?;
    Ok(chuhan::tools::selfplay::Adjudication {
        cp: cp.trim().parse().map_err(|_| bad())?,
        plies: plies.trim().parse().map_err(|_| bad())?,
    })
}

#[derive(Subcommand)]
enum DatagenCommand {
    /// Join the files of every shard of one run into the whole run's file.
    Merge {
        /// The joined file (must not exist); a progress file is written beside it.
        #[arg(long)]
        out: PathBuf,
        /// Every shard's file, in any order.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
}

fn datagen(a: DatagenArgs) -> std::io::Result<()> {
    use chuhan::tools::datagen::{DatagenConfig, merge, run};
    if let Some(DatagenCommand::Merge { out, shards }) = a.command {
        let (games, bytes) = merge(&shards, &out)?;
        println!("{games} games, {bytes} bytes written to {}", out.display());
        return Ok(());
    }
    let cfg = DatagenConfig {
        games: a.games,
        shard: a.shard,
        seed: a.seed,
        threads: a
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        selfplay: chuhan::tools::selfplay::SelfPlayConfig {
            limits: chuhan::search::Limits {
                nodes: Some(a.nodes.max(1)),
                soft_nodes: a.soft_nodes,
                soft_nodes_unquiet: a.soft_nodes_unquiet,
                ..Default::default()
            },
            book: match &a.book {
                Some(path) => {
                    let bytes = std::fs::read(path)?;
                    let book = chuhan::book::Book::from_bytes(&bytes)
                        .map_err(|e| std::io::Error::other(format!("{}: {e}", path.display())))?;
                    Some(chuhan::tools::selfplay::BookWalk {
                        book: std::sync::Arc::new(book),
                        plies: a.book_plies,
                        id: u64::from(chuhan::checksum::fnv1a(&bytes)),
                    })
                }
                None => None,
            },
            opening_plies: a.random_plies.0..=a.random_plies.1,
            opening_check: (a.opening_nodes > 0).then_some((a.opening_nodes, a.opening_max_cp)),
            adjudication: a.adjudicate,
            move_limit: a.move_limit,
            search_move_limit: 0,
            max_plies: 400,
            net: eval_choice(&a.eval)?,
        },
        out: a.out.expect("clap requires --out"),
        progress: true,
    };
    chuhan::tools::interrupt::install();
    let summary = run(&cfg, chuhan::tools::interrupt::flag())?;
    eprintln!("{}", summary.report());
    Ok(())
}

#[derive(Subcommand)]
enum Tune {
    /// Play fast self-play games and write their quiet positions with the results.
    Gen {
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Fixed search depth per move.
        #[arg(long, default_value_t = 6)]
        depth: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Output file of `<FEN> ; <result>` lines.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fit the weights to a data file and write the weights file.
    Fit {
        #[arg(long)]
        data: PathBuf,
        #[arg(long, default_value_t = 2000)]
        iterations: usize,
        /// Adam step size in centipawns.
        #[arg(long, default_value_t = 0.5)]
        rate: f64,
        /// Penalty per squared centipawn a weight moves from its current value.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
        /// Where to write the tuned weights file.
        #[arg(long, default_value = "src/eval/weights.rs")]
        out: PathBuf,
        /// Fit only these positional terms (comma-separated names), the rest held as they are.
        #[arg(long, value_delimiter = ',', value_parser = parse_term)]
        only: Vec<Term>,
    },
    /// Tune the search parameters by games (SPSA): the engine given plays copies of itself,
    /// `--games` games an iteration, resumably; `--shard K/N --pgn F` plays one shard of the
    /// next iteration, `--record F…` takes every shard's games as that iteration.
    Spsa {
        #[command(flatten)]
        games: Box<chuhan::tools::matches::MatchArgs>,
        /// Parameters to tune, comma-separated (default: every one `chuhan tune params` lists).
        #[arg(long, value_delimiter = ',')]
        params: Vec<String>,
        #[arg(long, default_value_t = 1000)]
        iterations: u32,
        /// Learning rate at the end of the run, in units of the step squared.
        #[arg(long, default_value_t = 0.002)]
        r_end: f64,
        /// Seed of the perturbations' signs.
        #[arg(long, default_value_t = 1)]
        spsa_seed: u64,
        /// One line per iteration is appended here; a run with the same log resumes.
        #[arg(long)]
        log: PathBuf,
        /// At the end, write the tuned values into this parameter table source.
        #[arg(long)]
        write_back: Option<PathBuf>,
        /// Take these PGN files (every shard of the next iteration, played with --shard) as
        /// the iteration's games: move the values and append the log line, then stop.
        #[arg(long, num_args = 1.., conflicts_with = "shard")]
        record: Vec<PathBuf>,
    },
    /// List the search parameters: name, default, range and SPSA step.
    Params,
}

fn parse_term(name: &str) -> Result<Term, String> {
    Term::ALL
        .iter()
        .copied()
        .find(|t| t.name() == name)
        .ok_or_else(|| format!("no term named {name}"))
}

/// Success, or the error on stderr and exit status 2.
fn exit_code(result: std::io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            chuhan::protocol::serve(std::io::stdin().lock(), std::io::stdout());
            ExitCode::SUCCESS
        }
        Some(Command::Play(args)) => chuhan::tools::play::run(args),
        Some(Command::Bench { depth, eval, stats }) => {
            let depth = depth.unwrap_or(DEFAULT_BENCH_DEPTH);
            if eval == "both" {
                let hce = bench(depth, None, Params::default());
                let nnue = bench(
                    depth,
                    Some(chuhan::eval::nnue::default_net()),
                    Params::default(),
                );
                println!("hand-written: {} nodes, {} nodes/s", hce.nodes, hce.nps);
                println!(
                    "net: {} nodes, {} nodes/s ({:.1}% of the hand-written speed)",
                    nnue.nodes,
                    nnue.nps,
                    100.0 * nnue.nps as f64 / hce.nps.max(1) as f64
                );
                return ExitCode::SUCCESS;
            }
            match eval_choice(&eval) {
                Ok(net) => {
                    let r = bench(depth, net, Params::default());
                    if stats {
                        println!("{}", r.stats.report());
                    }
                    println!("{}", bench_report(&r));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Match(args)) => chuhan::tools::matches::run_cli(*args),
        Some(Command::Train(args)) => exit_code(train(args)),
        Some(Command::Datagen(args)) => exit_code(datagen(args)),
        Some(Command::WdlFit(args)) => exit_code(wdl_fit(args)),
        Some(Command::Book(command)) => exit_code(chuhan::tools::book::run(command)),
        Some(Command::Serve(args)) => exit_code(chuhan::serve::run(&args)),
        Some(Command::Egtb(command)) => exit_code(chuhan::tools::egtb::run(command)),
        Some(Command::Tune(t)) => match tune(t) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Perft { depth, fen }) => {
            let pos = match fen {
                Some(f) => Position::from_fen(&f),
                None => Ok(Position::startpos()),
            };
            match pos {
                Ok(mut p) => {
                    print!("{}", perft_report(&mut p, depth));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Adjudicate {
            fen,
            moves,
            move_limit,
        }) => match chuhan::rules::adjudicate(fen.as_deref(), &moves, move_limit) {
            Ok(verdict) => {
                println!(
                    "{}",
                    verdict.map_or("ongoing".to_string(), |v| v.to_string())
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
    }
}

fn tune(t: Tune) -> std::io::Result<()> {
    match t {
        Tune::Gen {
            games,
            depth,
            seed,
            threads,
            out,
        } => {
            let cfg = GenConfig {
                games,
                depth,
                seed,
                threads,
            };
            let bar = ProgressBar::new(games as u64);
            let mut file = BufWriter::new(File::create(&out)?);
            let n = generate(&cfg, &mut file, &|| bar.inc(1))?;
            bar.finish_and_clear();
            eprintln!(
                "{n} positions from {games} games written to {}",
                out.display()
            );
        }
        Tune::Fit {
            data,
            iterations,
            rate,
            l2,
            out,
            only,
        } => {
            let samples = read_samples(BufReader::new(File::open(&data)?))?;
            let run = Descent {
                iterations,
                rate,
                l2,
            };
            let r = fit(&samples, run, &only);
            eprintln!(
                "K = {:.4}; {} training, {} held-out positions",
                r.k, r.train, r.test
            );
            eprintln!(
                "training error {:.6} -> {:.6}",
                r.train_before, r.train_after
            );
            eprintln!("held-out error {:.6} -> {:.6}", r.test_before, r.test_after);
            for t in &only {
                let i = term_param(*t as usize);
                eprintln!(
                    "{}: ({:.2}, {:.2})",
                    t.name(),
                    r.weights[i],
                    r.weights[i + 1]
                );
            }
            std::fs::write(&out, render(&r.weights))?;
            eprintln!("weights written to {}", out.display());
        }
        Tune::Spsa {
            games,
            params,
            iterations,
            r_end,
            spsa_seed,
            log,
            write_back,
            record,
        } => {
            use chuhan::tune::spsa;
            let err = std::io::Error::other;
            let base = games.into_config().map_err(err)?;
            let config = spsa::SpsaConfig {
                tuned: spsa::parse_tuned(&params).map_err(err)?,
                iterations,
                r_end,
                seed: spsa_seed,
            };
            chuhan::tools::interrupt::install();
            if base.shard.is_some() {
                let k = spsa::play_shard(&config, &base, &log).map_err(err)?;
                eprintln!("iteration {k}: shard played");
                return Ok(());
            }
            let state = if record.is_empty() {
                spsa::run(&config, &base, &log)
            } else {
                spsa::record(&config, &base, &log, &record)
            }
            .map_err(err)?;
            let values = spsa::rounded(&config, &state);
            eprintln!("after {} of {iterations} iterations:", state.done);
            for (name, v) in &values {
                eprintln!("  {name} = {v}");
            }
            if let Some(path) = write_back {
                let source = std::fs::read_to_string(&path)?;
                std::fs::write(&path, spsa::write_back(&source, &values).map_err(err)?)?;
                eprintln!("written to {}", path.display());
            }
        }
        Tune::Params => {
            println!("name default min max step");
            for p in chuhan::search::params::TABLE {
                println!("{} {} {} {} {}", p.name, p.default, p.min, p.max, p.step);
            }
        }
    }
    Ok(())
}
