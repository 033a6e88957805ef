//! The RustCrypto `signature` 3 traits on the types of [`crate::ml_dsa`] (feature
//! `signature`), with the trait set of RustCrypto `ml-dsa` 0.1 so code written against it runs
//! on these types:
//!
//! - [`Signer`] and [`MultipartSigner`] on [`SigningKey`]: pure ML-DSA, deterministic variant
//!   (rnd = 0^32), empty context, as `ml-dsa` signs; byte-identical to its signatures.
//! - [`RandomizedSigner`] and [`RandomizedMultipartSigner`]: hedged, rnd from a
//!   `TryCryptoRng` (a generator failure is a `signature::Error`), empty context.
//! - [`Verifier`] and [`MultipartVerifier`] on [`VerifyingKey`]: empty context.
//! - [`KeypairRef`] (hence [`signature::Keypair`]) on [`SigningKey`].
//! - [`DigestSigner`], [`RandomizedDigestSigner`] and [`DigestVerifier`] over [`MuHasher`]
//!   (where `ml-dsa` uses `shake::Shake256`): the closure absorbs the message into SHAKE256
//!   already holding `tr || 0 || 0` (empty context), and mu is its first 64 output bytes; the
//!   same signatures as [`Signer`] on the concatenated message.
//!
//! A context string goes through the inherent methods (`sign_deterministic`,
//! `sign_randomized`, `verify_with_context`), as with `ml-dsa`. Every method runs on the key's
//! dispatched backend; a message in parts is hashed part by part (no copy). Failures (a
//! signature that does not verify, a generator error) are a `signature::Error` whose source is
//! this crate's [`Error`] when `alloc` is on.
#![forbid(unsafe_code)]

use signature::rand_core::TryCryptoRng;
use signature::{
    DigestSigner, DigestVerifier, KeypairRef, MultipartSigner, MultipartVerifier,
    RandomizedDigestSigner, RandomizedMultipartSigner, RandomizedSigner, Signer, Verifier,
};

use crate::Error;
use crate::generic::ParameterSet;
use crate::ml_dsa::{NoRng, Signature, SigningKey, VerifyingKey};

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
        Ok(self.sign_parts::<NoRng>(msg, None)?)
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
        Ok(self.sign_parts(msg, Some(rng))?)
    }
}

/// Pure ML-DSA verification with the empty context; contexts via [`VerifyingKey::verify_with_context`].
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
        let vk = self.native();
        let mu = vk.compute_mu_parts(msg, &[])?;
        Ok(vk.verify_mu(&mu, signature.native())?)
    }
}

/// The signing key holds its verifying key; [`signature::Keypair`] clones it.
impl<P: ParameterSet> KeypairRef for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;
}

/// The message hasher of the `Digest*` trait impls: SHAKE256 on the key's Keccak backend
/// holding `tr || 0 || 0` (pure ML-DSA, empty context). The signer's or verifier's closure
/// absorbs the message with [`signature::digest::Update`]; the first 64 output bytes are mu.
/// It has the role of `shake::Shake256` in RustCrypto `ml-dsa`'s impls.
#[derive(Clone, Debug)]
pub struct MuHasher(tessera_keccak::Shake256);

impl signature::digest::Update for MuHasher {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
}

impl MuHasher {
    fn new<P: ParameterSet>(vk: &crate::generic::VerifyingKey<P>) -> Self {
        MuHasher(vk.mu_shake())
    }

    fn mu(&self) -> [u8; 64] {
        let mut mu = [0u8; 64];
        self.0.finalize_xof().read(&mut mu);
        mu
    }
}

/// Deterministic pure ML-DSA, empty context, of the message the closure absorbs.
impl<P: ParameterSet> DigestSigner<MuHasher, Signature<P>> for SigningKey<P> {
    fn try_sign_digest<F: Fn(&mut MuHasher) -> Result<(), signature::Error>>(
        &self,
        f: F,
    ) -> Result<Signature<P>, signature::Error> {
        let mut h = MuHasher::new(self.native_vk());
        f(&mut h)?;
        Ok(self.sign_mu::<NoRng>(&h.mu(), None)?)
    }
}

/// Hedged pure ML-DSA, empty context, of the message the closure absorbs.
impl<P: ParameterSet> RandomizedDigestSigner<MuHasher, Signature<P>> for SigningKey<P> {
    fn try_sign_digest_with_rng<
        R: TryCryptoRng + ?Sized,
        F: Fn(&mut MuHasher) -> Result<(), signature::Error>,
    >(
        &self,
        rng: &mut R,
        f: F,
    ) -> Result<Signature<P>, signature::Error> {
        let mut h = MuHasher::new(self.native_vk());
        f(&mut h)?;
        Ok(self.sign_mu(&h.mu(), Some(rng))?)
    }
}

/// Pure ML-DSA verification, empty context, of the message the closure absorbs.
impl<P: ParameterSet> DigestVerifier<MuHasher, Signature<P>> for VerifyingKey<P> {
    fn verify_digest<F: Fn(&mut MuHasher) -> Result<(), signature::Error>>(
        &self,
        f: F,
        signature: &Signature<P>,
    ) -> Result<(), signature::Error> {
        let mut h = MuHasher::new(self.native());
        f(&mut h)?;
        Ok(self.native().verify_mu(&h.mu(), signature.native())?)
    }
}
