//! The RustCrypto `signature` 3 traits on the types of [`crate::ecdsa`] (feature `signature`),
//! the set RustCrypto `p256::ecdsa` users call:
//!
//! - [`Signer`] and [`RandomizedSigner`] (hedged, RFC 6979 section 3.6) on [`SigningKey`], for
//!   [`Signature`] and [`DerSignature`];
//! - [`Verifier`] on [`VerifyingKey`] for both encodings;
//! - [`PrehashSigner`], [`RandomizedPrehashSigner`] and [`PrehashVerifier`] (digests of any
//!   length, leftmost 256 bits);
//! - [`KeypairRef`] (hence [`signature::Keypair`]) on [`SigningKey`];
//! - [`SignatureEncoding`]: the 64-byte array for [`Signature`], the inline DER buffer for
//!   [`DerSignature`].
//!
//! Each impl is a call of the inherent method, on the key's backend; failures (a signature
//! that does not verify, a generator error) are a `signature::Error` whose source is this
//! crate's [`Error`] when `signature/alloc` is on.
#![forbid(unsafe_code)]

use signature::hazmat::{PrehashSigner, PrehashVerifier, RandomizedPrehashSigner};
use signature::rand_core::TryCryptoRng;
use signature::{KeypairRef, RandomizedSigner, SignatureEncoding, Signer, Verifier};

use super::{DerSignature, Signature, SigningKey, VerifyingKey};
use crate::Error;

impl From<Error> for signature::Error {
    fn from(e: Error) -> Self {
        #[cfg(feature = "alloc")]
        {
            signature::Error::from_source(e)
        }
        #[cfg(not(feature = "alloc"))]
        {
            let _ = e;
            signature::Error::new()
        }
    }
}

/// Deterministic ECDSA (RFC 6979) of the SHA-256 of the message.
impl Signer<Signature> for SigningKey {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature, signature::Error> {
        Ok(SigningKey::sign(self, msg))
    }
}

/// Deterministic ECDSA (RFC 6979), DER-encoded.
impl Signer<DerSignature> for SigningKey {
    fn try_sign(&self, msg: &[u8]) -> Result<DerSignature, signature::Error> {
        Ok(SigningKey::sign(self, msg).into())
    }
}

/// Hedged ECDSA (RFC 6979 section 3.6).
impl RandomizedSigner<Signature> for SigningKey {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature, signature::Error> {
        Ok(SigningKey::try_sign_with_rng(self, rng, msg)?)
    }
}

/// Hedged ECDSA (RFC 6979 section 3.6), DER-encoded.
impl RandomizedSigner<DerSignature> for SigningKey {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<DerSignature, signature::Error> {
        Ok(SigningKey::try_sign_with_rng(self, rng, msg)?.into())
    }
}

/// Deterministic ECDSA of a digest ([`SigningKey::sign_prehash`]).
impl PrehashSigner<Signature> for SigningKey {
    fn sign_prehash(&self, prehash: &[u8]) -> Result<Signature, signature::Error> {
        Ok(SigningKey::sign_prehash(self, prehash)?)
    }
}

/// Deterministic ECDSA of a digest, DER-encoded.
impl PrehashSigner<DerSignature> for SigningKey {
    fn sign_prehash(&self, prehash: &[u8]) -> Result<DerSignature, signature::Error> {
        Ok(SigningKey::sign_prehash(self, prehash)?.into())
    }
}

/// Hedged ECDSA of a digest ([`SigningKey::sign_prehash_with_rng`]).
impl RandomizedPrehashSigner<Signature> for SigningKey {
    fn sign_prehash_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        prehash: &[u8],
    ) -> Result<Signature, signature::Error> {
        Ok(SigningKey::sign_prehash_with_rng(self, rng, prehash)?)
    }
}

/// ECDSA verification of the SHA-256 of the message.
impl Verifier<Signature> for VerifyingKey {
    fn verify(&self, msg: &[u8], signature: &Signature) -> Result<(), signature::Error> {
        Ok(VerifyingKey::verify(self, msg, signature)?)
    }
}

/// ECDSA verification of a DER signature (already parsed strictly).
impl Verifier<DerSignature> for VerifyingKey {
    fn verify(&self, msg: &[u8], signature: &DerSignature) -> Result<(), signature::Error> {
        Ok(VerifyingKey::verify(self, msg, signature.signature())?)
    }
}

/// ECDSA verification on a digest ([`VerifyingKey::verify_prehash`]).
impl PrehashVerifier<Signature> for VerifyingKey {
    fn verify_prehash(
        &self,
        prehash: &[u8],
        signature: &Signature,
    ) -> Result<(), signature::Error> {
        Ok(VerifyingKey::verify_prehash(self, prehash, signature)?)
    }
}

/// ECDSA verification of a DER signature on a digest.
impl PrehashVerifier<DerSignature> for VerifyingKey {
    fn verify_prehash(
        &self,
        prehash: &[u8],
        signature: &DerSignature,
    ) -> Result<(), signature::Error> {
        Ok(VerifyingKey::verify_prehash(
            self,
            prehash,
            signature.signature(),
        )?)
    }
}

/// The signing key holds its verifying key; [`signature::Keypair`] copies it.
impl KeypairRef for SigningKey {
    type VerifyingKey = VerifyingKey;
}

/// The 64-byte `r || s` form.
impl SignatureEncoding for Signature {
    type Repr = [u8; 64];
}

/// The DER form, in its inline buffer (no allocation).
impl SignatureEncoding for DerSignature {
    type Repr = DerSignature;

    fn encoded_len(&self) -> usize {
        self.as_bytes().len()
    }
}
