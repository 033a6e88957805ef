//! Shared by the integration tests: the key strategy and the seal-then-open round trip.

#![allow(dead_code)]

use proptest::prelude::*;
use tessera_aes_gcm::{AesGcm, Tag};

/// Random AES keys of every size (16, 24 and 32 bytes).
pub fn key_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![Just(16usize), Just(24), Just(32)]
        .prop_flat_map(|n| proptest::collection::vec(any::<u8>(), n))
}

/// Seals `pt` with `g`, opens the result again (which must give `pt` back) and returns the
/// ciphertext and tag.
pub fn seal_open(g: &AesGcm, nonce: &[u8], aad: &[u8], pt: &[u8]) -> (Vec<u8>, Tag) {
    let mut ct = pt.to_vec();
    let tag = g.encrypt_in_place_detached(nonce, aad, &mut ct).unwrap();
    let mut back = ct.clone();
    g.decrypt_in_place_detached(nonce, aad, &mut back, &tag)
        .unwrap();
    assert_eq!(back, pt, "decryption on {}", g.backend().name());
    (ct, tag)
}
