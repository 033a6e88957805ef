//! Differential tests against RustCrypto `aes-gcm` and `ring` on random keys, 96-bit nonces,
//! additional data and messages (0..=600 bytes with weight around multiples of 16, plus 64 KiB),
//! and against RustCrypto with 16- and 8-byte nonces (`J0 = GHASH(IV)`) at 300..1400 bytes.

#[path = "data/common.rs"]
mod common;

use aes_gcm::aead::{AeadInPlace, KeyInit};
use common::{key_strategy, seal_open};
use proptest::prelude::*;
use tessera_aes_gcm::testing::Backend;
use tessera_aes_gcm::{AesGcm, Tag};
use tessera_testkit::for_each_backend;
use tessera_testkit::strategies::bytes_near_blocks;

/// RustCrypto's detached tag for `(key, nonce, aad, pt)`; `buf` becomes the ciphertext.
fn rustcrypto(key: &[u8], nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
    let n = aes_gcm::Nonce::from_slice(nonce);
    let tag = match key.len() {
        16 => aes_gcm::Aes128Gcm::new_from_slice(key)
            .unwrap()
            .encrypt_in_place_detached(n, aad, buf),
        24 => {
            aes_gcm::AesGcm::<aes_gcm::aes::Aes192, aes_gcm::aead::consts::U12>::new_from_slice(key)
                .unwrap()
                .encrypt_in_place_detached(n, aad, buf)
        }
        _ => aes_gcm::Aes256Gcm::new_from_slice(key)
            .unwrap()
            .encrypt_in_place_detached(n, aad, buf),
    }
    .unwrap();
    tag.into()
}

/// ring's seal (AES-128 and AES-256 only).
#[cfg(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    not(any(miri, tessera_backend = "portable"))
))]
fn ring_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> Option<[u8; 16]> {
    use ring::aead;
    let alg = match key.len() {
        16 => &aead::AES_128_GCM,
        32 => &aead::AES_256_GCM,
        _ => return None,
    };
    let k = aead::LessSafeKey::new(aead::UnboundKey::new(alg, key).unwrap());
    let tag = k
        .seal_in_place_separate_tag(
            aead::Nonce::assume_unique_for_key(*nonce),
            aead::Aad::from(aad),
            buf,
        )
        .unwrap();
    Some(tag.as_ref().try_into().unwrap())
}

#[cfg(not(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    not(any(miri, tessera_backend = "portable"))
)))]
fn ring_seal(_: &[u8], _: &[u8; 12], _: &[u8], _: &mut [u8]) -> Option<[u8; 16]> {
    None
}

fn check(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Result<usize, TestCaseError> {
    let mut peers = 0;
    let mut want = pt.to_vec();
    let want_tag = rustcrypto(key, nonce, aad, &mut want);
    let mut r = pt.to_vec();
    if let Some(t) = ring_seal(key, nonce, aad, &mut r) {
        prop_assert_eq!(&r, &want, "ring and RustCrypto disagree");
        prop_assert_eq!(t, want_tag);
        peers += 1;
    }
    every_backend_seals_to(key, nonce, aad, pt, (&want, want_tag));
    Ok(peers)
}

/// Every backend seals `pt` to the peers' ciphertext and tag, and opens it again.
fn every_backend_seals_to(key: &[u8], nonce: &[u8], aad: &[u8], pt: &[u8], want: (&[u8], Tag)) {
    for_each_backend::<Backend>(|be| {
        let (ct, tag) = seal_open(&AesGcm::new_with_backend(be, key).unwrap(), nonce, aad, pt);
        let what = format!(
            "on {} ({}-byte key, {}-byte nonce)",
            be.name(),
            key.len(),
            nonce.len()
        );
        assert_eq!(ct, want.0, "ciphertext {what}");
        assert_eq!(tag, want.1, "tag {what}");
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn matches_rustcrypto_and_ring(
        key in key_strategy(),
        nonce in any::<[u8; 12]>(),
        aad in bytes_near_blocks(16, 100),
        pt in bytes_near_blocks(16, 600),
    ) {
        check(&key, &nonce, &aad, &pt)?;
    }
}

#[test]
fn sixty_four_kib() {
    for (i, klen) in [16usize, 24, 32].into_iter().enumerate() {
        let key: Vec<u8> = (0..klen).map(|j| (j * 13 + i) as u8).collect();
        for len in [65536usize, 65536 - 1, 65536 + 17] {
            let pt: Vec<u8> = (0..len).map(|j| (j ^ (j >> 8)) as u8).collect();
            let peers = check(&key, &[i as u8; 12], b"64 KiB", &pt).unwrap();
            // Where ring is a dev-dependency (see Cargo.toml and `ring_seal`).
            let ring = cfg!(all(
                any(target_arch = "x86_64", target_arch = "aarch64"),
                not(any(miri, tessera_backend = "portable"))
            ));
            assert_eq!(peers, usize::from(ring && klen != 24));
        }
    }
}

/// RustCrypto `AesGcm<Aes128, U16>` / `<Aes128, U8>`: nonces that are not 96 bits go through
/// GHASH, so `J0` (and every counter block) is secret and the wide paths must not take the
/// public-counter shortcut.
fn rustcrypto_long_nonce(key: &[u8; 16], nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
    use aes_gcm::aead::consts::{U8, U16};
    use aes_gcm::aead::generic_array::{ArrayLength, GenericArray};
    fn seal<N: ArrayLength<u8>>(key: &[u8; 16], nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Tag {
        aes_gcm::AesGcm::<aes_gcm::aes::Aes128, N>::new_from_slice(key)
            .unwrap()
            .encrypt_in_place_detached(GenericArray::from_slice(nonce), aad, buf)
            .unwrap()
            .into()
    }
    match nonce.len() {
        16 => seal::<U16>(key, nonce, aad, buf),
        8 => seal::<U8>(key, nonce, aad, buf),
        n => panic!("no RustCrypto type for {n}-byte nonces here"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn non_96_bit_nonces_match_rustcrypto(
        key in any::<[u8; 16]>(),
        long in any::<bool>(),
        nonce_bytes in any::<[u8; 16]>(),
        aad in bytes_near_blocks(16, 300),
        len in 300usize..=1400,
        seed in any::<u8>(),
    ) {
        let nonce = if long { &nonce_bytes[..] } else { &nonce_bytes[..8] };
        let pt: Vec<u8> = (0..len).map(|i| (i as u8).wrapping_mul(37) ^ seed).collect();
        let mut want = pt.clone();
        let want_tag = rustcrypto_long_nonce(&key, nonce, &aad, &mut want);
        every_backend_seals_to(&key, nonce, &aad, &pt, (&want, want_tag));
    }
}
