//! Differential: every backend against RustCrypto `chacha20poly1305` / `chacha20` and `ring`
//! on random keys, nonces, AAD and lengths; every single-bit change of ciphertext, tag, AAD or
//! nonce fails to decrypt.

use chacha20poly1305::aead::{AeadInPlace, KeyInit};
use proptest::prelude::*;
use tessera_chacha20poly1305::hazmat::ChaCha20;
use tessera_chacha20poly1305::testing::Backend;
use tessera_chacha20poly1305::{ChaCha20Poly1305, Error, Tag, XChaCha20Poly1305};
use tessera_testkit::available;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn against_rustcrypto_and_ring(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 24]>(),
        pt in proptest::collection::vec(any::<u8>(), 0..3000),
        aad in proptest::collection::vec(any::<u8>(), 0..100),
    ) {
        let n12: [u8; 12] = nonce[..12].try_into().unwrap();
        let rc = chacha20poly1305::ChaCha20Poly1305::new(&key.into());
        let mut want = pt.clone();
        let want_tag = rc.encrypt_in_place_detached(&n12.into(), &aad, &mut want).unwrap();
        let xrc = chacha20poly1305::XChaCha20Poly1305::new(&key.into());
        let mut xwant = pt.clone();
        let xwant_tag = xrc.encrypt_in_place_detached(&nonce.into(), &aad, &mut xwant).unwrap();
        #[cfg(all(any(target_arch = "x86_64", target_arch = "aarch64"), not(any(miri, tessera_backend = "portable"))))]
        {
            use ring::aead;
            let rk = aead::LessSafeKey::new(aead::UnboundKey::new(&aead::CHACHA20_POLY1305, &key).unwrap());
            let mut r = pt.clone();
            let rt = rk.seal_in_place_separate_tag(aead::Nonce::assume_unique_for_key(n12), aead::Aad::from(&aad), &mut r).unwrap();
            prop_assert_eq!(&r, &want);
            prop_assert_eq!(rt.as_ref(), &want_tag[..]);
        }
        for be in available::<Backend>() {
            let a = ChaCha20Poly1305::new_with_backend(be, &key);
            let mut b = pt.clone();
            let tag = a.encrypt_in_place_detached(&n12, &aad, &mut b).unwrap();
            prop_assert_eq!(&b, &want, "{}", be.name());
            prop_assert_eq!(&tag[..], &want_tag[..]);
            let x = XChaCha20Poly1305::new_with_backend(be, &key);
            let mut xb = pt.clone();
            let xtag = x.encrypt_in_place_detached(&nonce, &aad, &mut xb).unwrap();
            prop_assert_eq!(&xb, &xwant, "{}", be.name());
            prop_assert_eq!(&xtag[..], &xwant_tag[..]);
            x.decrypt_in_place_detached(&nonce, &aad, &mut xb, &xtag).unwrap();
            prop_assert_eq!(&xb, &pt);
        }
    }

    #[test]
    fn stream_against_rustcrypto(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 12]>(),
        ctr in 0u32..1_000_000,
        len in 0usize..3000,
    ) {
        use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
        let mut want = vec![0u8; len];
        let mut rc = chacha20::ChaCha20::new(&key.into(), &nonce.into());
        rc.seek(ctr as u64 * 64);
        rc.apply_keystream(&mut want);
        for be in available::<Backend>() {
            let mut b = vec![0u8; len];
            ChaCha20::new_with_backend(be, &key, &nonce, ctr).apply_keystream(&mut b).unwrap();
            prop_assert_eq!(&b, &want, "{}", be.name());
        }
    }
}

/// Every copy of `x` with one bit flipped, bit 0 (the low bit of byte 0) first: `8 * len` of them.
fn bit_flips<T: Clone + AsRef<[u8]> + AsMut<[u8]>>(x: &T) -> impl Iterator<Item = T> + '_ {
    (0..x.as_ref().len() * 8).map(move |bit| {
        let mut y = x.clone();
        y.as_mut()[bit / 8] ^= 1 << (bit % 8);
        y
    })
}

/// Every single-bit change of ciphertext, tag, AAD or nonce fails to decrypt (and clears the
/// buffer), on every backend, for a few lengths around the backends' group sizes.
#[test]
fn every_bit_flip_fails() {
    let key = [0x24u8; 32];
    for be in available::<Backend>() {
        for len in [0usize, 1, 63, 64, 65, 200, 511, 513, 1025] {
            let a = ChaCha20Poly1305::new_with_backend(be, &key);
            let nonce = [0x11u8; 12];
            let aad: Vec<u8> = (0..len % 23 + 1).map(|i| i as u8).collect();
            let mut ct: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
            let tag = a.encrypt_in_place_detached(&nonce, &aad, &mut ct).unwrap();
            let fails = |n: &[u8; 12], aad: &[u8], c: &[u8], t: &[u8; 16]| {
                let mut b = c.to_vec();
                let r = a.decrypt_in_place_detached(n, aad, &mut b, t);
                assert!(r == Err(Error::Authentication) && b.iter().all(|&x| x == 0));
            };
            for c in bit_flips(&ct) {
                fails(&nonce, &aad, &c, &tag);
            }
            for t in bit_flips(&tag) {
                fails(&nonce, &aad, &ct, &t);
            }
            for d in bit_flips(&aad) {
                fails(&nonce, &d, &ct, &tag);
            }
            for n in bit_flips(&nonce) {
                fails(&n, &aad, &ct, &tag);
            }
        }
        // XChaCha: the nonce bits that go through HChaCha20 and those that go to ChaCha20.
        let x = XChaCha20Poly1305::new_with_backend(be, &key);
        let mut ct = vec![5u8; 100];
        let tag = x
            .encrypt_in_place_detached(&[3; 24], b"a", &mut ct)
            .unwrap();
        for n in bit_flips(&[3u8; 24]) {
            let mut b = ct.clone();
            assert_eq!(
                x.decrypt_in_place_detached(&n, b"a", &mut b, &tag),
                Err(Error::Authentication)
            );
        }
    }
}

/// Seals `pt` with `seal`, checks the ciphertext and tag against `want_ct` and `want_tag`, and
/// opens it with `open` back to `pt`; `aead` ("" or "XChaCha ") names the AEAD in the messages.
fn check_seal_open(
    what: &str,
    aead: &str,
    pt: &[u8],
    want_ct: &[u8],
    want_tag: &[u8],
    seal: impl FnOnce(&mut [u8]) -> Result<Tag, Error>,
    open: impl FnOnce(&mut [u8], &Tag) -> Result<(), Error>,
) {
    let mut b = pt.to_vec();
    let tag = seal(&mut b).unwrap();
    assert!(b == want_ct, "{what}: {aead}ciphertext not all ones");
    assert_eq!(tag[..], want_tag[..], "{what}: {aead}tag");
    open(&mut b, &tag).unwrap_or_else(|e| panic!("{what}: {aead}open: {e}"));
    assert!(b == pt, "{what}: {aead}opened plaintext");
}

/// All-0xff ciphertext and all-0xff AAD against RustCrypto on every backend: the plaintext is
/// the keystream (from RustCrypto's `chacha20`, block 1 on) XOR 0xff, so the ciphertext that
/// Poly1305 absorbs is all ones: every 16-byte block at its maximum, the vector Poly1305s
/// (`Wide` in radix 2^26, `Wide52` in radix 2^44, from 512 bytes on) with their limbs at
/// their largest. Every length 0..=1100 (the short, medium and one-pass paths, every multiple
/// of 16, 64 and 256 and the odd lengths between) and a few longer ones (whole 1 KiB pieces with
/// the MAC stitched into the rounds, and partial tails), several AAD lengths, ChaCha20-Poly1305
/// and XChaCha20-Poly1305: the ciphertext is all ones and the tag RustCrypto's on every
/// backend, and opening the all-ones ciphertext succeeds and returns the plaintext.
#[test]
fn all_ones_ciphertext_and_aad_against_rustcrypto() {
    use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
    let backends = available::<Backend>();
    let mut lens: Vec<usize> = (0..=1100).collect();
    lens.extend([
        1216,
        1217,
        2048,
        2048 + 127,
        3072 + 16,
        4096 + 1,
        8192,
        16384 + 15,
    ]);
    let max = *lens.iter().max().unwrap();
    for key in [[0xffu8; 32], core::array::from_fn(|i| (i * 29 + 3) as u8)] {
        let nonce = [0xffu8; 12];
        let xnonce: [u8; 24] = core::array::from_fn(|i| 0xf0 ^ i as u8);
        // The keystream from block 1 on (block 0 is the Poly1305 key), for both AEADs.
        let mut ks = vec![0u8; max];
        let mut c = chacha20::ChaCha20::new(&key.into(), &nonce.into());
        c.seek(64u64);
        c.apply_keystream(&mut ks);
        let mut xks = vec![0u8; max];
        let mut c = chacha20::XChaCha20::new(&key.into(), &xnonce.into());
        c.seek(64u64);
        c.apply_keystream(&mut xks);
        let rc = chacha20poly1305::ChaCha20Poly1305::new(&key.into());
        let xrc = chacha20poly1305::XChaCha20Poly1305::new(&key.into());
        for &len in &lens {
            let ones = vec![0xffu8; len];
            let pt: Vec<u8> = ks[..len].iter().map(|k| k ^ 0xff).collect();
            let xpt: Vec<u8> = xks[..len].iter().map(|k| k ^ 0xff).collect();
            for aad_len in [0usize, 1, 16, 17, 255, 1024] {
                let aad = vec![0xffu8; aad_len];
                let mut want = pt.clone();
                let want_tag = rc
                    .encrypt_in_place_detached(&nonce.into(), &aad, &mut want)
                    .unwrap();
                assert_eq!(want, ones, "RustCrypto ciphertext len {len}");
                let mut xwant = xpt.clone();
                let xwant_tag = xrc
                    .encrypt_in_place_detached(&xnonce.into(), &aad, &mut xwant)
                    .unwrap();
                assert_eq!(xwant, ones, "RustCrypto XChaCha ciphertext len {len}");
                for &be in &backends {
                    let what = format!("{} len {len} aad {aad_len}", be.name());
                    let a = ChaCha20Poly1305::new_with_backend(be, &key);
                    check_seal_open(
                        &what,
                        "",
                        &pt,
                        &ones,
                        &want_tag,
                        |b| a.encrypt_in_place_detached(&nonce, &aad, b),
                        |b, t| a.decrypt_in_place_detached(&nonce, &aad, b, t),
                    );
                    let x = XChaCha20Poly1305::new_with_backend(be, &key);
                    check_seal_open(
                        &what,
                        "XChaCha ",
                        &xpt,
                        &ones,
                        &xwant_tag,
                        |b| x.encrypt_in_place_detached(&xnonce, &aad, b),
                        |b, t| x.decrypt_in_place_detached(&xnonce, &aad, b, t),
                    );
                }
            }
        }
    }
}
