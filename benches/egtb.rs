//! Endgame table probes: `Tablebase::covers` (what the search calls) over 1,000 positions of
//! KRKAAEE, its tables built in memory first. Run with `cargo bench --bench egtb`; the time
//! per position is the reported time over 1,000.

use std::hint::black_box;

use chuhan::egtb::build::build;
use chuhan::egtb::file::Values;
use chuhan::egtb::index::Layout;
use chuhan::egtb::tablebase::Table;
use chuhan::egtb::{Material, Tablebase, plan};
use chuhan::rng::Rng;
use criterion::{Criterion, criterion_group, criterion_main};

fn tables() -> Tablebase {
    let mut base = Tablebase::default();
    for material in plan(&[Material::parse("KRKAAEE").unwrap()]) {
        let layout = Layout::new(material);
        let values = build(&layout, &base, &mut |_, _| {}).unwrap();
        base.insert(Table {
            layout,
            values: Values::Built(values),
        });
    }
    base
}

fn probe(c: &mut Criterion) {
    let base = tables();
    let layout = Layout::new(Material::parse("KRKAAEE").unwrap());
    let mut rng = Rng::new(1);
    let mut positions = Vec::new();
    while positions.len() < 1000 {
        if let Some(pos) = layout.decode(rng.next_u64() % layout.size())
            && base.covers(&pos).is_some()
        {
            positions.push(pos);
        }
    }
    c.bench_function("covers x1000 KRKAAEE positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter(|p| base.covers(black_box(p)).is_some())
                .count()
        })
    });
}

criterion_group!(benches, probe);
criterion_main!(benches);
