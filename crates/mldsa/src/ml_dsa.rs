//! The RustCrypto-facing API (feature `signature`): the names, paths and trait set of RustCrypto
//! `ml-dsa` 0.1, so code written for `ml-dsa` compiles against Tessera with its `ml_dsa::`
//! paths prefixed by `tessera_mldsa::` (or with `use tessera_mldsa::ml_dsa;` and the paths
//! unchanged):
//!
//! ```
//! # #[cfg(feature = "signature")] {
//! use tessera_mldsa::ml_dsa::{Generate, Keypair, MlDsa65, Signer, SigningKey, Verifier};
//! # use rand::SeedableRng;
//! # let mut rng = rand::rngs::StdRng::from_seed([7; 32]);
//!
//! let sk = SigningKey::<MlDsa65>::generate_from_rng(&mut rng);
//!
//! let msg = b"Hello world";
//! let sig = sk.sign(msg);
//!
//! sk.verifying_key().verify(msg, &sig).unwrap();
//! # }
//! ```
//!
//! # Design
//!
//! The types of this module are types of their own, separate from the native
//! [`crate::generic`] ones, because the native types' inherent methods (`sign(msg, ctx, rng)`,
//! `verify(msg, ctx, sig)`, `verifying_key() -> &VerifyingKey`, `to_bytes() -> [u8; N]`) would
//! win over the `signature` and `crypto-common` trait methods of the same names. Here the
//! inherent methods are `ml-dsa`'s own (`from_seed`, `as_seed`, `to_seed`, `sign_deterministic`,
//! `sign_randomized`, `verify_with_context`, `verify_mu`, `encode` / `decode`) plus nothing
//! that shares a name with a trait method, so method syntax reaches the traits as on `ml-dsa`.
//!
//! There is one implementation underneath: [`VerifyingKey<P>`] and [`Signature<P>`] are
//! newtypes over [`crate::generic::VerifyingKey<P>`] and [`crate::generic::Signature<P>`];
//! [`SigningKey<P>`] holds a [`VerifyingKey<P>`] of this module (so `KeypairRef` can lend it)
//! next to the same secret part (signing state, expanded encoding, seed; wiped on drop) the
//! native signing key holds. Every operation calls the native dispatched routine. `From`
//! converts between the native and these types by moving the parts (no computation); a native
//! signing key without a seed (parsed from the expanded encoding) has no `ml-dsa` counterpart
//! (whose signing key is its seed), so that direction is `TryFrom`.
//!
//! Traits: `Signer`, `MultipartSigner`, `RandomizedSigner`, `RandomizedMultipartSigner`,
//! `DigestSigner` / `RandomizedDigestSigner` (over [`MuHasher`], where `ml-dsa` uses
//! `shake::Shake256`), `KeypairRef` (hence `Keypair`), `KeySizeUser`, `KeyInit`, `KeyExport`
//! (the 32-byte seed) and `Generate` on [`SigningKey`]; `Verifier`, `MultipartVerifier`,
//! `DigestVerifier`, `KeySizeUser`, `KeyInit`, `KeyExport` (the encoded key) on
//! [`VerifyingKey`]; `SignatureEncoding` on [`Signature`]; with feature `pkcs8` the PKCS#8 /
//! SPKI traits of `pkcs8` 0.11 (seed form, RFC 9881). The trait methods sign with the empty
//! context (deterministically for `Signer`, as `ml-dsa`); contexts go through
//! `sign_deterministic`, `sign_randomized` and `verify_with_context`.
//!
//! Differences from `ml-dsa`: `ExpandedSigningKey` (and `SigningKey::expanded_key`),
//! `VerifyingKey::compute_mu`, `verify_internal`, `sign_internal` and the `sign_mu_*` methods
//! are absent (the native [`crate::generic`] API has `sign_mu`, `verify_mu` and
//! `compute_mu`); [`EncodedSignature`] and [`EncodedVerifyingKey`] are `[u8; N]` arrays rather
//! than `hybrid-array` arrays; [`Signature::decode`] checks the length only (always `Some`; a
//! malformed hint encoding fails verification instead); `MlDsaParams` is Tessera's sealed
//! [`ParameterSet`] (no associated sizes); `SigningKey` is not `Clone` and has no `==`.
#![forbid(unsafe_code)]

use signature::digest::array::sizes::{U1312, U1952, U2592};
use signature::rand_core::TryCryptoRng;

use crate::generic::{self, SkSecret};
use crate::params::SEED_LEN;

pub use crate::MuHasher;
pub use crate::generic::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, ParameterSet as MlDsaParams};
/// The `pkcs8` crate (0.11, with `spki` re-exported inside), as `ml-dsa`'s module `pkcs8`
/// re-exports it (`ml_dsa::pkcs8::{DecodePrivateKey, EncodePrivateKey, ...}`).
#[cfg(feature = "pkcs8")]
pub use ::pkcs8;
/// The `hybrid-array` crate (through the trait crates' re-export).
pub use signature::digest::array::{self, Array};
/// The `crypto-common` crate and its key traits, as `ml-dsa` re-exports them.
pub use signature::digest::common::{self, Generate, KeyExport, KeyInit, KeySizeUser};
/// The `signature` crate (version 3) and its traits, as `ml-dsa` re-exports them (and the other
/// traits these types implement).
pub use signature::{
    self, DigestSigner, DigestVerifier, Error, Keypair, KeypairRef, MultipartSigner,
    MultipartVerifier, RandomizedDigestSigner, RandomizedMultipartSigner, RandomizedSigner,
    SignatureEncoding, Signer, Verifier,
};

/// A 32-byte array (`ml-dsa`'s name).
pub type B32 = Array<u8, signature::digest::consts::U32>;

/// A 64-byte array: mu ([`VerifyingKey::verify_mu`]).
pub type B64 = Array<u8, signature::digest::consts::U64>;

/// The seed xi of a signing key (32 bytes), its preferred serialization.
pub type Seed = B32;

/// An encoded signature of `P` (sigEncode, `[u8; SIG_LEN]`).
pub type EncodedSignature<P> = <P as ParameterSet>::SigBytes;

/// An encoded verifying key of `P` (pkEncode, `[u8; PK_LEN]`).
pub type EncodedVerifyingKey<P> = <P as ParameterSet>::PkBytes;

/// An ML-DSA signature of `P`: a newtype over [`generic::Signature<P>`].
pub struct Signature<P: ParameterSet>(generic::Signature<P>);

impl<P: ParameterSet> Clone for Signature<P> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<P: ParameterSet> PartialEq for Signature<P> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<P: ParameterSet> Eq for Signature<P> {}

impl<P: ParameterSet> core::hash::Hash for Signature<P> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<P: ParameterSet> core::fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

impl<P: ParameterSet> From<generic::Signature<P>> for Signature<P> {
    fn from(sig: generic::Signature<P>) -> Self {
        Self(sig)
    }
}

impl<P: ParameterSet> From<Signature<P>> for generic::Signature<P> {
    fn from(sig: Signature<P>) -> Self {
        sig.0
    }
}

/// The native signature underneath.
impl<P: ParameterSet> AsRef<generic::Signature<P>> for Signature<P> {
    fn as_ref(&self) -> &generic::Signature<P> {
        &self.0
    }
}

impl<P: ParameterSet> Signature<P> {
    /// The encoded signature (sigEncode).
    pub fn encode(&self) -> EncodedSignature<P> {
        *self.0.as_bytes()
    }

    /// A signature from its encoding. The length is right by type, so this is always `Some`
    /// (the hint encoding is checked by verification).
    pub fn decode(enc: &EncodedSignature<P>) -> Option<Self> {
        generic::Signature::from_bytes(enc.as_ref()).ok().map(Self)
    }
}

/// Parsing: a slice of the wrong length is a `signature::Error`.
impl<P: ParameterSet> TryFrom<&[u8]> for Signature<P> {
    type Error = Error;

    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Ok(Self(generic::Signature::from_bytes(bytes)?))
    }
}

/// An ML-DSA verifying key of `P`: a newtype over [`generic::VerifyingKey<P>`] (A-hat,
/// NTT(t1 * 2^d) and tr kept parsed).
pub struct VerifyingKey<P: ParameterSet>(generic::VerifyingKey<P>);

impl<P: ParameterSet> Clone for VerifyingKey<P> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<P: ParameterSet> PartialEq for VerifyingKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<P: ParameterSet> Eq for VerifyingKey<P> {}

impl<P: ParameterSet> core::hash::Hash for VerifyingKey<P> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<P: ParameterSet> core::fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("VerifyingKey").finish_non_exhaustive()
    }
}

impl<P: ParameterSet> From<generic::VerifyingKey<P>> for VerifyingKey<P> {
    fn from(vk: generic::VerifyingKey<P>) -> Self {
        Self(vk)
    }
}

impl<P: ParameterSet> From<VerifyingKey<P>> for generic::VerifyingKey<P> {
    fn from(vk: VerifyingKey<P>) -> Self {
        vk.0
    }
}

/// The native key underneath (its inherent API: contexts, HashML-DSA, `compute_mu`, ...).
impl<P: ParameterSet> AsRef<generic::VerifyingKey<P>> for VerifyingKey<P> {
    fn as_ref(&self) -> &generic::VerifyingKey<P> {
        &self.0
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// The encoded key (pkEncode).
    pub fn encode(&self) -> EncodedVerifyingKey<P> {
        self.0.to_bytes()
    }

    /// The key from its encoding (pkDecode; every encoding of the right length is a key).
    pub fn decode(enc: &EncodedVerifyingKey<P>) -> Self {
        Self(generic::VerifyingKey::from_array(
            crate::backend::Backend::detect(),
            *enc,
        ))
    }

    /// ML-DSA.Verify with context `ctx`: `true` only for a valid signature of `msg` under
    /// `ctx` (at most 255 bytes).
    pub fn verify_with_context(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> bool {
        self.0.verify(msg, ctx, &sig.0).is_ok()
    }

    /// Verification from an externally computed mu (see
    /// [`generic::VerifyingKey::compute_mu`]).
    pub fn verify_mu(&self, mu: &B64, sig: &Signature<P>) -> bool {
        self.0.verify_mu(&mu.0, &sig.0).is_ok()
    }
}

/// An ML-DSA signing key of `P`: its [`VerifyingKey`] and the secret part of the native
/// [`generic::SigningKey<P>`] (signing state, expanded encoding, the seed xi), wiped on drop.
/// `Debug` shows nothing of the key.
pub struct SigningKey<P: ParameterSet> {
    vk: VerifyingKey<P>,
    // Always holds the seed: every constructor checks or sets it.
    sec: SkSecret<P>,
}

/// The secret part wipes itself on drop (the native signing key's).
impl<P: ParameterSet> zeroize::ZeroizeOnDrop for SigningKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningKey").finish_non_exhaustive()
    }
}

/// The native key holding the same parts (moved).
impl<P: ParameterSet> From<SigningKey<P>> for generic::SigningKey<P> {
    fn from(sk: SigningKey<P>) -> Self {
        generic::SigningKey {
            vk: sk.vk.0,
            sec: sk.sec,
        }
    }
}

/// A native key built from a seed (parts moved); a key parsed from the expanded encoding (no
/// seed) is [`crate::Error::InvalidKey`] (an `ml-dsa` signing key is its seed).
impl<P: ParameterSet> TryFrom<generic::SigningKey<P>> for SigningKey<P> {
    type Error = crate::Error;

    fn try_from(sk: generic::SigningKey<P>) -> Result<Self, crate::Error> {
        if sk.sec.seed().is_none() {
            return Err(crate::Error::InvalidKey);
        }
        let generic::SigningKey { vk, sec } = sk;
        Ok(Self {
            vk: VerifyingKey(vk),
            sec,
        })
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6) from the seed xi.
    pub fn from_seed(xi: &Seed) -> Self {
        let generic::SigningKey { vk, sec } = generic::SigningKey::from_seed(&xi.0);
        Self {
            vk: VerifyingKey(vk),
            sec,
        }
    }

    /// The seed xi (key material; treat it with care).
    pub fn as_seed(&self) -> &Seed {
        // Every key of this type holds its seed (see the constructors); the fallback is
        // unreachable and only avoids a panic path.
        self.sec.seed().unwrap_or(&[0; SEED_LEN]).into()
    }

    /// A copy of the seed xi (key material; treat it with care).
    pub fn to_seed(&self) -> Seed {
        *self.as_seed()
    }

    /// ML-DSA.Sign, deterministic variant (rnd = 0^32), with context `ctx` (at most 255
    /// bytes, else an error).
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        Ok(Signature(self.sec.sign_parts::<NoRng>(
            &self.vk.0,
            &[msg],
            ctx,
            None,
        )?))
    }

    /// ML-DSA.Sign, hedged (rnd from `rng`; a generator failure is an error), with context
    /// `ctx` (at most 255 bytes, else an error).
    pub fn sign_randomized<R: TryCryptoRng + ?Sized>(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        Ok(Signature(self.sec.sign_parts(
            &self.vk.0,
            &[msg],
            ctx,
            Some(rng),
        )?))
    }

    /// Signing of a message in parts with the empty context, hedged with `rng` or not.
    pub(crate) fn sign_parts<R: TryCryptoRng + ?Sized>(
        &self,
        msg: &[&[u8]],
        rng: Option<&mut R>,
    ) -> Result<Signature<P>, crate::Error> {
        self.sec
            .sign_parts(&self.vk.0, msg, &[], rng)
            .map(Signature)
    }

    /// Signing from mu, deterministic or hedged.
    pub(crate) fn sign_mu<R: TryCryptoRng + ?Sized>(
        &self,
        mu: &[u8; 64],
        rng: Option<&mut R>,
    ) -> Result<Signature<P>, crate::Error> {
        match rng {
            Some(rng) => self.sec.sign_mu_try_rng(&self.vk.0, mu, rng),
            None => self.sec.sign_mu(&self.vk.0, mu, &[0; 32]),
        }
        .map(Signature)
    }

    /// The native verifying key underneath.
    pub(crate) fn native_vk(&self) -> &generic::VerifyingKey<P> {
        &self.vk.0
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    pub(crate) fn native(&self) -> &generic::VerifyingKey<P> {
        &self.0
    }
}

impl<P: ParameterSet> Signature<P> {
    pub(crate) fn native(&self) -> &generic::Signature<P> {
        &self.0
    }
}

impl<P: ParameterSet> AsRef<VerifyingKey<P>> for SigningKey<P> {
    fn as_ref(&self) -> &VerifyingKey<P> {
        &self.vk
    }
}

/// [`SigningKey::from_seed`].
impl<P: ParameterSet> From<Seed> for SigningKey<P> {
    fn from(seed: Seed) -> Self {
        Self::from_seed(&seed)
    }
}

/// The seed xi is the key (32 bytes), as `ml-dsa`'s `KeyInit`.
impl<P: ParameterSet> KeySizeUser for SigningKey<P> {
    type KeySize = signature::digest::consts::U32;
}

/// [`SigningKey::from_seed`].
impl<P: ParameterSet> KeyInit for SigningKey<P> {
    fn new(seed: &Seed) -> Self {
        Self::from_seed(seed)
    }
}

/// The seed xi.
impl<P: ParameterSet> KeyExport for SigningKey<P> {
    fn to_bytes(&self) -> Seed {
        self.to_seed()
    }
}

/// ML-DSA.KeyGen (Algorithm 1): a seed from the generator, then [`SigningKey::from_seed`].
impl<P: ParameterSet> Generate for SigningKey<P> {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        // Wiped on every exit, the generator's error included (a partly filled seed).
        let mut bytes = zeroize::Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(&mut bytes[..])?;
        let mut seed = Seed::from(*bytes);
        let sk = Self::from_seed(&seed);
        zeroize::Zeroize::zeroize(seed.as_mut_slice());
        Ok(sk)
    }
}

/// The generator type of the deterministic path (never called).
pub(crate) type NoRng = dyn TryCryptoRng<Error = core::convert::Infallible>;

macro_rules! per_set {
    ($($set:ident, $pk:ident, $pk_len:literal, $sig_len:literal);*) => {$(
        /// The encoded signature (sigEncode).
        impl From<Signature<$set>> for [u8; $sig_len] {
            fn from(sig: Signature<$set>) -> Self {
                sig.encode()
            }
        }

        /// `Repr` is the encoded signature `[u8; SIG_LEN]`.
        impl SignatureEncoding for Signature<$set> {
            type Repr = [u8; $sig_len];

            fn to_bytes(&self) -> [u8; $sig_len] {
                self.encode()
            }

            fn encoded_len(&self) -> usize {
                $sig_len
            }
        }

        /// The encoded key (pkEncode) is the key.
        impl KeySizeUser for VerifyingKey<$set> {
            type KeySize = $pk;
        }

        /// [`VerifyingKey::decode`].
        impl KeyInit for VerifyingKey<$set> {
            fn new(key: &Array<u8, $pk>) -> Self {
                Self::decode(&key.0)
            }
        }

        /// [`VerifyingKey::encode`].
        impl KeyExport for VerifyingKey<$set> {
            fn to_bytes(&self) -> Array<u8, $pk> {
                Array(self.encode())
            }
        }
    )*};
}

per_set!(
    MlDsa44, U1312, 1312, 2420;
    MlDsa65, U1952, 1952, 3309;
    MlDsa87, U2592, 2592, 4627
);
