//! Differential tests against RustCrypto `ml-dsa` and `libcrux-ml-dsa`, both directions, on
//! random seeds, messages and contexts: the same keys from the same seed, byte-equal
//! deterministic signatures, and each side's signatures verifying on the other (hedged ones
//! included, which cannot be compared byte for byte).
//!
//! Not built under Miri or with `--cfg tessera_backend="portable"` (the peers are not
//! dev-dependencies there, see Cargo.toml); the forced-portable leg runs it on portable.
#![cfg(not(any(miri, tessera_backend = "portable")))]

use proptest::prelude::*;

macro_rules! differential {
    ($fn:ident, $m:ident, $rc:ident, $lc:ident, $lcsig:ident) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]
            #[test]
            fn $fn(
                seed in any::<[u8; 32]>(),
                msg in proptest::collection::vec(any::<u8>(), 0..200),
                ctx in proptest::collection::vec(any::<u8>(), 0..=255),
                rnd in any::<[u8; 32]>(),
            ) {
                use tessera_mldsa::$m::*;
                use libcrux_ml_dsa::$lc as lc;
                let sk = SigningKey::from_seed(&seed);
                let vk = sk.verifying_key();
                let ours = sk.sign_deterministic(&msg, &ctx).unwrap();
                let hedged = sk.sign_mu(&vk.compute_mu(&msg, &ctx).unwrap(), &rnd).unwrap();

                // RustCrypto ml-dsa.
                let rc_sk = ml_dsa::SigningKey::<ml_dsa::$rc>::from_seed(&seed.into());
                let rc_vk = rc_sk.expanded_key().verifying_key();
                prop_assert_eq!(&rc_vk.encode()[..], &vk.to_bytes()[..]);
                let theirs = rc_sk.expanded_key().sign_deterministic(&msg, &ctx).unwrap();
                prop_assert_eq!(&theirs.encode()[..], &ours.as_bytes()[..]);
                for s in [&ours, &hedged] {
                    let enc = ml_dsa::EncodedSignature::<ml_dsa::$rc>::try_from(&s.as_bytes()[..]).unwrap();
                    let dec = ml_dsa::Signature::<ml_dsa::$rc>::decode(&enc).unwrap();
                    prop_assert!(rc_vk.verify_with_context(&msg, &ctx, &dec));
                }
                let rc_hedged = rc_sk.expanded_key().sign_internal(&[&[0, ctx.len() as u8], &ctx, &msg], &rnd.into());
                let s = Signature::from_bytes(&rc_hedged.encode()).unwrap();
                prop_assert_eq!(vk.verify(&msg, &ctx, &s), Ok(()));

                // libcrux-ml-dsa.
                let kp = lc::generate_key_pair(seed);
                prop_assert_eq!(&kp.verification_key.as_slice()[..], &vk.to_bytes()[..]);
                prop_assert_eq!(&kp.signing_key.as_slice()[..], &sk.to_expanded_bytes()[..]);
                let theirs = lc::sign(&kp.signing_key, &msg, &ctx, [0; 32]).unwrap();
                prop_assert_eq!(theirs.as_slice(), &ours.as_bytes()[..]);
                for s in [&ours, &hedged] {
                    let sig = lc::$lcsig::new(*s.as_bytes());
                    prop_assert!(lc::verify(&kp.verification_key, &msg, &ctx, &sig).is_ok());
                }
                let lc_hedged = lc::sign(&kp.signing_key, &msg, &ctx, rnd).unwrap();
                let s = Signature::from_bytes(lc_hedged.as_slice()).unwrap();
                prop_assert_eq!(vk.verify(&msg, &ctx, &s), Ok(()));
            }
        }
    };
}

differential!(
    differential_44,
    ml_dsa_44,
    MlDsa44,
    ml_dsa_44,
    MLDSA44Signature
);
differential!(
    differential_65,
    ml_dsa_65,
    MlDsa65,
    ml_dsa_65,
    MLDSA65Signature
);
differential!(
    differential_87,
    ml_dsa_87,
    MlDsa87,
    ml_dsa_87,
    MLDSA87Signature
);
