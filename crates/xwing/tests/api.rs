//! The native API: round trips, typed errors for bad lengths and bad keys, `Debug` without
//! secrets.

use rand::{SeedableRng, rngs::StdRng};
use tessera_xwing::{
    CIPHERTEXT_SIZE, Ciphertext, DECAPSULATION_KEY_SIZE, DecapsulationKey, ENCAPSULATION_KEY_SIZE,
    EncapsulationKey, Error,
};

#[test]
fn round_trips() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..16 {
        let dk = DecapsulationKey::generate(&mut rng);
        let ek = EncapsulationKey::from_bytes(dk.encapsulation_key().as_bytes()).unwrap();
        let (ct, ss) = ek.encapsulate(&mut rng);
        let ct = Ciphertext::from_bytes(ct.as_bytes()).unwrap();
        assert_eq!(dk.decapsulate(&ct), ss);
        let dk2 = DecapsulationKey::from_bytes(dk.as_bytes()).unwrap();
        assert_eq!(dk2.encapsulation_key(), dk.encapsulation_key());
        assert_eq!(dk2.decapsulate(&ct), ss);
        let dk3 = DecapsulationKey::from(*dk.as_bytes());
        assert_eq!(dk3.as_bytes(), dk.as_bytes());
        // Another ciphertext gives another secret (ML-KEM's implicit rejection).
        let mut bad = *ct.as_bytes();
        bad[0] ^= 1;
        assert_ne!(dk.decapsulate(&Ciphertext::from(bad)), ss);
    }
}

#[test]
fn bad_lengths_and_keys_are_typed_errors() {
    for len in [0, 31, 33, 64] {
        assert_eq!(
            DecapsulationKey::from_bytes(&vec![0; len]).err(),
            Some(Error::InvalidLength)
        );
    }
    assert_eq!(
        DecapsulationKey::from_bytes(&[0; DECAPSULATION_KEY_SIZE]).map(|_| ()),
        Ok(())
    );
    for len in [
        0,
        ENCAPSULATION_KEY_SIZE - 1,
        ENCAPSULATION_KEY_SIZE + 1,
        1184,
    ] {
        assert_eq!(
            EncapsulationKey::from_bytes(&vec![0; len]),
            Err(Error::InvalidLength)
        );
    }
    for len in [0, CIPHERTEXT_SIZE - 1, CIPHERTEXT_SIZE + 1, 1088] {
        assert_eq!(
            Ciphertext::from_bytes(&vec![0; len]),
            Err(Error::InvalidLength)
        );
    }
    // An ML-KEM coefficient of 3329 (= q, not reduced) fails the modulus check.
    let mut rng = StdRng::seed_from_u64(8);
    let dk = DecapsulationKey::generate(&mut rng);
    let mut pk = dk.encapsulation_key().to_bytes();
    pk[0] = 0x01;
    pk[1] = 0x0d; // low 12 bits 0xd01 = 3329
    assert_eq!(
        EncapsulationKey::from_bytes(&pk),
        Err(Error::InvalidEncapsulationKey)
    );
    // The X25519 part is not checked (every 32-byte string is a u-coordinate).
    let mut pk = dk.encapsulation_key().to_bytes();
    pk[ENCAPSULATION_KEY_SIZE - 1] ^= 0xff;
    assert!(EncapsulationKey::from_bytes(&pk).is_ok());
}

#[test]
fn debug_hides_secrets() {
    let dk = DecapsulationKey::from_seed(&[0xab; 32]);
    let s = format!("{dk:?}");
    assert!(!s.contains("171, 171"), "{s}");
    let (_, ss) = dk
        .encapsulation_key()
        .encapsulate(&mut StdRng::seed_from_u64(1));
    assert_eq!(format!("{ss:?}"), "SharedSecret { .. }");
}
