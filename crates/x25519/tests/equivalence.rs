//! Every available backend against portable (proptest): the ladder on random and edge
//! u-coordinates (0, 1, p - 1, p, p + 1, 2^255 - 1, values >= p, the top bit set, the
//! points of small order), the fixed-base path against the ladder on u = 9, and the
//! public-key API on each backend.

use proptest::prelude::*;
use tessera_testkit::check_backends;
use tessera_x25519::testing::{Backend, x25519_base_with_backend, x25519_with_backend};
use tessera_x25519::{PublicKey, StaticSecret, X25519_BASEPOINT_BYTES};

#[test]
fn expected_backends_present() {
    tessera_testkit::expect_backends::<Backend>();
}

fn le(words: [u64; 4]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (o, w) in out.chunks_exact_mut(8).zip(words) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// u-coordinates that exercise the edges of decoding and of the ladder.
fn edge_us() -> Vec<[u8; 32]> {
    let m = u64::MAX;
    let t = m >> 1;
    let mut v = vec![
        le([0, 0, 0, 0]),
        le([1, 0, 0, 0]),
        le([9, 0, 0, 0]),
        le([m - 19, m, m, t]),  // p - 1
        le([m - 18, m, m, t]),  // p
        le([m - 17, m, m, t]),  // p + 1
        le([m, m, m, t]),       // 2^255 - 1 (non-canonical, = 18)
        le([m, m, m, m]),       // top bit masked: 2^255 - 1
        le([0, 0, 0, 1 << 63]), // masks to 0
        le([m - 9, m, m, t]),   // p + 9 (= 9, non-canonical)
    ];
    for h in [
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800", // order 8
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157", // order 8
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // p - 1: order 2
    ] {
        v.push(tessera_testkit::hex::array::<32>(h));
    }
    v
}

fn u_strategy() -> impl Strategy<Value = [u8; 32]> {
    let edges = edge_us();
    prop_oneof![
        3 => any::<[u8; 32]>(),
        1 => prop::sample::select(edges),
        // Values in [p, 2^255) and with the top bit set.
        1 => (0u64..64).prop_map(|d| le([u64::MAX - 19 + d.min(19), u64::MAX, u64::MAX, u64::MAX >> 1])),
        1 => any::<[u8; 32]>().prop_map(|mut u| { u[31] |= 0x80; u }),
    ]
}

#[test]
fn edge_points_on_every_backend() {
    for u in edge_us() {
        for k in [[0u8; 32], [0xff; 32], [0x42; 32]] {
            check_backends::<Backend, _>(format!("x25519({k:x?}, {u:x?})"), |be| {
                x25519_with_backend(be, k, u)
            });
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ladder_matches_portable(k in any::<[u8; 32]>(), u in u_strategy()) {
        check_backends::<Backend, _>("x25519", |be| x25519_with_backend(be, k, u));
    }

    #[test]
    fn fixed_base_matches_ladder_on_9(k in any::<[u8; 32]>()) {
        let ladder = x25519_with_backend(Backend::Portable, k, X25519_BASEPOINT_BYTES);
        let base = check_backends::<Backend, _>("x25519_base", |be| {
            let b = x25519_base_with_backend(be, k);
            assert_eq!(b, x25519_with_backend(be, k, X25519_BASEPOINT_BYTES), "{}", be.name());
            b
        });
        prop_assert_eq!(base, ladder);
    }

    #[test]
    fn key_api_matches_portable(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
        check_backends::<Backend, _>("key api", |be| {
            let sa = StaticSecret::new_with_backend(be, a);
            let sb = StaticSecret::new_with_backend(be, b);
            let (pa, pb) = (PublicKey::from(&sa), PublicKey::from(&sb));
            let k = sa.diffie_hellman(&pb).unwrap().to_bytes();
            assert_eq!(sb.diffie_hellman(&pa).unwrap().to_bytes(), k);
            (pa, pb, k)
        });
    }
}

/// Scalars with long runs of equal bits and every clamped extreme (the fixed-base recoding's
/// carries run through whole nibbles of 15s and 0s; digits hit -8 and 8).
#[test]
fn fixed_base_on_structured_scalars() {
    let mut ks = vec![
        [0u8; 32], [0xff; 32], [0x88; 32], [0x77; 32], [0x80; 32], [0x08; 32],
    ];
    for i in 0..32 {
        let mut k = [0u8; 32];
        k[i] = 0xff;
        ks.push(k);
        let mut k = [0xffu8; 32];
        k[i] = 0;
        ks.push(k);
    }
    for k in ks {
        let want = x25519_with_backend(Backend::Portable, k, X25519_BASEPOINT_BYTES);
        let got =
            check_backends::<Backend, _>("structured base", |be| x25519_base_with_backend(be, k));
        assert_eq!(got, want, "{k:x?}");
    }
}
