//! Proptest: every available backend against portable (AEAD seal/open for lengths 0..=1100 and
//! around multiples of 64, 256, 512 and 1024, random AAD; the hazmat stream at random split
//! points), and Poly1305 on all-0xff and limb-maximum blocks against RustCrypto's `poly1305`.

use proptest::prelude::*;
use tessera_chacha20poly1305::hazmat::{ChaCha20, Poly1305};
use tessera_chacha20poly1305::testing::Backend;
use tessera_chacha20poly1305::{ChaCha20Poly1305, XChaCha20Poly1305};
use tessera_testkit::check_backends;
use tessera_testkit::strategies::len_near_blocks;

fn lens() -> impl Strategy<Value = usize> {
    prop_oneof![
        0usize..=1100,
        len_near_blocks(64, 1100),
        len_near_blocks(256, 2100),
        len_near_blocks(512, 4200),
        len_near_blocks(1024, 5200),
    ]
}

fn data(n: usize, seed: u8) -> Vec<u8> {
    (0..n).map(|i| (i as u8).wrapping_mul(167) ^ seed).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn aead_matches_portable(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 24]>(),
        len in lens(),
        aad_len in 0usize..300,
        seed in any::<u8>(),
    ) {
        let pt = data(len, seed);
        let aad = data(aad_len, !seed);
        check_backends::<Backend, _>(format!("seal len {len} aad {aad_len}"), |be| {
            let a = ChaCha20Poly1305::new_with_backend(be, &key);
            let n12: [u8; 12] = nonce[..12].try_into().unwrap();
            let mut b = pt.clone();
            let tag = a.encrypt_in_place_detached(&n12, &aad, &mut b).unwrap();
            let mut o = b.clone();
            a.decrypt_in_place_detached(&n12, &aad, &mut o, &tag).unwrap();
            assert_eq!(o, pt);
            let x = XChaCha20Poly1305::new_with_backend(be, &key);
            let mut xb = pt.clone();
            let xtag = x.encrypt_in_place_detached(&nonce, &aad, &mut xb).unwrap();
            (b, tag, xb, xtag)
        });
    }

    #[test]
    fn stream_splits_match_portable(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 12]>(),
        ctr in prop_oneof![any::<u32>().prop_map(|c| c % 1000), (u32::MAX - 100)..=u32::MAX],
        len in lens(),
        cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..5),
    ) {
        let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(len + 1)).collect();
        cuts.sort_unstable();
        check_backends::<Backend, _>(format!("stream len {len} ctr {ctr} cuts {cuts:?}"), |be| {
            let mut c = ChaCha20::new_with_backend(be, &key, &nonce, ctr);
            let mut buf = data(len, 3);
            let mut prev = 0;
            let mut results = Vec::new();
            for &k in cuts.iter().chain([&len]) {
                results.push(c.apply_keystream(&mut buf[prev..k]).is_ok());
                prev = k;
            }
            (buf, results)
        });
    }

    #[test]
    fn poly1305_extremes(
        key in prop_oneof![
            any::<[u8; 32]>(),
            Just([0xff; 32]),
            any::<[u8; 16]>().prop_map(|s| { let mut k = [0xff; 32]; k[16..].copy_from_slice(&s); k }),
        ],
        blocks in proptest::collection::vec(
            prop_oneof![
                Just([0xffu8; 16]),
                // Each 64-bit limb at its maximum, the other zero; and 2^130 - 5 - 2^128 style.
                Just({ let mut b = [0u8; 16]; b[..8].fill(0xff); b }),
                Just({ let mut b = [0u8; 16]; b[8..].fill(0xff); b }),
                Just({ let mut b = [0xffu8; 16]; b[0] = 0xfa; b }),
                Just({ let mut b = [0xffu8; 16]; b[0] = 0xfb; b }),
                any::<[u8; 16]>(),
            ],
            0..80,
        ),
        tail in proptest::collection::vec(any::<u8>(), 0..16),
        split in any::<prop::sample::Index>(),
    ) {
        use poly1305::universal_hash::KeyInit;
        let mut msg: Vec<u8> = blocks.concat();
        msg.extend_from_slice(&tail);
        let expected: [u8; 16] = poly1305::Poly1305::new(&key.into()).compute_unpadded(&msg).into();
        let s = split.index(msg.len() + 1);
        let mut p = Poly1305::new(&key);
        p.update(&msg[..s]);
        p.update(&msg[s..]);
        prop_assert_eq!(p.finalize(), expected);
        let mut q = Poly1305::new(&key);
        q.update(&msg);
        prop_assert!(q.verify(&expected).is_ok());
    }
}

/// Poly1305 of long all-0xff messages under the all-0xff key (the accumulator at its largest
/// after every block), and the AEAD over all-0xff plaintexts, on every backend.
#[test]
fn all_ones() {
    use poly1305::universal_hash::KeyInit;
    for n in [16usize, 32, 48, 64, 256, 1024, 4096 + 15] {
        let msg = vec![0xffu8; n];
        let key = [0xff; 32];
        let expected: [u8; 16] = poly1305::Poly1305::new(&key.into())
            .compute_unpadded(&msg)
            .into();
        let mut p = Poly1305::new(&key);
        p.update(&msg);
        assert_eq!(p.finalize(), expected, "len {n}");
        check_backends::<Backend, _>(format!("aead all-ones {n}"), |be| {
            let mut b = msg.clone();
            let t = ChaCha20Poly1305::new_with_backend(be, &key)
                .encrypt_in_place_detached(&[0xff; 12], &msg, &mut b)
                .unwrap();
            (b, t)
        });
    }
}

/// Every length of the short and medium paths and their boundaries (0..=1300: the 2-block group
/// up to 64 bytes, the 4-block group up to 192, AVX-512's one-pass medium path (key block and
/// message from one call: 2 or 3 horizontal zmm groups, the vertical 16-block group, or both) up to 1216, the one-pass loop above), with several
/// AAD lengths, on
/// every backend: seal, open, and the XChaCha20 seal, deterministically (proptest samples
/// these lengths only now and then).
#[test]
fn short_lengths_every_backend() {
    for len in 0usize..=1300 {
        for aad_len in [0usize, 1, 13, 16, 17] {
            let pt = data(len, len as u8);
            let aad = data(aad_len, 0x5a);
            let key: [u8; 32] = core::array::from_fn(|i| (i * 7 + len) as u8);
            check_backends::<Backend, _>(format!("short len {len} aad {aad_len}"), |be| {
                let a = ChaCha20Poly1305::new_with_backend(be, &key);
                let mut b = pt.clone();
                let tag = a.encrypt_in_place_detached(&[9; 12], &aad, &mut b).unwrap();
                let mut o = b.clone();
                a.decrypt_in_place_detached(&[9; 12], &aad, &mut o, &tag)
                    .unwrap();
                assert_eq!(o, pt);
                let mut xb = pt.clone();
                let xtag = XChaCha20Poly1305::new_with_backend(be, &key)
                    .encrypt_in_place_detached(&[3; 24], &aad, &mut xb)
                    .unwrap();
                (b, tag, xb, xtag)
            });
        }
    }
}
