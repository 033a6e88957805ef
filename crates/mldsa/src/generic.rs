//! The typed API, once for every parameter set: [`VerifyingKey<P>`], [`SigningKey<P>`] and
//! [`Signature<P>`] over a [`ParameterSet`] `P` ([`MlDsa44`], [`MlDsa65`], [`MlDsa87`]). The
//! per-set modules ([`crate::ml_dsa_44`], ...) name them through type aliases, so their pages
//! list these methods; code generic over the parameter set uses this module directly.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use crate::backend::Backend;
use crate::dims::Dims;
use crate::params::SEED_LEN;
use crate::{Error, PreHash};

pub use crate::params::{Bytes, MlDsa44, MlDsa65, MlDsa87, ParameterSet};

/// The parsed verifying-key state of `P` (`VkState<K, L>`).
type VkOf<P> = <<P as crate::params::Set>::Dims as Dims>::Vk;
/// The signing-key state of `P` (`SkState<K, L>`).
type SkOf<P> = <<P as crate::params::Set>::Dims as Dims>::Sk;

/// An ML-DSA verifying key of parameter set `P`, parsed: it keeps A-hat, NTT(t1 * 2^d) and
/// tr = H(pk), so repeated verifications do not redo ExpandA.
pub struct VerifyingKey<P: ParameterSet> {
    bytes: P::PkBytes,
    st: VkOf<P>,
    backend: Backend,
}

impl<P: ParameterSet> Clone for VerifyingKey<P> {
    fn clone(&self) -> Self {
        VerifyingKey {
            bytes: self.bytes,
            st: self.st.clone(),
            backend: self.backend,
        }
    }
}

impl<P: ParameterSet> PartialEq for VerifyingKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}
impl<P: ParameterSet> Eq for VerifyingKey<P> {}

impl<P: ParameterSet> core::hash::Hash for VerifyingKey<P> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.bytes.hash(state);
    }
}

impl<P: ParameterSet> core::fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("VerifyingKey").finish_non_exhaustive()
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// Parses an encoded key (pkDecode, FIPS 204 Algorithm 23): only the length
    /// can be wrong ([`Error::InvalidLength`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes_with_backend(Backend::detect(), bytes)
    }

    /// As [`Self::from_bytes`] on an explicit backend (tests and benches).
    #[doc(hidden)]
    pub fn from_bytes_with_backend(backend: Backend, bytes: &[u8]) -> Result<Self, Error> {
        let bytes: P::PkBytes = bytes.try_into().map_err(|_| Error::InvalidLength)?;
        Ok(Self::from_array(backend, bytes))
    }

    /// pkDecode of an array of the right length (infallible).
    pub(crate) fn from_array(backend: Backend, bytes: P::PkBytes) -> Self {
        let mut vk = Self {
            bytes,
            st: P::Dims::VK_ZERO,
            backend,
        };
        P::Dims::parse_pk(backend, vk.bytes.as_ref(), &mut vk.st);
        vk
    }

    /// The encoded key.
    pub fn to_bytes(&self) -> P::PkBytes {
        self.bytes
    }

    /// mu = H(tr || M', 64) with the pure ML-DSA message `M' = 0 || |ctx| || ctx ||
    /// msg` (FIPS 204 Algorithm 2 line 10 and Algorithm 7 line 6): the input of
    /// [`SigningKey::sign_mu`] and [`Self::verify_mu`].
    pub fn compute_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
        let n = u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong)?;
        Ok(self.mu(&[&[0, n], ctx, msg]))
    }

    /// mu for HashML-DSA: `M' = 1 || |ctx| || ctx || OID || PH(M)` (Algorithm 4).
    fn mu_prehashed(&self, ph: PreHash, digest: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
        let n = u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong)?;
        if digest.len() != ph.digest_len() {
            return Err(Error::InvalidDigestLength);
        }
        Ok(self.mu(&[&[1, n], ctx, &ph.oid(), digest]))
    }

    fn mu(&self, parts: &[&[u8]]) -> [u8; 64] {
        let mut all: [&[u8]; 5] = [P::Dims::tr(&self.st), &[], &[], &[], &[]];
        all[1..1 + parts.len()].copy_from_slice(parts);
        let mut mu = [0u8; 64];
        self.backend.run(crate::ops::Hash {
            parts: &all,
            out: &mut mu,
        });
        mu
    }

    /// ML-DSA.Verify (FIPS 204 Algorithm 3): pure ML-DSA with context `ctx` (at most
    /// 255 bytes, else [`Error::ContextTooLong`]). Any signature that does not verify,
    /// malformed hints included, is [`Error::Verification`].
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        let mu = self.compute_mu(msg, ctx)?;
        self.verify_mu(&mu, sig)
    }

    /// [`Self::verify`] as a `bool` (the shape of RustCrypto `ml-dsa`'s
    /// `verify_with_context`): `true` only for a valid signature of `msg` under `ctx`.
    pub fn verify_with_context(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> bool {
        self.verify(msg, ctx, sig).is_ok()
    }

    /// HashML-DSA.Verify (Algorithm 5) of `digest = PH(msg)`; a digest of the wrong
    /// length for `ph` is [`Error::InvalidDigestLength`].
    pub fn verify_prehashed(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        let mu = self.mu_prehashed(ph, digest, ctx)?;
        self.verify_mu(&mu, sig)
    }

    /// mu of the pure ML-DSA message `0 || |ctx| || ctx || msg[0] || msg[1] || ...`: a
    /// message given in parts (the `Multipart*` traits).
    pub(crate) fn compute_mu_parts(&self, msg: &[&[u8]], ctx: &[u8]) -> Result<[u8; 64], Error> {
        let n = u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong)?;
        let mut mu = [0u8; 64];
        self.backend.run(crate::ops::Hash2 {
            head: &[P::Dims::tr(&self.st), &[0, n], ctx],
            tail: msg,
            out: &mut mu,
        });
        Ok(mu)
    }

    /// SHAKE256 (on the key's Keccak backend) holding `tr || 0 || 0`: the pure ML-DSA message
    /// prefix with the empty context, for a message absorbed piece by piece; the first 64
    /// bytes of its output are mu.
    #[cfg_attr(not(feature = "signature"), allow(dead_code))]
    pub(crate) fn mu_shake(&self) -> tessera_keccak::Shake256 {
        let mut s =
            tessera_keccak::Shake256::new_with_backend(self.backend.run(crate::ops::HashBackend));
        s.update(P::Dims::tr(&self.st)).update(&[0, 0]);
        s
    }

    /// Verification from an externally computed mu (ML-DSA.Verify_internal from
    /// line 7 of Algorithm 8 on).
    pub fn verify_mu(&self, mu: &[u8; 64], sig: &Signature<P>) -> Result<(), Error> {
        if P::Dims::verify::<P::Params>(self.backend, &self.st, mu, sig.0.as_ref()) {
            Ok(())
        } else {
            Err(Error::Verification)
        }
    }

    /// ML-DSA.Verify_internal (Algorithm 8) of the formatted message `m_prime`
    /// (test vectors). Only in this workspace's test builds (`--cfg
    /// tessera_test_hooks`): FIPS 204 keeps the internal functions out of the
    /// interface (a caller would skip the domain separation of M').
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    pub fn verify_internal(&self, m_prime: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        let mu = self.mu(&[m_prime]);
        self.verify_mu(&mu, sig)
    }
}

/// An ML-DSA signing key of parameter set `P`: the NTT forms of s1 + 2^S s2 (packed), the
/// remaining s2 and t0, K, the expanded encoding, the verifying key (with A-hat and tr), and
/// the seed xi when built from one. Secrets are wiped on drop.
// Not `Clone`: a copy of the secret key would be a second place to wipe; nothing
// in the workspace needs one (build another from the seed or the expanded
// encoding if you must).
pub struct SigningKey<P: ParameterSet> {
    pub(crate) vk: VerifyingKey<P>,
    pub(crate) sec: SkSecret<P>,
}

/// The secret part of a signing key (the signing state, the expanded encoding, the seed),
/// wiped on drop; a signing key is it and its verifying key. The RustCrypto-facing signing key
/// of [`crate::ml_dsa`] holds the same part next to its own verifying key type.
pub(crate) struct SkSecret<P: ParameterSet> {
    st: SkOf<P>,
    bytes: P::SkBytes,
    seed: Option<[u8; SEED_LEN]>,
}

impl<P: ParameterSet> Drop for SkSecret<P> {
    fn drop(&mut self) {
        self.bytes.zeroize();
        if let Some(s) = self.seed.as_mut() {
            s.zeroize();
        }
    }
}

impl<P: ParameterSet> SkSecret<P> {
    /// The seed xi, if the key was built from one.
    pub(crate) fn seed(&self) -> Option<&[u8; SEED_LEN]> {
        self.seed.as_ref()
    }

    /// Signing from mu and rnd on the verifying key `vk` of this secret (its backend).
    pub(crate) fn sign_mu(
        &self,
        vk: &VerifyingKey<P>,
        mu: &[u8; 64],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let mut sig = P::SigBytes::zeroed();
        if P::Dims::sign::<P::Params>(vk.backend, &vk.st, &self.st, mu, rnd, sig.as_mut()) {
            Ok(Signature(sig))
        } else {
            Err(Error::SigningLoopBound)
        }
    }

    /// Hedged signing from mu with `rnd` from a fallible generator ([`Error::Rng`]).
    pub(crate) fn sign_mu_try_rng<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        vk: &VerifyingKey<P>,
        mu: &[u8; 64],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        let mut rnd = [0u8; 32];
        let r = match rng.try_fill_bytes(&mut rnd) {
            Ok(()) => self.sign_mu(vk, mu, &rnd),
            Err(_) => Err(Error::Rng),
        };
        rnd.zeroize();
        r
    }

    /// Signing of a message given in parts with context `ctx`, hedged with `rng` (`None`:
    /// deterministic).
    #[cfg_attr(not(feature = "signature"), allow(dead_code))]
    pub(crate) fn sign_parts<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        vk: &VerifyingKey<P>,
        msg: &[&[u8]],
        ctx: &[u8],
        rng: Option<&mut R>,
    ) -> Result<Signature<P>, Error> {
        let mu = vk.compute_mu_parts(msg, ctx)?;
        match rng {
            Some(rng) => self.sign_mu_try_rng(vk, &mu, rng),
            None => self.sign_mu(vk, &mu, &[0; 32]),
        }
    }
}

impl<P: ParameterSet> core::fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningKey").finish_non_exhaustive()
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6) from the seed xi.
    pub fn from_seed(xi: &[u8; SEED_LEN]) -> Self {
        Self::from_seed_with_backend(Backend::detect(), xi)
    }

    /// As [`Self::from_seed`] on an explicit backend (tests and benches).
    #[doc(hidden)]
    pub fn from_seed_with_backend(backend: Backend, xi: &[u8; SEED_LEN]) -> Self {
        let mut sk = Self {
            vk: VerifyingKey {
                bytes: P::PkBytes::zeroed(),
                st: P::Dims::VK_ZERO,
                backend,
            },
            sec: SkSecret {
                st: P::Dims::SK_ZERO,
                bytes: P::SkBytes::zeroed(),
                seed: Some(*xi),
            },
        };
        P::Dims::keygen::<P::Params>(
            backend,
            xi,
            sk.vk.bytes.as_mut(),
            sk.sec.bytes.as_mut(),
            &mut sk.vk.st,
            &mut sk.sec.st,
        );
        sk
    }

    /// ML-DSA.KeyGen (Algorithm 1): a fresh seed from `rng`.
    pub fn generate(rng: &mut impl rand_core::CryptoRng) -> Self {
        let mut xi = [0u8; SEED_LEN];
        rng.fill_bytes(&mut xi);
        let sk = Self::from_seed(&xi);
        xi.zeroize();
        sk
    }

    /// The seed xi this key was generated from; `None` for a key parsed from the
    /// expanded encoding.
    pub fn seed(&self) -> Option<&[u8; SEED_LEN]> {
        self.sec.seed()
    }

    /// The matching verifying key.
    pub fn verifying_key(&self) -> &VerifyingKey<P> {
        &self.vk
    }

    /// Parses the expanded encoding (skDecode, Algorithm 25): the length
    /// ([`Error::InvalidLength`]), s1 and s2 in `[-eta, eta]`, and consistency: t0
    /// and tr must be what rho, s1 and s2 give ([`Error::InvalidKey`]).
    pub fn from_expanded_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_expanded_bytes_with_backend(Backend::detect(), bytes)
    }

    /// As [`Self::from_expanded_bytes`] on an explicit backend (tests and benches).
    #[doc(hidden)]
    pub fn from_expanded_bytes_with_backend(backend: Backend, bytes: &[u8]) -> Result<Self, Error> {
        let bytes: P::SkBytes = bytes.try_into().map_err(|_| Error::InvalidLength)?;
        let mut sk = Self {
            vk: VerifyingKey {
                bytes: P::PkBytes::zeroed(),
                st: P::Dims::VK_ZERO,
                backend,
            },
            sec: SkSecret {
                st: P::Dims::SK_ZERO,
                bytes,
                seed: None,
            },
        };
        if !P::Dims::parse_sk::<P::Params>(
            backend,
            sk.sec.bytes.as_ref(),
            sk.vk.bytes.as_mut(),
            &mut sk.vk.st,
            &mut sk.sec.st,
        ) {
            return Err(Error::InvalidKey);
        }
        Ok(sk)
    }

    /// The expanded encoding (skEncode, Algorithm 24).
    pub fn to_expanded_bytes(&self) -> P::SkBytes {
        self.sec.bytes
    }

    /// ML-DSA.Sign (FIPS 204 Algorithm 2), hedged: `rnd` from `rng`. `ctx` is at
    /// most 255 bytes ([`Error::ContextTooLong`]).
    pub fn sign(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<Signature<P>, Error> {
        let mu = self.vk.compute_mu(msg, ctx)?;
        self.sign_mu_rng(&mu, rng)
    }

    /// ML-DSA.Sign (Algorithm 2), hedged, with `rnd` from a fallible `rng`: as
    /// [`Self::sign`], and [`Error::Rng`] if the generator fails.
    pub fn sign_randomized<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        let mu = self.vk.compute_mu(msg, ctx)?;
        self.sign_mu_try_rng(&mu, rng)
    }

    pub(crate) fn sign_mu_try_rng<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        mu: &[u8; 64],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        self.sec.sign_mu_try_rng(&self.vk, mu, rng)
    }

    /// ML-DSA.Sign, deterministic variant (rnd = 0^32).
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        let mu = self.vk.compute_mu(msg, ctx)?;
        self.sign_mu(&mu, &[0; 32])
    }

    /// HashML-DSA.Sign (Algorithm 4), hedged, of `digest = PH(msg)`; a digest of the
    /// wrong length for `ph` is [`Error::InvalidDigestLength`].
    pub fn sign_prehashed(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<Signature<P>, Error> {
        let mu = self.vk.mu_prehashed(ph, digest, ctx)?;
        self.sign_mu_rng(&mu, rng)
    }

    /// HashML-DSA.Sign, deterministic variant (rnd = 0^32).
    pub fn sign_prehashed_deterministic(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
    ) -> Result<Signature<P>, Error> {
        let mu = self.vk.mu_prehashed(ph, digest, ctx)?;
        self.sign_mu(&mu, &[0; 32])
    }

    fn sign_mu_rng(
        &self,
        mu: &[u8; 64],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<Signature<P>, Error> {
        let mut rnd = [0u8; 32];
        rng.fill_bytes(&mut rnd);
        let r = self.sign_mu(mu, &rnd);
        rnd.zeroize();
        r
    }

    /// Signing from an externally computed mu (see [`VerifyingKey::compute_mu`]) and
    /// `rnd` (fresh randomness, or 0^32 for the deterministic variant).
    /// [`Error::SigningLoopBound`] if the rejection loop ran out of iterations
    /// (probability below 2^-256).
    pub fn sign_mu(&self, mu: &[u8; 64], rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        self.sec.sign_mu(&self.vk, mu, rnd)
    }

    /// ML-DSA.Sign_internal (Algorithm 7) of the formatted message `m_prime`
    /// (test vectors). Only in this workspace's test builds (`--cfg
    /// tessera_test_hooks`): with it a caller could sign an M' without the domain
    /// separation prefix of ML-DSA.Sign (FIPS 204 keeps the internal functions out
    /// of the interface); [`Self::sign_mu`] (external mu) stays.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    pub fn sign_internal(&self, m_prime: &[u8], rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        let mu = self.vk.mu(&[m_prime]);
        self.sign_mu(&mu, rnd)
    }
}

impl<P: ParameterSet> AsRef<VerifyingKey<P>> for SigningKey<P> {
    fn as_ref(&self) -> &VerifyingKey<P> {
        &self.vk
    }
}

/// An ML-DSA signature of parameter set `P` (sigEncode). Parsing checks the length only; the
/// hint encoding is checked by verification (FIPS 204 HintBitUnpack).
pub struct Signature<P: ParameterSet>(P::SigBytes);

impl<P: ParameterSet> Clone for Signature<P> {
    fn clone(&self) -> Self {
        Signature(self.0)
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

/// [`Signature::from_bytes`]: the length is checked ([`Error::InvalidLength`]).
impl<P: ParameterSet> TryFrom<&[u8]> for Signature<P> {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes)
    }
}

impl<P: ParameterSet> core::fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Signature").field(&self.0.as_ref()).finish()
    }
}

impl<P: ParameterSet> Signature<P> {
    /// A signature from its bytes ([`Error::InvalidLength`] unless `SIG_LEN` long).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        bytes
            .try_into()
            .map(Signature)
            .map_err(|_| Error::InvalidLength)
    }
    /// The bytes.
    pub fn as_bytes(&self) -> &P::SigBytes {
        &self.0
    }
}
