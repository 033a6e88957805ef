//! proptest: every available backend against portable, for random keys of all sizes, nonces of
//! any length, additional data and messages with lengths around multiples of 16 and of the
//! 8- and 16-block strides and of 256-byte chunks, and pre-counter blocks whose 32-bit counter wraps inside the message.

#[path = "data/common.rs"]
mod common;

use common::{AnyGcm, backends};
use proptest::prelude::*;
use tessera_aes_gcm::Backend;
use tessera_testkit::strategies::{bytes_near_blocks, len_near_blocks};

fn key_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![Just(16usize), Just(24), Just(32)]
        .prop_flat_map(|n| proptest::collection::vec(any::<u8>(), n))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn seal_open_match_portable(
        key in key_strategy(),
        nonce_len in prop_oneof![Just(12usize), 1usize..=64],
        nonce_seed in any::<u64>(),
        aad in prop_oneof![
            3 => bytes_near_blocks(16, 16 * 16 + 40),
            // Whole 512-byte chunks of AAD (the 512-bit GHASH stride) and their tails.
            1 => bytes_near_blocks(512, 512 * 2 + 40),
        ],
        pt in prop_oneof![
            bytes_near_blocks(16, 16 * 16 * 5 + 40),
            // Around whole 256-byte chunks (the VAES stride and its AES-NI tail hand-over).
            bytes_near_blocks(256, 256 * 6 + 40),
            // Around whole 512-byte chunks (the 512-bit VAES stride).
            bytes_near_blocks(512, 512 * 4 + 40),
        ],
    ) {
        let nonce: Vec<u8> = (0..nonce_len as u64)
            .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ nonce_seed).to_le_bytes()[3])
            .collect();
        let reference = AnyGcm::new(&key, Backend::Portable).unwrap();
        let mut want = pt.clone();
        let want_tag = reference.seal(&nonce, &aad, &mut want).unwrap();
        for be in backends() {
            let g = AnyGcm::new(&key, be).unwrap();
            let mut ct = pt.clone();
            let tag = g.seal(&nonce, &aad, &mut ct).unwrap();
            prop_assert_eq!(&ct, &want, "ciphertext on {}", be.name());
            prop_assert_eq!(tag, want_tag, "tag on {}", be.name());
            g.open(&nonce, &aad, &mut ct, &tag).unwrap();
            prop_assert_eq!(&ct, &pt, "decryption on {}", be.name());
        }
    }

    #[test]
    fn counter_wrap_matches_portable(
        key in key_strategy(),
        prefix in any::<[u8; 12]>(),
        before_wrap in 0u32..=40,
        len in prop_oneof![len_near_blocks(16, 16 * 16 * 2 + 40), len_near_blocks(256, 256 * 4 + 40), len_near_blocks(512, 512 * 3 + 40)],
    ) {
        // J0's counter sits `before_wrap` steps below 2^32, so the message's counters wrap.
        let mut j0 = [0u8; 16];
        j0[..12].copy_from_slice(&prefix);
        j0[12..].copy_from_slice(&(u32::MAX - before_wrap).to_be_bytes());
        let pt: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
        let reference = AnyGcm::new(&key, Backend::Portable).unwrap();
        let mut want = pt.clone();
        let want_tag = reference.seal_with_j0(&j0, b"wrap", &mut want);
        for be in backends() {
            let g = AnyGcm::new(&key, be).unwrap();
            let mut ct = pt.clone();
            let tag = g.seal_with_j0(&j0, b"wrap", &mut ct);
            prop_assert_eq!(&ct, &want, "ciphertext on {}", be.name());
            prop_assert_eq!(tag, want_tag, "tag on {}", be.name());
        }
    }
}

/// Every message and AAD length around the AES-NI one-pass short path (AAD blocks + message
/// blocks + the length block at most eight) and just past it, 12-byte and other nonces.
/// Seals `pt` on portable and on every backend, compares ciphertext and tag, and opens each
/// result again.
fn check_all(
    reference: &AnyGcm,
    gs: &[(Backend, AnyGcm)],
    nonce: &[u8],
    aad: &[u8],
    pt: &[u8],
    what: &str,
) {
    let mut want = pt.to_vec();
    let want_tag = reference.seal(nonce, aad, &mut want).unwrap();
    for (be, g) in gs {
        let mut ct = pt.to_vec();
        let tag = g.seal(nonce, aad, &mut ct).unwrap();
        assert_eq!(ct, want, "ciphertext on {} ({what})", be.name());
        assert_eq!(tag, want_tag, "tag on {} ({what})", be.name());
        g.open(nonce, aad, &mut ct, &tag).unwrap();
        assert_eq!(ct, pt, "decryption on {} ({what})", be.name());
    }
}

/// Portable and every available backend for one key.
fn all_for(key: &[u8]) -> (AnyGcm, Vec<(Backend, AnyGcm)>) {
    let reference = AnyGcm::new(key, Backend::Portable).unwrap();
    let gs = backends()
        .into_iter()
        .map(|be| (be, AnyGcm::new(key, be).unwrap()))
        .collect();
    (reference, gs)
}

#[test]
fn short_inputs_match_portable() {
    for key_len in [16usize, 32] {
        let key: Vec<u8> = (0..key_len).map(|i| (i * 13 + 1) as u8).collect();
        let (reference, gs) = all_for(&key);
        for nonce_len in [12usize, 8, 16] {
            let nonce: Vec<u8> = (0..nonce_len).map(|i| (i * 7 + 5) as u8).collect();
            for aad_len in 0..=130usize {
                let aad: Vec<u8> = (0..aad_len).map(|i| (i * 3 + 11) as u8).collect();
                for len in 0..=130usize {
                    let pt: Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
                    let what = format!("{nonce_len}, {aad_len}, {len}");
                    check_all(&reference, &gs, &nonce, &aad, &pt, &what);
                }
            }
        }
    }
}

/// Messages of 16 and more 256-byte chunks: with a 96-bit nonce the counter of chunk 15 is the
/// first whose low byte would carry inside the chunk, so the VAES counter shortcut hands over
/// to the general path there (and back); a 300-byte nonce makes `J0` a GHASH over whole
/// 256-byte chunks and the counter secret (no shortcut at all).
#[test]
fn long_inputs_match_portable() {
    for key_len in [16usize, 32] {
        let key: Vec<u8> = (0..key_len).map(|i| (i * 29 + 3) as u8).collect();
        let (reference, gs) = all_for(&key);
        for nonce_len in [12usize, 300] {
            let nonce: Vec<u8> = (0..nonce_len).map(|i| (i * 5 + 9) as u8).collect();
            for len in [3840usize, 4096, 4352 + 1, 8192 + 17, 16384 + 255] {
                let aad: Vec<u8> = (0..len % 300).map(|i| (i * 3 + 1) as u8).collect();
                let pt: Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
                check_all(
                    &reference,
                    &gs,
                    &nonce,
                    &aad,
                    &pt,
                    &format!("{nonce_len}, {len}"),
                );
            }
        }
    }
}
