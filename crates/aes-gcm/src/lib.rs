#![doc = include_str!("../README.md")]
#![no_std]
// No `unsafe` anywhere but the SIMD backend files: denied for the whole crate, allowed only on
// `mod backend` (whose own file denies it again and allows it per SIMD backend, for pointer
// loads and stores and the `tessera_cpu::island!` expansions). Every module that holds code
// outside `backend/` forbids it; this file only declares modules and re-exports.
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

#[cfg(feature = "aead")]
pub mod aead;
mod aes;
#[allow(unsafe_code)]
mod backend;
mod gcm;
pub mod hazmat;
mod native;
#[doc(hidden)]
pub mod testing;

pub use crate::native::{
    Aes128Gcm, Aes192Gcm, Aes256Gcm, AesGcm, Error, MAX_AAD_LEN, MAX_MESSAGE_LEN, MAX_NONCE_LEN,
    TAG_LEN, Tag, check_lengths,
};
