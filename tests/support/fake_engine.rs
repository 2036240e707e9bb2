//! A scriptable engine for the match runner's tests. It answers the UCI and/or UCCI handshake,
//! plays legal moves (mate in one, else the biggest capture, else a seeded pseudo-random move)
//! and, on its N-th move of each game, misbehaves as told:
//!
//! `fake-engine [--proto uci|ucci|ucci-strict|both] [--millis] [--misbehave MODE] [--at N] [--seed S]
//! [--guess-seed S] [--score CP] [--think MS] [--weak] [--draw] [--stderr TEXT]` (`--weak`: seeded
//! random moves only; `--draw`: every UCCI `bestmove` offers a draw; every `bestmove` names as
//! its ponder move what a fake engine of seed `--guess-seed`, by default its own, would reply;
//! it logs `ponderhit` and `ponder miss` to stderr), MODE one of `legal` (default), `illegal`, `malformed`, `hang`, `crash`,
//! `overstep` (answers 300 ms after its clock ran out), `nomove` (`nobestmove` or
//! `bestmove (none)`), `resign` (`bestmove <move> resign`), `margin` (answers 40 ms after its
//! clock ran out, inside a lag margin). Like a UCCI engine, it answers `stop` when idle with
//! `nobestmove`. `ucci-strict` exits when the
//! first line is not `ucci`, as ElephantEye does.
//!
//! An example rather than a [[bin]], so `cargo install` and `cargo run` see chuhan alone;
//! `cargo test` builds it beside the binaries, where `tests/match_runner.rs` finds it. It sits
//! under tests/ because it is test support, not a product.

use std::io::{BufRead, Write};
use std::time::Duration;

use chuhan::board::{Move, PieceType, Square};
use chuhan::{Color, Position};

struct Config {
    strict: bool,
    uci: bool,
    ucci: bool,
    offer_millis: bool,
    misbehave: String,
    at: u32,
    seed: u64,
    score: Option<i32>,
    /// Milliseconds spent on every move, to look like a searching engine.
    think_ms: u64,
    /// Pick moves at random, ignoring mates and captures.
    weak: bool,
    /// Offer a draw with every move (UCCI).
    draw: bool,
    /// The seed of the opponent it expects, for the ponder move.
    guess_seed: Option<u64>,
}

fn parse_args() -> Config {
    let mut c = Config {
        strict: false,
        uci: true,
        ucci: true,
        offer_millis: false,
        misbehave: "legal".into(),
        at: 1,
        seed: 1,
        score: None,
        think_ms: 0,
        weak: false,
        draw: false,
        guess_seed: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--proto" => {
                c.strict = value == "ucci-strict";
                c.uci = value == "uci" || value == "both";
                c.ucci = value != "uci";
                i += 1;
            }
            "--millis" => c.offer_millis = true,
            "--weak" => c.weak = true,
            "--draw" => c.draw = true,
            "--misbehave" => {
                c.misbehave = value;
                i += 1;
            }
            "--at" => {
                c.at = value.parse().expect("--at N");
                i += 1;
            }
            "--seed" => {
                c.seed = value.parse().expect("--seed S");
                i += 1;
            }
            "--guess-seed" => {
                c.guess_seed = Some(value.parse().expect("--guess-seed S"));
                i += 1;
            }
            "--think" => {
                c.think_ms = value.parse().expect("--think MS");
                i += 1;
            }
            "--score" => {
                c.score = Some(value.parse().expect("--score CP"));
                i += 1;
            }
            // Writes its value to stderr once (for the runner's stderr logs).
            "--stderr" => {
                eprintln!("{value}");
                i += 1;
            }
            other => panic!("unknown argument {other}"),
        }
        i += 1;
    }
    c
}

fn value(k: PieceType) -> i32 {
    match k {
        PieceType::King => 10_000,
        PieceType::Rook => 900,
        PieceType::Cannon => 450,
        PieceType::Horse => 400,
        PieceType::Advisor | PieceType::Elephant => 200,
        PieceType::Pawn => 100,
    }
}

fn material(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    PieceType::ALL
        .iter()
        .filter(|&&k| k != PieceType::King)
        .map(|&k| value(k) * (pos.count(us, k) as i32 - pos.count(us.flip(), k) as i32))
        .sum()
}

/// Mate in one, else the most valuable capture, else a move picked by the position's key
/// (`weak`: always the latter).
fn choose(pos: &Position, seed: u64, weak: bool) -> Option<Move> {
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let hash = (pos.key() ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 17;
    let random = moves.get(hash as usize % moves.len().max(1)).copied();
    if weak {
        return random;
    }
    let mates = moves.iter().copied().find(|&m| {
        let mut p = pos.clone();
        p.do_move(m);
        p.has_no_legal_move()
    });
    let capture = moves
        .iter()
        .copied()
        .filter(|&m| pos.is_capture(m))
        .max_by_key(|&m| value(pos.piece_at(m.to()).kind()));
    mates.or(capture).or(random)
}

/// A move of our own piece that is not legal (a king walking off, a piece through others).
fn illegal_move(pos: &Position) -> Move {
    let us = pos.side_to_move();
    let from = pos.king_square(us);
    (0..Square::COUNT)
        .map(Square::from_index)
        .map(|to| Move::new(from, to))
        .find(|&m| m.from() != m.to() && !pos.is_legal(m) && pos.piece_at(m.to()).is_none())
        .expect("a king cannot reach every empty square")
}

/// Milliseconds left on our clock, from a `go` line.
fn own_time_ms(go: &str, side: Color, millis: bool, ucci: bool) -> u64 {
    let words: Vec<&str> = go.split_whitespace().collect();
    let key = if ucci {
        "time"
    } else if side == Color::Red {
        "wtime"
    } else {
        "btime"
    };
    let find = |k: &str| {
        words
            .windows(2)
            .find(|w| w[0] == k)
            .and_then(|w| w[1].parse::<u64>().ok())
    };
    let t = find(key).or_else(|| find("movetime")).unwrap_or(0);
    if ucci && !millis { t * 1000 } else { t }
}

fn main() {
    let cfg = parse_args();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut pos = Position::startpos();
    let mut ucci = false;
    let mut millis = false;
    let mut moves_made = 0u32;
    let mut hung = false;
    let mut pondering = false;
    for (n, line) in stdin.lock().lines().enumerate() {
        let Ok(line) = line else { break };
        if cfg.strict && n == 0 && line.trim() != "ucci" {
            return;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut say = |s: &str| {
            writeln!(out, "{s}").and_then(|()| out.flush()).ok();
        };
        match words.first().copied() {
            Some("quit") => break,
            _ if hung => {}
            Some("uci") if cfg.uci => {
                say("id name fake");
                say("option name Hash type spin default 1 min 1 max 1024");
                say("uciok");
            }
            Some("ucci") if cfg.ucci => {
                ucci = true;
                say("id name fake");
                if cfg.offer_millis {
                    say("option usemillisec type check default false");
                }
                say("ucciok");
            }
            Some("isready") => say("readyok"),
            Some("stop") if pondering => {
                pondering = false;
                eprintln!("ponder miss");
                match choose(&pos, cfg.seed, cfg.weak) {
                    Some(m) => say(&format!("bestmove {m}")),
                    None => say("bestmove (none)"),
                }
            }
            Some("stop") if ucci => say("nobestmove"),
            Some("ucinewgame") => moves_made = 0,
            Some("setoption") if words.get(1) == Some(&"newgame") => moves_made = 0,
            Some("setoption") if words.get(1) == Some(&"usemillisec") => {
                millis = words.get(2) == Some(&"true");
            }
            Some("position") if words.get(1) == Some(&"fen") => {
                let moves_at = words.iter().position(|w| *w == "moves");
                let fen = words[2..moves_at.unwrap_or(words.len())].join(" ");
                pos = Position::from_fen(&fen).expect("runner sends good FEN");
                for m in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
                    let mv = pos.parse_move(m).expect("runner sends legal moves");
                    pos.do_move(mv);
                }
            }
            Some("go") if words.get(1) == Some(&"ponder") => pondering = true,
            Some("go") | Some("ponderhit") => {
                if pondering {
                    pondering = false;
                    eprintln!("ponderhit");
                }
                moves_made += 1;
                let mode = if moves_made == cfg.at {
                    cfg.misbehave.as_str()
                } else {
                    "legal"
                };
                let Some(best) = choose(&pos, cfg.seed, cfg.weak) else {
                    say(if ucci {
                        "nobestmove"
                    } else {
                        "bestmove (none)"
                    });
                    continue;
                };
                std::thread::sleep(Duration::from_millis(cfg.think_ms));
                let guess = {
                    let mut after = pos.clone();
                    after.do_move(best);
                    choose(&after, cfg.guess_seed.unwrap_or(cfg.seed), cfg.weak)
                };
                let best = match guess {
                    Some(g) => format!("{best} ponder {g}"),
                    None => best.to_string(),
                };
                let score = cfg.score.unwrap_or_else(|| material(&pos));
                say(&if ucci {
                    format!("info depth 1 score {score} pv {best}")
                } else {
                    format!("info depth 1 score cp {score} nodes 1 pv {best}")
                });
                match mode {
                    "illegal" => say(&format!("bestmove {}", illegal_move(&pos))),
                    "malformed" => say("bestmove z9z9x"),
                    "hang" => hung = true,
                    "crash" => std::process::exit(3),
                    "resign" => say(&format!("bestmove {best} resign")),
                    "nomove" => say(if ucci {
                        "nobestmove"
                    } else {
                        "bestmove (none)"
                    }),
                    "overstep" | "margin" => {
                        let t = own_time_ms(&line, pos.side_to_move(), millis, ucci);
                        let late = if mode == "margin" { 40 } else { 300 };
                        std::thread::sleep(Duration::from_millis(t + late));
                        say(&format!("bestmove {best}"));
                    }
                    _ if cfg.draw && ucci => say(&format!("bestmove {best} draw")),
                    _ => say(&format!("bestmove {best}")),
                }
            }
            _ => {}
        }
    }
}
