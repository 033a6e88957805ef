//! Random inputs against RustCrypto `sha2` and `ring` (digest, HMAC, HKDF), with lengths
//! around the block boundaries.
//!
//! ring is a dev-dependency only where it builds (x86_64 and aarch64, see Cargo.toml): only
//! the ring comparisons are gated, so the RustCrypto `sha2` ones run on every target.

use proptest::prelude::*;
use sha2::Digest;
use tessera_sha2::testing::{Sha256Backend, Sha512Backend};
use tessera_sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_256};
use tessera_testkit::check_backends;

/// 55, 56, 63, 64, 111, 112, 119, 120, 127, 128 and their multiples up to 8x, plus +-1.
fn boundary_lengths() -> Vec<usize> {
    let mut v = Vec::new();
    for base in [55usize, 56, 63, 64, 111, 112, 119, 120, 127, 128] {
        for k in 1..=8 {
            for d in [-1i64, 0, 1] {
                v.push((base as i64 * k + d) as usize);
            }
        }
    }
    v.push(0);
    v.sort();
    v.dedup();
    v
}

fn data(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

#[cfg(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    not(any(miri, tessera_backend = "portable"))
))]
fn ring_digest(alg: &'static ring::digest::Algorithm, m: &[u8]) -> Vec<u8> {
    ring::digest::digest(alg, m).as_ref().to_vec()
}

/// Every backend against portable (`check_backends`), then portable against RustCrypto `sha2`
/// and ring.
fn check_all(m: &[u8]) {
    let len = m.len();
    let (d256, d224) = check_backends::<Sha256Backend, _>(format!("SHA-224/256 len {len}"), |be| {
        (
            Sha256::digest_with_backend(be, m),
            Sha224::digest_with_backend(be, m),
        )
    });
    assert_eq!(d256[..], sha2::Sha256::digest(m)[..], "SHA-256 len {len}");
    assert_eq!(d224[..], sha2::Sha224::digest(m)[..], "SHA-224 len {len}");
    #[cfg(all(
        any(target_arch = "x86_64", target_arch = "aarch64"),
        not(any(miri, tessera_backend = "portable"))
    ))]
    assert_eq!(d256.to_vec(), ring_digest(&ring::digest::SHA256, m));
    let (d512, d384, d512_256) =
        check_backends::<Sha512Backend, _>(format!("SHA-384/512 len {len}"), |be| {
            (
                Sha512::digest_with_backend(be, m),
                Sha384::digest_with_backend(be, m),
                Sha512_256::digest_with_backend(be, m),
            )
        });
    assert_eq!(d512[..], sha2::Sha512::digest(m)[..], "SHA-512 len {len}");
    assert_eq!(d384[..], sha2::Sha384::digest(m)[..], "SHA-384 len {len}");
    assert_eq!(
        d512_256[..],
        sha2::Sha512_256::digest(m)[..],
        "SHA-512/256 len {len}"
    );
    #[cfg(all(
        any(target_arch = "x86_64", target_arch = "aarch64"),
        not(any(miri, tessera_backend = "portable"))
    ))]
    {
        assert_eq!(d512.to_vec(), ring_digest(&ring::digest::SHA512, m));
        assert_eq!(d384.to_vec(), ring_digest(&ring::digest::SHA384, m));
    }
}

#[test]
fn block_boundary_lengths_against_sha2_and_ring() {
    let lens = boundary_lengths();
    for (i, &n) in lens.iter().enumerate() {
        check_all(&data(n, i as u64 + 1));
    }
    eprintln!("boundary lengths checked: {}", lens.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_digests(len in 0usize..2048, seed in any::<u64>()) {
        check_all(&data(len, seed));
    }
}

/// The comparisons with ring (HMAC, HKDF), where ring builds.
#[cfg(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    not(any(miri, tessera_backend = "portable"))
))]
mod with_ring {
    use super::*;
    use tessera_sha2::{HmacKey, Sha2, hkdf};

    fn ring_hmac(alg: ring::hmac::Algorithm, key: &[u8], m: &[u8]) -> Vec<u8> {
        ring::hmac::sign(&ring::hmac::Key::new(alg, key), m)
            .as_ref()
            .to_vec()
    }

    #[test]
    fn hmac_boundary_lengths_against_ring() {
        let lens = boundary_lengths();
        let mut n = 0;
        for (i, &len) in lens.iter().enumerate() {
            let m = data(len, 1000 + i as u64);
            // Keys shorter than, equal to and longer than each block.
            for klen in [0usize, 32, 64, 65, 128, 129] {
                let key = data(klen, 77 + klen as u64);
                let what = format!("HMAC len {len} key {klen}");
                let t256 = check_backends::<Sha256Backend, _>(&what, |be| {
                    HmacKey::<Sha256>::new_with_backend(be, &key).sign(&m)
                });
                assert_eq!(
                    t256.to_vec(),
                    ring_hmac(ring::hmac::HMAC_SHA256, &key, &m),
                    "{what}"
                );
                let (t384, t512) = check_backends::<Sha512Backend, _>(&what, |be| {
                    (
                        HmacKey::<Sha384>::new_with_backend(be, &key).sign(&m),
                        HmacKey::<Sha512>::new_with_backend(be, &key).sign(&m),
                    )
                });
                assert_eq!(
                    t384.to_vec(),
                    ring_hmac(ring::hmac::HMAC_SHA384, &key, &m),
                    "{what}"
                );
                assert_eq!(
                    t512.to_vec(),
                    ring_hmac(ring::hmac::HMAC_SHA512, &key, &m),
                    "{what}"
                );
                n += 3;
            }
        }
        eprintln!("HMAC differential cases (each on every backend): {n}");
    }

    /// ring's HKDF output length type.
    struct Len(usize);
    impl ring::hkdf::KeyType for Len {
        fn len(&self) -> usize {
            self.0
        }
    }

    fn ring_hkdf(
        alg: ring::hkdf::Algorithm,
        salt: &[u8],
        ikm: &[u8],
        info: &[&[u8]],
        l: usize,
    ) -> Vec<u8> {
        let prk = ring::hkdf::Salt::new(alg, salt).extract(ikm);
        let mut out = vec![0u8; l];
        prk.expand(info, Len(l)).unwrap().fill(&mut out).unwrap();
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn random_hkdf(
            salt in proptest::collection::vec(any::<u8>(), 0..150),
            ikm in proptest::collection::vec(any::<u8>(), 0..150),
            info in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..4),
            l in 0usize..600,
        ) {
            let parts: Vec<&[u8]> = info.iter().map(|v| &v[..]).collect();
            let mut out = vec![0u8; l];
            hkdf::hkdf::<Sha256>(&salt, &ikm, &parts, &mut out).unwrap();
            prop_assert_eq!(&out, &ring_hkdf(ring::hkdf::HKDF_SHA256, &salt, &ikm, &parts, l));
            hkdf::hkdf::<Sha384>(&salt, &ikm, &parts, &mut out).unwrap();
            prop_assert_eq!(&out, &ring_hkdf(ring::hkdf::HKDF_SHA384, &salt, &ikm, &parts, l));
            hkdf::hkdf::<Sha512>(&salt, &ikm, &parts, &mut out).unwrap();
            prop_assert_eq!(&out, &ring_hkdf(ring::hkdf::HKDF_SHA512, &salt, &ikm, &parts, l));
            // Extract and expand pinned to every backend, against ring.
            fn pinned<H: Sha2>(salt: &[u8], ikm: &[u8], parts: &[&[u8]], l: usize) -> Vec<u8> {
                check_backends::<H::Backend, _>("HKDF", |be| {
                    let prk = hkdf::extract_parts_with_backend::<H>(be, salt, &[ikm]);
                    let mut out = vec![0u8; l];
                    prk.expand(parts, &mut out).unwrap();
                    out
                })
            }
            prop_assert_eq!(
                pinned::<Sha256>(&salt, &ikm, &parts, l),
                ring_hkdf(ring::hkdf::HKDF_SHA256, &salt, &ikm, &parts, l)
            );
            prop_assert_eq!(
                pinned::<Sha512>(&salt, &ikm, &parts, l),
                ring_hkdf(ring::hkdf::HKDF_SHA512, &salt, &ikm, &parts, l)
            );
        }
    }
}
