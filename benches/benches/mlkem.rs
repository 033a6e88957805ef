//! ML-KEM-512/768/1024 keygen, encaps and decaps: Tessera (every available backend) against
//! aws-lc-rs (mlkem-native), libcrux-ml-kem (portable + AVX2 multiplexing) and RustCrypto
//! ml-kem.
//!
//! How each row is measured, where the peers' APIs differ:
//! - keygen: Tessera, libcrux and RustCrypto derive the key from a fixed 64-byte seed;
//!   aws-lc-rs has no seed API, so its row includes an OS RNG call (`generate`).
//! - encaps: `impl=tessera/<backend>` reuses a parsed key (A-hat kept); `.../from-bytes` parses
//!   ek (modulus check, ExpandA, H(ek)) on every call. libcrux takes the encoded key on each
//!   call (its row includes ExpandA); RustCrypto reuses its parsed key; aws-lc-rs reuses its
//!   key but draws m from the OS RNG on each call (Tessera's rows use a fixed m).
//! - decaps: reused keys for all; `.../from-bytes` parses the expanded dk on every call.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use ml_kem::{Decapsulate, KeyExport};
use std::hint::black_box;
use tessera_mlkem::testing::Backend;

macro_rules! mlkem_bench {
    ($fn:ident, $m:ident, $label:literal, $rc:ident, $lc:ident, $aws:ident) => {
        fn $fn(c: &mut Criterion) {
            use tessera_mlkem::$m::*;
            let seed = [0x42u8; 64];
            let msg = [0x17u8; 32];

            let mut g = c.benchmark_group(concat!("op=keygen,param=", $label));
            for be in Backend::all_available() {
                g.bench_function(format!("impl=tessera/{}", be.name()), |b| {
                    b.iter(|| DecapsulationKey::from_seed_with_backend(be, black_box(&seed)))
                });
            }
            g.bench_function("impl=aws-lc-rs", |b| {
                b.iter(|| {
                    aws_lc_rs::kem::DecapsulationKey::generate(&aws_lc_rs::kem::$aws).unwrap()
                })
            });
            g.bench_function("impl=libcrux", |b| {
                b.iter(|| libcrux_ml_kem::$lc::generate_key_pair(black_box(seed)))
            });
            g.bench_function("impl=ml-kem", |b| {
                b.iter(|| ml_kem::$rc::DecapsulationKey::from_seed(black_box(seed).into()))
            });
            g.finish();

            let dk0 = DecapsulationKey::from_seed(&seed);
            let ek_bytes = dk0.encapsulation_key().to_bytes();
            let dk_bytes = dk0.to_expanded_bytes();
            let lc = libcrux_ml_kem::$lc::generate_key_pair(seed);
            let rc = ml_kem::$rc::DecapsulationKey::from_seed(seed.into());
            let rc_ek = rc.encapsulation_key().clone();
            let aws_dk = aws_lc_rs::kem::DecapsulationKey::generate(&aws_lc_rs::kem::$aws).unwrap();
            let aws_ek = aws_dk.encapsulation_key().unwrap();
            assert_eq!(rc_ek.to_bytes()[..], ek_bytes[..]);

            let mut g = c.benchmark_group(concat!("op=encaps,param=", $label));
            for be in Backend::all_available() {
                let ek = EncapsulationKey::from_bytes_with_backend(be, &ek_bytes).unwrap();
                g.bench_function(format!("impl=tessera/{}", be.name()), |b| {
                    b.iter(|| ek.encapsulate_deterministic(black_box(&msg)))
                });
                g.bench_function(format!("impl=tessera/{}/from-bytes", be.name()), |b| {
                    b.iter(|| {
                        EncapsulationKey::from_bytes_with_backend(be, black_box(&ek_bytes))
                            .unwrap()
                            .encapsulate_deterministic(black_box(&msg))
                    })
                });
            }
            g.bench_function("impl=aws-lc-rs", |b| {
                b.iter(|| aws_ek.encapsulate().unwrap())
            });
            g.bench_function("impl=libcrux", |b| {
                b.iter(|| libcrux_ml_kem::$lc::encapsulate(lc.public_key(), black_box(msg)))
            });
            g.bench_function("impl=ml-kem", |b| {
                b.iter(|| rc_ek.encapsulate_deterministic(&black_box(msg).into()))
            });
            g.finish();

            let (ct, _) = dk0.encapsulation_key().encapsulate_deterministic(&msg);
            let (lc_ct, _) = libcrux_ml_kem::$lc::encapsulate(lc.public_key(), msg);
            let rc_ct = ml_kem::array::Array::try_from(&ct.as_bytes()[..]).unwrap();
            let (aws_ct, _) = aws_ek.encapsulate().unwrap();
            let aws_ct = aws_ct.as_ref().to_vec();
            let mut g = c.benchmark_group(concat!("op=decaps,param=", $label));
            for be in Backend::all_available() {
                let dk = DecapsulationKey::from_seed_with_backend(be, &seed);
                g.bench_function(format!("impl=tessera/{}", be.name()), |b| {
                    b.iter(|| dk.decapsulate(black_box(&ct)))
                });
                g.bench_function(format!("impl=tessera/{}/from-bytes", be.name()), |b| {
                    b.iter(|| {
                        DecapsulationKey::from_expanded_bytes_with_backend(be, black_box(&dk_bytes))
                            .unwrap()
                            .decapsulate(black_box(&ct))
                    })
                });
            }
            g.bench_function("impl=aws-lc-rs", |b| {
                b.iter(|| aws_dk.decapsulate(black_box(&aws_ct[..]).into()).unwrap())
            });
            g.bench_function("impl=libcrux", |b| {
                b.iter(|| libcrux_ml_kem::$lc::decapsulate(lc.private_key(), black_box(&lc_ct)))
            });
            g.bench_function("impl=ml-kem", |b| {
                b.iter(|| rc.decapsulate(black_box(&rc_ct)))
            });
            g.finish();
        }
    };
}

mlkem_bench!(
    mlkem512, ml_kem_512, "mlkem512", ml_kem_512, mlkem512, ML_KEM_512
);
mlkem_bench!(
    mlkem768, ml_kem_768, "mlkem768", ml_kem_768, mlkem768, ML_KEM_768
);
mlkem_bench!(
    mlkem1024,
    ml_kem_1024,
    "mlkem1024",
    ml_kem_1024,
    mlkem1024,
    ML_KEM_1024
);

criterion_group!(benches, mlkem512, mlkem768, mlkem1024);
criterion_main!(benches);
