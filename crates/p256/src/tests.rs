//! Unit tests of the internal layers.

use crate::fe::{self, P};
use crate::field::{self, ONE};
use crate::point::{self, Affine, IDENTITY, add, add_mixed, double, to_affine};
use crate::scalar::Scalar;
use crate::table::{G, TABLE};
use tessera_cpu::Portable;

#[test]
fn inversion_and_sqrt() {
    let f = Portable;
    let a = fe::to_mont(&[5, 6, 7, 8], &P);
    let ai = field::invert(f, &a);
    assert_eq!(fe::from_mont(&f_mul(&a, &ai), &P), [1, 0, 0, 0]);
    let sq = f_mul(&a, &a);
    let r = field::sqrt_candidate(f, &sq);
    assert!(r == a || r == fe::neg(&a, &P.m));
}

fn f_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    fe::mont_mul(a, b, &P)
}

#[test]
fn generator_on_curve_and_table_rows() {
    let f = Portable;
    assert!(bool::from(point::is_on_curve(f, &G.x, &G.y)));
    let g = G.to_projective();
    let (a, id) = to_affine(f, &double(f, &g));
    assert!(!bool::from(id));
    assert_eq!(a, TABLE[0][1]);
    let (a, _) = to_affine(f, &add_mixed(f, &double(f, &g), &G));
    assert_eq!(a, TABLE[0][2]);
    assert_eq!(TABLE[0][0], G);
    // Row 1 starts at 64 G.
    let mut p = g;
    for _ in 0..6 {
        p = double(f, &p);
    }
    assert_eq!(to_affine(f, &p).0, TABLE[1][0]);
    let _ = ONE;
}

#[test]
fn complete_formulas_on_exceptional_inputs() {
    let f = Portable;
    let g = G.to_projective();
    // P + P = 2P
    assert_eq!(
        to_affine(f, &add(f, &g, &g)).0,
        to_affine(f, &double(f, &g)).0
    );
    // P + (-P) = O
    let (_, id) = to_affine(f, &add(f, &g, &point::neg(f, &g)));
    assert!(bool::from(id));
    // P + O = P, O + P = P, O + O = O, 2 O = O, O + affine = affine
    assert_eq!(to_affine(f, &add(f, &g, &IDENTITY)).0, G);
    assert_eq!(to_affine(f, &add(f, &IDENTITY, &g)).0, G);
    assert!(bool::from(to_affine(f, &add(f, &IDENTITY, &IDENTITY)).1));
    assert!(bool::from(to_affine(f, &double(f, &IDENTITY)).1));
    assert_eq!(to_affine(f, &add_mixed(f, &IDENTITY, &G)).0, G);
    let ng = Affine {
        x: G.x,
        y: fe::neg(&G.y, &P.m),
    };
    assert!(bool::from(to_affine(f, &add_mixed(f, &g, &ng)).1));
}

#[test]
fn scalar_mults_agree() {
    let f = Portable;
    // Miri runs one scalar (each multiplication is thousands of field operations there).
    let n = if cfg!(miri) { 1 } else { 4 };
    for k in [
        Scalar([
            0x1234_5678_9abc_def0,
            0x0fed_cba9_8765_4321,
            7,
            0x8000_0000_0000_0001,
        ]),
        Scalar([1, 0, 0, 0]),
        Scalar([2, 0, 0, 0]),
        Scalar::ONE.neg(),
    ]
    .into_iter()
    .take(n)
    {
        let a = to_affine(f, &crate::mul::mul_base(f, &k));
        let b = to_affine(f, &crate::mul::mul_var(f, &k, &G));
        let c = to_affine(f, &crate::mul::mul_double_vartime(f, &k, &Scalar::ZERO, &G));
        let d = to_affine(f, &crate::mul::mul_double_vartime(f, &Scalar::ZERO, &k, &G));
        assert_eq!(a.0, b.0);
        assert_eq!(a.0, c.0);
        assert_eq!(a.0, d.0);
    }
    // n G = O: (n - 1) G + G
    let k = Scalar::ONE.neg();
    let p = crate::mul::mul_base(f, &k);
    assert!(bool::from(to_affine(f, &add_mixed(f, &p, &G)).1));
}

#[test]
fn scalar_inverse() {
    let a = Scalar([0x1234, 0x5678, 0x9abc, 0xdef0]);
    assert_eq!(a.mul(&a.invert()).0, [1, 0, 0, 0]);
}
