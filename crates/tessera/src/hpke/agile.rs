//! The runtime-agile API: a [`Suite`] chosen from codepoints, keys that carry their KEM, and
//! the same operations as the typed API, dispatched once per operation onto the typed KEM
//! code and the shared key schedule.

use super::context::{AgileReceiverContext, AgileSenderContext};
use super::kem::{
    MlKem512PrivateKey, MlKem512PublicKey, MlKem768PrivateKey, MlKem768PublicKey,
    MlKem1024PrivateKey, MlKem1024PublicKey, SharedSecret, X25519PrivateKey, X25519PublicKey,
    XWingPrivateKey, XWingPublicKey,
};
use super::typed::{setup_receiver, setup_sender};
use super::{
    AeadId, AuthKem, DhKemX25519HkdfSha256, Error, Ids, KdfId, Kem, KemId, MlKem512, MlKem768,
    MlKem1024, Mode, XWing,
};

#[cfg(feature = "nist")]
use super::{DhKemP256HkdfSha256, P256PrivateKey, P256PublicKey};
#[cfg(feature = "nist")]
use super::{DhKemP384HkdfSha384, P384PrivateKey, P384PublicKey};
#[cfg(feature = "nist")]
use super::{DhKemP521HkdfSha512, P521PrivateKey, P521PublicKey};
#[cfg(feature = "secp256k1")]
use super::{DhKemSecp256k1HkdfSha256, Secp256k1PrivateKey, Secp256k1PublicKey};
#[cfg(feature = "x448")]
use super::{DhKemX448HkdfSha512, X448PrivateKey, X448PublicKey};
#[cfg(feature = "nist")]
use super::{MlKem768P256, MlKem768P256PrivateKey, MlKem768P256PublicKey};
#[cfg(feature = "nist")]
use super::{MlKem1024P384, MlKem1024P384PrivateKey, MlKem1024P384PublicKey};

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// The longest `enc` of this crate's KEMs (MLKEM1024-P384's ciphertext, ML-KEM-1024's
/// without the `nist` feature).
#[cfg(feature = "nist")]
const MAX_ENC: usize = 1665;
#[cfg(not(feature = "nist"))]
const MAX_ENC: usize = 1568;

/// A public key of any KEM of this crate, tagged with its KEM.
#[derive(Clone, Debug, PartialEq)]
pub struct AgilePublicKey(AnyPk);

// Inline, not boxed: the crate is `no_std` without `alloc` too, and a key is a long-lived
// object; the size is the ML-KEM-1024 key with its expanded matrix.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
enum AnyPk {
    X25519(X25519PublicKey),
    MlKem512(MlKem512PublicKey),
    MlKem768(MlKem768PublicKey),
    MlKem1024(MlKem1024PublicKey),
    XWing(XWingPublicKey),
    #[cfg(feature = "nist")]
    P256(P256PublicKey),
    #[cfg(feature = "nist")]
    P384(P384PublicKey),
    #[cfg(feature = "nist")]
    P521(P521PublicKey),
    #[cfg(feature = "secp256k1")]
    Secp256k1(Secp256k1PublicKey),
    #[cfg(feature = "x448")]
    X448(X448PublicKey),
    #[cfg(feature = "nist")]
    MlKem768P256(MlKem768P256PublicKey),
    #[cfg(feature = "nist")]
    MlKem1024P384(MlKem1024P384PublicKey),
}

/// A private key of any KEM of this crate, tagged with its KEM; it caches what decapsulation
/// needs, as the typed keys do. Wiped on drop.
///
/// `Clone` is kept on the private keys of this module, as rust-hpke's have it (a recipient
/// key shared by several owners); each copy is wiped on its own drop.
#[derive(Clone, Debug)]
pub struct AgilePrivateKey(AnySk);

#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum AnySk {
    X25519(X25519PrivateKey),
    MlKem512(MlKem512PrivateKey),
    MlKem768(MlKem768PrivateKey),
    MlKem1024(MlKem1024PrivateKey),
    XWing(XWingPrivateKey),
    #[cfg(feature = "nist")]
    P256(P256PrivateKey),
    #[cfg(feature = "nist")]
    P384(P384PrivateKey),
    #[cfg(feature = "nist")]
    P521(P521PrivateKey),
    #[cfg(feature = "secp256k1")]
    Secp256k1(Secp256k1PrivateKey),
    #[cfg(feature = "x448")]
    X448(X448PrivateKey),
    #[cfg(feature = "nist")]
    MlKem768P256(MlKem768P256PrivateKey),
    #[cfg(feature = "nist")]
    MlKem1024P384(MlKem1024P384PrivateKey),
}

/// The typed KEMs as seen from the agile API.
trait AgileKem: Kem {
    fn pk(p: &AgilePublicKey) -> Result<&Self::PublicKey, Error>;
    fn sk(p: &AgilePrivateKey) -> Result<&Self::PrivateKey, Error>;
    fn wrap(sk: Self::PrivateKey, pk: Self::PublicKey) -> (AgilePrivateKey, AgilePublicKey);
    fn wrap_pk(pk: Self::PublicKey) -> AgilePublicKey;
}

macro_rules! agile_kem {
    ($kem:ty, $v:ident) => {
        impl AgileKem for $kem {
            fn pk(p: &AgilePublicKey) -> Result<&Self::PublicKey, Error> {
                match &p.0 {
                    AnyPk::$v(k) => Ok(k),
                    _ => Err(Error::KemMismatch),
                }
            }
            fn sk(p: &AgilePrivateKey) -> Result<&Self::PrivateKey, Error> {
                match &p.0 {
                    AnySk::$v(k) => Ok(k),
                    _ => Err(Error::KemMismatch),
                }
            }
            fn wrap(
                sk: Self::PrivateKey,
                pk: Self::PublicKey,
            ) -> (AgilePrivateKey, AgilePublicKey) {
                (
                    AgilePrivateKey(AnySk::$v(sk)),
                    AgilePublicKey(AnyPk::$v(pk)),
                )
            }
            fn wrap_pk(pk: Self::PublicKey) -> AgilePublicKey {
                AgilePublicKey(AnyPk::$v(pk))
            }
        }
    };
}
agile_kem!(DhKemX25519HkdfSha256, X25519);
agile_kem!(MlKem512, MlKem512);
agile_kem!(MlKem768, MlKem768);
agile_kem!(MlKem1024, MlKem1024);
agile_kem!(XWing, XWing);
#[cfg(feature = "nist")]
agile_kem!(DhKemP256HkdfSha256, P256);
#[cfg(feature = "nist")]
agile_kem!(DhKemP384HkdfSha384, P384);
#[cfg(feature = "nist")]
agile_kem!(DhKemP521HkdfSha512, P521);
#[cfg(feature = "secp256k1")]
agile_kem!(DhKemSecp256k1HkdfSha256, Secp256k1);
#[cfg(feature = "x448")]
agile_kem!(DhKemX448HkdfSha512, X448);
#[cfg(feature = "nist")]
agile_kem!(MlKem768P256, MlKem768P256);
#[cfg(feature = "nist")]
agile_kem!(MlKem1024P384, MlKem1024P384);

/// Calls `$f::<K>(args)` for the KEM `K` of a [`KemId`].
macro_rules! dispatch {
    ($kem:expr, $f:ident($($a:expr),*)) => {
        match $kem {
            KemId::DhKemX25519HkdfSha256 => $f::<DhKemX25519HkdfSha256>($($a),*),
            KemId::MlKem512 => $f::<MlKem512>($($a),*),
            KemId::MlKem768 => $f::<MlKem768>($($a),*),
            KemId::MlKem1024 => $f::<MlKem1024>($($a),*),
            KemId::XWing => $f::<XWing>($($a),*),
            #[cfg(feature = "nist")]
            KemId::DhKemP256HkdfSha256 => $f::<DhKemP256HkdfSha256>($($a),*),
            #[cfg(feature = "nist")]
            KemId::DhKemP384HkdfSha384 => $f::<DhKemP384HkdfSha384>($($a),*),
            #[cfg(feature = "nist")]
            KemId::DhKemP521HkdfSha512 => $f::<DhKemP521HkdfSha512>($($a),*),
            #[cfg(feature = "secp256k1")]
            KemId::DhKemSecp256k1HkdfSha256 => $f::<DhKemSecp256k1HkdfSha256>($($a),*),
            #[cfg(feature = "x448")]
            KemId::DhKemX448HkdfSha512 => $f::<DhKemX448HkdfSha512>($($a),*),
            #[cfg(feature = "nist")]
            KemId::MlKem768P256 => $f::<MlKem768P256>($($a),*),
            #[cfg(feature = "nist")]
            KemId::MlKem1024P384 => $f::<MlKem1024P384>($($a),*),
        }
    };
}

impl AgilePublicKey {
    /// The KEM this key belongs to.
    pub fn kem(&self) -> KemId {
        match &self.0 {
            AnyPk::X25519(_) => KemId::DhKemX25519HkdfSha256,
            AnyPk::MlKem512(_) => KemId::MlKem512,
            AnyPk::MlKem768(_) => KemId::MlKem768,
            AnyPk::MlKem1024(_) => KemId::MlKem1024,
            AnyPk::XWing(_) => KemId::XWing,
            #[cfg(feature = "nist")]
            AnyPk::P256(_) => KemId::DhKemP256HkdfSha256,
            #[cfg(feature = "nist")]
            AnyPk::P384(_) => KemId::DhKemP384HkdfSha384,
            #[cfg(feature = "nist")]
            AnyPk::P521(_) => KemId::DhKemP521HkdfSha512,
            #[cfg(feature = "secp256k1")]
            AnyPk::Secp256k1(_) => KemId::DhKemSecp256k1HkdfSha256,
            #[cfg(feature = "x448")]
            AnyPk::X448(_) => KemId::DhKemX448HkdfSha512,
            #[cfg(feature = "nist")]
            AnyPk::MlKem768P256(_) => KemId::MlKem768P256,
            #[cfg(feature = "nist")]
            AnyPk::MlKem1024P384(_) => KemId::MlKem1024P384,
        }
    }

    /// `SerializePublicKey`.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            AnyPk::X25519(k) => k.as_bytes(),
            AnyPk::MlKem512(k) => k.as_bytes(),
            AnyPk::MlKem768(k) => k.as_bytes(),
            AnyPk::MlKem1024(k) => k.as_bytes(),
            AnyPk::XWing(k) => k.as_bytes(),
            #[cfg(feature = "nist")]
            AnyPk::P256(k) => k.as_bytes(),
            #[cfg(feature = "nist")]
            AnyPk::P384(k) => k.as_bytes(),
            #[cfg(feature = "nist")]
            AnyPk::P521(k) => k.as_bytes(),
            #[cfg(feature = "secp256k1")]
            AnyPk::Secp256k1(k) => k.as_bytes(),
            #[cfg(feature = "x448")]
            AnyPk::X448(k) => k.as_bytes(),
            #[cfg(feature = "nist")]
            AnyPk::MlKem768P256(k) => k.as_bytes(),
            #[cfg(feature = "nist")]
            AnyPk::MlKem1024P384(k) => k.as_bytes(),
        }
    }
}

impl AgilePrivateKey {
    /// The KEM this key belongs to.
    pub fn kem(&self) -> KemId {
        match &self.0 {
            AnySk::X25519(_) => KemId::DhKemX25519HkdfSha256,
            AnySk::MlKem512(_) => KemId::MlKem512,
            AnySk::MlKem768(_) => KemId::MlKem768,
            AnySk::MlKem1024(_) => KemId::MlKem1024,
            AnySk::XWing(_) => KemId::XWing,
            #[cfg(feature = "nist")]
            AnySk::P256(_) => KemId::DhKemP256HkdfSha256,
            #[cfg(feature = "nist")]
            AnySk::P384(_) => KemId::DhKemP384HkdfSha384,
            #[cfg(feature = "nist")]
            AnySk::P521(_) => KemId::DhKemP521HkdfSha512,
            #[cfg(feature = "secp256k1")]
            AnySk::Secp256k1(_) => KemId::DhKemSecp256k1HkdfSha256,
            #[cfg(feature = "x448")]
            AnySk::X448(_) => KemId::DhKemX448HkdfSha512,
            #[cfg(feature = "nist")]
            AnySk::MlKem768P256(_) => KemId::MlKem768P256,
            #[cfg(feature = "nist")]
            AnySk::MlKem1024P384(_) => KemId::MlKem1024P384,
        }
    }

    /// `SerializePrivateKey` (secret bytes).
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            AnySk::X25519(k) => k.as_bytes(),
            AnySk::MlKem512(k) => k.as_bytes(),
            AnySk::MlKem768(k) => k.as_bytes(),
            AnySk::MlKem1024(k) => k.as_bytes(),
            AnySk::XWing(k) => k.as_bytes(),
            #[cfg(feature = "nist")]
            AnySk::P256(k) => k.as_bytes(),
            #[cfg(feature = "nist")]
            AnySk::P384(k) => k.as_bytes(),
            #[cfg(feature = "nist")]
            AnySk::P521(k) => k.as_bytes(),
            #[cfg(feature = "secp256k1")]
            AnySk::Secp256k1(k) => k.as_bytes(),
            #[cfg(feature = "x448")]
            AnySk::X448(k) => k.as_bytes(),
            #[cfg(feature = "nist")]
            AnySk::MlKem768P256(k) => k.as_bytes(),
            #[cfg(feature = "nist")]
            AnySk::MlKem1024P384(k) => k.as_bytes(),
        }
    }

    /// The matching public key.
    pub fn public_key(&self) -> AgilePublicKey {
        match &self.0 {
            AnySk::X25519(k) => AgilePublicKey(AnyPk::X25519(*k.public_key())),
            AnySk::MlKem512(k) => AgilePublicKey(AnyPk::MlKem512(k.public_key().clone())),
            AnySk::MlKem768(k) => AgilePublicKey(AnyPk::MlKem768(k.public_key().clone())),
            AnySk::MlKem1024(k) => AgilePublicKey(AnyPk::MlKem1024(k.public_key().clone())),
            AnySk::XWing(k) => AgilePublicKey(AnyPk::XWing(k.public_key().clone())),
            #[cfg(feature = "nist")]
            AnySk::P256(k) => AgilePublicKey(AnyPk::P256(k.public_key().clone())),
            #[cfg(feature = "nist")]
            AnySk::P384(k) => AgilePublicKey(AnyPk::P384(k.public_key().clone())),
            #[cfg(feature = "nist")]
            AnySk::P521(k) => AgilePublicKey(AnyPk::P521(k.public_key().clone())),
            #[cfg(feature = "secp256k1")]
            AnySk::Secp256k1(k) => AgilePublicKey(AnyPk::Secp256k1(k.public_key().clone())),
            #[cfg(feature = "x448")]
            AnySk::X448(k) => AgilePublicKey(AnyPk::X448(k.public_key().clone())),
            #[cfg(feature = "nist")]
            AnySk::MlKem768P256(k) => AgilePublicKey(AnyPk::MlKem768P256(k.public_key().clone())),
            #[cfg(feature = "nist")]
            AnySk::MlKem1024P384(k) => AgilePublicKey(AnyPk::MlKem1024P384(k.public_key().clone())),
        }
    }
}

/// An encapsulated key of any KEM of this crate (`Nenc` bytes).
#[derive(Clone, PartialEq, Eq)]
pub struct AgileEncappedKey {
    buf: [u8; MAX_ENC],
    len: usize,
}

impl AgileEncappedKey {
    fn new(bytes: &[u8]) -> Self {
        let mut buf = [0u8; MAX_ENC];
        buf[..bytes.len()].copy_from_slice(bytes);
        Self {
            buf,
            len: bytes.len(),
        }
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl AsRef<[u8]> for AgileEncappedKey {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl core::fmt::Debug for AgileEncappedKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("AgileEncappedKey")
            .field(&self.as_bytes())
            .finish()
    }
}

/// Where an encapsulation's randomness comes from: an RNG, or (test builds only) the `ikmE`
/// of the deterministic form.
trait EncapSource {
    fn encap<K: AgileKem>(self, pk: &K::PublicKey)
    -> Result<(SharedSecret, K::EncappedKey), Error>;
    fn auth_encap<K: AgileKem + AuthKem>(
        self,
        pk: &K::PublicKey,
        sk_s: &K::PrivateKey,
    ) -> Result<(SharedSecret, K::EncappedKey), Error>;
}

/// Fresh randomness from an RNG.
struct FromRng<'a, R>(&'a mut R);

impl<R: rand_core::CryptoRng> EncapSource for FromRng<'_, R> {
    fn encap<K: AgileKem>(
        self,
        pk: &K::PublicKey,
    ) -> Result<(SharedSecret, K::EncappedKey), Error> {
        K::encap(pk, self.0)
    }
    fn auth_encap<K: AgileKem + AuthKem>(
        self,
        pk: &K::PublicKey,
        sk_s: &K::PrivateKey,
    ) -> Result<(SharedSecret, K::EncappedKey), Error> {
        K::auth_encap(pk, sk_s, self.0)
    }
}

/// `ikmE` of the deterministic form (test builds only).
#[cfg(tessera_test_hooks)]
struct FromIkm<'a>(&'a [u8]);

#[cfg(tessera_test_hooks)]
impl EncapSource for FromIkm<'_> {
    fn encap<K: AgileKem>(
        self,
        pk: &K::PublicKey,
    ) -> Result<(SharedSecret, K::EncappedKey), Error> {
        K::encap_derand(pk, self.0)
    }
    fn auth_encap<K: AgileKem + AuthKem>(
        self,
        pk: &K::PublicKey,
        sk_s: &K::PrivateKey,
    ) -> Result<(SharedSecret, K::EncappedKey), Error> {
        K::auth_encap_derand(pk, sk_s, self.0)
    }
}

fn encap_any<K: AgileKem>(
    pk: &AgilePublicKey,
    sk_s: Option<&AgilePrivateKey>,
    r: impl EncapSource,
) -> Result<(SharedSecret, AgileEncappedKey), Error> {
    let pk = K::pk(pk)?;
    if sk_s.is_some() {
        // Only the DHKEMs reach here with a sender key (checked by the caller).
        return Err(Error::UnsupportedMode);
    }
    let (ss, enc) = r.encap::<K>(pk)?;
    Ok((ss, AgileEncappedKey::new(enc.as_ref())))
}

fn auth_encap_any<K: AgileKem + AuthKem>(
    pk: &AgilePublicKey,
    sk_s: &AgilePrivateKey,
    r: impl EncapSource,
) -> Result<(SharedSecret, AgileEncappedKey), Error> {
    let (pk, sk_s) = (K::pk(pk)?, K::sk(sk_s)?);
    let (ss, enc) = r.auth_encap::<K>(pk, sk_s)?;
    Ok((ss, AgileEncappedKey::new(enc.as_ref())))
}

fn decap_any<K: AgileKem>(enc: &[u8], sk: &AgilePrivateKey) -> Result<SharedSecret, Error> {
    K::decap(enc, K::sk(sk)?)
}

fn auth_decap_any<K: AgileKem + AuthKem>(
    enc: &[u8],
    sk: &AgilePrivateKey,
    pk_s: &AgilePublicKey,
) -> Result<SharedSecret, Error> {
    K::auth_decap(enc, K::sk(sk)?, K::pk(pk_s)?)
}

fn generate_any<K: AgileKem>(
    rng: &mut impl rand_core::CryptoRng,
) -> (AgilePrivateKey, AgilePublicKey) {
    // The KEM's own GenerateKeyPair: not every Nsk-byte string is a private key (the
    // prime-order curves reject scalars at least the group order).
    let (sk, pk) = K::generate_key_pair(rng);
    K::wrap(sk, pk)
}

fn derive_any<K: AgileKem>(ikm: &[u8]) -> Result<(AgilePrivateKey, AgilePublicKey), Error> {
    let (sk, pk) = K::derive_key_pair(ikm)?;
    Ok(K::wrap(sk, pk))
}

fn pk_from_any<K: AgileKem>(bytes: &[u8]) -> Result<AgilePublicKey, Error> {
    Ok(K::wrap_pk(K::public_key_from_bytes(bytes)?))
}

fn sk_from_any<K: AgileKem>(bytes: &[u8]) -> Result<AgilePrivateKey, Error> {
    let sk = K::private_key_from_bytes(bytes)?;
    let pk = K::public_key(&sk).clone();
    Ok(K::wrap(sk, pk).0)
}

/// A runtime-agile HPKE ciphersuite: for code that reads the suite from the wire (ECH, MLS,
/// OHTTP). Same operations as [`super::Hpke`], over [`AgilePublicKey`] /
/// [`AgilePrivateKey`]; what the typed API rejects at compile time is an [`Error`] here
/// (Auth with a post-quantum KEM, `seal` on an export-only suite, a key of another KEM).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suite {
    ids: Ids,
}

impl Suite {
    /// The suite of a KEM, KDF and AEAD (every combination of this crate is supported).
    pub const fn new(kem: KemId, kdf: KdfId, aead: AeadId) -> Self {
        Suite {
            ids: Ids { kem, kdf, aead },
        }
    }

    /// The suite of three codepoints; an unknown one is [`Error::UnknownKem`],
    /// [`Error::UnknownKdf`] or [`Error::UnknownAead`].
    pub const fn from_ids(kem: u16, kdf: u16, aead: u16) -> Result<Self, Error> {
        let kem = match KemId::from_id(kem) {
            Ok(k) => k,
            Err(e) => return Err(e),
        };
        let kdf = match KdfId::from_id(kdf) {
            Ok(k) => k,
            Err(e) => return Err(e),
        };
        let aead = match AeadId::from_id(aead) {
            Ok(a) => a,
            Err(e) => return Err(e),
        };
        Ok(Self::new(kem, kdf, aead))
    }

    /// The KEM.
    pub const fn kem(&self) -> KemId {
        self.ids.kem
    }
    /// The KDF.
    pub const fn kdf(&self) -> KdfId {
        self.ids.kdf
    }
    /// The AEAD.
    pub const fn aead(&self) -> AeadId {
        self.ids.aead
    }

    /// `GenerateKeyPair()` of the suite's KEM.
    pub fn generate_key_pair(
        &self,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(AgilePrivateKey, AgilePublicKey), Error> {
        Ok(dispatch!(self.ids.kem, generate_any(rng)))
    }

    /// `DeriveKeyPair(ikm)` of the suite's KEM.
    pub fn derive_key_pair(&self, ikm: &[u8]) -> Result<(AgilePrivateKey, AgilePublicKey), Error> {
        dispatch!(self.ids.kem, derive_any(ikm))
    }

    /// `DeserializePublicKey` of the suite's KEM, with validation.
    pub fn public_key_from_bytes(&self, bytes: &[u8]) -> Result<AgilePublicKey, Error> {
        dispatch!(self.ids.kem, pk_from_any(bytes))
    }

    /// `DeserializePrivateKey` of the suite's KEM.
    pub fn private_key_from_bytes(&self, bytes: &[u8]) -> Result<AgilePrivateKey, Error> {
        dispatch!(self.ids.kem, sk_from_any(bytes))
    }

    #[allow(clippy::too_many_arguments)]
    fn sender(
        &self,
        mode: Mode,
        pk_r: &AgilePublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        sk_s: Option<&AgilePrivateKey>,
        r: impl EncapSource,
    ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
        let kem = self.ids.kem;
        if sk_s.is_some() && !kem.supports_auth() {
            return Err(Error::UnsupportedMode);
        }
        if pk_r.kem() != kem || sk_s.is_some_and(|s| s.kem() != kem) {
            return Err(Error::KemMismatch);
        }
        let (enc, ctx) = setup_sender(self.ids, mode, info, psk, psk_id, || match sk_s {
            None => dispatch!(kem, encap_any(pk_r, None, r)),
            Some(sk_s) => match kem {
                KemId::DhKemX25519HkdfSha256 => {
                    auth_encap_any::<DhKemX25519HkdfSha256>(pk_r, sk_s, r)
                }
                #[cfg(feature = "nist")]
                KemId::DhKemP256HkdfSha256 => auth_encap_any::<DhKemP256HkdfSha256>(pk_r, sk_s, r),
                #[cfg(feature = "nist")]
                KemId::DhKemP384HkdfSha384 => auth_encap_any::<DhKemP384HkdfSha384>(pk_r, sk_s, r),
                #[cfg(feature = "nist")]
                KemId::DhKemP521HkdfSha512 => auth_encap_any::<DhKemP521HkdfSha512>(pk_r, sk_s, r),
                #[cfg(feature = "secp256k1")]
                KemId::DhKemSecp256k1HkdfSha256 => {
                    auth_encap_any::<DhKemSecp256k1HkdfSha256>(pk_r, sk_s, r)
                }
                #[cfg(feature = "x448")]
                KemId::DhKemX448HkdfSha512 => auth_encap_any::<DhKemX448HkdfSha512>(pk_r, sk_s, r),
                KemId::MlKem512 | KemId::MlKem768 | KemId::MlKem1024 | KemId::XWing => {
                    Err(Error::UnsupportedMode)
                }
                #[cfg(feature = "nist")]
                KemId::MlKem768P256 | KemId::MlKem1024P384 => Err(Error::UnsupportedMode),
            },
        })?;
        Ok((enc, AgileSenderContext { ctx }))
    }

    #[allow(clippy::too_many_arguments)]
    fn sender_rng(
        &self,
        mode: Mode,
        pk_r: &AgilePublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        sk_s: Option<&AgilePrivateKey>,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
        self.sender(mode, pk_r, info, psk, psk_id, sk_s, FromRng(rng))
    }

    #[allow(clippy::too_many_arguments)]
    fn receiver(
        &self,
        mode: Mode,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        pk_s: Option<&AgilePublicKey>,
    ) -> Result<AgileReceiverContext, Error> {
        let kem = self.ids.kem;
        if pk_s.is_some() && !kem.supports_auth() {
            return Err(Error::UnsupportedMode);
        }
        if sk_r.kem() != kem || pk_s.is_some_and(|p| p.kem() != kem) {
            return Err(Error::KemMismatch);
        }
        let ctx = setup_receiver(self.ids, mode, info, psk, psk_id, || match pk_s {
            None => dispatch!(kem, decap_any(enc, sk_r)),
            Some(pk_s) => match kem {
                KemId::DhKemX25519HkdfSha256 => {
                    auth_decap_any::<DhKemX25519HkdfSha256>(enc, sk_r, pk_s)
                }
                #[cfg(feature = "nist")]
                KemId::DhKemP256HkdfSha256 => {
                    auth_decap_any::<DhKemP256HkdfSha256>(enc, sk_r, pk_s)
                }
                #[cfg(feature = "nist")]
                KemId::DhKemP384HkdfSha384 => {
                    auth_decap_any::<DhKemP384HkdfSha384>(enc, sk_r, pk_s)
                }
                #[cfg(feature = "nist")]
                KemId::DhKemP521HkdfSha512 => {
                    auth_decap_any::<DhKemP521HkdfSha512>(enc, sk_r, pk_s)
                }
                #[cfg(feature = "secp256k1")]
                KemId::DhKemSecp256k1HkdfSha256 => {
                    auth_decap_any::<DhKemSecp256k1HkdfSha256>(enc, sk_r, pk_s)
                }
                #[cfg(feature = "x448")]
                KemId::DhKemX448HkdfSha512 => {
                    auth_decap_any::<DhKemX448HkdfSha512>(enc, sk_r, pk_s)
                }
                KemId::MlKem512 | KemId::MlKem768 | KemId::MlKem1024 | KemId::XWing => {
                    Err(Error::UnsupportedMode)
                }
                #[cfg(feature = "nist")]
                KemId::MlKem768P256 | KemId::MlKem1024P384 => Err(Error::UnsupportedMode),
            },
        })?;
        Ok(AgileReceiverContext { ctx })
    }

    /// `SetupBaseS(pkR, info)`.
    pub fn setup_sender_base(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
        self.sender_rng(Mode::Base, pk_r, info, &[], &[], None, rng)
    }

    /// `SetupBaseS`, deterministic by `ikm_e`: test vectors only, in test builds
    /// (`--cfg tessera_test_hooks`). A repeated `ikm_e` repeats the AEAD key and nonce.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    pub fn setup_sender_base_derand(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        ikm_e: &[u8],
    ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
        self.sender(Mode::Base, pk_r, info, &[], &[], None, FromIkm(ikm_e))
    }

    /// `SetupPSKS(pkR, info, psk, psk_id)`.
    pub fn setup_sender_psk(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
        self.sender_rng(Mode::Psk, pk_r, info, psk, psk_id, None, rng)
    }

    /// `SetupPSKS`, deterministic by `ikm_e`.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    pub fn setup_sender_psk_derand(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        ikm_e: &[u8],
    ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
        self.sender(Mode::Psk, pk_r, info, psk, psk_id, None, FromIkm(ikm_e))
    }

    /// `SetupAuthS(pkR, info, skS)`; [`Error::UnsupportedMode`] for a KEM without Auth.
    pub fn setup_sender_auth(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        sk_s: &AgilePrivateKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
        self.sender_rng(Mode::Auth, pk_r, info, &[], &[], Some(sk_s), rng)
    }

    /// `SetupAuthS`, deterministic by `ikm_e`.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    pub fn setup_sender_auth_derand(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        sk_s: &AgilePrivateKey,
        ikm_e: &[u8],
    ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
        self.sender(Mode::Auth, pk_r, info, &[], &[], Some(sk_s), FromIkm(ikm_e))
    }

    /// `SetupAuthPSKS(pkR, info, psk, psk_id, skS)`.
    pub fn setup_sender_auth_psk(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        sk_s: &AgilePrivateKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
        self.sender_rng(Mode::AuthPsk, pk_r, info, psk, psk_id, Some(sk_s), rng)
    }

    /// `SetupAuthPSKS`, deterministic by `ikm_e`.
    #[cfg(tessera_test_hooks)]
    #[doc(hidden)]
    pub fn setup_sender_auth_psk_derand(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        sk_s: &AgilePrivateKey,
        ikm_e: &[u8],
    ) -> Result<(AgileEncappedKey, AgileSenderContext), Error> {
        self.sender(
            Mode::AuthPsk,
            pk_r,
            info,
            psk,
            psk_id,
            Some(sk_s),
            FromIkm(ikm_e),
        )
    }

    /// `SetupBaseR(enc, skR, info)`.
    pub fn setup_receiver_base(
        &self,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
    ) -> Result<AgileReceiverContext, Error> {
        self.receiver(Mode::Base, enc, sk_r, info, &[], &[], None)
    }

    /// `SetupPSKR(enc, skR, info, psk, psk_id)`.
    pub fn setup_receiver_psk(
        &self,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
    ) -> Result<AgileReceiverContext, Error> {
        self.receiver(Mode::Psk, enc, sk_r, info, psk, psk_id, None)
    }

    /// `SetupAuthR(enc, skR, info, pkS)`.
    pub fn setup_receiver_auth(
        &self,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
        pk_s: &AgilePublicKey,
    ) -> Result<AgileReceiverContext, Error> {
        self.receiver(Mode::Auth, enc, sk_r, info, &[], &[], Some(pk_s))
    }

    /// `SetupAuthPSKR(enc, skR, info, psk, psk_id, pkS)`.
    pub fn setup_receiver_auth_psk(
        &self,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        pk_s: &AgilePublicKey,
    ) -> Result<AgileReceiverContext, Error> {
        self.receiver(Mode::AuthPsk, enc, sk_r, info, psk, psk_id, Some(pk_s))
    }

    /// `SealBase`: `(enc, ciphertext || tag)`.
    #[cfg(feature = "alloc")]
    pub fn seal_base(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(AgileEncappedKey, Vec<u8>), Error> {
        if self.ids.aead == AeadId::ExportOnly {
            return Err(Error::ExportOnly);
        }
        let (enc, mut ctx) = self.setup_sender_base(pk_r, info, rng)?;
        Ok((enc, ctx.seal(aad, pt)?))
    }

    /// `OpenBase`.
    #[cfg(feature = "alloc")]
    pub fn open_base(
        &self,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
    ) -> Result<Vec<u8>, Error> {
        if self.ids.aead == AeadId::ExportOnly {
            return Err(Error::ExportOnly);
        }
        self.setup_receiver_base(enc, sk_r, info)?.open(aad, ct)
    }

    /// `SealPSK`.
    #[cfg(feature = "alloc")]
    #[allow(clippy::too_many_arguments)]
    pub fn seal_psk(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(AgileEncappedKey, Vec<u8>), Error> {
        if self.ids.aead == AeadId::ExportOnly {
            return Err(Error::ExportOnly);
        }
        let (enc, mut ctx) = self.setup_sender_psk(pk_r, info, psk, psk_id, rng)?;
        Ok((enc, ctx.seal(aad, pt)?))
    }

    /// `OpenPSK`.
    #[cfg(feature = "alloc")]
    #[allow(clippy::too_many_arguments)]
    pub fn open_psk(
        &self,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        psk: &[u8],
        psk_id: &[u8],
    ) -> Result<Vec<u8>, Error> {
        if self.ids.aead == AeadId::ExportOnly {
            return Err(Error::ExportOnly);
        }
        self.setup_receiver_psk(enc, sk_r, info, psk, psk_id)?
            .open(aad, ct)
    }

    /// `SealAuth`.
    #[cfg(feature = "alloc")]
    #[allow(clippy::too_many_arguments)]
    pub fn seal_auth(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        sk_s: &AgilePrivateKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(AgileEncappedKey, Vec<u8>), Error> {
        if self.ids.aead == AeadId::ExportOnly {
            return Err(Error::ExportOnly);
        }
        let (enc, mut ctx) = self.setup_sender_auth(pk_r, info, sk_s, rng)?;
        Ok((enc, ctx.seal(aad, pt)?))
    }

    /// `OpenAuth`.
    #[cfg(feature = "alloc")]
    #[allow(clippy::too_many_arguments)]
    pub fn open_auth(
        &self,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        pk_s: &AgilePublicKey,
    ) -> Result<Vec<u8>, Error> {
        if self.ids.aead == AeadId::ExportOnly {
            return Err(Error::ExportOnly);
        }
        self.setup_receiver_auth(enc, sk_r, info, pk_s)?
            .open(aad, ct)
    }

    /// `SealAuthPSK`.
    #[cfg(feature = "alloc")]
    #[allow(clippy::too_many_arguments)]
    pub fn seal_auth_psk(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        aad: &[u8],
        pt: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        sk_s: &AgilePrivateKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(AgileEncappedKey, Vec<u8>), Error> {
        if self.ids.aead == AeadId::ExportOnly {
            return Err(Error::ExportOnly);
        }
        let (enc, mut ctx) = self.setup_sender_auth_psk(pk_r, info, psk, psk_id, sk_s, rng)?;
        Ok((enc, ctx.seal(aad, pt)?))
    }

    /// `OpenAuthPSK`.
    #[cfg(feature = "alloc")]
    #[allow(clippy::too_many_arguments)]
    pub fn open_auth_psk(
        &self,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
        aad: &[u8],
        ct: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        pk_s: &AgilePublicKey,
    ) -> Result<Vec<u8>, Error> {
        if self.ids.aead == AeadId::ExportOnly {
            return Err(Error::ExportOnly);
        }
        self.setup_receiver_auth_psk(enc, sk_r, info, psk, psk_id, pk_s)?
            .open(aad, ct)
    }

    /// `SendExportBase`.
    pub fn send_export_base(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<AgileEncappedKey, Error> {
        let (enc, ctx) = self.setup_sender_base(pk_r, info, rng)?;
        ctx.export(exporter_context, out)?;
        Ok(enc)
    }

    /// `ReceiveExportBase`.
    pub fn receive_export_base(
        &self,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        self.setup_receiver_base(enc, sk_r, info)?
            .export(exporter_context, out)
    }

    /// `SendExportPSK`.
    #[allow(clippy::too_many_arguments)]
    pub fn send_export_psk(
        &self,
        pk_r: &AgilePublicKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<AgileEncappedKey, Error> {
        let (enc, ctx) = self.setup_sender_psk(pk_r, info, psk, psk_id, rng)?;
        ctx.export(exporter_context, out)?;
        Ok(enc)
    }

    /// `ReceiveExportPSK`.
    #[allow(clippy::too_many_arguments)]
    pub fn receive_export_psk(
        &self,
        enc: &[u8],
        sk_r: &AgilePrivateKey,
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        exporter_context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        self.setup_receiver_psk(enc, sk_r, info, psk, psk_id)?
            .export(exporter_context, out)
    }
}
