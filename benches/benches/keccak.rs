//! SHA3-256 and SHAKE256 x4: Tessera against aws-lc-rs, RustCrypto sha3 and libcrux-sha3.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_benches::libcrux_x4_avx2;
use tessera_keccak::testing::{X1Backend, X4Backend};
use tessera_testkit::aligned;

fn sha3_256(c: &mut Criterion) {
    for (size, label) in [(64usize, "64B"), (4096, "4KiB"), (1 << 20, "1MiB")] {
        let (buf, off) = aligned(size);
        let data = &buf[off..off + size];
        let mut g = c.benchmark_group(format!("op=sha3-256,size={label}"));
        g.throughput(Throughput::Bytes(size as u64));
        // The one-shot on the detected backend, then every other single-state backend.
        let name = format!(
            "impl=tessera/{}",
            tessera_keccak::testing::x1_backend_name()
        );
        g.bench_function(&name, |b| {
            b.iter(|| tessera_keccak::sha3_256(black_box(data)))
        });
        for be in X1Backend::all_available() {
            if be.name() == tessera_keccak::testing::x1_backend_name() {
                continue;
            }
            g.bench_function(format!("impl=tessera/{}", be.name()), |b| {
                b.iter(|| {
                    let mut h = tessera_keccak::Sha3_256::new_with_backend(be);
                    h.update(black_box(data));
                    h.finalize()
                })
            });
        }
        g.bench_function("impl=aws-lc-rs", |b| {
            b.iter(|| aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA3_256, black_box(data)))
        });
        g.bench_function("impl=sha3", |b| {
            use sha3::Digest;
            b.iter(|| sha3::Sha3_256::digest(black_box(data)))
        });
        g.bench_function("impl=libcrux-sha3", |b| {
            b.iter(|| libcrux_sha3::sha256(black_box(data)))
        });
        g.finish();
    }
}

fn shake256_x4(c: &mut Criterion) {
    let size = 4096;
    let bufs: Vec<(Vec<u8>, usize)> = (0..4).map(|_| aligned(size)).collect();
    let ins: Vec<&[u8]> = bufs.iter().map(|(b, o)| &b[*o..*o + size]).collect();
    let mut g = c.benchmark_group("op=shake256-x4,size=4KiB");
    g.throughput(Throughput::Bytes(4 * size as u64));
    for be in X4Backend::all_available() {
        g.bench_function(
            BenchmarkId::from_parameter(format!("impl=tessera/{}", be.name())),
            |b| {
                let mut o = [[0u8; 136]; 4];
                b.iter(|| {
                    let mut x = tessera_keccak::Shake256x4::new_with_backend(
                        be,
                        [ins[0], ins[1], ins[2], ins[3]],
                    )
                    .unwrap();
                    let [o0, o1, o2, o3] = &mut o;
                    x.squeeze_blocks([o0, o1, o2, o3]).unwrap();
                    black_box(&o);
                })
            },
        );
    }
    if std::arch::is_x86_feature_detected!("avx2") {
        g.bench_function("impl=libcrux-sha3", |b| {
            let mut o = [[0u8; 136]; 4];
            b.iter(|| {
                let [o0, o1, o2, o3] = &mut o;
                // SAFETY: AVX2 was detected above.
                unsafe { libcrux_x4_avx2(ins[0], ins[1], ins[2], ins[3], o0, o1, o2, o3) };
                black_box(&o);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, sha3_256, shake256_x4);
criterion_main!(benches);
