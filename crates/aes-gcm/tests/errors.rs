//! Bad input and tampering: every single-bit change of ciphertext, tag, additional data or
//! nonce fails to decrypt and leaves a cleared buffer; the length limits give typed errors.

use tessera_aes_gcm::testing::Backend;
use tessera_aes_gcm::{
    Aes128Gcm, Aes192Gcm, Aes256Gcm, AesGcm, Error, MAX_AAD_LEN, MAX_MESSAGE_LEN, check_lengths,
};
use tessera_testkit::for_each_backend;

/// How many backends this CPU has (each test runs on all of them).
fn backend_count() -> usize {
    Backend::all_available().count()
}

/// The inputs of an opening that a bit flip can hit.
#[derive(Clone, Copy, Debug)]
enum Field {
    Ciphertext,
    Tag,
    Aad,
    Nonce,
}

/// Seals `pt`, then flips one bit at a time of ciphertext, tag, AAD and nonce, at the bit
/// positions `bits(field, length in bytes)` picks: each flip must fail to open and leave a
/// cleared buffer, and the unmodified message must still open. Returns the number of flips.
fn flip_bits(
    g: &AesGcm,
    nonce: &[u8],
    aad: &[u8],
    pt: &[u8],
    bits: impl Fn(Field, usize) -> Vec<usize>,
) -> usize {
    let mut ct = pt.to_vec();
    let tag = g.encrypt_in_place_detached(nonce, aad, &mut ct).unwrap();
    let be = g.backend().name();
    // The inputs, indexed as the fields.
    let mut inputs = [ct.clone(), tag.to_vec(), aad.to_vec(), nonce.to_vec()];
    let mut flips = 0;
    for (f, field) in [Field::Ciphertext, Field::Tag, Field::Aad, Field::Nonce]
        .into_iter()
        .enumerate()
    {
        for i in bits(field, inputs[f].len()) {
            inputs[f][i / 8] ^= 1 << (i % 8);
            let [c, t, a, n] = &inputs;
            let mut buf = c.clone();
            assert_eq!(
                g.decrypt_in_place_detached(n, a, &mut buf, t[..].try_into().unwrap()),
                Err(Error::Authentication),
                "{field:?} bit {i} on {be} ({} bytes)",
                c.len()
            );
            assert!(
                buf.iter().all(|&b| b == 0),
                "{field:?} bit {i}: buffer not cleared on {be}"
            );
            inputs[f][i / 8] ^= 1 << (i % 8);
            flips += 1;
        }
    }
    let mut buf = ct;
    g.decrypt_in_place_detached(nonce, aad, &mut buf, &tag)
        .unwrap();
    assert_eq!(buf, pt);
    flips
}

/// Every bit of every field.
fn flip_all(g: &AesGcm, nonce: &[u8], aad: &[u8], pt: &[u8]) -> usize {
    flip_bits(g, nonce, aad, pt, |_, len| (0..len * 8).collect())
}

#[test]
fn every_single_bit_flip_fails() {
    let pt: Vec<u8> = (0..45u8).collect();
    let aad: Vec<u8> = (100..121u8).collect();
    let mut total = 0;
    for_each_backend::<Backend>(|be| {
        for key in [&[0x11u8; 16][..], &[0x22; 24], &[0x33; 32]] {
            let g = AesGcm::new_with_backend(be, key).unwrap();
            total += flip_all(&g, &[0x44; 12], &aad, &pt);
            total += flip_all(&g, &[0x55; 16], &aad, &pt[..17]);
        }
    });
    // Per backend and key: (45 + 16 + 21 + 12) * 8 + (17 + 16 + 21 + 16) * 8 = 1312 flips.
    eprintln!("bit flips rejected: {total}");
    assert_eq!(total, 1312 * 3 * backend_count());
}

/// Sampled single-bit flips on long inputs: 700- and 1100-byte messages (several 128-byte
/// AES-NI chunks and 256-byte VAES chunks plus tails) and 300 bytes of AAD (the wide GHASH
/// path). One bit per 16-byte block of ciphertext and AAD, its position varying with the
/// block, plus every 7th tag bit; returns the number of flips.
fn flip_sampled(g: &AesGcm, nonce: &[u8], aad: &[u8], pt: &[u8]) -> usize {
    let per_block = |len: usize, step: usize| -> Vec<usize> {
        (0..len.div_ceil(16))
            .map(|blk| (blk * 16 * 8 + (blk * step) % 128).min(len * 8 - 1))
            .collect()
    };
    flip_bits(g, nonce, aad, pt, |field, len| match field {
        Field::Ciphertext => per_block(len, 37),
        Field::Aad => per_block(len, 53),
        Field::Tag => (0..128).step_by(7).collect(),
        Field::Nonce => Vec::new(),
    })
}

#[test]
fn sampled_bit_flips_on_long_messages_fail() {
    let aad: Vec<u8> = (0..300u32).map(|i| (i * 11 + 5) as u8).collect();
    let mut total = 0;
    for_each_backend::<Backend>(|be| {
        for key in [&[0x11u8; 16][..], &[0x22; 24], &[0x33; 32]] {
            let g = AesGcm::new_with_backend(be, key).unwrap();
            for len in [700usize, 1100] {
                let pt: Vec<u8> = (0..len).map(|i| (i * 7 + 1) as u8).collect();
                total += flip_sampled(&g, &[0x44; 12], &aad, &pt);
                total += flip_sampled(&g, &[0x55; 16], b"short aad", &pt);
            }
        }
    });
    // Per backend and key: 700 B -> 44 blocks, 1100 B -> 69 blocks; AAD 300 B -> 19 blocks or
    // 9 B -> 1 block; 19 tag bits. (44 + 19 + 19) + (44 + 1 + 19) + (69 + 19 + 19) + (69 + 1 + 19).
    let per = (44 + 19 + 19) + (44 + 1 + 19) + (69 + 19 + 19) + (69 + 1 + 19);
    eprintln!("sampled bit flips on long messages rejected: {total}");
    assert_eq!(total, per * 3 * backend_count());
}

#[test]
fn empty_nonce_is_rejected() {
    for_each_backend::<Backend>(|be| {
        let g = Aes128Gcm::new_with_backend(be, &[0; 16]);
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
        assert_eq!(
            &buf, b"plaintext",
            "a length error leaves the buffer untouched (nothing was decrypted)"
        );
        assert_eq!(g.encrypt(&[], b"", b"x"), Err(Error::InvalidNonceLength));
        assert_eq!(
            g.decrypt(&[], b"", &[0; 17]),
            Err(Error::InvalidNonceLength)
        );
    });
}

/// The runtime-keyed `AesGcm` takes exactly the AES key sizes, and each size is the same
/// cipher as its typed counterpart.
#[test]
fn aes_gcm_key_lengths() {
    for_each_backend::<Backend>(|be| {
        for len in (0..=64).filter(|l| ![16, 24, 32].contains(l)) {
            let key = vec![0x5a; len];
            assert_eq!(
                AesGcm::new_with_backend(be, &key).unwrap_err(),
                Error::InvalidKeyLength,
                "{len}-byte key"
            );
            assert_eq!(AesGcm::new(&key).unwrap_err(), Error::InvalidKeyLength);
        }
        let key: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(41) ^ 0x3c).collect();
        let pt: Vec<u8> = (0..77u8).collect();
        let seal_any = |k: &[u8]| {
            let g = AesGcm::new_with_backend(be, k).unwrap();
            assert_eq!(g.backend(), be);
            let mut b = pt.clone();
            let t = g
                .encrypt_in_place_detached(&[9; 12], b"ad", &mut b)
                .unwrap();
            (b, t)
        };
        let seal_typed = |f: &dyn Fn(&mut [u8]) -> [u8; 16]| {
            let mut b = pt.clone();
            let t = f(&mut b);
            (b, t)
        };
        let k16: [u8; 16] = key[..16].try_into().unwrap();
        let k24: [u8; 24] = key[..24].try_into().unwrap();
        let k32: [u8; 32] = key[..].try_into().unwrap();
        let (g16, g24, g32) = (
            Aes128Gcm::new_with_backend(be, &k16),
            Aes192Gcm::new_with_backend(be, &k24),
            Aes256Gcm::new_with_backend(be, &k32),
        );
        let typed = [
            seal_typed(&|b| g16.encrypt_in_place_detached(&[9; 12], b"ad", b).unwrap()),
            seal_typed(&|b| g24.encrypt_in_place_detached(&[9; 12], b"ad", b).unwrap()),
            seal_typed(&|b| g32.encrypt_in_place_detached(&[9; 12], b"ad", b).unwrap()),
        ];
        for (k, want) in [&key[..16], &key[..24], &key[..]].into_iter().zip(&typed) {
            assert_eq!(&seal_any(k), want, "{}-byte key on {}", k.len(), be.name());
        }
        // Three different ciphers.
        assert_ne!(typed[0], typed[1]);
        assert_ne!(typed[1], typed[2]);
    });
}

#[test]
fn short_ciphertext_is_rejected() {
    for_each_backend::<Backend>(|be| {
        let g = Aes256Gcm::new_with_backend(be, &[1; 32]);
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
    });
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
