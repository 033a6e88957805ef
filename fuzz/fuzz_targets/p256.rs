//! P-256: SEC 1 public-key parsing, ECDH, ECDSA verification (arbitrary and tampered
//! signatures, fixed-size and DER) and the PKCS#8 / SEC 1 / SPKI decoders, each against the
//! RustCrypto `p256` crate (accept/reject and values must agree), and the scalar
//! multiplications (fixed-base, variable-base, the verification's double multiplication) on
//! every backend of this CPU against portable.
//!
//! Input layout: op byte, 32-byte scalar `d`, 32-byte scalar `e`, 64-byte signature, then the
//! bytes handed to the parser of the op (SEC 1 point, message, DER signature, DER key).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use p256::ecdsa::signature::Verifier as _;
use p256::ecdsa::signature::hazmat::PrehashVerifier as _;
use p256::pkcs8::{DecodePrivateKey as _, DecodePublicKey as _};
use tessera_fuzz::{backends, same};
use tessera_p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use tessera_p256::testing::{self, Backend};
use tessera_p256::{PublicKey, SecretKey};

#[derive(Arbitrary, Debug)]
struct Case {
    op: u8,
    d: [u8; 32],
    e: [u8; 32],
    sig: [u8; 64],
    data: Vec<u8>,
}

fn uncompressed(pk: &p256::PublicKey) -> Vec<u8> {
    use p256::elliptic_curve::sec1::ToSec1Point;
    pk.to_sec1_point(false).as_bytes().to_vec()
}

/// SEC 1 parsing on every backend, ECDH with `d`, and the multiplications by `d` and `e`.
fn point(c: &Case) {
    let theirs = p256::PublicKey::from_sec1_bytes(&c.data).ok();
    let their_sk = p256::SecretKey::from_slice(&c.d).ok();
    let mut portable = None;
    for be in backends::<Backend>() {
        let ours = PublicKey::from_sec1_bytes_with_backend(be, &c.data);
        same(be.name(), &ours.is_ok(), &theirs.is_some());
        let sk = SecretKey::from_bytes_with_backend(be, &c.d);
        same(be.name(), &sk.is_ok(), &their_sk.is_some());
        if let (Ok(pk), Some(tpk)) = (&ours, &theirs) {
            same(be.name(), &pk.to_uncompressed()[..], &uncompressed(tpk)[..]);
            if let (Ok(sk), Some(tsk)) = (&sk, &their_sk) {
                let want = p256::ecdh::diffie_hellman(tsk.to_nonzero_scalar(), tpk.as_affine());
                same(
                    be.name(),
                    &sk.diffie_hellman(pk).as_bytes()[..],
                    &want.raw_secret_bytes()[..],
                );
            }
        }
        let got = (
            testing::mul_base(be, &c.d),
            testing::mul(be, &c.d, &c.data),
            testing::mul_double_vartime(be, &c.d, &c.e, &c.data),
        );
        match &portable {
            None => portable = Some(got),
            Some(p) => same(be.name(), &got, p),
        }
    }
}

/// Verification of a signature (arbitrary, or a genuine one with one bit flipped or none)
/// on `data` under the key of `d`, fixed-size and prehash.
fn verify(c: &Case) {
    let Ok(sk) = SigningKey::from_bytes(&c.d) else {
        return;
    };
    let vk = sk.verifying_key();
    let tvk = p256::ecdsa::VerifyingKey::from_sec1_bytes(&vk.to_uncompressed()).unwrap();
    let mut bytes = if c.op & 0x80 == 0 {
        sk.sign(&c.data).to_bytes()
    } else {
        c.sig
    };
    // e[0]: the bit to flip (none for 0..64 of 256, so genuine signatures verify too).
    if c.e[0] >= 64 && c.op & 0x80 == 0 {
        bytes[c.e[0] as usize % 64] ^= 1 << (c.e[1] & 7);
    }
    let ours = Signature::from_bytes(&bytes);
    let theirs = p256::ecdsa::Signature::from_slice(&bytes);
    same("signature parse", &ours.is_ok(), &theirs.is_ok());
    let (Ok(s), Ok(t)) = (ours, theirs) else {
        return;
    };
    for be in backends::<Backend>() {
        let v = VerifyingKey::from_sec1_bytes_with_backend(be, &vk.to_uncompressed()).unwrap();
        same(
            be.name(),
            &v.verify(&c.data, &s).is_ok(),
            &tvk.verify(&c.data, &t).is_ok(),
        );
        if !c.data.is_empty() {
            same(
                be.name(),
                &v.verify_prehash(&c.data, &s).is_ok(),
                &tvk.verify_prehash(&c.data, &t).is_ok(),
            );
        }
    }
}

/// A DER signature on the message `e` under the key of `d`: parse and verify.
fn verify_der(c: &Case) {
    let Ok(sk) = SigningKey::from_bytes(&c.d) else {
        return;
    };
    let vk = sk.verifying_key();
    let tvk = p256::ecdsa::VerifyingKey::from_sec1_bytes(&vk.to_uncompressed()).unwrap();
    let ours = Signature::from_der(&c.data);
    let theirs = p256::ecdsa::DerSignature::try_from(&c.data[..])
        .ok()
        .and_then(|d| p256::ecdsa::Signature::try_from(d).ok());
    same("DER parse", &ours.is_ok(), &theirs.is_some());
    if let (Ok(s), Some(t)) = (&ours, &theirs) {
        same("DER value", &s.to_bytes()[..], &t.to_bytes()[..]);
        same(
            "DER verify",
            &vk.verify_der(&c.e, &c.data).is_ok(),
            &tvk.verify(&c.e, t).is_ok(),
        );
    }
}

/// PKCS#8, SEC 1 `ECPrivateKey` and SPKI documents.
fn decoders(c: &Case) {
    let ours = SecretKey::try_from_pkcs8_der(&c.data);
    let theirs = p256::SecretKey::from_pkcs8_der(&c.data);
    same("PKCS#8 accepts", &ours.is_ok(), &theirs.is_ok());
    if let (Ok(a), Ok(b)) = (&ours, &theirs) {
        same("PKCS#8 key", &a.to_bytes()[..], &b.to_bytes()[..]);
    }
    let ours = SecretKey::from_sec1_der(&c.data);
    let theirs = p256::SecretKey::from_sec1_der(&c.data);
    same("SEC 1 accepts", &ours.is_ok(), &theirs.is_ok());
    if let (Ok(a), Ok(b)) = (&ours, &theirs) {
        same("SEC 1 key", &a.to_bytes()[..], &b.to_bytes()[..]);
    }
    let ours = PublicKey::try_from_spki_der(&c.data);
    let theirs = p256::PublicKey::from_public_key_der(&c.data);
    same("SPKI accepts", &ours.is_ok(), &theirs.is_ok());
    if let (Ok(a), Ok(b)) = (&ours, &theirs) {
        same("SPKI key", &a.to_uncompressed()[..], &uncompressed(b)[..]);
    }
}

fuzz_target!(|c: Case| match c.op % 4 {
    0 => point(&c),
    1 => verify(&c),
    2 => verify_der(&c),
    _ => decoders(&c),
});
