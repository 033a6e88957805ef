//! ChaCha20-Poly1305 seal/open: Tessera (every available backend) against ring, aws-lc-rs and
//! RustCrypto chacha20poly1305. 96-bit nonces, 13 bytes of AAD (a TLS record header).
#![allow(missing_docs)]

use chacha20poly1305::aead::KeyInit;
use criterion::{Criterion, criterion_group, criterion_main};
use tessera_benches::aead::AeadGroups;
use tessera_chacha20poly1305::ChaCha20Poly1305;
use tessera_chacha20poly1305::testing::Backend;

/// A TLS 1.3 record header's worth of AAD (the nonce is [`tessera_benches::NONCE`]).
const AAD: [u8; 13] = [0x17, 3, 3, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];

fn bench(c: &mut Criterion) {
    let key: [u8; 32] = core::array::from_fn(|i| i as u8 * 3 + 1);
    AeadGroups {
        op: "chacha20poly1305",
        key: &key,
        aad: &AAD,
        ring: &ring::aead::CHACHA20_POLY1305,
        aws: &aws_lc_rs::aead::CHACHA20_POLY1305,
        rust_crypto: "chacha20poly1305",
    }
    .bench(
        c,
        || {
            Backend::all_available()
                .map(|be| (be.name(), ChaCha20Poly1305::new_with_backend(be, &key)))
                .collect()
        },
        &chacha20poly1305::ChaCha20Poly1305::new(&key.into()),
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
