//! Fixed-base scalar multiplication for key generation: `X25519(k, 9)` computed on the
//! birationally equivalent Edwards curve (edwards25519), where the base point `B` maps to
//! `u = 9`, with the precomputed table of `crate::table`.
//!
//! The clamped scalar `s` (`< 2^255`) is recoded into 64 signed radix-16 digits
//! `e_i in [-8, 8]`, `s = sum e_i 16^i`; with row `j` of the table holding `k 256^j B`,
//! `s B = 16 sum_j e_{2j+1} 256^j B + sum_j e_{2j} 256^j B`: 64 mixed additions of table
//! entries, each chosen by reading all eight entries of its row and keeping one by mask
//! (negated by mask for a negative digit), and four doublings. The Montgomery
//! u-coordinate of the result is `u = (1 + y) / (1 - y)`. Since `B` has prime order `L` and
//! `2^254 <= s < 2^255` is never a multiple of `L`, this equals the ladder on 9 for every
//! scalar (the equivalence tests check it byte for byte).
#![forbid(unsafe_code)]

use subtle::Choice;
use zeroize::Zeroize;

use crate::field::{Field, Niels};
use crate::inverse::invert;
use crate::scalar::{clamp, recode};
#[cfg(test)]
use crate::tap;

/// Extended coordinates: `x = X/Z`, `y = Y/Z`, `XY = ZT`.
#[derive(Clone, Copy)]
struct P3<Fe> {
    x: Fe,
    y: Fe,
    z: Fe,
    t: Fe,
}

/// Projective coordinates `x = X/Z`, `y = Y/Z`.
#[derive(Clone, Copy)]
struct P2<Fe> {
    x: Fe,
    y: Fe,
    z: Fe,
}

/// "Completed" coordinates of ref10: `x = X/Z`, `y = Y/T`.
#[derive(Clone, Copy)]
struct P1p1<Fe> {
    x: Fe,
    y: Fe,
    z: Fe,
    t: Fe,
}

/// Scratch elements for the point formulas (allocated once per scalar multiplication).
type Scratch<Fe> = [Fe; 4];

#[inline(always)]
fn to_p3<F: Field>(f: F, p: &mut P3<F::Fe>, r: &P1p1<F::Fe>) {
    f.mul(&mut p.x, &r.x, &r.t);
    f.mul(&mut p.y, &r.y, &r.z);
    f.mul(&mut p.z, &r.z, &r.t);
    f.mul(&mut p.t, &r.x, &r.y);
}

#[inline(always)]
fn to_p2<F: Field>(f: F, p: &mut P2<F::Fe>, r: &P1p1<F::Fe>) {
    f.mul(&mut p.x, &r.x, &r.t);
    f.mul(&mut p.y, &r.y, &r.z);
    f.mul(&mut p.z, &r.z, &r.t);
}

/// `r = 2 P` (dbl-2008-hwcd for `a = -1`, as ref10's `ge_p2_dbl`).
#[inline(always)]
fn dbl<F: Field>(f: F, r: &mut P1p1<F::Fe>, p: &P2<F::Fe>, s: &mut Scratch<F::Fe>) {
    let [xx, yy, aa, b] = s;
    f.sqr(xx, &p.x);
    f.sqr(yy, &p.y);
    f.sqr(aa, &p.z);
    f.add(b, aa, aa); // 2 Z^2
    f.add(aa, &p.x, &p.y);
    f.sqr_assign(aa); // (X + Y)^2
    f.add(&mut r.y, yy, xx);
    f.sub(&mut r.z, yy, xx);
    f.sub(&mut r.x, aa, &r.y);
    f.sub(&mut r.t, b, &r.z);
}

/// `r = P + Q` for an affine `Q` in niels form (madd-2008-hwcd-3, as ref10's `ge_madd`).
#[inline(always)]
fn madd<F: Field>(
    f: F,
    r: &mut P1p1<F::Fe>,
    p: &P3<F::Fe>,
    q: &Niels<F::Fe>,
    s: &mut Scratch<F::Fe>,
) {
    let [t, a, b, c] = s;
    f.add(t, &p.y, &p.x);
    f.mul(a, t, &q.ypx);
    f.sub(t, &p.y, &p.x);
    f.mul(b, t, &q.ymx);
    f.mul(c, &q.xy2d, &p.t);
    f.add(t, &p.z, &p.z); // D = 2 Z
    f.sub(&mut r.x, a, b);
    f.add(&mut r.y, a, b);
    f.add(&mut r.z, t, c);
    f.sub(&mut r.t, t, c);
}

/// `q = d 256^j B` for a digit `d in [-8, 8]` from row `j`: all eight entries are read and the
/// matching one kept by mask, then negated by mask when `d < 0` (`-(x, y)` is `(-x, y)`:
/// swap `y + x` with `y - x`, negate `2 d x y`). `d = 0` gives the identity `(1, 1, 0)`.
/// `minus` is scratch. Both identify the secret digit: the caller wipes them once, at the end.
#[inline(always)]
fn select<F: Field>(f: F, row: &[Niels<F::Fe>; 8], d: i8, q: &mut Niels<F::Fe>, minus: &mut F::Fe) {
    let m = d >> 7; // 0 or -1
    let abs = (d ^ m).wrapping_sub(m) as u8;
    *q = f.lookup(row, abs);
    let negative = Choice::from((m & 1) as u8);
    f.cswap(&mut q.ypx, &mut q.ymx, negative);
    f.neg(minus, &q.xy2d);
    f.cmov(&mut q.xy2d, minus, negative);
}

/// `X25519(k, 9)` through the Edwards table (see the module documentation).
#[inline(always)]
pub(crate) fn x25519_base<F: Field>(f: F, k: &[u8; 32]) -> [u8; 32] {
    let mut sc = clamp(k);
    let mut e = recode(&sc);
    let table = f.table();
    let (zero, one) = (f.zero(), f.one());
    let mut h = P3 {
        x: zero,
        y: one,
        z: one,
        t: zero,
    };
    let mut r = P1p1 {
        x: zero,
        y: zero,
        z: zero,
        t: zero,
    };
    let mut p2 = P2 {
        x: zero,
        y: zero,
        z: zero,
    };
    let mut s = [zero; 4];
    // The selected entry and the negation's scratch, wiped at the end (not per addition).
    let mut q = Niels {
        ypx: zero,
        ymx: zero,
        xy2d: zero,
    };
    let mut minus = zero;
    for (j, row) in table.iter().enumerate() {
        select(f, row, e[2 * j + 1], &mut q, &mut minus);
        madd(f, &mut r, &h, &q, &mut s);
        to_p3(f, &mut h, &r);
    }
    p2.x = h.x;
    p2.y = h.y;
    p2.z = h.z;
    dbl(f, &mut r, &p2, &mut s);
    for _ in 0..3 {
        to_p2(f, &mut p2, &r);
        dbl(f, &mut r, &p2, &mut s);
    }
    to_p3(f, &mut h, &r);
    for (j, row) in table.iter().enumerate() {
        select(f, row, e[2 * j], &mut q, &mut minus);
        madd(f, &mut r, &h, &q, &mut s);
        if j < 31 {
            to_p3(f, &mut h, &r);
        }
    }
    // y = Y/T in completed coordinates: u = (T + Y) / (T - Y).
    let [num, den, _, _] = &mut s;
    f.add(num, &r.t, &r.y);
    f.sub(den, &r.t, &r.y);
    let mut u = invert(f, den);
    f.mul_assign(&mut u, num);
    let out = f.encode(&u);
    #[cfg(test)]
    if tap::on() {
        use tap::Raw;
        for (what, v) in [("p2.x", &p2.x), ("p2.y", &p2.y), ("p2.z", &p2.z)] {
            tap::record(what, v.raw());
        }
        for v in &s {
            tap::record("scratch", v.raw());
        }
    }
    sc.zeroize();
    e.zeroize();
    u.zeroize();
    // Every working value: the points, the scratch (numerator and denominator of u at the
    // end), the last selected entry and its negation (which name the last digit).
    for v in [
        &mut h.x,
        &mut h.y,
        &mut h.z,
        &mut h.t,
        &mut r.x,
        &mut r.y,
        &mut r.z,
        &mut r.t,
        &mut p2.x,
        &mut p2.y,
        &mut p2.z,
        &mut q.ypx,
        &mut q.ymx,
        &mut q.xy2d,
        &mut minus,
    ] {
        v.zeroize();
    }
    for v in s.iter_mut() {
        v.zeroize();
    }
    out
}
