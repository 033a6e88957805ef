//! Fixed-base scalar multiplication for key generation: `X25519(k, 9)` computed on the
//! birationally equivalent Edwards curve (edwards25519), where the base point `B` maps to
//! `u = 9`, with the precomputed table of [`crate::table`].
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

use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

use crate::field::{Field, Niels, invert};
use crate::ladder::clamp;

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

#[inline(always)]
fn to_p3<F: Field>(f: F, r: &P1p1<F::Fe>) -> P3<F::Fe> {
    P3 {
        x: f.mul(&r.x, &r.t),
        y: f.mul(&r.y, &r.z),
        z: f.mul(&r.z, &r.t),
        t: f.mul(&r.x, &r.y),
    }
}

#[inline(always)]
fn to_p2<F: Field>(f: F, r: &P1p1<F::Fe>) -> P2<F::Fe> {
    P2 {
        x: f.mul(&r.x, &r.t),
        y: f.mul(&r.y, &r.z),
        z: f.mul(&r.z, &r.t),
    }
}

/// `2 P` (dbl-2008-hwcd for `a = -1`, as ref10's `ge_p2_dbl`).
#[inline(always)]
fn dbl<F: Field>(f: F, p: &P2<F::Fe>) -> P1p1<F::Fe> {
    let xx = f.sqr(&p.x);
    let yy = f.sqr(&p.y);
    let zz = f.sqr(&p.z);
    let b = f.add(&zz, &zz);
    let aa = f.sqr(&f.add(&p.x, &p.y));
    let y = f.add(&yy, &xx);
    let z = f.sub(&yy, &xx);
    P1p1 {
        x: f.sub(&aa, &y),
        y,
        z,
        t: f.sub(&b, &z),
    }
}

/// `P + Q` for an affine `Q` in niels form (madd-2008-hwcd-3, as ref10's `ge_madd`).
#[inline(always)]
fn madd<F: Field>(f: F, p: &P3<F::Fe>, q: &Niels<F::Fe>) -> P1p1<F::Fe> {
    let a = f.mul(&f.add(&p.y, &p.x), &q.ypx);
    let b = f.mul(&f.sub(&p.y, &p.x), &q.ymx);
    let c = f.mul(&q.xy2d, &p.t);
    let d = f.add(&p.z, &p.z);
    P1p1 {
        x: f.sub(&a, &b),
        y: f.add(&a, &b),
        z: f.add(&d, &c),
        t: f.sub(&d, &c),
    }
}

/// The 64 signed radix-16 digits of a clamped scalar (`< 2^255`): `e_i in [-8, 7]` for
/// `i < 63`, `e_63 in [0, 8]`. Arithmetic only (no branch on the scalar).
#[inline(always)]
fn recode(s: &[u8; 32]) -> [i8; 64] {
    let mut e = [0i8; 64];
    for (i, b) in s.iter().enumerate() {
        e[2 * i] = (b & 15) as i8;
        e[2 * i + 1] = (b >> 4) as i8;
    }
    let mut carry = 0i8;
    for d in e.iter_mut().take(63) {
        *d += carry;
        carry = (*d + 8) >> 4;
        *d -= carry << 4;
    }
    e[63] += carry;
    e
}

/// `d 256^j B` for a digit `d in [-8, 8]` from row `j`: all eight entries are read and the
/// matching one kept by mask, then negated by mask when `d < 0` (`-(x, y)` is `(-x, y)`:
/// swap `y + x` with `y - x`, negate `2 d x y`). `d = 0` gives the identity `(1, 1, 0)`.
#[inline(always)]
fn select<F: Field>(f: F, row: &[Niels<F::Fe>; 8], d: i8) -> Niels<F::Fe> {
    let m = d >> 7; // 0 or -1
    let abs = (d ^ m).wrapping_sub(m) as u8;
    let mut t = Niels {
        ypx: f.one(),
        ymx: f.one(),
        xy2d: f.zero(),
    };
    for (k, e) in row.iter().enumerate() {
        let c = abs.ct_eq(&(k as u8 + 1));
        f.cmov(&mut t.ypx, &e.ypx, c);
        f.cmov(&mut t.ymx, &e.ymx, c);
        f.cmov(&mut t.xy2d, &e.xy2d, c);
    }
    let negative = Choice::from((m & 1) as u8);
    f.cswap(&mut t.ypx, &mut t.ymx, negative);
    let minus = f.neg(&t.xy2d);
    f.cmov(&mut t.xy2d, &minus, negative);
    t
}

/// `X25519(k, 9)` through the Edwards table (see the module documentation).
#[inline(always)]
pub(crate) fn x25519_base<F: Field>(f: F, k: &[u8; 32]) -> [u8; 32] {
    let mut s = clamp(k);
    let mut e = recode(&s);
    let table = f.table();
    let mut h = P3 {
        x: f.zero(),
        y: f.one(),
        z: f.one(),
        t: f.zero(),
    };
    for (j, row) in table.iter().enumerate() {
        let q = select(f, row, e[2 * j + 1]);
        h = to_p3(f, &madd(f, &h, &q));
    }
    let mut r = dbl(
        f,
        &P2 {
            x: h.x,
            y: h.y,
            z: h.z,
        },
    );
    for _ in 0..3 {
        r = dbl(f, &to_p2(f, &r));
    }
    h = to_p3(f, &r);
    for (j, row) in table.iter().enumerate() {
        let q = select(f, row, e[2 * j]);
        r = madd(f, &h, &q);
        if j < 31 {
            h = to_p3(f, &r);
        }
    }
    // y = Y/T in completed coordinates: u = (T + Y) / (T - Y).
    let num = f.add(&r.t, &r.y);
    let den = f.sub(&r.t, &r.y);
    let mut u = f.mul(&num, &invert(f, &den));
    let out = f.encode(&u);
    s.zeroize();
    e.zeroize();
    u.zeroize();
    for v in [
        &mut h.x, &mut h.y, &mut h.z, &mut h.t, &mut r.x, &mut r.y, &mut r.z, &mut r.t,
    ] {
        v.zeroize();
    }
    out
}
