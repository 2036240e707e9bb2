//! Endgame tables end to end: `chuhan egtb build` writes the tables of a few materials (and of
//! the smaller ones their captures lead to); every table is then checked against its own moves
//! (each verdict is exactly the best over the verdicts its moves reach), random positions
//! against a plain exhaustive search, and `chuhan egtb probe` against the tables.

use std::path::PathBuf;
use std::sync::OnceLock;

use assert_cmd::Command;
use chuhan::Position;
use chuhan::egtb::index::Layout;
use chuhan::egtb::{Material, Tablebase, Verdict, plan};
use chuhan::rng::Rng;

const MATERIALS: [&str; 5] = ["KRKA", "KHKA", "KCKA", "KPKA", "KCAKAA"];

/// The folder the tables were built into, once for every test.
fn tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("chuhan-egtb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = Command::cargo_bin("chuhan")
            .unwrap()
            .args(["egtb", "build", "--out"])
            .arg(&dir)
            .args(MATERIALS)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
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
    let base = Tablebase::open(tables());
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
    let base = Tablebase::open(tables());
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
    let base = Tablebase::open(tables());
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
    let base = Tablebase::open(tables());
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
