//! The P-256 rows: ECDH with the peer's key parsed per call, key generation (the public key of
//! a secret), ECDSA P-256/SHA-256 signing and verification with the key parsed per call.

use crate::*;

/// The secret every P-256 contestant uses: ring's only ECDH private key is ephemeral and drawn
/// from a random source, so ring gets a source that returns this byte, repeated (the integer
/// 0x5a5a...5a is below the group order).
pub(crate) const P256_SECRET_BYTE: u8 = 0x5a;
pub(crate) const P256_SECRET: [u8; 32] = [P256_SECRET_BYTE; 32];

/// The peer's public key of the ECDH rows, uncompressed SEC 1.
pub(crate) fn p256_peer() -> [u8; 65] {
    let mut s = [0u8; 32];
    SplitMix64(0x256).fill(&mut s);
    tessera_p256::SecretKey::from_bytes(&s)
        .unwrap()
        .public_key()
        .to_uncompressed()
}

/// A contestant whose output is checked against `expect` once, then timed.
pub(crate) fn checked<const N: usize>(
    name: impl Into<String>,
    role: Role,
    expect: &[u8; N],
    f: impl Fn() -> [u8; N] + 'static,
) -> Contestant {
    let name = name.into();
    assert_eq!(&f(), expect, "{name} disagrees with Tessera");
    Contestant::new(name, role, move || {
        black_box(f());
    })
}

pub(crate) const P256_NOTES: [&str; 2] = [
    "ECDH: every contestant parses and validates the peer's 65-byte uncompressed public key on every call (as an HPKE or TLS implementation does); ring's P-256 private keys are ephemeral only, so ring makes one per call from a fixed-byte random source (no OS call)",
    "p256 is RustCrypto's p256 0.14 (the crate Tessera's HPKE used before it had its own P-256)",
];

/// `base`: key generation (the public key of a secret, fixed base); otherwise ECDH with the
/// peer's key parsed per call.
pub(crate) fn build_p256_kex(base: bool) -> Built {
    let peer = p256_peer();
    let t = |be| tessera::p256_secret(be, &P256_SECRET);
    let expect_pk = t(None).public_key().to_uncompressed();
    let expect_ss = *t(None)
        .diffie_hellman(&tessera_p256::PublicKey::from_sec1_bytes(&peer).unwrap())
        .as_bytes();
    let mut cs = Vec::new();
    for (i, imp) in tessera::p256_impls().into_iter().enumerate() {
        let be = imp.backend;
        let role = if i == 0 {
            Role::Reference
        } else {
            Role::Backend
        };
        let name = format!("tessera/{}", imp.name);
        if base {
            cs.push(checked(name, role, &expect_pk, move || {
                tessera::p256_secret(be, black_box(&P256_SECRET))
                    .public_key()
                    .to_uncompressed()
            }));
        } else {
            let sk = t(be);
            cs.push(checked(name, role, &expect_ss, move || {
                tessera::p256_ecdh(&sk, black_box(&peer))
            }));
        }
    }
    use aws_lc_rs::agreement as aws;
    use ring::agreement as rg;
    if base {
        cs.push(checked("aws-lc-rs", Role::Peer, &expect_pk, || {
            let sk = aws::PrivateKey::from_private_key(&aws::ECDH_P256, black_box(&P256_SECRET))
                .unwrap();
            sk.compute_public_key()
                .unwrap()
                .as_ref()
                .try_into()
                .unwrap()
        }));
        cs.push(checked("ring", Role::Peer, &expect_pk, || {
            let sk = rg::EphemeralPrivateKey::generate(&rg::ECDH_P256, &p256_ring_rng()).unwrap();
            sk.compute_public_key()
                .unwrap()
                .as_ref()
                .try_into()
                .unwrap()
        }));
        cs.push(checked("p256", Role::Peer, &expect_pk, || {
            use p256::elliptic_curve::sec1::ToSec1Point;
            let sk = p256::SecretKey::from_bytes(black_box(&P256_SECRET.into())).unwrap();
            sk.public_key()
                .to_sec1_point(false)
                .as_bytes()
                .try_into()
                .unwrap()
        }));
    } else {
        let ask = aws::PrivateKey::from_private_key(&aws::ECDH_P256, &P256_SECRET).unwrap();
        cs.push(checked("aws-lc-rs", Role::Peer, &expect_ss, move || {
            aws::agree(
                &ask,
                aws::UnparsedPublicKey::new(&aws::ECDH_P256, black_box(&peer)),
                (),
                |s| Ok::<[u8; 32], ()>(s.try_into().unwrap()),
            )
            .unwrap()
        }));
        cs.push(checked("ring", Role::Peer, &expect_ss, move || {
            let sk = rg::EphemeralPrivateKey::generate(&rg::ECDH_P256, &p256_ring_rng()).unwrap();
            rg::agree_ephemeral(
                sk,
                &rg::UnparsedPublicKey::new(&rg::ECDH_P256, black_box(&peer)),
                |s| <[u8; 32]>::try_from(s).unwrap(),
            )
            .unwrap()
        }));
        let psk = p256::SecretKey::from_bytes(&P256_SECRET.into()).unwrap();
        cs.push(checked("p256", Role::Peer, &expect_ss, move || {
            let pk = p256::PublicKey::from_sec1_bytes(black_box(&peer)).unwrap();
            let ss = p256::ecdh::diffie_hellman(psk.to_nonzero_scalar(), pk.as_affine());
            (*ss.raw_secret_bytes()).into()
        }));
    }
    Built {
        contestants: cs,
        notes: P256_NOTES.iter().map(|n| n.to_string()).collect(),
    }
}

#[allow(deprecated)] // ring's fixed random source lives in its (deprecated) `test` module
fn p256_ring_rng() -> ring::test::rand::FixedByteRandom {
    ring::test::rand::FixedByteRandom {
        byte: P256_SECRET_BYTE,
    }
}

/// The message every ECDSA row signs or verifies (64 bytes, the size of a TLS 1.3
/// CertificateVerify's hashed content is similar).
const P256_MSG: [u8; 64] = [0x6d; 64];

/// A contestant that must return `true` (checked once), then timed.
fn succeeds(name: impl Into<String>, role: Role, f: impl Fn() -> bool + 'static) -> Contestant {
    let name = name.into();
    assert!(f(), "{name} failed");
    Contestant::new(name, role, move || {
        black_box(f());
    })
}

pub(crate) const P256_SIGN_NOTES: [&str; 2] = [
    "sign: Tessera and p256 sign deterministically (RFC 6979, checked byte-equal); ring and aws-lc-rs draw a random nonce from the system generator per signature (their signatures are checked by Tessera's verification once); every contestant signs the same 64-byte message with SHA-256 inside",
    "verify: every contestant parses and validates the 65-byte uncompressed public key and the 64-byte (r || s) signature on every call",
];

/// `sign`: ECDSA P-256/SHA-256 signing of [`P256_MSG`]; otherwise verification with the key
/// and the signature parsed per call.
pub(crate) fn build_p256_ecdsa(sign: bool) -> Built {
    use aws_lc_rs::signature as aws;
    use ring::signature as rg;
    let tsk = tessera_p256::ecdsa::SigningKey::from_bytes(&P256_SECRET).unwrap();
    let pk = tsk.verifying_key().to_uncompressed();
    let expect = tsk.sign(&P256_MSG).to_bytes();
    let tvk = tessera_p256::ecdsa::VerifyingKey::from_sec1_bytes(&pk).unwrap();
    let ours_accepts = move |sig: &[u8]| {
        let sig = tessera_p256::ecdsa::Signature::from_slice(sig).unwrap();
        tvk.verify(&P256_MSG, &sig).is_ok()
    };
    let mut cs = Vec::new();
    for (i, imp) in tessera::p256_impls().into_iter().enumerate() {
        let be = imp.backend;
        let role = if i == 0 {
            Role::Reference
        } else {
            Role::Backend
        };
        let name = format!("tessera/{}", imp.name);
        if sign {
            let sk = tessera::p256_signing_key(be, &P256_SECRET);
            cs.push(checked(name, role, &expect, move || {
                sk.sign(black_box(&P256_MSG)).to_bytes()
            }));
        } else {
            cs.push(succeeds(name, role, move || {
                tessera::p256_verify(be, black_box(&pk), &P256_MSG, black_box(&expect))
            }));
        }
    }
    if sign {
        let rng = aws_lc_rs::rand::SystemRandom::new();
        let akp = aws::EcdsaKeyPair::from_private_key_and_public_key(
            &aws::ECDSA_P256_SHA256_FIXED_SIGNING,
            &P256_SECRET,
            &pk,
        )
        .unwrap();
        assert!(ours_accepts(akp.sign(&rng, &P256_MSG).unwrap().as_ref()));
        cs.push(Contestant::new("aws-lc-rs", Role::Peer, move || {
            black_box(akp.sign(&rng, black_box(&P256_MSG)).unwrap());
        }));
        let rrng = ring::rand::SystemRandom::new();
        let rkp = rg::EcdsaKeyPair::from_private_key_and_public_key(
            &rg::ECDSA_P256_SHA256_FIXED_SIGNING,
            &P256_SECRET,
            &pk,
            &rrng,
        )
        .unwrap();
        assert!(ours_accepts(rkp.sign(&rrng, &P256_MSG).unwrap().as_ref()));
        cs.push(Contestant::new("ring", Role::Peer, move || {
            black_box(rkp.sign(&rrng, black_box(&P256_MSG)).unwrap());
        }));
        let psk = p256::ecdsa::SigningKey::from_bytes(&P256_SECRET.into()).unwrap();
        cs.push(checked("p256", Role::Peer, &expect, move || {
            use p256::ecdsa::signature::Signer;
            let s: p256::ecdsa::Signature = psk.sign(black_box(&P256_MSG));
            s.to_bytes().into()
        }));
    } else {
        cs.push(succeeds("aws-lc-rs", Role::Peer, move || {
            aws::UnparsedPublicKey::new(&aws::ECDSA_P256_SHA256_FIXED, black_box(&pk))
                .verify(&P256_MSG, black_box(&expect))
                .is_ok()
        }));
        cs.push(succeeds("ring", Role::Peer, move || {
            rg::UnparsedPublicKey::new(&rg::ECDSA_P256_SHA256_FIXED, black_box(&pk))
                .verify(&P256_MSG, black_box(&expect))
                .is_ok()
        }));
        cs.push(succeeds("p256", Role::Peer, move || {
            use p256::ecdsa::signature::Verifier;
            let vk = p256::ecdsa::VerifyingKey::from_sec1_bytes(black_box(&pk)).unwrap();
            let sig = p256::ecdsa::Signature::from_slice(black_box(&expect)).unwrap();
            vk.verify(&P256_MSG, &sig).is_ok()
        }));
    }
    Built {
        contestants: cs,
        notes: P256_SIGN_NOTES.iter().map(|n| n.to_string()).collect(),
    }
}
