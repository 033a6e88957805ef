//! A rustls [`CryptoProvider`] on Tessera's primitives, in pure Rust.
//!
//! ```no_run
//! rustls::crypto::CryptoProvider::install_default(tessera_rustls::provider())
//!     .expect("no other provider installed yet");
//! // rustls::ClientConfig::builder() / ServerConfig::builder() now use Tessera.
//! ```
//!
//! What it provides, shaped as rustls' own `aws_lc_rs` module:
//!
//! - [`cipher_suite`]: TLS13_AES_128_GCM_SHA256, TLS13_AES_256_GCM_SHA384,
//!   TLS13_CHACHA20_POLY1305_SHA256 and (feature `tls12`) the six ECDHE_ECDSA / ECDHE_RSA
//!   suites with AES-128-GCM, AES-256-GCM and ChaCha20-Poly1305. Records are sealed and opened
//!   in place in rustls' record buffers.
//! - [`kx_group`]: X25519MLKEM768 (preferred), X25519, secp256r1, secp384r1 (RustCrypto's
//!   `p384`), MLKEM768, MLKEM1024.
//! - SHA-256/384, HMAC, HKDF (implemented directly on pre-keyed HMAC) and the TLS 1.2 PRF on
//!   `tessera-sha2`; QUIC packet and header protection for the TLS 1.3 suites.
//! - [`Ticketer`] (feature `std`): rotating ChaCha20-Poly1305 session-ticket keys.
//! - Randomness from the operating system (`getrandom`).
//! - Signing keys ([`sign`]) and certificate signature verification ([`verify`]).
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

mod aead;
pub mod cipher_suite;
mod hash;
mod kx;
mod quic;
pub mod sign;
#[cfg(feature = "std")]
mod ticketer;
pub mod verify;

use rustls::SupportedCipherSuite;
use rustls::crypto::{CryptoProvider, SupportedKxGroup};

#[cfg(feature = "std")]
pub use ticketer::Ticketer;

/// The key-exchange groups.
pub mod kx_group {
    pub use crate::kx::{MLKEM768, MLKEM1024, SECP256R1, SECP384R1, X25519, X25519MLKEM768};
}

/// The hash, HMAC and HKDF implementations (for tests and for building custom suites).
pub mod hash_impl {
    pub use crate::hash::{HKDF_SHA256, HKDF_SHA384, HMAC_SHA256, HMAC_SHA384, SHA256, SHA384};
}

/// The provider: every cipher suite and key-exchange group in the default order, this
/// crate's signature verification and key loading, and OS randomness. The same as
/// [`default_provider`].
pub fn provider() -> CryptoProvider {
    default_provider()
}

/// The default provider (as `rustls::crypto::aws_lc_rs::default_provider`).
pub fn default_provider() -> CryptoProvider {
    CryptoProvider {
        cipher_suites: DEFAULT_CIPHER_SUITES.to_vec(),
        kx_groups: DEFAULT_KX_GROUPS.to_vec(),
        signature_verification_algorithms: verify::SUPPORTED_SIG_ALGS,
        secure_random: &Rng,
        key_provider: sign::KEY_PROVIDER,
    }
}

/// The cipher suites offered by default, most preferred first: TLS 1.3 (AES-256-GCM,
/// AES-128-GCM, ChaCha20-Poly1305), then TLS 1.2 ECDSA and RSA suites in the same order.
pub static DEFAULT_CIPHER_SUITES: &[SupportedCipherSuite] = ALL_CIPHER_SUITES;

/// Every cipher suite of this crate.
pub static ALL_CIPHER_SUITES: &[SupportedCipherSuite] = &[
    cipher_suite::TLS13_AES_256_GCM_SHA384,
    cipher_suite::TLS13_AES_128_GCM_SHA256,
    cipher_suite::TLS13_CHACHA20_POLY1305_SHA256,
    #[cfg(feature = "tls12")]
    cipher_suite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    #[cfg(feature = "tls12")]
    cipher_suite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    #[cfg(feature = "tls12")]
    cipher_suite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    #[cfg(feature = "tls12")]
    cipher_suite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    #[cfg(feature = "tls12")]
    cipher_suite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    #[cfg(feature = "tls12")]
    cipher_suite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
];

/// The groups offered by default, most preferred first: X25519MLKEM768, X25519, secp256r1,
/// secp384r1, MLKEM768, MLKEM1024.
pub static DEFAULT_KX_GROUPS: &[&dyn SupportedKxGroup] = ALL_KX_GROUPS;

/// Every key-exchange group of this crate.
pub static ALL_KX_GROUPS: &[&dyn SupportedKxGroup] = &[
    kx_group::X25519MLKEM768,
    kx_group::X25519,
    kx_group::SECP256R1,
    kx_group::SECP384R1,
    kx_group::MLKEM768,
    kx_group::MLKEM1024,
];

/// Operating-system randomness (`getrandom`).
#[derive(Debug)]
struct Rng;

impl rustls::crypto::SecureRandom for Rng {
    fn fill(&self, buf: &mut [u8]) -> Result<(), rustls::crypto::GetRandomFailed> {
        getrandom::fill(buf).map_err(|_| rustls::crypto::GetRandomFailed)
    }
}
