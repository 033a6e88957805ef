//! Bad input gets a typed error and leaves outputs untouched.

use tessera_cpu::BackendSet;
use tessera_sha2::testing::{Sha256Backend, Sha512Backend};
use tessera_sha2::{Error, HmacKey, Sha2, Sha224, Sha256, Sha384, Sha512, Sha512_256, hkdf};
use tessera_testkit::for_each_backend;

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
    assert_eq!(k.verify(b"msg", &t[..31]), Err(Error::Authentication));
    assert_eq!(k.verify(b"msg", &[]), Err(Error::Authentication));
    let mut long = t.to_vec();
    long.push(0);
    assert_eq!(k.verify(b"msg", &long), Err(Error::Authentication));
    assert_eq!(
        k.verify_truncated(b"msg", &long, 33),
        Err(Error::Authentication)
    );
    assert_eq!(
        k.verify_truncated(b"msg", &long, 32),
        Err(Error::Authentication)
    );
    assert_eq!(k.verify_truncated(b"msg", &t, 32), Ok(()));
    assert_eq!(k.verify_truncated(b"msg", &t[..16], 16), Ok(()));
    assert_eq!(
        k.verify_truncated(b"msg", &t[..15], 15),
        Err(Error::Authentication)
    );
    assert_eq!(
        k.verify_truncated(b"msg", &[], 0),
        Err(Error::Authentication)
    );
    assert_eq!(
        k.verify_truncated(b"msg", &[], 16),
        Err(Error::Authentication)
    );
    // The attacker cannot choose the truncation: a correct but shorter prefix is refused.
    for len in 16..32 {
        assert_eq!(
            k.verify_truncated(b"msg", &t[..len], len + 1),
            Err(Error::Authentication),
            "{len}"
        );
        assert_eq!(
            k.verify_truncated(b"msg", &t[..len + 1], len),
            Err(Error::Authentication),
            "{len}"
        );
    }
    let mut m = k.hasher();
    m.update(b"msg");
    assert_eq!(m.verify_truncated(&t[..20], 20), Ok(()));
    assert_eq!(m.verify_truncated(&t[..16], 20), Err(Error::Authentication));
    assert_eq!(m.verify_truncated(&t[..15], 15), Err(Error::Authentication));
    for i in 0..32 {
        let mut bad = t;
        bad[i] ^= 0x80;
        assert_eq!(k.verify(b"msg", &bad), Err(Error::Authentication));
    }
    let k = HmacKey::<Sha224>::new(b"key");
    let t = k.sign(b"msg");
    assert_eq!(k.verify_truncated(b"msg", &t[..14], 14), Ok(()));
    assert_eq!(
        k.verify_truncated(b"msg", &t[..13], 13),
        Err(Error::Authentication)
    );
    assert_eq!(
        k.verify_truncated(b"msg", &t[..14], 16),
        Err(Error::Authentication)
    );
    assert_eq!(tessera_sha2::min_truncated_len(28), 14);
    assert_eq!(tessera_sha2::min_truncated_len(32), 16);
    assert_eq!(tessera_sha2::min_truncated_len(64), 16);
}

/// Every flipped bit of a tag, and every wrong length, is `Error::Authentication` on every
/// backend, through the key and through the incremental MAC.
fn tag_flips<H: Sha2>(be: H::Backend) {
    let k = HmacKey::<H>::new_with_backend(be, b"key");
    let msg = b"a message of some length, more than one block long when it is repeated";
    let t = k.sign(msg);
    let mut m = k.hasher();
    m.update(msg);
    let name = be.name();
    assert_eq!(k.verify(msg, t.as_ref()), Ok(()), "{name}");
    for i in 0..8 * H::OUTPUT_LEN {
        let mut bad = t;
        bad.as_mut()[i / 8] ^= 1 << (i % 8);
        assert_eq!(
            k.verify(msg, bad.as_ref()),
            Err(Error::Authentication),
            "{name} bit {i}"
        );
        assert_eq!(
            m.verify(bad.as_ref()),
            Err(Error::Authentication),
            "{name} bit {i}"
        );
    }
    for n in 0..H::OUTPUT_LEN {
        assert_eq!(
            k.verify(msg, &t.as_ref()[..n]),
            Err(Error::Authentication),
            "{name} len {n}"
        );
    }
}

#[test]
fn tag_bit_flips_every_backend() {
    for_each_backend::<Sha256Backend>(|be| {
        tag_flips::<Sha224>(be);
        tag_flips::<Sha256>(be);
    });
    for_each_backend::<Sha512Backend>(|be| {
        tag_flips::<Sha384>(be);
        tag_flips::<Sha512>(be);
        tag_flips::<Sha512_256>(be);
    });
}

#[test]
fn error_is_a_core_error_with_messages() {
    fn is_error<E: core::error::Error + Send + Sync + Copy + 'static>(_: &E) {}
    for e in [
        Error::Authentication,
        Error::OutputTooLong,
        Error::InvalidPrkLength,
    ] {
        is_error(&e);
        assert!(!e.to_string().is_empty());
    }
    assert_eq!(
        Error::Authentication.to_string(),
        "HMAC authentication failed"
    );
    // A boxed `std::error::Error` (what `?` into `Box<dyn Error>` makes).
    let r: Result<(), Box<dyn std::error::Error>> = HmacKey::<Sha256>::new(b"k")
        .verify(b"m", &[0; 32])
        .map_err(Into::into);
    assert_eq!(r.unwrap_err().to_string(), "HMAC authentication failed");
}
