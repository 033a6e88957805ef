#![doc = include_str!("../README.md")]
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod aes;
mod backend;
mod gcm;

pub use backend::Backend;

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
pub enum Error {
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

macro_rules! aead {
    ($(#[$doc:meta])* $name:ident, $n:literal, $bits:literal) => {
        $(#[$doc])*
        pub struct $name {
            key: backend::Key,
        }

        impl $name {
            /// Key length in bytes.
            pub const KEY_LEN: usize = $n;

            #[doc = concat!("Expands an AES-", $bits, " key for the best backend of this CPU.")]
            pub fn new(key: &[u8; $n]) -> Self {
                Self::new_with_backend(key, Backend::detect())
            }

            /// Expands a key for a given backend (from [`Backend::all_available`]; tests and benches).
            pub fn new_with_backend(key: &[u8; $n], backend: Backend) -> Self {
                Self { key: backend::Key::new(backend, key) }
            }

            /// The backend this key was expanded for.
            pub fn backend(&self) -> Backend {
                self.key.backend()
            }

            /// Encrypts `buf` in place and returns the tag.
            ///
            /// The nonce may have any length from 1 byte up (12 bytes is the fast path and the
            /// recommended size; other lengths are hashed with GHASH as SP 800-38D says). A
            /// nonce must never repeat under one key.
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
            /// On failure `buf` is zeroed before the error returns: no unauthenticated
            /// plaintext is released.
            pub fn decrypt_in_place_detached(
                &self,
                nonce: &[u8],
                aad: &[u8],
                buf: &mut [u8],
                tag: &Tag,
            ) -> Result<(), Error> {
                if let Err(e) = check_lengths(nonce.len(), aad.len(), buf.len()) {
                    buf.zeroize();
                    return Err(e);
                }
                // On failure `expected` is the valid tag for this (forged) ciphertext: zeroized
                // on every path.
                let expected = zeroize::Zeroizing::new(self.key.open(gcm::Iv::Nonce(nonce), aad, buf));
                let ok = expected.ct_eq(tag).unwrap_u8();
                #[cfg(feature = "__testing")]
                let ok = testing::declassify(ok);
                if ok == 1 {
                    Ok(())
                } else {
                    buf.zeroize();
                    Err(Error::Authentication)
                }
            }

            /// Seals with a given pre-counter block `J0` instead of a nonce, so tests can start
            /// the 32-bit counter just before it wraps. Only with the `__testing` feature (the
            /// crate's own tests); not for production use.
            #[cfg(feature = "__testing")]
            #[doc(hidden)]
            pub fn __seal_with_j0(&self, j0: &[u8; 16], aad: &[u8], buf: &mut [u8]) -> Tag {
                self.key.seal(gcm::Iv::J0(j0), aad, buf)
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

/// The raw AES block cipher (FIPS 197), for other crates' modes. Most users want the AEADs.
pub mod hazmat {
    use crate::{Backend, backend};

    macro_rules! cipher {
        ($(#[$doc:meta])* $name:ident, $n:literal) => {
            $(#[$doc])*
            pub struct $name {
                key: backend::Key,
            }

            impl $name {
                /// Expands a key for the best backend of this CPU.
                pub fn new(key: &[u8; $n]) -> Self {
                    Self::new_with_backend(key, Backend::detect())
                }

                /// Expands a key for a given backend (tests and benches).
                pub fn new_with_backend(key: &[u8; $n], backend: Backend) -> Self {
                    Self { key: backend::Key::new(backend, key) }
                }

                /// The backend this key was expanded for.
                pub fn backend(&self) -> Backend {
                    self.key.backend()
                }

                /// Encrypts one block in place.
                pub fn encrypt_block(&self, block: &mut [u8; 16]) {
                    self.key.encrypt_blocks(core::slice::from_mut(block));
                }

                /// Decrypts one block in place.
                pub fn decrypt_block(&self, block: &mut [u8; 16]) {
                    self.key.decrypt_blocks(core::slice::from_mut(block));
                }

                /// Encrypts many independent blocks in place (ECB; several in flight).
                pub fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                    self.key.encrypt_blocks(blocks);
                }

                /// Decrypts many independent blocks in place.
                pub fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                    self.key.decrypt_blocks(blocks);
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

    cipher!(
        /// AES-128 block cipher.
        ///
        /// ```
        /// use tessera_aes_gcm::hazmat::Aes128;
        /// // FIPS 197 appendix C.1
        /// let aes = Aes128::new(&core::array::from_fn(|i| i as u8));
        /// let mut b: [u8; 16] = core::array::from_fn(|i| i as u8 * 0x11);
        /// aes.encrypt_block(&mut b);
        /// assert_eq!(b[..4], [0x69, 0xc4, 0xe0, 0xd8]);
        /// aes.decrypt_block(&mut b);
        /// assert_eq!(b[1], 0x11);
        /// ```
        Aes128, 16
    );
    cipher!(
        /// AES-192 block cipher.
        Aes192, 24
    );
    cipher!(
        /// AES-256 block cipher.
        Aes256, 32
    );
}

/// Test-only hooks (the `__testing` feature, enabled by the crate's own dev-dependency; never
/// in production builds).
#[cfg(feature = "__testing")]
#[doc(hidden)]
pub mod testing {
    use core::sync::atomic::{AtomicUsize, Ordering};

    static DECLASSIFY: AtomicUsize = AtomicUsize::new(0);

    /// Installs a function that `decrypt_in_place_detached` calls on the one-byte result of its
    /// constant-time tag comparison before branching on it. The valgrind constant-time check
    /// marks that byte defined there (the result is public by design), so the whole decryption
    /// function, including the clearing of the buffer on failure, runs on secret data under
    /// memcheck.
    pub fn set_declassify(f: fn(&[u8])) {
        DECLASSIFY.store(f as usize, Ordering::SeqCst);
    }

    pub(crate) fn declassify(v: u8) -> u8 {
        let f = DECLASSIFY.load(Ordering::SeqCst);
        if f == 0 {
            return v;
        }
        // SAFETY: a non-zero value was stored by `set_declassify` from a `fn(&[u8])`.
        let f: fn(&[u8]) = unsafe { core::mem::transmute::<usize, fn(&[u8])>(f) };
        let cell = [v];
        f(&cell);
        // SAFETY: reads one initialised byte; volatile so the branch uses the value just
        // declassified, not a register copy from before the call.
        unsafe { core::ptr::read_volatile(cell.as_ptr()) }
    }
}

/// Backend handles for tests and benches (not a stable API).
#[doc(hidden)]
pub mod __private {
    pub use crate::backend::Backend;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex<const N: usize>(s: &str) -> [u8; N] {
        core::array::from_fn(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
    }

    /// McGrew-Viega GCM test case 2 (one block) and test case 5 (8-byte nonce through GHASH,
    /// partial last block), on the portable path; small enough for Miri.
    #[test]
    fn gcm_spec_cases_2_and_5() {
        let g = Aes128Gcm::new_with_backend(&[0; 16], Backend::Portable);
        let mut b = [0u8; 16];
        let tag = g.encrypt_in_place_detached(&[0; 12], b"", &mut b).unwrap();
        assert_eq!(b, hex::<16>("0388dace60b6a392f328c2b971b2fe78"));
        assert_eq!(tag, hex::<16>("ab6e47d42cec13bdf53a67b21257bddf"));

        let g = Aes128Gcm::new_with_backend(
            &hex("feffe9928665731c6d6a8f9467308308"),
            Backend::Portable,
        );
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
