//! ECDSA over P-256 with SHA-256 (FIPS 186-5 section 6, SEC 1 section 4.1), with the names of
//! RustCrypto's `p256::ecdsa`: [`SigningKey`], [`VerifyingKey`], [`Signature`] (fixed-size
//! `r || s`) and [`DerSignature`].
//!
//! **Signing** (FIPS 186-5 section 6.4.1): `z` is the leftmost 256 bits of the digest
//! (`bits2int`, RFC 6979 section 2.3.2) reduced mod `n`; `R = k G` by the constant-time
//! fixed-base multiplication of the key's backend; `r = x(R) mod n`;
//! `s = k^(-1) (z + r d) mod n`, with a constant-time inversion of `k` (Bernstein-Yang divsteps, `crate::inverse`). The nonce `k`
//! is:
//! - deterministic ([`SigningKey::sign`], [`SigningKey::sign_prehash`]): RFC 6979 section 3.2,
//!   HMAC_DRBG with HMAC-SHA256 seeded with `int2octets(d) || bits2octets(h)`; the signatures
//!   are those of RFC 6979 appendix A.2.5 and of every other RFC 6979 implementation;
//! - hedged ([`SigningKey::sign_with_rng`], [`SigningKey::try_sign_with_rng`]): RFC 6979
//!   section 3.6, 32 bytes `k'` from the generator appended to that seed
//!   (`K = HMAC_K(V || 0x00 || int2octets(d) || bits2octets(h) || k')`, the same for the
//!   `0x01` step). A good generator makes `k` uniformly random; a broken or repeating one still
//!   leaves the deterministic construction's guarantee (distinct messages get unrelated
//!   nonces). This is the construction of RustCrypto `ecdsa`'s randomized signer, so the two
//!   give the same signature for the same generator output.
//!
//! The nonce generator's HMAC is HMAC-SHA256 whatever the digest given to the prehash methods
//! (as in RustCrypto `p256`): for a SHA-384 or SHA-512 digest the signatures are valid but are
//! not RFC 6979's, which would use HMAC with that hash.
//!
//! If `r` or `s` is 0 (probability about 2^-256) the generator continues (RFC 6979 step h.3).
//! The nonce, the DRBG state, `k G`, `k^(-1)` and the intermediate products are wiped (values
//! the compiler keeps only in registers or spill slots are not reached). Signatures are returned
//! as computed; [`Signature::normalize_s`] gives the low-s form where a protocol requires it.
//!
//! **Verification** (FIPS 186-5 section 6.4.2): `r` and `s` in `[1, n - 1]` (every
//! [`Signature`] holds such values; parsing refuses others with
//! [`Error::SignatureOutOfRange`]); `w = s^(-1)`, `u1 = z w`, `u2 = r w`;
//! `R = u1 G + u2 Q` by the variable-time double-base multiplication (every input is public);
//! accepted iff `R` is not the identity and `x(R) mod n = r`, else [`Error::Verification`].
//! Both `s` and `n - s` verify (ECDSA's malleability), as in FIPS 186-5.
#![forbid(unsafe_code)]

mod rfc6979;
mod sig;
#[cfg(feature = "signature")]
mod traits;

pub use sig::{DerSignature, MAX_DER_LEN, Signature};
/// The RustCrypto `signature` crate (feature `signature`), whose traits these types implement.
#[cfg(feature = "signature")]
pub use signature;

use zeroize::Zeroize;

use crate::backend::{Backend, MulBase, VerifyVartime};
use crate::fe::{self, P};
use crate::scalar::Scalar;
use crate::{Error, PublicKey, SecretKey};

/// `bits2int` of a digest for a 256-bit order: its leftmost 256 bits as an integer (a shorter
/// digest is the integer of all its bits), 32 bytes big-endian (RFC 6979 section 2.3.2, FIPS
/// 186-5 section 6.4.1 step 4).
pub(crate) fn bits2int(digest: &[u8]) -> [u8; 32] {
    let mut h = [0u8; 32];
    if digest.len() >= 32 {
        h.copy_from_slice(&digest[..32]);
    } else {
        h[32 - digest.len()..].copy_from_slice(digest);
    }
    h
}

/// `x(R) mod n` for an affine point (`x < p < 2n`, one reduction).
fn x_mod_n(x_mont: &[u64; 4]) -> Scalar {
    Scalar::reduce_be_bytes(&fe::to_be_bytes(&fe::from_mont(x_mont, &P)))
}

/// One signing attempt with the nonce `k` (in `[1, n - 1]`) on `backend`: `None` when `r` or
/// `s` is 0 (the caller draws another `k`). Wipes `R`, `k^(-1)` and the products.
pub(crate) fn sign_with_k(
    backend: Backend,
    d: &Scalar,
    z: &Scalar,
    k: &Scalar,
) -> Option<Signature> {
    let (mut big_r, _) = backend.run(MulBase(k));
    let r = x_mod_n(&big_r.x);
    big_r.zeroize();
    let mut k_inv = k.invert();
    let mut rd = r.mul(d);
    let mut sum = z.add(&rd);
    let s = k_inv.mul(&sum);
    k_inv.zeroize();
    rd.zeroize();
    sum.zeroize();
    // r and s are the published signature: branching on their being 0 releases nothing.
    if tessera_cpu::public_bool(bool::from(r.is_zero() | s.is_zero())) {
        return None;
    }
    Some(Signature::from_scalar_values(&r, &s))
}

/// An ECDSA P-256 verifying key: a validated public key and the backend it computes on.
/// Keys are equal when their points are.
#[derive(Clone, Copy)]
pub struct VerifyingKey {
    key: PublicKey,
    backend: Backend,
}

impl VerifyingKey {
    /// The key of a SEC 1 encoding, compressed (33 bytes) or uncompressed (65 bytes), with
    /// [`PublicKey::from_sec1_bytes`]'s checks and errors.
    pub fn from_sec1_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_sec1_bytes_with_backend(Backend::detect(), bytes)
    }

    /// [`VerifyingKey::from_sec1_bytes`] on an explicit backend (tests and benches).
    #[doc(hidden)]
    pub fn from_sec1_bytes_with_backend(backend: Backend, bytes: &[u8]) -> Result<Self, Error> {
        let key = PublicKey::from_sec1_bytes_with_backend(backend, bytes)?;
        Ok(VerifyingKey { key, backend })
    }

    /// The public key.
    pub fn as_public_key(&self) -> &PublicKey {
        &self.key
    }

    /// The uncompressed SEC 1 encoding `04 || x || y` (65 bytes).
    pub fn to_uncompressed(&self) -> [u8; 65] {
        self.key.to_uncompressed()
    }

    /// The compressed SEC 1 encoding `02/03 || x` (33 bytes).
    pub fn to_compressed(&self) -> [u8; 33] {
        self.key.to_compressed()
    }

    /// Verifies `signature` on `msg` (hashed with SHA-256); [`Error::Verification`] if it does
    /// not verify.
    pub fn verify(&self, msg: &[u8], signature: &Signature) -> Result<(), Error> {
        self.verify_bits(&tessera_sha2::sha256(msg), signature)
    }

    /// Verifies a signature on a message digest (of any length: its leftmost 256 bits are
    /// used, FIPS 186-5 section 6.4.2); [`Error::InvalidLength`] for an empty digest.
    pub fn verify_prehash(&self, prehash: &[u8], signature: &Signature) -> Result<(), Error> {
        if prehash.is_empty() {
            return Err(Error::InvalidLength);
        }
        self.verify_bits(&bits2int(prehash), signature)
    }

    /// Verifies a DER-encoded signature on `msg`: the parse errors of
    /// [`Signature::from_der`], then [`VerifyingKey::verify`]'s.
    pub fn verify_der(&self, msg: &[u8], der: &[u8]) -> Result<(), Error> {
        self.verify(msg, &Signature::from_der(der)?)
    }

    /// Steps 3 to 8 of FIPS 186-5 section 6.4.2 on the `bits2int` of the digest.
    fn verify_bits(&self, h: &[u8; 32], signature: &Signature) -> Result<(), Error> {
        let z = Scalar::reduce_be_bytes(h);
        let (r, s) = signature.scalars();
        // Step 1 holds for every `Signature`; checked again as the check of record.
        if bool::from(r.is_zero() | s.is_zero()) {
            return Err(Error::SignatureOutOfRange);
        }
        let w = s.invert();
        let (u1, u2) = (z.mul(&w), r.mul(&w));
        let ok = self.backend.run(VerifyVartime {
            u1: &u1,
            u2: &u2,
            q: self.key.point(),
            r: &r,
        });
        if !ok {
            return Err(Error::Verification);
        }
        Ok(())
    }
}

impl PartialEq for VerifyingKey {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for VerifyingKey {}

impl From<PublicKey> for VerifyingKey {
    /// The verifying key of a public key, on the detected backend.
    fn from(key: PublicKey) -> Self {
        VerifyingKey {
            key,
            backend: Backend::detect(),
        }
    }
}

impl From<VerifyingKey> for PublicKey {
    fn from(vk: VerifyingKey) -> Self {
        vk.key
    }
}

impl AsRef<PublicKey> for VerifyingKey {
    fn as_ref(&self) -> &PublicKey {
        &self.key
    }
}

impl TryFrom<&[u8]> for VerifyingKey {
    type Error = Error;
    /// [`VerifyingKey::from_sec1_bytes`].
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_sec1_bytes(bytes)
    }
}

impl core::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("VerifyingKey").field(&self.key).finish()
    }
}

/// An ECDSA P-256 signing key: the secret key and its verifying key (computed once, when the
/// key is built). The secret is wiped on drop.
#[derive(Clone, PartialEq, Eq)]
pub struct SigningKey {
    secret: SecretKey,
    verifying_key: VerifyingKey,
}

impl SigningKey {
    /// A new random key ([`SecretKey::random`]).
    pub fn random(rng: &mut impl rand_core::CryptoRng) -> Self {
        SecretKey::random(rng).into()
    }

    /// A new random key from a fallible generator; [`Error::Rng`] if it fails.
    pub fn try_random(rng: &mut impl rand_core::TryCryptoRng) -> Result<Self, Error> {
        Ok(SecretKey::try_random(rng)?.into())
    }

    /// The key of a 32-byte big-endian scalar in `[1, n - 1]` ([`Error::ScalarOutOfRange`]
    /// otherwise).
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<Self, Error> {
        Ok(SecretKey::from_bytes(bytes)?.into())
    }

    /// [`SigningKey::from_bytes`] from a slice ([`Error::InvalidLength`] unless 32 bytes).
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        Ok(SecretKey::from_slice(bytes)?.into())
    }

    /// [`SigningKey::from_bytes`] on an explicit backend (tests and benches).
    #[doc(hidden)]
    pub fn from_bytes_with_backend(backend: Backend, bytes: &[u8; 32]) -> Result<Self, Error> {
        Ok(SecretKey::from_bytes_with_backend(backend, bytes)?.into())
    }

    /// The 32-byte big-endian scalar (a secret: wipe it after use).
    pub fn to_bytes(&self) -> [u8; 32] {
        self.secret.to_bytes()
    }

    /// The verifying key (computed when this key was built).
    pub fn verifying_key(&self) -> &VerifyingKey {
        &self.verifying_key
    }

    /// The secret key.
    pub fn as_secret_key(&self) -> &SecretKey {
        &self.secret
    }

    /// The deterministic signature (RFC 6979) of `msg` hashed with SHA-256.
    pub fn sign(&self, msg: &[u8]) -> Signature {
        self.sign_bits(&tessera_sha2::sha256(msg), &[])
    }

    /// The deterministic signature (RFC 6979) of a message digest. Any length is taken: its
    /// leftmost 256 bits are signed (FIPS 186-5 section 6.4.1 step 4, RFC 6979 section
    /// 2.3.2), so a SHA-384 or SHA-512 digest is truncated; [`Error::InvalidLength`] for an
    /// empty one. The digest must come from a collision-resistant hash: signing chosen values
    /// here is how ECDSA forgeries are made.
    pub fn sign_prehash(&self, prehash: &[u8]) -> Result<Signature, Error> {
        if prehash.is_empty() {
            return Err(Error::InvalidLength);
        }
        Ok(self.sign_bits(&bits2int(prehash), &[]))
    }

    /// The hedged signature (RFC 6979 section 3.6, see the module docs) of `msg` hashed with
    /// SHA-256: 32 bytes from `rng` enter the nonce generator's seed.
    pub fn sign_with_rng<R: rand_core::CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Signature {
        let mut extra = [0u8; 32];
        rng.fill_bytes(&mut extra);
        let sig = self.sign_bits(&tessera_sha2::sha256(msg), &extra);
        extra.zeroize();
        sig
    }

    /// [`SigningKey::sign_with_rng`] from a fallible generator; [`Error::Rng`] if it fails.
    pub fn try_sign_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature, Error> {
        self.try_sign_prehash_bits_with_rng(rng, &tessera_sha2::sha256(msg))
    }

    /// The hedged signature of a message digest ([`SigningKey::sign_prehash`]'s rules);
    /// [`Error::Rng`] if the generator fails.
    pub fn sign_prehash_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        prehash: &[u8],
    ) -> Result<Signature, Error> {
        if prehash.is_empty() {
            return Err(Error::InvalidLength);
        }
        self.try_sign_prehash_bits_with_rng(rng, &bits2int(prehash))
    }

    fn try_sign_prehash_bits_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        h: &[u8; 32],
    ) -> Result<Signature, Error> {
        let mut extra = [0u8; 32];
        if rng.try_fill_bytes(&mut extra).is_err() {
            extra.zeroize();
            return Err(Error::Rng);
        }
        let sig = self.sign_bits(h, &extra);
        extra.zeroize();
        Ok(sig)
    }

    /// FIPS 186-5 section 6.4.1 on the `bits2int` of the digest, with the RFC 6979 nonce
    /// seeded with `extra` (section 3.6; empty: deterministic).
    fn sign_bits(&self, h: &[u8; 32], extra: &[u8]) -> Signature {
        let z = Scalar::reduce_be_bytes(h);
        let d = self.secret.scalar();
        let mut x = d.to_be_bytes();
        let mut drbg = rfc6979::Drbg::new(&x, &z.to_be_bytes(), extra);
        x.zeroize();
        loop {
            let mut k = drbg.next_k();
            let sig = sign_with_k(self.secret.backend(), d, &z, &k);
            k.zeroize();
            if let Some(sig) = sig {
                return sig;
            }
        }
    }
}

impl From<SecretKey> for SigningKey {
    /// The signing key of a secret key (its public key computed once, on the key's backend).
    fn from(secret: SecretKey) -> Self {
        let verifying_key = VerifyingKey {
            key: secret.public_key(),
            backend: secret.backend(),
        };
        SigningKey {
            secret,
            verifying_key,
        }
    }
}

impl From<&SecretKey> for SigningKey {
    fn from(secret: &SecretKey) -> Self {
        secret.clone().into()
    }
}

impl AsRef<VerifyingKey> for SigningKey {
    fn as_ref(&self) -> &VerifyingKey {
        &self.verifying_key
    }
}

impl TryFrom<&[u8]> for SigningKey {
    type Error = Error;
    /// [`SigningKey::from_slice`].
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningKey")
            .field("verifying_key", &self.verifying_key)
            .finish_non_exhaustive()
    }
}

impl zeroize::ZeroizeOnDrop for SigningKey {}
