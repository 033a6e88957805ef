//! Generic checks of the RustCrypto `digest` 0.11 traits (feature `digest`), shared by the hash
//! crates' `tests/digest.rs`: each crate calls them with its own hashers, its RustCrypto peers
//! and the peer packages' published vector files.
//!
//! - [`blobs`], [`hash_vectors`]: RustCrypto `.blb` records, leaked for `digest::dev`.
//! - [`fixed_reset_kat`]: a fixed-output KAT file through `digest::dev::fixed_reset_test`.
//! - [`fixed_kat_on`]: the same file on a hasher composed from a chosen core (a pinned
//!   backend), fed whole and in chunks.
//! - [`wycheproof_hmac`]: a Wycheproof HMAC set through `hmac::Hmac<D>` and `HmacReset<D>`.
//! - [`same_digest`]: a proptest body comparing a hasher with RustCrypto's across update split
//!   points, `finalize_reset` and a clone.

use digest::block_api::{CoreProxy, EagerHash};
use digest::dev::{TestVector, fixed_reset_test};
use digest::{Digest, KeyInit, Mac};
use proptest::prelude::*;

use crate::registry::{blobby_records, package_file};
use crate::wycheproof::{Tally, TestResult};

/// The records (`fields` each) of `<package> <version>`'s `tests/data/<name>.blb`, leaked
/// (`digest::dev` takes `'static` slices). At least one record.
pub fn blobs(package: &str, version: &str, name: &str, fields: usize) -> Vec<Vec<&'static [u8]>> {
    let data = package_file(package, version, &format!("tests/data/{name}.blb"));
    let recs = blobby_records(&data, fields);
    assert!(!recs.is_empty(), "{package} {name}: no records");
    recs.into_iter()
        .map(|r| {
            r.into_iter()
                .map(|b| &*Box::leak(b.into_boxed_slice()))
                .collect()
        })
        .collect()
}

/// The (input, output) records of a RustCrypto hash KAT file as `digest::dev` test vectors.
pub fn hash_vectors(package: &str, version: &str, name: &str) -> Vec<TestVector> {
    blobs(package, version, name, 2)
        .into_iter()
        .map(|r| TestVector {
            input: r[0],
            output: r[1],
        })
        .collect()
}

/// `fixed_reset_test` (whole message, clone + reset, chunks of 1..16 bytes) on every vector of
/// the file. Returns the vector count.
pub fn fixed_reset_kat<D>(package: &str, version: &str, name: &str) -> usize
where
    D: digest::FixedOutputReset + Clone + Default + digest::HashMarker,
{
    let tvs = hash_vectors(package, version, name);
    for (i, tv) in tvs.iter().enumerate() {
        fixed_reset_test::<D>(tv).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
    }
    eprintln!("{package} {name}: {} vectors", tvs.len());
    tvs.len()
}

/// The file's vectors on a hasher composed from `core()` (e.g. a core pinned to one backend),
/// fed in one update and in a `head`-byte then `chunk`-byte pieces (runs of whole blocks in one
/// core call). Returns the vector count.
pub fn fixed_kat_on<D: CoreProxy + Digest>(
    package: &str,
    version: &str,
    name: &str,
    head: usize,
    chunk: usize,
    core: impl Fn() -> D::Core,
) -> usize {
    let tvs = hash_vectors(package, version, name);
    for (i, tv) in tvs.iter().enumerate() {
        let mut h = D::compose(core(), Default::default());
        Digest::update(&mut h, tv.input);
        assert_eq!(h.finalize()[..], tv.output[..], "{name} #{i}");
        let mut h = D::compose(core(), Default::default());
        let (a, b) = tv.input.split_at(tv.input.len().min(head));
        Digest::update(&mut h, a);
        for c in b.chunks(chunk) {
            Digest::update(&mut h, c);
        }
        assert_eq!(h.finalize()[..], tv.output[..], "{name} #{i} chunked");
    }
    tvs.len()
}

/// One Wycheproof HMAC set through `hmac::Hmac<D>` and `hmac::HmacReset<D>`: tags verified
/// (truncated from the left to the group's size) with `verify_truncated_left`, valid tags
/// recomputed. Requires valid and invalid cases; returns the tally.
pub fn wycheproof_hmac<D: EagerHash>(name: ::wycheproof::mac::TestName) -> Tally {
    let set = ::wycheproof::mac::TestSet::load(name).unwrap();
    let mut tally = Tally::default();
    for g in &set.test_groups {
        let tag_len = g.tag_size / 8;
        for t in &g.tests {
            let what = format!("{name:?} tc {} ({})", t.tc_id, t.comment);
            let mut m = hmac::Hmac::<D>::new_from_slice(&t.key).unwrap();
            Mac::update(&mut m, &t.msg);
            let full = m.clone().finalize().into_bytes();
            let ok = m.verify_truncated_left(&t.tag).is_ok();
            let mut r = <hmac::HmacReset<D> as KeyInit>::new_from_slice(&t.key).unwrap();
            Mac::update(&mut r, b"discarded");
            Mac::reset(&mut r);
            Mac::update(&mut r, &t.msg);
            let ok_reset = r.verify_truncated_left(&t.tag).is_ok();
            assert_eq!(ok, ok_reset, "{what}: Hmac and HmacReset differ");
            // The sets' invalid cases include empty and over-long tags, which
            // `verify_truncated_left` rejects; a valid tag is a prefix of the full one.
            if t.result == TestResult::Valid {
                assert_eq!(&full[..tag_len], &t.tag[..], "{what}");
            }
            tally.check(&what, t.result, ok, false);
        }
    }
    tally.report(&format!("Wycheproof {name:?} via hmac::Hmac"));
    assert!(tally.valid > 0 && tally.invalid > 0, "{name:?}: {tally:?}");
    tally
}

/// `Digest` of Tessera's `D` against RustCrypto's `R` on `msg` fed in three updates split at
/// `a` and `b` (clamped and ordered), through `finalize_reset` (then reused), `finalize` and a
/// clone taken mid-message.
pub fn same_digest<D: Digest + Clone + digest::FixedOutputReset, R: Digest>(
    msg: &[u8],
    a: usize,
    b: usize,
) -> Result<(), TestCaseError> {
    let (a, b) = (a.min(msg.len()), b.min(msg.len()));
    let (a, b) = (a.min(b), a.max(b));
    let want = R::digest(msg);
    let mut h = D::new();
    Digest::update(&mut h, &msg[..a]);
    let snapshot = h.clone();
    Digest::update(&mut h, &msg[a..b]);
    Digest::update(&mut h, &msg[b..]);
    prop_assert_eq!(&Digest::finalize_reset(&mut h)[..], &want[..]);
    Digest::update(&mut h, msg);
    prop_assert_eq!(&h.finalize()[..], &want[..]);
    let mut s = snapshot;
    Digest::update(&mut s, &msg[a..]);
    prop_assert_eq!(&s.finalize()[..], &want[..]);
    Ok(())
}
