//! X25519: variable-base Diffie-Hellman (`op=x25519-dh`: one scalar multiplication of a
//! peer's public key, as a key agreement computes it) and base-point key generation
//! (`op=x25519-base`: the public key of a secret). Tessera on every backend this CPU has
//! (the detected one through the public API) against aws-lc-rs, ring and x25519-dalek.
//!
//! Each peer is timed through its public API as an HPKE implementation calls it: the peer's
//! public key arrives as 32 bytes. aws-lc-rs parses it into its key object on every
//! agreement (`agree` with an `UnparsedPublicKey`), and ring's only X25519 private key is
//! ephemeral, so its key agreement consumes a key generated outside the timed part
//! (`iter_batched`); its key generation draws the seed from `SystemRandom` inside.
#![allow(missing_docs)]

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_x25519::testing::Backend;
use tessera_x25519::{PublicKey, StaticSecret};

/// A fixed secret and a peer public key (not low order).
const SECRET: [u8; 32] = [
    0x77, 0x07, 0x6d, 0x0a, 0x73, 0x18, 0xa5, 0x7d, 0x3c, 0x16, 0xc1, 0x72, 0x51, 0xb2, 0x66, 0x45,
    0xdf, 0x4c, 0x2f, 0x87, 0xeb, 0xc0, 0x99, 0x2a, 0xb1, 0x77, 0xfb, 0xa5, 0x1d, 0xb9, 0x2c, 0x2a,
];

fn peer_public() -> [u8; 32] {
    tessera_x25519::x25519_base([0x5d; 32])
}

fn dh(c: &mut Criterion) {
    let peer = peer_public();
    let mut g = c.benchmark_group("op=x25519-dh");
    let best = Backend::detect();
    for be in Backend::all_available() {
        let name = format!("impl=tessera/{}", be.name());
        if be == best {
            // The public API, as users call it (backend chosen when the secret is made).
            let sk = StaticSecret::from(SECRET);
            let pk = PublicKey::from(peer);
            g.bench_function(&name, |b| {
                b.iter(|| sk.diffie_hellman(black_box(&pk)).unwrap().to_bytes())
            });
        } else {
            let sk = StaticSecret::new_with_backend(be, SECRET);
            let pk = PublicKey::from(peer);
            g.bench_function(&name, |b| {
                b.iter(|| sk.diffie_hellman(black_box(&pk)).unwrap().to_bytes())
            });
        }
    }
    {
        use aws_lc_rs::agreement::{PrivateKey, UnparsedPublicKey, X25519, agree};
        let sk = PrivateKey::from_private_key(&X25519, &SECRET).unwrap();
        g.bench_function("impl=aws-lc-rs", |b| {
            b.iter(|| {
                agree(
                    &sk,
                    UnparsedPublicKey::new(&X25519, black_box(&peer)),
                    (),
                    |s| Ok::<[u8; 32], ()>(s.try_into().unwrap()),
                )
                .unwrap()
            })
        });
    }
    {
        use ring::agreement::{EphemeralPrivateKey, UnparsedPublicKey, X25519, agree_ephemeral};
        let rng = ring::rand::SystemRandom::new();
        g.bench_function("impl=ring", |b| {
            b.iter_batched(
                || EphemeralPrivateKey::generate(&X25519, &rng).unwrap(),
                |sk| {
                    agree_ephemeral(
                        sk,
                        &UnparsedPublicKey::new(&X25519, black_box(&peer)),
                        |s| <[u8; 32]>::try_from(s).unwrap(),
                    )
                    .unwrap()
                },
                BatchSize::SmallInput,
            )
        });
    }
    {
        let sk = x25519_dalek::StaticSecret::from(SECRET);
        let pk = x25519_dalek::PublicKey::from(peer);
        g.bench_function("impl=x25519-dalek", |b| {
            b.iter(|| sk.diffie_hellman(black_box(&pk)).to_bytes())
        });
    }
    g.finish();
}

fn base(c: &mut Criterion) {
    let mut g = c.benchmark_group("op=x25519-base");
    let best = Backend::detect();
    for be in Backend::all_available() {
        let name = format!("impl=tessera/{}", be.name());
        if be == best {
            g.bench_function(&name, |b| {
                b.iter(|| PublicKey::from(&StaticSecret::from(black_box(SECRET))))
            });
        } else {
            g.bench_function(&name, |b| {
                b.iter(|| PublicKey::from(&StaticSecret::new_with_backend(be, black_box(SECRET))))
            });
        }
    }
    {
        use aws_lc_rs::agreement::{PrivateKey, X25519};
        g.bench_function("impl=aws-lc-rs", |b| {
            b.iter(|| {
                PrivateKey::from_private_key(&X25519, black_box(&SECRET))
                    .unwrap()
                    .compute_public_key()
                    .unwrap()
            })
        });
    }
    {
        use ring::agreement::{EphemeralPrivateKey, X25519};
        let rng = ring::rand::SystemRandom::new();
        g.bench_function("impl=ring", |b| {
            b.iter(|| {
                EphemeralPrivateKey::generate(&X25519, &rng)
                    .unwrap()
                    .compute_public_key()
                    .unwrap()
            })
        });
    }
    g.bench_function("impl=x25519-dalek", |b| {
        b.iter(|| {
            x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(black_box(SECRET)))
        })
    });
    g.finish();
}

criterion_group!(benches, dh, base);
criterion_main!(benches);
