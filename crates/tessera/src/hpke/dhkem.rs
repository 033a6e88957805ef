//! The DHKEMs of RFC 9180 section 4.1 over curves other than X25519: P-256, P-384, P-521
//! (RustCrypto `p256` / `p384` / `p521`, feature `nist`), secp256k1 (RustCrypto `k256`,
//! feature `secp256k1`) and X448 (Tessera's own RFC 7748 ladder, feature `x448`).
//!
//! Each curve sits behind [`DhGroup`]: scalar and point parsing with validation, the base-point
//! multiplication and the Diffie-Hellman step. Everything above it (DeriveKeyPair with the
//! rejection sampling of RFC 9180 section 7.1.3, ExtractAndExpand, Encap/Decap, AuthEncap/
//! AuthDecap) is written once, generically; replacing a curve crate by Tessera's own
//! arithmetic touches only its `DhGroup` impl.

#[cfg(feature = "x448")]
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use super::kdf::{Hkdf, labeled_expand, labeled_extract};
use super::kem::SharedSecret;
use super::{AuthKem, Error, Kem, KemId, sealed};

#[cfg(feature = "x448")]
pub(crate) mod x448;

/// The longest serialized public key (P-521 uncompressed: 133 bytes).
pub(crate) const MAX_PK: usize = 133;
/// The longest serialized private key (P-521: 66 bytes).
pub(crate) const MAX_SK: usize = 66;
/// The longest Diffie-Hellman output (P-521: 66 bytes).
const MAX_DH: usize = 66;

/// A prime-order (or, for X448, Montgomery) group for a DHKEM. Public in a private module:
/// nameable by no user, so the set of implementations is closed.
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

    /// `DeserializePrivateKey`: `None` for a wrong length or (prime-order curves) a scalar
    /// that is 0 or at least the group order.
    fn scalar_from_bytes(bytes: &[u8]) -> Option<Self::Scalar>;
    /// `SerializePrivateKey` into `out` (`Nsk` bytes).
    fn scalar_to_bytes(s: &Self::Scalar, out: &mut [u8]);
    /// `DeserializePublicKey`: `None` for anything but a valid encoding of a group element
    /// other than the identity.
    fn point_from_bytes(bytes: &[u8]) -> Option<Self::Point>;
    /// `SerializePublicKey` into `out` (`Npk` bytes).
    fn point_to_bytes(p: &Self::Point, out: &mut [u8]);
    /// `s * G`.
    fn base_mul(s: &Self::Scalar) -> Self::Point;
    /// `DH(s, p)` into `out` (`Ndh` bytes): [`Error::NonContributory`] for the identity (or
    /// an all-zero X448 result).
    fn dh(s: &Self::Scalar, p: &Self::Point, out: &mut [u8]) -> Result<(), Error>;
}

/// `suite_id = "KEM" || I2OSP(kem_id, 2)`.
fn suite<G: DhGroup>() -> [u8; 5] {
    let b = G::KEM.id().to_be_bytes();
    [b'K', b'E', b'M', b[0], b[1]]
}

/// A public key of a DHKEM: the validated element and its serialization.
pub struct DhPublicKey<G: DhGroup> {
    point: G::Point,
    bytes: [u8; MAX_PK],
}

impl<G: DhGroup> DhPublicKey<G> {
    fn new(point: G::Point) -> Self {
        let mut bytes = [0u8; MAX_PK];
        G::point_to_bytes(&point, &mut bytes[..G::N_PK]);
        Self { point, bytes }
    }
    /// The key from its serialization, validated (RFC 9180 section 7.1.4: uncompressed SEC1
    /// points on the curve, not the identity; 56 bytes for X448): [`Error::InvalidPublicKey`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        G::point_from_bytes(bytes)
            .map(Self::new)
            .ok_or(Error::InvalidPublicKey)
    }
    /// The serialization (`Npk` bytes).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..G::N_PK]
    }
}

impl<G: DhGroup> Clone for DhPublicKey<G> {
    fn clone(&self) -> Self {
        Self {
            point: self.point.clone(),
            bytes: self.bytes,
        }
    }
}

impl<G: DhGroup> PartialEq for DhPublicKey<G> {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl<G: DhGroup> Eq for DhPublicKey<G> {}

impl<G: DhGroup> core::fmt::Debug for DhPublicKey<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("DhPublicKey")
            .field(&self.as_bytes())
            .finish()
    }
}

/// A private key of a DHKEM, with its serialization and public key cached. Wiped on drop.
pub struct DhPrivateKey<G: DhGroup> {
    sk: G::Scalar,
    bytes: Zeroizing<[u8; MAX_SK]>,
    pk: DhPublicKey<G>,
}

impl<G: DhGroup> DhPrivateKey<G> {
    fn new(sk: G::Scalar) -> Self {
        let mut bytes = Zeroizing::new([0u8; MAX_SK]);
        G::scalar_to_bytes(&sk, &mut bytes[..G::N_SK]);
        let pk = DhPublicKey::new(G::base_mul(&sk));
        Self { sk, bytes, pk }
    }
    /// The key from its serialization: [`Error::InvalidPrivateKey`] for a wrong length or,
    /// on the prime-order curves, a scalar that is 0 or not below the group order.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        G::scalar_from_bytes(bytes)
            .map(Self::new)
            .ok_or(Error::InvalidPrivateKey)
    }
    /// The serialization (`Nsk` secret bytes).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..G::N_SK]
    }
    /// The public key.
    pub fn public_key(&self) -> &DhPublicKey<G> {
        &self.pk
    }
}

impl<G: DhGroup> Clone for DhPrivateKey<G> {
    fn clone(&self) -> Self {
        Self {
            sk: self.sk.clone(),
            bytes: self.bytes.clone(),
            pk: self.pk.clone(),
        }
    }
}

impl<G: DhGroup> Drop for DhPrivateKey<G> {
    fn drop(&mut self) {
        self.sk.zeroize();
    }
}

impl<G: DhGroup> core::fmt::Debug for DhPrivateKey<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DhPrivateKey")
            .field("pk", &self.pk)
            .finish_non_exhaustive()
    }
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
fn from_random<G: DhGroup>(random: &[u8]) -> Result<DhPrivateKey<G>, Error> {
    if random.len() != G::N_SK {
        return Err(Error::InvalidRandomnessLength);
    }
    let mut b = Zeroizing::new([0u8; MAX_SK]);
    b[..G::N_SK].copy_from_slice(random);
    b[0] &= G::BITMASK.unwrap_or(0xFF);
    match G::scalar_from_bytes(&b[..G::N_SK]) {
        Some(s) => Ok(DhPrivateKey::new(s)),
        None => derive_scalar::<G>(random).map(|(s, _)| DhPrivateKey::new(s)),
    }
}

fn generate<G: DhGroup>(rng: &mut impl rand_core::CryptoRng) -> DhPrivateKey<G> {
    let mut r = Zeroizing::new([0u8; MAX_SK]);
    loop {
        rng.fill_bytes(&mut r[..G::N_SK]);
        if let Ok(k) = from_random::<G>(&r[..G::N_SK]) {
            return k;
        }
    }
}

fn derive<G: DhGroup>(ikm: &[u8]) -> Result<DhPrivateKey<G>, Error> {
    derive_scalar::<G>(ikm).map(|(s, _)| DhPrivateKey::new(s))
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
    pk_r: &DhPublicKey<G>,
    e: &DhPrivateKey<G>,
    sender: Option<&DhPrivateKey<G>>,
    enc_out: &mut [u8],
) -> Result<SharedSecret, Error> {
    let mut dh = Zeroizing::new([0u8; 2 * MAX_DH]);
    let n = G::N_DH;
    G::dh(&e.sk, &pk_r.point, &mut dh[..n])?;
    let enc = e.pk.as_bytes();
    enc_out.copy_from_slice(enc);
    Ok(match sender {
        None => extract_and_expand::<G>(&[&dh[..n]], &[enc, pk_r.as_bytes()]),
        Some(s) => {
            G::dh(&s.sk, &pk_r.point, &mut dh[n..2 * n])?;
            extract_and_expand::<G>(&[&dh[..2 * n]], &[enc, pk_r.as_bytes(), s.pk.as_bytes()])
        }
    })
}

/// `Decap` / `AuthDecap`: [`Error::InvalidEncappedKey`] for an `enc` that is no valid
/// public key.
fn decap<G: DhGroup>(
    enc: &[u8],
    sk_r: &DhPrivateKey<G>,
    pk_s: Option<&DhPublicKey<G>>,
) -> Result<SharedSecret, Error> {
    let pk_e = G::point_from_bytes(enc).ok_or(Error::InvalidEncappedKey)?;
    let mut dh = Zeroizing::new([0u8; 2 * MAX_DH]);
    let n = G::N_DH;
    G::dh(&sk_r.sk, &pk_e, &mut dh[..n])?;
    Ok(match pk_s {
        None => extract_and_expand::<G>(&[&dh[..n]], &[enc, sk_r.pk.as_bytes()]),
        Some(pk_s) => {
            G::dh(&sk_r.sk, &pk_s.point, &mut dh[n..2 * n])?;
            extract_and_expand::<G>(&[&dh[..2 * n]], &[enc, sk_r.pk.as_bytes(), pk_s.as_bytes()])
        }
    })
}

/// The counter at which `DeriveKeyPair(ikm)` of a DHKEM of this module accepted its
/// candidate (0 for X448, which has no rejection sampling; [`Error::UnknownKem`] for another
/// KEM). For tests of the rejection-sampling path.
#[cfg(tessera_test_hooks)]
#[doc(hidden)]
pub fn __derive_key_pair_counter(kem: KemId, ikm: &[u8]) -> Result<u8, Error> {
    match kem {
        #[cfg(feature = "nist")]
        KemId::DhKemP256HkdfSha256 => derive_scalar::<DhKemP256HkdfSha256>(ikm).map(|(_, c)| c),
        #[cfg(feature = "nist")]
        KemId::DhKemP384HkdfSha384 => derive_scalar::<DhKemP384HkdfSha384>(ikm).map(|(_, c)| c),
        #[cfg(feature = "nist")]
        KemId::DhKemP521HkdfSha512 => derive_scalar::<DhKemP521HkdfSha512>(ikm).map(|(_, c)| c),
        #[cfg(feature = "secp256k1")]
        KemId::DhKemSecp256k1HkdfSha256 => {
            derive_scalar::<DhKemSecp256k1HkdfSha256>(ikm).map(|(_, c)| c)
        }
        #[cfg(feature = "x448")]
        KemId::DhKemX448HkdfSha512 => derive_scalar::<DhKemX448HkdfSha512>(ikm).map(|(_, c)| c),
        other => Err(Error::UnknownKem(other.id())),
    }
}

macro_rules! dh_kem {
    ($(#[$doc:meta])* $kem:ident, $pk:ident, $sk:ident, $n_pk:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $kem;

        #[doc = concat!("A public key of [`", stringify!($kem), "`].")]
        pub type $pk = DhPublicKey<$kem>;
        #[doc = concat!("A private key of [`", stringify!($kem), "`].")]
        pub type $sk = DhPrivateKey<$kem>;

        const _: () = assert!(<$kem as DhGroup>::N_PK == $n_pk);

        impl sealed::Sealed for $kem {}

        impl Kem for $kem {
            const ID: KemId = <$kem as DhGroup>::KEM;
            const N_SECRET: usize = <$kem as DhGroup>::N_SECRET;
            const N_ENC: usize = $n_pk;
            const N_PK: usize = $n_pk;
            const N_SK: usize = <$kem as DhGroup>::N_SK;
            const N_RANDOM: usize = <$kem as DhGroup>::N_SK;
            type PublicKey = $pk;
            type PrivateKey = $sk;
            type EncappedKey = [u8; $n_pk];

            fn generate_key_pair(
                rng: &mut impl rand_core::CryptoRng,
            ) -> (Self::PrivateKey, Self::PublicKey) {
                let sk = generate::<Self>(rng);
                let pk = sk.pk.clone();
                (sk, pk)
            }

            fn derive_key_pair(ikm: &[u8]) -> Result<(Self::PrivateKey, Self::PublicKey), Error> {
                let sk = derive::<Self>(ikm)?;
                let pk = sk.pk.clone();
                Ok((sk, pk))
            }

            fn public_key_from_bytes(bytes: &[u8]) -> Result<Self::PublicKey, Error> {
                $pk::from_bytes(bytes)
            }

            fn public_key_to_bytes(pk: &Self::PublicKey) -> &[u8] {
                pk.as_bytes()
            }

            fn private_key_from_bytes(bytes: &[u8]) -> Result<Self::PrivateKey, Error> {
                $sk::from_bytes(bytes)
            }

            fn private_key_to_bytes(sk: &Self::PrivateKey) -> &[u8] {
                sk.as_bytes()
            }

            fn public_key(sk: &Self::PrivateKey) -> &Self::PublicKey {
                &sk.pk
            }

            fn encap(
                pk: &Self::PublicKey,
                rng: &mut impl rand_core::CryptoRng,
            ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
                let e = generate::<Self>(rng);
                let mut enc = [0u8; $n_pk];
                Ok((encap(pk, &e, None, &mut enc)?, enc))
            }

            #[cfg(tessera_test_hooks)]
            fn encap_with_randomness(
                pk: &Self::PublicKey,
                randomness: &[u8],
            ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
                let e = from_random::<Self>(randomness)?;
                let mut enc = [0u8; $n_pk];
                Ok((encap(pk, &e, None, &mut enc)?, enc))
            }

            #[cfg(tessera_test_hooks)]
            fn encap_derand(
                pk: &Self::PublicKey,
                ikm_e: &[u8],
            ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
                let e = derive::<Self>(ikm_e)?;
                let mut enc = [0u8; $n_pk];
                Ok((encap(pk, &e, None, &mut enc)?, enc))
            }

            fn decap(enc: &[u8], sk: &Self::PrivateKey) -> Result<SharedSecret, Error> {
                decap(enc, sk, None)
            }
        }

        impl AuthKem for $kem {
            fn auth_encap(
                pk_r: &Self::PublicKey,
                sk_s: &Self::PrivateKey,
                rng: &mut impl rand_core::CryptoRng,
            ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
                let e = generate::<Self>(rng);
                let mut enc = [0u8; $n_pk];
                Ok((encap(pk_r, &e, Some(sk_s), &mut enc)?, enc))
            }

            #[cfg(tessera_test_hooks)]
            fn auth_encap_with_randomness(
                pk_r: &Self::PublicKey,
                sk_s: &Self::PrivateKey,
                randomness: &[u8],
            ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
                let e = from_random::<Self>(randomness)?;
                let mut enc = [0u8; $n_pk];
                Ok((encap(pk_r, &e, Some(sk_s), &mut enc)?, enc))
            }

            #[cfg(tessera_test_hooks)]
            fn auth_encap_derand(
                pk_r: &Self::PublicKey,
                sk_s: &Self::PrivateKey,
                ikm_e: &[u8],
            ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
                let e = derive::<Self>(ikm_e)?;
                let mut enc = [0u8; $n_pk];
                Ok((encap(pk_r, &e, Some(sk_s), &mut enc)?, enc))
            }

            fn auth_decap(
                enc: &[u8],
                sk_r: &Self::PrivateKey,
                pk_s: &Self::PublicKey,
            ) -> Result<SharedSecret, Error> {
                decap(enc, sk_r, Some(pk_s))
            }
        }
    };
}

/// A short-Weierstrass curve of a RustCrypto crate as a [`DhGroup`]: uncompressed SEC1
/// points only, scalars in `[1, n)`, the x-coordinate as the DH output.
#[cfg(any(feature = "nist", feature = "secp256k1"))]
macro_rules! weierstrass_group {
    ($kem:ident, $c:ident, $kdf:ident, $n_sk:expr, $n_secret:expr, $mask:expr) => {
        impl DhGroup for $kem {
            const KEM: KemId = KemId::$kem;
            const KDF: Hkdf = Hkdf::$kdf;
            const N_SECRET: usize = $n_secret;
            const N_PK: usize = 1 + 2 * $n_sk;
            const N_SK: usize = $n_sk;
            const N_DH: usize = $n_sk;
            const BITMASK: Option<u8> = Some($mask);
            type Scalar = $c::NonZeroScalar;
            type Point = $c::PublicKey;

            fn scalar_from_bytes(bytes: &[u8]) -> Option<Self::Scalar> {
                let repr = $c::FieldBytes::try_from(bytes).ok()?;
                Option::from($c::NonZeroScalar::from_repr(repr))
            }

            fn scalar_to_bytes(s: &Self::Scalar, out: &mut [u8]) {
                let mut b: $c::FieldBytes = (*s).into();
                out.copy_from_slice(&b);
                b.zeroize();
            }

            fn point_from_bytes(bytes: &[u8]) -> Option<Self::Point> {
                // Uncompressed only: the length and the 0x04 tag first (compressed, hybrid
                // and identity encodings fail here), then the crate's checks (coordinates
                // below p, on the curve).
                if bytes.len() != <Self as DhGroup>::N_PK || bytes[0] != 0x04 {
                    return None;
                }
                $c::PublicKey::from_sec1_bytes(bytes).ok()
            }

            fn point_to_bytes(p: &Self::Point, out: &mut [u8]) {
                use $c::elliptic_curve::sec1::ToSec1Point;
                out.copy_from_slice(p.to_sec1_point(false).as_bytes());
            }

            fn base_mul(s: &Self::Scalar) -> Self::Point {
                $c::PublicKey::from_secret_scalar(s)
            }

            fn dh(s: &Self::Scalar, p: &Self::Point, out: &mut [u8]) -> Result<(), Error> {
                use $c::elliptic_curve::group::Group as _;
                use $c::elliptic_curve::point::AffineCoordinates as _;
                let mut z = p.to_projective() * s.as_ref();
                // Unreachable for a validated point and a nonzero scalar of a prime-order
                // group, checked anyway (RFC 9180 section 7.1.4).
                if bool::from(z.is_identity()) {
                    return Err(Error::NonContributory);
                }
                let mut x = z.to_affine().x();
                out.copy_from_slice(&x);
                x.zeroize();
                z.zeroize();
                Ok(())
            }
        }
    };
}

#[cfg(feature = "nist")]
weierstrass_group!(DhKemP256HkdfSha256, p256, Sha256, 32, 32, 0xFF);
#[cfg(feature = "nist")]
weierstrass_group!(DhKemP384HkdfSha384, p384, Sha384, 48, 48, 0xFF);
#[cfg(feature = "nist")]
weierstrass_group!(DhKemP521HkdfSha512, p521, Sha512, 66, 64, 0x01);
#[cfg(feature = "secp256k1")]
weierstrass_group!(DhKemSecp256k1HkdfSha256, k256, Sha256, 32, 32, 0xFF);

#[cfg(feature = "nist")]
dh_kem!(/// DHKEM(P-256, HKDF-SHA256), KEM 0x0010: `Nsecret` 32, `Nenc` = `Npk` 65, `Nsk` 32.
    DhKemP256HkdfSha256, P256PublicKey, P256PrivateKey, 65);
#[cfg(feature = "nist")]
dh_kem!(/// DHKEM(P-384, HKDF-SHA384), KEM 0x0011: `Nsecret` 48, `Nenc` = `Npk` 97, `Nsk` 48.
    DhKemP384HkdfSha384, P384PublicKey, P384PrivateKey, 97);
#[cfg(feature = "nist")]
dh_kem!(/// DHKEM(P-521, HKDF-SHA512), KEM 0x0012: `Nsecret` 64, `Nenc` = `Npk` 133, `Nsk` 66.
    DhKemP521HkdfSha512, P521PublicKey, P521PrivateKey, 133);
#[cfg(feature = "secp256k1")]
dh_kem!(/// DHKEM(secp256k1, HKDF-SHA256), KEM 0x0016: `Nsecret` 32, `Nenc` = `Npk` 65, `Nsk` 32.
    DhKemSecp256k1HkdfSha256, Secp256k1PublicKey, Secp256k1PrivateKey, 65);

#[cfg(feature = "x448")]
impl DhGroup for DhKemX448HkdfSha512 {
    const KEM: KemId = KemId::DhKemX448HkdfSha512;
    const KDF: Hkdf = Hkdf::Sha512;
    const N_SECRET: usize = 64;
    const N_PK: usize = 56;
    const N_SK: usize = 56;
    const N_DH: usize = 56;
    const BITMASK: Option<u8> = None;
    type Scalar = [u8; 56];
    type Point = [u8; 56];

    fn scalar_from_bytes(bytes: &[u8]) -> Option<Self::Scalar> {
        bytes.try_into().ok()
    }
    fn scalar_to_bytes(s: &Self::Scalar, out: &mut [u8]) {
        out.copy_from_slice(s);
    }
    fn point_from_bytes(bytes: &[u8]) -> Option<Self::Point> {
        // Every 56-byte string is an X448 public key (RFC 7748); small-order ones fail at the
        // DH step.
        bytes.try_into().ok()
    }
    fn point_to_bytes(p: &Self::Point, out: &mut [u8]) {
        out.copy_from_slice(p);
    }
    fn base_mul(s: &Self::Scalar) -> Self::Point {
        x448::x448(s, &x448::BASE)
    }
    fn dh(s: &Self::Scalar, p: &Self::Point, out: &mut [u8]) -> Result<(), Error> {
        let mut z = x448::x448(s, p);
        let zero = super::public_bool(bool::from(z.ct_eq(&[0u8; 56])));
        out.copy_from_slice(&z);
        z.zeroize();
        if zero {
            return Err(Error::NonContributory);
        }
        Ok(())
    }
}

#[cfg(feature = "x448")]
dh_kem!(/// DHKEM(X448, HKDF-SHA512), KEM 0x0021: `Nsecret` 64, `Nenc` = `Npk` = `Nsk` 56.
    DhKemX448HkdfSha512, X448PublicKey, X448PrivateKey, 56);

/// The raw Diffie-Hellman step of a DHKEM of this module, with the same parsing and checks
/// as decapsulation: `DeserializePrivateKey(sk)`, `DeserializePublicKey(pk)`, then `DH` into
/// `out` (at least `Ndh` bytes); returns `Ndh`. For the Wycheproof ECDH/XDH tests.
#[cfg(tessera_test_hooks)]
#[doc(hidden)]
pub fn __dh(kem: KemId, sk: &[u8], pk: &[u8], out: &mut [u8]) -> Result<usize, Error> {
    fn run<G: DhGroup>(sk: &[u8], pk: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let mut s = G::scalar_from_bytes(sk).ok_or(Error::InvalidPrivateKey)?;
        let p = G::point_from_bytes(pk).ok_or(Error::InvalidPublicKey)?;
        let out = out
            .get_mut(..G::N_DH)
            .ok_or(Error::InvalidRandomnessLength)?;
        let r = G::dh(&s, &p, out);
        s.zeroize();
        r.map(|()| G::N_DH)
    }
    match kem {
        #[cfg(feature = "nist")]
        KemId::DhKemP256HkdfSha256 => run::<DhKemP256HkdfSha256>(sk, pk, out),
        #[cfg(feature = "nist")]
        KemId::DhKemP384HkdfSha384 => run::<DhKemP384HkdfSha384>(sk, pk, out),
        #[cfg(feature = "nist")]
        KemId::DhKemP521HkdfSha512 => run::<DhKemP521HkdfSha512>(sk, pk, out),
        #[cfg(feature = "secp256k1")]
        KemId::DhKemSecp256k1HkdfSha256 => run::<DhKemSecp256k1HkdfSha256>(sk, pk, out),
        #[cfg(feature = "x448")]
        KemId::DhKemX448HkdfSha512 => run::<DhKemX448HkdfSha512>(sk, pk, out),
        other => Err(Error::UnknownKem(other.id())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A candidate source whose first candidates are all-ones (at least the order once
    /// masked), then zero, then a valid scalar: the loop must skip both and report counter 2.
    #[cfg(feature = "nist")]
    #[test]
    fn rejection_sampling_skips_invalid_candidates() {
        fn check<G: DhGroup>() {
            let mask = G::BITMASK.unwrap();
            let (s, counter) = rejection_sample::<G>(mask, |c, out| match c {
                0 => out.fill(0xFF),
                1 => out.fill(0),
                _ => {
                    out.fill(0);
                    out[G::N_SK - 1] = 7;
                }
            })
            .unwrap();
            assert_eq!(counter, 2);
            let mut b = [0u8; MAX_SK];
            G::scalar_to_bytes(&s, &mut b[..G::N_SK]);
            assert_eq!(b[G::N_SK - 1], 7);
            assert!(b[..G::N_SK - 1].iter().all(|&x| x == 0));
            // Every candidate rejected: DeriveKeyPairError after counter 255.
            let mut calls = 0;
            let r = rejection_sample::<G>(mask, |_, out| {
                calls += 1;
                out.fill(0xFF)
            });
            assert_eq!(r.err(), Some(Error::DeriveKeyPair));
            assert_eq!(calls, 256);
        }
        check::<DhKemP256HkdfSha256>();
        if cfg!(miri) {
            // The loop is generic; one curve under Miri keeps the unit suite quick there.
            return;
        }
        check::<DhKemP384HkdfSha384>();
        check::<DhKemP521HkdfSha512>();
        #[cfg(feature = "secp256k1")]
        check::<DhKemSecp256k1HkdfSha256>();
    }
}
