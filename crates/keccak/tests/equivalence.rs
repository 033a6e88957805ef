//! Every available backend against portable: single-state (x1) hashers on every `X1Backend`,
//! multi-way x2/x4 on every `X4Backend`; incremental against one-shot at every split point.

#[path = "data/common.rs"]
mod common;

use common::{MultiShake, bytes_near_every_rate, every_x1, len_near_every_rate, multi_one_shot};
use proptest::prelude::*;
use tessera_keccak::testing::{X1Backend, X4Backend};
use tessera_keccak::{
    Error, Sha3_256, Shake128, Shake128x2, Shake128x4, Shake256, Shake256x2, Shake256x4,
    TurboShake128,
};

/// Both kinds of backend count: the multi-way ones and the single-state ones, each table
/// checked against `TESSERA_EXPECT_BACKENDS` for the names it knows.
#[test]
fn expected_backends_present() {
    tessera_testkit::expect_backends::<X1Backend>();
    tessera_testkit::expect_backends::<X4Backend>();
}

/// Single-state SHAKE on the portable backend, the reference for the multi-way ones.
fn shake_portable(rate: usize, m: &[u8], n: usize) -> Vec<u8> {
    let mut o = vec![0u8; n];
    if rate == 168 {
        Shake128::new_with_backend(X1Backend::Portable)
            .update(m)
            .finalize_xof()
            .read(&mut o);
    } else {
        Shake256::new_with_backend(X1Backend::Portable)
            .update(m)
            .finalize_xof()
            .read(&mut o);
    }
    o
}

fn inputs(n: usize, seed: u64, ways: u64) -> Vec<Vec<u8>> {
    (0..ways)
        .map(|w| {
            (0..n as u64)
                .map(|i| ((i ^ seed).wrapping_mul(0x9E37_79B9 + w) >> 7) as u8)
                .collect()
        })
        .collect()
}

/// Every way of the multi-way type `X` on every multi-way backend against single-state SHAKE at
/// `X`'s rate on portable: way `w` absorbs `ins[w]`, `blocks` blocks are squeezed.
fn multi_matches_x1<const W: usize, X: MultiShake<W>>(
    ins: &[Vec<u8>],
    blocks: usize,
) -> Result<(), TestCaseError> {
    let arr: [&[u8]; W] = core::array::from_fn(|w| &ins[w][..]);
    let expect: Vec<Vec<u8>> = ins
        .iter()
        .map(|i| shake_portable(X::RATE, i, blocks * X::RATE))
        .collect();
    for be in tessera_testkit::available::<X4Backend>() {
        let got = multi_one_shot::<W, X>(be, arr, blocks);
        prop_assert_eq!(&got[..], &expect[..], "backend {}", be.name());
    }
    Ok(())
}

/// A multi-way case: the input length, a seed for the inputs, and the blocks to squeeze.
fn multi_case() -> impl Strategy<Value = (usize, u64, usize)> {
    (len_near_every_rate(3 * 168 + 1), any::<u64>(), 0usize..4)
}

/// Both multi-way types of width `W` (`X128` for SHAKE128, `X256` for SHAKE256) against x1 on
/// the same `W` inputs.
fn width_matches_x1<const W: usize, X128: MultiShake<W>, X256: MultiShake<W>>(
    (n, seed, blocks): (usize, u64, usize),
) -> Result<(), TestCaseError> {
    let ins = inputs(n, seed, W as u64);
    multi_matches_x1::<W, X128>(&ins, blocks)?;
    multi_matches_x1::<W, X256>(&ins, blocks)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn x1_matches_portable_on_every_backend(
        m in bytes_near_every_rate(3 * 168 + 1),
        split in any::<prop::sample::Index>(),
        n in len_near_every_rate(2 * 168 + 1),
    ) {
        let (a, b) = m.split_at(split.index(m.len() + 1));
        let expect = every_x1(X1Backend::Portable, &[&m], n, [0x1F, 0x07]);
        let split = tessera_testkit::check_backends::<X1Backend, _>("x1 split input", |be| {
            every_x1(be, &[a, b], n, [0x1F, 0x07])
        });
        prop_assert_eq!(split, expect);
    }

    #[test]
    fn x4_matches_x1_on_every_backend(case in multi_case()) {
        width_matches_x1::<4, Shake128x4, Shake256x4>(case)?;
    }

    #[test]
    fn x2_matches_x1_on_every_backend(case in multi_case()) {
        width_matches_x1::<2, Shake128x2, Shake256x2>(case)?;
    }
}

/// Every length 0..=3*168+1 (covering 3 blocks of every rate) at every split point, on every
/// single-state backend, against the portable one-shot.
#[test]
fn incremental_every_length_every_split() {
    let bes: Vec<X1Backend> = tessera_testkit::available::<X1Backend>();
    let m: Vec<u8> = (0..3 * 168 + 2u32)
        .map(|i| (i.wrapping_mul(0x9E37_79B9) >> 11) as u8)
        .collect();
    let mut checked = 0usize;
    for len in 0..=3 * 168 + 1 {
        let m = &m[..len];
        let expect_256 = Sha3_256::new_with_backend(X1Backend::Portable)
            .update(m)
            .finalize();
        let mut expect_x = [0u8; 40];
        TurboShake128::new_with_backend(X1Backend::Portable, 0x1F)
            .unwrap()
            .update(m)
            .finalize_xof()
            .read(&mut expect_x);
        for &be in &bes {
            for s in 0..=len {
                let (a, b) = m.split_at(s);
                let d = Sha3_256::new_with_backend(be)
                    .update(a)
                    .update(b)
                    .finalize();
                assert_eq!(d, expect_256, "SHA3-256 len {len} split {s} {}", be.name());
                let mut x = [0u8; 40];
                TurboShake128::new_with_backend(be, 0x1F)
                    .unwrap()
                    .update(a)
                    .update(b)
                    .finalize_xof()
                    .read(&mut x);
                assert_eq!(
                    x,
                    expect_x,
                    "TurboSHAKE128 len {len} split {s} {}",
                    be.name()
                );
                checked += 1;
            }
        }
    }
    eprintln!("incremental: {checked} (length, split, backend) cases");
}

#[test]
fn x4_squeeze_in_several_calls() {
    for be in tessera_testkit::available::<X4Backend>() {
        let ins = [
            &[1u8; 40][..],
            &[2u8; 40][..],
            &[3u8; 40][..],
            &[4u8; 40][..],
        ];
        let whole = multi_one_shot::<4, Shake128x4>(be, ins, 3);
        let mut x = Shake128x4::new_with_backend(be, ins).unwrap();
        let mut parts = [[0u8; 168]; 4];
        for b in 0..3 {
            let [p0, p1, p2, p3] = &mut parts;
            x.squeeze_blocks([p0, p1, p2, p3]).unwrap();
            for w in 0..4 {
                assert_eq!(
                    &parts[w][..],
                    &whole[w][b * 168..(b + 1) * 168],
                    "{}",
                    be.name()
                );
            }
        }
    }
}

#[test]
fn x4_rejects_bad_lengths() {
    assert!(matches!(
        Shake128x4::new([b"a", b"b", b"cc", b"d"]),
        Err(Error::LengthMismatch)
    ));
    let mut x = Shake256x4::new([b"a", b"b", b"c", b"d"]).unwrap();
    let mut o = [[0x55u8; 100]; 4];
    let [o0, o1, o2, o3] = &mut o;
    assert_eq!(
        x.squeeze_blocks([o0, o1, o2, o3]),
        Err(Error::NotBlockMultiple)
    );
    assert_eq!(o, [[0x55u8; 100]; 4], "nothing written on error");
}

#[test]
fn finalize_reset_restarts() {
    for be in tessera_testkit::available::<X1Backend>() {
        let mut h = tessera_keccak::Sha3_512::new_with_backend(be);
        h.update(b"garbage");
        let _ = h.finalize_reset();
        h.update(b"abc");
        assert_eq!(
            h.finalize(),
            tessera_keccak::sha3_512(b"abc"),
            "{}",
            be.name()
        );
    }
}
