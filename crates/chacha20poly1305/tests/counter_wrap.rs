//! The end of the 32-bit block counter (RFC 8439 section 2.4: the IETF ChaCha20 counter is 32
//! bits; section 2.8: at most `2^32 - 1` blocks after the Poly1305 key block).
//!
//! What this crate promises (and these tests hold it to, on every backend): the keystream ends
//! with block `2^32 - 1`. It never wraps to block 0 (in the AEAD the Poly1305 key block, and in
//! any use a repeat of the keystream under the same nonce). The hazmat stream serves every
//! byte up to the end of block `2^32 - 1` and answers a request that would need a later block
//! with `Error::MessageTooLong`, writing nothing and keeping its position; the AEADs refuse a
//! message longer than `MAX_MESSAGE_LEN = 2^38 - 64` (blocks 1..=`2^32 - 1`) the same way,
//! before anything is written.
//!
//! The reference is RustCrypto's `chacha20` block function, one block at a time through its
//! `ChaChaCore` (its `StreamCipher` wrapper stops one block early: it reports
//! `u32::MAX - counter` blocks remaining, so it refuses block `2^32 - 1` itself).

use chacha20::ChaChaCore;
use chacha20::cipher::consts::U10;
use chacha20::cipher::{KeyIvInit, StreamCipherCore, StreamCipherSeekCore};
use tessera_chacha20poly1305::Error;
use tessera_chacha20poly1305::hazmat::ChaCha20;
use tessera_chacha20poly1305::testing::Backend;
use tessera_testkit::available;

const KEY: [u8; 32] = [0x9e; 32];
const NONCE: [u8; 12] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/// RustCrypto's keystream of blocks `first..first + n` (`first + n <= 2^32`).
fn reference(first: u32, n: u32) -> Vec<u8> {
    let mut core = ChaChaCore::<U10>::new(&KEY.into(), &NONCE.into());
    let mut out = Vec::with_capacity(64 * n as usize);
    for i in 0..n {
        core.set_block_pos(first + i);
        let mut b = Default::default();
        core.write_keystream_block(&mut b);
        out.extend_from_slice(&b);
    }
    out
}

/// Test data that is not all zeros, so that a partial write shows.
fn data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i as u8).wrapping_mul(151) ^ 0x5a).collect()
}

/// Lengths of 1..=41 blocks, whole and partial (one byte into the last block, one short of
/// whole, whole), and zero.
fn lens() -> Vec<usize> {
    let mut v = vec![0];
    for nb in 1..=41 {
        v.extend([64 * nb - 63, 64 * nb - 1, 64 * nb]);
    }
    v
}

/// From counter `2^32 - 1 - k` (`k` in 0..40) the stream has `64 (k + 1)` bytes left: every
/// request that fits is the reference keystream, every longer one is `MessageTooLong` with
/// the buffer untouched, after which the stream still serves the rest exactly to the end.
#[test]
fn hazmat_stream_to_the_end_of_the_counter() {
    let backends = available::<Backend>();
    let reference = reference(u32::MAX - 40, 41);
    for k in 0u32..40 {
        let start = u32::MAX - k;
        let avail = 64 * (k as usize + 1);
        let want = &reference[reference.len() - avail..];
        for len in lens() {
            for &be in &backends {
                let what = format!("{} counter 2^32-1-{k} len {len}", be.name());
                let mut c = ChaCha20::new_with_backend(be, &KEY, &NONCE, start);
                let orig = data(len);
                let mut buf = orig.clone();
                let r = c.apply_keystream(&mut buf);
                if len <= avail {
                    assert_eq!(r, Ok(()), "{what}");
                    let x: Vec<u8> = orig.iter().zip(want).map(|(d, k)| d ^ k).collect();
                    assert!(buf == x, "{what}: keystream differs from the reference");
                    continue;
                }
                assert_eq!(r, Err(Error::MessageTooLong), "{what}");
                assert!(buf == orig, "{what}: written to on error");
                // The failed request did not move the stream: the rest is still there, to
                // the last byte of block 2^32 - 1, and not one byte more.
                let mut rest = vec![0u8; avail];
                assert_eq!(c.apply_keystream(&mut rest), Ok(()), "{what}: rest");
                assert!(rest == want, "{what}: rest differs from the reference");
                let mut one = [0x77u8];
                assert_eq!(
                    c.apply_keystream(&mut one),
                    Err(Error::MessageTooLong),
                    "{what}: past the end"
                );
                assert_eq!(one, [0x77], "{what}: written to past the end");
                assert_eq!(
                    c.apply_keystream(&mut []),
                    Ok(()),
                    "{what}: empty at the end"
                );
            }
        }
    }
}

/// The same end reached in two requests (the first leaving a partly used block buffered, or
/// ending on a block boundary), and through `seek`: the two pieces are the reference
/// keystream; then nothing more.
#[test]
fn hazmat_stream_split_and_seek_near_the_end() {
    let backends = available::<Backend>();
    let reference = reference(u32::MAX - 40, 41);
    for k in 0u32..40 {
        let avail = 64 * (k as usize + 1);
        let want = &reference[reference.len() - avail..];
        for first in [1usize, 17, 63, 64, 65, 127, 128, 129, 1000] {
            if first > avail {
                continue;
            }
            for &be in &backends {
                let what = format!("{} counter 2^32-1-{k} split {first}", be.name());
                let mut c = ChaCha20::new_with_backend(be, &KEY, &NONCE, 0);
                c.seek(u32::MAX - k);
                let mut a = vec![0u8; first];
                let mut b = vec![0u8; avail - first];
                assert_eq!(c.apply_keystream(&mut a), Ok(()), "{what}");
                // One byte too many for what is left: refused, nothing written.
                let mut over = vec![0x33u8; avail - first + 1];
                assert_eq!(
                    c.apply_keystream(&mut over),
                    Err(Error::MessageTooLong),
                    "{what}"
                );
                assert!(over.iter().all(|&x| x == 0x33), "{what}: written on error");
                assert_eq!(c.apply_keystream(&mut b), Ok(()), "{what}");
                a.extend_from_slice(&b);
                assert!(a == want, "{what}: keystream differs from the reference");
                let mut one = [0u8];
                assert_eq!(c.apply_keystream(&mut one), Err(Error::MessageTooLong));
                assert_eq!(one, [0], "{what}: written past the end");
            }
        }
    }
}

/// The AEADs refuse a message one byte (and one block, and one block and a byte) longer than
/// `MAX_MESSAGE_LEN`, whose last block would be block `2^32` (block 0, the Poly1305 key,
/// after a wrap), with `MessageTooLong` and nothing written: seal, open, and the allocating
/// `encrypt`/`decrypt`, on every backend. The buffer is a 256 GiB anonymous mapping with
/// `MAP_NORESERVE` (no memory is committed until a page is touched; only the sampled pages
/// are).
#[cfg(all(target_os = "linux", target_pointer_width = "64", not(miri)))]
#[test]
fn aead_refuses_messages_past_the_counter() {
    use tessera_chacha20poly1305::{ChaCha20Poly1305, MAX_MESSAGE_LEN, TAG_LEN, XChaCha20Poly1305};

    /// An anonymous private mapping of `len` zero bytes, unmapped on drop.
    struct Mapping {
        ptr: *mut u8,
        len: usize,
    }
    impl Mapping {
        fn new(len: usize) -> Option<Mapping> {
            // SAFETY: a fresh anonymous private mapping (no file, no fixed address): it
            // aliases nothing. `MAP_NORESERVE`: pages are committed only when touched.
            let p = unsafe {
                libc::mmap(
                    core::ptr::null_mut(),
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            (p != libc::MAP_FAILED).then_some(Mapping { ptr: p.cast(), len })
        }
        fn bytes(&mut self) -> &mut [u8] {
            // SAFETY: `ptr..ptr + len` is the readable and writable mapping this value owns
            // (zero-filled, so initialized `u8`s; `len <= isize::MAX`), borrowed mutably
            // through `&mut self`.
            unsafe { core::slice::from_raw_parts_mut(self.ptr, self.len) }
        }
    }
    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: the mapping made in `new`, no longer borrowed.
            unsafe { libc::munmap(self.ptr.cast(), self.len) };
        }
    }

    let max = usize::try_from(MAX_MESSAGE_LEN).unwrap();
    let longest = max + 65 + TAG_LEN;
    let Some(mut map) = Mapping::new(longest) else {
        // Only where the kernel refuses the address space (strict overcommit accounting): a
        // skip, reported, and a failure under CI, which must run it.
        assert!(
            std::env::var_os("CI").is_none(),
            "could not map {longest} bytes: aead_refuses_messages_past_the_counter cannot run"
        );
        eprintln!(
            "SKIPPED: could not map {longest} bytes (aead_refuses_messages_past_the_counter)"
        );
        return;
    };
    let mem = map.bytes();
    // Marks at the start, in the middle and at the end of every buffer tried: a write
    // anywhere the AEAD would start (or end) changes one of them.
    let samples = |n: usize| [0..4096, n / 2 - 2048..n / 2 + 2048, n - 4096..n];
    let mark = |mem: &mut [u8], n: usize| {
        for r in samples(n) {
            for i in r {
                mem[i] = i as u8 ^ 0xa5;
            }
        }
    };
    let marked = |mem: &[u8], n: usize| {
        samples(n)
            .into_iter()
            .all(|r| r.into_iter().all(|i| mem[i] == i as u8 ^ 0xa5))
    };
    let tag = [0u8; TAG_LEN];
    for &be in &available::<Backend>() {
        let a = ChaCha20Poly1305::new_with_backend(be, &[1; 32]);
        let x = XChaCha20Poly1305::new_with_backend(be, &[1; 32]);
        for n in [max + 1, max + 64, max + 65] {
            let what = format!("{} len MAX_MESSAGE_LEN + {}", be.name(), n - max);
            let buf = &mut mem[..n];
            mark(buf, n);
            let r = a.encrypt_in_place_detached(&[0; 12], b"", buf);
            assert_eq!(r, Err(Error::MessageTooLong), "{what}: seal");
            assert!(marked(buf, n), "{what}: seal wrote to the buffer");
            let r = a.decrypt_in_place_detached(&[0; 12], b"", buf, &tag);
            assert_eq!(r, Err(Error::MessageTooLong), "{what}: open");
            assert!(marked(buf, n), "{what}: open wrote to the buffer");
            let r = x.encrypt_in_place_detached(&[0; 24], b"", buf);
            assert_eq!(r, Err(Error::MessageTooLong), "{what}: XChaCha seal");
            let r = x.decrypt_in_place_detached(&[0; 24], b"", buf, &tag);
            assert_eq!(r, Err(Error::MessageTooLong), "{what}: XChaCha open");
            assert!(marked(buf, n), "{what}: XChaCha wrote to the buffer");
            // The allocating forms refuse before allocating (a copy would commit 256 GiB).
            assert_eq!(
                a.encrypt(&[0; 12], b"", buf),
                Err(Error::MessageTooLong),
                "{what}: encrypt"
            );
            let sealed = &mem[..n + TAG_LEN];
            assert_eq!(
                a.decrypt(&[0; 12], b"", sealed),
                Err(Error::MessageTooLong),
                "{what}: decrypt"
            );
            assert_eq!(
                x.decrypt(&[0; 24], b"", sealed),
                Err(Error::MessageTooLong),
                "{what}: XChaCha decrypt"
            );
        }
    }
}
