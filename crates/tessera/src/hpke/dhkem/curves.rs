//! The DHKEMs over the generic key types [`DhPublicKey`] / [`DhPrivateKey`]: P-256
//! (`tessera-p256`), P-384, P-521 (RustCrypto `p384` / `p521`; the three under feature
//! `nist`), secp256k1 (RustCrypto `k256`,
//! feature `secp256k1`) and X448 (Tessera's own RFC 7748 ladder, feature `x448`).

#[cfg(feature = "x448")]
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

#[cfg(tessera_test_hooks)]
use super::derive_scalar;
#[cfg(feature = "x448")]
use super::x448;
use super::{DhGroup, MAX_SK};
use crate::hpke::kdf::Hkdf;
use crate::hpke::{Error, KemId};

/// The longest serialized public key (P-521 uncompressed: 133 bytes).
pub(crate) const MAX_PK: usize = 133;

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

/// The key items of a [`DhGroup`] impl over [`DhPublicKey`] / [`DhPrivateKey`].
macro_rules! generic_keys {
    () => {
        #[inline(always)]
        fn guarded<T>(f: impl FnOnce() -> T) -> T {
            f()
        }
        type PublicKey = DhPublicKey<Self>;
        type PrivateKey = DhPrivateKey<Self>;

        fn private_key(s: Self::Scalar) -> Self::PrivateKey {
            DhPrivateKey::new(s)
        }
        fn point(pk: &Self::PublicKey) -> &Self::Point {
            &pk.point
        }
        fn public_bytes(pk: &Self::PublicKey) -> &[u8] {
            pk.as_bytes()
        }
        fn scalar(sk: &Self::PrivateKey) -> &Self::Scalar {
            &sk.sk
        }
        fn public_of(sk: &Self::PrivateKey) -> &Self::PublicKey {
            &sk.pk
        }
    };
}

/// A DHKEM over [`DhPublicKey`] / [`DhPrivateKey`]: its marker type, the key aliases and the
/// [`dh_kem!`] impls.
macro_rules! generic_dh_kem {
    ($(#[$doc:meta])* $kem:ident, $pk:ident, $sk:ident, $n_pk:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $kem;

        #[doc = concat!("A public key of [`", stringify!($kem), "`].")]
        pub type $pk = DhPublicKey<$kem>;
        #[doc = concat!("A private key of [`", stringify!($kem), "`].")]
        pub type $sk = DhPrivateKey<$kem>;

        dh_kem!($kem, $pk, $sk, $n_pk);
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
            generic_keys!();
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

/// P-256 on Tessera's own curve arithmetic (`tessera-p256`): uncompressed SEC 1 points only,
/// scalars in `[1, n)`, the x-coordinate as the DH output. Each key keeps the backend chosen
/// when it was made.
#[cfg(feature = "nist")]
impl DhGroup for DhKemP256HkdfSha256 {
    const KEM: KemId = KemId::DhKemP256HkdfSha256;
    const KDF: Hkdf = Hkdf::Sha256;
    const N_SECRET: usize = 32;
    const N_PK: usize = 65;
    const N_SK: usize = 32;
    const N_DH: usize = 32;
    const BITMASK: Option<u8> = Some(0xFF);
    generic_keys!();
    type Scalar = tessera_p256::SecretKey;
    type Point = tessera_p256::PublicKey;

    fn scalar_from_bytes(bytes: &[u8]) -> Option<Self::Scalar> {
        tessera_p256::SecretKey::from_slice(bytes).ok()
    }

    fn scalar_to_bytes(s: &Self::Scalar, out: &mut [u8]) {
        let mut b = s.to_bytes();
        out.copy_from_slice(&b);
        b.zeroize();
    }

    fn point_from_bytes(bytes: &[u8]) -> Option<Self::Point> {
        // Uncompressed only (RFC 9180 section 7.1.1): the length and the 0x04 tag first
        // (compressed and identity encodings fail here), then the crate's checks
        // (coordinates below p, on the curve).
        if bytes.len() != 65 || bytes[0] != 0x04 {
            return None;
        }
        tessera_p256::PublicKey::from_sec1_bytes(bytes).ok()
    }

    fn point_to_bytes(p: &Self::Point, out: &mut [u8]) {
        out.copy_from_slice(&p.to_uncompressed());
    }

    fn base_mul(s: &Self::Scalar) -> Self::Point {
        s.public_key()
    }

    fn dh(s: &Self::Scalar, p: &Self::Point, out: &mut [u8]) -> Result<(), Error> {
        // Never the identity: a validated point of the prime-order group times a scalar in
        // [1, n) (the crate's contract).
        out.copy_from_slice(s.diffie_hellman(p).as_bytes());
        Ok(())
    }
}
#[cfg(feature = "nist")]
weierstrass_group!(DhKemP384HkdfSha384, p384, Sha384, 48, 48, 0xFF);
#[cfg(feature = "nist")]
weierstrass_group!(DhKemP521HkdfSha512, p521, Sha512, 66, 64, 0x01);
#[cfg(feature = "secp256k1")]
weierstrass_group!(DhKemSecp256k1HkdfSha256, k256, Sha256, 32, 32, 0xFF);

#[cfg(feature = "nist")]
generic_dh_kem!(/// DHKEM(P-256, HKDF-SHA256), KEM 0x0010: `Nsecret` 32, `Nenc` = `Npk` 65, `Nsk` 32.
    DhKemP256HkdfSha256, P256PublicKey, P256PrivateKey, 65);
#[cfg(feature = "nist")]
generic_dh_kem!(/// DHKEM(P-384, HKDF-SHA384), KEM 0x0011: `Nsecret` 48, `Nenc` = `Npk` 97, `Nsk` 48.
    DhKemP384HkdfSha384, P384PublicKey, P384PrivateKey, 97);
#[cfg(feature = "nist")]
generic_dh_kem!(/// DHKEM(P-521, HKDF-SHA512), KEM 0x0012: `Nsecret` 64, `Nenc` = `Npk` 133, `Nsk` 66.
    DhKemP521HkdfSha512, P521PublicKey, P521PrivateKey, 133);
#[cfg(feature = "secp256k1")]
generic_dh_kem!(/// DHKEM(secp256k1, HKDF-SHA256), KEM 0x0016: `Nsecret` 32, `Nenc` = `Npk` 65, `Nsk` 32.
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
    generic_keys!();
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
        let zero = crate::hpke::public_bool(bool::from(z.ct_eq(&[0u8; 56])));
        out.copy_from_slice(&z);
        z.zeroize();
        if zero {
            return Err(Error::NonContributory);
        }
        Ok(())
    }
}

#[cfg(feature = "x448")]
generic_dh_kem!(/// DHKEM(X448, HKDF-SHA512), KEM 0x0021: `Nsecret` 64, `Nenc` = `Npk` = `Nsk` 56.
    DhKemX448HkdfSha512, X448PublicKey, X448PrivateKey, 56);

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
    use crate::hpke::dhkem::rejection_sample;

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
