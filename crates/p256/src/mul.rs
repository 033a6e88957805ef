//! The scalar multiplications, generic over a backend's [`Field`]:
//!
//! - variable base (ECDH): signed radix-32 digits (Booth recoding of [`Scalar::booth`]), a
//!   table of `1..=16` times the point, 255 doublings and 51 additions in Jacobian
//!   coordinates (no exceptional case can arise but the identity, selected around in constant
//!   time: see [`mul_var`]), every table entry read for every digit (constant-time selection
//!   by mask) and the sign applied by a masked negation;
//! - fixed base (key generation, signing): signed radix-64 digits over the compile-time table
//!   of [`crate::table`], 43 mixed additions and no doubling, each row read whole;
//! - double base `u1 G + u2 Q` (verification, public inputs, variable time): width-5 NAF of
//!   `u2` over the odd multiples of `Q`, and the fixed-base rows for `u1` skipping zero digits,
//!   in Jacobian coordinates (cheaper doubling; the exceptional cases of those formulas are
//!   branched on, which is fine for public inputs only).
#![forbid(unsafe_code)]

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

use crate::fe;
use crate::field::{Fe, Field, ONE};
use crate::point::{Affine, IDENTITY, Projective, add_mixed};
use crate::scalar::Scalar;
use crate::table::{COLS, ROWS, TABLE, W};

/// The masks of a table lookup: `m[i]` is all ones when `mag == i + 1`, else 0, computed
/// arithmetically and passed through `black_box` as a whole, so the compiler cannot turn the
/// selection below back into a load at the index `mag` (which is secret).
#[inline(always)]
fn masks<const N: usize>(mag: u8) -> [u64; N] {
    let mut m = [0u64; N];
    for (i, mi) in m.iter_mut().enumerate() {
        let d = u64::from(mag) ^ (i as u64 + 1);
        // 1 when d == 0: the top bit of (d | -d) is set exactly when d != 0.
        *mi = (((d | d.wrapping_neg()) >> 63) ^ 1).wrapping_neg();
    }
    core::hint::black_box(m)
}

/// `table[mag - 1]` for `mag in 1..=N`, the identity `(0 : 0 : 0)` for 0, negated when `sign`
/// is 1; every entry read, kept by AND/OR masks (plain word operations the compiler can
/// vectorize).
#[inline(always)]
fn select_jacobian<F: Field, const N: usize>(
    f: F,
    table: &[Jacobian; N],
    mag: u8,
    sign: u8,
) -> Jacobian {
    let m = masks::<N>(mag);
    let mut r = Jacobian {
        x: [0; 4],
        y: [0; 4],
        z: [0; 4],
    };
    for (e, &mi) in table.iter().zip(m.iter()) {
        for j in 0..4 {
            r.x[j] |= e.x[j] & mi;
            r.y[j] |= e.y[j] & mi;
            r.z[j] |= e.z[j] & mi;
        }
    }
    let ny = f.neg(&r.y);
    f.cmov(&mut r.y, &ny, Choice::from(sign));
    r
}

/// `row[mag - 1]` for `mag in 1..=N` (all zero for 0), every entry read (see
/// [`select_jacobian`]).
#[inline(always)]
fn select_affine<const N: usize>(row: &[Affine; N], mag: u8) -> Affine {
    let m = masks::<N>(mag);
    let mut r = Affine {
        x: [0; 4],
        y: [0; 4],
    };
    for (e, &mi) in row.iter().zip(m.iter()) {
        for j in 0..4 {
            r.x[j] |= e.x[j] & mi;
            r.y[j] |= e.y[j] & mi;
        }
    }
    r
}

/// `k p` for a point `p` of the curve (not the identity), constant time in `k`, in Jacobian
/// coordinates: 255 doublings (4M + 4S) and 51 additions (11M + 5S) instead of the complete
/// formulas' 8M + 3S + 2 multiplications by `b` per doubling.
///
/// The Jacobian addition is not complete, but with these digits its exceptions are only the
/// identity, which is handled by constant-time selection. Write `K_i = 32 A_i + d_i` for the
/// scalar of the top digits from `i` on (`K_0 = k`); the addition at digit `i` adds
/// `s = d_i p` to `r = 32 A_i p`. For `i >= 1`, `|K_i|` and `|K_i - 2 d_i|` are below
/// `2^251 + 33 < n`, so `r = s` (`32 A_i = d_i mod n`) and `r = -s` (`K_i = 0 mod n`) hold only
/// as integer equalities, which with `|d_i| <= 16` force `A_i = d_i = 0`: both the identity.
/// For `i = 0`, `r = -s` means `k = 0 mod n`, and `r = s` means `k = 2 d_0 mod n`, so
/// `k = 2 d_0` (then `32 A_0 = d_0`, impossible for `1 <= d_0 <= 16`) or `k = n + 2 d_0` with
/// `d_0 < 0` (then `32 A_0 = n + d_0`, but `n = 17 mod 32` needs `d_0 = -17`). So `r = s` never
/// happens, `r + s` is the identity only for `k = 0`, and the sum is right once an identity
/// operand (`Z = 0`: leading zero digits for `r`, a zero digit for `s`) is replaced by the
/// other operand. The table entries `2p..16p` are doublings and additions `i p + p` of
/// distinct points (`p` has order `n`). Returned projective (`(X Z, Y, Z^3)`).
#[inline(always)]
pub(crate) fn mul_var<F: Field>(f: F, k: &Scalar, p: &Affine) -> Projective {
    // t[i] = (i + 1) p.
    let mut t = [J_IDENTITY; 16];
    t[0] = Jacobian {
        x: p.x,
        y: p.y,
        z: ONE,
    };
    for i in 1..16 {
        t[i] = if (i + 1) % 2 == 0 {
            jdbl(f, &t[i / 2])
        } else {
            jadd_affine_raw(f, &t[i - 1], p)
        };
    }
    let mut d = k.booth::<5, 52>();
    let mut r = select_jacobian(f, &t, d[51].0, d[51].1);
    let mut s = r;
    let mut sum = r;
    for i in (0..51).rev() {
        for _ in 0..5 {
            r = jdbl(f, &r);
        }
        s = select_jacobian(f, &t, d[i].0, d[i].1);
        sum = jadd_raw(f, &r, &s);
        let r_zero = Choice::from(fe::is_zero(&r.z) as u8);
        let s_zero = d[i].0.ct_eq(&0);
        sum.conditional_assign(&s, r_zero);
        sum.conditional_assign(&r, s_zero);
        r = sum;
    }
    let out = r.to_projective(f);
    // The last selected multiple names a secret digit, the working points are secret
    // multiples; the result is the caller's to wipe (`point::into_affine`).
    r.zeroize();
    s.zeroize();
    sum.zeroize();
    d.zeroize();
    for e in t.iter_mut() {
        e.zeroize();
    }
    out
}

/// `k G`, constant time in `k`.
#[inline(always)]
pub(crate) fn mul_base<F: Field>(f: F, k: &Scalar) -> Projective {
    let mut d = k.booth::<W, ROWS>();
    let mut r = IDENTITY;
    let mut s = IDENTITY;
    for (row, &(mag, sign)) in TABLE.iter().zip(d.iter()) {
        let mut e = select_affine(row, mag);
        let ny = f.neg(&e.y);
        f.cmov(&mut e.y, &ny, Choice::from(sign));
        s = add_mixed(f, &r, &e);
        // A zero digit adds nothing (the mixed formula needs an affine point, so the sum is
        // computed and dropped).
        r.conditional_assign(&s, !mag.ct_eq(&0));
        e.zeroize();
    }
    s.zeroize();
    d.zeroize();
    r
}

/// A point in Jacobian coordinates, `(X / Z^2, Y / Z^3)`, the identity when `Z = 0`: the
/// representation of the variable-base and the double-base multiplications, whose doubling
/// (4M + 4S for `a = -3`) is cheaper than the complete projective one. Its addition formulas
/// have exceptional cases (equal or opposite inputs, the identity): [`jadd`] and
/// [`jadd_affine`] detect and handle them by branching (public inputs only); [`mul_var`]
/// shows they cannot occur there but for the identity, which it selects around.
#[derive(Clone, Copy)]
struct Jacobian {
    x: Fe,
    y: Fe,
    z: Fe,
}

impl Jacobian {
    /// The same point in homogeneous projective coordinates, `(X Z, Y, Z^3)` (one
    /// multiplication and two squarings from affine; the identity keeps `Z = 0`).
    #[inline(always)]
    fn to_projective<F: Field>(self, f: F) -> Projective {
        let mut z2 = f.sqr(&self.z);
        let out = Projective {
            x: f.mul(&self.x, &self.z),
            y: self.y,
            z: f.mul(&z2, &self.z),
        };
        z2.zeroize();
        out
    }
}

impl ConditionallySelectable for Jacobian {
    #[inline(always)]
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        let sel =
            |x: &Fe, y: &Fe| core::array::from_fn(|j| u64::conditional_select(&x[j], &y[j], c));
        Jacobian {
            x: sel(&a.x, &b.x),
            y: sel(&a.y, &b.y),
            z: sel(&a.z, &b.z),
        }
    }
}

impl Zeroize for Jacobian {
    fn zeroize(&mut self) {
        self.x.zeroize();
        self.y.zeroize();
        self.z.zeroize();
    }
}

const J_IDENTITY: Jacobian = Jacobian {
    x: ONE,
    y: ONE,
    z: [0; 4],
};

/// Field elements are fully reduced, so zero has one representation.
#[inline(always)]
fn is_zero_vartime(a: &Fe) -> bool {
    *a == [0; 4]
}

/// `2 p` for `a = -3` (4M + 4S and ten additions, subtractions or halvings; dbl-2001-b's
/// 3M + 5S takes sixteen): with `S = 4 X Y^2` and `M = 3 (X - Z^2)(X + Z^2)`,
/// `X3 = M^2 - 2 S`, `Y3 = M (S - X3) - 8 Y^4` (`8 Y^4 = (2 Y)^4 / 2`), `Z3 = 2 Y Z`. The
/// identity (`Z = 0`) doubles to `Z3 = 0`; no other exception (the curve has no point of
/// order 2).
#[inline(always)]
fn jdbl<F: Field>(f: F, p: &Jacobian) -> Jacobian {
    let y2 = f.add(&p.y, &p.y);
    let y2sq = f.sqr(&y2);
    let delta = f.sqr(&p.z);
    let z = f.mul(&y2, &p.z);
    let s = f.mul(&p.x, &y2sq);
    let t = f.mul(&f.sub(&p.x, &delta), &f.add(&p.x, &delta));
    let m = f.add(&f.add(&t, &t), &t);
    let x = f.sub(&f.sqr(&m), &f.add(&s, &s));
    let y4 = f.half(&f.sqr(&y2sq));
    let y = f.sub(&f.mul(&m, &f.sub(&s, &x)), &y4);
    Jacobian { x, y, z }
}

/// `p + q` (add-2007-bl: 11M + 5S) without a branch, right when neither is the identity and
/// `p != +-q`; `Z3 = 0` when `p = +-q` (`H = 0`), whatever the right answer.
#[inline(always)]
fn jadd_raw<F: Field>(f: F, p: &Jacobian, q: &Jacobian) -> Jacobian {
    let z1z1 = f.sqr(&p.z);
    let z2z2 = f.sqr(&q.z);
    let u1 = f.mul(&p.x, &z2z2);
    let u2 = f.mul(&q.x, &z1z1);
    let s1 = f.mul(&f.mul(&p.y, &q.z), &z2z2);
    let s2 = f.mul(&f.mul(&q.y, &p.z), &z1z1);
    let h = f.sub(&u2, &u1);
    let r = f.sub(&s2, &s1);
    let h2 = f.add(&h, &h);
    let i = f.sqr(&h2);
    let j = f.mul(&h, &i);
    let r = f.add(&r, &r);
    let v = f.mul(&u1, &i);
    let x = f.sub(&f.sub(&f.sqr(&r), &j), &f.add(&v, &v));
    let s1j = f.mul(&s1, &j);
    let y = f.sub(&f.mul(&r, &f.sub(&v, &x)), &f.add(&s1j, &s1j));
    let zz = f.add(&p.z, &q.z);
    let z = f.mul(&f.sub(&f.sub(&f.sqr(&zz), &z1z1), &z2z2), &h);
    Jacobian { x, y, z }
}

/// `p + q` for an affine `q` (madd-2007-bl: 7M + 4S) without a branch, right when `p` is not
/// the identity and `p != +-q`; `Z3 = 0` when `p = +-q`.
#[inline(always)]
fn jadd_affine_raw<F: Field>(f: F, p: &Jacobian, q: &Affine) -> Jacobian {
    let z1z1 = f.sqr(&p.z);
    let u2 = f.mul(&q.x, &z1z1);
    let s2 = f.mul(&f.mul(&q.y, &p.z), &z1z1);
    let h = f.sub(&u2, &p.x);
    let r = f.sub(&s2, &p.y);
    let hh = f.sqr(&h);
    let i = f.add(&hh, &hh);
    let i = f.add(&i, &i);
    let j = f.mul(&h, &i);
    let r = f.add(&r, &r);
    let v = f.mul(&p.x, &i);
    let x = f.sub(&f.sub(&f.sqr(&r), &j), &f.add(&v, &v));
    let yj = f.mul(&p.y, &j);
    let y = f.sub(&f.mul(&r, &f.sub(&v, &x)), &f.add(&yj, &yj));
    let zh = f.add(&p.z, &h);
    let z = f.sub(&f.sub(&f.sqr(&zh), &z1z1), &hh);
    Jacobian { x, y, z }
}

/// Whether `p = q` for two points that are not the identity and have the same abscissa
/// (variable time): then they are equal or opposite, told apart by `Y1 Z2^3 = Y2 Z1^3`.
#[inline(always)]
fn same_y_vartime<F: Field>(f: F, p: &Jacobian, q: &Jacobian) -> bool {
    let s1 = f.mul(&f.mul(&p.y, &q.z), &f.sqr(&q.z));
    let s2 = f.mul(&f.mul(&q.y, &p.z), &f.sqr(&p.z));
    s1 == s2
}

/// `p + q`, variable time: [`jadd_raw`] with its exceptions branched on.
#[inline(always)]
fn jadd<F: Field>(f: F, p: &Jacobian, q: &Jacobian) -> Jacobian {
    if is_zero_vartime(&p.z) {
        return *q;
    }
    if is_zero_vartime(&q.z) {
        return *p;
    }
    let sum = jadd_raw(f, p, q);
    if !is_zero_vartime(&sum.z) {
        sum
    } else if same_y_vartime(f, p, q) {
        jdbl(f, p)
    } else {
        J_IDENTITY
    }
}

/// `p + q` for an affine `q`, variable time: [`jadd_affine_raw`] with its exceptions
/// branched on.
#[inline(always)]
fn jadd_affine<F: Field>(f: F, p: &Jacobian, q: &Affine) -> Jacobian {
    let qj = Jacobian {
        x: q.x,
        y: q.y,
        z: ONE,
    };
    if is_zero_vartime(&p.z) {
        return qj;
    }
    let sum = jadd_affine_raw(f, p, q);
    if !is_zero_vartime(&sum.z) {
        sum
    } else if same_y_vartime(f, p, &qj) {
        jdbl(f, p)
    } else {
        J_IDENTITY
    }
}

/// `u1 G + u2 q`, variable time (public inputs only), in Jacobian coordinates: width-5 NAF of
/// `u2` over `q, 3q, ..., 15q` (255 doublings at most, one addition per non-zero digit), then
/// the fixed-base rows for `u1` as mixed additions, skipping zero digits. Returned projective
/// (`(X Z, Y, Z^3)`, one multiplication and two squarings away).
#[inline(always)]
pub(crate) fn mul_double_vartime<F: Field>(
    f: F,
    u1: &Scalar,
    u2: &Scalar,
    q: &Affine,
) -> Projective {
    // Odd multiples q, 3q, ..., 15q.
    let q1 = Jacobian {
        x: q.x,
        y: q.y,
        z: ONE,
    };
    let mut t = [q1; 8];
    let q2 = jdbl(f, &q1);
    for i in 1..8 {
        t[i] = jadd(f, &t[i - 1], &q2);
    }
    let naf = u2.wnaf_vartime::<5>();
    let mut r = J_IDENTITY;
    for &d in naf.iter().rev() {
        if !is_zero_vartime(&r.z) {
            r = jdbl(f, &r);
        }
        if d > 0 {
            r = jadd(f, &r, &t[(d as usize) / 2]);
        } else if d < 0 {
            let e = &t[(-d) as usize / 2];
            let e = Jacobian {
                x: e.x,
                y: f.neg(&e.y),
                z: e.z,
            };
            r = jadd(f, &r, &e);
        }
    }
    let d1 = u1.booth::<W, ROWS>();
    for (row, &(mag, sign)) in TABLE.iter().zip(d1.iter()) {
        if mag != 0 {
            let mut e = row[mag as usize - 1];
            if sign == 1 {
                e.y = f.neg(&e.y);
            }
            r = jadd_affine(f, &r, &e);
        }
    }
    r.to_projective(f)
}

/// ECDSA's final check on `R = u1 G + u2 q` without converting `R` to affine (variable time,
/// public inputs): `R` is not the identity and `x(R) mod n = r`, that is `X = r Z` or, when
/// `r + n < p` (an `x(R)` in `[n, p)` reduces to `r`), `X = (r + n) Z`.
#[inline(always)]
pub(crate) fn verify_vartime<F: Field>(
    f: F,
    u1: &Scalar,
    u2: &Scalar,
    q: &Affine,
    r: &Scalar,
) -> bool {
    verify_projective(f, &mul_double_vartime(f, u1, u2, q), r)
}

/// The check of [`verify_vartime`] on `R = u1 G + u2 q` already computed (projective).
#[inline(always)]
pub(crate) fn verify_projective<F: Field>(f: F, big_r: &Projective, r: &Scalar) -> bool {
    use crate::fe::{N, P};
    if fe::is_zero(&big_r.z) == 1 {
        return false;
    }
    let to_fe = |a: &[u64; 4]| f.mul(a, &P.r2);
    if f.mul(&to_fe(&r.0), &big_r.z) == big_r.x {
        return true;
    }
    // r + n, when it is below p (then it cannot carry past 2^256).
    let (s0, c) = fe::adc(r.0[0], N.m[0], 0);
    let (s1, c) = fe::adc(r.0[1], N.m[1], c);
    let (s2, c) = fe::adc(r.0[2], N.m[2], c);
    let (s3, c) = fe::adc(r.0[3], N.m[3], c);
    let rn = [s0, s1, s2, s3];
    c == 0 && fe::lt(&rn, &P.m) == 1 && f.mul(&to_fe(&rn), &big_r.z) == big_r.x
}

const _: () = assert!(COLS == 1 << (W - 1));
