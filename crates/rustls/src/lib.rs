//! A rustls [`CryptoProvider`](rustls::crypto::CryptoProvider) on Tessera's primitives.
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod sign;
pub mod verify;

use alloc::vec;
use rustls::crypto::CryptoProvider;

/// The provider: every cipher suite, key-exchange group and signature algorithm of this crate.
pub fn provider() -> CryptoProvider {
    CryptoProvider {
        cipher_suites: vec![],
        kx_groups: vec![],
        signature_verification_algorithms: verify::SUPPORTED_SIG_ALGS,
        secure_random: &Rng,
        key_provider: sign::KEY_PROVIDER,
    }
}

/// Operating-system randomness (`getrandom`).
#[derive(Debug)]
struct Rng;

impl rustls::crypto::SecureRandom for Rng {
    fn fill(&self, buf: &mut [u8]) -> Result<(), rustls::crypto::GetRandomFailed> {
        getrandom::fill(buf).map_err(|_| rustls::crypto::GetRandomFailed)
    }
}
