//! The RustCrypto `signature` 3 traits on the generic types (feature `signature`), with the
//! trait set of RustCrypto `ml-dsa` 0.1 so code written against it runs on these types:
//!
//! - [`Signer`] and [`MultipartSigner`] on [`SigningKey`]: pure ML-DSA, deterministic variant
//!   (rnd = 0^32), empty context, as `ml-dsa` signs; byte-identical to its signatures.
//! - [`RandomizedSigner`] and [`RandomizedMultipartSigner`]: hedged, rnd from a
//!   `TryCryptoRng` (a generator failure is a `signature::Error`), empty context.
//! - [`Verifier`] and [`MultipartVerifier`] on [`VerifyingKey`]: empty context.
//! - [`KeypairRef`] (hence [`signature::Keypair`]) on [`SigningKey`].
//! - [`SignatureEncoding`] on [`Signature`] (`Repr` = `[u8; SIG_LEN]`).
//!
//! A context string goes through the inherent methods (`sign_deterministic`, `sign`,
//! `sign_randomized`, `verify`), as with `ml-dsa`. Every method runs on the key's dispatched
//! backend; a message in parts is hashed part by part (no copy). Failures (a signature that
//! does not verify, a generator error) are a `signature::Error` whose source is this crate's
//! [`Error`] when `alloc` is on.
#![forbid(unsafe_code)]

use signature::rand_core::TryCryptoRng;
use signature::{
    KeypairRef, MultipartSigner, MultipartVerifier, RandomizedMultipartSigner, RandomizedSigner,
    SignatureEncoding, Signer, Verifier,
};

use crate::Error;
use crate::generic::{ParameterSet, Signature, SigningKey, VerifyingKey};

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

/// Deterministic pure ML-DSA with the empty context (as `ml-dsa`'s `Signer`); contexts via
/// [`SigningKey::sign_deterministic`].
impl<P: ParameterSet> Signer<Signature<P>> for SigningKey<P> {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature<P>, signature::Error> {
        self.try_multipart_sign(&[msg])
    }
}

/// Deterministic pure ML-DSA with the empty context of the concatenated parts.
impl<P: ParameterSet> MultipartSigner<Signature<P>> for SigningKey<P> {
    fn try_multipart_sign(&self, msg: &[&[u8]]) -> Result<Signature<P>, signature::Error> {
        Ok(self.sign_parts::<NoRng>(msg, &[], None)?)
    }
}

/// Hedged pure ML-DSA with the empty context; contexts via [`SigningKey::sign_randomized`].
impl<P: ParameterSet> RandomizedSigner<Signature<P>> for SigningKey<P> {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature<P>, signature::Error> {
        self.try_multipart_sign_with_rng(rng, &[msg])
    }
}

/// Hedged pure ML-DSA with the empty context of the concatenated parts.
impl<P: ParameterSet> RandomizedMultipartSigner<Signature<P>> for SigningKey<P> {
    fn try_multipart_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[&[u8]],
    ) -> Result<Signature<P>, signature::Error> {
        Ok(self.sign_parts(msg, &[], Some(rng))?)
    }
}

/// Pure ML-DSA verification with the empty context; contexts via [`VerifyingKey::verify`].
impl<P: ParameterSet> Verifier<Signature<P>> for VerifyingKey<P> {
    fn verify(&self, msg: &[u8], signature: &Signature<P>) -> Result<(), signature::Error> {
        self.multipart_verify(&[msg], signature)
    }
}

/// Pure ML-DSA verification with the empty context of the concatenated parts.
impl<P: ParameterSet> MultipartVerifier<Signature<P>> for VerifyingKey<P> {
    fn multipart_verify(
        &self,
        msg: &[&[u8]],
        signature: &Signature<P>,
    ) -> Result<(), signature::Error> {
        let mu = self.compute_mu_parts(msg, &[])?;
        Ok(self.verify_mu(&mu, signature)?)
    }
}

/// The signing key holds its verifying key; [`signature::Keypair`] clones it.
impl<P: ParameterSet> KeypairRef for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;
}

/// `Repr` is the encoded signature `[u8; SIG_LEN]`.
impl<P: ParameterSet> SignatureEncoding for Signature<P> {
    type Repr = P::SigBytes;

    fn to_bytes(&self) -> P::SigBytes {
        *self.as_bytes()
    }

    fn encoded_len(&self) -> usize {
        P::SIG_LEN
    }
}

/// The generator type of the deterministic path (never called).
type NoRng = dyn TryCryptoRng<Error = core::convert::Infallible>;
