//! Against RustCrypto `x-wing` 0.1: the same seed gives the same keys, each side decapsulates
//! the other's ciphertexts, the derandomized encapsulations agree byte for byte (test builds),
//! generic code over `kem::Encapsulate` / `Decapsulate` runs with both (and across them), and
//! both treat a small-order X25519 ciphertext alike.
#![cfg(all(feature = "kem", not(any(miri, tessera_backend = "portable"))))]

use kem::{
    Decapsulate, Decapsulator, Encapsulate, Kem, KeyExport, KeyInit, TryDecapsulate, TryKeyInit,
};
use rand::{RngExt, SeedableRng, rngs::StdRng};

const CASES: usize = 32;

#[test]
fn same_seed_same_keys() {
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..CASES {
        let seed: [u8; 32] = rng.random();
        let ours = tessera_xwing::DecapsulationKey::from(seed);
        let theirs = x_wing::DecapsulationKey::from(seed);
        assert_eq!(
            ours.encapsulation_key().as_bytes().as_slice(),
            theirs.encapsulation_key().to_bytes().as_slice()
        );
        assert_eq!(ours.to_bytes(), theirs.to_bytes());
        assert_eq!(
            tessera_xwing::DecapsulationKey::new(&seed.into()).encapsulation_key(),
            ours.encapsulation_key()
        );
    }
}

#[test]
fn each_decapsulates_the_others_ciphertexts() {
    let mut rng = StdRng::seed_from_u64(2);
    for _ in 0..CASES {
        let seed: [u8; 32] = rng.random();
        let ours = tessera_xwing::DecapsulationKey::from(seed);
        let theirs = x_wing::DecapsulationKey::from(seed);
        // Ours encapsulates (native API), x-wing decapsulates.
        let (ct, ss) = ours.encapsulation_key().encapsulate(&mut rng);
        let ct_arr = x_wing::Ciphertext::try_from(ct.as_bytes().as_slice()).unwrap();
        assert_eq!(theirs.decapsulate(&ct_arr).as_slice(), ss.as_bytes());
        // x-wing encapsulates to the key we exported, we decapsulate (native and trait).
        let their_ek =
            x_wing::EncapsulationKey::try_from(ours.encapsulation_key().as_bytes().as_slice())
                .unwrap();
        let (ct, ss) = their_ek.encapsulate_with_rng(&mut rng);
        let native = tessera_xwing::Ciphertext::from_bytes(&ct).unwrap();
        assert_eq!(ours.decapsulate(&native).as_bytes(), ss.as_slice());
        assert_eq!(
            Decapsulate::decapsulate(&ours, &ct).as_slice(),
            ss.as_slice()
        );
    }
}

#[cfg(tessera_test_hooks)]
#[test]
fn derandomized_encapsulations_agree() {
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..CASES {
        let seed: [u8; 32] = rng.random();
        let eseed: [u8; 64] = rng.random();
        let ours = tessera_xwing::DecapsulationKey::from(seed);
        let theirs = x_wing::DecapsulationKey::from(seed);
        let (ct, ss) = ours.encapsulation_key().encapsulate_deterministic(&eseed);
        let (ct2, ss2) = theirs
            .encapsulation_key()
            .encapsulate_deterministic(&eseed.into());
        assert_eq!(ct.as_bytes().as_slice(), ct2.as_slice());
        assert_eq!(ss.as_bytes().as_slice(), ss2.as_slice());
        // The randomized path draws `m || ek_X` in that order, as the derandomized one reads it.
        let mut r1 = StdRng::seed_from_u64(u64::from(eseed[0]));
        let mut r2 = StdRng::seed_from_u64(u64::from(eseed[0]));
        let (ct, ss) = ours.encapsulation_key().encapsulate(&mut r1);
        let mut drawn = [0u8; 64];
        rand::Rng::fill_bytes(&mut r2, &mut drawn);
        let (ct2, ss2) = ours.encapsulation_key().encapsulate_deterministic(&drawn);
        assert_eq!(ct, ct2);
        assert_eq!(ss, ss2);
    }
}

/// Generic code, written once against the traits.
fn generic_round_trip<K: Kem>(rng: &mut StdRng) -> bool
where
    K::DecapsulationKey: Decapsulate,
{
    let (dk, ek) = K::generate_keypair_from_rng(rng);
    let (ct, k_send) = ek.encapsulate_with_rng(rng);
    let k_recv = dk.decapsulate(&ct);
    let ek2 = K::EncapsulationKey::new_from_slice(&ek.to_bytes()).unwrap();
    k_send == k_recv && &ek2 == dk.encapsulation_key()
}

/// Generic code across two implementations: `B` encapsulates to `A`'s exported key, `A`
/// decapsulates `B`'s ciphertext bytes.
fn generic_cross<A: Kem, B: Kem>(rng: &mut StdRng) -> bool
where
    A::DecapsulationKey: Decapsulate,
{
    let (dk_a, ek_a) = A::generate_keypair_from_rng(rng);
    let ek_b = B::EncapsulationKey::new_from_slice(&ek_a.to_bytes()).unwrap();
    let (ct, k_send) = ek_b.encapsulate_with_rng(rng);
    let k_recv = dk_a.decapsulate_slice(&ct).unwrap();
    k_send.as_slice() == k_recv.as_slice()
}

#[test]
fn generic_code_runs_with_both() {
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..8 {
        assert!(generic_round_trip::<tessera_xwing::XWingKem>(&mut rng));
        assert!(generic_round_trip::<x_wing::XWingKem>(&mut rng));
        assert!(generic_cross::<tessera_xwing::XWingKem, x_wing::XWingKem>(
            &mut rng
        ));
        assert!(generic_cross::<x_wing::XWingKem, tessera_xwing::XWingKem>(
            &mut rng
        ));
    }
}

#[test]
fn bad_lengths_rejected_through_the_traits() {
    let mut rng = StdRng::seed_from_u64(5);
    let (dk, ek) = tessera_xwing::XWingKem::generate_keypair_from_rng(&mut rng);
    let bytes = ek.to_bytes();
    assert!(tessera_xwing::EncapsulationKey::new_from_slice(&bytes[..1215]).is_err());
    assert!(tessera_xwing::EncapsulationKey::try_from(&bytes[..1215]).is_err());
    assert!(tessera_xwing::EncapsulationKey::try_from(&[0u8; 1217][..]).is_err());
    assert!(dk.decapsulate_slice(&[0u8; 1119]).is_err());
    assert!(dk.decapsulate_slice(&[0u8; 1121]).is_err());
    assert!(tessera_xwing::DecapsulationKey::new_from_slice(&[0u8; 31]).is_err());
}

#[test]
fn small_order_x25519_ciphertext_alike() {
    let mut rng = StdRng::seed_from_u64(6);
    for _ in 0..4 {
        let seed: [u8; 32] = rng.random();
        let ours = tessera_xwing::DecapsulationKey::from(seed);
        let theirs = x_wing::DecapsulationKey::from(seed);
        let (ct, _) = ours.encapsulation_key().encapsulate(&mut rng);
        let mut bytes = *ct.as_bytes();
        bytes[1088..].fill(0);
        let ct = x_wing::Ciphertext::try_from(&bytes[..]).unwrap();
        // Accepted alike by the plain keys...
        assert_eq!(
            Decapsulate::decapsulate(&ours, &ct),
            theirs.decapsulate(&ct)
        );
        // ...refused alike by the rejecting ones, which accept an ordinary ciphertext.
        let ours_r = tessera_xwing::DecapsulationKeyRejectNonContrib::from(seed);
        let theirs_r = x_wing::DecapsulationKeyRejectNonContrib::from(seed);
        assert_eq!(
            ours_r.try_decapsulate(&ct),
            Err(tessera_xwing::DecapsulationError)
        );
        assert!(theirs_r.try_decapsulate(&ct).is_err());
        let (good, ss) = ours_r.encapsulation_key().encapsulate_with_rng(&mut rng);
        assert_eq!(ours_r.try_decapsulate(&good).unwrap(), ss);
        assert_eq!(theirs_r.try_decapsulate(&good).unwrap(), ss);
    }
}
