//! The net's integer kernels, written once as plain loops and compiled three times: for AVX-512,
//! for AVX2 and portably. The machine's best is chosen once at run time. Integer arithmetic in
//! the same order, so every path returns the same values (a test checks).

use std::sync::LazyLock;

use super::network::{FT_SHIFT, HIDDEN, QA};

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

/// Products of an activation chunk are summed in `i32` (at most 32 × 255² × 127 < 2³¹), the
/// chunks in `i64`.
const CHUNK: usize = 32;

#[inline(always)]
fn sub_add_body(dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], sub: &[i16], add: &[i16]) {
    let (sub, add) = (&sub[..HIDDEN], &add[..HIDDEN]);
    for i in 0..HIDDEN {
        dst[i] = src[i].wrapping_sub(sub[i]).wrapping_add(add[i]);
    }
}

#[inline(always)]
fn sub_sub_add_body(
    dst: &mut [i16; HIDDEN],
    src: &[i16; HIDDEN],
    sub1: &[i16],
    sub2: &[i16],
    add: &[i16],
) {
    let (sub1, sub2, add) = (&sub1[..HIDDEN], &sub2[..HIDDEN], &add[..HIDDEN]);
    for i in 0..HIDDEN {
        dst[i] = src[i]
            .wrapping_sub(sub1[i])
            .wrapping_sub(sub2[i])
            .wrapping_add(add[i]);
    }
}

#[inline(always)]
fn add_body(dst: &mut [i16; HIDDEN], add: &[i16]) {
    let add = &add[..HIDDEN];
    for i in 0..HIDDEN {
        dst[i] = dst[i].wrapping_add(add[i]);
    }
}

/// Σ a² · w with the activation a = clamp(x / 2^FT_SHIFT rounded, 0, QA), as (a · w) in
/// `i16` (|w| ≤ 127) times a in `i32`.
#[inline(always)]
fn screlu_dot_body(x: &[i16; HIDDEN], w: &[i16]) -> i64 {
    let w = &w[..HIDDEN];
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
            pub fn sub_add(d: &mut [i16; HIDDEN], s: &[i16; HIDDEN], a: &[i16], b: &[i16]) {
                sub_add_body(d, s, a, b)
            }

            #[target_feature(enable = $feature)]
            pub fn sub_sub_add(
                d: &mut [i16; HIDDEN],
                s: &[i16; HIDDEN],
                a: &[i16],
                b: &[i16],
                c: &[i16],
            ) {
                sub_sub_add_body(d, s, a, b, c)
            }

            #[target_feature(enable = $feature)]
            pub fn add(d: &mut [i16; HIDDEN], a: &[i16]) {
                add_body(d, a)
            }

            #[target_feature(enable = $feature)]
            pub fn screlu_dot(x: &[i16; HIDDEN], w: &[i16]) -> i64 {
                screlu_dot_body(x, w)
            }
        }
    };
}

compiled_for!(avx2, "avx2");
compiled_for!(avx512, "avx512f,avx512bw");

// Each `unsafe` below calls a kernel compiled for features that `Kernel::available` saw on
// this machine: only such kernels are ever handed out.

/// `dst = src − sub + add`.
#[inline(always)]
pub fn sub_add(k: Kernel, dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], sub: &[i16], add: &[i16]) {
    match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { avx512::sub_add(dst, src, sub, add) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { avx2::sub_add(dst, src, sub, add) },
        _ => sub_add_body(dst, src, sub, add),
    }
}

/// `dst = src − sub1 − sub2 + add`.
#[inline(always)]
pub fn sub_sub_add(
    k: Kernel,
    dst: &mut [i16; HIDDEN],
    src: &[i16; HIDDEN],
    sub1: &[i16],
    sub2: &[i16],
    add: &[i16],
) {
    match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { avx512::sub_sub_add(dst, src, sub1, sub2, add) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { avx2::sub_sub_add(dst, src, sub1, sub2, add) },
        _ => sub_sub_add_body(dst, src, sub1, sub2, add),
    }
}

/// `dst += add`.
#[inline(always)]
pub fn add(k: Kernel, dst: &mut [i16; HIDDEN], add: &[i16]) {
    match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { avx512::add(dst, add) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { avx2::add(dst, add) },
        _ => add_body(dst, add),
    }
}

/// Σ a² · w over the hidden layer (see `screlu_dot_body`).
#[inline(always)]
pub fn screlu_dot(k: Kernel, x: &[i16; HIDDEN], w: &[i16]) -> i64 {
    match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { avx512::screlu_dot(x, w) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { avx2::screlu_dot(x, w) },
        _ => screlu_dot_body(x, w),
    }
}
