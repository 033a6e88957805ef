//! The RustCrypto `signature` 3 traits on the ECDSA types (feature `signature`): each trait
//! method gives what the inherent method gives, the DER types round-trip through
//! `SignatureEncoding`, and failures are `signature::Error`s.
#![cfg(feature = "signature")]

use tessera_p256::ecdsa::signature::hazmat::{
    PrehashSigner, PrehashVerifier, RandomizedPrehashSigner,
};
use tessera_p256::ecdsa::signature::{
    Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier,
};
use tessera_p256::ecdsa::{DerSignature, Signature, SigningKey, VerifyingKey};
use tessera_testkit::hex;

const X: &str = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721";
/// RFC 6979 appendix A.2.5, SHA-256, "sample".
const SAMPLE_RS: &str = "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8";

#[test]
fn signer_and_verifier() {
    let key = SigningKey::from_bytes(&hex::array(X)).unwrap();
    let vk: VerifyingKey = Keypair::verifying_key(&key);
    assert_eq!(&vk, key.verifying_key());
    let sig: Signature = Signer::sign(&key, b"sample");
    assert_eq!(hex::encode(&SignatureEncoding::to_bytes(&sig)), SAMPLE_RS);
    assert_eq!(sig.encoded_len(), 64);
    assert_eq!(
        Signature::try_from(&SignatureEncoding::to_bytes(&sig)[..]).unwrap(),
        sig
    );
    Verifier::verify(&vk, b"sample", &sig).unwrap();
    assert!(Verifier::verify(&vk, b"other", &sig).is_err());

    let der: DerSignature = Signer::sign(&key, b"sample");
    assert_eq!(der.signature(), &sig);
    assert_eq!(
        SignatureEncoding::to_bytes(&der).as_bytes(),
        sig.to_der().as_bytes()
    );
    assert_eq!(der.encoded_len(), 72);
    assert_eq!(DerSignature::try_from(der.as_bytes()).unwrap(), der);
    Verifier::verify(&vk, b"sample", &der).unwrap();
    assert!(Verifier::verify(&vk, b"other", &der).is_err());

    let h = tessera_sha2::sha256(b"sample");
    let p: Signature = PrehashSigner::sign_prehash(&key, &h).unwrap();
    assert_eq!(p, sig);
    let pd: DerSignature = PrehashSigner::sign_prehash(&key, &h).unwrap();
    assert_eq!(pd, der);
    PrehashVerifier::verify_prehash(&vk, &h, &sig).unwrap();
    PrehashVerifier::verify_prehash(&vk, &h, &der).unwrap();
    assert!(PrehashVerifier::verify_prehash(&vk, &h[1..], &sig).is_err());
    assert!(PrehashSigner::<Signature>::sign_prehash(&key, &[]).is_err());
}

#[test]
fn randomized_signers() {
    let key = SigningKey::from_bytes(&hex::array(X)).unwrap();
    let vk = key.verifying_key();
    let mut rng = tessera_testkit::FailingRng::after(32);
    let a: Signature = RandomizedSigner::try_sign_with_rng(&key, &mut rng, b"m").unwrap();
    // Same generator output: the inherent method gives the same signature.
    assert_eq!(
        key.try_sign_with_rng(&mut tessera_testkit::FailingRng::after(32), b"m"),
        Ok(a)
    );
    assert_ne!(a, key.sign(b"m"));
    vk.verify(b"m", &a).unwrap();
    let d: DerSignature = RandomizedSigner::try_sign_with_rng(
        &key,
        &mut tessera_testkit::FailingRng::after(32),
        b"m",
    )
    .unwrap();
    assert_eq!(d.signature(), &a);
    let h = tessera_sha2::sha256(b"m");
    let p: Signature = RandomizedPrehashSigner::sign_prehash_with_rng(
        &key,
        &mut tessera_testkit::FailingRng::after(32),
        &h,
    )
    .unwrap();
    assert_eq!(p, a);
    // The generator is spent: a signature::Error, no panic.
    assert!(RandomizedSigner::<Signature>::try_sign_with_rng(&key, &mut rng, b"m").is_err());
    assert!(RandomizedSigner::<DerSignature>::try_sign_with_rng(&key, &mut rng, b"m").is_err());
}
