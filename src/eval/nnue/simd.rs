//! The net's integer kernels, written once as plain loops and compiled three times: for AVX-512,
//! for AVX2 and portably, each for every width of the hidden layer a net may have. The
//! machine's best is chosen once at run time, the width by the slices' length. Integer
//! arithmetic in the same order, so every path returns the same values (a test checks).

use std::sync::LazyLock;

use super::network::{
    DENSE1, DENSE2, DENSE2_IN_SHIFT, DenseLayers, FT_SHIFT, PAIR_SHIFT, QA, QD, QD1,
};

/// Which compiled copy of the kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Portable,
    Avx2,
    Avx512,
}

impl Kernel {
    /// The kernels this machine can run, best last.
    pub fn available() -> Vec<Kernel> {
        let mut k = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                k.push(Kernel::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                k.push(Kernel::Avx512);
            }
        }
        k
    }

    /// The best kernel of this machine (decided once).
    pub fn best() -> Kernel {
        static BEST: LazyLock<Kernel> = LazyLock::new(|| {
            *Kernel::available()
                .last()
                .expect("portable is always there")
        });
        *BEST
    }
}

/// The widths of the hidden layer the kernels are compiled for (a net's `hidden`).
pub const WIDTHS: [usize; 2] = [256, 512];
/// The widest of `WIDTHS`: what an accumulator holds room for.
pub const MAX_WIDTH: usize = 512;

/// Runs `$body` with `$w` a constant equal to `$n`, one of `WIDTHS`: each width gets its own
/// compiled copy with a known trip count.
macro_rules! by_width {
    ($n:expr, |$w:ident| $body:expr) => {
        match $n {
            256 => {
                const $w: usize = 256;
                $body
            }
            512 => {
                const $w: usize = 512;
                $body
            }
            n => unreachable!("no kernel for a hidden layer of {n}"),
        }
    };
}

/// Products of an activation chunk are summed in `i32` (at most 32 × 255² × 127 < 2³¹), the
/// chunks in `i64`.
const CHUNK: usize = 32;

#[inline(always)]
fn sub_add_body<const N: usize>(dst: &mut [i16], src: &[i16], sub: &[i16], add: &[i16]) {
    let (dst, src, sub, add) = (&mut dst[..N], &src[..N], &sub[..N], &add[..N]);
    for i in 0..N {
        dst[i] = src[i].wrapping_sub(sub[i]).wrapping_add(add[i]);
    }
}

#[inline(always)]
fn sub_sub_add_body<const N: usize>(
    dst: &mut [i16],
    src: &[i16],
    sub1: &[i16],
    sub2: &[i16],
    add: &[i16],
) {
    let (dst, src) = (&mut dst[..N], &src[..N]);
    let (sub1, sub2, add) = (&sub1[..N], &sub2[..N], &add[..N]);
    for i in 0..N {
        dst[i] = src[i]
            .wrapping_sub(sub1[i])
            .wrapping_sub(sub2[i])
            .wrapping_add(add[i]);
    }
}

#[inline(always)]
fn add_body<const N: usize>(dst: &mut [i16], add: &[i16]) {
    let (dst, add) = (&mut dst[..N], &add[..N]);
    for i in 0..N {
        dst[i] = dst[i].wrapping_add(add[i]);
    }
}

#[inline(always)]
fn sub_body<const N: usize>(dst: &mut [i16], sub: &[i16]) {
    let (dst, sub) = (&mut dst[..N], &sub[..N]);
    for i in 0..N {
        dst[i] = dst[i].wrapping_sub(sub[i]);
    }
}

/// A feature sum's clipped activation a = clamp(x / 2^FT_SHIFT rounded, 0, QA).
#[inline(always)]
fn ft_clipped(x: i16) -> i16 {
    let half = 1 << (FT_SHIFT - 1);
    (x.wrapping_add(half) >> FT_SHIFT).clamp(0, QA as i16)
}

/// Σ a² · w with the activation a of `ft_clipped`, as (a · w) in `i16` (|w| ≤ 127) times a in
/// `i32`.
#[inline(always)]
fn screlu_dot_body<const N: usize>(x: &[i16], w: &[i16]) -> i64 {
    let (x, w) = (&x[..N], &w[..N]);
    let mut total = 0i64;
    for (xc, wc) in x.chunks_exact(CHUNK).zip(w.chunks_exact(CHUNK)) {
        let mut s = 0i32;
        for j in 0..CHUNK {
            let v = ft_clipped(xc[j]);
            let t = v.wrapping_mul(wc[j]);
            s = s.wrapping_add(i32::from(t) * i32::from(v));
        }
        total += i64::from(s);
    }
    total
}

/// The pairwise products of one view's sums, the first dense layer's inputs: unit i's clipped
/// activation times unit i + N / 2's, rounded to QA² less `PAIR_SHIFT` bits (at most 127).
#[inline(always)]
fn pairs_body<const N: usize>(x: &[i16], out: &mut [u8]) {
    let (x, out) = (&x[..N], &mut out[..N / 2]);
    let (lo, hi) = x.split_at(N / 2);
    for i in 0..N / 2 {
        let p = ft_clipped(lo[i]) as u16 * ft_clipped(hi[i]) as u16;
        out[i] = ((p + (1 << (PAIR_SHIFT - 1))) >> PAIR_SHIFT) as u8;
    }
}

/// The first dense layer's sums without biases: Σ input · weight over N 8-bit inputs, the
/// weights by groups of four inputs (`network`). Groups of four zero inputs are skipped (the
/// clipped activations leave many): the sums are exact, so the result is the same.
#[inline(always)]
fn affine_body<const N: usize>(input: &[u8], w: &[i8]) -> [i32; DENSE1] {
    let (input, w) = (&input[..N], &w[..N * DENSE1]);
    let mut z = [0i32; DENSE1];
    for (x, wq) in input.chunks_exact(4).zip(w.chunks_exact(4 * DENSE1)) {
        if x == [0; 4] {
            continue;
        }
        for (zj, wj) in z.iter_mut().zip(wq.chunks_exact(4)) {
            for k in 0..4 {
                *zj += i32::from(x[k]) * i32::from(wj[k]);
            }
        }
    }
    z
}

/// A dense layer's sum `z` to its clipped value at QA, z · mul / div rounded (the layer's
/// scale over QA as a fraction): at most QA, at least 0. `z` is first capped just past where
/// the quotient reaches QA, so that the numerator stays below 2²⁴: exact in `i32` and in `f32`
/// (a correctly rounded division there never crosses an integer, so truncation agrees).
#[inline(always)]
fn clip_ratio(z: i32, mul: i32, div: i32) -> i32 {
    ((z.clamp(0, QA * div / mul + 1) * mul + div / 2) / div).min(QA)
}

/// The first dense layer's scale over QA, 2^PAIR_SHIFT / (QA · QD1), as `clip_ratio`'s
/// fraction in lowest terms (8 / 510).
const FIRST_MUL: i32 = (1 << PAIR_SHIFT) / FIRST_GCD;
const FIRST_DIV: i32 = QA * QD1 / FIRST_GCD;
const FIRST_GCD: i32 = 64;
const _: () = assert!((1 << PAIR_SHIFT) % FIRST_GCD == 0 && (QA * QD1) % FIRST_GCD == 0);
/// The second dense layer's scale over QA (`DENSE2_SCALE` / QA).
const SECOND_DIV: i32 = (QA * QD) >> DENSE2_IN_SHIFT;

/// The first dense layer's sums with their biases to the second layer's inputs: squared
/// clipped activations at QA² less `DENSE2_IN_SHIFT` bits (within `i16`).
#[inline(always)]
fn first_out_body(z1: &[i32; DENSE1], b1: &[i32]) -> [i16; DENSE1] {
    let mut h1 = [0i16; DENSE1];
    for ((h, &z), &b) in h1.iter_mut().zip(z1).zip(b1) {
        let v = clip_ratio(z + b, FIRST_MUL, FIRST_DIV);
        *h = ((v * v) >> DENSE2_IN_SHIFT) as i16;
    }
    h1
}

/// The output from the second dense layer's sums with their biases: Σ v² · w3 of their
/// clipped values v, at `DENSE_SCALE` (without the output's bias).
#[inline(always)]
fn output_body(z2: &[i32; DENSE2], b2: &[i32], w3: &[i16]) -> i32 {
    let mut out = 0;
    for ((&z, &b), &w) in z2.iter().zip(b2).zip(w3) {
        let v = clip_ratio(z + b, 1, SECOND_DIV);
        out += v * v * i32::from(w);
    }
    out
}

/// The second dense layer's sums without biases, its weights by pairs of inputs
/// (`network`).
#[inline(always)]
fn second_body(h1: &[i16; DENSE1], w: &[i16]) -> [i32; DENSE2] {
    let mut z = [0i32; DENSE2];
    for (pair, wp) in h1.chunks_exact(2).zip(w.chunks_exact(2 * DENSE2)) {
        for (zk, wk) in z.iter_mut().zip(wp.chunks_exact(2)) {
            *zk += i32::from(pair[0]) * i32::from(wk[0]) + i32::from(pair[1]) * i32::from(wk[1]);
        }
    }
    z
}

/// `screlu_dot_body`'s sum and the dense layers' steps: the plain loops, or the machine's
/// instructions (the sums are exact in any order, so all give the same values).
trait Dot {
    fn screlu_dot<const N: usize>(x: &[i16], w: &[i16]) -> i64;
    fn pairs<const N: usize>(x: &[i16], out: &mut [u8]);
    fn affine<const N: usize>(input: &[u8], w: &[i8]) -> [i32; DENSE1];
    fn first_out(z1: &[i32; DENSE1], b1: &[i32]) -> [i16; DENSE1];
    fn second(h1: &[i16; DENSE1], w: &[i16]) -> [i32; DENSE2];
    fn output(z2: &[i32; DENSE2], b2: &[i32], w3: &[i16]) -> i32;
}

/// The plain loops (portable, and AVX-512's, whose speed this machine cannot measure).
struct PlainDot;

impl Dot for PlainDot {
    #[inline(always)]
    fn screlu_dot<const N: usize>(x: &[i16], w: &[i16]) -> i64 {
        screlu_dot_body::<N>(x, w)
    }

    #[inline(always)]
    fn pairs<const N: usize>(x: &[i16], out: &mut [u8]) {
        pairs_body::<N>(x, out)
    }

    #[inline(always)]
    fn affine<const N: usize>(input: &[u8], w: &[i8]) -> [i32; DENSE1] {
        affine_body::<N>(input, w)
    }

    #[inline(always)]
    fn first_out(z1: &[i32; DENSE1], b1: &[i32]) -> [i16; DENSE1] {
        first_out_body(z1, b1)
    }

    #[inline(always)]
    fn second(h1: &[i16; DENSE1], w: &[i16]) -> [i32; DENSE2] {
        second_body(h1, w)
    }

    #[inline(always)]
    fn output(z2: &[i32; DENSE2], b2: &[i32], w3: &[i16]) -> i32 {
        output_body(z2, b2, w3)
    }
}

/// AVX2: `vpmaddwd` for `screlu_dot` (the compiler works in 128-bit registers and sums across
/// them every chunk), 16-bit products packed to bytes for `pairs`, `vpmaddubsw` on each
/// group of four inputs that is not zero for `affine`, and `vpmaddwd` on each pair of inputs
/// for `second`.
#[cfg(target_arch = "x86_64")]
struct Avx2Dot;

#[cfg(target_arch = "x86_64")]
impl Dot for Avx2Dot {
    #[inline(always)]
    fn screlu_dot<const N: usize>(x: &[i16], w: &[i16]) -> i64 {
        // SAFETY: only the AVX2 kernels use this, and they run only where AVX2 is.
        unsafe { avx2_screlu_dot::<N>(x, w) }
    }

    #[inline(always)]
    fn pairs<const N: usize>(x: &[i16], out: &mut [u8]) {
        // SAFETY: as above.
        unsafe { avx2_pairs::<N>(x, out) }
    }

    #[inline(always)]
    fn affine<const N: usize>(input: &[u8], w: &[i8]) -> [i32; DENSE1] {
        // SAFETY: as above.
        unsafe { avx2_affine::<N>(input, w) }
    }

    #[inline(always)]
    fn first_out(z1: &[i32; DENSE1], b1: &[i32]) -> [i16; DENSE1] {
        // SAFETY: as above.
        unsafe { avx2_first_out(z1, b1) }
    }

    #[inline(always)]
    fn second(h1: &[i16; DENSE1], w: &[i16]) -> [i32; DENSE2] {
        // SAFETY: as above.
        unsafe { avx2_second(h1, w) }
    }

    #[inline(always)]
    fn output(z2: &[i32; DENSE2], b2: &[i32], w3: &[i16]) -> i32 {
        // SAFETY: as above.
        unsafe { avx2_output(z2, b2, w3) }
    }
}

/// `screlu_dot_body` in 256-bit registers: sixteen activations a chunk, (a · w) · a summed in
/// pairs into eight `i32` lanes, widened to `i64` once at the end.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_screlu_dot<const N: usize>(x: &[i16], w: &[i16]) -> i64 {
    use std::arch::x86_64::*;
    // A lane sums N / 8 products of at most 255 · 32,768: below 2³¹ up to 1,024 units.
    const { assert!(N <= 1024) };
    let (x, w) = (&x[..N], &w[..N]);
    let zero = _mm256_setzero_si256();
    let mut acc = zero;
    for (xc, wc) in x.chunks_exact(16).zip(w.chunks_exact(16)) {
        // SAFETY: each chunk holds 16 `i16`, one unaligned 256-bit load.
        let (vx, vw) = unsafe {
            (
                _mm256_loadu_si256(xc.as_ptr().cast()),
                _mm256_loadu_si256(wc.as_ptr().cast()),
            )
        };
        let a = avx2_clipped(vx);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_mullo_epi16(a, vw), a));
    }
    let wide = _mm256_add_epi64(
        _mm256_cvtepi32_epi64(_mm256_castsi256_si128(acc)),
        _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(acc)),
    );
    let s = _mm_add_epi64(
        _mm256_castsi256_si128(wide),
        _mm256_extracti128_si256::<1>(wide),
    );
    _mm_cvtsi128_si64(s) + _mm_extract_epi64::<1>(s)
}

/// `ft_clipped` on sixteen sums.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_clipped(x: std::arch::x86_64::__m256i) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let half = _mm256_set1_epi16(1 << (FT_SHIFT - 1));
    let shifted = _mm256_srai_epi16::<{ FT_SHIFT as i32 }>(_mm256_add_epi16(x, half));
    _mm256_min_epi16(
        _mm256_max_epi16(shifted, _mm256_setzero_si256()),
        _mm256_set1_epi16(QA as i16),
    )
}

/// `pairs_body` on 32 units a step: products below 2¹⁶ (unsigned in 16 bits), rounded,
/// shifted and packed to bytes (the pack interleaves the register's halves; the permute
/// puts them back in order).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_pairs<const N: usize>(x: &[i16], out: &mut [u8]) {
    use std::arch::x86_64::*;
    let (x, out) = (&x[..N], &mut out[..N / 2]);
    let (lo, hi) = x.split_at(N / 2);
    let round = _mm256_set1_epi16(1 << (PAIR_SHIFT - 1));
    for ((l, h), o) in lo
        .chunks_exact(32)
        .zip(hi.chunks_exact(32))
        .zip(out.chunks_exact_mut(32))
    {
        // SAFETY: each chunk holds 32 `i16` (two unaligned 256-bit loads) or 32 bytes.
        unsafe {
            let product = |at: usize| {
                let a = avx2_clipped(_mm256_loadu_si256(l[at..].as_ptr().cast()));
                let b = avx2_clipped(_mm256_loadu_si256(h[at..].as_ptr().cast()));
                let p = _mm256_add_epi16(_mm256_mullo_epi16(a, b), round);
                _mm256_srli_epi16::<{ PAIR_SHIFT as i32 }>(p)
            };
            let packed = _mm256_packus_epi16(product(0), product(16));
            let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
            _mm256_storeu_si256(o.as_mut_ptr().cast(), ordered);
        }
    }
}

/// For each mask of eight bits, the places of its set bits, lowest first (the rest zero).
static SET_BITS: [[u16; 8]; 256] = {
    let mut t = [[0u16; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if mask & (1 << bit) != 0 {
                t[mask][n] = bit as u16;
                n += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    t
};

/// `affine_body` with the groups that are not zero listed first, eight at a time without a
/// branch (a compare, a mask, its set bits from `SET_BITS`), then each group's four inputs
/// broadcast against its 16 units' weights: `vpmaddubsw` sums pairs of byte products (at most
/// 2 · 127 · 128, within `i16`), `vpmaddwd` by ones the pairs' pairs.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_affine<const N: usize>(input: &[u8], w: &[i8]) -> [i32; DENSE1] {
    use std::arch::x86_64::*;
    const { assert!(DENSE1 == 16 && N <= MAX_WIDTH) };
    let (input, w) = (&input[..N], &w[..N * DENSE1]);
    // Room for a whole chunk's eight places after the last group.
    let mut groups = [0u16; MAX_WIDTH / 4 + 8];
    let mut count = 0;
    let (mut base, eight) = (_mm_setzero_si128(), _mm_set1_epi16(8));
    for chunk in input.chunks_exact(32) {
        // SAFETY: 32 bytes, one unaligned 256-bit load; 16 bytes of places, one unaligned
        // 128-bit load, and 8 slots of `groups`, one store.
        unsafe {
            let v = _mm256_loadu_si256(chunk.as_ptr().cast());
            let zero = _mm256_cmpeq_epi32(v, _mm256_setzero_si256());
            let live = !_mm256_movemask_ps(_mm256_castsi256_ps(zero)) as u32 & 0xff;
            let places = _mm_loadu_si128(SET_BITS[live as usize].as_ptr().cast());
            let slots = &mut groups[count..count + 8];
            _mm_storeu_si128(slots.as_mut_ptr().cast(), _mm_add_epi16(places, base));
            count += live.count_ones() as usize;
        }
        base = _mm_add_epi16(base, eight);
    }
    let ones = _mm256_set1_epi16(1);
    let (mut lo, mut hi) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    for &g in &groups[..count] {
        let g = usize::from(g);
        let x = i32::from_ne_bytes(input[4 * g..4 * g + 4].try_into().expect("4 bytes"));
        let x = _mm256_set1_epi32(x);
        let wg = &w[g * 4 * DENSE1..(g + 1) * 4 * DENSE1];
        // SAFETY: 64 bytes of weights, two unaligned 256-bit loads.
        let (w0, w1) = unsafe {
            (
                _mm256_loadu_si256(wg.as_ptr().cast()),
                _mm256_loadu_si256(wg[32..].as_ptr().cast()),
            )
        };
        lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w0), ones));
        hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w1), ones));
    }
    let mut z = [0i32; DENSE1];
    // SAFETY: 16 `i32`, two unaligned 256-bit stores.
    unsafe {
        _mm256_storeu_si256(z.as_mut_ptr().cast(), lo);
        _mm256_storeu_si256(z[8..].as_mut_ptr().cast(), hi);
    }
    z
}

/// `clip_ratio` on eight sums: the division in `f32`, exact (see there).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_clip_ratio(
    z: std::arch::x86_64::__m256i,
    mul: i32,
    div: i32,
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let capped = _mm256_min_epi32(
        _mm256_max_epi32(z, _mm256_setzero_si256()),
        _mm256_set1_epi32(QA * div / mul + 1),
    );
    let num = _mm256_add_epi32(
        _mm256_mullo_epi32(capped, _mm256_set1_epi32(mul)),
        _mm256_set1_epi32(div / 2),
    );
    let q = _mm256_div_ps(_mm256_cvtepi32_ps(num), _mm256_set1_ps(div as f32));
    _mm256_min_epi32(_mm256_cvttps_epi32(q), _mm256_set1_epi32(QA))
}

/// `first_out_body` in two registers, packed to 16 bits (the pack interleaves the registers'
/// halves; the permute puts them back in order).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_first_out(z1: &[i32; DENSE1], b1: &[i32]) -> [i16; DENSE1] {
    use std::arch::x86_64::*;
    let b1 = &b1[..DENSE1];
    let squared = |at: usize| {
        // SAFETY: 8 `i32` of each, unaligned 256-bit loads.
        let (z, b) = unsafe {
            (
                _mm256_loadu_si256(z1[at..].as_ptr().cast()),
                _mm256_loadu_si256(b1[at..].as_ptr().cast()),
            )
        };
        let v = avx2_clip_ratio(_mm256_add_epi32(z, b), FIRST_MUL, FIRST_DIV);
        _mm256_srli_epi32::<{ DENSE2_IN_SHIFT as i32 }>(_mm256_mullo_epi32(v, v))
    };
    let packed = _mm256_packs_epi32(squared(0), squared(8));
    let mut h1 = [0i16; DENSE1];
    // SAFETY: 16 `i16`, one unaligned 256-bit store.
    unsafe {
        _mm256_storeu_si256(
            h1.as_mut_ptr().cast(),
            _mm256_permute4x64_epi64::<0b11_01_10_00>(packed),
        )
    };
    h1
}

/// `output_body` eight units a register, the lanes summed at the end.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_output(z2: &[i32; DENSE2], b2: &[i32], w3: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    let (b2, w3) = (&b2[..DENSE2], &w3[..DENSE2]);
    let mut acc = _mm256_setzero_si256();
    for ((z, b), w) in z2
        .chunks_exact(8)
        .zip(b2.chunks_exact(8))
        .zip(w3.chunks_exact(8))
    {
        // SAFETY: 8 `i32` of each, unaligned 256-bit loads; 8 `i16`, a 128-bit load.
        let (z, b, w) = unsafe {
            (
                _mm256_loadu_si256(z.as_ptr().cast()),
                _mm256_loadu_si256(b.as_ptr().cast()),
                _mm256_cvtepi16_epi32(_mm_loadu_si128(w.as_ptr().cast())),
            )
        };
        let v = avx2_clip_ratio(_mm256_add_epi32(z, b), 1, SECOND_DIV);
        acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(_mm256_mullo_epi32(v, v), w));
    }
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256::<1>(acc),
    );
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s)
}

/// `second_body` with each pair of inputs broadcast against its 32 units' weights, eight
/// units a register (`vpmaddwd`: pairs of products of at most 16,256 · 254).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_second(h1: &[i16; DENSE1], w: &[i16]) -> [i32; DENSE2] {
    use std::arch::x86_64::*;
    const { assert!(DENSE2 == 32) };
    let w = &w[..DENSE1 * DENSE2];
    let mut acc = [_mm256_setzero_si256(); 4];
    for (pair, wp) in h1.chunks_exact(2).zip(w.chunks_exact(2 * DENSE2)) {
        let x = _mm256_set1_epi32(i32::from(pair[0] as u16) | i32::from(pair[1]) << 16);
        for (a, wr) in acc.iter_mut().zip(wp.chunks_exact(16)) {
            // SAFETY: 16 `i16`, one unaligned 256-bit load.
            let wv = unsafe { _mm256_loadu_si256(wr.as_ptr().cast()) };
            *a = _mm256_add_epi32(*a, _mm256_madd_epi16(x, wv));
        }
    }
    let mut z = [0i32; DENSE2];
    for (a, out) in acc.iter().zip(z.chunks_exact_mut(8)) {
        // SAFETY: 8 `i32`, one unaligned 256-bit store.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), *a) };
    }
    z
}

/// The dense layers after the feature layer: the output at `DENSE_SCALE` (see
/// `network::Dense`).
#[inline(always)]
fn dense_body<const N: usize, D: Dot>(us: &[i16], them: &[i16], l: DenseLayers) -> i32 {
    let mut input = [0u8; N];
    let (a_us, a_them) = input.split_at_mut(N / 2);
    D::pairs::<N>(us, a_us);
    D::pairs::<N>(them, a_them);
    let h1 = D::first_out(&D::affine::<N>(&input, l.w1), l.b1);
    l.b3 + D::output(&D::second(&h1, l.w2), l.b2, l.w3)
}

macro_rules! compiled_for {
    ($name:ident, $feature:literal, $dot:ty) => {
        #[cfg(target_arch = "x86_64")]
        mod $name {
            use super::*;

            #[target_feature(enable = $feature)]
            pub fn sub_add<const N: usize>(d: &mut [i16], s: &[i16], a: &[i16], b: &[i16]) {
                sub_add_body::<N>(d, s, a, b)
            }

            #[target_feature(enable = $feature)]
            pub fn sub_sub_add<const N: usize>(
                d: &mut [i16],
                s: &[i16],
                a: &[i16],
                b: &[i16],
                c: &[i16],
            ) {
                sub_sub_add_body::<N>(d, s, a, b, c)
            }

            #[target_feature(enable = $feature)]
            pub fn add<const N: usize>(d: &mut [i16], a: &[i16]) {
                add_body::<N>(d, a)
            }

            #[target_feature(enable = $feature)]
            pub fn sub<const N: usize>(d: &mut [i16], s: &[i16]) {
                sub_body::<N>(d, s)
            }

            #[target_feature(enable = $feature)]
            pub fn screlu_dot<const N: usize>(x: &[i16], w: &[i16]) -> i64 {
                <$dot>::screlu_dot::<N>(x, w)
            }

            #[target_feature(enable = $feature)]
            pub fn dense<const N: usize>(us: &[i16], them: &[i16], l: DenseLayers) -> i32 {
                dense_body::<N, $dot>(us, them, l)
            }
        }
    };
}

compiled_for!(avx2, "avx2", Avx2Dot);
compiled_for!(avx512, "avx512f,avx512bw", PlainDot);

// Each `unsafe` below calls a kernel compiled for features that `Kernel::available` saw on
// this machine: only such kernels are ever handed out. The width is `dst`'s (or `x`'s)
// length; every other slice is at least as long.

/// `dst = src − sub + add`.
#[inline(always)]
pub fn sub_add(k: Kernel, dst: &mut [i16], src: &[i16], sub: &[i16], add: &[i16]) {
    by_width!(dst.len(), |N| match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { avx512::sub_add::<N>(dst, src, sub, add) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { avx2::sub_add::<N>(dst, src, sub, add) },
        _ => sub_add_body::<N>(dst, src, sub, add),
    })
}

/// `dst = src − sub1 − sub2 + add`.
#[inline(always)]
pub fn sub_sub_add(
    k: Kernel,
    dst: &mut [i16],
    src: &[i16],
    sub1: &[i16],
    sub2: &[i16],
    add: &[i16],
) {
    by_width!(dst.len(), |N| match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { avx512::sub_sub_add::<N>(dst, src, sub1, sub2, add) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { avx2::sub_sub_add::<N>(dst, src, sub1, sub2, add) },
        _ => sub_sub_add_body::<N>(dst, src, sub1, sub2, add),
    })
}

/// `dst += add`.
#[inline(always)]
pub fn add(k: Kernel, dst: &mut [i16], add: &[i16]) {
    by_width!(dst.len(), |N| match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { avx512::add::<N>(dst, add) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { avx2::add::<N>(dst, add) },
        _ => add_body::<N>(dst, add),
    })
}

/// `dst -= sub`.
#[inline(always)]
pub fn sub(k: Kernel, dst: &mut [i16], sub: &[i16]) {
    by_width!(dst.len(), |N| match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { avx512::sub::<N>(dst, sub) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { avx2::sub::<N>(dst, sub) },
        _ => sub_body::<N>(dst, sub),
    })
}

/// Σ a² · w over the hidden layer (see `screlu_dot_body`).
#[inline(always)]
pub fn screlu_dot(k: Kernel, x: &[i16], w: &[i16]) -> i64 {
    by_width!(x.len(), |N| match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { avx512::screlu_dot::<N>(x, w) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { avx2::screlu_dot::<N>(x, w) },
        _ => screlu_dot_body::<N>(x, w),
    })
}

/// The dense layers' output at `DENSE_SCALE` from both views' sums (see `network::Dense`).
#[inline(always)]
pub fn dense(k: Kernel, us: &[i16], them: &[i16], l: DenseLayers) -> i32 {
    by_width!(us.len(), |N| match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { avx512::dense::<N>(us, them, l) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { avx2::dense::<N>(us, them, l) },
        _ => dense_body::<N, PlainDot>(us, them, l),
    })
}
