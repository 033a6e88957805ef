//! X25519: the scalar multiplication and the fixed-base one on every backend of this CPU
//! against portable and x25519-dalek (clamping, non-canonical u, low-order points), the
//! all-zero check of `diffie_hellman` against dalek's `was_contributory`, and the slice,
//! PKCS#8 and SPKI decoders on arbitrary bytes (an error, or a key that encodes back).
//!
//! Input layout: 32 bytes scalar, 32 bytes u, then the bytes handed to the decoders.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tessera_fuzz::{backends, same};
use tessera_x25519::pkcs8_traits::{
    DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey,
};
use tessera_x25519::testing::{Backend, x25519_base_with_backend, x25519_with_backend};
use tessera_x25519::{PublicKey, StaticSecret};

#[derive(Arbitrary, Debug)]
struct Case {
    k: [u8; 32],
    u: [u8; 32],
    der: Vec<u8>,
}

fuzz_target!(|c: Case| {
    let want = x25519_dalek::x25519(c.k, c.u);
    let want_base = x25519_dalek::x25519(c.k, x25519_dalek::X25519_BASEPOINT_BYTES);
    for be in backends::<Backend>() {
        same(be.name(), &x25519_with_backend(be, c.k, c.u), &want);
        same(be.name(), &x25519_base_with_backend(be, c.k), &want_base);
        let ours = StaticSecret::new_with_backend(be, c.k).diffie_hellman(&PublicKey::from(c.u));
        let theirs = x25519_dalek::StaticSecret::from(c.k)
            .diffie_hellman(&x25519_dalek::PublicKey::from(c.u));
        match ours {
            Ok(s) => {
                assert!(
                    theirs.was_contributory(),
                    "{}: all-zero result accepted",
                    be.name()
                );
                same(be.name(), s.as_bytes(), theirs.as_bytes());
            }
            Err(_) => assert!(
                !theirs.was_contributory(),
                "{}: refused a contributory result",
                be.name()
            ),
        }
    }
    same(
        "public key",
        PublicKey::from(&StaticSecret::from(c.k)).as_bytes(),
        &want_base,
    );

    // Decoders: a slice key exactly when 32 bytes; PKCS#8 / SPKI keys that encode back to
    // documents that decode to the same key.
    same(
        "slice",
        &PublicKey::try_from(&c.der[..]).is_ok(),
        &(c.der.len() == 32),
    );
    if let Ok(sk) = StaticSecret::from_pkcs8_der(&c.der) {
        let doc = sk.to_pkcs8_der().expect("encodes");
        let again = StaticSecret::from_pkcs8_der(doc.as_bytes()).expect("decodes again");
        same("pkcs8 round trip", again.as_bytes(), sk.as_bytes());
    }
    if let Ok(pk) = PublicKey::from_public_key_der(&c.der) {
        let doc = pk.to_public_key_der().expect("encodes");
        same(
            "spki round trip",
            &PublicKey::from_public_key_der(doc.as_bytes()).unwrap(),
            &pk,
        );
    }
});
