//! The RustCrypto `signature` 3 traits (feature `signature`) on the types of
//! `tessera_mldsa::ml_dsa` against RustCrypto `ml-dsa` 0.1:
//! code generic over `Signer` / `Verifier` / `Keypair` / `SignatureEncoding` runs on both and
//! gives byte-identical deterministic signatures; each side verifies the other's signatures
//! (deterministic and hedged, with and without context, keys exchanged as bytes); bad
//! signatures are a `signature::Error`, never a panic.
//!
//! Not built under Miri or with `--cfg tessera_backend="portable"` (the peer is not a
//! dev-dependency there, see Cargo.toml).
#![cfg(all(feature = "signature", not(any(miri, tessera_backend = "portable"))))]

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use tessera_mldsa::ml_dsa as T;
use tessera_mldsa::signature::{
    self, Keypair, MultipartSigner, MultipartVerifier, RandomizedMultipartSigner, RandomizedSigner,
    SignatureEncoding, Signer, Verifier,
};
use tessera_testkit::FailingRng;

/// Signs `msg` through the traits only, checks the signature verifies (and not on another
/// message, and not once a byte is flipped), re-decodes it from its encoding, and returns the
/// encoding. The same code runs on Tessera and on `ml-dsa`.
fn generic_round_trip<K, S>(sk: &K, msg: &[u8]) -> Vec<u8>
where
    K: Signer<S> + Keypair,
    K::VerifyingKey: Verifier<S>,
    S: SignatureEncoding,
{
    let sig: S = sk.try_sign(msg).expect("sign");
    let vk = sk.verifying_key();
    assert!(vk.verify(msg, &sig).is_ok());
    let mut other = msg.to_vec();
    other.push(1);
    assert!(vk.verify(&other, &sig).is_err());

    let bytes = sig.to_bytes().as_ref().to_vec();
    assert_eq!(bytes.len(), sig.encoded_len());
    let Ok(back) = S::try_from(&bytes[..]) else {
        panic!("decode of an encoded signature failed")
    };
    assert!(vk.verify(msg, &back).is_ok());

    let mut bad = bytes.clone();
    bad[bytes.len() / 2] ^= 0x10;
    if let Ok(bad) = S::try_from(&bad[..]) {
        assert!(vk.verify(msg, &bad).is_err());
    }
    // A truncated encoding does not decode.
    assert!(S::try_from(&bytes[..bytes.len() - 1]).is_err());
    bytes
}

/// With `alloc`, the source of a `signature::Error` is this crate's error `want`.
fn assert_source(e: &signature::Error, want: tessera_mldsa::Error) {
    #[cfg(feature = "alloc")]
    assert_eq!(
        core::error::Error::source(e).and_then(|s| s.downcast_ref::<tessera_mldsa::Error>()),
        Some(&want)
    );
    let _ = (e, want);
}

macro_rules! interop {
    ($prop:ident, $fixed:ident, $m:ident, $rc:ident) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]
            #[test]
            fn $prop(
                seed in any::<[u8; 32]>(),
                msg in proptest::collection::vec(any::<u8>(), 0..300),
                split in any::<prop::sample::Index>(),
                ctx in proptest::collection::vec(any::<u8>(), 1..=255),
                rng_seed in any::<u64>(),
            ) {
                type SigningKey = T::SigningKey<T::$rc>;
                type VerifyingKey = T::VerifyingKey<T::$rc>;
                type Signature = T::Signature<T::$rc>;
                type RcSig = ml_dsa::Signature<ml_dsa::$rc>;
                let mut rng = StdRng::seed_from_u64(rng_seed);

                let t_sk = SigningKey::from_seed(&seed.into());
                let r_sk = ml_dsa::SigningKey::<ml_dsa::$rc>::from_seed(&seed.into());
                // KeyInit (the seed is the key) on both.
                let t_new = <SigningKey as signature::digest::common::KeyInit>::new(&seed.into());
                let r_new = <ml_dsa::SigningKey<ml_dsa::$rc> as signature::digest::common::KeyInit>::new(&seed.into());
                prop_assert_eq!(t_new.verifying_key(), t_sk.verifying_key());
                prop_assert!(r_new == r_sk);
                prop_assert!(<SigningKey as signature::digest::common::KeyInit>::new_from_slice(&seed[1..]).is_err());
                let t_vk = t_sk.verifying_key();
                let r_vk = r_sk.verifying_key();
                prop_assert_eq!(&t_vk.encode()[..], &r_vk.encode()[..]);
                // The seed back (KeyExport and the inherent accessors).
                prop_assert_eq!(&t_sk.to_seed()[..], &seed[..]);
                prop_assert_eq!(&t_sk.as_seed()[..], &r_sk.as_seed()[..]);
                prop_assert_eq!(&T::KeyExport::to_bytes(&t_sk)[..], &seed[..]);
                // KeyInit / KeyExport of the verifying key (the encoded key), as ml-dsa's.
                prop_assert_eq!(&T::KeyExport::to_bytes(&t_vk)[..], &ml_dsa::KeyExport::to_bytes(&r_vk)[..]);
                let t_vk2 = <VerifyingKey as T::KeyInit>::new_from_slice(&r_vk.encode()[..]).unwrap();
                prop_assert_eq!(&t_vk2, &t_vk);
                prop_assert!(<VerifyingKey as T::KeyInit>::new_from_slice(&r_vk.encode()[1..]).is_err());

                // The same generic code on both: byte-identical deterministic signatures.
                let t_bytes = generic_round_trip::<_, Signature>(&t_sk, &msg);
                let r_bytes = generic_round_trip::<_, RcSig>(&r_sk, &msg);
                prop_assert_eq!(&t_bytes, &r_bytes);

                // Keys exchanged as bytes; each verifies the other's signatures.
                let t_from_r = VerifyingKey::decode(&r_vk.encode()[..].try_into().unwrap());
                let r_from_t = ml_dsa::VerifyingKey::<ml_dsa::$rc>::decode(
                    &t_vk.encode()[..].try_into().unwrap(),
                );
                prop_assert_eq!(&Signature::decode(&t_bytes[..].try_into().unwrap()).unwrap().encode()[..], &t_bytes[..]);
                let t_sig = Signature::try_from(&t_bytes[..]).unwrap();
                let r_sig = RcSig::try_from(&r_bytes[..]).unwrap();
                prop_assert!(Verifier::verify(&r_from_t, &msg, &RcSig::try_from(&t_bytes[..]).unwrap()).is_ok());
                prop_assert!(Verifier::verify(&t_from_r, &msg, &Signature::try_from(&r_bytes[..]).unwrap()).is_ok());
                prop_assert!(Verifier::verify(&r_vk, &msg, &r_sig).is_ok());
                prop_assert!(Verifier::verify(&t_vk, &msg, &t_sig).is_ok());

                // Hedged through RandomizedSigner, both directions.
                let t_hedged: Signature = t_sk.try_sign_with_rng(&mut rng, &msg).unwrap();
                prop_assert!(Verifier::verify(&r_vk, &msg, &RcSig::try_from(&t_hedged.to_bytes()[..]).unwrap()).is_ok());
                let r_hedged: RcSig = r_sk.expanded_key().try_sign_with_rng(&mut rng, &msg).unwrap();
                prop_assert!(Verifier::verify(&t_vk, &msg, &Signature::try_from(&r_hedged.to_bytes()[..]).unwrap()).is_ok());

                // Contexts (inherent methods, as in ml-dsa): deterministic byte-identical,
                // hedged cross-verified, and a context signature fails the empty context.
                let t_ctx = t_sk.sign_deterministic(&msg, &ctx).unwrap();
                let r_ctx = r_sk.expanded_key().sign_deterministic(&msg, &ctx).unwrap();
                prop_assert_eq!(&t_ctx.to_bytes()[..], &r_ctx.encode()[..]);
                prop_assert!(r_vk.verify_with_context(&msg, &ctx, &RcSig::try_from(&t_ctx.to_bytes()[..]).unwrap()));
                let t_ctx_h = t_sk.sign_randomized(&msg, &ctx, &mut rng).unwrap();
                prop_assert!(r_vk.verify_with_context(&msg, &ctx, &RcSig::try_from(&t_ctx_h.to_bytes()[..]).unwrap()));
                let r_ctx_h = r_sk.expanded_key().sign_randomized(&msg, &ctx, &mut rng).unwrap();
                let r_ctx_h = Signature::try_from(&r_ctx_h.encode()[..]).unwrap();
                prop_assert!(t_vk.verify_with_context(&msg, &ctx, &r_ctx_h));
                prop_assert!(!t_vk.verify_with_context(&msg, &ctx[1..], &r_ctx_h));
                prop_assert!(Verifier::verify(&t_vk, &msg, &r_ctx_h).is_err());
                prop_assert!(Verifier::verify(&t_vk, &msg, &t_ctx).is_err());

                // Multipart: the parts sign as their concatenation, as in ml-dsa.
                let (a, b) = msg.split_at(split.index(msg.len() + 1));
                let t_multi: Signature = t_sk.try_multipart_sign(&[a, b]).unwrap();
                prop_assert_eq!(&t_multi.to_bytes()[..], &t_bytes[..]);
                let r_multi: RcSig = r_sk.try_multipart_sign(&[a, b]).unwrap();
                prop_assert_eq!(&r_multi.encode()[..], &t_bytes[..]);
                prop_assert!(t_vk.multipart_verify(&[a, b], &r_sig_as_ours::<Signature>(&r_multi.encode()[..])).is_ok());
                prop_assert!(r_vk.multipart_verify(&[a, b], &r_sig).is_ok());
                let t_multi_h: Signature = t_sk.try_multipart_sign_with_rng(&mut rng, &[a, b]).unwrap();
                prop_assert!(Verifier::verify(&r_vk, &msg, &RcSig::try_from(&t_multi_h.to_bytes()[..]).unwrap()).is_ok());
            }
        }

        #[test]
        fn $fixed() {
            use tessera_mldsa::$m::SIG_LEN;
            type SigningKey = T::SigningKey<T::$rc>;
            type VerifyingKey = T::VerifyingKey<T::$rc>;
            type Signature = T::Signature<T::$rc>;
            let sk = SigningKey::from_seed(&[3; 32].into());
            // KeypairRef: the key lends its verifying key.
            let vk: &VerifyingKey = sk.as_ref();
            // Keypair gives the key's own verifying key.
            assert_eq!(Keypair::verifying_key(&sk), *vk);

            // Signatures that are not ML-DSA signatures of the message: typed errors.
            for fill in [0x00u8, 0xff, 0x5a] {
                let sig = Signature::try_from(&[fill; SIG_LEN][..]).unwrap();
                let e: signature::Error = Verifier::verify(vk, b"m", &sig).unwrap_err();
                assert_source(&e, tessera_mldsa::Error::Verification);
                assert!(!vk.verify_with_context(b"m", b"", &sig));
            }
            let e = Signature::try_from(&[0u8; SIG_LEN + 1][..]).unwrap_err();
            assert_source(&e, tessera_mldsa::Error::InvalidLength);
            let sig: Signature = Signer::sign(&sk, b"m");
            assert_eq!(sig.encoded_len(), SIG_LEN);
            assert_eq!(SignatureEncoding::to_bytes(&sig), sig.encode());
            assert_eq!(Signature::decode(&sig.encode()), Some(sig.clone()));
            // mu from the native API, verified through verify_mu.
            let mu = AsRef::<tessera_mldsa::generic::VerifyingKey<T::$rc>>::as_ref(vk)
                .compute_mu(b"m", b"")
                .unwrap();
            assert!(vk.verify_mu(&mu.into(), &sig));
            assert!(!vk.verify_mu(&[0; 64].into(), &sig));
            // The signing key's Debug shows nothing of the key.
            assert_eq!(format!("{sk:?}"), "SigningKey { .. }");

            // A failing generator: an error, never a panic or a signature.
            let e = RandomizedSigner::<Signature>::try_sign_with_rng(&sk, &mut FailingRng::after(0), b"m")
                .unwrap_err();
            assert_source(&e, tessera_mldsa::Error::Rng);
            let e = sk.sign_randomized(b"m", b"", &mut FailingRng::after(0)).unwrap_err();
            assert_source(&e, tessera_mldsa::Error::Rng);
            // A context over 255 bytes through the inherent API.
            let e = sk
                .sign_randomized(b"m", &[0; 256], &mut StdRng::seed_from_u64(1))
                .unwrap_err();
            assert_source(&e, tessera_mldsa::Error::ContextTooLong);
            let e = sk.sign_deterministic(b"m", &[0; 256]).unwrap_err();
            assert_source(&e, tessera_mldsa::Error::ContextTooLong);
            assert!(!vk.verify_with_context(b"m", &[0; 256], &sig));
        }
    };
}

/// A signature decoded from bytes (helper for the multipart check).
fn r_sig_as_ours<S: SignatureEncoding>(bytes: &[u8]) -> S {
    match S::try_from(bytes) {
        Ok(s) => s,
        Err(_) => panic!("signature bytes do not decode"),
    }
}

interop!(interop_44, fixed_44, ml_dsa_44, MlDsa44);
interop!(interop_65, fixed_65, ml_dsa_65, MlDsa65);
interop!(interop_87, fixed_87, ml_dsa_87, MlDsa87);

/// The trait paths (the multipart hash included) on every available backend: deterministic
/// signatures byte-identical to `ml-dsa`'s, verified through `Verifier` / `MultipartVerifier`.
#[test]
fn every_backend() {
    use tessera_mldsa::generic::{MlDsa65, SigningKey, VerifyingKey};
    use tessera_mldsa::testing::Backend;
    type Signature<P> = T::Signature<P>;
    let seed = [0x17u8; 32];
    let msg = b"every backend runs the trait path";
    let r_sk = ml_dsa::SigningKey::<ml_dsa::MlDsa65>::from_seed(&seed.into());
    let expected = Signer::<ml_dsa::Signature<ml_dsa::MlDsa65>>::sign(&r_sk, msg).encode();
    let mut n = 0;
    for be in Backend::all_available() {
        let native = SigningKey::<MlDsa65>::from_seed_with_backend(be, &seed);
        let vk: T::VerifyingKey<MlDsa65> = VerifyingKey::<MlDsa65>::from_bytes_with_backend(
            be,
            &native.verifying_key().to_bytes(),
        )
        .unwrap()
        .into();
        // Moved into the trait-facing type (the backend goes with it).
        let sk = T::SigningKey::<MlDsa65>::try_from(native).unwrap();
        let sig: Signature<MlDsa65> = Signer::sign(&sk, msg);
        assert_eq!(&sig.to_bytes()[..], &expected[..], "{}", be.name());
        let multi: Signature<MlDsa65> = sk.multipart_sign(&[&msg[..5], &msg[5..]]);
        assert_eq!(multi, sig, "{}", be.name());
        assert!(Verifier::verify(&vk, msg, &sig).is_ok(), "{}", be.name());
        assert!(vk.multipart_verify(&[&msg[..9], &msg[9..]], &sig).is_ok());
        assert!(vk.multipart_verify(&[&msg[..9]], &sig).is_err());
        n += 1;
    }
    assert!(n >= 1);
}

/// Signs and verifies through `DigestSigner` / `DigestVerifier` with the message absorbed in
/// two pieces; the same code on Tessera (`MuHasher`) and `ml-dsa` (`shake::Shake256`).
fn generic_digest<K, D, S>(sk: &K, a: &[u8], b: &[u8]) -> Vec<u8>
where
    D: signature::digest::Update,
    K: signature::DigestSigner<D, S> + Keypair,
    K::VerifyingKey: signature::DigestVerifier<D, S>,
    S: SignatureEncoding,
{
    use signature::DigestVerifier;
    let absorb = |d: &mut D| {
        d.update(a);
        d.update(b);
        Ok(())
    };
    let sig = sk.try_sign_digest(absorb).unwrap();
    let vk = sk.verifying_key();
    assert!(vk.verify_digest(absorb, &sig).is_ok());
    assert!(
        vk.verify_digest(
            |d: &mut D| {
                d.update(a);
                Ok(())
            },
            &sig
        )
        .is_err()
            || b.is_empty()
    );
    // A closure error is passed on.
    assert!(
        vk.verify_digest(|_: &mut D| Err(signature::Error::new()), &sig)
            .is_err()
    );
    sig.to_bytes().as_ref().to_vec()
}

macro_rules! digest_interop {
    ($name:ident, $m:ident, $rc:ident) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]
            #[test]
            fn $name(
                seed in any::<[u8; 32]>(),
                a in proptest::collection::vec(any::<u8>(), 0..200),
                b in proptest::collection::vec(any::<u8>(), 1..200),
                rng_seed in any::<u64>(),
            ) {
                type SigningKey = T::SigningKey<T::$rc>;
                type Signature = T::Signature<T::$rc>;
                use signature::{RandomizedDigestSigner, DigestVerifier};
                let t_sk = SigningKey::from_seed(&seed.into());
                let r_sk = ml_dsa::SigningKey::<ml_dsa::$rc>::from_seed(&seed.into());
                let t = generic_digest::<_, tessera_mldsa::MuHasher, Signature>(&t_sk, &a, &b);
                let r = generic_digest::<_, _, ml_dsa::Signature<ml_dsa::$rc>>(&r_sk, &a, &b);
                prop_assert_eq!(&t, &r);
                // The same signature as Signer on the concatenation.
                let whole = [&a[..], &b[..]].concat();
                let s: Signature = Signer::sign(&t_sk, &whole);
                prop_assert_eq!(&s.to_bytes()[..], &t[..]);
                // Hedged digest signing verifies on ml-dsa.
                let mut rng = StdRng::seed_from_u64(rng_seed);
                let h: Signature = t_sk
                    .try_sign_digest_with_rng(&mut rng, |d: &mut tessera_mldsa::MuHasher| {
                        signature::digest::Update::update(d, &whole);
                        Ok(())
                    })
                    .unwrap();
                let rs = ml_dsa::Signature::<ml_dsa::$rc>::try_from(&h.to_bytes()[..]).unwrap();
                prop_assert!(Verifier::verify(&r_sk.verifying_key(), &whole, &rs).is_ok());
                let ok = t_sk.verifying_key().verify_digest(|d: &mut tessera_mldsa::MuHasher| {
                    signature::digest::Update::update(d, &whole);
                    Ok(())
                }, &h);
                prop_assert!(ok.is_ok());
            }
        }
    };
}

digest_interop!(digest_interop_44, ml_dsa_44, MlDsa44);
digest_interop!(digest_interop_65, ml_dsa_65, MlDsa65);
digest_interop!(digest_interop_87, ml_dsa_87, MlDsa87);
