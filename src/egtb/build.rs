//! Retrograde analysis of one table, the tables its captures lead to already built.
//!
//! First every position is judged by its moves out of the table: no legal move is a loss now
//! (mate and stalemate both lose), a capture takes the verdict of the smaller table, and the
//! moves that stay count (by the positions they reach, so that two mirror-image moves that
//! reach one numbered position count once). Then, distance by distance: the positions lost in
//! `d` make every position one quiet move before them won in `d + 1`; a win by capture at `d`
//! is taken when nothing in the table won sooner; and each position won in `d` takes one
//! from the count of every position one quiet move before it, which is lost in `d + 1` once
//! its count is spent (unless a capture draws, or loses later). What is left undecided is a
//! draw: neither side can force mate, whatever cycles (the chase rules are not modelled).

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::Layout;
use super::retro::predecessors;
use super::tablebase::Tablebase;
use super::verdict::{MAX_LOSS, NO_POSITION, Verdict};

/// Not decided yet (no finished table holds it).
const UNKNOWN: u8 = 254;

struct Work<'a> {
    layout: &'a Layout,
    values: Vec<AtomicU8>,
    /// Quiet moves' positions not yet known to be won for the opponent.
    counts: Vec<AtomicU8>,
    /// The best verdict a capture gives (`UNKNOWN`: no capture).
    captures: Vec<u8>,
    /// The longest distance decided so far.
    longest: AtomicU16,
}

impl Work<'_> {
    /// Decides an undecided position (a decided one keeps its verdict).
    fn set(&self, i: u64, v: Verdict) {
        let fresh = self.values[i as usize]
            .compare_exchange(UNKNOWN, v.to_byte(), Relaxed, Relaxed)
            .is_ok();
        if fresh {
            self.longest.fetch_max(v.plies().unwrap_or(0), Relaxed);
        }
    }

    /// The numbers of the positions one quiet move before the one numbered `i`, each once.
    fn before(&self, i: u64, out: &mut Vec<u64>) {
        out.clear();
        let pos = self.layout.decode(i).expect("a decided position exists");
        predecessors(&pos, |q| out.push(self.layout.encode(q, false)));
        out.sort_unstable();
        out.dedup();
    }
}

/// What one position's moves out of the table say: `(value, count, capture)`.
fn first_look(layout: &Layout, base: &Tablebase, i: u64) -> Result<(u8, u8, u8), String> {
    let Some(pos) = layout.decode(i) else {
        return Ok((NO_POSITION, 0, UNKNOWN));
    };
    // Illegal, or the mirror image of a position numbered elsewhere.
    if pos.is_attacked_king(pos.side_to_move().flip()) || layout.encode(&pos, false) != i {
        return Ok((NO_POSITION, 0, UNKNOWN));
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok((Verdict::Loss(0).to_byte(), 0, UNKNOWN));
    }
    let mut capture: Option<Verdict> = None;
    let mut reached = [0u64; 128];
    let mut quiet = 0;
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.do_move(m);
        if pos.is_capture(m) {
            let v = base.probe(&child)?.before_move();
            capture = Some(capture.map_or(v, |c| c.better(v)));
        } else {
            reached[quiet] = layout.encode(&child, false);
            quiet += 1;
        }
    }
    let reached = &mut reached[..quiet];
    reached.sort_unstable();
    let distinct = reached
        .iter()
        .enumerate()
        .filter(|&(k, r)| k == 0 || reached[k - 1] != *r);
    let count = distinct.count() as u8;
    let capture_byte = capture.map_or(UNKNOWN, Verdict::to_byte);
    let value = match capture {
        Some(v) if count == 0 => v.to_byte(),
        _ => UNKNOWN,
    };
    Ok((value, count, capture_byte))
}

/// Builds the table of `layout`'s material; `base` must hold every table a capture leads
/// to. `report(distance, decided)` is called after each distance.
pub fn build(
    layout: &Layout,
    base: &Tablebase,
    report: &mut dyn FnMut(u16, u64),
) -> Result<Vec<u8>, String> {
    let size = layout.size();
    let first: Vec<(u8, u8, u8)> = (0..size)
        .into_par_iter()
        .map(|i| first_look(layout, base, i))
        .collect::<Result<_, _>>()?;
    let work = Work {
        layout,
        values: first.iter().map(|f| AtomicU8::new(f.0)).collect(),
        counts: first.iter().map(|f| AtomicU8::new(f.1)).collect(),
        captures: first.iter().map(|f| f.2).collect(),
        longest: AtomicU16::new(0),
    };
    drop(first);
    // Wins and losses decided by captures alone count toward the longest distance.
    let capture_longest = work
        .captures
        .par_iter()
        .filter_map(|&b| Verdict::from_byte(b).and_then(Verdict::plies))
        .max()
        .unwrap_or(0);
    work.longest.fetch_max(capture_longest, Relaxed);
    let decided = |w: &Work| {
        w.values
            .par_iter()
            .filter(|v| !matches!(v.load(Relaxed), UNKNOWN | NO_POSITION))
            .count() as u64
    };
    let too_long = AtomicBool::new(false);
    let mut d: u16 = 0;
    while d <= work.longest.load(Relaxed) + 1 {
        if d.is_multiple_of(2) {
            let lost = Verdict::Loss(d).to_byte();
            (0..size)
                .into_par_iter()
                .for_each_init(Vec::new, |before, i| {
                    if work.values[i as usize].load(Relaxed) == lost {
                        work.before(i, before);
                        for &q in before.iter() {
                            work.set(q, Verdict::Win(d + 1));
                        }
                    }
                });
        } else {
            let won = Verdict::Win(d).to_byte();
            (0..size).into_par_iter().for_each(|i| {
                if work.captures[i as usize] == won {
                    work.set(i, Verdict::Win(d));
                }
            });
            (0..size)
                .into_par_iter()
                .for_each_init(Vec::new, |before, i| {
                    if work.values[i as usize].load(Relaxed) != won {
                        return;
                    }
                    work.before(i, before);
                    for &q in before.iter() {
                        let q_at = q as usize;
                        if work.values[q_at].load(Relaxed) != UNKNOWN
                            || work.counts[q_at].fetch_sub(1, Relaxed) != 1
                        {
                            continue;
                        }
                        // Every quiet move loses: the captures may still do better.
                        if d + 1 > MAX_LOSS {
                            too_long.store(true, Relaxed);
                            continue;
                        }
                        let spent = Verdict::Loss(d + 1);
                        let v = match Verdict::from_byte(work.captures[q_at]) {
                            None => spent,
                            Some(Verdict::Win(_)) => continue,
                            Some(Verdict::Draw) => Verdict::Draw,
                            Some(c) => c.better(spent),
                        };
                        work.set(q, v);
                    }
                });
        }
        if too_long.load(Relaxed) {
            return Err(format!(
                "{}: a mate longer than {MAX_LOSS} plies",
                layout.material
            ));
        }
        report(d, decided(&work));
        d += 1;
    }
    Ok(work
        .values
        .into_iter()
        .map(|v| match v.into_inner() {
            UNKNOWN => Verdict::Draw.to_byte(),
            b => b,
        })
        .collect())
}
