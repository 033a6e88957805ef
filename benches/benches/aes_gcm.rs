//! AES-128-GCM and AES-256-GCM seal/open: Tessera (every available backend) against ring,
//! aws-lc-rs and RustCrypto aes-gcm. 96-bit nonces, 13 bytes of AAD (a TLS record header).
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use tessera_aes_gcm::testing::Backend;
use tessera_benches::aead::AeadGroups;
use tessera_benches::{AAD, RustCryptoGcm, tessera_gcm};

fn bench_aes_gcm(c: &mut Criterion, bits: usize) {
    let key: Vec<u8> = (0..bits / 8).map(|i| i as u8 * 3 + 1).collect();
    let (ring, aws) = if bits == 128 {
        (&ring::aead::AES_128_GCM, &aws_lc_rs::aead::AES_128_GCM)
    } else {
        (&ring::aead::AES_256_GCM, &aws_lc_rs::aead::AES_256_GCM)
    };
    AeadGroups {
        op: &format!("aes{bits}-gcm"),
        key: &key,
        aad: &AAD,
        ring,
        aws,
        rust_crypto: "aes-gcm",
    }
    .bench(
        c,
        || {
            Backend::all_available()
                .map(|be| (be.name(), tessera_gcm(&key, be)))
                .collect()
        },
        &RustCryptoGcm::new(&key),
    );
}

fn aes128_gcm(c: &mut Criterion) {
    bench_aes_gcm(c, 128);
}

fn aes256_gcm(c: &mut Criterion) {
    bench_aes_gcm(c, 256);
}

criterion_group!(benches, aes128_gcm, aes256_gcm);
criterion_main!(benches);
