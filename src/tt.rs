//! The transposition table: a fixed array of 64-byte buckets of four entries, each entry two
//! atomics (the key XORed with the data, and the data), so several search threads share it
//! without locks and a torn read fails the key check instead of returning mixed data.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::board::Move;

/// Entries per bucket (one cache line).
const BUCKET_SIZE: usize = 4;
/// Generations wrap at this many (six bits of the entry).
const GENERATIONS: u8 = 64;
/// Stored depths are offset so that quiescence entries (depth 0 and below) fit in a byte.
const DEPTH_OFFSET: i32 = 8;

/// What an entry's score is: exact, at least (failed high) or at most (failed low).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refutation move, `Move::NULL` if none. Not yet checked for legality.
    pub mv: Move,
    /// Score as stored (mate scores relative to the node, see `search::score`).
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    pub depth: i32,
    pub bound: TtBound,
}

#[derive(Default)]
struct Slot {
    /// `key ^ data`: a reader that sees halves of two different writes gets a key mismatch.
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; BUCKET_SIZE],
}

fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: TtBound, generation: u8) -> u64 {
    let depth = (depth + DEPTH_OFFSET).clamp(1, 255) as u64;
    u64::from(mv.raw())
        | (u64::from(score as i16 as u16) << 16)
        | (u64::from(eval as i16 as u16) << 32)
        | (depth << 48)
        | ((bound as u64) << 56)
        | (u64::from(generation) << 58)
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 56) & 3 {
        1 => TtBound::Upper,
        2 => TtBound::Lower,
        3 => TtBound::Exact,
        _ => return None,
    };
    Some(TtEntry {
        mv: Move::from_raw(data as u16).unwrap_or(Move::NULL),
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: depth_of(data),
        bound,
    })
}

/// Memory the system can still give, in megabytes (Linux; `None` where unknown). Filling a
/// table larger than that would get the process killed rather than refused.
fn available_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb >> 10)
}

/// The table size for a request of `mb` megabytes when `available` megabytes are free.
fn capped_mb(mb: usize, available: Option<usize>) -> usize {
    mb.clamp(1, available.map_or(usize::MAX, |a| (a / 2).max(1)))
}

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of (at most) `mb` megabytes; never more than half the memory the system has
    /// available, and if the memory cannot be had, the largest half-size that can.
    pub fn new(mb: usize) -> TranspositionTable {
        let mb = capped_mb(mb, available_mb());
        let mut count = (mb << 20) / size_of::<Bucket>();
        let mut buckets = Vec::new();
        while buckets.try_reserve_exact(count).is_err() && count > 1 {
            count /= 2;
        }
        buckets.resize_with(count, Bucket::default);
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// Size in megabytes.
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * size_of::<Bucket>()) >> 20
    }

    /// Forget every entry.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks entries stored from now on as newer than all before (call once per search).
    pub fn new_search(&self) {
        let g = (self.generation.load(Ordering::Relaxed) + 1) % GENERATIONS;
        self.generation.store(g, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Starts loading the bucket of `key` into the cache, ahead of a probe or store.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = std::ptr::from_ref(self.bucket(key)).cast::<i8>();
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch is only a hint: it
            // reads nothing into the program and cannot fault, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in &self.bucket(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result, replacing the same key or else the shallowest, oldest entry. A null
    /// `mv` keeps the move already stored for this key.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: TtBound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut target = &bucket.slots[0];
        let mut worst = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key {
                let old = unpack(data);
                // Keep a deeper result of this search unless the new one is exact.
                if bound != TtBound::Exact
                    && generation_of(data) == generation
                    && depth_of(data) > depth + 2
                {
                    return;
                }
                let mv = match old {
                    Some(e) if mv.is_null() => e.mv,
                    _ => mv,
                };
                let new = pack(mv, score, eval, depth, bound, generation);
                slot.data.store(new, Ordering::Relaxed);
                slot.check.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let age = (generation + GENERATIONS - generation_of(data)) % GENERATIONS;
            let value = if data == 0 {
                i32::MIN
            } else {
                depth_of(data) - 8 * i32::from(age)
            };
            if value < worst {
                worst = value;
                target = slot;
            }
        }
        let new = pack(mv, score, eval, depth, bound, generation);
        target.data.store(new, Ordering::Relaxed);
        target.check.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of entries written by the current search (sampled from the first buckets).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(1000 / BUCKET_SIZE);
        let used = self.buckets[..sample]
            .iter()
            .flat_map(|b| &b.slots)
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && generation_of(d) == generation
            })
            .count();
        (used * 1000 / (sample * BUCKET_SIZE).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    fn mv(a: usize, b: usize) -> Move {
        Move::new(Square::from_index(a), Square::from_index(b))
    }

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(key), None);
        tt.store(key, mv(1, 10), -29_990, 123, 7, TtBound::Lower);
        let e = tt.probe(key).unwrap();
        assert_eq!(
            e,
            TtEntry {
                mv: mv(1, 10),
                score: -29_990,
                eval: 123,
                depth: 7,
                bound: TtBound::Lower
            }
        );
        assert_eq!(tt.probe(key ^ 1), None);
        // A null move keeps the stored one; quiescence depths survive the offset.
        tt.store(key, Move::NULL, 5, 6, -1, TtBound::Exact);
        let e = tt.probe(key).unwrap();
        assert_eq!((e.mv, e.depth, e.bound), (mv(1, 10), -1, TtBound::Exact));
    }

    #[test]
    fn replacement_prefers_old_and_shallow_entries() {
        let tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u128;
        // Keys that all map to bucket 0.
        let keys: Vec<u64> = (0..6u64).map(|i| i + 1).collect();
        assert!(keys.iter().all(|&k| (u128::from(k) * n) >> 64 == 0));
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, mv(1, 2), 0, 0, 10 + i as i32, TtBound::Exact);
        }
        tt.store(keys[4], mv(1, 2), 0, 0, 1, TtBound::Exact);
        // The shallowest (depth 10) went.
        assert_eq!(tt.probe(keys[0]), None);
        assert!(tt.probe(keys[4]).is_some());
        tt.new_search();
        tt.new_search();
        tt.store(keys[4], mv(1, 2), 0, 0, 1, TtBound::Exact);
        tt.store(keys[5], mv(1, 2), 0, 0, 1, TtBound::Exact);
        // Now an old deep entry gives way before the fresh shallow one.
        assert!(tt.probe(keys[4]).is_some());
        assert_eq!(tt.probe(keys[1]), None);
    }

    #[test]
    fn absurd_sizes_are_capped_by_available_memory() {
        assert_eq!(capped_mb(65_536, Some(8_000)), 4_000);
        assert_eq!(capped_mb(64, Some(8_000)), 64);
        assert_eq!(capped_mb(0, Some(8_000)), 1);
        assert_eq!(capped_mb(64, Some(1)), 1);
        assert_eq!(capped_mb(65_536, None), 65_536);
        assert!(available_mb().is_none_or(|a| a > 0));
    }

    #[test]
    fn hashfull_and_clear() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..200_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                mv(1, 2),
                0,
                0,
                3,
                TtBound::Upper,
            );
        }
        assert!(tt.hashfull() > 900, "{}", tt.hashfull());
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
        assert_eq!(tt.size_mb(), 1);
    }

    /// Threads write entries whose data is derived from the key; every hit must be consistent,
    /// so torn reads (check of one write, data of another) are rejected.
    #[test]
    fn concurrent_hammering_never_returns_torn_entries() {
        let tt = TranspositionTable::new(1);
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                let hits = &hits;
                s.spawn(move || {
                    let mut x = t.wrapping_add(1).wrapping_mul(0x2545_F491_4F6C_DD1D);
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // Few distinct keys in few buckets, so threads collide constantly.
                        let key = ((x >> 8) % 64).wrapping_mul(0x0101_0101_0101_0101) | 1 << 63;
                        let score = (key % 1000) as i32;
                        let depth = (key % 20) as i32;
                        if x & 1 == 0 {
                            tt.store(key, Move::NULL, score, -score, depth, TtBound::Exact);
                        } else if let Some(e) = tt.probe(key) {
                            assert_eq!((e.score, e.eval), (score, -score));
                            hits.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(hits.load(Ordering::Relaxed) > 0);
    }
}
