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

/// The X-Wing combiner label `\./` `/^\`.
const XWING_LABEL: [u8; 6] = [0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c];
const XWING_PK_LEN: usize = ml_kem_768::EK_LEN + 32;
const XWING_CT_LEN: usize = ml_kem_768::CT_LEN + 32;

/// An X-Wing public key: an ML-KEM-768 encapsulation key (checked) and an X25519 key.
#[derive(Clone, Debug, PartialEq)]
pub struct XWingPublicKey {
    ek: ml_kem_768::EncapsulationKey,
    pk_x: [u8; 32],
    bytes: [u8; XWING_PK_LEN],
}

impl XWingPublicKey {
    /// The key from its 1216 bytes: the length and the ML-KEM modulus check
    /// ([`Error::InvalidPublicKey`] for either).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let bytes: [u8; XWING_PK_LEN] = bytes.try_into().map_err(|_| Error::InvalidPublicKey)?;
        let ek = ml_kem_768::EncapsulationKey::from_bytes(&bytes[..ml_kem_768::EK_LEN])
            .map_err(|_| Error::InvalidPublicKey)?;
        let mut pk_x = [0u8; 32];
        pk_x.copy_from_slice(&bytes[ml_kem_768::EK_LEN..]);
        Ok(Self { ek, pk_x, bytes })
    }
    /// The encoded key `ek_M || pk_X`.
    pub fn as_bytes(&self) -> &[u8; XWING_PK_LEN] {
        &self.bytes
    }
}

/// An X-Wing private key: the 32-byte seed, with the expanded ML-KEM key, the X25519 secret
/// and the public key cached. Wiped on drop (each clone on its own drop).
#[derive(Clone)]
pub struct XWingPrivateKey {
    seed: Zeroizing<[u8; 32]>,
    dk: ml_kem_768::DecapsulationKey,
    sk_x: Zeroizing<[u8; 32]>,
    pk: XWingPublicKey,
}

impl XWingPrivateKey {
    fn from_seed(seed: &[u8; 32]) -> Self {
        let mut expanded = Zeroizing::new([0u8; 96]);
        tessera_keccak::shake256(seed, &mut expanded[..]);
        let mut d_z = Zeroizing::new([0u8; 64]);
        d_z.copy_from_slice(&expanded[..64]);
        let dk = ml_kem_768::DecapsulationKey::from_seed(&d_z);
        let mut sk_x = Zeroizing::new([0u8; 32]);
        sk_x.copy_from_slice(&expanded[64..]);
        let mut pk_x = [0u8; 32];
        tessera_x25519::x25519_base_into(&sk_x, &mut pk_x);
        let ek = dk.encapsulation_key().clone();
        let mut bytes = [0u8; XWING_PK_LEN];
        bytes[..ml_kem_768::EK_LEN].copy_from_slice(&ek.to_bytes());
        bytes[ml_kem_768::EK_LEN..].copy_from_slice(&pk_x);
        Self {
            seed: Zeroizing::new(*seed),
            dk,
            sk_x,
            pk: XWingPublicKey { ek, pk_x, bytes },
        }
    }
    /// The key from its 32-byte seed ([`Error::InvalidPrivateKey`] on another length).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let seed: &[u8; 32] = bytes.try_into().map_err(|_| Error::InvalidPrivateKey)?;
        Ok(Self::from_seed(seed))
    }
    /// The 32-byte seed.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.seed
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

/// `SHA3-256(ss_M || ss_X || ct_X || pk_X || XWingLabel)`.
fn xwing_combine(ss_m: &[u8], ss_x: &[u8; 32], ct_x: &[u8], pk_x: &[u8; 32]) -> SharedSecret {
    let mut h = tessera_keccak::Sha3_256::new();
    h.update(ss_m)
        .update(ss_x)
        .update(ct_x)
        .update(pk_x)
        .update(&XWING_LABEL);
    let mut ss = h.finalize();
    let out = SharedSecret::new(&ss);
    ss.zeroize();
    out
}

/// The X25519 half of X-Wing's `Encaps` and the combiner, given the ML-KEM-768 half and the
/// ephemeral X25519 scalar `ek_x`.
fn xwing_encap(
    pk: &XWingPublicKey,
    ct_m: &ml_kem_768::Ciphertext,
    ss_m: &ml_kem_768::SharedSecret,
    ek_x: &[u8; 32],
) -> (SharedSecret, [u8; XWING_CT_LEN]) {
    let mut ct_x = [0u8; 32];
    tessera_x25519::x25519_base_into(ek_x, &mut ct_x);
    let mut ss_x = Zeroizing::new([0u8; 32]);
    tessera_x25519::x25519_into(ek_x, &pk.pk_x, &mut ss_x);
    let ss = xwing_combine(ss_m.as_bytes(), &ss_x, &ct_x, &pk.pk_x);
    let mut enc = [0u8; XWING_CT_LEN];
    enc[..ml_kem_768::CT_LEN].copy_from_slice(ct_m.as_bytes());
    enc[ml_kem_768::CT_LEN..].copy_from_slice(&ct_x);
    (ss, enc)
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
        &pk.bytes
    }

    fn private_key_from_bytes(bytes: &[u8]) -> Result<Self::PrivateKey, Error> {
        XWingPrivateKey::from_bytes(bytes)
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
        // The same draw order as `eseed = m || ek_x`.
        let (ct_m, ss_m) = pk.ek.encapsulate(rng);
        let mut ek_x = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut ek_x[..]);
        Ok(xwing_encap(pk, &ct_m, &ss_m, &ek_x))
    }

    #[cfg(tessera_test_hooks)]
    fn encap_with_randomness(
        pk: &Self::PublicKey,
        randomness: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
        let eseed: &[u8; 64] = randomness
            .try_into()
            .map_err(|_| Error::InvalidRandomnessLength)?;
        let mut m = Zeroizing::new([0u8; 32]);
        m.copy_from_slice(&eseed[..32]);
        let mut ek_x = Zeroizing::new([0u8; 32]);
        ek_x.copy_from_slice(&eseed[32..]);
        let (ct_m, ss_m) = pk.ek.encapsulate_deterministic(&m);
        Ok(xwing_encap(pk, &ct_m, &ss_m, &ek_x))
    }

    #[cfg(tessera_test_hooks)]
    fn encap_derand(
        pk: &Self::PublicKey,
        ikm_e: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
        Self::encap_with_randomness(pk, ikm_e)
    }

    fn decap(enc: &[u8], sk: &Self::PrivateKey) -> Result<SharedSecret, Error> {
        if enc.len() != XWING_CT_LEN {
            return Err(Error::InvalidEncappedKey);
        }
        let (ct_m, ct_x) = enc.split_at(ml_kem_768::CT_LEN);
        let ct_m =
            ml_kem_768::Ciphertext::from_bytes(ct_m).map_err(|_| Error::InvalidEncappedKey)?;
        let ss_m = sk.dk.decapsulate(&ct_m);
        let ct_x: [u8; 32] = ct_x.try_into().map_err(|_| Error::InvalidEncappedKey)?;
        let mut ss_x = Zeroizing::new([0u8; 32]);
        tessera_x25519::x25519_into(&sk.sk_x, &ct_x, &mut ss_x);
        Ok(xwing_combine(ss_m.as_bytes(), &ss_x, &ct_x, &sk.pk.pk_x))
    }
}
