//! Every available backend against portable (one-shot, incremental, HMAC, HKDF) through
//! `tessera_testkit::check_backends`; incremental against one-shot at every split point;
//! `io::Write` through `io::copy`.

#[path = "data/common.rs"]
mod common;

use common::{Hasher, chunked};
use proptest::prelude::*;
use tessera_cpu::BackendSet;
use tessera_sha2::testing::{Sha256Backend, Sha512Backend};
use tessera_sha2::{Hmac, HmacKey, Sha2, Sha224, Sha256, Sha384, Sha512, Sha512_256, hkdf};
use tessera_testkit::strategies::bytes_near_blocks;
use tessera_testkit::{check_backends, expect_backends, for_each_backend};

#[test]
fn expected_backends_present() {
    expect_backends::<Sha256Backend>();
    expect_backends::<Sha512Backend>();
    // The dispatcher picks the best available row of each table (each table has at most one
    // row per architecture after portable) for every kind of object.
    let best256 = Sha256Backend::all_available().last().unwrap();
    let best512 = Sha512Backend::all_available().last().unwrap();
    assert_eq!(Sha256Backend::detect(), best256);
    assert_eq!(Sha512Backend::detect(), best512);
    assert_eq!(Sha224::new().backend(), best256);
    assert_eq!(Sha256::new().backend(), best256);
    assert_eq!(Sha384::new().backend(), best512);
    assert_eq!(Sha512::new().backend(), best512);
    assert_eq!(Sha512_256::new().backend(), best512);
    assert_eq!(HmacKey::<Sha256>::new(b"k").backend(), best256);
    assert_eq!(HmacKey::<Sha384>::new(b"k").backend(), best512);
    for name in Sha256Backend::KNOWN {
        let b = Sha256Backend::from_name(name);
        assert_eq!(
            b.is_some(),
            Sha256Backend::all_available().any(|x| x.name() == *name)
        );
    }
}

/// `H`'s one-shot digest of `m` on `be`, checked against incremental hashing in the pieces
/// `cuts`.
fn digest_checked<H: Hasher>(be: H::Backend, m: &[u8], cuts: &[usize]) -> H::Digest {
    let d = H::digest_with_backend(be, m);
    assert_eq!(chunked::<H>(be, m, cuts), d, "chunked on {}", be.name());
    d
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_backend_matches_portable(
        m in bytes_near_blocks(64, 6 * 128 + 1),
        cuts in proptest::collection::vec(0usize..200, 0..6),
        key in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let len = m.len();
        check_backends::<Sha256Backend, _>(format!("SHA-224/256 len {len}"), |be| {
            let d256 = digest_checked::<Sha256>(be, &m, &cuts);
            let k = HmacKey::<Sha256>::new_with_backend(be, &key);
            let mac = k.sign(&m);
            let mut inc = k.hasher();
            inc.update(&m[..len / 2]).update(&m[len / 2..]);
            assert_eq!(inc.finalize(), mac, "incremental HMAC on {}", be.name());
            (d256, Sha224::digest_with_backend(be, &m), mac)
        });
        check_backends::<Sha512Backend, _>(format!("SHA-384/512 len {len}"), |be| {
            (
                digest_checked::<Sha512>(be, &m, &cuts),
                Sha384::digest_with_backend(be, &m),
                Sha512_256::digest_with_backend(be, &m),
                HmacKey::<Sha512>::new_with_backend(be, &key).sign(&m),
            )
        });
    }

    #[test]
    fn incremental_every_split(m in bytes_near_blocks(64, 2 * 128 + 3)) {
        let one256 = tessera_sha2::sha256(&m);
        let one512 = tessera_sha2::sha512(&m);
        let mac = tessera_sha2::hmac_sha256(b"k", &m);
        let key = HmacKey::<Sha256>::new(b"k");
        for s in 0..=m.len() {
            prop_assert_eq!(Sha256::new().update(&m[..s]).update(&m[s..]).finalize(), one256);
            prop_assert_eq!(Sha512::new().update(&m[..s]).update(&m[s..]).finalize(), one512);
            prop_assert_eq!(key.hasher().update(&m[..s]).update(&m[s..]).finalize(), mac);
        }
    }

    /// HKDF extract and expand pinned to each backend against portable.
    #[test]
    fn hkdf_every_backend_matches_portable(
        salt in proptest::collection::vec(any::<u8>(), 0..150),
        ikm in proptest::collection::vec(any::<u8>(), 0..150),
        info in proptest::collection::vec(any::<u8>(), 0..40),
        l in 0usize..600,
    ) {
        fn run<H: Sha2>(be: H::Backend, salt: &[u8], ikm: &[u8], info: &[u8], l: usize) -> Vec<u8> {
            let prk = hkdf::extract_parts_with_backend::<H>(be, salt, &[ikm]);
            let mut out = vec![0u8; l];
            prk.expand(&[info], &mut out).unwrap();
            [prk.as_bytes(), &out].concat()
        }
        check_backends::<Sha256Backend, _>("HKDF-SHA-256", |be| {
            run::<Sha256>(be, &salt, &ikm, &info, l)
        });
        check_backends::<Sha512Backend, _>("HKDF-SHA-384/512", |be| {
            (run::<Sha384>(be, &salt, &ikm, &info, l), run::<Sha512>(be, &salt, &ikm, &info, l))
        });
    }
}

#[test]
fn finalize_reset_and_clone() {
    let m: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    for_each_backend::<Sha256Backend>(|be| {
        let mut h = Sha256::new_with_backend(be);
        h.update(&m[..100]);
        let c = h.clone();
        h.update(&m[100..]);
        assert_eq!(h.finalize(), tessera_sha2::sha256(&m));
        assert_eq!(h.finalize_reset(), tessera_sha2::sha256(&m));
        assert_eq!(h.backend(), be);
        h.update(b"abc");
        assert_eq!(h.finalize(), tessera_sha2::sha256(b"abc"));
        assert_eq!(c.finalize(), tessera_sha2::sha256(&m[..100]));
        assert_eq!(c.backend(), be);
    });
    for_each_backend::<Sha512Backend>(|be| {
        let mut h = Sha384::new_with_backend(be);
        h.update(&m);
        assert_eq!(h.finalize_reset(), tessera_sha2::sha384(&m));
        h.update(b"abc");
        assert_eq!(h.finalize(), tessera_sha2::sha384(b"abc"));
        let k = HmacKey::<Sha512>::new_with_backend(be, b"key");
        let mut mac = k.hasher();
        mac.update(&m);
        let t = mac.finalize_reset();
        assert_eq!(t, tessera_sha2::hmac_sha512(b"key", &m));
        mac.update(b"x");
        mac.reset();
        mac.update(&m);
        assert_eq!(mac.finalize(), t);
        let c = mac.clone();
        drop(mac);
        assert_eq!(c.finalize(), t, "a clone outlives the original");
    });
}

#[test]
fn io_copy_hashes_a_stream() {
    use std::io::{BufReader, Read};
    let data: Vec<u8> = (0..100_003u32).map(|i| (i ^ (i >> 7)) as u8).collect();
    // A reader returning odd-sized pieces, through a BufReader, as when hashing a file.
    struct Odd<'a>(&'a [u8], usize);
    impl Read for Odd<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.1 = self.1 % 97 + 1;
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let mut h = Sha256::new();
    let n = std::io::copy(&mut BufReader::new(Odd(&data, 0)), &mut h).unwrap();
    assert_eq!(n, data.len() as u64);
    assert_eq!(h.finalize(), tessera_sha2::sha256(&data));
    let mut h = Sha512::new();
    std::io::copy(&mut &data[..], &mut h).unwrap();
    assert_eq!(h.finalize(), tessera_sha2::sha512(&data));
    let mut mac = tessera_sha2::Hmac::<Sha256>::new(b"k");
    std::io::copy(&mut &data[..], &mut mac).unwrap();
    assert_eq!(mac.finalize(), tessera_sha2::hmac_sha256(b"k", &data));
}

/// HMAC of `msg` under `key` on every backend of `H`'s table against portable: one-shot
/// `sign`, incremental in two pieces, and `verify`; and the default-backend `Hmac`.
fn hmac_matches_portable<H: Sha2>(key: &[u8], msg: &[u8], cut: usize) {
    let want = check_backends::<H::Backend, _>(format!("HMAC len {}", msg.len()), |be| {
        let k = HmacKey::<H>::new_with_backend(be, key);
        let tag = k.sign(msg);
        let cut = cut.min(msg.len());
        let mut m = k.hasher();
        m.update(&msg[..cut]).update(&msg[cut..]);
        assert_eq!(m.finalize(), tag, "incremental on {}", be.name());
        assert!(
            k.verify(msg, tag.as_ref()).is_ok(),
            "verify on {}",
            be.name()
        );
        tag
    });
    let mut m = Hmac::<H>::new(key);
    m.update(msg);
    assert_eq!(m.finalize(), want, "default backend");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// All five HMACs, random keys of 0..=300 bytes (below, at and above both block sizes,
    /// so long keys are hashed first) on every backend.
    #[test]
    fn hmac_every_variant_every_backend_matches_portable(
        key in proptest::collection::vec(any::<u8>(), 0..=300),
        msg in bytes_near_blocks(64, 3 * 128 + 1),
        cut in 0usize..400,
    ) {
        hmac_matches_portable::<Sha224>(&key, &msg, cut);
        hmac_matches_portable::<Sha256>(&key, &msg, cut);
        hmac_matches_portable::<Sha384>(&key, &msg, cut);
        hmac_matches_portable::<Sha512>(&key, &msg, cut);
        hmac_matches_portable::<Sha512_256>(&key, &msg, cut);
    }
}
