//! The DHKEMs of RFC 9180 section 4.1: X25519 (Tessera's own, always compiled), P-256
//! (Tessera's own `tessera-p256`), P-384, P-521 (RustCrypto `p384` / `p521`; the three under
//! feature `nist`), secp256k1 (RustCrypto `k256`,
//! feature `secp256k1`) and X448 (Tessera's own RFC 7748 ladder, feature `x448`).
//!
//! Each curve sits behind [`DhGroup`]: scalar and point parsing with validation, the base-point
//! multiplication, the Diffie-Hellman step and the KEM's key types. Everything above it
//! (DeriveKeyPair with the rejection sampling of RFC 9180 section 7.1.3, ExtractAndExpand,
//! Encap/Decap, AuthEncap/AuthDecap, the `Kem` and `AuthKem` impls of `dh_kem!`) is
//! written once, generically; replacing a curve crate by Tessera's own arithmetic touches only
//! its `DhGroup` impl.
//!
//! Layers: this file (the trait and the generic algorithms), then `x25519` (X25519 with its
//! own key types, built in place and scrubbed; always compiled) and `curves` (the other
//! curves, over the generic `DhPublicKey` / `DhPrivateKey`; with a curve feature).

use zeroize::{Zeroize, Zeroizing};

use super::kdf::{Hkdf, labeled_expand, labeled_extract};
use super::kem::SharedSecret;
use super::{Error, KemId};

/// The longest serialized private key (P-521: 66 bytes).
pub(crate) const MAX_SK: usize = 66;
/// The longest Diffie-Hellman output (P-521: 66 bytes).
const MAX_DH: usize = 66;

/// A prime-order (or, for X25519 and X448, Montgomery) group for a DHKEM. Public in a private
/// module: nameable by no user, so the set of implementations is closed.
pub trait DhGroup: Sized + 'static {
    /// The KEM codepoint.
    const KEM: KemId;
    /// The HKDF of the KEM (`eae_prk`, `shared_secret`, `dkp_prk`, `candidate`/`sk`).
    const KDF: Hkdf;
    /// `Nsecret`.
    const N_SECRET: usize;
    /// `Npk` = `Nenc`.
    const N_PK: usize;
    /// `Nsk`.
    const N_SK: usize;
    /// `Ndh`.
    const N_DH: usize;
    /// `Some(bitmask)` for rejection sampling (RFC 9180 section 7.1.3), `None` for the
    /// X25519/X448 form (`sk = LabeledExpand(dkp_prk, "sk", "", Nsk)`).
    const BITMASK: Option<u8>;
    /// A validated private scalar.
    type Scalar: Clone + Zeroize;
    /// A validated public element.
    type Point: Clone + PartialEq + core::fmt::Debug;
    /// The KEM's public key: an element with its serialization.
    type PublicKey: Clone + PartialEq + core::fmt::Debug;
    /// The KEM's private key: a scalar with its public key cached, wiped on drop.
    type PrivateKey;

    /// `DeserializePrivateKey`: `None` for a wrong length or (prime-order curves) a scalar
    /// that is 0 or at least the group order.
    fn scalar_from_bytes(bytes: &[u8]) -> Option<Self::Scalar>;
    /// `SerializePrivateKey` into `out` (`Nsk` bytes).
    // Used by the generic key types and the hybrids, not by X25519's.
    #[cfg_attr(
        not(any(feature = "nist", feature = "secp256k1", feature = "x448")),
        allow(dead_code)
    )]
    fn scalar_to_bytes(s: &Self::Scalar, out: &mut [u8]);
    /// `DeserializePublicKey`: `None` for anything but a valid encoding of a group element
    /// other than the identity.
    fn point_from_bytes(bytes: &[u8]) -> Option<Self::Point>;
    /// `SerializePublicKey` into `out` (`Npk` bytes).
    // Used by the generic key types and the hybrids, not by X25519's.
    #[cfg_attr(
        not(any(feature = "nist", feature = "secp256k1", feature = "x448")),
        allow(dead_code)
    )]
    fn point_to_bytes(p: &Self::Point, out: &mut [u8]);
    /// `s * G`.
    // Used by the generic key types and the hybrids, not by X25519's.
    #[cfg_attr(
        not(any(feature = "nist", feature = "secp256k1", feature = "x448")),
        allow(dead_code)
    )]
    fn base_mul(s: &Self::Scalar) -> Self::Point;
    /// `DH(s, p)` into `out` (`Ndh` bytes): [`Error::NonContributory`] for the identity (or
    /// an all-zero X25519/X448 result).
    fn dh(s: &Self::Scalar, p: &Self::Point, out: &mut [u8]) -> Result<(), Error>;

    /// Runs `f`, an operation that builds a private key (key generation, derivation,
    /// encapsulation): `f()`, or for X25519, whose key moves leave copies that no `Drop`
    /// reaches (`tests/wipe.rs`), `f()` in a frame of its own followed by a stack scrub.
    fn guarded<T>(f: impl FnOnce() -> T) -> T;
    /// The private key of a scalar (its public key computed and cached).
    fn private_key(s: Self::Scalar) -> Self::PrivateKey;
    /// The element of a public key.
    fn point(pk: &Self::PublicKey) -> &Self::Point;
    /// The serialization of a public key (`Npk` bytes).
    fn public_bytes(pk: &Self::PublicKey) -> &[u8];
    /// The scalar of a private key.
    fn scalar(sk: &Self::PrivateKey) -> &Self::Scalar;
    /// The cached public key of a private key.
    fn public_of(sk: &Self::PrivateKey) -> &Self::PublicKey;
}

/// `suite_id = "KEM" || I2OSP(kem_id, 2)`.
fn suite<G: DhGroup>() -> [u8; 5] {
    let b = G::KEM.id().to_be_bytes();
    [b'K', b'E', b'M', b[0], b[1]]
}

/// The rejection-sampling loop of RFC 9180 section 7.1.3 over a candidate source
/// (`candidate(counter, out)` fills `Nsk` bytes); returns the scalar and the counter that
/// produced it, [`Error::DeriveKeyPair`] when counters 0 to 255 are all rejected. The loop
/// leaks how many candidates were rejected (as every implementation of the RFC does), nothing
/// about the accepted one.
fn rejection_sample<G: DhGroup>(
    bitmask: u8,
    mut candidate: impl FnMut(u8, &mut [u8]),
) -> Result<(G::Scalar, u8), Error> {
    let mut buf = Zeroizing::new([0u8; MAX_SK]);
    let b = &mut buf[..G::N_SK];
    for counter in 0..=255u8 {
        candidate(counter, b);
        b[0] &= bitmask;
        if let Some(s) = G::scalar_from_bytes(b) {
            return Ok((s, counter));
        }
    }
    Err(Error::DeriveKeyPair)
}

/// `DeriveKeyPair(ikm)`'s scalar and (rejection sampling) the counter that produced it.
fn derive_scalar<G: DhGroup>(ikm: &[u8]) -> Result<(G::Scalar, u8), Error> {
    let suite = suite::<G>();
    let prk = labeled_extract(G::KDF, &suite, &[], b"dkp_prk", &[ikm]);
    match G::BITMASK {
        Some(mask) => rejection_sample::<G>(mask, |counter, out| {
            labeled_expand(&prk, &suite, b"candidate", &[&[counter]], out)
                .expect("Nsk is in range");
        }),
        None => {
            let mut sk = Zeroizing::new([0u8; MAX_SK]);
            labeled_expand(&prk, &suite, b"sk", &[], &mut sk[..G::N_SK]).expect("Nsk is in range");
            G::scalar_from_bytes(&sk[..G::N_SK])
                .map(|s| (s, 0))
                .ok_or(Error::DeriveKeyPair)
        }
    }
}

/// A private key from `Nsk` uniformly random bytes: taken as the scalar (after the bitmask)
/// when valid, otherwise (probability below 2^-32 on every curve) run through
/// `DeriveKeyPair` as its `ikm`.
fn from_random<G: DhGroup>(random: &[u8]) -> Result<G::PrivateKey, Error> {
    if random.len() != G::N_SK {
        return Err(Error::InvalidRandomnessLength);
    }
    let mut b = Zeroizing::new([0u8; MAX_SK]);
    b[..G::N_SK].copy_from_slice(random);
    b[0] &= G::BITMASK.unwrap_or(0xFF);
    match G::scalar_from_bytes(&b[..G::N_SK]) {
        Some(s) => Ok(G::private_key(s)),
        None => derive_scalar::<G>(random).map(|(s, _)| G::private_key(s)),
    }
}

fn generate<G: DhGroup>(rng: &mut impl rand_core::CryptoRng) -> G::PrivateKey {
    let mut r = Zeroizing::new([0u8; MAX_SK]);
    loop {
        rng.fill_bytes(&mut r[..G::N_SK]);
        if let Ok(k) = from_random::<G>(&r[..G::N_SK]) {
            return k;
        }
    }
}

fn derive<G: DhGroup>(ikm: &[u8]) -> Result<G::PrivateKey, Error> {
    derive_scalar::<G>(ikm).map(|(s, _)| G::private_key(s))
}

/// `ExtractAndExpand(dh, kem_context)`.
fn extract_and_expand<G: DhGroup>(dh: &[&[u8]], kem_context: &[&[u8]]) -> SharedSecret {
    let suite = suite::<G>();
    let prk = labeled_extract(G::KDF, &suite, &[], b"eae_prk", dh);
    let mut ss = Zeroizing::new([0u8; 64]);
    labeled_expand(
        &prk,
        &suite,
        b"shared_secret",
        kem_context,
        &mut ss[..G::N_SECRET],
    )
    .expect("Nsecret is in range");
    SharedSecret::new(&ss[..G::N_SECRET])
}

/// `Encap` / `AuthEncap` with the ephemeral key `e`; writes `enc` (`Npk` bytes).
fn encap<G: DhGroup>(
    pk_r: &G::PublicKey,
    e: &G::PrivateKey,
    sender: Option<&G::PrivateKey>,
    enc_out: &mut [u8],
) -> Result<SharedSecret, Error> {
    let mut dh = Zeroizing::new([0u8; 2 * MAX_DH]);
    let n = G::N_DH;
    let (pk_r_bytes, pk_r) = (G::public_bytes(pk_r), G::point(pk_r));
    G::dh(G::scalar(e), pk_r, &mut dh[..n])?;
    let enc = G::public_bytes(G::public_of(e));
    enc_out.copy_from_slice(enc);
    Ok(match sender {
        None => extract_and_expand::<G>(&[&dh[..n]], &[enc, pk_r_bytes]),
        Some(s) => {
            G::dh(G::scalar(s), pk_r, &mut dh[n..2 * n])?;
            let pk_s = G::public_bytes(G::public_of(s));
            extract_and_expand::<G>(&[&dh[..2 * n]], &[enc, pk_r_bytes, pk_s])
        }
    })
}

/// `Decap` / `AuthDecap`: [`Error::InvalidEncappedKey`] for an `enc` that is no valid
/// public key.
fn decap<G: DhGroup>(
    enc: &[u8],
    sk_r: &G::PrivateKey,
    pk_s: Option<&G::PublicKey>,
) -> Result<SharedSecret, Error> {
    let pk_e = G::point_from_bytes(enc).ok_or(Error::InvalidEncappedKey)?;
    let mut dh = Zeroizing::new([0u8; 2 * MAX_DH]);
    let n = G::N_DH;
    let pk_r = G::public_bytes(G::public_of(sk_r));
    G::dh(G::scalar(sk_r), &pk_e, &mut dh[..n])?;
    Ok(match pk_s {
        None => extract_and_expand::<G>(&[&dh[..n]], &[enc, pk_r]),
        Some(pk_s) => {
            G::dh(G::scalar(sk_r), G::point(pk_s), &mut dh[n..2 * n])?;
            extract_and_expand::<G>(&[&dh[..2 * n]], &[enc, pk_r, G::public_bytes(pk_s)])
        }
    })
}

/// The [`Kem`] and [`AuthKem`] impls of a DHKEM `$kem` (a [`DhGroup`] whose key types are
/// `$pk` / `$sk`, with `from_bytes` / `as_bytes` / `public_key`) with `Npk` = `Nenc` =
/// `$n_pk`: the generic algorithms above, [`DhGroup::guarded`] where a key is built.
macro_rules! dh_kem {
    ($kem:ident, $pk:ident, $sk:ident, $n_pk:expr) => {
        const _: () = assert!(<$kem as super::DhGroup>::N_PK == $n_pk);

        impl $crate::hpke::sealed::Sealed for $kem {}

        impl $crate::hpke::Kem for $kem {
            const ID: $crate::hpke::KemId = <$kem as super::DhGroup>::KEM;
            const N_SECRET: usize = <$kem as super::DhGroup>::N_SECRET;
            const N_ENC: usize = $n_pk;
            const N_PK: usize = $n_pk;
            const N_SK: usize = <$kem as super::DhGroup>::N_SK;
            const N_RANDOM: usize = <$kem as super::DhGroup>::N_SK;
            type PublicKey = $pk;
            type PrivateKey = $sk;
            type EncappedKey = [u8; $n_pk];

            fn generate_key_pair(
                rng: &mut impl rand_core::CryptoRng,
            ) -> (Self::PrivateKey, Self::PublicKey) {
                <Self as super::DhGroup>::guarded(|| {
                    let sk = super::generate::<Self>(rng);
                    let pk = sk.public_key().clone();
                    (sk, pk)
                })
            }

            fn derive_key_pair(
                ikm: &[u8],
            ) -> Result<(Self::PrivateKey, Self::PublicKey), $crate::hpke::Error> {
                <Self as super::DhGroup>::guarded(|| {
                    let sk = super::derive::<Self>(ikm)?;
                    let pk = sk.public_key().clone();
                    Ok((sk, pk))
                })
            }

            fn public_key_from_bytes(bytes: &[u8]) -> Result<Self::PublicKey, $crate::hpke::Error> {
                $pk::from_bytes(bytes)
            }

            fn public_key_to_bytes(pk: &Self::PublicKey) -> &[u8] {
                pk.as_bytes()
            }

            fn private_key_from_bytes(
                bytes: &[u8],
            ) -> Result<Self::PrivateKey, $crate::hpke::Error> {
                $sk::from_bytes(bytes)
            }

            fn private_key_to_bytes(sk: &Self::PrivateKey) -> &[u8] {
                sk.as_bytes()
            }

            fn public_key(sk: &Self::PrivateKey) -> &Self::PublicKey {
                sk.public_key()
            }

            fn encap(
                pk: &Self::PublicKey,
                rng: &mut impl rand_core::CryptoRng,
            ) -> Result<($crate::hpke::SharedSecret, Self::EncappedKey), $crate::hpke::Error> {
                <Self as super::DhGroup>::guarded(|| {
                    let e = super::generate::<Self>(rng);
                    let mut enc = [0u8; $n_pk];
                    Ok((super::encap::<Self>(pk, &e, None, &mut enc)?, enc))
                })
            }

            #[cfg(tessera_test_hooks)]
            fn encap_with_randomness(
                pk: &Self::PublicKey,
                randomness: &[u8],
            ) -> Result<($crate::hpke::SharedSecret, Self::EncappedKey), $crate::hpke::Error> {
                <Self as super::DhGroup>::guarded(|| {
                    let e = super::from_random::<Self>(randomness)?;
                    let mut enc = [0u8; $n_pk];
                    Ok((super::encap::<Self>(pk, &e, None, &mut enc)?, enc))
                })
            }

            #[cfg(tessera_test_hooks)]
            fn encap_derand(
                pk: &Self::PublicKey,
                ikm_e: &[u8],
            ) -> Result<($crate::hpke::SharedSecret, Self::EncappedKey), $crate::hpke::Error> {
                <Self as super::DhGroup>::guarded(|| {
                    let e = super::derive::<Self>(ikm_e)?;
                    let mut enc = [0u8; $n_pk];
                    Ok((super::encap::<Self>(pk, &e, None, &mut enc)?, enc))
                })
            }

            fn decap(
                enc: &[u8],
                sk: &Self::PrivateKey,
            ) -> Result<$crate::hpke::SharedSecret, $crate::hpke::Error> {
                super::decap::<Self>(enc, sk, None)
            }
        }

        impl $crate::hpke::AuthKem for $kem {
            fn auth_encap(
                pk_r: &Self::PublicKey,
                sk_s: &Self::PrivateKey,
                rng: &mut impl rand_core::CryptoRng,
            ) -> Result<($crate::hpke::SharedSecret, Self::EncappedKey), $crate::hpke::Error> {
                <Self as super::DhGroup>::guarded(|| {
                    let e = super::generate::<Self>(rng);
                    let mut enc = [0u8; $n_pk];
                    Ok((super::encap::<Self>(pk_r, &e, Some(sk_s), &mut enc)?, enc))
                })
            }

            #[cfg(tessera_test_hooks)]
            fn auth_encap_with_randomness(
                pk_r: &Self::PublicKey,
                sk_s: &Self::PrivateKey,
                randomness: &[u8],
            ) -> Result<($crate::hpke::SharedSecret, Self::EncappedKey), $crate::hpke::Error> {
                <Self as super::DhGroup>::guarded(|| {
                    let e = super::from_random::<Self>(randomness)?;
                    let mut enc = [0u8; $n_pk];
                    Ok((super::encap::<Self>(pk_r, &e, Some(sk_s), &mut enc)?, enc))
                })
            }

            #[cfg(tessera_test_hooks)]
            fn auth_encap_derand(
                pk_r: &Self::PublicKey,
                sk_s: &Self::PrivateKey,
                ikm_e: &[u8],
            ) -> Result<($crate::hpke::SharedSecret, Self::EncappedKey), $crate::hpke::Error> {
                <Self as super::DhGroup>::guarded(|| {
                    let e = super::derive::<Self>(ikm_e)?;
                    let mut enc = [0u8; $n_pk];
                    Ok((super::encap::<Self>(pk_r, &e, Some(sk_s), &mut enc)?, enc))
                })
            }

            fn auth_decap(
                enc: &[u8],
                sk_r: &Self::PrivateKey,
                pk_s: &Self::PublicKey,
            ) -> Result<$crate::hpke::SharedSecret, $crate::hpke::Error> {
                super::decap::<Self>(enc, sk_r, Some(pk_s))
            }
        }
    };
}

pub(crate) mod x25519;

#[cfg(any(feature = "nist", feature = "secp256k1", feature = "x448"))]
pub(crate) mod curves;
#[cfg(feature = "x448")]
mod x448;
