//! The record layer: TLS 1.3 and TLS 1.2 AEAD record protection on `tessera-aes-gcm` and
//! `tessera-chacha20poly1305`.
//!
//! Sealing writes the plaintext once into the [`PrefixedPayload`] rustls sends (which keeps
//! room for the record header in front), encrypts it there and appends the detached tag.
//! Opening decrypts inside the received record buffer ([`InboundOpaqueMessage`]) and hands
//! back a sub-range of it. The AEAD crates check the tag in constant time and clear the buffer
//! when it does not match, so a failed open leaves no plaintext behind. The expanded keys are
//! wiped on drop by those crates.
#![forbid(unsafe_code)]

use alloc::boxed::Box;

use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, MessageDecrypter, MessageEncrypter,
    NONCE_LEN, Nonce, OutboundOpaqueMessage, OutboundPlainMessage, PrefixedPayload,
    Tls13AeadAlgorithm, UnsupportedOperationError, make_tls13_aad,
};
use rustls::{ConnectionTrafficSecrets, ContentType, Error, ProtocolVersion};
use tessera_aes_gcm::{Aes128Gcm, Aes256Gcm};
use tessera_chacha20poly1305::ChaCha20Poly1305;

/// The tag length of all three AEADs.
pub(crate) const TAG_LEN: usize = 16;

/// Which AEAD a suite uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Aes128Gcm,
    Aes256Gcm,
    ChaCha20Poly1305,
}

impl Kind {
    pub(crate) const fn key_len(self) -> usize {
        match self {
            Kind::Aes128Gcm => 16,
            Kind::Aes256Gcm | Kind::ChaCha20Poly1305 => 32,
        }
    }

    /// Expands `key`; `None` when it is not [`Kind::key_len`] long (rustls always passes
    /// that length).
    pub(crate) fn expand(self, key: &[u8]) -> Option<Key> {
        Some(match self {
            Kind::Aes128Gcm => Key::Aes128(Aes128Gcm::new(key.try_into().ok()?)),
            Kind::Aes256Gcm => Key::Aes256(Aes256Gcm::new(key.try_into().ok()?)),
            Kind::ChaCha20Poly1305 => Key::ChaCha(ChaCha20Poly1305::new(key.try_into().ok()?)),
        })
    }

    pub(crate) fn secrets(self, key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
        match self {
            Kind::Aes128Gcm => ConnectionTrafficSecrets::Aes128Gcm { key, iv },
            Kind::Aes256Gcm => ConnectionTrafficSecrets::Aes256Gcm { key, iv },
            Kind::ChaCha20Poly1305 => ConnectionTrafficSecrets::Chacha20Poly1305 { key, iv },
        }
    }
}

/// An expanded AEAD key (wiped on drop by the AEAD crates).
pub(crate) enum Key {
    Aes128(Aes128Gcm),
    Aes256(Aes256Gcm),
    ChaCha(ChaCha20Poly1305),
}

/// Why an AEAD call failed (length limits or a wrong tag): the callers map it to the rustls
/// error of their context.
pub(crate) struct Failed;

impl Key {
    /// Encrypts `buf` in place; returns the tag.
    pub(crate) fn seal(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; TAG_LEN], Failed> {
        match self {
            Key::Aes128(k) => k
                .encrypt_in_place_detached(nonce, aad, buf)
                .map_err(|_| Failed),
            Key::Aes256(k) => k
                .encrypt_in_place_detached(nonce, aad, buf)
                .map_err(|_| Failed),
            Key::ChaCha(k) => k
                .encrypt_in_place_detached(nonce, aad, buf)
                .map_err(|_| Failed),
        }
    }

    /// Decrypts `buf` in place after checking `tag`; on a wrong tag `buf` is cleared.
    pub(crate) fn open(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8; TAG_LEN],
    ) -> Result<(), Failed> {
        match self {
            Key::Aes128(k) => k
                .decrypt_in_place_detached(nonce, aad, buf, tag)
                .map_err(|_| Failed),
            Key::Aes256(k) => k
                .decrypt_in_place_detached(nonce, aad, buf, tag)
                .map_err(|_| Failed),
            Key::ChaCha(k) => k
                .decrypt_in_place_detached(nonce, aad, buf, tag)
                .map_err(|_| Failed),
        }
    }

    /// Opens `ciphertext || tag` in place; returns the plaintext length.
    pub(crate) fn open_appended(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<usize, Failed> {
        let Some(plain_len) = buf.len().checked_sub(TAG_LEN) else {
            return Err(Failed);
        };
        let (ct, tag) = buf.split_at_mut(plain_len);
        let tag: [u8; TAG_LEN] = (&*tag).try_into().map_err(|_| Failed)?;
        self.open(nonce, aad, ct, &tag)?;
        Ok(plain_len)
    }
}

/// The key of a suite's AEAD, expanded from a rustls [`AeadKey`]. rustls sizes the key by
/// `key_len()`; a mismatch (which rustls never produces) yields an encrypter/decrypter that
/// fails every record instead of panicking.
pub(crate) fn expand_or_fail(kind: Kind, key: &AeadKey) -> Option<Key> {
    kind.expand(key.as_ref())
}

/// A TLS 1.3 AEAD algorithm.
pub(crate) struct Tls13Aead(pub(crate) Kind);

impl Tls13AeadAlgorithm for Tls13Aead {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageEncrypter> {
        Box::new(Tls13Encrypter {
            key: expand_or_fail(self.0, &key),
            iv,
        })
    }

    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageDecrypter> {
        Box::new(Tls13Decrypter {
            key: expand_or_fail(self.0, &key),
            iv,
        })
    }

    fn key_len(&self) -> usize {
        self.0.key_len()
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: Iv,
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Ok(self.0.secrets(key, iv))
    }
}

struct Tls13Encrypter {
    key: Option<Key>,
    iv: Iv,
}

impl MessageEncrypter for Tls13Encrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let key = self.key.as_ref().ok_or(Error::EncryptError)?;
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let mut payload = PrefixedPayload::with_capacity(total_len);
        // TLSInnerPlaintext = content || type (no padding).
        payload.extend_from_chunks(&msg.payload);
        payload.extend_from_slice(&[u8::from(msg.typ)]);
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls13_aad(total_len);
        let tag = key
            .seal(&nonce, &aad, payload.as_mut())
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(OutboundOpaqueMessage::new(
            ContentType::ApplicationData,
            // RFC 8446 section 5.1: legacy_record_version 0x0303 on protected records.
            ProtocolVersion::TLSv1_2,
            payload,
        ))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + TAG_LEN
    }
}

struct Tls13Decrypter {
    key: Option<Key>,
    iv: Iv,
}

impl MessageDecrypter for Tls13Decrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let key = self.key.as_ref().ok_or(Error::DecryptError)?;
        let payload = &mut msg.payload;
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls13_aad(payload.len());
        let plain_len = key
            .open_appended(&nonce, &aad, payload)
            .map_err(|_| Error::DecryptError)?;
        payload.truncate(plain_len);
        // Strips the zero padding and the inner content type; rejects oversized plaintexts.
        msg.into_tls13_unpadded_message()
    }
}

#[cfg(feature = "tls12")]
mod tls12;
#[cfg(feature = "tls12")]
pub(crate) use tls12::{Tls12ChaCha, Tls12Gcm};
