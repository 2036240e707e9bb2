//! The net's integer kernels, written once as plain loops and compiled three times: for AVX-512,
//! for AVX2 and portably, each for every width of the hidden layer a net may have. The
//! machine's best is chosen once at run time, the width by the slices' length. Integer
//! arithmetic in the same order, so every path returns the same values (a test checks).

use std::sync::LazyLock;

use super::network::{DENSE_IN_SHIFT, DENSE1, DENSE2, DenseLayers, FT_SHIFT, QA, QD, QFT};

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

/// A feature sum's activation as the first dense layer reads it: the squared clipped ReLU,
/// a² at QA² less `DENSE_IN_SHIFT` bits (11 bits: its sums with the weights stay in `i32`,
/// and small activations keep their precision).
#[inline(always)]
fn ft_activation(x: i16) -> i16 {
    let v = i32::from(ft_clipped(x));
    ((v * v) >> DENSE_IN_SHIFT) as i16
}

/// A dense layer's sum, at QA times `unit`, to its clipped value at QA (squared by the caller
/// in `i32`, exactly).
#[inline(always)]
fn clipped(z: i32, unit: i32) -> i32 {
    ((z + unit / 2) / unit).clamp(0, QA)
}

/// Σ a · w of `i16` activations and weights in `i32`, the first dense layer's inner loop, and
/// `screlu_dot_body`'s sum: the plain loops, or the machine's multiply-and-add-pairs
/// instruction (the sums are exact in any order, so both give the same values).
trait Dot {
    fn dot<const N: usize>(a: &[i16; N], w: &[i16]) -> i32;
    fn screlu_dot<const N: usize>(x: &[i16], w: &[i16]) -> i64;
}

/// The plain loop (portable, and AVX-512's, whose speed this machine cannot measure).
struct PlainDot;

impl Dot for PlainDot {
    #[inline(always)]
    fn dot<const N: usize>(a: &[i16; N], w: &[i16]) -> i32 {
        let w = &w[..N];
        let mut s = 0i32;
        for i in 0..N {
            s += i32::from(a[i]) * i32::from(w[i]);
        }
        s
    }

    #[inline(always)]
    fn screlu_dot<const N: usize>(x: &[i16], w: &[i16]) -> i64 {
        screlu_dot_body::<N>(x, w)
    }
}

/// AVX2's `vpmaddwd` (the compiler widens the plain loop instead, and for `screlu_dot` it
/// works in 128-bit registers and sums across them every chunk).
#[cfg(target_arch = "x86_64")]
struct Avx2Dot;

#[cfg(target_arch = "x86_64")]
impl Dot for Avx2Dot {
    #[inline(always)]
    fn dot<const N: usize>(a: &[i16; N], w: &[i16]) -> i32 {
        // SAFETY: only the AVX2 kernels use this, and they run only where AVX2 is.
        unsafe { avx2_dot::<N>(a, w) }
    }

    #[inline(always)]
    fn screlu_dot<const N: usize>(x: &[i16], w: &[i16]) -> i64 {
        // SAFETY: as above.
        unsafe { avx2_screlu_dot::<N>(x, w) }
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
    let half = _mm256_set1_epi16(1 << (FT_SHIFT - 1));
    let zero = _mm256_setzero_si256();
    let top = _mm256_set1_epi16(QA as i16);
    let mut acc = zero;
    for (xc, wc) in x.chunks_exact(16).zip(w.chunks_exact(16)) {
        // SAFETY: each chunk holds 16 `i16`, one unaligned 256-bit load.
        let (vx, vw) = unsafe {
            (
                _mm256_loadu_si256(xc.as_ptr().cast()),
                _mm256_loadu_si256(wc.as_ptr().cast()),
            )
        };
        let shifted = _mm256_srai_epi16::<{ FT_SHIFT as i32 }>(_mm256_add_epi16(vx, half));
        let a = _mm256_min_epi16(_mm256_max_epi16(shifted, zero), top);
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

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_dot<const N: usize>(a: &[i16; N], w: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    let w = &w[..N];
    let mut acc = _mm256_setzero_si256();
    for (ac, wc) in a.chunks_exact(16).zip(w.chunks_exact(16)) {
        // SAFETY: each chunk holds 16 `i16`, one unaligned 256-bit load.
        let (va, vw) = unsafe {
            (
                _mm256_loadu_si256(ac.as_ptr().cast()),
                _mm256_loadu_si256(wc.as_ptr().cast()),
            )
        };
        // Pairs of products of at most 2,032 × 254: no lane overflows.
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(va, vw));
    }
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256::<1>(acc),
    );
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s)
}

/// The dense layers after the feature layer: the output at `DENSE_SCALE` (see
/// `network::Dense`).
#[inline(always)]
fn dense_body<const N: usize, D: Dot>(us: &[i16], them: &[i16], l: DenseLayers) -> i32 {
    let (us, them) = (&us[..N], &them[..N]);
    let mut a_us = [0i16; N];
    let mut a_them = [0i16; N];
    for i in 0..N {
        a_us[i] = ft_activation(us[i]);
        a_them[i] = ft_activation(them[i]);
    }
    // The first layer's sums are at QA · QFT: QA² · QD less the activations' shift.
    let mut h1 = [0i32; DENSE1];
    for (j, h) in h1.iter_mut().enumerate() {
        let row = &l.w1[j * 2 * N..(j + 1) * 2 * N];
        let z = D::dot(&a_us, &row[..N]) + D::dot(&a_them, &row[N..]) + l.b1[j];
        let v = clipped(z, QFT);
        *h = v * v;
    }
    let mut out = l.b3;
    for k in 0..DENSE2 {
        let row = &l.w2[k * DENSE1..(k + 1) * DENSE1];
        let mut z = l.b2[k];
        for j in 0..DENSE1 {
            z += h1[j] * i32::from(row[j]);
        }
        let v = clipped(z, QA * QD);
        out += v * v * i32::from(l.w3[k]);
    }
    out
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
