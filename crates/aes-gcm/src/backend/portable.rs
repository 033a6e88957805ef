//! Portable constant-time backend: the bitsliced AES of [`aes`] (no table lookups) and the
//! software GHASH of [`ghash`] (carry-less products from masked integer multiplications), on
//! the GCM framing of `crate::gcm`.

#![forbid(unsafe_code)]

mod aes;
mod ghash;

use crate::gcm::{self, GcmOps, Iv, Unit};
use ghash::Hkey;
use zeroize::Zeroize;

/// Expanded key: bitsliced round keys and the powers of the GHASH key `H` (each wiped on drop).
#[derive(Clone)]
pub(crate) struct Key {
    aes: aes::Key,
    h: Hkey,
}

impl Key {
    /// Expands a 16-, 24- or 32-byte key and derives `H = E_K(0^128)` and its powers.
    pub(crate) fn new(key: &[u8]) -> Self {
        let mut k = Key {
            aes: aes::Key::new(key),
            h: Hkey::default(),
        };
        let mut h = [0u8; 16];
        k.encrypt_block(&mut h);
        k.h = Hkey::new(u128::from_be_bytes(h));
        h.zeroize();
        k
    }

    pub(crate) fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        self.aes.encrypt_blocks(blocks);
    }

    pub(crate) fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        self.aes.decrypt_blocks(blocks);
    }
}

/// The portable row of the backend table.
pub(crate) struct Bitsliced;

impl Unit for Bitsliced {
    type Token = tessera_cpu::Portable;
    type Key = Key;

    #[inline(always)]
    fn new_key(_: tessera_cpu::Portable, key: &[u8]) -> Key {
        Key::new(key)
    }

    #[inline(always)]
    fn gcm<const SEAL: bool>(
        _: tessera_cpu::Portable,
        key: &Key,
        iv: Iv<'_>,
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        gcm::run::<SEAL, _>(key, iv, aad, buf)
    }

    #[inline(always)]
    fn crypt_blocks<const ENC: bool>(_: tessera_cpu::Portable, key: &Key, blocks: &mut [[u8; 16]]) {
        if ENC {
            key.encrypt_blocks(blocks)
        } else {
            key.decrypt_blocks(blocks)
        }
    }
}

impl GcmOps for Key {
    #[inline]
    fn encrypt_block(&self, block: &mut [u8; 16]) {
        self.aes.encrypt1(block);
    }

    #[inline]
    fn ghash(&self, y: &mut [u8; 16], data: &[u8]) {
        self.h.ghash(y, data);
    }

    fn ctr_ghash<const SEAL: bool>(&self, ctr: &[u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
        if SEAL {
            self.aes.ctr32(ctr, buf);
            self.h.ghash(y, buf);
        } else {
            self.h.ghash(y, buf);
            self.aes.ctr32(ctr, buf);
        }
    }
}
