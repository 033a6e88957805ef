//! Interoperability of the new DHKEMs with two peers, in both directions, in every mode, on
//! random keys and messages:
//!
//! - rust-hpke (`hpke` 0.15): DHKEM P-256, P-384, P-521;
//! - hpke-rs 0.8 with its RustCrypto provider: DHKEM P-256, P-384, secp256k1 (it has neither
//!   P-521 nor X448 there).
//!
//! P-384 and secp256k1 have no official RFC 9180 vectors; these runs (with hpke-pq vector #8
//! for P-384 and the Wycheproof sets for the curve arithmetic) are their external checks.
//! X448 has none of these peers (hpke-ng has it but declares rust-version 1.96, which a plain
//! `cargo test` on 1.95 refuses without `--ignore-rust-version`); its checks are the RFC 9180 vectors and Wycheproof.

use hpke::{Deserializable, OpModeR, OpModeS, PskBundle, Serializable};
use hpke_rs::hpke_types::{AeadAlgorithm, KdfAlgorithm, KemAlgorithm};
use hpke_rs::rustcrypto::HpkeRustCrypto;
use hpke_rs::{HpkePrivateKey, HpkePublicKey};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tessera::hpke::{
    Aes128Gcm, AuthKem, ChaCha20Poly1305, DhKemP256HkdfSha256, DhKemP384HkdfSha384,
    DhKemP521HkdfSha512, DhKemSecp256k1HkdfSha256, HkdfSha256, HkdfSha384, Hpke, Kdf, SealingAead,
};

const PSK: &[u8] = b"an interoperable pre-shared key, 32+ bytes";
const PSK_ID: &[u8] = b"interop psk id";
const MODES: [u8; 4] = [0, 1, 2, 3];

fn random_bytes(rng: &mut StdRng, max: usize) -> Vec<u8> {
    let n = rng.random_range(0..max);
    (0..n).map(|_| rng.random()).collect()
}

/// Tessera's single-shot seal in `mode`.
fn tessera_seal<K: AuthKem, F: Kdf, A: SealingAead>(
    mode: u8,
    pk_r: &K::PublicKey,
    sk_s: &K::PrivateKey,
    info: &[u8],
    aad: &[u8],
    pt: &[u8],
    rng: &mut StdRng,
) -> (Vec<u8>, Vec<u8>) {
    type H<K, F, A> = Hpke<K, F, A>;
    let (enc, ct) = match mode {
        0 => H::<K, F, A>::seal_base(pk_r, info, aad, pt, rng),
        1 => H::<K, F, A>::seal_psk(pk_r, info, aad, pt, PSK, PSK_ID, rng),
        2 => H::<K, F, A>::seal_auth(pk_r, info, aad, pt, sk_s, rng),
        _ => H::<K, F, A>::seal_auth_psk(pk_r, info, aad, pt, PSK, PSK_ID, sk_s, rng),
    }
    .unwrap();
    (enc.as_ref().to_vec(), ct)
}

/// Tessera's single-shot open in `mode`.
#[allow(clippy::too_many_arguments)]
fn tessera_open<K: AuthKem, F: Kdf, A: SealingAead>(
    mode: u8,
    enc: &[u8],
    sk_r: &K::PrivateKey,
    pk_s: &K::PublicKey,
    info: &[u8],
    aad: &[u8],
    ct: &[u8],
) -> Vec<u8> {
    type H<K, F, A> = Hpke<K, F, A>;
    match mode {
        0 => H::<K, F, A>::open_base(enc, sk_r, info, aad, ct),
        1 => H::<K, F, A>::open_psk(enc, sk_r, info, aad, ct, PSK, PSK_ID),
        2 => H::<K, F, A>::open_auth(enc, sk_r, info, aad, ct, pk_s),
        _ => H::<K, F, A>::open_auth_psk(enc, sk_r, info, aad, ct, PSK, PSK_ID, pk_s),
    }
    .unwrap()
}

/// Tessera <-> rust-hpke for our KEM `K` (their `R`), KDF `F` (their `RF`), AEAD `A` (their
/// `RA`): `rounds` random messages per mode and direction.
fn with_rust_hpke<K, F, A, R, RF, RA>(rounds: usize) -> usize
where
    K: AuthKem,
    F: Kdf,
    A: SealingAead,
    R: hpke::Kem,
    RF: hpke::kdf::Kdf,
    RA: hpke::aead::Aead,
{
    let mut rng = StdRng::from_seed([0x15; 32]);
    let mut n = 0;
    for _ in 0..rounds {
        // Keys from Tessera, parsed by rust-hpke; and keys from rust-hpke, parsed by Tessera.
        let (sk_r, pk_r) = K::generate_key_pair(&mut rng);
        let (sk_s, pk_s) = K::generate_key_pair(&mut rng);
        let r_sk_r = R::PrivateKey::from_bytes(K::private_key_to_bytes(&sk_r)).unwrap();
        let r_pk_r = R::PublicKey::from_bytes(K::public_key_to_bytes(&pk_r)).unwrap();
        let r_sk_s = R::PrivateKey::from_bytes(K::private_key_to_bytes(&sk_s)).unwrap();
        let r_pk_s = R::PublicKey::from_bytes(K::public_key_to_bytes(&pk_s)).unwrap();
        let (their_sk, their_pk) = R::gen_keypair_with_rng(&mut rng);
        let ours = K::private_key_from_bytes(&their_sk.to_bytes()).unwrap();
        assert_eq!(
            K::public_key_to_bytes(K::public_key(&ours)),
            &their_pk.to_bytes()[..]
        );
        for mode in MODES {
            let info = random_bytes(&mut rng, 64);
            let aad = random_bytes(&mut rng, 64);
            let pt = random_bytes(&mut rng, 300);
            let bundle = PskBundle::new(PSK, PSK_ID).unwrap();
            // Tessera seals, rust-hpke opens.
            let (enc, ct) = tessera_seal::<K, F, A>(mode, &pk_r, &sk_s, &info, &aad, &pt, &mut rng);
            let mode_r = match mode {
                0 => OpModeR::Base,
                1 => OpModeR::Psk(bundle),
                2 => OpModeR::Auth(r_pk_s.clone()),
                _ => OpModeR::AuthPsk(r_pk_s.clone(), bundle),
            };
            let r_enc = R::EncappedKey::from_bytes(&enc).unwrap();
            let opened =
                hpke::single_shot_open::<RA, RF, R>(&mode_r, &r_sk_r, &r_enc, &info, &ct, &aad)
                    .unwrap();
            assert_eq!(opened, pt, "rust-hpke opens Tessera's, mode {mode}");
            // rust-hpke seals, Tessera opens.
            let mode_s = match mode {
                0 => OpModeS::Base,
                1 => OpModeS::Psk(bundle),
                2 => OpModeS::Auth((r_sk_s.clone(), r_pk_s.clone())),
                _ => OpModeS::AuthPsk((r_sk_s.clone(), r_pk_s.clone()), bundle),
            };
            let (r_enc, ct) = hpke::single_shot_seal_with_rng::<RA, RF, R>(
                &mode_s, &r_pk_r, &info, &pt, &aad, &mut rng,
            )
            .unwrap();
            let opened =
                tessera_open::<K, F, A>(mode, &r_enc.to_bytes(), &sk_r, &pk_s, &info, &aad, &ct);
            assert_eq!(opened, pt, "Tessera opens rust-hpke's, mode {mode}");
            n += 2;
        }
    }
    n
}

/// Tessera <-> hpke-rs (RustCrypto provider).
fn with_hpke_rs<K, F, A>(
    kem: KemAlgorithm,
    kdf: KdfAlgorithm,
    aead: AeadAlgorithm,
    rounds: usize,
) -> usize
where
    K: AuthKem,
    F: Kdf,
    A: SealingAead,
{
    let mut rng = StdRng::from_seed([0x16; 32]);
    let mut n = 0;
    for _ in 0..rounds {
        let (sk_r, pk_r) = K::generate_key_pair(&mut rng);
        let (sk_s, pk_s) = K::generate_key_pair(&mut rng);
        let h_sk_r = HpkePrivateKey::new(K::private_key_to_bytes(&sk_r).to_vec());
        let h_pk_r = HpkePublicKey::new(K::public_key_to_bytes(&pk_r).to_vec());
        let h_sk_s = HpkePrivateKey::new(K::private_key_to_bytes(&sk_s).to_vec());
        let h_pk_s = HpkePublicKey::new(K::public_key_to_bytes(&pk_s).to_vec());
        for mode in MODES {
            let h_mode = match mode {
                0 => hpke_rs::Mode::Base,
                1 => hpke_rs::Mode::Psk,
                2 => hpke_rs::Mode::Auth,
                _ => hpke_rs::Mode::AuthPsk,
            };
            let mut h = hpke_rs::Hpke::<HpkeRustCrypto>::new(h_mode, kem, kdf, aead);
            // hpke-rs generates keys Tessera parses.
            let kp = h.generate_key_pair().unwrap();
            assert!(K::public_key_from_bytes(kp.public_key().as_slice()).is_ok());
            let info = random_bytes(&mut rng, 64);
            let aad = random_bytes(&mut rng, 64);
            let pt = random_bytes(&mut rng, 300);
            let (psk, psk_id) = if mode % 2 == 1 {
                (Some(PSK), Some(PSK_ID))
            } else {
                (None, None)
            };
            let (auth_sk, auth_pk) = if mode >= 2 {
                (Some(&h_sk_s), Some(&h_pk_s))
            } else {
                (None, None)
            };
            // Tessera seals, hpke-rs opens.
            let (enc, ct) = tessera_seal::<K, F, A>(mode, &pk_r, &sk_s, &info, &aad, &pt, &mut rng);
            let opened = h
                .open(&enc, &h_sk_r, &info, &aad, &ct, psk, psk_id, auth_pk)
                .unwrap();
            assert_eq!(opened, pt, "hpke-rs opens Tessera's, mode {mode}");
            // hpke-rs seals, Tessera opens.
            let (enc, ct) = h
                .seal(&h_pk_r, &info, &aad, &pt, psk, psk_id, auth_sk)
                .unwrap();
            let opened = tessera_open::<K, F, A>(mode, &enc, &sk_r, &pk_s, &info, &aad, &ct);
            assert_eq!(opened, pt, "Tessera opens hpke-rs's, mode {mode}");
            n += 2;
        }
    }
    n
}

#[test]
fn interop_rust_hpke_nist() {
    use hpke::aead::{AesGcm128, ChaCha20Poly1305 as RChaCha};
    use hpke::kdf::{HkdfSha256 as RS256, HkdfSha384 as RS384};
    use hpke::kem::{DhP256HkdfSha256, DhP384HkdfSha384, DhP521HkdfSha512};
    let mut n = 0;
    n += with_rust_hpke::<
        DhKemP256HkdfSha256,
        HkdfSha256,
        Aes128Gcm,
        DhP256HkdfSha256,
        RS256,
        AesGcm128,
    >(4);
    n += with_rust_hpke::<
        DhKemP384HkdfSha384,
        HkdfSha384,
        ChaCha20Poly1305,
        DhP384HkdfSha384,
        RS384,
        RChaCha,
    >(4);
    n += with_rust_hpke::<
        DhKemP521HkdfSha512,
        HkdfSha256,
        Aes128Gcm,
        DhP521HkdfSha512,
        RS256,
        AesGcm128,
    >(4);
    println!("interop rust-hpke: {n} messages (P-256, P-384, P-521; 4 modes; both directions)");
    assert_eq!(n, 3 * 4 * 4 * 2);
}

#[test]
fn interop_hpke_rs_nist_and_secp256k1() {
    let mut n = 0;
    n += with_hpke_rs::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>(
        KemAlgorithm::DhKemP256,
        KdfAlgorithm::HkdfSha256,
        AeadAlgorithm::Aes128Gcm,
        4,
    );
    n += with_hpke_rs::<DhKemP384HkdfSha384, HkdfSha384, ChaCha20Poly1305>(
        KemAlgorithm::DhKemP384,
        KdfAlgorithm::HkdfSha384,
        AeadAlgorithm::ChaCha20Poly1305,
        4,
    );
    n += with_hpke_rs::<DhKemSecp256k1HkdfSha256, HkdfSha256, Aes128Gcm>(
        KemAlgorithm::DhKemK256,
        KdfAlgorithm::HkdfSha256,
        AeadAlgorithm::Aes128Gcm,
        4,
    );
    n += with_hpke_rs::<DhKemSecp256k1HkdfSha256, HkdfSha384, ChaCha20Poly1305>(
        KemAlgorithm::DhKemK256,
        KdfAlgorithm::HkdfSha384,
        AeadAlgorithm::ChaCha20Poly1305,
        4,
    );
    println!(
        "interop hpke-rs: {n} messages (P-256, P-384, secp256k1 x2 suites; 4 modes; both directions)"
    );
    assert_eq!(n, 4 * 4 * 4 * 2);
}
