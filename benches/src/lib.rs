//! Shared pieces of the benches in `benches/`: the AES-GCM inputs and the RustCrypto wrapper
//! that `aes_gcm` and `aes_gcm_soft` both time (Tessera's side is `tessera_aes_gcm::AesGcm`;
//! 64-byte aligned buffers come from `tessera_testkit::aligned`); the interleaved harness,
//! report and plots of the `compare` bench (`cargo xtask bench`).
#![allow(missing_docs)]

pub mod interleave;
pub mod plot;
pub mod report;

/// The nonce of every AES-GCM row: 96 bits, the fast path of every implementation.
pub const NONCE: [u8; 12] = [7; 12];
/// The AAD of every AES-GCM row: 13 bytes, a TLS record header.
pub const AAD: [u8; 13] = [0x17; 13];

/// Tessera AES-GCM (AES-128 or AES-256 by key length) on a chosen backend; panics if the key
/// was expanded for another one.
pub fn tessera_gcm(key: &[u8], be: tessera_aes_gcm::testing::Backend) -> tessera_aes_gcm::AesGcm {
    let t = tessera_aes_gcm::AesGcm::new_with_backend(be, key).unwrap();
    assert_eq!(t.backend(), be, "the key was expanded for another backend");
    t
}

/// RustCrypto `aes-gcm` AES-128-GCM or AES-256-GCM (by key length).
#[allow(clippy::large_enum_variant)]
pub enum RustCryptoGcm {
    A128(aes_gcm::Aes128Gcm),
    A256(aes_gcm::Aes256Gcm),
}

impl RustCryptoGcm {
    pub fn new(key: &[u8]) -> Self {
        use aes_gcm::aead::KeyInit;
        match key.len() {
            16 => RustCryptoGcm::A128(aes_gcm::Aes128Gcm::new_from_slice(key).unwrap()),
            _ => RustCryptoGcm::A256(aes_gcm::Aes256Gcm::new_from_slice(key).unwrap()),
        }
    }
    pub fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        use aes_gcm::aead::AeadInPlace;
        let n = aes_gcm::Nonce::from_slice(&NONCE);
        match self {
            RustCryptoGcm::A128(k) => k.encrypt_in_place_detached(n, &AAD, buf).unwrap(),
            RustCryptoGcm::A256(k) => k.encrypt_in_place_detached(n, &AAD, buf).unwrap(),
        }
        .into()
    }
    pub fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        use aes_gcm::aead::AeadInPlace;
        let n = aes_gcm::Nonce::from_slice(&NONCE);
        let tag = aes_gcm::Tag::from_slice(tag);
        match self {
            RustCryptoGcm::A128(k) => k.decrypt_in_place_detached(n, &AAD, buf, tag).unwrap(),
            RustCryptoGcm::A256(k) => k.decrypt_in_place_detached(n, &AAD, buf, tag).unwrap(),
        }
    }
}
