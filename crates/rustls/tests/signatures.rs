//! Signing and verification of tessera-rustls against rustls' aws-lc-rs and ring providers:
//! keys generated here (rcgen on aws-lc-rs, tessera-mldsa seeds), signatures made by one side
//! and checked by the other, refusals of bad input with their errors, and certificate chains
//! through rustls' `WebPkiServerVerifier` built on this provider.
//!
//! Built where the aws-lc-rs dev-dependencies are (Cargo.toml): x86_64, neither Miri nor the
//! compile-time portable leg.
#![cfg(all(target_arch = "x86_64", not(any(miri, tessera_backend = "portable"))))]

use std::sync::Arc;

use rand::RngExt as _;
use rcgen::{
    BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair, PublicKeyData, SignatureAlgorithm,
};
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::ServerCertVerifier;
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::internal::msgs::codec::Codec;
use rustls::pki_types::{
    CertificateDer, InvalidSignature, PrivateKeyDer, PrivatePkcs1KeyDer, PrivatePkcs8KeyDer,
    PrivateSec1KeyDer, ServerName, SignatureVerificationAlgorithm, SubjectPublicKeyInfoDer,
    UnixTime,
};
use rustls::sign::SigningKey;
use rustls::{CertificateError, DigitallySignedStruct, Error, RootCertStore, SignatureScheme};
use tessera_rustls::{sign::KEY_PROVIDER, verify::SUPPORTED_SIG_ALGS};

const MSG: &[u8] = b"TLS 1.3, server CertificateVerify\x00 transcript hash stand-in";

fn aws() -> CryptoProvider {
    rustls::crypto::aws_lc_rs::default_provider()
}

#[allow(deprecated)] // ring's provider lacks post-quantum groups; irrelevant to signatures.
fn ring() -> CryptoProvider {
    rustls::crypto::ring::default_provider()
}

/// Whether TLS 1.3 admits `scheme` (everything here except PKCS#1 v1.5, RFC 8446 4.2.3).
fn tls13(scheme: SignatureScheme) -> bool {
    !matches!(
        scheme,
        SignatureScheme::RSA_PKCS1_SHA256
            | SignatureScheme::RSA_PKCS1_SHA384
            | SignatureScheme::RSA_PKCS1_SHA512
    )
}

/// `Err(InvalidSignature)` (the type has no `PartialEq`).
fn rejected(r: Result<(), InvalidSignature>) -> bool {
    matches!(r, Err(InvalidSignature))
}

// ------------------------------------------------------------------ DER helpers (test-only)

/// One DER TLV at the start of `der`: (tag, contents, rest).
fn tlv(der: &[u8]) -> (u8, &[u8], &[u8]) {
    let tag = der[0];
    let (len, hdr) = match der[1] {
        n if n < 0x80 => (n as usize, 2),
        0x81 => (der[2] as usize, 3),
        0x82 => (((der[2] as usize) << 8) | der[3] as usize, 4),
        0x83 => (
            ((der[2] as usize) << 16) | ((der[3] as usize) << 8) | der[4] as usize,
            5,
        ),
        other => panic!("length form {other:#x}"),
    };
    (tag, &der[hdr..hdr + len], &der[hdr + len..])
}

/// An SPKI's AlgorithmIdentifier contents and subjectPublicKey bytes.
fn split_spki(spki: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let (tag, body, rest) = tlv(spki);
    assert_eq!((tag, rest.len()), (0x30, 0));
    let (tag, alg, rest) = tlv(body);
    assert_eq!(tag, 0x30);
    let (tag, bits, rest) = tlv(rest);
    assert_eq!((tag, rest.len(), bits[0]), (0x03, 0, 0));
    (alg.to_vec(), bits[1..].to_vec())
}

/// A `DigitallySignedStruct` (scheme, signature) through its wire encoding.
fn dss(scheme: SignatureScheme, sig: &[u8]) -> DigitallySignedStruct {
    let mut wire = u16::from(scheme).to_be_bytes().to_vec();
    wire.extend_from_slice(&(sig.len() as u16).to_be_bytes());
    wire.extend_from_slice(sig);
    DigitallySignedStruct::read_bytes(&wire).expect("encoded DigitallySignedStruct")
}

// ------------------------------------------------------------------ keys

/// A private key (every encoding we test) with its SPKI and the schemes it signs.
struct TestKey {
    name: &'static str,
    der: Vec<PrivateKeyDer<'static>>,
    spki: Vec<u8>,
    schemes: &'static [SignatureScheme],
    /// ring has the algorithm (ML-DSA: no).
    ring: bool,
}

const RSA_ALL: &[SignatureScheme] = &[
    SignatureScheme::RSA_PSS_SHA512,
    SignatureScheme::RSA_PSS_SHA384,
    SignatureScheme::RSA_PSS_SHA256,
    SignatureScheme::RSA_PKCS1_SHA512,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PKCS1_SHA256,
];

fn rcgen_key(alg: &'static SignatureAlgorithm) -> (KeyPair, Vec<u8>, Vec<u8>) {
    let kp = KeyPair::generate_for(alg).expect("rcgen key generation");
    let pkcs8 = kp.serialize_der();
    let spki = kp.subject_public_key_info();
    (kp, pkcs8, spki)
}

fn pkcs8(der: &[u8]) -> PrivateKeyDer<'static> {
    PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(der.to_vec()))
}

/// The `ECPrivateKey` inside an EC PKCS#8 document (the privateKey OCTET STRING).
fn sec1_of_pkcs8(der: &[u8]) -> PrivateKeyDer<'static> {
    let (_, body, _) = tlv(der);
    let (_, _version, rest) = tlv(body);
    let (_, _alg, rest) = tlv(rest);
    let (tag, inner, _) = tlv(rest);
    assert_eq!(tag, 0x04);
    PrivateKeyDer::Sec1(PrivateSec1KeyDer::from(inner.to_vec()))
}

fn p256_key() -> TestKey {
    let (_, der, spki) = rcgen_key(&rcgen::PKCS_ECDSA_P256_SHA256);
    TestKey {
        name: "P-256",
        der: vec![pkcs8(&der), sec1_of_pkcs8(&der)],
        spki,
        schemes: &[SignatureScheme::ECDSA_NISTP256_SHA256],
        ring: true,
    }
}

fn p384_key() -> TestKey {
    let (_, der, spki) = rcgen_key(&rcgen::PKCS_ECDSA_P384_SHA384);
    TestKey {
        name: "P-384",
        der: vec![pkcs8(&der), sec1_of_pkcs8(&der)],
        spki,
        schemes: &[SignatureScheme::ECDSA_NISTP384_SHA384],
        ring: true,
    }
}

fn ed25519_key() -> TestKey {
    let (_, der, spki) = rcgen_key(&rcgen::PKCS_ED25519);
    TestKey {
        name: "Ed25519",
        der: vec![pkcs8(&der)],
        spki,
        schemes: &[SignatureScheme::ED25519],
        ring: true,
    }
}

fn rsa_key() -> TestKey {
    use rsa::pkcs1::EncodeRsaPrivateKey;
    use rsa::pkcs8::DecodePrivateKey;
    let (_, der, spki) = rcgen_key(&rcgen::PKCS_RSA_SHA256);
    let pkcs1 = rsa::PrivateKey::from_pkcs8_der(&der)
        .unwrap()
        .to_pkcs1_der()
        .unwrap();
    TestKey {
        name: "RSA-2048",
        der: vec![
            pkcs8(&der),
            PrivateKeyDer::Pkcs1(PrivatePkcs1KeyDer::from(pkcs1.as_bytes().to_vec())),
        ],
        spki,
        schemes: RSA_ALL,
        ring: true,
    }
}

/// ML-DSA keys: a random seed, tessera-mldsa's PKCS#8 (seed form) and SPKI encoders.
fn mldsa_key<P>(name: &'static str, scheme: &'static [SignatureScheme]) -> TestKey
where
    P: tessera_mldsa::ml_dsa::ParameterSet,
    tessera_mldsa::ml_dsa::SigningKey<P>: tessera_mldsa::pkcs8::EncodePrivateKey,
    tessera_mldsa::ml_dsa::VerifyingKey<P>: tessera_mldsa::pkcs8::EncodePublicKey,
{
    use tessera_mldsa::ml_dsa::{Keypair, Seed, SigningKey};
    use tessera_mldsa::pkcs8::{EncodePrivateKey, EncodePublicKey};
    let seed: [u8; 32] = rand::rng().random();
    let sk = SigningKey::<P>::from_seed(&Seed::from(seed));
    let der = sk.to_pkcs8_der().unwrap();
    let spki = sk.verifying_key().to_public_key_der().unwrap();
    TestKey {
        name,
        der: vec![pkcs8(der.as_bytes())],
        spki: spki.as_bytes().to_vec(),
        schemes: scheme,
        ring: false,
    }
}

/// An ML-DSA-87 key generated by aws-lc-rs (through rcgen; its PKCS#8 encoder).
fn mldsa_aws_key() -> TestKey {
    let (_, der, spki) = rcgen_key(&rcgen::PKCS_ML_DSA_87);
    TestKey {
        name: "ML-DSA-87 (aws-lc-rs key)",
        der: vec![pkcs8(&der)],
        spki,
        schemes: &[SignatureScheme::ML_DSA_87],
        ring: false,
    }
}

fn all_keys() -> Vec<TestKey> {
    use tessera_mldsa::ml_dsa::{MlDsa44, MlDsa65, MlDsa87};
    vec![
        p256_key(),
        p384_key(),
        ed25519_key(),
        rsa_key(),
        mldsa_key::<MlDsa44>("ML-DSA-44", &[SignatureScheme::ML_DSA_44]),
        mldsa_key::<MlDsa65>("ML-DSA-65", &[SignatureScheme::ML_DSA_65]),
        mldsa_key::<MlDsa87>("ML-DSA-87", &[SignatureScheme::ML_DSA_87]),
        mldsa_aws_key(),
    ]
}

// ------------------------------------------------------------------ verification helpers

/// The algorithms of `algs` for `scheme` whose key type is the SPKI's.
fn algs_for<'a>(
    algs: &'a WebPkiSupportedAlgorithms,
    scheme: SignatureScheme,
    spki: &[u8],
) -> Vec<&'a dyn SignatureVerificationAlgorithm> {
    let (alg_id, _) = split_spki(spki);
    algs.mapping
        .iter()
        .filter(|(s, _)| *s == scheme)
        .flat_map(|(_, a)| a.iter().copied())
        .filter(|a| a.public_key_alg_id().as_ref() == alg_id.as_slice())
        .collect()
}

/// Verifies `sig` with the algorithms of `algs` for `scheme`, directly and (TLS 1.3 schemes)
/// through rustls' raw-key verification; each path must give the same answer.
fn verify_with(
    algs: &WebPkiSupportedAlgorithms,
    scheme: SignatureScheme,
    spki: &[u8],
    msg: &[u8],
    sig: &[u8],
) -> Result<(), InvalidSignature> {
    let candidates = algs_for(algs, scheme, spki);
    assert!(!candidates.is_empty(), "no algorithm for {scheme:?}");
    let (_, key) = split_spki(spki);
    let direct = candidates
        .iter()
        .find_map(|a| a.verify_signature(&key, msg, sig).ok())
        .ok_or(InvalidSignature);
    if tls13(scheme) {
        let via_rustls = rustls::crypto::verify_tls13_signature_with_raw_key(
            msg,
            &SubjectPublicKeyInfoDer::from(spki),
            &dss(scheme, sig),
            algs,
        );
        assert_eq!(
            direct.is_ok(),
            via_rustls.is_ok(),
            "{scheme:?}: direct {direct:?}, rustls {via_rustls:?}"
        );
    }
    direct
}

fn sign(key: &Arc<dyn SigningKey>, scheme: SignatureScheme, msg: &[u8]) -> Vec<u8> {
    let signer = key
        .choose_scheme(&[scheme])
        .unwrap_or_else(|| panic!("{key:?} refuses {scheme:?}"));
    assert_eq!(signer.scheme(), scheme);
    signer.sign(msg).expect("signing")
}

// ------------------------------------------------------------------ interoperability

/// Ours signs (every encoding of every key, every scheme); aws-lc-rs and ring verify.
#[test]
fn ours_sign_peers_verify() {
    for k in all_keys() {
        for der in &k.der {
            let ours = KEY_PROVIDER
                .load_private_key(der.clone_key())
                .unwrap_or_else(|e| panic!("{}: {e}", k.name));
            assert_eq!(
                ours.public_key().expect("SPKI").as_ref(),
                k.spki.as_slice(),
                "{}: public_key() is not the generator's SPKI",
                k.name
            );
            for &scheme in k.schemes {
                let sig = sign(&ours, scheme, MSG);
                verify_with(
                    &aws().signature_verification_algorithms,
                    scheme,
                    &k.spki,
                    MSG,
                    &sig,
                )
                .unwrap_or_else(|_| panic!("{}: aws-lc-rs rejects our {scheme:?}", k.name));
                if k.ring {
                    verify_with(
                        &ring().signature_verification_algorithms,
                        scheme,
                        &k.spki,
                        MSG,
                        &sig,
                    )
                    .unwrap_or_else(|_| panic!("{}: ring rejects our {scheme:?}", k.name));
                }
                // And ours accepts its own.
                verify_with(&SUPPORTED_SIG_ALGS, scheme, &k.spki, MSG, &sig).unwrap();
            }
        }
    }
}

/// aws-lc-rs and ring sign (their key providers load the same keys); ours verifies.
#[test]
fn peers_sign_ours_verify() {
    for k in all_keys() {
        let mut providers = vec![("aws-lc-rs", aws())];
        if k.ring {
            providers.push(("ring", ring()));
        }
        for (pname, p) in providers {
            for der in &k.der {
                let theirs = p
                    .key_provider
                    .load_private_key(der.clone_key())
                    .unwrap_or_else(|e| panic!("{pname} cannot load {}: {e}", k.name));
                for &scheme in k.schemes {
                    let sig = sign(&theirs, scheme, MSG);
                    verify_with(&SUPPORTED_SIG_ALGS, scheme, &k.spki, MSG, &sig)
                        .unwrap_or_else(|_| panic!("ours rejects {pname}'s {} {scheme:?}", k.name));
                }
            }
        }
    }
}

/// The DER an ML-DSA key is loaded from is the same key for tessera-mldsa and aws-lc-rs (both
/// derive the same public key), and RustCrypto `ml-dsa` verifies our signature.
#[test]
fn mldsa_cross_check_with_ml_dsa_crate() {
    use ml_dsa::signature::Verifier;
    use ml_dsa::{MlDsa65, VerifyingKey};
    use tessera_mldsa::pkcs8::spki::DecodePublicKey;
    let k = mldsa_key::<tessera_mldsa::ml_dsa::MlDsa65>("ML-DSA-65", &[SignatureScheme::ML_DSA_65]);
    let ours = KEY_PROVIDER.load_private_key(k.der[0].clone_key()).unwrap();
    let theirs = aws()
        .key_provider
        .load_private_key(k.der[0].clone_key())
        .unwrap();
    assert_eq!(
        ours.public_key().unwrap().as_ref(),
        theirs.public_key().unwrap().as_ref()
    );

    let vk = VerifyingKey::<MlDsa65>::from_public_key_der(&k.spki).unwrap();
    let sig = sign(&ours, SignatureScheme::ML_DSA_65, MSG);
    let sig = ml_dsa::Signature::<MlDsa65>::try_from(sig.as_slice()).unwrap();
    vk.verify(MSG, &sig)
        .expect("ml-dsa rejects our ML-DSA-65 signature");
    assert!(vk.verify(b"another message", &sig).is_err());
}

/// The scheme lists, in the order of rustls' aws-lc-rs provider (written out here).
#[test]
fn supported_schemes_in_aws_lc_rs_order() {
    assert_eq!(
        SUPPORTED_SIG_ALGS.supported_schemes(),
        vec![
            SignatureScheme::ECDSA_NISTP384_SHA384,
            SignatureScheme::ECDSA_NISTP256_SHA256,
            SignatureScheme::ED25519,
            SignatureScheme::RSA_PSS_SHA512,
            SignatureScheme::RSA_PSS_SHA384,
            SignatureScheme::RSA_PSS_SHA256,
            SignatureScheme::RSA_PKCS1_SHA512,
            SignatureScheme::RSA_PKCS1_SHA384,
            SignatureScheme::RSA_PKCS1_SHA256,
            SignatureScheme::ML_DSA_44,
            SignatureScheme::ML_DSA_65,
            SignatureScheme::ML_DSA_87,
        ]
    );
    // Every scheme of ours is one aws-lc-rs has, in the same relative order.
    let theirs = aws().signature_verification_algorithms.supported_schemes();
    let positions: Vec<usize> = SUPPORTED_SIG_ALGS
        .supported_schemes()
        .iter()
        .map(|s| {
            theirs
                .iter()
                .position(|t| t == s)
                .expect("scheme unknown to aws-lc-rs")
        })
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
    // Every algorithm's identifiers are among aws-lc-rs' (the same DER), and none is FIPS.
    let aws_ids: Vec<(Vec<u8>, Vec<u8>)> = aws()
        .signature_verification_algorithms
        .all
        .iter()
        .map(|a| {
            (
                a.public_key_alg_id().as_ref().to_vec(),
                a.signature_alg_id().as_ref().to_vec(),
            )
        })
        .collect();
    for a in SUPPORTED_SIG_ALGS.all {
        let ids = (
            a.public_key_alg_id().as_ref().to_vec(),
            a.signature_alg_id().as_ref().to_vec(),
        );
        assert!(
            aws_ids.contains(&ids),
            "{a:?}: identifiers unknown to aws-lc-rs"
        );
        assert!(!a.fips());
    }
    assert!(!KEY_PROVIDER.fips());
}

/// ECDSA P-256 with SHA-384 and P-384 with SHA-256 (the cross-hash algorithms, reachable by
/// TLS 1.2 schemes and certificates): signatures of the other hash's digest, made by
/// tessera-p256 and p384, are accepted by aws-lc-rs' algorithms and by ours, and refused by
/// both for another message.
#[test]
fn ecdsa_cross_hash_algorithms() {
    use aws_lc_rs::signature::{self as aws_sig, UnparsedPublicKey};
    use p384::ecdsa::signature::hazmat::PrehashSigner;

    let sk = tessera_p256::ecdsa::SigningKey::random(&mut rand::rng());
    let pk = sk.verifying_key().to_uncompressed();
    let sig = sk
        .sign_prehash(&tessera_sha2::sha384(MSG))
        .unwrap()
        .to_der();
    let aws = UnparsedPublicKey::new(&aws_sig::ECDSA_P256_SHA384_ASN1, &pk[..]);
    aws.verify(MSG, sig.as_bytes())
        .expect("aws-lc-rs rejects P-256/SHA-384");
    assert!(aws.verify(b"other", sig.as_bytes()).is_err());
    let ours = tessera_rustls::verify::ECDSA_P256_SHA384;
    ours.verify_signature(&pk, MSG, sig.as_bytes())
        .expect("ours rejects P-256/SHA-384");
    assert!(rejected(ours.verify_signature(
        &pk,
        b"other",
        sig.as_bytes()
    )));

    let bytes: [u8; 48] = rand::rng().random();
    let sk = p384::ecdsa::SigningKey::from_slice(&bytes).unwrap();
    let pk = sk.verifying_key().to_sec1_point(false);
    let sig: p384::ecdsa::DerSignature = sk.sign_prehash(&tessera_sha2::sha256(MSG)).unwrap();
    let aws = UnparsedPublicKey::new(&aws_sig::ECDSA_P384_SHA256_ASN1, pk.as_bytes());
    aws.verify(MSG, sig.as_bytes())
        .expect("aws-lc-rs rejects P-384/SHA-256");
    let ours = tessera_rustls::verify::ECDSA_P384_SHA256;
    ours.verify_signature(pk.as_bytes(), MSG, sig.as_bytes())
        .expect("ours rejects P-384/SHA-256");
    assert!(rejected(ours.verify_signature(
        pk.as_bytes(),
        b"other",
        sig.as_bytes()
    )));
}

/// RSA: the scheme choice follows rustls' order (PSS before PKCS#1, longer hash first) within
/// what the peer offers; ECDSA / Ed25519 / ML-DSA keys sign only their one scheme.
#[test]
fn scheme_choice() {
    let rsa = KEY_PROVIDER
        .load_private_key(rsa_key().der.remove(0))
        .unwrap();
    let pick = |offered: &[SignatureScheme]| rsa.choose_scheme(offered).map(|s| s.scheme());
    assert_eq!(pick(RSA_ALL), Some(SignatureScheme::RSA_PSS_SHA512));
    assert_eq!(
        pick(&[
            SignatureScheme::RSA_PKCS1_SHA256,
            SignatureScheme::RSA_PSS_SHA256,
            SignatureScheme::RSA_PKCS1_SHA512
        ]),
        Some(SignatureScheme::RSA_PSS_SHA256)
    );
    assert_eq!(
        pick(&[
            SignatureScheme::RSA_PKCS1_SHA256,
            SignatureScheme::RSA_PKCS1_SHA384
        ]),
        Some(SignatureScheme::RSA_PKCS1_SHA384)
    );
    assert_eq!(
        pick(&[
            SignatureScheme::ED25519,
            SignatureScheme::ECDSA_NISTP256_SHA256
        ]),
        None
    );
    assert_eq!(rsa.algorithm(), rustls::SignatureAlgorithm::RSA);

    for k in [p256_key(), p384_key(), ed25519_key()] {
        let key = KEY_PROVIDER.load_private_key(k.der[0].clone_key()).unwrap();
        let others: Vec<SignatureScheme> = RSA_ALL
            .iter()
            .chain(&[
                SignatureScheme::ECDSA_NISTP256_SHA256,
                SignatureScheme::ECDSA_NISTP384_SHA384,
                SignatureScheme::ED25519,
                SignatureScheme::ML_DSA_65,
            ])
            .copied()
            .filter(|s| !k.schemes.contains(s))
            .collect();
        assert!(key.choose_scheme(&others).is_none(), "{}", k.name);
        let mut all = others.clone();
        all.push(k.schemes[0]);
        assert_eq!(key.choose_scheme(&all).unwrap().scheme(), k.schemes[0]);
    }
}

// ------------------------------------------------------------------ refusals

/// A flipped bit anywhere (signature, message) fails, for every algorithm; rustls reports it as
/// `BadSignature`.
#[test]
fn flipped_bits_are_rejected() {
    for k in all_keys() {
        let key = KEY_PROVIDER.load_private_key(k.der[0].clone_key()).unwrap();
        for &scheme in k.schemes {
            let sig = sign(&key, scheme, MSG);
            for pos in [0, sig.len() / 2, sig.len() - 1] {
                let mut bad = sig.clone();
                bad[pos] ^= 0x01;
                assert!(
                    rejected(verify_with(&SUPPORTED_SIG_ALGS, scheme, &k.spki, MSG, &bad)),
                    "{} {scheme:?}: signature bit at byte {pos}",
                    k.name
                );
            }
            let mut msg = MSG.to_vec();
            msg[3] ^= 0x80;
            assert!(
                rejected(verify_with(
                    &SUPPORTED_SIG_ALGS,
                    scheme,
                    &k.spki,
                    &msg,
                    &sig
                )),
                "{} {scheme:?}: message bit",
                k.name
            );
            if tls13(scheme) {
                let mut bad = sig.clone();
                bad[sig.len() - 1] ^= 0x40;
                let err = rustls::crypto::verify_tls13_signature_with_raw_key(
                    MSG,
                    &SubjectPublicKeyInfoDer::from(k.spki.as_slice()),
                    &dss(scheme, &bad),
                    &SUPPORTED_SIG_ALGS,
                )
                .unwrap_err();
                assert_eq!(
                    err,
                    Error::InvalidCertificate(CertificateError::BadSignature)
                );
            }
        }
    }
}

/// A key of another type than the scheme's: refused by webpki before any arithmetic, as
/// `UnsupportedSignatureAlgorithmForPublicKeyContext`; the algorithms themselves refuse the
/// other type's raw key bytes with `InvalidSignature`.
#[test]
fn wrong_key_type_for_algorithm() {
    let keys = all_keys();
    for signer in &keys {
        let key = KEY_PROVIDER
            .load_private_key(signer.der[0].clone_key())
            .unwrap();
        let scheme = signer.schemes[0];
        if !tls13(scheme) {
            continue;
        }
        let sig = sign(&key, scheme, MSG);
        for other in keys
            .iter()
            .filter(|o| split_spki(&o.spki).0 != split_spki(&signer.spki).0)
        {
            let err = rustls::crypto::verify_tls13_signature_with_raw_key(
                MSG,
                &SubjectPublicKeyInfoDer::from(other.spki.as_slice()),
                &dss(scheme, &sig),
                &SUPPORTED_SIG_ALGS,
            )
            .unwrap_err();
            assert!(
                matches!(
                    err,
                    Error::InvalidCertificate(
                        CertificateError::UnsupportedSignatureAlgorithmForPublicKeyContext { .. }
                    )
                ),
                "{scheme:?} with a {} key: {err:?}",
                other.name
            );
            // The raw key of another type, given to the algorithm directly.
            let (_, raw) = split_spki(&other.spki);
            for alg in algs_for(&SUPPORTED_SIG_ALGS, scheme, &signer.spki) {
                assert!(rejected(alg.verify_signature(&raw, MSG, &sig)));
            }
        }
    }
}

/// Truncated, extended and garbage public keys and signatures: `InvalidSignature` from every
/// algorithm (never a panic); garbage SPKI through rustls: `BadEncoding`.
#[test]
fn malformed_keys_and_signatures() {
    for k in all_keys() {
        let key = KEY_PROVIDER.load_private_key(k.der[0].clone_key()).unwrap();
        let scheme = k.schemes[0];
        let sig = sign(&key, scheme, MSG);
        let (_, raw) = split_spki(&k.spki);
        let algs = algs_for(&SUPPORTED_SIG_ALGS, scheme, &k.spki);
        // Sanity: the untouched inputs verify, so the refusals below are about the damage.
        assert!(
            algs.iter()
                .any(|a| a.verify_signature(&raw, MSG, &sig).is_ok())
        );
        let mut long_key = raw.clone();
        long_key.push(0);
        let mut long_sig = sig.clone();
        long_sig.push(0);
        let garbage: Vec<u8> = (0..raw.len()).map(|i| (i * 37 + 11) as u8).collect();
        let bad_keys: [&[u8]; 5] = [&[], &raw[..1], &raw[..raw.len() - 1], &long_key, &garbage];
        let bad_sigs: [&[u8]; 4] = [&[], &sig[..1], &sig[..sig.len() - 1], &long_sig];
        for alg in &algs {
            for bk in bad_keys {
                assert!(
                    rejected(alg.verify_signature(bk, MSG, &sig)),
                    "{alg:?} key {}",
                    bk.len()
                );
            }
            for bs in bad_sigs {
                assert!(
                    rejected(alg.verify_signature(&raw, MSG, bs)),
                    "{alg:?} sig {}",
                    bs.len()
                );
            }
        }
        if tls13(scheme) {
            for spki in [
                &k.spki[..k.spki.len() - 3],
                &k.spki[..10],
                &[0x30, 0x03, 0x02, 0x01, 0x00][..],
            ] {
                let err = rustls::crypto::verify_tls13_signature_with_raw_key(
                    MSG,
                    &SubjectPublicKeyInfoDer::from(spki),
                    &dss(scheme, &sig),
                    &SUPPORTED_SIG_ALGS,
                )
                .unwrap_err();
                assert_eq!(
                    err,
                    Error::InvalidCertificate(CertificateError::BadEncoding),
                    "{}",
                    k.name
                );
            }
        }
    }
}

/// A 1024-bit RSA key: its valid signatures are refused by every RSA algorithm (modulus below
/// 2048 bits) while aws-lc-rs' "legacy" 1024-bit algorithm accepts them (so the signature is
/// good and the size is the reason); loading it as a signing key is `Error::General`.
#[test]
fn rsa_1024_is_refused() {
    use rsa::pkcs1::{EncodeRsaPrivateKey, EncodeRsaPublicKey};
    let sk = rsa::PrivateKey::new(&mut rand::rng(), 1024).unwrap();
    assert_eq!(rsa::traits::PublicKeyParts::n(&sk).bit_width(), 1024);
    let pk = sk.as_public_key().to_pkcs1_der().unwrap();
    let sig = sk
        .pkcs1v15_sign_with_rng::<tessera_sha2::digest::Sha256, _>(&mut rand::rng(), MSG)
        .unwrap();
    aws_lc_rs::signature::UnparsedPublicKey::new(
        &aws_lc_rs::signature::RSA_PKCS1_1024_8192_SHA256_FOR_LEGACY_USE_ONLY,
        pk.as_bytes(),
    )
    .verify(MSG, &sig)
    .expect("the 1024-bit signature itself is valid");
    for alg in [
        tessera_rustls::verify::RSA_PKCS1_SHA256,
        tessera_rustls::verify::RSA_PKCS1_SHA256_ABSENT,
    ] {
        assert!(rejected(alg.verify_signature(pk.as_bytes(), MSG, &sig)));
    }
    let pss = sk
        .pss_sign_with_rng::<tessera_sha2::digest::Sha256, _>(&mut rand::rng(), MSG)
        .unwrap();
    assert!(rejected(
        tessera_rustls::verify::RSA_PSS_SHA256.verify_signature(pk.as_bytes(), MSG, &pss)
    ));
    let der = sk.to_pkcs1_der().unwrap();
    let err = KEY_PROVIDER
        .load_private_key(PrivateKeyDer::Pkcs1(PrivatePkcs1KeyDer::from(
            der.as_bytes().to_vec(),
        )))
        .unwrap_err();
    assert!(
        matches!(err, Error::General(ref m) if m.contains("1024")),
        "{err:?}"
    );
}

/// 3072- and 4096-bit RSA keys (the upper end of the window): ours loads them and signs every
/// scheme, aws-lc-rs verifies; aws-lc-rs signs, ours verifies.
#[test]
fn rsa_3072_and_4096() {
    for size in [rcgen::RsaKeySize::_3072, rcgen::RsaKeySize::_4096] {
        let kp = KeyPair::generate_rsa_for(&rcgen::PKCS_RSA_SHA256, size).unwrap();
        let der = pkcs8(&kp.serialize_der());
        let spki = kp.subject_public_key_info();
        let ours = KEY_PROVIDER.load_private_key(der.clone_key()).unwrap();
        let theirs = aws().key_provider.load_private_key(der).unwrap();
        assert_eq!(ours.public_key().unwrap().as_ref(), spki.as_slice());
        for &scheme in RSA_ALL {
            let sig = sign(&ours, scheme, MSG);
            assert!(
                verify_with(
                    &aws().signature_verification_algorithms,
                    scheme,
                    &spki,
                    MSG,
                    &sig
                )
                .is_ok(),
                "{size:?} {scheme:?}: aws-lc-rs rejects ours"
            );
            let sig = sign(&theirs, scheme, MSG);
            assert!(
                verify_with(&SUPPORTED_SIG_ALGS, scheme, &spki, MSG, &sig).is_ok(),
                "{size:?} {scheme:?}: ours rejects aws-lc-rs"
            );
        }
    }
}

/// Keys of types or curves this provider does not sign with, and garbage: `Error::General`.
#[test]
fn unsupported_private_keys() {
    let (_, p521, _) = rcgen_key(&rcgen::PKCS_ECDSA_P521_SHA512);
    // X25519 (RFC 8410 id-X25519, 1.3.101.110), a key-exchange key.
    let mut x25519 = vec![
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04,
        0x20,
    ];
    x25519.extend_from_slice(&[0x42; 32]);
    let cases: Vec<(&str, PrivateKeyDer<'static>)> = vec![
        ("P-521 PKCS#8", pkcs8(&p521)),
        ("P-521 SEC 1", sec1_of_pkcs8(&p521)),
        ("X25519 PKCS#8", pkcs8(&x25519)),
        ("garbage PKCS#8", pkcs8(&[0x30, 0x03, 0x02, 0x01, 0x07])),
        ("empty PKCS#8", pkcs8(&[])),
        (
            "garbage PKCS#1",
            PrivateKeyDer::Pkcs1(PrivatePkcs1KeyDer::from(vec![0x30, 0x00])),
        ),
        (
            "garbage SEC 1",
            PrivateKeyDer::Sec1(PrivateSec1KeyDer::from(vec![0xff; 40])),
        ),
    ];
    for (name, der) in cases {
        match KEY_PROVIDER.load_private_key(der) {
            Err(Error::General(msg)) => assert!(!msg.is_empty(), "{name}"),
            other => panic!("{name}: {other:?}"),
        }
    }
    // A P-256 PKCS#8 with one byte of the secret changed in its attached public key: the key
    // no longer matches its public key and is refused.
    let k = p256_key();
    let PrivateKeyDer::Pkcs8(der) = &k.der[0] else {
        unreachable!()
    };
    let mut bad = der.secret_pkcs8_der().to_vec();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert!(matches!(
        KEY_PROVIDER.load_private_key(pkcs8(&bad)),
        Err(Error::General(_))
    ));
}

// ------------------------------------------------------------------ certificate chains

const HOST: &str = "tessera.example";

/// A CA named `ca_name` and a leaf (both of `alg`), the leaf for [`HOST`].
fn chain(
    alg: &'static SignatureAlgorithm,
    ca_name: &str,
) -> (CertificateDer<'static>, CertificateDer<'static>) {
    let ca_key = KeyPair::generate_for(alg).unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.distinguished_name = rcgen::DistinguishedName::new();
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, ca_name);
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca_cert = ca_params.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca_params, ca_key);
    let leaf_key = KeyPair::generate_for(alg).unwrap();
    let leaf = CertificateParams::new(vec![HOST.to_string()])
        .unwrap()
        .signed_by(&leaf_key, &issuer)
        .unwrap();
    (ca_cert.der().clone(), leaf.der().clone())
}

fn verifier(ca: &CertificateDer<'static>) -> Arc<WebPkiServerVerifier> {
    let mut roots = RootCertStore::empty();
    roots.add(ca.clone()).unwrap();
    WebPkiServerVerifier::builder_with_provider(
        Arc::new(roots),
        Arc::new(tessera_rustls::provider()),
    )
    .build()
    .unwrap()
}

/// CA + leaf chains (P-256, P-384, Ed25519, RSA, ML-DSA-44/65/87): accepted by the verifier on our algorithms;
/// a leaf of another CA of another name is `UnknownIssuer`; a leaf of another CA of the same
/// name (the issuer is found by name, its key does not verify) and a leaf whose signature is
/// damaged are `BadSignature`.
#[test]
fn certificate_chains() {
    let name = ServerName::try_from(HOST).unwrap();
    for alg in [
        &rcgen::PKCS_ECDSA_P256_SHA256,
        &rcgen::PKCS_ECDSA_P384_SHA384,
        &rcgen::PKCS_ED25519,
        &rcgen::PKCS_RSA_SHA256,
        &rcgen::PKCS_ML_DSA_44,
        &rcgen::PKCS_ML_DSA_65,
        &rcgen::PKCS_ML_DSA_87,
    ] {
        let (ca, leaf) = chain(alg, "Tessera test CA");
        let v = verifier(&ca);
        v.verify_server_cert(&leaf, &[], &name, &[], UnixTime::now())
            .unwrap_or_else(|e| panic!("{alg:?}: {e}"));

        let (_, stranger) = chain(alg, "Another CA");
        let err = v
            .verify_server_cert(&stranger, &[], &name, &[], UnixTime::now())
            .unwrap_err();
        assert_eq!(
            err,
            Error::InvalidCertificate(CertificateError::UnknownIssuer),
            "{alg:?}"
        );

        let (_, namesake) = chain(alg, "Tessera test CA");
        let err = v
            .verify_server_cert(&namesake, &[], &name, &[], UnixTime::now())
            .unwrap_err();
        assert_eq!(
            err,
            Error::InvalidCertificate(CertificateError::BadSignature),
            "{alg:?}"
        );

        // The signature BIT STRING is the certificate's last element: flip its last bit.
        let mut bad = leaf.as_ref().to_vec();
        let last = bad.len() - 1;
        bad[last] ^= 0x01;
        let err = v
            .verify_server_cert(&CertificateDer::from(bad), &[], &name, &[], UnixTime::now())
            .unwrap_err();
        assert_eq!(
            err,
            Error::InvalidCertificate(CertificateError::BadSignature),
            "{alg:?}"
        );
    }
}

/// The verifier's TLS 1.3 `CertificateVerify` check on a leaf certificate: our signing key for
/// the leaf's private key signs, the verifier on our algorithms accepts, and a signature made
/// with the scheme of another key type is refused.
#[test]
fn certificate_verify_through_the_verifier() {
    for alg in [
        &rcgen::PKCS_ECDSA_P256_SHA256,
        &rcgen::PKCS_ED25519,
        &rcgen::PKCS_RSA_SHA256,
        &rcgen::PKCS_ML_DSA_65,
    ] {
        let ca_key = KeyPair::generate_for(alg).unwrap();
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let ca = ca_params.self_signed(&ca_key).unwrap();
        let issuer = Issuer::new(ca_params, ca_key);
        let leaf_key = KeyPair::generate_for(alg).unwrap();
        let leaf = CertificateParams::new(vec![HOST.to_string()])
            .unwrap()
            .signed_by(&leaf_key, &issuer)
            .unwrap();
        let v = verifier(ca.der());

        let ours = KEY_PROVIDER
            .load_private_key(pkcs8(&leaf_key.serialize_der()))
            .unwrap();
        let signer = ours.choose_scheme(&v.supported_verify_schemes()).unwrap();
        let sig = signer.sign(MSG).unwrap();
        v.verify_tls13_signature(MSG, leaf.der(), &dss(signer.scheme(), &sig))
            .unwrap_or_else(|e| panic!("{alg:?}: {e}"));
        let mut bad = sig.clone();
        bad[0] ^= 0x10;
        assert!(
            v.verify_tls13_signature(MSG, leaf.der(), &dss(signer.scheme(), &bad))
                .is_err()
        );
    }
}
