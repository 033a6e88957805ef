//! Drop-in check of `tessera_mldsa::ml_dsa` against RustCrypto `ml-dsa` 0.1: the same source
//! text, written in `ml-dsa`'s style and differing only in the crate path, is expanded once with
//! `ml_dsa` and once with `tessera_mldsa::ml_dsa` (the macros below take the path). First
//! `ml-dsa`'s documentation example (its crate-level "Usage", `generate()` from the system
//! generator; the `getrandom` feature is on through the dev-dependency), then the same flow from
//! a seeded generator: the same seed gives the same keys and byte-identical deterministic
//! signatures, and each side decodes and verifies the other's (the values compared are the
//! peer's, never ours).
//!
//! Not built under Miri or with `--cfg tessera_backend="portable"` (the peer is not a
//! dev-dependency there, see Cargo.toml).
#![cfg(all(feature = "signature", not(any(miri, tessera_backend = "portable"))))]

use rand::SeedableRng;
use rand::rngs::StdRng;

/// `ml-dsa`'s documentation example, with `$($k)::+` for `ml_dsa`.
macro_rules! usage_example {
    ($($k:ident)::+) => {{
        fn main() -> Result<(), signature::Error> {
            // NOTE: requires the `getrandom` feature is enabled
            use $($k)::+::{MlDsa65, Generate, Keypair, SigningKey, Signer, Verifier};

            let sk = SigningKey::<MlDsa65>::generate();

            let msg = b"Hello world";
            let sig = sk.sign(msg);

            sk.verifying_key().verify(msg, &sig)?;
            Ok(())
        }
        main()
    }};
}

#[test]
fn usage_example_runs_on_both() {
    use tessera_mldsa::signature;
    usage_example!(ml_dsa).unwrap();
    usage_example!(tessera_mldsa::ml_dsa).unwrap();
}

/// The outputs of one run of `seeded_flow`: encoded verifying key, seed, deterministic
/// signature, multipart signature (all as bytes).
struct Run {
    vk: Vec<u8>,
    seed: Vec<u8>,
    sig: Vec<u8>,
    multi: Vec<u8>,
}

/// Key generation from a seeded generator, signing (deterministic `Signer`, multipart), keys
/// from the seed (`from_seed`, `KeyInit`), encodings (`encode` / `decode`, `SignatureEncoding`,
/// `KeyExport`), in `ml-dsa`'s API. `$($k)::+` is the crate path.
macro_rules! seeded_flow {
    ($($k:ident)::+, $set:ident, $rng_seed:expr, $msg:expr) => {{
        use $($k)::+::{
            $set, B32, Generate, KeyExport, KeyInit, Keypair, SignatureEncoding, Signer,
            SigningKey, Verifier, VerifyingKey, signature::MultipartSigner,
        };
        let msg: &[u8] = $msg;
        let mut rng = StdRng::from_seed($rng_seed);
        let sk = SigningKey::<$set>::generate_from_rng(&mut rng);
        let sig = sk.sign(msg);
        let vk = sk.verifying_key();
        vk.verify(msg, &sig).expect("own signature");
        assert!(vk.verify(b"another message", &sig).is_err());

        // The same key from its seed, twice.
        let seed: B32 = sk.to_seed();
        let again = SigningKey::<$set>::from_seed(&seed);
        let init = <SigningKey<$set> as KeyInit>::new(&seed);
        assert_eq!(again.sign(msg).to_bytes(), sig.to_bytes());
        assert_eq!(KeyExport::to_bytes(&init), seed);
        assert_eq!(*sk.as_seed(), seed);

        // The verifying key through its encoding.
        let enc = vk.encode();
        let vk2 = VerifyingKey::<$set>::decode(&enc);
        assert!(vk2 == vk);
        assert_eq!(&KeyExport::to_bytes(&vk)[..], &enc[..]);

        // Multipart signing.
        let (a, b) = msg.split_at(msg.len() / 2);
        let multi = sk.multipart_sign(&[a, b]);

        Run {
            vk: enc[..].to_vec(),
            seed: seed[..].to_vec(),
            sig: sig.to_bytes()[..].to_vec(),
            multi: multi.encode()[..].to_vec(),
        }
    }};
}

/// Verification of the peer's signature bytes under the peer's key bytes, in `ml-dsa`'s API.
macro_rules! verify_peer {
    ($($k:ident)::+, $set:ident, $vk:expr, $sig:expr, $msg:expr) => {{
        use $($k)::+::{$set, Signature, Verifier, VerifyingKey};
        let vk_bytes: &[u8] = $vk;
        let vk = VerifyingKey::<$set>::decode(&vk_bytes.try_into().expect("key length"));
        let sig = Signature::<$set>::try_from($sig).expect("signature decodes");
        vk.verify($msg, &sig).is_ok() && vk.verify_with_context($msg, b"", &sig)
    }};
}

macro_rules! drop_in {
    ($name:ident, $set:ident) => {
        #[test]
        fn $name() {
            for (i, msg) in [&b""[..], b"Hello world", &[0xa5; 1000]].iter().enumerate() {
                let rng_seed = [i as u8 + 1; 32];
                let ours = seeded_flow!(tessera_mldsa::ml_dsa, $set, rng_seed, msg);
                let theirs = seeded_flow!(ml_dsa, $set, rng_seed, msg);
                // Same seed from the same generator, same keys, byte-identical signatures.
                assert_eq!(ours.seed, theirs.seed);
                assert_eq!(ours.vk, theirs.vk);
                assert_eq!(ours.sig, theirs.sig);
                assert_eq!(ours.multi, theirs.sig);
                // Each verifies the other's.
                assert!(verify_peer!(
                    tessera_mldsa::ml_dsa,
                    $set,
                    &theirs.vk,
                    &theirs.sig[..],
                    msg
                ));
                assert!(verify_peer!(ml_dsa, $set, &ours.vk, &ours.sig[..], msg));
                let mut bad = theirs.sig.clone();
                bad[7] ^= 1;
                assert!(!verify_peer!(
                    tessera_mldsa::ml_dsa,
                    $set,
                    &theirs.vk,
                    &bad[..],
                    msg
                ));

                // Hedged and context signatures cross-verify (ml-dsa's hedged path is on its
                // expanded key).
                let mut rng = StdRng::from_seed([0x33; 32]);
                let t_sk =
                    tessera_mldsa::ml_dsa::SigningKey::<tessera_mldsa::ml_dsa::$set>::from_seed(
                        &<[u8; 32]>::try_from(&ours.seed[..]).unwrap().into(),
                    );
                let r_sk = ml_dsa::SigningKey::<ml_dsa::$set>::from_seed(
                    &<[u8; 32]>::try_from(&theirs.seed[..]).unwrap().into(),
                );
                let t_h = t_sk.sign_randomized(msg, b"ctx", &mut rng).unwrap();
                let r_h = r_sk
                    .expanded_key()
                    .sign_randomized(msg, b"ctx", &mut rng)
                    .unwrap();
                let r_vk = ml_dsa::Keypair::verifying_key(&r_sk);
                let t_vk = tessera_mldsa::ml_dsa::Keypair::verifying_key(&t_sk);
                assert!(r_vk.verify_with_context(
                    msg,
                    b"ctx",
                    &ml_dsa::Signature::try_from(&t_h.encode()[..]).unwrap()
                ));
                assert!(t_vk.verify_with_context(
                    msg,
                    b"ctx",
                    &tessera_mldsa::ml_dsa::Signature::try_from(&r_h.encode()[..]).unwrap()
                ));
                let t_d = t_sk.sign_deterministic(msg, b"ctx").unwrap();
                let r_d = r_sk.expanded_key().sign_deterministic(msg, b"ctx").unwrap();
                assert_eq!(&t_d.encode()[..], &r_d.encode()[..]);
            }
        }
    };
}

drop_in!(drop_in_44, MlDsa44);
drop_in!(drop_in_65, MlDsa65);
drop_in!(drop_in_87, MlDsa87);

/// PKCS#8 / SPKI in `ml-dsa`'s style (its module `pkcs8`): the same documents from both, each
/// decodes the other's.
#[cfg(all(feature = "pkcs8", feature = "alloc"))]
#[test]
fn pkcs8_drop_in() {
    macro_rules! encode_keys {
        ($($k:ident)::+) => {{
            use $($k)::+::pkcs8::{EncodePrivateKey, EncodePublicKey};
            use $($k)::+::{Keypair, MlDsa65, SigningKey};
            let sk = SigningKey::<MlDsa65>::from_seed(&[0x5c; 32].into());
            let der = sk.to_pkcs8_der().unwrap();
            let spki = sk.verifying_key().to_public_key_der().unwrap();
            (der.as_bytes().to_vec(), spki.as_bytes().to_vec())
        }};
    }
    macro_rules! decode_keys {
        ($($k:ident)::+, $der:expr, $spki:expr) => {{
            use $($k)::+::pkcs8::{DecodePrivateKey, DecodePublicKey};
            use $($k)::+::{Keypair, MlDsa65, SigningKey, VerifyingKey};
            let sk = SigningKey::<MlDsa65>::from_pkcs8_der($der).unwrap();
            let vk = VerifyingKey::<MlDsa65>::from_public_key_der($spki).unwrap();
            assert!(sk.verifying_key() == vk);
            vk.encode()[..].to_vec()
        }};
    }
    let (t_der, t_spki) = encode_keys!(tessera_mldsa::ml_dsa);
    let (r_der, r_spki) = encode_keys!(ml_dsa);
    assert_eq!(t_der, r_der);
    assert_eq!(t_spki, r_spki);
    let t = decode_keys!(tessera_mldsa::ml_dsa, &r_der, &r_spki);
    let r = decode_keys!(ml_dsa, &t_der, &t_spki);
    assert_eq!(t, r);
}
