//! End-to-end tests of `chuhan match` against the scriptable fake engine
//! (tests/support/fake_engine.rs): refereeing, misbehaviour, adjudication, SPRT, PGN, the CLI.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use assert_cmd::Command;
use chuhan::Position;
use chuhan::rules::{GameRecord, GameResult};
use chuhan::tools::matches::openings::load_openings;
use chuhan::tools::matches::{
    EngineSpec, GameRules, Limit, MatchConfig, MatchResult, Sprt, SprtDecision, Termination,
    run_match,
};

/// The fake engine's path. `cargo test` builds examples beside the binaries; a run filtered to
/// this test target does not, so it is built (or found up to date) here, in the same profile.
fn fake_engine() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let bins = Path::new(SELF_MATCH_ENGINE).parent().expect("target dir");
        let path = bins
            .join("examples")
            .join(format!("fake-engine{}", std::env::consts::EXE_SUFFIX));
        let profile = match bins.file_name().and_then(|n| n.to_str()) {
            Some("debug") | None => "dev",
            Some(p) => p,
        };
        let status = std::process::Command::new(env!("CARGO"))
            .args(["build", "--example", "fake-engine", "--profile", profile])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("run cargo");
        assert!(status.success(), "building the fake engine failed");
        path.to_str().expect("UTF-8 path").to_string()
    })
}
/// The engine of the self-match: chuhan itself.
const SELF_MATCH_ENGINE: &str = env!("CARGO_BIN_EXE_chuhan");

fn engine(cmd: &str, name: &str, args: &[&str]) -> EngineSpec {
    let mut s = format!("cmd={cmd} name={name}");
    for a in args {
        s += &format!(" arg={a}");
    }
    s.parse().unwrap()
}

fn fake(name: &str, args: &[&str]) -> EngineSpec {
    engine(fake_engine(), name, args)
}

fn config(engines: Vec<EngineSpec>, games: u32, limit: Limit) -> MatchConfig {
    MatchConfig {
        engines,
        games,
        rules: GameRules {
            limit,
            margin: Duration::from_millis(50),
            move_limit: chuhan::rules::DEFAULT_MOVE_LIMIT,
            untimed_wait: Duration::from_millis(1500),
            ready_timeout: Duration::from_secs(5),
            resign: None,
            draw: None,
            egtb: None,
        },
        openings: vec![Position::startpos()],
        concurrency: 1,
        pgn: None,
        resume: false,
        sprt: None,
        shard: None,
        event: "test".into(),
        start_timeout: Duration::from_secs(5),
        progress: false,
    }
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("chuhan-{}-{name}", std::process::id()))
}

fn bench_openings() -> Vec<Position> {
    load_openings(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench-positions/openings.epd"))
        .unwrap()
}

/// Replays every game and checks the runner's verdict is the rules library's, at the end only.
fn assert_refereed_by_rules(result: &MatchResult) {
    for g in &result.games {
        let Termination::Rules(reason) = g.outcome.termination else {
            panic!("game {} ended by {}", g.round, g.outcome.termination);
        };
        let mut rec = GameRecord::new(g.start.clone());
        for m in &g.outcome.moves {
            assert_eq!(
                rec.verdict(120),
                None,
                "game {} went on after its end",
                g.round
            );
            rec.play(m.mv).expect("only legal moves are recorded");
        }
        let v = rec.verdict(120).expect("the game is over");
        assert_eq!((v.result, v.reason), (g.outcome.result, reason));
    }
}

#[test]
fn self_match_at_fixed_depth_is_refereed_end_to_end() {
    let pgn = temp_path("self.pgn");
    let mut cfg = config(
        vec![
            engine(SELF_MATCH_ENGINE, "one", &[]),
            engine(SELF_MATCH_ENGINE, "two", &[]),
        ],
        4,
        Limit::Depth(3),
    );
    cfg.openings = bench_openings()[..2].to_vec();
    cfg.pgn = Some(pgn.clone());
    cfg.concurrency = 2;
    let result = run_match(&cfg).unwrap();
    assert_eq!(result.games.len(), 4);
    assert_refereed_by_rules(&result);
    let p = &result.pairings[0];
    assert_eq!(p.wdl.games(), 4);
    assert_eq!(p.pentanomial.pairs(), 2);
    // Each opening twice, colours swapped.
    for round in [1, 3] {
        let a = result.games.iter().find(|g| g.round == round).unwrap();
        let b = result.games.iter().find(|g| g.round == round + 1).unwrap();
        assert_eq!(a.start.key(), b.start.key());
        assert_eq!((a.red, a.black), (b.black, b.red));
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_file(&pgn).ok();
    assert_eq!(text.matches("[Game \"Chinese Chess\"]").count(), 4);
    assert_eq!(text.matches("[FEN \"").count(), 4);
    assert_eq!(text.matches("[Termination \"").count(), 4);
    assert!(
        text.contains("/3 "),
        "per-move score/depth comments: {text}"
    );
}

/// Rounds of a PGN text, in file order.
fn rounds_of(text: &str) -> Vec<u32> {
    text.lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .map(|r| r.trim_end_matches("\"]").parse().unwrap())
        .collect()
}

#[test]
fn a_resumed_match_counts_the_earlier_games_once_and_plays_the_rest() {
    let (whole, cut) = (temp_path("whole.pgn"), temp_path("cut.pgn"));
    let mut cfg = config(
        vec![fake("a", &[]), fake("b", &["--seed", "2"])],
        8,
        Limit::Depth(1),
    );
    cfg.openings = bench_openings()[..4].to_vec();
    cfg.pgn = Some(whole.clone());
    let full = run_match(&cfg).unwrap();
    let text = std::fs::read_to_string(&whole).unwrap();
    // Three whole records and half of the fourth, as a killed run can leave it.
    let starts: Vec<usize> = text.match_indices("[Game ").map(|(i, _)| i).collect();
    let kept = &text[..starts[3]];
    std::fs::write(
        &cut,
        format!("{kept}{}", &text[starts[3]..(starts[3] + starts[4]) / 2]),
    )
    .unwrap();
    cfg.pgn = Some(cut.clone());
    cfg.resume = true;
    cfg.concurrency = 2;
    let resumed = run_match(&cfg).unwrap();
    assert_eq!(resumed.resumed, 3);
    let mut played: Vec<u32> = resumed.games.iter().map(|g| g.round).collect();
    played.sort();
    assert_eq!(played, [4, 5, 6, 7, 8]);
    // The fake engines play by position, so the pieced-together match is the whole one.
    let (a, b) = (&full.pairings[0], &resumed.pairings[0]);
    assert_eq!(a.wdl.games(), 8);
    assert_eq!(
        (a.wdl.wins, a.wdl.draws, a.wdl.losses, a.pentanomial.0),
        (b.wdl.wins, b.wdl.draws, b.wdl.losses, b.pentanomial.0)
    );
    assert_eq!(full.terminations, resumed.terminations);
    let after = std::fs::read_to_string(&cut).unwrap();
    assert!(after.starts_with(kept));
    let mut rounds = rounds_of(&after);
    rounds.sort();
    assert_eq!(rounds, (1..=8).collect::<Vec<u32>>());
    // Another schedule (other openings) is refused before any game is played.
    cfg.openings = bench_openings()[4..8].to_vec();
    let err = run_match(&cfg).err().expect("refused");
    assert!(err.contains("resume with the settings"), "{err}");
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), after);
    std::fs::remove_file(&whole).ok();
    std::fs::remove_file(&cut).ok();
}

#[test]
fn round_robin_pairs_every_engine() {
    let mut cfg = config(
        vec![
            fake("a", &[]),
            fake("b", &["--seed", "2"]),
            fake("c", &["--seed", "3", "--think", "2"]),
        ],
        2,
        Limit::Clock("2+0.02".parse().unwrap()),
    );
    cfg.openings = bench_openings()[20..21].to_vec();
    cfg.concurrency = 2;
    let result = run_match(&cfg).unwrap();
    assert_eq!(result.games.len(), 6);
    let pairs: Vec<(usize, usize)> = result
        .pairings
        .iter()
        .map(|p| (p.first, p.second))
        .collect();
    assert_eq!(pairs, [(0, 1), (0, 2), (1, 2)]);
    for p in &result.pairings {
        assert_eq!((p.wdl.games(), p.pentanomial.pairs()), (2, 1));
    }
    assert_refereed_by_rules(&result);
}

#[test]
fn engines_run_in_their_own_directory() {
    let binary = PathBuf::from(fake_engine());
    let dir = binary.parent().unwrap();
    let name = binary.file_name().unwrap().to_str().unwrap();
    let spec: EngineSpec = format!("cmd=./{name} dir={} name=local", dir.display())
        .parse()
        .unwrap();
    let result = run_match(&config(vec![spec, fake("b", &[])], 2, Limit::Depth(1))).unwrap();
    assert_refereed_by_rules(&result);
}

#[test]
fn misbehaving_engines_lose_and_the_runner_survives() {
    let tc = Limit::Clock("0.3+0".parse().unwrap());
    let cases: [(&str, &[&str], Limit, &str); 9] = [
        ("illegal", &[], Limit::Depth(1), "illegal move"),
        ("malformed", &[], Limit::Depth(1), "malformed move"),
        ("crash", &[], Limit::Depth(1), "crash"),
        ("nomove", &[], Limit::Depth(1), "no move"),
        ("resign", &["--proto", "ucci"], Limit::Depth(1), "resign"),
        ("hang", &[], tc, "unresponsive"),
        (
            "hang",
            &["--proto", "ucci"],
            Limit::Depth(1),
            "unresponsive",
        ),
        ("overstep", &[], tc, "time forfeit"),
        (
            "overstep",
            &["--proto", "ucci", "--millis"],
            tc,
            "time forfeit",
        ),
    ];
    for (mode, extra, limit, category) in cases {
        let mut args = vec!["--misbehave", mode, "--at", "2"];
        args.extend_from_slice(extra);
        let result = run_match(&config(
            vec![fake("bad", &args), fake("good", &[])],
            2,
            limit,
        ))
        .unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert_eq!(result.games.len(), 2, "{mode}");
        for g in &result.games {
            let bad_color = if g.red == 0 {
                chuhan::Color::Red
            } else {
                chuhan::Color::Black
            };
            assert_eq!(
                g.outcome.termination.category(),
                category,
                "{mode}: {}",
                g.outcome.termination
            );
            assert_eq!(
                g.outcome.result,
                GameResult::win_for(bad_color.flip()),
                "{mode}"
            );
            // The bad engine played its first move in both games, so the runner restarted it
            // after the first game when it had to.
            assert!(
                g.outcome.moves.len() >= 2,
                "{mode}: {}",
                g.outcome.moves.len()
            );
        }
        assert_eq!(result.pairings[0].wdl.losses, 2, "{mode}");
    }
}

#[test]
fn a_move_inside_the_margin_counts_and_a_stray_nobestmove_is_ignored() {
    // The engine answers 40 ms after its flag, after the runner sent `stop`; being UCCI it
    // then answers that `stop` with `nobestmove`, which must not be taken for its next reply.
    let mut cfg = config(
        vec![
            fake(
                "late",
                &[
                    "--proto",
                    "ucci",
                    "--millis",
                    "--misbehave",
                    "margin",
                    "--at",
                    "2",
                ],
            ),
            fake("prompt", &[]),
        ],
        2,
        Limit::Clock("0.3+0.1".parse().unwrap()),
    );
    cfg.rules.margin = Duration::from_millis(250);
    let result = run_match(&cfg).unwrap();
    assert_refereed_by_rules(&result);
}

#[test]
fn auto_detection_finds_uci_and_ucci_engines() {
    let mut cfg = config(
        vec![
            fake("ucci-only", &["--proto", "ucci", "--millis"]),
            fake("uci-only", &["--proto", "uci", "--seed", "3"]),
            fake("ucci-strict", &["--proto", "ucci-strict", "--seed", "5"]),
        ],
        2,
        Limit::Clock("5+0.05".parse().unwrap()),
    );
    cfg.openings = bench_openings()[10..11].to_vec();
    let result = run_match(&cfg).unwrap();
    assert_eq!(result.games.len(), 6);
    assert_refereed_by_rules(&result);
}

#[test]
fn score_adjudication_resigns_and_draws() {
    let mut cfg = config(
        vec![
            fake("gloomy", &["--score", "-1500"]),
            fake("calm", &["--score", "0"]),
        ],
        2,
        Limit::Depth(1),
    );
    cfg.rules.resign = Some("movecount=2,score=1000".parse().unwrap());
    let result = run_match(&cfg).unwrap();
    for g in &result.games {
        assert_eq!(g.outcome.termination.category(), "adjudicated resign");
    }
    assert_eq!(result.pairings[0].wdl.losses, 2);

    let mut cfg = config(
        vec![fake("a", &["--score", "3"]), fake("b", &["--score", "-3"])],
        2,
        Limit::Depth(1),
    );
    cfg.rules.draw = Some("movenumber=3,movecount=2,score=10".parse().unwrap());
    let result = run_match(&cfg).unwrap();
    for g in &result.games {
        assert_eq!(g.outcome.termination.category(), "adjudicated draw");
        assert_eq!(g.outcome.moves.len(), 6);
    }
    assert_eq!(result.pairings[0].wdl.draws, 2);
}

#[test]
fn ucci_draw_offer_and_acceptance_end_the_game() {
    let peaceful = ["--proto", "ucci", "--draw"];
    let result = run_match(&config(
        vec![fake("a", &peaceful), fake("b", &peaceful)],
        2,
        Limit::Depth(1),
    ))
    .unwrap();
    for g in &result.games {
        assert_eq!(g.outcome.termination, Termination::DrawAgreed);
        assert_eq!(
            (g.outcome.result, g.outcome.moves.len()),
            (GameResult::Draw, 2)
        );
    }
    // An offer nobody accepts changes nothing.
    let result = run_match(&config(
        vec![fake("a", &peaceful), fake("b", &["--proto", "ucci"])],
        2,
        Limit::Depth(1),
    ))
    .unwrap();
    assert_refereed_by_rules(&result);
}

#[test]
fn sprt_stops_the_match_once_decided() {
    let mut cfg = config(
        vec![fake("greedy", &[]), fake("random", &["--weak"])],
        200,
        Limit::Depth(1),
    );
    cfg.sprt = Some("elo0=0,elo1=300".parse::<Sprt>().unwrap());
    let result = run_match(&cfg).unwrap();
    let (llr, decision) = result.sprt.unwrap();
    assert_eq!(decision, SprtDecision::H1, "LLR {llr}");
    assert!(result.games.len() < 200, "{}", result.games.len());
    let p = &result.pairings[0];
    assert!(p.wdl.wins > p.wdl.losses, "{:?}", p.wdl);
}

#[test]
fn cli_plays_a_match_and_reports() {
    let pgn = temp_path("cli.pgn");
    let out = Command::cargo_bin("chuhan")
        .unwrap()
        .args([
            "match",
            "--engine",
            &format!("cmd={}", fake_engine()),
            "name=alpha",
        ])
        .args([
            "--engine",
            &format!("cmd={}", fake_engine()),
            "name=beta",
            "arg=--seed",
            "arg=5",
        ])
        .args(["--games", "2", "--depth", "1", "--seed", "3"])
        .args([
            "--openings",
            concat!(env!("CARGO_MANIFEST_DIR"), "/bench-positions/openings.epd"),
        ])
        .arg("--pgn")
        .arg(&pgn)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("alpha vs beta (depth 1): 2 games"),
        "{stdout}"
    );
    assert!(
        stdout.contains("pentanomial [LL LD DD/WL WD WW]"),
        "{stdout}"
    );
    assert!(stdout.contains("terminations: "), "{stdout}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_file(&pgn).ok();
    assert_eq!(text.matches("[Red \"alpha\"]").count(), 1);
    assert_eq!(text.matches("[Red \"beta\"]").count(), 1);

    Command::cargo_bin("chuhan")
        .unwrap()
        .args([
            "match",
            "--engine",
            "cmd=/nonexistent/engine",
            "--engine",
            &format!("cmd={}", fake_engine()),
        ])
        .args(["--depth", "1"])
        .assert()
        .code(2);
}

/// The processes whose parent is `pid` (Linux: from /proc).
#[cfg(target_os = "linux")]
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // pid (comm) state ppid …: the command may hold spaces, so read after the last ')'.
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let ppid: u32 = after.split(' ').nth(1).unwrap().parse().unwrap();
        if ppid == pid {
            out.push(child);
        }
    }
    out
}

#[cfg(target_os = "linux")]
#[test]
fn a_signalled_runner_ends_its_engines_and_keeps_the_finished_games() {
    let pgn = temp_path("signalled.pgn");
    let runner = std::process::Command::new(SELF_MATCH_ENGINE)
        .args(["match", "--engine"])
        .arg(format!("cmd={}", fake_engine()))
        .args(["name=a", "arg=--think", "arg=5", "--engine"])
        .arg(format!("cmd={}", fake_engine()))
        .args(["name=b", "arg=--think", "arg=5", "arg=--seed", "arg=4"])
        .args([
            "--games",
            "400",
            "--depth",
            "1",
            "--concurrency",
            "2",
            "--pgn",
        ])
        .arg(&pgn)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait (bounded) for a finished game in the PGN and for both games' engines to be up.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let engines = loop {
        let done = std::fs::read_to_string(&pgn).is_ok_and(|t| t.contains("[Result "));
        let kids = children_of(runner.id());
        if done && kids.len() >= 4 {
            break kids;
        }
        assert!(std::time::Instant::now() < deadline, "no game finished");
        std::thread::yield_now();
    };
    let status = std::process::Command::new("kill")
        .args(["-TERM", &runner.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = runner.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("a vs b (depth 1): "), "{report}");
    for pid in engines {
        assert!(
            !std::path::Path::new(&format!("/proc/{pid}")).exists(),
            "engine {pid} outlived the runner"
        );
    }
    // Every game in the PGN is whole: as many results as games, none of them interrupted.
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_file(&pgn).ok();
    let games = text.matches("[Event ").count();
    assert!((1..400).contains(&games));
    assert_eq!(text.matches("[Result ").count(), games);
    assert!(!text.contains("interrupted"), "{text}");
}

#[test]
fn engine_stderr_is_kept_and_paths_may_hold_spaces() {
    let dir = temp_path("engine logs");
    std::fs::create_dir_all(&dir).unwrap();
    // The fake engine under a name with spaces and a comma.
    let spaced = dir.join("fake, engine");
    std::fs::copy(fake_engine(), &spaced).unwrap();
    let own = dir.join("a's own.log");
    Command::cargo_bin("chuhan")
        .unwrap()
        .args(["match", "--engine"])
        .arg(format!("cmd={}", spaced.display()))
        .args(["name=a", "arg=--stderr", "arg=hello from a"])
        .arg(format!("stderr={}", own.display()))
        .args(["--engine"])
        .arg(format!("cmd={}", spaced.display()))
        .args(["name=b", "arg=--stderr", "arg=hello from b"])
        .args(["--games", "2", "--depth", "1", "--log-dir"])
        .arg(dir.join("logs"))
        .assert()
        .success();
    let a = std::fs::read_to_string(&own).unwrap();
    assert!(a.contains("hello from a"), "{a}");
    let b = std::fs::read_to_string(dir.join("logs").join("b.stderr")).unwrap();
    assert!(b.contains("hello from b"), "{b}");
    assert!(!dir.join("logs").join("a.stderr").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The moves and result of each round of a PGN file, by round.
fn games_by_round(path: &Path) -> std::collections::BTreeMap<u32, (Vec<String>, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let (games, problems) = chuhan::tools::pgn::reader::read_games(&text);
    assert!(problems.is_empty(), "{problems:?}");
    games
        .iter()
        .map(|g| {
            let round = g.tag("Round").unwrap().parse().unwrap();
            let moves = g.moves.iter().map(|m| m.to_string()).collect();
            (round, (moves, g.tag("Result").unwrap().to_string()))
        })
        .collect()
}

#[test]
fn shards_play_the_whole_match_game_for_game_and_merge_reports_it() {
    let mut cfg = config(
        vec![fake("a", &[]), fake("b", &["--seed", "2"])],
        10,
        Limit::Depth(1),
    );
    cfg.openings = bench_openings()[..5].to_vec();
    let whole = temp_path("shard-whole.pgn");
    cfg.pgn = Some(whole.clone());
    let full = run_match(&cfg).unwrap();
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = temp_path(&format!("shard-{k}.pgn"));
        cfg.pgn = Some(part.clone());
        cfg.shard = Some(chuhan::tools::shard::Shard { index: k, count: 3 });
        let r = run_match(&cfg).unwrap();
        // Five opening pairs in three shards: 1, 2 and 2 pairs, each with both its games.
        assert_eq!(r.games.len(), [2, 4, 4][k as usize - 1]);
        parts.push(part);
    }
    let mut joined = std::collections::BTreeMap::new();
    for p in &parts {
        joined.extend(games_by_round(p));
    }
    assert_eq!(
        joined,
        games_by_round(&whole),
        "the shards are the whole match"
    );
    let merged = |files: &[&PathBuf]| {
        Command::cargo_bin("chuhan")
            .unwrap()
            .arg("match")
            .arg("merge")
            .args(files)
            .output()
            .unwrap()
    };
    let out = merged(&[&parts[2], &parts[0], &parts[1]]);
    assert!(out.status.success());
    let report = String::from_utf8(out.stdout).unwrap();
    let whole_report = chuhan::tools::matches::report::format_report(&full, None, "depth 1");
    assert_eq!(report, whole_report);
    let twice = merged(&[&parts[0], &parts[1], &parts[1]]);
    assert!(!twice.status.success());
    assert!(String::from_utf8_lossy(&twice.stderr).contains("given twice"));
    for p in parts.iter().chain([&whole]) {
        std::fs::remove_file(p).ok();
    }
}

#[test]
fn pondering_leaves_the_games_as_they_were_and_hits_and_misses_are_both_served() {
    // The fake engine's moves do not depend on time, so pondering must not change a game; a
    // fake that guesses with its opponent's seed predicts every reply.
    let play = |ponder: bool, guess: &str, log: &Path| {
        let mut a: EngineSpec = format!(
            "cmd={} name=a arg=--guess-seed arg={guess} stderr={}",
            fake_engine(),
            log.display()
        )
        .parse()
        .unwrap();
        a.ponder = ponder;
        let mut cfg = config(
            vec![a, fake("b", &["--seed", "2"])],
            4,
            Limit::Clock("20+0.1".parse().unwrap()),
        );
        cfg.openings = bench_openings()[..2].to_vec();
        run_match(&cfg).unwrap()
    };
    let moves_of = |r: &MatchResult| -> Vec<Vec<String>> {
        r.games
            .iter()
            .map(|g| g.outcome.moves.iter().map(|m| m.mv.to_string()).collect())
            .collect()
    };
    let count = |log: &Path, what: &str| {
        std::fs::read_to_string(log)
            .unwrap_or_default()
            .lines()
            .filter(|l| *l == what)
            .count()
    };
    let plain = play(false, "2", &temp_path("ponder-off.log"));
    let (hit_log, miss_log) = (temp_path("ponder-hits.log"), temp_path("ponder-misses.log"));
    let hits = play(true, "2", &hit_log);
    let misses = play(true, "3", &miss_log);
    assert_eq!(moves_of(&hits), moves_of(&plain));
    assert_eq!(moves_of(&misses), moves_of(&plain));
    for r in [&plain, &hits, &misses] {
        assert_refereed_by_rules(r);
    }
    // Every move of `a` but its first in a game followed a correct guess.
    let a_moves: usize = hits
        .games
        .iter()
        .map(|g| {
            let n = g.outcome.moves.len();
            let a_first = (g.red == 0) == (g.start.side_to_move() == chuhan::Color::Red);
            if a_first { n.div_ceil(2) } else { n / 2 }
        })
        .sum();
    assert_eq!(count(&hit_log, "ponderhit"), a_moves - hits.games.len());
    assert!(count(&miss_log, "ponder miss") > 0);
    assert!(count(&miss_log, "ponder miss") > count(&miss_log, "ponderhit"));
    for p in [&hit_log, &miss_log] {
        std::fs::remove_file(p).ok();
    }
}

#[test]
fn an_spsa_iteration_played_in_shards_moves_the_values_as_the_whole_iteration_does() {
    let spsa = |log: &Path, extra: &[&str]| {
        Command::cargo_bin("chuhan")
            .unwrap()
            .args(["tune", "spsa", "--engine"])
            .arg(format!("cmd={}", fake_engine()))
            .args(["--depth", "1", "--games", "4", "--iterations", "2"])
            .args(["--params", "lmr_divisor,futility_base"])
            .args(["--openings", "bench-positions/openings.epd", "--log"])
            .arg(log)
            .args(extra)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    };
    let (whole, sharded) = (temp_path("spsa-whole.log"), temp_path("spsa-shards.log"));
    let out = spsa(&whole, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut shards_of = Vec::new();
    for k in 1..=2 {
        let pgns: Vec<String> = (1..=2)
            .map(|s| {
                temp_path(&format!("spsa-{k}-{s}.pgn"))
                    .display()
                    .to_string()
            })
            .collect();
        for (s, pgn) in pgns.iter().enumerate() {
            let shard = format!("{}/2", s + 1);
            let out = spsa(&sharded, &["--shard", &shard, "--pgn", pgn]);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        // One shard alone is not the iteration, nor is a shard given twice.
        let one = spsa(&sharded, &["--record", &pgns[0]]);
        assert!(!one.status.success());
        let twice = spsa(&sharded, &["--record", &pgns[0], &pgns[0], &pgns[1]]);
        assert!(!twice.status.success());
        let out = spsa(&sharded, &["--record", &pgns[1], &pgns[0]]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        shards_of.push(pgns);
    }
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    assert_eq!(read(&whole).lines().count(), 2);
    assert_eq!(read(&sharded), read(&whole));
    // The first iteration's games are not the third's.
    let stale = Command::cargo_bin("chuhan")
        .unwrap()
        .args(["tune", "spsa", "--engine"])
        .arg(format!("cmd={}", fake_engine()))
        .args(["--depth", "1", "--games", "4", "--iterations", "3"])
        .args(["--params", "lmr_divisor,futility_base", "--log"])
        .arg(&sharded)
        .arg("--record")
        .args(&shards_of[0])
        .output()
        .unwrap();
    assert!(!stale.status.success());
    assert!(String::from_utf8_lossy(&stale.stderr).contains("not of iteration 3"));
    for p in shards_of.iter().flatten() {
        std::fs::remove_file(p).ok();
    }
    for p in [&whole, &sharded] {
        std::fs::remove_file(p).ok();
    }
}
