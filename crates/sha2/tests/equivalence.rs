//! Every available backend against portable (one-shot, incremental, HMAC); incremental against
//! one-shot at every split point; `io::Write` through `io::copy`.

use proptest::prelude::*;
use tessera_sha2::{Backend, Hmac, HmacKey, Sha2, Sha224, Sha256, Sha384, Sha512, Sha512_256};
use tessera_testkit::strategies::bytes_near_blocks;

#[test]
fn expected_backends_present() {
    let names: Vec<&str> = Backend::all_available().map(|b| b.name()).collect();
    tessera_testkit::expect_backends("tessera-sha2", Backend::KNOWN, &names);
    // The dispatcher picks an available backend for each family.
    assert!(names.contains(&Backend::detect_sha256().name()));
    assert!(names.contains(&Backend::detect_sha512().name()));
    assert_eq!(Sha256::new().backend(), Backend::detect_sha256());
    assert_eq!(Sha512::new().backend(), Backend::detect_sha512());
}

/// Incremental hashing of `m` in the chunks given by `cuts` on backend `be`.
fn chunked256(be: Backend, m: &[u8], cuts: &[usize]) -> [u8; 32] {
    let mut h = Sha256::new_with_backend(be).unwrap();
    let mut at = 0;
    for &c in cuts {
        let end = (at + c).min(m.len());
        h.update(&m[at..end]);
        at = end;
    }
    h.update(&m[at..]);
    h.finalize()
}

fn chunked512(be: Backend, m: &[u8], cuts: &[usize]) -> [u8; 64] {
    let mut h = Sha512::new_with_backend(be).unwrap();
    let mut at = 0;
    for &c in cuts {
        let end = (at + c).min(m.len());
        h.update(&m[at..end]);
        at = end;
    }
    h.update(&m[at..]);
    h.finalize()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_backend_matches_portable(
        m in bytes_near_blocks(64, 6 * 128 + 1),
        cuts in proptest::collection::vec(0usize..200, 0..6),
        key in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let p = Backend::Portable;
        let e256 = Sha256::digest_with_backend(p, &m).unwrap();
        let e224 = Sha224::digest_with_backend(p, &m).unwrap();
        let e512 = Sha512::digest_with_backend(p, &m).unwrap();
        let e384 = Sha384::digest_with_backend(p, &m).unwrap();
        let e512_256 = Sha512_256::digest_with_backend(p, &m).unwrap();
        let m256 = HmacKey::<Sha256>::new_with_backend(p, &key).unwrap().sign(&m);
        let m512 = HmacKey::<Sha512>::new_with_backend(p, &key).unwrap().sign(&m);
        for be in Backend::all_available() {
            if be.supports_sha256() {
                prop_assert_eq!(Sha256::digest_with_backend(be, &m).unwrap(), e256, "{}", be.name());
                prop_assert_eq!(Sha224::digest_with_backend(be, &m).unwrap(), e224, "{}", be.name());
                prop_assert_eq!(chunked256(be, &m, &cuts), e256, "{}", be.name());
                let k = HmacKey::<Sha256>::new_with_backend(be, &key).unwrap();
                prop_assert_eq!(k.sign(&m), m256, "{}", be.name());
                let mut inc = k.hasher();
                inc.update(&m[..m.len() / 2]).update(&m[m.len() / 2..]);
                prop_assert_eq!(inc.finalize(), m256, "{}", be.name());
            }
            if be.supports_sha512() {
                prop_assert_eq!(Sha512::digest_with_backend(be, &m).unwrap(), e512, "{}", be.name());
                prop_assert_eq!(Sha384::digest_with_backend(be, &m).unwrap(), e384, "{}", be.name());
                prop_assert_eq!(Sha512_256::digest_with_backend(be, &m).unwrap(), e512_256, "{}", be.name());
                prop_assert_eq!(chunked512(be, &m, &cuts), e512, "{}", be.name());
                let k = HmacKey::<Sha512>::new_with_backend(be, &key).unwrap();
                prop_assert_eq!(k.sign(&m), m512, "{}", be.name());
            }
        }
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
}

#[test]
fn finalize_reset_and_clone() {
    let m: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    for be in Backend::all_available() {
        if be.supports_sha256() {
            let mut h = Sha256::new_with_backend(be).unwrap();
            h.update(&m[..100]);
            let c = h.clone();
            h.update(&m[100..]);
            assert_eq!(h.finalize(), tessera_sha2::sha256(&m));
            assert_eq!(h.finalize_reset(), tessera_sha2::sha256(&m));
            assert_eq!(h.backend(), be);
            h.update(b"abc");
            assert_eq!(h.finalize(), tessera_sha2::sha256(b"abc"));
            assert_eq!(c.finalize(), tessera_sha2::sha256(&m[..100]));
        }
        if be.supports_sha512() {
            let mut h = Sha384::new_with_backend(be).unwrap();
            h.update(&m);
            assert_eq!(h.finalize_reset(), tessera_sha2::sha384(&m));
            h.update(b"abc");
            assert_eq!(h.finalize(), tessera_sha2::sha384(b"abc"));
        }
        let k = HmacKey::<Sha512>::new_with_backend(be, b"key");
        if let Ok(k) = k {
            let mut mac = k.hasher();
            mac.update(&m);
            let t = mac.finalize_reset();
            assert_eq!(t, tessera_sha2::hmac_sha512(b"key", &m));
            mac.update(b"x");
            mac.reset();
            mac.update(&m);
            assert_eq!(mac.finalize(), t);
        }
    }
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

/// HMAC of `msg` under `key` on every backend implementing `H`, against portable: one-shot
/// `sign`, incremental in two pieces, and `verify`. Returns how many backends ran.
fn hmac_matches_portable<H: Sha2>(
    key: &[u8],
    msg: &[u8],
    cut: usize,
) -> Result<usize, TestCaseError> {
    let want = HmacKey::<H>::new_with_backend(Backend::Portable, key)
        .unwrap()
        .sign(msg);
    let mut ran = 0;
    for be in Backend::all_available() {
        let Ok(k) = HmacKey::<H>::new_with_backend(be, key) else {
            continue;
        };
        prop_assert_eq!(k.sign(msg), want, "sign on {}", be.name());
        let cut = cut.min(msg.len());
        let mut m = k.hasher();
        m.update(&msg[..cut]).update(&msg[cut..]);
        prop_assert_eq!(m.finalize(), want, "incremental on {}", be.name());
        prop_assert!(
            k.verify(msg, want.as_ref()).is_ok(),
            "verify on {}",
            be.name()
        );
        let mut m = Hmac::<H>::new(key);
        m.update(msg);
        prop_assert_eq!(m.finalize(), want, "default backend");
        ran += 1;
    }
    Ok(ran)
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
        let n256 = Backend::all_available().filter(|b| b.supports_sha256()).count();
        let n512 = Backend::all_available().filter(|b| b.supports_sha512()).count();
        prop_assert_eq!(hmac_matches_portable::<Sha224>(&key, &msg, cut)?, n256);
        prop_assert_eq!(hmac_matches_portable::<Sha256>(&key, &msg, cut)?, n256);
        prop_assert_eq!(hmac_matches_portable::<Sha384>(&key, &msg, cut)?, n512);
        prop_assert_eq!(hmac_matches_portable::<Sha512>(&key, &msg, cut)?, n512);
        prop_assert_eq!(hmac_matches_portable::<Sha512_256>(&key, &msg, cut)?, n512);
    }
}
