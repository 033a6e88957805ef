//! The RustCrypto-facing API (feature `kem`): the names, paths and trait set of RustCrypto
//! `ml-kem` 0.3.4, so code written for `ml-kem` compiles against Tessera with its `ml_kem::`
//! paths prefixed by `tessera_mlkem::` (or with `use tessera_mlkem::ml_kem;` and the paths
//! unchanged):
//!
//! ```
//! # #[cfg(feature = "kem")] {
//! use tessera_mlkem::ml_kem::{
//!     MlKem768,
//!     kem::{Decapsulate, Encapsulate, Kem},
//! };
//! # use rand::SeedableRng;
//! # let mut rng = rand::rngs::StdRng::from_seed([7; 32]);
//!
//! // Generate a decapsulation/encapsulation keypair
//! let (dk, ek) = MlKem768::generate_keypair_from_rng(&mut rng);
//!
//! // Encapsulate a shared key to the holder of the decapsulation key, receive the shared
//! // secret `k_send` and the encapsulated form `ct`.
//! let (ct, k_send) = ek.encapsulate_with_rng(&mut rng);
//!
//! // Decapsulate the shared key
//! let k_recv = dk.decapsulate(&ct);
//!
//! // We've now established a shared key
//! assert_eq!(k_send, k_recv);
//! # }
//! ```
//!
//! # Design
//!
//! The key types of this module are types of their own, separate from the native
//! [`crate::generic`] ones, because the native types' inherent methods (`decapsulate` taking a
//! Tessera [`crate::generic::Ciphertext`], `to_bytes` returning `[u8; N]`, `from_seed` taking
//! `&[u8; 64]`, ...) would win over the trait methods of the same names. Here the only inherent
//! methods are `ml-kem`'s own (`from_seed(Seed)`, `to_seed`, `encapsulation_key`,
//! `EncapsulationKey::new`, `from_expanded`) plus the typed-error PKCS#8 / SPKI parsers, so
//! method syntax reaches the `kem`, `crypto-common` and `pkcs8` traits as it does on `ml-kem`.
//!
//! There is one implementation underneath: [`EncapsulationKey<P>`] is a newtype over
//! [`crate::generic::EncapsulationKey<P>`]; [`DecapsulationKey<P>`] holds an
//! [`EncapsulationKey<P>`] of this module (so `Decapsulator::encapsulation_key` can return a
//! reference to it) next to the same secret part (s-hat, z, seed; wiped on drop) that the native
//! decapsulation key holds. Every operation calls the same dispatched routine as the native API
//! (`encaps`, `decaps`, key generation), writing into the traits' `Array` types without an
//! intermediate copy. `From` converts between the native and these types in both directions by
//! moving the parts (no computation, no copy of secrets beyond the move).
//!
//! `Kem` is implemented on the markers [`MlKem512`], [`MlKem768`], [`MlKem1024`] with these
//! types as its associated types (hence `FromSeed` and `generate_keypair_from_rng`);
//! `Encapsulate`, `TryKeyInit` (modulus-checked), `KeyExport` and `KeySizeUser` on
//! [`EncapsulationKey`]; `Decapsulate` (hence `TryDecapsulate`), `Decapsulator`, `Generate`,
//! `KeyInit` / `KeyExport` (the 64-byte seed), `KeySizeUser`, [`ExpandedKeyEncoding`] and
//! `From<Seed>` on [`DecapsulationKey`]; with feature `pkcs8` the traits of its module `pkcs8`.
//!
//! Differences from `ml-kem`: `EncapsulationKey::encapsulate_deterministic` (its `hazmat`
//! feature) is absent (FIPS 203 section 3.3 keeps `m` internal); `ParameterSet` is Tessera's
//! (a sealed set of the three markers, no associated sizes); `Debug` of a decapsulation key
//! shows nothing (`ml-kem` shows the encapsulation key); [`ExpandedKeyEncoding`] is not
//! deprecated here.
#![forbid(unsafe_code)]

use kem::common::array::sizes::{U32, U64, U768, U800, U1088, U1184, U1568, U1632, U2400, U3168};
use rand_core::{CryptoRng, TryCryptoRng};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::generic::{self, DkSecret, SEED_LEN};

#[cfg(feature = "pkcs8")]
pub mod pkcs8;

pub use crate::generic::ParameterSet;
pub use crate::{MlKem512, MlKem768, MlKem1024};
/// The `hybrid-array` crate (through `kem`'s re-export), as `ml-kem` re-exports it.
pub use kem::common::array::{self, Array, ArraySize};
/// The RustCrypto `kem` crate and its traits (and the `crypto-common` key traits it
/// re-exports), as `ml-kem` re-exports them; `Decapsulator` and `TryDecapsulate` too.
pub use kem::{
    self, Ciphertext, Decapsulate, Decapsulator, Encapsulate, FromSeed, Generate, InvalidKey, Kem,
    Key, KeyExport, KeyInit, KeySizeUser, TryDecapsulate, TryKeyInit,
};

/// A 32-byte array (`ml-kem`'s name).
pub type B32 = Array<u8, U32>;

/// The 64-byte seed `d || z` of a decapsulation key, its preferred serialization (`KeyInit` /
/// `KeyExport` of a decapsulation key, `FromSeed`).
pub type Seed = Array<u8, U64>;

/// A 32-byte shared key as the `kem` traits type it (not wiped on drop: the trait's type).
pub type SharedKey = Array<u8, U32>;

/// The legacy expanded decapsulation key encoding `dk_pke || ek || H(ek) || z` of `P`
/// (1632, 2400 or 3168 bytes).
pub type ExpandedDecapsulationKey<P> =
    Array<u8, <DecapsulationKey<P> as ExpandedKeyEncoding>::EncodedSize>;

/// An ML-KEM encapsulation key of the parameter set `P` for the RustCrypto traits: a newtype
/// over [`generic::EncapsulationKey<P>`] (t-hat, A-hat and H(ek) kept parsed).
pub struct EncapsulationKey<P: ParameterSet>(generic::EncapsulationKey<P>);

impl<P: ParameterSet> Clone for EncapsulationKey<P> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<P: ParameterSet> PartialEq for EncapsulationKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<P: ParameterSet> Eq for EncapsulationKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for EncapsulationKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EncapsulationKey").finish_non_exhaustive()
    }
}

impl<P: ParameterSet> From<generic::EncapsulationKey<P>> for EncapsulationKey<P> {
    fn from(ek: generic::EncapsulationKey<P>) -> Self {
        Self(ek)
    }
}

impl<P: ParameterSet> From<EncapsulationKey<P>> for generic::EncapsulationKey<P> {
    fn from(ek: EncapsulationKey<P>) -> Self {
        ek.0
    }
}

/// The native key underneath (its inherent API: `to_bytes() -> [u8; N]`, `encapsulate`, ...).
impl<P: ParameterSet> AsRef<generic::EncapsulationKey<P>> for EncapsulationKey<P> {
    fn as_ref(&self) -> &generic::EncapsulationKey<P> {
        &self.0
    }
}

impl<P: ParameterSet> EncapsulationKey<P>
where
    Self: KeySizeUser,
{
    /// Parses an encoded key with the FIPS 203 section 7.2 modulus check ([`InvalidKey`] when
    /// it fails), as `ml-kem`'s `EncapsulationKey::new`.
    pub fn new(encapsulation_key: &Key<Self>) -> Result<Self, InvalidKey> {
        generic::EncapsulationKey::from_bytes(encapsulation_key.as_slice())
            .map(Self)
            .map_err(|_| InvalidKey)
    }
}

/// An ML-KEM decapsulation key of the parameter set `P` for the RustCrypto traits: its
/// encapsulation key and the secret part (s-hat, z, and the seed when built from one) of the
/// native [`generic::DecapsulationKey<P>`], wiped on drop.
///
/// `==` is constant time and leaves the seed out (a key parsed from the expanded form equals the
/// one generated from its seed), as `ml-kem`'s. `Debug` shows nothing of the key.
pub struct DecapsulationKey<P: ParameterSet> {
    ek: EncapsulationKey<P>,
    sk: DkSecret<P>,
}

impl<P: ParameterSet> Clone for DecapsulationKey<P> {
    fn clone(&self) -> Self {
        Self {
            ek: self.ek.clone(),
            sk: self.sk.clone(),
        }
    }
}

impl<P: ParameterSet> ConstantTimeEq for DecapsulationKey<P> {
    fn ct_eq(&self, other: &Self) -> subtle::Choice {
        self.sk.ct_eq_keys(&self.ek.0, &other.sk, &other.ek.0)
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

/// The secret part wipes itself on drop.
impl<P: ParameterSet> zeroize::ZeroizeOnDrop for DecapsulationKey<P> {}

impl<P: ParameterSet> From<generic::DecapsulationKey<P>> for DecapsulationKey<P> {
    fn from(dk: generic::DecapsulationKey<P>) -> Self {
        let generic::DecapsulationKey { ek, sk } = dk;
        Self {
            ek: EncapsulationKey(ek),
            sk,
        }
    }
}

impl<P: ParameterSet> From<DecapsulationKey<P>> for generic::DecapsulationKey<P> {
    fn from(dk: DecapsulationKey<P>) -> Self {
        let DecapsulationKey { ek, sk } = dk;
        Self { ek: ek.0, sk }
    }
}

impl<P: ParameterSet> DecapsulationKey<P> {
    /// ML-KEM.KeyGen_internal (FIPS 203 Algorithm 16) from the 64-byte seed `d || z`, as
    /// `ml-kem`'s `DecapsulationKey::from_seed`.
    pub fn from_seed(seed: Seed) -> Self {
        let mut s: [u8; SEED_LEN] = seed.0;
        let dk = generic::DecapsulationKey::from_seed(&s).into();
        s.zeroize();
        dk
    }

    /// The seed `d || z` (`None` for a key parsed from the expanded encoding), as `ml-kem`'s
    /// `to_seed`.
    pub fn to_seed(&self) -> Option<Seed> {
        self.sk.seed.map(Array::from)
    }

    /// The matching encapsulation key.
    pub fn encapsulation_key(&self) -> &EncapsulationKey<P> {
        &self.ek
    }
}

impl<P: ParameterSet> DecapsulationKey<P>
where
    Self: ExpandedKeyEncoding,
{
    /// Parses the legacy expanded encoding with the FIPS 203 section 7.3 checks (H(ek), and the
    /// modulus check on the embedded ek), as `ml-kem`'s (deprecated) `from_expanded`; the seed
    /// form ([`Self::from_seed`]) is the one to use.
    pub fn from_expanded(enc: &ExpandedDecapsulationKey<P>) -> Result<Self, InvalidKey> {
        generic::DecapsulationKey::from_expanded_bytes(enc.as_slice())
            .map(Self::from)
            .map_err(|_| InvalidKey)
    }
}

/// The legacy expanded decapsulation key encoding `dk_pke || ek || H(ek) || z` (FIPS 203), as
/// `ml-kem`'s trait of this name (deprecated there: the 64-byte seed is the preferred form).
pub trait ExpandedKeyEncoding: Sized {
    /// The length of the expanded key.
    type EncodedSize: ArraySize;

    /// Parses the expanded form with the FIPS 203 section 7.3 checks.
    ///
    /// # Errors
    /// [`InvalidKey`] when a check fails.
    fn from_expanded_bytes(enc: &Array<u8, Self::EncodedSize>) -> Result<Self, InvalidKey>;

    /// The expanded form.
    fn to_expanded_bytes(&self) -> Array<u8, Self::EncodedSize>;
}

/// ML-KEM.KeyGen_internal from the seed `d || z`.
impl<P: ParameterSet> From<Seed> for DecapsulationKey<P> {
    fn from(seed: Seed) -> Self {
        Self::from_seed(seed)
    }
}

impl<P: ParameterSet> KeySizeUser for DecapsulationKey<P> {
    type KeySize = U64;
}

/// ML-KEM.KeyGen_internal from the seed `d || z`.
impl<P: ParameterSet> KeyInit for DecapsulationKey<P> {
    fn new(seed: &Seed) -> Self {
        generic::DecapsulationKey::from_seed(&seed.0).into()
    }
}

/// The seed `d || z`.
///
/// # Panics
/// On a key parsed from the expanded encoding (it has no seed), as `ml-kem` does;
/// [`DecapsulationKey::to_seed`] is the non-panicking form.
impl<P: ParameterSet> KeyExport for DecapsulationKey<P> {
    fn to_bytes(&self) -> Seed {
        match self.to_seed() {
            Some(s) => s,
            None => {
                panic!("ML-KEM decapsulation key without a seed (parsed from the expanded form)")
            }
        }
    }
}

/// ML-KEM.KeyGen (FIPS 203 Algorithm 19) from a fallible generator (its error passed through).
impl<P: ParameterSet> Generate for DecapsulationKey<P> {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        generic::DecapsulationKey::try_generate(rng).map(Self::from)
    }
}

macro_rules! kem_impls {
    ($set:ident, $module:ident, $n:literal, ek = $ek:ty, ct = $ct:ty, dk = $dk:ty) => {
        impl Kem for $set {
            type DecapsulationKey = DecapsulationKey<$set>;
            type EncapsulationKey = EncapsulationKey<$set>;
            type SharedKeySize = U32;
            type CiphertextSize = $ct;
        }

        impl KeySizeUser for EncapsulationKey<$set> {
            type KeySize = $ek;
        }

        /// Parses the encoded key with the FIPS 203 section 7.2 modulus check ([`InvalidKey`]
        /// when it fails).
        impl TryKeyInit for EncapsulationKey<$set> {
            fn new(key: &Key<Self>) -> Result<Self, InvalidKey> {
                EncapsulationKey::<$set>::new(key)
            }
        }

        /// The encoded key.
        impl KeyExport for EncapsulationKey<$set> {
            fn to_bytes(&self) -> Key<Self> {
                Array::from(self.0.bytes)
            }
        }

        /// ML-KEM.Encaps (FIPS 203 Algorithm 20) with `m` from the caller's generator.
        impl Encapsulate for EncapsulationKey<$set> {
            type Kem = $set;

            fn encapsulate_with_rng<R>(&self, rng: &mut R) -> (Ciphertext<$set>, SharedKey)
            where
                R: CryptoRng + ?Sized,
            {
                let mut m = [0u8; 32];
                rng.fill_bytes(&mut m);
                let mut ct = Ciphertext::<$set>::default();
                let k = self.0.encaps_into(&m, ct.as_mut_slice());
                m.zeroize();
                (ct, Array::from(k))
            }
        }

        impl Decapsulator for DecapsulationKey<$set> {
            type Kem = $set;

            fn encapsulation_key(&self) -> &EncapsulationKey<$set> {
                &self.ek
            }
        }

        /// ML-KEM.Decaps (FIPS 203 Algorithm 21) with implicit rejection: never an error.
        impl Decapsulate for DecapsulationKey<$set> {
            fn decapsulate(&self, ct: &Ciphertext<$set>) -> SharedKey {
                Array::from(self.sk.decaps(&self.ek.0, ct.as_slice()))
            }
        }

        impl ExpandedKeyEncoding for DecapsulationKey<$set> {
            type EncodedSize = $dk;

            fn from_expanded_bytes(enc: &Array<u8, $dk>) -> Result<Self, InvalidKey> {
                Self::from_expanded(enc)
            }

            fn to_expanded_bytes(&self) -> Array<u8, $dk> {
                Array::from(self.sk.to_expanded_bytes(&self.ek.0))
            }
        }

        #[doc = concat!("ML-KEM-", $n, ": the marker and its key types, as `ml-kem`'s module of this name.")]
        pub mod $module {
            pub use crate::$set;

            #[doc = concat!("An ML-KEM-", $n, " decapsulation key.")]
            pub type DecapsulationKey = super::DecapsulationKey<$set>;
            #[doc = concat!("An ML-KEM-", $n, " encapsulation key.")]
            pub type EncapsulationKey = super::EncapsulationKey<$set>;
            #[doc = concat!("An ML-KEM-", $n, " ciphertext (`kem::Ciphertext`).")]
            pub type Ciphertext = kem::Ciphertext<$set>;
            #[doc = concat!("The legacy expanded ML-KEM-", $n, " decapsulation key encoding.")]
            pub type ExpandedDecapsulationKey = super::ExpandedDecapsulationKey<$set>;
        }
    };
}

kem_impls!(
    MlKem512,
    ml_kem_512,
    "512",
    ek = U800,
    ct = U768,
    dk = U1632
);
kem_impls!(
    MlKem768,
    ml_kem_768,
    "768",
    ek = U1184,
    ct = U1088,
    dk = U2400
);
kem_impls!(
    MlKem1024,
    ml_kem_1024,
    "1024",
    ek = U1568,
    ct = U1568,
    dk = U3168
);

/// An ML-KEM-512 decapsulation key.
pub type DecapsulationKey512 = ml_kem_512::DecapsulationKey;
/// An ML-KEM-512 encapsulation key.
pub type EncapsulationKey512 = ml_kem_512::EncapsulationKey;
/// An ML-KEM-768 decapsulation key.
pub type DecapsulationKey768 = ml_kem_768::DecapsulationKey;
/// An ML-KEM-768 encapsulation key.
pub type EncapsulationKey768 = ml_kem_768::EncapsulationKey;
/// An ML-KEM-1024 decapsulation key.
pub type DecapsulationKey1024 = ml_kem_1024::DecapsulationKey;
/// An ML-KEM-1024 encapsulation key.
pub type EncapsulationKey1024 = ml_kem_1024::EncapsulationKey;
