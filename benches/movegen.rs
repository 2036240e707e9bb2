//! Micro-benchmarks of move generation and perft. Run with `cargo bench --bench movegen`.

use std::hint::black_box;

use chuhan::Position;
use chuhan::movegen::perft;
use criterion::{Criterion, criterion_group, criterion_main};

fn positions() -> Vec<Position> {
    include_str!("../tests/data/perft.epd")
        .lines()
        .map(|l| Position::from_fen(l.split(';').next().unwrap()).unwrap())
        .collect()
}

fn movegen(c: &mut Criterion) {
    let all = positions();
    c.bench_function("legal_moves x22 positions", |b| {
        b.iter(|| {
            all.iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum::<usize>()
        })
    });
    c.bench_function("quiescence_moves x22 positions", |b| {
        b.iter(|| {
            all.iter()
                .map(|p| black_box(p).quiescence_moves().len())
                .sum::<usize>()
        })
    });
    c.bench_function("legality summary x22 positions", |b| {
        b.iter(|| {
            all.iter()
                .filter(|p| black_box(p).legality().in_check)
                .count()
        })
    });
}

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("start depth 4", |b| {
        let mut p = Position::startpos();
        b.iter(|| perft(black_box(&mut p), 4))
    });
    group.bench_function("middlegame (perft.epd #3) depth 4", |b| {
        let mut p = positions()[2].clone();
        b.iter(|| perft(black_box(&mut p), 4))
    });
    group.finish();
}

criterion_group!(benches, movegen, perft_bench);
criterion_main!(benches);
