//! Unit tests small enough for Miri (which runs the portable backend only): one RFC 7748
//! vector and the fixed-base path per backend, and the field arithmetic of every
//! representation against a plain big-integer reference at the limb bounds.
#![forbid(unsafe_code)]

use crate::backend::{Backend, BaseMult, ScalarMult};
use crate::field::Field;
use crate::{fe51 as portable, fe64};

fn hex32(s: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

#[test]
fn rfc7748_vector_1_on_every_backend() {
    let k = hex32("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
    let u = hex32("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c");
    let want = hex32("c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552");
    for b in Backend::all_available() {
        assert_eq!(b.run(ScalarMult { k: &k, u: &u }), want, "{}", b.name());
    }
}

#[test]
fn fixed_base_matches_ladder_on_every_backend() {
    let k = hex32("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
    let want = hex32("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
    for b in Backend::all_available() {
        assert_eq!(b.run(BaseMult { k: &k }), want, "{} base", b.name());
        assert_eq!(
            b.run(ScalarMult {
                k: &k,
                u: &crate::X25519_BASEPOINT_BYTES
            }),
            want,
            "{} ladder",
            b.name()
        );
    }
}

/// A plain reference: integers as eight 32-bit digits (`u64` accumulators), reduced mod p by
/// repeated folding and subtraction. Slow and obviously right.
mod reference {
    /// p = 2^255 - 19 in 32-bit digits.
    const P: [u64; 8] = [
        0xffff_ffed,
        0xffff_ffff,
        0xffff_ffff,
        0xffff_ffff,
        0xffff_ffff,
        0xffff_ffff,
        0xffff_ffff,
        0x7fff_ffff,
    ];

    /// Any value of up to 18 digits, mod p, canonical, as 8 digits.
    pub fn reduce(mut v: [u64; 18]) -> [u64; 8] {
        // Fold digits 8.. (times 2^256 = 38) until nothing is above 2^256.
        loop {
            let hi_nonzero = v[8..].iter().any(|&d| d != 0);
            if !hi_nonzero {
                break;
            }
            let mut w = [0u64; 18];
            w[..8].copy_from_slice(&v[..8]);
            for i in 8..18 {
                w[i - 8] += v[i] * 38;
            }
            let mut c = 0;
            for d in w.iter_mut() {
                *d += c;
                c = *d >> 32;
                *d &= 0xffff_ffff;
            }
            v = w;
        }
        let mut r: [u64; 8] = v[..8].try_into().unwrap();
        while !lt_p(&r) {
            let mut borrow = 0i64;
            for i in 0..8 {
                let t = r[i] as i64 - P[i] as i64 - borrow;
                borrow = (t < 0) as i64;
                r[i] = (t + (borrow << 32)) as u64;
            }
        }
        r
    }

    fn lt_p(r: &[u64; 8]) -> bool {
        for i in (0..8).rev() {
            if r[i] != P[i] {
                return r[i] < P[i];
            }
        }
        false
    }

    pub fn from_words(w: &[u64; 4]) -> [u64; 8] {
        let mut v = [0u64; 18];
        for i in 0..4 {
            v[2 * i] = w[i] & 0xffff_ffff;
            v[2 * i + 1] = w[i] >> 32;
        }
        reduce(v)
    }

    /// A radix-2^51 value (limbs below 2^64) as an integer, mod p.
    pub fn from_limbs51(l: &[u64; 5]) -> [u64; 8] {
        // Bit-by-bit assembly into 32-bit digits.
        let mut v = [0u64; 18];
        for (i, &x) in l.iter().enumerate() {
            for bit in 0..64 {
                if (x >> bit) & 1 == 1 {
                    let pos = 51 * i + bit;
                    v[pos / 32] += 1 << (pos % 32);
                }
            }
        }
        reduce(v)
    }

    pub fn mul(a: &[u64; 8], b: &[u64; 8]) -> [u64; 8] {
        let mut v = [0u64; 18];
        for i in 0..8 {
            let mut c = 0u64;
            for j in 0..8 {
                let t = v[i + j] + a[i] * b[j] + c;
                v[i + j] = t & 0xffff_ffff;
                c = t >> 32;
            }
            v[i + 8] += c;
        }
        reduce(v)
    }

    pub fn add(a: &[u64; 8], b: &[u64; 8]) -> [u64; 8] {
        let mut v = [0u64; 18];
        for i in 0..8 {
            v[i] = a[i] + b[i];
        }
        let mut c = 0;
        for d in v.iter_mut() {
            *d += c;
            c = *d >> 32;
            *d &= 0xffff_ffff;
        }
        reduce(v)
    }

    pub fn neg(a: &[u64; 8]) -> [u64; 8] {
        // p - a for a < p (0 stays 0).
        if a.iter().all(|&d| d == 0) {
            return *a;
        }
        let mut r = [0u64; 8];
        let mut borrow = 0i64;
        for i in 0..8 {
            let t = P[i] as i64 - a[i] as i64 - borrow;
            borrow = (t < 0) as i64;
            r[i] = (t + (borrow << 32)) as u64;
        }
        r
    }

    pub fn small(x: u64) -> [u64; 8] {
        from_words(&[x, 0, 0, 0])
    }

    pub fn bytes(r: &[u64; 8]) -> [u8; 32] {
        let mut out = [0u8; 32];
        for i in 0..8 {
            out[4 * i..4 * i + 4].copy_from_slice(&(r[i] as u32).to_le_bytes());
        }
        out
    }
}

/// Edge values of a 64-bit limb.
const EDGE64: [u64; 6] = [
    0,
    1,
    19,
    0x7fff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffed,
    u64::MAX,
];

/// Four-limb inputs: all limbs at one edge value, p - 1, p, p + 1, 2p - 1, 2^255 - 1, 2^256 - 1.
fn edge_words() -> [[u64; 4]; 12] {
    let m = u64::MAX;
    let t = 0x7fff_ffff_ffff_ffff;
    [
        [0; 4],
        [1, 0, 0, 0],
        [0xffff_ffff_ffff_ffec, m, m, t], // p - 1
        [0xffff_ffff_ffff_ffed, m, m, t], // p
        [0xffff_ffff_ffff_ffee, m, m, t], // p + 1
        [m, m, m, t],                     // 2^255 - 1
        [0xffff_ffff_ffff_ffd9, m, m, m], // 2p - 1
        [m, m, m, m],                     // 2^256 - 1
        [0, 0, 0, 1 << 63],               // 2^255
        [m, 0, m, 0],
        [
            0x1234_5678_9abc_def0,
            0x0fed_cba9_8765_4321,
            0xdead_beef_0bad_f00d,
            0x8000_0000_0000_0001,
        ],
        [EDGE64[4], EDGE64[3], EDGE64[2], EDGE64[1]],
    ]
}

fn check_fe64<F: Field<Fe = [u64; 4]>>(f: F, what: &str) {
    use reference as r;
    let bin = |op: fn(F, &mut [u64; 4], &[u64; 4], &[u64; 4]), a: &[u64; 4], b: &[u64; 4]| {
        let mut out = [0u64; 4];
        op(f, &mut out, a, b);
        out
    };
    let un = |op: fn(F, &mut [u64; 4], &[u64; 4]), a: &[u64; 4]| {
        let mut out = [0u64; 4];
        op(f, &mut out, a);
        out
    };
    let edges = edge_words();
    for a in &edges {
        let ra = r::from_words(a);
        assert_eq!(f.encode(a), r::bytes(&ra), "{what} encode {a:x?}");
        let sq = un(F::sqr, a);
        assert_eq!(
            f.encode(&sq),
            r::bytes(&r::mul(&ra, &ra)),
            "{what} sqr {a:x?}"
        );
        let mut inplace = *a;
        f.sqr_assign(&mut inplace);
        assert_eq!(inplace, sq, "{what} sqr_assign");
        assert_eq!(
            f.encode(&un(F::mul_a24, a)),
            r::bytes(&r::mul(&ra, &r::small(121_666))),
            "{what} a24 {a:x?}"
        );
        assert_eq!(
            f.encode(&un(F::neg, a)),
            r::bytes(&r::neg(&ra)),
            "{what} neg {a:x?}"
        );
        for b in &edges {
            let rb = r::from_words(b);
            let m = bin(F::mul, a, b);
            assert_eq!(f.encode(&m), r::bytes(&r::mul(&ra, &rb)), "{what} mul");
            let mut inplace = *a;
            f.mul_assign(&mut inplace, b);
            assert_eq!(inplace, m, "{what} mul_assign");
            let s = bin(F::add, a, b);
            assert_eq!(f.encode(&s), r::bytes(&r::add(&ra, &rb)), "{what} add");
            let d = bin(F::sub, a, b);
            assert_eq!(
                f.encode(&d),
                r::bytes(&r::add(&ra, &r::neg(&rb))),
                "{what} sub"
            );
        }
    }
}

#[test]
fn fe64_generic_matches_reference_at_limb_maxima() {
    check_fe64(fe64::Fe64Generic, "fe64");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn fe64_bmi2_adx_matches_reference_at_limb_maxima() {
    // The assembly runs only where the token is available (not under Miri).
    if let Some(t) = tessera_cpu::X86Bmi2Adx::detect() {
        check_fe64(t, "x86_bmi2_adx");
    }
}

/// Radix-2^51 inputs at the documented bounds: limbs just below 2^54 (inputs of mul, sqr,
/// sub, mul_a24), 2^52 (tight), 2^51, 0 and mixtures.
#[test]
fn portable_matches_reference_at_limb_bounds() {
    use reference as r;
    let lim = portable::INPUT_LIMB_LIMIT - 1;
    let tight = (1u64 << 52) - 1;
    let vals: [[u64; 5]; 8] = [
        [0; 5],
        [lim; 5],
        [tight; 5],
        [(1 << 51) - 1; 5],
        [
            (1 << 51) - 19,
            (1 << 51) - 1,
            (1 << 51) - 1,
            (1 << 51) - 1,
            (1 << 51) - 1,
        ], // p
        [lim, 0, lim, 0, lim],
        [0, lim, 1, tight, lim],
        [1, 2, 3, 4, lim],
    ];
    for a in &vals {
        let ra = r::from_limbs51(a);
        assert_eq!(portable::to_bytes(a), r::bytes(&ra), "to_bytes {a:x?}");
        assert_eq!(
            portable::to_bytes(&portable::sqr(a)),
            r::bytes(&r::mul(&ra, &ra)),
            "sqr"
        );
        assert_eq!(
            portable::to_bytes(&portable::mul_a24(a)),
            r::bytes(&r::mul(&ra, &r::small(121_666))),
            "a24"
        );
        assert_eq!(
            portable::to_bytes(&portable::neg(a)),
            r::bytes(&r::neg(&ra)),
            "neg"
        );
        for b in &vals {
            let rb = r::from_limbs51(b);
            let m = portable::mul(a, b);
            assert!(m.iter().all(|&l| l < 1 << 52), "mul output not tight");
            assert_eq!(portable::to_bytes(&m), r::bytes(&r::mul(&ra, &rb)), "mul");
            assert_eq!(
                portable::to_bytes(&portable::sub(a, b)),
                r::bytes(&r::add(&ra, &r::neg(&rb))),
                "sub"
            );
        }
    }
    // add: sums of a tight value and a loose (sum of two tight) one.
    let loose = portable::add(&[tight; 5], &[tight; 5]);
    let s = portable::add(&loose, &[tight; 5]);
    let want = r::add(&r::from_limbs51(&loose), &r::from_limbs51(&[tight; 5]));
    assert_eq!(portable::to_bytes(&s), r::bytes(&want), "add");
    assert_eq!(
        portable::to_bytes(&portable::mul(&s, &s)),
        r::bytes(&r::mul(&want, &want)),
        "mul of sums"
    );
}

#[test]
fn inversion_chain() {
    use reference as r;
    let f = fe64::Fe64Generic;
    for a in &edge_words() {
        let mut inv = crate::inverse::invert(f, a);
        assert_eq!(
            f.encode(&inv),
            f.encode(&crate::inverse::invert_fermat(f, a)),
            "divsteps vs Fermat {a:x?}"
        );
        let ra = r::from_words(a);
        let one = if ra.iter().all(|&d| d == 0) {
            r::small(0)
        } else {
            r::small(1)
        };
        f.mul_assign(&mut inv, a);
        assert_eq!(f.encode(&inv), r::bytes(&one), "{a:x?}");
    }
    // The portable const chain is the same chain.
    let x = portable::from_bytes(&[0xa5; 32]);
    let pinv = portable::invert(&x);
    assert_eq!(
        portable::to_bytes(&portable::mul(&x, &pinv)),
        r::bytes(&r::small(1))
    );
}

/// The BMI2/ADX ladder step (single-fold additions) against the generic step, field by field
/// (canonical values), from the start state and after each of many steps, on edge inputs.
#[cfg(target_arch = "x86_64")]
#[test]
fn bmi2_adx_ladder_step_matches_generic() {
    use crate::field::{LadderState, step};
    let Some(t) = tessera_cpu::X86Bmi2Adx::detect() else {
        return;
    };
    let g = fe64::Fe64Generic;
    let m = u64::MAX;
    for x1 in [
        [m, m, m, m >> 1],
        [9, 0, 0, 0],
        [m - 18, m, m, m >> 1],
        [0, 0, 0, 0],
    ] {
        let mut a = LadderState {
            x1,
            x2: fe64::ONE,
            z2: fe64::ZERO,
            x3: x1,
            z3: fe64::ONE,
            a: fe64::ZERO,
            aa: fe64::ZERO,
            b: fe64::ZERO,
            bb: fe64::ZERO,
            e: fe64::ZERO,
            c: fe64::ZERO,
            d: fe64::ZERO,
            da: fe64::ZERO,
            cb: fe64::ZERO,
            t: fe64::ZERO,
        };
        let mut b = a;
        for i in 0..40 {
            let swap = subtle::Choice::from((i % 3 == 1) as u8);
            t.ladder_step(&mut a, swap);
            step(g, &mut b, swap);
            for (n, (p, q)) in [
                ("x2", (&a.x2, &b.x2)),
                ("z2", (&a.z2, &b.z2)),
                ("x3", (&a.x3, &b.x3)),
                ("z3", (&a.z3, &b.z3)),
                ("a", (&a.a, &b.a)),
                ("aa", (&a.aa, &b.aa)),
                ("b", (&a.b, &b.b)),
                ("e", (&a.e, &b.e)),
                ("da", (&a.da, &b.da)),
            ] {
                assert_eq!(
                    fe64::to_bytes(p),
                    fe64::to_bytes(q),
                    "x1 {x1:x?} step {i} {n}"
                );
            }
        }
    }
}

/// The 64-bit backends' masked table lookup against the generic one (`subtle` masked moves),
/// every row, every `abs in 0..=8` (0: the identity).
#[test]
fn fe64_lookup_matches_generic() {
    let g = fe64::Fe64Generic;
    for row in crate::table::TABLE64.iter() {
        for abs in 0..=8u8 {
            assert_eq!(fe64::lookup(row, abs), g.lookup(row, abs), "abs {abs}");
        }
    }
    let id = fe64::lookup(&crate::table::TABLE64[0], 0);
    assert_eq!(
        (id.ypx, id.ymx, id.xy2d),
        (fe64::ONE, fe64::ONE, fe64::ZERO)
    );
}

/// The AVX-512 IFMA four-way operations at their documented input limits against the portable
/// field (see `backend::x86_avx512_ifma::tests::check_limits`).
#[cfg(target_arch = "x86_64")]
#[test]
fn four_way_field_at_its_limits() {
    for b in
        tessera_testkit::targeted::<Backend>("four_way_field_at_its_limits", &["x86_avx512_ifma"])
    {
        let Backend::X86Avx512Ifma(t) = b else {
            unreachable!()
        };
        assert_eq!(crate::backend::x86_avx512_ifma::tests::check_limits(t), 204);
    }
}

mod wipe;
