//! Every option end to end, through both dialects: advertised exactly as the option table
//! declares it, accepted when set, and effective where its effect shows in the protocol (the
//! net's options, the debug log, MultiPV, UCCI's time unit and batch mode have their own tests).

mod common;

use chuhan::protocol::Dialect;
use chuhan::protocol::options::{Kind, OPTIONS, declarations};
use chuhan::search::strength::{MIN_ELO, Strength};
use common::{Engine, PROMPT, field, is_bestmove};

const DIALECTS: [(&str, &str, Dialect); 2] = [
    ("uci", "uciok", Dialect::Uci),
    ("ucci", "ucciok", Dialect::Ucci),
];

fn setoption(dialect: Dialect, name: &str, value: &str) -> String {
    match (dialect, value) {
        (Dialect::Uci, "") => format!("setoption name {name}"),
        (Dialect::Uci, v) => format!("setoption name {name} value {v}"),
        (Dialect::Ucci, v) => format!("setoption {name} {v}").trim_end().to_string(),
    }
}

#[test]
fn both_handshakes_advertise_exactly_the_declared_options() {
    for (greeting, ok, dialect) in DIALECTS {
        let mut e = Engine::start();
        e.send(greeting);
        let lines = e.until(|l| l == ok, PROMPT);
        let advertised: Vec<String> = lines
            .into_iter()
            .filter(|l| l.starts_with("option "))
            .collect();
        assert_eq!(advertised, declarations(dialect).collect::<Vec<_>>());
    }
}

/// Sets every check, spin and button option of each dialect to a value other than its default;
/// none is refused and the engine searches afterwards.
#[test]
fn every_option_is_accepted_in_both_dialects_and_the_engine_serves_on() {
    for (greeting, _, dialect) in DIALECTS {
        let mut e = Engine::with_handshake(greeting);
        for spec in OPTIONS {
            let Some(name) = spec.name(dialect) else {
                continue;
            };
            let value = match spec.kind {
                Kind::Check { default, .. } => (!default).to_string(),
                Kind::Spin {
                    default, min, max, ..
                } => (if default < max { default + 1 } else { min }).to_string(),
                Kind::Button(_) => String::new(),
                // Files: their own tests (nnue.rs, debug_log.rs).
                Kind::Text { .. } => continue,
            };
            e.send(&setoption(dialect, name, &value));
        }
        e.send("isready");
        let lines = e.until(|l| l == "readyok", PROMPT);
        assert!(
            !lines.iter().any(|l| l.starts_with("info ")),
            "{greeting}: {lines:?}"
        );
        e.send("position startpos moves h2e2");
        e.send("go depth 3");
        let lines = e.until(is_bestmove, PROMPT);
        assert!(lines.last().unwrap().starts_with("bestmove "));
    }
}

/// The last `hashfull` of a depth-10 search with a hash table of `mb` MB.
fn hashfull_after_search(mb: u32) -> u64 {
    let mut e = Engine::with_handshake("uci");
    e.send(&format!("setoption name Hash value {mb}"));
    e.send(
        "position fen r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKABR1 w - - 0 1",
    );
    e.send("go depth 10");
    let lines = e.until(is_bestmove, PROMPT * 6);
    lines
        .iter()
        .rev()
        .find_map(|l| field(l, "hashfull"))
        .expect("a hashfull field")
}

#[test]
fn hash_size_changes_how_full_the_table_gets() {
    let small = hashfull_after_search(1);
    let large = hashfull_after_search(256);
    assert!(small > 4 * large.max(1), "1 MB {small}‰, 256 MB {large}‰");
}

/// At its lowest Elo the limited engine stops at its node budget whatever depth it is asked for,
/// in either dialect.
#[test]
fn limit_strength_caps_the_search_in_both_dialects() {
    let budget = Strength::of_elo(MIN_ELO).nodes;
    for (greeting, _, dialect) in DIALECTS {
        let mut e = Engine::with_handshake(greeting);
        let (limit, elo) = match dialect {
            Dialect::Uci => ("UCI_LimitStrength", "UCI_Elo"),
            Dialect::Ucci => ("limitstrength", "elo"),
        };
        e.send(&setoption(dialect, limit, "true"));
        e.send(&setoption(dialect, elo, &MIN_ELO.to_string()));
        e.send("position startpos");
        e.send("go depth 40");
        let lines = e.until(is_bestmove, PROMPT);
        let nodes = lines
            .iter()
            .rev()
            .find_map(|l| field(l, "nodes"))
            .expect("a nodes field");
        assert!(nodes <= budget + 64, "{greeting}: {nodes} nodes");
        e.send(&setoption(dialect, limit, "false"));
        e.send("go depth 6");
        let lines = e.until(is_bestmove, PROMPT);
        let nodes = lines.iter().rev().find_map(|l| field(l, "nodes")).unwrap();
        assert!(
            nodes > budget + 64,
            "{greeting}: full strength searched {nodes} nodes"
        );
    }
}
