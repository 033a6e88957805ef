//! Shared by the integration tests: one handle over the three key sizes.

#![allow(dead_code)]

use tessera_aes_gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm, Backend, Error, Tag};

pub enum AnyGcm {
    A128(Aes128Gcm),
    A192(Aes192Gcm),
    A256(Aes256Gcm),
}

impl AnyGcm {
    /// `None` for a key length AES does not have.
    pub fn new(key: &[u8], be: Backend) -> Option<Self> {
        Some(match key.len() {
            16 => AnyGcm::A128(Aes128Gcm::new_with_backend(key.try_into().unwrap(), be)),
            24 => AnyGcm::A192(Aes192Gcm::new_with_backend(key.try_into().unwrap(), be)),
            32 => AnyGcm::A256(Aes256Gcm::new_with_backend(key.try_into().unwrap(), be)),
            _ => return None,
        })
    }

    pub fn seal(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Tag, Error> {
        match self {
            AnyGcm::A128(k) => k.encrypt_in_place_detached(nonce, aad, buf),
            AnyGcm::A192(k) => k.encrypt_in_place_detached(nonce, aad, buf),
            AnyGcm::A256(k) => k.encrypt_in_place_detached(nonce, aad, buf),
        }
    }

    pub fn open(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8], tag: &Tag) -> Result<(), Error> {
        match self {
            AnyGcm::A128(k) => k.decrypt_in_place_detached(nonce, aad, buf, tag),
            AnyGcm::A192(k) => k.decrypt_in_place_detached(nonce, aad, buf, tag),
            AnyGcm::A256(k) => k.decrypt_in_place_detached(nonce, aad, buf, tag),
        }
    }

    pub fn seal_with_j0(&self, j0: &[u8; 16], aad: &[u8], buf: &mut [u8]) -> Tag {
        match self {
            AnyGcm::A128(k) => k.__seal_with_j0(j0, aad, buf),
            AnyGcm::A192(k) => k.__seal_with_j0(j0, aad, buf),
            AnyGcm::A256(k) => k.__seal_with_j0(j0, aad, buf),
        }
    }

    pub fn backend(&self) -> Backend {
        match self {
            AnyGcm::A128(k) => k.backend(),
            AnyGcm::A192(k) => k.backend(),
            AnyGcm::A256(k) => k.backend(),
        }
    }
}

pub fn backends() -> Vec<Backend> {
    Backend::all_available().collect()
}
