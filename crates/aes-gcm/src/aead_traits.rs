//! The RustCrypto `aead` 0.6 traits (feature `aead`) on [`Aes128Gcm`], [`Aes192Gcm`] and
//! [`Aes256Gcm`]: `KeySizeUser` and `KeyInit` (so `new_from_slice` refuses a wrong length),
//! `AeadCore` (12-byte nonce, 16-byte postfix tag, as RustCrypto's `aes-gcm` 0.11 types) and
//! `AeadInOut`; `aead`'s blanket impls then give the in-place `Buffer` methods and, with
//! `alloc`, `Aead`.
//!
//! Design: the traits are implemented on the crate's own AEAD types, so a key built through
//! `KeyInit` is the same expanded key, on the same run-time backend, as one built by `new`.
//! `AeadInOut` calls the native sealing and opening, which work in place: an in-place
//! `InOutBuf` goes straight to them (no copy), and a buffer with separate input and output is
//! copied once into the output, which is then sealed or opened in place. Lengths are checked
//! before that copy. A wrong tag leaves the output zeroed (the native `open` clears it), so no
//! unauthenticated plaintext is released; every error is the opaque `aead::Error`.

#![forbid(unsafe_code)]

use crate::aead::{Aes128Gcm, Aes192Gcm, Aes256Gcm, check_lengths};
use crate::backend::Backend;
use aead::consts::{U12, U16, U24, U32};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Tag, TagPosition};

/// The nonce length of the trait types (`NonceSize`), as RustCrypto's `Aes128Gcm`.
const NONCE_LEN: usize = 12;

macro_rules! aead_traits {
    ($name:ident, $key_size:ty) => {
        impl KeySizeUser for $name {
            type KeySize = $key_size;
        }

        impl KeyInit for $name {
            /// Expands the key for the best backend of this CPU (as the inherent `new`).
            #[inline]
            fn new(key: &Key<Self>) -> Self {
                Self::new_with_backend(Backend::detect(), &key.0)
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
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> aead::Result<Tag<Self>> {
                check_lengths(NONCE_LEN, associated_data.len(), buffer.len())
                    .map_err(|_| aead::Error)?;
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
                check_lengths(NONCE_LEN, associated_data.len(), buffer.len())
                    .map_err(|_| aead::Error)?;
                let buf = buffer.into_out_with_copied_in();
                self.decrypt_in_place_detached(&nonce.0, associated_data, buf, &tag.0)
                    .map_err(|_| aead::Error)
            }
        }
    };
}

aead_traits!(Aes128Gcm, U16);
aead_traits!(Aes192Gcm, U24);
aead_traits!(Aes256Gcm, U32);
