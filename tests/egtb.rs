//! Endgame tables end to end: `chuhan egtb build` writes the tables of a few materials (and of
//! the smaller ones their captures lead to); every table is then checked against its own moves
//! (each verdict is exactly the best over the verdicts its moves reach), random positions
//! against a plain exhaustive search, and `chuhan egtb probe` against the tables. The engine
//! then plays from them (`EGTB Path`), at the root and in its tree, and `chuhan match --egtb`
//! adjudicates by them.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use assert_cmd::Command;
use chuhan::Position;
use chuhan::egtb::index::Layout;
use chuhan::egtb::{Material, Tablebase, Verdict, plan};
use chuhan::rng::Rng;
use common::{Engine, PROMPT, best_of, is_bestmove};

const MATERIALS: [&str; 5] = ["KRKA", "KHKA", "KCKA", "KPKA", "KCAKAA"];

/// Builds the tables of `materials` (and what their captures lead to) into a fresh folder.
fn build(name: &str, materials: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-egtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::cargo_bin("chuhan")
        .unwrap()
        .args(["egtb", "build", "--out"])
        .arg(&dir)
        .args(materials)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// The folder the tables of `MATERIALS` were built into, once for every test.
fn tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| build("small", &MATERIALS))
}

fn every_table() -> Vec<Material> {
    let named: Vec<Material> = MATERIALS
        .iter()
        .map(|m| Material::parse(m).unwrap())
        .collect();
    plan(&named)
}

/// The best verdict over the moves of `pos`, by the tables (a loss now with no move).
fn by_moves(base: &Tablebase, pos: &Position) -> Verdict {
    let mut best: Option<Verdict> = None;
    for &m in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.do_move(m);
        let v = base.probe(&child).unwrap().before_move();
        best = Some(best.map_or(v, |b| b.better(v)));
    }
    best.unwrap_or(Verdict::Loss(0))
}

#[test]
fn every_verdict_is_the_best_its_moves_reach() {
    let (base, errors) = Tablebase::open(tables());
    assert!(errors.is_empty(), "{errors:?}");
    for material in every_table() {
        let layout = Layout::new(material);
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for i in 0..layout.size() {
            let Some(pos) = layout.decode(i) else {
                continue;
            };
            if layout.encode(&pos, false) != i || pos.is_attacked_king(pos.side_to_move().flip()) {
                continue;
            }
            let v = base.probe(&pos).unwrap();
            assert_eq!(v, by_moves(&base, &pos), "{material}: {}", pos.to_fen());
            match v {
                Verdict::Win(_) => wins += 1,
                Verdict::Draw => draws += 1,
                Verdict::Loss(_) => losses += 1,
            }
        }
        assert!(wins + draws + losses > 0, "{material}");
    }
}

/// Plain minimax over every legal move to `depth` plies: the verdict when a mate is forced
/// within it, else `None`.
fn solve(pos: &Position, depth: u16) -> Option<Verdict> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(Verdict::Loss(0));
    }
    if depth == 0 {
        return None;
    }
    let (mut best_win, mut longest_loss, mut all_lose) = (None::<u16>, 0, true);
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.do_move(m);
        match solve(&child, depth - 1) {
            Some(Verdict::Loss(n)) => best_win = Some(best_win.map_or(n + 1, |w| w.min(n + 1))),
            Some(Verdict::Win(n)) => longest_loss = longest_loss.max(n + 1),
            _ => all_lose = false,
        }
    }
    match best_win {
        Some(n) => Some(Verdict::Win(n)),
        None if all_lose => Some(Verdict::Loss(longest_loss)),
        None => None,
    }
}

#[test]
fn random_positions_agree_with_an_exhaustive_search() {
    const DEPTH: u16 = 5;
    let (base, errors) = Tablebase::open(tables());
    assert!(errors.is_empty(), "{errors:?}");
    let mut rng = Rng::new(7);
    let mut mates = 0;
    for name in ["KRK", "KHK", "KPK", "KRKA", "KHKA"] {
        let layout = Layout::new(Material::parse(name).unwrap());
        let mut tried = 0;
        while tried < 40 {
            let i = rng.next_u64() % layout.size();
            let Some(pos) = layout.decode(i) else {
                continue;
            };
            if pos.is_attacked_king(pos.side_to_move().flip()) {
                continue;
            }
            tried += 1;
            let table = base.probe(&pos).unwrap();
            let within = table.plies().filter(|&n| n <= DEPTH).map(|_| table);
            assert_eq!(solve(&pos, DEPTH), within, "{name}: {}", pos.to_fen());
            mates += usize::from(within.is_some());
        }
    }
    assert!(mates > 10, "too few short mates to compare: {mates}");
}

#[test]
fn probe_prints_the_verdict_and_a_move_that_keeps_it() {
    let (base, errors) = Tablebase::open(tables());
    assert!(errors.is_empty(), "{errors:?}");
    // Red: king d0, rook a1; Black: king e9, advisor d9.
    let fen = "3ak4/9/9/9/9/9/9/9/R8/3K5 w";
    let pos = Position::from_fen(fen).unwrap();
    let verdict = base.probe(&pos).unwrap();
    assert!(matches!(verdict, Verdict::Win(_)), "{verdict}");
    let out = Command::cargo_bin("chuhan")
        .unwrap()
        .args(["egtb", "probe", "--dir"])
        .arg(tables())
        .args(["--fen", fen])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mv = text.trim().rsplit(' ').next().unwrap();
    assert!(text.starts_with(&verdict.to_string()), "{text}");
    let mut after = pos.clone();
    after.do_move(pos.parse_move(mv).unwrap());
    let Verdict::Win(n) = verdict else {
        unreachable!()
    };
    assert_eq!(base.probe(&after).unwrap(), Verdict::Loss(n - 1));
    // No table for this material: an error, not a verdict.
    let none = Command::cargo_bin("chuhan")
        .unwrap()
        .args(["egtb", "probe", "--dir"])
        .arg(tables())
        .args(["--fen", "3ak4/9/9/9/9/9/9/9/R8/R2K5 w"])
        .output()
        .unwrap();
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("no KRRKA table"));
}

#[test]
fn a_lone_cannon_never_mates() {
    // With no screen but the kings, which may not face each other, a cannon never checks.
    let (base, errors) = Tablebase::open(tables());
    assert!(errors.is_empty(), "{errors:?}");
    let layout = Layout::new(Material::parse("KCK").unwrap());
    for i in 0..layout.size() {
        if let Some(pos) = layout.decode(i)
            && !pos.is_attacked_king(pos.side_to_move().flip())
            && !pos.legal_moves().is_empty()
        {
            assert_eq!(base.probe(&pos).unwrap(), Verdict::Draw, "{}", pos.to_fen());
        }
    }
}

/// Sets the position, sends `go …` and returns the lines up to `bestmove`.
fn think(e: &mut Engine, fen: &str, go: &str) -> Vec<String> {
    e.send(&format!("position fen {fen}"));
    e.send(&format!("go {go}"));
    e.until(is_bestmove, PROMPT)
}

/// The `score mate N` of an info line, if it has one.
fn mate_of(line: &str) -> Option<i64> {
    number_after(line, "score mate")
}

/// The `tbhits` count of an info line, if it has one.
fn tbhits_of(line: &str) -> Option<u64> {
    number_after(line, "tbhits")
}

/// The number that follows the words `key` in an info line.
fn number_after<T: std::str::FromStr>(line: &str, key: &str) -> Option<T> {
    let rest = line.split(&format!(" {key} ")).nth(1)?;
    rest.split(' ').next()?.parse().ok()
}

/// Red: king d0, rook a1; Black: king e9, advisor d9 (a KRKA win for Red).
const KRKA: &str = "3ak4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";

#[test]
fn the_engine_plays_the_tables_move_at_once_with_its_mate() {
    let (base, _) = Tablebase::open(tables());
    let pos = Position::from_fen(KRKA).unwrap();
    let Verdict::Win(n) = base.probe(&pos).unwrap() else {
        panic!("KRKA: not a win")
    };
    let mut e = Engine::with_handshake("uci");
    e.send(&format!(
        "setoption name EGTB Path value {}",
        tables().display()
    ));
    let told = e.until(|l| l.starts_with("info string EGTB Path: "), PROMPT);
    let count = every_table().len();
    assert_eq!(
        told.last().unwrap(),
        &format!("info string EGTB Path: {count} tables")
    );
    let lines = think(&mut e, KRKA, "movetime 60000");
    let best = best_of(lines.last().unwrap());
    let mut after = pos.clone();
    after.do_move(pos.parse_move(best).unwrap());
    assert_eq!(
        base.probe(&after).unwrap(),
        Verdict::Loss(n - 1),
        "{lines:?}"
    );
    let info = &lines[lines.len() - 2];
    assert_eq!(mate_of(info), Some(i64::from(n.div_ceil(2))), "{lines:?}");
    // The reported line is the tables' own: each move keeps the verdict to the mate.
    let pv = info.split(" pv ").nth(1).unwrap();
    let mut at = pos.clone();
    let mut verdict = Verdict::Win(n);
    for mv in pv.split(' ') {
        at.do_move(at.parse_move(mv).unwrap());
        let next = base.probe(&at).unwrap();
        assert_eq!(next.before_move(), verdict, "{info}");
        verdict = next;
    }
    // Too little of the move limit left for the mate: the search decides, not the tables.
    let late = KRKA.replace(" 0 1", &format!(" {} 1", 120 - n + 1));
    let lines = think(&mut e, &late, "depth 2");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    e.send("quit");
}

#[test]
fn ucci_banmoves_leave_the_tables_another_winning_move() {
    let (base, _) = Tablebase::open(tables());
    let pos = Position::from_fen(KRKA).unwrap();
    let (table_best, _) = base.best_move(&pos).unwrap().unwrap();
    let mut e = Engine::with_handshake("ucci");
    e.send(&format!("setoption egtbpath {}", tables().display()));
    e.send(&format!("position fen {KRKA}"));
    e.send(&format!("banmoves {table_best}"));
    e.send("go time 60000");
    let lines = e.until(is_bestmove, PROMPT);
    let best = best_of(lines.last().unwrap());
    assert_ne!(best, table_best.to_string());
    let mut after = pos.clone();
    after.do_move(pos.parse_move(best).unwrap());
    let Verdict::Loss(k) = base.probe(&after).unwrap() else {
        panic!("{best} lets the win go: {lines:?}")
    };
    // UCCI scores a mate in M moves as 10000 - (2M - 1).
    let moves = (k + 2) / 2;
    let info = &lines[lines.len() - 2];
    assert!(
        info.contains(&format!(" score {} ", 10000 - (2 * moves - 1))),
        "{lines:?}"
    );
    e.send("quit");
}

#[test]
fn the_search_scores_positions_the_tables_cover_as_mates() {
    // The KRKA position with a Black pawn on a4 the rook takes: no table covers the root, one
    // covers the position after the capture, a mate deeper than the search.
    let fen = "3ak4/9/9/9/9/p8/9/9/R8/3K5 w - - 0 1";
    let (base, _) = Tablebase::open(tables());
    let pos = Position::from_fen(fen).unwrap();
    assert!(base.probe(&pos).is_err());
    let mut taken = pos.clone();
    taken.do_move(pos.parse_move("a1a4").unwrap());
    let Verdict::Loss(n) = base.probe(&taken).unwrap() else {
        panic!("a1a4 does not win")
    };
    const DEPTH: u16 = 5;
    assert!(
        n + 1 > DEPTH,
        "the mate after a1a4 is within the search's own reach"
    );
    let search = |with_tables: bool| {
        let mut e = Engine::with_handshake("uci");
        if with_tables {
            e.send(&format!(
                "setoption name EGTB Path value {}",
                tables().display()
            ));
        }
        let lines = think(&mut e, fen, &format!("depth {DEPTH}"));
        e.send("quit");
        lines
    };
    let with = search(true);
    let mate = mate_of(&with[with.len() - 2]);
    // At most the capture's mate: another line may mate sooner, none later.
    assert!(
        mate.is_some_and(|m| m > 0 && m <= i64::from((n + 2) / 2)),
        "{with:?}"
    );
    // The tables' answers are counted for the GUI; without tables there is no count.
    assert!(
        tbhits_of(&with[with.len() - 2]).is_some_and(|n| n > 0),
        "{with:?}"
    );
    let without = search(false);
    assert_eq!(mate_of(&without[without.len() - 2]), None, "{without:?}");
    assert_eq!(tbhits_of(&without[without.len() - 2]), None, "{without:?}");
}

/// The first position of the tables (by material, then index) that they call a draw where at
/// least one move loses, at least two hold the draw and two of those do not capture (so that
/// the draw does not end in bare kings at once); with the moves that hold it.
fn draw_with_a_losing_move(base: &Tablebase) -> (Position, Vec<String>) {
    for material in every_table() {
        let layout = Layout::new(material);
        if let Some(found) = (0..layout.size()).find_map(|i| holding_moves(base, &layout, i)) {
            return found;
        }
    }
    panic!("no table draw with a losing move");
}

/// Position `i` of `layout` with the moves that hold its draw, where it is a draw with a losing
/// move and two holding moves that do not capture.
fn holding_moves(base: &Tablebase, layout: &Layout, i: u64) -> Option<(Position, Vec<String>)> {
    let pos = layout.decode(i)?;
    if pos.is_attacked_king(pos.side_to_move().flip()) || base.probe(&pos) != Ok(Verdict::Draw) {
        return None;
    }
    let (mut holding, mut losing, mut live) = (Vec::new(), 0, 0);
    for &m in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.do_move(m);
        match base.probe(&child).unwrap() {
            Verdict::Win(_) => losing += 1,
            _ => {
                holding.push(m.to_string());
                live += usize::from(!pos.is_capture(m));
            }
        }
    }
    (losing > 0 && holding.len() >= 2 && live >= 2).then_some((pos, holding))
}

/// Where the tables call the root a draw, the engine searches only the moves that hold it, past
/// the tables' draws (which would score every one of them 0 and leave the first), and reports
/// the draw.
#[test]
fn in_a_table_draw_the_search_chooses_among_the_moves_that_hold_it() {
    let (base, _) = Tablebase::open(tables());
    let (pos, mut holding) = draw_with_a_losing_move(&base);
    let fen = pos.to_fen();
    let mut e = Engine::with_handshake("uci");
    e.send(&format!(
        "setoption name EGTB Path value {}",
        tables().display()
    ));
    e.until(|l| l.starts_with("info string EGTB Path: "), PROMPT);
    e.send("setoption name MultiPV value 100");
    e.send("setoption name UCI_ShowWDL value true");
    let lines = think(&mut e, &fen, "depth 5");
    let told = format!(
        "info string endgame tables: a draw; choosing by search among the {} moves that hold it",
        holding.len()
    );
    assert!(lines.contains(&told), "{fen}: {lines:?}");
    let last: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 ") && l.contains(" pv "))
        .collect();
    let pv = |l: &str| -> Vec<String> {
        let moves = l.split(" pv ").nth(1).unwrap_or("");
        moves.split(' ').map(str::to_string).collect()
    };
    let mut firsts: Vec<String> = last.iter().map(|l| pv(l)[0].clone()).collect();
    firsts.sort();
    firsts.dedup();
    holding.sort();
    assert_eq!(firsts, holding, "{fen}: {lines:?}");
    for l in &last {
        assert!(
            l.contains(" score cp 0 ") && l.contains(" wdl 0 1000 0 "),
            "{fen}: {l}"
        );
    }
    assert!(
        last.iter().any(|l| pv(l).len() > 2),
        "{fen}: the lines stop at the tables' draws: {last:?}"
    );
    assert!(holding.contains(&best_of(lines.last().unwrap()).to_string()));
    e.send("quit");
}

#[test]
fn a_bad_table_gets_one_message_and_the_rest_serve() {
    let dir = std::env::temp_dir().join(format!("chuhan-egtb-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(tables().join("KRK.cht"), dir.join("KRK.cht")).unwrap();
    std::fs::write(dir.join("KRKA.cht"), b"not a table at all").unwrap();
    let mut e = Engine::with_handshake("uci");
    e.send(&format!("setoption name EGTB Path value {}", dir.display()));
    let told = e.until(|l| l.starts_with("info string EGTB Path: "), PROMPT);
    assert!(
        told.iter()
            .any(|l| l.starts_with("info string ") && l.contains("KRKA.cht")),
        "{told:?}"
    );
    assert_eq!(told.last().unwrap(), "info string EGTB Path: 1 tables");
    // KRKA is searched (no table), KRK is the table's.
    let lines = think(&mut e, KRKA, "depth 3");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    let lines = think(&mut e, "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", "depth 3");
    assert!(mate_of(&lines[lines.len() - 2]).is_some(), "{lines:?}");
    e.send("setoption name EGTB Path value /nonexistent/chuhan/tables");
    let told = e.until(|l| l.starts_with("info string "), PROMPT);
    assert!(told.last().unwrap().contains("no tables there"), "{told:?}");
    e.send("quit");
}

#[test]
fn a_match_adjudicates_the_positions_the_tables_cover() {
    let dir = std::env::temp_dir().join(format!("chuhan-egtb-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.epd");
    // A KRKA win for Red, and a KCK position (a draw: a lone cannon never mates).
    std::fs::write(
        &openings,
        format!("{KRKA}\n4k4/9/9/9/9/9/9/9/C8/3K5 w - - 0 1\n"),
    )
    .unwrap();
    let pgn = dir.join("games.pgn");
    let chuhan = env!("CARGO_BIN_EXE_chuhan");
    let out = Command::cargo_bin("chuhan")
        .unwrap()
        .args(["match", "--depth", "1", "--games", "4", "--openings"])
        .arg(&openings)
        .arg("--egtb")
        .arg(tables())
        .arg("--pgn")
        .arg(&pgn)
        .args(["--engine", &format!("cmd={chuhan}"), "name=a"])
        .args(["--engine", &format!("cmd={chuhan}"), "name=b"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    let tag = |name: &str| -> Vec<String> {
        games
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("[{name} \"")))
            .map(|v| v.trim_end_matches("\"]").to_string())
            .collect()
    };
    assert_eq!(
        tag("Termination"),
        ["adjudicated by endgame tables"; 4],
        "{games}"
    );
    let mut results = tag("Result");
    results.sort();
    assert_eq!(results, ["1-0", "1-0", "1/2-1/2", "1/2-1/2"], "{games}");
}

#[test]
fn verify_finds_a_changed_byte_that_opening_does_not_read() {
    let dir = std::env::temp_dir().join(format!("chuhan-egtb-verify-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["KRK.cht", "KRKA.cht"] {
        std::fs::copy(tables().join(name), dir.join(name)).unwrap();
    }
    let verify = || {
        Command::cargo_bin("chuhan")
            .unwrap()
            .args(["egtb", "verify", "--dir"])
            .arg(&dir)
            .output()
            .unwrap()
    };
    let whole = verify();
    assert!(whole.status.success());
    assert_eq!(
        String::from_utf8_lossy(&whole.stdout),
        "2 tables, every one whole\n"
    );
    let path = dir.join("KRKA.cht");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let broken = verify();
    assert!(!broken.status.success());
    assert!(String::from_utf8_lossy(&broken.stderr).contains("KRKA: checksum mismatch"));
}

/// Verdicts of xiangqi endgame theory: "sure win" (the stronger side wins whatever the
/// defence, bar positions that lose material at once) and "draw" (the defence holds when its
/// pieces stand right; the wins left are positional, from misplaced defenders). Sources:
/// xqinenglish.com, "The Anatomy of the Xiangqi part 4" (horse against lone king and against
/// one advisor: sure wins; horse against two elephants: sure draw; horse against one
/// elephant: a draw with the elephant placed right); xiangqielephantgame.blogspot.com, July
/// 2016 (a lone horse draws a cannon with two advisors; a horse mostly cannot win against a
/// lone pawn); the rest as Tu Jingming's "Practical Endgames" (象棋实用残局) classifies them
/// (xqinenglish.com, "Practical Endgames by the late Master Tu JingMing").
const SURE_WINS: [&str; 13] = [
    "KRK", "KHK", "KRKA", "KRKAA", "KRKE", "KRKEE", "KRKAE", "KRKAAE", "KRKAEE", "KHKA", "KRKH",
    "KRKC", "KRKP",
];
const DRAWS: [&str; 6] = ["KCK", "KHKEE", "KHKE", "KHKAA", "KHKP", "KCAAKH"];
/// Positions, stronger side (Red) to move: the rook against the full defence at home, a pawn
/// on the last rank against the lone king (it can never come back), a high pawn that wins.
const POSITIONS: [(&str, &str); 3] = [
    ("2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "draw"),
    ("P3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "draw"),
    ("4k4/9/4P4/9/9/9/9/9/9/3K5 w - - 0 1", "win"),
];

#[test]
fn textbook_verdicts_come_out_right() {
    let named: Vec<&str> = SURE_WINS
        .iter()
        .chain(&DRAWS)
        .copied()
        .chain(["KRKAAEE"])
        .collect();
    let dir = build("textbook", &named);
    let (base, errors) = Tablebase::open(&dir);
    assert!(errors.is_empty(), "{errors:?}");
    let won = |name: &str| {
        let table = base.table(Material::parse(name).unwrap()).unwrap();
        table.summary().won_percent()
    };
    for name in SURE_WINS {
        assert!(
            won(name) >= 95.0,
            "{name}: a sure win, won from {:.1}%",
            won(name)
        );
    }
    for name in DRAWS {
        assert!(
            won(name) < 30.0,
            "{name}: a draw, won from {:.1}%",
            won(name)
        );
    }
    for (fen, expected) in POSITIONS {
        let v = base.probe(&Position::from_fen(fen).unwrap()).unwrap();
        let got = match v {
            Verdict::Win(_) => "win",
            Verdict::Draw => "draw",
            Verdict::Loss(_) => "loss",
        };
        assert_eq!(got, expected, "{fen}: {v}");
    }
}
