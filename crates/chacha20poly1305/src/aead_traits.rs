//! The RustCrypto `aead` 0.6 traits (feature `aead`) on [`ChaCha20Poly1305`] and
//! [`XChaCha20Poly1305`]: `KeySizeUser` and `KeyInit` (so `new_from_slice` refuses a wrong
//! length), `AeadCore` (12- and 24-byte nonces, 16-byte postfix tag, as RustCrypto's
//! `chacha20poly1305` 0.11 types) and `AeadInOut`; `aead`'s blanket impls then give the
//! in-place `Buffer` methods and, with `alloc`, `Aead`.
//!
//! Design: the traits are implemented on the crate's own AEAD types, so a key built through
//! `KeyInit` runs on the same run-time backend as one built by `new`. `AeadInOut` calls the
//! native sealing and opening, which work in place: an in-place `InOutBuf` goes straight to
//! them (no copy), and a buffer with separate input and output is copied once into the output,
//! which is then sealed or opened in place. The length is checked before that copy. A wrong tag
//! leaves the output zeroed (the native `open` clears it), so no unauthenticated plaintext is
//! released; every error is the opaque `aead::Error`.

#![forbid(unsafe_code)]

use crate::aead::{ChaCha20Poly1305, XChaCha20Poly1305, check_len};
use crate::backend::Backend;
use aead::consts::{U12, U16, U24, U32};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Tag, TagPosition};

macro_rules! aead_traits {
    ($name:ident, $nonce_size:ty) => {
        impl KeySizeUser for $name {
            type KeySize = U32;
        }

        impl KeyInit for $name {
            /// A key for the best backend of this CPU (as the inherent `new`).
            #[inline]
            fn new(key: &Key<Self>) -> Self {
                Self::new_with_backend(Backend::detect(), &key.0)
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
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> aead::Result<Tag<Self>> {
                check_len(buffer.len()).map_err(|_| aead::Error)?;
                let buf = buffer.into_out_with_copied_in();
                match self.encrypt_in_place_detached(&nonce.0, associated_data, buf) {
                    Ok(tag) => Ok(Tag::<Self>::from(tag)),
                    Err(_) => Err(aead::Error),
                }
            }

            #[inline]
            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &Tag<Self>,
            ) -> aead::Result<()> {
                check_len(buffer.len()).map_err(|_| aead::Error)?;
                let buf = buffer.into_out_with_copied_in();
                self.decrypt_in_place_detached(&nonce.0, associated_data, buf, &tag.0)
                    .map_err(|_| aead::Error)
            }
        }
    };
}

aead_traits!(ChaCha20Poly1305, U12);
aead_traits!(XChaCha20Poly1305, U24);
