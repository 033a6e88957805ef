#![doc = include_str!("../README.md")]
#![no_std]
// Unsafe code may live only in the SIMD files under `backend/` (pointer loads and stores);
// every other module forbids it itself.
#![deny(unsafe_code)]
// No division or remainder anywhere in this crate (KyberSlash was a division by q on a secret).
#![deny(clippy::integer_division_remainder_used)]

// The test hooks keep their state in `std` (never in a user's build: see `testing`).
#[cfg(tessera_test_hooks)]
extern crate std;

mod backend;
mod dims;
pub mod generic;
#[cfg(feature = "kem")]
pub mod ml_kem;
mod mlkem;
mod ops;
mod parameter_set;
mod params;
mod poly;
#[doc(hidden)]
pub mod testing;
mod unit;
mod xof4;

pub use params::{MlKem512, MlKem768, MlKem1024, ml_kem_512, ml_kem_768, ml_kem_1024};

#[cfg(feature = "pkcs8")]
pub use generic::KeyEncodingError;
/// The RustCrypto `pkcs8` crate (feature `pkcs8`; it re-exports `spki` and `der`).
#[cfg(feature = "pkcs8")]
pub use pkcs8;

/// Errors of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An input (key, ciphertext, seed) of the wrong length.
    InvalidLength,
    /// An encapsulation key that fails the FIPS 203 section 7.2 modulus check, or a
    /// decapsulation key that fails the section 7.3 hash check.
    InvalidKey,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "ML-KEM input of the wrong length",
            Error::InvalidKey => "invalid ML-KEM key",
        })
    }
}

impl core::error::Error for Error {}
