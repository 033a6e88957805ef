//! X25519 as a `kem` 0.3 Diffie-Hellman KEM: generic code over the traits, the exchange
//! against x25519-dalek in both directions, and the small-order refusals.
#![cfg(feature = "kem")]

use kem::{Decapsulator, Encapsulate, Kem, KeyExport, KeyInit, TryDecapsulate, TryKeyInit};
use rand::{RngExt, SeedableRng, rngs::StdRng};
use tessera_x25519::kem::{DecapsulationKey, EncapsulationKey, X25519Kem};
use tessera_x25519::{Error, PublicKey, StaticSecret};

/// A round trip written only against the traits.
fn generic_round_trip<K: Kem>(rng: &mut StdRng) -> bool
where
    <K::DecapsulationKey as TryDecapsulate>::Error: core::fmt::Debug,
{
    let (dk, ek) = K::generate_keypair_from_rng(rng);
    let (ct, k_send) = ek.encapsulate_with_rng(rng);
    let k_recv = dk.try_decapsulate(&ct).unwrap();
    let ek2 = K::EncapsulationKey::new(&ek.to_bytes()).unwrap();
    let (ct2, k2) = ek2.encapsulate_with_rng(rng);
    k_send == k_recv && dk.try_decapsulate(&ct2).unwrap() == k2 && &ek == dk.encapsulation_key()
}

#[test]
fn generic_code_runs() {
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..16 {
        assert!(generic_round_trip::<X25519Kem>(&mut rng));
    }
}

#[test]
fn against_x25519_dalek() {
    let mut rng = StdRng::seed_from_u64(2);
    for _ in 0..32 {
        let sk: [u8; 32] = rng.random();
        let dk = DecapsulationKey::new(&sk.into());
        let dalek_sk = x25519_dalek::StaticSecret::from(sk);
        let dalek_pk = x25519_dalek::PublicKey::from(&dalek_sk);
        assert_eq!(dk.encapsulation_key().to_bytes().0, dalek_pk.to_bytes());
        assert_eq!(dk.to_bytes().0, sk);
        // Ours encapsulates, dalek agrees: ss = X25519(sk, ct).
        let (ct, ss) = dk.encapsulation_key().encapsulate_with_rng(&mut rng);
        let theirs = dalek_sk.diffie_hellman(&x25519_dalek::PublicKey::from(ct.0));
        assert_eq!(ss.0, theirs.to_bytes());
        // dalek's ephemeral key as the ciphertext, ours decapsulates.
        let e = x25519_dalek::StaticSecret::from(rng.random::<[u8; 32]>());
        let ct = x25519_dalek::PublicKey::from(&e).to_bytes();
        let ss = e.diffie_hellman(&dalek_pk).to_bytes();
        assert_eq!(dk.try_decapsulate(&ct.into()).unwrap().0, ss);
    }
}

#[test]
fn small_order_points_are_refused() {
    // u = 0, u = 1 and the order-8 point of RFC 7748's discussions (and p + 1 = 1).
    let mut p_plus_1 = [0xffu8; 32];
    p_plus_1[0] = 0xee;
    p_plus_1[31] = 0x7f;
    let mut one = [0u8; 32];
    one[0] = 1;
    let order8 = tessera_testkit::hex::array::<32>(
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    );
    let dk = DecapsulationKey::from_secret(StaticSecret::from([7u8; 32]));
    for u in [[0u8; 32], one, p_plus_1, order8] {
        assert!(EncapsulationKey::new(&u.into()).is_err());
        assert_eq!(
            EncapsulationKey::from_public_key(PublicKey::from(u)),
            Err(Error::NonContributory)
        );
        assert_eq!(dk.try_decapsulate(&u.into()), Err(Error::NonContributory));
    }
}
