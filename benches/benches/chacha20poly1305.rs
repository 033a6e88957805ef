//! ChaCha20-Poly1305 seal/open: Tessera (every available backend) against ring, aws-lc-rs and
//! RustCrypto chacha20poly1305. 96-bit nonces, 13 bytes of AAD (a TLS record header).
#![allow(missing_docs)]

use chacha20poly1305::aead::{AeadInPlace, KeyInit};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tessera_chacha20poly1305::ChaCha20Poly1305;
use tessera_chacha20poly1305::testing::Backend;
use tessera_testkit::aligned;

const SIZES: [(usize, &str); 4] = [
    (64, "64B"),
    (1024, "1KiB"),
    (16384, "16KiB"),
    (65536, "64KiB"),
];
const NONCE: [u8; 12] = [7; 12];
const AAD: [u8; 13] = [0x17, 3, 3, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];

fn bench(c: &mut Criterion) {
    let key: [u8; 32] = core::array::from_fn(|i| i as u8 * 3 + 1);
    let ring_key = ring::aead::LessSafeKey::new(
        ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, &key).unwrap(),
    );
    let aws_key = aws_lc_rs::aead::LessSafeKey::new(
        aws_lc_rs::aead::UnboundKey::new(&aws_lc_rs::aead::CHACHA20_POLY1305, &key).unwrap(),
    );
    let rc = chacha20poly1305::ChaCha20Poly1305::new(&key.into());
    let rc_seal = |buf: &mut [u8]| -> [u8; 16] {
        rc.encrypt_in_place_detached(&NONCE.into(), &AAD, buf)
            .unwrap()
            .into()
    };

    for (size, label) in SIZES {
        let (mut v, off) = aligned(size + 16);
        let mut g = c.benchmark_group(format!("op=chacha20poly1305-seal,size={label}"));
        g.throughput(Throughput::Bytes(size as u64));
        g.warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .sample_size(20);
        for be in Backend::all_available() {
            let t = ChaCha20Poly1305::new_with_backend(be, &key);
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
        g.bench_function("impl=chacha20poly1305", |b| {
            let buf = &mut v[off..off + size];
            b.iter(|| black_box(rc_seal(black_box(buf))))
        });
        g.finish();

        // Open: as in aes_gcm.rs, the buffer alternates between `C` and `P` (one nonce, so the
        // keystream is fixed), each iteration one full, successful open with the matching tag.
        let mut g = c.benchmark_group(format!("op=chacha20poly1305-open,size={label}"));
        g.throughput(Throughput::Bytes(size as u64));
        g.warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .sample_size(20);
        let pt: Vec<u8> = (0..size).map(|i| i as u8).collect();
        let mut ct = pt.clone();
        let tag_c = rc_seal(&mut ct);
        let mut again = ct.clone();
        let tag_p = rc_seal(&mut again);
        assert_eq!(again, pt);
        let tags = [tag_c, tag_p];
        let reset = |v: &mut [u8]| {
            v[off..off + size].copy_from_slice(&ct);
            0usize
        };
        for be in Backend::all_available() {
            let t = ChaCha20Poly1305::new_with_backend(be, &key);
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
        g.bench_function("impl=chacha20poly1305", |b| {
            let mut s = reset(&mut v);
            let buf = &mut v[off..off + size];
            b.iter(|| {
                rc.decrypt_in_place_detached(
                    &NONCE.into(),
                    &AAD,
                    black_box(&mut *buf),
                    &tags[s].into(),
                )
                .unwrap();
                s ^= 1;
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
