//! The `kem` 0.3 traits, the trait set of RustCrypto `x-wing` 0.1.1 item for item:
//! [`XWingKem`] (`Kem`, hence `FromSeed` with the 32-byte seed), [`EncapsulationKey`]
//! (`Encapsulate`, `KeySizeUser`, `KeyExport`, `TryKeyInit`, `TryFrom<&[u8]>`),
//! [`DecapsulationKey`] (`Decapsulate`, `Decapsulator`, `Generate`, `KeySizeUser`, `KeyInit`,
//! `KeyExport`, `From<[u8; 32]>`) and [`DecapsulationKeyRejectNonContrib`] (`TryDecapsulate`
//! with [`DecapsulationError`] for an all-zero X25519 output, and the rest as above).

use ::kem::common::array::{
    Array,
    sizes::{U32, U1120, U1216},
};
use ::kem::{
    Decapsulate, Decapsulator, Encapsulate, Generate, InvalidKey, Kem, Key, KeyExport, KeyInit,
    KeySizeUser, TryDecapsulate, TryKeyInit,
};
use rand_core::{CryptoRng, TryCryptoRng};
use zeroize::Zeroizing;

use crate::{CIPHERTEXT_SIZE, DECAPSULATION_KEY_SIZE, DecapsulationKey, EncapsulationKey};

/// The X-Wing KEM (the `kem::Kem` type family).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct XWingKem;

impl Kem for XWingKem {
    type DecapsulationKey = DecapsulationKey;
    type EncapsulationKey = EncapsulationKey;
    type CiphertextSize = U1120;
    type SharedKeySize = U32;
}

/// The ciphertext of the `kem` traits (`x_wing::Ciphertext`): 1120 bytes.
pub type KemCiphertext = ::kem::Ciphertext<XWingKem>;
/// The shared key of the `kem` traits (`x_wing::SharedKey`): 32 bytes.
pub type SharedKey = Array<u8, U32>;

/// Moves a native shared secret into the traits' array (the native value is wiped on drop).
fn shared_key(ss: &crate::SharedSecret) -> SharedKey {
    Array(*ss.as_bytes())
}

impl KeySizeUser for EncapsulationKey {
    type KeySize = U1216;
}

impl KeyExport for EncapsulationKey {
    fn to_bytes(&self) -> Key<Self> {
        Array(self.bytes)
    }
}

impl TryKeyInit for EncapsulationKey {
    fn new(key: &Key<Self>) -> Result<Self, InvalidKey> {
        Self::from_array(&key.0).map_err(|_| InvalidKey)
    }
}

impl TryFrom<&[u8]> for EncapsulationKey {
    type Error = InvalidKey;

    fn try_from(bytes: &[u8]) -> Result<Self, InvalidKey> {
        Self::from_bytes(bytes).map_err(|_| InvalidKey)
    }
}

impl Encapsulate for EncapsulationKey {
    type Kem = XWingKem;

    fn encapsulate_with_rng<R>(&self, rng: &mut R) -> (KemCiphertext, SharedKey)
    where
        R: CryptoRng + ?Sized,
    {
        let (ct, ss) = self.encapsulate(rng);
        (Array(*ct.as_bytes()), shared_key(&ss))
    }
}

impl Decapsulator for DecapsulationKey {
    type Kem = XWingKem;

    fn encapsulation_key(&self) -> &EncapsulationKey {
        &self.ek
    }
}

impl Decapsulate for DecapsulationKey {
    fn decapsulate(&self, ct: &KemCiphertext) -> SharedKey {
        let ct: &[u8; CIPHERTEXT_SIZE] = &ct.0;
        shared_key(&self.decapsulate_array(ct).0)
    }
}

impl KeySizeUser for DecapsulationKey {
    type KeySize = U32;
}

impl KeyInit for DecapsulationKey {
    fn new(key: &Key<Self>) -> Self {
        Self::from_seed(&key.0)
    }
}

impl KeyExport for DecapsulationKey {
    fn to_bytes(&self) -> Key<Self> {
        Array(self.seed)
    }
}

impl Generate for DecapsulationKey {
    fn try_generate_from_rng<R>(rng: &mut R) -> Result<Self, R::Error>
    where
        R: TryCryptoRng + ?Sized,
    {
        let mut seed = Zeroizing::new([0u8; DECAPSULATION_KEY_SIZE]);
        rng.try_fill_bytes(&mut seed[..])?;
        Ok(Self::from_seed(&seed))
    }
}

/// The error of [`DecapsulationKeyRejectNonContrib`]: the X25519 output is all zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecapsulationError;

impl core::fmt::Display for DecapsulationError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("decapsulation error")
    }
}

impl core::error::Error for DecapsulationError {}

/// An X-Wing decapsulation key that refuses a ciphertext whose X25519 output is all zero (a
/// small-order `ct_X`), the alternative `x-wing` 0.1 offers while CFRG settles the behaviour.
/// The test is constant time; only its outcome, which depends on the public `ct_X`, branches.
#[derive(Clone, Debug)]
pub struct DecapsulationKeyRejectNonContrib(DecapsulationKey);

impl TryDecapsulate for DecapsulationKeyRejectNonContrib {
    type Error = DecapsulationError;

    fn try_decapsulate(&self, ct: &KemCiphertext) -> Result<SharedKey, DecapsulationError> {
        let (ss, zero) = self.0.decapsulate_array(&ct.0);
        if bool::from(zero) {
            return Err(DecapsulationError);
        }
        Ok(shared_key(&ss))
    }
}

impl Decapsulator for DecapsulationKeyRejectNonContrib {
    type Kem = XWingKem;

    fn encapsulation_key(&self) -> &EncapsulationKey {
        self.0.encapsulation_key()
    }
}

impl From<[u8; DECAPSULATION_KEY_SIZE]> for DecapsulationKeyRejectNonContrib {
    fn from(seed: [u8; DECAPSULATION_KEY_SIZE]) -> Self {
        Self(seed.into())
    }
}

impl From<DecapsulationKey> for DecapsulationKeyRejectNonContrib {
    fn from(key: DecapsulationKey) -> Self {
        Self(key)
    }
}

impl Generate for DecapsulationKeyRejectNonContrib {
    fn try_generate_from_rng<R>(rng: &mut R) -> Result<Self, R::Error>
    where
        R: TryCryptoRng + ?Sized,
    {
        DecapsulationKey::try_generate_from_rng(rng).map(Self)
    }
}

impl KeySizeUser for DecapsulationKeyRejectNonContrib {
    type KeySize = U32;
}

impl KeyInit for DecapsulationKeyRejectNonContrib {
    fn new(key: &Key<Self>) -> Self {
        Self(DecapsulationKey::new(key))
    }
}

impl KeyExport for DecapsulationKeyRejectNonContrib {
    fn to_bytes(&self) -> Key<Self> {
        self.0.to_bytes()
    }
}
