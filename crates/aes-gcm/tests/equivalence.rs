//! proptest: every available backend against portable (`tessera_testkit::check_backends`), for
//! random keys of all sizes, nonces of any length, additional data and messages with lengths
//! around multiples of 16 and of the 8- and 16-block strides and of 256-byte chunks, and
//! pre-counter blocks whose 32-bit counter wraps inside the message. The exhaustive sweeps of
//! the 512-byte stride run only on the backend they target (`tessera_testkit::targeted`, which
//! prints what was swept and what was skipped).

// `counter_wrap_matches_portable` needs the test hook `AesGcm::__seal_with_j0`.
#[cfg(not(tessera_test_hooks))]
compile_error!(
    "tests/equivalence.rs needs --cfg tessera_test_hooks (set by this workspace's \
     .cargo/config.toml; add it when RUSTFLAGS overrides that list)"
);

#[path = "data/common.rs"]
mod common;

use common::{key_strategy, seal_open};
use proptest::prelude::*;
use tessera_aes_gcm::testing::Backend;
use tessera_aes_gcm::{AesGcm, Tag};
use tessera_testkit::strategies::{bytes_near_blocks, len_near_blocks};
use tessera_testkit::{check_backends, check_backends_in, targeted};

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
        check_backends::<Backend, _>("seal/open", |be| {
            seal_open(&AesGcm::new_with_backend(be, &key).unwrap(), &nonce, &aad, &pt)
        });
    }

    #[test]
    fn counter_wrap_matches_portable(
        key in key_strategy(),
        prefix in any::<[u8; 12]>(),
        before_wrap in 0u32..=40,
        len in prop_oneof![
            len_near_blocks(16, 16 * 16 * 2 + 40),
            len_near_blocks(256, 256 * 4 + 40),
            len_near_blocks(512, 512 * 3 + 40),
        ],
    ) {
        // J0's counter sits `before_wrap` steps below 2^32, so the message's counters wrap.
        let mut j0 = [0u8; 16];
        j0[..12].copy_from_slice(&prefix);
        j0[12..].copy_from_slice(&(u32::MAX - before_wrap).to_be_bytes());
        let pt: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
        check_backends::<Backend, _>("counter wrap", |be| {
            let g = AesGcm::new_with_backend(be, &key).unwrap();
            let mut ct = pt.clone();
            let tag = g.__seal_with_j0(&j0, b"wrap", &mut ct);
            (ct, tag)
        });
    }
}

/// One key on each of `bes`, in that order.
fn keys_on(bes: impl IntoIterator<Item = Backend>, key: &[u8]) -> Vec<AesGcm> {
    bes.into_iter()
        .map(|be| AesGcm::new_with_backend(be, key).unwrap())
        .collect()
}

/// The keys of every available backend for one key, portable first.
fn all_for(key: &[u8]) -> Vec<AesGcm> {
    keys_on(Backend::all_available(), key)
}

/// [`seal_open`] with the key of backend `be` among `gs`.
fn seal_open_on(gs: &[AesGcm], be: Backend, nonce: &[u8], aad: &[u8], pt: &[u8]) -> (Vec<u8>, Tag) {
    let g = gs
        .iter()
        .find(|g| g.backend() == be)
        .expect("a key per backend");
    seal_open(g, nonce, aad, pt)
}

/// Seals and opens `pt` on every backend (keys from [`all_for`]) and checks each against
/// portable.
fn check_all(gs: &[AesGcm], nonce: &[u8], aad: &[u8], pt: &[u8], what: &str) {
    check_backends::<Backend, _>(what, |be| seal_open_on(gs, be, nonce, aad, pt));
}

/// Every message and AAD length around the AES-NI one-pass short path (AAD blocks + message
/// blocks + the length block at most eight) and just past it, 12-byte and other nonces.
#[test]
fn short_inputs_match_portable() {
    for key_len in [16usize, 32] {
        let key: Vec<u8> = (0..key_len).map(|i| (i * 13 + 1) as u8).collect();
        let gs = all_for(&key);
        for nonce_len in [12usize, 8, 16] {
            let nonce: Vec<u8> = (0..nonce_len).map(|i| (i * 7 + 5) as u8).collect();
            for aad_len in 0..=130usize {
                let aad: Vec<u8> = (0..aad_len).map(|i| (i * 3 + 11) as u8).collect();
                for len in 0..=130usize {
                    let pt: Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
                    let what = format!("{nonce_len}, {aad_len}, {len}");
                    check_all(&gs, &nonce, &aad, &pt, &what);
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
        let gs = all_for(&key);
        for nonce_len in [12usize, 300] {
            let nonce: Vec<u8> = (0..nonce_len).map(|i| (i * 5 + 9) as u8).collect();
            for len in [3840usize, 4096, 4352 + 1, 8192 + 17, 16384 + 255] {
                let aad: Vec<u8> = (0..len % 300).map(|i| (i * 3 + 1) as u8).collect();
                let pt: Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
                check_all(&gs, &nonce, &aad, &pt, &format!("{nonce_len}, {len}"));
            }
        }
    }
}

/// The backends the 512-byte-stride sweeps below target. Their tails run the 256-bit and AES-NI
/// code, which the proptest and short/long checks above already compare on every backend; the
/// sweeps run only where the 512-bit backend exists (natively on a VAES + AVX-512 CPU, never
/// under the CI's qemu CPUs, which lack it) and say so on stderr.
const STRIDE_512: &[&str] = &["x86_vaes512"];

/// Keys for portable and each of `bes`, in that order.
fn keys_for(bes: &[Backend], key: &[u8]) -> Vec<AesGcm> {
    keys_on(
        std::iter::once(Backend::Portable).chain(bes.iter().copied()),
        key,
    )
}

/// Seals and opens `pt` on portable and each of `bes` (keys from [`keys_for`]) and checks each
/// against portable.
fn check_in(bes: &[Backend], gs: &[AesGcm], nonce: &[u8], aad: &[u8], pt: &[u8], what: &str) {
    check_backends_in(bes, what, |be| seal_open_on(gs, be, nonce, aad, pt));
}

/// Every message length from 0 through three 512-byte chunks, a 256-byte chunk and a partial
/// block: the 512-bit stride (its first chunk, the chunk whose counters carry out of the low
/// byte, the sealed message's last chunk hashed after the loop) and its hand-over to the 256-bit
/// and AES-NI tails, at every tail length. All three key sizes, a 96-bit nonce (public counter,
/// starting at 2) and a 13-byte one (secret counter), AAD of 0, 13 and 525 bytes (the last
/// through the 512-bit GHASH) in turn. Only on the backends of [`STRIDE_512`].
#[test]
fn every_length_across_512_byte_chunks_matches_portable() {
    let bes = targeted::<Backend>("every length across 512-byte chunks", STRIDE_512);
    if bes.is_empty() {
        return;
    }
    let mut cases = 0usize;
    for key_len in [16usize, 24, 32] {
        let key: Vec<u8> = (0..key_len).map(|i| (i * 17 + 9) as u8).collect();
        let gs = keys_for(&bes, &key);
        for nonce_len in [12usize, 13] {
            let nonce: Vec<u8> = (0..nonce_len).map(|i| (i * 11 + 2) as u8).collect();
            for len in 0..=3 * 512 + 256 + 17 {
                let aad_len = [0usize, 13, 525][len % 3];
                let aad: Vec<u8> = (0..aad_len).map(|i| (i * 5 + 3) as u8).collect();
                let pt: Vec<u8> = (0..len).map(|i| (i * 29 + len) as u8).collect();
                let what = format!("{nonce_len}, {aad_len}, {len}");
                check_in(&bes, &gs, &nonce, &aad, &pt, &what);
                cases += 1;
            }
        }
    }
    eprintln!("every length across 512-byte chunks: {cases} cases per swept backend");
}

/// Long messages on a 96-bit nonce whose counters cross every low-byte carry position of the
/// 512-bit stride (a chunk of thirty-two counters carries when it starts above `0xe0`): 64 KiB
/// plus tails, so carries out of the low counter byte land inside register 7 of the aligned
/// (96-bit nonce) path at every position.
/// Only on the backends of [`STRIDE_512`].
#[test]
fn long_messages_cross_counter_carries() {
    let bes = targeted::<Backend>("long messages across counter carries", STRIDE_512);
    if bes.is_empty() {
        return;
    }
    for key_len in [16usize, 24, 32] {
        let key: Vec<u8> = (0..key_len).map(|i| (i * 7 + 1) as u8).collect();
        let gs = keys_for(&bes, &key);
        let nonce = [0x5au8; 12];
        for len in [65536usize, 65536 + 512 + 16 * 5 + 3] {
            let pt: Vec<u8> = (0..len).map(|i| (i * 13 + 1) as u8).collect();
            check_in(&bes, &gs, &nonce, b"", &pt, &format!("{len}"));
        }
    }
}
