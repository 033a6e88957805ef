//! X25519 as a Diffie-Hellman KEM under the `kem` 0.3 traits, the shape of RustCrypto
//! `dhkem`'s `X25519Kem`: the ciphertext is an ephemeral public key `X25519(e, 9)`, the shared
//! key is the raw `X25519(e, pk)` output (32 bytes), with no KDF (RFC 9180's DHKEM, which
//! hashes it with the context, is the umbrella crate's HPKE).
//!
//! The all-zero output is excluded on both sides: [`EncapsulationKey`] refuses a small-order
//! public key when it is made (so `encapsulate`, which the trait makes infallible, never yields
//! it), and [`DecapsulationKey`] implements `TryDecapsulate` with
//! [`Error::NonContributory`](crate::Error::NonContributory) for a small-order ciphertext.
#![forbid(unsafe_code)]

use kem::common::array::{Array, sizes::U32};
use kem::{
    Decapsulator, Encapsulate, Generate, InvalidKey, Key, KeyExport, KeyInit, KeySizeUser,
    TryDecapsulate, TryKeyInit,
};
use rand_core::{CryptoRng, TryCryptoRng};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::{Error, PublicKey, StaticSecret};

/// The X25519 Diffie-Hellman KEM: 32-byte keys, ciphertexts and shared keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct X25519Kem;

impl kem::Kem for X25519Kem {
    type DecapsulationKey = DecapsulationKey;
    type EncapsulationKey = EncapsulationKey;
    type CiphertextSize = U32;
    type SharedKeySize = U32;
}

/// The ciphertext: the sender's ephemeral public key.
pub type Ciphertext = kem::Ciphertext<X25519Kem>;
/// The shared key: the raw X25519 output (never all zero).
pub type SharedKey = kem::SharedKey<X25519Kem>;

/// Whether `u` is a point of small order (or its twist's): then `X25519(k, u)` is zero for every
/// clamped `k` (a multiple of the cofactor 8, below the large prime order), and only then. The
/// key is public, so the branch on the outcome leaks nothing.
fn is_small_order(u: &[u8; 32]) -> bool {
    let mut k = [0u8; 32];
    k[0] = 1;
    let out = crate::x25519(k, *u);
    bool::from(out.ct_eq(&[0u8; 32]))
}

/// An X25519 public key that is not of small order, as a KEM encapsulation key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncapsulationKey(PublicKey);

impl EncapsulationKey {
    /// The key from its 32 bytes; [`Error::NonContributory`] for a small-order point.
    pub fn from_public_key(pk: PublicKey) -> Result<Self, Error> {
        if is_small_order(&pk.0) {
            return Err(Error::NonContributory);
        }
        Ok(Self(pk))
    }

    /// The X25519 public key.
    pub fn public_key(&self) -> &PublicKey {
        &self.0
    }
}

impl KeySizeUser for EncapsulationKey {
    type KeySize = U32;
}

impl TryKeyInit for EncapsulationKey {
    fn new(key: &Key<Self>) -> Result<Self, InvalidKey> {
        Self::from_public_key(PublicKey(key.0)).map_err(|_| InvalidKey)
    }
}

impl KeyExport for EncapsulationKey {
    fn to_bytes(&self) -> Key<Self> {
        Array(self.0.0)
    }
}

impl Encapsulate for EncapsulationKey {
    type Kem = X25519Kem;

    fn encapsulate_with_rng<R>(&self, rng: &mut R) -> (Ciphertext, SharedKey)
    where
        R: CryptoRng + ?Sized,
    {
        let mut e = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut e[..]);
        let mut ct = Array([0u8; 32]);
        crate::x25519_base_into(&e, &mut ct.0);
        let mut ss = Array([0u8; 32]);
        // Nonzero: the key is not of small order (checked when it was made).
        crate::x25519_into(&e, &self.0.0, &mut ss.0);
        (ct, ss)
    }
}

/// An X25519 secret with its public key, as a KEM decapsulation key. Wiped on drop.
#[derive(Clone, Debug)]
pub struct DecapsulationKey {
    secret: StaticSecret,
    ek: EncapsulationKey,
}

impl DecapsulationKey {
    /// The key from a secret (32 bytes, clamped at use). Its public key is never of small
    /// order (the clamped scalar is a nonzero multiple of 8 below the group order).
    pub fn from_secret(secret: StaticSecret) -> Self {
        let ek = EncapsulationKey(PublicKey::from(&secret));
        Self { secret, ek }
    }

    /// The X25519 secret.
    pub fn secret(&self) -> &StaticSecret {
        &self.secret
    }
}

impl zeroize::ZeroizeOnDrop for DecapsulationKey {}

impl Decapsulator for DecapsulationKey {
    type Kem = X25519Kem;

    fn encapsulation_key(&self) -> &EncapsulationKey {
        &self.ek
    }
}

impl TryDecapsulate for DecapsulationKey {
    type Error = Error;

    fn try_decapsulate(&self, ct: &Ciphertext) -> Result<SharedKey, Error> {
        let ss = self.secret.diffie_hellman(&PublicKey(ct.0))?;
        Ok(Array(ss.to_bytes()))
    }
}

impl KeySizeUser for DecapsulationKey {
    type KeySize = U32;
}

impl KeyInit for DecapsulationKey {
    fn new(key: &Key<Self>) -> Self {
        Self::from_secret(StaticSecret::from(key.0))
    }
}

impl KeyExport for DecapsulationKey {
    fn to_bytes(&self) -> Key<Self> {
        Array(self.secret.to_bytes())
    }
}

impl Generate for DecapsulationKey {
    fn try_generate_from_rng<R>(rng: &mut R) -> Result<Self, R::Error>
    where
        R: TryCryptoRng + ?Sized,
    {
        // Wiped on every exit, the generator's error included (a partly filled key).
        let mut bytes = zeroize::Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(&mut bytes[..])?;
        Ok(Self::from_secret(StaticSecret::from(*bytes)))
    }
}
