//! UCI end to end: the built binary driven over pipes as a GUI would.

mod common;

use std::time::Duration;

use chuhan::Position;
use common::{Engine, MATED_FEN, PROMPT, STALEMATED_FEN, best_of, is_bestmove};

fn legal_in(fen: &str, moves: &[&str], best: &str) -> bool {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves {
        let mv = pos.parse_move(m).unwrap();
        pos.do_move(mv);
    }
    pos.parse_move(best).is_ok()
}

#[test]
fn handshake_lists_the_options_and_no_variant() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok", PROMPT);
    assert!(lines[0].starts_with("id name chuhan"));
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for option in [
        "option name Hash type spin default 64 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 128",
        "option name Ponder type check",
        "option name Move Overhead type spin",
        "option name Clear Hash type button",
        "option name Move Limit type spin default 120 min 0 max 1000",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default ",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(option)),
            "missing {option}"
        );
    }
    assert!(!lines.iter().any(|l| l.contains("UCI_Variant")));
}

#[test]
fn show_wdl_adds_chances_that_sum_to_1000() {
    let mut e = Engine::with_handshake("uci");
    let infos = |e: &mut Engine| {
        e.send("position startpos moves h2e2");
        e.send("go depth 5");
        let lines = e.until(is_bestmove, PROMPT);
        lines
            .into_iter()
            .filter(|l| l.starts_with("info depth"))
            .collect::<Vec<_>>()
    };
    assert!(infos(&mut e).iter().all(|l| !l.contains(" wdl ")));
    e.send("setoption name UCI_ShowWDL value true");
    let lines = infos(&mut e);
    assert!(!lines.is_empty());
    for l in &lines {
        let words: Vec<&str> = l.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "wdl").expect("a wdl field");
        assert!(words[..at].contains(&"score"), "{l}");
        let wdl: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{l}");
        // The chances lean the way the score does.
        let score = words.iter().position(|w| *w == "score").unwrap();
        let value: i32 = words[score + 2].parse().unwrap();
        match words[score + 1] {
            "mate" if value > 0 => assert_eq!(wdl, [1000, 0, 0], "{l}"),
            "mate" => assert_eq!(wdl, [0, 0, 1000], "{l}"),
            _ if value > 0 => assert!(wdl[0] >= wdl[2], "{l}"),
            _ if value < 0 => assert!(wdl[0] <= wdl[2], "{l}"),
            _ => assert_eq!(wdl[0], wdl[2], "{l}"),
        }
    }
    e.send("setoption name UCI_ShowWDL value false");
    assert!(infos(&mut e).iter().all(|l| !l.contains(" wdl ")));
}

#[test]
fn limited_strength_plays_legal_moves_under_a_clock() {
    let mut e = Engine::with_handshake("uci");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1");
    let lines = e.until(|l| l.starts_with("info string"), PROMPT);
    assert!(lines[0].contains("out of range"), "{lines:?}");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..6 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go wtime 1000 btime 1000 winc 10 binc 10");
        let lines = e.until(is_bestmove, PROMPT);
        let best = best_of(lines.last().unwrap()).to_string();
        let played: Vec<&str> = moves.iter().map(String::as_str).collect();
        assert!(legal_in(chuhan::START_FEN, &played, &best), "{best}");
        moves.push(best);
    }
}

#[test]
fn options_and_new_game_are_accepted_silently() {
    let mut e = Engine::with_handshake("uci");
    for line in [
        "setoption name Hash value 16",
        "setoption name Threads value 2",
        "setoption name MultiPV value 1",
        "setoption name Ponder value true",
        "setoption name Move Overhead value 50",
        "setoption name Move Limit value 0",
        "setoption name Clear Hash",
        "ucinewgame",
        "debug off",
    ] {
        e.send(line);
    }
    let lines = e.sync();
    assert_eq!(lines, ["readyok"], "unexpected replies");
}

#[test]
fn position_with_moves_and_red_side_letter() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos moves h2e2 h9g7");
    let after = e.fen();
    assert!(after.starts_with("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w"));
    // uci2wb: no `position` keyword, side `r`.
    e.send("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves b0c2");
    assert!(e.fen().contains("/R1BAKABNR b "));
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert_eq!(e.fen(), chuhan::START_FEN);
}

#[test]
fn illegal_move_refuses_the_whole_position() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos moves h2e2");
    let kept = e.fen();
    e.send("position startpos moves b0c2 h9g7 c2c2");
    let reply = e.sync();
    assert_eq!(reply.len(), 2, "{reply:?}");
    assert!(reply[0].starts_with("info string position refused"));
    assert_eq!(e.fen(), kept);
}

#[test]
fn go_depth_answers_a_legal_move_after_its_last_info() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    let lines = e.until(is_bestmove, PROMPT);
    let best = lines.last().unwrap();
    assert!(legal_in(chuhan::START_FEN, &["h2e2"], best_of(best)));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty(), "no info before bestmove: {lines:?}");
    // Full UCI info line, in this order.
    let last = infos.last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    let keys = [
        "info", "depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
    ];
    let at: Vec<Option<usize>> = keys
        .iter()
        .map(|k| words.iter().position(|w| w == k))
        .collect();
    assert!(at.iter().all(Option::is_some), "a key is missing in {last}");
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "keys out of order in {last}"
    );
    assert!(last.contains(" score cp ") || last.contains(" score mate "));
    let pv_first = last
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert_eq!(
        pv_first,
        best_of(best),
        "bestmove is not the PV's first move"
    );
}

#[test]
fn ponder_move_is_legal_after_the_best_move() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos");
    e.send("go depth 4");
    let best = e.until(is_bestmove, PROMPT).pop().unwrap();
    let words: Vec<&str> = best.split_whitespace().collect();
    assert_eq!(words.get(2), Some(&"ponder"), "no ponder move: {best}");
    assert!(legal_in(chuhan::START_FEN, &[words[1]], words[3]));
}

#[test]
fn clock_depth_nodes_mate_limits_all_end_in_a_legal_move() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos");
    for go in [
        "go btime 60000 wtime 60000 binc 1000 winc 1000",
        "go wtime 5000 btime 5000 movestogo 20",
        "go nodes 5000",
        "go depth 2",
        "go mate 2 movetime 500",
        "go movetime 100",
    ] {
        e.send(go);
        let best = e.until(is_bestmove, PROMPT).pop().unwrap();
        assert!(
            legal_in(chuhan::START_FEN, &[], best_of(&best)),
            "{go}: {best}"
        );
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos");
    e.send("go depth 3 searchmoves a3a4 i3i4");
    let best = e.until(is_bestmove, PROMPT).pop().unwrap();
    assert!(["a3a4", "i3i4"].contains(&best_of(&best)), "{best}");
}

/// `isready` is answered while a search runs and `stop` ends it (how fast: the latencies
/// `scripts/protocol-timing.py` measures).
#[test]
fn isready_and_stop_are_answered_during_a_search() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos");
    for _ in 0..3 {
        e.send("go infinite");
        e.holds_bestmove(4);
        e.send("stop");
        let best = e.until(is_bestmove, PROMPT).pop().unwrap();
        assert!(legal_in(chuhan::START_FEN, &[], best_of(&best)), "{best}");
    }
}

#[test]
fn infinite_search_waits_for_stop() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos");
    e.send("go infinite depth 1");
    e.holds_bestmove(1);
    e.send("stop");
    e.until(is_bestmove, PROMPT);
}

#[test]
fn ponder_holds_bestmove_until_ponderhit_or_stop() {
    let mut e = Engine::with_handshake("uci");
    e.send("setoption name Ponder value true");
    e.send("position startpos moves h2e2");
    for release in ["ponderhit", "stop"] {
        e.send("go ponder depth 1 wtime 1000 btime 1000");
        e.holds_bestmove(1);
        e.send(release);
        let best = e.until(is_bestmove, PROMPT).pop().unwrap();
        assert!(legal_in(chuhan::START_FEN, &["h2e2"], best_of(&best)));
    }
}

#[test]
fn multipv_reports_several_lines() {
    let mut e = Engine::with_handshake("uci");
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until(is_bestmove, PROMPT);
    for k in 1..=3 {
        assert!(
            lines.iter().any(|l| l.contains(&format!(" multipv {k} "))),
            "no multipv {k}: {lines:?}"
        );
    }
}

#[test]
fn no_legal_move_is_bestmove_none_after_a_mate_score() {
    for fen in [MATED_FEN, STALEMATED_FEN] {
        let pos = Position::from_fen(fen).unwrap();
        assert!(pos.legal_moves().is_empty(), "{fen} has moves");
        let mut e = Engine::with_handshake("uci");
        e.send(&format!("position fen {fen}"));
        e.send("go depth 5");
        let lines = e.until(is_bestmove, PROMPT);
        let n = lines.len();
        assert_eq!(lines[n - 1], "bestmove (none)");
        assert_eq!(lines[n - 2], "info depth 0 score mate 0");
    }
    assert!(Position::from_fen(MATED_FEN).unwrap().in_check());
    assert!(!Position::from_fen(STALEMATED_FEN).unwrap().in_check());
}

#[test]
fn quit_during_a_search_exits() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos");
    e.send("go infinite");
    e.sync();
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(2)));
}

#[test]
fn display_and_perft_commands() {
    let mut e = Engine::with_handshake("uci");
    e.send("position startpos moves h2e2");
    e.send("d");
    let board = e.until(|l| l.starts_with("Key: "), PROMPT);
    assert!(board.iter().any(|l| l.contains("FEN: ")));
    e.send("d cn");
    let board = e.until(|l| l.starts_with("Key: "), PROMPT);
    assert!(board.iter().any(|l| l.contains('帅')));
    e.send("perft 2");
    let report = e.until(|l| l.starts_with("Nodes searched"), PROMPT);
    let mut pos = Position::from_fen(&e.fen()).unwrap();
    assert_eq!(
        report.last().unwrap(),
        &format!("Nodes searched: {}", chuhan::movegen::perft(&mut pos, 2))
    );
    e.send("go perft 1");
    let report = e.until(|l| l.starts_with("Nodes searched"), PROMPT);
    assert_eq!(
        report.last().unwrap(),
        &format!("Nodes searched: {}", pos.legal_moves().len())
    );
}

#[test]
fn bench_command_is_deterministic_and_ends_with_nodes_and_speed() {
    let mut e = Engine::with_handshake("uci");
    let mut counts = Vec::new();
    for _ in 0..2 {
        e.send("bench 4");
        let report = e.until(|l| l.starts_with("Nodes/second: "), PROMPT);
        let nodes = &report[report.len() - 2];
        assert!(nodes.starts_with("Nodes searched: "), "{report:?}");
        counts.push(nodes.clone());
    }
    assert_eq!(counts[0], counts[1]);
    let want = chuhan::bench::bench(
        4,
        Some(chuhan::eval::nnue::default_net()),
        chuhan::search::params::Params::default(),
    )
    .nodes;
    assert_eq!(counts[0], format!("Nodes searched: {want}"));
}

/// The search parameters are hidden options: not in the handshake, but each one set reaches
/// the search (the bench's node count moves) and setting it back restores it; UCCI spells it
/// the same.
#[test]
fn hidden_search_parameters_reach_the_search() {
    let bench_nodes = |greeting: &str, setup: &[&str]| {
        let mut e = Engine::with_handshake(greeting);
        for line in setup {
            e.send(line);
        }
        e.send("bench 5");
        let lines = e.until(|l| l.starts_with("Nodes/second"), Duration::from_secs(120));
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .expect("a node count")
            .parse::<u64>()
            .unwrap()
    };
    let default = bench_nodes("uci", &[]);
    let changed = bench_nodes("uci", &["setoption name RFP_margin value 40"]);
    assert_ne!(default, changed);
    let back = [
        "setoption name rfp_margin value 40",
        "setoption name rfp_margin value 90",
    ];
    assert_eq!(bench_nodes("uci", &back), default);
    assert_eq!(bench_nodes("ucci", &["setoption rfp_margin 40"]), changed);
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok", PROMPT);
    assert!(lines.iter().all(|l| !l.contains("rfp_margin")), "{lines:?}");
}
