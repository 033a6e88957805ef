//! Unit tests of the internal layers.

use crate::fe::{self, P};
use std::vec;
use std::vec::Vec;

use crate::field::{self, Field, ONE};
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

/// `half` at the edges: doubling its result gives the input back, and it is below `p`.
#[test]
fn halving() {
    let f = Portable;
    let pm1 = fe::neg(&[1, 0, 0, 0], &P.m);
    let pm2 = fe::neg(&[2, 0, 0, 0], &P.m);
    for a in [
        [0, 0, 0, 0],
        [1, 0, 0, 0],
        [2, 0, 0, 0],
        pm1,
        pm2,
        [u64::MAX, u64::MAX, u64::MAX, 0],
        [u64::MAX, 0, u64::MAX, 0x8000_0000_0000_0000],
        [0x1234_5678_9abc_def1, 7, 0, 0xffff_fffe_0000_0000],
    ] {
        let h = f.half(&a);
        assert_eq!(fe::lt(&h, &P.m), 1, "{a:x?}");
        assert_eq!(fe::add(&h, &h, &P.m), a, "{a:x?}");
    }
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

/// The variable-base multiplication (Jacobian, with the identity selected around) against a
/// plain left-to-right double-and-add on the complete formulas, on the scalars where its
/// proof of no other exceptional case is tight: small `k` (leading zero digits, `k = 2 d` for a
/// digit `d`), `n - k` (`k = n + 2 d` for a negative last digit), the powers of two and of 32
/// (runs of zero digits, a lone top digit), repeating bit patterns and their negations (long
/// runs of equal digits, `+-15` and `+-16` among them), and zero.
#[test]
fn variable_base_edge_scalars() {
    let f = Portable;
    let reference = |k: &Scalar, p: &Affine| {
        let mut r = IDENTITY;
        for bit in (0..256).rev() {
            r = double(f, &r);
            if (k.0[bit / 64] >> (bit % 64)) & 1 == 1 {
                r = add_mixed(f, &r, p);
            }
        }
        to_affine(f, &r)
    };
    let p = to_affine(f, &crate::mul::mul_base(f, &Scalar([7, 0, 0, 0]))).0;
    let small = |v: u64| Scalar([v, 0, 0, 0]);
    // Miri runs `n - 1` only (each multiplication is thousands of field operations there).
    let mut ks = vec![small(1).neg()];
    if !cfg!(miri) {
        ks.push(Scalar::ZERO);
        for v in 1..41 {
            ks.push(small(v));
            ks.push(small(v).neg());
        }
        for i in 0..256 {
            let mut w = [0u64; 4];
            w[i / 64] = 1 << (i % 64);
            ks.push(Scalar(w));
        }
        for pattern in [
            0x5555_5555_5555_5555,
            0x7bde_f7bd_ef7b_def7,
            0x0842_1084_2108_4210,
            0x3def_7bde_f7bd_ef7b,
        ] {
            ks.push(Scalar([pattern; 4]));
            ks.push(Scalar([pattern; 4]).neg());
        }
    }
    for k in &ks {
        let want = reference(k, &p);
        let got = to_affine(f, &crate::mul::mul_var(f, k, &p));
        assert_eq!(
            got.1.unwrap_u8(),
            want.1.unwrap_u8(),
            "identity for {:x?}",
            k.0
        );
        assert_eq!(got.0, want.0, "k = {:x?}", k.0);
    }
}

/// The exceptional cases of the variable-time Jacobian double-base path, each reached on
/// purpose and checked against the constant-time complete-formula multiplications: with
/// `q = G` and `u2 = 1` the accumulator is `G` when the fixed-base rows start, so `u1 = 1`
/// adds `G` to itself (the doubling branch), `u1 = n - 1` adds `-G` (the identity branch), and
/// `u2 = n - 1` with `u1 = 1` cancels to the identity, whose doubling and re-entry follow.
#[test]
fn double_base_exceptional_cases() {
    let f = Portable;
    let one = Scalar::ONE;
    let minus_one = Scalar::ONE.neg();
    let two = Scalar([2, 0, 0, 0]);
    let three = Scalar([3, 0, 0, 0]);
    let dbl = |u1: &Scalar, u2: &Scalar, q: &Affine| {
        to_affine(f, &crate::mul::mul_double_vartime(f, u1, u2, q))
    };
    let base = |k: &Scalar| to_affine(f, &crate::mul::mul_base(f, k));
    // G + G = 2G.
    let (a, id) = dbl(&one, &one, &G);
    assert!(!bool::from(id));
    assert_eq!((a.x, a.y), (base(&two).0.x, base(&two).0.y));
    // G + (-G) = O, from either side.
    assert!(bool::from(dbl(&minus_one, &one, &G).1));
    assert!(bool::from(dbl(&one, &minus_one, &G).1));
    // 2G + G = 3G (the NAF part doubles, then the fixed-base row adds G).
    let (a, _) = dbl(&one, &two, &G);
    assert_eq!((a.x, a.y), (base(&three).0.x, base(&three).0.y));
    // u2 q with q = -G against the variable-base ladder: 3 (-G) + 3 G = O.
    let neg_g = Affine {
        x: G.x,
        y: fe::neg(&G.y, &P.m),
    };
    assert!(bool::from(dbl(&three, &three, &neg_g).1));
    // Zero scalars: O, and u1 G or u2 q alone.
    assert!(bool::from(dbl(&Scalar::ZERO, &Scalar::ZERO, &G).1));
    let k = Scalar([0x1234_5678, 0x9abc, 0xdef0, 0x1357]);
    let v = to_affine(f, &crate::mul::mul_var(f, &k, &neg_g));
    let (a, _) = dbl(&Scalar::ZERO, &k, &neg_g);
    assert_eq!((a.x, a.y), (v.0.x, v.0.y));
}

#[test]
fn scalar_inverse() {
    let a = Scalar([0x1234, 0x5678, 0x9abc, 0xdef0]);
    assert_eq!(a.mul(&a.invert()).0, [1, 0, 0, 0]);
}

/// The affine group law of SEC 1 section 2.2.1 (`None` is the identity), computed with
/// divisions: the independent reference for the complete formulas.
fn affine_add(p: Option<Affine>, q: Option<Affine>) -> Option<Affine> {
    let f = Portable;
    let (p, q) = match (p, q) {
        (None, x) | (x, None) => return x,
        (Some(p), Some(q)) => (p, q),
    };
    let lambda = if p.x == q.x {
        if p.y != q.y || p.y == [0; 4] {
            return None; // P + (-P)
        }
        // Doubling: (3 x^2 + a) / (2 y) with a = -3.
        let three = fe::to_mont(&[3, 0, 0, 0], &P);
        let x2 = f.sqr(&p.x);
        let num = f.sub(&f.add(&f.add(&x2, &x2), &x2), &three);
        f.mul(&num, &field::invert(f, &f.add(&p.y, &p.y)))
    } else {
        f.mul(&f.sub(&q.y, &p.y), &field::invert(f, &f.sub(&q.x, &p.x)))
    };
    let x3 = f.sub(&f.sub(&f.sqr(&lambda), &p.x), &q.x);
    let y3 = f.sub(&f.mul(&lambda, &f.sub(&p.x, &x3)), &p.y);
    Some(Affine { x: x3, y: y3 })
}

/// The affine point of a projective one, `None` for the identity.
fn affine_of(p: &point::Projective) -> Option<Affine> {
    let (a, id) = to_affine(Portable, p);
    (!bool::from(id)).then_some(a)
}

/// `(l X : l Y : l Z)`: the same point in another representation.
fn rescale(p: &point::Projective, l: u64) -> point::Projective {
    let l = fe::to_mont(&[l, 0, 0, 0], &P);
    point::Projective {
        x: f_mul(&p.x, &l),
        y: f_mul(&p.y, &l),
        z: f_mul(&p.z, &l),
    }
}

#[test]
fn complete_formulas_against_the_affine_group_law() {
    let f = Portable;
    let g = G.to_projective();
    // Multiples of G, from the affine law itself (two under Miri, six otherwise).
    let mut pts = vec![Some(G)];
    for _ in 0..if cfg!(miri) { 1 } else { 5 } {
        let last = *pts.last().unwrap();
        pts.push(affine_add(last, Some(G)));
    }
    let neg = |a: Affine| Affine {
        x: a.x,
        y: fe::neg(&a.y, &P.m),
    };
    let proj = |a: Option<Affine>, l: u64| match a {
        None => IDENTITY,
        Some(a) => rescale(&a.to_projective(), l),
    };
    let mut cases: Vec<(Option<Affine>, Option<Affine>)> = Vec::new();
    for &p in &pts {
        cases.push((p, p)); // P + P
        cases.push((p, p.map(neg))); // P + (-P)
        cases.push((p, None)); // P + O
        cases.push((None, p)); // O + P
        for &q in &pts {
            cases.push((p, q));
        }
    }
    cases.push((None, None));
    for (i, &(p, q)) in cases.iter().enumerate() {
        let want = affine_add(p, q);
        // Different representations of the same points on each side.
        let (pp, qq) = (proj(p, 3 + i as u64), proj(q, 7 + 2 * i as u64));
        assert_eq!(affine_of(&add(f, &pp, &qq)), want, "add {i}");
        if let Some(qa) = q {
            assert_eq!(affine_of(&add_mixed(f, &pp, &qa)), want, "add_mixed {i}");
        }
        if p == q {
            assert_eq!(affine_of(&double(f, &pp)), want, "double {i}");
        }
    }
    assert_eq!(affine_of(&double(f, &g)), affine_add(Some(G), Some(G)));
}
