//! Bad input gets a typed error and leaves outputs untouched.

use tessera_sha2::{Backend, Error, HmacKey, Sha224, Sha256, Sha384, Sha512, hkdf};

#[test]
fn hkdf_too_long_output_is_an_error_and_out_is_untouched() {
    let prk = hkdf::extract::<Sha256>(b"salt", b"ikm");
    let mut ok = [0u8; 255 * 32];
    assert_eq!(prk.expand(&[b"info"], &mut ok), Ok(()));
    let mut out = vec![0x5Au8; 255 * 32 + 1];
    assert_eq!(prk.expand(&[b"info"], &mut out), Err(Error::OutputTooLong));
    assert!(out.iter().all(|&b| b == 0x5A));
    assert_eq!(
        hkdf::hkdf::<Sha256>(b"s", b"k", &[], &mut out),
        Err(Error::OutputTooLong)
    );
    assert_eq!(
        hkdf::expand::<Sha256>(prk.as_bytes(), &[], &mut out),
        Err(Error::OutputTooLong)
    );
    assert!(out.iter().all(|&b| b == 0x5A));
    let mut out = vec![0x5Au8; 255 * 64 + 1];
    assert_eq!(
        hkdf::hkdf::<Sha512>(b"s", b"k", &[], &mut out),
        Err(Error::OutputTooLong)
    );
    assert!(out.iter().all(|&b| b == 0x5A));
    let mut out = vec![0x5Au8; 255 * 48 + 1];
    assert_eq!(
        hkdf::hkdf::<Sha384>(b"s", b"k", &[], &mut out),
        Err(Error::OutputTooLong)
    );
    assert!(out.iter().all(|&b| b == 0x5A));
}

#[test]
fn prk_lengths() {
    for n in [0usize, 1, 31, 33, 64] {
        assert_eq!(
            hkdf::Prk::<Sha256>::from_bytes(&vec![1u8; n]).err(),
            Some(Error::InvalidPrkLength),
            "len {n}"
        );
    }
    assert!(hkdf::Prk::<Sha256>::from_bytes(&[1u8; 32]).is_ok());
    let mut out = [0x5Au8; 16];
    assert_eq!(
        hkdf::expand::<Sha512>(&[1u8; 63], &[], &mut out),
        Err(Error::InvalidPrkLength)
    );
    assert_eq!(out, [0x5A; 16]);
    assert_eq!(hkdf::expand::<Sha512>(&[1u8; 64], &[], &mut out), Ok(()));
}

#[test]
fn hmac_verify_rejects_wrong_lengths_and_values() {
    let k = HmacKey::<Sha256>::new(b"key");
    let t = k.sign(b"msg");
    assert_eq!(k.verify(b"msg", &t), Ok(()));
    assert_eq!(k.verify(b"msg", &t[..31]), Err(Error::InvalidTag));
    assert_eq!(k.verify(b"msg", &[]), Err(Error::InvalidTag));
    let mut long = t.to_vec();
    long.push(0);
    assert_eq!(k.verify(b"msg", &long), Err(Error::InvalidTag));
    assert_eq!(
        k.verify_truncated(b"msg", &long, 33),
        Err(Error::InvalidTag)
    );
    assert_eq!(
        k.verify_truncated(b"msg", &long, 32),
        Err(Error::InvalidTag)
    );
    assert_eq!(k.verify_truncated(b"msg", &t, 32), Ok(()));
    assert_eq!(k.verify_truncated(b"msg", &t[..16], 16), Ok(()));
    assert_eq!(
        k.verify_truncated(b"msg", &t[..15], 15),
        Err(Error::InvalidTag)
    );
    assert_eq!(k.verify_truncated(b"msg", &[], 0), Err(Error::InvalidTag));
    assert_eq!(k.verify_truncated(b"msg", &[], 16), Err(Error::InvalidTag));
    // The attacker cannot choose the truncation: a correct but shorter prefix is refused.
    for len in 16..32 {
        assert_eq!(
            k.verify_truncated(b"msg", &t[..len], len + 1),
            Err(Error::InvalidTag),
            "{len}"
        );
        assert_eq!(
            k.verify_truncated(b"msg", &t[..len + 1], len),
            Err(Error::InvalidTag),
            "{len}"
        );
    }
    let mut m = k.hasher();
    m.update(b"msg");
    assert_eq!(m.verify_truncated(&t[..20], 20), Ok(()));
    assert_eq!(m.verify_truncated(&t[..16], 20), Err(Error::InvalidTag));
    assert_eq!(m.verify_truncated(&t[..15], 15), Err(Error::InvalidTag));
    for i in 0..32 {
        let mut bad = t;
        bad[i] ^= 0x80;
        assert_eq!(k.verify(b"msg", &bad), Err(Error::InvalidTag));
    }
    let k = HmacKey::<Sha224>::new(b"key");
    let t = k.sign(b"msg");
    assert_eq!(k.verify_truncated(b"msg", &t[..14], 14), Ok(()));
    assert_eq!(
        k.verify_truncated(b"msg", &t[..13], 13),
        Err(Error::InvalidTag)
    );
    assert_eq!(
        k.verify_truncated(b"msg", &t[..14], 16),
        Err(Error::InvalidTag)
    );
    assert_eq!(tessera_sha2::min_truncated_len(28), 14);
    assert_eq!(tessera_sha2::min_truncated_len(32), 16);
    assert_eq!(tessera_sha2::min_truncated_len(64), 16);
}

#[test]
fn backends_that_lack_a_family_are_refused() {
    for be in Backend::all_available() {
        assert_eq!(Sha256::new_with_backend(be).is_ok(), be.supports_sha256());
        assert_eq!(Sha512::new_with_backend(be).is_ok(), be.supports_sha512());
        assert_eq!(
            HmacKey::<Sha384>::new_with_backend(be, b"k").is_ok(),
            be.supports_sha512()
        );
        if !be.supports_sha256() {
            assert_eq!(
                Sha224::digest_with_backend(be, b"").err(),
                Some(Error::UnsupportedBackend)
            );
        }
        if !be.supports_sha512() {
            assert_eq!(
                Sha512::digest_with_backend(be, b"").err(),
                Some(Error::UnsupportedBackend)
            );
        }
    }
    assert!(Backend::Portable.supports_sha256() && Backend::Portable.supports_sha512());
}
