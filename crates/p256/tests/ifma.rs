//! The AVX-512 IFMA row against the portable row: fixed-base, variable-base and double-base
//! scalar multiplication on edge scalars and random ones, with points that are multiples of
//! `G` (from the portable row). Fails when `TESSERA_EXPECT_BACKENDS` lists the row and this CPU
//! lacks it.

use proptest::prelude::*;
use tessera_p256::testing::{self, Backend};

const IFMA: &str = "x86_avx512_ifma";

/// The group order `n`, big-endian.
const N: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
];

/// The IFMA row, or `None` (reported) when this CPU lacks it and it is not expected.
fn ifma() -> Option<Backend> {
    tessera_testkit::expect_backends::<Backend>();
    let b = Backend::from_name(IFMA);
    let expected = std::env::var("TESSERA_EXPECT_BACKENDS")
        .map(|l| l.split(',').any(|n| n.trim() == IFMA))
        .unwrap_or(false);
    assert!(
        b.is_some() || !expected,
        "{IFMA} expected (TESSERA_EXPECT_BACKENDS) but not available"
    );
    if b.is_none() {
        eprintln!("SKIPPED: {IFMA} not available on this CPU");
    }
    b
}

/// `n - k` for a small `k`.
fn n_minus(k: u8) -> [u8; 32] {
    let mut r = N;
    let (v, borrow) = r[31].overflowing_sub(k);
    r[31] = v;
    assert!(!borrow);
    r
}

fn small(k: u64) -> [u8; 32] {
    let mut r = [0u8; 32];
    r[24..].copy_from_slice(&k.to_be_bytes());
    r
}

/// Edge scalars: 0, 1, 2, small ones, n - 1, n - 2, limb patterns of all ones below `n`.
fn edge_scalars() -> Vec<[u8; 32]> {
    let mut v = vec![
        small(0),
        small(1),
        small(2),
        small(3),
        small(31),
        small(32),
        small(33),
    ];
    v.extend([small(63), small(64), small(65), small(u64::MAX)]);
    v.extend([n_minus(1), n_minus(2), n_minus(3), n_minus(32), n_minus(33)]);
    // All-ones 64-bit limbs (big-endian words 3..0), below n.
    for mask in 1u8..16 {
        let mut k = [0u8; 32];
        for w in 0..4 {
            if mask >> w & 1 == 1 {
                k[24 - 8 * w..32 - 8 * w].fill(0xff);
            }
        }
        if k < N {
            v.push(k);
        }
    }
    // 2^255 - 1, 2^255, and alternating bytes (Booth digit patterns at the extremes).
    let mut k = [0xff; 32];
    k[0] = 0x7f;
    v.push(k);
    let mut k = [0; 32];
    k[0] = 0x80;
    v.push(k);
    v.push([0xaa; 32]);
    v.push([0x55; 32]);
    v.push([0x82; 32]);
    v
}

/// Points `s G` for a few `s`, SEC 1 uncompressed, computed on the portable row.
fn points() -> Vec<[u8; 65]> {
    [small(1), small(2), small(7), n_minus(1), [0x5a; 32]]
        .iter()
        .map(|s| testing::mul_base(Backend::Portable, s).unwrap().unwrap())
        .collect()
}

fn check_all(b: Backend, k: &[u8; 32], k2: &[u8; 32], p: &[u8; 65]) {
    let pb = Backend::Portable;
    assert_eq!(
        testing::mul_base(b, k),
        testing::mul_base(pb, k),
        "mul_base {k:02x?}"
    );
    assert_eq!(
        testing::mul(b, k, p),
        testing::mul(pb, k, p),
        "mul {k:02x?} {p:02x?}"
    );
    assert_eq!(
        testing::mul_double_vartime(b, k, k2, p),
        testing::mul_double_vartime(pb, k, k2, p),
        "mul_double_vartime {k:02x?} {k2:02x?} {p:02x?}"
    );
}

#[test]
fn edge_scalars_match_portable() {
    let Some(b) = ifma() else { return };
    let ps = points();
    let ks = edge_scalars();
    let mut n = 0;
    for (i, k) in ks.iter().enumerate() {
        for (j, p) in ps.iter().enumerate() {
            check_all(b, k, &ks[(i + j + 1) % ks.len()], p);
            n += 1;
        }
    }
    // The results are not all the identity: the comparison above compares real points.
    assert!(testing::mul_base(b, &small(1)).unwrap().is_some());
    assert_eq!(testing::mul_base(b, &small(0)).unwrap(), None);
    assert_eq!(
        testing::mul_base(b, &N),
        testing::mul_base(Backend::Portable, &N)
    );
    eprintln!("{n} edge cases on {IFMA}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_scalars_match_portable(k in any::<[u8; 32]>(), k2 in any::<[u8; 32]>(), s in any::<[u8; 32]>()) {
        let Some(b) = ifma() else { return Ok(()) };
        // Points s' G for a random s' < n (s with its top bit cleared).
        let mut s = s;
        s[0] &= 0x7f;
        let Some(p) = testing::mul_base(Backend::Portable, &s).unwrap() else { return Ok(()) };
        // Scalars at or above n are errors on both rows (compared too).
        check_all(b, &k, &k2, &p);
        let mut k = k;
        k[0] &= 0x7f;
        check_all(b, &k, &k2, &p);
    }
}
