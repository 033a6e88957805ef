//! Shared pieces of the benches in `benches/`: aligned buffers and the AES-GCM wrappers that
//! `aes_gcm` and `aes_gcm_soft` both time.
#![allow(missing_docs)]

use tessera_aes_gcm::Backend;

/// The nonce of every AES-GCM row: 96 bits, the fast path of every implementation.
pub const NONCE: [u8; 12] = [7; 12];
/// The AAD of every AES-GCM row: 13 bytes, a TLS record header.
pub const AAD: [u8; 13] = [0x17; 13];

/// A 64-byte aligned buffer of `len` bytes (see the memcpy note in the README): the backing
/// vector and the offset of the aligned start.
pub fn aligned(len: usize) -> (Vec<u8>, usize) {
    let v: Vec<u8> = (0..len + 64).map(|i| (i * 131 + 7) as u8).collect();
    let off = v.as_ptr().align_offset(64);
    (v, off)
}

/// Tessera AES-128-GCM or AES-256-GCM (by key length) on a chosen backend.
#[allow(clippy::large_enum_variant)]
pub enum TesseraGcm {
    A128(tessera_aes_gcm::Aes128Gcm),
    A256(tessera_aes_gcm::Aes256Gcm),
}

impl TesseraGcm {
    pub fn new(key: &[u8], be: Backend) -> Self {
        let t = match key.len() {
            16 => TesseraGcm::A128(tessera_aes_gcm::Aes128Gcm::new_with_backend(
                key.try_into().unwrap(),
                be,
            )),
            _ => TesseraGcm::A256(tessera_aes_gcm::Aes256Gcm::new_with_backend(
                key.try_into().unwrap(),
                be,
            )),
        };
        assert_eq!(t.backend(), be, "the key was expanded for another backend");
        t
    }
    pub fn backend(&self) -> Backend {
        match self {
            TesseraGcm::A128(k) => k.backend(),
            TesseraGcm::A256(k) => k.backend(),
        }
    }
    pub fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        match self {
            TesseraGcm::A128(k) => k.encrypt_in_place_detached(&NONCE, &AAD, buf).unwrap(),
            TesseraGcm::A256(k) => k.encrypt_in_place_detached(&NONCE, &AAD, buf).unwrap(),
        }
    }
    pub fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        match self {
            TesseraGcm::A128(k) => k.decrypt_in_place_detached(&NONCE, &AAD, buf, tag).unwrap(),
            TesseraGcm::A256(k) => k.decrypt_in_place_detached(&NONCE, &AAD, buf, tag).unwrap(),
        }
    }
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
