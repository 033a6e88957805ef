//! The KEMs: DHKEM(X25519, HKDF-SHA256) (RFC 9180 section 4.1), ML-KEM-512/768/1024 and
//! MLKEM768-X25519 (X-Wing) as draft-ietf-hpke-pq defines them for HPKE.

use subtle::ConstantTimeEq;
use tessera_mlkem::{ml_kem_512, ml_kem_768, ml_kem_1024};
use zeroize::{Zeroize, Zeroizing};

use super::kdf::{Hkdf, OneStage, labeled_derive, labeled_expand, labeled_extract};
use super::{AuthKem, Error, Kem, KemId, sealed};

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
// DHKEM(X25519, HKDF-SHA256)

/// DHKEM(X25519, HKDF-SHA256), KEM 0x0020: `Nsecret = Nenc = Npk = Nsk = 32`, with Auth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DhKemX25519HkdfSha256;

const X25519_SUITE: [u8; 5] = kem_suite_id(KemId::DhKemX25519HkdfSha256);

/// An X25519 public key (every 32-byte string is one, RFC 7748; small-order keys fail at the
/// Diffie-Hellman step with [`Error::NonContributory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct X25519PublicKey([u8; 32]);

impl X25519PublicKey {
    /// The key from its 32 bytes ([`Error::InvalidPublicKey`] on another length).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        bytes
            .try_into()
            .map(Self)
            .map_err(|_| Error::InvalidPublicKey)
    }
    /// The 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

/// An X25519 private key with its public key cached. Wiped on drop.
///
/// `Clone` is kept: an [`crate::hpke::AgilePrivateKey`] holding it is `Clone` for callers
/// that keep one key in several places (each copy is wiped on its own drop).
#[derive(Clone)]
pub struct X25519PrivateKey {
    sk: [u8; 32],
    pk: X25519PublicKey,
}

impl X25519PrivateKey {
    /// An all-zero key, filled in place by [`Self::filled`].
    const ZERO: Self = Self {
        sk: [0; 32],
        pk: X25519PublicKey([0; 32]),
    };

    /// `out` (holding [`Self::ZERO`]) made the key `sk` with public key `pk`. Everything that
    /// can fail or call out is done before `out` exists, so the compiler builds `out` in the
    /// caller's return slot: no struct is built in a temporary and moved, which would leave a
    /// copy of the secret in this frame (`tests/wipe.rs` checks it).
    #[inline(always)]
    fn fill(k: &mut Self, sk: &[u8; 32], pk: [u8; 32]) {
        k.sk = *sk;
        k.pk = X25519PublicKey(pk);
    }

    /// The key from its 32 bytes ([`Error::InvalidPrivateKey`] on another length). Clamping
    /// happens in each scalar multiplication, so clamped and unclamped forms are one key.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        scrubbed(|| Self::from_bytes_unscrubbed(bytes))
    }

    fn from_bytes_unscrubbed(bytes: &[u8]) -> Result<Self, Error> {
        let sk: &[u8; 32] = bytes.try_into().map_err(|_| Error::InvalidPrivateKey)?;
        let mut pk = [0u8; 32];
        tessera_x25519::x25519_base_into(sk, &mut pk);
        let mut out = Ok(Self::ZERO);
        if let Ok(k) = &mut out {
            Self::fill(k, sk, pk);
        }
        out
    }

    /// The 32 secret bytes, as given or derived.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.sk
    }
    /// The public key.
    pub fn public_key(&self) -> &X25519PublicKey {
        &self.pk
    }
}

impl Drop for X25519PrivateKey {
    fn drop(&mut self) {
        self.sk.zeroize();
    }
}

impl core::fmt::Debug for X25519PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("X25519PrivateKey")
            .field("pk", &self.pk)
            .finish_non_exhaustive()
    }
}

/// X25519 with the all-zero check in constant time.
fn dh(sk: &[u8; 32], pk: &X25519PublicKey) -> Result<Zeroizing<[u8; 32]>, Error> {
    let mut out = Zeroizing::new([0u8; 32]);
    tessera_x25519::x25519_into(sk, &pk.0, &mut out);
    if super::public_bool(bool::from(out.ct_eq(&[0u8; 32]))) {
        return Err(Error::NonContributory);
    }
    Ok(out)
}

/// `ExtractAndExpand(dh, kem_context)` with HKDF-SHA256 and the KEM's suite id.
fn x25519_extract_and_expand(dh: &[&[u8]], kem_context: &[&[u8]]) -> SharedSecret {
    let prk = labeled_extract(Hkdf::Sha256, &X25519_SUITE, &[], b"eae_prk", dh);
    let mut ss = [0u8; 32];
    labeled_expand(&prk, &X25519_SUITE, b"shared_secret", kem_context, &mut ss)
        .expect("32 bytes is in range");
    let out = SharedSecret::new(&ss);
    ss.zeroize();
    out
}

/// Overwrites with zeros the stack just below the caller's frame, where the frames of the
/// functions it called lay: constructing a key moves it through temporaries the compiler
/// places there (a value built and then copied to the return slot), which no `Drop` reaches.
#[inline(never)]
fn scrub_stack() {
    let mut area = [0u8; 1024];
    area.zeroize();
    core::hint::black_box(&area);
}

/// `f()` run in a frame of its own, then [`scrub_stack`]: for the operations that build X25519
/// private keys (the frames above the X25519 crate, which wipes its own).
fn scrubbed<T>(f: impl FnOnce() -> T) -> T {
    #[inline(never)]
    fn in_frame<T>(f: impl FnOnce() -> T) -> T {
        f()
    }
    let r = in_frame(f);
    scrub_stack();
    r
}

/// `DeriveKeyPair(ikm)`'s private key, into `sk`.
fn x25519_derive_into(ikm: &[u8], sk: &mut [u8; 32]) {
    let prk = labeled_extract(Hkdf::Sha256, &X25519_SUITE, &[], b"dkp_prk", &[ikm]);
    labeled_expand(&prk, &X25519_SUITE, b"sk", &[], &mut sk[..]).expect("32 bytes is in range");
}

/// A key pair of the secret `sk`, built in the caller's slot (see
/// [`X25519PrivateKey::fill`]).
#[inline(always)]
fn x25519_pair(sk: &[u8; 32]) -> (X25519PrivateKey, X25519PublicKey) {
    let mut pk = [0u8; 32];
    tessera_x25519::x25519_base_into(sk, &mut pk);
    let mut out = (X25519PrivateKey::ZERO, X25519PublicKey(pk));
    X25519PrivateKey::fill(&mut out.0, sk, pk);
    out
}

/// The key pair `DeriveKeyPair(ikm)`.
fn x25519_derive(ikm: &[u8]) -> (X25519PrivateKey, X25519PublicKey) {
    let mut sk = Zeroizing::new([0u8; 32]);
    x25519_derive_into(ikm, &mut sk);
    x25519_pair(&sk)
}

/// A fresh key pair from `rng`.
fn x25519_random(rng: &mut impl rand_core::CryptoRng) -> (X25519PrivateKey, X25519PublicKey) {
    let mut sk = Zeroizing::new([0u8; 32]);
    rng.fill_bytes(&mut sk[..]);
    x25519_pair(&sk)
}

#[cfg(tessera_test_hooks)]
fn x25519_ephemeral(randomness: &[u8]) -> Result<X25519PrivateKey, Error> {
    X25519PrivateKey::from_bytes(randomness).map_err(|_| Error::InvalidRandomnessLength)
}

fn x25519_encap(
    pk_r: &X25519PublicKey,
    e: &X25519PrivateKey,
    sender: Option<&X25519PrivateKey>,
) -> Result<(SharedSecret, [u8; 32]), Error> {
    let enc = e.pk.0;
    let dh1 = dh(&e.sk, pk_r)?;
    let ss = match sender {
        None => x25519_extract_and_expand(&[&dh1[..]], &[&enc, &pk_r.0]),
        Some(s) => {
            let dh2 = dh(&s.sk, pk_r)?;
            x25519_extract_and_expand(&[&dh1[..], &dh2[..]], &[&enc, &pk_r.0, &s.pk.0])
        }
    };
    Ok((ss, enc))
}

fn x25519_decap(
    enc: &[u8],
    sk_r: &X25519PrivateKey,
    pk_s: Option<&X25519PublicKey>,
) -> Result<SharedSecret, Error> {
    let pk_e = X25519PublicKey::from_bytes(enc).map_err(|_| Error::InvalidEncappedKey)?;
    let dh1 = dh(&sk_r.sk, &pk_e)?;
    Ok(match pk_s {
        None => x25519_extract_and_expand(&[&dh1[..]], &[enc, &sk_r.pk.0]),
        Some(pk_s) => {
            let dh2 = dh(&sk_r.sk, pk_s)?;
            x25519_extract_and_expand(&[&dh1[..], &dh2[..]], &[enc, &sk_r.pk.0, &pk_s.0])
        }
    })
}

impl sealed::Sealed for DhKemX25519HkdfSha256 {}

impl Kem for DhKemX25519HkdfSha256 {
    const ID: KemId = KemId::DhKemX25519HkdfSha256;
    const N_SECRET: usize = 32;
    const N_ENC: usize = 32;
    const N_PK: usize = 32;
    const N_SK: usize = 32;
    const N_RANDOM: usize = 32;
    type PublicKey = X25519PublicKey;
    type PrivateKey = X25519PrivateKey;
    type EncappedKey = [u8; 32];

    fn generate_key_pair(
        rng: &mut impl rand_core::CryptoRng,
    ) -> (Self::PrivateKey, Self::PublicKey) {
        scrubbed(|| x25519_random(rng))
    }

    fn derive_key_pair(ikm: &[u8]) -> Result<(Self::PrivateKey, Self::PublicKey), Error> {
        Ok(scrubbed(|| x25519_derive(ikm)))
    }

    fn public_key_from_bytes(bytes: &[u8]) -> Result<Self::PublicKey, Error> {
        X25519PublicKey::from_bytes(bytes)
    }

    fn public_key_to_bytes(pk: &Self::PublicKey) -> &[u8] {
        &pk.0
    }

    fn private_key_from_bytes(bytes: &[u8]) -> Result<Self::PrivateKey, Error> {
        X25519PrivateKey::from_bytes(bytes)
    }

    fn private_key_to_bytes(sk: &Self::PrivateKey) -> &[u8] {
        &sk.sk
    }

    fn public_key(sk: &Self::PrivateKey) -> &Self::PublicKey {
        &sk.pk
    }

    fn encap(
        pk: &Self::PublicKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
        scrubbed(|| x25519_encap(pk, &x25519_random(rng).0, None))
    }

    #[cfg(tessera_test_hooks)]
    fn encap_with_randomness(
        pk: &Self::PublicKey,
        randomness: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
        x25519_encap(pk, &x25519_ephemeral(randomness)?, None)
    }

    #[cfg(tessera_test_hooks)]
    fn encap_derand(
        pk: &Self::PublicKey,
        ikm_e: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
        scrubbed(|| x25519_encap(pk, &x25519_derive(ikm_e).0, None))
    }

    fn decap(enc: &[u8], sk: &Self::PrivateKey) -> Result<SharedSecret, Error> {
        x25519_decap(enc, sk, None)
    }
}

impl AuthKem for DhKemX25519HkdfSha256 {
    fn auth_encap(
        pk_r: &Self::PublicKey,
        sk_s: &Self::PrivateKey,
        rng: &mut impl rand_core::CryptoRng,
    ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
        scrubbed(|| x25519_encap(pk_r, &x25519_random(rng).0, Some(sk_s)))
    }

    #[cfg(tessera_test_hooks)]
    fn auth_encap_with_randomness(
        pk_r: &Self::PublicKey,
        sk_s: &Self::PrivateKey,
        randomness: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
        x25519_encap(pk_r, &x25519_ephemeral(randomness)?, Some(sk_s))
    }

    #[cfg(tessera_test_hooks)]
    fn auth_encap_derand(
        pk_r: &Self::PublicKey,
        sk_s: &Self::PrivateKey,
        ikm_e: &[u8],
    ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
        scrubbed(|| x25519_encap(pk_r, &x25519_derive(ikm_e).0, Some(sk_s)))
    }

    fn auth_decap(
        enc: &[u8],
        sk_r: &Self::PrivateKey,
        pk_s: &Self::PublicKey,
    ) -> Result<SharedSecret, Error> {
        x25519_decap(enc, sk_r, Some(pk_s))
    }
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
