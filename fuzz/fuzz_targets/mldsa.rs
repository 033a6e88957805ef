//! ML-DSA-44/65/87: verification of arbitrary and tampered signatures under genuine and
//! tampered public keys against RustCrypto `ml-dsa` (accept/reject must agree, so must the
//! parsing of the hint encoding), on every backend of this CPU; expanded signing-key parsing
//! and signing (every backend the same signature or the same error); the PKCS#8 / SPKI
//! decoders (an error, or a key that signs and verifies).
//!
//! Input layout: op byte, parameter-set byte, 32-byte seed, context length byte, message
//! length byte, then the message, the context and the bytes XORed over the genuine encoding
//! of the op (op bit 7 clear) or taken as they are (set).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tessera_fuzz::{backends, same, tampered as input};
use tessera_mldsa::pkcs8::{DecodePrivateKey as _, spki::DecodePublicKey as _};
use tessera_mldsa::testing::Backend;

#[derive(Arbitrary, Debug)]
struct Case {
    op: u8,
    set: u8,
    seed: [u8; 32],
    ctx_len: u8,
    msg_len: u8,
    data: Vec<u8>,
}

macro_rules! set {
    ($c:expr, $ours:ident, $theirs:ident) => {{
        use tessera_mldsa::$ours::{Signature, SigningKey, VerifyingKey};
        let c = $c;
        let (msg, rest) = c.data.split_at((c.msg_len as usize).min(c.data.len()));
        let (ctx, rest) = rest.split_at((c.ctx_len as usize).min(rest.len()));
        let sk = SigningKey::from_seed(&c.seed);
        let genuine = sk
            .sign_deterministic(msg, ctx)
            .expect("context of at most 255 bytes");
        let tsk = ml_dsa::SigningKey::<ml_dsa::$theirs>::from_seed(&c.seed.into());
        let tvk = tsk.expanded_key().verifying_key();
        same(
            "verifying key",
            &tvk.encode()[..],
            &sk.verifying_key().to_bytes()[..],
        );
        // RustCrypto's accept/reject of `sig` under the encoded key `pk` (None: not decodable).
        let theirs = |pk: &[u8], sig: &[u8]| -> bool {
            let Ok(pk) = ml_dsa::EncodedVerifyingKey::<ml_dsa::$theirs>::try_from(pk) else {
                return false;
            };
            let vk = ml_dsa::VerifyingKey::<ml_dsa::$theirs>::decode(&pk);
            let Ok(sig) = ml_dsa::EncodedSignature::<ml_dsa::$theirs>::try_from(sig) else {
                return false;
            };
            ml_dsa::Signature::<ml_dsa::$theirs>::decode(&sig)
                .is_some_and(|s| vk.verify_with_context(msg, ctx, &s))
        };
        match c.op % 4 {
            // Signature parsing and verification under the genuine key, or a genuine
            // signature under a tampered key.
            k @ (0 | 1) => {
                let pk_genuine = sk.verifying_key().to_bytes();
                let (pk, sig) = if k == 0 {
                    (pk_genuine.to_vec(), input(c.op, genuine.as_bytes(), rest))
                } else {
                    (input(c.op, &pk_genuine, rest), genuine.as_bytes().to_vec())
                };
                let want = theirs(&pk, &sig);
                for be in backends::<Backend>() {
                    let ours = VerifyingKey::from_bytes_with_backend(be, &pk).is_ok_and(|vk| {
                        Signature::from_bytes(&sig).is_ok_and(|s| vk.verify(msg, ctx, &s).is_ok())
                    });
                    same(be.name(), &ours, &want);
                }
            }
            // Expanded signing keys, tampered or arbitrary: every backend the same outcome.
            2 => {
                let bytes = input(c.op, &sk.to_expanded_bytes(), rest);
                let mut first = None;
                for be in backends::<Backend>() {
                    let got = SigningKey::from_expanded_bytes_with_backend(be, &bytes).map(|k| {
                        let s = k
                            .sign_deterministic(msg, ctx)
                            .map(|s| s.as_bytes().to_vec());
                        (k.verifying_key().to_bytes().to_vec(), s)
                    });
                    match &first {
                        None => first = Some(got),
                        Some(f) => same(be.name(), &got, f),
                    }
                }
            }
            // PKCS#8 and SPKI documents.
            _ => {
                type RcSk = tessera_mldsa::ml_dsa::SigningKey<tessera_mldsa::generic::$theirs>;
                type RcVk = tessera_mldsa::ml_dsa::VerifyingKey<tessera_mldsa::generic::$theirs>;
                use tessera_mldsa::signature::{Keypair as _, Signer as _, Verifier as _};
                if let Ok(k) = RcSk::from_pkcs8_der(rest) {
                    let s = k.sign(msg);
                    assert!(k.verifying_key().verify(msg, &s).is_ok(), "pkcs8 key");
                }
                if let Ok(vk) = RcVk::from_public_key_der(rest) {
                    use tessera_mldsa::pkcs8::spki::EncodePublicKey as _;
                    let doc = vk.to_public_key_der().expect("encodes");
                    same(
                        "spki",
                        &RcVk::from_public_key_der(doc.as_bytes()).unwrap(),
                        &vk,
                    );
                }
            }
        }
    }};
}

fuzz_target!(|c: Case| match c.set % 3 {
    0 => set!(&c, ml_dsa_44, MlDsa44),
    1 => set!(&c, ml_dsa_65, MlDsa65),
    _ => set!(&c, ml_dsa_87, MlDsa87),
});
