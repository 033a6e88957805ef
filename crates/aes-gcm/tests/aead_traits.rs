//! The RustCrypto `aead` 0.6 traits (feature `aead`) on the types of `tessera_aes_gcm::aead`:
//! RustCrypto's published Wycheproof vectors (`aes-gcm` 0.11's
//! `tests/data/wycheproof-{128,256}_{pass,fail}.blb`, checked with `aead::dev`); one function
//! generic over `AeadInOut + KeyInit` run on Tessera and on RustCrypto `aes-gcm` 0.11 (in place,
//! separate buffers, `Aead`, tampering), on the selected backend and on every available
//! backend; RustCrypto's README usage written against Tessera with only the path changed,
//! against the peer on the same key and nonce; `Clone`, `Debug` and `ZeroizeOnDrop`.

#![cfg(feature = "aead")]

use aead::{KeyInit, Nonce};
use proptest::prelude::*;
use tessera_aes_gcm::aead::{Aes128Gcm, Aes192Gcm, Aes256Gcm};
use tessera_aes_gcm::testing::Backend;
use tessera_testkit::aead_traits::{
    Input, check_key_lengths, check_pair, differential, exercise, inputs, keyed, long_message,
    same_constants, sizes, wycheproof_blobby,
};
use tessera_testkit::check_backends;

#[test]
fn wycheproof_128() {
    wycheproof_blobby::<Aes128Gcm>("aes-gcm", "0.11.", "wycheproof-128");
}

#[test]
fn wycheproof_256() {
    wycheproof_blobby::<Aes256Gcm>("aes-gcm", "0.11.", "wycheproof-256");
}

#[test]
fn new_from_slice_checks_the_length() {
    check_key_lengths::<Aes128Gcm>(16);
    check_key_lengths::<Aes192Gcm>(24);
    check_key_lengths::<Aes256Gcm>(32);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn matches_rustcrypto_128(i in inputs(16, 12, 80, 16, 1100)) {
        i.differential::<Aes128Gcm, aes_gcm_11::Aes128Gcm>();
    }

    #[test]
    fn matches_rustcrypto_256(i in inputs(32, 12, 80, 16, 1100)) {
        i.differential::<Aes256Gcm, aes_gcm_11::Aes256Gcm>();
    }

    /// The trait path on every available backend (keys from `new_with_backend`) gives the
    /// portable backend's outcome, and that outcome is RustCrypto's.
    #[test]
    fn trait_path_on_every_backend(i in inputs(32, 12, 48, 16, 600)) {
        let Input { key, nonce, aad, msg, flip } = i;
        let key: [u8; 32] = key.try_into().unwrap();
        let ours = check_backends::<Backend, _>("aead traits", |be| {
            let k128 = Aes128Gcm::from(tessera_aes_gcm::Aes128Gcm::new_with_backend(
                be,
                key[..16].try_into().unwrap(),
            ));
            let k256 = Aes256Gcm::from(tessera_aes_gcm::Aes256Gcm::new_with_backend(be, &key));
            (
                exercise(&k128, &nonce, &aad, &msg, flip),
                exercise(&k256, &nonce, &aad, &msg, flip),
            )
        });
        let t128 = keyed::<aes_gcm_11::Aes128Gcm>(&key[..16], &nonce, &aad, &msg, flip);
        let t256 = keyed::<aes_gcm_11::Aes256Gcm>(&key, &nonce, &aad, &msg, flip);
        check_pair(ours.0, t128, &msg);
        check_pair(ours.1, t256, &msg);
    }
}

/// A message long enough for the bulk paths (several 512-byte chunks and a tail), through the
/// trait on the selected backend, against RustCrypto.
#[test]
fn long_message_matches_rustcrypto() {
    let msg = long_message();
    differential::<Aes256Gcm, aes_gcm_11::Aes256Gcm>(&[3; 32], &[9; 12], b"aad", &msg, 12345);
}

/// The trait constants match RustCrypto's.
#[test]
fn sizes_match_rustcrypto() {
    same_constants::<Aes128Gcm, aes_gcm_11::Aes128Gcm>();
    same_constants::<Aes256Gcm, aes_gcm_11::Aes256Gcm>();
    assert_eq!(sizes::<Aes192Gcm>(), (24, 12, 16));
}

/// RustCrypto `aes-gcm` 0.11's README usage, written as there with only the crate path changed
/// (`aes_gcm::` to `tessera_aes_gcm::aead::`): random key and nonce through `Generate`,
/// `Aes256Gcm::new`, `encrypt`/`decrypt` in method-call syntax. The ciphertext is RustCrypto's
/// on the same key and nonce.
#[test]
fn drop_in_readme_usage() -> Result<(), Box<dyn core::error::Error>> {
    use tessera_aes_gcm::aead::{
        Aes256Gcm,
        Nonce, // Or `Aes128Gcm`
        aead::{Aead, AeadCore, Generate, Key, KeyInit},
    };

    let key = Key::<Aes256Gcm>::generate();
    let cipher = Aes256Gcm::new(&key);

    let nonce = Nonce::generate(); // MUST be unique per message
    let ciphertext = cipher.encrypt(&nonce, b"plaintext message".as_ref())?;

    let plaintext = cipher.decrypt(&nonce, ciphertext.as_ref())?;
    assert_eq!(&plaintext, b"plaintext message");

    let peer = <aes_gcm_11::Aes256Gcm as aes_gcm_11::KeyInit>::new(&key);
    let expected = aes_gcm_11::aead::Aead::encrypt(&peer, &nonce, b"plaintext message".as_ref())?;
    assert_eq!(ciphertext, expected);
    assert_eq!(
        <Aes256Gcm as AeadCore>::TAG_POSITION,
        aead::TagPosition::Postfix
    );
    Ok(())
}

/// RustCrypto's in-place usage (there with an `ArrayVec`; here the `Vec` `Buffer`), the
/// module's flat imports, AES-128: `encrypt_in_place`/`decrypt_in_place` match RustCrypto's
/// on the same key, nonce and AAD, and a tampered buffer is refused.
#[test]
fn drop_in_in_place_usage() -> Result<(), Box<dyn core::error::Error>> {
    use tessera_aes_gcm::aead::{
        AeadCore, AeadInOut, Aes128Gcm, Buffer, Error, Generate, Key, KeyInit, Nonce,
    };

    let key = Key::<Aes128Gcm>::generate();
    let cipher = Aes128Gcm::new(&key);
    let nonce = Nonce::generate(); // MUST be unique per message
    let mut buffer: Vec<u8> = Vec::with_capacity(128); // the tag needs 16 bytes more
    buffer.extend_from_slice(b"plaintext message");

    cipher.encrypt_in_place(&nonce, b"header", &mut buffer)?;
    assert_ne!(buffer.as_slice(), b"plaintext message");
    let peer = <aes_gcm_11::Aes128Gcm as aes_gcm_11::KeyInit>::new(&key);
    let mut theirs = b"plaintext message".to_vec();
    aes_gcm_11::AeadInOut::encrypt_in_place(&peer, &nonce, b"header", &mut theirs)?;
    assert_eq!(buffer, theirs);

    let mut bad = buffer.clone();
    bad[3] ^= 0x10;
    assert_eq!(
        cipher.decrypt_in_place(&nonce, b"header", &mut bad),
        Err(Error)
    );

    cipher.decrypt_in_place(&nonce, b"header", &mut buffer)?;
    assert_eq!(buffer.as_slice(), b"plaintext message");
    assert!(buffer.len() <= 128 && Buffer::len(&buffer) == 17);
    assert_eq!(
        <Aes128Gcm as AeadCore>::TAG_POSITION,
        aead::TagPosition::Postfix
    );
    Ok(())
}

/// `KeyInit::new_from_slice` and `new` on the module types, in method-call syntax, and the
/// aliases: `Nonce<U12>`, `Tag` (16 bytes) and the limits are RustCrypto's.
#[test]
fn drop_in_aliases() {
    use tessera_aes_gcm::aead::{A_MAX, Aes192Gcm, KeyInit, Nonce, P_MAX, Tag, consts::U12};
    assert_eq!(A_MAX, aes_gcm_11::A_MAX);
    assert_eq!(P_MAX, aes_gcm_11::P_MAX);
    let n: Nonce<U12> = aes_gcm_11::Nonce::<U12>::from([1; 12]);
    let t: Tag = aes_gcm_11::Tag::default();
    assert_eq!((n.len(), t.len()), (12, 16));
    assert!(Aes192Gcm::new_from_slice(&[0; 24]).is_ok());
    assert!(Aes192Gcm::new_from_slice(&[0; 32]).is_err());
}

/// A clone is an independent working copy on the same backend: it seals as RustCrypto after
/// the original is dropped, on every backend.
#[test]
fn clone_is_an_independent_copy() {
    use aead::{Aead, KeyInit};
    let key = [0xab; 32];
    let nonce = Nonce::<Aes256Gcm>::from([5; 12]);
    let peer = aes_gcm_11::Aes256Gcm::new(&key.into());
    let expected = peer.encrypt(&nonce, b"clone me".as_ref()).unwrap();
    let backends = check_backends::<Backend, _>("clone", |be| {
        let original = Aes256Gcm::from(tessera_aes_gcm::Aes256Gcm::new_with_backend(be, &key));
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
        let copy128 = Aes128Gcm::from(tessera_aes_gcm::Aes128Gcm::new_with_backend(
            be,
            &[0xab; 16],
        ))
        .clone();
        let native = tessera_aes_gcm::Aes256Gcm::from(copy);
        assert_eq!(native.backend(), be);
        (
            native.encrypt(&[5; 12], b"", b"clone me").unwrap(),
            copy128.encrypt(&nonce, b"x".as_ref()).unwrap(),
        )
    });
    assert_eq!(backends.0, expected);
    let peer128 = aes_gcm_11::Aes128Gcm::new(&[0xab; 16].into());
    assert_eq!(backends.1, peer128.encrypt(&nonce, b"x".as_ref()).unwrap());
}

/// `Debug` names the type and its backend and prints nothing of the key; the types are
/// `ZeroizeOnDrop` and `Clone`.
#[test]
fn debug_and_markers() {
    fn markers<T: zeroize::ZeroizeOnDrop + Clone + core::fmt::Debug>() {}
    markers::<Aes128Gcm>();
    markers::<Aes192Gcm>();
    markers::<Aes256Gcm>();
    // 0xd7: neither its decimal nor its hex digits occur in a type or backend name (0xab
    // would: "portable").
    let c = <Aes256Gcm as KeyInit>::new(&[0xd7; 32].into());
    let s = format!("{c:?}");
    assert!(s.starts_with("Aes256Gcm") && s.contains("backend"), "{s}");
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
    use tessera_aes_gcm::aead::{Aead, Aes256Gcm, Generate, KeyInit, Nonce, aead::Key};

    let key = Key::<Aes256Gcm>::generate_from_rng(&mut UnwrapErr(SysRng));
    let nonce = Nonce::try_generate_from_rng(&mut SysRng).unwrap();
    let cipher = Aes256Gcm::new(&key);
    let ct = cipher
        .encrypt(&nonce, b"from a caller's rng".as_ref())
        .unwrap();
    let peer = aes_gcm_11::Aes256Gcm::new(&key);
    assert_eq!(
        ct,
        peer.encrypt(&nonce, b"from a caller's rng".as_ref())
            .unwrap()
    );
    assert_ne!(
        key,
        Key::<Aes256Gcm>::generate_from_rng(&mut UnwrapErr(SysRng))
    );
}
