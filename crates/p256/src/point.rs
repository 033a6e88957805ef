//! Points of P-256 in homogeneous projective coordinates (`x = X/Z`, `y = Y/Z`, the identity
//! `(0 : 1 : 0)`) with the complete formulas of Renes, Costello and Batina, "Complete addition
//! formulas for prime order elliptic curves" (EUROCRYPT 2016), for `a = -3`: Algorithm 4
//! (addition, 12M + 2mb), Algorithm 5 (mixed addition with an affine point, 11M + 2mb) and
//! Algorithm 6 (doubling, 8M + 3S + 2mb). They hold for every pair of points (the mixed form
//! for every affine second point, which is never the identity), so no input needs a special
//! case and no branch depends on a point.
//!
//! The formulas are written once, as macros over a value `f` with `mul`, `sqr`, `add`, `sub`
//! methods: the generic functions run them on a backend's [`Field`]; the `const fn`s run them
//! on [`ConstField`] for the compile-time table.
#![forbid(unsafe_code)]

use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroize;

use crate::fe::{self, P};
use crate::field::{B, Fe, Field, ONE};

/// A point `(X : Y : Z)`, each coordinate a field element in Montgomery form.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Projective {
    pub(crate) x: Fe,
    pub(crate) y: Fe,
    pub(crate) z: Fe,
}

/// An affine point `(x, y)` other than the identity (table entries, decoded public keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Affine {
    pub(crate) x: Fe,
    pub(crate) y: Fe,
}

impl Zeroize for Projective {
    fn zeroize(&mut self) {
        self.x.zeroize();
        self.y.zeroize();
        self.z.zeroize();
    }
}

impl Zeroize for Affine {
    fn zeroize(&mut self) {
        self.x.zeroize();
        self.y.zeroize();
    }
}

impl ConditionallySelectable for Affine {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        let mut r = *a;
        for i in 0..4 {
            r.x[i].conditional_assign(&b.x[i], c);
            r.y[i].conditional_assign(&b.y[i], c);
        }
        r
    }
}

impl ConditionallySelectable for Projective {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        let mut r = *a;
        for i in 0..4 {
            r.x[i].conditional_assign(&b.x[i], c);
            r.y[i].conditional_assign(&b.y[i], c);
            r.z[i].conditional_assign(&b.z[i], c);
        }
        r
    }
}

/// The identity `(0 : 1 : 0)`.
pub(crate) const IDENTITY: Projective = Projective {
    x: [0; 4],
    y: ONE,
    z: [0; 4],
};

impl Affine {
    /// `(x : y : 1)`.
    #[inline(always)]
    pub(crate) const fn to_projective(self) -> Projective {
        Projective {
            x: self.x,
            y: self.y,
            z: ONE,
        }
    }
}

/// The portable field as `const fn` methods, for the formulas evaluated at compile time.
#[derive(Clone, Copy)]
pub(crate) struct ConstField;

impl ConstField {
    pub(crate) const fn mul(self, a: &Fe, b: &Fe) -> Fe {
        fe::mont_mul(a, b, &P)
    }
    pub(crate) const fn sqr(self, a: &Fe) -> Fe {
        fe::mont_sqr(a, &P)
    }
    pub(crate) const fn add(self, a: &Fe, b: &Fe) -> Fe {
        fe::add(a, b, &P.m)
    }
    pub(crate) const fn sub(self, a: &Fe, b: &Fe) -> Fe {
        fe::sub(a, b, &P.m)
    }
}

/// Algorithm 4 of Renes-Costello-Batina (`a = -3`): `(X1 : Y1 : Z1) + (X2 : Y2 : Z2)`.
macro_rules! rcb_add {
    ($f:expr, $p:expr, $q:expr) => {{
        let f = $f;
        let (p, q) = ($p, $q);
        let t0 = f.mul(&p.x, &q.x);
        let t1 = f.mul(&p.y, &q.y);
        let t2 = f.mul(&p.z, &q.z);
        let t3 = f.mul(&f.add(&p.x, &p.y), &f.add(&q.x, &q.y));
        let t4 = f.add(&t0, &t1);
        let t3 = f.sub(&t3, &t4);
        let t4 = f.mul(&f.add(&p.y, &p.z), &f.add(&q.y, &q.z));
        let x3 = f.add(&t1, &t2);
        let t4 = f.sub(&t4, &x3);
        let x3 = f.mul(&f.add(&p.x, &p.z), &f.add(&q.x, &q.z));
        let y3 = f.add(&t0, &t2);
        let y3 = f.sub(&x3, &y3);
        let z3 = f.mul(&B, &t2);
        let x3 = f.sub(&y3, &z3);
        let z3 = f.add(&x3, &x3);
        let x3 = f.add(&x3, &z3);
        let z3 = f.sub(&t1, &x3);
        let x3 = f.add(&t1, &x3);
        let y3 = f.mul(&B, &y3);
        let t1 = f.add(&t2, &t2);
        let t2 = f.add(&t1, &t2);
        let y3 = f.sub(&y3, &t2);
        let y3 = f.sub(&y3, &t0);
        let t1 = f.add(&y3, &y3);
        let y3 = f.add(&t1, &y3);
        let t1 = f.add(&t0, &t0);
        let t0 = f.add(&t1, &t0);
        let t0 = f.sub(&t0, &t2);
        let t1 = f.mul(&t4, &y3);
        let t2 = f.mul(&t0, &y3);
        let y3 = f.mul(&x3, &z3);
        let y3 = f.add(&y3, &t2);
        let x3 = f.mul(&x3, &t3);
        let x3 = f.sub(&x3, &t1);
        let z3 = f.mul(&z3, &t4);
        let t1 = f.mul(&t3, &t0);
        let z3 = f.add(&z3, &t1);
        Projective {
            x: x3,
            y: y3,
            z: z3,
        }
    }};
}

/// Algorithm 5 of Renes-Costello-Batina (`a = -3`): `(X1 : Y1 : Z1) + (x2, y2)`.
macro_rules! rcb_add_mixed {
    ($f:expr, $p:expr, $q:expr) => {{
        let f = $f;
        let (p, q) = ($p, $q);
        let t0 = f.mul(&p.x, &q.x);
        let t1 = f.mul(&p.y, &q.y);
        let t3 = f.mul(&f.add(&q.x, &q.y), &f.add(&p.x, &p.y));
        let t4 = f.add(&t0, &t1);
        let t3 = f.sub(&t3, &t4);
        let t4 = f.mul(&q.y, &p.z);
        let t4 = f.add(&t4, &p.y);
        let y3 = f.mul(&q.x, &p.z);
        let y3 = f.add(&y3, &p.x);
        let z3 = f.mul(&B, &p.z);
        let x3 = f.sub(&y3, &z3);
        let z3 = f.add(&x3, &x3);
        let x3 = f.add(&x3, &z3);
        let z3 = f.sub(&t1, &x3);
        let x3 = f.add(&t1, &x3);
        let y3 = f.mul(&B, &y3);
        let t1 = f.add(&p.z, &p.z);
        let t2 = f.add(&t1, &p.z);
        let y3 = f.sub(&y3, &t2);
        let y3 = f.sub(&y3, &t0);
        let t1 = f.add(&y3, &y3);
        let y3 = f.add(&t1, &y3);
        let t1 = f.add(&t0, &t0);
        let t0 = f.add(&t1, &t0);
        let t0 = f.sub(&t0, &t2);
        let t1 = f.mul(&t4, &y3);
        let t2 = f.mul(&t0, &y3);
        let y3 = f.mul(&x3, &z3);
        let y3 = f.add(&y3, &t2);
        let x3 = f.mul(&x3, &t3);
        let x3 = f.sub(&x3, &t1);
        let z3 = f.mul(&z3, &t4);
        let t1 = f.mul(&t3, &t0);
        let z3 = f.add(&z3, &t1);
        Projective {
            x: x3,
            y: y3,
            z: z3,
        }
    }};
}

/// Algorithm 6 of Renes-Costello-Batina (`a = -3`): `2 (X : Y : Z)`.
macro_rules! rcb_double {
    ($f:expr, $p:expr) => {{
        let f = $f;
        let p = $p;
        let t0 = f.sqr(&p.x);
        let t1 = f.sqr(&p.y);
        let t2 = f.sqr(&p.z);
        let t3 = f.mul(&p.x, &p.y);
        let t3 = f.add(&t3, &t3);
        let z3 = f.mul(&p.x, &p.z);
        let z3 = f.add(&z3, &z3);
        let y3 = f.mul(&B, &t2);
        let y3 = f.sub(&y3, &z3);
        let x3 = f.add(&y3, &y3);
        let y3 = f.add(&x3, &y3);
        let x3 = f.sub(&t1, &y3);
        let y3 = f.add(&t1, &y3);
        let y3 = f.mul(&x3, &y3);
        let x3 = f.mul(&x3, &t3);
        let t3 = f.add(&t2, &t2);
        let t2 = f.add(&t2, &t3);
        let z3 = f.mul(&B, &z3);
        let z3 = f.sub(&z3, &t2);
        let z3 = f.sub(&z3, &t0);
        let t3 = f.add(&z3, &z3);
        let z3 = f.add(&z3, &t3);
        let t3 = f.add(&t0, &t0);
        let t0 = f.add(&t3, &t0);
        let t0 = f.sub(&t0, &t2);
        let t0 = f.mul(&t0, &z3);
        let y3 = f.add(&y3, &t0);
        let t0 = f.mul(&p.y, &p.z);
        let t0 = f.add(&t0, &t0);
        let z3 = f.mul(&t0, &z3);
        let x3 = f.sub(&x3, &z3);
        let z3 = f.mul(&t0, &t1);
        let z3 = f.add(&z3, &z3);
        let z3 = f.add(&z3, &z3);
        Projective {
            x: x3,
            y: y3,
            z: z3,
        }
    }};
}

// For the lane fields of the SIMD backends, which evaluate the formulas on their own types.
#[allow(unused_imports)]
pub(crate) use {rcb_add, rcb_add_mixed, rcb_double};

/// `p + q` (complete; the run-time code adds mixed or in Jacobian coordinates, the tests check
/// the complete formulas here).
#[cfg(test)]
pub(crate) fn add<F: Field>(f: F, p: &Projective, q: &Projective) -> Projective {
    rcb_add!(f, p, q)
}

/// `p + q` for an affine `q` (complete for every `p`, `q` never the identity).
#[inline(always)]
pub(crate) fn add_mixed<F: Field>(f: F, p: &Projective, q: &Affine) -> Projective {
    rcb_add_mixed!(f, p, q)
}

/// `2 p` (complete; for the tests, as [`add`]).
#[cfg(test)]
pub(crate) fn double<F: Field>(f: F, p: &Projective) -> Projective {
    rcb_double!(f, p)
}

/// `-p`.
#[cfg(test)]
pub(crate) fn neg<F: Field>(f: F, p: &Projective) -> Projective {
    Projective {
        x: p.x,
        y: f.neg(&p.y),
        z: p.z,
    }
}

/// `p + q` at compile time.
pub(crate) const fn add_const(p: &Projective, q: &Projective) -> Projective {
    rcb_add!(ConstField, p, q)
}

/// `2 p` at compile time.
pub(crate) const fn double_const(p: &Projective) -> Projective {
    rcb_double!(ConstField, p)
}

/// The affine form `(X/Z, Y/Z)` of a point and whether it is the identity (`Z = 0`; then the
/// coordinates are `(0, 0)`, which is not a point of the curve).
#[inline(always)]
pub(crate) fn to_affine<F: Field>(f: F, p: &Projective) -> (Affine, Choice) {
    let mut zi = crate::field::invert(f, &p.z);
    let a = Affine {
        x: f.mul(&p.x, &zi),
        y: f.mul(&p.y, &zi),
    };
    zi.zeroize();
    (a, Choice::from(fe::is_zero(&p.z) as u8))
}

/// [`to_affine`] of a result that is wiped afterwards (a secret multiple: `d Q` in ECDH,
/// `k G` in signing).
#[inline(always)]
pub(crate) fn into_affine<F: Field>(f: F, mut p: Projective) -> (Affine, Choice) {
    let out = to_affine(f, &p);
    p.zeroize();
    out
}

/// Whether `(x, y)` satisfies `y^2 = x^3 - 3x + b`, in constant time.
#[inline(always)]
pub(crate) fn is_on_curve<F: Field>(f: F, x: &Fe, y: &Fe) -> Choice {
    let rhs = curve_rhs(f, x);
    let lhs = f.sqr(y);
    fe_eq(&lhs, &rhs)
}

/// `x^3 - 3x + b`.
#[inline(always)]
pub(crate) fn curve_rhs<F: Field>(f: F, x: &Fe) -> Fe {
    let x3 = f.mul(&f.sqr(x), x);
    let tx = f.add(&f.add(x, x), x);
    f.add(&f.sub(&x3, &tx), &B)
}

/// Equality of two reduced elements, in constant time.
#[inline(always)]
pub(crate) fn fe_eq(a: &Fe, b: &Fe) -> Choice {
    use subtle::ConstantTimeEq;
    a.ct_eq(b)
}

/// The `y` with `y^2 = x^3 - 3x + b` whose canonical integer has parity `odd`, and whether
/// one exists (SEC 1 section 2.3.4 step 2.4.3).
#[inline(always)]
pub(crate) fn decompress<F: Field>(f: F, x: &Fe, odd: Choice) -> (Fe, Choice) {
    let rhs = curve_rhs(f, x);
    let y = crate::field::sqrt_candidate(f, &rhs);
    let ok = fe_eq(&f.sqr(&y), &rhs);
    let parity = Choice::from((crate::field::to_canonical(f, &y)[0] & 1) as u8);
    let ny = f.neg(&y);
    let mut r = y;
    f.cmov(&mut r, &ny, parity ^ odd);
    (r, ok)
}
