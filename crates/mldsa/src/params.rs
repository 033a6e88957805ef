//! The three parameter sets (FIPS 204 section 4, Table 1) and their typed API.
#![forbid(unsafe_code)]

macro_rules! parameter_set {
    (
        $(#[$doc:meta])*
        $module:ident, $label:literal, $params:ident,
        k = $k:literal, l = $l:literal, eta = $eta:literal, eta_bits = $eta_bits:literal,
        tau = $tau:literal, ct_len = $ct_len:literal, gamma1_bits = $g1_bits:literal,
        z_bits = $z_bits:literal, g2 = $g2:literal, w1_bits = $w1_bits:literal,
        omega = $omega:literal, beta = $beta:literal
    ) => {
        #[doc = concat!("The ", $label, " parameters and width-dependent operations.")]
        pub(crate) struct $params;

        impl crate::dsa::Params for $params {
            const K: usize = $k;
            const L: usize = $l;
            const ETA: i32 = $eta;
            const TAU: usize = $tau;
            const CT_LEN: usize = $ct_len;
            const GAMMA1: i32 = 1 << $g1_bits;
            const GAMMA2: i32 = crate::unit::gamma2::<$g2>();
            const OMEGA: usize = $omega;
            const BETA: i32 = $beta;
            const ETA_BITS: usize = $eta_bits;
            const Z_BITS: usize = $z_bits;
            const W1_BITS: usize = $w1_bits;

            #[inline(always)]
            fn decompose<U: crate::unit::Unit>(x: U) -> (U, U) {
                x.decompose::<$g2>()
            }
            #[inline(always)]
            fn use_hint<U: crate::unit::Unit>(x: U, h: U) -> U {
                x.use_hint::<$g2>(h)
            }
            #[inline(always)]
            fn rej_eta<U: crate::unit::Unit>(
                t: U::Token,
                bytes: &[u8],
                out: &mut crate::poly::Poly,
                n: &mut usize,
            ) {
                U::rej_eta::<$eta>(t, bytes, out, n)
            }
            #[inline(always)]
            fn pack_eta<U: crate::unit::Unit>(t: U::Token, p: &crate::poly::Poly, out: &mut [u8]) {
                crate::poly::pack::<U, $eta_bits>(t, p, Some($eta), out)
            }
            #[inline(always)]
            fn unpack_eta<U: crate::unit::Unit>(t: U::Token, bytes: &[u8], p: &mut crate::poly::Poly) {
                crate::poly::unpack::<U, $eta_bits>(t, bytes, Some($eta), p)
            }
            #[inline(always)]
            fn pack_z<U: crate::unit::Unit>(t: U::Token, p: &crate::poly::Poly, out: &mut [u8]) {
                crate::poly::pack::<U, $z_bits>(t, p, Some(1 << $g1_bits), out)
            }
            #[inline(always)]
            fn unpack_z<U: crate::unit::Unit>(t: U::Token, bytes: &[u8], p: &mut crate::poly::Poly) {
                crate::poly::unpack::<U, $z_bits>(t, bytes, Some(1 << $g1_bits), p)
            }
            #[inline(always)]
            fn pack_w1<U: crate::unit::Unit>(t: U::Token, p: &crate::poly::Poly, out: &mut [u8]) {
                crate::poly::pack::<U, $w1_bits>(t, p, None, out)
            }
        }

        $(#[$doc])*
        pub mod $module {
            use zeroize::Zeroize;

            use core::marker::PhantomData;

            use crate::backend::Backend;
            use crate::dsa::{SkState, VkState};
            use crate::ops;
            use crate::{Error, PreHash};

            const K: usize = $k;
            const L: usize = $l;
            type P = super::$params;

            /// Length of an encoded verifying key (pkEncode).
            pub const PK_LEN: usize = 32 + 320 * K;
            /// Length of an expanded signing key (skEncode).
            pub const SK_LEN: usize = 128 + 32 * $eta_bits * (K + L) + 416 * K;
            /// Length of a signature (sigEncode).
            pub const SIG_LEN: usize = $ct_len + 32 * $z_bits * L + $omega + K;
            /// Length of the seed xi, the canonical private key.
            pub const SEED_LEN: usize = 32;

            #[doc = concat!("An ", $label, " verifying key, parsed: it keeps A-hat, NTT(t1 * 2^d) and tr = H(pk), so repeated verifications do not redo ExpandA.")]
            #[derive(Clone)]
            pub struct VerifyingKey {
                bytes: [u8; PK_LEN],
                st: VkState<K, L>,
                backend: Backend,
            }

            impl PartialEq for VerifyingKey {
                fn eq(&self, other: &Self) -> bool {
                    self.bytes == other.bytes
                }
            }
            impl Eq for VerifyingKey {}

            impl core::fmt::Debug for VerifyingKey {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_struct("VerifyingKey").finish_non_exhaustive()
                }
            }

            impl VerifyingKey {
                /// Parses an encoded key (pkDecode, FIPS 204 Algorithm 23): only the length
                /// can be wrong ([`Error::InvalidLength`]).
                pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                    Self::from_bytes_with_backend(Backend::detect(), bytes)
                }

                /// As [`Self::from_bytes`] on an explicit backend (tests and benches).
                #[doc(hidden)]
                pub fn from_bytes_with_backend(backend: Backend, bytes: &[u8]) -> Result<Self, Error> {
                    let bytes: [u8; PK_LEN] = bytes.try_into().map_err(|_| Error::InvalidLength)?;
                    let mut vk = VerifyingKey { bytes, st: VkState::ZERO, backend };
                    backend.run(ops::ParsePk::<K, L> { pk: &vk.bytes, vk: &mut vk.st });
                    Ok(vk)
                }

                /// The encoded key.
                pub fn to_bytes(&self) -> [u8; PK_LEN] {
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
                    let mut all: [&[u8]; 5] = [&self.st.tr, &[], &[], &[], &[]];
                    all[1..1 + parts.len()].copy_from_slice(parts);
                    let mut mu = [0u8; 64];
                    self.backend.run(ops::Hash { parts: &all, out: &mut mu });
                    mu
                }

                /// ML-DSA.Verify (FIPS 204 Algorithm 3): pure ML-DSA with context `ctx` (at most
                /// 255 bytes, else [`Error::ContextTooLong`]). Any signature that does not verify,
                /// malformed hints included, is [`Error::Verification`].
                pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &Signature) -> Result<(), Error> {
                    let mu = self.compute_mu(msg, ctx)?;
                    self.verify_mu(&mu, sig)
                }

                /// HashML-DSA.Verify (Algorithm 5) of `digest = PH(msg)`; a digest of the wrong
                /// length for `ph` is [`Error::InvalidDigestLength`].
                pub fn verify_prehashed(
                    &self,
                    ph: PreHash,
                    digest: &[u8],
                    ctx: &[u8],
                    sig: &Signature,
                ) -> Result<(), Error> {
                    let mu = self.mu_prehashed(ph, digest, ctx)?;
                    self.verify_mu(&mu, sig)
                }

                /// Verification from an externally computed mu (ML-DSA.Verify_internal from
                /// line 7 of Algorithm 8 on).
                pub fn verify_mu(&self, mu: &[u8; 64], sig: &Signature) -> Result<(), Error> {
                    if self.backend.run(ops::Verify::<P, K, L> { vk: &self.st, mu, sig: &sig.0, set: PhantomData }) {
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
                pub fn verify_internal(&self, m_prime: &[u8], sig: &Signature) -> Result<(), Error> {
                    let mu = self.mu(&[m_prime]);
                    self.verify_mu(&mu, sig)
                }
            }

            #[doc = concat!("An ", $label, " signing key: the NTT forms of s1 + 2^S s2 (packed), the remaining s2 and t0, K, the expanded encoding, the verifying key (with A-hat and tr), and the seed xi when built from one. Secrets are wiped on drop.")]
            // Not `Clone`: a copy of the secret key would be a second place to wipe; nothing
            // in the workspace needs one (build another from the seed or the expanded
            // encoding if you must).
            pub struct SigningKey {
                vk: VerifyingKey,
                st: SkState<K, L>,
                bytes: [u8; SK_LEN],
                seed: Option<[u8; SEED_LEN]>,
            }

            impl Drop for SigningKey {
                fn drop(&mut self) {
                    self.bytes.zeroize();
                    if let Some(s) = self.seed.as_mut() {
                        s.zeroize();
                    }
                }
            }

            impl core::fmt::Debug for SigningKey {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_struct("SigningKey").finish_non_exhaustive()
                }
            }

            impl SigningKey {
                /// ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6) from the seed xi.
                pub fn from_seed(xi: &[u8; SEED_LEN]) -> Self {
                    Self::from_seed_with_backend(Backend::detect(), xi)
                }

                /// As [`Self::from_seed`] on an explicit backend (tests and benches).
                #[doc(hidden)]
                pub fn from_seed_with_backend(backend: Backend, xi: &[u8; SEED_LEN]) -> Self {
                    let mut sk = SigningKey {
                        vk: VerifyingKey { bytes: [0; PK_LEN], st: VkState::ZERO, backend },
                        st: SkState::ZERO,
                        bytes: [0; SK_LEN],
                        seed: Some(*xi),
                    };
                    backend.run(ops::KeyGen::<P, K, L> {
                        xi,
                        pk: &mut sk.vk.bytes,
                        sk_bytes: &mut sk.bytes,
                        vk: &mut sk.vk.st,
                        sk: &mut sk.st,
                        set: PhantomData,
                    });
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
                    self.seed.as_ref()
                }

                /// The matching verifying key.
                pub fn verifying_key(&self) -> &VerifyingKey {
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
                    let bytes: [u8; SK_LEN] = bytes.try_into().map_err(|_| Error::InvalidLength)?;
                    let mut sk = SigningKey {
                        vk: VerifyingKey { bytes: [0; PK_LEN], st: VkState::ZERO, backend },
                        st: SkState::ZERO,
                        bytes,
                        seed: None,
                    };
                    if !backend.run(ops::ParseSk::<P, K, L> {
                        sk_bytes: &sk.bytes,
                        pk: &mut sk.vk.bytes,
                        vk: &mut sk.vk.st,
                        sk: &mut sk.st,
                        set: PhantomData,
                    }) {
                        return Err(Error::InvalidKey);
                    }
                    Ok(sk)
                }

                /// The expanded encoding (skEncode, Algorithm 24).
                pub fn to_expanded_bytes(&self) -> [u8; SK_LEN] {
                    self.bytes
                }

                /// ML-DSA.Sign (FIPS 204 Algorithm 2), hedged: `rnd` from `rng`. `ctx` is at
                /// most 255 bytes ([`Error::ContextTooLong`]).
                pub fn sign(
                    &self,
                    msg: &[u8],
                    ctx: &[u8],
                    rng: &mut impl rand_core::CryptoRng,
                ) -> Result<Signature, Error> {
                    let mu = self.vk.compute_mu(msg, ctx)?;
                    self.sign_mu_rng(&mu, rng)
                }

                /// ML-DSA.Sign, deterministic variant (rnd = 0^32).
                pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature, Error> {
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
                ) -> Result<Signature, Error> {
                    let mu = self.vk.mu_prehashed(ph, digest, ctx)?;
                    self.sign_mu_rng(&mu, rng)
                }

                /// HashML-DSA.Sign, deterministic variant (rnd = 0^32).
                pub fn sign_prehashed_deterministic(
                    &self,
                    ph: PreHash,
                    digest: &[u8],
                    ctx: &[u8],
                ) -> Result<Signature, Error> {
                    let mu = self.vk.mu_prehashed(ph, digest, ctx)?;
                    self.sign_mu(&mu, &[0; 32])
                }

                fn sign_mu_rng(&self, mu: &[u8; 64], rng: &mut impl rand_core::CryptoRng) -> Result<Signature, Error> {
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
                pub fn sign_mu(&self, mu: &[u8; 64], rnd: &[u8; 32]) -> Result<Signature, Error> {
                    let mut sig = [0u8; SIG_LEN];
                    if self.vk.backend.run(ops::Sign::<P, K, L> {
                        vk: &self.vk.st,
                        sk: &self.st,
                        mu,
                        rnd,
                        sig: &mut sig,
                        set: PhantomData,
                    }) {
                        Ok(Signature(sig))
                    } else {
                        Err(Error::SigningLoopBound)
                    }
                }

                /// ML-DSA.Sign_internal (Algorithm 7) of the formatted message `m_prime`
                /// (test vectors). Only in this workspace's test builds (`--cfg
                /// tessera_test_hooks`): with it a caller could sign an M' without the domain
                /// separation prefix of ML-DSA.Sign (FIPS 204 keeps the internal functions out
                /// of the interface); [`Self::sign_mu`] (external mu) stays.
                #[cfg(tessera_test_hooks)]
                #[doc(hidden)]
                pub fn sign_internal(&self, m_prime: &[u8], rnd: &[u8; 32]) -> Result<Signature, Error> {
                    let mu = self.vk.mu(&[m_prime]);
                    self.sign_mu(&mu, rnd)
                }
            }

            #[doc = concat!("An ", $label, " signature (sigEncode). Parsing checks the length only; the hint encoding is checked by verification (FIPS 204 HintBitUnpack).")]
            #[derive(Clone, PartialEq, Eq)]
            pub struct Signature([u8; SIG_LEN]);

            impl core::fmt::Debug for Signature {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_tuple("Signature").field(&&self.0[..]).finish()
                }
            }

            impl Signature {
                /// A signature from its bytes ([`Error::InvalidLength`] unless `SIG_LEN` long).
                pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                    bytes.try_into().map(Signature).map_err(|_| Error::InvalidLength)
                }
                /// The bytes.
                pub fn as_bytes(&self) -> &[u8; SIG_LEN] {
                    &self.0
                }
            }
        }
    };
}

parameter_set!(
    /// ML-DSA-44 (security category 2): k = 4, l = 4, eta = 2, tau = 39, gamma1 = 2^17,
    /// gamma2 = (q-1)/88, omega = 80.
    ml_dsa_44, "ML-DSA-44", Params44,
    k = 4, l = 4, eta = 2, eta_bits = 3, tau = 39, ct_len = 32, gamma1_bits = 17,
    z_bits = 18, g2 = 88, w1_bits = 6, omega = 80, beta = 78
);
parameter_set!(
    /// ML-DSA-65 (security category 3): k = 6, l = 5, eta = 4, tau = 49, gamma1 = 2^19,
    /// gamma2 = (q-1)/32, omega = 55.
    ml_dsa_65, "ML-DSA-65", Params65,
    k = 6, l = 5, eta = 4, eta_bits = 4, tau = 49, ct_len = 48, gamma1_bits = 19,
    z_bits = 20, g2 = 32, w1_bits = 4, omega = 55, beta = 196
);
parameter_set!(
    /// ML-DSA-87 (security category 5): k = 8, l = 7, eta = 2, tau = 60, gamma1 = 2^19,
    /// gamma2 = (q-1)/32, omega = 75.
    ml_dsa_87, "ML-DSA-87", Params87,
    k = 8, l = 7, eta = 2, eta_bits = 3, tau = 60, ct_len = 64, gamma1_bits = 19,
    z_bits = 20, g2 = 32, w1_bits = 4, omega = 75, beta = 120
);

#[cfg(test)]
mod tests {
    // Small enough for Miri (one ML-DSA-44 key generation, signature and verification on the
    // portable backend, with pinned signature bytes); natively also a from-bytes key, a rejected
    // context and the expanded-key round trip. ACVP and Wycheproof run natively in `tests/`.
    #[test]
    fn round_trip_44() {
        use super::ml_dsa_44::*;
        use crate::backend::Backend;
        let be = Backend::Portable;
        let sk = SigningKey::from_seed_with_backend(be, &[3; 32]);
        let vk = sk.verifying_key();
        let sig = sk.sign_deterministic(b"message", b"ctx").unwrap();
        assert_eq!(vk.verify(b"message", b"ctx", &sig), Ok(()));
        // Pinned first bytes of the signature (the same on little- and big-endian hosts).
        assert_eq!(sig.as_bytes()[..4], KNOWN_SIG[..]);
        #[cfg(not(miri))]
        {
            let vk2 = VerifyingKey::from_bytes_with_backend(be, &vk.to_bytes()).unwrap();
            assert_eq!(
                vk2.verify(b"message", b"ctX", &sig),
                Err(crate::Error::Verification)
            );
            let sk2 =
                SigningKey::from_expanded_bytes_with_backend(be, &sk.to_expanded_bytes()).unwrap();
            assert_eq!(sk2.verifying_key(), vk);
            assert_eq!(sk2.sign_deterministic(b"message", b"ctx").unwrap(), sig);
        }
    }

    const KNOWN_SIG: [u8; 4] = [37, 27, 198, 152];

    /// Signing keys are not `Clone` (a compile-time check: `some_item` is ambiguous, a
    /// compile error, for a type that implements `Clone`).
    #[test]
    fn signing_keys_are_not_clone() {
        trait AmbiguousIfClone<A> {
            fn some_item() {}
        }
        impl<T> AmbiguousIfClone<()> for T {}
        impl<T: Clone> AmbiguousIfClone<u8> for T {}
        <super::ml_dsa_44::SigningKey as AmbiguousIfClone<_>>::some_item();
        <super::ml_dsa_65::SigningKey as AmbiguousIfClone<_>>::some_item();
        <super::ml_dsa_87::SigningKey as AmbiguousIfClone<_>>::some_item();
        <crate::dsa::SkState<4, 4> as AmbiguousIfClone<_>>::some_item();
    }
}
