//! The three parameter sets (FIPS 203 section 8, Table 2) and their typed API.
#![forbid(unsafe_code)]

macro_rules! parameter_set {
    (
        $(#[$doc:meta])*
        $module:ident, $label:literal, k = $k:literal, eta1 = $eta1:literal, du = $du:literal, dv = $dv:literal
    ) => {
        $(#[$doc])*
        pub mod $module {
            use subtle::ConstantTimeEq;
            use zeroize::Zeroize;

            use crate::Error;
            use crate::backend::Backend;
            use crate::kem::EkState;
            use crate::poly::Poly;

            const K: usize = $k;
            const ETA1: usize = $eta1;
            const DU: u32 = $du;
            const DV: u32 = $dv;

            /// Length of an encoded encapsulation key.
            pub const EK_LEN: usize = 384 * K + 32;
            /// Length of an expanded decapsulation key (FIPS 203 format).
            pub const DK_LEN: usize = 768 * K + 96;
            /// Length of a ciphertext.
            pub const CT_LEN: usize = 32 * (DU as usize * K + DV as usize);
            /// Length of the seed `d || z`, the canonical private key.
            pub const SEED_LEN: usize = 64;
            /// Length of a shared secret.
            pub const SHARED_SECRET_LEN: usize = 32;

            #[doc = concat!("An ", $label, " encapsulation key, parsed: it keeps t-hat, the expanded matrix A-hat (NTT form) and H(ek), so repeated encapsulations do not redo ExpandA.")]
            #[derive(Clone)]
            pub struct EncapsulationKey {
                bytes: [u8; EK_LEN],
                st: EkState<K>,
                backend: Backend,
            }

            impl PartialEq for EncapsulationKey {
                fn eq(&self, other: &Self) -> bool {
                    self.bytes == other.bytes
                }
            }
            impl Eq for EncapsulationKey {}

            impl core::fmt::Debug for EncapsulationKey {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_struct("EncapsulationKey").finish_non_exhaustive()
                }
            }

            impl EncapsulationKey {
                /// Parses an encoded key: length, then the FIPS 203 section 7.2 modulus check
                /// (every coefficient `< q`, else [`Error::InvalidKey`]).
                pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                    Self::from_bytes_with_backend(Backend::detect(), bytes)
                }

                /// As [`Self::from_bytes`] on an explicit backend (tests and benches).
                #[doc(hidden)]
                pub fn from_bytes_with_backend(backend: Backend, bytes: &[u8]) -> Result<Self, Error> {
                    let bytes: [u8; EK_LEN] = bytes.try_into().map_err(|_| Error::InvalidLength)?;
                    let mut ek = EncapsulationKey { bytes, st: EkState::ZERO, backend };
                    if !crate::ops::parse_ek::<K>(backend, &ek.bytes, &mut ek.st) {
                        return Err(Error::InvalidKey);
                    }
                    Ok(ek)
                }

                /// The encoded key.
                pub fn to_bytes(&self) -> [u8; EK_LEN] {
                    self.bytes
                }

                /// ML-KEM.Encaps (FIPS 203 Algorithm 20): a random `m` from `rng`.
                pub fn encapsulate(
                    &self,
                    rng: &mut impl rand_core::CryptoRng,
                ) -> (Ciphertext, SharedSecret) {
                    let mut m = [0u8; 32];
                    rng.fill_bytes(&mut m);
                    let r = self.encaps_internal(&m);
                    m.zeroize();
                    r
                }

                /// ML-KEM.Encaps_internal (FIPS 203 Algorithm 17) with the given `m`: for test
                /// vectors only (FIPS 203 section 3.3: not for applications; a repeated `m`
                /// repeats the shared secret), so it exists only in test builds
                /// (`--cfg tessera_test_hooks`).
                #[cfg(tessera_test_hooks)]
                #[doc(hidden)]
                pub fn encapsulate_deterministic(&self, m: &[u8; 32]) -> (Ciphertext, SharedSecret) {
                    self.encaps_internal(m)
                }

                fn encaps_internal(&self, m: &[u8; 32]) -> (Ciphertext, SharedSecret) {
                    let mut ct = [0u8; CT_LEN];
                    let k = crate::ops::encaps::<K, ETA1, DU, DV>(self.backend, &self.st, m, &mut ct);
                    (Ciphertext(ct), SharedSecret(k))
                }
            }

            #[doc = concat!("An ", $label, " decapsulation key: s-hat, the encapsulation key (with A-hat and H(ek)), z, and the seed when built from one. Wiped on drop.")]
            ///
            /// `Clone` is kept, as RustCrypto `ml-kem`'s decapsulation key has it (a key held
            /// by several owners, e.g. threads); each copy is wiped on its own drop.
            #[derive(Clone)]
            pub struct DecapsulationKey {
                ek: EncapsulationKey,
                s_hat: [Poly; K],
                z: [u8; 32],
                seed: Option<[u8; SEED_LEN]>,
            }

            impl Drop for DecapsulationKey {
                fn drop(&mut self) {
                    self.s_hat.zeroize();
                    self.z.zeroize();
                    if let Some(s) = self.seed.as_mut() {
                        s.zeroize();
                    }
                }
            }

            impl core::fmt::Debug for DecapsulationKey {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_struct("DecapsulationKey").finish_non_exhaustive()
                }
            }

            impl DecapsulationKey {
                /// ML-KEM.KeyGen_internal (FIPS 203 Algorithm 16) from the seed `d || z`.
                pub fn from_seed(seed: &[u8; SEED_LEN]) -> Self {
                    Self::from_seed_with_backend(Backend::detect(), seed)
                }

                /// As [`Self::from_seed`] on an explicit backend (tests and benches).
                #[doc(hidden)]
                pub fn from_seed_with_backend(backend: Backend, seed: &[u8; SEED_LEN]) -> Self {
                    let mut d = [0u8; 32];
                    d.copy_from_slice(&seed[..32]);
                    let mut dk = DecapsulationKey {
                        ek: EncapsulationKey { bytes: [0; EK_LEN], st: EkState::ZERO, backend },
                        s_hat: [[0; 256]; K],
                        z: [0; 32],
                        seed: Some(*seed),
                    };
                    dk.z.copy_from_slice(&seed[32..]);
                    crate::ops::keygen::<K, ETA1>(backend, &d, &mut dk.ek.bytes, &mut dk.ek.st, &mut dk.s_hat);
                    d.zeroize();
                    dk
                }

                /// ML-KEM.KeyGen (FIPS 203 Algorithm 19): a fresh seed from `rng`.
                pub fn generate(rng: &mut impl rand_core::CryptoRng) -> Self {
                    let mut seed = [0u8; SEED_LEN];
                    rng.fill_bytes(&mut seed);
                    let dk = Self::from_seed(&seed);
                    seed.zeroize();
                    dk
                }

                /// The seed `d || z` this key was generated from; `None` for a key parsed from
                /// the expanded encoding.
                pub fn seed(&self) -> Option<&[u8; SEED_LEN]> {
                    self.seed.as_ref()
                }

                /// The matching encapsulation key.
                pub fn encapsulation_key(&self) -> &EncapsulationKey {
                    &self.ek
                }

                /// Parses the expanded FIPS 203 encoding `dk_pke || ek || H(ek) || z` with the
                /// section 7.3 checks: the length ([`Error::InvalidLength`]) and the stored hash
                /// H(ek) ([`Error::InvalidKey`]). The embedded ek must also pass the section 7.2
                /// modulus check ([`Error::InvalidKey`]).
                pub fn from_expanded_bytes(bytes: &[u8]) -> Result<Self, Error> {
                    Self::from_expanded_bytes_with_backend(Backend::detect(), bytes)
                }

                /// As [`Self::from_expanded_bytes`] on an explicit backend (tests and benches).
                #[doc(hidden)]
                pub fn from_expanded_bytes_with_backend(
                    backend: Backend,
                    bytes: &[u8],
                ) -> Result<Self, Error> {
                    if bytes.len() != DK_LEN {
                        return Err(Error::InvalidLength);
                    }
                    let (dk_pke, rest) = bytes.split_at(384 * K);
                    let (ek, rest) = rest.split_at(EK_LEN);
                    let (h, z) = rest.split_at(32);
                    // Parsing ek computes H(ek) (kept in the key); the section 7.3 check compares
                    // it with the stored hash, so the hash is computed once.
                    let ek = EncapsulationKey::from_bytes_with_backend(backend, ek)?;
                    if !bool::from(ek.st.h.ct_eq(h)) {
                        return Err(Error::InvalidKey);
                    }
                    let mut dk = DecapsulationKey { ek, s_hat: [[0; 256]; K], z: [0; 32], seed: None };
                    dk.z.copy_from_slice(z);
                    crate::ops::decode_s::<K>(backend, dk_pke, &mut dk.s_hat);
                    Ok(dk)
                }

                /// The expanded FIPS 203 encoding `dk_pke || ek || H(ek) || z`.
                pub fn to_expanded_bytes(&self) -> [u8; DK_LEN] {
                    let mut out = [0u8; DK_LEN];
                    crate::ops::encode_s::<K>(self.ek.backend, &self.s_hat, &mut out[..384 * K]);
                    out[384 * K..768 * K + 32].copy_from_slice(&self.ek.bytes);
                    out[768 * K + 32..768 * K + 64].copy_from_slice(&self.ek.st.h);
                    out[768 * K + 64..].copy_from_slice(&self.z);
                    out
                }

                /// ML-KEM.Decaps (FIPS 203 Algorithm 21) with implicit rejection: an invalid
                /// ciphertext gives the pseudorandom key J(z || c), never an error; constant
                /// time in the key and the ciphertext's validity.
                pub fn decapsulate(&self, ct: &Ciphertext) -> SharedSecret {
                    SharedSecret(crate::ops::decaps::<K, ETA1, DU, DV>(
                        self.ek.backend,
                        &self.ek.st,
                        &self.s_hat,
                        &self.z,
                        &ct.0,
                    ))
                }
            }

            #[doc = concat!("An ", $label, " ciphertext.")]
            #[derive(Clone, PartialEq, Eq)]
            pub struct Ciphertext([u8; CT_LEN]);

            impl core::fmt::Debug for Ciphertext {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_tuple("Ciphertext").field(&&self.0[..]).finish()
                }
            }

            impl Ciphertext {
                /// A ciphertext from its bytes ([`Error::InvalidLength`] unless `CT_LEN` long).
                pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                    bytes.try_into().map(Ciphertext).map_err(|_| Error::InvalidLength)
                }
                /// The bytes.
                pub fn as_bytes(&self) -> &[u8; CT_LEN] {
                    &self.0
                }
            }

            /// A 32-byte shared secret, wiped on drop; `==` is constant time. Not `Clone`:
            /// one owner, one wipe (copy the bytes from [`SharedSecret::as_bytes`] into
            /// storage you wipe yourself if a second copy is needed).
            pub struct SharedSecret([u8; SHARED_SECRET_LEN]);

            impl SharedSecret {
                /// The bytes.
                pub fn as_bytes(&self) -> &[u8; SHARED_SECRET_LEN] {
                    &self.0
                }
            }

            impl Drop for SharedSecret {
                fn drop(&mut self) {
                    self.0.zeroize();
                }
            }

            impl ConstantTimeEq for SharedSecret {
                fn ct_eq(&self, other: &Self) -> subtle::Choice {
                    self.0.ct_eq(&other.0)
                }
            }

            impl PartialEq for SharedSecret {
                fn eq(&self, other: &Self) -> bool {
                    self.ct_eq(other).into()
                }
            }
            impl Eq for SharedSecret {}

            impl core::fmt::Debug for SharedSecret {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.write_str("SharedSecret(..)")
                }
            }
        }
    };
}

parameter_set!(
    /// ML-KEM-512 (security category 1): k = 2, eta1 = 3, du = 10, dv = 4.
    ml_kem_512, "ML-KEM-512", k = 2, eta1 = 3, du = 10, dv = 4
);
parameter_set!(
    /// ML-KEM-768 (security category 3): k = 3, eta1 = 2, du = 10, dv = 4.
    ml_kem_768, "ML-KEM-768", k = 3, eta1 = 2, du = 10, dv = 4
);
parameter_set!(
    /// ML-KEM-1024 (security category 5): k = 4, eta1 = 2, du = 11, dv = 5.
    ml_kem_1024, "ML-KEM-1024", k = 4, eta1 = 2, du = 11, dv = 5
);

#[cfg(test)]
mod tests {
    // Small enough for Miri (one ML-KEM-512 round trip on the portable backend): keygen,
    // encaps, decaps, the expanded-key round trip and implicit rejection; ACVP/Wycheproof
    // run natively in `tests/`.
    #[test]
    fn round_trip_512() {
        use super::ml_kem_512::*;
        use crate::backend::Backend;
        let be = Backend::Portable;
        let dk = DecapsulationKey::from_seed_with_backend(be, &[3; 64]);
        let ek = EncapsulationKey::from_bytes_with_backend(be, &dk.encapsulation_key().to_bytes())
            .unwrap();
        let (ct, k) = ek.encapsulate_deterministic(&[5; 32]);
        assert_eq!(dk.decapsulate(&ct), k);
        let dk2 = DecapsulationKey::from_expanded_bytes_with_backend(be, &dk.to_expanded_bytes())
            .unwrap();
        let mut bad = *ct.as_bytes();
        bad[0] ^= 1;
        let bad = Ciphertext::from_bytes(&bad).unwrap();
        assert_ne!(dk2.decapsulate(&bad), k);
        // Pinned first bytes of the shared secret (the same on little- and big-endian hosts).
        assert_eq!(k.as_bytes()[..4], KNOWN_K[..]);
    }

    const KNOWN_K: [u8; 4] = [211, 96, 19, 46];
}
