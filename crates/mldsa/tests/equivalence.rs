//! Equivalence: every vector-trait operation of every available backend against portable, on
//! inputs across the operation's whole documented bound (edges included: the bounds
//! themselves, q-1, -q+1, zero, all-zero and single-coefficient polynomials); then whole
//! keygen, sign and verify equal across backends for random seeds, messages, contexts and
//! rnd. Backends keep canonical natural-order units, so outputs are compared raw. The
//! per-operation entry point exists only in this workspace's test builds
//! (`--cfg tessera_test_hooks`). With only the portable backend this compares portable with
//! itself; every backend added to the table is checked here without changes.
#![cfg(all(tessera_test_hooks, not(miri)))]

use proptest::prelude::*;
use tessera_mldsa::testing::{Backend, Op, run};
use tessera_testkit::backends::check_backends;
use tessera_testkit::strategies::{self, edge_bytes as bytes};

const Q: i32 = 8_380_417;

/// A polynomial with coefficients in `lo..=hi` (see [`strategies::poly`]).
fn poly(lo: i32, hi: i32) -> impl Strategy<Value = [i32; 256]> {
    strategies::poly(lo, hi, Q)
}

fn check(op: Op, a: &[i32; 256], b: &[i32; 256], bytes: &[u8]) {
    check_backends::<Backend, _>(format!("{op:?}"), |be| run(be, op, a, b, bytes));
}

/// |zeta| bound of the (centered Montgomery) twiddles.
const Z: i32 = (Q - 1) / 2;

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn arithmetic(a in poly(-(1 << 30), (1 << 30) - 1), b in poly(-(1 << 30), (1 << 30) - 1),
                  m in poly(-9 * Q, 9 * Q), c in -Z..=Z, r in poly(-Q + 1, Q - 1),
                  big in poly(i32::MIN + (1 << 22), i32::MAX - (1 << 22)), t1 in poly(0, 1023)) {
        check(Op::Add, &a, &b, &[]);
        check(Op::Sub, &a, &b, &[]);
        check(Op::RsubConst(1 << 19), &r, &r, &[]);
        check(Op::Shl13, &t1, &t1, &[]);
        check(Op::Shl(9), &r.map(|v| v >> 9), &r, &[]);
        for s in [1, 8, 9, 16] {
            check(Op::SplitLow(s), &a.map(|v| v >> 1), &a, &[]);
            check(Op::SplitLow(s), &r, &r, &[]);
        }
        check(Op::MontMul, &m, &m, &[]);
        check(Op::MontMulConst(c), &a, &a, &[]);
        check(Op::Reduce32, &big, &big, &[]);
        check(Op::Caddq, &r, &r, &[]);
        check(Op::Centered, &r, &r, &[]);
    }

    #[test]
    fn ntt_layers(a in poly(-8 * Q, 8 * Q), b in poly(-8 * Q, 8 * Q), z in -Z..=Z,
                  g in poly(-128 * (Q - 1), 128 * (Q - 1)), r in poly(-Q + 1, Q - 1)) {
        check(Op::NttButterfly(z), &a, &b, &[]);
        check(Op::NttLayers, &a, &a, &[]);
        check(Op::InvNttButterfly(z), &g, &g, &[]);
        check(Op::InvNttLayers, &r, &r, &[]);
        check(Op::Ntt, &r, &r, &[]);
        check(Op::InvNtt, &r, &r, &[]);
    }

    #[test]
    fn rounding(a in poly(0, Q - 1), h in poly(0, 1), b in poly(-(1 << 20), 1 << 20), bound in 1i32..Q) {
        check(Op::Power2Round, &a, &a, &[]);
        for g2 in [32, 88] {
            check(Op::Decompose(g2), &a, &a, &[]);
            check(Op::UseHint(g2), &a, &h, &[]);
        }
        check(Op::NeMask, &a, &h, &[]);
        check(Op::Exceeds(bound), &b, &b, &[]);
        check(Op::Exceeds(1 << 17), &b, &b, &[]);
        // Lanes at exactly +-bound (one in eight) or +-(bound - 1), so that some units reach the
        // bound and others stop one below it (a `>` for `>=` fails here).
        let edge = b.map(|v| {
            let m = if v & 7 == 0 { bound } else { bound - 1 };
            if v & 8 == 0 { m } else { -m }
        });
        check(Op::Exceeds(bound), &edge, &edge, &[]);
    }

    #[test]
    fn packing(a in poly(0, (1 << 20) - 1), raw in bytes(32 * 20)) {
        for d in [3u32, 4, 6, 10, 13, 18, 20] {
            let m = (1 << d) - 1;
            let ad = a.map(|v| v & m);
            check(Op::Encode(d), &ad, &ad, &[]);
            check(Op::Decode(d), &[0; 256], &[0; 256], &raw[..32 * d as usize]);
        }
    }

    #[test]
    fn sampling(b in bytes(3 * 300), len in 0usize..=300, e in bytes(300)) {
        check(Op::RejUniform, &[0; 256], &[0; 256], &b[..3 * len]);
        check(Op::RejEta(2), &[0; 256], &[0; 256], &e[..len]);
        check(Op::RejEta(4), &[0; 256], &[0; 256], &e[..len]);
    }
}

macro_rules! whole {
    ($fn:ident, $m:ident) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]
            #[test]
            fn $fn(seed in any::<[u8; 32]>(), msg in proptest::collection::vec(any::<u8>(), 0..100),
                   ctx in proptest::collection::vec(any::<u8>(), 0..=255), rnd in any::<[u8; 32]>(), flip in any::<u16>()) {
                use tessera_mldsa::$m::*;
                check_backends::<Backend, _>(stringify!($m), |be| {
                    let sk = SigningKey::from_seed_with_backend(be, &seed);
                    let vk = VerifyingKey::from_bytes_with_backend(be, &sk.verifying_key().to_bytes()).unwrap();
                    let mu = vk.compute_mu(&msg, &ctx).unwrap();
                    let sig = sk.sign_mu(&mu, &rnd).unwrap();
                    let mut bad = *sig.as_bytes();
                    bad[flip as usize % SIG_LEN] ^= 0x10;
                    let sk2 = SigningKey::from_expanded_bytes_with_backend(be, &sk.to_expanded_bytes()).unwrap();
                    (
                        sk.to_expanded_bytes().to_vec(),
                        sig.as_bytes().to_vec(),
                        sk2.sign_deterministic(&msg, &ctx).unwrap().as_bytes().to_vec(),
                        vk.verify_mu(&mu, &sig) == Ok(()),
                        vk.verify_mu(&mu, &Signature::from_bytes(&bad).unwrap()) == Ok(()),
                    )
                });
            }
        }
    };
}

whole!(whole_44, ml_dsa_44);
whole!(whole_65, ml_dsa_65);
whole!(whole_87, ml_dsa_87);
