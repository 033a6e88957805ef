//! Every available backend against portable (proptest and fixed edge cases): each field
//! operation at the edges of its domain (0, 1, 2, p - 1, p - 2, 2^255, limbs all ones or all
//! zeros, values just below p, random values below p), and the three scalar multiplications
//! (fixed base, variable base, double base) on edge scalars (0, 1, 2, n - 1, n - 2, small
//! values, limb patterns) and random ones, with multiples of G as the points.

use proptest::prelude::*;
use tessera_p256::testing::{ALL, Backend, FieldOp, field_op, mul, mul_base, mul_double_vartime};
use tessera_testkit::check_backends;

/// The field prime, little-endian words.
const P: [u64; 4] = [
    0xffff_ffff_ffff_ffff,
    0x0000_0000_ffff_ffff,
    0x0000_0000_0000_0000,
    0xffff_ffff_0000_0001,
];

/// The group order, little-endian words.
const N: [u64; 4] = [
    0xf3b9_cac2_fc63_2551,
    0xbce6_faad_a717_9e84,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_0000_0000,
];

fn lt(a: &[u64; 4], m: &[u64; 4]) -> bool {
    for i in (0..4).rev() {
        if a[i] != m[i] {
            return a[i] < m[i];
        }
    }
    false
}

/// `m - d` for a small `d`.
fn minus(m: &[u64; 4], d: u64) -> [u64; 4] {
    let mut r = *m;
    let (v, mut borrow) = r[0].overflowing_sub(d);
    r[0] = v;
    for w in r.iter_mut().skip(1) {
        let (v, b) = w.overflowing_sub(borrow as u64);
        *w = v;
        borrow = b;
    }
    r
}

/// Big-endian bytes of little-endian words.
fn be(a: &[u64; 4]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for i in 0..4 {
        out[8 * i..8 * i + 8].copy_from_slice(&a[3 - i].to_be_bytes());
    }
    out
}

/// Field elements at the edges: 0, 1, 2, p - 1, p - 2, 2^255, single limbs all ones or all
/// zeros, the limbs of p itself (each alone), values just below p and below 2^224.
fn edge_fes() -> Vec<[u64; 4]> {
    let m = u64::MAX;
    let mut v = vec![
        [0, 0, 0, 0],
        [1, 0, 0, 0],
        [2, 0, 0, 0],
        minus(&P, 1),
        minus(&P, 2),
        minus(&P, 3),
        [0, 0, 0, 1 << 63],
        [m, 0, 0, 0],
        [0, m, 0, 0],
        [0, 0, m, 0],
        [m, m, m, 0],
        [0, 0, 0, 0xffff_ffff_0000_0000],
        [m, m, m, 0xffff_ffff_0000_0000],
        [m, 0xffff_ffff, 0, 0],
        [0, 0xffff_ffff, 0, 0],
        [0, 0, 0, P[3]],
        [0, 0, m, P[3] - 1],
        [m, m, m, P[3] - 1],
        [m, 0, m, 0x8000_0000_0000_0000],
        [0, m, 0, 0x7fff_ffff_ffff_ffff],
        [0, 1 << 32, 0, 0],
        [1, 0, 0, 1],
        // R mod p = 2^256 - p (the Montgomery form of 1) and p - (2^256 - p).
        [1, 0xffff_ffff_0000_0000, m, 0x0000_0000_ffff_fffe],
    ];
    for i in 0..4 {
        let mut a = [0u64; 4];
        a[i] = m;
        if lt(&a, &P) {
            v.push(a);
        }
        let mut b = [m; 4];
        b[i] = 0;
        if lt(&b, &P) {
            v.push(b);
        }
    }
    for x in &v {
        assert!(lt(x, &P), "{x:x?}");
    }
    v
}

fn fe_strategy() -> impl Strategy<Value = [u64; 4]> {
    let edges = edge_fes();
    prop_oneof![
        3 => any::<[u64; 4]>().prop_filter("below p", |a| lt(a, &P)),
        1 => prop::sample::select(edges),
        // Just below p.
        1 => (1u64..1 << 40).prop_map(|d| minus(&P, d)),
        // Limbs drawn from the special values.
        2 => prop::array::uniform4(prop::sample::select(vec![
            0u64, 1, u64::MAX, u64::MAX - 1, 0xffff_ffff, 0xffff_ffff_0000_0000,
            0xffff_ffff_0000_0001, 1 << 63, 1 << 32,
        ]))
        .prop_filter("below p", |a| lt(a, &P)),
    ]
}

#[test]
fn expected_backends_present() {
    tessera_testkit::expect_backends::<Backend>();
}

/// Every operation on every pair of edge values, on every backend.
#[test]
fn field_ops_on_edges() {
    let edges = edge_fes();
    for op in ALL {
        for a in &edges {
            for b in &edges {
                check_backends::<Backend, _>(format!("{op:?}({a:x?}, {b:x?})"), |be| {
                    field_op(be, op, *a, *b)
                });
                // The unary operations ignore b.
                if matches!(
                    op,
                    FieldOp::Sqr | FieldOp::Neg | FieldOp::Invert | FieldOp::SqrtCandidate
                ) {
                    break;
                }
            }
        }
    }
}

/// The field operations agree with their definitions on the portable backend (so the
/// reference the others are compared with is itself checked): `a - b + b = a`, `a + (-a) = 0`,
/// `a a^(-1) = 1`, `sqr = mul(a, a)`, `sqrt(a^2)^2 = a^2`.
#[test]
fn portable_field_identities() {
    let be = Backend::Portable;
    let one = [1, 0, 0, 0];
    for a in edge_fes() {
        for b in edge_fes() {
            let d = field_op(be, FieldOp::Sub, a, b);
            assert_eq!(field_op(be, FieldOp::Add, d, b), a);
        }
        assert_eq!(
            field_op(be, FieldOp::Add, a, field_op(be, FieldOp::Neg, a, a)),
            [0; 4]
        );
        let sq = field_op(be, FieldOp::Sqr, a, a);
        assert_eq!(sq, field_op(be, FieldOp::Mul, a, a));
        let r = field_op(be, FieldOp::SqrtCandidate, sq, sq);
        assert_eq!(field_op(be, FieldOp::Sqr, r, r), sq);
        if a != [0; 4] {
            let inv = field_op(be, FieldOp::Invert, a, a);
            assert_eq!(field_op(be, FieldOp::Mul, a, inv), one);
        }
    }
    // 2 * 2 = 4, (p - 1)^2 = 1, (p - 1) + 2 = 1.
    assert_eq!(
        field_op(be, FieldOp::Mul, [2, 0, 0, 0], [2, 0, 0, 0]),
        [4, 0, 0, 0]
    );
    assert_eq!(field_op(be, FieldOp::Sqr, minus(&P, 1), [0; 4]), one);
    assert_eq!(field_op(be, FieldOp::Add, minus(&P, 1), [2, 0, 0, 0]), one);
}

/// Scalars at the edges: 0, 1, 2, 3, n - 1, n - 2, n - 3, small values, limb patterns.
fn edge_scalars() -> Vec<[u64; 4]> {
    let m = u64::MAX;
    let v = vec![
        [0, 0, 0, 0],
        [1, 0, 0, 0],
        [2, 0, 0, 0],
        [3, 0, 0, 0],
        [15, 0, 0, 0],
        [16, 0, 0, 0],
        [17, 0, 0, 0],
        [31, 0, 0, 0],
        [32, 0, 0, 0],
        [33, 0, 0, 0],
        [0x1234_5678, 0, 0, 0],
        minus(&N, 1),
        minus(&N, 2),
        minus(&N, 3),
        minus(&N, 16),
        minus(&N, 32),
        [m, 0, 0, 0],
        [0, m, 0, 0],
        [0, 0, m, 0],
        [m, m, m, 0],
        [m, m, m, 0x7fff_ffff_ffff_ffff],
        [0, 0, 0, 1 << 63],
        [m, m, 0, 0xffff_ffff_0000_0000],
        [0, 0, m, 0xfeff_ffff_ffff_ffff],
        [
            0x8421_0842_1084_2108,
            0x4210_8421_0842_1084,
            0x2108_4210_8421_0842,
            0x1084_2108_4210_8421,
        ],
    ];
    for k in &v {
        assert!(lt(k, &N), "{k:x?}");
    }
    v
}

fn scalar_strategy() -> impl Strategy<Value = [u64; 4]> {
    prop_oneof![
        3 => any::<[u64; 4]>().prop_filter("below n", |k| lt(k, &N)),
        1 => prop::sample::select(edge_scalars()),
        1 => (0u64..1 << 12).prop_map(|k| [k, 0, 0, 0]),
        1 => (1u64..1 << 12).prop_map(|d| minus(&N, d)),
        2 => prop::array::uniform4(prop::sample::select(vec![0u64, u64::MAX, 1, 1 << 63]))
            .prop_filter("below n", |k| lt(k, &N)),
    ]
}

/// `k G` (uncompressed) by the portable fixed-base path; `k` nonzero.
fn point(k: &[u64; 4]) -> [u8; 65] {
    mul_base(Backend::Portable, &be(k))
        .unwrap()
        .expect("nonzero scalar")
}

#[test]
fn scalar_mults_on_edges() {
    let ks = edge_scalars();
    let points: Vec<[u8; 65]> = [[1, 0, 0, 0], [2, 0, 0, 0], minus(&N, 1), [7, 7, 7, 7]]
        .iter()
        .map(point)
        .collect();
    for k in &ks {
        let kb = be(k);
        let base = check_backends::<Backend, _>(format!("mul_base({k:x?})"), |b| {
            mul_base(b, &kb).unwrap()
        });
        // k G by the variable-base path on every backend equals the fixed-base result.
        let var = check_backends::<Backend, _>(format!("mul({k:x?}, G)"), |b| {
            mul(b, &kb, &points[0]).unwrap()
        });
        assert_eq!(base, var, "{k:x?}");
        for p in &points[1..] {
            check_backends::<Backend, _>(format!("mul({k:x?}, P)"), |b| mul(b, &kb, p).unwrap());
        }
        for k2 in [[0u64, 0, 0, 0], [1, 0, 0, 0], minus(&N, 1), *k] {
            let k2b = be(&k2);
            for p in &points {
                check_backends::<Backend, _>(
                    format!("mul_double_vartime({k:x?}, {k2:x?}, P)"),
                    |b| mul_double_vartime(b, &kb, &k2b, p).unwrap(),
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn field_ops_match_portable(a in fe_strategy(), b in fe_strategy()) {
        for op in [FieldOp::Mul, FieldOp::Sqr, FieldOp::Add, FieldOp::Sub, FieldOp::Neg] {
            check_backends::<Backend, _>(format!("{op:?}({a:x?}, {b:x?})"), |be| {
                field_op(be, op, a, b)
            });
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn field_inversion_and_sqrt_match_portable(a in fe_strategy()) {
        for op in [FieldOp::Invert, FieldOp::SqrtCandidate] {
            check_backends::<Backend, _>(format!("{op:?}({a:x?})"), |be| field_op(be, op, a, a));
        }
    }

    #[test]
    fn scalar_mults_match_portable(
        k1 in scalar_strategy(),
        k2 in scalar_strategy(),
        kp in scalar_strategy().prop_filter("nonzero", |k| *k != [0; 4]),
    ) {
        let p = point(&kp);
        let (k1b, k2b) = (be(&k1), be(&k2));
        check_backends::<Backend, _>("mul_base", |b| mul_base(b, &k1b).unwrap());
        check_backends::<Backend, _>("mul", |b| mul(b, &k1b, &p).unwrap());
        check_backends::<Backend, _>("mul_double_vartime", |b| {
            mul_double_vartime(b, &k1b, &k2b, &p).unwrap()
        });
    }
}
