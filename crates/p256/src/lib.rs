#![doc = include_str!("../README.md")]
#![no_std]
// Unsafe code lives only in the backend files of `backend/` (assembly, intrinsics); every other
// module also forbids it itself.
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

#[cfg(feature = "pkcs8")]
pub use ::pkcs8 as pkcs8_traits;

// Layers, each file using only files of the layers before it: the `const fn` Montgomery
// arithmetic (`fe`), the divsteps inversion (`inverse`), the field trait with inversion and square root (`field`), the scalars and
// their recodings (`scalar`), the complete formulas (`point`), the compile-time table
// (`table`), the scalar multiplications (`mul`), the dispatch (`backend`), the public API (here)
// and `testing`.
mod backend;
pub mod ecdsa;
mod fe;
mod field;
#[cfg(tessera_test_hooks)]
mod field_op;
mod inverse;
mod mul;
#[cfg(feature = "pkcs8")]
pub mod pkcs8;
mod point;
mod scalar;
mod table;
#[doc(hidden)]
pub mod testing;
#[cfg(test)]
mod tests;

use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop};

use backend::{Backend, Decompress, MulBase, MulVar};
use fe::P;
use point::Affine;
use scalar::Scalar;

/// Errors of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An encoding of the wrong length (a public key other than 33 or 65 bytes, a secret key
    /// or a signature half other than 32 bytes).
    InvalidLength,
    /// A SEC 1 point encoding whose first byte is not `0x02`, `0x03` (compressed) or `0x04`
    /// (uncompressed) for its length, or `0x00` (the identity, which is not a public key).
    InvalidEncoding,
    /// A coordinate not below the field prime `p` (a non-canonical encoding).
    CoordinateOutOfRange,
    /// Coordinates that do not satisfy the curve equation (or a compressed `x` with no
    /// point on the curve).
    NotOnCurve,
    /// A secret scalar outside `[1, n - 1]`.
    ScalarOutOfRange,
    /// The random number generator failed.
    Rng,
    /// A signature that does not verify (the name of the same failure in tessera-mldsa).
    Verification,
    /// An ECDSA signature with `r` or `s` outside `[1, n - 1]`.
    SignatureOutOfRange,
    /// A DER signature that is not the strict encoding of `SEQUENCE { INTEGER, INTEGER }`.
    InvalidDer,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "P-256 encoding has the wrong length",
            Error::InvalidEncoding => "P-256 point encoding has an invalid prefix byte",
            Error::CoordinateOutOfRange => "P-256 coordinate is not below the field prime",
            Error::NotOnCurve => "P-256 point is not on the curve",
            Error::ScalarOutOfRange => "P-256 secret scalar is not in [1, n - 1]",
            Error::Rng => "random number generator failed",
            Error::Verification => "ECDSA signature verification failed",
            Error::SignatureOutOfRange => "ECDSA signature value is not in [1, n - 1]",
            Error::InvalidDer => "ECDSA DER signature is malformed",
        })
    }
}

impl core::error::Error for Error {}

/// A P-256 public key: a point of the curve other than the identity. Every constructor checks
/// that (SEC 1 section 3.2.2 full public-key validation; the curve has prime order, so a point
/// of the curve is in the group).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PublicKey {
    point: Affine,
}

impl PublicKey {
    /// A key from its SEC 1 encoding (section 2.3.4): 65 bytes `04 || x || y` or 33 bytes
    /// `02/03 || x`. Coordinates must be below `p` and the point on the curve; the identity
    /// (`00`) is refused.
    pub fn from_sec1_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_sec1_bytes_with_backend(Backend::detect(), bytes)
    }

    /// [`PublicKey::from_sec1_bytes`] on an explicit backend (tests and benches).
    #[doc(hidden)]
    pub fn from_sec1_bytes_with_backend(backend: Backend, bytes: &[u8]) -> Result<Self, Error> {
        let coord = |b: &[u8]| -> Result<[u64; 4], Error> {
            let a = fe::from_be_bytes(b.try_into().map_err(|_| Error::InvalidLength)?);
            if fe::lt(&a, &P.m) == 0 {
                return Err(Error::CoordinateOutOfRange);
            }
            Ok(fe::to_mont(&a, &P))
        };
        match (bytes.len(), bytes.first()) {
            (65, Some(4)) => {
                let x = coord(&bytes[1..33])?;
                let y = coord(&bytes[33..65])?;
                let on = point::is_on_curve(tessera_cpu::Portable, &x, &y);
                if !bool::from(on) {
                    return Err(Error::NotOnCurve);
                }
                Ok(PublicKey {
                    point: Affine { x, y },
                })
            }
            (33, Some(p @ (2 | 3))) => {
                let x = coord(&bytes[1..33])?;
                let (y, ok) = backend.run(Decompress(&x, Choice::from(p & 1)));
                if !bool::from(ok) {
                    return Err(Error::NotOnCurve);
                }
                Ok(PublicKey {
                    point: Affine { x, y },
                })
            }
            (65 | 33, _) => Err(Error::InvalidEncoding),
            (1, Some(0)) => Err(Error::InvalidEncoding),
            _ => Err(Error::InvalidLength),
        }
    }

    /// The uncompressed SEC 1 encoding `04 || x || y` (65 bytes).
    pub fn to_uncompressed(&self) -> [u8; 65] {
        let mut out = [0u8; 65];
        out[0] = 4;
        out[1..33].copy_from_slice(&fe::to_be_bytes(&fe::from_mont(&self.point.x, &P)));
        out[33..].copy_from_slice(&fe::to_be_bytes(&fe::from_mont(&self.point.y, &P)));
        out
    }

    /// The compressed SEC 1 encoding `02/03 || x` (33 bytes; the prefix is 3 for an odd `y`).
    pub fn to_compressed(&self) -> [u8; 33] {
        let mut out = [0u8; 33];
        let y = fe::from_mont(&self.point.y, &P);
        out[0] = 2 | (y[0] & 1) as u8;
        out[1..].copy_from_slice(&fe::to_be_bytes(&fe::from_mont(&self.point.x, &P)));
        out
    }

    /// The x-coordinate, 32 bytes big-endian.
    pub fn x_bytes(&self) -> [u8; 32] {
        fe::to_be_bytes(&fe::from_mont(&self.point.x, &P))
    }

    pub(crate) fn point(&self) -> &Affine {
        &self.point
    }

    pub(crate) fn from_point(point: Affine) -> Self {
        PublicKey { point }
    }
}

impl core::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("PublicKey(")?;
        for b in self.to_compressed() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

impl TryFrom<&[u8]> for PublicKey {
    type Error = Error;
    /// [`PublicKey::from_sec1_bytes`].
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_sec1_bytes(bytes)
    }
}

/// A P-256 secret key: a scalar in `[1, n - 1]`. Wiped on drop. Keeps the backend chosen when
/// it was created.
#[derive(Clone)]
pub struct SecretKey {
    scalar: Scalar,
    backend: Backend,
}

impl SecretKey {
    /// A new key: 32 bytes of `rng` as a big-endian integer, drawn again while it is outside
    /// `[1, n - 1]` (rejection sampling, FIPS 186-5 appendix A.2.2; a draw is rejected with
    /// probability below 2^-32).
    pub fn random(rng: &mut impl rand_core::CryptoRng) -> Self {
        let mut b = [0u8; 32];
        loop {
            rng.fill_bytes(&mut b);
            if let Ok(k) = Self::from_bytes(&b) {
                b.zeroize();
                return k;
            }
        }
    }

    /// [`SecretKey::random`] from a fallible generator; [`Error::Rng`] if it fails.
    pub fn try_random(rng: &mut impl rand_core::TryCryptoRng) -> Result<Self, Error> {
        let mut b = [0u8; 32];
        loop {
            if rng.try_fill_bytes(&mut b).is_err() {
                b.zeroize();
                return Err(Error::Rng);
            }
            if let Ok(k) = Self::from_bytes(&b) {
                b.zeroize();
                return Ok(k);
            }
        }
    }

    /// The key of a 32-byte big-endian integer in `[1, n - 1]` ([`Error::ScalarOutOfRange`]
    /// otherwise; the range check is constant time, only its outcome branches).
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<Self, Error> {
        Self::from_bytes_with_backend(Backend::detect(), bytes)
    }

    /// [`SecretKey::from_bytes`] from a slice ([`Error::InvalidLength`] unless 32 bytes).
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes.try_into().map_err(|_| Error::InvalidLength)?)
    }

    /// [`SecretKey::from_bytes`] on an explicit backend (tests and benches).
    #[doc(hidden)]
    pub fn from_bytes_with_backend(backend: Backend, bytes: &[u8; 32]) -> Result<Self, Error> {
        let (mut s, in_range) = Scalar::from_be_bytes_checked(bytes);
        let ok = in_range & !s.is_zero();
        if !tessera_cpu::public_bool(bool::from(ok)) {
            s.zeroize();
            return Err(Error::ScalarOutOfRange);
        }
        Ok(SecretKey { scalar: s, backend })
    }

    /// The 32-byte big-endian encoding of the scalar.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.scalar.to_be_bytes()
    }

    /// The public key `d G`, by the fixed-base table on the key's backend.
    pub fn public_key(&self) -> PublicKey {
        let (p, _) = self.backend.run(MulBase(&self.scalar));
        PublicKey { point: p }
    }

    /// ECDH (SEC 1 section 3.3.1): the x-coordinate of `d Q`. `Q` is a validated point of the
    /// prime-order group and `d` is in `[1, n - 1]`, so the product is never the identity.
    /// Constant time in `d`.
    pub fn diffie_hellman(&self, their_public: &PublicKey) -> SharedSecret {
        let (mut p, _) = self.backend.run(MulVar(&self.scalar, &their_public.point));
        let mut x = fe::from_mont(&p.x, &P);
        let s = SharedSecret(fe::to_be_bytes(&x));
        x.zeroize();
        p.zeroize();
        s
    }

    pub(crate) fn scalar(&self) -> &Scalar {
        &self.scalar
    }

    pub(crate) fn backend(&self) -> Backend {
        self.backend
    }
}

impl ConstantTimeEq for SecretKey {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.scalar.ct_eq(&other.scalar)
    }
}

impl PartialEq for SecretKey {
    /// Constant-time comparison of the scalars.
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl Eq for SecretKey {}

impl core::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SecretKey").finish_non_exhaustive()
    }
}

impl Drop for SecretKey {
    fn drop(&mut self) {
        self.scalar.zeroize();
    }
}

impl ZeroizeOnDrop for SecretKey {}

impl Zeroize for SecretKey {
    /// Replaces the scalar by 1: the key keeps a valid scalar (every method stays defined) and
    /// no secret. Dropping a key wipes it already; this is for holders that wipe in place.
    fn zeroize(&mut self) {
        self.scalar.zeroize();
        self.scalar = Scalar::ONE;
    }
}

/// The ECDH result: the x-coordinate of the shared point, 32 bytes big-endian. Wiped on drop.
pub struct SharedSecret([u8; 32]);

impl SharedSecret {
    /// The 32 bytes of the shared secret.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl core::fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SharedSecret").finish_non_exhaustive()
    }
}

impl Drop for SharedSecret {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl ZeroizeOnDrop for SharedSecret {}

/// ECDH of `secret` with `their_public` ([`SecretKey::diffie_hellman`]).
pub fn diffie_hellman(secret: &SecretKey, their_public: &PublicKey) -> SharedSecret {
    secret.diffie_hellman(their_public)
}
