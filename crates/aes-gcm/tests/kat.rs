//! Official vectors on every available backend: Wycheproof AES-GCM and AES-GMAC (all cases,
//! valid and invalid), the GCM specification's test cases 1-18, FIPS 197 appendix C.

#[path = "data/spec_vectors.rs"]
mod spec_vectors;

use tessera_aes_gcm::testing::Backend;
use tessera_aes_gcm::{AesGcm, Error, hazmat};
use tessera_testkit::hex::decode as hex;
use tessera_testkit::wycheproof::Tally;
use tessera_testkit::{expect_backends, for_each_backend};

#[test]
fn expected_backends_present() {
    expect_backends::<Backend>();
}

/// Seals and opens one known case; checks that a flipped tag bit fails and clears the buffer.
fn check_case(g: &AesGcm, nonce: &[u8], aad: &[u8], pt: &[u8], ct: &[u8], tag: &[u8], what: &str) {
    let be = g.backend().name();
    let mut buf = pt.to_vec();
    let t = g.encrypt_in_place_detached(nonce, aad, &mut buf).unwrap();
    assert_eq!(buf, ct, "{what} ciphertext on {be}");
    assert_eq!(&t[..], tag, "{what} tag on {be}");
    g.decrypt_in_place_detached(nonce, aad, &mut buf, &t)
        .unwrap();
    assert_eq!(buf, pt, "{what} decryption on {be}");
    let mut buf = ct.to_vec();
    let mut bad = t;
    bad[15] ^= 0x80;
    assert_eq!(
        g.decrypt_in_place_detached(nonce, aad, &mut buf, &bad),
        Err(Error::Authentication)
    );
    assert!(
        buf.iter().all(|&b| b == 0),
        "{what}: buffer not cleared on {be}"
    );
}

#[test]
fn gcm_spec_test_cases() {
    let mut n = 0;
    let mut backends = 0;
    for_each_backend::<Backend>(|be| {
        for (i, c) in spec_vectors::SPEC_CASES.iter().enumerate() {
            let [k, iv, a, p, ct, t] = c.map(hex);
            let g = AesGcm::new_with_backend(be, &k).unwrap();
            check_case(&g, &iv, &a, &p, &ct, &t, &format!("test case {}", i + 1));
            n += 1;
        }
        backends += 1;
    });
    eprintln!(
        "GCM spec: {n} case runs ({} per backend)",
        spec_vectors::SPEC_CASES.len()
    );
    assert_eq!(n, 18 * backends);
}

/// Runs `cases` (every case of a Wycheproof set of `total` cases, tallied) on every backend;
/// each must see all of them, valid and invalid ones.
fn wycheproof_every_backend(set: &str, total: usize, cases: impl Fn(Backend, &mut Tally)) {
    for_each_backend::<Backend>(|be| {
        let mut tally = Tally::default();
        cases(be, &mut tally);
        tally.report(&format!("wycheproof {set} on {}", be.name()));
        assert_eq!(tally.valid + tally.invalid, total);
        assert!(tally.valid > 0 && tally.invalid > 0);
    });
}

/// One Wycheproof case on `be`: its key's `AesGcm`, its tag (which must be 16 bytes) and the
/// label for its messages, `"{label} tcId {tc_id} ({comment}) on {backend}"`.
fn wycheproof_case(
    be: Backend,
    label: &str,
    key: &[u8],
    tag: &[u8],
    tc_id: usize,
    comment: &str,
) -> (AesGcm, [u8; 16], String) {
    let aead = AesGcm::new_with_backend(be, key).expect("AES key size");
    assert_eq!(tag.len(), 16, "tcId {tc_id}");
    let tag: [u8; 16] = tag.try_into().unwrap();
    let what = format!("{label} tcId {tc_id} ({comment}) on {}", be.name());
    (aead, tag, what)
}

#[test]
fn wycheproof_aes_gcm() {
    use wycheproof::aead::{TestName, TestSet};
    let set = TestSet::load(TestName::AesGcm).unwrap();
    wycheproof_every_backend("aes_gcm", set.number_of_tests, |be, tally| {
        for t in set.test_groups.iter().flat_map(|g| &g.tests) {
            let (aead, tag, what) =
                wycheproof_case(be, "wycheproof", &t.key, &t.tag, t.tc_id, &t.comment);
            let mut buf = t.ct.to_vec();
            let ok = aead
                .decrypt_in_place_detached(&t.nonce, &t.aad, &mut buf, &tag)
                .is_ok();
            tally.check(&what, t.result, ok, false);
            if ok {
                assert_eq!(buf, &t.pt[..], "{what}: plaintext");
                check_case(&aead, &t.nonce, &t.aad, &t.pt, &t.ct, &t.tag, &what);
            } else if t.nonce.is_empty() {
                // A length error: nothing was decrypted, the buffer is as given.
                assert_eq!(buf, &t.ct[..], "{what}: buffer touched");
                let mut buf = t.pt.to_vec();
                assert_eq!(
                    aead.encrypt_in_place_detached(&t.nonce, &t.aad, &mut buf),
                    Err(Error::InvalidNonceLength)
                );
            } else {
                assert!(buf.iter().all(|&b| b == 0), "{what}: buffer not cleared");
            }
        }
    });
}

#[test]
fn wycheproof_aes_gmac() {
    use wycheproof::mac_with_nonce::{TestName, TestSet};
    let set = TestSet::load(TestName::Gmac).unwrap();
    wycheproof_every_backend("aes_gmac", set.number_of_tests, |be, tally| {
        for t in set.test_groups.iter().flat_map(|g| &g.tests) {
            // GMAC is GCM with the message as additional data and no plaintext.
            let (aead, tag, what) =
                wycheproof_case(be, "wycheproof gmac", &t.key, &t.tag, t.tc_id, &t.comment);
            let ok = aead
                .decrypt_in_place_detached(&t.nonce, &t.msg, &mut [], &tag)
                .is_ok();
            tally.check(&what, t.result, ok, false);
            if ok {
                assert_eq!(
                    aead.encrypt_in_place_detached(&t.nonce, &t.msg, &mut [])
                        .unwrap(),
                    tag,
                    "{what}"
                );
            }
        }
    });
}

/// FIPS 197 appendix C: plaintext 00112233..ff, key 000102..; through the hazmat block cipher,
/// one block and many blocks at once (every count up to 19 exercises the tails of 4- and
/// 8-block paths).
#[test]
fn fips197_appendix_c() {
    let pt: [u8; 16] = hex("00112233445566778899aabbccddeeff").try_into().unwrap();
    let cases = [
        (
            "000102030405060708090a0b0c0d0e0f",
            "69c4e0d86a7b0430d8cdb78070b4c55a",
        ),
        (
            "000102030405060708090a0b0c0d0e0f1011121314151617",
            "dda97ca4864cdfe06eaf70a0ec0d7191",
        ),
        (
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            "8ea2b7ca516745bfeafc49904b496089",
        ),
    ];
    for_each_backend::<Backend>(|be| {
        for (k, c) in cases {
            let k = hex(k);
            let ct: [u8; 16] = hex(c).try_into().unwrap();
            macro_rules! both {
                ($t:ty) => {{
                    let a = <$t>::new_with_backend(be, k[..].try_into().unwrap());
                    for n in 1..=19 {
                        let mut blocks = vec![pt; n];
                        a.encrypt_blocks(&mut blocks);
                        assert!(
                            blocks.iter().all(|b| *b == ct),
                            "{} encrypt x{n} key {}",
                            be.name(),
                            k.len()
                        );
                        a.decrypt_blocks(&mut blocks);
                        assert!(
                            blocks.iter().all(|b| *b == pt),
                            "{} decrypt x{n}",
                            be.name()
                        );
                    }
                }};
            }
            match k.len() {
                16 => both!(hazmat::Aes128),
                24 => both!(hazmat::Aes192),
                _ => both!(hazmat::Aes256),
            }
        }
        let a = hazmat::Aes128::new_with_backend(be, &hex(cases[0].0).try_into().unwrap());
        let mut b = pt;
        a.encrypt_block(&mut b);
        assert_eq!(b.to_vec(), hex(cases[0].1));
        a.decrypt_block(&mut b);
        assert_eq!(b, pt);
    });
}
