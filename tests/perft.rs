//! Every reference position of `tests/data/perft.epd` at every depth it lists.
//! Run with `cargo test --release`: the D5 counts take seconds there, minutes unoptimised.

use chuhan::Position;
use chuhan::movegen::perft;

fn cases() -> Vec<(String, Vec<(u32, u64)>)> {
    include_str!("data/perft.epd")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let depths = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').unwrap();
                    (d[1..].parse().unwrap(), n.trim().parse().unwrap())
                })
                .collect();
            (fen, depths)
        })
        .collect()
}

#[test]
fn perft_matches_reference_counts() {
    let cases = cases();
    assert_eq!(cases.len(), 22);
    let mut checked = 0;
    for (fen, depths) in &cases {
        let mut pos = Position::from_fen(fen).unwrap();
        for &(d, want) in depths {
            assert_eq!(perft(&mut pos, d), want, "{fen} depth {d}");
            checked += 1;
        }
        assert_eq!(
            &pos.to_fen(),
            fen,
            "perft must leave the position unchanged"
        );
    }
    assert_eq!(checked, 22 * 5 - 1, "position 2 lists no D5");
}
