//! Zeroization of the HPKE layer's X25519 secrets: key construction, derivation and the
//! Diffie-Hellman steps of encapsulation and decapsulation leave no copy of the private key (or
//! of its clamped form) in the stack memory their frames used. The stack-residue probe is
//! `tessera_testkit::wipe` (x86_64 only: elsewhere these tests are ignored, never passed).

use rand::SeedableRng;
use tessera::hpke::{AuthKem, DhKemX25519HkdfSha256, Kem, X25519PrivateKey, X25519PublicKey};
use tessera_testkit::wipe::assert_wiped;

type X = DhKemX25519HkdfSha256;

/// A test of the stack scanner, which runs on x86_64 only: elsewhere it is ignored, never
/// passed. The expansion is the test function as written (its doc comment included), with
/// these two attributes: the probed code, its frames and their inlining are untouched.
macro_rules! stack_test {
    ($(#[$doc:meta])* fn $name:ident() $body:block) => {
        $(#[$doc])*
        #[test]
        #[cfg_attr(
            not(all(target_arch = "x86_64", not(miri))),
            ignore = "stack scanner: x86_64 only"
        )]
        fn $name() $body
    };
}

/// The needles of a 32-byte X25519 private key: the key and its clamped form (the same but
/// for the first and last byte), as 30-byte windows of its middle.
fn needles(sk: &[u8; 32]) -> Vec<(String, Vec<u8>)> {
    vec![("private key bytes 1..31".into(), sk[1..31].to_vec())]
}

/// Secret bytes that no wiped memory can contain by accident (no zero or pattern bytes).
fn secret(seed: u8) -> Box<[u8; 32]> {
    let mut s = Box::new([0u8; 32]);
    for (i, b) in s.iter_mut().enumerate() {
        *b = seed.wrapping_mul(31).wrapping_add(i as u8).wrapping_mul(7) | 0x41;
    }
    s
}

stack_test! {
    fn x25519_private_key_construction_leaves_no_copy() {
        let sk = secret(1);
        let bytes: Vec<u8> = sk.to_vec();
        assert_wiped(
            "X25519PrivateKey::from_bytes + drop",
            || {
                // Kept in the `Result` and dropped there: a move out of it (`unwrap`) would leave
                // a copy in this closure's frame, which is the caller's doing, not the library's.
                let k = X25519PrivateKey::from_bytes(&bytes);
                assert!(core::hint::black_box(&k).is_ok());
            },
            &needles(&sk),
        );
    }
}

stack_test! {
    fn x25519_derive_key_pair_leaves_no_copy() {
        let ikm = vec![7u8; 32];
        let (k, _) = X::derive_key_pair(&ikm).unwrap();
        let sk = Box::new(*k.as_bytes());
        drop(k);
        assert_wiped(
            "DhKemX25519HkdfSha256::derive_key_pair + drop",
            || {
                let kp = X::derive_key_pair(&ikm);
                assert!(core::hint::black_box(&kp).is_ok());
            },
            &needles(&sk),
        );
    }
}

stack_test! {
    fn x25519_decap_and_auth_leave_no_copy_of_the_keys() {
        let sk_r_bytes = secret(2);
        let sk_s_bytes = secret(3);
        let sk_r = Box::new(X25519PrivateKey::from_bytes(&sk_r_bytes[..]).unwrap());
        let sk_s = Box::new(X25519PrivateKey::from_bytes(&sk_s_bytes[..]).unwrap());
        let pk_r: X25519PublicKey = *sk_r.public_key();
        let pk_s: X25519PublicKey = *sk_s.public_key();
        let mut rng = rand::rngs::StdRng::from_seed([9; 32]);
        let (_, enc) = X::auth_encap(&pk_r, &sk_s, &mut rng).unwrap();
        let enc = enc.to_vec();
        let mut all = needles(&sk_r_bytes);
        all.extend(needles(&sk_s_bytes));
        assert_wiped(
            "decap / auth_decap / auth_encap",
            || {
                let a = X::decap(&enc, &sk_r).unwrap();
                let b = X::auth_decap(&enc, &sk_r, &pk_s).unwrap();
                let c = X::auth_encap(&pk_r, &sk_s, &mut rng).unwrap();
                core::hint::black_box((&a, &b, &c));
            },
            &all,
        );
    }
}

stack_test! {
    /// The ephemeral key of an encapsulation (here the derandomized form of the test vectors, so
    /// that the test knows it) is wiped too.
    fn x25519_encap_leaves_no_copy_of_the_ephemeral_key() {
        let ikm_e = vec![0x5au8; 32];
        let (e, _) = X::derive_key_pair(&ikm_e).unwrap();
        let e_bytes = Box::new(*e.as_bytes());
        drop(e);
        let sk_s = Box::new(X25519PrivateKey::from_bytes(&secret(4)[..]).unwrap());
        let pk_r = *X25519PrivateKey::from_bytes(&secret(5)[..])
            .unwrap()
            .public_key();
        assert_wiped(
            "encap_derand / auth_encap_derand",
            || {
                let a = X::encap_derand(&pk_r, &ikm_e);
                let b = X::auth_encap_derand(&pk_r, &sk_s, &ikm_e);
                assert!(core::hint::black_box((&a, &b)).0.is_ok());
            },
            &needles(&e_bytes),
        );
    }
}
