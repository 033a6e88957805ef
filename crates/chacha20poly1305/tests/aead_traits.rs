//! The RustCrypto `aead` 0.6 traits (feature `aead`) on the types of
//! `tessera_chacha20poly1305::aead`: RustCrypto's published Wycheproof vectors
//! (`chacha20poly1305` 0.11's `tests/data/wycheproof_{,x}chacha20poly1305_{pass,fail}.blb`,
//! checked with `aead::dev`); one function generic over `AeadInOut + KeyInit` run on Tessera and
//! on RustCrypto `chacha20poly1305` 0.11 (in place, separate buffers, `Aead`, tampering), on the
//! selected backend and on every available backend; RustCrypto's README usage written against
//! Tessera with only the path changed, against the peer on the same key and nonce; `Clone`,
//! `Debug` and `ZeroizeOnDrop`.

#![cfg(feature = "aead")]

use aead::{Aead, KeyInit, Nonce};
use proptest::prelude::*;
use tessera_chacha20poly1305::aead::{ChaCha20Poly1305, XChaCha20Poly1305};
use tessera_chacha20poly1305::testing::Backend;
use tessera_testkit::aead_traits::{
    Input, check_key_lengths, check_pair, differential, exercise, inputs, keyed, long_message,
    same_constants, wycheproof_blobby,
};
use tessera_testkit::check_backends;

#[test]
fn wycheproof_chacha20poly1305() {
    wycheproof_blobby::<ChaCha20Poly1305>(
        "chacha20poly1305",
        "0.11.",
        "wycheproof_chacha20poly1305",
    );
}

#[test]
fn wycheproof_xchacha20poly1305() {
    wycheproof_blobby::<XChaCha20Poly1305>(
        "chacha20poly1305",
        "0.11.",
        "wycheproof_xchacha20poly1305",
    );
}

#[test]
fn new_from_slice_checks_the_length() {
    check_key_lengths::<ChaCha20Poly1305>(32);
    check_key_lengths::<XChaCha20Poly1305>(32);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn matches_rustcrypto_chacha20poly1305(i in inputs(32, 12, 80, 64, 1600)) {
        i.differential::<ChaCha20Poly1305, chacha20poly1305_11::ChaCha20Poly1305>();
    }

    #[test]
    fn matches_rustcrypto_xchacha20poly1305(i in inputs(32, 24, 80, 64, 1600)) {
        i.differential::<XChaCha20Poly1305, chacha20poly1305_11::XChaCha20Poly1305>();
    }

    /// The trait path on every available backend (keys from `new_with_backend`) gives the
    /// portable backend's outcome, and that outcome is RustCrypto's.
    #[test]
    fn trait_path_on_every_backend(i in inputs(32, 24, 48, 64, 1400)) {
        let Input { key, nonce, aad, msg, flip } = i;
        let key: [u8; 32] = key.try_into().unwrap();
        let ours = check_backends::<Backend, _>("aead traits", |be| {
            let c = ChaCha20Poly1305::from(
                tessera_chacha20poly1305::ChaCha20Poly1305::new_with_backend(be, &key),
            );
            let x = XChaCha20Poly1305::from(
                tessera_chacha20poly1305::XChaCha20Poly1305::new_with_backend(be, &key),
            );
            (
                exercise(&c, &nonce[..12], &aad, &msg, flip),
                exercise(&x, &nonce, &aad, &msg, flip),
            )
        });
        let tc = keyed::<chacha20poly1305_11::ChaCha20Poly1305>(&key, &nonce[..12], &aad, &msg, flip);
        let tx = keyed::<chacha20poly1305_11::XChaCha20Poly1305>(&key, &nonce, &aad, &msg, flip);
        check_pair(ours.0, tc, &msg);
        check_pair(ours.1, tx, &msg);
    }
}

/// A message long enough for the wide paths (many 512-byte pieces and a tail), through the
/// trait on the selected backend, against RustCrypto.
#[test]
fn long_message_matches_rustcrypto() {
    let msg = long_message();
    differential::<XChaCha20Poly1305, chacha20poly1305_11::XChaCha20Poly1305>(
        &[3; 32], &[9; 24], b"aad", &msg, 12345,
    );
}

/// The trait constants match RustCrypto's.
#[test]
fn sizes_match_rustcrypto() {
    same_constants::<ChaCha20Poly1305, chacha20poly1305_11::ChaCha20Poly1305>();
    same_constants::<XChaCha20Poly1305, chacha20poly1305_11::XChaCha20Poly1305>();
}

/// RustCrypto `chacha20poly1305` 0.11's README usage, written as there with only the crate path
/// changed (`chacha20poly1305::` to `tessera_chacha20poly1305::aead::`): random key and nonce
/// through `Generate`, `ChaCha20Poly1305::new`, `encrypt`/`decrypt` in method-call syntax. The
/// ciphertext is RustCrypto's on the same key and nonce.
#[test]
fn drop_in_readme_usage() -> Result<(), Box<dyn core::error::Error>> {
    use tessera_chacha20poly1305::aead::{
        ChaCha20Poly1305, Nonce,
        aead::{Aead, AeadCore, Generate, Key, KeyInit},
    };

    let key = Key::<ChaCha20Poly1305>::generate();
    let cipher = ChaCha20Poly1305::new(&key);

    let nonce = Nonce::generate(); // MUST be unique per message
    let ciphertext = cipher.encrypt(&nonce, b"plaintext message".as_ref())?;

    let plaintext = cipher.decrypt(&nonce, ciphertext.as_ref())?;
    assert_eq!(&plaintext, b"plaintext message");

    let peer = <chacha20poly1305_11::ChaCha20Poly1305 as chacha20poly1305_11::KeyInit>::new(&key);
    let expected =
        chacha20poly1305_11::aead::Aead::encrypt(&peer, &nonce, b"plaintext message".as_ref())?;
    assert_eq!(ciphertext, expected);
    assert_eq!(
        <ChaCha20Poly1305 as AeadCore>::TAG_POSITION,
        aead::TagPosition::Postfix
    );
    Ok(())
}

/// RustCrypto's in-place usage (there with an `ArrayVec`; here the `Vec` `Buffer`) with the
/// module's flat imports and root-style aliases (`Key`, `XNonce`), on XChaCha20-Poly1305:
/// `encrypt_in_place`/`decrypt_in_place` match RustCrypto's on the same key, nonce and AAD,
/// and a tampered buffer is refused.
#[test]
fn drop_in_in_place_usage() -> Result<(), Box<dyn core::error::Error>> {
    use tessera_chacha20poly1305::aead::{
        AeadInOut, Buffer, Error, Generate, Key, KeyInit, XChaCha20Poly1305, XNonce,
    };

    let key = Key::generate();
    let cipher = XChaCha20Poly1305::new(&key);
    let nonce = XNonce::generate(); // random nonces are safe at 24 bytes
    let mut buffer: Vec<u8> = Vec::with_capacity(128); // the tag needs 16 bytes more
    buffer.extend_from_slice(b"plaintext message");

    cipher.encrypt_in_place(&nonce, b"header", &mut buffer)?;
    assert_ne!(buffer.as_slice(), b"plaintext message");
    let peer = <chacha20poly1305_11::XChaCha20Poly1305 as chacha20poly1305_11::KeyInit>::new(&key);
    let mut theirs = b"plaintext message".to_vec();
    chacha20poly1305_11::AeadInOut::encrypt_in_place(&peer, &nonce, b"header", &mut theirs)?;
    assert_eq!(buffer, theirs);

    let mut bad = buffer.clone();
    bad[3] ^= 0x10;
    assert_eq!(
        cipher.decrypt_in_place(&nonce, b"header", &mut bad),
        Err(Error)
    );

    cipher.decrypt_in_place(&nonce, b"header", &mut buffer)?;
    assert_eq!(buffer.as_slice(), b"plaintext message");
    assert_eq!(Buffer::len(&buffer), 17);
    Ok(())
}

/// The aliases are RustCrypto's types (assignable both ways), and `new_from_slice` works in
/// method-call position on the module types.
#[test]
fn drop_in_aliases() {
    use tessera_chacha20poly1305::aead::{Key, KeyInit, Nonce, Tag, XNonce, consts::U32};
    let k: Key = chacha20poly1305_11::Key::from([1; 32]);
    let n: Nonce = chacha20poly1305_11::Nonce::from([2; 12]);
    let x: XNonce = chacha20poly1305_11::XNonce::from([3; 24]);
    let t: chacha20poly1305_11::Tag = Tag::default();
    let _: aead::array::Array<u8, U32> = k;
    assert_eq!((n.len(), x.len(), t.len()), (12, 24, 16));
    assert!(ChaCha20Poly1305::new_from_slice(&[0; 32]).is_ok());
    assert!(XChaCha20Poly1305::new_from_slice(&[0; 31]).is_err());
}

/// A clone is an independent working copy on the same backend: it seals as RustCrypto after
/// the original is dropped, on every backend.
#[test]
fn clone_is_an_independent_copy() {
    let key = [0xab; 32];
    let nonce = Nonce::<XChaCha20Poly1305>::from([5; 24]);
    let peer = chacha20poly1305_11::XChaCha20Poly1305::new(&key.into());
    let expected = peer.encrypt(&nonce, b"clone me".as_ref()).unwrap();
    let n12 = Nonce::<ChaCha20Poly1305>::from([6; 12]);
    let peer12 = chacha20poly1305_11::ChaCha20Poly1305::new(&key.into());
    let expected12 = peer12.encrypt(&n12, b"x".as_ref()).unwrap();
    let backends = check_backends::<Backend, _>("clone", |be| {
        let original = XChaCha20Poly1305::from(
            tessera_chacha20poly1305::XChaCha20Poly1305::new_with_backend(be, &key),
        );
        let copy = original.clone();
        assert_eq!(
            original.encrypt(&nonce, b"clone me".as_ref()).unwrap(),
            expected
        );
        drop(original);
        assert_eq!(
            copy.encrypt(&nonce, b"clone me".as_ref()).unwrap(),
            expected
        );
        let copy12 = ChaCha20Poly1305::from(
            tessera_chacha20poly1305::ChaCha20Poly1305::new_with_backend(be, &key),
        )
        .clone();
        let native = tessera_chacha20poly1305::XChaCha20Poly1305::from(copy);
        assert_eq!(native.backend(), be);
        (
            native.encrypt(&[5; 24], b"", b"clone me").unwrap(),
            copy12.encrypt(&n12, b"x".as_ref()).unwrap(),
        )
    });
    assert_eq!(backends.0, expected);
    assert_eq!(backends.1, expected12);
}

/// `Debug` names the type and its backend and prints nothing of the key; the types are
/// `ZeroizeOnDrop` and `Clone`.
#[test]
fn debug_and_markers() {
    fn markers<T: zeroize::ZeroizeOnDrop + Clone + core::fmt::Debug>() {}
    markers::<ChaCha20Poly1305>();
    markers::<XChaCha20Poly1305>();
    markers::<tessera_chacha20poly1305::ChaCha20Poly1305>();
    // 0xd7: neither its decimal nor its hex digits occur in a type or backend name (0xab
    // would: "portable").
    let c = <XChaCha20Poly1305 as KeyInit>::new(&[0xd7; 32].into());
    let s = format!("{c:?}");
    assert!(
        s.starts_with("XChaCha20Poly1305") && s.contains("backend"),
        "{s}"
    );
    for leak in ["215", "d7", "D7"] {
        assert!(!s.contains(leak), "{s}");
    }
}

/// Key and nonce from a caller's rand_core 0.10 RNG through the re-exported `Generate`
/// (`generate_from_rng`, `try_generate_from_rng`), as RustCrypto code does on `no_std`; the
/// sealed message is RustCrypto's on the same key and nonce.
#[test]
fn drop_in_generate_from_rng() {
    use aead::rand_core::UnwrapErr;
    use getrandom::SysRng;
    use tessera_chacha20poly1305::aead::{
        Aead, Generate, KeyInit, XChaCha20Poly1305, XNonce, aead::Key,
    };

    let key = Key::<XChaCha20Poly1305>::generate_from_rng(&mut UnwrapErr(SysRng));
    let nonce = XNonce::try_generate_from_rng(&mut SysRng).unwrap();
    let cipher = XChaCha20Poly1305::new(&key);
    let ct = cipher
        .encrypt(&nonce, b"from a caller's rng".as_ref())
        .unwrap();
    let peer = chacha20poly1305_11::XChaCha20Poly1305::new(&key);
    assert_eq!(
        ct,
        peer.encrypt(&nonce, b"from a caller's rng".as_ref())
            .unwrap()
    );
    assert_ne!(
        key,
        Key::<XChaCha20Poly1305>::generate_from_rng(&mut UnwrapErr(SysRng))
    );
}
