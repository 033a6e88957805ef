#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

//! # Design
//!
//! X-Wing (draft-connolly-cfrg-xwing-kem, the version with the 32-byte seed as the private key,
//! SHAKE-256 key expansion and the label at the end of the combiner) over Tessera's ML-KEM-768,
//! X25519 and SHA-3, each of which dispatches to its best backend itself:
//!
//! - key generation: `expanded = SHAKE256(seed, 96)`; ML-KEM-768 `KeyGen_internal(d || z)`
//!   from the first 64 bytes, the X25519 secret from the last 32;
//! - encapsulation key `ek_M || pk_X` (1216 bytes), ciphertext `ct_M || ct_X` (1120 bytes);
//! - shared secret `SHA3-256(ss_M || ss_X || ct_X || pk_X || "\./" "/^\")`.
//!
//! Decapsulation accepts an all-zero X25519 output (a small-order `ct_X`), as the draft's
//! `Decapsulate` and RustCrypto `x-wing`'s `DecapsulationKey` do; with the `kem` feature,
//! [`DecapsulationKeyRejectNonContrib`] refuses it instead. The branch-free parts are those of
//! the primitives; the only comparison here (the all-zero test) is constant time.

#[cfg(feature = "kem")]
mod kem_traits;
#[cfg(feature = "pkcs8")]
pub mod pkcs8;
#[cfg(feature = "pkcs8")]
pub use ::pkcs8 as pkcs8_traits;

#[cfg(feature = "kem")]
pub use ::kem::{
    self, Decapsulate, Decapsulator, Encapsulate, Generate, InvalidKey, Kem, Key, KeyExport,
    KeyInit, KeySizeUser, TryDecapsulate, TryKeyInit,
    common::rand_core::{CryptoRng, TryCryptoRng},
};
#[cfg(feature = "kem")]
pub use kem_traits::{
    DecapsulationError, DecapsulationKeyRejectNonContrib, KemCiphertext, SharedKey, XWingKem,
};

use subtle::{Choice, ConstantTimeEq};
use tessera_mlkem::ml_kem_768;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

/// Size in bytes of an [`EncapsulationKey`]: `ek_M` (1184) `|| pk_X` (32).
pub const ENCAPSULATION_KEY_SIZE: usize = ml_kem_768::EK_LEN + 32;
/// Size in bytes of a [`DecapsulationKey`]: the seed.
pub const DECAPSULATION_KEY_SIZE: usize = 32;
/// Size in bytes of a [`Ciphertext`]: `ct_M` (1088) `|| ct_X` (32).
pub const CIPHERTEXT_SIZE: usize = ml_kem_768::CT_LEN + 32;
/// Size in bytes of a [`SharedSecret`].
pub const SHARED_SECRET_SIZE: usize = 32;
/// Bytes of randomness one encapsulation draws: ML-KEM's `m`, then the ephemeral X25519 secret.
pub const ENCAPSULATION_RANDOMNESS_SIZE: usize = 64;

/// The combiner label `\./` `/^\`.
const LABEL: [u8; 6] = [0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c];

/// Errors of this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An encoding of the wrong length (key, seed or ciphertext).
    InvalidLength,
    /// An encapsulation key whose ML-KEM part fails the FIPS 203 modulus check.
    InvalidEncapsulationKey,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "X-Wing encoding of the wrong length",
            Error::InvalidEncapsulationKey => "X-Wing encapsulation key fails the ML-KEM check",
        })
    }
}

impl core::error::Error for Error {}

/// An X-Wing encapsulation (public) key: the ML-KEM-768 key, parsed and checked, and the
/// X25519 public key, with the encoding kept.
#[derive(Clone, Debug, PartialEq)]
pub struct EncapsulationKey {
    ek_m: ml_kem_768::EncapsulationKey,
    pk_x: [u8; 32],
    bytes: [u8; ENCAPSULATION_KEY_SIZE],
}

impl Eq for EncapsulationKey {}

impl EncapsulationKey {
    /// The key from its 1216 bytes: [`Error::InvalidLength`] for another length,
    /// [`Error::InvalidEncapsulationKey`] when the ML-KEM part fails the modulus check.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let bytes: &[u8; ENCAPSULATION_KEY_SIZE] =
            bytes.try_into().map_err(|_| Error::InvalidLength)?;
        Self::from_array(bytes)
    }

    fn from_array(bytes: &[u8; ENCAPSULATION_KEY_SIZE]) -> Result<Self, Error> {
        let (m, x) = bytes.split_at(ml_kem_768::EK_LEN);
        let ek_m = ml_kem_768::EncapsulationKey::from_bytes(m)
            .map_err(|_| Error::InvalidEncapsulationKey)?;
        let mut pk_x = [0u8; 32];
        pk_x.copy_from_slice(x);
        Ok(Self {
            ek_m,
            pk_x,
            bytes: *bytes,
        })
    }

    /// The encoding `ek_M || pk_X`.
    pub fn as_bytes(&self) -> &[u8; ENCAPSULATION_KEY_SIZE] {
        &self.bytes
    }

    /// The encoding `ek_M || pk_X`.
    pub fn to_bytes(&self) -> [u8; ENCAPSULATION_KEY_SIZE] {
        self.bytes
    }

    /// X-Wing `Encapsulate`: 64 bytes of `rng` (ML-KEM's `m`, then the ephemeral X25519
    /// secret), the ciphertext and the shared secret.
    pub fn encapsulate(
        &self,
        rng: &mut (impl rand_core::CryptoRng + ?Sized),
    ) -> (Ciphertext, SharedSecret) {
        // The draw order of `eseed = m || ek_X`: ML-KEM draws `m` first.
        let (ct_m, ss_m) = self.ek_m.encapsulate(&mut &mut *rng);
        let mut ek_x = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut ek_x[..]);
        self.encapsulate_x25519(&ct_m, &ss_m, &ek_x)
    }

    /// X-Wing `EncapsulateDerand` with the given `eseed = m || ek_X`: for test vectors only (a
    /// repeated `eseed` repeats the shared secret), so it exists only in test builds
    /// (`--cfg tessera_test_hooks`), as ML-KEM's deterministic encapsulation does.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    pub fn encapsulate_deterministic(
        &self,
        eseed: &[u8; ENCAPSULATION_RANDOMNESS_SIZE],
    ) -> (Ciphertext, SharedSecret) {
        let mut m = Zeroizing::new([0u8; 32]);
        m.copy_from_slice(&eseed[..32]);
        let mut ek_x = Zeroizing::new([0u8; 32]);
        ek_x.copy_from_slice(&eseed[32..]);
        let (ct_m, ss_m) = self.ek_m.encapsulate_deterministic(&m);
        self.encapsulate_x25519(&ct_m, &ss_m, &ek_x)
    }

    /// The X25519 half of `Encapsulate` and the combiner, given the ML-KEM-768 half and the
    /// ephemeral X25519 secret `ek_X`.
    fn encapsulate_x25519(
        &self,
        ct_m: &ml_kem_768::Ciphertext,
        ss_m: &ml_kem_768::SharedSecret,
        ek_x: &[u8; 32],
    ) -> (Ciphertext, SharedSecret) {
        let mut ct = Ciphertext([0u8; CIPHERTEXT_SIZE]);
        ct.0[..ml_kem_768::CT_LEN].copy_from_slice(ct_m.as_bytes());
        let mut ct_x = [0u8; 32];
        tessera_x25519::x25519_base_into(ek_x, &mut ct_x);
        ct.0[ml_kem_768::CT_LEN..].copy_from_slice(&ct_x);
        let mut ss_x = Zeroizing::new([0u8; 32]);
        tessera_x25519::x25519_into(ek_x, &self.pk_x, &mut ss_x);
        let ss = combine(ss_m.as_bytes(), &ss_x, &ct_x, &self.pk_x);
        (ct, ss)
    }
}

/// `SHA3-256(ss_M || ss_X || ct_X || pk_X || XWingLabel)`.
fn combine(ss_m: &[u8; 32], ss_x: &[u8; 32], ct_x: &[u8; 32], pk_x: &[u8; 32]) -> SharedSecret {
    let mut h = tessera_keccak::Sha3_256::new();
    h.update(ss_m)
        .update(ss_x)
        .update(ct_x)
        .update(pk_x)
        .update(&LABEL);
    SharedSecret(h.finalize())
}

/// An X-Wing decapsulation (private) key: the 32-byte seed, with the expanded ML-KEM-768 key,
/// the X25519 secret and the encapsulation key cached. Wiped on drop (each clone on its own).
#[derive(Clone)]
pub struct DecapsulationKey {
    seed: [u8; DECAPSULATION_KEY_SIZE],
    dk_m: ml_kem_768::DecapsulationKey,
    sk_x: [u8; 32],
    ek: EncapsulationKey,
}

impl DecapsulationKey {
    /// X-Wing `GenerateKeyPair`: a 32-byte seed from `rng`.
    pub fn generate(rng: &mut (impl rand_core::CryptoRng + ?Sized)) -> Self {
        let mut seed = Zeroizing::new([0u8; DECAPSULATION_KEY_SIZE]);
        rng.fill_bytes(&mut seed[..]);
        Self::from_seed(&seed)
    }

    /// X-Wing `GenerateKeyPairDerand`: the key of a 32-byte seed.
    pub fn from_seed(seed: &[u8; DECAPSULATION_KEY_SIZE]) -> Self {
        let mut expanded = Zeroizing::new([0u8; 96]);
        tessera_keccak::shake256(seed, &mut expanded[..]);
        let mut d_z = Zeroizing::new([0u8; 64]);
        d_z.copy_from_slice(&expanded[..64]);
        let dk_m = ml_kem_768::DecapsulationKey::from_seed(&d_z);
        let mut sk_x = Zeroizing::new([0u8; 32]);
        sk_x.copy_from_slice(&expanded[64..]);
        let mut pk_x = [0u8; 32];
        tessera_x25519::x25519_base_into(&sk_x, &mut pk_x);
        let ek_m = dk_m.encapsulation_key().clone();
        let mut bytes = [0u8; ENCAPSULATION_KEY_SIZE];
        bytes[..ml_kem_768::EK_LEN].copy_from_slice(&ek_m.to_bytes());
        bytes[ml_kem_768::EK_LEN..].copy_from_slice(&pk_x);
        Self {
            seed: *seed,
            dk_m,
            sk_x: *sk_x,
            ek: EncapsulationKey { ek_m, pk_x, bytes },
        }
    }

    /// The key from its 32-byte seed ([`Error::InvalidLength`] for another length).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let seed: &[u8; DECAPSULATION_KEY_SIZE] =
            bytes.try_into().map_err(|_| Error::InvalidLength)?;
        Ok(Self::from_seed(seed))
    }

    /// The seed: the encoding of the key.
    pub fn as_bytes(&self) -> &[u8; DECAPSULATION_KEY_SIZE] {
        &self.seed
    }

    /// The encapsulation key.
    pub fn encapsulation_key(&self) -> &EncapsulationKey {
        &self.ek
    }

    /// X-Wing `Decapsulate` (never fails: ML-KEM rejects implicitly, and an all-zero X25519
    /// output is combined like any other, as the draft says).
    pub fn decapsulate(&self, ct: &Ciphertext) -> SharedSecret {
        self.decapsulate_array(&ct.0).0
    }

    /// `Decapsulate` on the encoded ciphertext, with whether the X25519 output is all zero
    /// (tested in constant time).
    #[cfg_attr(not(feature = "kem"), allow(clippy::unused_self))]
    pub(crate) fn decapsulate_array(&self, ct: &[u8; CIPHERTEXT_SIZE]) -> (SharedSecret, Choice) {
        let (ct_m, ct_x) = ct.split_at(ml_kem_768::CT_LEN);
        let ct_m = ml_kem_768::Ciphertext::from_bytes(ct_m).expect("1088 bytes");
        let ss_m = self.dk_m.decapsulate(&ct_m);
        let mut ct_x_arr = [0u8; 32];
        ct_x_arr.copy_from_slice(ct_x);
        let mut ss_x = Zeroizing::new([0u8; 32]);
        tessera_x25519::x25519_into(&self.sk_x, &ct_x_arr, &mut ss_x);
        let zero = ss_x.ct_eq(&[0u8; 32]);
        (
            combine(ss_m.as_bytes(), &ss_x, &ct_x_arr, &self.ek.pk_x),
            zero,
        )
    }
}

impl core::fmt::Debug for DecapsulationKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DecapsulationKey")
            .field("ek", &self.ek)
            .finish_non_exhaustive()
    }
}

impl Drop for DecapsulationKey {
    fn drop(&mut self) {
        // The ML-KEM key wipes itself.
        self.seed.zeroize();
        self.sk_x.zeroize();
    }
}

impl ZeroizeOnDrop for DecapsulationKey {}

impl From<[u8; DECAPSULATION_KEY_SIZE]> for DecapsulationKey {
    fn from(seed: [u8; DECAPSULATION_KEY_SIZE]) -> Self {
        let mut seed = Zeroizing::new(seed);
        let key = Self::from_seed(&seed);
        seed.zeroize();
        key
    }
}

/// An X-Wing ciphertext `ct_M || ct_X` (1120 bytes). Every 1120-byte string is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ciphertext([u8; CIPHERTEXT_SIZE]);

impl Ciphertext {
    /// The ciphertext from its bytes ([`Error::InvalidLength`] for another length).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Ok(Self(bytes.try_into().map_err(|_| Error::InvalidLength)?))
    }

    /// The encoding.
    pub fn as_bytes(&self) -> &[u8; CIPHERTEXT_SIZE] {
        &self.0
    }
}

impl From<[u8; CIPHERTEXT_SIZE]> for Ciphertext {
    fn from(bytes: [u8; CIPHERTEXT_SIZE]) -> Self {
        Self(bytes)
    }
}

impl AsRef<[u8]> for Ciphertext {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// The 32-byte X-Wing shared secret. Wiped on drop; compared in constant time.
pub struct SharedSecret([u8; SHARED_SECRET_SIZE]);

impl SharedSecret {
    /// The secret bytes.
    pub fn as_bytes(&self) -> &[u8; SHARED_SECRET_SIZE] {
        &self.0
    }
}

impl ConstantTimeEq for SharedSecret {
    fn ct_eq(&self, other: &Self) -> Choice {
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
        f.write_str("SharedSecret { .. }")
    }
}

impl Drop for SharedSecret {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl ZeroizeOnDrop for SharedSecret {}
