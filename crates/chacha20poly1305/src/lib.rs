#![doc = include_str!("../README.md")]
#![no_std]
// No `unsafe` anywhere but the SIMD backend files: denied for the whole crate, allowed only on
// `mod backend` (whose own file denies it again and allows it per SIMD backend, for pointer
// loads and stores and the `tessera_cpu::island!` expansions). Every other module forbids it.
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

#[cfg(feature = "aead")]
pub mod aead;
#[allow(unsafe_code)]
mod backend;
mod chacha;
mod construction;
pub mod hazmat;
mod native;
mod poly1305;
#[doc(hidden)]
pub mod testing;
// The vector Poly1305 of the SIMD backends (only x86_64 has one so far).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
mod wide;

pub use crate::native::{
    ChaCha20Poly1305, Error, MAX_MESSAGE_LEN, TAG_LEN, Tag, XChaCha20Poly1305,
};
