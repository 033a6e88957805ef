//! The ML-KEM API, written once for every [`ParameterSet`]: `EncapsulationKey<P>`,
//! `DecapsulationKey<P>`, `Ciphertext<P>` and `SharedSecret`, over [`crate::MlKem512`],
//! [`crate::MlKem768`] or [`crate::MlKem1024`]. The per-set modules ([`crate::ml_kem_768`],
//! ...) name them through type aliases, so their pages list these methods; code generic over
//! the parameter set uses this module directly.
#![forbid(unsafe_code)]

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::Error;
use crate::backend::Backend;
use crate::dims::Ops;
use crate::parameter_set::{DimsOf, EkState, SHat};

pub use crate::parameter_set::{Bytes, ParameterSet};

#[cfg(feature = "pkcs8")]
mod key_encoding;

#[cfg(feature = "pkcs8")]
pub use key_encoding::KeyEncodingError;

/// Length of the seed `d || z`, the canonical private key.
pub const SEED_LEN: usize = 64;
/// Length of a shared secret.
pub const SHARED_SECRET_LEN: usize = 32;

/// An ML-KEM encapsulation key of the parameter set `P`, parsed: it keeps t-hat, the expanded
/// matrix A-hat (NTT form) and H(ek), so repeated encapsulations do not redo ExpandA.
pub struct EncapsulationKey<P: ParameterSet> {
    pub(crate) bytes: P::EkBytes,
    pub(crate) st: EkState<P>,
    pub(crate) backend: Backend,
}

impl<P: ParameterSet> Clone for EncapsulationKey<P> {
    fn clone(&self) -> Self {
        EncapsulationKey {
            bytes: self.bytes,
            st: self.st.clone(),
            backend: self.backend,
        }
    }
}

impl<P: ParameterSet> PartialEq for EncapsulationKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}
impl<P: ParameterSet> Eq for EncapsulationKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for EncapsulationKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EncapsulationKey").finish_non_exhaustive()
    }
}

impl<P: ParameterSet> EncapsulationKey<P> {
    /// Parses an encoded key: length, then the FIPS 203 section 7.2 modulus check
    /// (every coefficient `< q`, else [`Error::InvalidKey`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes_with_backend(Backend::detect(), bytes)
    }

    /// As [`Self::from_bytes`] on an explicit backend (tests and benches).
    #[doc(hidden)]
    pub fn from_bytes_with_backend(backend: Backend, bytes: &[u8]) -> Result<Self, Error> {
        let bytes = P::EkBytes::try_from_slice(bytes).ok_or(Error::InvalidLength)?;
        let mut ek = Self {
            bytes,
            st: DimsOf::<P>::EK_STATE_ZERO,
            backend,
        };
        if !DimsOf::<P>::parse_ek(backend, ek.bytes.as_ref(), &mut ek.st) {
            return Err(Error::InvalidKey);
        }
        Ok(ek)
    }

    /// The encoded key.
    pub fn to_bytes(&self) -> P::EkBytes {
        self.bytes
    }

    /// ML-KEM.Encaps (FIPS 203 Algorithm 20): a random `m` from `rng`.
    pub fn encapsulate(
        &self,
        rng: &mut impl rand_core::CryptoRng,
    ) -> (Ciphertext<P>, SharedSecret) {
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
    pub fn encapsulate_deterministic(&self, m: &[u8; 32]) -> (Ciphertext<P>, SharedSecret) {
        self.encaps_internal(m)
    }

    fn encaps_internal(&self, m: &[u8; 32]) -> (Ciphertext<P>, SharedSecret) {
        let mut ct = P::CtBytes::zeroed();
        let k = self.encaps_into(m, ct.as_mut());
        (Ciphertext(ct), SharedSecret(k))
    }

    /// ML-KEM.Encaps_internal writing the ciphertext into `ct` (`CT_LEN` bytes, the caller's
    /// buffer: both key types' encapsulations end here).
    pub(crate) fn encaps_into(&self, m: &[u8; 32], ct: &mut [u8]) -> [u8; SHARED_SECRET_LEN] {
        DimsOf::<P>::encaps(self.backend, &self.st, m, ct)
    }
}

/// An ML-KEM decapsulation key of the parameter set `P`: the encapsulation key (with A-hat and
/// H(ek)) and the secret part s-hat, z, and the seed when built from one. The secret part is
/// wiped on drop.
///
/// `Clone` is kept, as RustCrypto `ml-kem`'s decapsulation key has it (a key held
/// by several owners, e.g. threads); each copy is wiped on its own drop.
pub struct DecapsulationKey<P: ParameterSet> {
    pub(crate) ek: EncapsulationKey<P>,
    pub(crate) sk: DkSecret<P>,
}

impl<P: ParameterSet> Clone for DecapsulationKey<P> {
    fn clone(&self) -> Self {
        DecapsulationKey {
            ek: self.ek.clone(),
            sk: self.sk.clone(),
        }
    }
}

/// The secret part of a decapsulation key: s-hat, z and the seed `d || z` when the key was built
/// from one; wiped on drop. Both decapsulation key types (this module's and the trait-facing
/// [`crate::ml_kem::DecapsulationKey`]) hold one next to their encapsulation key, and every
/// operation on a decapsulation key is written once here, taking the (native) encapsulation key.
pub(crate) struct DkSecret<P: ParameterSet> {
    pub(crate) s_hat: SHat<P>,
    pub(crate) z: [u8; 32],
    pub(crate) seed: Option<[u8; SEED_LEN]>,
}

impl<P: ParameterSet> Clone for DkSecret<P> {
    fn clone(&self) -> Self {
        DkSecret {
            s_hat: self.s_hat.clone(),
            z: self.z,
            seed: self.seed,
        }
    }
}

impl<P: ParameterSet> Drop for DkSecret<P> {
    fn drop(&mut self) {
        self.s_hat.zeroize();
        self.z.zeroize();
        if let Some(s) = self.seed.as_mut() {
            s.zeroize();
        }
    }
}

impl<P: ParameterSet> DkSecret<P> {
    /// `k`, the module rank.
    const K: usize = DimsOf::<P>::K;

    /// ML-KEM.KeyGen_internal (FIPS 203 Algorithm 16) from the seed `d || z`.
    pub(crate) fn keygen(backend: Backend, seed: &[u8; SEED_LEN]) -> (EncapsulationKey<P>, Self) {
        let mut d = [0u8; 32];
        d.copy_from_slice(&seed[..32]);
        let mut ek = EncapsulationKey::<P> {
            bytes: P::EkBytes::zeroed(),
            st: DimsOf::<P>::EK_STATE_ZERO,
            backend,
        };
        let mut sk = Self {
            s_hat: DimsOf::<P>::S_HAT_ZERO,
            z: [0; 32],
            seed: Some(*seed),
        };
        sk.z.copy_from_slice(&seed[32..]);
        DimsOf::<P>::keygen(backend, &d, ek.bytes.as_mut(), &mut ek.st, &mut sk.s_hat);
        d.zeroize();
        (ek, sk)
    }

    /// The expanded FIPS 203 encoding `dk_pke || ek || H(ek) || z`.
    pub(crate) fn to_expanded_bytes(&self, ek: &EncapsulationKey<P>) -> P::DkBytes {
        let k = Self::K;
        let mut out = P::DkBytes::zeroed();
        let o = out.as_mut();
        DimsOf::<P>::encode_s(ek.backend, &self.s_hat, &mut o[..384 * k]);
        o[384 * k..768 * k + 32].copy_from_slice(ek.bytes.as_ref());
        o[768 * k + 32..768 * k + 64].copy_from_slice(DimsOf::<P>::h(&ek.st));
        o[768 * k + 64..].copy_from_slice(&self.z);
        out
    }

    /// ML-KEM.Decaps (FIPS 203 Algorithm 21) of a `CT_LEN`-byte ciphertext.
    pub(crate) fn decaps(&self, ek: &EncapsulationKey<P>, ct: &[u8]) -> [u8; SHARED_SECRET_LEN] {
        DimsOf::<P>::decaps(ek.backend, &ek.st, &self.s_hat, &self.z, ct)
    }

    /// Constant-time equality of two keys `(a_ek, self)` and `(b_ek, b)`: through the expanded
    /// encoding (wiped afterwards), so the seed is left out.
    pub(crate) fn ct_eq_keys(
        &self,
        a_ek: &EncapsulationKey<P>,
        b: &Self,
        b_ek: &EncapsulationKey<P>,
    ) -> subtle::Choice {
        let mut a = self.to_expanded_bytes(a_ek);
        let mut b = b.to_expanded_bytes(b_ek);
        let eq = a.as_ref().ct_eq(b.as_ref());
        a.as_mut().zeroize();
        b.as_mut().zeroize();
        eq
    }
}

/// Constant time in the secret parts: compares s-hat, z and the encapsulation key (through
/// the expanded encoding, wiped afterwards); the seed is left out, so a key parsed from the
/// expanded form equals the one generated from its seed (as RustCrypto `ml-kem`'s equality).
impl<P: ParameterSet> ConstantTimeEq for DecapsulationKey<P> {
    fn ct_eq(&self, other: &Self) -> subtle::Choice {
        self.sk.ct_eq_keys(&self.ek, &other.sk, &other.ek)
    }
}

impl<P: ParameterSet> PartialEq for DecapsulationKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<P: ParameterSet> Eq for DecapsulationKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for DecapsulationKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DecapsulationKey").finish_non_exhaustive()
    }
}

impl<P: ParameterSet> DecapsulationKey<P> {
    /// `k`, the module rank.
    const K: usize = DimsOf::<P>::K;

    /// ML-KEM.KeyGen_internal (FIPS 203 Algorithm 16) from the seed `d || z`.
    pub fn from_seed(seed: &[u8; SEED_LEN]) -> Self {
        Self::from_seed_with_backend(Backend::detect(), seed)
    }

    /// As [`Self::from_seed`] on an explicit backend (tests and benches).
    #[doc(hidden)]
    pub fn from_seed_with_backend(backend: Backend, seed: &[u8; SEED_LEN]) -> Self {
        let (ek, sk) = DkSecret::keygen(backend, seed);
        Self { ek, sk }
    }

    /// ML-KEM.KeyGen (FIPS 203 Algorithm 19): a fresh seed from `rng`.
    pub fn generate(rng: &mut impl rand_core::CryptoRng) -> Self {
        let mut seed = [0u8; SEED_LEN];
        rng.fill_bytes(&mut seed);
        let dk = Self::from_seed(&seed);
        seed.zeroize();
        dk
    }

    /// ML-KEM.KeyGen (FIPS 203 Algorithm 19): a fresh seed from a fallible generator
    /// (`rand_core` 0.10 `TryCryptoRng`); the generator's error is returned as is.
    pub fn try_generate<R: rand_core::TryCryptoRng + ?Sized>(
        rng: &mut R,
    ) -> Result<Self, R::Error> {
        let mut seed = [0u8; SEED_LEN];
        let r = rng
            .try_fill_bytes(&mut seed)
            .map(|()| Self::from_seed(&seed));
        seed.zeroize();
        r
    }

    /// The seed `d || z` this key was generated from; `None` for a key parsed from
    /// the expanded encoding.
    pub fn seed(&self) -> Option<&[u8; SEED_LEN]> {
        self.sk.seed.as_ref()
    }

    /// The matching encapsulation key.
    pub fn encapsulation_key(&self) -> &EncapsulationKey<P> {
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
    pub fn from_expanded_bytes_with_backend(backend: Backend, bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != P::DkBytes::LEN {
            return Err(Error::InvalidLength);
        }
        let (dk_pke, rest) = bytes.split_at(384 * Self::K);
        let (ek, rest) = rest.split_at(P::EkBytes::LEN);
        let (h, z) = rest.split_at(32);
        // Parsing ek computes H(ek) (kept in the key); the section 7.3 check compares
        // it with the stored hash, so the hash is computed once.
        let ek = EncapsulationKey::from_bytes_with_backend(backend, ek)?;
        if !bool::from(DimsOf::<P>::h(&ek.st).ct_eq(h)) {
            return Err(Error::InvalidKey);
        }
        let mut sk = DkSecret {
            s_hat: DimsOf::<P>::S_HAT_ZERO,
            z: [0; 32],
            seed: None,
        };
        sk.z.copy_from_slice(z);
        DimsOf::<P>::decode_s(backend, dk_pke, &mut sk.s_hat);
        Ok(Self { ek, sk })
    }

    /// The expanded FIPS 203 encoding `dk_pke || ek || H(ek) || z`.
    pub fn to_expanded_bytes(&self) -> P::DkBytes {
        self.sk.to_expanded_bytes(&self.ek)
    }

    /// ML-KEM.Decaps (FIPS 203 Algorithm 21) with implicit rejection: an invalid
    /// ciphertext gives the pseudorandom key J(z || c), never an error; constant
    /// time in the key and the ciphertext's validity.
    pub fn decapsulate(&self, ct: &Ciphertext<P>) -> SharedSecret {
        SharedSecret(self.sk.decaps(&self.ek, ct.0.as_ref()))
    }
}

/// An ML-KEM ciphertext of the parameter set `P`.
pub struct Ciphertext<P: ParameterSet>(P::CtBytes);

impl<P: ParameterSet> Clone for Ciphertext<P> {
    fn clone(&self) -> Self {
        Ciphertext(self.0)
    }
}

impl<P: ParameterSet> PartialEq for Ciphertext<P> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<P: ParameterSet> Eq for Ciphertext<P> {}

impl<P: ParameterSet> core::fmt::Debug for Ciphertext<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Ciphertext").field(&self.0.as_ref()).finish()
    }
}

impl<P: ParameterSet> Ciphertext<P> {
    /// A ciphertext from its bytes ([`Error::InvalidLength`] unless `CT_LEN` long).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        P::CtBytes::try_from_slice(bytes)
            .map(Ciphertext)
            .ok_or(Error::InvalidLength)
    }
    /// The bytes.
    pub fn as_bytes(&self) -> &P::CtBytes {
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
