//! Test data published inside other crates' packages (RustCrypto's `tests/data/*.blb` files, the
//! LAMPS key examples shipped with `ml-kem` / `ml-dsa`), read where Cargo unpacked the package:
//! `$CARGO_HOME/registry/src/<index>/<name>-<version>/`. The package is present when the test
//! crate has it as a (dev-)dependency, so a missing file is a failure, never a skip.

use std::path::PathBuf;

/// `$CARGO_HOME` (default `~/.cargo`).
fn cargo_home() -> PathBuf {
    if let Some(h) = std::env::var_os("CARGO_HOME") {
        return PathBuf::from(h);
    }
    let home = std::env::var_os("HOME").expect("neither CARGO_HOME nor HOME is set");
    PathBuf::from(home).join(".cargo")
}

/// The unpacked package directory of `name` whose version starts with `version_prefix`
/// (`"0.11."` picks the newest 0.11.x present). Panics when none is unpacked.
pub fn package_dir(name: &str, version_prefix: &str) -> PathBuf {
    let src = cargo_home().join("registry/src");
    let prefix = format!("{name}-{version_prefix}");
    let mut found: Vec<(Vec<u64>, PathBuf)> = Vec::new();
    for index in std::fs::read_dir(&src).unwrap_or_else(|e| panic!("{}: {e}", src.display())) {
        let index = index.expect("registry/src entry").path();
        let Ok(entries) = std::fs::read_dir(&index) else {
            continue;
        };
        for e in entries.flatten() {
            let file_name = e.file_name();
            let Some(dir) = file_name.to_str() else {
                continue;
            };
            if let Some(ver) = dir.strip_prefix(&format!("{name}-"))
                && dir.starts_with(&prefix)
            {
                let key = ver.split('.').map(|p| p.parse().unwrap_or(0)).collect();
                found.push((key, e.path()));
            }
        }
    }
    found.sort();
    match found.pop() {
        Some((_, dir)) => dir,
        None => panic!(
            "package {name} {version_prefix}* is not unpacked under {}: it must be a \
             dev-dependency of the test crate",
            src.display()
        ),
    }
}

/// The bytes of `rel` (e.g. `tests/data/sha256_kat.blb`) in the package of [`package_dir`].
pub fn package_file(name: &str, version_prefix: &str, rel: &str) -> Vec<u8> {
    let p = package_dir(name, version_prefix).join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The records of a blobby file (RustCrypto's test-vector container): the blobs in order,
/// `fields` per record. Panics on a malformed file or a blob count not divisible by `fields`.
pub fn blobby_records(data: &[u8], fields: usize) -> Vec<Vec<Vec<u8>>> {
    let blobs = blobby::parse_into_vec(data).expect("malformed blobby file");
    assert!(!blobs.is_empty(), "empty blobby file");
    assert_eq!(
        blobs.len() % fields,
        0,
        "{} blobs, not records of {fields}",
        blobs.len()
    );
    blobs
        .chunks(fields)
        .map(|r| r.iter().map(|b| b.to_vec()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn blobby_round_trip() {
        let blobs: [&[u8]; 4] = [b"abc", b"", b"abc", b"xyz0123"];
        let (enc, _) = blobby::encode_blobs(&blobs);
        let recs = super::blobby_records(&enc, 2);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0], vec![b"abc".to_vec(), Vec::new()]);
        assert_eq!(recs[1], vec![b"abc".to_vec(), b"xyz0123".to_vec()]);
    }
}
