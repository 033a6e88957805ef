//! QUIC (RFC 9001) packet protection for the TLS 1.3 suites: packet keys from the record
//! AEADs, header protection from the raw AES block function (`tessera_aes_gcm::hazmat`) and
//! the ChaCha20 stream (`tessera_chacha20poly1305::hazmat`).
#![forbid(unsafe_code)]

use alloc::boxed::Box;

use rustls::Error;
use rustls::crypto::cipher::{AeadKey, Iv, NONCE_LEN, Nonce};
use rustls::quic::{self, HeaderProtectionKey, PacketKey, Tag};
use zeroize::Zeroize;

use crate::aead::{Key, Kind, TAG_LEN};

/// The header-protection sample length of every suite (RFC 9001 section 5.4.2).
const SAMPLE_LEN: usize = 16;

/// A suite's QUIC algorithm.
pub(crate) struct Algorithm {
    pub(crate) kind: Kind,
    pub(crate) confidentiality_limit: u64,
    pub(crate) integrity_limit: u64,
}

impl quic::Algorithm for Algorithm {
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn PacketKey> {
        Box::new(Packet {
            key: self.kind.expand(key.as_ref()),
            iv,
            confidentiality_limit: self.confidentiality_limit,
            integrity_limit: self.integrity_limit,
        })
    }

    fn header_protection_key(&self, key: AeadKey) -> Box<dyn HeaderProtectionKey> {
        let k = key.as_ref();
        let hp = match self.kind {
            Kind::Aes128Gcm => k
                .try_into()
                .ok()
                .map(|k| Hp::Aes128(tessera_aes_gcm::hazmat::Aes128::new(k))),
            Kind::Aes256Gcm => k
                .try_into()
                .ok()
                .map(|k| Hp::Aes256(tessera_aes_gcm::hazmat::Aes256::new(k))),
            Kind::ChaCha20Poly1305 => k.try_into().ok().map(Hp::ChaCha),
        };
        Box::new(HeaderKey(hp))
    }

    fn aead_key_len(&self) -> usize {
        self.kind.key_len()
    }
}

struct Packet {
    key: Option<Key>,
    iv: Iv,
    confidentiality_limit: u64,
    integrity_limit: u64,
}

impl PacketKey for Packet {
    fn encrypt_in_place(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<Tag, Error> {
        let key = self.key.as_ref().ok_or(Error::EncryptError)?;
        let nonce = Nonce::new(&self.iv, packet_number).0;
        let tag = key
            .seal(&nonce, header, payload)
            .map_err(|_| Error::EncryptError)?;
        Ok(Tag::from(&tag[..]))
    }

    fn decrypt_in_place<'a>(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        let key = self.key.as_ref().ok_or(Error::DecryptError)?;
        let nonce: [u8; NONCE_LEN] = Nonce::new(&self.iv, packet_number).0;
        let n = key
            .open_appended(&nonce, header, payload)
            .map_err(|_| Error::DecryptError)?;
        Ok(&payload[..n])
    }

    /// Multipath QUIC (draft-ietf-quic-multipath): the nonce also mixes in the path ID.
    fn encrypt_in_place_for_path(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<Tag, Error> {
        let key = self.key.as_ref().ok_or(Error::EncryptError)?;
        let nonce = Nonce::for_path(path_id, &self.iv, packet_number).0;
        let tag = key
            .seal(&nonce, header, payload)
            .map_err(|_| Error::EncryptError)?;
        Ok(Tag::from(&tag[..]))
    }

    fn decrypt_in_place_for_path<'a>(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        let key = self.key.as_ref().ok_or(Error::DecryptError)?;
        let nonce = Nonce::for_path(path_id, &self.iv, packet_number).0;
        let n = key
            .open_appended(&nonce, header, payload)
            .map_err(|_| Error::DecryptError)?;
        Ok(&payload[..n])
    }

    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    fn confidentiality_limit(&self) -> u64 {
        self.confidentiality_limit
    }

    fn integrity_limit(&self) -> u64 {
        self.integrity_limit
    }
}

/// A header-protection key; `None` when rustls passed a key of the wrong length (never).
struct HeaderKey(Option<Hp>);

enum Hp {
    Aes128(tessera_aes_gcm::hazmat::Aes128),
    Aes256(tessera_aes_gcm::hazmat::Aes256),
    /// The raw ChaCha20 key (wiped on drop below).
    ChaCha([u8; 32]),
}

impl Drop for Hp {
    fn drop(&mut self) {
        if let Hp::ChaCha(k) = self {
            k.zeroize();
        }
    }
}

impl HeaderKey {
    /// The 5-byte mask of RFC 9001 section 5.4.3 (AES: the first 5 bytes of AES-ECB(sample))
    /// and section 5.4.4 (ChaCha20: counter = sample[0..4] little-endian, nonce =
    /// sample[4..16], keystream over five zero bytes).
    fn mask(&self, sample: &[u8]) -> Result<[u8; 5], Error> {
        let sample: &[u8; SAMPLE_LEN] = sample.try_into().map_err(|_| {
            Error::General("QUIC header protection sample of the wrong length".into())
        })?;
        let mut out = [0u8; 5];
        match self.0.as_ref().ok_or(Error::EncryptError)? {
            Hp::Aes128(k) => {
                let mut b = *sample;
                k.encrypt_block(&mut b);
                out.copy_from_slice(&b[..5]);
            }
            Hp::Aes256(k) => {
                let mut b = *sample;
                k.encrypt_block(&mut b);
                out.copy_from_slice(&b[..5]);
            }
            Hp::ChaCha(k) => {
                let counter = u32::from_le_bytes([sample[0], sample[1], sample[2], sample[3]]);
                let mut nonce = [0u8; 12];
                nonce.copy_from_slice(&sample[4..]);
                let mut c = tessera_chacha20poly1305::hazmat::ChaCha20::new(k, &nonce, counter);
                c.apply_keystream(&mut out)
                    .map_err(|_| Error::EncryptError)?;
            }
        }
        Ok(out)
    }

    /// Applies or removes the mask (RFC 9001 section 5.4.1): the low 4 (long header) or 5
    /// (short header) bits of the first byte, then as many packet-number bytes as the
    /// unprotected first byte's length field says.
    fn xor(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
        removing: bool,
    ) -> Result<(), Error> {
        if packet_number.len() > 4 {
            return Err(Error::General(
                "QUIC packet number longer than 4 bytes".into(),
            ));
        }
        let mask = self.mask(sample)?;
        let bits = if *first & 0x80 != 0 { 0x0f } else { 0x1f };
        let plain_first = if removing {
            *first ^ (mask[0] & bits)
        } else {
            *first
        };
        let pn_len = usize::from(plain_first & 0x03) + 1;
        *first ^= mask[0] & bits;
        for (b, m) in packet_number.iter_mut().zip(&mask[1..]).take(pn_len) {
            *b ^= m;
        }
        Ok(())
    }
}

impl HeaderProtectionKey for HeaderKey {
    fn encrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor(sample, first, packet_number, false)
    }

    fn decrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor(sample, first, packet_number, true)
    }

    fn sample_len(&self) -> usize {
        SAMPLE_LEN
    }
}
