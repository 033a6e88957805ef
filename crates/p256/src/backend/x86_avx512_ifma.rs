//! AVX-512 IFMA backend: GF(p) eight elements at a time, one element per 64-bit lane of five
//! zmm registers (limb `k` of every lane in register `k`), radix 2^52, Montgomery form with
//! `R = 2^260`, multiplied with the 52-bit multiply-adds (`vpmadd52luq`/`vpmadd52huq`).
//!
//! The fixed-base multiplication runs eight independent chains of the complete mixed addition
//! (Renes-Costello-Batina Algorithm 5, the macro of [`crate::point`] evaluated on this lane
//! field): lane `j` adds the digits of the table rows `j, j + 8, j + 16, ...` (six rounds for
//! the 43 rows), each from a compile-time copy of [`crate::table::TABLE`] in this
//! representation laid out lane by lane ([`TABLE8`]), every entry of a row read and kept by a
//! lane mask (no secret index). The eight partial sums are then added pairwise with the
//! complete addition (Algorithm 4) in three rounds (lanes `j + 4`, `j + 2`, `j + 1` onto `j`),
//! and lane 0 goes back to the shared representation and through the inversion (on the
//! BMI2/ADX field).
//!
//! The variable-base and double-base multiplications have one chain of point operations;
//! they run on the BMI2/ADX field (the token implies it) in Jacobian coordinates
//! ([`crate::mul`]). One point packed per vector, each complete formula as three
//! multiplication rounds of this lane field, measured slower there (about 62 against 45 µs for
//! `k P` with the conversion to affine, Zen 4 class core), so this file has no such path.
//!
//! Montgomery multiplication (coarsely integrated operand scanning, five rounds). In radix 2^52
//! `p = -1 mod 2^52`, so `-p^(-1) mod 2^52 = 1`: the reduction multiplier of a round is the low
//! 52 bits `m` of the lowest accumulator limb `t0`, and since limb 0 of `p` is `2^52 - 1` its
//! product needs no multiply: `t0 + m (2^52 - 1) = (floor(t0 / 2^52) + m) 2^52`. Limb 2 of `p`
//! is zero, so a round reduces with three multiply-add pairs (limbs 1, 3, 4).
//!
//! Bounds (values are the integers the limbs stand for, not reduced mod p):
//! - every element handed to [`mul`], [`add`], [`sub`] is *normalized*: limbs 0..3 below
//!   `2^52`, limb 4 below `2^52`, value below `2 p` (the multiply-adds read 52 bits of a limb);
//! - [`mul`] of values below `4 p` is below `(16 p^2 + 2^260 p) / 2^260 < 2 p` (`p < 2^256`),
//!   normalized on the way out; over the five rounds an accumulator limb gathers at most 25
//!   terms below `2^52` (per round two product halves, two reduction product halves and a
//!   carry), so it stays below `2^57`;
//! - [`add`] and [`sub`] compute two candidates, `a + b - 2 p` and `a + b` (`a - b` and
//!   `a - b + 2 p`), with signed carries side by side, and keep the first unless it is
//!   negative: the result is normalized and below `2 p`.
//!
//! Only the final conversion reduces below `p`.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use subtle::Choice;
use tessera_cpu::X86Avx512Ifma;

use crate::fe::{self, Limbs, P};
use crate::field::{B as B64, ONE as ONE64};
use crate::point::{Affine as Affine64, Projective as Projective64, rcb_add, rcb_add_mixed};
use crate::scalar::Scalar;
use crate::table::{COLS, ROWS, TABLE, W};

/// Five limbs of eight lanes: register `k` holds limb `k` (weight `2^(52 k)`) of each lane.
type V = [__m512i; 5];

const M52: u64 = (1 << 52) - 1;

/// The low 260 bits of a five-word integer as five 52-bit limbs.
const fn to52(w: &[u64; 5]) -> [u64; 5] {
    [
        w[0] & M52,
        (w[0] >> 52 | w[1] << 12) & M52,
        (w[1] >> 40 | w[2] << 24) & M52,
        (w[2] >> 28 | w[3] << 36) & M52,
        (w[3] >> 16 | w[4] << 48) & M52,
    ]
}

/// Five 52-bit limbs (normalized) as a five-word integer.
const fn from52(l: &[u64; 5]) -> [u64; 5] {
    [
        l[0] | l[1] << 52,
        l[1] >> 12 | l[2] << 40,
        l[2] >> 24 | l[3] << 28,
        l[3] >> 36 | l[4] << 16,
        l[4] >> 48,
    ]
}

/// A field element of the shared representation (`a 2^256 mod p`, below `p`) in this one
/// (`a 2^260 mod p`, 52-bit limbs): times 16 by four modular doublings.
const fn from_shared(a: &Limbs) -> [u64; 5] {
    let mut x = *a;
    let mut i = 0;
    while i < 4 {
        x = fe::add(&x, &x, &P.m);
        i += 1;
    }
    to52(&[x[0], x[1], x[2], x[3], 0])
}

/// `p` in radix 2^52.
const P52: [u64; 5] = to52(&[P.m[0], P.m[1], P.m[2], P.m[3], 0]);
/// `2 p` in radix 2^52.
const TWO_P52: [u64; 5] = to52(&[
    P.m[0] << 1,
    P.m[1] << 1 | P.m[0] >> 63,
    P.m[2] << 1 | P.m[1] >> 63,
    P.m[3] << 1 | P.m[2] >> 63,
    P.m[3] >> 63,
]);
/// `1` (`2^260 mod p`).
const ONE52: [u64; 5] = from_shared(&ONE64);
/// The curve coefficient `b`.
const B52: [u64; 5] = from_shared(&B64);
/// The integer `2^256 mod p` (the shared `1`): the Montgomery product by it takes `a 2^260`
/// to `a 2^256`.
const TO_SHARED: [u64; 5] = to52(&[ONE64[0], ONE64[1], ONE64[2], ONE64[3], 0]);

// The reduction of `mul` relies on limb 0 of `p` being `2^52 - 1` and limb 2 being zero.
const _: () = assert!(P52[0] == M52 && P52[2] == 0);
const _: () = {
    let w = from52(&P52);
    assert!(w[0] == P.m[0] && w[1] == P.m[1] && w[2] == P.m[2] && w[3] == P.m[3] && w[4] == 0);
};

/// The curve coefficient `b` in every lane (the name the formula macros read).
// SAFETY: `[[u64; 8]; 5]` and `[__m512i; 5]` have the same size, and every bit pattern is a
// valid `__m512i`.
const B: V = unsafe { core::mem::transmute::<[[u64; 8]; 5], V>(lanes8(&B52)) };

/// Every lane of each limb set to that limb.
const fn lanes8(l: &[u64; 5]) -> [[u64; 8]; 5] {
    [[l[0]; 8], [l[1]; 8], [l[2]; 8], [l[3]; 8], [l[4]; 8]]
}

/// Rounds of eight rows.
const ROUNDS: usize = ROWS.div_ceil(8);

/// An entry of [`TABLE8`]: limbs `x0..x4, y0..y4`, each for the eight lanes.
type Entry8 = [[u64; 8]; 10];

/// [`TABLE`] in this representation, lane by lane: `TABLE8[r][c][l][j]` is limb `l` of entry
/// `c` of row `8 r + j` (zero past the last row, whose digit is always zero).
static TABLE8: [[Entry8; COLS]; ROUNDS] = build8(&TABLE);

const fn build8(t: &[[Affine64; COLS]; ROWS]) -> [[Entry8; COLS]; ROUNDS] {
    let mut out = [[[[0u64; 8]; 10]; COLS]; ROUNDS];
    let mut row = 0;
    while row < ROWS {
        let mut c = 0;
        while c < COLS {
            let x = from_shared(&t[row][c].x);
            let y = from_shared(&t[row][c].y);
            let mut l = 0;
            while l < 5 {
                out[row / 8][c][l][row % 8] = x[l];
                out[row / 8][c][5 + l][row % 8] = y[l];
                l += 1;
            }
            c += 1;
        }
        row += 1;
    }
    out
}

/// The broadcast of `x`.
#[inline(always)]
fn splat(t: X86Avx512Ifma, x: u64) -> __m512i {
    let _ = t;
    // SAFETY: AVX-512 F proven by `t`.
    unsafe { _mm512_set1_epi64(x as i64) }
}

/// The broadcast of a constant element.
#[inline(always)]
fn splat5(t: X86Avx512Ifma, l: &[u64; 5]) -> V {
    [
        splat(t, l[0]),
        splat(t, l[1]),
        splat(t, l[2]),
        splat(t, l[3]),
        splat(t, l[4]),
    ]
}

/// Unsigned carry propagation: limbs 0..3 keep 52 bits and pass the rest on; limb 4 keeps
/// everything (limbs below `2^63` in, value below `2^260` for a normalized result).
#[inline(always)]
fn normalize(t: X86Avx512Ifma, mut w: V) -> V {
    let m = splat(t, M52);
    // SAFETY: AVX-512 F proven by `t`.
    unsafe {
        for k in 0..4 {
            let c = _mm512_srli_epi64::<52>(w[k]);
            w[k] = _mm512_and_si512(w[k], m);
            w[k + 1] = _mm512_add_epi64(w[k + 1], c);
        }
    }
    w
}

/// The lane-wise Montgomery product `a b 2^(-260) mod p` (bounds in the module docs).
#[inline(always)]
fn mul(t: X86Avx512Ifma, a: &V, b: &V) -> V {
    let m52 = splat(t, M52);
    let (p1, p3, p4) = (splat(t, P52[1]), splat(t, P52[3]), splat(t, P52[4]));
    // SAFETY: AVX-512 F and IFMA proven by `t`.
    unsafe {
        let z = _mm512_setzero_si512();
        let mut acc = [z; 6];
        for bi in b {
            for j in 0..5 {
                acc[j] = _mm512_madd52lo_epu64(acc[j], a[j], *bi);
                acc[j + 1] = _mm512_madd52hi_epu64(acc[j + 1], a[j], *bi);
            }
            // m = t0 mod 2^52; t + m p = t - m + m 2^52 + m (p - p0) at limb 0: the carry
            // into limb 1 is floor(t0 / 2^52) + m.
            let m = _mm512_and_si512(acc[0], m52);
            let c = _mm512_add_epi64(_mm512_srli_epi64::<52>(acc[0]), m);
            acc[1] = _mm512_madd52lo_epu64(acc[1], m, p1);
            acc[2] = _mm512_madd52hi_epu64(acc[2], m, p1);
            acc[3] = _mm512_madd52lo_epu64(acc[3], m, p3);
            acc[4] = _mm512_madd52hi_epu64(acc[4], m, p3);
            acc[4] = _mm512_madd52lo_epu64(acc[4], m, p4);
            acc[5] = _mm512_madd52hi_epu64(acc[5], m, p4);
            acc = [
                _mm512_add_epi64(acc[1], c),
                acc[2],
                acc[3],
                acc[4],
                acc[5],
                z,
            ];
        }
        normalize(t, [acc[0], acc[1], acc[2], acc[3], acc[4]])
    }
}

/// Signed carry propagation: limbs 0..3 keep 52 bits (non-negative) and pass the rest on
/// (arithmetic shift); limb 4 keeps the sign of the value.
#[inline(always)]
fn carry_signed(t: X86Avx512Ifma, mut s: V) -> V {
    let m = splat(t, M52);
    // SAFETY: AVX-512 F proven by `t`.
    unsafe {
        for k in 0..4 {
            let c = _mm512_srai_epi64::<52>(s[k]);
            s[k] = _mm512_and_si512(s[k], m);
            s[k + 1] = _mm512_add_epi64(s[k + 1], c);
        }
    }
    s
}

/// The two candidates of an addition or subtraction, as signed limbs: `lo = v - 2 p`-like
/// (value in `[-2 p, 2 p)`) and `hi = lo + 2 p` (value in `[0, 4 p)`): `lo` where it is not
/// negative, else `hi`; both carried in parallel (one carry chain deep). The result is
/// normalized and below `2 p`.
#[inline(always)]
fn pick_nonneg(t: X86Avx512Ifma, lo: V, hi: V) -> V {
    let lo = carry_signed(t, lo);
    let hi = carry_signed(t, hi);
    // SAFETY: AVX-512 F proven by `t`.
    let neg = unsafe { _mm512_cmplt_epi64_mask(lo[4], _mm512_setzero_si512()) };
    select(t, &lo, neg, &hi)
}

/// `a + b mod p`, below `2 p`.
#[inline(always)]
fn add(t: X86Avx512Ifma, a: &V, b: &V) -> V {
    let two_p = splat5(t, &TWO_P52);
    let (mut lo, mut hi) = (*a, *a);
    for k in 0..5 {
        // SAFETY: AVX-512 F proven by `t`.
        unsafe {
            hi[k] = _mm512_add_epi64(a[k], b[k]);
            lo[k] = _mm512_sub_epi64(hi[k], two_p[k]);
        }
    }
    pick_nonneg(t, lo, hi)
}

/// `a - b mod p`, below `2 p`.
#[inline(always)]
fn sub(t: X86Avx512Ifma, a: &V, b: &V) -> V {
    let two_p = splat5(t, &TWO_P52);
    let (mut lo, mut hi) = (*a, *a);
    for k in 0..5 {
        // SAFETY: AVX-512 F proven by `t`.
        unsafe {
            lo[k] = _mm512_sub_epi64(a[k], b[k]);
            hi[k] = _mm512_add_epi64(lo[k], two_p[k]);
        }
    }
    pick_nonneg(t, lo, hi)
}

/// The lanes where `k` is set from `b`, the others from `a`.
#[inline(always)]
fn select(t: X86Avx512Ifma, a: &V, k: __mmask8, b: &V) -> V {
    let _ = t;
    let mut r = *a;
    for (r, b) in r.iter_mut().zip(b) {
        // SAFETY: AVX-512 F proven by `t`.
        *r = unsafe { _mm512_mask_mov_epi64(*r, k, *b) };
    }
    r
}

/// Lane `j` of the result is lane `j + S` of `a` (lanes past 7 wrap; only the low lanes of
/// the pairwise sums are used).
#[inline(always)]
fn shift_lanes<const S: i32>(t: X86Avx512Ifma, a: &V) -> V {
    let _ = t;
    let mut r = *a;
    for r in r.iter_mut() {
        // SAFETY: AVX-512 F proven by `t`.
        *r = unsafe { _mm512_alignr_epi64::<S>(*r, *r) };
    }
    r
}

/// The field of the lanes, as the value the formula macros of [`crate::point`] call.
#[derive(Clone, Copy)]
struct Lanes(X86Avx512Ifma);

impl Lanes {
    #[inline(always)]
    fn mul(self, a: &V, b: &V) -> V {
        mul(self.0, a, b)
    }
    #[inline(always)]
    fn add(self, a: &V, b: &V) -> V {
        add(self.0, a, b)
    }
    #[inline(always)]
    fn sub(self, a: &V, b: &V) -> V {
        sub(self.0, a, b)
    }
}

/// Eight projective points, one per lane (the name the formula macros build).
#[derive(Clone, Copy)]
struct Projective {
    x: V,
    y: V,
    z: V,
}

/// Eight affine points, one per lane.
#[derive(Clone, Copy)]
struct Affine {
    x: V,
    y: V,
}

/// Lane 0 of an element, canonical (below `p`), in the shared representation.
#[inline(always)]
fn lane0_shared(t: X86Avx512Ifma, a: &V) -> Limbs {
    let r = mul(t, a, &splat5(t, &TO_SHARED));
    let mut l = [0u64; 5];
    for (l, v) in l.iter_mut().zip(r) {
        // SAFETY: AVX-512 F proven by `t`.
        *l = unsafe { _mm_cvtsi128_si64(_mm512_castsi512_si128(v)) } as u64;
    }
    let w = from52(&l);
    // Below 2 p: one masked subtraction.
    fe::sub_if_ge(&[w[0], w[1], w[2], w[3]], w[4], &P.m)
}

/// `k G`, constant time in `k` (schedule in the module docs), affine, and whether it is the
/// identity.
#[inline(always)]
pub(crate) fn mul_base(t: X86Avx512Ifma, k: &Scalar) -> (Affine64, Choice) {
    let f = Lanes(t);
    let zero = splat5(t, &[0; 5]);
    let mut d = k.booth::<W, ROWS>();
    let mut r = Projective {
        x: zero,
        y: splat5(t, &ONE52),
        z: zero,
    };
    let mut e = Affine { x: zero, y: zero };
    let mut digits = [[0u64; 8]; 2];
    for (round, entries) in TABLE8.iter().enumerate() {
        let [mags, signs] = &mut digits;
        for (j, (m, sg)) in mags.iter_mut().zip(signs.iter_mut()).enumerate() {
            // Public positions; the digits themselves are only copied.
            let (mag, sign) = d.get(8 * round + j).copied().unwrap_or((0, 0));
            *m = mag as u64;
            *sg = sign as u64;
        }
        // SAFETY: AVX-512 F proven by `t`; `digits[i]` is 64 readable bytes (unaligned load).
        let (mag, sign) = unsafe {
            (
                _mm512_loadu_si512(digits[0].as_ptr().cast()),
                _mm512_loadu_si512(digits[1].as_ptr().cast()),
            )
        };
        e = Affine { x: zero, y: zero };
        for (c, entry) in entries.iter().enumerate() {
            // SAFETY: AVX-512 F proven by `t`; `entry[l]` is 64 readable bytes (unaligned
            // load). Every entry is loaded; the lanes whose digit matches keep it.
            unsafe {
                let hit = _mm512_cmpeq_epi64_mask(mag, splat(t, c as u64 + 1));
                for l in 0..5 {
                    let x = _mm512_loadu_si512(entry[l].as_ptr().cast());
                    let y = _mm512_loadu_si512(entry[5 + l].as_ptr().cast());
                    e.x[l] = _mm512_mask_mov_epi64(e.x[l], hit, x);
                    e.y[l] = _mm512_mask_mov_epi64(e.y[l], hit, y);
                }
            }
        }
        // SAFETY: AVX-512 F proven by `t`.
        let (neg, nonzero) = unsafe {
            (
                _mm512_cmpeq_epi64_mask(sign, splat(t, 1)),
                _mm512_cmpneq_epi64_mask(mag, _mm512_setzero_si512()),
            )
        };
        e.y = select(t, &e.y, neg, &sub(t, &zero, &e.y));
        let s = rcb_add_mixed!(f, &r, &e);
        // A zero digit adds nothing: its lanes keep `r`.
        r = Projective {
            x: select(t, &r.x, nonzero, &s.x),
            y: select(t, &r.y, nonzero, &s.y),
            z: select(t, &r.z, nonzero, &s.z),
        };
    }
    // The eight partial sums: lanes j + 4, then j + 2, then j + 1 onto j.
    let q = Projective {
        x: shift_lanes::<4>(t, &r.x),
        y: shift_lanes::<4>(t, &r.y),
        z: shift_lanes::<4>(t, &r.z),
    };
    r = rcb_add!(f, &r, &q);
    let q = Projective {
        x: shift_lanes::<2>(t, &r.x),
        y: shift_lanes::<2>(t, &r.y),
        z: shift_lanes::<2>(t, &r.z),
    };
    r = rcb_add!(f, &r, &q);
    let q = Projective {
        x: shift_lanes::<1>(t, &r.x),
        y: shift_lanes::<1>(t, &r.y),
        z: shift_lanes::<1>(t, &r.z),
    };
    r = rcb_add!(f, &r, &q);
    let mut p = Projective64 {
        x: lane0_shared(t, &r.x),
        y: lane0_shared(t, &r.y),
        z: lane0_shared(t, &r.z),
    };
    let out = crate::point::to_affine(t.bmi2_adx(), &p);
    zeroize::Zeroize::zeroize(&mut d);
    zeroize::Zeroize::zeroize(&mut digits);
    zeroize::Zeroize::zeroize(&mut p);
    for v in [&mut r.x, &mut r.y, &mut r.z, &mut e.x, &mut e.y] {
        *v = zero;
    }
    // Keep the wipes of the lane registers (dead stores otherwise).
    core::hint::black_box((&r.x, &r.y, &r.z, &e.x, &e.y));
    out
}

/// The lane field at its bounds against the `const fn` arithmetic of [`crate::fe`].
#[cfg(test)]
mod tests {
    #![allow(clippy::needless_range_loop)]
    extern crate std;
    use super::*;
    use std::vec::Vec;

    /// `x mod p` for a five-word integer below `2 p`.
    fn canon(w: &[u64; 5]) -> Limbs {
        fe::sub_if_ge(&[w[0], w[1], w[2], w[3]], w[4], &P.m)
    }

    /// Integers below `2 p` as five words: the edges and pseudo-random ones.
    fn samples() -> Vec<[u64; 5]> {
        let two_p = from52(&TWO_P52);
        let sub_small = |a: &[u64; 5], k: u64| {
            let mut r = *a;
            let (v, mut b) = r[0].overflowing_sub(k);
            r[0] = v;
            for w in r.iter_mut().skip(1) {
                let (v, c) = w.overflowing_sub(b as u64);
                *w = v;
                b = c;
            }
            r
        };
        let p5 = [P.m[0], P.m[1], P.m[2], P.m[3], 0];
        let mut v = std::vec![
            [0; 5],
            [1, 0, 0, 0, 0],
            sub_small(&p5, 1),
            p5,
            [P.m[0].wrapping_add(1), P.m[1], P.m[2], P.m[3], 0],
            sub_small(&two_p, 1),
            sub_small(&two_p, 2),
            [u64::MAX, u64::MAX, u64::MAX, u64::MAX, 0],
            [0, 0, 0, 0, 1],
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        while v.len() < 200 {
            let mut e = [0u64; 5];
            for w in e.iter_mut().take(4) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *w = x;
            }
            // Half of them above 2^256 (below 2 p: top word 1 and word 3 small).
            if x & 1 == 1 {
                e[4] = 1;
                e[3] &= 0x7fff_ffff;
            }
            v.push(e);
        }
        v
    }

    tessera_cpu::island! {
        /// `mul`, `add`, `sub` on inputs up to `2 p - 1`: congruent to the reference, below
        /// `2 p`, limbs below `2^52`.
        fn check_limits(t: X86Avx512Ifma) -> usize {
            let s = samples();
            let two_p = from52(&TWO_P52);
            let mut n = 0;
            for (i, a) in s.iter().enumerate() {
                let b = &s[(7 * i + 3) % s.len()];
                let (va, vb) = (splat5(t, &to52(a)), splat5(t, &to52(b)));
                let (ca, cb) = (canon(a), canon(b));
                let outs = [mul(t, &va, &vb), add(t, &va, &vb), sub(t, &va, &vb)];
                // a b 2^(-260) = (a b 2^(-256)) 2^(-4): the result times 16 against mont_mul.
                let want = [
                    fe::mont_mul(&ca, &cb, &P),
                    fe::add(&ca, &cb, &P.m),
                    fe::sub(&ca, &cb, &P.m),
                ];
                for (k, (o, w)) in outs.iter().zip(want).enumerate() {
                    let mut l = [[0u64; 8]; 5];
                    for (l, v) in l.iter_mut().zip(o) {
                        // SAFETY: AVX-512 F proven by `t`; 64 writable bytes.
                        unsafe { _mm512_storeu_si512(l.as_mut_ptr().cast(), *v) };
                    }
                    for j in 0..8 {
                        let limbs = [l[0][j], l[1][j], l[2][j], l[3][j], l[4][j]];
                        assert!(limbs.iter().all(|&x| x < 1 << 52), "limbs {k} {a:x?} {b:x?}");
                        let r = from52(&limbs);
                        // r < 2 p, compared from the top word.
                        let ord = (0..5).rev().map(|w| r[w].cmp(&two_p[w])).find(|o| o.is_ne());
                        assert_eq!(ord, Some(core::cmp::Ordering::Less), "bound {k} {a:x?} {b:x?}");
                        let mut got = canon(&r);
                        if k == 0 {
                            for _ in 0..4 {
                                got = fe::add(&got, &got, &P.m);
                            }
                        }
                        assert_eq!(got, w, "op {k} {a:x?} {b:x?}");
                    }
                }
                n += 1;
            }
            n
        }
    }

    #[test]
    fn lane_field_limits() {
        match X86Avx512Ifma::detect() {
            Some(t) => assert_eq!(check_limits(t), 200),
            None => std::eprintln!("SKIPPED: lane_field_limits: no AVX-512 IFMA on this CPU"),
        }
    }
}
