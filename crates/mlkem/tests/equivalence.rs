//! Equivalence: every vector-trait operation of every available backend against portable, on
//! inputs across the operation's whole documented bound (edges included: the bounds
//! themselves, q-1, -q+1, zero, all-zero and single-coefficient polynomials); then whole
//! keygen, encaps and decaps equal across backends for random seeds. Backends keep canonical
//! natural-order units, so outputs are compared raw. The per-operation entry point exists only
//! in this workspace's test builds (`--cfg tessera_test_hooks`).
#![cfg(tessera_test_hooks)]

use proptest::prelude::*;
use tessera_mlkem::testing::{Backend, Op, run};
use tessera_testkit::backends::check_backends;
use tessera_testkit::strategies::{self, edge_bytes as bytes};

const Q: i16 = 3329;

/// A polynomial with coefficients in `lo..=hi` (see [`strategies::poly`]).
fn poly(lo: i16, hi: i16) -> impl Strategy<Value = [i16; 256]> {
    strategies::poly(lo, hi, Q)
}

fn check(op: Op, a: &[i16; 256], b: &[i16; 256], bytes: &[u8]) {
    check_backends::<Backend, _>(format!("{op:?}"), |be| run(be, op, a, b, bytes));
}

/// |zeta| bound of the (centered Montgomery) twiddles.
const Z: i16 = (Q - 1) / 2;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn add_sub(a in poly(-(1 << 14), (1 << 14) - 1), b in poly(-(1 << 14), (1 << 14) - 1)) {
        check(Op::Add, &a, &b, &[]);
        check(Op::Sub, &a, &b, &[]);
    }

    #[test]
    fn reductions(a in poly(i16::MIN, i16::MAX), c in -Z..=Z, r in poly(-Q + 1, Q - 1), u in poly(0, 4095)) {
        check(Op::Barrett, &a, &a, &[]);
        check(Op::MontMul(c), &a, &a, &[]);
        check(Op::ToCanonical, &r, &r, &[]);
        check(Op::ReduceOnce, &u, &u, &[]);
    }

    #[test]
    fn ntt_layers(a in poly(-(i16::MAX - Q), i16::MAX - Q), b in poly(i16::MIN, i16::MAX), z in -Z..=Z) {
        check(Op::NttButterfly(z), &a, &b, &[]);
        check(Op::NttLayer8, &a, &a, &[]);
        check(Op::NttLayer4, &a, &a, &[]);
        check(Op::NttLayer2, &a, &a, &[]);
    }

    #[test]
    fn invntt_layers(a in poly(-2 * Q, 2 * Q), b in poly(-2 * Q, 2 * Q), z in -Z..=Z) {
        check(Op::InvNttButterfly(z), &a, &b, &[]);
        check(Op::InvNttLayer8, &a, &a, &[]);
        check(Op::InvNttLayer4, &a, &a, &[]);
        check(Op::InvNttLayer2, &a, &a, &[]);
    }

    #[test]
    fn ntt_basemul(a in poly(-Q + 1, Q - 1), b in poly(-Q, Q)) {
        check(Op::Ntt, &a, &a, &[]);
        check(Op::InvNtt, &a, &a, &[]);
        check(Op::Basemul, &b, &a, &[]);
    }

    #[test]
    fn compress(a in poly(0, Q - 1), y in poly(0, 2047)) {
        for d in [1u32, 4, 5, 10, 11] {
            check(Op::Compress(d), &a, &a, &[]);
            let m = (1i16 << d) - 1;
            let yd = y.map(|v| v & m);
            check(Op::Decompress(d), &yd, &yd, &[]);
            check(Op::Encode(d), &yd, &yd, &[]);
        }
        check(Op::Encode(12), &a, &a, &[]);
    }

    #[test]
    fn decode_sample(b in bytes(504)) {
        for d in [1u32, 4, 5, 10, 11, 12] {
            check(Op::Decode(d), &[0; 256], &[0; 256], &b[..32 * d as usize]);
        }
        check(Op::Cbd(2), &[0; 256], &[0; 256], &b[..128]);
        check(Op::Cbd(3), &[0; 256], &[0; 256], &b[..192]);
        check(Op::RejSample, &[0; 256], &[0; 256], &b);
        check(Op::RejSample, &[0; 256], &[0; 256], &b[..168]);
    }

    /// Rejection sampling with many rejected candidates (bytes near 0xFF) and every length
    /// class around the 24-byte SIMD step and the 256-coefficient limit.
    #[test]
    fn rej_sample_edges(
        b in proptest::collection::vec(prop_oneof![3 => 0xC0u8..=0xFF, 1 => any::<u8>()], 840),
        len in 0usize..=280,
    ) {
        check(Op::RejSample, &[0; 256], &[0; 256], &b[..3 * len]);
    }

    /// Rejection sampling on candidates at the acceptance boundary (q - 1 accepted, q and
    /// q + 1 rejected), 0 and 4095, packed into XOF bytes: a backend comparing with `<=`
    /// instead of `<` fails here (random bytes hit a candidate equal to q too rarely).
    #[test]
    fn rej_sample_boundary(
        c in proptest::collection::vec(
            prop_oneof![
                2 => Just(Q as u16 - 1),
                2 => Just(Q as u16),
                1 => Just(Q as u16 + 1),
                1 => Just(0u16),
                1 => Just(4095u16),
                3 => 0u16..4096,
            ],
            560,
        ),
        len in 0usize..=280,
    ) {
        let b: Vec<u8> = c
            .chunks_exact(2)
            .flat_map(|p| [p[0] as u8, ((p[0] >> 8) | (p[1] << 4)) as u8, (p[1] >> 4) as u8])
            .collect();
        check(Op::RejSample, &[0; 256], &[0; 256], &b[..3 * len]);
    }
}

/// Compress_d and Decompress_d of every input value (all of `[0, q)`, all of `[0, 2^d)`) and
/// encode/decode of the extreme patterns, on every backend against portable.
#[test]
fn compress_exhaustive() {
    let polys = |n: usize| -> Vec<[i16; 256]> {
        (0..n.div_ceil(256))
            .map(|p| core::array::from_fn(|i| ((256 * p + i) % n) as i16))
            .collect()
    };
    for d in [1u32, 4, 5, 10, 11] {
        for a in polys(Q as usize) {
            check(Op::Compress(d), &a, &a, &[]);
        }
        for y in polys(1 << d) {
            check(Op::Decompress(d), &y, &y, &[]);
            check(Op::Encode(d), &y, &y, &[]);
        }
    }
    for a in polys(Q as usize) {
        check(Op::Encode(12), &a, &a, &[]);
    }
    for d in [1u32, 4, 5, 10, 11, 12] {
        for fill in [0x00u8, 0xFF, 0xAA, 0x55] {
            check(
                Op::Decode(d),
                &[0; 256],
                &[0; 256],
                &vec![fill; 32 * d as usize],
            );
        }
    }
}

macro_rules! whole {
    ($fn:ident, $m:ident) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]
            #[test]
            fn $fn(seed in any::<[u8; 64]>(), m in any::<[u8; 32]>(), flip in any::<u16>()) {
                use tessera_mlkem::$m::*;
                check_backends::<Backend, _>(stringify!($m), |be| {
                    let dk = DecapsulationKey::from_seed_with_backend(be, &seed);
                    let ek = EncapsulationKey::from_bytes_with_backend(be, &dk.encapsulation_key().to_bytes()).unwrap();
                    let (ct, k) = ek.encapsulate_deterministic(&m);
                    let mut bad = *ct.as_bytes();
                    bad[flip as usize % CT_LEN] ^= 0x80;
                    let dk2 = DecapsulationKey::from_expanded_bytes_with_backend(be, &dk.to_expanded_bytes()).unwrap();
                    (
                        dk.to_expanded_bytes().to_vec(),
                        *ct.as_bytes(),
                        *k.as_bytes(),
                        *dk2.decapsulate(&ct).as_bytes(),
                        *dk.decapsulate(&Ciphertext::from_bytes(&bad).unwrap()).as_bytes(),
                    )
                });
            }
        }
    };
}

whole!(whole_512, ml_kem_512);
whole!(whole_768, ml_kem_768);
whole!(whole_1024, ml_kem_1024);
