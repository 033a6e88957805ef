//! The runtime-agile keys: [`AgilePublicKey`] / [`AgilePrivateKey`] (a typed key tagged with
//! its KEM), [`AgileEncappedKey`], and [`AgileKem`], the typed KEMs as the agile API sees
//! them, with [`visit`], which hands the KEM of a [`KemId`] to generic code. The key enums,
//! the `AgileKem` impls and `visit` are generated from the rows of `kems!` by `agile_kems!`.

use crate::hpke::kem::SharedSecret;
use crate::hpke::typed::EncapSource;
use crate::hpke::{AuthKem, Error, Kem, KemId};

/// A public key of any KEM of this crate, tagged with its KEM.
#[derive(Clone, Debug, PartialEq)]
pub struct AgilePublicKey(AnyPk);

/// A private key of any KEM of this crate, tagged with its KEM; it caches what decapsulation
/// needs, as the typed keys do. Wiped on drop.
///
/// `Clone` is kept on the private keys of this module, as rust-hpke's have it (a recipient
/// key shared by several owners); each copy is wiped on its own drop.
#[derive(Clone, Debug)]
pub struct AgilePrivateKey(AnySk);

/// The typed KEMs as seen from the agile API: the key of this KEM in an agile key
/// ([`Error::KemMismatch`] for another KEM's), agile keys of typed ones, and the
/// authenticated encapsulation ([`Error::UnsupportedMode`] for a KEM without it).
pub(crate) trait AgileKem: Kem {
    fn pk(p: &AgilePublicKey) -> Result<&Self::PublicKey, Error>;
    fn sk(p: &AgilePrivateKey) -> Result<&Self::PrivateKey, Error>;
    fn wrap(sk: Self::PrivateKey, pk: Self::PublicKey) -> (AgilePrivateKey, AgilePublicKey);
    fn wrap_pk(pk: Self::PublicKey) -> AgilePublicKey;
    /// `AuthEncap(pkR, skS)` from `r`.
    fn auth_encap_any(
        pk: &AgilePublicKey,
        sk_s: &AgilePrivateKey,
        r: impl EncapSource,
    ) -> Result<(SharedSecret, AgileEncappedKey), Error>;
    /// `AuthDecap(enc, skR, pkS)`.
    fn auth_decap_any(
        enc: &[u8],
        sk: &AgilePrivateKey,
        pk_s: &AgilePublicKey,
    ) -> Result<SharedSecret, Error>;
}

/// An operation over the KEM of a [`KemId`], run by [`visit`] with its typed KEM.
pub(crate) trait KemVisitor {
    type Out;
    fn visit<K: AgileKem>(self) -> Self::Out;
}

fn auth_encap<K: AgileKem + AuthKem>(
    pk: &AgilePublicKey,
    sk_s: &AgilePrivateKey,
    r: impl EncapSource,
) -> Result<(SharedSecret, AgileEncappedKey), Error> {
    let (pk, sk_s) = (K::pk(pk)?, K::sk(sk_s)?);
    let (ss, enc) = r.auth_encap::<K>(pk, sk_s)?;
    Ok((ss, AgileEncappedKey::new(enc.as_ref())))
}

fn auth_decap<K: AgileKem + AuthKem>(
    enc: &[u8],
    sk: &AgilePrivateKey,
    pk_s: &AgilePublicKey,
) -> Result<SharedSecret, Error> {
    K::auth_decap(enc, K::sk(sk)?, K::pk(pk_s)?)
}

/// The Auth methods of [`AgileKem`] for a row of `kems!`: the generic ones for a KEM with
/// Auth (`true`), [`Error::UnsupportedMode`] otherwise.
macro_rules! agile_auth {
    (true) => {
        fn auth_encap_any(
            pk: &AgilePublicKey,
            sk_s: &AgilePrivateKey,
            r: impl EncapSource,
        ) -> Result<(SharedSecret, AgileEncappedKey), Error> {
            auth_encap::<Self>(pk, sk_s, r)
        }
        fn auth_decap_any(
            enc: &[u8],
            sk: &AgilePrivateKey,
            pk_s: &AgilePublicKey,
        ) -> Result<SharedSecret, Error> {
            auth_decap::<Self>(enc, sk, pk_s)
        }
    };
    (false) => {
        fn auth_encap_any(
            _: &AgilePublicKey,
            _: &AgilePrivateKey,
            _: impl EncapSource,
        ) -> Result<(SharedSecret, AgileEncappedKey), Error> {
            Err(Error::UnsupportedMode)
        }
        fn auth_decap_any(
            _: &[u8],
            _: &AgilePrivateKey,
            _: &AgilePublicKey,
        ) -> Result<SharedSecret, Error> {
            Err(Error::UnsupportedMode)
        }
    };
}

/// Everything of this file that names every KEM, from the rows of `kems!`.
macro_rules! agile_kems {
    ($($name:ident = $id:literal, $auth:tt, $cfg:meta, $doc:literal;)*) => {
        // Inline, not boxed: the crate is `no_std` without `alloc` too, and a key is a
        // long-lived object; the size is the ML-KEM-1024 key with its expanded matrix.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq)]
        enum AnyPk {
            $(#[cfg($cfg)] $name(<crate::hpke::$name as Kem>::PublicKey),)*
        }

        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug)]
        enum AnySk {
            $(#[cfg($cfg)] $name(<crate::hpke::$name as Kem>::PrivateKey),)*
        }

        $(
            #[cfg($cfg)]
            impl AgileKem for crate::hpke::$name {
                fn pk(p: &AgilePublicKey) -> Result<&Self::PublicKey, Error> {
                    match &p.0 {
                        AnyPk::$name(k) => Ok(k),
                        #[allow(unreachable_patterns)]
                        _ => Err(Error::KemMismatch),
                    }
                }
                fn sk(p: &AgilePrivateKey) -> Result<&Self::PrivateKey, Error> {
                    match &p.0 {
                        AnySk::$name(k) => Ok(k),
                        #[allow(unreachable_patterns)]
                        _ => Err(Error::KemMismatch),
                    }
                }
                fn wrap(
                    sk: Self::PrivateKey,
                    pk: Self::PublicKey,
                ) -> (AgilePrivateKey, AgilePublicKey) {
                    (AgilePrivateKey(AnySk::$name(sk)), AgilePublicKey(AnyPk::$name(pk)))
                }
                fn wrap_pk(pk: Self::PublicKey) -> AgilePublicKey {
                    AgilePublicKey(AnyPk::$name(pk))
                }
                agile_auth!($auth);
            }
        )*

        /// Runs `v` with the typed KEM of `kem`.
        pub(crate) fn visit<V: KemVisitor>(kem: KemId, v: V) -> V::Out {
            match kem {
                $(#[cfg($cfg)] KemId::$name => v.visit::<crate::hpke::$name>(),)*
            }
        }

        /// The longest `enc` of this crate's KEMs (with every feature, MLKEM1024-P384's).
        const MAX_ENC: usize = {
            let mut max = 0;
            $(
                #[cfg($cfg)]
                if <crate::hpke::$name as Kem>::N_ENC > max {
                    max = <crate::hpke::$name as Kem>::N_ENC;
                }
            )*
            max
        };

        impl AgilePublicKey {
            /// The KEM this key belongs to.
            pub fn kem(&self) -> KemId {
                match &self.0 {
                    $(#[cfg($cfg)] AnyPk::$name(_) => KemId::$name,)*
                }
            }

            /// `SerializePublicKey`.
            pub fn as_bytes(&self) -> &[u8] {
                match &self.0 {
                    $(#[cfg($cfg)] AnyPk::$name(k) => <crate::hpke::$name as Kem>::public_key_to_bytes(k),)*
                }
            }
        }

        impl AgilePrivateKey {
            /// The KEM this key belongs to.
            pub fn kem(&self) -> KemId {
                match &self.0 {
                    $(#[cfg($cfg)] AnySk::$name(_) => KemId::$name,)*
                }
            }

            /// `SerializePrivateKey` (secret bytes).
            pub fn as_bytes(&self) -> &[u8] {
                match &self.0 {
                    $(#[cfg($cfg)] AnySk::$name(k) => <crate::hpke::$name as Kem>::private_key_to_bytes(k),)*
                }
            }

            /// The matching public key.
            pub fn public_key(&self) -> AgilePublicKey {
                match &self.0 {
                    $(#[cfg($cfg)] AnySk::$name(k) => {
                        AgilePublicKey(AnyPk::$name(<crate::hpke::$name as Kem>::public_key(k).clone()))
                    })*
                }
            }
        }
    };
}

kems!(agile_kems);

/// An encapsulated key of any KEM of this crate (`Nenc` bytes).
#[derive(Clone, PartialEq, Eq)]
pub struct AgileEncappedKey {
    buf: [u8; MAX_ENC],
    len: usize,
}

impl AgileEncappedKey {
    pub(crate) fn new(bytes: &[u8]) -> Self {
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
