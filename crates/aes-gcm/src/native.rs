//! The AEAD API: [`AesGcm`] (key size chosen at run time) and the typed [`Aes128Gcm`],
//! [`Aes192Gcm`] and [`Aes256Gcm`] over it; one implementation of sealing and opening.

#![forbid(unsafe_code)]

use crate::backend::{self, Backend};
use crate::gcm;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// A GCM authentication tag (always the full 16 bytes).
pub type Tag = [u8; 16];

/// Tag length in bytes.
pub const TAG_LEN: usize = 16;

/// Longest plaintext / ciphertext in bytes: `2^39 - 256` bits (SP 800-38D section 5.2.1.1).
pub const MAX_MESSAGE_LEN: u64 = (1 << 36) - 32;
/// Longest additional authenticated data in bytes: `2^64 - 1` bits.
pub const MAX_AAD_LEN: u64 = (1 << 61) - 1;
/// Longest nonce (IV) in bytes: `2^64 - 1` bits.
pub const MAX_NONCE_LEN: u64 = (1 << 61) - 1;

/// Errors of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A key given to [`AesGcm::new`] is not 16, 24 or 32 bytes long.
    InvalidKeyLength,
    /// The nonce is empty or longer than [`MAX_NONCE_LEN`].
    InvalidNonceLength,
    /// The message is longer than [`MAX_MESSAGE_LEN`].
    MessageTooLong,
    /// The additional data is longer than [`MAX_AAD_LEN`].
    AadTooLong,
    /// A ciphertext given to `decrypt` is shorter than the tag.
    CiphertextTooShort,
    /// The tag does not match: the ciphertext, nonce, additional data or key is wrong.
    Authentication,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidKeyLength => "AES key must be 16, 24 or 32 bytes",
            Error::InvalidNonceLength => "AES-GCM nonce must be 1 to 2^61-1 bytes",
            Error::MessageTooLong => "AES-GCM message longer than 2^36-32 bytes",
            Error::AadTooLong => "AES-GCM additional data longer than 2^61-1 bytes",
            Error::CiphertextTooShort => "AES-GCM ciphertext shorter than the 16-byte tag",
            Error::Authentication => "AES-GCM authentication failed",
        })
    }
}

impl core::error::Error for Error {}

/// Checks the SP 800-38D length limits (section 5.2.1.1) for a message of `msg_len` bytes.
#[doc(hidden)]
pub fn check_lengths(nonce_len: usize, aad_len: usize, msg_len: usize) -> Result<(), Error> {
    if nonce_len == 0 || nonce_len as u64 > MAX_NONCE_LEN {
        return Err(Error::InvalidNonceLength);
    }
    if aad_len as u64 > MAX_AAD_LEN {
        return Err(Error::AadTooLong);
    }
    if msg_len as u64 > MAX_MESSAGE_LEN {
        return Err(Error::MessageTooLong);
    }
    Ok(())
}

/// The AEAD methods, written once for [`AesGcm`] and the typed [`Aes128Gcm`], [`Aes192Gcm`]
/// and [`Aes256Gcm`]: each of them holds its expanded key in a field `key`, and this is the
/// one implementation of sealing and opening over it.
macro_rules! aead_methods {
    () => {
        /// The backend this key was expanded for.
        pub fn backend(&self) -> Backend {
            self.key.backend()
        }

        /// Encrypts `buf` in place and returns the tag.
        ///
        /// The nonce may have any length from 1 byte up (12 bytes is the fast path and the
        /// recommended size; other lengths are hashed with GHASH as SP 800-38D says). A nonce
        /// must never repeat under one key. On a length error nothing is written.
        pub fn encrypt_in_place_detached(
            &self,
            nonce: &[u8],
            aad: &[u8],
            buf: &mut [u8],
        ) -> Result<Tag, Error> {
            check_lengths(nonce.len(), aad.len(), buf.len())?;
            Ok(self.key.seal(gcm::Iv::Nonce(nonce), aad, buf))
        }

        /// Decrypts `buf` in place after checking `tag` in constant time.
        ///
        /// A length error (empty or overlong nonce, overlong message or additional data)
        /// returns before anything is decrypted and leaves `buf` untouched. When the tag does
        /// not match, `buf` is zeroed before the error returns: no unauthenticated plaintext is
        /// released.
        pub fn decrypt_in_place_detached(
            &self,
            nonce: &[u8],
            aad: &[u8],
            buf: &mut [u8],
            tag: &Tag,
        ) -> Result<(), Error> {
            check_lengths(nonce.len(), aad.len(), buf.len())?;
            // On failure `expected` is the valid tag for this (forged) ciphertext: zeroized on
            // every path.
            let expected = zeroize::Zeroizing::new(self.key.open(gcm::Iv::Nonce(nonce), aad, buf));
            // The comparison's result is public by design (see `tessera_cpu::public_bool`).
            if tessera_cpu::public_bool(expected.ct_eq(tag).into()) {
                Ok(())
            } else {
                buf.zeroize();
                Err(Error::Authentication)
            }
        }

        /// Encrypts `plaintext` and returns `ciphertext || tag`.
        #[cfg(feature = "alloc")]
        pub fn encrypt(
            &self,
            nonce: &[u8],
            aad: &[u8],
            plaintext: &[u8],
        ) -> Result<alloc::vec::Vec<u8>, Error> {
            check_lengths(nonce.len(), aad.len(), plaintext.len())?;
            let mut out = alloc::vec::Vec::with_capacity(plaintext.len() + TAG_LEN);
            out.extend_from_slice(plaintext);
            let tag = self.key.seal(gcm::Iv::Nonce(nonce), aad, &mut out);
            out.extend_from_slice(&tag);
            Ok(out)
        }

        /// Checks and decrypts `ciphertext || tag`; returns the plaintext.
        #[cfg(feature = "alloc")]
        pub fn decrypt(
            &self,
            nonce: &[u8],
            aad: &[u8],
            ciphertext_and_tag: &[u8],
        ) -> Result<alloc::vec::Vec<u8>, Error> {
            let Some(ct_len) = ciphertext_and_tag.len().checked_sub(TAG_LEN) else {
                return Err(Error::CiphertextTooShort);
            };
            let (ct, tag) = ciphertext_and_tag.split_at(ct_len);
            let mut t = [0u8; TAG_LEN];
            t.copy_from_slice(tag);
            let mut out = alloc::vec::Vec::from(ct);
            self.decrypt_in_place_detached(nonce, aad, &mut out, &t)?;
            Ok(out)
        }

        /// Seals with a given pre-counter block `J0` instead of a nonce, so tests can start
        /// the 32-bit counter just before it wraps. Only in this workspace's test builds
        /// (`--cfg tessera_test_hooks`); not for production use.
        #[cfg(tessera_test_hooks)]
        #[doc(hidden)]
        pub fn __seal_with_j0(&self, j0: &[u8; 16], aad: &[u8], buf: &mut [u8]) -> Tag {
            self.key.seal(gcm::Iv::J0(j0), aad, buf)
        }
    };
}

/// AES-GCM (NIST SP 800-38D, 16-byte tags) with the AES key size chosen at run time: 16, 24
/// or 32 bytes (AES-128, AES-192, AES-256). For protocols that negotiate the cipher (the HPKE
/// AEAD identifiers, TLS cipher suites); when the size is known at compile time,
/// [`Aes128Gcm`], [`Aes192Gcm`] and [`Aes256Gcm`] are the same code behind a fixed-size key.
///
/// ```
/// use tessera_aes_gcm::{AesGcm, Error};
///
/// let aead = AesGcm::new(&[0x42; 32])?; // AES-256-GCM
/// let nonce = [7u8; 12];
/// let mut buf = *b"attack at dawn";
/// let tag = aead.encrypt_in_place_detached(&nonce, b"header", &mut buf)?;
/// aead.decrypt_in_place_detached(&nonce, b"header", &mut buf, &tag)?;
/// assert_eq!(&buf, b"attack at dawn");
///
/// assert_eq!(AesGcm::new(&[0; 20]).unwrap_err(), Error::InvalidKeyLength);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone)]
pub struct AesGcm {
    key: backend::Key,
}

impl AesGcm {
    /// Expands a 16-, 24- or 32-byte AES key for the best backend of this CPU.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::new_with_backend(Backend::detect(), key)
    }

    /// Expands a key for a given backend (from `Backend::all_available`; tests and benches).
    pub fn new_with_backend(backend: Backend, key: &[u8]) -> Result<Self, Error> {
        match key.len() {
            16 | 24 | 32 => Ok(AesGcm {
                key: backend::Key::new(backend, key),
            }),
            _ => Err(Error::InvalidKeyLength),
        }
    }

    aead_methods!();
}

impl zeroize::ZeroizeOnDrop for AesGcm {}

impl core::fmt::Debug for AesGcm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.key.fmt_debug("AesGcm", f)
    }
}

macro_rules! aead {
    ($(#[$doc:meta])* $name:ident, $n:literal, $bits:literal) => {
        $(#[$doc])*
        ///
        /// `Clone` copies the expanded key (same backend); every copy is wiped on drop.
        #[derive(Clone)]
        pub struct $name {
            key: backend::Key,
        }

        impl zeroize::ZeroizeOnDrop for $name {}

        impl $name {
            /// Key length in bytes.
            pub const KEY_LEN: usize = $n;

            #[doc = concat!("Expands an AES-", $bits, " key for the best backend of this CPU.")]
            pub fn new(key: &[u8; $n]) -> Self {
                Self::new_with_backend(Backend::detect(), key)
            }

            /// Expands a key for a given backend (from `Backend::all_available`; tests and
            /// benches).
            pub fn new_with_backend(backend: Backend, key: &[u8; $n]) -> Self {
                Self {
                    key: backend::Key::new(backend, key),
                }
            }

            aead_methods!();
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                self.key.fmt_debug(stringify!($name), f)
            }
        }
    };
}

aead!(
    /// AES-128-GCM (NIST SP 800-38D with a 16-byte key and 16-byte tags).
    ///
    /// ```
    /// use tessera_aes_gcm::Aes128Gcm;
    /// let aead = Aes128Gcm::new(&[7u8; 16]);
    /// let nonce = [1u8; 12];
    /// let mut buf = *b"hello, world";
    /// let tag = aead.encrypt_in_place_detached(&nonce, b"header", &mut buf).unwrap();
    /// aead.decrypt_in_place_detached(&nonce, b"header", &mut buf, &tag).unwrap();
    /// assert_eq!(&buf, b"hello, world");
    /// ```
    Aes128Gcm, 16, "128"
);
aead!(
    /// AES-192-GCM (NIST SP 800-38D with a 24-byte key and 16-byte tags).
    ///
    /// ```
    /// use tessera_aes_gcm::{Aes192Gcm, Error};
    /// let aead = Aes192Gcm::new(&[7u8; 24]);
    /// let mut buf = *b"secret";
    /// let mut tag = aead.encrypt_in_place_detached(&[0u8; 12], b"", &mut buf).unwrap();
    /// tag[0] ^= 1;
    /// let r = aead.decrypt_in_place_detached(&[0u8; 12], b"", &mut buf, &tag);
    /// assert_eq!(r, Err(Error::Authentication));
    /// assert_eq!(buf, [0u8; 6]); // cleared
    /// ```
    Aes192Gcm, 24, "192"
);
aead!(
    /// AES-256-GCM (NIST SP 800-38D with a 32-byte key and 16-byte tags).
    ///
    /// ```
    /// # #[cfg(feature = "alloc")] {
    /// use tessera_aes_gcm::Aes256Gcm;
    /// let aead = Aes256Gcm::new(&[9u8; 32]);
    /// let sealed = aead.encrypt(&[3u8; 12], b"aad", b"message").unwrap();
    /// assert_eq!(sealed.len(), 7 + 16);
    /// assert_eq!(aead.decrypt(&[3u8; 12], b"aad", &sealed).unwrap(), b"message");
    /// # }
    /// ```
    Aes256Gcm, 32, "256"
);

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_testkit::hex::array as hex;

    /// McGrew-Viega GCM test case 2 (one block) and test case 5 (8-byte nonce through GHASH,
    /// partial last block), on the portable path; small enough for Miri.
    #[test]
    fn gcm_spec_cases_2_and_5() {
        let g = Aes128Gcm::new_with_backend(Backend::Portable, &[0; 16]);
        let mut b = [0u8; 16];
        let tag = g.encrypt_in_place_detached(&[0; 12], b"", &mut b).unwrap();
        assert_eq!(b, hex::<16>("0388dace60b6a392f328c2b971b2fe78"));
        assert_eq!(tag, hex::<16>("ab6e47d42cec13bdf53a67b21257bddf"));

        let g = AesGcm::new_with_backend(
            Backend::Portable,
            &hex::<16>("feffe9928665731c6d6a8f9467308308"),
        )
        .unwrap();
        let aad: [u8; 20] = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2");
        let pt: [u8; 60] = hex(concat!(
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72",
            "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
        ));
        let ct: [u8; 60] = hex(concat!(
            "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423",
            "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598"
        ));
        let nonce: [u8; 8] = hex("cafebabefacedbad");
        let mut b = pt;
        let tag = g.encrypt_in_place_detached(&nonce, &aad, &mut b).unwrap();
        assert_eq!(b, ct);
        assert_eq!(tag, hex::<16>("3612d2e79e3b0785561be14aaca2fccb"));
        g.decrypt_in_place_detached(&nonce, &aad, &mut b, &tag)
            .unwrap();
        assert_eq!(b, pt);
        let mut bad = tag;
        bad[0] ^= 1;
        assert_eq!(
            g.decrypt_in_place_detached(&nonce, &aad, &mut b, &bad),
            Err(Error::Authentication)
        );
        assert_eq!(b, [0; 60]);
    }
}
