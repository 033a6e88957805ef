#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

/// SHA-3, SHAKE and TurboSHAKE (the `tessera-keccak` crate).
#[cfg(feature = "sha3")]
pub use tessera_keccak as sha3;

/// SHA-2, HMAC and HKDF (the `tessera-sha2` crate).
#[cfg(feature = "sha2")]
pub use tessera_sha2 as sha2;

/// AES-GCM (the `tessera-aes-gcm` crate).
#[cfg(feature = "aes-gcm")]
pub use tessera_aes_gcm as aes_gcm;

/// ChaCha20-Poly1305 and XChaCha20-Poly1305 (the `tessera-chacha20poly1305` crate).
#[cfg(feature = "chacha20poly1305")]
pub use tessera_chacha20poly1305 as chacha20poly1305;

/// X25519 (the `tessera-x25519` crate).
#[cfg(feature = "x25519")]
pub use tessera_x25519 as x25519;

/// ML-KEM (the `tessera-mlkem` crate).
#[cfg(feature = "mlkem")]
pub use tessera_mlkem as mlkem;

/// ML-DSA (the `tessera-mldsa` crate).
#[cfg(feature = "mldsa")]
pub use tessera_mldsa as mldsa;

/// P-256 ECDH and ECDSA ([`tessera_p256`]).
#[cfg(feature = "p256")]
pub use tessera_p256 as p256;
/// X-Wing, the ML-KEM-768 + X25519 hybrid KEM (the `tessera-xwing` crate).
#[cfg(feature = "xwing")]
pub use tessera_xwing as xwing;

#[cfg(feature = "hpke")]
pub mod hpke;
