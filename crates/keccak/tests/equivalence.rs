//! Every available backend against portable; incremental against one-shot at every split.

use proptest::prelude::*;
use tessera_keccak::{Backend, Error, Shake128x4, Shake256x4};
use tessera_testkit::strategies::{bytes_near_blocks, len_near_blocks};

#[test]
fn expected_backends_present() {
    let names: Vec<&str> = Backend::all_available().map(|b| b.name()).collect();
    tessera_testkit::expect_backends("tessera-keccak", Backend::KNOWN, &names);
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn x4_matches_x1_on_every_backend(
        n in len_near_blocks(136, 3 * 168 + 1),
        seed in any::<u64>(),
        blocks in 0usize..4,
    ) {
        let ins: Vec<Vec<u8>> = (0..4u64)
            .map(|w| (0..n as u64).map(|i| ((i ^ seed).wrapping_mul(0x9E37_79B9 + w) >> 7) as u8).collect())
            .collect();
        let arr = [&ins[0][..], &ins[1][..], &ins[2][..], &ins[3][..]];
        for rate in [168, 136] {
            let mut expect = Vec::new();
            for i in &ins {
                let mut o = vec![0u8; blocks * rate];
                if rate == 168 { tessera_keccak::shake128(i, &mut o) } else { tessera_keccak::shake256(i, &mut o) }
                expect.push(o);
            }
            for be in Backend::all_available() {
                let got = x4_one_shot(be, rate, arr, blocks);
                prop_assert_eq!(&got[..], &expect[..], "backend {}", be.name());
            }
        }
    }

    #[test]
    fn incremental_every_split(m in bytes_near_blocks(136, 2 * 168 + 1)) {
        let one = tessera_keccak::sha3_256(&m);
        let mut x = [0u8; 50];
        tessera_keccak::shake128(&m, &mut x);
        for s in 0..=m.len() {
            prop_assert_eq!(tessera_keccak::Sha3_256::new().update(&m[..s]).update(&m[s..]).finalize(), one);
            let mut y = [0u8; 50];
            tessera_keccak::Shake128::new().update(&m[..s]).update(&m[s..]).finalize_xof().read(&mut y);
            prop_assert_eq!(x, y);
        }
    }
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
    let mut h = tessera_keccak::Sha3_512::new();
    h.update(b"garbage");
    let _ = h.finalize_reset();
    h.update(b"abc");
    assert_eq!(h.finalize(), tessera_keccak::sha3_512(b"abc"));
}
