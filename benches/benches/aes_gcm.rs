//! AES-128-GCM and AES-256-GCM seal/open: Tessera (every available backend) against ring,
//! aws-lc-rs and RustCrypto aes-gcm. 96-bit nonces, 13 bytes of AAD (a TLS record header).
#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tessera_aes_gcm::testing::Backend;
use tessera_benches::{AAD, NONCE, RustCryptoGcm, tessera_gcm};
use tessera_testkit::aligned;

const SIZES: [(usize, &str); 4] = [
    (64, "64B"),
    (1024, "1KiB"),
    (16384, "16KiB"),
    (65536, "64KiB"),
];

fn bench_aes_gcm(c: &mut Criterion, bits: usize) {
    let key: Vec<u8> = (0..bits / 8).map(|i| i as u8 * 3 + 1).collect();
    let ring_alg = if bits == 128 {
        &ring::aead::AES_128_GCM
    } else {
        &ring::aead::AES_256_GCM
    };
    let ring_key =
        ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(ring_alg, &key).unwrap());
    let aws_alg = if bits == 128 {
        &aws_lc_rs::aead::AES_128_GCM
    } else {
        &aws_lc_rs::aead::AES_256_GCM
    };
    let aws_key =
        aws_lc_rs::aead::LessSafeKey::new(aws_lc_rs::aead::UnboundKey::new(aws_alg, &key).unwrap());
    let rc = RustCryptoGcm::new(&key);

    for (size, label) in SIZES {
        let (mut v, off) = aligned(size + 16);
        // Seal: in place, repeatedly (the buffer's content does not matter).
        let mut g = c.benchmark_group(format!("op=aes{bits}-gcm-seal,size={label}"));
        g.throughput(Throughput::Bytes(size as u64));
        g.warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .sample_size(20);
        for be in Backend::all_available() {
            let t = tessera_gcm(&key, be);
            g.bench_function(format!("impl=tessera/{}", be.name()), |b| {
                let buf = &mut v[off..off + size];
                b.iter(|| {
                    black_box(
                        t.encrypt_in_place_detached(&NONCE, &AAD, black_box(buf))
                            .unwrap(),
                    )
                })
            });
        }
        g.bench_function("impl=ring", |b| {
            let buf = &mut v[off..off + size];
            b.iter(|| {
                let n = ring::aead::Nonce::assume_unique_for_key(NONCE);
                black_box(
                    ring_key
                        .seal_in_place_separate_tag(n, ring::aead::Aad::from(AAD), black_box(buf))
                        .unwrap(),
                )
            })
        });
        g.bench_function("impl=aws-lc-rs", |b| {
            let buf = &mut v[off..off + size];
            b.iter(|| {
                let n = aws_lc_rs::aead::Nonce::assume_unique_for_key(NONCE);
                black_box(
                    aws_key
                        .seal_in_place_separate_tag(
                            n,
                            aws_lc_rs::aead::Aad::from(AAD),
                            black_box(buf),
                        )
                        .unwrap(),
                )
            })
        });
        g.bench_function("impl=aes-gcm", |b| {
            let buf = &mut v[off..off + size];
            b.iter(|| black_box(rc.seal(black_box(buf))))
        });
        g.finish();

        // Open: in place on the same reused, 64-byte aligned (hot) buffer as seal, with no
        // set-up per iteration. With one nonce the keystream is fixed, so opening `C` (tag
        // `tag_c`) leaves `P`, and opening `P` as a ciphertext (tag `tag_p`, the tag of
        // sealing `C`) leaves `C` again: each iteration opens whatever the buffer holds, with
        // the matching tag. Every iteration is the same work (one full, successful open).
        let mut g = c.benchmark_group(format!("op=aes{bits}-gcm-open,size={label}"));
        g.throughput(Throughput::Bytes(size as u64));
        g.warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .sample_size(20);
        let pt: Vec<u8> = (0..size).map(|i| i as u8).collect();
        let mut ct = pt.clone();
        let tag_c = rc.seal(&mut ct);
        let mut again = ct.clone();
        let tag_p = rc.seal(&mut again);
        assert_eq!(again, pt);
        let tags = [tag_c, tag_p];
        // Puts `C` in the buffer; returns the state index (0: holds `C`).
        let reset = |v: &mut [u8]| {
            v[off..off + size].copy_from_slice(&ct);
            0usize
        };
        for be in Backend::all_available() {
            let t = tessera_gcm(&key, be);
            g.bench_function(format!("impl=tessera/{}", be.name()), |b| {
                let mut s = reset(&mut v);
                let buf = &mut v[off..off + size];
                b.iter(|| {
                    t.decrypt_in_place_detached(&NONCE, &AAD, black_box(&mut *buf), &tags[s])
                        .unwrap();
                    s ^= 1;
                })
            });
        }
        g.bench_function("impl=ring", |b| {
            let mut s = reset(&mut v);
            let buf = &mut v[off..off + size + 16];
            b.iter(|| {
                // ring reads the tag from the end of the buffer.
                buf[size..].copy_from_slice(&tags[s]);
                let n = ring::aead::Nonce::assume_unique_for_key(NONCE);
                ring_key
                    .open_in_place(n, ring::aead::Aad::from(AAD), black_box(&mut *buf))
                    .unwrap();
                s ^= 1;
            })
        });
        g.bench_function("impl=aws-lc-rs", |b| {
            let mut s = reset(&mut v);
            let buf = &mut v[off..off + size + 16];
            b.iter(|| {
                buf[size..].copy_from_slice(&tags[s]);
                let n = aws_lc_rs::aead::Nonce::assume_unique_for_key(NONCE);
                aws_key
                    .open_in_place(n, aws_lc_rs::aead::Aad::from(AAD), black_box(&mut *buf))
                    .unwrap();
                s ^= 1;
            })
        });
        g.bench_function("impl=aes-gcm", |b| {
            let mut s = reset(&mut v);
            let buf = &mut v[off..off + size];
            b.iter(|| {
                rc.open(black_box(&mut *buf), &tags[s]);
                s ^= 1;
            })
        });
        g.finish();
    }
}

fn aes128_gcm(c: &mut Criterion) {
    bench_aes_gcm(c, 128);
}

fn aes256_gcm(c: &mut Criterion) {
    bench_aes_gcm(c, 256);
}

criterion_group!(benches, aes128_gcm, aes256_gcm);
criterion_main!(benches);
