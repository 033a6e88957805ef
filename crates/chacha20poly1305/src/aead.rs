//! The RustCrypto `aead` 0.6 face of this crate (feature `aead`): [`ChaCha20Poly1305`] and
//! [`XChaCha20Poly1305`] implementing `KeySizeUser`, `KeyInit` (so `new_from_slice` refuses a
//! wrong length), `AeadCore` (12- and 24-byte nonces, 16-byte postfix tag, as RustCrypto's
//! `chacha20poly1305` 0.11 types) and `AeadInOut`; `aead`'s blanket impls then give the
//! in-place `Buffer` methods and, with `alloc`, `Aead`.
//!
//! This module is laid out as the root of RustCrypto's `chacha20poly1305` 0.11, so code written
//! for it compiles with only the path changed (`chacha20poly1305::` becomes
//! `tessera_chacha20poly1305::aead::`): the cipher types, the aliases [`Key`], [`Nonce`],
//! [`XNonce`] and [`Tag`], [`consts`], the trait crate itself as [`aead`]
//! (`tessera_chacha20poly1305::aead::aead::Aead` is `chacha20poly1305::aead::Aead`), and its
//! traits at this level as well.
//!
//! Design: each type is a `#[repr(transparent)]` wrapper of the native type of the same name
//! (`tessera_chacha20poly1305::ChaCha20Poly1305`, ...) with no inherent methods, so `new`,
//! `encrypt`, `decrypt` and `encrypt_in_place` in method-call syntax are the trait methods, as
//! on RustCrypto's types. `KeyInit` builds the key exactly as the native `new` (the best backend
//! of this CPU); `From` converts both ways at no cost, to reach the native API or to wrap a key
//! made for a chosen backend. `AeadInOut` calls the native sealing and opening, which work in
//! place: an in-place `InOutBuf` goes straight to them (no copy), and a buffer with separate
//! input and output is copied once into the output, which is then sealed or opened in place.
//! The length is checked before that copy. A wrong tag leaves the output zeroed (the native
//! opening clears it), so no unauthenticated plaintext is released; every error is the opaque
//! [`Error`]. `Clone` copies the key for the same backend; every copy wipes its key on drop
//! (`ZeroizeOnDrop`). `Debug` names the type and its backend, never the key.

#![forbid(unsafe_code)]

use crate::native::check_len;
use ::aead::TagPosition;
use ::aead::array::Array;
use ::aead::consts::{U12, U16, U24, U32};
use ::aead::inout::InOutBuf;

/// The trait crate, as RustCrypto's `chacha20poly1305::aead`.
pub use ::aead;
#[cfg(feature = "alloc")]
pub use ::aead::Aead;
pub use ::aead::{
    AeadCore, AeadInOut, Buffer, Error, Generate, KeyInit, KeySizeUser, Payload, consts,
};

/// Key type (32 bytes), as RustCrypto's `chacha20poly1305::Key`; both types use it.
pub type Key = Array<u8, U32>;

/// Nonce of [`ChaCha20Poly1305`] (12 bytes), as RustCrypto's `chacha20poly1305::Nonce`.
pub type Nonce = Array<u8, U12>;

/// Nonce of [`XChaCha20Poly1305`] (24 bytes), as RustCrypto's `chacha20poly1305::XNonce`.
pub type XNonce = Array<u8, U24>;

/// Poly1305 tag (16 bytes), as RustCrypto's `chacha20poly1305::Tag`.
pub type Tag = Array<u8, U16>;

macro_rules! aead_type {
    ($(#[$doc:meta])* $name:ident, $nonce_size:ty) => {
        $(#[$doc])*
        #[derive(Clone)]
        #[repr(transparent)]
        pub struct $name(crate::$name);

        impl From<crate::$name> for $name {
            /// Wraps a native key (for example one made for a chosen backend).
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
            type KeySize = U32;
        }

        impl KeyInit for $name {
            /// A key for the best backend of this CPU (as the native `new`).
            #[inline]
            fn new(key: &Key) -> Self {
                Self(crate::$name::new(&key.0))
            }
        }

        impl AeadCore for $name {
            type NonceSize = $nonce_size;
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
            ) -> ::aead::Result<Tag> {
                check_len(buffer.len()).map_err(|_| Error)?;
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
                tag: &Tag,
            ) -> ::aead::Result<()> {
                check_len(buffer.len()).map_err(|_| Error)?;
                let buf = buffer.into_out_with_copied_in();
                self.0
                    .decrypt_in_place_detached(&nonce.0, associated_data, buf, &tag.0)
                    .map_err(|_| Error)
            }
        }
    };
}

aead_type!(
    /// ChaCha20-Poly1305 (RFC 8439) through the `aead` traits: 32-byte key, 12-byte nonce,
    /// 16-byte tag (as RustCrypto's `chacha20poly1305::ChaCha20Poly1305`).
    ///
    /// ```
    /// # #[cfg(feature = "alloc")] {
    /// use tessera_chacha20poly1305::aead::{Aead, ChaCha20Poly1305, Key, KeyInit, Nonce};
    ///
    /// let key = Key::from([0x42; 32]);
    /// let cipher = ChaCha20Poly1305::new(&key);
    /// let nonce = Nonce::from([7; 12]); // MUST be unique per message
    /// let ciphertext = cipher.encrypt(&nonce, b"plaintext message".as_ref()).unwrap();
    /// let plaintext = cipher.decrypt(&nonce, ciphertext.as_ref()).unwrap();
    /// assert_eq!(&plaintext, b"plaintext message");
    /// # }
    /// ```
    ChaCha20Poly1305,
    U12
);
aead_type!(
    /// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha) through the `aead` traits: 32-byte key,
    /// 24-byte nonce (random nonces are safe), 16-byte tag (as RustCrypto's
    /// `chacha20poly1305::XChaCha20Poly1305`).
    XChaCha20Poly1305,
    U24
);
