//! Against the peers on random inputs: x25519-dalek (every target) and aws-lc-rs (x86_64,
//! where its C library is built), for the ladder, the fixed-base key generation and the key
//! agreement API.

use proptest::prelude::*;
use tessera_x25519::testing::{Backend, x25519_base_with_backend, x25519_with_backend};
use tessera_x25519::{PublicKey, StaticSecret};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn matches_x25519_dalek(k in any::<[u8; 32]>(), u in any::<[u8; 32]>()) {
        let dalek = x25519_dalek::x25519(k, u);
        let dalek_pk = x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(k));
        for be in tessera_testkit::available::<Backend>() {
            prop_assert_eq!(x25519_with_backend(be, k, u), dalek, "{}", be.name());
            prop_assert_eq!(&x25519_base_with_backend(be, k), dalek_pk.as_bytes(), "{}", be.name());
        }
        let ours = StaticSecret::from(k);
        prop_assert_eq!(PublicKey::from(&ours).to_bytes(), dalek_pk.to_bytes());
        match ours.diffie_hellman(&PublicKey::from(u)) {
            Ok(s) => prop_assert_eq!(s.to_bytes(), dalek),
            Err(_) => prop_assert_eq!(dalek, [0u8; 32]),
        }
    }

    #[cfg(all(target_arch = "x86_64", not(any(miri, tessera_backend = "portable"))))]
    #[test]
    fn matches_aws_lc_rs(k in any::<[u8; 32]>(), u in any::<[u8; 32]>()) {
        use aws_lc_rs::agreement::{PrivateKey, UnparsedPublicKey, X25519, agree};
        let sk = PrivateKey::from_private_key(&X25519, &k).unwrap();
        let pk = sk.compute_public_key().unwrap();
        let theirs = agree(&sk, UnparsedPublicKey::new(&X25519, &u), (), |s| {
            Ok::<[u8; 32], ()>(s.try_into().unwrap())
        });
        for be in tessera_testkit::available::<Backend>() {
            prop_assert_eq!(&x25519_base_with_backend(be, k)[..], pk.as_ref(), "{}", be.name());
            let ours = StaticSecret::new_with_backend(be, k).diffie_hellman(&PublicKey::from(u));
            match (&ours, &theirs) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a.as_bytes(), b, "{}", be.name()),
                // aws-lc rejects the all-zero result as well.
                (Err(_), Err(())) => {}
                _ => prop_assert!(false, "{}: accept/reject differs", be.name()),
            }
        }
    }
}
