//! The NIST hybrids of draft-ietf-hpke-pq: MLKEM768-P256 (0x0050) and MLKEM1024-P384
//! (0x0051), the CG construction of draft-irtf-cfrg-concrete-hybrid-kems (the same shape as
//! X-Wing):
//!
//! - a private key is a 32-byte seed; `SHAKE256(seed, 64 + Nseed_T)` gives the ML-KEM seed
//!   `d || z` (64 bytes) then `Nseed_T` bytes for `RandomScalar` of the curve (P-256: three
//!   32-byte candidates, 96 bytes; P-384: one 48-byte candidate), each taken big-endian and
//!   accepted when in `[1, n)`;
//! - `ek = ek_PQ || ek_T` (uncompressed SEC1 point), `ct = ct_PQ || ct_T`;
//! - encapsulation randomness is `m` (32 bytes, ML-KEM) then `Nseed_T` bytes for the
//!   ephemeral scalar (128 bytes in all for P-256, 80 for P-384; `ikmE` in the vectors);
//! - `ss = SHA3-256(ss_PQ || ss_T || ct_T || ek_T || label)` with `ss_T` the x-coordinate and
//!   the labels `"MLKEM768-P256"` / `"MLKEM1024-P384"`;
//! - HPKE's `DeriveKeyPair(ikm)` is `SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "", 32)`
//!   with the KEM's suite id, as for the other post-quantum KEMs.

use tessera_mlkem::{ml_kem_768, ml_kem_1024};
use zeroize::{Zeroize, Zeroizing};

use super::dhkem::curves::MAX_PK;
use super::dhkem::{DhGroup, MAX_SK};
use super::kdf::{OneStage, labeled_derive};
use super::kem::SharedSecret;
use super::{DhKemP256HkdfSha256, DhKemP384HkdfSha384, Error, Kem, KemId, sealed};

/// `RandomScalar(seed)`: the first of the `Nscalar`-byte candidates of `seed` in `[1, n)`.
fn random_scalar<G: DhGroup>(seed: &[u8]) -> Option<G::Scalar> {
    seed.chunks_exact(G::N_SK).find_map(G::scalar_from_bytes)
}

macro_rules! nist_hybrid {
    ($(#[$doc:meta])* $kem:ident, $pk:ident, $sk:ident, $m:ident, $g:ty, $seed_t:expr, $label:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $kem;

        impl $kem {
            const N_ELEM: usize = <$g as DhGroup>::N_PK;
            const PK_LEN: usize = $m::EK_LEN + Self::N_ELEM;
            const CT_LEN: usize = $m::CT_LEN + Self::N_ELEM;

            /// The traditional half of `Encaps` and the combiner, given the ML-KEM half and
            /// the traditional randomness `rand_t`.
            fn encap_with(
                pk: &$pk,
                ct_pq: &$m::Ciphertext,
                ss_pq: &$m::SharedSecret,
                rand_t: &[u8],
            ) -> Result<(SharedSecret, [u8; $m::CT_LEN + <$g as DhGroup>::N_PK]), Error> {
                let mut sk_e = random_scalar::<$g>(rand_t).ok_or(Error::DeriveKeyPair)?;
                let mut enc = [0u8; $kem::CT_LEN];
                let ct_t = &mut enc[$m::CT_LEN..];
                <$g as DhGroup>::point_to_bytes(&<$g as DhGroup>::base_mul(&sk_e), ct_t);
                let mut ss_t = Zeroizing::new([0u8; MAX_SK]);
                let n = <$g as DhGroup>::N_DH;
                let dh = <$g as DhGroup>::dh(&sk_e, &pk.pk_t, &mut ss_t[..n]);
                sk_e.zeroize();
                dh?;
                enc[..$m::CT_LEN].copy_from_slice(ct_pq.as_bytes());
                let ss = combine(
                    ss_pq.as_bytes(),
                    &ss_t[..n],
                    &enc[$m::CT_LEN..],
                    pk.ek_t(),
                    $label.as_bytes(),
                );
                Ok((ss, enc))
            }
        }

        #[doc = concat!("A ", $label, " public key: an ML-KEM encapsulation key (checked) and a curve point (validated).")]
        #[derive(Clone, Debug, PartialEq)]
        pub struct $pk {
            ek: $m::EncapsulationKey,
            pk_t: <$g as DhGroup>::Point,
            bytes: [u8; $m::EK_LEN + <$g as DhGroup>::N_PK],
        }

        impl $pk {
            /// The key from its bytes `ek_PQ || ek_T`: the length, the FIPS 203 modulus
            /// check and the point validation ([`Error::InvalidPublicKey`] for each).
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                let bytes: [u8; $kem::PK_LEN] =
                    bytes.try_into().map_err(|_| Error::InvalidPublicKey)?;
                let (ek, pk_t) = bytes.split_at($m::EK_LEN);
                let ek = $m::EncapsulationKey::from_bytes(ek).map_err(|_| Error::InvalidPublicKey)?;
                let pk_t = <$g as DhGroup>::point_from_bytes(pk_t).ok_or(Error::InvalidPublicKey)?;
                Ok(Self { ek, pk_t, bytes })
            }
            /// The encoded key `ek_PQ || ek_T`.
            pub fn as_bytes(&self) -> &[u8] {
                &self.bytes
            }
            fn ek_t(&self) -> &[u8] {
                &self.bytes[$m::EK_LEN..]
            }
        }

        #[doc = concat!("A ", $label, " private key: the 32-byte seed, with the expanded ML-KEM key, the curve scalar and the public key cached. Wiped on drop (each clone on its own drop).")]
        #[derive(Clone)]
        pub struct $sk {
            seed: Zeroizing<[u8; 32]>,
            dk: $m::DecapsulationKey,
            sk_t: <$g as DhGroup>::Scalar,
            pk: $pk,
        }

        impl $sk {
            /// The expansion of the seed; `None` when `RandomScalar` finds no candidate
            /// (probability below 2^-96).
            fn from_seed(seed: &[u8; 32]) -> Option<Self> {
                let mut expanded = Zeroizing::new([0u8; 64 + $seed_t]);
                tessera_keccak::shake256(seed, &mut expanded[..]);
                let sk_t = random_scalar::<$g>(&expanded[64..])?;
                let mut d_z = Zeroizing::new([0u8; 64]);
                d_z.copy_from_slice(&expanded[..64]);
                let dk = $m::DecapsulationKey::from_seed(&d_z);
                let ek = dk.encapsulation_key().clone();
                let pk_t = <$g as DhGroup>::base_mul(&sk_t);
                let mut bytes = [0u8; $kem::PK_LEN];
                bytes[..$m::EK_LEN].copy_from_slice(&ek.to_bytes());
                <$g as DhGroup>::point_to_bytes(&pk_t, &mut bytes[$m::EK_LEN..]);
                Some(Self { seed: Zeroizing::new(*seed), dk, sk_t, pk: $pk { ek, pk_t, bytes } })
            }
            /// The key from its 32-byte seed ([`Error::InvalidPrivateKey`] on another length
            /// or a seed whose curve scalar cannot be sampled).
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                let seed: &[u8; 32] = bytes.try_into().map_err(|_| Error::InvalidPrivateKey)?;
                Self::from_seed(seed).ok_or(Error::InvalidPrivateKey)
            }
            /// The 32-byte seed.
            pub fn as_bytes(&self) -> &[u8; 32] {
                &self.seed
            }
            /// The public key.
            pub fn public_key(&self) -> &$pk {
                &self.pk
            }
        }

        impl Drop for $sk {
            fn drop(&mut self) {
                self.sk_t.zeroize();
            }
        }

        impl core::fmt::Debug for $sk {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($sk)).finish_non_exhaustive()
            }
        }

        impl sealed::Sealed for $kem {}

        impl Kem for $kem {
            const ID: KemId = KemId::$kem;
            const N_SECRET: usize = 32;
            const N_ENC: usize = $kem::CT_LEN;
            const N_PK: usize = $kem::PK_LEN;
            const N_SK: usize = 32;
            const N_RANDOM: usize = 32 + $seed_t;
            type PublicKey = $pk;
            type PrivateKey = $sk;
            type EncappedKey = [u8; $m::CT_LEN + <$g as DhGroup>::N_PK];

            fn generate_key_pair(
                rng: &mut impl rand_core::CryptoRng,
            ) -> (Self::PrivateKey, Self::PublicKey) {
                let mut seed = Zeroizing::new([0u8; 32]);
                loop {
                    rng.fill_bytes(&mut seed[..]);
                    if let Some(sk) = $sk::from_seed(&seed) {
                        let pk = sk.pk.clone();
                        return (sk, pk);
                    }
                }
            }

            fn derive_key_pair(ikm: &[u8]) -> Result<(Self::PrivateKey, Self::PublicKey), Error> {
                let mut seed = Zeroizing::new([0u8; 32]);
                labeled_derive(
                    OneStage::Shake256,
                    &kem_suite_id(KemId::$kem),
                    &[ikm],
                    b"DeriveKeyPair",
                    &[],
                    &mut seed[..],
                )
                .expect("32 bytes is in range");
                let sk = $sk::from_seed(&seed).ok_or(Error::DeriveKeyPair)?;
                let pk = sk.pk.clone();
                Ok((sk, pk))
            }

            fn public_key_from_bytes(bytes: &[u8]) -> Result<Self::PublicKey, Error> {
                $pk::from_bytes(bytes)
            }

            fn public_key_to_bytes(pk: &Self::PublicKey) -> &[u8] {
                &pk.bytes
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
                // The same draw order as the randomness `m || rand_t`.
                let (ct_pq, ss_pq) = pk.ek.encapsulate(rng);
                let mut rand_t = Zeroizing::new([0u8; $seed_t]);
                rng.fill_bytes(&mut rand_t[..]);
                $kem::encap_with(pk, &ct_pq, &ss_pq, &rand_t[..])
            }

            #[cfg(tessera_test_hooks)]
            fn encap_with_randomness(
                pk: &Self::PublicKey,
                randomness: &[u8],
            ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
                if randomness.len() != Self::N_RANDOM {
                    return Err(Error::InvalidRandomnessLength);
                }
                let (m, rand_t) = randomness.split_at(32);
                let m: &[u8; 32] = m.try_into().map_err(|_| Error::InvalidRandomnessLength)?;
                let (ct_pq, ss_pq) = pk.ek.encapsulate_deterministic(m);
                $kem::encap_with(pk, &ct_pq, &ss_pq, rand_t)
            }

            #[cfg(tessera_test_hooks)]
            fn encap_derand(
                pk: &Self::PublicKey,
                ikm_e: &[u8],
            ) -> Result<(SharedSecret, Self::EncappedKey), Error> {
                Self::encap_with_randomness(pk, ikm_e)
            }

            fn decap(enc: &[u8], sk: &Self::PrivateKey) -> Result<SharedSecret, Error> {
                if enc.len() != $kem::CT_LEN {
                    return Err(Error::InvalidEncappedKey);
                }
                let (ct_pq, ct_t) = enc.split_at($m::CT_LEN);
                let ct_pq =
                    $m::Ciphertext::from_bytes(ct_pq).map_err(|_| Error::InvalidEncappedKey)?;
                let pk_e = <$g as DhGroup>::point_from_bytes(ct_t).ok_or(Error::InvalidEncappedKey)?;
                let mut ss_t = Zeroizing::new([0u8; MAX_SK]);
                let n = <$g as DhGroup>::N_DH;
                <$g as DhGroup>::dh(&sk.sk_t, &pk_e, &mut ss_t[..n])?;
                let ss_pq = sk.dk.decapsulate(&ct_pq);
                Ok(combine(ss_pq.as_bytes(), &ss_t[..n], ct_t, sk.pk.ek_t(), $label.as_bytes()))
            }
        }
    };
}

/// `SHA3-256(ss_PQ || ss_T || ct_T || ek_T || label)`.
fn combine(ss_pq: &[u8], ss_t: &[u8], ct_t: &[u8], ek_t: &[u8], label: &[u8]) -> SharedSecret {
    let mut h = tessera_keccak::Sha3_256::new();
    h.update(ss_pq)
        .update(ss_t)
        .update(ct_t)
        .update(ek_t)
        .update(label);
    let mut ss = h.finalize();
    let out = SharedSecret::new(&ss);
    ss.zeroize();
    out
}

/// `suite_id = "KEM" || I2OSP(kem_id, 2)`.
const fn kem_suite_id(id: KemId) -> [u8; 5] {
    let b = id.id().to_be_bytes();
    [b'K', b'E', b'M', b[0], b[1]]
}

const _: () = assert!(MAX_PK >= 97);

nist_hybrid!(
    /// MLKEM768-P256, KEM 0x0050 (draft-ietf-hpke-pq): 32-byte seed private keys, `Nenc`
    /// 1153, `Npk` 1249, 128 bytes of encapsulation randomness.
    MlKem768P256, MlKem768P256PublicKey, MlKem768P256PrivateKey, ml_kem_768,
    DhKemP256HkdfSha256, 96, "MLKEM768-P256"
);
nist_hybrid!(
    /// MLKEM1024-P384, KEM 0x0051 (draft-ietf-hpke-pq): 32-byte seed private keys, `Nenc`
    /// 1665, `Npk` 1665, 80 bytes of encapsulation randomness.
    MlKem1024P384, MlKem1024P384PublicKey, MlKem1024P384PrivateKey, ml_kem_1024,
    DhKemP384HkdfSha384, 48, "MLKEM1024-P384"
);
