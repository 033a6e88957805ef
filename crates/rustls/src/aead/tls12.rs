//! TLS 1.2 record protection: AES-GCM (RFC 5288) and ChaCha20-Poly1305 (RFC 7905).
#![forbid(unsafe_code)]

use alloc::boxed::Box;

use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, KeyBlockShape, MessageDecrypter,
    MessageEncrypter, NONCE_LEN, Nonce, OutboundOpaqueMessage, OutboundPlainMessage,
    PrefixedPayload, Tls12AeadAlgorithm, UnsupportedOperationError, make_tls12_aad,
};
use rustls::{ConnectionTrafficSecrets, Error};

use super::{Key, Kind, TAG_LEN, expand_or_fail};

/// The largest TLSPlaintext fragment (RFC 5246 section 6.2.1).
const MAX_FRAGMENT_LEN: usize = 16384;
/// The explicit nonce of TLS 1.2 AES-GCM records (RFC 5288 section 3).
const GCM_EXPLICIT_NONCE_LEN: usize = 8;

/// A TLS 1.2 AES-GCM algorithm (RFC 5288: 4-byte implicit salt, 8-byte explicit nonce).
pub(crate) struct Tls12Gcm(pub(crate) Kind);

/// TLS 1.2 ChaCha20-Poly1305 (RFC 7905: 12-byte IV XORed with the sequence number).
pub(crate) struct Tls12ChaCha;

/// The 12-byte GCM IV `salt || explicit` of RFC 5288, as a rustls [`Iv`].
fn gcm_iv(salt: &[u8], explicit: &[u8]) -> Iv {
    let mut iv = [0u8; NONCE_LEN];
    if salt.len() == 4 && explicit.len() == GCM_EXPLICIT_NONCE_LEN {
        iv[..4].copy_from_slice(salt);
        iv[4..].copy_from_slice(explicit);
    }
    Iv::from(iv)
}

impl Tls12AeadAlgorithm for Tls12Gcm {
    fn encrypter(&self, key: AeadKey, iv: &[u8], extra: &[u8]) -> Box<dyn MessageEncrypter> {
        // The explicit nonce starts at the random `extra` and is XORed with the sequence
        // number (as RFC 8446 does for TLS 1.3): unique per record under this key.
        let ok = iv.len() == 4 && extra.len() == GCM_EXPLICIT_NONCE_LEN;
        Box::new(Tls12GcmEncrypter {
            key: expand_or_fail(self.0, &key).filter(|_| ok),
            iv: gcm_iv(iv, extra),
        })
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        let mut salt = [0u8; 4];
        let ok = iv.len() == 4;
        if ok {
            salt.copy_from_slice(iv);
        }
        Box::new(Tls12GcmDecrypter {
            key: expand_or_fail(self.0, &key).filter(|_| ok),
            salt,
        })
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape {
            enc_key_len: self.0.key_len(),
            fixed_iv_len: 4,
            explicit_nonce_len: GCM_EXPLICIT_NONCE_LEN,
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        if iv.len() != 4 || explicit.len() != GCM_EXPLICIT_NONCE_LEN {
            return Err(UnsupportedOperationError);
        }
        Ok(self.0.secrets(key, gcm_iv(iv, explicit)))
    }
}

struct Tls12GcmEncrypter {
    key: Option<Key>,
    iv: Iv,
}

impl MessageEncrypter for Tls12GcmEncrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let key = self.key.as_ref().ok_or(Error::EncryptError)?;
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let mut payload = PrefixedPayload::with_capacity(total_len);
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, msg.payload.len());
        payload.extend_from_slice(&nonce[4..]);
        payload.extend_from_chunks(&msg.payload);
        let tag = key
            .seal(
                &nonce,
                &aad,
                &mut payload.as_mut()[GCM_EXPLICIT_NONCE_LEN..],
            )
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + GCM_EXPLICIT_NONCE_LEN + TAG_LEN
    }
}

struct Tls12GcmDecrypter {
    key: Option<Key>,
    salt: [u8; 4],
}

impl MessageDecrypter for Tls12GcmDecrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let key = self.key.as_ref().ok_or(Error::DecryptError)?;
        let len = msg.payload.len();
        let Some(plain_len) = len.checked_sub(GCM_EXPLICIT_NONCE_LEN + TAG_LEN) else {
            return Err(Error::DecryptError);
        };
        let mut nonce = [0u8; NONCE_LEN];
        nonce[..4].copy_from_slice(&self.salt);
        nonce[4..].copy_from_slice(&msg.payload[..GCM_EXPLICIT_NONCE_LEN]);
        let aad = make_tls12_aad(seq, msg.typ, msg.version, plain_len);
        key.open_appended(&nonce, &aad, &mut msg.payload[GCM_EXPLICIT_NONCE_LEN..])
            .map_err(|_| Error::DecryptError)?;
        if plain_len > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        Ok(
            msg.into_plain_message_range(
                GCM_EXPLICIT_NONCE_LEN..GCM_EXPLICIT_NONCE_LEN + plain_len,
            ),
        )
    }
}

impl Tls12AeadAlgorithm for Tls12ChaCha {
    fn encrypter(&self, key: AeadKey, iv: &[u8], _extra: &[u8]) -> Box<dyn MessageEncrypter> {
        let ok = iv.len() == NONCE_LEN;
        Box::new(Tls12ChaChaCrypter {
            key: expand_or_fail(Kind::ChaCha20Poly1305, &key).filter(|_| ok),
            iv: iv_or_zero(iv),
        })
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        let ok = iv.len() == NONCE_LEN;
        Box::new(Tls12ChaChaCrypter {
            key: expand_or_fail(Kind::ChaCha20Poly1305, &key).filter(|_| ok),
            iv: iv_or_zero(iv),
        })
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape {
            enc_key_len: 32,
            fixed_iv_len: NONCE_LEN,
            explicit_nonce_len: 0,
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        _explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        if iv.len() != NONCE_LEN {
            return Err(UnsupportedOperationError);
        }
        Ok(Kind::ChaCha20Poly1305.secrets(key, iv_or_zero(iv)))
    }
}

/// `iv` as an [`Iv`] when it is 12 bytes long (the key is disabled otherwise).
fn iv_or_zero(iv: &[u8]) -> Iv {
    Iv::from(iv.try_into().unwrap_or([0u8; NONCE_LEN]))
}

struct Tls12ChaChaCrypter {
    key: Option<Key>,
    iv: Iv,
}

impl MessageEncrypter for Tls12ChaChaCrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let key = self.key.as_ref().ok_or(Error::EncryptError)?;
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let mut payload = PrefixedPayload::with_capacity(total_len);
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, msg.payload.len());
        payload.extend_from_chunks(&msg.payload);
        let tag = key
            .seal(&nonce, &aad, payload.as_mut())
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + TAG_LEN
    }
}

impl MessageDecrypter for Tls12ChaChaCrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let key = self.key.as_ref().ok_or(Error::DecryptError)?;
        let Some(plain_len) = msg.payload.len().checked_sub(TAG_LEN) else {
            return Err(Error::DecryptError);
        };
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, plain_len);
        key.open_appended(&nonce, &aad, &mut msg.payload)
            .map_err(|_| Error::DecryptError)?;
        if plain_len > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        msg.payload.truncate(plain_len);
        Ok(msg.into_plain_message())
    }
}
