//! Test helpers shared by every Tessera crate (publish = false).
//!
//! - [`vector_file`]: finds official vector files (`TESSERA_VECTORS`, else `vectors/official/`,
//!   else `../shared/vectors` beside the checkout). Under `CI` a missing file is a failure.
//! - [`cavp`]: a reader for NIST CAVP `.rsp` files.
//! - [`hex`]: hex decoding.
//! - [`strategies`]: proptest strategies with lengths clustered around block boundaries.
//! - [`expect_backends`]: fails a test when a backend listed in `TESSERA_EXPECT_BACKENDS` is absent.

use std::path::{Path, PathBuf};

/// The workspace root (two levels above this crate's manifest).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Locates `<set>/<file>` among the official vectors. Returns `None` (after printing how to get
/// the files) when absent on a developer machine; panics when absent under `CI`.
pub fn vector_file(set: &str, file: &str) -> Option<PathBuf> {
    let mut roots = Vec::new();
    if let Ok(v) = std::env::var("TESSERA_VECTORS") {
        roots.push(PathBuf::from(v));
    }
    let root = workspace_root();
    roots.push(root.join("vectors/official"));
    roots.push(root.join("../shared/vectors"));
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
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("bad hex"))
            .collect()
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
}

/// Checks the backends a test actually exercised against `TESSERA_EXPECT_BACKENDS`
/// (comma-separated, set by CI and `cargo xtask test` per leg).
///
/// Among the backends this crate has (`known`), exactly the listed ones must be available:
/// a listed backend that is missing fails (a skipped backend never passes silently), and so does
/// an unlisted one that is present (the dispatcher must not pick what the emulated CPU lacks).
/// Always prints which backends were exercised.
pub fn expect_backends(crate_name: &str, known: &[&str], available: &[&str]) {
    eprintln!("{crate_name}: backends exercised: {available:?}");
    let Ok(list) = std::env::var("TESSERA_EXPECT_BACKENDS") else {
        eprintln!("{crate_name}: TESSERA_EXPECT_BACKENDS not set; not checking");
        return;
    };
    let wanted: Vec<&str> = list.split(',').map(str::trim).collect();
    for k in known {
        let want = wanted.contains(k);
        let have = available.contains(k);
        assert_eq!(
            want,
            have,
            "{crate_name}: backend {k}: expected {}, but it is {} (have {available:?}, expected {wanted:?})",
            if want { "present" } else { "absent" },
            if have { "present" } else { "absent" },
        );
    }
}
