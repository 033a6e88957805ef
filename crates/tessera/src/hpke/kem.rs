//! The KEM shared secret and the post-quantum KEMs: ML-KEM-512/768/1024 and MLKEM768-X25519
//! (X-Wing) as draft-ietf-hpke-pq defines them for HPKE (the DHKEMs are in `dhkem`).

use tessera_mlkem::{ml_kem_512, ml_kem_768, ml_kem_1024};
use zeroize::{Zeroize, Zeroizing};

use super::kdf::{OneStage, labeled_derive};
use super::{Error, Kem, KemId, sealed};

/// A KEM shared secret (`Nsecret` bytes, at most 64), wiped on drop. Not `Clone`: one
/// owner, one wipe.
pub struct SharedSecret {
    buf: [u8; 64],
    len: usize,
}

impl SharedSecret {
    pub(crate) fn new(bytes: &[u8]) -> Self {
        let mut buf = [0u8; 64];
        buf[..bytes.len()].copy_from_slice(bytes);
        Self {
            buf,
            len: bytes.len(),
        }
    }

    /// The secret bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Drop for SharedSecret {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}

impl core::fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SharedSecret { .. }")
    }
}

/// `suite_id = "KEM" || I2OSP(kem_id, 2)`.
const fn kem_suite_id(id: KemId) -> [u8; 5] {
    let b = id.id().to_be_bytes();
    [b'K', b'E', b'M', b[0], b[1]]
}

// ---------------------------------------------------------------------------------------------
// ML-KEM

/// `DeriveKeyPair` of the post-quantum KEMs: `SHAKE256.LabeledDerive(ikm, "DeriveKeyPair",
/// "", Nsk)` with the KEM's suite id.
fn pq_derive_seed(id: KemId, ikm: &[u8], out: &mut [u8]) {
    labeled_derive(
        OneStage::Shake256,
        &kem_suite_id(id),
        &[ikm],
        b"DeriveKeyPair",
        &[],
        out,
    )
    .expect("seed lengths are in range");
}

macro_rules! ml_kem {
    ($(#[$doc:meta])* $kem:ident, $pk:ident, $sk:ident, $m:ident, $id:ident, $label:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $kem;

        #[doc = concat!("An ", $label, " encapsulation key, parsed and checked (FIPS 203 section 7.2).")]
        #[derive(Clone, Debug, PartialEq)]
        pub struct $pk($m::EncapsulationKey, [u8; $m::EK_LEN]);

        impl $pk {
            /// The key from its bytes: the length, then the FIPS 203 modulus check
            /// ([`Error::InvalidPublicKey`] for either).
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                let ek = $m::EncapsulationKey::from_bytes(bytes)
                    .map_err(|_| Error::InvalidPublicKey)?;
                let b = ek.to_bytes();
                Ok(Self(ek, b))
            }
            /// The encoded key.
            pub fn as_bytes(&self) -> &[u8; $m::EK_LEN] {
                &self.1
            }
        }

        #[doc = concat!("An ", $label, " private key: the 64-byte seed `d || z`, with the expanded decapsulation key cached. Wiped on drop (each clone on its own drop).")]
        #[derive(Clone)]
        pub struct $sk {
            seed: Zeroizing<[u8; 64]>,
            dk: $m::DecapsulationKey,
            pk: $pk,
        }

        impl $sk {
            fn from_seed(seed: &[u8; 64]) -> Self {
                let dk = $m::DecapsulationKey::from_seed(seed);
                let ek = dk.encapsulation_key().clone();
                let b = ek.to_bytes();
                Self { seed: Zeroizing::new(*seed), dk, pk: $pk(ek, b) }
            }
            /// The key from its 64-byte seed ([`Error::InvalidPrivateKey`] on another length).
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                let seed: &[u8; 64] = bytes.try_into().map_err(|_| Error::InvalidPrivateKey)?;
                Ok(Self::from_seed(seed))
            }
            /// The 64-byte seed.
            pub fn as_bytes(&self) -> &[u8; 64] {
                &self.seed
            }
            /// The public key.
            pub fn public_key(&self) -> &$pk {
                &self.pk
            }
        }

        impl core::fmt::Debug for $sk {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($sk)).finish_non_exhaustive()
            }
        }

        impl sealed::Sealed for $kem {}

        impl Kem for $kem {
            const ID: KemId = KemId::$id;
            const N_SECRET: usize = 32;
            const N_ENC: usize = $m::CT_LEN;
            const N_PK: usize = $m::EK_LEN;
            const N_SK: usize = 64;
            const N_RANDOM: usize = 32;
            type PublicKey = $pk;
            type PrivateKey = $sk;
            type EncappedKey = [u8; $m::CT_LEN];

            fn generate_key_pair(
                rng: &mut impl rand_core::CryptoRng,
            ) -> (Self::PrivateKey, Self::PublicKey) {
                let mut seed = Zeroizing::new([0u8; 64]);
                rng.fill_bytes(&mut seed[..]);
                let sk = $sk::from_seed(&seed);
                let pk = sk.pk.clone();
                (sk, pk)
            }

            fn derive_key_pair(ikm: &[u8]) -> Result<(Self::PrivateKey, Self::PublicKey), Error> {
                let mut seed = Zeroizing::new([0u8; 64]);
                pq_derive_seed(KemId::$id, ikm, &mut seed[..]);
                let sk = $sk::from_seed(&seed);
                let pk = sk.pk.clone();
                Ok((sk, pk))
            }

            fn public_key_from_bytes(bytes: &[u8]) -> Result<Self::PublicKey, Error> {
                $pk::from_bytes(bytes)
            }

            fn public_key_to_bytes(pk: &Self::PublicKey) -> &[u8] {
                &pk.1
            }

            fn private_key_from_bytes(bytes: &[u8]) -> Result<Self::PrivateKey, Error> {
                $sk::from_bytes(bytes)
            }

            fn private_key_to_bytes(sk: &Self::PrivateKey) -> &[u8] {
                &sk.seed[..]
            }

            fn public_key(sk: &Self::PrivateKey) -> &Self::PublicKey {
                &sk.pk
            }

            fn encap(
                pk: &Self::PublicKey,
                rng: &mut impl rand_core::CryptoRng,
            ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
                let (ct, ss) = pk.0.encapsulate(rng);
                Ok((SharedSecret::new(ss.as_bytes()), *ct.as_bytes()))
            }

            #[cfg(tessera_test_hooks)]
            fn encap_with_randomness(
                pk: &Self::PublicKey,
                randomness: &[u8],
            ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
                let m: &[u8; 32] =
                    randomness.try_into().map_err(|_| Error::InvalidRandomnessLength)?;
                let (ct, ss) = pk.0.encapsulate_deterministic(m);
                Ok((SharedSecret::new(ss.as_bytes()), *ct.as_bytes()))
            }

            #[cfg(tessera_test_hooks)]
            fn encap_derand(
                pk: &Self::PublicKey,
                ikm_e: &[u8],
            ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
                Self::encap_with_randomness(pk, ikm_e)
            }

            fn decap(enc: &[u8], sk: &Self::PrivateKey) -> Result<SharedSecret, Error> {
                let ct = $m::Ciphertext::from_bytes(enc).map_err(|_| Error::InvalidEncappedKey)?;
                Ok(SharedSecret::new(sk.dk.decapsulate(&ct).as_bytes()))
            }
        }
    };
}

ml_kem!(/// ML-KEM-512 (FIPS 203), KEM 0x0040: 64-byte seed private keys, `Nenc` 768, `Npk` 800.
    MlKem512, MlKem512PublicKey, MlKem512PrivateKey, ml_kem_512, MlKem512, "ML-KEM-512");
ml_kem!(/// ML-KEM-768 (FIPS 203), KEM 0x0041: 64-byte seed private keys, `Nenc` 1088, `Npk` 1184.
    MlKem768, MlKem768PublicKey, MlKem768PrivateKey, ml_kem_768, MlKem768, "ML-KEM-768");
ml_kem!(/// ML-KEM-1024 (FIPS 203), KEM 0x0042: 64-byte seed private keys, `Nenc` 1568, `Npk` 1568.
    MlKem1024, MlKem1024PublicKey, MlKem1024PrivateKey, ml_kem_1024, MlKem1024, "ML-KEM-1024");

// ---------------------------------------------------------------------------------------------
// X-Wing (MLKEM768-X25519)

/// MLKEM768-X25519 (X-Wing, draft-connolly-cfrg-xwing-kem), KEM 0x647A: 32-byte seed
/// private keys, `Nenc` 1120, `Npk` 1216; `DeriveKeyPair` as draft-ietf-hpke-pq says
/// (`SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "", 32)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct XWing;

const XWING_PK_LEN: usize = tessera_xwing::ENCAPSULATION_KEY_SIZE;
const XWING_CT_LEN: usize = tessera_xwing::CIPHERTEXT_SIZE;

/// An X-Wing public key: a `tessera_xwing::EncapsulationKey` (ML-KEM-768 key checked).
#[derive(Clone, Debug, PartialEq)]
pub struct XWingPublicKey(tessera_xwing::EncapsulationKey);

impl XWingPublicKey {
    /// The key from its 1216 bytes: the length and the ML-KEM modulus check
    /// ([`Error::InvalidPublicKey`] for either).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        tessera_xwing::EncapsulationKey::from_bytes(bytes)
            .map(Self)
            .map_err(|_| Error::InvalidPublicKey)
    }
    /// The encoded key `ek_M || pk_X`.
    pub fn as_bytes(&self) -> &[u8; XWING_PK_LEN] {
        self.0.as_bytes()
    }
}

/// An X-Wing private key: a `tessera_xwing::DecapsulationKey` (the 32-byte seed, with the
/// expanded keys cached) and its public key. Wiped on drop (each clone on its own drop).
#[derive(Clone)]
pub struct XWingPrivateKey {
    dk: tessera_xwing::DecapsulationKey,
    pk: XWingPublicKey,
}

impl XWingPrivateKey {
    fn from_seed(seed: &[u8; 32]) -> Self {
        let dk = tessera_xwing::DecapsulationKey::from_seed(seed);
        let pk = XWingPublicKey(dk.encapsulation_key().clone());
        Self { dk, pk }
    }
    /// The key from its 32-byte seed ([`Error::InvalidPrivateKey`] on another length).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let seed: &[u8; 32] = bytes.try_into().map_err(|_| Error::InvalidPrivateKey)?;
        Ok(Self::from_seed(seed))
    }
    /// The 32-byte seed.
    pub fn as_bytes(&self) -> &[u8; 32] {
        self.dk.as_bytes()
    }
    /// The public key.
    pub fn public_key(&self) -> &XWingPublicKey {
        &self.pk
    }
}

impl core::fmt::Debug for XWingPrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("XWingPrivateKey").finish_non_exhaustive()
    }
}

/// The HPKE view of an X-Wing encapsulation: the shared secret and the encapsulated key.
fn xwing_out(
    (ct, ss): (tessera_xwing::Ciphertext, tessera_xwing::SharedSecret),
) -> (SharedSecret, [u8; XWING_CT_LEN]) {
    (SharedSecret::new(ss.as_bytes()), *ct.as_bytes())
}

impl sealed::Sealed for XWing {}

impl Kem for XWing {
    const ID: KemId = KemId::XWing;
    const N_SECRET: usize = 32;
    const N_ENC: usize = XWING_CT_LEN;
    const N_PK: usize = XWING_PK_LEN;
    const N_SK: usize = 32;
    const N_RANDOM: usize = 64;
    type PublicKey = XWingPublicKey;
    type PrivateKey = XWingPrivateKey;
    type EncappedKey = [u8; XWING_CT_LEN];

    fn generate_key_pair(
        rng: &mut impl rand_core::CryptoRng,
    ) -> (Self::PrivateKey, Self::PublicKey) {
        let mut seed = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut seed[..]);
        let sk = XWingPrivateKey::from_seed(&seed);
        let pk = sk.pk.clone();
        (sk, pk)
    }

    fn derive_key_pair(ikm: &[u8]) -> Result<(Self::PrivateKey, Self::PublicKey), Error> {
        let mut seed = Zeroizing::new([0u8; 32]);
        pq_derive_seed(KemId::XWing, ikm, &mut seed[..]);
        let sk = XWingPrivateKey::from_seed(&seed);
        let pk = sk.pk.clone();
        Ok((sk, pk))
    }

    fn public_key_from_bytes(bytes: &[u8]) -> Result<Self::PublicKey, Error> {
        XWingPublicKey::from_bytes(bytes)
    }

    fn public_key_to_bytes(pk: &Self::PublicKey) -> &[u8] {
        pk.as_bytes()
    }

    fn private_key_from_bytes(bytes: &[u8]) -> Result<Self::PrivateKey, Error> {
        XWingPrivateKey::from_bytes(bytes)
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
        Ok(xwing_out(pk.0.encapsulate(rng)))
    }

    #[cfg(tessera_test_hooks)]
    fn encap_with_randomness(
        pk: &Self::PublicKey,
        randomness: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
        let eseed: &[u8; 64] = randomness
            .try_into()
            .map_err(|_| Error::InvalidRandomnessLength)?;
        Ok(xwing_out(pk.0.encapsulate_deterministic(eseed)))
    }

    #[cfg(tessera_test_hooks)]
    fn encap_derand(
        pk: &Self::PublicKey,
        ikm_e: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
        Self::encap_with_randomness(pk, ikm_e)
    }

    fn decap(enc: &[u8], sk: &Self::PrivateKey) -> Result<SharedSecret, Error> {
        let ct =
            tessera_xwing::Ciphertext::from_bytes(enc).map_err(|_| Error::InvalidEncappedKey)?;
        Ok(SharedSecret::new(sk.dk.decapsulate(&ct).as_bytes()))
    }
}
