//! The AEADs: [`ChaCha20Poly1305`] (RFC 8439 section 2.8) and [`XChaCha20Poly1305`]
//! (draft-irtf-cfrg-xchacha section 2.3: HChaCha20 subkey, then the same construction).

#![forbid(unsafe_code)]

use crate::backend::Backend;
use crate::chacha;
use crate::construction::Aead;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// A Poly1305 authentication tag.
pub type Tag = [u8; 16];

/// Tag length in bytes.
pub const TAG_LEN: usize = 16;

/// Longest plaintext / ciphertext in bytes: `2^32 - 1` blocks of 64 bytes after the Poly1305
/// key block (RFC 8439 section 2.8; the same for XChaCha20, whose counter is also 32 bits).
pub const MAX_MESSAGE_LEN: u64 = (1 << 38) - 64;

/// Errors of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The message is longer than [`MAX_MESSAGE_LEN`], or a hazmat keystream request would
    /// run the 32-bit block counter past `2^32 - 1`.
    MessageTooLong,
    /// A ciphertext given to `decrypt` is shorter than the tag.
    CiphertextTooShort,
    /// The tag does not match: the ciphertext, nonce, additional data or key is wrong.
    Authentication,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::MessageTooLong => "ChaCha20 message longer than the 32-bit block counter allows",
            Error::CiphertextTooShort => {
                "ChaCha20-Poly1305 ciphertext shorter than the 16-byte tag"
            }
            Error::Authentication => "ChaCha20-Poly1305 authentication failed",
        })
    }
}

impl core::error::Error for Error {}

#[inline]
pub(crate) fn check_len(len: usize) -> Result<(), Error> {
    if len as u64 > MAX_MESSAGE_LEN {
        Err(Error::MessageTooLong)
    } else {
        Ok(())
    }
}

/// The shared body of both AEADs: a key's words and its backend (wiped on drop; a clone is a
/// copy for the same backend).
#[derive(Clone)]
struct Inner {
    backend: Backend,
    key: [u32; 8],
}

impl Inner {
    fn seal(
        &self,
        key: &[u32; 8],
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<Tag, Error> {
        check_len(buf.len())?;
        Ok(self.backend.run(Aead::<true> {
            key,
            nonce,
            aad,
            buf,
        }))
    }

    fn open(
        &self,
        key: &[u32; 8],
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        tag: &Tag,
    ) -> Result<(), Error> {
        check_len(buf.len())?;
        // On failure `expected` is the valid tag for this (forged) ciphertext: wiped on every
        // path.
        let expected = zeroize::Zeroizing::new(self.backend.run(Aead::<false> {
            key,
            nonce,
            aad,
            buf,
        }));
        // Two 64-bit comparisons (`subtle`'s slice comparison makes a `Choice`, with its
        // optimization barrier, per byte).
        let w =
            |b: &[u8; 16], i: usize| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap());
        let ok = w(&expected, 0).ct_eq(&w(tag, 0)) & w(&expected, 1).ct_eq(&w(tag, 1));
        // The comparison's result is public by design (see `tessera_cpu::public_bool`).
        if tessera_cpu::public_bool(ok.into()) {
            Ok(())
        } else {
            buf.zeroize();
            Err(Error::Authentication)
        }
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

macro_rules! aead {
    ($(#[$doc:meta])* $name:ident, $nlen:literal, $derive:path) => {
        $(#[$doc])*
        ///
        /// `Clone` copies the key (same backend); every copy is wiped on drop.
        #[derive(Clone)]
        pub struct $name(Inner);

        impl zeroize::ZeroizeOnDrop for $name {}

        impl $name {
            /// Key length in bytes.
            pub const KEY_LEN: usize = 32;
            /// Nonce length in bytes.
            pub const NONCE_LEN: usize = $nlen;

            /// A key for the best backend of this CPU.
            pub fn new(key: &[u8; 32]) -> Self {
                Self::new_with_backend(Backend::detect(), key)
            }

            /// A key for a given backend (from `Backend::all_available`; tests and benches).
            pub fn new_with_backend(backend: Backend, key: &[u8; 32]) -> Self {
                Self(Inner { backend, key: chacha::key_words(key) })
            }

            /// The backend this key runs on.
            #[inline]
            pub fn backend(&self) -> Backend {
                self.0.backend
            }

            /// Encrypts `buf` in place and returns the tag. A nonce must never repeat under
            /// one key. A message longer than [`MAX_MESSAGE_LEN`] is an error before anything
            /// is written.
            #[inline]
            pub fn encrypt_in_place_detached(
                &self,
                nonce: &[u8; $nlen],
                aad: &[u8],
                buf: &mut [u8],
            ) -> Result<Tag, Error> {
                let (key, n) = $derive(&self.0.key, nonce);
                self.0.seal(&key, &n, aad, buf)
            }

            /// Decrypts `buf` in place after checking `tag` in constant time. A length error
            /// leaves `buf` untouched; a wrong tag clears `buf` before the error returns, so
            /// no unauthenticated plaintext is released.
            #[inline]
            pub fn decrypt_in_place_detached(
                &self,
                nonce: &[u8; $nlen],
                aad: &[u8],
                buf: &mut [u8],
                tag: &Tag,
            ) -> Result<(), Error> {
                let (key, n) = $derive(&self.0.key, nonce);
                self.0.open(&key, &n, aad, buf, tag)
            }

            /// Encrypts `plaintext` and returns `ciphertext || tag`.
            #[cfg(feature = "alloc")]
            pub fn encrypt(
                &self,
                nonce: &[u8; $nlen],
                aad: &[u8],
                plaintext: &[u8],
            ) -> Result<alloc::vec::Vec<u8>, Error> {
                check_len(plaintext.len())?;
                let mut out = alloc::vec::Vec::with_capacity(plaintext.len() + TAG_LEN);
                out.extend_from_slice(plaintext);
                let tag = self.encrypt_in_place_detached(nonce, aad, &mut out)?;
                out.extend_from_slice(&tag);
                Ok(out)
            }

            /// Checks and decrypts `ciphertext || tag`; returns the plaintext. A ciphertext
            /// longer than [`MAX_MESSAGE_LEN`] is an error before anything is allocated.
            #[cfg(feature = "alloc")]
            pub fn decrypt(
                &self,
                nonce: &[u8; $nlen],
                aad: &[u8],
                ciphertext_and_tag: &[u8],
            ) -> Result<alloc::vec::Vec<u8>, Error> {
                let Some(ct_len) = ciphertext_and_tag.len().checked_sub(TAG_LEN) else {
                    return Err(Error::CiphertextTooShort);
                };
                // Before the copy: an over-long ciphertext is refused without allocating.
                check_len(ct_len)?;
                let (ct, tag) = ciphertext_and_tag.split_at(ct_len);
                let tag: Tag = tag.try_into().unwrap();
                let mut out = alloc::vec::Vec::from(ct);
                self.decrypt_in_place_detached(nonce, aad, &mut out, &tag)?;
                Ok(out)
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("backend", &self.backend().name())
                    .finish_non_exhaustive()
            }
        }
    };
}

/// The key words to run with: the key itself for the IETF construction.
#[inline(always)]
fn ietf(key: &[u32; 8], nonce: &[u8; 12]) -> (KeyCopy, [u8; 12]) {
    (KeyCopy(*key), *nonce)
}

/// XChaCha20: the HChaCha20 subkey of the first 16 nonce bytes, and the nonce
/// `0^4 || nonce[16..24]` (draft-irtf-cfrg-xchacha section 2.3).
#[inline(always)]
fn xchacha(key: &[u32; 8], nonce: &[u8; 24]) -> (KeyCopy, [u8; 12]) {
    let mut kb = [0u8; 32];
    for (b, w) in kb.chunks_exact_mut(4).zip(key) {
        b.copy_from_slice(&w.to_le_bytes());
    }
    let mut sub = chacha::hchacha20(&kb, nonce[..16].try_into().unwrap());
    kb.zeroize();
    let k = KeyCopy(chacha::key_words(&sub));
    sub.zeroize();
    let mut n = [0u8; 12];
    n[4..].copy_from_slice(&nonce[16..]);
    (k, n)
}

/// A per-call copy of key words, wiped on drop.
struct KeyCopy([u32; 8]);

impl core::ops::Deref for KeyCopy {
    type Target = [u32; 8];
    fn deref(&self) -> &[u32; 8] {
        &self.0
    }
}

impl Drop for KeyCopy {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

aead!(
    /// ChaCha20-Poly1305 (RFC 8439 section 2.8): 32-byte key, 12-byte nonce, 16-byte tag.
    ///
    /// ```
    /// use tessera_chacha20poly1305::{ChaCha20Poly1305, Error};
    /// let aead = ChaCha20Poly1305::new(&[7u8; 32]);
    /// let nonce = [1u8; 12];
    /// let mut buf = *b"hello, world";
    /// let tag = aead.encrypt_in_place_detached(&nonce, b"header", &mut buf).unwrap();
    /// aead.decrypt_in_place_detached(&nonce, b"header", &mut buf, &tag).unwrap();
    /// assert_eq!(&buf, b"hello, world");
    /// let mut bad = tag;
    /// bad[0] ^= 1;
    /// let r = aead.decrypt_in_place_detached(&nonce, b"header", &mut buf, &bad);
    /// assert_eq!(r, Err(Error::Authentication));
    /// assert_eq!(buf, [0u8; 12]); // cleared
    /// ```
    ChaCha20Poly1305, 12, ietf
);
aead!(
    /// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): 32-byte key, 24-byte nonce (random
    /// nonces are safe), 16-byte tag.
    ///
    /// ```
    /// # #[cfg(feature = "alloc")] {
    /// use tessera_chacha20poly1305::XChaCha20Poly1305;
    /// let aead = XChaCha20Poly1305::new(&[9u8; 32]);
    /// let sealed = aead.encrypt(&[3u8; 24], b"aad", b"message").unwrap();
    /// assert_eq!(sealed.len(), 7 + 16);
    /// assert_eq!(aead.decrypt(&[3u8; 24], b"aad", &sealed).unwrap(), b"message");
    /// # }
    /// ```
    XChaCha20Poly1305, 24, xchacha
);

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8439 section 2.8.2 on the portable path (small enough for Miri): tag, round trip,
    /// a flipped tag bit clears the buffer.
    #[test]
    fn rfc8439_2_8_2_portable() {
        let key: [u8; 32] = core::array::from_fn(|i| 0x80 + i as u8);
        let nonce = [7, 0, 0, 0, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47];
        let aad = [
            0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
        ];
        let pt = *b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
        let a = ChaCha20Poly1305::new_with_backend(Backend::Portable, &key);
        let mut buf = pt;
        let tag = a.encrypt_in_place_detached(&nonce, &aad, &mut buf).unwrap();
        assert_eq!(buf[..4], [0xd3, 0x1a, 0x8d, 0x34]);
        assert_eq!(
            tag,
            [
                0x1a, 0xe1, 0x0b, 0x59, 0x4f, 0x09, 0xe2, 0x6a, 0x7e, 0x90, 0x2e, 0xcb, 0xd0, 0x60,
                0x06, 0x91
            ]
        );
        let mut bad = tag;
        bad[15] ^= 0x80;
        let mut b2 = buf;
        assert_eq!(
            a.decrypt_in_place_detached(&nonce, &aad, &mut b2, &bad),
            Err(Error::Authentication)
        );
        assert!(b2.iter().all(|&x| x == 0));
        a.decrypt_in_place_detached(&nonce, &aad, &mut buf, &tag)
            .unwrap();
        assert_eq!(buf, pt);
    }
}
