//! `cargo xtask vectors`: checks the sha256 of every official vector file in
//! `vectors/manifest.tsv`, looked up in testkit's vector roots (the same rule the tests use).

use std::path::PathBuf;
use std::process::Command;

use crate::cmd::root;

/// True when every file of the manifest is found and has the manifest's sha256.
pub fn vectors() -> bool {
    let manifest = root().join("vectors/manifest.tsv");
    let Ok(text) = std::fs::read_to_string(&manifest) else {
        eprintln!("missing {}", manifest.display());
        return false;
    };
    let roots = tessera_testkit::vector_roots();
    println!("vector roots, in order: {roots:?}");
    let mut ok = true;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (file, sha) = (f[0], f[f.len() - 1]);
        // The first root that has the file, as `tessera_testkit::vector_file` picks it.
        let found: Option<PathBuf> = roots.iter().map(|r| r.join(file)).find(|p| p.is_file());
        let got = found.as_ref().and_then(|p| {
            Command::new("sha256sum").arg(p).output().ok().map(|o| {
                String::from_utf8_lossy(&o.stdout)
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
        });
        let verdict = match got.as_deref() {
            Some(g) if g == sha => "ok     ",
            Some(_) => "MISMATCH",
            None => "MISSING ",
        };
        ok &= got.as_deref() == Some(sha);
        println!("{verdict} {file}");
    }
    ok
}
