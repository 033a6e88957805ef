//! The field arithmetic of every backend against portable over the whole input range
//! (test hooks, `--cfg tessera_test_hooks`): inputs are any integers below 2^256, drawn with
//! limbs at their maxima (all ones, `2^63`, `2^64 - 19`, ...), near p and 2p; and the
//! portable radix-2^51 operations with limbs at their documented bounds (`< 2^54` for the
//! inputs of mul, sqr, sub, mul_a24) against the same operations on canonical inputs.
#![cfg(tessera_test_hooks)]

use proptest::prelude::*;
use tessera_testkit::check_backends;
use tessera_x25519::testing::{self, Backend, FieldOp, PORTABLE_INPUT_LIMB_LIMIT};

fn limb64() -> impl Strategy<Value = u64> {
    prop_oneof![
        2 => any::<u64>(),
        1 => prop::sample::select(vec![
            0,
            1,
            2,
            18,
            19,
            38,
            (1 << 63) - 1,
            1 << 63,
            u64::MAX - 38,
            u64::MAX - 19,
            u64::MAX - 18,
            u64::MAX - 1,
            u64::MAX,
        ]),
    ]
}

fn words() -> impl Strategy<Value = [u64; 4]> {
    let m = u64::MAX;
    prop_oneof![
        3 => [limb64(), limb64(), limb64(), limb64()],
        1 => prop::sample::select(vec![
            [0, 0, 0, 0],
            [m - 19, m, m, m >> 1],  // p - 1
            [m - 18, m, m, m >> 1],  // p
            [m, m, m, m >> 1],       // 2^255 - 1
            [m - 38, m, m, m],       // 2p - 1
            [m - 37, m, m, m],       // 2p
            [m, m, m, m],            // 2^256 - 1
        ]),
    ]
}

fn words_of(b: [u8; 32]) -> [u64; 4] {
    core::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn field_ops_match_portable(a in words(), b in words()) {
        for op in testing::ALL {
            check_backends::<Backend, _>(format!("{op:?}({a:x?}, {b:x?})"), |be| {
                testing::field_op(be, op, a, b)
            });
        }
    }

    #[test]
    fn portable_limbs_at_bounds(a in limbs51(PORTABLE_INPUT_LIMB_LIMIT), b in limbs51(PORTABLE_INPUT_LIMB_LIMIT),
                                c in limbs51(PORTABLE_INPUT_LIMB_LIMIT / 2), d in limbs51(PORTABLE_INPUT_LIMB_LIMIT / 2)) {
        let canon = |l: [u64; 5]| words_of(testing::portable_limbs_op(FieldOp::Reduce, l, l));
        for (op, x, y) in [
            (FieldOp::Mul, a, b),
            (FieldOp::Sqr, a, b),
            (FieldOp::Sub, a, b),
            (FieldOp::MulA24, a, b),
            (FieldOp::Neg, a, b),
            (FieldOp::Add, c, d),
        ] {
            let got = testing::portable_limbs_op(op, x, y);
            let (cx, cy) = (canon(x), canon(y));
            // The same operation on the canonical values, on every backend.
            let want = check_backends::<Backend, _>(format!("{op:?} canonical"), |be| {
                testing::field_op(be, op, cx, cy)
            });
            prop_assert_eq!(got, want, "{:?}({:x?}, {:x?})", op, x, y);
        }
    }
}

/// Radix-2^51 limbs below `limit`, with half the weight on the extremes.
fn limbs51(limit: u64) -> impl Strategy<Value = [u64; 5]> {
    let limb = prop_oneof![
        1 => 0..limit,
        1 => prop::sample::select(vec![0, 1, (1 << 51) - 1, 1 << 51, (1 << 52) - 1, limit - 1, limit / 2]),
    ]
    .prop_map(move |x| x.min(limit - 1));
    [limb.clone(), limb.clone(), limb.clone(), limb.clone(), limb]
}
