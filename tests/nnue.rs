//! End-to-end tests of the net's options through both dialects: `Use NNUE` / `usennue` and
//! `EvalFile` / `evalfile` are advertised, change the search, and a bad file leaves the engine
//! serving with the net it had.

mod common;

use common::{Engine, PROMPT, field, is_bestmove};

use chuhan::eval::nnue::network::Network;

const NET: &[u8] = include_bytes!("../nets/default.nnue");

/// Nodes of a fresh single-thread depth-7 search of a middlegame position.
fn nodes(e: &mut Engine, new_game: &str) -> u64 {
    e.send(new_game);
    e.send(
        "position fen r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKABR1 w - - 0 1",
    );
    e.send("go depth 7");
    let lines = e.until(is_bestmove, PROMPT * 6);
    // UCI: `info depth … nodes N …`; UCCI: `info time T nodes N` after the last depth.
    lines
        .iter()
        .rev()
        .filter(|l| l.starts_with("info "))
        .find_map(|l| field(l, "nodes"))
        .expect("an info line with nodes")
}

fn temp(name: &str, bytes: &[u8]) -> String {
    let p = std::env::temp_dir().join(format!("chuhan nnue {}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

/// The embedded net with its hidden biases changed: valid, and a different evaluation.
fn other_net() -> Vec<u8> {
    let mut net = Network::from_bytes(NET).unwrap();
    for b in net.ft_bias.iter_mut() {
        *b = b.saturating_add(40).min(3000);
    }
    net.to_bytes()
}

#[test]
fn both_dialects_advertise_the_net_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok", PROMPT);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Use NNUE type check default true")
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "option name EvalFile type string default <embedded>")
    );
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.until(|l| l == "ucciok", PROMPT);
    assert!(
        lines
            .iter()
            .any(|l| l == "option usennue type check default true")
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "option evalfile type string default <embedded>")
    );
}

#[test]
fn uci_use_nnue_and_eval_file_change_the_search_and_bad_files_keep_the_net() {
    let mut e = Engine::with_handshake("uci");
    let net = nodes(&mut e, "ucinewgame");
    e.send("setoption name Use NNUE value false");
    let hand_written = nodes(&mut e, "ucinewgame");
    assert_ne!(net, hand_written);
    e.send("setoption name Use NNUE value true");
    assert_eq!(nodes(&mut e, "ucinewgame"), net);

    let other = temp("other.nnue", &other_net());
    e.send(&format!("setoption name EvalFile value {other}"));
    assert_eq!(e.sync(), ["readyok"], "a good file loads silently");
    let with_other = nodes(&mut e, "ucinewgame");
    assert_ne!(with_other, net);

    let truncated = temp("truncated.nnue", &NET[..NET.len() / 2]);
    let mut bad_magic = NET.to_vec();
    bad_magic[..4].copy_from_slice(b"NOPE");
    let bad_magic = temp("magic.nnue", &bad_magic);
    let mut corrupt = NET.to_vec();
    corrupt[5000] ^= 0x55;
    let corrupt = temp("corrupt.nnue", &corrupt);
    for (path, why) in [
        ("/no/such/net.nnue".to_string(), ""),
        (truncated.clone(), "truncated"),
        (bad_magic.clone(), "magic"),
        (corrupt.clone(), "checksum"),
    ] {
        e.send(&format!("setoption name EvalFile value {path}"));
        let lines = e.sync();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("info string EvalFile "), "{lines:?}");
        assert!(
            lines[0].contains(why) && lines[0].contains("the current net stays"),
            "{lines:?}"
        );
        // Still the net loaded before.
        assert_eq!(nodes(&mut e, "ucinewgame"), with_other);
    }
    e.send("setoption name EvalFile value <embedded>");
    assert_eq!(nodes(&mut e, "ucinewgame"), net);
    for p in [other, truncated, bad_magic, corrupt] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn ucci_usennue_and_evalfile_change_the_search() {
    let mut e = Engine::with_handshake("ucci");
    let net = nodes(&mut e, "setoption newgame");
    e.send("setoption usennue false");
    let hand_written = nodes(&mut e, "setoption newgame");
    assert_ne!(net, hand_written);
    e.send("setoption usennue true");
    let other = temp("ucci other.nnue", &other_net());
    e.send(&format!("setoption evalfile {other}"));
    assert_ne!(nodes(&mut e, "setoption newgame"), net);
    e.send("setoption evalfile /no/such/file");
    e.send("isready");
    let lines = e.until(|l| l == "readyok", PROMPT);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info message EvalFile /no/such/file")),
        "{lines:?}"
    );
    e.send("setoption evalfile <embedded>");
    assert_eq!(nodes(&mut e, "setoption newgame"), net);
    std::fs::remove_file(other).unwrap();
}
