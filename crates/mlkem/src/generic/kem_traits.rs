//! The RustCrypto `kem` 0.3 traits (feature `kem`), the same set as RustCrypto `ml-kem` 0.3.4:
//! `Kem` on the markers [`MlKem512`], [`MlKem768`], [`MlKem1024`] (hence `FromSeed` and
//! `generate_keypair_from_rng`); `Encapsulate`, `TryKeyInit`, `KeyExport` and `KeySizeUser` on
//! [`EncapsulationKey`]; `Decapsulate` (hence `TryDecapsulate`), `Decapsulator`, `Generate`,
//! `KeyInit` (from the 64-byte seed), `KeyExport` (the seed) and `KeySizeUser` on
//! [`DecapsulationKey`]; `From<Seed>` on the decapsulation key.
//!
//! Each impl calls the dispatched operation of the key's backend directly (`DimsOf::<P>::encaps`,
//! `decaps`), writing into the trait's `Array` types without an intermediate copy.
#![forbid(unsafe_code)]

use kem::common::array::Array;
use kem::common::array::sizes::{U32, U64, U768, U800, U1088, U1184, U1568};
use kem::{
    Ciphertext as KemCiphertext, Decapsulate, Decapsulator, Encapsulate, Generate, InvalidKey, Kem,
    Key, KeyExport, KeyInit, KeySizeUser, SharedKey, TryKeyInit,
};
use rand_core::{CryptoRng, TryCryptoRng};
use zeroize::Zeroize;

use super::{DecapsulationKey, EncapsulationKey, SEED_LEN};
use crate::dims::Ops;
use crate::parameter_set::DimsOf;
use crate::{MlKem512, MlKem768, MlKem1024};

/// A 64-byte ML-KEM seed `d || z` as the `kem` traits type it (`KeyInit` / `KeyExport` of a
/// decapsulation key, `FromSeed`).
pub type Seed = Array<u8, U64>;

/// A 32-byte shared key as the `kem` traits type it (not wiped on drop: the trait's type).
pub type SharedKey32 = Array<u8, U32>;

macro_rules! kem_impls {
    ($set:ty, ek = $ek:ty, ct = $ct:ty) => {
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
                Self::from_bytes(key.as_slice()).map_err(|_| InvalidKey)
            }
        }

        /// The encoded key.
        impl KeyExport for EncapsulationKey<$set> {
            fn to_bytes(&self) -> Key<Self> {
                Array::from(self.bytes)
            }
        }

        /// ML-KEM.Encaps (FIPS 203 Algorithm 20) with `m` from the caller's generator.
        impl Encapsulate for EncapsulationKey<$set> {
            type Kem = $set;

            fn encapsulate_with_rng<R>(&self, rng: &mut R) -> (KemCiphertext<$set>, SharedKey<$set>)
            where
                R: CryptoRng + ?Sized,
            {
                let mut m = [0u8; 32];
                rng.fill_bytes(&mut m);
                let mut ct = KemCiphertext::<$set>::default();
                let k = DimsOf::<$set>::encaps(self.backend, &self.st, &m, ct.as_mut_slice());
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
            fn decapsulate(&self, ct: &KemCiphertext<$set>) -> SharedKey<$set> {
                Array::from(DimsOf::<$set>::decaps(
                    self.ek.backend,
                    &self.ek.st,
                    &self.s_hat,
                    &self.z,
                    ct.as_slice(),
                ))
            }
        }
    };
}

kem_impls!(MlKem512, ek = U800, ct = U768);
kem_impls!(MlKem768, ek = U1184, ct = U1088);
kem_impls!(MlKem1024, ek = U1568, ct = U1568);

impl<P: crate::generic::ParameterSet> KeySizeUser for DecapsulationKey<P> {
    type KeySize = U64;
}

/// ML-KEM.KeyGen_internal from the seed `d || z`.
impl<P: crate::generic::ParameterSet> KeyInit for DecapsulationKey<P> {
    fn new(seed: &Seed) -> Self {
        Self::from_seed(&seed.0)
    }
}

/// The seed `d || z`.
///
/// # Panics
/// On a key parsed from the expanded encoding (it has no seed), as RustCrypto `ml-kem` does;
/// [`DecapsulationKey::seed`] is the non-panicking form.
impl<P: crate::generic::ParameterSet> KeyExport for DecapsulationKey<P> {
    fn to_bytes(&self) -> Seed {
        match self.seed.as_ref() {
            Some(s) => Array::from(*s),
            None => {
                panic!("ML-KEM decapsulation key without a seed (parsed from the expanded form)")
            }
        }
    }
}

/// ML-KEM.KeyGen (FIPS 203 Algorithm 19) from a fallible generator.
impl<P: crate::generic::ParameterSet> Generate for DecapsulationKey<P> {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        Self::try_generate(rng)
    }
}

impl<P: crate::generic::ParameterSet> From<Seed> for DecapsulationKey<P> {
    fn from(seed: Seed) -> Self {
        let mut s: [u8; SEED_LEN] = seed.0;
        let dk = Self::from_seed(&s);
        s.zeroize();
        dk
    }
}

impl<P: crate::generic::ParameterSet> DecapsulationKey<P> {
    /// The seed as the `kem` traits type it (`None` for a key parsed from the expanded
    /// encoding), as RustCrypto `ml-kem`'s `to_seed`.
    pub fn to_seed(&self) -> Option<Seed> {
        self.seed.map(Array::from)
    }
}
