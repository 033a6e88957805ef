//! The X25519 rows: key generation and Diffie-Hellman.

use crate::*;

// --- X25519 ---

/// The secret every X25519 contestant uses: ring's only X25519 private key is ephemeral and
/// drawn from a random source, so ring gets a source that returns this byte, repeated.
pub(crate) const X25519_SECRET_BYTE: u8 = 0x5a;
pub(crate) const X25519_SECRET: [u8; 32] = [X25519_SECRET_BYTE; 32];

/// The peer's public key of the DH rows (an ordinary point, not low order).
pub(crate) fn x25519_peer() -> [u8; 32] {
    let mut s = [0u8; 32];
    SplitMix64(0x25519).fill(&mut s);
    tessera_x25519::x25519_base(s)
}

#[allow(deprecated)] // ring's fixed random source lives in its (deprecated) `test` module
pub(crate) fn ring_fixed_rng() -> ring::test::rand::FixedByteRandom {
    ring::test::rand::FixedByteRandom {
        byte: X25519_SECRET_BYTE,
    }
}

/// A key-agreement contestant: `f` is checked against `expect` once, then timed.
pub(crate) fn kex(
    name: impl Into<String>,
    role: Role,
    expect: &[u8; 32],
    f: impl Fn() -> [u8; 32] + 'static,
) -> Contestant {
    checked(name, role, expect, f)
}

pub(crate) const X25519_NOTES: [&str; 2] = [
    "ring's X25519 private keys are ephemeral only: each iteration makes one from a fixed-byte random source (no OS call), then agrees or computes its public key",
    "aws-lc-rs parses the peer's 32-byte public key on every agreement (`agree` with an `UnparsedPublicKey`), as an HPKE implementation calls it; Tessera and x25519-dalek take a `PublicKey` built once",
];

/// `base`: key generation (the public key of a secret, fixed-base); otherwise one
/// variable-base Diffie-Hellman with a fixed peer key. `portable`: Tessera's portable backend
/// against x25519-dalek only (both portable Rust, 64-bit limbs).
pub(crate) fn build_x25519(base: bool, portable: bool) -> Built {
    let peer = x25519_peer();
    let tpk = tessera_x25519::PublicKey::from(peer);
    let expect = if base {
        tessera::x25519_keygen(None, X25519_SECRET)
    } else {
        tessera::x25519_dh(&tessera::x25519_secret(None, X25519_SECRET), &tpk)
    };
    let impls = if portable {
        vec![tessera::x25519_portable()]
    } else {
        tessera::x25519_impls()
    };
    let mut cs: Vec<Contestant> = impls
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let be = t.backend;
            let role = if i == 0 {
                Role::Reference
            } else {
                Role::Backend
            };
            let name = format!("tessera/{}", t.name);
            if base {
                kex(name, role, &expect, move || {
                    tessera::x25519_keygen(be, black_box(X25519_SECRET))
                })
            } else {
                let sk = tessera::x25519_secret(be, X25519_SECRET);
                let pk = tpk;
                kex(name, role, &expect, move || {
                    tessera::x25519_dh(&sk, black_box(&pk))
                })
            }
        })
        .collect();
    if !portable {
        use aws_lc_rs::agreement as aws;
        use ring::agreement as rg;
        if base {
            cs.push(kex("aws-lc-rs", Role::Peer, &expect, || {
                let sk = aws::PrivateKey::from_private_key(&aws::X25519, black_box(&X25519_SECRET))
                    .unwrap();
                sk.compute_public_key()
                    .unwrap()
                    .as_ref()
                    .try_into()
                    .unwrap()
            }));
            cs.push(kex("ring", Role::Peer, &expect, || {
                let sk = rg::EphemeralPrivateKey::generate(&rg::X25519, &ring_fixed_rng()).unwrap();
                sk.compute_public_key()
                    .unwrap()
                    .as_ref()
                    .try_into()
                    .unwrap()
            }));
        } else {
            let ask = aws::PrivateKey::from_private_key(&aws::X25519, &X25519_SECRET).unwrap();
            cs.push(kex("aws-lc-rs", Role::Peer, &expect, move || {
                aws::agree(
                    &ask,
                    aws::UnparsedPublicKey::new(&aws::X25519, black_box(&peer)),
                    (),
                    |s| Ok::<[u8; 32], ()>(s.try_into().unwrap()),
                )
                .unwrap()
            }));
            cs.push(kex("ring", Role::Peer, &expect, move || {
                let sk = rg::EphemeralPrivateKey::generate(&rg::X25519, &ring_fixed_rng()).unwrap();
                rg::agree_ephemeral(
                    sk,
                    &rg::UnparsedPublicKey::new(&rg::X25519, black_box(&peer)),
                    |s| <[u8; 32]>::try_from(s).unwrap(),
                )
                .unwrap()
            }));
        }
    }
    if base {
        cs.push(kex("x25519-dalek", Role::Peer, &expect, || {
            x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(black_box(
                X25519_SECRET,
            )))
            .to_bytes()
        }));
    } else {
        let dsk = x25519_dalek::StaticSecret::from(X25519_SECRET);
        let dpk = x25519_dalek::PublicKey::from(peer);
        cs.push(kex("x25519-dalek", Role::Peer, &expect, move || {
            dsk.diffie_hellman(black_box(&dpk)).to_bytes()
        }));
    }
    let notes = if portable {
        vec!["portable only: Tessera portable (radix 2^51) against x25519-dalek (its serial field arithmetic; its SIMD backends serve Edwards, not the Montgomery ladder)".into()]
    } else {
        X25519_NOTES.iter().map(|n| n.to_string()).collect()
    };
    Built {
        contestants: cs,
        notes,
    }
}
