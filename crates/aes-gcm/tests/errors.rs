//! Bad input and tampering: every single-bit change of ciphertext, tag, additional data or
//! nonce fails to decrypt and leaves a cleared buffer; the length limits give typed errors.

#[path = "data/common.rs"]
mod common;

use common::{AnyGcm, backends};
use tessera_aes_gcm::{Aes128Gcm, Aes256Gcm, Error, MAX_AAD_LEN, MAX_MESSAGE_LEN, check_lengths};

/// Flips every bit of ciphertext, tag, AAD and nonce in turn; returns the number of flips.
fn flip_all(g: &AnyGcm, nonce: &[u8], aad: &[u8], pt: &[u8]) -> usize {
    let mut ct = pt.to_vec();
    let tag = g.seal(nonce, aad, &mut ct).unwrap();
    let be = g.backend().name();
    let mut flips = 0;
    let reject = |n: &[u8], a: &[u8], c: &[u8], t: &[u8; 16], what: &str| {
        let mut buf = c.to_vec();
        assert_eq!(
            g.open(n, a, &mut buf, t),
            Err(Error::Authentication),
            "{what} on {be}"
        );
        assert!(
            buf.iter().all(|&b| b == 0),
            "{what}: buffer not cleared on {be}"
        );
    };
    for i in 0..ct.len() * 8 {
        let mut c = ct.clone();
        c[i / 8] ^= 1 << (i % 8);
        reject(nonce, aad, &c, &tag, &format!("ciphertext bit {i}"));
        flips += 1;
    }
    for i in 0..128 {
        let mut t = tag;
        t[i / 8] ^= 1 << (i % 8);
        reject(nonce, aad, &ct, &t, &format!("tag bit {i}"));
        flips += 1;
    }
    for i in 0..aad.len() * 8 {
        let mut a = aad.to_vec();
        a[i / 8] ^= 1 << (i % 8);
        reject(nonce, &a, &ct, &tag, &format!("aad bit {i}"));
        flips += 1;
    }
    for i in 0..nonce.len() * 8 {
        let mut n = nonce.to_vec();
        n[i / 8] ^= 1 << (i % 8);
        reject(&n, aad, &ct, &tag, &format!("nonce bit {i}"));
        flips += 1;
    }
    // The unmodified message still opens.
    let mut buf = ct.clone();
    g.open(nonce, aad, &mut buf, &tag).unwrap();
    assert_eq!(buf, pt);
    flips
}

#[test]
fn every_single_bit_flip_fails() {
    let pt: Vec<u8> = (0..45u8).collect();
    let aad: Vec<u8> = (100..121u8).collect();
    let mut total = 0;
    for be in backends() {
        for key in [&[0x11u8; 16][..], &[0x22; 24], &[0x33; 32]] {
            let g = AnyGcm::new(key, be).unwrap();
            total += flip_all(&g, &[0x44; 12], &aad, &pt);
            total += flip_all(&g, &[0x55; 16], &aad, &pt[..17]);
        }
    }
    // Per backend and key: (45 + 16 + 21 + 12) * 8 + (17 + 16 + 21 + 16) * 8 = 1312 flips.
    eprintln!("bit flips rejected: {total}");
    assert_eq!(total, 1312 * 3 * backends().len());
}

/// Sampled single-bit flips on long inputs: 700- and 1100-byte messages (several 128-byte
/// AES-NI chunks and 256-byte VAES chunks plus tails) and 300 bytes of AAD (the wide GHASH
/// path). One bit per 16-byte block of ciphertext and AAD, its position varying with the
/// block, plus every 7th tag bit; returns the number of flips.
fn flip_sampled(g: &AnyGcm, nonce: &[u8], aad: &[u8], pt: &[u8]) -> usize {
    let mut ct = pt.to_vec();
    let tag = g.seal(nonce, aad, &mut ct).unwrap();
    let be = g.backend().name();
    let mut flips = 0;
    let reject = |a: &[u8], c: &[u8], t: &[u8; 16], what: &str| {
        let mut buf = c.to_vec();
        assert_eq!(
            g.open(nonce, a, &mut buf, t),
            Err(Error::Authentication),
            "{what} on {be} ({} bytes)",
            c.len()
        );
        assert!(
            buf.iter().all(|&b| b == 0),
            "{what}: buffer not cleared on {be}"
        );
    };
    for blk in 0..ct.len().div_ceil(16) {
        let i = (blk * 16 * 8 + (blk * 37) % 128).min(ct.len() * 8 - 1);
        let mut c = ct.clone();
        c[i / 8] ^= 1 << (i % 8);
        reject(aad, &c, &tag, &format!("ciphertext bit {i}"));
        flips += 1;
    }
    for blk in 0..aad.len().div_ceil(16) {
        let i = (blk * 16 * 8 + (blk * 53) % 128).min(aad.len() * 8 - 1);
        let mut a = aad.to_vec();
        a[i / 8] ^= 1 << (i % 8);
        reject(&a, &ct, &tag, &format!("aad bit {i}"));
        flips += 1;
    }
    for i in (0..128).step_by(7) {
        let mut t = tag;
        t[i / 8] ^= 1 << (i % 8);
        reject(aad, &ct, &t, &format!("tag bit {i}"));
        flips += 1;
    }
    let mut buf = ct.clone();
    g.open(nonce, aad, &mut buf, &tag).unwrap();
    assert_eq!(buf, pt);
    flips
}

#[test]
fn sampled_bit_flips_on_long_messages_fail() {
    let aad: Vec<u8> = (0..300u32).map(|i| (i * 11 + 5) as u8).collect();
    let mut total = 0;
    for be in backends() {
        for key in [&[0x11u8; 16][..], &[0x22; 24], &[0x33; 32]] {
            let g = AnyGcm::new(key, be).unwrap();
            for len in [700usize, 1100] {
                let pt: Vec<u8> = (0..len).map(|i| (i * 7 + 1) as u8).collect();
                total += flip_sampled(&g, &[0x44; 12], &aad, &pt);
                total += flip_sampled(&g, &[0x55; 16], b"short aad", &pt);
            }
        }
    }
    // Per backend and key: 700 B -> 44 blocks, 1100 B -> 69 blocks; AAD 300 B -> 19 blocks or
    // 9 B -> 1 block; 19 tag bits. (44 + 19 + 19) + (44 + 1 + 19) + (69 + 19 + 19) + (69 + 1 + 19).
    let per = (44 + 19 + 19) + (44 + 1 + 19) + (69 + 19 + 19) + (69 + 1 + 19);
    eprintln!("sampled bit flips on long messages rejected: {total}");
    assert_eq!(total, per * 3 * backends().len());
}

#[test]
fn empty_nonce_is_rejected() {
    for be in backends() {
        let g = Aes128Gcm::new_with_backend(&[0; 16], be);
        let mut buf = *b"plaintext";
        assert_eq!(
            g.encrypt_in_place_detached(&[], b"", &mut buf),
            Err(Error::InvalidNonceLength)
        );
        assert_eq!(&buf, b"plaintext", "nothing written on error");
        assert_eq!(
            g.decrypt_in_place_detached(&[], b"", &mut buf, &[0; 16]),
            Err(Error::InvalidNonceLength)
        );
        assert_eq!(buf, [0; 9], "decryption error clears the buffer");
        assert_eq!(g.encrypt(&[], b"", b"x"), Err(Error::InvalidNonceLength));
        assert_eq!(
            g.decrypt(&[], b"", &[0; 17]),
            Err(Error::InvalidNonceLength)
        );
    }
}

#[test]
fn short_ciphertext_is_rejected() {
    for be in backends() {
        let g = Aes256Gcm::new_with_backend(&[1; 32], be);
        for n in 0..16 {
            assert_eq!(
                g.decrypt(&[0; 12], b"", &vec![0; n]),
                Err(Error::CiphertextTooShort)
            );
        }
        // Exactly a tag: the empty message.
        let sealed = g.encrypt(&[0; 12], b"a", b"").unwrap();
        assert_eq!(sealed.len(), 16);
        assert_eq!(g.decrypt(&[0; 12], b"a", &sealed).unwrap(), b"");
        assert_eq!(
            g.decrypt(&[0; 12], b"b", &sealed),
            Err(Error::Authentication)
        );
    }
}

/// The SP 800-38D limits, at and just past each bound (no 64 GiB buffer needed: the same
/// check runs before any processing in every entry point).
#[test]
fn length_limits() {
    assert_eq!(check_lengths(12, 0, MAX_MESSAGE_LEN as usize), Ok(()));
    assert_eq!(
        check_lengths(12, 0, MAX_MESSAGE_LEN as usize + 1),
        Err(Error::MessageTooLong)
    );
    assert_eq!(check_lengths(12, MAX_AAD_LEN as usize, 0), Ok(()));
    assert_eq!(
        check_lengths(12, MAX_AAD_LEN as usize + 1, 0),
        Err(Error::AadTooLong)
    );
    assert_eq!(check_lengths(1, 0, 0), Ok(()));
    assert_eq!(check_lengths(0, 0, 0), Err(Error::InvalidNonceLength));
    assert_eq!(
        check_lengths(usize::MAX, 0, 0),
        Err(Error::InvalidNonceLength)
    );
    assert_eq!(MAX_MESSAGE_LEN, (1u64 << 36) - 32);
}
