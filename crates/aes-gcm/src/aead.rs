//! The RustCrypto `aead` 0.6 face of this crate (feature `aead`): [`Aes128Gcm`], [`Aes192Gcm`]
//! and [`Aes256Gcm`] implementing `KeySizeUser`, `KeyInit` (so `new_from_slice` refuses a wrong
//! length), `AeadCore` (12-byte nonce, 16-byte postfix tag, as RustCrypto's `aes-gcm` 0.11
//! types) and `AeadInOut`; `aead`'s blanket impls then give the in-place `Buffer` methods and,
//! with `alloc`, `Aead`.
//!
//! This module is laid out as the root of RustCrypto's `aes-gcm` 0.11, so code written for it
//! compiles with only the path changed (`aes_gcm::` becomes `tessera_aes_gcm::aead::`):
//! the cipher types, the aliases [`Nonce`] and [`Tag`], the constants [`A_MAX`] and [`P_MAX`],
//! the trait crate itself as [`aead`] (`tessera_aes_gcm::aead::aead::Aead` is
//! `aes_gcm::aead::Aead`), and its traits and types at this level as well.
//!
//! Design: each type is a `#[repr(transparent)]` wrapper of the native type of the same name
//! (`tessera_aes_gcm::Aes256Gcm`, ...) with no inherent methods, so `new`, `encrypt`,
//! `decrypt` and `encrypt_in_place` in method-call syntax are the trait methods, as on
//! RustCrypto's types. `KeyInit` expands the key exactly as the native `new` (the best backend
//! of this CPU); `From` converts both ways at no cost, to reach the native API or to wrap a
//! key expanded for a chosen backend. `AeadInOut` calls the native sealing and opening, which
//! work in place: an in-place `InOutBuf` goes straight to them (no copy), and a buffer with
//! separate input and output is copied once into the output, which is then sealed or opened in
//! place. Lengths are checked before that copy. A wrong tag leaves the output zeroed (the
//! native opening clears it), so no unauthenticated plaintext is released; every error is the
//! opaque [`Error`]. `Clone` copies the expanded key for the same backend; every copy wipes its
//! key on drop (`ZeroizeOnDrop`). `Debug` names the type and its backend, never the key.

#![forbid(unsafe_code)]

use crate::native::check_lengths;
use ::aead::TagPosition;
use ::aead::array::Array;
use ::aead::consts::{U12, U16, U24, U32};
use ::aead::inout::InOutBuf;

/// The trait crate, as RustCrypto's `aes_gcm::aead`.
pub use ::aead;
#[cfg(feature = "alloc")]
pub use ::aead::Aead;
pub use ::aead::{
    AeadCore, AeadInOut, Buffer, Error, Generate, Key, KeyInit, KeySizeUser, Payload, consts,
};

/// Maximum length of associated data in bytes (as RustCrypto's `aes_gcm::A_MAX`).
pub const A_MAX: u64 = crate::MAX_AAD_LEN;

/// Maximum length of plaintext in bytes (as RustCrypto's `aes_gcm::P_MAX`).
pub const P_MAX: u64 = crate::MAX_MESSAGE_LEN;

/// AES-GCM nonces (as RustCrypto's `aes_gcm::Nonce`; the types here take `Nonce<U12>`).
pub type Nonce<NonceSize> = Array<u8, NonceSize>;

/// AES-GCM tags (as RustCrypto's `aes_gcm::Tag`).
pub type Tag<TagSize = U16> = Array<u8, TagSize>;

/// The nonce length of these types (`NonceSize`), as RustCrypto's `Aes128Gcm`.
const NONCE_LEN: usize = 12;

macro_rules! aead_type {
    ($(#[$doc:meta])* $name:ident, $key_size:ty) => {
        $(#[$doc])*
        #[derive(Clone)]
        #[repr(transparent)]
        pub struct $name(crate::$name);

        impl From<crate::$name> for $name {
            /// Wraps a native key (for example one expanded for a chosen backend).
            #[inline]
            fn from(key: crate::$name) -> Self {
                Self(key)
            }
        }

        impl From<$name> for crate::$name {
            /// The native key inside, for the native API.
            #[inline]
            fn from(key: $name) -> Self {
                key.0
            }
        }

        impl zeroize::ZeroizeOnDrop for $name {}

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Debug::fmt(&self.0, f)
            }
        }

        impl KeySizeUser for $name {
            type KeySize = $key_size;
        }

        impl KeyInit for $name {
            /// Expands the key for the best backend of this CPU (as the native `new`).
            #[inline]
            fn new(key: &Key<Self>) -> Self {
                Self(crate::$name::new(&key.0))
            }
        }

        impl AeadCore for $name {
            type NonceSize = U12;
            type TagSize = U16;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        impl AeadInOut for $name {
            #[inline]
            fn encrypt_inout_detached(
                &self,
                nonce: &::aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> ::aead::Result<::aead::Tag<Self>> {
                check_lengths(NONCE_LEN, associated_data.len(), buffer.len())
                    .map_err(|_| Error)?;
                let buf = buffer.into_out_with_copied_in();
                match self.0.encrypt_in_place_detached(&nonce.0, associated_data, buf) {
                    Ok(tag) => Ok(Tag::from(tag)),
                    Err(_) => Err(Error),
                }
            }

            #[inline]
            fn decrypt_inout_detached(
                &self,
                nonce: &::aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &::aead::Tag<Self>,
            ) -> ::aead::Result<()> {
                check_lengths(NONCE_LEN, associated_data.len(), buffer.len())
                    .map_err(|_| Error)?;
                let buf = buffer.into_out_with_copied_in();
                self.0
                    .decrypt_in_place_detached(&nonce.0, associated_data, buf, &tag.0)
                    .map_err(|_| Error)
            }
        }
    };
}

aead_type!(
    /// AES-128-GCM through the `aead` traits: 16-byte key, 12-byte nonce, 16-byte tag (as
    /// RustCrypto's `aes_gcm::Aes128Gcm`).
    Aes128Gcm,
    U16
);
aead_type!(
    /// AES-192-GCM through the `aead` traits: 24-byte key, 12-byte nonce, 16-byte tag
    /// (RustCrypto's `aes-gcm` 0.11 has no such alias; it would be `AesGcm<Aes192, U12>`).
    Aes192Gcm,
    U24
);
aead_type!(
    /// AES-256-GCM through the `aead` traits: 32-byte key, 12-byte nonce, 16-byte tag (as
    /// RustCrypto's `aes_gcm::Aes256Gcm`).
    ///
    /// ```
    /// # #[cfg(feature = "alloc")] {
    /// use tessera_aes_gcm::aead::{Aead, Aes256Gcm, Key, KeyInit, Nonce};
    ///
    /// let key = Key::<Aes256Gcm>::from([0x42; 32]);
    /// let cipher = Aes256Gcm::new(&key);
    /// let nonce = Nonce::from([7; 12]); // MUST be unique per message
    /// let ciphertext = cipher.encrypt(&nonce, b"plaintext message".as_ref()).unwrap();
    /// let plaintext = cipher.decrypt(&nonce, ciphertext.as_ref()).unwrap();
    /// assert_eq!(&plaintext, b"plaintext message");
    /// # }
    /// ```
    Aes256Gcm,
    U32
);
