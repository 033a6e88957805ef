//! Every available backend against portable: single-state (x1) hashers on every `X1Backend`,
//! multi-way x2/x4 on every `Backend`; incremental against one-shot at every split point.

use proptest::prelude::*;
use tessera_keccak::{
    Backend, Error, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake128x2, Shake128x4,
    Shake256, Shake256x2, Shake256x4, TurboShake128, TurboShake256, X1Backend,
};
use tessera_testkit::strategies::len_near_blocks;

/// Lengths in `0..=max` weighted at the block boundaries of every Keccak rate this crate uses:
/// 168 (SHAKE128, TurboSHAKE128), 144 (SHA3-224), 136 (SHA3-256, SHAKE256, TurboSHAKE256),
/// 104 (SHA3-384) and 72 (SHA3-512).
fn len_near_every_rate(max: usize) -> impl Strategy<Value = usize> {
    prop_oneof![
        len_near_blocks(168, max),
        len_near_blocks(144, max),
        len_near_blocks(136, max),
        len_near_blocks(104, max),
        len_near_blocks(72, max),
    ]
}

/// Byte strings whose length follows [`len_near_every_rate`].
fn bytes_near_every_rate(max: usize) -> impl Strategy<Value = Vec<u8>> {
    len_near_every_rate(max).prop_flat_map(|n| proptest::collection::vec(any::<u8>(), n))
}

/// Both kinds of backend count: the multi-way ones and the single-state ones.
#[test]
fn expected_backends_present() {
    let mut names: Vec<&str> = Backend::all_available().map(|b| b.name()).collect();
    for b in X1Backend::all_available() {
        assert!(
            Backend::KNOWN.contains(&b.name()),
            "{} missing from KNOWN",
            b.name()
        );
        if !names.contains(&b.name()) {
            names.push(b.name());
        }
    }
    for b in Backend::all_available() {
        assert!(
            Backend::KNOWN.contains(&b.name()),
            "{} missing from KNOWN",
            b.name()
        );
    }
    tessera_testkit::expect_backends("tessera-keccak", Backend::KNOWN, &names);
}

/// Every x1 function (the four SHA-3 digests, SHAKE and TurboSHAKE) on backend `be`, absorbing `m` split at `split`, each output `n` bytes
/// (digests at their own length), concatenated.
fn x1_all(be: X1Backend, m: &[u8], split: usize, n: usize) -> Vec<u8> {
    let (a, b) = m.split_at(split);
    let mut out = Vec::new();
    out.extend(
        Sha3_224::new_with_backend(be)
            .update(a)
            .update(b)
            .finalize(),
    );
    out.extend(
        Sha3_256::new_with_backend(be)
            .update(a)
            .update(b)
            .finalize(),
    );
    out.extend(
        Sha3_384::new_with_backend(be)
            .update(a)
            .update(b)
            .finalize(),
    );
    out.extend(
        Sha3_512::new_with_backend(be)
            .update(a)
            .update(b)
            .finalize(),
    );
    let mut o = vec![0u8; n];
    Shake128::new_with_backend(be)
        .update(a)
        .update(b)
        .finalize_xof()
        .read(&mut o);
    out.extend(&o);
    Shake256::new_with_backend(be)
        .update(a)
        .update(b)
        .finalize_xof()
        .read(&mut o);
    out.extend(&o);
    TurboShake128::new_with_backend(be, 0x1F)
        .unwrap()
        .update(a)
        .update(b)
        .finalize_xof()
        .read(&mut o);
    out.extend(&o);
    TurboShake256::new_with_backend(be, 0x07)
        .unwrap()
        .update(a)
        .update(b)
        .finalize_xof()
        .read(&mut o);
    out.extend(&o);
    out
}

fn x4_one_shot(be: Backend, rate: usize, ins: [&[u8]; 4], blocks: usize) -> [Vec<u8>; 4] {
    let mut o: [Vec<u8>; 4] = core::array::from_fn(|_| vec![0u8; blocks * rate]);
    let [o0, o1, o2, o3] = &mut o;
    if rate == 168 {
        Shake128x4::new_with_backend(be, ins)
            .unwrap()
            .squeeze_blocks([o0, o1, o2, o3])
            .unwrap();
    } else {
        Shake256x4::new_with_backend(be, ins)
            .unwrap()
            .squeeze_blocks([o0, o1, o2, o3])
            .unwrap();
    }
    o
}

fn x2_one_shot(be: Backend, rate: usize, ins: [&[u8]; 2], blocks: usize) -> [Vec<u8>; 2] {
    let mut o: [Vec<u8>; 2] = core::array::from_fn(|_| vec![0u8; blocks * rate]);
    let [o0, o1] = &mut o;
    if rate == 168 {
        Shake128x2::new_with_backend(be, ins)
            .unwrap()
            .squeeze_blocks([o0, o1])
            .unwrap();
    } else {
        Shake256x2::new_with_backend(be, ins)
            .unwrap()
            .squeeze_blocks([o0, o1])
            .unwrap();
    }
    o
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn x1_matches_portable_on_every_backend(
        m in bytes_near_every_rate(3 * 168 + 1),
        split in any::<prop::sample::Index>(),
        n in len_near_every_rate(2 * 168 + 1),
    ) {
        let split = split.index(m.len() + 1);
        let expect = x1_all(X1Backend::Portable, &m, 0, n);
        for be in X1Backend::all_available() {
            prop_assert_eq!(&x1_all(be, &m, split, n), &expect, "backend {}", be.name());
        }
    }

    #[test]
    fn x4_matches_x1_on_every_backend(
        n in len_near_every_rate(3 * 168 + 1),
        seed in any::<u64>(),
        blocks in 0usize..4,
    ) {
        let ins = inputs(n, seed, 4);
        let arr = [&ins[0][..], &ins[1][..], &ins[2][..], &ins[3][..]];
        for rate in [168, 136] {
            let expect: Vec<Vec<u8>> = ins.iter().map(|i| shake_portable(rate, i, blocks * rate)).collect();
            for be in Backend::all_available() {
                let got = x4_one_shot(be, rate, arr, blocks);
                prop_assert_eq!(&got[..], &expect[..], "backend {}", be.name());
            }
        }
    }

    #[test]
    fn x2_matches_x1_on_every_backend(
        n in len_near_every_rate(3 * 168 + 1),
        seed in any::<u64>(),
        blocks in 0usize..4,
    ) {
        let ins = inputs(n, seed, 2);
        let arr = [&ins[0][..], &ins[1][..]];
        for rate in [168, 136] {
            let expect: Vec<Vec<u8>> = ins.iter().map(|i| shake_portable(rate, i, blocks * rate)).collect();
            for be in Backend::all_available() {
                let got = x2_one_shot(be, rate, arr, blocks);
                prop_assert_eq!(&got[..], &expect[..], "backend {}", be.name());
            }
        }
    }
}

/// Every length 0..=3*168+1 (covering 3 blocks of every rate) at every split point, on every
/// single-state backend, against the portable one-shot.
#[test]
fn incremental_every_length_every_split() {
    let bes: Vec<X1Backend> = X1Backend::all_available().collect();
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
    for be in Backend::all_available() {
        let ins = [
            &[1u8; 40][..],
            &[2u8; 40][..],
            &[3u8; 40][..],
            &[4u8; 40][..],
        ];
        let whole = x4_one_shot(be, 168, ins, 3);
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
    for be in X1Backend::all_available() {
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
