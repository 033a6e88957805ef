//! ECDSA P-256 against the peers on random keys and messages, on every available backend:
//! RustCrypto `p256` (both RFC 6979: the deterministic signatures are byte-equal, and so are
//! the hedged ones for the same generator output), ring and aws-lc-rs (random nonces; x86_64
//! only for aws-lc-rs). Our signatures verify under every peer (fixed-size and DER); theirs
//! under ours; a changed message or signature is refused by all.
#![cfg(not(any(miri, tessera_backend = "portable")))]

use p256::ecdsa::signature::hazmat::PrehashSigner;
use p256::ecdsa::signature::{RandomizedSigner, Signer, Verifier};
use proptest::prelude::*;
use tessera_p256::Error;
use tessera_p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use tessera_p256::testing::Backend;

/// A generator that returns the given 32 bytes, then zeros (the same stream for both signers).
struct FixedRng([u8; 32]);

impl rand_core::TryRng for FixedRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for d in dst {
            *d = self.0[0];
            self.0.rotate_left(1);
            self.0[31] = 0;
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for FixedRng {}

fn tampered(sig: &Signature, byte: usize) -> Option<Signature> {
    let mut b = sig.to_bytes();
    b[byte % 64] ^= 1;
    Signature::from_bytes(&b).ok()
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn ring_verify(
    alg: &'static ring::signature::EcdsaVerificationAlgorithm,
    q: &[u8],
    msg: &[u8],
    sig: &[u8],
) -> bool {
    ring::signature::UnparsedPublicKey::new(alg, q)
        .verify(msg, sig)
        .is_ok()
}

#[cfg(target_arch = "x86_64")]
fn aws_verify(
    alg: &'static aws_lc_rs::signature::EcdsaVerificationAlgorithm,
    q: &[u8],
    msg: &[u8],
    sig: &[u8],
) -> bool {
    aws_lc_rs::signature::UnparsedPublicKey::new(alg, q)
        .verify(msg, sig)
        .is_ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Same deterministic and hedged signatures as `p256`; each verifies the other's; a
    /// changed message or signature is refused by both.
    #[test]
    fn matches_p256(d in any::<[u8; 32]>(), msg in proptest::collection::vec(any::<u8>(), 0..300),
                    extra in any::<[u8; 32]>(), flip in any::<usize>()) {
        let Ok(theirs) = p256::ecdsa::SigningKey::from_bytes(&d.into()) else {
            prop_assert!(SigningKey::from_bytes(&d).is_err());
            return Ok(());
        };
        let their_vk = theirs.verifying_key();
        let their_q = their_vk.to_sec1_point(false);
        let their_sig: p256::ecdsa::Signature = theirs.sign(&msg);
        let their_hedged: p256::ecdsa::Signature = theirs.sign_with_rng(&mut FixedRng(extra), &msg);
        let long = tessera_sha2::sha512(&msg);
        let their_pre: p256::ecdsa::Signature = theirs.sign_prehash(&long).unwrap();
        for be in tessera_testkit::available::<Backend>() {
            let ours = SigningKey::from_bytes_with_backend(be, &d).unwrap();
            let q = ours.verifying_key().to_uncompressed();
            prop_assert_eq!(&q[..], their_q.as_bytes());
            let sig = ours.sign(&msg);
            prop_assert_eq!(&sig.to_bytes()[..], &their_sig.to_bytes()[..], "{}", be.name());
            let hedged = ours.sign_with_rng(&mut FixedRng(extra), &msg);
            prop_assert_eq!(&hedged.to_bytes()[..], &their_hedged.to_bytes()[..]);
            prop_assert_eq!(&ours.sign_prehash(&long).unwrap().to_bytes()[..], &their_pre.to_bytes()[..]);
            // Ours under theirs, fixed and DER.
            let der = sig.to_der();
            let their_der = p256::ecdsa::DerSignature::try_from(der.as_bytes()).unwrap();
            prop_assert_eq!(der.as_bytes(), their_der.as_bytes());
            prop_assert!(their_vk.verify(&msg, &p256::ecdsa::Signature::from_slice(&sig.to_bytes()).unwrap()).is_ok());
            prop_assert!(their_vk.verify(&msg, &their_der).is_ok());
            // Theirs (the hedged one: not equal to ours by construction) under ours.
            let vk = VerifyingKey::from_sec1_bytes_with_backend(be, &q).unwrap();
            let th = Signature::from_slice(&their_hedged.to_bytes()).unwrap();
            prop_assert_eq!(vk.verify(&msg, &th), Ok(()));
            prop_assert_eq!(vk.verify(&msg, &th.normalize_s()), Ok(()));
            // Tampered: both refuse.
            let mut m2 = msg.clone();
            m2.push(0);
            prop_assert_eq!(vk.verify(&m2, &sig), Err(Error::Verification));
            prop_assert!(their_vk.verify(&m2, &their_sig).is_err());
            if let Some(t) = tampered(&sig, flip) {
                prop_assert_eq!(vk.verify(&msg, &t), Err(Error::Verification));
                let tt = p256::ecdsa::Signature::from_slice(&t.to_bytes()).unwrap();
                prop_assert!(their_vk.verify(&msg, &tt).is_err());
            }
        }
    }

    /// ring: ours verify under ring (fixed and ASN.1); ring's (random nonces) under ours.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    #[test]
    fn matches_ring(d in any::<[u8; 32]>(), msg in proptest::collection::vec(any::<u8>(), 0..300),
                    flip in any::<usize>()) {
        use ring::signature::{ECDSA_P256_SHA256_ASN1, ECDSA_P256_SHA256_ASN1_SIGNING,
            ECDSA_P256_SHA256_FIXED, ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair};
        let Ok(key) = SigningKey::from_bytes(&d) else { return Ok(()); };
        let q = key.verifying_key().to_uncompressed();
        let rng = ring::rand::SystemRandom::new();
        let fixed = EcdsaKeyPair::from_private_key_and_public_key(&ECDSA_P256_SHA256_FIXED_SIGNING, &d, &q, &rng).unwrap();
        let asn1 = EcdsaKeyPair::from_private_key_and_public_key(&ECDSA_P256_SHA256_ASN1_SIGNING, &d, &q, &rng).unwrap();
        let their_fixed = fixed.sign(&rng, &msg).unwrap();
        let their_der = asn1.sign(&rng, &msg).unwrap();
        for be in tessera_testkit::available::<Backend>() {
            let ours = SigningKey::from_bytes_with_backend(be, &d).unwrap();
            let sig = ours.sign(&msg);
            prop_assert!(ring_verify(&ECDSA_P256_SHA256_FIXED, &q, &msg, &sig.to_bytes()));
            prop_assert!(ring_verify(&ECDSA_P256_SHA256_ASN1, &q, &msg, sig.to_der().as_bytes()));
            let hedged = ours.sign_with_rng(&mut FixedRng([7; 32]), &msg);
            prop_assert!(ring_verify(&ECDSA_P256_SHA256_FIXED, &q, &msg, &hedged.to_bytes()));
            let vk = VerifyingKey::from_sec1_bytes_with_backend(be, &q).unwrap();
            let tf = Signature::from_slice(their_fixed.as_ref()).unwrap();
            prop_assert_eq!(vk.verify(&msg, &tf), Ok(()));
            prop_assert_eq!(vk.verify_der(&msg, their_der.as_ref()), Ok(()));
            let mut m2 = msg.clone();
            m2.push(1);
            prop_assert_eq!(vk.verify(&m2, &tf), Err(Error::Verification));
            prop_assert!(!ring_verify(&ECDSA_P256_SHA256_FIXED, &q, &m2, &sig.to_bytes()));
            if let Some(t) = tampered(&sig, flip) {
                prop_assert_eq!(vk.verify(&msg, &t), Err(Error::Verification));
                prop_assert!(!ring_verify(&ECDSA_P256_SHA256_FIXED, &q, &msg, &t.to_bytes()));
            }
        }
    }

    /// aws-lc-rs: ours verify under it (fixed and ASN.1); its (random nonces) under ours.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn matches_aws_lc_rs(d in any::<[u8; 32]>(), msg in proptest::collection::vec(any::<u8>(), 0..300),
                         flip in any::<usize>()) {
        use aws_lc_rs::signature::{ECDSA_P256_SHA256_ASN1, ECDSA_P256_SHA256_ASN1_SIGNING,
            ECDSA_P256_SHA256_FIXED, ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair};
        let Ok(key) = SigningKey::from_bytes(&d) else { return Ok(()); };
        let q = key.verifying_key().to_uncompressed();
        let rng = aws_lc_rs::rand::SystemRandom::new();
        let fixed = EcdsaKeyPair::from_private_key_and_public_key(&ECDSA_P256_SHA256_FIXED_SIGNING, &d, &q).unwrap();
        let asn1 = EcdsaKeyPair::from_private_key_and_public_key(&ECDSA_P256_SHA256_ASN1_SIGNING, &d, &q).unwrap();
        let their_fixed = fixed.sign(&rng, &msg).unwrap();
        let their_der = asn1.sign(&rng, &msg).unwrap();
        for be in tessera_testkit::available::<Backend>() {
            let ours = SigningKey::from_bytes_with_backend(be, &d).unwrap();
            let sig = ours.sign(&msg);
            prop_assert!(aws_verify(&ECDSA_P256_SHA256_FIXED, &q, &msg, &sig.to_bytes()));
            prop_assert!(aws_verify(&ECDSA_P256_SHA256_ASN1, &q, &msg, sig.to_der().as_bytes()));
            let vk = VerifyingKey::from_sec1_bytes_with_backend(be, &key.verifying_key().to_compressed()).unwrap();
            let tf = Signature::from_slice(their_fixed.as_ref()).unwrap();
            prop_assert_eq!(vk.verify(&msg, &tf), Ok(()));
            prop_assert_eq!(vk.verify_der(&msg, their_der.as_ref()), Ok(()));
            let mut m2 = msg.clone();
            m2.push(2);
            prop_assert_eq!(vk.verify(&m2, &tf), Err(Error::Verification));
            prop_assert!(!aws_verify(&ECDSA_P256_SHA256_FIXED, &q, &m2, &sig.to_bytes()));
            if let Some(t) = tampered(&sig, flip) {
                prop_assert_eq!(vk.verify(&msg, &t), Err(Error::Verification));
                prop_assert!(!aws_verify(&ECDSA_P256_SHA256_FIXED, &q, &msg, &t.to_bytes()));
            }
        }
    }
}
