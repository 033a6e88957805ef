#![doc = include_str!("../README.md")]
#![no_std]
// Unsafe code lives only in the SIMD backend files of `backend/` (the MULX/ADX assembly, the
// AVX-512 IFMA intrinsics); every other module also forbids it itself.
#![deny(unsafe_code)]

#[cfg(any(feature = "std", test))]
extern crate std;

#[cfg(feature = "kem")]
pub use ::kem as kem_traits;
#[cfg(feature = "pkcs8")]
pub use ::pkcs8 as pkcs8_traits;

// Layers, each file using only files of the layers before it: the test tap and the field trait
// with its shapes (`tap`, `field`), the scalar's recodings (`scalar`), the representations and
// the constant table (`fe51`, `table`, `fe64`), the inversion (`inverse`, and the test hooks'
// `field_op` over it), the backends' fields and the IFMA four-way code (`backend/`), the
// generic algorithms (`ladder`, `base`), the dispatch (`backend`), the public API (here) and
// `testing`.
mod backend;
mod base;
mod fe51;
// The x86 backend and the inversion use part of it (the rest is the aarch64 field and the
// tests' reference).
#[cfg_attr(not(any(target_arch = "aarch64", test)), allow(dead_code))]
mod fe64;
mod field;
#[cfg(tessera_test_hooks)]
mod field_op;
mod inverse;
#[cfg(feature = "kem")]
pub mod kem;
mod ladder;
#[cfg(feature = "pkcs8")]
pub mod pkcs8;
mod scalar;
mod table;
mod tap;
#[doc(hidden)]
pub mod testing;
#[cfg(test)]
mod tests;

use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop};

use backend::{Backend, BaseMult, ScalarMult};

/// The u-coordinate of the X25519 base point, 9 (RFC 7748 section 4.1).
pub const X25519_BASEPOINT_BYTES: [u8; 32] = {
    let mut b = [0u8; 32];
    b[0] = 9;
    b
};

/// Errors of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The shared secret is all zero: the peer's public key is a point of small order (or
    /// its twist equivalent), so the result does not depend on our secret (RFC 7748
    /// section 6.1; RFC 9180 section 7.1.4 requires rejecting it).
    NonContributory,
    /// A public key that is not 32 bytes long.
    InvalidLength,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::NonContributory => "X25519 shared secret is all zero (small-order public key)",
            Error::InvalidLength => "X25519 public key must be 32 bytes",
        })
    }
}

impl core::error::Error for Error {}

/// The X25519 function of RFC 7748 section 5: `scalar` is clamped, the top bit of `u` is
/// masked, a non-canonical `u` (in `[p, 2^255)`) is reduced, and no check is made on the
/// output (it is all zero for a small-order `u`; [`StaticSecret::diffie_hellman`] rejects
/// that). Constant time in `scalar`; runs on the best backend of this CPU.
pub fn x25519(scalar: [u8; 32], u: [u8; 32]) -> [u8; 32] {
    let mut k = scalar;
    let out = Backend::detect().run(ScalarMult { k: &k, u: &u });
    k.zeroize();
    out
}

/// `x25519(scalar, 9)`, the public key of `scalar`, through the fixed-base table (several
/// times faster than the ladder, the same bytes).
pub fn x25519_base(scalar: [u8; 32]) -> [u8; 32] {
    let mut k = scalar;
    let out = Backend::detect().run(BaseMult { k: &k });
    k.zeroize();
    out
}

/// [`x25519`] with the scalar taken and the result written by reference: no copy of the
/// scalar or of the shared secret is made outside memory the caller owns (and can wipe), as a
/// by-value argument's temporary would be. Constant time in `scalar`.
pub fn x25519_into(scalar: &[u8; 32], u: &[u8; 32], out: &mut [u8; 32]) {
    *out = Backend::detect().run(ScalarMult { k: scalar, u });
}

/// [`x25519_base`] with the scalar taken and the public key written by reference (see
/// [`x25519_into`]).
pub fn x25519_base_into(scalar: &[u8; 32], out: &mut [u8; 32]) {
    *out = Backend::detect().run(BaseMult { k: scalar });
}

/// `X25519(k, u)` and whether it is all zero, tested in constant time.
fn shared_ct(backend: Backend, k: &[u8; 32], pk: &PublicKey) -> (SharedSecret, subtle::Choice) {
    let s = SharedSecret(backend.run(ScalarMult { k, u: &pk.0 }));
    let zero = s.0.ct_eq(&[0u8; 32]);
    (s, zero)
}

/// `X25519(k, u)` with the RFC 7748 section 6.1 / RFC 9180 section 7.1.4 check: an all-zero
/// result is [`Error::NonContributory`]. The test is constant time; only its outcome (which
/// depends on the public key alone: the result is zero exactly for the small-order points)
/// decides the branch.
fn shared(backend: Backend, k: &[u8; 32], pk: &PublicKey) -> Result<SharedSecret, Error> {
    let (s, zero) = shared_ct(backend, k, pk);
    if bool::from(zero) {
        return Err(Error::NonContributory);
    }
    Ok(s)
}

/// The bytes and the backend of a secret scalar: what both secret types keep. Wiped on drop.
#[derive(Clone)]
struct Scalar {
    bytes: [u8; 32],
    backend: Backend,
}

impl Scalar {
    /// 32 bytes of `rng` on the detected backend.
    fn random(rng: &mut impl rand_core::CryptoRng) -> Self {
        let mut s = Scalar {
            bytes: [0; 32],
            backend: Backend::detect(),
        };
        rng.fill_bytes(&mut s.bytes);
        s
    }

    /// X25519 with the peer's public key, with the all-zero check.
    fn diffie_hellman(&self, their_public: &PublicKey) -> Result<SharedSecret, Error> {
        shared(self.backend, &self.bytes, their_public)
    }

    /// `X25519(secret, 9)`, by the fixed-base table.
    fn public_key(&self) -> PublicKey {
        PublicKey(self.backend.run(BaseMult { k: &self.bytes }))
    }
}

/// A secret scalar that can be used for any number of key agreements (and serialized).
/// Wiped on drop. Keeps the backend chosen when it was created.
///
/// `Clone` is kept, as `x25519-dalek`'s `StaticSecret` has it (code written for it clones
/// long-term keys); each copy is wiped on its own drop.
#[derive(Clone)]
pub struct StaticSecret(Scalar);

impl StaticSecret {
    /// A new secret from 32 bytes of `rng` (`rand_core` 0.10 `CryptoRng`).
    pub fn random(rng: &mut impl rand_core::CryptoRng) -> Self {
        Self(Scalar::random(rng))
    }

    /// The secret from its bytes on an explicit backend (tests and benches).
    #[doc(hidden)]
    pub fn new_with_backend(backend: Backend, bytes: [u8; 32]) -> Self {
        Self(Scalar { bytes, backend })
    }

    /// The 32 bytes the secret was made from (unclamped, as given: clamping happens in each
    /// scalar multiplication).
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.bytes
    }

    /// The 32 bytes the secret was made from.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0.bytes
    }

    /// X25519 with the peer's public key; [`Error::NonContributory`] when the result is all
    /// zero (the check is constant time).
    pub fn diffie_hellman(&self, their_public: &PublicKey) -> Result<SharedSecret, Error> {
        self.0.diffie_hellman(their_public)
    }
}

impl From<[u8; 32]> for StaticSecret {
    fn from(bytes: [u8; 32]) -> Self {
        Self::new_with_backend(Backend::detect(), bytes)
    }
}

impl core::fmt::Debug for StaticSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StaticSecret").finish_non_exhaustive()
    }
}

/// A secret scalar for exactly one key agreement: [`EphemeralSecret::diffie_hellman`]
/// consumes it. Not `Clone`, not serializable. Wiped on drop.
pub struct EphemeralSecret(Scalar);

impl EphemeralSecret {
    /// A new secret from 32 bytes of `rng` (`rand_core` 0.10 `CryptoRng`).
    pub fn random(rng: &mut impl rand_core::CryptoRng) -> Self {
        Self(Scalar::random(rng))
    }

    /// The secret from given bytes on an explicit backend (the deterministic form, for test
    /// vectors and benches).
    #[doc(hidden)]
    pub fn new_with_backend(backend: Backend, bytes: [u8; 32]) -> Self {
        Self(Scalar { bytes, backend })
    }

    /// X25519 with the peer's public key, consuming the secret; [`Error::NonContributory`]
    /// when the result is all zero (the check is constant time).
    pub fn diffie_hellman(self, their_public: &PublicKey) -> Result<SharedSecret, Error> {
        self.0.diffie_hellman(their_public)
    }
}

impl core::fmt::Debug for EphemeralSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EphemeralSecret").finish_non_exhaustive()
    }
}

/// An X25519 public key: a u-coordinate, 32 bytes. Every 32-byte string is accepted (RFC 7748
/// section 5: the top bit is ignored, non-canonical values are reduced); small-order keys are
/// caught by `diffie_hellman` through the all-zero check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PublicKey([u8; 32]);

impl PublicKey {
    /// The 32 bytes of the key.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The 32 bytes of the key.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0
    }
}

impl From<[u8; 32]> for PublicKey {
    fn from(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }
}

impl TryFrom<&[u8]> for PublicKey {
    type Error = Error;

    /// A key from a slice; [`Error::InvalidLength`] unless it is 32 bytes.
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        let b: [u8; 32] = bytes.try_into().map_err(|_| Error::InvalidLength)?;
        Ok(Self(b))
    }
}

impl From<&StaticSecret> for PublicKey {
    /// The public key `X25519(secret, 9)`, by the fixed-base table on the secret's backend.
    fn from(secret: &StaticSecret) -> Self {
        secret.0.public_key()
    }
}

impl From<&EphemeralSecret> for PublicKey {
    /// The public key `X25519(secret, 9)`, by the fixed-base table on the secret's backend.
    fn from(secret: &EphemeralSecret) -> Self {
        secret.0.public_key()
    }
}

impl AsRef<[u8]> for PublicKey {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// The result of a key agreement (never all zero). Wiped on drop.
pub struct SharedSecret([u8; 32]);

impl SharedSecret {
    /// The 32 bytes of the shared secret.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The 32 bytes of the shared secret.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0
    }
}

impl core::fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SharedSecret").finish_non_exhaustive()
    }
}

/// Wipes the secret bytes when the value is dropped.
macro_rules! wipe_on_drop {
    ($($t:ident . $f:tt),*) => {$(
        impl Drop for $t {
            fn drop(&mut self) {
                self.$f.zeroize();
            }
        }
    )*};
}
wipe_on_drop!(Scalar.bytes, SharedSecret.0);
// The secret types wipe through their `Scalar`.
impl ZeroizeOnDrop for StaticSecret {}
impl ZeroizeOnDrop for EphemeralSecret {}
impl ZeroizeOnDrop for SharedSecret {}
