//! The net's integer kernels, written once as plain loops and compiled three times: for AVX-512,
//! for AVX2 and portably, each for every width of the hidden layer a net may have. The
//! machine's best is chosen once at run time, the width by the slices' length. Integer
//! arithmetic in the same order, so every path returns the same values (a test checks).

use std::sync::LazyLock;

use super::network::{FT_SHIFT, QA};

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

/// Σ a² · w with the activation a = clamp(x / 2^FT_SHIFT rounded, 0, QA), as (a · w) in
/// `i16` (|w| ≤ 127) times a in `i32`.
#[inline(always)]
fn screlu_dot_body<const N: usize>(x: &[i16], w: &[i16]) -> i64 {
    let (x, w) = (&x[..N], &w[..N]);
    let mut total = 0i64;
    for (xc, wc) in x.chunks_exact(CHUNK).zip(w.chunks_exact(CHUNK)) {
        let mut s = 0i32;
        for j in 0..CHUNK {
            let half = 1 << (FT_SHIFT - 1);
            let v = (xc[j].wrapping_add(half) >> FT_SHIFT).clamp(0, QA as i16);
            let t = v.wrapping_mul(wc[j]);
            s = s.wrapping_add(i32::from(t) * i32::from(v));
        }
        total += i64::from(s);
    }
    total
}

macro_rules! compiled_for {
    ($name:ident, $feature:literal) => {
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
            pub fn screlu_dot<const N: usize>(x: &[i16], w: &[i16]) -> i64 {
                screlu_dot_body::<N>(x, w)
            }
        }
    };
}

compiled_for!(avx2, "avx2");
compiled_for!(avx512, "avx512f,avx512bw");

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
