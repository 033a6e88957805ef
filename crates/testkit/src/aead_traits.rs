//! Generic checks of the RustCrypto `aead` 0.6 traits (feature `aead`), shared by the AEAD
//! crates' `tests/aead_traits.rs`: each crate calls them with its own types, its RustCrypto
//! peer and the peer package's published vector files.
//!
//! - [`wycheproof_pass`] / [`wycheproof_fail`]: a RustCrypto `.blb` file (key, nonce, aad,
//!   plaintext, ciphertext||tag) through `aead::dev::{pass_test, fail_test}`, plus in-place and
//!   separate-buffer opens (a failed open must leave the output cleared).
//! - [`keyed`] / [`exercise`] and [`check_pair`]: every `AeadInOut` entry point and `Aead` on one
//!   input, with tampering (flipped bit, changed AAD, changed nonce); `check_pair` requires the
//!   outcome to be a correct AEAD's and equal to the peer's.
//! - [`check_key_lengths`], [`sizes`]: `KeyInit::new_from_slice` length checks and the trait
//!   constants.

use aead::inout::InOutBuf;
use aead::{Aead, AeadCore, AeadInOut, KeyInit, Nonce, Payload, Tag};

use crate::registry::{blobby_records, package_file};

/// The records of `<package> <version>`'s `tests/data/<file>` (a RustCrypto AEAD `.blb`:
/// key, nonce, aad, plaintext, ciphertext||tag), leaked for `aead::dev`.
pub fn records(package: &str, version: &str, file: &str) -> Vec<aead::dev::TestVector> {
    let data = package_file(package, version, &format!("tests/data/{file}"));
    let leak = |b: &Vec<u8>| -> &'static [u8] { Box::leak(b.clone().into_boxed_slice()) };
    let recs: Vec<_> = blobby_records(&data, 5)
        .iter()
        .map(|r| aead::dev::TestVector {
            key: leak(&r[0]),
            nonce: leak(&r[1]),
            aad: leak(&r[2]),
            plaintext: leak(&r[3]),
            ciphertext: leak(&r[4]),
        })
        .collect();
    assert!(!recs.is_empty(), "{package} {file}: no records");
    recs
}

/// Pass records through `aead::dev::pass_test` (seal via `Aead` and `encrypt_inout_detached`
/// with separate buffers, open both ways); also opened in place. Returns the record count.
pub fn wycheproof_pass<C: AeadInOut + KeyInit>(package: &str, version: &str, file: &str) -> usize {
    let recs = records(package, version, file);
    for (i, tv) in recs.iter().enumerate() {
        if let Err(e) = aead::dev::pass_test::<C>(tv) {
            panic!("{file} #{i}: {e}");
        }
        let c = C::new_from_slice(tv.key).unwrap();
        let nonce = Nonce::<C>::try_from(tv.nonce).unwrap();
        let mut buf = tv.ciphertext.to_vec();
        c.decrypt_in_place(&nonce, tv.aad, &mut buf).unwrap();
        assert_eq!(buf, tv.plaintext, "{file} #{i}: in-place open");
    }
    eprintln!("{file}: {} records", recs.len());
    recs.len()
}

/// Fail records through `aead::dev::fail_test` (open via `Aead` errs); also opened with
/// separate buffers and in place, where the error must leave no plaintext in the output.
/// Returns the record count.
pub fn wycheproof_fail<C: AeadInOut + KeyInit>(package: &str, version: &str, file: &str) -> usize {
    use aead::array::typenum::Unsigned;
    let recs = records(package, version, file);
    for (i, tv) in recs.iter().enumerate() {
        if let Err(e) = aead::dev::fail_test::<C>(tv) {
            panic!("{file} #{i}: {e}");
        }
        let Some(ct_len) = tv.ciphertext.len().checked_sub(C::TagSize::USIZE) else {
            continue;
        };
        let c = C::new_from_slice(tv.key).unwrap();
        let nonce = Nonce::<C>::try_from(tv.nonce).unwrap();
        let (ct, tag) = tv.ciphertext.split_at(ct_len);
        let tag = Tag::<C>::try_from(tag).unwrap();
        let mut out = vec![0xa5u8; ct_len];
        let r =
            c.decrypt_inout_detached(&nonce, tv.aad, InOutBuf::new(ct, &mut out).unwrap(), &tag);
        assert_eq!(r, Err(aead::Error), "{file} #{i}: separate buffers");
        assert!(
            out.iter().all(|&b| b == 0),
            "{file} #{i}: output not cleared"
        );
        let mut buf = ct.to_vec();
        let r = c.decrypt_inout_detached(&nonce, tv.aad, buf.as_mut_slice().into(), &tag);
        assert_eq!(r, Err(aead::Error), "{file} #{i}: in place");
        assert!(
            buf.iter().all(|&b| b == 0),
            "{file} #{i}: buffer not cleared"
        );
    }
    eprintln!("{file}: {} records", recs.len());
    recs.len()
}

/// `C::new_from_slice` accepts exactly `good`-byte keys among lengths 0..=64.
pub fn check_key_lengths<C: KeyInit>(good: usize) {
    for n in 0..=64 {
        assert_eq!(
            C::new_from_slice(&vec![7; n]).is_ok(),
            n == good,
            "{n}-byte key"
        );
    }
}

/// The trait constants: key, nonce and tag sizes.
pub fn sizes<C: AeadCore + KeyInit>() -> (usize, usize, usize) {
    use aead::array::typenum::Unsigned;
    (C::KeySize::USIZE, C::NonceSize::USIZE, C::TagSize::USIZE)
}

/// What [`exercise`] observes for one input: ciphertext||tag from each entry point, the opened
/// plaintexts, and whether each tampered input was rejected.
#[derive(Debug, PartialEq)]
pub struct Outcome {
    /// `encrypt_inout_detached` in place, ciphertext||tag.
    pub in_place: Vec<u8>,
    /// `encrypt_inout_detached` with separate buffers.
    pub separate: Vec<u8>,
    /// `encrypt_in_place` on a `Vec` buffer.
    pub buffer: Vec<u8>,
    /// `Aead::encrypt`.
    pub vec: Vec<u8>,
    /// Opened in place, with separate buffers, and through `Aead::decrypt`.
    pub opened: [Vec<u8>; 3],
    /// Rejected: flipped bit, changed AAD, changed nonce, flipped bit with separate buffers.
    pub rejected: [bool; 4],
    /// The separate output buffer was all zero after the failed open.
    pub cleared: bool,
}

/// Seals `msg` through every `AeadInOut` entry point and `Aead`, opens each way, and tries a
/// flipped ciphertext/tag bit (`flip` picks it), a changed AAD, and a changed nonce.
pub fn exercise<C: AeadInOut>(c: &C, nonce: &[u8], aad: &[u8], msg: &[u8], flip: usize) -> Outcome {
    let nonce = Nonce::<C>::try_from(nonce).unwrap();
    let join = |mut ct: Vec<u8>, tag: Tag<C>| {
        ct.extend_from_slice(&tag);
        ct
    };

    let mut buf = msg.to_vec();
    let tag = c
        .encrypt_inout_detached(&nonce, aad, buf.as_mut_slice().into())
        .unwrap();
    let in_place = join(buf, tag);

    let mut out = vec![0x5au8; msg.len()];
    let tag = c
        .encrypt_inout_detached(&nonce, aad, InOutBuf::new(msg, &mut out).unwrap())
        .unwrap();
    let separate = join(out, tag);

    let mut buffer = msg.to_vec();
    c.encrypt_in_place(&nonce, aad, &mut buffer).unwrap();
    let vec = c.encrypt(&nonce, Payload { msg, aad }).unwrap();

    let (ct, tag) = in_place.split_at(msg.len());
    let tag = Tag::<C>::try_from(tag).unwrap();
    let mut o1 = ct.to_vec();
    c.decrypt_inout_detached(&nonce, aad, o1.as_mut_slice().into(), &tag)
        .unwrap();
    let mut o2 = vec![0x5au8; msg.len()];
    c.decrypt_inout_detached(&nonce, aad, InOutBuf::new(ct, &mut o2).unwrap(), &tag)
        .unwrap();
    let o3 = c
        .decrypt(
            &nonce,
            Payload {
                msg: &in_place,
                aad,
            },
        )
        .unwrap();

    let mut bad = in_place.clone();
    let bit = flip % (8 * bad.len());
    bad[bit / 8] ^= 1 << (bit % 8);
    let mut bad_aad = aad.to_vec();
    bad_aad.push(0);
    let mut bad_nonce = nonce.clone();
    let at = flip % bad_nonce.len();
    bad_nonce[at] ^= 1;
    let (bct, btag) = bad.split_at(msg.len());
    let btag = Tag::<C>::try_from(btag).unwrap();
    let mut sep = vec![0x5au8; msg.len()];
    let r_sep = c.decrypt_inout_detached(&nonce, aad, InOutBuf::new(bct, &mut sep).unwrap(), &btag);
    let rejected = [
        c.decrypt(&nonce, Payload { msg: &bad, aad }).is_err(),
        c.decrypt(
            &nonce,
            Payload {
                msg: &in_place,
                aad: &bad_aad,
            },
        )
        .is_err(),
        c.decrypt(
            &bad_nonce,
            Payload {
                msg: &in_place,
                aad,
            },
        )
        .is_err(),
        r_sep == Err(aead::Error),
    ];
    Outcome {
        in_place,
        separate,
        buffer,
        vec,
        opened: [o1, o2, o3],
        rejected,
        cleared: sep.iter().all(|&b| b == 0),
    }
}

/// [`exercise`] on `C::new_from_slice(key)`.
pub fn keyed<C: AeadInOut + KeyInit>(
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    msg: &[u8],
    flip: usize,
) -> Outcome {
    exercise(&C::new_from_slice(key).unwrap(), nonce, aad, msg, flip)
}

/// Both sides agree, and the outcome is what a correct AEAD gives: every entry point seals
/// the same bytes, opening returns the message, and every tampering is rejected.
pub fn check_pair(ours: Outcome, theirs: Outcome, msg: &[u8]) {
    assert_eq!(ours.in_place, theirs.in_place);
    assert_eq!(ours.separate, ours.in_place);
    assert_eq!(ours.buffer, ours.in_place);
    assert_eq!(ours.vec, ours.in_place);
    for o in &ours.opened {
        assert_eq!(o, msg);
    }
    assert_eq!(ours.rejected, [true; 4]);
    assert!(ours.cleared);
    // RustCrypto leaves its output untouched on failure rather than cleared: compare the rest.
    assert_eq!(
        Outcome {
            cleared: true,
            ..theirs
        },
        Outcome {
            cleared: true,
            ..ours
        }
    );
}

/// [`keyed`] on Tessera's `Ours` and the peer's `Peer` with the same inputs, then
/// [`check_pair`].
pub fn differential<Ours: AeadInOut + KeyInit, Peer: AeadInOut + KeyInit>(
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    msg: &[u8],
    flip: usize,
) {
    let ours = keyed::<Ours>(key, nonce, aad, msg, flip);
    let theirs = keyed::<Peer>(key, nonce, aad, msg, flip);
    check_pair(ours, theirs, msg);
}

/// `<stem>_pass.blb` through [`wycheproof_pass`] and `<stem>_fail.blb` through
/// [`wycheproof_fail`] (RustCrypto's file naming); both must hold records. Returns the pass and
/// fail record counts.
pub fn wycheproof_blobby<C: AeadInOut + KeyInit>(
    package: &str,
    version: &str,
    stem: &str,
) -> (usize, usize) {
    let pass = wycheproof_pass::<C>(package, version, &format!("{stem}_pass.blb"));
    let fail = wycheproof_fail::<C>(package, version, &format!("{stem}_fail.blb"));
    assert!(pass > 0 && fail > 0, "{stem}: {pass} pass, {fail} fail");
    (pass, fail)
}

/// A 70,000-byte message (many 512-byte pieces and a tail) for the bulk paths.
pub fn long_message() -> Vec<u8> {
    (0..70_000u32).map(|i| (i * 31 + 7) as u8).collect()
}

/// Tessera's `Ours` has the peer's key, nonce and tag sizes and tag position.
pub fn same_constants<Ours: AeadCore + KeyInit, Peer: AeadCore + KeyInit>() {
    assert_eq!(sizes::<Ours>(), sizes::<Peer>());
    assert_eq!(Ours::TAG_POSITION, Peer::TAG_POSITION);
}

/// One proptest input of the differential tests: key, nonce, AAD, message and the tampering
/// selector of [`exercise`].
#[derive(Debug, Clone)]
pub struct Input {
    /// The key.
    pub key: Vec<u8>,
    /// The nonce.
    pub nonce: Vec<u8>,
    /// The associated data.
    pub aad: Vec<u8>,
    /// The message.
    pub msg: Vec<u8>,
    /// Picks the flipped bit and nonce byte.
    pub flip: usize,
}

impl Input {
    /// [`differential`] on this input.
    pub fn differential<Ours: AeadInOut + KeyInit, Peer: AeadInOut + KeyInit>(&self) {
        differential::<Ours, Peer>(&self.key, &self.nonce, &self.aad, &self.msg, self.flip);
    }
}

/// Inputs with a `key`-byte key, a `nonce`-byte nonce, up to `aad_max` bytes of AAD (lengths
/// near 16-byte blocks) and up to `msg_max` bytes of message (lengths near `msg_block`).
pub fn inputs(
    key: usize,
    nonce: usize,
    aad_max: usize,
    msg_block: usize,
    msg_max: usize,
) -> impl proptest::strategy::Strategy<Value = Input> {
    use crate::strategies::bytes_near_blocks;
    use proptest::prelude::*;
    (
        proptest::collection::vec(any::<u8>(), key),
        proptest::collection::vec(any::<u8>(), nonce),
        bytes_near_blocks(16, aad_max),
        bytes_near_blocks(msg_block, msg_max),
        any::<usize>(),
    )
        .prop_map(|(key, nonce, aad, msg, flip)| Input {
            key,
            nonce,
            aad,
            msg,
            flip,
        })
}
