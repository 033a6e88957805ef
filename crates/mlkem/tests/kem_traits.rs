//! The RustCrypto `kem` 0.3 traits (feature `kem`) through generic code, run on Tessera ML-KEM
//! and on RustCrypto `ml-kem` 0.3 (the same trait crate): round trips, keys moved between the
//! two through their seed and byte encodings, each decapsulating the other's ciphertexts (also
//! modified ones: implicit rejection agrees), every Tessera backend; `TryKeyInit` runs the
//! modulus check; `Generate` passes a generator's error through; proptest: `FromSeed` gives the
//! same keys as `ml-kem` on random seeds. The Tessera side is the trait-facing API of
//! `tessera_mlkem::ml_kem`; keys built on an explicit backend come from the native types through
//! `From`.
#![cfg(all(feature = "kem", not(any(miri, tessera_backend = "portable"))))]

use core::convert::Infallible;

use kem::{
    Decapsulate, Decapsulator, Encapsulate, FromSeed, Generate, InvalidKey, Kem, KeyExport,
    KeyInit, TryDecapsulate, TryKeyInit,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use tessera_mlkem::generic;
use tessera_mlkem::ml_kem::{DecapsulationKey, EncapsulationKey, ExpandedKeyEncoding};
use tessera_mlkem::testing::Backend;
use tessera_mlkem::{MlKem512, MlKem768, MlKem1024};
use tessera_testkit::FailingRng;
use tessera_testkit::backends::available;

/// Generic code as a user writes it: key generation, encapsulation and decapsulation through the
/// traits only.
fn round_trip<K: Kem>(rng: &mut StdRng)
where
    K::DecapsulationKey: Decapsulate,
{
    let (dk, ek) = K::generate_keypair_from_rng(rng);
    assert!(dk.encapsulation_key() == &ek);
    let (ct, k_send) = ek.encapsulate_with_rng(rng);
    let k_recv = dk.decapsulate(&ct);
    assert_eq!(k_send, k_recv);
    assert_eq!(dk.try_decapsulate(&ct).unwrap(), k_send);
    assert_eq!(dk.decapsulate_slice(ct.as_slice()).unwrap(), k_send);
    assert!(dk.decapsulate_slice(&ct.as_slice()[1..]).is_err());
    // A different key pair gives another shared key.
    let (dk2, _) = K::generate_keypair_from_rng(rng);
    assert_ne!(dk2.decapsulate(&ct), k_send);
}

#[test]
fn generic_round_trip_both_implementations() {
    let mut rng = StdRng::from_seed([1; 32]);
    round_trip::<MlKem512>(&mut rng);
    round_trip::<MlKem768>(&mut rng);
    round_trip::<MlKem1024>(&mut rng);
    round_trip::<ml_kem::MlKem512>(&mut rng);
    round_trip::<ml_kem::MlKem768>(&mut rng);
    round_trip::<ml_kem::MlKem1024>(&mut rng);
}

/// Encapsulates with `ek` (any implementation) and returns the ciphertext and key as bytes.
fn encap_bytes<E: Encapsulate>(ek: &E, rng: &mut StdRng) -> (Vec<u8>, Vec<u8>) {
    let (ct, k) = ek.encapsulate_with_rng(rng);
    (ct.to_vec(), k.to_vec())
}

/// Decapsulates `ct` with `dk` (any implementation).
fn decap_bytes<D: Decapsulate>(dk: &D, ct: &[u8]) -> Vec<u8> {
    dk.decapsulate_slice(ct).unwrap().to_vec()
}

/// Keys of implementation `A` moved to `B` through the traits' encodings (seed for the
/// decapsulation key, bytes for the encapsulation key); each side decapsulates the other's
/// ciphertexts, and a modified ciphertext gives the same rejection key on both.
fn cross<A: Kem, B: Kem>(a_dk: &A::DecapsulationKey, rng: &mut StdRng)
where
    A::DecapsulationKey: Decapsulate + KeyExport,
    B::DecapsulationKey: Decapsulate + KeyInit,
{
    let a_ek = a_dk.encapsulation_key();
    let b_dk = B::DecapsulationKey::new_from_slice(&a_dk.to_bytes()).unwrap();
    let b_ek = B::EncapsulationKey::new_from_slice(&a_ek.to_bytes()).unwrap();
    assert_eq!(a_ek.to_bytes().as_slice(), b_ek.to_bytes().as_slice());
    assert_eq!(
        b_dk.encapsulation_key().to_bytes().as_slice(),
        a_ek.to_bytes().as_slice()
    );
    for _ in 0..3 {
        let (ct, k) = encap_bytes(a_ek, rng);
        assert_eq!(decap_bytes(&b_dk, &ct), k);
        let (ct, k) = encap_bytes(&b_ek, rng);
        assert_eq!(decap_bytes(a_dk, &ct), k);
        let mut bad = ct.clone();
        bad[ct.len() / 2] ^= 0x10;
        let rejected = decap_bytes(a_dk, &bad);
        assert_ne!(rejected, k);
        assert_eq!(decap_bytes(&b_dk, &bad), rejected);
    }
}

fn cross_all<T, R>(rng: &mut StdRng)
where
    T: Kem<DecapsulationKey = DecapsulationKey<T>> + generic::ParameterSet,
    R: Kem,
    DecapsulationKey<T>: Decapsulate + KeyExport + KeyInit,
    R::DecapsulationKey: Decapsulate + KeyExport + KeyInit,
{
    // Tessera keys on every backend (the backend is chosen when the key is built).
    for be in available::<Backend>() {
        let mut seed = [0u8; 64];
        rand::Rng::fill_bytes(rng, &mut seed);
        let dk = DecapsulationKey::<T>::from(
            generic::DecapsulationKey::<T>::from_seed_with_backend(be, &seed),
        );
        cross::<T, R>(&dk, rng);
    }
    let (dk, _) = T::generate_keypair_from_rng(rng);
    cross::<T, R>(&dk, rng);
    let (dk, _) = R::generate_keypair_from_rng(rng);
    cross::<R, T>(&dk, rng);
}

#[test]
fn interop_with_ml_kem_through_generic_code() {
    let mut rng = StdRng::from_seed([2; 32]);
    cross_all::<MlKem512, ml_kem::MlKem512>(&mut rng);
    cross_all::<MlKem768, ml_kem::MlKem768>(&mut rng);
    cross_all::<MlKem1024, ml_kem::MlKem1024>(&mut rng);
}

/// Encapsulation keys parsed on every backend encapsulate through the trait for `ml-kem`.
#[test]
fn encapsulate_trait_on_every_backend() {
    let mut rng = StdRng::from_seed([3; 32]);
    let (peer_dk, peer_ek) = ml_kem::MlKem768::generate_keypair_from_rng(&mut rng);
    for be in available::<Backend>() {
        let ek = EncapsulationKey::<MlKem768>::from(
            generic::EncapsulationKey::from_bytes_with_backend(be, &peer_ek.to_bytes()).unwrap(),
        );
        let (ct, k) = ek.encapsulate_with_rng(&mut rng);
        assert_eq!(
            peer_dk.decapsulate_slice(ct.as_slice()).unwrap().as_slice(),
            k.as_slice()
        );
    }
}

/// `TryKeyInit` runs the FIPS 203 modulus check (as `ml-kem` does) and length checks.
fn modulus_check<T: Kem, R: Kem>() {
    let mut rng = StdRng::from_seed([4; 32]);
    let (_, ek) = T::generate_keypair_from_rng(&mut rng);
    let mut bytes = ek.to_bytes().to_vec();
    // The first coefficient of t-hat becomes 4095 >= q.
    bytes[0] = 0xff;
    bytes[1] |= 0x0f;
    assert_eq!(T::EncapsulationKey::new_from_slice(&bytes), Err(InvalidKey));
    assert!(R::EncapsulationKey::new_from_slice(&bytes).is_err());
    // q itself (3329 = 0xd01) is rejected too; q - 1 is accepted.
    bytes[0] = 0x01;
    bytes[1] = (bytes[1] & 0xf0) | 0x0d;
    assert_eq!(T::EncapsulationKey::new_from_slice(&bytes), Err(InvalidKey));
    bytes[0] = 0x00;
    assert!(T::EncapsulationKey::new_from_slice(&bytes).is_ok());
    assert!(R::EncapsulationKey::new_from_slice(&bytes).is_ok());
    assert!(T::EncapsulationKey::new_from_slice(&bytes[1..]).is_err());
}

#[test]
fn try_key_init_checks_modulus() {
    modulus_check::<MlKem512, ml_kem::MlKem512>();
    modulus_check::<MlKem768, ml_kem::MlKem768>();
    modulus_check::<MlKem1024, ml_kem::MlKem1024>();
}

#[test]
fn generate_passes_rng_errors_through() {
    assert!(
        DecapsulationKey::<MlKem768>::try_generate_from_rng(&mut FailingRng::after(0)).is_err()
    );
    assert!(
        DecapsulationKey::<MlKem768>::try_generate_from_rng(&mut FailingRng::after(63)).is_err()
    );
    // With enough bytes: the key of the seed [7; 64], as `ml-kem` derives it.
    let dk =
        DecapsulationKey::<MlKem768>::try_generate_from_rng(&mut FailingRng::after(64)).unwrap();
    let peer = ml_kem::DecapsulationKey::<ml_kem::MlKem768>::from_seed([7u8; 64].into());
    assert_eq!(
        dk.encapsulation_key().to_bytes().as_slice(),
        peer.encapsulation_key().to_bytes().as_slice()
    );
    assert_eq!(dk.to_bytes().as_slice(), &[7u8; 64]);
    let _: Result<_, Infallible> = DecapsulationKey::<MlKem512>::try_generate_from_rng(
        &mut rand_core::UnwrapErr(StdRng::from_seed([5; 32])),
    );
}

#[test]
fn decapsulation_key_equality_ignores_the_seed() {
    let dk = DecapsulationKey::<MlKem768>::from_seed([9; 64].into());
    let expanded =
        DecapsulationKey::<MlKem768>::from_expanded_bytes(&dk.to_expanded_bytes()).unwrap();
    assert!(dk == expanded);
    let mut other = [9; 64];
    other[63] ^= 1; // z only
    assert!(dk != DecapsulationKey::<MlKem768>::from_seed(other.into()));
    other = [9; 64];
    other[0] ^= 1; // d
    assert!(dk != DecapsulationKey::<MlKem768>::from_seed(other.into()));
}

#[test]
#[should_panic(expected = "without a seed")]
fn key_export_of_expanded_key_panics_as_ml_kem_does() {
    let dk = DecapsulationKey::<MlKem512>::from_seed([9; 64].into());
    let expanded = DecapsulationKey::<MlKem512>::from_expanded(&dk.to_expanded_bytes()).unwrap();
    assert!(expanded.to_seed().is_none());
    let _ = expanded.to_bytes();
}

fn from_seed_matches<T: FromSeed, R: FromSeed>(
    seed: &[u8; 64],
    m_rng: &mut StdRng,
) -> Result<(), TestCaseError>
where
    T::DecapsulationKey: Decapsulate,
    R::DecapsulationKey: Decapsulate,
{
    let (t_dk, t_ek) = T::from_seed(seed.as_slice().try_into().unwrap());
    let (r_dk, r_ek) = R::from_seed(seed.as_slice().try_into().unwrap());
    prop_assert_eq!(t_ek.to_bytes().to_vec(), r_ek.to_bytes().to_vec());
    prop_assert_eq!(
        t_dk.encapsulation_key().to_bytes().to_vec(),
        r_ek.to_bytes().to_vec()
    );
    let (ct, k) = encap_bytes(&r_ek, m_rng);
    prop_assert_eq!(decap_bytes(&t_dk, &ct), k);
    let (ct, k) = encap_bytes(&t_ek, m_rng);
    prop_assert_eq!(decap_bytes(&r_dk, &ct), k);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]
    #[test]
    fn from_seed_equals_ml_kem(seed in any::<[u8; 64]>(), r in any::<[u8; 32]>()) {
        let mut rng = StdRng::from_seed(r);
        from_seed_matches::<MlKem512, ml_kem::MlKem512>(&seed, &mut rng)?;
        from_seed_matches::<MlKem768, ml_kem::MlKem768>(&seed, &mut rng)?;
        from_seed_matches::<MlKem1024, ml_kem::MlKem1024>(&seed, &mut rng)?;
        // The trait's seed export returns the seed.
        let dk = <DecapsulationKey<MlKem768> as KeyInit>::new(&seed.into());
        prop_assert_eq!(dk.to_bytes().to_vec(), seed.to_vec());
        prop_assert_eq!(dk.to_seed().unwrap().to_vec(), seed.to_vec());
    }
}

/// `From` between the native and the trait-facing types keeps the key: the converted keys
/// decapsulate the same ciphertexts (of RustCrypto `ml-kem`) and export the same bytes; `Debug`
/// of a decapsulation key shows none of it.
#[test]
fn native_conversions_keep_the_key() {
    let mut rng = StdRng::from_seed([6; 32]);
    let seed = [0x5a; 64];
    let native = generic::DecapsulationKey::<MlKem1024>::from_seed(&seed);
    let ek_bytes = native.encapsulation_key().to_bytes();
    let peer = ml_kem::DecapsulationKey::<ml_kem::MlKem1024>::from_seed(seed.into());
    let (ct, k) = peer.encapsulation_key().encapsulate_with_rng(&mut rng);

    let dk = DecapsulationKey::<MlKem1024>::from(native);
    assert_eq!(dk.decapsulate(&ct), k);
    assert_eq!(dk.encapsulation_key().to_bytes().as_slice(), &ek_bytes[..]);
    assert_eq!(
        dk.encapsulation_key().as_ref().to_bytes(),
        ek_bytes,
        "AsRef reaches the native key"
    );
    let debug = format!("{dk:?}");
    assert!(!debug.contains("90") && !debug.contains("5a"), "{debug}");

    let back = generic::DecapsulationKey::<MlKem1024>::from(dk);
    assert_eq!(back.seed(), Some(&seed));
    let native_ct = generic::Ciphertext::<MlKem1024>::from_bytes(ct.as_slice()).unwrap();
    assert_eq!(back.decapsulate(&native_ct).as_bytes(), k.as_slice());

    let ek = EncapsulationKey::<MlKem1024>::from(back.encapsulation_key().clone());
    let (ct, k) = ek.encapsulate_with_rng(&mut rng);
    assert_eq!(peer.decapsulate(&ct), k);
    let native_ek = generic::EncapsulationKey::<MlKem1024>::from(ek);
    assert_eq!(native_ek.to_bytes(), ek_bytes);
}
