#![doc = include_str!("../README.md")]
#![no_std]
// Unsafe code may live only in SIMD files under `backend/` (pointer loads and stores); every
// other module forbids it itself.
#![deny(unsafe_code)]
// No division or remainder anywhere in this crate (a secret-dependent division in Decompose
// was a timing leak in another ML-DSA implementation).
#![deny(clippy::integer_division_remainder_used)]

#[cfg(feature = "alloc")]
extern crate alloc;

// The test hooks keep their state in `std` (never in a user's build); unit tests use it too.
#[cfg(any(test, tessera_test_hooks))]
extern crate std;

mod backend;
mod dims;
mod dsa;
pub mod generic;
mod hash;
#[cfg(feature = "pkcs8")]
mod key_encoding;
#[cfg(feature = "signature")]
pub mod ml_dsa;
mod ops;
mod params;
mod poly;
mod sets;
#[cfg(feature = "signature")]
mod signer;
/// Test-facing entry points (tests, benches, constant-time harnesses); not part of the API.
#[doc(hidden)]
pub mod testing;
mod unit;
mod xof4;

pub use sets::{ml_dsa_44, ml_dsa_65, ml_dsa_87};

/// The `signature` crate (version 3) the [`ml_dsa`] types implement, re-exported so callers
/// name the same version.
#[cfg(feature = "signature")]
pub use signature;
#[cfg(feature = "signature")]
pub use signer::MuHasher;

/// The `pkcs8` crate (version 0.11, with `spki` 0.8 and `der` 0.8 re-exported inside) the
/// [`ml_dsa`] types implement, re-exported so callers name the same version.
#[cfg(feature = "pkcs8")]
pub use pkcs8;

/// The pre-hash functions of HashML-DSA (FIPS 204 section 5.4), each with its OID. The caller
/// hashes the message and passes the digest (`sign_prehashed`, `verify_prehashed`); the
/// SHAKE digests are 256 bits (SHAKE128) and 512 bits (SHAKE256).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PreHash {
    /// SHA-224 (28-byte digest).
    Sha224,
    /// SHA-256 (32 bytes).
    Sha256,
    /// SHA-384 (48 bytes).
    Sha384,
    /// SHA-512 (64 bytes).
    Sha512,
    /// SHA-512/224 (28 bytes).
    Sha512_224,
    /// SHA-512/256 (32 bytes).
    Sha512_256,
    /// SHA3-224 (28 bytes).
    Sha3_224,
    /// SHA3-256 (32 bytes).
    Sha3_256,
    /// SHA3-384 (48 bytes).
    Sha3_384,
    /// SHA3-512 (64 bytes).
    Sha3_512,
    /// SHAKE128 with 256 bits of output (32 bytes).
    Shake128,
    /// SHAKE256 with 512 bits of output (64 bytes).
    Shake256,
}

impl PreHash {
    /// The DER encoding of the function's OID (2.16.840.1.101.3.4.2.x, NIST hash algorithms).
    pub const fn oid(self) -> [u8; 11] {
        let last = match self {
            PreHash::Sha256 => 0x01,
            PreHash::Sha384 => 0x02,
            PreHash::Sha512 => 0x03,
            PreHash::Sha224 => 0x04,
            PreHash::Sha512_224 => 0x05,
            PreHash::Sha512_256 => 0x06,
            PreHash::Sha3_224 => 0x07,
            PreHash::Sha3_256 => 0x08,
            PreHash::Sha3_384 => 0x09,
            PreHash::Sha3_512 => 0x0A,
            PreHash::Shake128 => 0x0B,
            PreHash::Shake256 => 0x0C,
        };
        [
            0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, last,
        ]
    }

    /// The digest length in bytes this function's pre-hash must have.
    pub const fn digest_len(self) -> usize {
        match self {
            PreHash::Sha224 | PreHash::Sha512_224 | PreHash::Sha3_224 => 28,
            PreHash::Sha256 | PreHash::Sha512_256 | PreHash::Sha3_256 | PreHash::Shake128 => 32,
            PreHash::Sha384 | PreHash::Sha3_384 => 48,
            PreHash::Sha512 | PreHash::Sha3_512 | PreHash::Shake256 => 64,
        }
    }
}

/// Errors of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An input (key, signature) of the wrong length.
    InvalidLength,
    /// An expanded signing key that fails the range checks of skDecode (s1, s2 outside
    /// `[-eta, eta]`) or whose t0 / tr do not match its rho, s1 and s2.
    InvalidKey,
    /// A context string longer than 255 bytes.
    ContextTooLong,
    /// A HashML-DSA digest whose length does not match the pre-hash function.
    InvalidDigestLength,
    /// A signature that does not verify (malformed hint encodings included).
    Verification,
    /// The signing loop rejected its maximum number of candidates
    /// (`testing::MAX_SIGN_ITERATIONS`; probability below 2^-256).
    SigningLoopBound,
    /// The random number generator failed (a `TryCryptoRng` returned an error).
    Rng,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "ML-DSA input of the wrong length",
            Error::InvalidKey => "invalid ML-DSA key",
            Error::ContextTooLong => "ML-DSA context longer than 255 bytes",
            Error::InvalidDigestLength => "HashML-DSA digest of the wrong length",
            Error::Verification => "ML-DSA signature verification failed",
            Error::SigningLoopBound => "ML-DSA signing loop bound reached",
            Error::Rng => "random number generator failure",
        })
    }
}

impl core::error::Error for Error {}
