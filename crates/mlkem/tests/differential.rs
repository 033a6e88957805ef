//! Differential tests against RustCrypto `ml-kem` and `libcrux-ml-kem` on random seeds and
//! messages, all three parameter sets, every backend: keys (seed and expanded), ciphertexts
//! and shared secrets, plus decapsulation of a random (invalid) ciphertext (implicit
//! rejection must agree too).
//!
//! Not built under Miri or with `--cfg tessera_backend="portable"` (the peers are not
//! dev-dependencies there, see Cargo.toml); the forced-portable leg runs it on portable.
#![cfg(not(any(miri, tessera_backend = "portable")))]

use ml_kem::{Decapsulate, KeyExport};
use proptest::prelude::*;
use tessera_mlkem::testing::Backend;
use tessera_testkit::backends::available;

macro_rules! differential {
    ($fn:ident, $m:ident, $rc:ident, $lc:ident) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
            #[test]
            fn $fn(seed in any::<[u8; 64]>(), m in any::<[u8; 32]>(), junk in any::<[u8; 32]>(), flip in any::<usize>()) {
                use tessera_mlkem::$m::*;
                // RustCrypto
                let rc_dk = ml_kem::$rc::DecapsulationKey::from_seed(seed.into());
                let rc_ek = rc_dk.encapsulation_key().to_bytes();
                let (rc_ct, rc_k) = rc_dk.encapsulation_key().encapsulate_deterministic(&m.into());
                // libcrux
                let lc = libcrux_ml_kem::$lc::generate_key_pair(seed);
                let (lc_ct, lc_k) = libcrux_ml_kem::$lc::encapsulate(lc.public_key(), m);
                prop_assert_eq!(&rc_ek[..], &lc.public_key().as_slice()[..]);
                prop_assert_eq!(&rc_ct[..], &lc_ct.as_slice()[..]);
                // A ciphertext with one bit flipped (implicit rejection).
                let mut bad = [0u8; CT_LEN];
                bad.copy_from_slice(&rc_ct[..]);
                bad[flip % CT_LEN] ^= 1 << (junk[0] & 7);
                let rc_bad_k = rc_dk.decapsulate(&bad.into());
                for be in available::<Backend>() {
                    let dk = DecapsulationKey::from_seed_with_backend(be, &seed);
                    prop_assert_eq!(&dk.encapsulation_key().to_bytes()[..], &rc_ek[..]);
                    prop_assert_eq!(&dk.to_expanded_bytes()[..], &lc.private_key().as_slice()[..]);
                    let (ct, k) = dk.encapsulation_key().encapsulate_deterministic(&m);
                    prop_assert_eq!(&ct.as_bytes()[..], &rc_ct[..]);
                    prop_assert_eq!(&k.as_bytes()[..], &rc_k[..]);
                    prop_assert_eq!(&k.as_bytes()[..], &lc_k[..]);
                    let k2 = dk.decapsulate(&ct);
                    prop_assert_eq!(&k2.as_bytes()[..], &rc_k[..]);
                    let bad_ct = Ciphertext::from_bytes(&bad).unwrap();
                    let k_bad = dk.decapsulate(&bad_ct);
                    prop_assert_eq!(&k_bad.as_bytes()[..], &rc_bad_k[..]);
                    let lc_bad = libcrux_ml_kem::$lc::decapsulate(lc.private_key(), &bad.into());
                    prop_assert_eq!(&k_bad.as_bytes()[..], &lc_bad[..]);
                }
            }
        }
    };
}

differential!(vs_peers_512, ml_kem_512, ml_kem_512, mlkem512);
differential!(vs_peers_768, ml_kem_768, ml_kem_768, mlkem768);
differential!(vs_peers_1024, ml_kem_1024, ml_kem_1024, mlkem1024);
